#!/usr/bin/env bash
# x4-copies-lanes.sh: one device command (nvidia-h200-x4, about 4 minutes):
# test_dist_trsv on 4 PEs, then the pull solver with copies and level-tied
# tasks on the 10^7-row DAGs (10, 100 and 1000 levels) with the lanes per
# row chosen from the levels, 8 and 16, against domino's single GPU
# -> lanes-p4.csv, tables.txt, dist-trsv-test.log
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS="test_dist_trsv" source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout 100 ctest -R "test_dist_trsv$" --timeout 90 --output-on-failure ) > "$OUT/dist-trsv-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/dist-trsv-test.log" | tail -4
source bench/suite-log.sh
run_suite trsv-dist lanes-p4 4 ${S:-200} --problem dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000 \
  --engines domino-1gpu,pull-tasks8-level,pull-tied-level-copies,pull-tied-level-copies-lanes8,pull-tied-level-copies-lanes16 --repeat 5
