#!/usr/bin/env bash
# packed-final14.sh: one device command on the packing made on the GPU
# and the bench's settle solves: ctest -L gpu (every GPU test), the small
# shallow matrices with every walk beside cusparseSpSV (50 repeats), then
# issue 3's whole suite (auto, cusparse; 10 repeats) in one process.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh
TEST_S=${TEST_S:-420} run_label_tests gpu
mkdir -p "$OUT/csv"
: > "$OUT/small.txt"
for p in bayer10.mtx hangGlider_2.mtx adder_dcop_05.mtx nnc1374.mtx crack.mtx bcspwr10.mtx Pd.mtx copter2.mtx luxembourg.mtx dag:13436:6:8; do
  [ -f "$MATS/$p" ] && q="$MATS/$p" || q=$p
  echo "## $p" >> "$OUT/small.txt"
  timeout 90 $B/domino bench --problem "$q" --engines auto,thread,thread-any,thread-packed,cusparse --repeat 50 \
    --csv "$OUT/csv/small-$(basename $p).csv" 2>&1 | grep -vE "^#" >> "$OUT/small.txt"
done
timeout ${SUITE_S:-240} $B/domino bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/suite.csv" \
  --json-out "$OUT/csv/suite.json" > "$OUT/suite.txt" 2>&1
echo "suite exit $?" >> "$OUT/suite.txt"
grep -E "auto|thread|cusparse" "$OUT/small.txt" | awk '{print $1,$5,$6,$7,$9}'
tail -3 "$OUT/suite.txt"
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
