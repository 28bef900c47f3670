#!/usr/bin/env bash
# final24.sh: the twenty-fourth session's checks of the long-row prefetch
# (one GPU), .carry/ab/base holding `git archive 7794073` (before it):
#   build: the working tree (CLI and every gpu test) and, unless
#          DOMINO_BUILT=1, the base's CLI in the background
#   test:  ctest -L gpu, 4 at a time, no rerun -> gpu-test.log
#   small: the 20 shared matrices, auto and cusparse, new and base
#          alternately, three rounds -> csv/small-*.csv, small.txt
#   suite: the whole trsv suite, auto against cusparse -> csv/suite.csv,
#          suite.txt, suite-summary.txt (summarize_trsv.py, copy 4200 GB/s)
# STEPS (default "test small"); DOMINO_BUILT=1 skips the builds.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw} NVSHMEM_DISABLE_NVLS=1
mkdir -p "$OUT/csv"
[ "${DOMINO_BUILT:-0}" = 1 ] || bash bench/ab-build-base.sh > "$OUT/build-base.log" 2>&1 &
DOMINO_TARGETS="test_gpu_factor_pivots test_gpu_krylov test_gpu_levels test_gpu_precond test_gpu_spmm test_gpu_stencil test_gpu_trsv test_gpu_trsv_block test_gpu_trsv_contract test_gpu_trsv_lanes test_gpu_trsv_levelblock test_gpu_trsv_long_rows test_gpu_trsv_packed test_gpu_trsv_stepblock" \
  source bench/device-build.sh > "$OUT/build.log" 2>&1
wait
grep -E "^build|error" "$OUT/build.log" | head; [ -f "$OUT/build-base.log" ] && grep -E "error|Built target domino_cli" "$OUT/build-base.log" | tail -2
for step in ${STEPS:-test small}; do
  t0=$(date +%s)
  case $step in
  test)
    ( cd $B && timeout ${TEST_S:-300} ctest -L gpu -j 4 --timeout 290 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
    grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | tail -18 ;;
  small)
    for round in 1 2 3; do
      for side in new base; do
        bin=$B/domino; [ $side = base ] && bin=.carry/ab/base/b/domino
        DOMINO_TRSV_ONLY=.mtx timeout 60 $bin bench --suite trsv --engines auto,cusparse \
          --csv "$OUT/csv/small-$side-$round.csv" > /dev/null 2>&1
        echo "== $side round $round: exit $?" >> "$OUT/small.txt"
        python3 bench/ab_table.py "$OUT/csv/small-$side-$round.csv" >> "$OUT/small.txt"
      done
    done
    grep -c " ok$" "$OUT/small.txt" ;;
  suite) SUITE_S=${SUITE_S:-400} run_trsv_suite ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
