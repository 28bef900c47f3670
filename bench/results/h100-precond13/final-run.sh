export NVSHMEM_DISABLE_NVLS=1
source bench/device-build.sh
(cd build-gpu && timeout 300 ctest -L gpu --timeout 250) > $OUT/gpu-test.log 2>&1; grep -E "Test +#|tests passed|FAIL" $OUT/gpu-test.log | tail -12
build-gpu/test_factor_stencil_table | tail -1
build-gpu/test_gpu_precond > $OUT/test_gpu_precond.log 2>&1; grep -E "path|passed|failed|FAIL" $OUT/test_gpu_precond.log | grep -v "^bcss" | head -70 | cut -c1-140
k=D3N27_128
DOMINO_PRECOND_ONLY=$k timeout 150 ncu --set full --import-source yes -k regex:factor_kernel --launch-skip 9 --launch-count 1 -f -o /tmp/pf-$k build-gpu/domino bench --suite precond > /tmp/pf-$k.txt 2>&1
ncu -i /tmp/pf-$k.ncu-rep --page source --csv --print-source sass > $OUT/$k-table-sass.csv 2>&1
ncu -i /tmp/pf-$k.ncu-rep --page details --csv > $OUT/$k-table-details.csv 2>&1
