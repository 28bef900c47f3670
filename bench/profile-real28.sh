#!/usr/bin/env bash
# profile-real28.sh: where the general (row) factorization's time goes on
# the real matrices of the precond suite (MATS_ONLY, default crack bcsstk13
# luxembourg): each matrix's precond rows timed, then under ncu (the
# duration of each kernel of the factorizations, ours and cuSPARSE's; the
# GPU machines have ncu, not nsys), summarized by bench/profile_real.py.
# On the device: bash bench/profile-real28.sh; files in $OUT/all.tgz.
set -uo pipefail
export OUT
DOMINO_TARGETS=" " source bench/device-build.sh
which ncu 2>&1 | tee $OUT/tools.txt
for m in ${MATS_ONLY:-crack bcsstk13 luxembourg}; do
  DOMINO_PRECOND_ONLY=$m timeout 100 $B/domino bench --suite precond > $OUT/precond-$m.txt 2>&1
  echo "== $m: exit $?"; grep -E "^$m" $OUT/precond-$m.txt | cut -c1-120
  DOMINO_PRECOND_ONLY=$m timeout 200 ncu --csv --metrics gpu__time_duration.sum \
    --kernel-name regex:"factor|tril|pending|status|csric|csrilu" $B/domino bench --suite precond \
    > $OUT/ncu-$m.csv 2> $OUT/ncu-$m.err
  echo "ncu exit $?"
  python3 bench/profile_real.py $OUT/ncu-$m.csv | tee $OUT/profile-$m.txt
done
(cd $OUT && tar czf all.tgz --remove-files *.txt *.csv *.err)
true
