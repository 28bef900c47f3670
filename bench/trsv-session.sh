#!/usr/bin/env bash
# trsv-session.sh: one device command (one GPU, under 600 s) for the
# single-GPU triangular solve:
#  1. builds the CLI and the GPU tests named in TARGETS (default the trsv
#     ones; not the multi-GPU targets) and runs those matching TESTS;
#  2. the trsv suite's real matrices (MATRICES=0: none) and the problems in
#     DEEP (default deep DAGs) with the engines in ENGINES
#     (-> $TAG.csv / $TAG.txt, TAG=trsv);
#  3. a sweep of environment settings (SETTINGS, default the block engine's
#     lanes per row and back-off; a setting is NAME=VALUE[,NAME=VALUE...])
#     of one engine (SWEEP_ENGINES=block) on the real matrices or
#     SWEEP_PROBLEMS (SWEEP=0: none) (-> sweep.txt: a line per run, the
#     setting in front).
# TESTS=none runs no test (keeps an earlier gpu-test.log).
# A settings sweep (the warp sweep's test, bench/results/h100-trsv4/earlier/sweep-gate.txt):
#   TARGETS="test_gpu_trsv test_gpu_trsv_long_rows" TESTS='test_gpu_trsv$|test_gpu_trsv_long' \
#   MATRICES=0 DEEP=d2n5:1024x1024 ENGINES=thread,cusparse SWEEP_ENGINES=thread SWEEP_PER_S=40 \
#   SETTINGS="DOMINO_SWEEP_MIN_CHAINED=16,DOMINO_SWEEP_MAX_ROW=4 DOMINO_SWEEP_MIN_CHAINED=8,DOMINO_SWEEP_MAX_ROW=8" \
#   bash bench/trsv-session.sh
# The whole suite (bench/results/h100-trsv4 has the exact command):
#   TARGETS="test_gpu_precond test_gpu_trsv test_gpu_trsv_long_rows" \
#   TESTS='test_gpu_trsv$|test_gpu_trsv_long|test_gpu_precond' ENGINES=auto,thread,cusparse \
#   SUITE_S=470 PER_PROBLEM_S=80 SWEEP=0 DEEP="d2n5:1024x1024 ... rmat:22" bash bench/trsv-session.sh
# bench/trsv5-session.sh: the last full run (h100-trsv5).
# (results in $OUT on the device machine, else bench/results/raw)
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${TARGETS:-test_gpu_trsv_block test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_lanes}
source bench/device-build.sh
run_gpu_tests
export B MATS OUT DOMINO_BUILT=1
[ "${MATRICES:-1}" = 1 ] && SHARED_MTX=("$MATS"/*.mtx) || SHARED_MTX=()
ENGINES=${ENGINES:-auto,block,block-global,thread,cusparse} REPEAT=${REPEAT:-10} PER_PROBLEM_S=${PER_PROBLEM_S:-90} \
  TAG=${TAG:-trsv} timeout ${SUITE_S:-200} bash bench/gpu-run.sh none "${SHARED_MTX[@]}" ${DEEP:-dag:1000000:8:100 dag:1000000:8:1000 \
  dag:1000000:8:10000 dag:1000000:8:100000 dag:1000000:2:1000000 dag:1000000:8:100000:100} 2>&1 | tail -n 80
if [ "${SWEEP:-1}" = 1 ]; then
  : > "$OUT/sweep.txt"
  for setting in ${SETTINGS:-"DOMINO_BLOCK_LANES=2" "DOMINO_BLOCK_LANES=4" "DOMINO_BLOCK_LANES=8" "DOMINO_BLOCK_LANES=16" \
                 "DOMINO_BLOCK_LANES=32" "DOMINO_BACKOFF_NS=0" "DOMINO_BACKOFF_NS=200"}; do
    for f in ${SWEEP_PROBLEMS:-"$MATS"/*.mtx}; do
      env ${setting//,/ } timeout ${SWEEP_PER_S:-20} $B/domino bench --problem "$f" --engines ${SWEEP_ENGINES:-block} \
        --repeat 10 2>&1 | grep -v "^#" | tail -n +2 | sed "s|^|$setting |" >> "$OUT/sweep.txt"
    done
  done
  echo "sweep: $(wc -l < "$OUT/sweep.txt") runs"
fi
