export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS="test_gpu_precond test_factor_stencil_table" source bench/device-build.sh
build-gpu/test_factor_stencil_table | tail -1
build-gpu/test_gpu_precond > $OUT/test_gpu_precond.log 2>&1; grep -E "and an interior|passed|FAIL|failed" $OUT/test_gpu_precond.log | head -12 | cut -c1-140
timeout 300 build-gpu/domino bench --suite precond --csv $OUT/precond.csv --json-out $OUT/precond.json > $OUT/precond.txt 2>&1; echo "rc $?"; cat $OUT/precond.txt | cut -c1-150
