#!/usr/bin/env bash
# x4-big20.sh: twentieth session's device commands on a 4-GPU machine
# (issue 7; issues 5 and 3 where the same runs speak to them).
#   STEPS=big:  the 1000-level random DAG at 10^8 rows (parallelism 10^5,
#               10.4 GB of L) on 1, 2 and 4 PEs, domino's single GPU and
#               pull-auto in each command -> big-p*.csv, tables.txt
#   STEPS=hop:  the 1000-level DAG at 10^7 rows (parallelism 10^4): on 1 PE
#               (is the pull kernel's per-level cost its own, with no
#               NVLink?) and on 4 PEs, pull-auto and LINKED -> hop-p*.csv
#   STEPS=lanes: lanes per row swept with a thread per row included (1 to 16),
#               level-tied pool and LINKED, on the 10^7-row DAGs of 100, 1000
#               and 10^4 levels, 2 and 4 PEs; D3N7 256^3 and D3N27 192^3 on 4
#               PEs (tied) -> lanes-*.csv
#   STEPS=verify: AUTO at its new LINKED threshold (10^4 rows a level) beside
#               the level-tied pool it took before, the DAGs of 1000 and 10^4
#               levels, 4 and 2 PEs -> verify-p*.csv; test_dist_trsv on 4 PEs
#               -> test.log
#   STEPS=test: ctest -L "gpu|dist" (4 PEs for the dist tests) -> test.log
# DOMINO_BUILT=1 skips the build (same warm machine).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
for step in ${STEPS:-big}; do
  t0=$(date +%s)
  case $step in
    big) for pes in 1 2 4; do
           run_suite trsv-dist big-p$pes $pes ${BIG_S:-170} --repeat 5 --problem dag:100000000:8:1000 \
             --engines domino-1gpu,pull-auto
         done ;;
    hop) run_suite trsv-dist hop-p1 1 ${HOP_S:-90} --repeat 5 --problem dag:10000000:8:1000 \
           --engines domino-1gpu,pull-auto,pull-tied-level-copies-lanes1,pull-tied-level-copies-lanes2
         run_suite trsv-dist hop-p4 4 ${HOP_S:-90} --repeat 5 --problem dag:10000000:8:1000 \
           --engines domino-1gpu,pull-auto,pull-linked-level-copies ;;
    lanes) T="pull-tied-level-copies-lanes"; L="pull-linked-level-copies-lanes"
           for pes in 4 2; do
             run_suite trsv-dist lanes-dag-p$pes $pes ${LANES_S:-200} --repeat 5 \
               --problem dag:10000000:8:1000,dag:10000000:8:100,dag:10000000:8:10000 \
               --engines domino-1gpu,pull-auto,${T}1,${T}2,${T}4,${T}8,${T}16,pull-linked-level-copies,${L}1,${L}2,${L}4,${L}8,${L}16
           done
           run_suite trsv-dist lanes-st-p4 4 ${LANES_S:-200} --repeat 5 --problem d3n7:256,d3n27:192 \
             --engines domino-1gpu,pull-auto,${T}1,${T}2,${T}4,${T}8,${T}16,pull-tied-level-copies-lanes32 ;;
    verify) for pes in 4 2; do
              run_suite trsv-dist verify-p$pes $pes ${VERIFY_S:-80} --repeat 5 \
                --problem dag:10000000:8:1000,dag:10000000:8:10000 \
                --engines domino-1gpu,pull-auto,pull-tied-level-copies
            done
            ( cd $B && timeout 90 ctest -R "test_dist_trsv$" --timeout 80 --output-on-failure ) > "$OUT/test.log" 2>&1
            grep -E "Test *#|tests passed" "$OUT/test.log" ;;
    test) TEST_S=${TEST_S:-480} run_label_tests "gpu|dist" ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv-${STEPS// /-}.tgz *.csv && rm -f *.csv )
true
