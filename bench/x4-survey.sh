#!/usr/bin/env bash
# x4-survey.sh: one device command (nvidia-h200-x4, under 600 s): every GPU
# and multi-GPU ctest with 4 PEs, the spmm suite on R-MAT 22 (widths 128 and
# 512; every algorithm, stationary-C by row blocks among them) on 4 and 2
# PEs, and the spgemm suite on R-MAT 20 with 8 x 8 tiles on 4 and 1 PEs
# (issue 7's 60 % target at that grid).  Results in $OUT (7 files):
# device.txt, test.log, tables.txt (every suite's table, each after its
# command), spmm-p4.csv, spmm-p2.csv, spgemm-p4-t8.csv, spgemm-p1-t8.csv.
#   bash bench/x4-survey.sh     (TEST_S, S1..S4 set the time limits)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-32G}
( cd $B && timeout ${TEST_S:-170} ctest -L "gpu|dist" --timeout 120 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -24
source bench/suite-log.sh
run_suite spmm spmm-p4 4 ${S1:-100} --problem rmat:22 --widths 128,512 --repeat 5
run_suite spmm spmm-p2 2 ${S2:-80} --problem rmat:22 --widths 128,512 --repeat 5
run_suite spgemm spgemm-p4-t8 4 ${S3:-70} --problem rmat:20 --tiles 8 --repeat 3
run_suite spgemm spgemm-p1-t8 1 ${S4:-70} --problem rmat:20 --tiles 8 --repeat 3
