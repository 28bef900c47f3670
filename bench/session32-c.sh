#!/usr/bin/env bash
# session32-c.sh: the thirty-second session's third device command (1 GPU):
# the working tree (the queue kernel reads every regular CSR row by offset,
# csr_by_offset, boundary rows too) against HEAD in .carry/ab/base, tuned,
# on the problems the queue kernel takes (D3N7, D3N13), with
# test_gpu_stencil (stencil-ab-session.sh: ab.csv, tune.log, gpu-test.log);
# then ncu on the queue kernel for D3N13 256^3 from CSR, both trees
# (ncu-d3n13.txt: instructions, issue rate).
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
TESTS=test_gpu_stencil DOMINO_TARGETS=test_gpu_stencil CONFIGS=" " RUN_S=${RUN_S:-60} \
  PROBLEMS=${PROBLEMS:-"d3n13:64 d3n13:128 d3n13:192 d3n13:256 d3n7:64 d3n7:128 d3n7:256 d3n13:256:upper"} \
  bash bench/stencil-ab-session.sh
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for bin in .carry/ab/base/b/domino build-gpu/domino; do
  echo "=== $bin stencil d3n13:256 queue kernel" >> $OUT/ncu-d3n13.txt
  DOMINO_STENCIL_TILE=0 timeout 120 $NCU --kernel-name regex:"stencil_line_kernel" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section LaunchStats --section InstructionStats \
    $bin bench --problem d3n13:256 --engines stencil --repeat 3 >> $OUT/ncu-d3n13.txt 2>&1
done
grep -E "===|Duration|Issued Warp|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Registers Per|Executed Instructions  " $OUT/ncu-d3n13.txt | head -30
cut -d, -f1,2,9,11,14,15 $OUT/ab.csv
