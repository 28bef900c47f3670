#!/usr/bin/env bash
# x2-slabs.sh: one device command (nvidia-h200-x2, under 10 minutes): the
# slab solve on 2 GPUs against one (issue 5's "2 GPUs >= 1.5x domino's own
# single GPU at parallelism >= 10^4") on D3N7 512^3 and D3N27 640^3, after
# the tests of this session's GPU changes (test_dist_stencil,
# test_dist_spmm_gpu and test_gpu_spmm: the tile algorithms back on
# cuSPARSE local products) and a timing of those on R-MAT 22.
# Results in $OUT: device.txt, test.log, tables.txt, spmm22-p2.csv,
# d3n7-512-p2.csv, big40-p2.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
PES=${PES:-2}
( cd $B && timeout ${TEST_S:-90} ctest -R "test_dist_stencil|test_dist_spmm_gpu|test_gpu_spmm" --timeout 80 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|failed" "$OUT/test.log" | tail -10
source bench/suite-log.sh
run_suite spmm spmm22-p$PES $PES 50 --lean --problem rmat:22 --widths 128 --repeat 5 --engines stationary-c,stationary-c+steal,stationary-c-rows
run_suite trsv-dist d3n7-512-p$PES $PES ${S512:-110} --problem d3n7:512 --engines domino-1gpu,stencil-slabs --repeat 5
run_suite trsv-dist big40-p$PES $PES ${BIG_S:-400} --problem d3n27:640 --engines domino-1gpu,stencil-slabs --repeat 3
