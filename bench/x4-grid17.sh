#!/usr/bin/env bash
# x4-grid17.sh: one device command (nvidia-h200-x4): the 100-level 10^7-row
# DAG on 4 PEs (issue 7: 1.93-2.01x one GPU, target 2x; 25000 rows a level a
# PE, where the lanes rule keeps 2 lanes), the grid's blocks an SM swept
# below the defaults (2 lanes: 12; a thread per row: 6), and the 10-level
# DAG at the thread's smaller grids -> g*-p4.csv in csv.tgz, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-start.sh
P100=dag:10000000:8:100
run_suite trsv-dist g-default-p4 4 60 --repeat 5 --problem $P100,dag:10000000:8:10 \
  --engines domino-1gpu,pull-auto,pull-tied-level-copies-lanes1
for b in 8 10; do
  DOMINO_DIST_BLOCKS_PER_SM=$b run_suite trsv-dist g-l2-b$b-p4 4 60 --repeat 5 --problem $P100 \
    --engines domino-1gpu,pull-tied-level-copies-lanes2
done
for b in 4 5; do
  DOMINO_DIST_BLOCKS_PER_SM=$b run_suite trsv-dist g-l1-b$b-p4 4 60 --repeat 5 --problem $P100,dag:10000000:8:10 \
    --engines domino-1gpu,pull-tied-level-copies-lanes1
done
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
