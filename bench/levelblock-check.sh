#!/usr/bin/env bash
# levelblock-check.sh: one device command (one GPU, about 4 minutes): the
# first GPU run of what came after bench/results/h200-levelblock, compiled
# only until then:
#  1. build; the tests of the level-block engine and of the shared test
#     helpers (test_gpu_trsv, _levelblock, _block, _lanes, _long_rows,
#     test_gpu_precond) -> gpu-test.log;
#  2. the shared matrices with auto, thread and cusparse -> small.csv/.txt
#     (compare h200-levelblock/small.csv: same solves expected);
#  3. the same with DOMINO_LEVELBLOCK_PREFILTER=1 (AUTO counts the levels
#     on the GPU and builds the host order only where the engine pays) ->
#     prefilter.csv/.txt: auto's analysis on the systems it turns down
#     (bayer10 1.33 ms, crack 0.92 ms in h200-levelblock) should drop.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
T="test_gpu_trsv test_gpu_trsv_levelblock test_gpu_trsv_block test_gpu_trsv_lanes test_gpu_trsv_long_rows test_gpu_precond"
TARGETS="$T" TESTS='test_gpu_trsv$|levelblock|trsv_block|trsv_lanes|long_rows|test_gpu_precond' TEST_S=200 \
  ENGINES=auto,thread,cusparse SUITE_S=100 PER_PROBLEM_S=30 SWEEP=0 DEEP=" " TAG=small bash bench/trsv-session.sh
DOMINO_BUILT=1 B=build-gpu MATS=${DOMINO_MATRICES:-$(pwd)/.carry/matrices} TESTS=none DOMINO_LEVELBLOCK_PREFILTER=1 \
  ENGINES=auto SUITE_S=60 PER_PROBLEM_S=20 SWEEP=0 DEEP=" " TAG=prefilter bash bench/trsv-session.sh
