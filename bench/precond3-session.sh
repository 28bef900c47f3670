#!/usr/bin/env bash
# precond3-session.sh: one device command (one GPU, under 600 s) behind
# bench/results/h100-precond3: builds the CLI and test_gpu_precond, runs it
# (gpu-test.log), then `domino bench --suite precond` (precond.csv/.txt/.json)
# on the code with the one-launch solve, the walk trial and each row's
# triangle (long upper rows reversed).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh
TESTS=test_gpu_precond run_gpu_tests
timeout ${SUITE_S:-420} $B/domino bench --suite precond --csv "$OUT/precond.csv" --json-out "$OUT/precond.json" \
  > "$OUT/precond.txt" 2>&1
echo "suite: rc $?"
