#!/usr/bin/env bash
# block-session.sh: one device command (one GPU, under 600 s) for the
# one-block engine (DOMINO_ENGINE_BLOCK, src/cuda/trsv_block.cu):
#  1. builds the CLI and the triangular-solve GPU tests only (not the
#     multi-GPU targets), runs test_gpu_trsv_block, test_gpu_trsv;
#  2. the trsv suite's real matrices (MATRICES=0: none) and deep DAGs
#     (DEEP: other problems) with auto, block, block-global, thread and
#     cusparse (ENGINES) (-> $TAG.csv / $TAG.txt, TAG=trsv);
#  3. a sweep of settings (SETTINGS: lanes per row and back-off) of one
#     engine (SWEEP_ENGINES=block) on the real matrices (SWEEP=0: none)
#     (-> sweep.txt: one line per engine run, the setting in front).
# TARGETS and TESTS: the test programs built and run (the trsv ones).
#   bash bench/block-session.sh       (results in $OUT, or bench/results/raw)
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT"
ROOT=$(pwd)
MATS=${DOMINO_MATRICES:-$ROOT/.carry/matrices}
export DOMINO_MATRICES=$MATS
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee "$OUT/device.txt"
B=build-gpu
ZFLAGS=""
if [ ! -f /usr/include/zlib.h ]; then
  zl=$(ls /usr/lib/x86_64-linux-gnu/libz.so* /lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)
  ZFLAGS="-DZLIB_INCLUDE_DIR=$ROOT/.carry/zlib -DZLIB_LIBRARY=$zl"
fi
t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES="$MATS" $ZFLAGS > "$OUT/build.log" 2>&1
cmake --build $B -j 16 --target domino_cli ${TARGETS:-test_gpu_trsv_block test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_lanes} >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s"
( cd $B && timeout ${TEST_S:-200} ctest -R "${TESTS:-test_gpu_trsv}" --timeout 150 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|failed" "$OUT/gpu-test.log" | tail -12
export B MATS OUT DOMINO_BUILT=1
[ "${MATRICES:-1}" = 1 ] && SHARED_MTX=("$MATS"/*.mtx) || SHARED_MTX=()
ENGINES=${ENGINES:-auto,block,block-global,thread,cusparse} REPEAT=${REPEAT:-10} PER_PROBLEM_S=${PER_PROBLEM_S:-90} \
  TAG=${TAG:-trsv} timeout ${SUITE_S:-200} bash bench/gpu-run.sh none "${SHARED_MTX[@]}" ${DEEP:-dag:1000000:8:100 dag:1000000:8:1000 \
  dag:1000000:8:10000 dag:1000000:8:100000 dag:1000000:2:1000000 dag:1000000:8:100000:100} 2>&1 | tail -n 80
if [ "${SWEEP:-1}" = 1 ]; then
  : > "$OUT/sweep.txt"
  for setting in ${SETTINGS:-"DOMINO_BLOCK_LANES=2" "DOMINO_BLOCK_LANES=4" "DOMINO_BLOCK_LANES=8" "DOMINO_BLOCK_LANES=16" \
                 "DOMINO_BLOCK_LANES=32" "DOMINO_BACKOFF_NS=0" "DOMINO_BACKOFF_NS=200"}; do
    for f in "$MATS"/*.mtx; do
      env "$setting" timeout 20 $B/domino bench --problem "$f" --engines ${SWEEP_ENGINES:-block} --repeat 10 2>&1 \
        | grep -v "^#" | tail -n +2 | sed "s|^|$setting |" >> "$OUT/sweep.txt"
    done
  done
  echo "sweep: $(wc -l < "$OUT/sweep.txt") runs"
fi
