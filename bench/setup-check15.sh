#!/usr/bin/env bash
# setup-check15.sh: one device command on the cheaper analysis (issue 3's
# analysis + first solve): ctest -L gpu, then issue 3's whole suite (auto,
# cusparse; 10 repeats) in one process with the analysis traced
# (suite.txt: DOMINO_ANALYSIS_TRACE=1, the deferred choice's lines too),
# then the same with DOMINO_DEFER_CHOICE=0 (the small systems' choice made
# in the analysis again; suite-nodefer.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh
[ "${TESTS:-1}" = 1 ] && TEST_S=${TEST_S:-420} run_label_tests gpu
mkdir -p "$OUT/csv"
DOMINO_ANALYSIS_TRACE=1 timeout ${SUITE_S:-300} $B/domino bench --suite trsv --engines auto,cusparse \
  --csv "$OUT/csv/suite.csv" --json-out "$OUT/csv/suite.json" > "$OUT/suite.txt" 2>&1
echo "suite exit $?" >> "$OUT/suite.txt"
python3 bench/summarize_trsv.py "$OUT/csv/suite.csv" auto 4200 | head -6
if [ "${NODEFER:-1}" = 1 ]; then
  DOMINO_DEFER_CHOICE=0 DOMINO_ANALYSIS_TRACE=1 timeout ${SUITE_S:-300} $B/domino bench --suite trsv \
    --engines auto,cusparse --csv "$OUT/csv/suite-nodefer.csv" > "$OUT/csv/suite-nodefer.txt" 2>&1
  echo "suite exit $?" >> "$OUT/csv/suite-nodefer.txt"
  python3 bench/summarize_trsv.py "$OUT/csv/suite-nodefer.csv" auto 4200 | head -6
fi
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
