#!/usr/bin/env bash
# packed-ab14.sh: one device command: the thread engine's packed walk
# (trsv_packed.cu) -- its tests and the thread engine's, the small shallow
# matrices with every walk beside cusparseSpSV (50 repeats), then issue 3's
# whole suite (auto, whose walk trial now includes the packed walk, and
# cusparse) unless SUITE=0.
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${TARGETS:-"test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_packed"}
source bench/device-build.sh
TESTS=${TESTS:-'test_gpu_trsv$|test_gpu_trsv_long_rows|test_gpu_trsv_packed'} run_gpu_tests
mkdir -p "$OUT/csv"
: > "$OUT/small.txt"
for p in ${SMALL:-bayer10.mtx hangGlider_2.mtx adder_dcop_05.mtx nnc1374.mtx crack.mtx bcspwr10.mtx Pd.mtx copter2.mtx dag:13436:6:8 dag:100000:8:10 dag:1000000:8:100}; do
  [ -f "$MATS/$p" ] && q="$MATS/$p" || q=$p
  echo "## $p" >> "$OUT/small.txt"
  timeout 90 $B/domino bench --problem "$q" --engines ${ENGINES:-auto,thread,thread-any,thread-packed,cusparse} --repeat 50 \
    --csv "$OUT/csv/small-$(basename $p).csv" 2>&1 | grep -vE "^#" >> "$OUT/small.txt"
done
if [ "${SUITE:-1}" = 1 ]; then
  timeout ${SUITE_S:-200} $B/domino bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/suite.csv" > "$OUT/suite.txt" 2>&1
  echo "suite exit $?" >> "$OUT/suite.txt"
fi
grep -E "Test *#|tests passed|failed" "$OUT/gpu-test.log" | tail -6
grep -E "^##|auto|thread|cusparse" "$OUT/small.txt" | awk '{print $1,$5,$7,$9}'
tail -12 "$OUT/suite.txt" 2>/dev/null
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
