#!/usr/bin/env bash
# lines-trace26.sh: where a chunk's time goes in the box path's IC(0) by grid
# lines, and variants of it in one session.  After TESTS (a ctest regex,
# default test_gpu_precond|test_gpu_factor_pivots; "none" skips them): the
# precond suite's D3N27 IC(0) with DOMINO_FACTOR_LINES_TRACE at each of
# SIZES (default 64 128 192; "none" skips), summarized by
# bench/lines_trace.py (trace-N.txt; the traces gzipped when TRACES=1), then
# the CONFIGS ("name:ENV=V,ENV=V ..."; "plain:" runs none) on the problems
# CONFIG_ONLY (default D3N27), each printed beside the others; a config
# named base* runs the CLI of .carry/ab/base (git archive COMMIT | tar -x
# -C .carry/ab/base), built in the background beside this tree.
# On the device: bash bench/lines-trace26.sh (OUT set by the tool); all
# files end in $OUT/all.tgz.
set -uo pipefail
export OUT
source bench/ab-base-bg.sh
ab_configs_build
TESTS=${TESTS:-"test_gpu_precond|test_gpu_factor_pivots"} TEST_S=300 run_gpu_tests
[ "${TESTS:-x}" != none ] && ( cd $B && timeout 60 ./test_gpu_precond 2>&1 | grep -E "box lines" | head -30 )
for g in ${SIZES:-64 128 192}; do
  [ "$g" = none ] && break
  DOMINO_FACTOR_LINES_TRACE=/tmp/trace-$g.csv DOMINO_PRECOND_ONLY=D3N27_$g timeout 120 $B/domino bench \
    --suite precond > $OUT/traced-$g.txt 2>&1
  echo "== traced $g: exit $?"
  python3 bench/lines_trace.py /tmp/trace-$g.csv | tee $OUT/trace-$g.txt
  [ "${TRACES:-0}" = 1 ] && gzip -c /tmp/trace-$g.csv > $OUT/trace-$g.csv.gz
done
[ $AB = 1 ] && ab_base_wait
run_precond_configs "ic0"
(cd $OUT && tar czf all.tgz --remove-files *.txt build.log $([ -f gpu-test.log ] && echo gpu-test.log) \
  $(ls trace-*.csv.gz base-build.log 2>/dev/null))
true
