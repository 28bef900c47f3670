#!/usr/bin/env bash
# x4-batch16.sh: one device command (nvidia-h200-x4): the pull kernel's
# entries loaded PULL_BATCH at a time per lane (DOMINO_DIST_PULL_BATCH 1, 2,
# 4) on 4 then 2 PEs, beside domino's single GPU: AUTO's distribution and
# lanes, and the level-tied pool with 2 and 8 lanes a row, on the 10^7-row
# DAGs of 10, 100 and 1000 levels and R-MAT 22 -> batch{1,2,4}-p{4,2}.csv
# in csv.tgz, tables.txt (the batch of each run in its tag).  The batched
# kernel was not kept: apply bench/results/h200x4-hop16/batch/pull-batch.patch
# first to run this again (without it DOMINO_DIST_PULL_BATCH does nothing)
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-start.sh
PROBLEMS=${PROBLEMS:-dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000,rmat:22}
for p in ${PES:-4 2}; do
  for batch in ${BATCHES:-4 1 2}; do
    DOMINO_DIST_PULL_BATCH=$batch run_suite trsv-dist batch$batch-p$p $p ${AB_S:-100} --problem $PROBLEMS --repeat 5 \
      --engines domino-1gpu,pull-auto,pull-tied-level-copies-lanes2,pull-tied-level-copies-lanes8
  done
done
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
