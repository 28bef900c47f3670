#!/usr/bin/env bash
# final-first19.sh: one device command (one GPU): the whole build and
# `ctest -L gpu` -> gpu-test.log, then issue 3's whole suite (auto,
# cusparse; one process each) with the working tree's CLI, then with the
# base commit's unpacked in .carry/ab/base (git archive cf3ee30) ->
# csv.tgz, {new,base}-1-summary.txt
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT/csv"
JOBS=4 bash bench/ab-build-base.sh > "$OUT/build-base.log" 2>&1 &
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head
( cd $B && timeout ${TEST_S:-240} ctest -L gpu --timeout 150 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | tail -14
wait
tail -1 "$OUT/build-base.log"
for side in new base; do
  bin=$B/domino
  [ $side = base ] && bin=.carry/ab/base/b/domino
  t0=$(date +%s)
  timeout ${SUITE_S:-150} $bin bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/$side-1.csv" \
    > "$OUT/csv/$side-1.txt" 2>&1
  echo "$side-1: exit $?, $(( $(date +%s) - t0 )) s"
  python3 bench/summarize_trsv.py "$OUT/csv/$side-1.csv" auto 4200 > "$OUT/$side-1-summary.txt"
  grep -E "geomean|below" "$OUT/$side-1-summary.txt"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
