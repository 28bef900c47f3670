#!/usr/bin/env bash
# session32-d.sh: the thirty-second session's closing device commands (1 GPU).
#   bash bench/session32-d.sh tests   every target built, every gpu ctest (3 at a time) -> test.log
#   bash bench/session32-d.sh suite   the whole stencil suite, CSR and compact input against
#                                     cusparseSpSV, tuned, each problem in its own process
#                                     (stencil.csv/.txt/-tune.log), summarized (stencil-summary.txt);
#                                     built again unless build-gpu holds the CLI
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
if [ "$1" = tests ]; then
  source bench/device-build.sh > $OUT/build.log 2>&1
  tail -2 $OUT/build.log
  TEST_JOBS=3 TEST_S=${TEST_S:-330} run_label_tests gpu
else
  [ -x build-gpu/domino ] && export DOMINO_BUILT=1
  DOMINO_TARGETS=" " TEST=0 TAG=stencil ENGINES=stencil,stencil-compact,cusparse PER_PROBLEM_S=60 \
    bash bench/stencil-run.sh suite > $OUT/run.log 2>&1
  python3 bench/summarize_stencil.py $OUT/stencil.csv > $OUT/stencil-summary.txt 2>&1
  tail -32 $OUT/stencil-summary.txt
fi
