#!/usr/bin/env bash
# x4-next18.sh: the next session's proposed device command (nvidia-h200-x4),
# not run yet.
#   STEPS=test:  ctest -L "gpu|dist" on 4 PEs (about 370 s) -> test.log: the
#                first GPU run of the diagonal solve's grid from the
#                context's SM count (the commit after fc351ea), and the whole
#                label set at the seventeenth session's lanes rule and grids.
#   STEPS=big:   the 1000-level DAG at 10^8 rows (parallelism 10^5, issue 5's
#                largest DAGs) on 1, 2 and 4 PEs: domino's single GPU,
#                pull-auto -> big-p*.csv in csv.tgz, tables.txt.  At 10^7
#                rows that DAG is bound by its per-level hop (0.75x on 2 PEs,
#                0.79x on 4, bench/results/h200x4-hop16); at 10^8 the
#                bandwidth part should dominate.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
for step in ${STEPS:-test big}; do
  case $step in
    test) TEST_S=${TEST_S:-420} run_label_tests "gpu|dist" ;;
    big) for pes in 1 2 4; do
           run_suite trsv-dist big-p$pes $pes ${BIG_S:-150} --repeat 5 --problem dag:100000000:8:1000 \
             --engines domino-1gpu,pull-auto
         done ;;
  esac
done
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
