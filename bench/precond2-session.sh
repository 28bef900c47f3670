#!/usr/bin/env bash
# precond2-session.sh: one device command (one GPU, under 600 s) behind
# bench/results/h100-precond2: builds the CLI and test_gpu_precond, runs it
# (gpu-test.log), then `domino bench --suite precond` with the lanes per row
# the plan picks (precond.csv/.txt/.json), then again with
# DOMINO_FACTOR_LANES=$OTHER_LANES (default 32: a warp per row, the kernel
# before) for as long as time is left (precond-lanes$OTHER_LANES.txt; OTHER_LANES
# may list several, or be empty: none).  h100-precond3 is
# OTHER_LANES= SUITE_S=420 bash bench/precond2-session.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh
TESTS=test_gpu_precond run_gpu_tests
timeout ${SUITE_S:-260} $B/domino bench --suite precond --csv "$OUT/precond.csv" --json-out "$OUT/precond.json" \
  > "$OUT/precond.txt" 2>&1
echo "suite: rc $?"
for l in ${OTHER_LANES-32}; do
  DOMINO_FACTOR_LANES=$l timeout ${OTHER_S:-200} $B/domino bench --suite precond > "$OUT/precond-lanes$l.txt" 2>&1
  echo "suite, lanes $l: rc $?"
done
