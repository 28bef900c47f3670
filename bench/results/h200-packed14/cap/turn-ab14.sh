#!/usr/bin/env bash
# turn-ab14.sh: one device command: the thread engine's walks capped at
# DOMINO_PULL_TURN_BATCHES batches a warp turn (0 = no cap, the code
# before) -- tests with the cap, the small shallow matrices with caps
# 0/1/2/4, traces (any-order walk) with caps 0 and 1, then issue 3's whole
# suite (auto, cusparse) with caps $SUITE_CAPS (default "0 1").
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${TARGETS:-"test_gpu_trsv test_gpu_trsv_long_rows"}
source bench/device-build.sh
TESTS='test_gpu_trsv$|test_gpu_trsv_long_rows' run_gpu_tests
mv "$OUT/gpu-test.log" "$OUT/gpu-test-cap0.log"
DOMINO_PULL_TURN_BATCHES=1 TESTS='test_gpu_trsv$|test_gpu_trsv_long_rows' run_gpu_tests
mv "$OUT/gpu-test.log" "$OUT/gpu-test-cap1.log"
mkdir -p "$OUT/csv"
: > "$OUT/small.txt"
for p in ${SMALL:-bayer10.mtx hangGlider_2.mtx adder_dcop_05.mtx nnc1374.mtx crack.mtx bcspwr10.mtx copter2.mtx dag:13436:6:8}; do
  [ -f "$MATS/$p" ] && q="$MATS/$p" || q=$p
  for c in ${CAPS:-0 1 2 4}; do
    echo "## $p cap $c" >> "$OUT/small.txt"
    DOMINO_PULL_TURN_BATCHES=$c timeout 60 $B/domino bench --problem "$q" --engines auto,thread,thread-any,cusparse --repeat 50 \
      --csv "$OUT/csv/small-$(basename $p)-cap$c.csv" 2>&1 | grep -vE "^#" >> "$OUT/small.txt"
  done
done
: > "$OUT/trace.txt"
for p in bayer10.mtx hangGlider_2.mtx adder_dcop_05.mtx; do
  for c in 0 1; do
    echo "## $p any-order cap $c" >> "$OUT/trace.txt"
    DOMINO_ANY_ORDER=1 DOMINO_PULL_TURN_BATCHES=$c timeout 60 $B/domino trace "$MATS/$p" --csv "$OUT/csv/trace-$p-cap$c.csv" >> "$OUT/trace.txt" 2>&1
  done
done
for c in ${SUITE_CAPS:-0 1}; do
  echo "## suite cap $c $(date -u +%T)" >> "$OUT/suite.txt"
  DOMINO_PULL_TURN_BATCHES=$c timeout ${SUITE_S:-200} $B/domino bench --suite trsv --engines auto,cusparse \
    --csv "$OUT/csv/suite-cap$c.csv" >> "$OUT/suite.txt" 2>&1
  echo "exit $?" >> "$OUT/suite.txt"
done
grep -E "Test *#|tests passed" "$OUT"/gpu-test-cap*.log
cat "$OUT/trace.txt" | grep -E "^##|first to last"
grep -E "^##|auto|thread|cusparse" "$OUT/small.txt" | awk '{print $1,$2,$3,$4,$5,$6,$8,$10}' | head -200
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
