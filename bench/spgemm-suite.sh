#!/usr/bin/env bash
# spgemm-suite.sh: sourced after device-build.sh by the device-session
# scripts (x2-spgemm.sh, x4-spgemm.sh): spgemm_suite TAG PES SECONDS OPTIONS...
# runs domino run -n PES bench --suite spgemm OPTIONS under a time limit
# into $OUT/TAG.csv and $OUT/TAG.txt (the command on its first line, the
# exit status on its last), printing the table without the per-PE and
# model lines.
spgemm_suite() {
  local tag=$1 pes=$2 secs=$3
  shift 3
  echo "# $B/domino run -n $pes bench --suite spgemm $* --csv $tag.csv ; $(date -u +%FT%TZ) ; $(tail -1 "$OUT/device.txt")" > "$OUT/$tag.txt"
  timeout "$secs" $B/domino run -n "$pes" bench --suite spgemm "$@" --csv "$OUT/$tag.csv" 2>&1 | tee -a "$OUT/$tag.txt" \
    | grep -vE "^      PE|^  model" | tail -24
  echo "exit ${PIPESTATUS[0]}" | tee -a "$OUT/$tag.txt"
}
