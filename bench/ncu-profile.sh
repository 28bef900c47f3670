#!/usr/bin/env bash
# ncu-profile.sh: Nsight Compute profile of one solve kernel per problem
# (one device command): for each problem in PROFILE, the KERNEL (a regex,
# default trsv_pull_kernel) of the third solve of `domino bench --engines
# ENGINE` (default thread) with the full section set and source counters;
# writes $OUT/<i>-details.csv (sections, including the warp stall
# breakdown) and <i>-sass.csv (stall samples and executions per SASS
# instruction); the report itself stays in /tmp (the device tool brings
# back only a few files a call).
# TAG prefixes the files, so that several calls (other KERNEL / ENGINE)
# share one $OUT; bench/ncu_sass_top.py summarizes a sass CSV.
#   PROFILE="nnc1374.mtx dag:1000000:8:100000" bash bench/ncu-profile.sh
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=${TARGETS:-}
source bench/device-build.sh
i=0
for p in ${PROFILE:?}; do
  i=$((i+1))
  [ -f "$MATS/$p" ] && p="$MATS/$p"
  echo "${TAG:-}$i: $p (kernel ${KERNEL:-trsv_pull_kernel}, engine ${ENGINE:-thread})" | tee -a "$OUT/profiles.txt"
  timeout ${PER_S:-120} ncu --set full --import-source yes -k "regex:${KERNEL:-trsv_pull_kernel}" \
    --launch-skip 2 --launch-count 1 -f -o "/tmp/prof-$i" $B/domino bench --problem "$p" \
    --engines ${ENGINE:-thread} --repeat 4 > "/tmp/prof-$i.txt" 2>&1
  tail -3 "/tmp/prof-$i.txt"
  ncu -i "/tmp/prof-$i.ncu-rep" --page details --csv > "$OUT/${TAG:-}$i-details.csv" 2>&1
  ncu -i "/tmp/prof-$i.ncu-rep" --page source --csv --print-source sass > "$OUT/${TAG:-}$i-sass.csv" 2>&1
  python3 bench/ncu_sass_top.py "$OUT/${TAG:-}$i-sass.csv" ${TOP:-40} | tee "$OUT/${TAG:-}$i-top.txt"
done
