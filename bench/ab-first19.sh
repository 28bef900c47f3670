#!/usr/bin/env bash
# ab-first19.sh: one device command (one GPU): issue 3's whole suite
# (auto, cusparse; one process each) with the working tree's CLI and with
# the base commit's unpacked in .carry/ab/base (git archive cf3ee30: before
# the workspace pool, kept events, pinned read-back and early downloads),
# in turn, ROUNDS times (default 2): new-1, base-1, new-2, base-2 ->
# csv.tgz (suite CSVs), {new,base}-N-summary.txt
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT/csv"
JOBS=6 bash bench/ab-build-base.sh > "$OUT/build-base.log" 2>&1 &
DOMINO_TARGETS=" " source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head
wait
tail -2 "$OUT/build-base.log"
for r in $(seq 1 ${ROUNDS:-2}); do
  for side in new base; do
    bin=$B/domino
    [ $side = base ] && bin=.carry/ab/base/b/domino
    t0=$(date +%s)
    timeout ${SUITE_S:-200} $bin bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/$side-$r.csv" \
      > "$OUT/csv/$side-$r.txt" 2>&1
    echo "$side-$r: exit $?, $(( $(date +%s) - t0 )) s"
    python3 bench/summarize_trsv.py "$OUT/csv/$side-$r.csv" auto 4200 > "$OUT/$side-$r-summary.txt"
    grep -E "geomean" "$OUT/$side-$r-summary.txt"
  done
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
