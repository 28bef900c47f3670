#!/usr/bin/env bash
# ab-ghost21.sh: one device command (2 GPUs): the box path with masks (this
# tree) against its ghost-layer variant (e3bf17b, unpacked in .carry/ab/base
# and built there beside this tree's build), the D3N27 half of the precond
# suite, interleaved in one process each: this tree's tests
# (test_gpu_precond, test_gpu_factor_pivots, test_gpu_krylov, cli_solve_dist)
# -> gpu-test.log (test-some.log when it ran); box-*.txt (this tree), ghost-*.txt (the variant)
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT"
( JOBS=10 bash bench/ab-build-base.sh > "$OUT/base-build.log" 2>&1; echo done >> "$OUT/base-build.log" ) &
base=$!
export DOMINO_TARGETS="test_gpu_precond test_gpu_factor_pivots test_gpu_krylov"
STEPS="some" TESTS="test_gpu_precond|test_gpu_factor_pivots|test_gpu_krylov|cli_solve_dist" TEST_S=120 \
  bash bench/x2-next21.sh
wait $base
tail -2 "$OUT/base-build.log"
G=.carry/ab/base/b/domino
run() { # NAME BINARY ENV...
  local name=$1 bin=$2; shift 2
  env "$@" DOMINO_PRECOND_ONLY=D3N27 timeout 60 $bin bench --suite precond > "$OUT/$name.txt" 2>&1
  echo "== $name ($*) exit $?"; grep -E "ic0|ilu0" "$OUT/$name.txt" | grep -v "^values\|^setup" | head -6 | cut -c1-90
}
for round in 1 2; do
  run box-auto-$round build-gpu/domino DOMINO_FACTOR_POLL=64
  run ghost-box-$round $G DOMINO_FACTOR_BOX=1
done
run box-forced build-gpu/domino DOMINO_FACTOR_BOX=1
run ghost-levels2 $G DOMINO_FACTOR_BOX=1 DOMINO_FACTOR_BOX_LEVELS=2
run box-levels2 build-gpu/domino DOMINO_FACTOR_BOX=1 DOMINO_FACTOR_BOX_LEVELS=2
true
