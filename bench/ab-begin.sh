#!/usr/bin/env bash
# ab-begin.sh: sourced by the A/B sessions (one-launch-session.sh,
# triangle-ab-session.sh): builds the base commit in the background
# (ab-build-base.sh), the working tree with every gpu test
# (device-build.sh: sets B), runs those tests (gpu-test.log, as make
# gpu-test), waits for the base build, and sets M, the matrices' folder.
# DOMINO_TARGETS and TESTS (run_gpu_tests; "none": no tests) override the
# targets built and the tests run (groups24.sh).
export NVSHMEM_DISABLE_NVLS=1
bash bench/ab-build-base.sh > $OUT/build-base.log 2>&1 &
DOMINO_TARGETS="${DOMINO_TARGETS:-test_gpu_trsv test_gpu_trsv_lanes test_gpu_trsv_long_rows test_gpu_trsv_block test_gpu_precond test_gpu_stencil test_gpu_spmm}" source bench/device-build.sh > $OUT/build.log 2>&1
TESTS="${TESTS:-test_gpu}" TEST_S=${TEST_S:-240} run_gpu_tests
wait
M=.carry/matrices
