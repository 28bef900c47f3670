#!/usr/bin/env bash
# x4-copies12.sh: the pull solver's copies (nvidia-h200-x4, about 6 minutes).
# Each solved x_i is stored into the array of every PE that reads it.  Lane u
# of a group stored the u-th reader's copy, so one store instruction of a
# warp went to as many PEs as its groups had different first readers; now
# (DOMINO_DIST_PULL_COPY_MODE bit 0) lane q % lanes stores PE q's, and one
# instruction sends the copies of a warp's groups for one PE together.  Bit
# 1: every x_j loaded at system scope without looking up its owner (one
# integer division and one load fewer an entry).  Default 3 (both).
#  1. test_dist_trsv on 4 PEs at the default -> test.log
#  2. mode 0 (as before) against 3 on the 10-, 100-, 1000-level DAGs and
#     R-MAT 22, 4 PEs, beside domino's single GPU; modes 1 and 2 on the
#     100-level DAG; 0 against 3 on 2 PEs -> copies-*.csv (tables.txt)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
( cd $B && timeout 100 ctest -R "test_dist_trsv$" --timeout 90 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -3
E=domino-1gpu,pull-tied-level-copies
for m in 0 3; do
  export DOMINO_DIST_PULL_COPY_MODE=$m
  echo "# DOMINO_DIST_PULL_COPY_MODE=$m" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist copies-p4-$m 4 70 --engines $E --repeat 5 \
    --problem dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000,rmat:22
done
for m in 1 2; do
  export DOMINO_DIST_PULL_COPY_MODE=$m
  echo "# DOMINO_DIST_PULL_COPY_MODE=$m" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist copies-p4-$m 4 40 --engines pull-tied-level-copies --repeat 5 --problem dag:10000000:8:100
done
for m in 0 3; do
  export DOMINO_DIST_PULL_COPY_MODE=$m
  echo "# DOMINO_DIST_PULL_COPY_MODE=$m" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist copies-p2-$m 2 45 --engines $E --repeat 5 --problem dag:10000000:8:10,dag:10000000:8:100
done
( cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv )
