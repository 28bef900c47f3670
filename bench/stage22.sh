#!/usr/bin/env bash
# stage22.sh: issue 3, the staged stencil entry check and compact copy under
# its default rule (stencil_convert.cu: staged from 8 entries a row on
# average), one device command (one GPU is enough):
#   test:  ctest -R "test_gpu_stencil|test_gpu_precond|test_gpu_krylov" -> gpu-test.log
#   ab:    the D3N27 systems (the ones staged by default) with
#          DOMINO_STENCIL_STAGE=0 and unset (staged), two rounds alternating,
#          one process each, analysis traced -> csv/ab-<mode>-<round>.csv,
#          ab.txt; the analysis + first solve ratio of each (summarize_trsv.py)
#   suite: the whole trsv suite, auto against cusparse -> csv/suite.csv,
#          suite.txt, suite-summary.txt (summarize_trsv.py, copy 4200 GB/s)
# STEPS (default "test ab suite") picks the parts; DOMINO_BUILT=1 skips the build.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
mkdir -p "$OUT/csv"
for step in ${STEPS:-test ab suite}; do
  t0=$(date +%s)
  case $step in
  test)
    TEST_S=${TEST_S:-200} ctest_jobs -R "test_gpu_stencil|test_gpu_precond|test_gpu_krylov" > "$OUT/gpu-test.log" 2>&1
    grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | tail -8 ;;
  ab)
    for round in 1 2; do
      for mode in unstaged staged; do
        if [ $mode = unstaged ]; then export DOMINO_STENCIL_STAGE=0; else unset DOMINO_STENCIL_STAGE; fi
        DOMINO_ANALYSIS_TRACE=1 DOMINO_TRSV_ONLY=${ONLY:-D3N27} timeout 120 $B/domino bench --suite trsv \
          --engines auto,cusparse --csv "$OUT/csv/ab-$mode-$round.csv" > "/tmp/ab-$mode-$round.txt" 2>&1
        echo "== $mode round $round: exit $?" | tee -a "$OUT/ab.txt"
        grep "analysis trace: stencil" "/tmp/ab-$mode-$round.txt" | tee -a "$OUT/ab.txt" | \
          sed 's/.*n \([0-9]*\),.*stencil copy \([0-9.]*\)), total \([0-9.]*\).*/n \1 copy \2 total \3/'
        python3 bench/summarize_trsv.py "$OUT/csv/ab-$mode-$round.csv" auto 4200 | grep -i "analysis" | tee -a "$OUT/ab.txt"
      done
    done
    unset DOMINO_STENCIL_STAGE ;;
  suite) SUITE_S=${SUITE_S:-330} run_trsv_suite ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
