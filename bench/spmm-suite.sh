#!/usr/bin/env bash
# spmm-suite.sh: sourced after device-build.sh by the device-session
# scripts (x4-spmm.sh, x4-final.sh): spmm_suite TAG PES SECONDS OPTIONS...
# runs domino run -n PES bench --suite spmm OPTIONS --repeat 5 under a time
# limit into $OUT/TAG.csv and $OUT/TAG.txt (the command on its first line),
# printing the table without the model lines.
spmm_suite() {
  local tag=$1 pes=$2 secs=$3; shift 3
  echo "# $B/domino run -n $pes bench --suite spmm $* --repeat 5 --csv $tag.csv ; $(date -u +%FT%TZ) ; $(sed -n 2p "$OUT/device.txt")" > "$OUT/$tag.txt"
  timeout $secs $B/domino run -n $pes bench --suite spmm "$@" --repeat 5 --csv "$OUT/$tag.csv" 2>&1 | tee -a "$OUT/$tag.txt" |
    grep -v "^  model"
  echo "exit ${PIPESTATUS[0]}" | tee -a "$OUT/$tag.txt"
}
