#!/usr/bin/env bash
# park24.sh: one device command (one GPU) for the parked long rows of the
# thread engine (a warp whose long row stalls parks it in shared memory and
# walks its next one).  .carry/ab/base must hold `git archive` of the commit
# before it.
#   test:  test_gpu_trsv, test_gpu_trsv_long_rows, test_gpu_trsv_contract,
#          3 at a time, no rerun -> gpu-test.log
#   ab:    R-MAT 20-22 and controls, auto and cusparse: new, new with
#          DOMINO_LONG_PARK=0, base; two rounds -> csv/, ab.txt
#   trace: R-MAT 21/22 critical paths, parking on -> trace.txt
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw} NVSHMEM_DISABLE_NVLS=1
mkdir -p "$OUT/csv"
DOMINO_TARGETS="test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_contract" TESTS=none source bench/ab-begin.sh
grep -E "^build|error" "$OUT/build.log" | head; grep -E "error|Built target domino_cli" "$OUT/build-base.log" | tail -2
( cd $B && timeout 110 ctest -R "test_gpu_trsv\$|test_gpu_trsv_long_rows|test_gpu_trsv_contract" -j 3 --timeout 100 --output-on-failure ) \
  > "$OUT/gpu-test.log" 2>&1 && ok=1 || ok=0
grep -E "Test *#|tests passed|FAIL" "$OUT/gpu-test.log" | head -5
if [ $ok = 1 ]; then
  for round in 1 2; do
    for side in new off base; do
      bin=$B/domino; env=""
      [ $side = off ] && env="DOMINO_LONG_PARK=0"
      [ $side = base ] && bin=.carry/ab/base/b/domino
      env $env DOMINO_TRSV_ONLY=rmat,hangGlider,adder,copter2,dag:1000000:8:1000 timeout 45 \
        $bin bench --suite trsv --engines auto,cusparse --csv "$OUT/csv/$side-$round.csv" > /dev/null 2>&1
      echo "== $side round $round: exit $?" >> "$OUT/ab.txt"
      python3 bench/ab_table.py "$OUT/csv/$side-$round.csv" >> "$OUT/ab.txt"
    done
  done
  grep -E "^==|rmat" "$OUT/ab.txt"
  for p in rmat:21 rmat:22; do timeout 40 $B/domino trace $p >> "$OUT/trace.txt" 2>&1; done
  grep -E "^trace|^  [0-9>]" "$OUT/trace.txt"
fi
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
