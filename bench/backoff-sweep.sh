#!/usr/bin/env bash
# backoff-sweep.sh: the thread engine on representative problems for several
# back-off values, next to levelset and cusparse, after the gpu tests.
set -uo pipefail
P="d3n27:128 d3n7:192 d2n5:2048x2048 dag:1000000:2:1000000 dag:1000000:8:10000 dag:1000000:8:100 dag:10000000:8:1000 rmat:20 .carry/matrices/copter2.mtx .carry/matrices/bcsstk33.mtx .carry/matrices/luxembourg.mtx"
OUT=${OUT:-bench/results/raw}
ENGINES=levelset,csc,cusparse PER_PROBLEM_S=60 bash bench/gpu-run.sh test $P > /dev/null 2>&1
cp "$OUT/trsv.txt" "$OUT/base.txt"; cp "$OUT/trsv.csv" "$OUT/base.csv"
for bo in 0 32 256; do
  DOMINO_BACKOFF_NS=$bo ENGINES=thread PER_PROBLEM_S=60 bash bench/gpu-run.sh none $P > /dev/null 2>&1
  sed "s/ thread / thread-bo$bo /" "$OUT/trsv.txt" > "$OUT/bo$bo.txt"
done
rm -f "$OUT/trsv.txt" "$OUT/trsv.csv"
grep -E "passed|failed" "$OUT/gpu-test.log" | tail -3
cat "$OUT"/base.txt "$OUT"/bo*.txt | grep -v "^#" | sort -s -k1,1 | awk '{printf "%-24s %8s %6s %-13s %9s %9s %7s %s\n", substr($1,length($1)>24?length($1)-23:1), $2, $4, $5, $6, $7, $9, $11}'
