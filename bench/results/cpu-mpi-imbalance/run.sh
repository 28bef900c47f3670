#!/usr/bin/env bash
# run.sh: stationary-C with and without work stealing on the MPI backend
# (CPU), R-MAT scale 16 cut into few tiles (2x2, 4x4) so that the tiles'
# nonzeros, not the machine, make the ranks unequal; 2 and 4 ranks, three
# runs each.  From the repository root, after `make` (OUT: another folder).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OUT=${OUT:-bench/results/cpu-mpi-imbalance}
for np in 2 4; do for t in 2 4; do for rep in 1 2 3; do
  timeout 300 mpirun -np $np --oversubscribe build/domino-spmm-mpi --scale 16 --k 64 --tiles $t \
    --repeat 5 --csv $OUT/np$np-tiles$t-run$rep.csv > $OUT/np$np-tiles$t-run$rep.txt 2>&1
done; done; done
# summary.txt: every run's time lost to imbalance, and the cut by stealing
python3 - > $OUT/summary.txt <<'PY'
import csv, glob
import os; OUT = os.environ.get("OUT", "bench/results/cpu-mpi-imbalance")
runs = {}
for f in sorted(glob.glob(OUT + "/np*-tiles*-run*.csv")):
    runs[f] = {r["algorithm"]: r for r in csv.DictReader(open(f))}
print("ranks tiles run  nnz_imb  imb_max_ms: stationary-c  +steal (cut)  +steal-local (cut)  stolen(steal/local)")
for f in sorted(runs, key=lambda f: (int(runs[f]["stationary-c"]["ranks"]), int(runs[f]["stationary-c"]["tiles"]), f)):
    d = runs[f]
    c, s, l = (float(d[a]["imbalance_max_ms"]) for a in ("stationary-c", "stationary-c+steal", "stationary-c+steal-local"))
    print(f"{int(d['stationary-c']['ranks']):5d} {int(d['stationary-c']['tiles']):5d} {f[-5]:>3s}  "
          f"{float(d['stationary-c']['nnz_imbalance']):6.2f}  {c:22.3f} {s:7.3f} ({100*(1-s/c):4.0f}%) "
          f"{l:8.3f} ({100*(1-l/c):4.0f}%)   {d['stationary-c+steal']['stolen']}/{d['stationary-c+steal-local']['stolen']}")
PY
