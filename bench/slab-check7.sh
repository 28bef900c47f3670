#!/usr/bin/env bash
# slab-check7.sh: one device command (nvidia-h200-x4, about 6 minutes; PES=2
# on 2 GPUs): the first GPU run of e76df95 (the slab kernels without an
# abort word; a timeout zeroes the ghost lines instead):
#  1. test_dist_stencil (its timeout case runs the new path) and
#     test_gpu_stencil on the working tree -> test.log;
#  2. stencil-slabs against the pre-review commit 86f0e10 (unpacked in
#     .carry/ab/86f0e10: git archive 86f0e10 | tar -x -C .carry/ab/86f0e10)
#     and domino's single GPU on D3N27 192^3/320^3 and D3N7 512^3
#     -> bisect.txt (expected: the same times as 86f0e10; cc378de was
#     11-12 % slower on D3N27, bench/results/h200x4-slab-fix).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1 NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
export OUT=${OUT:-bench/results/raw}; mkdir -p "$OUT"
B=build-gpu
AB="AB_TREES=.carry/ab/86f0e10"
env $AB RUN=0 bash bench/slab-bisect.sh > "$OUT/build-ab.log" 2>&1 & # the CLIs, beside the tests' build
DOMINO_TARGETS="test_dist_stencil test_gpu_stencil" source bench/device-build.sh > "$OUT/build.log" 2>&1
grep -E "^build|error" "$OUT/build.log" | head
( cd $B && timeout 120 ctest -R "test_dist_stencil|test_gpu_stencil" --timeout 100 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log"
wait
# the timings, alone on the GPUs (the builds are done: slab-bisect.sh's builds find nothing to do)
env $AB PROBLEM=d3n27:192,d3n27:320,d3n7:512 ENGINES=domino-1gpu,stencil-slabs RUN_S=150 bash bench/slab-bisect.sh
