#!/usr/bin/env bash
# session32-b.sh: the thirty-second session's second device command (1 GPU):
# the working tree (the CSR tile kernel marks irregular rows after the waits
# with 6 neighbour lines) against HEAD in .carry/ab/base, tuned, on the
# D3N33 problems and D3N27 256^3 (stencil-ab-session.sh: ab.csv, tune.log,
# test_gpu_stencil in gpu-test.log); then ncu on the queue kernel for D3N13
# 256^3 from CSR and from the compact form (ncu-d3n13.txt).
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
TESTS=test_gpu_stencil DOMINO_TARGETS=test_gpu_stencil CONFIGS=" " RUN_S=${RUN_S:-60} \
  PROBLEMS=${PROBLEMS:-"d3n33:64 d3n33:128 d3n33:192 d3n33:256 d3n27:256"} bash bench/stencil-ab-session.sh
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for e in stencil stencil-compact; do
  echo "=== $e d3n13:256 queue kernel" >> $OUT/ncu-d3n13.txt
  DOMINO_STENCIL_TILE=0 timeout 120 $NCU --kernel-name regex:"stencil_line_kernel" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section Occupancy --section LaunchStats --section InstructionStats \
    build-gpu/domino bench --problem d3n13:256 --engines $e --repeat 3 >> $OUT/ncu-d3n13.txt 2>&1
done
grep -E "===|Duration|Issued Warp|No Eligible|Stall|Warp Cycles Per Issued|L1/TEX Hit|Mem Busy|Max Bandwidth|Achieved Occupancy|Registers Per|Executed Instructions  |DRAM Through" $OUT/ncu-d3n13.txt | head -60
cut -d, -f1,2,9,11,14,15 $OUT/ab.csv
