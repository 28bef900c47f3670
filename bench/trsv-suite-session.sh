#!/usr/bin/env bash
# trsv-suite-session.sh: one device command (one GPU, under 600 s): the
# build, the gpu tests matching TESTS (default every one, as make gpu-test;
# gpu-test.log), then the whole trsv suite with ENGINES (default
# auto,cusparse) in one process per problem (trsv.csv, trsv.txt).
# Behind bench/results/h100-trsv6 (ENGINES=auto,thread-any,cusparse
# TESTS='test_gpu_trsv$|test_gpu_trsv_long'), h100-trsv7
# (TESTS='test_gpu_trsv$|test_gpu_trsv_long|test_gpu_trsv_lanes|test_gpu_precond')
# and h100-trsv8 (the defaults).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DEEP="d2n5:1024x1024 d2n5:2048x2048 d3n7:128 d3n7:192 d3n27:128 d3n27:192 dag:1000000:8:1 \
dag:1000000:8:10 dag:1000000:8:100 dag:1000000:8:1000 dag:1000000:8:10000 dag:1000000:8:100000 \
dag:1000000:2:1000000 dag:1000000:8:100000:100 dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100 \
dag:10000000:8:1000 dag:10000000:8:10000 dag:10000000:8:100000 rmat:20 rmat:21 rmat:22"
TARGETS="test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_lanes test_gpu_trsv_block test_gpu_trsv_levelblock test_gpu_precond test_gpu_stencil test_gpu_spmm" \
  TESTS="${TESTS:-test_gpu}" TEST_S=200 \
  ENGINES=${ENGINES:-auto,cusparse} SUITE_S=${SUITE_S:-360} PER_PROBLEM_S=80 SWEEP=0 DEEP="$DEEP" \
  bash bench/trsv-session.sh
