#!/usr/bin/env bash
# x4-check6.sh: one device command (nvidia-h200-x4, about 9 minutes): the
# first GPU run of everything compiled only since bench/results/h200-levelblock
# (review fixes of the level-block engine, shared test helpers, the
# prefilter experiment, the plan split, domino_env_int):
#  1. build everything; ctest -L "gpu|dist" -> test.log;
#  2. the shared matrices with auto, thread and cusparse -> small.csv/.txt
#     (compare h200-levelblock/small.csv);
#  3. the same with DOMINO_LEVELBLOCK_PREFILTER=1 -> prefilter.csv/.txt
#     (an experiment measured here and removed after: bench/results/h200x4-check6).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout ${TEST_S:-270} ctest -L "gpu|dist" --timeout 150 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/test.log" | tail -30
export B MATS OUT DOMINO_BUILT=1
TESTS=none ENGINES=auto,thread,cusparse SUITE_S=${SUITE_S:-100} PER_PROBLEM_S=30 SWEEP=0 DEEP=" " TAG=small \
  bash bench/trsv-session.sh | tail -25
TESTS=none DOMINO_LEVELBLOCK_PREFILTER=1 ENGINES=auto SUITE_S=60 PER_PROBLEM_S=20 SWEEP=0 DEEP=" " TAG=prefilter \
  bash bench/trsv-session.sh | tail -25
