#!/usr/bin/env bash
# x4-zc-tasks.sh: device commands on nvidia-h200-x4 (PES=4), each under
# 600 s, picked by STEPS (space-separated):
#   tasks   the zero-copy solver and the UM baseline on the two stencils of
#           issue 7's six problems with task sizes from contiguous to one
#           plane and tied to the level width (a task no larger than a
#           plane lets the next PE's task start a plane behind instead of a
#           task behind) -> zc-tasks.csv (~150 s)
#   six     the six problems of h200x4-um-plain with $E -> zc-six.csv
#   gpu     ctest -L gpu -> gpu-test.log (~110 s)
#   dist    ctest -L dist on $PES PEs -> dist-test.log (~150 s)
#   slabs   stencil-slabs against domino's single GPU, D3N7 512^3 -> slabs-512.csv
# Every suite's output also in $OUT/tables.txt.
#   STEPS="tasks gpu" bash bench/x4-zc-tasks.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
source bench/suite-log.sh
P=${PES:-4}
ZC=${ZC:-um,um-tasks8,um-tasks32,um-tied,zerocopy,zerocopy-tasks8,zerocopy-tasks32,zerocopy-tasks64,zerocopy-tied}
E=${E:-um,um-plain,um-tied,zerocopy,zerocopy-tasks8,zerocopy-tied}
for step in ${STEPS:-tasks gpu}; do
  case $step in
    tasks) run_suite trsv-dist zc-tasks $P ${TASKS_S:-240} --problem d3n7:256,d3n27:192 --engines $ZC --repeat 2 ;;
    six) run_suite trsv-dist zc-six $P ${SIX_S:-420} \
           --problem d3n27:192,rmat:20,dag:10000000:8:100,d3n7:256,dag:10000000:8:1000,rmat:22 --engines $E --repeat 2 ;;
    gpu) ( cd $B && timeout ${GPU_S:-200} ctest -L gpu --timeout 150 --output-on-failure ) > "$OUT/gpu-test.log" 2>&1
         grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/gpu-test.log" | tail -14 ;;
    dist) ( cd $B && timeout ${DIST_S:-220} ctest -L dist --timeout 150 --output-on-failure ) > "$OUT/dist-test.log" 2>&1
          grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/dist-test.log" | tail -12 ;;
    slabs) run_suite trsv-dist slabs-512 $P ${SLABS_S:-150} --problem d3n7:512 --engines domino-1gpu,stencil-slabs --repeat 5 ;;
  esac
done
