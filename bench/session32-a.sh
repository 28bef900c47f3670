#!/usr/bin/env bash
# session32-a.sh: the thirty-second session's first device command (2 GPUs):
# the working tree built (every target) beside the CLIs of .carry/ab/{base,
# p1,p2} (h200-csrstage31 §4's two patches), then every dist ctest on the
# two GPUs (test.log), then prof-csr-session.sh's fixed-shape CSR timings of
# the three trees, each shape twice (time.csv).
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
for t in base p1 p2; do JOBS=8 bash bench/ab-build-base.sh .carry/ab/$t > $OUT/build-$t.log 2>&1 & done
(source bench/device-build.sh > $OUT/build.log 2>&1) ; wait
tail -3 $OUT/build.log
DOMINO_BUILT=1 source bench/device-build.sh > /dev/null
TEST_S=240 run_label_tests dist
S="d3n33:256 2x2,d3n33:128 4x2,d3n27:256 4x4,d3n27:128 16x1"  # p1, p2 touch the tile kernel only
TREES="base p1 p2" NCU_TREES="" SHAPES="$S,$S" SKIP_BUILD=1 bash bench/prof-csr-session.sh
