#!/usr/bin/env bash
# ctest -L gpu on the reverted kernel + new tests; engines on the small shallow matrices
set -uo pipefail
export OUT
source bench/device-build.sh > $OUT/build.log 2>&1
tail -2 $OUT/build.log
(cd build-gpu && timeout 300 ctest -L gpu --timeout 250) > $OUT/gpu-test.log 2>&1
grep -E "Test *#|tests passed|FAIL" $OUT/gpu-test.log | tail -10
(cd build-gpu && ./test_gpu_precond) > $OUT/test_gpu_precond.log 2>&1; tail -1 $OUT/test_gpu_precond.log
for m in adder_dcop_05 bayer10 hangGlider_2 nnc1374 crack bcspwr10; do
  timeout 60 build-gpu/domino bench --problem $DOMINO_MATRICES/$m.mtx --engines auto,thread,warp,levelset,block,csc,cusparse --repeat 50 2>&1 | grep -vi "^#\|residual" | tail -9
done > $OUT/small-engines.txt 2>&1
cat $OUT/small-engines.txt
