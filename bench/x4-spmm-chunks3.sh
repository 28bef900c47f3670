#!/usr/bin/env bash
# x4-spmm-chunks3.sh: one device command (nvidia-h200-x4 with needs_h200,
# about 5 minutes): the chunk kernel as the default local product of the
# one-sided SpMM up to 128 columns (test_gpu_spmm, test_dist_spmm_gpu on 4
# PEs), then R-MAT 24 (--lean) by row blocks at widths 512 and 128 on 4 PEs
# with the default local products and with cuSPARSE's
# (DOMINO_SPMM_LOCAL=cusparse), and on 2 PEs; single-GPU cuSPARSE and the
# chunk kernel on one GPU in each suite.
# Results in $OUT: device.txt, test.log, tables.txt, spmm24-*.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
( cd $B && timeout 90 ctest -R "test_gpu_spmm|test_dist_spmm_gpu" --timeout 60 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -12
source bench/suite-log.sh
P=${PROBLEM:-rmat:24}
run_suite spmm spmm24-p4 4 110 --lean --problem $P --widths 512,128 --engines stationary-c-rows,chunks-1gpu --repeat 5
DOMINO_SPMM_LOCAL=cusparse run_suite spmm spmm24-cusparse-p4 4 100 --lean --problem $P --widths 512,128 --engines stationary-c-rows --repeat 5
run_suite spmm spmm24-p2 2 100 --lean --problem $P --widths 512,128 --engines stationary-c-rows --repeat 5
