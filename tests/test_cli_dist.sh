#!/usr/bin/env bash
# test_cli_dist.sh: "domino run -n N solve FILE --dist ..." on the GPUs of
# the machine (label dist: N = the GPUs, at most 4), every solver and
# distribution, JSON, a budget too small named, a bad file named.
# usage: test_cli_dist.sh PATH/TO/domino [SHARED_MATRICES_DIR]
set -u
DOMINO=${1:?usage: test_cli_dist.sh PATH/TO/domino [SHARED_MATRICES_DIR]}
MATRICES=${2:-$(dirname "$0")/../../shared/matrices}
export NVSHMEM_DISABLE_NVLS=1
source "$(dirname "$0")/cli_harness.sh"
N=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$N" -gt 4 ] && N=4
if [ "$N" -lt 1 ]; then echo "test_cli_dist: no GPU, skipped"; exit 0; fi
M="$MATRICES/cage8.mtx"
"$DOMINO" gen dag --rows 20000 --per-row 6 --levels 40 -o "$TMP/d.mtx" 2>/dev/null || bad "gen dag"
"$DOMINO" gen dag --rows 300000 --per-row 4 --levels 20 -o "$TMP/big.mtx" 2>/dev/null || bad "gen big dag"
for solver in pull zerocopy push unified; do
    expect 0 "$solver on $N PEs" -- "$DOMINO" run -n "$N" solve "$M" --dist "$solver"
    expect_grep out "check: *ok" "$solver answer"
done
expect 0 "pull, linked, DAG" -- "$DOMINO" run -n "$N" solve "$TMP/d.mtx" --dist pull --scheme linked
expect_grep out "linked distribution" "linked named"
expect 0 "pull, auto, 500 rows a level" -- "$DOMINO" run -n "$N" solve "$TMP/d.mtx" --dist pull
# LINKED sends fewer entries across PEs there; on one PE nothing crosses, the pool stays
if [ "$N" -gt 1 ]; then want=linked; else want=taskpool; fi
expect_grep out "$want distribution (auto)" "auto took $want"
expect 0 "pull, auto, 15000 rows a level (above DOMINO_DIST_LINKED_PARALLELISM)" -- "$DOMINO" run -n "$N" solve "$TMP/big.mtx" --dist pull --json
expect_grep out '"scheme_taken": "taskpool"' "auto took taskpool"
expect 0 "zerocopy, linked, upper" -- "$DOMINO" run -n "$N" solve "$M" --dist zerocopy --scheme linked --upper
expect 0 "push, contiguous, unit" -- "$DOMINO" run -n "$N" solve "$TMP/d.mtx" --dist push --scheme contiguous --unit
expect 0 "pull, 8 tasks, json" -- "$DOMINO" run -n "$N" solve "$M" --dist pull --tasks 8 --json
expect_json "json valid"
expect_grep out '"passed": true' "json passed"
expect 1 "budget too small" -- "$DOMINO" run -n "$N" solve "$TMP/big.mtx" --dist pull --budget-mb 1
expect_grep err "budget" "budget named"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 2.0\n2 1 1.0\n3 3 x\n' >"$TMP/bad.mtx"
expect 1 "bad file" -- "$DOMINO" run -n "$N" solve "$TMP/bad.mtx" --dist pull
expect_grep err "bad.mtx:5" "bad file named with its line"
echo "test_cli_dist: $passed passed, $failed failed ($N PEs)"
[ "$failed" -eq 0 ]
