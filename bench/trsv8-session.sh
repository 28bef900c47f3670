#!/usr/bin/env bash
# trsv8-session.sh: one device command (one GPU, under 600 s) behind
# bench/results/h100-trsv8: the build, every gpu test (gpu-test.log, as
# make gpu-test), then the trsv suite with auto and cusparse in one run
# (trsv.csv, trsv.txt), on the code after the triangle change and AUTO on
# the pull engine for op T.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DEEP="d2n5:1024x1024 d2n5:2048x2048 d3n7:128 d3n7:192 d3n27:128 d3n27:192 dag:1000000:8:1 \
dag:1000000:8:10 dag:1000000:8:100 dag:1000000:8:1000 dag:1000000:8:10000 dag:1000000:8:100000 \
dag:1000000:2:1000000 dag:1000000:8:100000:100 dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100 \
dag:10000000:8:1000 dag:10000000:8:10000 dag:10000000:8:100000 rmat:20 rmat:21 rmat:22"
TARGETS="test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_lanes test_gpu_trsv_block test_gpu_precond test_gpu_stencil test_gpu_spmm" \
  TESTS='test_gpu' TEST_S=200 \
  ENGINES=auto,cusparse SUITE_S=${SUITE_S:-360} PER_PROBLEM_S=80 SWEEP=0 DEEP="$DEEP" \
  bash bench/trsv-session.sh
