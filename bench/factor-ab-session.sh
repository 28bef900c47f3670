#!/usr/bin/env bash
# factor-ab-session.sh: one device command behind h100-precond2/search-before-wait:
# the working tree (build-gpu: test_gpu_precond, then the precond suite) against
# the commit unpacked in .carry/ab/base (git archive COMMIT | tar -x -C .carry/ab/base),
# both suites in one session.  FULL_TESTS=1: build every target and run
# ctest -L gpu (gpu-test.log) instead of test_gpu_precond alone.
export NVSHMEM_DISABLE_NVLS=1
( cd .carry/ab/base && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release > /dev/null 2>&1; Z=""; [ -f /usr/include/zlib.h ] || Z="-DZLIB_INCLUDE_DIR=$(pwd)/../../zlib -DZLIB_LIBRARY=$(ls /usr/lib/x86_64-linux-gnu/libz.so* /lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)"; cmake -S . -B b -DCMAKE_BUILD_TYPE=Release $Z > /dev/null 2>&1; cmake --build b -j 8 --target domino_cli 2>&1 | grep -E "error|Built target domino_cli" ) > $OUT/build-base.log 2>&1 &
if [ "${FULL_TESTS:-0}" = 1 ]; then # every target, ctest -L gpu
  bash bench/gpu-run.sh test > $OUT/build.log 2>&1
  DOMINO_BUILT=1 source bench/device-build.sh > /dev/null 2>&1
else
  DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh > $OUT/build.log 2>&1
  TESTS=test_gpu_precond run_gpu_tests
fi
wait
for c in base new; do
  bin=$B/domino; [ $c = base ] && bin=.carry/ab/base/b/domino
  timeout 150 $bin bench --suite precond > $OUT/precond-$c.txt 2>&1
done
ls $OUT
