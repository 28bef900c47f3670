#!/usr/bin/env bash
# x4-spgemm.sh: one device command (nvidia-h200-x4, about 300 s) for the
# distributed SpGEMM's strong scaling on 1, 2 and 4 GPUs of one machine
# (issue 7): the multi-GPU tests that cover the distributed runtime (SpTRSV,
# SpGEMM, NCCL SUMMA; one PE per GPU), then the spgemm suite on 4, 1 and 2
# PEs with the same 4x4 tile grid (R-MAT 18 and 20, 3 timed runs), every
# product checked before its time is kept.  Results in $OUT (8 files at
# most come back): device.txt, spgemm-p{4,1,2}-t4.csv and .txt; then R-MAT
# 22 on 4 PEs with 8x8 tiles (spgemm-p4-t8-big.csv; its table and the test
# summary on stdout).
# Plots afterwards, here:
#   python3 bench/plot_spgemm.py <files_at>/spgemm-p1-t4.csv,<files_at>/spgemm-p2-t4.csv,<files_at>/spgemm-p4-t4.csv out/spgemm
#   bash bench/x4-spgemm.sh        (PROBLEMS, TILES, S1..S3, TEST_S change it)
set -uo pipefail
cd "$(dirname "$0")/.."
export DOMINO_TARGETS=${DOMINO_TARGETS:-"test_dist_trsv test_dist_spgemm_gpu test_summa_nccl"}
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout ${TEST_S:-60} ctest -R "${TEST_RE:-test_dist_trsv\$|test_dist_spgemm_gpu|test_summa_nccl\$}" \
  --timeout 50 --output-on-failure ) > /tmp/domino-test.log 2>&1
grep -E "Test *#|tests passed|FAIL|rror" /tmp/domino-test.log | tail -12
source bench/spgemm-suite.sh
P=${PROBLEMS:-rmat:18,rmat:20}
T=${TILES:-4}
spgemm_suite spgemm-p4-t$T 4 ${S1:-50} --problem $P --tiles $T --repeat 3
spgemm_suite spgemm-p1-t$T 1 ${S2:-50} --problem $P --tiles $T --repeat 3
spgemm_suite spgemm-p2-t$T 2 ${S3:-50} --problem $P --tiles $T --repeat 3
# R-MAT 22 squared (nnz(C) ~ 9e9) on 4 PEs, 8x8 tiles, one timed run: its table
# to stdout only (the tool returns 8 files at most), its CSV kept
BIG=${PROBLEM_BIG:-rmat:22}
echo "# $B/domino run -n 4 bench --suite spgemm --problem $BIG --tiles 8 --repeat 1 --csv spgemm-p4-t8-big.csv ; $(date -u +%FT%TZ)"
timeout ${S4:-75} $B/domino run -n 4 bench --suite spgemm --problem $BIG --tiles 8 --repeat 1 --csv "$OUT/spgemm-p4-t8-big.csv" 2>&1 \
  | grep -vE "^  model"
echo "exit ${PIPESTATUS[0]}"
