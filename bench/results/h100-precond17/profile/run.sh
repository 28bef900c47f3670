#!/usr/bin/env bash
# ncu of the table-path factorization kernel (HEAD) on D3N27 64^3, IC0 and ILU0
set -uo pipefail
export OUT NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS=" " source bench/device-build.sh > $OUT/build.log 2>&1; tail -1 $OUT/build.log
for kind in ic0:3 ilu0:9; do
  k=${kind%%:*}; skip=${kind#*:}
  DOMINO_PRECOND_ONLY=D3N27_64 timeout 200 ncu --set full --import-source yes -k regex:factor_kernel --launch-skip $skip --launch-count 1 -f -o /tmp/pf-$k build-gpu/domino bench --suite precond > /tmp/pf-$k.txt 2>&1
  tail -1 /tmp/pf-$k.txt
  ncu -i /tmp/pf-$k.ncu-rep --page details --csv > $OUT/d3n27_64-$k-details.csv 2>&1
  ncu -i /tmp/pf-$k.ncu-rep --page raw --csv --metrics regex:smsp__pcsamp_warps_issue_stalled_.*,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum > $OUT/d3n27_64-$k-stalls.csv 2>&1
  ncu -i /tmp/pf-$k.ncu-rep --page source --csv --print-source sass > $OUT/d3n27_64-$k-sass.csv 2>&1
done
ls -la $OUT
