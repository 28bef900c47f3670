#!/usr/bin/env bash
# wait_pending with addresses made once: ctest -L gpu, A/B against HEAD's helper (build-head)
set -uo pipefail
export OUT
touch src/cuda/device_util.cuh
source bench/device-build.sh > $OUT/build.log 2>&1
tail -1 $OUT/build.log
cp src/cuda/device_util.cuh /tmp/du.new && cp .carry/ab/device_util.head.cuh src/cuda/device_util.cuh
cmake -S . -B build-head -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES="$MATS" $ZFLAGS > /dev/null 2>&1
cmake --build build-head -j 16 --target domino_cli 2>&1 | grep -E "error|Built target domino_cli"
cp /tmp/du.new src/cuda/device_util.cuh
(cd build-gpu && timeout 300 ctest -L gpu --timeout 250) > $OUT/gpu-test.log 2>&1
grep -E "Test *#|tests passed|FAIL" $OUT/gpu-test.log | tail -10
export DOMINO_PRECOND_ONLY=D3N7_64,D3N7_192,D3N27_64,D3N27_128,D3N27_192,bcsstk13,whitaker3,crack,luxembourg
for b in gpu head gpu head; do
  timeout 150 build-$b/domino bench --suite precond > $OUT/precond-$b.txt 2>&1
  echo "== $b"; grep -E "^(D3N|bcs|whit|crack|lux)" $OUT/precond-$b.txt | head -18 | cut -c1-80
done
for b in gpu head gpu head; do
  echo "== stencil $b"
  for p in d3n7:64 d3n7:192 d3n13:128 d3n27:128 d3n33:64 d3n33:192; do
    timeout 60 build-$b/domino bench --problem $p --engines stencil-compact,cusparse --repeat 20 2>&1 | grep -E "stencil-compact|cusparse" | awk '{print $1, $5, $7, $9}'
  done
done > $OUT/stencil-ab.txt 2>&1
cat $OUT/stencil-ab.txt
