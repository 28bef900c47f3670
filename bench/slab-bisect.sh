#!/usr/bin/env bash
# slab-bisect.sh: one device command (nvidia-h200-x4): which commit made the
# slab solve slow (D3N7 512^3 on 4 PEs: 1.711 ms at eb052f0's code,
# 142.5 ms at cc378de).  Builds the CLI of the commits unpacked in
# .carry/ab/<commit> (git archive) beside the working tree's, in parallel,
# then times stencil-slabs on $PROBLEM with $PES PEs for each -> bisect.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1 NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
OUT=${OUT:-bench/results/raw}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv > "$OUT/device.txt"
ROOT=$(pwd)
Z=""
[ -f /usr/include/zlib.h ] || Z="-DZLIB_INCLUDE_DIR=$ROOT/.carry/zlib -DZLIB_LIBRARY=$(ls /usr/lib/x86_64-linux-gnu/libz.so* /lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)"
t0=$(date +%s)
build() { cmake -S "$1" -B "$1/b" -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES=$ROOT/.carry/matrices $Z > "$1.cmake.log" 2>&1
          cmake --build "$1/b" -j 16 --target domino_cli 2>&1 | grep -E "error" | head -5; }
TREES="$ROOT ${AB_TREES:-$(ls -d $ROOT/.carry/ab/*/)}"
for t in $TREES; do build ${t%/} & done
wait
echo "builds: $(( $(date +%s) - t0 )) s"
[ "${RUN:-1}" = 0 ] && exit 0 # RUN=0: build only
for t in $TREES; do
  t=${t%/}
  echo "## $t ${SETTING:-}" | tee -a "$OUT/bisect.txt"
  timeout ${RUN_S:-60} env ${SETTING:-} $t/b/domino run -n ${PES:-4} bench --suite trsv-dist --problem ${PROBLEM:-d3n7:384} \
    --engines ${ENGINES:-stencil-slabs} --repeat 5 2>&1 | grep -vE "^  model|^      PE" | tee -a "$OUT/bisect.txt"
done
