#!/usr/bin/env bash
# trsv7-session.sh: one device command (one GPU, under 600 s) behind
# bench/results/h100-trsv7: the build, the gpu tests of the trsv engines
# (gpu-test.log), then the trsv suite with auto (which now times both walks
# on its first four solves and keeps the faster) and cusparse in one run
# (trsv.csv, trsv.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DEEP="d2n5:1024x1024 d2n5:2048x2048 d3n7:128 d3n7:192 d3n27:128 d3n27:192 dag:1000000:8:1 \
dag:1000000:8:10 dag:1000000:8:100 dag:1000000:8:1000 dag:1000000:8:10000 dag:1000000:8:100000 \
dag:1000000:2:1000000 dag:1000000:8:100000:100 dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100 \
dag:10000000:8:1000 dag:10000000:8:10000 dag:10000000:8:100000 rmat:20 rmat:21 rmat:22"
TARGETS="test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_lanes test_gpu_precond" \
  TESTS='test_gpu_trsv$|test_gpu_trsv_long|test_gpu_trsv_lanes|test_gpu_precond' \
  ENGINES=auto,cusparse SUITE_S=${SUITE_S:-400} PER_PROBLEM_S=80 SWEEP=0 DEEP="$DEEP" \
  bash bench/trsv-session.sh
