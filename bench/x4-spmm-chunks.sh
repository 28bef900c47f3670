#!/usr/bin/env bash
# x4-spmm-chunks.sh: one device command (nvidia-h200-x4 with needs_h200,
# about 6 minutes): test_gpu_spmm and test_dist_spmm_gpu on domino's chunk
# SpMM kernel (src/cuda/spmm_chunks.cu), then R-MAT 24 with B made on the
# GPUs (--lean), stationary-C by row blocks with the local products on the
# chunk kernel against the same with cuSPARSE's (DOMINO_SPMM_LOCAL), and
# the chunk kernel on one GPU against cuSPARSE (chunks-1gpu), all against
# single-GPU cuSPARSE measured in each run.
# Results in $OUT: device.txt, test.log, tables.txt, spmm24-*.csv.
#   bash bench/x4-spmm-chunks.sh   (PROBLEM, TEST_S change it)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
( cd $B && timeout ${TEST_S:-120} ctest -R "test_gpu_spmm|test_dist_spmm_gpu" --timeout 60 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -12
source bench/suite-log.sh
P=${PROBLEM:-rmat:24}
run_suite spmm spmm24-chunks-p4 4 120 --lean --problem $P --widths 128,32 --engines stationary-c-rows,chunks-1gpu --repeat 5
DOMINO_SPMM_LOCAL=cusparse run_suite spmm spmm24-cusparse-p4 4 100 --lean --problem $P --widths 128 --engines stationary-c-rows --repeat 5
run_suite spmm spmm24-chunks-p2 2 100 --lean --problem $P --widths 128,64 --engines stationary-c-rows,chunks-1gpu --repeat 5
DOMINO_SPMM_LOCAL=chunks run_suite spmm spmm24-chunks512-p4 4 100 --lean --problem $P --widths 512 --engines stationary-c-rows --repeat 5
