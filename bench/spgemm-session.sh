#!/usr/bin/env bash
# spgemm-session.sh: one device command (under 600 s) for the distributed
# SpGEMM (issue 9): the ctests of $TEST_LABELS (default dist; gpu|dist for
# both); with
# TRY_PES the SpGEMM and SpMM dist tests and a small spgemm suite again with
# that many PEs sharing the GPUs (NVSHMEM's several processes per GPU: a
# correctness check on a one-GPU machine, no timings); then the spgemm suite
# on one PE per GPU (PROBLEMS, TILES: a list of tile counts, 0 = default).  Results in $OUT: spgemm-test*.log,
# spgemm.csv/txt.
#   bash bench/spgemm-session.sh                 (PROBLEMS, TILES, REPEAT, TRY_PES)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /dev/null
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-8G}
( cd $B && timeout ${TEST_S:-260} ctest -L "${TEST_LABELS:-dist}" --timeout 150 --output-on-failure ) \
  > "$OUT/spgemm-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|fail" "$OUT/spgemm-test.log" | grep -v "not implemented" | tail -16
if [ "${TRY_PES:-0}" -gt 1 ]; then
  for t in test_dist_spgemm_gpu test_dist_spmm_gpu; do
    DOMINO_TEST_PES=$TRY_PES NVSHMEM_SYMMETRIC_SIZE=2G timeout 150 $B/$t > "$OUT/$t-${TRY_PES}pe.log" 2>&1
    echo "$t with $TRY_PES PEs: exit $?"; grep -E "passed|FAIL|rror" "$OUT/$t-${TRY_PES}pe.log" | head -12
  done
  echo "# $B/domino run -n $TRY_PES bench --suite spgemm --problem rmat:16 --repeat 2 (PEs sharing the GPUs: a check, not a timing)" > "$OUT/spgemm-${TRY_PES}pe.txt"
  NVSHMEM_SYMMETRIC_SIZE=2G timeout 100 $B/domino run -n $TRY_PES bench --suite spgemm --problem rmat:16 --repeat 2 2>&1 | tee -a "$OUT/spgemm-${TRY_PES}pe.txt" | tail -14
fi
PES=${PES:-$(nvidia-smi -L | wc -l)}
P=${PROBLEMS:-rmat:16,rmat:18,rmat:20}
for t in ${TILES:-0}; do
  T=spgemm$([ "$t" != 0 ] && echo "-t$t")
  targ=""; [ "$t" != 0 ] && targ="--tiles $t"
  echo "# $B/domino run -n $PES bench --suite spgemm --problem $P $targ --repeat ${REPEAT:-3} --csv $T.csv ; $(date -u +%FT%TZ) ; $(tail -1 $OUT/device.txt)" > "$OUT/$T.txt"
  timeout ${SPGEMM_S:-200} $B/domino run -n $PES bench --suite spgemm --problem $P $targ --repeat ${REPEAT:-3} \
    --csv "$OUT/$T.csv" 2>&1 | tee -a "$OUT/$T.txt" | tail -40
done
