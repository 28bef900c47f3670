#!/usr/bin/env bash
# ncu-lines28.sh: one launch of the lines kernel of each kind (ILU(0),
# IC(0)) on D3N27 at $GRID (default 128; the precond suite's problem
# D3N27_${GRID}^3) under ncu: warp state (is "no instruction" a large
# stall? the ILU(0) kernel is ~7,000 SASS instructions, ~112 KB, and the
# IC(0) one ~5,700), scheduler, instruction and launch statistics.  The
# kernel names are the demangled ones, <KIND, V> with V 0 the plain
# variant.  On the device: bash bench/ncu-lines28.sh (OUT set by the
# tool); files in $OUT/all.tgz.
set -uo pipefail
export OUT
DOMINO_TARGETS=" " source bench/device-build.sh > $OUT/build.log 2>&1
tail -1 $OUT/build.log
for kind in 0 1; do
  DOMINO_PRECOND_ONLY=D3N27_${GRID:-128} timeout ${NCU_S:-240} ncu --kernel-name-base demangled \
    --kernel-name regex:"factor_box_lines_kernel<$kind, 0>" --launch-count 1 \
    --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats \
    --section Occupancy --section MemoryWorkloadAnalysis \
    $B/domino bench --suite precond > $OUT/ncu-kind$kind.txt 2>&1
  echo "== kind $kind: exit $?"
  grep -iE "stall|no instruction|issued|eligible|active warps|registers|spill|L1/TEX Hit|L2 Hit" \
    $OUT/ncu-kind$kind.txt | head -40
done
(cd $OUT && tar czf all.tgz --remove-files *.txt build.log)
true
