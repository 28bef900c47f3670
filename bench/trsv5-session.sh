#!/usr/bin/env bash
# trsv5-session.sh: one device command (one GPU, under 600 s) behind
# bench/results/h100-trsv5: the full build and `ctest -L gpu`
# (gpu-test.log), the trsv suite with auto, thread and cusparse in one run
# (trsv.csv, trsv.txt), and the thread engine again with arrival-order sums
# (DOMINO_ANY_ORDER=1) on the problems that take seconds, not minutes
# (sweep.txt; its stored-order counterpart is the suite's thread row).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
bash bench/gpu-run.sh test
DEEP="d2n5:1024x1024 d2n5:2048x2048 d3n7:128 d3n7:192 d3n27:128 d3n27:192 dag:1000000:8:1 \
dag:1000000:8:10 dag:1000000:8:100 dag:1000000:8:1000 dag:1000000:8:10000 dag:1000000:8:100000 \
dag:1000000:2:1000000 dag:1000000:8:100000:100 dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100 \
dag:10000000:8:1000 dag:10000000:8:10000 dag:10000000:8:100000 rmat:20 rmat:21 rmat:22"
MATS=${DOMINO_MATRICES:-$(pwd)/.carry/matrices}
AB="$(ls "$MATS"/*.mtx) d2n5:1024x1024 d3n7:128 d3n27:128 dag:1000000:8:10 dag:1000000:8:100 \
dag:1000000:8:1000 dag:1000000:8:10000 dag:1000000:8:100000:100 rmat:20"
DOMINO_BUILT=1 TESTS=none ENGINES=auto,thread,cusparse SUITE_S=${SUITE_S:-250} PER_PROBLEM_S=80 \
  DEEP="$DEEP" SWEEP_ENGINES=thread SWEEP_PER_S=20 SETTINGS=DOMINO_ANY_ORDER=1 SWEEP_PROBLEMS="$AB" \
  bash bench/trsv-session.sh
