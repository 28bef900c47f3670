#!/usr/bin/env bash
# x2-um-plain.sh: a short device command (nvidia-h200-x2, under 200 s):
# test_dist_stencil (its timeout case is new), then the paper's comparison
# on 2 GPUs against unified memory adopted directly (um-plain: managed
# arrays without advice, pages migrating on faults) beside our mapped UM
# baseline, on small problems.
# Results in $OUT: device.txt, test.log, tables.txt, um-plain.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-4G}
( cd $B && timeout ${TEST_S:-40} ctest -R "test_dist_stencil" --timeout 35 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|failed" "$OUT/test.log" | tail -10
source bench/suite-log.sh
run_suite trsv-dist um-plain ${PES:-2} ${UM_S:-100} --problem d3n27:128,rmat:18 \
  --engines um,um-plain,um-tasks8,um-plain-tasks8,zerocopy,zerocopy-tasks8 --repeat 2
