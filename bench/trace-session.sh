#!/usr/bin/env bash
# trace-session.sh: one device command: builds the CLI and test_gpu_trsv,
# runs that test, then `domino trace` (publish time of every row, hops by
# where the latest dependency lies) on each problem in PROBLEMS
# (-> $OUT/trace.txt; TRACE_CSV=1 also writes $OUT/trace-<i>.csv).
#   PROBLEMS="nnc1374.mtx dag:1000000:8:100000" bash bench/trace-session.sh
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${TARGETS:-test_gpu_trsv}
source bench/device-build.sh
run_gpu_tests
: > "$OUT/trace.txt"
i=0
for p in ${PROBLEMS:?}; do
  i=$((i+1))
  [ -f "$MATS/$p" ] && p="$MATS/$p"
  csv=""
  [ "${TRACE_CSV:-0}" = 1 ] && csv="--csv $OUT/trace-$i.csv"
  timeout ${PER_S:-60} $B/domino trace "$p" $csv >> "$OUT/trace.txt" 2>&1 || echo "$p: exit $?" >> "$OUT/trace.txt"
done
cat "$OUT/trace.txt"
