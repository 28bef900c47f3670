#!/usr/bin/env bash
# stencil-ab-session.sh: one device command: the structured-grid solve of
# the working tree against the commit unpacked in .carry/ab/base (git
# archive COMMIT | tar -x -C .carry/ab/base), and the working tree under
# other settings.  Every gpu test of the working tree, then each problem of
# $PROBLEMS in its own process per configuration, all with --tune (TUNE=0:
# the built-in shapes) and the autotuner's table in tune.log:
#   base (unless BASE=0), new        stencil, stencil-compact and cusparse
#   each "NAME:ENGINES:VAR=VALUE" of $CONFIGS   the working tree's ENGINES with VAR=VALUE
# Results: $OUT/ab.csv (config,<bench csv>), tune.log, gpu-test.log.
set -uo pipefail
source bench/ab-begin.sh
for v in ${TEST_ENV:-}; do
  echo "== $v" >> $OUT/gpu-test-env.log
  ( cd $B && env $v timeout 120 ctest -R test_gpu_stencil --output-on-failure ) >> $OUT/gpu-test-env.log 2>&1
  echo "$v: $(grep -E 'tests passed|failed' $OUT/gpu-test-env.log | tail -1)"
done
run_one() { # config problem engines [VAR=VALUE]
  local c=$1 p=$2 eng=$3 bin=$B/domino
  [ $c = base ] && bin=.carry/ab/base/b/domino
  rm -f $OUT/tmp.csv
  echo "== $c $p" >> $OUT/tune.log
  env DOMINO_STENCIL_TUNE_LOG=1 ${4:-} timeout ${RUN_S:-90} $bin bench --problem $p --engines $eng \
    --repeat ${REPEAT:-10} $([ "${TUNE:-1}" = 1 ] && echo --tune) --csv $OUT/tmp.csv > /dev/null 2>> $OUT/tune.log ||
    echo "$c $p: exit $?" >> $OUT/ab-errors.txt
  [ -f $OUT/tmp.csv ] && tail -n +2 $OUT/tmp.csv | sed "s/^/$c,/" >> $OUT/ab.csv
}
PROBLEMS=${PROBLEMS:-"d3n7:128 d3n13:64 d3n13:128 d3n27:128 d3n33:64 d3n7:256 d3n27:256 d3n33:256"}
CONFIGS=${CONFIGS:-"cap32:stencil,stencil-compact:DOMINO_STENCIL_SLEEP_CAP=32 serial:stencil,stencil-compact:DOMINO_STENCIL_SERIAL=1"}
for p in $PROBLEMS; do
  t0=$(date +%s)
  [ "${BASE:-1}" = 1 ] && run_one base $p stencil,stencil-compact,cusparse
  run_one new $p stencil,stencil-compact,cusparse
  for cfg in $CONFIGS; do
    IFS=: read -r name eng var <<< "$cfg"
    run_one $name $p $eng $var
  done
  echo "$p: $(( $(date +%s) - t0 )) s"
done
