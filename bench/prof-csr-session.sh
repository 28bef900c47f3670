#!/usr/bin/env bash
# prof-csr-session.sh: one device command (h200-csrstage31 §2c): the CLIs of
# the trees unpacked in .carry/ab/NAME for each NAME of $TREES (default
# "base patch new"; git archive ... | tar -x -C .carry/ab/NAME, a patch
# applied on top) built side by side (ab-build-base.sh), then each times the
# CSR solve (stencil engine, against cusparse) of every "PROBLEM SHAPE" of
# $SHAPES at that fixed shape, without tuning (DOMINO_STENCIL_TILE: UxZ, or
# 0 for the queue kernel); the trees of $NCU_TREES (default "base new") are
# profiled by ncu on each "PROBLEM SHAPE" of $NCU_SHAPES (default D3N33
# 256^3 on 2 x 2 tiles and D3N7 256^3 on the queue kernel, as §2c ran; one
# solve kernel each; NCU_TREES="": none).  Results: $OUT/time.csv
# (tree,shape,<bench csv>), $OUT/ncu.txt.
export NVSHMEM_DISABLE_NVLS=1
TREES=${TREES:-"base patch new"}
SHAPES=${SHAPES:-"d3n33:256 2x2,d3n27:256 2x2,d3n7:256 0,d3n13:256 0"}
# SKIP_BUILD=1: the trees' CLIs are built already (session32-a.sh)
[ "${SKIP_BUILD:-0}" = 1 ] || { for t in $TREES; do bash bench/ab-build-base.sh .carry/ab/$t > $OUT/build-$t.log 2>&1 & done; wait; }
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv > $OUT/device.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
IFS=, read -ra shapes <<< "$SHAPES"
for p in "${shapes[@]}"; do set -- $p
  for t in $TREES; do
    DOMINO_STENCIL_TILE=$2 timeout 60 .carry/ab/$t/b/domino bench --problem $1 --engines stencil,cusparse --repeat 10 --csv $OUT/t.csv > /dev/null 2>>$OUT/err.log
    tail -n +2 $OUT/t.csv | sed "s/^/$t,$2,/" >> $OUT/time.csv
  done
done
cut -d, -f1-3,9,10,12,16 $OUT/time.csv
[ -n "$NCU" ] || exit 0
IFS=, read -ra ncu_shapes <<< "${NCU_SHAPES:-d3n33:256 2x2,d3n7:256 0}"
for p in "${ncu_shapes[@]}"; do set -- $p
  for t in ${NCU_TREES-base new}; do
    echo "=== $t $1 $2" >> $OUT/ncu.txt
    DOMINO_STENCIL_TILE=$2 timeout 150 $NCU --kernel-name regex:"stencil_(tile|line)_kernel" --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section Occupancy \
      .carry/ab/$t/b/domino bench --problem $1 --engines stencil --repeat 3 >> $OUT/ncu.txt 2>&1
  done
done
grep -E "===|Duration|Issued Warp|No Eligible|Stall|Warp Cycles Per Issued|L1/TEX Hit|Mem Busy|Max Bandwidth|Achieved Occupancy|Executed Ipc A" $OUT/ncu.txt | head -80
