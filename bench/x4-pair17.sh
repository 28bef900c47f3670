#!/usr/bin/env bash
# x4-pair17.sh: one device command (nvidia-h200-x4) after 2 lanes a row got
# a grid of 8 blocks an SM (DIST_PULL_BLOCKS_PER_SM_PAIR): pull-auto on the
# 10^7-row DAGs of 10 and 100 levels on 4 PEs, twice, and once at the old
# grid (DOMINO_DIST_BLOCKS_PER_SM=12) -> pair*-p4.csv in csv.tgz, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-start.sh
P=dag:10000000:8:100,dag:10000000:8:10
run_suite trsv-dist pair-a-p4 4 60 --repeat 5 --problem $P --engines domino-1gpu,pull-auto
DOMINO_DIST_BLOCKS_PER_SM=12 run_suite trsv-dist pair-b12-p4 4 60 --repeat 5 --problem $P --engines domino-1gpu,pull-auto
run_suite trsv-dist pair-b-p4 4 60 --repeat 5 --problem $P --engines domino-1gpu,pull-auto
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
