#!/usr/bin/env bash
# stencil-d3n33-13.sh: one device command (one GPU) for 84946dc, D3N33's
# tile by grid size: build the CLI and test_gpu_stencil, run it
# (gpu-test.log), then D3N33 at 64^3-256^3, lower and upper, with the new
# default (engines stencil-compact, auto, cusparse; d33.csv), and at 64^3,
# 128^3 and 256^3 (lower) with the old default forced
# (DOMINO_STENCIL_TILE=2x4; d33-old.csv), each problem in its own process,
# within BENCH_S seconds (300)
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=test_gpu_stencil source bench/device-build.sh > /tmp/b.log 2>&1
grep -E "^build|error" /tmp/b.log | head
TESTS=test_gpu_stencil TEST_S=120 run_gpu_tests
export DOMINO_MATRICES=$MATS
bench() { # CSV PROBLEM [env...]
  local csv=$1 p=$2; shift 2
  env "$@" $B/domino bench --problem "$p" --engines stencil-compact,auto,cusparse --repeat 10 \
    --csv /tmp/one.csv 2>&1 | grep -v "^#" | tail -n +2 | sed "s|^|$* |"
  if [ -s "$OUT/$csv" ]; then tail -n +2 /tmp/one.csv >> "$OUT/$csv"; else cp /tmp/one.csv "$OUT/$csv"; fi
}
export -f bench; export B OUT
timeout ${BENCH_S:-300} bash -c '
for g in 64 128 256; do
  bench d33.csv d3n33:$g
  bench d33-old.csv d3n33:$g DOMINO_STENCIL_TILE=2x4
  bench d33.csv d3n33:$g:upper
done
bench d33.csv d3n33:192
bench d33.csv d3n33:192:upper'
echo "bench exit $?"
