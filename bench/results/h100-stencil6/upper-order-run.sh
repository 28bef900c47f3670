export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_stencil" source bench/device-build.sh
timeout 120 build-gpu/test_gpu_stencil > $OUT/test_gpu_stencil.log 2>&1; tail -1 $OUT/test_gpu_stencil.log
for p in d3n27:64 d3n27:128 d3n19:64 d3n19:128; do
 for o in 0 1; do
  DOMINO_STENCIL_UPPER_ORDER=$o timeout 60 build-gpu/domino bench --problem $p:upper --engines stencil-compact,cusparse --repeat 30 > /tmp/o.txt 2>&1
  echo "$p:upper order=$o $(grep -E 'stencil-compact' /tmp/o.txt | tail -1)"
 done
 timeout 60 build-gpu/domino bench --problem $p --engines stencil-compact,cusparse --repeat 30 > /tmp/o.txt 2>&1
 echo "$p lower $(grep -E 'stencil-compact' /tmp/o.txt | tail -1)"
done 2>&1 | tee $OUT/upper-order.txt
