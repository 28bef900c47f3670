#!/usr/bin/env bash
# h100-precond17 final: ctest -L gpu and the whole precond suite on the final code
# On the device: bash bench/results/h100-precond17/run-final.sh (OUT set by the tool)
set -uo pipefail
export OUT
source bench/device-build.sh > $OUT/build.log 2>&1
tail -1 $OUT/build.log
(cd build-gpu && timeout 300 ctest -L gpu --timeout 250) > $OUT/gpu-test.log 2>&1
grep -E "Test *#|tests passed|FAIL" $OUT/gpu-test.log | tail -10
timeout 300 build-gpu/domino bench --suite precond --csv $OUT/precond.csv --json-out $OUT/precond.json > $OUT/precond.txt 2>&1
cat $OUT/precond.txt
