#!/usr/bin/env bash
# run.sh: stationary-C with and without work stealing on the MPI backend
# (CPU), R-MAT scale 16 cut into few tiles (2x2, 4x4) so that the tiles'
# nonzeros, not the machine, make the ranks unequal; 2 and 4 ranks, three
# runs each.  From the repository root, after `make`.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OUT=bench/results/cpu-mpi-imbalance
for np in 2 4; do for t in 2 4; do for rep in 1 2 3; do
  timeout 300 mpirun -np $np --oversubscribe build/domino-spmm-mpi --scale 16 --k 64 --tiles $t \
    --repeat 5 --csv $OUT/np$np-tiles$t-run$rep.csv > $OUT/np$np-tiles$t-run$rep.txt 2>&1
done; done; done
