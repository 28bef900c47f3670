#!/usr/bin/env bash
# x4-spmm-alg.sh: one device command (nvidia-h200-x4 with needs_h200):
# which cusparseSpMM algorithm the SpMM of R-MAT 24 runs best with, on
# both sides of the comparison at once (DOMINO_SPMM_ALG: the default, CSR
# ALG2, CSR ALG3 for the single-GPU baseline and every local product), 4
# PEs, widths 128 and 512, stationary-C by row blocks, B made on the GPUs;
# the 1-PE plan at width 512 that cannot fit (it must now fail cleanly);
# then ctest -L "gpu|dist" on the final code.  Results in $OUT (7 files):
# device.txt, tables.txt, test.log, spmm24-alg{default,2,3}.csv,
# spmm24-p1.csv.
#   bash bench/x4-spmm-alg.sh     (ALGS, TEST_S change it)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
source bench/suite-log.sh
for a in ${ALGS:-default 2 3}; do
  if [ "$a" = default ]; then unset DOMINO_SPMM_ALG; else export DOMINO_SPMM_ALG=$a; fi
  run_suite spmm spmm24-alg$a 4 60 --lean --problem rmat:24 --widths 128,512 --engines stationary-c-rows --repeat 5
done
unset DOMINO_SPMM_ALG
run_suite spmm spmm24-p1 1 50 --lean --problem rmat:24 --widths 512 --engines stationary-c-rows --repeat 3
( cd $B && timeout ${TEST_S:-220} ctest -L "gpu|dist" --timeout 150 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -20
