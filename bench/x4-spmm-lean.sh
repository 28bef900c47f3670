#!/usr/bin/env bash
# x4-spmm-lean.sh: one device command (nvidia-h200-x4 with needs_h200: the
# single-GPU baseline at width 512 holds B and C, 137 GB, on one card) for
# SpMM on R-MAT 24 (issues 7 and 9: stationary-C >= 3x single-GPU cuSPARSE
# on 4 GPUs, >= 1.7x on 2): the SpMM tests, then the spmm suite with --lean
# (B made on the GPUs tile by tile, every product checked by C z = A (B z);
# no host holds B or C) on 4, 2 and 1 PEs, widths 512 then 128 (the wide
# baseline first, before the heaps grow), after R-MAT 22 on 4 PEs.  Results
# in $OUT (7 files): device.txt, test.log, tables.txt (each suite's command
# and table), spmm22-p4.csv, spmm24-p4.csv, spmm24-p2.csv, spmm24-p1.csv.
#   bash bench/x4-spmm-lean.sh   (PROBLEM, WIDTHS, ENGINES4, ENGINES, S0..S3, TEST_S change it)
set -uo pipefail
cd "$(dirname "$0")/.."
export DOMINO_TARGETS=${DOMINO_TARGETS:-"test_gpu_spmm test_dist_spmm_gpu test_dist_spgemm_gpu"}
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
( cd $B && timeout ${TEST_S:-90} ctest -R "test_gpu_spmm|test_dist_spmm_gpu|test_dist_spgemm_gpu" --timeout 80 --output-on-failure ) \
  > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -6
source bench/suite-log.sh
# R-MAT 22 first (a minute): the breakdown of stationary-C and by row blocks
run_suite spmm spmm22-p4 4 ${S0:-60} --lean --problem rmat:22 --widths 512,128 --engines stationary-c-rows,stationary-c --repeat 5
P=${PROBLEM:-rmat:24}
W=${WIDTHS:-512,128}
run_suite spmm spmm24-p4 4 ${S1:-150} --lean --problem $P --widths $W --engines ${ENGINES4:-stationary-c-rows,stationary-c} --repeat 5
run_suite spmm spmm24-p2 2 ${S2:-120} --lean --problem $P --widths $W --engines ${ENGINES:-stationary-c-rows} --repeat 5
run_suite spmm spmm24-p1 1 ${S3:-100} --lean --problem $P --widths $W --engines ${ENGINES:-stationary-c-rows} --repeat 5
