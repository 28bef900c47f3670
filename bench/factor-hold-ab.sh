#!/usr/bin/env bash
# factor-hold-ab.sh: A/B of IC(0)'s held pivots (factor_ilu0.cu; not landed:
# apply bench/results/h100-factor-hold/held-pivots.patch first) in one
# device command: the working tree as it is (build-gpu, with
# test_gpu_precond), the same with FACTOR_MIN_BLOCKS=4 (build-mb4), and
# the kernel file of HEAD (.carry/ab/factor_ilu0.head.cu, carried; build-head),
# each running the precond suite on ONLY.
# Results in $OUT: precond-{tree,mb4,head}.txt, gpu-test.log.
set -uo pipefail
export OUT
DOMINO_TARGETS="test_gpu_precond" source bench/device-build.sh > "$OUT/build.log" 2>&1
TESTS=test_gpu_precond run_gpu_tests
export DOMINO_PRECOND_ONLY=${ONLY:-D3N7_64,D3N7_192,D3N27_64,D3N27_192}
build_other() { # dir, source dir
  cmake -S "$2" -B "$1" -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES="$MATS" $ZFLAGS > /dev/null 2>&1
  cmake --build "$1" -j 16 --target domino_cli 2>&1 | grep -E "error|Built target domino_cli"
}
sed -i 's/^#define FACTOR_MIN_BLOCKS 5/#define FACTOR_MIN_BLOCKS 4/' src/cuda/factor_ilu0.cu
build_other build-mb4 .
sed -i 's/^#define FACTOR_MIN_BLOCKS 4/#define FACTOR_MIN_BLOCKS 5/' src/cuda/factor_ilu0.cu
cp src/cuda/factor_ilu0.cu /tmp/factor_ilu0.tree.cu && cp .carry/ab/factor_ilu0.head.cu src/cuda/factor_ilu0.cu
build_other build-head .
cp /tmp/factor_ilu0.tree.cu src/cuda/factor_ilu0.cu
for v in tree:build-gpu mb4:build-mb4 head:build-head tree2:build-gpu; do
  timeout 120 ${v#*:}/domino bench --suite precond > "$OUT/precond-${v%%:*}.txt" 2>&1; echo "${v%%:*} rc=$?"
  grep -E "^D3N" "$OUT/precond-${v%%:*}.txt" | head -8 | awk '{print $1, $4, $5, $6, $7, $13, $14}'
done
