#!/usr/bin/env bash
# x1-suite17.sh: one device command (one H200): test_gpu_trsv (the
# diagonal systems' test fixed) -> test.log, then issue 3's whole suite
# (auto, cusparse; 10 repeats) in one process -> suite.txt, csv.tgz
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-"test_gpu_trsv"} source bench/device-build.sh
grep -E "^build|error" /tmp/domino-build.log 2>/dev/null | head -5
( cd $B && timeout ${TEST_S:-120} ctest -R "test_gpu_trsv$" --timeout 110 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | head -12
mkdir -p "$OUT/csv"
timeout ${SUITE_S:-260} $B/domino bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/suite.csv" \
  --json-out "$OUT/csv/suite.json" > "$OUT/suite.txt" 2>&1
echo "suite exit $?" >> "$OUT/suite.txt"
tail -12 "$OUT/suite.txt"
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
