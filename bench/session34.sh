#!/usr/bin/env bash
# session34.sh: the thirty-fourth session's device commands (1 GPU).
#   bash bench/session34.sh tests   every target built, every gpu ctest (3 at a time) -> test.log,
#                                   then the spmv row beside auto and cusparse on three problems
#                                   (spmv-check.txt)
#   bash bench/session34.sh suite   the whole trsv suite, auto, cusparse and the spmv row
#                                   (cusparseSpMV of the same triangle) -> csv/suite.csv, suite.txt,
#                                   suite-summary.txt; built again unless build-gpu holds the CLI
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
if [ "$1" = tests ]; then
  t0=$(date +%s)
  source bench/device-build.sh > $OUT/build.log 2>&1
  tail -2 $OUT/build.log
  TEST_JOBS=3 TEST_S=${TEST_S:-330} run_label_tests gpu
  echo "tests: $(( $(date +%s) - t0 )) s"
  timeout 60 $B/domino bench --problem dag:1000000:8:10 --engines auto,cusparse,spmv > $OUT/spmv-check.txt 2>&1
  timeout 60 $B/domino bench --problem .carry/matrices/hangGlider_2.mtx --engines auto,cusparse,spmv \
    >> $OUT/spmv-check.txt 2>&1
  timeout 60 $B/domino bench --problem d3n7:64:upper --engines auto,cusparse,spmv >> $OUT/spmv-check.txt 2>&1
  cat $OUT/spmv-check.txt
else
  [ -x build-gpu/domino ] && export DOMINO_BUILT=1
  source bench/device-build.sh > $OUT/build.log 2>&1
  SUITE_ENGINES=auto,cusparse,spmv SUITE_S=${SUITE_S:-480} run_trsv_suite
fi
