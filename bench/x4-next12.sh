#!/usr/bin/env bash
# x4-next12.sh: the next session's first device command (nvidia-h200-x4,
# about 9 minutes): the first GPU run of 2bde2ba onward (compiled and
# CPU-tested only: level-tied tasks the plan's default, the growing back-off
# across NVLink behind a switch, the CSC kernels' pushes in rounds behind a
# switch), then two leads of bench/results/h200x4-grid:
#  1. build everything; ctest -L "gpu|dist" -> test.log; then test_gpu_trsv and
#     test_dist_trsv with the pushes in rounds of 32 (DOMINO_PUSH_CHUNK,
#     DOMINO_DIST_PUSH_CHUNK) -> test-chunk.log
#  2. the CSC push in rounds (zero-copy is 20x slower than the pull solver on
#     R-MAT 22 and the single-GPU CSC engine takes ~100 ms there: one warp
#     pushes a hub's whole column before any dependant may go on):
#     single GPU csc on R-MAT 20/22 at chunk 0 (one round, as before) and
#     32; 4 PEs um, um-plain, zero-copy (level-tied, 8 tasks) on R-MAT 22
#     and the 100-level DAG at chunk 0 and 32 -> chunk-*.csv, tables.txt
#  3. the 100-level DAG on 4 PEs at 1.91-1.93x domino's single GPU (issue 7
#     asks 2x): lanes a row (2, 4 = chosen, 8) against the pull solver's grid
#     (8, 12 = default, 14 blocks an SM) -> lanes-CAP.csv
# the CSVs come back in one archive, csv.tgz
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
run_label_tests "gpu|dist"
( cd $B && DOMINO_PUSH_CHUNK=32 DOMINO_DIST_PUSH_CHUNK=32 timeout 200 ctest -R "test_gpu_trsv$|test_dist_trsv$" \
    --timeout 150 --output-on-failure ) > "$OUT/test-chunk.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test-chunk.log" | tail -3
source bench/suite-log.sh
for c in 0 32; do
  for p in rmat:20 rmat:22; do
    echo "# DOMINO_PUSH_CHUNK=$c domino bench --problem $p --engines csc,thread,cusparse" | tee -a "$OUT/tables.txt"
    DOMINO_PUSH_CHUNK=$c timeout 60 $B/domino bench --problem $p --engines csc,thread,cusparse --repeat 5 \
      --csv "$OUT/chunk-1gpu-$c-${p/:/}.csv" 2>&1 | tee -a "$OUT/tables.txt" | tail -4
  done
  export DOMINO_DIST_PUSH_CHUNK=$c
  echo "# DOMINO_DIST_PUSH_CHUNK=$c" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist chunk-4pe-$c 4 ${S:-90} --problem rmat:22,dag:10000000:8:100 \
    --engines um,um-plain,zerocopy-tied,zerocopy-tasks8 --repeat 3
done
unset DOMINO_DIST_PUSH_CHUNK
for cap in ${CAPS:-8 12 14}; do
  export DOMINO_DIST_BLOCKS_PER_SM=$cap
  echo "# DOMINO_DIST_BLOCKS_PER_SM=$cap" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist lanes-$cap ${PES:-4} ${S:-60} --problem dag:10000000:8:10,dag:10000000:8:100 \
    --engines domino-1gpu,pull-tied-level-copies,pull-tied-level-copies-lanes2,pull-tied-level-copies-lanes8 --repeat 5
done
( cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv )
