#!/usr/bin/env bash
# x4-session.sh: one device command (nvidia-h200-x4, under 600 s) for the
# 4-GPU runs of the multi-GPU SpTRSV (issue 7): the gpu and dist tests on
# every GPU of the machine, then the trsv-dist suite on 4, 2 and 1 PEs on the
# same problems (Figure 7 on 4 GPUs, strong scaling 1/2/4, lanes per row of
# the pull solver).  Results in $OUT: test.log, p4/p2/p1.csv and .txt.
#   bash bench/x4-session.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-4G}
( cd $B && timeout ${TEST_S:-150} ctest -L "gpu|dist" --timeout 90 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|Total Test" "$OUT/test.log" | tail -40
PROBLEMS=${PROBLEMS:-d3n7:256,d3n27:192,dag:10000000:8:1000,rmat:22}
PULL="pull-tasks8-level,pull-tasks8-level-lanes16,pull-tasks8-level-lanes8,pull-tasks8-level-lanes4"
FIG7="cusparse-1gpu,domino-1gpu,um,um-tasks8,zerocopy,zerocopy-tasks8,zerocopy-tasks8-level,$PULL"
PES=4 TAG=p4 BENCH_S=${P4_S:-220} bash bench/dist-run.sh none --problem "$PROBLEMS" --engines "$FIG7" --repeat 5 2>&1 |
  grep -v "^--\|^\[\|^build\|^name\|^NVIDIA"
PES=2 TAG=p2 BENCH_S=${P2_S:-100} bash bench/dist-run.sh none --problem "$PROBLEMS" --engines "$PULL" --repeat 5 2>&1 | tail -4
PES=1 TAG=p1 BENCH_S=${P1_S:-100} bash bench/dist-run.sh none --problem "$PROBLEMS" --engines "domino-1gpu,$PULL" --repeat 5 2>&1 | tail -4
