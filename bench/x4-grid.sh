#!/usr/bin/env bash
# x4-grid.sh (nvidia-h200-x4, about 6 minutes): the pull solver's persistent
# grid, DIST_PULL_BLOCKS_PER_SM (8 blocks of 128 threads an SM, the
# default since this script) against 4, 6, 12 and 16 (all that fit, the
# grid before), set through DOMINO_DIST_BLOCKS_PER_SM:
#  1. build the CLI and test_dist_trsv; the test on 4 PEs at the default -> test.log
#  2. 4 PEs: the 10^7-row DAGs of 10, 100 and 1000 levels, R-MAT 22, D3N7
#     256^3; domino's single GPU, the pull solver with copies and level-tied
#     tasks, and with the default plan (8 tasks a PE) -> g4-CAP.csv
#  3. 2 PEs (two GPUs of the host): the DAGs, at 8 and 16 -> g2-CAP.csv
# every command's output in tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS="test_dist_trsv" source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout 120 ctest -R "test_dist_trsv$" --timeout 110 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/test.log" | tail -4
source bench/suite-log.sh
ENGINES=domino-1gpu,pull-tied-level-copies,pull-tasks8-level-copies
for cap in ${CAPS4:-4 6 8 12 16}; do
  export DOMINO_DIST_BLOCKS_PER_SM=$cap
  echo "# DOMINO_DIST_BLOCKS_PER_SM=$cap" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist g4-$cap 4 ${S:-80} --problem dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000,rmat:22,d3n7:256 \
    --engines $ENGINES --repeat 5
done
for cap in ${CAPS2:-8 16}; do
  export DOMINO_DIST_BLOCKS_PER_SM=$cap
  echo "# DOMINO_DIST_BLOCKS_PER_SM=$cap" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist g2-$cap 2 ${S:-80} --problem dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000 \
    --engines $ENGINES --repeat 5
done
# the device tool returns 8 files at most: the CSVs in one archive
( cd "$OUT" && tar czf grid-csv.tgz g4-*.csv g2-*.csv && rm -f g4-*.csv g2-*.csv )
