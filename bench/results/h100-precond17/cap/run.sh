#!/usr/bin/env bash
# the row kernel's poll back-off cap (DOMINO_FACTOR_POLL) after wait_pending_pinned
set -uo pipefail
export OUT
DOMINO_TARGETS=" " source bench/device-build.sh > $OUT/build.log 2>&1; tail -1 $OUT/build.log
export DOMINO_PRECOND_ONLY=D3N27_64,D3N27_128,D3N27_192,whitaker3,luxembourg,bcsstk33
for cap in 256 64 128 512 1024 256 128 512; do
  DOMINO_FACTOR_POLL=$cap timeout 120 build-gpu/domino bench --suite precond > $OUT/cap-$cap.txt 2>&1
  echo "cap $cap: $(grep -E '^(D3N|whit|lux|bcs)' $OUT/cap-$cap.txt | head -12 | awk '{printf "%s ", $5}')"
done
