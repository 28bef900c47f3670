#!/usr/bin/env bash
# box-ab18.sh: the box path of the factorization (src/cuda/factor_box.cu,
# a thread a row of D3N27) against the table path (DOMINO_FACTOR_BOX=0) in
# the same session, after test_gpu_precond.
# On the device: bash bench/box-ab18.sh (OUT set by the tool; ROUNDS, default 1)
set -uo pipefail
export OUT
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh > $OUT/build.log 2>&1
tail -2 $OUT/build.log
TESTS=test_gpu_precond TEST_S=240 run_gpu_tests
grep -E "box path|stencil-box|box " $OUT/gpu-test.log | head -8 > $OUT/box-lines.txt
for r in $(seq 1 ${ROUNDS:-1}); do
  for mode in box table; do
    flag=1; [ $mode = table ] && flag=0
    DOMINO_FACTOR_BOX=$flag DOMINO_PRECOND_ONLY=${ONLY:-D3N27} timeout 200 build-gpu/domino bench --suite precond \
      --csv $OUT/$mode$r.csv > $OUT/$mode$r.txt 2>&1
    echo "== $mode round $r"; grep -E "^D3N|^[a-z]" $OUT/$mode$r.txt | grep -v "^values\|^setup" | head -20
  done
done
