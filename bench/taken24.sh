#!/usr/bin/env bash
# taken24.sh: one device command (one GPU): where a critical-path hop goes,
# before or after the row's warp took it (domino trace's new split).
#   test_gpu_trsv_contract (the trace's checks) -> gpu-test.log
#   domino trace on R-MAT 20-22, a DAG of 10^6 rows and 1000 levels and
#   copter2 -> trace.txt
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw} NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_trsv_contract" source bench/device-build.sh > "$OUT/build.log" 2>&1
grep -E "^build|error" "$OUT/build.log" | head
( cd $B && timeout 120 ctest -R "test_gpu_trsv_contract" --timeout 110 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/gpu-test.log" | head -4
for p in rmat:20 rmat:21 rmat:22 dag:1000000:8:1000 $DOMINO_MATRICES/copter2.mtx; do
  timeout 100 $B/domino trace $p >> "$OUT/trace.txt" 2>&1
done
grep -E "^trace|critical|^  [0-9>]|^  row" "$OUT/trace.txt"
