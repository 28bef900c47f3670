#!/usr/bin/env bash
# x4-drive-check.sh: one device command (nvidia-h200-x4, needs_h200; about
# 8 minutes; on 2 GPUs with PES=2): the first GPU run of the SpMM and
# SpGEMM drivers written once (src/dist/dist_spmm_drive.c and
# dist_spgemm_drive.c, commits a0e607d and after) and of the review fixes:
# make gpu-test and dist-test (ctest -L "gpu|dist"), then every one-sided
# SpMM algorithm on R-MAT 22 (--lean, width 128) against the loops they
# replaced (h200x4-spmm-v1, -lean2), the row blocks on R-MAT 24 at widths
# 512 and 128 (h200x4-spmm-chunks3: 4.20x and 3.08x single-GPU cuSPARSE),
# and SpGEMM R-MAT 20 with 8 x 8 tiles (h200x4-survey1: random stealing
# 163.0 ms on 4 PEs).
# Results in $OUT: device.txt, test.log, tables.txt, spmm22-all.csv,
# spmm24-rows.csv, spgemm20.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
PES=${PES:-4}
( cd $B && timeout ${TEST_S:-240} ctest -L "gpu|dist" --timeout 150 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -20
source bench/suite-log.sh
run_suite spmm spmm22-all $PES 80 --lean --problem rmat:22 --widths 128 --repeat 5 \
  --engines stationary-c,stationary-c+steal,stationary-a,stationary-c+steal-local,stationary-c-rows
run_suite spmm spmm24-rows $PES 80 --lean --problem rmat:24 --widths 512,128 --engines stationary-c-rows --repeat 5
run_suite spgemm spgemm20 $PES 90 --problem rmat:20 --tiles 8 --repeat 3
