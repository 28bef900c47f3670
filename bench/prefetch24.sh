#!/usr/bin/env bash
# prefetch24.sh: one device command (one GPU) for the long-row prefetch of
# the thread engine (pull_long_row_start, trsv_pull_walk.cuh): a warp that
# takes a row of more than long_row entries first brings its first
# DOMINO_PULL_LONG_PREFETCH (512) columns and values into L1.
# .carry/ab/base must hold `git archive` of the commit before it.
#   builds: the working tree (CLI and two tests), the same with
#           -DDOMINO_PULL_LONG_PREFETCH=2048 (CLI, build-2048) and the base
#           (CLI), the last two in the background
#   test:   test_gpu_trsv and test_gpu_trsv_long_rows, 2 at a time, no rerun
#           -> gpu-test.log
#   ab:     R-MAT 20-22 and controls, auto and cusparse: new, new with
#           DOMINO_LONG_PREFETCH=0, 2048, base; two rounds -> csv/, ab.txt
#   trace:  R-MAT 21/22 critical paths, prefetch on and off -> trace.txt
# STEPS (default "test ab trace").
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw} NVSHMEM_DISABLE_NVLS=1
mkdir -p "$OUT/csv"
DOMINO_BUILD_DIR=build-2048 DOMINO_TARGETS=" " DOMINO_CMAKE_FLAGS="-DCMAKE_CUDA_FLAGS=-DDOMINO_PULL_LONG_PREFETCH=2048" \
  bash -c 'source bench/device-build.sh' > "$OUT/build-2048.log" 2>&1 &
# the base in the background, this tree, then the wait for both (ab-begin.sh)
DOMINO_TARGETS="test_gpu_trsv test_gpu_trsv_long_rows" TESTS=none source bench/ab-begin.sh
grep -E "^build|error" "$OUT/build.log" "$OUT/build-2048.log" | head; grep -E "error|Built target domino_cli" "$OUT/build-base.log" | tail -2
ok=1
for step in ${STEPS:-test ab trace}; do
  t0=$(date +%s)
  case $step in
  test)
    ( cd $B && timeout 200 ctest -R "test_gpu_trsv\$|test_gpu_trsv_long_rows" -j 2 --timeout 190 --output-on-failure ) \
      > "$OUT/gpu-test.log" 2>&1 || ok=0
    grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | head -6 ;;
  ab) [ $ok = 1 ] || { echo "tests failed: no A/B"; continue; }
    for round in 1 2; do
      for side in new off 2048 base; do
        bin=$B/domino; env=""
        [ $side = off ] && env="DOMINO_LONG_PREFETCH=0"
        [ $side = 2048 ] && bin=build-2048/domino
        [ $side = base ] && bin=.carry/ab/base/b/domino
        env $env DOMINO_TRSV_ONLY=${ONLY:-rmat,hangGlider,adder,bayer10,copter2,pushpull,Pd.mtx,dag:1000000:8:1000} timeout 120 \
          $bin bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/$side-$round.csv" > /dev/null 2>&1
        echo "== $side round $round: exit $?" | tee -a "$OUT/ab.txt"
        python3 bench/ab_table.py "$OUT/csv/$side-$round.csv" | tee -a "$OUT/ab.txt"
      done
    done ;;
  trace) [ $ok = 1 ] || continue
    for pf in 1 0; do
      for p in rmat:21 rmat:22; do
        echo "== DOMINO_LONG_PREFETCH=$pf" >> "$OUT/trace.txt"
        DOMINO_LONG_PREFETCH=$pf timeout 100 $B/domino trace $p >> "$OUT/trace.txt" 2>&1
      done
    done
    grep -E "^==|^trace|critical|^  [0-9>]" "$OUT/trace.txt" | head -40 ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
