#!/usr/bin/env bash
# x2-check14.sh: one device command on a 2-GPU kind: every dist-labelled
# test on 2 PEs (the thirteenth session's AUTO distribution, second form,
# had run only on the CPU), then the pull solver's schemes on 2 PEs beside
# domino's single GPU -> test.log, tables.txt, auto-p2.csv (csv.tgz).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
TEST_S=${TEST_S:-330} run_label_tests dist
run_suite trsv-dist auto-p2 2 ${AUTO_S:-120} --repeat 5 \
  --problem dag:10000000:8:10000,rmat:22,dag:10000000:8:100,dag:10000000:8:10 \
  --engines domino-1gpu,pull-tied-level-copies,pull-linked-level-copies,pull-auto
( cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv )
