# ab-base-bg.sh: sourced by the A/B device scripts that build the base
# commit (.carry/ab/base, bench/ab-build-base.sh) in the background while
# this tree builds (first22.sh, long23.sh, lines-trace26.sh,
# ilu-lines27.sh).  ab_base_start starts it (log: $OUT/base-build.log)
# unless DOMINO_BUILT=1, and with it every other tree .carry/ab/NAME that a
# config of $CONFIGS names (NAME, NAME2, ...: log $OUT/NAME-build.log);
# ab_base_wait waits for them and prints each log's last lines.
ab_tree_of() { # the .carry/ab tree a config name runs (its name less trailing digits), or nothing
  local t=${1%%[0-9]*}
  [ -n "$t" ] && [ -d ".carry/ab/$t" ] && echo "$t"
}
ab_base_start() {
  [ "${DOMINO_BUILT:-0}" = 1 ] && return 0
  local c t trees="base"
  for c in ${CONFIGS:-}; do
    t=$(ab_tree_of "${c%%:*}")
    case " $trees " in *" $t "*) ;; *) [ -n "$t" ] && trees="$trees $t" ;; esac
  done
  AB_BASE_PIDS=""
  for t in $trees; do
    ( JOBS=8 bash bench/ab-build-base.sh ".carry/ab/$t" > "$OUT/$t-build.log" 2>&1; echo done >> "$OUT/$t-build.log" ) &
    AB_BASE_PIDS="$AB_BASE_PIDS $!"
  done
  AB_BASE_TREES=$trees
}
ab_base_wait() {
  [ "${DOMINO_BUILT:-0}" = 1 ] && return 0
  local t
  wait $AB_BASE_PIDS
  for t in $AB_BASE_TREES; do tail -2 "$OUT/$t-build.log"; done
}
# run_precond_configs ROWS: each of $CONFIGS ("name:ENV=V,ENV=V ..."; default
# "plain:") runs the precond suite on $CONFIG_ONLY (default D3N27) within
# $CONFIG_S seconds into $OUT/name.txt, the CLI of .carry/ab/NAME for a
# name NAME or NAME2... when that tree exists (ab_tree_of: base, base2 ->
# .carry/ab/base), and prints its rows matching ROWS (a grep -E regex)
run_precond_configs() {
  local c name envs cli t
  for c in ${CONFIGS:-plain:}; do
    name=${c%%:*}; envs=${c#*:}; cli=$B/domino
    t=$(ab_tree_of "$name")
    [ -n "$t" ] && cli=.carry/ab/$t/b/domino
    env $(echo $envs | tr ',' ' ') DOMINO_PRECOND_ONLY=${CONFIG_ONLY:-D3N27} timeout ${CONFIG_S:-150} $cli bench \
      --suite precond > $OUT/$name.txt 2>&1
    echo "== $name ($envs): exit $?"; grep -E "$1" $OUT/$name.txt | grep -v "^values\|^setup\||" | head -${CONFIG_ROWS:-6} | cut -c1-150
  done
}
# ab_configs_build: the .carry/ab trees $CONFIGS names (ab_tree_of) built in
# the background (AB=1; ab_base_wait before running them), this tree built by
# device-build.sh ($OUT/build.log; its errors, warnings and last line
# printed)
ab_configs_build() {
  local c
  AB=0
  for c in ${CONFIGS:-}; do [ -n "$(ab_tree_of "${c%%:*}")" ] && AB=1; done
  [ $AB = 1 ] && ab_base_start
  source bench/device-build.sh > $OUT/build.log 2>&1
  grep -E "error|warning" $OUT/build.log | head; tail -1 $OUT/build.log
}
