#!/usr/bin/env bash
# level-ab-session.sh: A/B of the level pass (trsv_levelset.cu) inside the
# precond suite: DOMINO_SETUP_TRACE prints the setup steps.  VARIANTS lists
# KIND:CAP[:CHUNK[:POLL]] (KIND: serial or chunked = DOMINO_LEVEL_KERNEL;
# CAP: the back-off cap in ns; CHUNK: 4 or 8 entries loaded together; POLL:
# pending entries polled together, else the first alone); ONLY picks
# the problems; TRACE=<variant, ':' as '_'> also dumps that variant's publish
# times of the first pass on D3N27 64^3; TESTS the gpu ctests after.
# The DOMINO_LEVEL_* knobs and DOMINO_SETUP_TRACE belonged to the experiment
# build of bench/results/h100-levels (removed once the A/B chose); on the
# landed code this runs the precond suite on ONLY with the landed pass.
export OUT; DOMINO_TARGETS=${DOMINO_TARGETS:-"test_gpu_trsv test_gpu_precond"} source bench/device-build.sh >/dev/null 2>&1; echo built
export DOMINO_PRECOND_ONLY=${ONLY:-D3N27_64,D3N7_192,D3N27_192} DOMINO_SETUP_TRACE=1
for v in ${VARIANTS:-serial:0 single:512}; do
  IFS=: read -r kind cap chunk poll <<< "$v"
  export DOMINO_LEVEL_KERNEL=$kind DOMINO_LEVEL_SLEEP=$cap DOMINO_LEVEL_CHUNK=${chunk:-4} DOMINO_LEVEL_POLL=${poll:-1}; w=${v//:/_}
  timeout 150 build-gpu/domino bench --suite precond > $OUT/precond-$w.txt 2> $OUT/trace.tmp; echo "$w rc=$?"; { echo "== $w"; cat $OUT/trace.tmp; } >> $OUT/trace-all.txt
  grep "level kernel" $OUT/trace.tmp | awk '{printf "%s ", $4}'; echo
  if [ "${TRACE:-}" = "$w" ]; then
    DOMINO_PRECOND_ONLY=D3N27_64 DOMINO_LEVEL_TRACE=$OUT/publish-$w timeout 60 build-gpu/domino bench --suite precond > /dev/null 2>&1
    find $OUT -name "publish-*" ! -name "*.0" -delete
  fi
done
rm -f $OUT/trace.tmp
unset DOMINO_PRECOND_ONLY DOMINO_SETUP_TRACE DOMINO_LEVEL_SLEEP DOMINO_LEVEL_KERNEL DOMINO_LEVEL_CHUNK DOMINO_LEVEL_POLL
TESTS=${TESTS:-"test_gpu_trsv|test_gpu_precond"} TEST_S=200 run_gpu_tests
