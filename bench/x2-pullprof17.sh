#!/usr/bin/env bash
# x2-pullprof17.sh: why the multi-GPU pull kernel on one PE is 0.80x the
# single-GPU thread engine on the 10^7-row DAGs (bench/results/h200x2-eff17):
#  1. the persistent grid's blocks an SM (DOMINO_DIST_BLOCKS_PER_SM 4, 6, 8,
#     12 = the default) with 1 and 2 lanes a row, on 1 PE;
#  2. Nsight Compute (full set, one solve) of dist_trsv_pull_kernel (2
#     lanes, 1 PE) and of the thread engine's kernel, DAG 10 levels.
# -> tables.txt, prof.tgz (details and SASS tops), csv.tgz
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-start.sh
P=dag:10000000:8:10,dag:10000000:8:100
E=domino-1gpu,pull-tied-level-copies-lanes1,pull-tied-level-copies-lanes2
for b in 12 8 6 4; do
  DOMINO_DIST_BLOCKS_PER_SM=$b run_suite trsv-dist grid-b$b-p1 1 60 --problem $P --repeat 5 --engines $E
done
mkdir -p /tmp/prof
timeout 150 ncu --target-processes all --set full --import-source yes -k "regex:dist_trsv_pull_kernel" \
  --launch-skip 2 --launch-count 1 -f -o /tmp/prof/pull $B/domino run -n 1 bench --suite trsv-dist \
  --problem dag:10000000:8:10 --engines pull-tied-level-copies-lanes2 --repeat 4 > /tmp/prof/pull.txt 2>&1
tail -5 /tmp/prof/pull.txt
timeout 120 ncu --set full --import-source yes -k "regex:trsv_pull_kernel" --launch-skip 2 --launch-count 1 \
  -f -o /tmp/prof/thread $B/domino bench --problem dag:10000000:8:10 --engines thread --repeat 4 \
  > /tmp/prof/thread.txt 2>&1
tail -3 /tmp/prof/thread.txt
for k in pull thread; do
  [ -f /tmp/prof/$k.ncu-rep ] || continue
  ncu -i /tmp/prof/$k.ncu-rep --page details --csv > /tmp/prof/$k-details.csv 2>&1
  ncu -i /tmp/prof/$k.ncu-rep --page source --csv --print-source sass > /tmp/prof/$k-sass.csv 2>&1
  python3 bench/ncu_sass_top.py /tmp/prof/$k-sass.csv 40 > /tmp/prof/$k-top.txt 2>&1
  rm -f /tmp/prof/$k-sass.csv
done
( cd /tmp/prof && tar czf "$OUT/prof.tgz" *.csv *.txt )
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
