#!/usr/bin/env bash
# x2-diag17.sh: one device command (nvidia-h200-x2) after the seventeenth
# session's two changes: test_gpu_trsv and test_dist_trsv (2 PEs) ->
# test.log; the thread engine's diagonal solve (trsv_diagonal.cu) on the
# one-level DAGs, beside cusparseSpSV -> diag.csv, diag.txt; the pull
# solver's new lanes rule and grid (a thread per row, 6 blocks an SM) on 2
# PEs against the old choice (2 lanes) -> confirm-p2.csv in csv.tgz,
# tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-"test_gpu_trsv test_dist_trsv"} source bench/device-start.sh
( cd $B && timeout ${TEST_S:-240} ctest -R "test_gpu_trsv$|test_dist_trsv$" --timeout 220 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed" "$OUT/test.log"
ENGINES=auto,thread,cusparse REPEAT=10 PER_PROBLEM_S=60 TAG=diag DOMINO_BUILT=1 bash bench/gpu-run.sh none \
  dag:10000000:8:1 dag:1000000:8:1 dag:13436:1:1 dag:10000000:8:10
cat "$OUT/diag.txt"
run_suite trsv-dist confirm-p2 2 ${CONFIRM_S:-120} --repeat 5 \
  --problem dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000 \
  --engines domino-1gpu,pull-auto,pull-tied-level-copies-lanes2
( cd "$OUT" && ls confirm*.csv >/dev/null 2>&1 && tar czf csv.tgz confirm*.csv && rm -f confirm*.csv )
true
