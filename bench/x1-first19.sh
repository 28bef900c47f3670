#!/usr/bin/env bash
# x1-first19.sh: one device command (one GPU) for issue 3's analysis + first
# solve: the whole build, `ctest -L gpu` -> gpu-test.log, issue 3's whole
# suite (auto, cusparse; one process) -> suite.txt and csv.tgz, then the
# shared matrices and 10^6-row DAGs traced (DOMINO_ANALYSIS_TRACE=1,
# DOMINO_SOLVE_TRACE=1: host time by part) -> traced.txt.
# STEPS (default "test suite traced") picks the parts.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh
STEPS=${STEPS:-"test suite traced"}
mkdir -p "$OUT/csv"
for step in $STEPS; do
  t0=$(date +%s)
  case $step in
  test)
    ( cd $B && timeout ${TEST_S:-240} ctest -L gpu --timeout 150 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
    grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | tail -16 ;;
  suite)
    timeout ${SUITE_S:-300} $B/domino bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/suite.csv" \
      --json-out "$OUT/csv/suite.json" > "$OUT/suite.txt" 2>&1
    echo "suite exit $?" >> "$OUT/suite.txt"
    python3 bench/summarize_trsv.py "$OUT/csv/suite.csv" auto 4200 > "$OUT/suite-summary.txt"; cat "$OUT/suite-summary.txt" ;;
  traced)
    DOMINO_ANALYSIS_TRACE=1 DOMINO_SOLVE_TRACE=1 DOMINO_TRSV_ONLY=${ONLY:-".mtx,dag:1000000:8:1"} \
      timeout ${TRACED_S:-120} $B/domino bench --suite trsv --engines auto,cusparse \
      --csv "$OUT/csv/traced.csv" > "$OUT/traced.txt" 2>&1
    echo "traced exit $?" ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
