#!/usr/bin/env bash
# pull-occupancy-ab.sh: one device command (one GPU, about 6 minutes): the
# pull kernel (thread engine) with its default 80 registers (3 blocks of 256
# threads an SM, 37.5 % occupancy: ncu in bench/results/h200-check7) against
# __launch_bounds__(256, MIN_BLOCKS) (default 4: 64 registers, some spills),
# built side by side (build-gpu, build-gpu-mb$MIN_BLOCKS), each problem run
# by both binaries in turn (order swapped every problem) -> ab.txt; then the
# pull kernel's GPU tests on the second build -> gpu-test.log.
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-bench/results/raw}; mkdir -p "$OUT"
MB=${MIN_BLOCKS:-4}
B2=build-gpu-mb$MB
# the second tree in the background, through the same build script
( DOMINO_BUILD_DIR=$B2 DOMINO_CMAKE_FLAGS="-DCMAKE_CUDA_FLAGS=-DDOMINO_PULL_MIN_BLOCKS=$MB" \
  DOMINO_TARGETS="test_gpu_trsv test_gpu_trsv_long_rows test_gpu_precond" \
  source bench/device-build.sh > "$OUT/build-mb.log" 2>&1 ) &
DOMINO_TARGETS=" " source bench/device-build.sh > "$OUT/build.log" 2>&1
wait
grep -E "error|build:" "$OUT/build.log" "$OUT/build-mb.log" | head
P="dag:10000000:8:1 dag:10000000:8:10 dag:10000000:8:100 dag:10000000:8:1000 dag:10000000:8:10000 dag:1000000:8:100000 rmat:21 rmat:22"
for m in copter2 luxembourg pushpull rajat01 bayer10 hangGlider_2 adder_dcop_05 crack Pd bcsstk33; do P="$P $MATS/$m.mtx"; done
: > "$OUT/ab.txt"
i=0
for p in $P; do
  i=$((i+1))
  if [ $((i % 2)) = 0 ]; then order="build-gpu $B2"; else order="$B2 build-gpu"; fi
  for b in $order; do
    timeout 90 $b/domino bench --problem "$p" --engines ${ENGINES:-thread} --repeat 10 2>&1 | grep -v "^#" | tail -n +2 | sed "s|^|$b |" >> "$OUT/ab.txt"
  done
done
sed "s|$MATS/||" "$OUT/ab.txt" | awk '{printf "%-16s %-26s %10s %10s %s\n", $1, $2, $(NF-5), $(NF-4), $NF}'
( cd $B2 && timeout 200 ctest -R "test_gpu_trsv$|test_gpu_trsv_long_rows|test_gpu_precond" --timeout 150 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/gpu-test.log"
