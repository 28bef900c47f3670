#!/usr/bin/env bash
# x4-lanes-check16.sh: one device command (nvidia-h200-x4) after the lanes
# rule changed (f1c8613: half DOMINO_DIST_PULL_THREADS on several PEs):
# test_dist_trsv and cli_solve_dist on 4 PEs -> test.log, then AUTO's
# lanes (pull-auto) beside domino's single GPU and the forced lanes that
# the rule now picks, on the problems whose choice changed, 2 and 4 PEs ->
# check-p{2,4}.csv in csv.tgz, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-"test_dist_trsv"} source bench/device-start.sh
( cd $B && timeout ${TEST_S:-100} ctest -R "test_dist_trsv$|cli_solve_dist" --timeout 90 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed" "$OUT/test.log"
run_suite trsv-dist check-p2 2 ${CHECK_S:-90} --repeat 5 --problem dag:10000000:8:1000,d3n27:192 \
  --engines domino-1gpu,pull-auto,pull-tied-level-copies-lanes8,pull-tied-level-copies-lanes16
run_suite trsv-dist check-p4 4 ${CHECK_S:-90} --repeat 5 --problem dag:10000000:8:100,dag:10000000:8:1000 \
  --engines domino-1gpu,pull-auto,pull-tied-level-copies-lanes2,pull-tied-level-copies-lanes16
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
