#!/usr/bin/env bash
# x4-grid-check.sh (nvidia-h200-x4, about 4 minutes): the pull solver at its
# new default grid (DIST_PULL_BLOCKS_PER_SM 12, chosen from x4-grid.sh):
# test_dist_trsv and test_dist_trsv_mpirun on 4 PEs -> test.log; the DAGs of
# 10 and 100 levels and R-MAT 22 on 4 PEs, the DAGs on 2 -> c4.csv, c2.csv,
# tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS="test_dist_trsv" source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout 150 ctest -R "test_dist_trsv" --timeout 110 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/test.log" | tail -4
source bench/suite-log.sh
ENGINES=domino-1gpu,pull-tied-level-copies,pull-tasks8-level-copies
run_suite trsv-dist c4 4 ${S:-70} --problem dag:10000000:8:10,dag:10000000:8:100,rmat:22 --engines $ENGINES --repeat 5
run_suite trsv-dist c2 2 ${S:-70} --problem dag:10000000:8:10,dag:10000000:8:100 --engines $ENGINES --repeat 5
