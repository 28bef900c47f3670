#!/usr/bin/env bash
# next23.sh: the twenty-third session's first device command (2 GPUs):
#   STEPS=test:   ctest -L "gpu|dist" at HEAD (the single-GPU tests 4 at a
#                 time on GPU 0, the dist tests alone on both) -> test.log:
#                 the first run on a GPU of a8e0fb2's staging rule, error
#                 paths and tile-order names beyond test_gpu_stencil, and of
#                 8261680's dist_plan mend
#   STEPS=trace:  issue 3, where the thread engine's time goes on the
#                 systems it solves slowest against cuSPARSE (R-MAT 20-22
#                 at 1.15-2.2x): domino trace, with the critical path's rows
#                 by length -> trace.txt
#   STEPS=defer:  the level-block systems' deferred choice: after how many
#                 solves it lands, its host function's time -> defer.txt
# DOMINO_BUILT=1 skips the build (same warm machine).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
for step in ${STEPS:-test trace defer}; do
  t0=$(date +%s)
  case $step in
    test) TEST_JOBS=${TEST_JOBS:-4} TEST_S=${TEST_S:-470} run_label_tests "gpu|dist" ;;
    trace) for p in ${TRACE:-rmat:20 rmat:21 rmat:22 dag:1000000:8:1000 .carry/matrices/copter2.mtx}; do
             timeout 120 $B/domino trace $p >> "$OUT/trace.txt" 2>&1
             echo "== trace $p: exit $?" >> "$OUT/trace.txt"
           done
           grep -E "^trace|a level|critical|^  |== trace" "$OUT/trace.txt" | head -120 ;;
    defer) DOMINO_ANALYSIS_TRACE=1 DOMINO_TRSV_ONLY=${ONLY:-"bcsstk13,whitaker3,fidapex6,bcsstk33,zenios,cryg2500,cage8,watt_2"} \
             timeout 150 $B/domino bench --suite trsv --engines auto,cusparse > "$OUT/defer.txt" 2>&1
           echo "== defer: exit $?"
           grep -E "deferred choice|^[a-z_0-9]+\.mtx" "$OUT/defer.txt" | head -60 ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
true
