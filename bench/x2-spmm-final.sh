#!/usr/bin/env bash
# x2-spmm-final.sh: one device command on the nvidia-h200-x2 kind (issue
# 9's machine; about 4 minutes): SpMM with B made on the GPUs (--lean) on
# 2 PEs, stationary-C by row blocks (local products on the chunk kernel up
# to 128 columns) against single-GPU cuSPARSE and NCCL SUMMA 1x2: a
# balanced 3D stencil (D3N27 160^3) at widths 128 and 512, then R-MAT 24
# (imbalanced) at 512 and 128, SUMMA on R-MAT 24 in a process of its own
# (NVSHMEM keeps the heap the one-sided plan grew).
# Results in $OUT: device.txt, tables.txt, spmm-*.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${DOMINO_TARGETS:-domino_cli} source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
source bench/suite-log.sh
run_suite spmm spmm-d3n27-p2 2 70 --lean --problem d3n27:160 --widths 128,512 --engines stationary-c-rows,summa --repeat 5
run_suite spmm spmm-rmat24-p2 2 70 --lean --problem rmat:24 --widths 512,128 --engines stationary-c-rows --repeat 5
run_suite spmm spmm-rmat24-summa-p2 2 60 --lean --problem rmat:24 --widths 128 --engines summa --repeat 3
