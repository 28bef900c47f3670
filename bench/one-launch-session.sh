#!/usr/bin/env bash
# one-launch-session.sh: one device command: the one-launch pull solve
# (domino_pull_flags: no sentinel-fill launch) against the commit unpacked in
# .carry/ab/base (git archive COMMIT | tar -x -C .carry/ab/base) and against
# itself with DOMINO_ONE_LAUNCH_ROWS=0 (the fill launch back), engines auto
# and cusparse in each process, the configurations interleaved per problem,
# after ctest on every gpu test of the working tree.  DAGs above the row
# limit also run with the one launch forced (new-all), to check the limit.
# Results: $OUT/ab.csv (config,round,<bench csv>), ab.txt, gpu-test.log.
set -uo pipefail
source bench/ab-begin.sh
run_one() { # config round problem repeat
  local c=$1 r=$2 p=$3 rep=$4 bin=$B/domino env=""
  [ $c = base ] && bin=.carry/ab/base/b/domino
  [ $c = new-off ] && env="DOMINO_ONE_LAUNCH_ROWS=0"
  [ $c = new-all ] && env="DOMINO_ONE_LAUNCH_ROWS=100000000"
  rm -f $OUT/tmp.csv
  env $env timeout 120 $bin bench --problem $p --engines auto,cusparse --repeat $rep --csv $OUT/tmp.csv > /dev/null 2>&1 || echo "$c $p: exit $?" >> $OUT/ab-errors.txt
  [ -f $OUT/tmp.csv ] && tail -n +2 $OUT/tmp.csv | sed "s/^/$c,$r,/" >> $OUT/ab.csv
}
small=($M/*.mtx dag:100000:8:1 dag:100000:8:100 dag:100000:8:1000)
for round in 1 2; do
  for p in "${small[@]}"; do
    if [ $round = 1 ]; then order="base new new-off"; else order="new-off new base"; fi
    for c in $order; do run_one $c $round $p 20; done
  done
done
for p in dag:250000:8:1 dag:250000:8:1000; do
  for c in base new new-off; do run_one $c 1 $p 20; done
done
for p in dag:500000:8:1 dag:1000000:8:1 dag:1000000:8:100 dag:1000000:8:10000; do
  for c in base new new-all; do run_one $c 1 $p 10; done
done
awk -F, '$9=="auto"||$9=="cusparse" {printf "%-8s %s %-26s %-9s solve=%9.4f first=%9.4f an=%8.4f %s\n",$1,$2,$3,$10,$12,$14,$11,$20}' $OUT/ab.csv > $OUT/ab.txt
cat $OUT/ab.txt | head -400
