#!/usr/bin/env bash
# box-next19.sh: the next session's proposed device command (one GPU), not
# run yet.  Builds the CLI and the three factorization tests split out of
# test_gpu_precond (3b7c4db: test_gpu_precond, test_gpu_factor_pivots,
# test_gpu_krylov) and runs them -> gpu-test.log (their first GPU run; also
# the first of b845623's factor_box.cu without the ASYNC=0 variant, whose
# default kernels' PTX is unchanged), then the D3N27 half of the precond
# suite for each of CONFIGS ("name:ENV=V,ENV=V ..."; default: the table
# path, the box path for ILU(0) with 3 blocks an SM (168 registers, 112
# bytes spilled) and with 2 (194 registers, none spilled), and the box path
# with 16 keys in flight) -> csv.tgz
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT"
DOMINO_TARGETS="test_gpu_precond test_gpu_factor_pivots test_gpu_krylov" source bench/device-build.sh \
  > "$OUT/build.log" 2>&1
tail -2 "$OUT/build.log"
TESTS=${TESTS:-"test_gpu_precond|test_gpu_factor_pivots|test_gpu_krylov"} TEST_S=240 run_gpu_tests
CONFIGS=${CONFIGS:-"table:DOMINO_FACTOR_BOX=0 box3:DOMINO_FACTOR_BOX=1 box2:DOMINO_FACTOR_BOX=1,DOMINO_FACTOR_BOX_BLOCKS=2 box16:DOMINO_FACTOR_BOX=1,DOMINO_FACTOR_BOX_LEVELS=16"}
for c in $CONFIGS; do
  name=${c%%:*}; envs=${c#*:}
  env $(echo $envs | tr ',' ' ') DOMINO_PRECOND_ONLY=${ONLY:-D3N27} timeout 200 $B/domino bench \
    --suite precond --csv "$OUT/$name.csv" > "$OUT/$name.txt" 2>&1
  echo "== $name ($envs)"; grep -E "ic0|ilu0" "$OUT/$name.txt" | grep -v "^values\|^setup" | head -6 | cut -c1-80
done
(cd "$OUT" && tar czf csv.tgz *.csv *.txt && rm -f *.csv)
true
