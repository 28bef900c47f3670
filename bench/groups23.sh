#!/usr/bin/env bash
# groups23.sh: the long-row groups' tests and a short A/B against the
# commit in .carry/ab/base (one GPU, one device command):
#   the pull engines' tests that cover long rows, 3 at a time, no rerun ->
#   gpu-test.log; then, if they pass, R-MAT 21/22 and crack (auto, thread,
#   cusparse), new then base, one process each -> csv/, ab.txt
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT/csv"
( JOBS=6 bash bench/ab-build-base.sh > "$OUT/base-build.log" 2>&1; echo done >> "$OUT/base-build.log" ) &
base=$!
export DOMINO_TARGETS="test_gpu_trsv test_gpu_trsv_long_rows test_gpu_trsv_packed"
source bench/device-start.sh
( cd $B && timeout ${TEST_S:-150} ctest -R "test_gpu_trsv_packed|test_gpu_trsv_long_rows|test_gpu_trsv\$" -j 3 --timeout 140 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
rc=$?
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | head -20
echo "tests rc $rc"
wait $base; tail -1 "$OUT/base-build.log"
if [ $rc -eq 0 ]; then
  for side in new base; do
    bin=$B/domino; [ $side = base ] && bin=.carry/ab/base/b/domino
    DOMINO_TRSV_ONLY=${ONLY:-rmat:21,rmat:22,crack} timeout 100 $bin bench --suite trsv --engines auto,thread,cusparse \
      --csv "$OUT/csv/$side.csv" > /dev/null 2>&1
    echo "== $side: exit $?" | tee -a "$OUT/ab.txt"
    python3 bench/ab_table.py "$OUT/csv/$side.csv" | tee -a "$OUT/ab.txt"
  done
fi
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
