#!/usr/bin/env bash
# next22.sh: the next session's first device command (2 GPUs), for what the
# twenty-first session built without a GPU:
#   STEPS=test:   ctest -L "gpu|dist" (dist tests on both GPUs, alone; the
#                 single-GPU tests 4 at a time on GPU 0 -- their first run so,
#                 any failure run again alone in the same log) -> test.log:
#                 the first run of test_gpu_trsv's split (test_gpu_trsv_contract),
#                 the SpGEMM plan's own file (test_dist_spgemm_gpu), and the
#                 staged stencil copy (test_gpu_stencil runs its solves and bad
#                 input again with DOMINO_STENCIL_STAGE=1)
#   STEPS=stage:  issue 3, the structured systems' analysis traced with and
#                 without the staged entry check and compact copy, twice each,
#                 alternating, one process each -> stage-*.txt; if staged wins,
#                 make it the default (stencil_convert.cu) and run the whole
#                 trsv suite for the analysis + first solve geomean
# DOMINO_BUILT=1 skips the build (same warm machine).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
for step in ${STEPS:-test stage}; do
  t0=$(date +%s)
  case $step in
    test) TEST_JOBS=${TEST_JOBS:-4} TEST_S=${TEST_S:-470} run_label_tests "gpu|dist" ;;
    stage) for round in 1 2; do
             for st in 0 1; do
               DOMINO_STENCIL_STAGE=$st DOMINO_ANALYSIS_TRACE=1 DOMINO_TRSV_ONLY=${ONLY:-"D3N27,D3N7,D2N5"} \
                 timeout 120 $B/domino bench --suite trsv --engines auto,cusparse > "$OUT/stage-$st-$round.txt" 2>&1
               echo "== DOMINO_STENCIL_STAGE=$st round $round: exit $?"
               grep "analysis trace: stencil" "$OUT/stage-$st-$round.txt" | sed 's/.*n \([0-9]*\),.*detection \([0-9.]*\),.*stencil copy \([0-9.]*\)), total \([0-9.]*\).*/n \1 detect \2 copy \3 total \4/'
             done
           done ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
true
