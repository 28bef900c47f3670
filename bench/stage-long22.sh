#!/usr/bin/env bash
# stage-long22.sh: the staging rule's unmeasured triangles (one GPU, one short
# command): test_gpu_stencil (4 passes: default, forced tiles, STAGE=1,
# STAGE=0) -> gpu-test.log, then D3N19 and D3N33 192^3 lower triangles'
# analysis traced, DOMINO_STENCIL_STAGE=0 against the default (staged:
# nlow 10 and 17), one process each -> long.txt (the trace lines and rows)
set -uo pipefail
cd "$(dirname "$0")/.."
export DOMINO_TARGETS=test_gpu_stencil
source bench/device-start.sh
TESTS=test_gpu_stencil TEST_S=60 run_gpu_tests
for p in ${PROBLEMS:-d3n19:192 d3n33:192}; do
  for mode in 0 default; do
    if [ $mode = 0 ]; then export DOMINO_STENCIL_STAGE=0; else unset DOMINO_STENCIL_STAGE; fi
    echo "== $p stage $mode" >> "$OUT/long.txt"
    DOMINO_ANALYSIS_TRACE=1 timeout 40 $B/domino bench --problem $p --engines auto 2>&1 \
      | grep -E "analysis trace: stencil|auto>" >> "$OUT/long.txt"
  done
done
unset DOMINO_STENCIL_STAGE
sed 's/(flags.*stencil copy/copy/' "$OUT/long.txt"
