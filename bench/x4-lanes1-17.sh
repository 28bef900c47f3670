#!/usr/bin/env bash
# x4-lanes1-17.sh: one device command (nvidia-h200-x4; on 2 GPUs set
# PES_LIST="1 2") after AUTO's lanes rule took a thread per row on the widest
# levels, on a grid of 8 blocks an SM (DIST_PULL_BLOCKS_PER_SM_THREAD):
# test_dist_trsv and cli_solve_dist on every GPU -> test.log, then on 1, 2
# and 4 PEs the 10^7-row DAGs of 10 and 100 levels: domino's single GPU,
# pull-auto, 1 and 2 lanes at the default grids (8 and 12 blocks an SM),
# and 1 lane at 6 and 12 blocks an SM -> new-p*.csv, b6-p*.csv, b12-p*.csv
# in csv.tgz, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-"test_dist_trsv"} source bench/device-start.sh
( cd $B && timeout ${TEST_S:-100} ctest -R "test_dist_trsv$|cli_solve_dist" --timeout 90 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed" "$OUT/test.log"
P=dag:10000000:8:10,dag:10000000:8:100
for pes in ${PES_LIST:-1 2 4}; do
  run_suite trsv-dist new-p$pes $pes 60 --repeat 5 --problem $P \
    --engines domino-1gpu,pull-auto,pull-tied-level-copies-lanes1,pull-tied-level-copies-lanes2
  DOMINO_DIST_BLOCKS_PER_SM=6 run_suite trsv-dist b6-p$pes $pes 60 --repeat 5 --problem $P \
    --engines domino-1gpu,pull-tied-level-copies-lanes1
  DOMINO_DIST_BLOCKS_PER_SM=12 run_suite trsv-dist b12-p$pes $pes 60 --repeat 5 --problem $P \
    --engines domino-1gpu,pull-tied-level-copies-lanes1
done
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
