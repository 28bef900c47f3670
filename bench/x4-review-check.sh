#!/usr/bin/env bash
# x4-review-check.sh: one device command (nvidia-h200-x4, about 9 minutes;
# PES=2 on 2 GPUs): the first GPU run of the slab solve's review fixes
# (the SLAB kernel instances with the abort word, the plane-wise copy of b,
# the triangle-only slices, the fingerprint) and of the single-GPU stencil
# kernels without mirror code: ctest -L "gpu|dist", then the slabs against
# one GPU on D3N7 192^3/256^3, D3N27 192^3 and D3N7 512^3 (before the
# fixes, h200x4-slabs1/-slabs2: 0.438/0.723/1.297/1.711 ms on 4 PEs;
# domino-1gpu 0.518/0.816/1.393/3.646 ms).
# Results in $OUT: device.txt, test.log, tables.txt, slabs-check.csv, d3n7-512-check.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
PES=${PES:-4}
( cd $B && timeout ${TEST_S:-260} ctest -L "gpu|dist" --timeout 150 --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -20
source bench/suite-log.sh
run_suite trsv-dist slabs-check $PES ${S1:-120} --problem d3n7:192,d3n7:256,d3n27:192 --engines domino-1gpu,stencil-slabs --repeat 5
run_suite trsv-dist d3n7-512-check $PES ${S2:-120} --problem d3n7:512 --engines domino-1gpu,stencil-slabs --repeat 5
