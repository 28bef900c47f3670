#!/usr/bin/env bash
# x4-lanes1.sh: one device command (nvidia-h200-x4, about 4 minutes):
# test_dist_trsv and test_dist_trsv_mpirun (with its thread-per-row scheme),
# then the pull solver with copies and a thread (1 lane) or 2 lanes per row
# against the chosen lanes on the 10^7-row DAGs, on 4 and 2 PEs
# -> dist-test.log, lanes1-p4.csv, lanes1-p2.csv, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=test_dist_trsv source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout ${DIST_S:-90} ctest -R test_dist_trsv --timeout 80 --output-on-failure ) > "$OUT/dist-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/dist-test.log" | tail -12
source bench/suite-log.sh
E=domino-1gpu,pull-tasks8-level-copies,pull-tasks8-level-copies-lanes1,pull-tied-level-copies,pull-tied-level-copies-lanes2,pull-tied-level-copies-lanes1
run_suite trsv-dist lanes1-p4 4 ${P4_S:-75} --problem dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000 --engines $E --repeat 5
run_suite trsv-dist lanes1-p2 2 ${P2_S:-60} --problem dag:10000000:8:10,dag:10000000:8:100 --engines $E --repeat 5
