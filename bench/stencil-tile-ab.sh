#!/usr/bin/env bash
# stencil-tile-ab.sh: one device-machine session comparing the tiled
# structured solve with the queue kernel: build, test_gpu_stencil, then per
# problem one `domino bench` process per configuration (no tuning), each
# configuration a DOMINO_STENCIL_TILE_POLL:DOMINO_STENCIL_TILE pair
# ("0:0" = the queue kernel with the table's D; "-:-" = the built-in
# choice).  Prints "problem cap=.. kernel solve_ms" lines, also kept in
# $OUT/tile-ab.txt.  The source of h100-stencil4/tile-ab.txt.
#   PROBLEMS   (d3n27:64 d3n27:64:upper d3n27:192 d3n27:192:upper d3n33:64 d3n33:192)
#   CONFIGS    (0:0 32:1x8 32:2x4 32:2x8 32:4x4 -:-)
set -uo pipefail
DOMINO_TARGETS="${DOMINO_TARGETS:-test_gpu_stencil}" source "$(dirname "$0")/device-build.sh"
if [ "${TEST:-1}" = 1 ]; then
  ( cd $B && timeout 240 ctest -R test_gpu_stencil ) > "$OUT/gpu-test.log" 2>&1
  grep -E "tests passed|FAIL" "$OUT/gpu-test.log" | tail -3
fi
PROBLEMS=${PROBLEMS:-d3n27:64 d3n27:64:upper d3n27:192 d3n27:192:upper d3n33:64 d3n33:192}
CONFIGS=${CONFIGS:-0:0 32:1x8 32:2x4 32:2x8 32:4x4 -:-}
for p in $PROBLEMS; do
  for cs in $CONFIGS; do
    cap=${cs%%:*}; shape=${cs##*:}
    if [ "$cap" = - ]; then unset DOMINO_STENCIL_TILE_POLL DOMINO_STENCIL_TILE
    else export DOMINO_STENCIL_TILE_POLL=$cap DOMINO_STENCIL_TILE=$shape; fi
    t=$(timeout 60 $B/domino bench --problem "$p" --engines stencil-compact --repeat "${REPEAT:-10}" 2>&1 |
        grep "stencil-compact>" | awk '{print $6, $(NF-4)}')
    echo "$p cap=$cap $t"
  done
done | tee "$OUT/tile-ab.txt"
