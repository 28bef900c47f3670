#!/usr/bin/env bash
# x4-lanes16.sh: one device command (nvidia-h200-x4): the pull solver's
# lanes per row (level-tied pool with copies, 2 to 32 lanes, and AUTO's
# choice, domino_dist_pull_lanes) beside domino's single GPU, on 4 then 2
# PEs: the 10^7-row DAGs of 10, 100 and 1000 levels, D3N7 256^3 and D3N27
# 192^3 -> lanes-p{4,2}.csv in csv.tgz, tables.txt.  The sixteenth
# session's batch runs (h200x4-hop16/batch) had AUTO's 16 lanes 20% slower
# than 8 on the 1000-level DAG, 2 PEs.
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-start.sh
PROBLEMS=${PROBLEMS:-dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000,d3n7:256,d3n27:192}
E=domino-1gpu,pull-auto
for l in 2 4 8 16 32; do E=$E,pull-tied-level-copies-lanes$l; done
for p in ${PES:-4 2}; do
  run_suite trsv-dist lanes-p$p $p ${LANES_S:-200} --problem $PROBLEMS --repeat 5 --engines $E
done
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
