#!/usr/bin/env bash
# final29.sh: the twenty-ninth session's closing device command (2 GPUs):
# every target built, every gpu and dist ctest (test.log), then the whole
# stencil suite (32 solves: 4 stencils x 64^3..256^3 x lower/upper) with
# the structured solve from CSR and compact input against cusparseSpSV,
# tuned, each problem in its own process (stencil.csv/.txt), summarized by
# summarize_stencil.py (stencil-summary.txt).  On the device:
# bash bench/final29.sh (OUT set by the tool).
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
source bench/device-build.sh > $OUT/build.log 2>&1
TEST_S=${TEST_S:-270} run_label_tests "gpu|dist"
DOMINO_BUILT=1 TEST=0 TAG=stencil ENGINES=stencil,stencil-compact,cusparse PER_PROBLEM_S=60 \
  bash bench/stencil-run.sh suite > /dev/null 2>&1
python3 bench/summarize_stencil.py $OUT/stencil.csv > $OUT/stencil-summary.txt 2>&1
tail -30 $OUT/stencil-summary.txt
