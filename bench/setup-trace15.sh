#!/usr/bin/env bash
# setup-trace15.sh: one device command tracing where AUTO's analysis and
# first solve go: issue 3's whole suite (auto, cusparse; 10 repeats) in one
# process with DOMINO_ANALYSIS_TRACE=1 and DOMINO_LEVELBLOCK_TRACE=1 (the
# phases of every analysis on stderr, kept in suite.txt).  TESTS=1 runs
# ctest -L gpu first.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh
[ "${TESTS:-0}" = 1 ] && TEST_S=${TEST_S:-420} run_label_tests gpu
mkdir -p "$OUT/csv"
DOMINO_ANALYSIS_TRACE=1 DOMINO_LEVELBLOCK_TRACE=1 timeout ${SUITE_S:-300} $B/domino bench --suite trsv \
  --engines ${ENGINES:-auto,cusparse} --csv "$OUT/csv/suite.csv" --json-out "$OUT/csv/suite.json" > "$OUT/suite.txt" 2>&1
echo "suite exit $?" >> "$OUT/suite.txt"
python3 bench/summarize_trsv.py "$OUT/csv/suite.csv" auto 4200 | head -8
grep -c "analysis trace" "$OUT/suite.txt"
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
