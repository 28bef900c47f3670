#!/usr/bin/env bash
# trsv-check7.sh: one device command (one GPU, about 4 minutes): the first
# GPU run of AUTO's host level count (the level order built only where the
# level-block engine pays):
#  1. build; test_gpu_trsv, _levelblock, _block, _lanes, _long_rows and
#     test_gpu_precond -> gpu-test.log;
#  2. the shared matrices with auto, thread and cusparse, the analysis
#     phases traced (DOMINO_LEVELBLOCK_TRACE=1) -> small.csv/.txt
#     (compare bench/results/h200x4-check6/small.csv: same solves; auto's
#     analysis on the 10 small systems it gives the thread engine (n <=
#     32768) should drop from 0.23-1.63 ms towards the thread engine's
#     0.04-0.09 ms).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1 DOMINO_LEVELBLOCK_TRACE=1
T="test_gpu_trsv test_gpu_trsv_levelblock test_gpu_trsv_block test_gpu_trsv_lanes test_gpu_trsv_long_rows test_gpu_precond"
TARGETS="$T" TESTS='test_gpu_trsv$|levelblock|trsv_block|trsv_lanes|long_rows|test_gpu_precond' TEST_S=200 \
  ENGINES=auto,thread,cusparse SUITE_S=120 PER_PROBLEM_S=30 SWEEP=0 DEEP=" " TAG=small bash bench/trsv-session.sh
