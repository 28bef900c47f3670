#!/usr/bin/env bash
# x4-spmm-summa.sh: one device command (nvidia-h200-x4, about 4 minutes):
# stationary-C by row blocks against NCCL SUMMA and single-GPU cuSPARSE in
# the same suite (B from the host, so SUMMA can run; every product checked
# entry by entry against the single-GPU one), R-MAT 22 at widths 512 and
# 128, on 4 PEs (SUMMA 2x2) and 2 PEs (SUMMA 1x2).  Results in $OUT:
# device.txt, tables.txt, spmm22-summa-p4.csv, spmm22-summa-p2.csv.
#   bash bench/x4-spmm-summa.sh   (PROBLEM, S1, S2 change it)
set -uo pipefail
cd "$(dirname "$0")/.."
export DOMINO_TARGETS=${DOMINO_TARGETS:-" "}
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-64G}
source bench/suite-log.sh
P=${PROBLEM:-rmat:22}
run_suite spmm spmm22-summa-p4 4 ${S1:-110} --problem $P --widths 512,128 --engines stationary-c-rows,stationary-c,summa --repeat 5
run_suite spmm spmm22-summa-p2 2 ${S2:-110} --problem $P --widths 512,128 --engines stationary-c-rows,stationary-c,summa --repeat 5
