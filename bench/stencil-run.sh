#!/usr/bin/env bash
# stencil-run.sh: one device-machine session of the structured-grid solve:
# build, the gpu-labelled stencil test, then `domino bench` on each problem in
# its own process.  Results in $OUT (device tool) or bench/results/raw:
# ${TAG}.csv, ${TAG}.txt, ${TAG}-tune.log (the autotuner's table of each
# problem: every candidate's time), gpu-test.log.
#   bench/stencil-run.sh suite            the whole stencil suite (16 problems x lower/upper)
#   bench/stencil-run.sh none PROBLEM...  only the named problems
# Environment: ENGINES, REPEAT (10), TUNE (1: --tune), PER_PROBLEM_S (240), TEST (1), TAG.
set -uo pipefail
source "$(dirname "$0")/device-build.sh"
if [ "${TEST:-1}" = 1 ]; then
  ( cd $B && ctest -L gpu -V --timeout 300 ) > "$OUT/gpu-test.log" 2>&1
  grep -E "FAIL|passed|failed" "$OUT/gpu-test.log" | tail -12
fi
what=${1:-none}
shift || true
problems=("$@")
if [ "$what" = suite ]; then
  for s in d3n7 d3n13 d3n27 d3n33; do for g in 64 128 192 256; do
    problems+=("$s:$g" "$s:$g:upper"); done; done
fi
ENG=${ENGINES:-stencil,stencil-compact,stencil-partition,stencil-multistage,stencil-compressed,auto,cusparse}
TAG=${TAG:-stencil}
TUNEFLAG=""; [ "${TUNE:-1}" = 1 ] && TUNEFLAG="--tune"
TMP=$(mktemp -d)
: > "$OUT/$TAG.csv"
: > "$OUT/$TAG-tune.log"
echo "# $0 $what $* ; ENGINES=$ENG REPEAT=${REPEAT:-10} TUNE=${TUNE:-1} ; $(date -u +%FT%TZ) ; $(head -2 "$OUT/device.txt" | tail -1)" > "$OUT/$TAG.txt"
i=0
for p in "${problems[@]}"; do
  i=$((i+1))
  DOMINO_STENCIL_TUNE_LOG=1 timeout "${PER_PROBLEM_S:-240}" $B/domino bench --problem "$p" --engines "$ENG" \
    --repeat "${REPEAT:-10}" $TUNEFLAG --csv "$TMP/$i.csv" > "$TMP/$i.txt" 2>&1
  rc=$?
  { echo "== $p"; grep "^stencil tune:" "$TMP/$i.txt"; } >> "$OUT/$TAG-tune.log"
  grep -v "^#" "$TMP/$i.txt" | grep -v "^stencil tune:" | tail -n +2 >> "$OUT/$TAG.txt"
  [ $rc -ne 0 ] && echo "$p: exit $rc" >> "$OUT/$TAG.txt"
  if [ -f "$TMP/$i.csv" ]; then
    if [ -s "$OUT/$TAG.csv" ]; then tail -n +2 "$TMP/$i.csv" >> "$OUT/$TAG.csv"; else cat "$TMP/$i.csv" > "$OUT/$TAG.csv"; fi
  fi
done
cat "$OUT/$TAG.txt"
