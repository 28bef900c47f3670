#!/usr/bin/env bash
# x4-um-plain-large.sh: one device command (nvidia-h200-x4, PES=4; or
# nvidia-h200-x2 with PES=2; about 8 minutes): issues 5 and 7's zero-copy
# against unified memory on the large problems, which h200x2-um-plain did
# not reach: our mapped UM (um), unified memory adopted directly (um-plain:
# managed arrays without advice, pages migrating on faults), both with 8
# tasks per GPU, and the zero-copy solver, on D3N27 192^3, R-MAT 20 and a
# 10^7-row DAG of 100 levels.  Results in $OUT: device.txt, tables.txt,
# um-large.csv, um-dag.csv; with P3 (problems, comma-separated) a third
# run of those -> um-more.csv.  E overrides the configurations.
#   PES=2 S1=200 S2=100 S3=150 P3=d3n7:256,dag:10000000:8:1000,rmat:22 \
#   E=um,um-plain,um-tasks8,zerocopy,zerocopy-tasks8 bash bench/x4-um-plain-large.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
source bench/suite-log.sh
E=${E:-um,um-plain,um-tasks8,um-plain-tasks8,zerocopy,zerocopy-tasks8}
run_suite trsv-dist um-large ${PES:-4} ${S1:-240} --problem d3n27:192,rmat:20 --engines $E --repeat 2
run_suite trsv-dist um-dag ${PES:-4} ${S2:-150} --problem dag:10000000:8:100 --engines $E --repeat 2
if [ -n "${P3:-}" ]; then
  run_suite trsv-dist um-more ${PES:-4} ${S3:-150} --problem "$P3" --engines $E --repeat 2
fi
