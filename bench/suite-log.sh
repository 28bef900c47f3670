#!/usr/bin/env bash
# suite-log.sh: sourced after device-build.sh by the device scripts that
# keep every suite's output in one file, $OUT/tables.txt (the device tool
# returns 8 files at most): run_suite NAME TAG PES SECONDS OPTIONS... runs
# domino run -n PES bench --suite NAME OPTIONS --csv $OUT/TAG.csv under a
# time limit, appends the command (with DOMINO_SPMM_ALG and DOMINO_SPMM_LOCAL when set), its
# output and its exit status to tables.txt, and prints them without the
# model and per-PE lines.
run_suite() {
  local name=$1 tag=$2 pes=$3 secs=$4 log="$OUT/tables.txt"
  shift 4
  echo "# ${DOMINO_SPMM_ALG:+DOMINO_SPMM_ALG=$DOMINO_SPMM_ALG }${DOMINO_SPMM_LOCAL:+DOMINO_SPMM_LOCAL=$DOMINO_SPMM_LOCAL }$B/domino run -n $pes bench --suite $name $* --csv $tag.csv ; $(date -u +%FT%TZ)" | tee -a "$log"
  timeout "$secs" $B/domino run -n "$pes" bench --suite "$name" "$@" --csv "$OUT/$tag.csv" 2>&1 | tee -a "$log" \
    | grep -vE "^  model|^      PE"
  echo "exit ${PIPESTATUS[0]}" | tee -a "$log"
}
