#!/usr/bin/env bash
# ilu-lines27.sh: ILU(0) of D3N27 by grid lines (factor_box_lines.cu) against
# the table path and the base commit, in one session.  After TESTS (a ctest
# regex, default test_gpu_precond|test_gpu_factor_pivots|test_gpu_krylov;
# "none" skips them): the CONFIGS ("name:ENV=V,ENV=V ..."; "plain:" runs
# none) of the precond suite on CONFIG_ONLY (default D3N27), each run
# printed beside the others (ILU(0) and IC(0) rows); a config named base*
# runs the CLI of .carry/ab/base (git archive COMMIT | tar -x -C
# .carry/ab/base), built in the background beside this tree.  TRACE_SIZES
# (default none): the D3N27 sizes whose ILU(0) and IC(0) launches are traced
# (DOMINO_FACTOR_LINES_TRACE, _KIND; bench/lines_trace.py), before the configs.
# On the device: bash bench/ilu-lines27.sh (OUT set by the tool); all files
# end in $OUT/all.tgz.
set -uo pipefail
export OUT
source bench/ab-base-bg.sh
ab_configs_build
TESTS=${TESTS:-"test_gpu_precond|test_gpu_factor_pivots|test_gpu_krylov"} TEST_S=${TEST_S:-300} run_gpu_tests
[ "${TESTS:-x}" != none ] && ( cd $B && timeout 60 ./test_gpu_precond 2>&1 | grep -E "box lines" | head -60 )
for g in ${TRACE_SIZES:-}; do
  for kind in ilu0 ic0; do
    DOMINO_FACTOR_LINES_TRACE=/tmp/trace-$kind-$g.csv DOMINO_FACTOR_LINES_TRACE_KIND=$kind \
      DOMINO_PRECOND_ONLY=D3N27_$g timeout 120 $B/domino bench --suite precond > $OUT/traced-$kind-$g.txt 2>&1
    echo "== traced $kind $g: exit $?"
    python3 bench/lines_trace.py /tmp/trace-$kind-$g.csv | tee $OUT/trace-$kind-$g.txt
  done
done
[ $AB = 1 ] && ab_base_wait
run_precond_configs "ic0|ilu0"
(cd $OUT && tar czf all.tgz --remove-files *.txt build.log $([ -f gpu-test.log ] && echo gpu-test.log) \
  $(ls *-build.log 2>/dev/null))
true
