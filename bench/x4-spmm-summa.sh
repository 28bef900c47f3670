#!/usr/bin/env bash
# x4-spmm-summa.sh: one device command (nvidia-h200-x4 with needs_h200,
# about 7 minutes): the tests of the code that changed after the last GPU
# run (ctest -L dist: SUMMA with B made on the GPUs, the review fixes of
# domino_dspmm, the heap accounting of dist_check_room; test_gpu_spmm),
# then stationary-C by row blocks against NCCL SUMMA and single-GPU
# cuSPARSE on R-MAT 24 with B made on the GPUs (--lean: every answer checked
# by C z = A (B z)), widths 512 then 128, on 4 PEs (SUMMA 2x2) and 2 PEs
# (SUMMA 1x2).  SUMMA runs in a process of its own: NVSHMEM keeps the heap
# the one-sided plans grew, and SUMMA's C and B blocks need that memory.
# Results in $OUT: device.txt, test.log, tables.txt, spmm24-{rows,summa}-p{4,2}.csv.
#   bash bench/x4-spmm-summa.sh   (PROBLEM, WIDTHS, TEST_S change it)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-100G}
( cd $B && timeout ${TEST_S:-200} ctest -L dist --timeout 120 --output-on-failure
  timeout 60 ctest -R test_gpu_spmm --timeout 50 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -12
source bench/suite-log.sh
P=${PROBLEM:-rmat:24}
W=${WIDTHS:-512,128}
for pes in 4 2; do
  run_suite spmm spmm24-rows-p$pes $pes 120 --lean --problem $P --widths $W --engines stationary-c-rows,stationary-c --repeat 5
  run_suite spmm spmm24-summa-p$pes $pes 120 --lean --problem $P --widths $W --engines summa --repeat 5
done
