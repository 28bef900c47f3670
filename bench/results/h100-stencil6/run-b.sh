export NVSHMEM_DISABLE_NVLS=1
source bench/device-build.sh
P=""; for s in d3n27 d3n33; do for g in 64 128 192 256; do P="$P $s:$g $s:$g:upper"; done; done
DOMINO_BUILT=1 TEST=0 TAG=stencil-b ENGINES=stencil,stencil-compact,stencil-partition,stencil-multistage,stencil-compressed,auto,cusparse,thread PER_PROBLEM_S=100 bash bench/stencil-run.sh none $P > /dev/null 2>&1
grep -E "stencil-compact>|cusparse " $OUT/stencil-b.txt | awk '{print $1, $5, $6, $(NF-4), $(NF-2)}'
