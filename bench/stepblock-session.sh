#!/usr/bin/env bash
# stepblock-session.sh: one device command (one GPU, under 600 s) for the
# step-block engine (trsv_stepblock.cu, its one-warp variant
# trsv_stepwarp.cu) and auto's trial of it; its runs are in
# bench/results/h200-stepblock:
#  1. build; test_gpu_trsv_stepblock, test_gpu_trsv (every engine, the
#     step-block one included), test_gpu_trsv_levelblock, _long_rows,
#     _block, _lanes, test_gpu_stencil, test_gpu_precond -> gpu-test.log;
#  2. the deep problems of issue 3 (>= 10^4 levels) and two shallow
#     controls with auto, thread, stepblock, stepblock-warp and cusparse
#     -> deep.csv/.txt;
#  2b. the one-warp variant's cycle profile (DOMINO_STEPBLOCK_PROFILE=1:
#     waiting for the loaders, reading a step, rounds, publishing) on three
#     deep problems -> profile.txt (not yet run on a GPU);
#  3. the shared matrices with auto, levelblock, stepblock, thread and
#     cusparse, analysis traced -> small.csv/.txt;
#  0. (MICRO=1) bench/micro/round_cost.cu and warp_round.cu: cycles a
#     round / a dependency hop by barrier kind -> round_cost.txt,
#     warp_round.txt;
#  5. (SWEEP=1) loader groups 1 and 2 (DOMINO_STEPBLOCK_GROUPS) on four
#     deep problems -> sweep.txt.
# Defaults take ~8-9 minutes: build ~80 s, tests ~120 s, deep <= 200 s,
# small <= 100 s, profile ~30 s.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_trsv_stepblock test_gpu_trsv test_gpu_trsv_levelblock test_gpu_trsv_long_rows test_gpu_trsv_block test_gpu_trsv_lanes test_gpu_stencil test_gpu_precond"
source bench/device-build.sh
if [ "${MICRO:-1}" = 1 ]; then
  nvcc -O3 -arch=sm_90 -o "$B/round_cost" bench/micro/round_cost.cu 2>/dev/null && "$B/round_cost" | tee "$OUT/round_cost.txt"
  nvcc -O3 -arch=sm_90 -o "$B/warp_round" bench/micro/warp_round.cu 2>/dev/null && "$B/warp_round" | tee "$OUT/warp_round.txt"
fi
TESTS=${TESTS:-'test_gpu_trsv_stepblock|test_gpu_trsv$|test_gpu_trsv_levelblock|test_gpu_trsv_long|test_gpu_trsv_block|test_gpu_trsv_lanes|test_gpu_stencil|test_gpu_precond'} \
  TEST_S=${TEST_S:-240} run_gpu_tests
export B MATS OUT DOMINO_BUILT=1
ENGINES=${DEEP_ENGINES:-auto,thread,stepblock,stepblock-warp,cusparse} PER_PROBLEM_S=60 TAG=deep timeout ${DEEP_S:-200} bash bench/gpu-run.sh none \
  ${DEEP:-dag:1000000:8:10000 dag:1000000:8:100000 dag:1000000:2:1000000 dag:1000000:8:100000:100 \
  dag:10000000:8:10000 dag:10000000:8:100000 dag:1000000:8:1000 dag:10000000:8:10} 2>&1 | tail -n 40
for p in ${PROFILE_PROBLEMS:-dag:1000000:8:100000 dag:1000000:8:100000:100 dag:10000000:8:100000}; do
  echo "$p" >> "$OUT/profile.txt"
  DOMINO_STEPBLOCK_WARP=1 DOMINO_STEPBLOCK_PROFILE=1 timeout 60 $B/domino bench --problem "$p" --engines stepblock \
    --repeat 2 2>&1 | grep -E "stepwarp profile|stepblock" >> "$OUT/profile.txt"
done
cat "$OUT/profile.txt"
[ "${SMALL:-1}" = 1 ] && DOMINO_ANALYSIS_TRACE=1 ENGINES=auto,levelblock,stepblock,thread,cusparse PER_PROBLEM_S=30 TAG=small \
  timeout ${SMALL_S:-100} bash bench/gpu-run.sh none "$MATS"/*.mtx 2>&1 | grep -v "^analysis trace" | tail -n 110
: > "$OUT/sweep.txt"
[ "${SWEEP:-0}" = 1 ] && for g in ${GROUPS_SWEEP:-1 2}; do
  for p in ${SWEEP_PROBLEMS:-dag:1000000:8:10000 dag:1000000:8:100000 dag:1000000:8:100000:100 dag:10000000:8:100000}; do
    DOMINO_STEPBLOCK_GROUPS=$g timeout 40 $B/domino bench --problem "$p" --engines stepblock --repeat 10 2>&1 \
      | grep -v "^#" | tail -n +2 | sed "s|^|groups=$g |" >> "$OUT/sweep.txt"
  done
done
cat "$OUT/sweep.txt"
