#!/usr/bin/env bash
# x4-next12.sh: the next session's first device command (nvidia-h200-x4,
# about 8 minutes): the first GPU run of 2bde2ba onward (level-tied tasks
# the plan's default, compiled and CPU-tested only), then the one open lead
# of bench/results/h200x4-grid: the 100-level DAG on 4 PEs at 1.91-1.93x
# domino's single GPU (issue 7 asks 2x): lanes a row (2, 4 = chosen, 8)
# against the pull solver's grid (8, 10, 12 = default, 14 blocks an SM)
#  1. build everything; ctest -L "gpu|dist" -> test.log
#  2. 4 PEs, DAGs of 10 and 100 levels: domino-1gpu and the three lane
#     counts with copies and level-tied tasks, per grid -> lanes-CAP.csv
#     (in lanes-csv.tgz), tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
run_label_tests "gpu|dist"
source bench/suite-log.sh
for cap in ${CAPS:-8 10 12 14}; do
  export DOMINO_DIST_BLOCKS_PER_SM=$cap
  echo "# DOMINO_DIST_BLOCKS_PER_SM=$cap" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist lanes-$cap ${PES:-4} ${S:-60} --problem dag:10000000:8:10,dag:10000000:8:100 \
    --engines domino-1gpu,pull-tied-level-copies,pull-tied-level-copies-lanes2,pull-tied-level-copies-lanes8 --repeat 5
done
( cd "$OUT" && tar czf lanes-csv.tgz lanes-*.csv && rm -f lanes-*.csv )
