#!/usr/bin/env bash
# box-lines25.sh: the box path's IC(0) by grid lines (factor_box_lines_kernel,
# DOMINO_FACTOR_BOX_LINES=1) against the box path (a thread a row, keys x +
# 2 y + 4 z) in the same session, after test_gpu_precond and
# test_gpu_factor_pivots (TESTS, a ctest regex; "none" skips them).
# CONFIGS: "name:ENV=V,ENV=V ..." (default: box, lines (scanned), lines walked,
# lines at 16 keys in flight); ONLY: the precond suite's problems (default D3N27).
# On the device: bash bench/box-lines25.sh (OUT set by the tool)
set -uo pipefail
export OUT
DOMINO_TARGETS="test_gpu_precond test_gpu_factor_pivots" source bench/device-build.sh > $OUT/build.log 2>&1
grep -E "error|warning" $OUT/build.log | head; tail -1 $OUT/build.log
TESTS=${TESTS:-"test_gpu_precond|test_gpu_factor_pivots"} TEST_S=240 run_gpu_tests
( cd $B && DOMINO_SHARED_MATRICES=$DOMINO_MATRICES timeout 60 ./test_gpu_precond 2>&1 | grep -E "box lines|CHECK" | head -40 )
CONFIGS=${CONFIGS:-"box:DOMINO_FACTOR_BOX=1 lines:DOMINO_FACTOR_BOX=1,DOMINO_FACTOR_BOX_LINES=1 walk:DOMINO_FACTOR_BOX=1,DOMINO_FACTOR_BOX_LINES=walk lines16:DOMINO_FACTOR_BOX=1,DOMINO_FACTOR_BOX_LINES=1,DOMINO_FACTOR_BOX_LINE_KEYS=16"}
for c in $CONFIGS; do
  name=${c%%:*}; envs=${c#*:}
  env $(echo $envs | tr ',' ' ') DOMINO_PRECOND_ONLY=${ONLY:-D3N27} timeout ${CONFIG_S:-150} $B/domino bench \
    --suite precond --csv $OUT/$name.csv > $OUT/$name.txt 2>&1
  echo "== $name ($envs): exit $?"; grep -E "ic0|ilu0" $OUT/$name.txt | grep -v "^values\|^setup" | head -6 | cut -c1-150
done
(cd $OUT && tar czf csv.tgz *.csv *.txt && rm -f *.csv)
true
