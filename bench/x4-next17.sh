#!/usr/bin/env bash
# x4-next17.sh: a proposal for the next session's device command
# (nvidia-h200-x4), not run yet.  The wide DAGs' "bandwidth part" of the
# pull solver (B4 ~ 0.35 ms on 4 PEs against B1 ~ 0.97 ms on one GPU: 2.8x,
# not 4x; bench/results/h200x4-hop16) decides issue 7's 100-level DAG (2.0x
# now) and issue 5's (1.4x on 2 PEs).  Where does a PE lose its 26%?
#  1. the pull kernel on 1 PE against the thread engine (the kernel's own
#     efficiency, no copies, no NVLink);
#  2. 16 blocks an SM instead of 12 (DOMINO_DIST_BLOCKS_PER_SM);
#  3. copy mode 1 (x_j of this PE's own rows loaded at GPU scope, the
#     owner looked up) against the default 3 (every x_j at system scope).
# -> eff-*.csv in csv.tgz, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-start.sh
P=dag:10000000:8:10,dag:10000000:8:100
E=domino-1gpu,pull-auto,pull-tied-level-copies-lanes2,pull-tied-level-copies-lanes4
run_suite trsv-dist eff-p1 1 ${EFF_S:-80} --problem $P --repeat 5 --engines $E
run_suite trsv-dist eff-p4 4 ${EFF_S:-80} --problem $P --repeat 5 --engines $E
DOMINO_DIST_BLOCKS_PER_SM=16 run_suite trsv-dist eff-p4-b16 4 ${EFF_S:-80} --problem $P --repeat 5 --engines $E
DOMINO_DIST_PULL_COPY_MODE=1 run_suite trsv-dist eff-p4-mode1 4 ${EFF_S:-80} --problem $P --repeat 5 --engines $E
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
