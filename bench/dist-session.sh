#!/usr/bin/env bash
# dist-session.sh: one device command (under 600 s on nvidia-h200-x2) that
# measures what the multi-GPU SpTRSV still owes: the dist tests, the level
# order and the pull solver against the unified-memory baseline and one GPU,
# the >= 20 GB run, and one PE for strong scaling; then summary.md.  Each part has its own time limit so that a slow
# part cannot take the others with it.  Results in $OUT (see dist-run.sh).
#   bash bench/dist-session.sh
set -uo pipefail
cd "$(dirname "$0")/.."
bash bench/dist-run.sh test skip 2>&1 | grep -E "Test *#|tests passed" | tail -8
MAIN="cusparse-1gpu,domino-1gpu,um,um-tasks8,um-tasks8-level,zerocopy,zerocopy-tasks8,zerocopy-tasks8-level,push-tasks8-level,pull-tasks8,pull-level,pull-tasks8-level,pull-tied-level"
TAG=main BENCH_S=${MAIN_S:-200} bash bench/dist-run.sh none \
  --problem d3n27:192,d3n7:256,rmat:22,dag:10000000:8:1000,dag:10000000:8:100000 \
  --engines "$MAIN" --repeat 5 2>&1 | grep -v "^--\|^\[\|^build\|^name\|^NVIDIA" | tail -80
TAG=big BENCH_S=${BIG_S:-170} bash bench/dist-run.sh none --problem d3n27:512 \
  --engines domino-1gpu,zerocopy-tasks8-level,pull-tasks8-level --repeat 3 2>&1 | tail -8
# one PE, for the strong scaling of the solvers that matter
PES=1 TAG=one BENCH_S=${ONE_S:-60} bash bench/dist-run.sh none --problem d3n27:192,d3n7:256,dag:10000000:8:1000 \
  --engines zerocopy-tasks8-level,pull-tasks8-level,pull-level --repeat 5 2>&1 | tail -3
OUTD=${OUT:-bench/results/raw}
[ -f "$OUTD/main.csv" ] && python3 bench/summarize_trsv_dist.py "$OUTD/main.csv" "$OUTD/one.csv" > "$OUTD/summary.md" 2>&1 &&
  head -12 "$OUTD/summary.md"
