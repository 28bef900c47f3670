#!/usr/bin/env bash
# stepwarp-check.sh: a short device command (one GPU, ~3 min) for the
# commits after h200-stepblock's final run (compiled only until then), in
# order of what matters most, each step's output in $OUT as it goes:
#  1. build the CLI and the trsv tests; test_gpu_trsv_stepblock (the
#     review fixes, the one-warp variant with 1 and 31 loader warps, the
#     tests' shared DAG helper) -> test-stepblock.log;
#  2. bench/micro/warp_round.cu -> warp_round.txt;
#  3. thread, stepblock, stepblock-warp and cusparse on two deep DAGs
#     -> deep.txt;
#  4. test_gpu_trsv, _block, _lanes, _levelblock -> test-rest.log.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_trsv_stepblock test_gpu_trsv test_gpu_trsv_block test_gpu_trsv_lanes test_gpu_trsv_levelblock"
source bench/device-build.sh
( cd $B && timeout 90 ctest -R 'test_gpu_trsv_stepblock' --timeout 80 --output-on-failure ) > "$OUT/test-stepblock.log" 2>&1
grep -E "Test *#|tests passed|FAIL|kept" "$OUT/test-stepblock.log"
nvcc -O3 -arch=sm_90 -o "$B/warp_round" bench/micro/warp_round.cu 2>/dev/null && timeout 30 "$B/warp_round" | tee "$OUT/warp_round.txt"
for p in ${DEEP:-dag:1000000:8:100000 dag:1000000:8:100000:100}; do
  timeout 40 $B/domino bench --problem "$p" --engines thread,stepblock,stepblock-warp,cusparse --repeat 5 2>&1 \
    | grep -v "^#" | tee -a "$OUT/deep.txt"
done
( cd $B && timeout ${REST_S:-100} ctest -R 'test_gpu_trsv$|test_gpu_trsv_block|test_gpu_trsv_lanes|test_gpu_trsv_levelblock' --timeout 60 --output-on-failure ) > "$OUT/test-rest.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test-rest.log"
