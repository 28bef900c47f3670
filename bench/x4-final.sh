#!/usr/bin/env bash
# x4-final.sh: one device command (nvidia-h200-x4, under 600 s): the spmm
# suite on 4 and 2 PEs with the default tile grid (PEs x PEs), then the
# multi-GPU SpTRSV on >= 40 GB of matrix data over 4 GPUs (D3N27 640^3,
# 3.7e9 entries of L) with the default pull solver (lanes from the levels)
# and a warp per row, against domino on one GPU.  Results in $OUT:
# spmm-p4, spmm-p2, big40 (.csv, .txt).
#   bash bench/x4-final.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /dev/null
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-24G}
source bench/spmm-suite.sh
spmm_suite spmm-p4 4 ${P4_S:-100} --problem rmat:20,rmat:22 --widths 128,512
spmm_suite spmm-p2 2 ${P2_S:-80} --problem rmat:20,rmat:22 --widths 128,512
NVSHMEM_SYMMETRIC_SIZE=8G PES=4 TAG=big40 BENCH_S=${BIG_S:-330} bash bench/dist-run.sh none --problem d3n27:640 \
  --engines domino-1gpu,pull-tasks8-level,pull-tasks8-level-lanes32 --repeat 3 2>&1 | grep -v "^--\|^\[\|^build\|^name\|^NVIDIA"
