#!/usr/bin/env bash
# dist-session.sh: one device command (under 600 s on nvidia-h200-x2) that
# measures what the multi-GPU SpTRSV still owes: the dist tests, the pull
# solver with 32/16/8/4 lanes per row against the unified-memory baseline
# and one GPU, and one PE for strong scaling; then summary.md (the >= 20 GB
# run is in bench/results/h200x2-trsv-dist-v2).  Each part has its own time limit so that a slow
# part cannot take the others with it.  Results in $OUT (see dist-run.sh).
#   bash bench/dist-session.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bash bench/dist-run.sh test skip 2>&1 | grep -E "Test *#|tests passed" | tail -8
MAIN="cusparse-1gpu,domino-1gpu,um,zerocopy-tasks8,um-tasks8-level,zerocopy-tasks8-level,pull-tasks8-level,pull-tasks8-level-lanes16,pull-tasks8-level-lanes8,pull-tasks8-level-lanes4,pull-tied-level"
TAG=main BENCH_S=${MAIN_S:-240} bash bench/dist-run.sh none \
  --problem d3n27:192,d3n7:256,rmat:22,dag:10000000:8:1000,dag:10000000:8:100000 \
  --engines "$MAIN" --repeat 5 2>&1 | grep -v "^--\|^\[\|^build\|^name\|^NVIDIA" | tail -80
# one PE: the strong scaling, and the pull kernel against the single-GPU engines
PES=1 TAG=one BENCH_S=${ONE_S:-150} bash bench/dist-run.sh none \
  --problem d3n27:192,d3n7:256,rmat:22,dag:10000000:8:1000,dag:10000000:8:100000 \
  --engines domino-1gpu,pull-tasks8-level,pull-tasks8-level-lanes8,pull-tasks8-level-lanes4 --repeat 5 2>&1 | tail -3
OUTD=${OUT:-bench/results/raw}
[ -f "$OUTD/main.csv" ] && python3 bench/summarize_trsv_dist.py "$OUTD/main.csv" "$OUTD/one.csv" > "$OUTD/summary.md" 2>&1 &&
  head -12 "$OUTD/summary.md"
