#!/usr/bin/env bash
# x4-backoff.sh (nvidia-h200-x4, PES=4, about 7 minutes): the multi-GPU
# solvers' waits on their own GPU's memory with a sleep between polls
# (DOMINO_DIST_BACKOFF_NS, default 0: none) and a smaller persistent grid
# (DOMINO_DIST_BLOCKS_PER_SM, default: as many as fit), on the 10^7-row DAGs
# of 10, 100 and 1000 levels and R-MAT 22: the pull solver with copies and
# level-tied tasks, zero-copy with level-tied tasks, domino's single GPU in
# every command -> tables.txt, bo-*.csv; test_dist_trsv with a back-off ->
# test.log
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS="test_dist_trsv" source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && DOMINO_DIST_BACKOFF_NS=256 timeout 120 ctest -R "test_dist_trsv$" --timeout 110 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/test.log" | tail -4
source bench/suite-log.sh
PROBLEMS=${PROBLEMS:-dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000,rmat:22}
ENGINES=${ENGINES:-domino-1gpu,pull-tied-level-copies,zerocopy-tied}
for setting in ${SETTINGS:-0:0 64:0 256:0 1024:0 0:8}; do
  export DOMINO_DIST_BACKOFF_NS=${setting%%:*} DOMINO_DIST_BLOCKS_PER_SM=${setting##*:}
  echo "# DOMINO_DIST_BACKOFF_NS=$DOMINO_DIST_BACKOFF_NS DOMINO_DIST_BLOCKS_PER_SM=$DOMINO_DIST_BLOCKS_PER_SM" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist bo-${setting/:/-} ${PES:-4} ${S:-90} --problem $PROBLEMS --engines $ENGINES --repeat 5
done
