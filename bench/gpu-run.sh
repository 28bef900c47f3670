#!/usr/bin/env bash
# gpu-run.sh: what one device-machine session runs: environment facts, the
# build, the GPU tests, then the benchmark problems, one process each (a
# problem that fails or hangs cannot take the others with it).
#   bench/gpu-run.sh test                  gpu-labelled ctests only
#   bench/gpu-run.sh trsv                  ... plus the whole trsv suite
#   bench/gpu-run.sh none PROBLEM...       only the named problems
# Environment: ENGINES (default all GPU engines), REPEAT (10), PER_PROBLEM_S (150).
# Results: $OUT (device tool) or bench/results/raw: trsv.csv, trsv.txt, gpu-test.log.
set -uo pipefail
source "$(dirname "$0")/device-build.sh"
what=${1:-test}
shift || true
if [ "$what" != none ]; then
  ( cd $B && ctest -L gpu -V --timeout 300 ) > "$OUT/gpu-test.log" 2>&1
  grep -E "passed|failed|skipped|tests passed|FAIL" "$OUT/gpu-test.log" | tail -8
fi
ENG=${ENGINES:-auto,levelset,warp,thread,csc,cusparse}
REP=${REPEAT:-10}
PER=${PER_PROBLEM_S:-150}
problems=("$@")
if [ "$what" = trsv ]; then
  for f in "$MATS"/*.mtx; do problems+=("$f"); done
  problems+=(d2n5:1024x1024 d2n5:2048x2048 d3n7:128 d3n7:192 d3n27:128 d3n27:192
    dag:1000000:8:1 dag:1000000:8:10 dag:1000000:8:100 dag:1000000:8:1000 dag:1000000:8:10000
    dag:1000000:8:100000 dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100
    dag:10000000:8:1000 dag:10000000:8:10000 dag:10000000:8:100000 dag:1000000:2:1000000
    dag:1000000:8:100000:100 rmat:20 rmat:21 rmat:22)
fi
TMP=$(mktemp -d)
: > "$OUT/${TAG:-trsv}.csv"
echo "# $0 $what $* ; ENGINES=$ENG REPEAT=$REP ; $(date -u +%FT%TZ) ; $(head -2 "$OUT/device.txt" | tail -1)" > "$OUT/${TAG:-trsv}.txt"
i=0
for p in "${problems[@]}"; do
  i=$((i+1))
  timeout "$PER" $B/domino bench --problem "$p" --engines "$ENG" --repeat "$REP" --csv "$TMP/$i.csv" > "$TMP/$i.txt" 2>&1
  rc=$?
  grep -v "^#" "$TMP/$i.txt" | tail -n +2 >> "$OUT/${TAG:-trsv}.txt"
  [ $rc -ne 0 ] && echo "$p: exit $rc" >> "$OUT/${TAG:-trsv}.txt"
  if [ -f "$TMP/$i.csv" ]; then
    if [ -s "$OUT/${TAG:-trsv}.csv" ]; then tail -n +2 "$TMP/$i.csv" >> "$OUT/${TAG:-trsv}.csv"; else cat "$TMP/$i.csv" > "$OUT/${TAG:-trsv}.csv"; fi
  fi
done
cat "$OUT/${TAG:-trsv}.txt" | awk '/^(analysis trace|levelblock analysis)/ {print; next} {printf "%-28s %9s %10s %8s %-9s %9s %9s %8s %8s %s\n", substr($1,length($1)>28?length($1)-27:1), $2, $3, $4, $5, $6, $7, $8, $9, $11}'
