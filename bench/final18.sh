#!/usr/bin/env bash
# final18.sh: the eighteenth session's last device command: every `gpu`
# ctest, issue 6's whole precond suite (the box path AUTO's for IC(0) of
# D3N27 from 2^20 rows), and D3N27 on the table path in the same session.
# On the device: bash bench/final18.sh (OUT set by the tool)
set -uo pipefail
export OUT
source bench/device-build.sh > $OUT/build.log 2>&1
tail -2 $OUT/build.log
TEST_S=${TEST_S:-220} run_label_tests gpu
timeout 170 build-gpu/domino bench --suite precond --csv $OUT/precond.csv --json-out $OUT/precond.json \
  > $OUT/precond.txt 2>&1
grep -E "ic0|ilu0" $OUT/precond.txt | head -14 | cut -c1-140
DOMINO_FACTOR_BOX=0 DOMINO_PRECOND_ONLY=D3N27 timeout 60 build-gpu/domino bench --suite precond \
  --csv $OUT/table.csv > $OUT/table.txt 2>&1
echo "== D3N27, table path"; grep -E "^D3N27.*(ic0|ilu0)" $OUT/table.txt | head -6 | cut -c1-140
(cd $OUT && tar czf csv.tgz *.csv *.json && rm -f *.csv *.json)
