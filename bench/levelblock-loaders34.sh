#!/usr/bin/env bash
# levelblock-loaders34.sh: one device command (1 GPU): the level-block
# engine's loader warps 1, 2, 4 and 8 in the same binary
# (DOMINO_LEVELBLOCK_LOADERS; LOADERS="rule ..." adds the plan's own
# choice), and the tree in .carry/ab/base (config
# base, its one loader warp; BASE=0: none), on the shared matrices where
# auto takes it and two controls, ROUNDS rounds alternating; then
# test_gpu_trsv_levelblock and test_gpu_trsv (LABEL=gpu: every target
# built, every test of the label), and test_gpu_trsv_levelblock
# again with 1 and 8 loader warps (TEST_LOADERS).
# -> $OUT/loaders.csv (config,round,<bench csv>), loaders.txt, gpu-test.log
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
[ "${BASE:-1}" = 1 ] && { bash bench/ab-build-base.sh > $OUT/build-base.log 2>&1 & }
[ -z "${LABEL:-}" ] && export DOMINO_TARGETS="test_gpu_trsv_levelblock test_gpu_trsv"
source bench/device-build.sh > $OUT/build.log 2>&1
wait
tail -1 $OUT/build.log
ONLY=${ONLY:-bcsstk13,bcsstk33,cage8,cryg2500,fidapex6,watt_2,whitaker3,zenios,hangGlider_2,copter2}
for round in $(seq 1 ${ROUNDS:-2}); do
  for L in $([ "${BASE:-1}" = 1 ] && echo base) ${LOADERS:-1 4 2 8}; do
    rm -f $OUT/tmp.csv
    bin=$B/domino
    [ $L = base ] && bin=.carry/ab/base/b/domino
    set_l="DOMINO_LEVELBLOCK_LOADERS=$L"
    [ $L = rule ] && set_l="DOMINO_LEVELBLOCK_RULE=1" # the plan's own choice
    env $set_l DOMINO_TRSV_ONLY=$ONLY timeout 120 $bin bench --suite trsv \
      --engines auto,cusparse --csv $OUT/tmp.csv >> $OUT/loaders.txt 2>&1 || echo "loaders $L round $round: exit $?"
    [ -f $OUT/tmp.csv ] && tail -n +2 $OUT/tmp.csv | sed "s/^/L$L,$round,/" >> $OUT/loaders.csv
  done
done
[ -f $OUT/tmp.csv ] && head -1 $OUT/tmp.csv | sed "s/^/config,round,/" > $OUT/header.csv
cat $OUT/header.csv $OUT/loaders.csv > $OUT/loaders-all.csv && mv $OUT/loaders-all.csv $OUT/loaders.csv
rm -f $OUT/tmp.csv $OUT/header.csv
python3 - $OUT/loaders.csv <<'PY'
import csv, sys, statistics
rows = list(csv.DictReader(open(sys.argv[1])))
t = {}
for r in rows:
    if r["passed"] != "1": print("FAILED", r["config"], r["problem"], r["engine"])
    t.setdefault((r["problem"], r["engine"]), {}).setdefault(r["config"], []).append(float(r["solve_ms"]))
for (p, e), c in sorted(t.items()):
    base = statistics.median(c.get("Lbase", c.get("L1", [float("nan")])))
    cells = " ".join(f"{k} {statistics.median(v):.4f} ({base / statistics.median(v):.3f})" for k, v in sorted(c.items()))
    print(f"{p:22s} {e:9s} {cells}")
PY
if [ -n "${LABEL:-}" ]; then # every test of the label instead (3 at a time)
  TEST_JOBS=3 TEST_S=${TEST_S:-300} run_label_tests "$LABEL"
else
  TESTS="test_gpu_trsv_levelblock|test_gpu_trsv$" TEST_S=150 run_gpu_tests
fi
for L in ${TEST_LOADERS:-1 8}; do
  echo "== DOMINO_LEVELBLOCK_LOADERS=$L" >> $OUT/gpu-test.log
  ( cd $B && DOMINO_LEVELBLOCK_LOADERS=$L timeout 100 ctest -R test_gpu_trsv_levelblock --output-on-failure ) >> $OUT/gpu-test.log 2>&1
  echo "loaders $L: $(grep -E 'tests passed|tests failed' $OUT/gpu-test.log | tail -1)"
done
