#!/usr/bin/env bash
# detect-ab-session.sh: one device command: analysis and first-solve times of the auto and thread
# engines on small matrices and two stencils, the working tree (build-gpu) against the commit
# unpacked in .carry/ab/base (git archive COMMIT | tar -x -C .carry/ab/base), twice each, after
# test_gpu_trsv and test_gpu_stencil on the working tree.  Results: $OUT/ab.csv, gpu-test.log.
export NVSHMEM_DISABLE_NVLS=1
bash bench/ab-build-base.sh > $OUT/build-base.log 2>&1 &
DOMINO_TARGETS="test_gpu_trsv test_gpu_stencil" source bench/device-build.sh > $OUT/build.log 2>&1
TESTS="test_gpu_trsv|test_gpu_stencil" TEST_S=120 run_gpu_tests
wait
M=.carry/matrices
for round in 1 2; do for c in base new; do
  bin=$B/domino; [ $c = base ] && bin=.carry/ab/base/b/domino
  for p in $M/bayer10.mtx $M/hangGlider_2.mtx $M/nnc1374.mtx $M/cage8.mtx $M/add32.mtx d3n7:64 d2n5:512x512; do
    timeout 60 $bin bench --problem $p --engines auto,thread --repeat 20 --csv $OUT/tmp.csv > /dev/null 2>&1
    tail -n +2 $OUT/tmp.csv | sed "s/^/$c,$round,/" >> $OUT/ab.csv
  done
done; done
awk -F, '{printf "%-5s %s %-18s %-7s %-8s an=%8.4f first=%8.4f solve=%8.4f %s\n",$1,$2,$3,$9,$10,$11,$14,$12,$21}' $OUT/ab.csv
