#!/usr/bin/env bash
# x4-pull-copies.sh: one device command (nvidia-h200-x4, about 6 minutes):
# the first GPU run of the pull solver's copies (domino_dist_options.pull_copies:
# the owner of x_i also stores it into the arrays of the PEs that read it,
# so every read is local and values cross NVLink as posted stores):
#  1. build test_dist_trsv and the CLI; test_dist_trsv on $PES PEs -> dist-trsv-test.log
#  2. trsv-dist on 4 and 2 PEs: domino's single GPU, the pull solver with and
#     without copies (8 tasks per PE and level-tied tasks) on the 10^7-row
#     DAGs, R-MAT 22 and the stencils -> copies-p4.csv, copies-p2.csv, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS="test_dist_trsv" source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout ${TEST_S:-150} ctest -R "test_dist_trsv$" --timeout 140 --output-on-failure ) > "$OUT/dist-trsv-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/dist-trsv-test.log" | tail -6
source bench/suite-log.sh
E=${E:-domino-1gpu,pull-tasks8-level,pull-tasks8-level-copies,pull-tied-level,pull-tied-level-copies}
P=${PROBLEMS:-dag:10000000:8:1000,dag:10000000:8:100,rmat:22,d3n7:256,d3n27:192}
run_suite trsv-dist copies-p4 4 ${P4_S:-200} --problem $P --engines $E --repeat 5
run_suite trsv-dist copies-p2 2 ${P2_S:-170} --problem $P --engines $E --repeat 5
