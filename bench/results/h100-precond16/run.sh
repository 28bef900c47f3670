#!/usr/bin/env bash
# h100-precond16: the factorization's scan path (D2N5/D3N7 ILU(0)/IC(0)).
# On the device: bash bench/results/h100-precond16/run.sh (OUT set by the tool)
# -> device.txt, gpu-test.log (ctest -L gpu), test_gpu_precond.log,
#    perturb.txt (BiCGSTAB/CG iteration counts with b moved by k ulps),
#    precond.txt / .csv / .json (the whole precond suite)
source bench/device-build.sh
(cd build-gpu && timeout 300 ctest -L gpu --timeout 250) > $OUT/gpu-test.log 2>&1
grep -E "Test *#|tests passed|FAIL" $OUT/gpu-test.log | tail -10
(cd build-gpu && timeout 100 ./test_gpu_precond) > $OUT/test_gpu_precond.log 2>&1
tail -1 $OUT/test_gpu_precond.log
for k in 0 1 2 3 4; do
  echo "b moved by $k ulps (every 7th entry):"
  DOMINO_PRECOND_PERTURB=$k DOMINO_PRECOND_ONLY=crack.mtx,whitaker3.mtx,copter2.mtx \
    timeout 100 build-gpu/domino bench --suite precond 2>&1 | grep -E "bicgstab|  cg " | awk '{print "  "$1, $9, "ours", $10, "cusparse", $11}'
done > $OUT/perturb.txt
cat $OUT/perturb.txt
timeout 300 build-gpu/domino bench --suite precond --csv $OUT/precond.csv --json-out $OUT/precond.json > $OUT/precond.txt 2>&1
cat $OUT/precond.txt
