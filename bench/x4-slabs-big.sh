#!/usr/bin/env bash
# x4-slabs-big.sh: one device command (nvidia-h200-x4, about 6 minutes):
# the structured solve by slabs of y on >= 40 GB of matrix data over 4 GPUs
# (D3N27 640^3: 3.7e9 entries of L, 43.9 GB as CSR) against domino on one
# GPU (its stencil engine on a compact copy), issue 7's large run; then
# D3N7 512^3 (parallelism 87,000), where one GPU is no longer bound by the
# wavefront's latency.
# Results in $OUT: device.txt, tables.txt, big40-slabs.csv, d3n7-512.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-8G}
source bench/suite-log.sh
run_suite trsv-dist big40-slabs ${PES:-4} ${BIG_S:-370} --problem d3n27:640 --engines domino-1gpu,stencil-slabs --repeat 3
run_suite trsv-dist d3n7-512 ${PES:-4} ${S512:-140} --problem d3n7:512 --engines domino-1gpu,stencil-slabs --repeat 5
