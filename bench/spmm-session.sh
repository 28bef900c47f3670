#!/usr/bin/env bash
# spmm-session.sh: one device command (nvidia-h200-x2, under 600 s) for the
# distributed SpMM (issue 9): the dist tests (the one-sided SpMM on NVSHMEM,
# NCCL SUMMA, and the rest), domino_gpu_spmm's gpu test, then the spmm suite
# in double and in float.  Results in $OUT: spmm.csv/txt, spmm-float.csv/txt.
#   bash bench/spmm-session.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-build.sh > /dev/null
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-8G}
( cd $B && timeout ${TEST_S:-200} ctest -L dist --timeout 60 --output-on-failure; timeout 100 ctest -R test_gpu_spmm --output-on-failure ) \
  > "$OUT/spmm-test.log" 2>&1
grep -E "Test *#|tests passed|FAIL|fail" "$OUT/spmm-test.log" | grep -v "not implemented" | tail -16
PES=${PES:-$(nvidia-smi -L | wc -l)}
for kind in double float; do
  flag=""; [ $kind = float ] && flag=--float
  T=spmm$([ $kind = float ] && echo -float)
  echo "# $B/domino run -n $PES bench --suite spmm $flag --problem rmat:18,rmat:20,rmat:22 --widths 128,512 --repeat 5 --csv $T.csv ; $(date -u +%FT%TZ)" > "$OUT/$T.txt"
  timeout ${SPMM_S:-150} $B/domino run -n $PES bench --suite spmm $flag --problem rmat:18,rmat:20,rmat:22 \
    --widths 128,512 --repeat 5 --csv "$OUT/$T.csv" 2>&1 | tee -a "$OUT/$T.txt" | tail -30
done
# plots: on this machine after the run, e.g.
#   python3 bench/plot_spmm.py <files_at>/spmm.csv bench/results/h200x2-spmm/spmm
