#!/usr/bin/env bash
# x4-spmm.sh: one device command (nvidia-h200-x4, under 600 s) for the
# distributed SpMM on 4, 2 and 1 PEs (issues 7 and 9): the one-sided SpMM
# test, then the spmm suite (single-GPU cuSPARSE, stationary-C, with random
# stealing, stationary-A, NCCL SUMMA on the squarest grid) in double at
# every PE count, and once with a 4 x 4 tile grid.  Results in $OUT:
# test.log, spmm-p4/p2/p1.csv and .txt, spmm-p4-t4.csv and .txt.
#   bash bench/x4-spmm.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /dev/null
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-24G}
( cd $B && timeout ${TEST_S:-90} ctest -R "test_dist_spmm_gpu|test_dist_trsv$|test_gpu_spmm" --timeout 60 --output-on-failure ) \
  > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -8
source bench/spmm-suite.sh
spmm_suite spmm-p4 4 ${P4_S:-170} --problem rmat:20,rmat:22 --widths 128,512
spmm_suite spmm-p2 2 ${P2_S:-120} --problem rmat:20,rmat:22 --widths 128,512
spmm_suite spmm-p1 1 ${P1_S:-70} --problem rmat:22 --widths 128,512
spmm_suite spmm-p4-t4 4 ${T4_S:-60} --problem rmat:22 --widths 128,512 --tiles 4
