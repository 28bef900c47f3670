#!/usr/bin/env bash
# poll all outstanding steps: build, test_gpu_precond, A/B on D3N27
set -uo pipefail
export OUT
touch src/cuda/factor_ilu0.cu src/cuda/factor_deep.cuh src/cuda/factor_stencil.c tests/gpu/test_gpu_precond.c
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh > $OUT/build.log 2>&1
tail -2 $OUT/build.log
(cmake -S . -B build-m3 -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES="$MATS" $ZFLAGS -DCMAKE_CUDA_FLAGS="-DFACTOR_STENCIL_MIN_BLOCKS=3" > /dev/null 2>&1; cmake --build build-m3 -j 8 --target domino_cli > $OUT/build-m3.log 2>&1) &
(cd build-gpu && timeout 150 ./test_gpu_precond) > $OUT/test_gpu_precond.log 2>&1
echo "test rc=$?"; tail -1 $OUT/test_gpu_precond.log; grep -m5 FAIL $OUT/test_gpu_precond.log
grep "d3n27 11x10x9" $OUT/test_gpu_precond.log | grep table | head -4 | cut -c1-120
wait; tail -1 $OUT/build-m3.log
export DOMINO_PRECOND_ONLY=D3N27_64,D3N27_128,D3N27_192
for v in "1 auto gpu" "0 auto gpu" "1 auto m3" "1 32 m3" "1 8 gpu" "1 16 gpu"; do
  set -- $v
  if [ $2 = auto ]; then unset DOMINO_FACTOR_LANES; else export DOMINO_FACTOR_LANES=$2; fi
  DOMINO_FACTOR_DEEP=$1 timeout 150 build-$3/domino bench --suite precond > $OUT/ab-deep$1-lanes$2-$3.txt 2>&1
  echo "deep=$1 lanes=$2 build=$3"; grep ^D3N27 $OUT/ab-deep$1-lanes$2-$3.txt | head -6 | cut -c1-80
done
