#!/usr/bin/env bash
# triangle-ab-session.sh: one device command: the pull engines reading each
# row's triangle only, upper rows reversed (prepare_triangle in
# src/cuda/trsv_plan.c), against the commit unpacked in .carry/ab/base
# (git archive COMMIT | tar -x -C .carry/ab/base): every gpu test of the
# working tree, then upper triangles (--upper) of the real matrices and of
# DAGs, auto and cusparse in each process, base and new in turn, and their
# lower triangles in new with and without DOMINO_SHORT_NEAR_FIRST=1
# (new-near), two rounds; then the precond suite (--quick: the real
# matrices, small 3D grids), base and new.  Results: $OUT/ab.csv (config,round,<bench csv>),
# precond-base.txt, precond-new.txt, gpu-test.log.
set -uo pipefail
source bench/ab-begin.sh
run_one() { # config round problem repeat upper(--upper or "")
  local c=$1 r=$2 p=$3 rep=$4 up=$5 bin=$B/domino env=""
  [ $c = base ] && bin=.carry/ab/base/b/domino
  [ $c = new-near ] && env="DOMINO_SHORT_NEAR_FIRST=1"
  rm -f $OUT/tmp.csv
  env $env timeout 120 $bin bench --problem $p $up --engines auto,cusparse --repeat $rep --csv $OUT/tmp.csv > /dev/null 2>&1 || echo "$c $p $up: exit $?" >> $OUT/ab-errors.txt
  [ -f $OUT/tmp.csv ] && tail -n +2 $OUT/tmp.csv | sed "s/^/$c,$r,/" >> $OUT/ab.csv
}
PROBLEMS="$M/*.mtx dag:100000:8:100 dag:100000:8:1000 dag:1000000:8:1000"
for round in 1 2; do
  for p in $PROBLEMS; do
    if [ $round = 1 ]; then order="base new"; else order="new base"; fi
    for c in $order; do run_one $c $round $p 10 --upper; done
    if [ $round = 1 ]; then order="new new-near"; else order="new-near new"; fi
    for c in $order; do run_one $c $round $p 10 ""; done
  done
done
for c in base new; do
  bin=$B/domino; [ $c = base ] && bin=.carry/ab/base/b/domino
  timeout 150 $bin bench --suite precond --quick > $OUT/precond-$c.txt 2>&1; echo "precond $c: rc $?"
done
