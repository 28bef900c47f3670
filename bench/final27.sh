#!/usr/bin/env bash
# final27.sh: the session's closing run on one GPU: build, the gpu label's
# ctests (TEST_JOBS at a time, default 2), the whole precond suite with its
# CSV and JSON, and its D3N27 half once more (the same-session repeat).
# On the device: bash bench/final27.sh (OUT set by the tool); all files end
# in $OUT/all.tgz.
set -uo pipefail
export OUT
source bench/device-build.sh > $OUT/build.log 2>&1
grep -E "error|warning" $OUT/build.log | head; tail -1 $OUT/build.log
TEST_JOBS=${TEST_JOBS:-2} TEST_S=${TEST_S:-300} run_label_tests gpu
timeout ${SUITE_S:-200} $B/domino bench --suite precond --csv $OUT/precond.csv --json-out $OUT/precond.json \
  > $OUT/precond.txt 2>&1
echo "== precond suite: exit $?"; grep -E "ic0|ilu0" $OUT/precond.txt | grep -v "|" | cut -c1-150
DOMINO_PRECOND_ONLY=D3N27 timeout 100 $B/domino bench --suite precond > $OUT/again.txt 2>&1
echo "== D3N27 again: exit $?"; grep -E "ic0|ilu0" $OUT/again.txt | grep -v "|" | cut -c1-150
(cd $OUT && tar czf all.tgz --remove-files *.txt *.csv *.json build.log test.log)
true
