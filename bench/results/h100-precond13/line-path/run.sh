export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh
timeout 300 build-gpu/test_gpu_precond > $OUT/test_gpu_precond.log 2>&1; echo "rc $?"; grep -E "path|line path|passed|FAIL|failed|rror" $OUT/test_gpu_precond.log | head -40; tail -3 $OUT/test_gpu_precond.log
for v in 2 1; do
 echo "mode $v"; DOMINO_FACTOR_STENCIL=$v DOMINO_PRECOND_ONLY=D3N timeout 200 build-gpu/domino bench --suite precond > $OUT/mode-$v.txt 2>&1; head -14 $OUT/mode-$v.txt | tail -13 | cut -c1-150; sed -n 15,30p $OUT/mode-$v.txt
done
