#!/usr/bin/env bash
# x2-eff17.sh: where a PE of the multi-GPU pull solver loses its bandwidth,
# on 2 GPUs (nvidia-h200-x2; bench/x4-next17.sh is the 4-GPU form).  Issue
# 5's 100-level DAG is 1.38-1.44x one GPU on 2 PEs (target 1.5x), and the
# 10-level one 1.52-1.57x: B2 ~ 0.6 ms against B1 / 2 ~ 0.49.
#  1. the pull kernel on 1 PE against the thread engine (the kernel's own
#     efficiency, no copies, no NVLink);
#  2. 16 blocks an SM instead of 12 (DOMINO_DIST_BLOCKS_PER_SM);
#  3. copy mode 1 (x_j of this PE's own rows at GPU scope, the owner looked
#     up) against the default 3 (every x_j at system scope).
# -> eff-*.csv in csv.tgz, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-start.sh
P=${EFF_PROBLEMS:-dag:10000000:8:10,dag:10000000:8:100}
E=domino-1gpu,pull-auto,pull-tied-level-copies-lanes2,pull-tied-level-copies-lanes4
S=${EFF_S:-80}
run_suite trsv-dist eff-p1 1 $S --problem $P --repeat 5 --engines $E
run_suite trsv-dist eff-p2 2 $S --problem $P --repeat 5 --engines $E
DOMINO_DIST_BLOCKS_PER_SM=16 run_suite trsv-dist eff-p2-b16 2 $S --problem $P --repeat 5 --engines $E
DOMINO_DIST_PULL_COPY_MODE=1 run_suite trsv-dist eff-p2-mode1 2 $S --problem $P --repeat 5 --engines $E
DOMINO_DIST_PULL_COPY_MODE=1 run_suite trsv-dist eff-p1-mode1 1 $S --problem $P --repeat 5 --engines $E
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
