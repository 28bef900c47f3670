#!/usr/bin/env bash
# session33-c.sh: does one block solving level by level (levelblock,
# forced; x through global memory, not shared) beat the synchronization-free
# engines on the deep random DAGs of issue 3's >= 1e4-level group?  Each
# DAG in its own process: thread, stepblock, levelblock, levelset and
# cusparseSpSV, answers checked -> deep.csv, deep.txt.
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS=" " source bench/device-build.sh > $OUT/build.log 2>&1
tail -1 $OUT/build.log
for p in dag:1000000:8:10000 dag:1000000:8:100000 dag:10000000:8:10000 dag:10000000:8:100000; do
  timeout ${RUN_S:-40} $B/domino bench --problem $p --engines thread,stepblock,levelblock,levelset,cusparse \
    --repeat 10 --csv $OUT/tmp.csv >> $OUT/deep.txt 2>&1 || echo "$p: exit $?" >> $OUT/deep.txt
  if [ -f $OUT/tmp.csv ]; then  # the header once: deep.csv exists only after the first problem
    if [ -f $OUT/deep.csv ]; then tail -n +2 $OUT/tmp.csv >> $OUT/deep.csv; else cp $OUT/tmp.csv $OUT/deep.csv; fi
  fi
  rm -f $OUT/tmp.csv
done
grep -E "^dag|exit" $OUT/deep.txt
