#!/usr/bin/env bash
# first22.sh: issue 3's first solve of the structured systems, one device
# command (one GPU): this tree (the tile order by counting, made during the
# analysis while the compact copy runs: domino_dstencil_prepare) against
# 0f93866 (unpacked in .carry/ab/base, built there beside this tree's build).
#   test: ctest -L gpu, 4 at a time (failures again alone) -> gpu-test.log
#   ab:   the trsv suite's D3N27, D3N7 and D2N5 systems, auto against
#         cusparse, new, base, new, base (one process each) ->
#         csv/{new,base}-<round>.csv, ab.txt (summarize_trsv.py's
#         analysis + first solve line, and each system's times)
# STEPS (default "test ab"); DOMINO_BUILT=1 skips both builds.
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-bench/results/raw}
mkdir -p "$OUT/csv"
source bench/ab-base-bg.sh
ab_base_start
source bench/device-start.sh
ab_base_wait
G=.carry/ab/base/b/domino
for step in ${STEPS:-test ab}; do
  t0=$(date +%s)
  case $step in
  test) TEST_JOBS=${TEST_JOBS:-4} TEST_S=${TEST_S:-300} ctest_jobs -L gpu > "$OUT/gpu-test.log" 2>&1
        grep -E "Test *#|tests passed|FAIL|Total Test|one at a time" "$OUT/gpu-test.log" | tail -20 ;;
  ab) for round in 1 2; do
        for side in new base; do
          bin=$B/domino; [ $side = base ] && bin=$G
          DOMINO_TRSV_ONLY=${ONLY:-D3N27,D3N7,D2N5} timeout 120 $bin bench --suite trsv --engines auto,cusparse \
            --csv "$OUT/csv/$side-$round.csv" > /dev/null 2>&1
          echo "== $side round $round: exit $?" | tee -a "$OUT/ab.txt"
          python3 bench/summarize_trsv.py "$OUT/csv/$side-$round.csv" auto 4200 | grep -i "analysis" | tee -a "$OUT/ab.txt"
          python3 - "$OUT/csv/$side-$round.csv" <<'PY' | tee -a "$OUT/ab.txt"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    if r["engine"].startswith("auto"):
        print("%-22s analysis %.3f first %.3f solve %.3f ms" % (r["problem"], float(r["analysis_ms"]), float(r["first_solve_ms"]), float(r["solve_ms"])))
PY
        done
      done ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
tar czf "$OUT/csv.tgz" -C "$OUT" csv && rm -rf "$OUT/csv"
true
