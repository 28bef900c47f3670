#!/usr/bin/env bash
# x4-check11.sh: the next session's first device command (nvidia-h200-x4,
# PES=4, about 8 minutes; PES=2 on a 2-GPU kind): the first GPU run of
# ef42faa onward (the pull kernel's grid from its own instance, the PEs'
# agreement on solver and copies, level_tasks, 2 lanes per row chosen for
# wide levels):
#  1. build everything; ctest -L "gpu|dist" -> test.log
#  2. trsv-dist on $PES PEs: domino's single GPU, the default pull solver
#     (copies, lanes from the levels: 2 on the 10- and 100-level DAGs where
#     a level has >= 32768 rows a PE), the same with level-tied tasks, and
#     without copies -> check11.csv, tables.txt
#     (compare ../h200x4-pull-copies: 0.393 ms on the 10-level DAG with 2
#     lanes and tied tasks, 1.455 ms on the 100-level DAG with the default)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
( cd $B && timeout ${TEST_S:-300} ctest -L "gpu|dist" --timeout 150 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/test.log" | tail -22
source bench/suite-log.sh
run_suite trsv-dist check11 ${PES:-4} ${S:-150} \
  --problem dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000,rmat:22,d3n7:256 \
  --engines domino-1gpu,pull-tasks8-level,pull-tasks8-level-copies,pull-tied-level-copies --repeat 5
