#!/usr/bin/env bash
# packed-large14.sh: one device command: the packed walk on systems of more
# than 2^19 rows (room for it up to 2^25 rows now; no one-launch flags
# there, the sentinel fill first): test_gpu_trsv_packed and test_gpu_trsv,
# then the large DAGs and R-MAT with every thread walk beside cusparseSpSV.
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${TARGETS:-"test_gpu_trsv test_gpu_trsv_packed"}
source bench/device-build.sh
TESTS=${TESTS:-'test_gpu_trsv$|test_gpu_trsv_packed'} run_gpu_tests
mkdir -p "$OUT/csv"
: > "$OUT/large.txt"
for p in ${PROBLEMS:-dag:1000000:8:1 dag:1000000:8:10 dag:1000000:8:100 dag:1000000:8:1000 dag:1000000:8:10000 dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100 dag:10000000:8:1000 rmat:20 rmat:22 luxembourg.mtx}; do
  [ -f "$MATS/$p" ] && q="$MATS/$p" || q=$p
  echo "## $p" >> "$OUT/large.txt"
  timeout 120 $B/domino bench --problem "$q" --engines ${ENGINES:-auto,thread,thread-any,thread-packed,cusparse} --repeat 20 \
    --csv "$OUT/csv/large-$(basename $p).csv" 2>&1 | grep -vE "^#" >> "$OUT/large.txt"
done
grep -E "Test *#|tests passed" "$OUT/gpu-test.log"
grep -E "auto|thread|cusparse" "$OUT/large.txt" | awk '{print $1,$5,$7,$8,$9}'
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
