#!/usr/bin/env bash
# x4-slabs.sh: one device command (nvidia-h200-x4, about 8 minutes; PES=2
# on 2 GPUs): the first GPU run of the structured solve by slabs of y over
# the PEs (domino_dist_stencil, issue 7's "4 GPUs >= 2x domino's own single
# GPU at parallelism >= 10^4"): its test and the stencil tests, the
# trsv-dist suite on 4 PEs against domino's and cuSPARSE's single GPU and
# the pull solver, then 2 PEs and 1 PE (strong scaling); last, the SpMM
# tile algorithms on R-MAT 22 with cuSPARSE local products (was the chunk
# kernel what doubled their time in h200x4-drive-check?).
# Results in $OUT: device.txt, test.log, tables.txt, slabs-p4.csv,
# slabs-p2.csv, slabs-p1.csv, spmm22-cusparse.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
PES=${PES:-4}
( cd $B && timeout ${TEST_S:-100} ctest -R "test_dist_stencil|test_gpu_stencil" --timeout 90 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|failed|error" "$OUT/test.log" | tail -20
source bench/suite-log.sh
run_suite trsv-dist slabs-p$PES $PES ${P4_S:-210} --problem d3n7:192,d3n7:256,d3n27:192,d3n27:320 \
  --engines cusparse-1gpu,domino-1gpu,stencil-slabs,pull-tasks8-level --repeat 5
[ "$PES" -gt 2 ] && run_suite trsv-dist slabs-p2 2 ${P2_S:-100} --problem d3n7:256,d3n27:320 --engines domino-1gpu,stencil-slabs --repeat 5
run_suite trsv-dist slabs-p1 1 ${P1_S:-90} --problem d3n7:256,d3n27:320 --engines domino-1gpu,stencil-slabs --repeat 5
DOMINO_SPMM_LOCAL=cusparse run_suite spmm spmm22-cusparse $PES 60 --lean --problem rmat:22 --widths 128 --repeat 5 \
  --engines stationary-c,stationary-c+steal,stationary-c-rows
