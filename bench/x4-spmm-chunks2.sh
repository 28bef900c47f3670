#!/usr/bin/env bash
# x4-spmm-chunks2.sh: one device command (nvidia-h200-x4 with needs_h200,
# about 7 minutes): the chunk kernel's options (DOMINO_SPMM_CHUNKS_OPT 0-7:
# streaming hints on A and C, twice the loads ahead, B past L1) swept in
# one suite on R-MAT 24 (--lean), on one GPU (chunks-1gpu, widths 128 and
# 32) and in stationary-C by row blocks on 4 PEs; then test_gpu_spmm with
# every option on, and the whole GPU and multi-GPU test set (make gpu-test's
# ctest -L "gpu|dist", 4 PEs).
# Results in $OUT: device.txt, tables.txt, spmm24-sweep-p4.csv, test.log.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
source bench/suite-log.sh
DOMINO_SPMM_CHUNKS_SWEEP=8 run_suite spmm spmm24-sweep-p4 4 150 --lean --problem ${PROBLEM:-rmat:24} --widths 128,32 \
  --engines stationary-c-rows,chunks-1gpu --repeat 5
( cd $B && DOMINO_SPMM_CHUNKS_OPT=7 timeout 60 ctest -R test_gpu_spmm --timeout 50 --output-on-failure
  timeout ${TEST_S:-330} ctest -L "gpu|dist" --timeout 150 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -30
