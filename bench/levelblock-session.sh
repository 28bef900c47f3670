#!/usr/bin/env bash
# levelblock-session.sh: one device command (nvidia-h200-x2, about 8
# minutes): the level-block engine's first GPU run.
#  1. build everything (DOMINO_TARGETS: the CLI and those); ctest -L gpu
#     (those matching TESTS), and test_dist_stencil on the PEs of the
#     machine (DIST_STENCIL=0: not) -> gpu-test.log;
#  2. the trsv suite's real matrices and small deep DAGs with ENGINES
#     (default auto, levelblock, levelblock-global, thread, cusparse), one
#     process per problem -> trsv.csv, trsv.txt;
#  3. levelblock's settings swept on the real matrices -> sweep.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh
( cd $B && timeout ${TEST_S:-200} ctest -L gpu -R "${TESTS:-.}" --timeout 150 --output-on-failure
  [ "${DIST_STENCIL:-1}" = 1 ] && timeout 100 ctest -R test_dist_stencil --timeout 90 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|failed" "$OUT/gpu-test.log" | tail -16
export B MATS OUT DOMINO_BUILT=1
TESTS=none ENGINES=${ENGINES:-auto,levelblock,levelblock-global,thread,cusparse} SUITE_S=${SUITE_S:-170} \
  PER_PROBLEM_S=40 DEEP="${DEEP:-dag:20000:8:100 dag:20000:8:2000 dag:30000:8:10000 dag:30000:2:30000 dag:100000:8:10000}" \
  SWEEP=${SWEEP:-1} SWEEP_ENGINES=levelblock SWEEP_PER_S=15 \
  SETTINGS="${SETTINGS:-DOMINO_LEVELBLOCK_PREFETCH=0 DOMINO_LEVELBLOCK_PREFETCH=4 DOMINO_LEVELBLOCK_LANES=1 DOMINO_LEVELBLOCK_THREADS=1024}" \
  bash bench/trsv-session.sh
