#!/usr/bin/env bash
# validate-session.sh: the first device command of the next session
# (nvidia-h200-x2 or -x4, under 600 s): the code written without a GPU in
# the session of 2026-11-22 (the grouped level-set launch, locality-aware
# stealing and stationary-C by row blocks) tested and measured.
#  1. ctest -L "gpu|dist" on every GPU of the machine (test_gpu_trsv_lanes,
#     test_dist_spmm_gpu with all five one-sided algorithms);
#  2. the spmm suite on every GPU (R-MAT 20 and 22, widths 128 and 512);
#  3. the trsv suite's levelset (thread per row), levelset-lanes (groups of
#     lanes), thread and cusparse on the matrices where thread per row is
#     weak (R-MAT, rows of 1000+ entries) and a 1000-level DAG.
# Results in $OUT: test.log, spmm.csv/txt, trsv.csv/txt.
#   bash bench/validate-session.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /dev/null
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-24G}
( cd $B && timeout ${TEST_S:-200} ctest -L "gpu|dist" --timeout 120 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -16
source bench/spmm-suite.sh
spmm_suite spmm "$(nvidia-smi -L | wc -l)" ${SPMM_S:-180} --problem rmat:20,rmat:22 --widths 128,512
ENGINES=levelset,levelset-lanes,thread,cusparse PER_PROBLEM_S=40 REPEAT=10 timeout ${TRSV_S:-150} \
  bash bench/gpu-run.sh none rmat:22 dag:10000000:8:1000 "$MATS/adder_dcop_05.mtx" "$MATS/hangGlider_2.mtx" \
  "$MATS/cryg2500.mtx" "$MATS/bayer10.mtx" 2>&1 | grep -v "^--\|^\[\|^build\|^name\|^NVIDIA" | tail -40
