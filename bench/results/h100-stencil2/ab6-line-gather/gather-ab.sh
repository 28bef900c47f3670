#!/usr/bin/env bash
# gather-ab.sh: one device command behind bench/results/h100-stencil4: the
# structured-grid solve with and without LINE_GATHER (DOMINO_STENCIL_LINE_GATHER
# 1 = default where noff > 4, 0 = the wait before it), same binary, each
# problem of $PROBLEMS in its own process per setting, --tune, cuSPARSE in
# the same process; test_gpu_stencil under both settings, and the trsv and
# precond gpu tests.  Results: $OUT/ab.csv (setting,<bench csv>), summary.txt.
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_stencil test_gpu_trsv test_gpu_precond" source bench/device-build.sh
TESTS="test_gpu_stencil|test_gpu_trsv\$|test_gpu_precond" run_gpu_tests
( cd $B && DOMINO_STENCIL_LINE_GATHER=0 ctest -R test_gpu_stencil --output-on-failure ) > $OUT/gpu-test-nogather.log 2>&1
echo "gather off: $(grep -E 'tests passed|failed' $OUT/gpu-test-nogather.log | tail -1)"
PROBLEMS=${PROBLEMS:-"d3n27:64 d3n27:128 d3n27:192 d3n27:256 d3n33:64 d3n33:128 d3n33:192 d3n33:256"}
for p in $PROBLEMS; do
  for cfg in ${SETTINGS:-gather:1 off:0}; do
    rm -f $OUT/tmp.csv
    DOMINO_STENCIL_LINE_GATHER=${cfg#*:} timeout ${RUN_S:-90} $B/domino bench --problem $p \
      --engines ${ENGINES:-stencil,stencil-compact,cusparse} --repeat 10 --tune --csv $OUT/tmp.csv > /dev/null 2>&1 ||
      echo "$cfg $p: exit $?"
    [ -f $OUT/tmp.csv ] && tail -n +2 $OUT/tmp.csv | sed "s/^/${cfg%:*},/" >> $OUT/ab.csv
  done
done
python3 - "$OUT/ab.csv" > $OUT/summary.txt <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
print("setting,problem,engine,engine_used,solve_ms,speedup_vs_cusparse,GB/s,passed")
for r in rows:
    if r[7]!='cusparse': print(",".join([r[0],r[1],r[7],r[8],r[10],r[14],r[13],r[18]]))
PY
cat $OUT/summary.txt
