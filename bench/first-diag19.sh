#!/usr/bin/env bash
# first-diag19.sh: one device command (one GPU): where issue 3's analysis +
# first solve goes on the small systems.  Builds the CLI, then runs the trsv
# suite's problems named by ONLY (default: the shared matrices and the
# 10^6-row DAGs) with auto and cusparse, one process per configuration:
#   base      as built
#   traced    DOMINO_ANALYSIS_TRACE=1 DOMINO_SOLVE_TRACE=1 (host time by part, on stderr)
#   nocheck   DOMINO_BENCH_FIRST_CHECK=0 (the first solve without its pivot read-back)
#   nodefer   DOMINO_DEFER_CHOICE=0 (the small systems' choice made in the analysis)
#   notrial   DOMINO_STEP_TRIAL=0 DOMINO_ANY_ORDER=0 DOMINO_PACKED=0 (no trials)
# plus CONFIGS="name:VAR=V,VAR=V ..." of the caller's -> $OUT/first.tgz (csv
# and txt of each), summaries on stdout.
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-" "} source bench/device-build.sh
ONLY=${ONLY:-".mtx,dag:1000000:8:1"}
CONFIGS=${CONFIGS:-"base: traced:DOMINO_ANALYSIS_TRACE=1,DOMINO_SOLVE_TRACE=1 nocheck:DOMINO_BENCH_FIRST_CHECK=0 nodefer:DOMINO_DEFER_CHOICE=0 notrial:DOMINO_STEP_TRIAL=0,DOMINO_ANY_ORDER=0,DOMINO_PACKED=0"}
mkdir -p "$OUT/first"
for c in $CONFIGS; do
  name=${c%%:*}; vars=${c#*:}
  envs=()
  [ -n "$vars" ] && IFS=, read -ra envs <<< "$vars"
  env "${envs[@]}" DOMINO_TRSV_ONLY="$ONLY" timeout ${PER_CONFIG_S:-150} $B/domino bench --suite trsv \
    --engines auto,cusparse --csv "$OUT/first/$name.csv" > "$OUT/first/$name.txt" 2>&1
  echo "$name: exit $?"
  python3 - "$OUT/first/$name.csv" "$name" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows: by.setdefault(r['problem'], {})[r['engine']] = r
lg = []
for p, d in by.items():
    if 'auto' not in d or 'cusparse' not in d: continue
    a, c = d['auto'], d['cusparse']
    A, F, S = (float(a[k]) * 1e3 for k in ('analysis_ms', 'first_solve_ms', 'solve_ms'))
    cA, cF = (float(c[k]) * 1e3 for k in ('analysis_ms', 'first_solve_ms'))
    r = (cA + cF) / (A + F); lg.append(math.log(r))
    print(f"{sys.argv[2]:8s} {p:26s} {a['engine_used']:10s} A {A:8.1f} F {F:9.1f} S {S:9.1f} | cA {cA:9.1f} cF {cF:9.1f} | {r:6.2f}")
print(f"{sys.argv[2]}: geomean (analysis+first) {math.exp(sum(lg)/len(lg)):.3f} over {len(lg)}")
PY
done
grep -h "trace\|deferred" "$OUT/first/traced.txt" | head -150
tar czf "$OUT/first.tgz" -C "$OUT" first && rm -rf "$OUT/first"
true
