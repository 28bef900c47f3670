export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS=" " source bench/device-build.sh
timeout 300 build-gpu/domino bench --suite precond --csv $OUT/precond.csv --json-out $OUT/precond.json > $OUT/precond.txt 2>&1; echo "rc $?"; head -28 $OUT/precond.txt | cut -c1-150
