#!/usr/bin/env bash
# groups24.sh: the next session's test of the thread engine's long-row groups
# (bench/results/h200-long23/groups-fixed.patch, compiled but never run on a
# GPU), one device command (one GPU).  The patch is applied to the device's
# copy of the tree only; .carry/ab/base must hold `git archive HEAD` (the
# tree without it), built beside it as the A/B base.
#   test:  R-MAT 12 and a DAG of 40-entry rows with DOMINO_LONG_ROW=8 under
#          compute-sanitizer --tool synccheck (a vote whose mask names absent
#          lanes is what hung the first version) -> synccheck.log; then
#          test_gpu_trsv, _long_rows, _packed,
#          test_gpu_precond, 4 at a time, no rerun -> gpu-test.log
#   ab:    if they pass: R-MAT 20-22, hangGlider_2, adder_dcop_05 and
#          controls without long rows; auto, thread, thread-any, cusparse;
#          new, base, new, base -> csv/, ab.txt
#   trace: R-MAT 21/22 critical paths with the groups -> trace.txt
# STEPS (default "test ab trace").
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT/csv"
git apply bench/results/h200-long23/groups-fixed.patch || { echo "groups-fixed.patch does not apply"; exit 1; }
# both builds (the base in the background), no tests yet (ab-begin.sh)
DOMINO_TARGETS="test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_packed test_gpu_precond" TESTS=none \
  source bench/ab-begin.sh
grep -E "^build|error" "$OUT/build.log" | head; grep -E "error|Built target domino_cli" "$OUT/build-base.log" | tail -2
ok=1
for step in ${STEPS:-test ab trace}; do
  t0=$(date +%s)
  case $step in
  test)
    # small solves with many long rows a warp (DOMINO_LONG_ROW=8: rows of
    # more than 8 entries), both walks, under synccheck (slow: small problems)
    for p in rmat:12 dag:3000:40:30; do
      DOMINO_LONG_ROW=8 timeout 100 compute-sanitizer --tool synccheck --print-limit 20 \
        $B/domino bench --problem $p --engines thread,thread-any --repeat 2 >> "$OUT/synccheck.log" 2>&1
      echo "synccheck $p: rc $?" | tee -a "$OUT/synccheck.log"
    done
    grep -E "ERROR SUMMARY|Barrier|Invalid" "$OUT/synccheck.log" | head -8
    ( cd $B && timeout 240 ctest -R "test_gpu_trsv\$|test_gpu_trsv_long_rows|test_gpu_trsv_packed|test_gpu_precond" \
        -j 4 --timeout 230 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1 || ok=0
    grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | head -12 ;;
  ab) [ $ok = 1 ] || { echo "tests failed: no A/B"; continue; }
    for round in 1 2; do
      for side in new base; do
        bin=$B/domino; [ $side = base ] && bin=.carry/ab/base/b/domino
        DOMINO_TRSV_ONLY=${ONLY:-rmat,hangGlider,adder,crack,bayer10,copter2,Pd.mtx,dag:1000000:8:10} timeout 150 \
          $bin bench --suite trsv --engines auto,thread,thread-any,cusparse --csv "$OUT/csv/$side-$round.csv" > /dev/null 2>&1
        echo "== $side round $round: exit $?" | tee -a "$OUT/ab.txt"
        python3 bench/ab_table.py "$OUT/csv/$side-$round.csv" | tee -a "$OUT/ab.txt"
      done
    done ;;
  trace) [ $ok = 1 ] || continue
    for p in rmat:21 rmat:22; do timeout 100 $B/domino trace $p >> "$OUT/trace.txt" 2>&1; done
    grep -E "^trace|critical|^  [0-9>]" "$OUT/trace.txt" | head -20 ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
