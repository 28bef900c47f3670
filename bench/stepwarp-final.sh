#!/usr/bin/env bash
# stepwarp-final.sh: one device command (one GPU, ~7 minutes) for the
# step-block engine's one-warp kernel as the engine's default: build the
# CLI and every GPU test; test_gpu_trsv_stepblock first (stepblock-test.log);
# issue 3's problems of >= 10^4 levels with auto, thread, stepblock (the
# one-warp kernel), stepblock-256 and cusparse (deep.csv/.txt); the kernel's
# cycle profile on the 10^6-row DAG of 10^5 levels (profile.txt); then
# `ctest -L gpu` (gpu-test.log).  Results: bench/results/h200-stepwarp.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_levels test_gpu_precond test_gpu_spmm test_gpu_stencil test_gpu_trsv test_gpu_trsv_block test_gpu_trsv_lanes test_gpu_trsv_levelblock test_gpu_trsv_long_rows test_gpu_trsv_stepblock"
source bench/device-build.sh
(cd $B && timeout 90 ctest -R test_gpu_trsv_stepblock --output-on-failure) > "$OUT/stepblock-test.log" 2>&1
tail -n 3 "$OUT/stepblock-test.log"
export B MATS OUT DOMINO_BUILT=1
ENGINES=${DEEP_ENGINES:-auto,thread,stepblock,stepblock-256,cusparse} PER_PROBLEM_S=60 TAG=deep timeout ${DEEP_S:-230} \
  bash bench/gpu-run.sh none ${DEEP:-dag:1000000:8:10000 dag:1000000:8:100000 dag:1000000:2:1000000 \
  dag:1000000:8:100000:100 dag:10000000:8:10000 dag:10000000:8:100000} 2>&1 | tail -n 40
DOMINO_STEPBLOCK_PROFILE=1 timeout 60 $B/domino bench --problem dag:1000000:8:100000 --engines stepblock \
  --repeat 2 2>&1 | grep -E "stepwarp profile|stepblock" | tee "$OUT/profile.txt"
(cd $B && timeout ${TEST_S:-200} ctest -L gpu --timeout 150 --output-on-failure) > "$OUT/gpu-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|failed" "$OUT/gpu-test.log" | tail -n 14
