export NVSHMEM_DISABLE_NVLS=1
source bench/device-build.sh
(cd build-gpu && timeout 250 ctest -L gpu --timeout 250) > $OUT/gpu-test.log 2>&1; grep -E "Test +#|tests passed|FAIL" $OUT/gpu-test.log | tail -12
P=""; for s in d3n7 d3n13; do for g in 64 128 192 256; do P="$P $s:$g $s:$g:upper"; done; done
DOMINO_BUILT=1 TEST=0 TAG=stencil-a ENGINES=stencil,stencil-compact,stencil-partition,stencil-multistage,stencil-compressed,auto,cusparse,thread PER_PROBLEM_S=100 bash bench/stencil-run.sh none $P > /dev/null 2>&1
grep -E "stencil-compact>|cusparse " $OUT/stencil-a.txt | awk '{print $1, $5, $6, $(NF-4), $(NF-2)}'
