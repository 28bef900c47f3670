#!/usr/bin/env bash
# gpu-run.sh: what one device-machine session runs: environment facts, the
# build (prebuilt build-gpu/ carried from the CPU machine, rebuilt there when
# it does not run), the GPU tests, then the benchmarks named in $@.
#   bench/gpu-run.sh test            gpu-labelled ctests only
#   bench/gpu-run.sh trsv            ... plus the full trsv suite
#   bench/gpu-run.sh "problem ..."   ... plus `domino bench --problem` for each
# Results land in $OUT (device tool) or bench/results/raw.
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT"
ROOT=$(pwd)
MATS=${DOMINO_MATRICES:-$ROOT/.carry/matrices}
export DOMINO_MATRICES=$MATS
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee "$OUT/device.txt"
B=build-gpu
if ! $B/domino --version >/dev/null 2>&1; then
  echo "== carried build does not run here; rebuilding" 
  rm -rf $B && cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES="$MATS" >/dev/null && cmake --build $B -j 16 2>&1 | tail -3
fi
what=${1:-test}
shift || true
if [ "$what" != none ]; then
  ( cd $B && ctest -L gpu --output-on-failure --timeout 900 ) 2>&1 | tee "$OUT/gpu-test.log" | tail -40
fi
ENG=${ENGINES:-auto,levelset,warp,thread,csc,cusparse}
REP=${REPEAT:-10}
case "$what" in
  trsv)
    $B/domino bench --suite trsv --engines "$ENG" --repeat "$REP" --csv "$OUT/trsv.csv" --json-out "$OUT/trsv.json" 2>&1 | tee "$OUT/trsv.txt" | grep -v "^#" ;;
esac
for p in "$@"; do
  $B/domino bench --problem "$p" --engines "$ENG" --repeat "$REP" 2>&1 | grep -v "^#" | tail -n +2
done | tee "$OUT/problems.txt"
