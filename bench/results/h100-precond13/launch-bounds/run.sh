export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS=" " source bench/device-build.sh
for m in 5 0; do for v in 1 0; do
 echo "minb $m path $v"; DOMINO_FACTOR_MINB=$m DOMINO_FACTOR_STENCIL=$v DOMINO_PRECOND_ONLY=D3N7_128,D3N7_192,D3N27_128,D3N27_192 build-gpu/domino bench --suite precond > $OUT/m$m-p$v.txt 2>&1; head -10 $OUT/m$m-p$v.txt | tail -8 | cut -c1-75
done; done
