export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh
build-gpu/test_gpu_precond > $OUT/test_gpu_precond.log 2>&1; tail -1 $OUT/test_gpu_precond.log
for l in def 4 8 16; do
 [ $l = def ] && unset DOMINO_FACTOR_LANES || export DOMINO_FACTOR_LANES=$l
 echo "lanes $l"; DOMINO_PRECOND_ONLY=D3N7_128,D3N7_192,D3N27_128,D3N27_192 build-gpu/domino bench --suite precond > $OUT/l$l.txt 2>&1; head -10 $OUT/l$l.txt | tail -8 | cut -c1-75
done
unset DOMINO_FACTOR_LANES
echo "path off"; DOMINO_FACTOR_STENCIL=0 DOMINO_PRECOND_ONLY=D3N27_192,D3N7_192 build-gpu/domino bench --suite precond 2>&1 | head -6 | tail -4 | cut -c1-75
