#!/usr/bin/env bash
# packed-check14.sh: one device command on the final code of the packed
# walk: ctest -L gpu, then issue 3's suite in one process with auto, the
# three thread walks forced and cusparseSpSV (is auto within a few % of the
# best walk everywhere?).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh
TEST_S=${TEST_S:-420} run_label_tests gpu
mkdir -p "$OUT/csv"
timeout ${SUITE_S:-330} $B/domino bench --suite trsv --engines auto,thread,thread-any,thread-packed,cusparse \
  --csv "$OUT/csv/walks.csv" > "$OUT/walks.txt" 2>&1
echo "suite exit $?" >> "$OUT/walks.txt"
tail -3 "$OUT/walks.txt"
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
