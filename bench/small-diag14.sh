#!/usr/bin/env bash
# small-diag14.sh: one device command: where the small shallow matrices'
# solve time goes (issue 3's "none below 0.8x"): domino trace (per-row
# publish times, CSV), the engines beside cusparseSpSV with 50 repeats, a
# diagonal-only floor, backoff 0, and nsys kernel times when nsys is there.
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${TARGETS:-test_gpu_trsv}
source bench/device-build.sh
run_gpu_tests
SMALL="bayer10.mtx hangGlider_2.mtx adder_dcop_05.mtx nnc1374.mtx"
: > "$OUT/trace.txt"
mkdir -p "$OUT/csv"
i=0
for p in $SMALL; do
  i=$((i+1))
  timeout 60 $B/domino trace "$MATS/$p" --csv "$OUT/csv/trace-$p.csv" >> "$OUT/trace.txt" 2>&1 || echo "$p: exit $?" >> "$OUT/trace.txt"
done
: > "$OUT/bench.txt"
ENG=${ENGINES:-auto,thread,thread-any,levelset,levelset-lanes,levelblock,block,cusparse}
for p in $SMALL dag:1000:1:1 dag:13436:1:1 dag:13436:6:8 dag:1647:6:6; do
  [ -f "$MATS/$p" ] && q="$MATS/$p" || q=$p
  echo "## $p" >> "$OUT/bench.txt"
  timeout 60 $B/domino bench --problem "$q" --engines "$ENG" --repeat 50 --csv "$OUT/csv/bench-$(basename $p).csv" >> "$OUT/bench.txt" 2>&1
  echo "## $p backoff 0" >> "$OUT/bench.txt"
  DOMINO_BACKOFF_NS=0 timeout 60 $B/domino bench --problem "$q" --engines auto,thread,cusparse --repeat 50 >> "$OUT/bench.txt" 2>&1
done
if command -v nsys >/dev/null; then
  for p in bayer10.mtx hangGlider_2.mtx; do
    nsys profile -o /tmp/prof-$p --force-overwrite true $B/domino bench --problem "$MATS/$p" --engines auto,cusparse --repeat 20 > /dev/null 2>&1
    nsys stats --report cuda_gpu_kern_sum --format csv /tmp/prof-$p.nsys-rep > "$OUT/csv/nsys-$p.csv" 2>&1
  done
else
  echo "no nsys" >> "$OUT/bench.txt"
fi
cat "$OUT/trace.txt"
grep -vE "^#" "$OUT/bench.txt" | head -150
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
