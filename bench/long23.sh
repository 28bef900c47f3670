#!/usr/bin/env bash
# long23.sh: issue 3, the long rows of the thread engine (first run:
# 6c094ea's arrival-order walk of a long row, pull_long_row_any; second:
# the warp's long rows walked at once by groups of its lanes), one device
# command (one GPU): this tree against the commit unpacked in
# .carry/ab/base (built there beside this tree's build).
#   test:  the pull engines' GPU tests, 4 at a time -> gpu-test.log
#   ab:    R-MAT 20-22 (critical paths through rows of 513-4096 entries),
#          hangGlider_2 and adder_dcop_05 (one row of 730 / 1310 entries),
#          controls without long rows (crack, bayer10, copter2, Pd,
#          luxembourg, the 10^6-row DAGs); auto, thread, thread-any and
#          cusparse; new, base, new, base (one process each) ->
#          csv/{new,base}-<round>.csv, ab.txt
#   trace: domino trace (the thread engine's stored-order walk, or with
#          TRACE_ANY=1 the arrival-order one) -> trace.txt
# STEPS (default "test ab trace"); DOMINO_BUILT=1 skips both builds.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT/csv"
source bench/ab-base-bg.sh
ab_base_start
DOMINO_TARGETS=${DOMINO_TARGETS:-"test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_lanes test_gpu_trsv_packed test_gpu_precond"}
export DOMINO_TARGETS
source bench/device-start.sh
ab_base_wait
G=.carry/ab/base/b/domino
for step in ${STEPS:-test ab trace}; do
  t0=$(date +%s)
  case $step in
  test) TEST_JOBS=${TEST_JOBS:-4} TEST_S=${TEST_S:-300} ctest_jobs -R "${TESTS:-test_gpu_trsv$|test_gpu_trsv_long_rows|test_gpu_trsv_lanes|test_gpu_trsv_packed|test_gpu_precond}" > "$OUT/gpu-test.log" 2>&1
        grep -E "Test *#|tests passed|FAIL|Total Test|one at a time" "$OUT/gpu-test.log" | tail -20 ;;
  ab) for round in 1 2; do
        for side in new base; do
          bin=$B/domino; [ $side = base ] && bin=$G
          DOMINO_TRSV_ONLY=${ONLY:-rmat,hangGlider,adder,crack,bayer10,copter2,Pd.mtx,luxembourg,dag:1000000:8} timeout 200 $bin bench --suite trsv \
            --engines auto,thread,thread-any,cusparse --csv "$OUT/csv/$side-$round.csv" > /dev/null 2>&1
          echo "== $side round $round: exit $?" | tee -a "$OUT/ab.txt"
          python3 bench/ab_table.py "$OUT/csv/$side-$round.csv" | tee -a "$OUT/ab.txt"
        done
      done ;;
  trace) for p in ${TRACE:-rmat:21 rmat:22 .carry/matrices/hangGlider_2.mtx}; do
           DOMINO_ANY_ORDER=${TRACE_ANY:-0} timeout 120 $B/domino trace $p >> "$OUT/trace.txt" 2>&1
           echo "== trace (DOMINO_ANY_ORDER=${TRACE_ANY:-0}) $p: exit $?" >> "$OUT/trace.txt"
         done
         grep -E "^trace|a level|critical|^  |== trace" "$OUT/trace.txt" | head -60 ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
