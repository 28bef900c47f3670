#!/usr/bin/env bash
# box-ab18.sh: the box path of the factorization (src/cuda/factor_box.cu,
# a thread a row of D3N27) against the table path (DOMINO_FACTOR_BOX=0) in
# the same session, after test_gpu_precond.  CONFIGS: "name:ENV=V,ENV=V ..."
# On the device: bash bench/box-ab18.sh (OUT set by the tool)
set -uo pipefail
export OUT
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh > $OUT/build.log 2>&1
tail -2 $OUT/build.log
TESTS=${TESTS:-test_gpu_precond} TEST_S=240 run_gpu_tests
CONFIGS=${CONFIGS:-"box:DOMINO_FACTOR_BOX=1 table:DOMINO_FACTOR_BOX=0"}
for c in $CONFIGS; do
  name=${c%%:*}; envs=${c#*:}
  env $(echo $envs | tr ',' ' ') DOMINO_PRECOND_ONLY=${ONLY:-D3N27} timeout 200 build-gpu/domino bench \
    --suite precond --csv $OUT/$name.csv > $OUT/$name.txt 2>&1
  echo "== $name ($envs)"; grep -E "^D3N|^[a-z]" $OUT/$name.txt | grep -v "^values\|^setup" | grep -E "ic0|ilu0" | head -6 | cut -c1-80
done
(cd $OUT && tar czf csv.tgz *.csv *.txt && rm -f *.csv)
