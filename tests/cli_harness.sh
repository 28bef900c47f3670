# cli_harness.sh: what the shell tests of the domino command share (sourced
# by test_cli.sh and test_cli_dist.sh): a scratch folder $TMP, the counts,
# and the checks.  Each check adds to passed or failed; a failure prints why.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
skipped=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# expect CODE DESCRIPTION -- command...: run it, compare the exit code
# (stdout into $TMP/out, stderr into $TMP/err)
expect() {
    local want=$1 what=$2
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else
        bad "$what: exit $got, want $want"
        sed 's/^/    /' "$TMP/err" | head -8 >&2
    fi
}
# expect_json DESCRIPTION: the last output is valid JSON
expect_json() {
    cp "$TMP/out" "$TMP/last.json"
    if python3 -m json.tool "$TMP/last.json" >/dev/null 2>"$TMP/json_err"; then ok; else
        bad "$1: not valid JSON"; head -3 "$TMP/json_err" >&2; fi
}
# expect_grep FILE PATTERN DESCRIPTION: the last output holds the pattern
expect_grep() {
    if grep -q -- "$2" "$TMP/$1"; then ok; else bad "$3: no '$2' in $1"; sed 's/^/    /' "$TMP/$1" | head -5 >&2; fi
}
