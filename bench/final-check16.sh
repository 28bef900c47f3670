#!/usr/bin/env bash
# final-check16.sh: one device command on a 2-GPU kind: the GPU tests of
# the code the sixteenth session changed after its 4-GPU test run (the
# deferred choice's fallbacks, trsv_plan_deferred.c; the CSC push kernel's
# preload dropped, dist_trsv_kernel.cu) -> test.log
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS="test_gpu_trsv test_gpu_trsv_levelblock test_gpu_stencil test_dist_trsv" source bench/device-start.sh
( cd $B && timeout ${TEST_S:-120} ctest -R "test_gpu_trsv$|test_gpu_trsv_levelblock|test_gpu_stencil|test_dist_trsv$" \
    --timeout 100 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|Total Test" "$OUT/test.log"
