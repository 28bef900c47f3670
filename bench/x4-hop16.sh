#!/usr/bin/env bash
# x4-hop16.sh: the sixteenth session's device commands (nvidia-h200-x4):
# the multi-GPU kernels load what a row or column needs after its waits
# (b, pivot, entry values, readers) before them, so a level's hop across
# PEs carries no trip to memory after the value arrives.
#  ab    builds the base commit unpacked in .carry/ab/base (git archive
#        42123ee) beside the working tree, then the pull solver (AUTO's
#        distribution) and zero-copy with 8 level tasks a PE, new then
#        base, 4 PEs then 2, beside domino's single GPU, on the 10^7-row
#        DAGs of 10, 100 and 1000 levels -> {new,base}-p{4,2}.csv; the
#        1000-level one bounds the hop: 1 GPU ~1.7 ms, 4 PEs ~2.3 ms at
#        42123ee (bench/results/h200x4-linked)
#  test  ctest -L "gpu|dist" on 4 PEs -> test.log (the first GPU run of
#        a1c6828..HEAD)
# STEPS picks them (default "ab"); CSVs come back in csv.tgz
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1
OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT"
if [ "${DOMINO_BUILT:-0}" != 1 ] && [[ " ${STEPS:-ab} " == *" ab "* ]]; then
  JOBS=6 bash bench/ab-build-base.sh > "$OUT/build-base.log" 2>&1 &
fi
source bench/device-start.sh
wait
BASE=.carry/ab/base/b/domino
DAGS=dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000
for step in ${STEPS:-ab}; do
  case $step in
    ab) for p in 4 2; do
          run_suite trsv-dist new-p$p $p ${AB_S:-110} --problem $DAGS --repeat 5 \
            --engines domino-1gpu,pull-auto,zerocopy-tasks8-level
          B_SAVE=$B; B=.carry/ab/base/b
          run_suite trsv-dist base-p$p $p ${AB_S:-110} --problem $DAGS --repeat 5 \
            --engines domino-1gpu,pull-auto,zerocopy-tasks8-level
          B=$B_SAVE
        done ;;
    test) TEST_S=${TEST_S:-480} run_label_tests "gpu|dist" ;;
  esac
done
( cd "$OUT" && ls *.csv >/dev/null 2>&1 && tar czf csv.tgz *.csv && rm -f *.csv )
true
