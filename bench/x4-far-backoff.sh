#!/usr/bin/env bash
# x4-far-backoff.sh (nvidia-h200-x4, about 2 minutes): the zero-copy solver's
# polls of other GPUs' memory with a growing back-off (64 ns doubled up to
# DOMINO_DIST_FAR_BACKOFF_NS; 64, the default, keeps it at 64): R-MAT 22 and
# the 100-level 10^7-row DAG on 4 PEs, zero-copy level-tied and with 8 tasks
# a PE -> far-NS.csv, tables.txt
set -uo pipefail
cd "$(dirname "$0")/.."
DOMINO_TARGETS=" " source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
source bench/suite-log.sh
for ns in ${FAR:-64 512 2048}; do
  export DOMINO_DIST_FAR_BACKOFF_NS=$ns
  echo "# DOMINO_DIST_FAR_BACKOFF_NS=$ns" | tee -a "$OUT/tables.txt"
  run_suite trsv-dist far-$ns ${PES:-4} ${S:-50} --problem rmat:22,dag:10000000:8:100 \
    --engines zerocopy-tied,zerocopy-tasks8 --repeat 3
done
