# ab-base-bg.sh: sourced by the A/B device scripts that build the base
# commit (.carry/ab/base, bench/ab-build-base.sh) in the background while
# this tree builds (first22.sh, long23.sh).  ab_base_start starts it (log:
# $OUT/base-build.log) unless DOMINO_BUILT=1; ab_base_wait waits for it and
# prints the log's last lines.
ab_base_start() {
  [ "${DOMINO_BUILT:-0}" = 1 ] && return 0
  ( JOBS=8 bash bench/ab-build-base.sh > "$OUT/base-build.log" 2>&1; echo done >> "$OUT/base-build.log" ) &
  AB_BASE_PID=$!
}
ab_base_wait() {
  [ "${DOMINO_BUILT:-0}" = 1 ] && return 0
  wait "$AB_BASE_PID"
  tail -2 "$OUT/base-build.log"
}
