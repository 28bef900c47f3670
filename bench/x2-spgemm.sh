#!/usr/bin/env bash
# x2-spgemm.sh: one device command (nvidia-h200-x2, under 600 s) for the
# distributed SpGEMM on 2 GPUs (issue 9), ready for when such a machine is
# lent: the dist tests (one PE per GPU), then the spgemm suite on 2 PEs and
# on 1 PE (strong scaling, parallel efficiency against single-GPU cuSPARSE
# and against our own 1 PE) for R-MAT 18 and 20 with 2x2 (the default: 2 x
# PEs) and 4x4 tiles, and R-MAT 22 (nnz(C) ~ 9e9; cuSPARSE on one GPU runs
# out of memory) with 8x8 tiles, one timed run.  Results in $OUT:
# test.log, spgemm-p2/p1[-tT].csv and .txt (PROBLEMS, PROBLEM_BIG change
# the matrices, e.g. for a dry run on one GPU).  Plots afterwards, here:
#   python3 bench/plot_spgemm.py <files_at>/spgemm-p1-t4.csv,<files_at>/spgemm-p2-t4.csv out/spgemm
#   bash bench/x2-spgemm.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /dev/null
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout ${TEST_S:-150} ctest -L dist --timeout 100 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -10
source bench/spgemm-suite.sh
P=${PROBLEMS:-rmat:18,rmat:20}
BIG=${PROBLEM_BIG:-rmat:22}
spgemm_suite spgemm-p2 2 ${S1:-90} --problem $P --repeat 3
spgemm_suite spgemm-p2-t4 2 ${S2:-90} --problem $P --tiles 4 --repeat 3
spgemm_suite spgemm-p1-t4 1 ${S3:-90} --problem $P --tiles 4 --repeat 3
spgemm_suite spgemm-p2-t8-big 2 ${S4:-120} --problem $BIG --tiles 8 --repeat 1
