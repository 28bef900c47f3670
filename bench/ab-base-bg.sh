# ab-base-bg.sh: sourced by the A/B device scripts that build the base
# commit (.carry/ab/base, bench/ab-build-base.sh) in the background while
# this tree builds (first22.sh, long23.sh, lines-trace26.sh,
# ilu-lines27.sh).  ab_base_start starts it (log: $OUT/base-build.log)
# unless DOMINO_BUILT=1; ab_base_wait waits for it and prints the log's
# last lines.
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
# run_precond_configs ROWS: each of $CONFIGS ("name:ENV=V,ENV=V ..."; default
# "plain:") runs the precond suite on $CONFIG_ONLY (default D3N27) within
# $CONFIG_S seconds into $OUT/name.txt, the CLI of .carry/ab/base for a
# name base*, and prints its rows matching ROWS (a grep -E regex)
run_precond_configs() {
  local c name envs cli
  for c in ${CONFIGS:-plain:}; do
    name=${c%%:*}; envs=${c#*:}; cli=$B/domino
    case $name in base*) cli=.carry/ab/base/b/domino ;; esac
    env $(echo $envs | tr ',' ' ') DOMINO_PRECOND_ONLY=${CONFIG_ONLY:-D3N27} timeout ${CONFIG_S:-150} $cli bench \
      --suite precond > $OUT/$name.txt 2>&1
    echo "== $name ($envs): exit $?"; grep -E "$1" $OUT/$name.txt | grep -v "^values\|^setup\||" | head -${CONFIG_ROWS:-6} | cut -c1-150
  done
}
# ab_configs_build: the base built in the background when $CONFIGS names a
# base* config (AB=1; ab_base_wait before running it), this tree built by
# device-build.sh ($OUT/build.log; its errors, warnings and last line
# printed)
ab_configs_build() {
  AB=0; case " ${CONFIGS:-} " in *" base"*) AB=1; ab_base_start ;; esac
  source bench/device-build.sh > $OUT/build.log 2>&1
  grep -E "error|warning" $OUT/build.log | head; tail -1 $OUT/build.log
}
