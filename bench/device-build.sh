#!/usr/bin/env bash
# device-build.sh: sourced by the device-session scripts (gpu-run.sh,
# stencil-run.sh): records the GPU in $OUT/device.txt and builds build-gpu
# (Release; DOMINO_BUILD_DIR names another tree, DOMINO_CMAKE_FLAGS adds
# configure flags) against the matrices in $DOMINO_MATRICES (default
# .carry/matrices, with zlib headers from .carry/zlib when the machine has
# none): every target, or the CLI and $DOMINO_TARGETS when that is set;
# nothing when DOMINO_BUILT=1 (the caller built it already).
export NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT"
ROOT=$(pwd)
MATS=${DOMINO_MATRICES:-$ROOT/.carry/matrices}
export DOMINO_MATRICES=$MATS
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee "$OUT/device.txt"
B=${DOMINO_BUILD_DIR:-build-gpu}
ZFLAGS=""
if [ ! -f /usr/include/zlib.h ]; then
  zl=$(ls /usr/lib/x86_64-linux-gnu/libz.so* /lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)
  ZFLAGS="-DZLIB_INCLUDE_DIR=$ROOT/.carry/zlib -DZLIB_LIBRARY=$zl"
fi
# The tests run $TEST_JOBS at a time (default 1): the single-GPU ones share
# GPU 0, the dist ones (RUN_SERIAL in CMakeLists.txt) run alone; with more
# than one, the failed ones run again one at a time (--rerun-failed), in the
# same log, so a failure from sharing the GPU shows as such.
# ctest_jobs ARGS...: ctest ARGS in $B under $TEST_S seconds, as above
ctest_jobs() {
  ( cd $B && timeout ${TEST_S:-300} ctest "$@" -j ${TEST_JOBS:-1} --timeout 150 --output-on-failure
    rc=$?
    if [ $rc -ne 0 ] && [ "${TEST_JOBS:-1}" -gt 1 ]; then
      echo "== the failed tests again, one at a time"
      timeout 300 ctest --rerun-failed --timeout 150 --output-on-failure
    fi )
}
# run_gpu_tests: the ctests matching $TESTS (default test_gpu_trsv; "none":
# none, an earlier gpu-test.log kept) within $TEST_S seconds -> gpu-test.log
run_gpu_tests() {
  [ "${TESTS:-test_gpu_trsv}" = none ] && return 0
  TEST_S=${TEST_S:-200} ctest_jobs -R "${TESTS:-test_gpu_trsv}" > "$OUT/gpu-test.log" 2>&1
  grep -E "Test *#|tests passed|FAIL|failed|one at a time" "$OUT/gpu-test.log" | tail -14
}
# run_label_tests LABELS: the ctests of the labels (a regex: "gpu|dist")
# within $TEST_S seconds, NVSHMEM's heap $NVSHMEM_SYMMETRIC_SIZE (16G unless
# set) -> test.log
run_label_tests() {
  export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
  ctest_jobs -L "$1" > "$OUT/test.log" 2>&1
  grep -E "Test *#|tests passed|FAIL|Total Test|one at a time" "$OUT/test.log" | tail -26
}
# run_trsv_suite: the whole trsv suite, auto against cusparse ($SUITE_ENGINES
# names others, e.g. auto,cusparse,spmv), within
# $SUITE_S seconds (default 330) -> $OUT/csv/suite.csv, suite.txt and
# suite-summary.txt (summarize_trsv.py, copy bandwidth 4200 GB/s), printed
run_trsv_suite() {
  mkdir -p "$OUT/csv"
  timeout ${SUITE_S:-330} $B/domino bench --suite trsv --engines ${SUITE_ENGINES:-auto,cusparse} --csv "$OUT/csv/suite.csv" \
    > "$OUT/suite.txt" 2>&1
  echo "suite exit $?" >> "$OUT/suite.txt"
  python3 bench/summarize_trsv.py "$OUT/csv/suite.csv" auto 4200 > "$OUT/suite-summary.txt"
  cat "$OUT/suite-summary.txt"
}
[ "${DOMINO_BUILT:-0}" = 1 ] && return 0
t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES="$MATS" $ZFLAGS ${DOMINO_CMAKE_FLAGS:-} 2>&1 | grep -E "domino|Error|error"
if [ -n "${DOMINO_TARGETS:-}" ]; then
  cmake --build $B -j 16 --target domino_cli $DOMINO_TARGETS 2>&1 | grep -E "error|warning|Built target domino_cli"
else
  cmake --build $B -j 16 2>&1 | grep -E "error|warning|Built target domino_cli"
fi
echo "build: $(( $(date +%s) - t0 )) s"
