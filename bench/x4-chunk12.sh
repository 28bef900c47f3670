#!/usr/bin/env bash
# x4-chunk12.sh: the CSC push in rounds (x4-next12.sh found chunk 32 3.3x
# faster than one round on R-MAT 22 for the single-GPU csc engine and 3.5x
# for um): first chunk 8/16/64/128 on R-MAT 22, single GPU csc and 4 PEs
# um/zero-copy -> sweep-*.csv; then the six problems on 2 PEs with chunk
# $C (um against zero-copy, issue 5's 3x) -> six2-$C.csv
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
for c in ${CHUNKS:-8 16 64 128}; do
  echo "# DOMINO_PUSH_CHUNK=$c domino bench --problem rmat:22 --engines csc" | tee -a "$OUT/tables.txt"
  DOMINO_PUSH_CHUNK=$c timeout 60 $B/domino bench --problem rmat:22 --engines csc --repeat 5 \
    --csv "$OUT/sweep-1gpu-$c.csv" 2>&1 | tee -a "$OUT/tables.txt" | tail -1
  export DOMINO_DIST_PUSH_CHUNK=$c
  echo "# DOMINO_DIST_PUSH_CHUNK=$c" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist sweep-4pe-$c 4 60 --problem rmat:22 --engines um,zerocopy-tasks8,zerocopy-tied --repeat 3
done
export DOMINO_DIST_PUSH_CHUNK=${C:-32}
run_suite trsv-dist six2-${C:-32} 2 ${SIX_S:-300} \
  --problem d3n27:192,rmat:20,dag:10000000:8:100,d3n7:256,dag:10000000:8:1000,rmat:22 \
  --engines um,zerocopy,zerocopy-tasks8,zerocopy-tied --repeat 2
( cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv )
