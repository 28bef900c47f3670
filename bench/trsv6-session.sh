#!/usr/bin/env bash
# trsv6-session.sh: one device command (one GPU, under 600 s) behind
# bench/results/h100-trsv6: the build, test_gpu_trsv and
# test_gpu_trsv_long_rows (gpu-test.log), then the trsv suite with auto,
# thread-any (rows summed in arrival order) and cusparse in one run
# (trsv.csv, trsv.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DEEP="d2n5:1024x1024 d2n5:2048x2048 d3n7:128 d3n7:192 d3n27:128 d3n27:192 dag:1000000:8:1 \
dag:1000000:8:10 dag:1000000:8:100 dag:1000000:8:1000 dag:1000000:8:10000 dag:1000000:8:100000 \
dag:1000000:2:1000000 dag:1000000:8:100000:100 dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100 \
dag:10000000:8:1000 dag:10000000:8:10000 dag:10000000:8:100000 rmat:20 rmat:21 rmat:22"
TARGETS="test_gpu_trsv test_gpu_trsv_long_rows" TESTS='test_gpu_trsv$|test_gpu_trsv_long' \
  ENGINES=auto,thread-any,cusparse SUITE_S=${SUITE_S:-430} PER_PROBLEM_S=80 SWEEP=0 DEEP="$DEEP" \
  bash bench/trsv-session.sh
