#!/usr/bin/env bash
# x4-auto13.sh: the thirteenth session's device commands (nvidia-h200-x4).
#  test   build; test_dist_trsv (its 14th scheme the library's defaults,
#         AUTO), test_dist_trsv_mpirun and cli_solve_dist (auto taking
#         linked on a DAG of 500 rows a level, taskpool on one of 10^4)
#         on 4 PEs -> test.log; about 3 minutes
#  auto   the pull solver: the level-tied pool, LINKED and AUTO beside
#         domino's single GPU, 4 then 2 PEs -> auto-p4.csv, auto-p2.csv;
#         about 2 minutes
#  suite  issue 3's whole trsv suite (43 problems) with every single-GPU
#         engine (auto, levelset, warp, thread, csc) and cusparseSpSV, one
#         process a problem, the problems dealt over the 4 GPUs (each
#         problem's engines on one GPU, so every ratio is of one process)
#         -> suite-trsv.csv (+ suite-trsv.txt); about 5 minutes
# STEPS picks them (default "test auto"); then STEPS=suite on the warm
# machine (the build is kept).  The CSVs come back in csv.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
SUITE=(.carry/matrices/*.mtx)
# the heavy problems first, so that dealing them in turn spreads them
SUITE=(dag:10000000:8:100000 dag:10000000:8:10000 dag:10000000:8:1000 dag:10000000:8:100
  dag:10000000:8:10 dag:10000000:8:1 rmat:22 d3n27:192 dag:1000000:2:1000000 dag:1000000:8:100000
  dag:1000000:8:100000:100 rmat:21 d2n5:2048x2048 d3n7:192 dag:1000000:8:10000 rmat:20
  d3n27:128 d3n7:128 d2n5:1024x1024 dag:1000000:8:1000 dag:1000000:8:100 dag:1000000:8:10
  dag:1000000:8:1 "${SUITE[@]}")
for step in ${STEPS:-test auto}; do
  case $step in
    test) ( cd $B && timeout ${TEST_S:-240} ctest -R "test_dist_trsv|cli_solve_dist" --timeout 150 \
              --output-on-failure ) > "$OUT/test.log" 2>&1
          grep -E "Test *#|tests passed|FAIL|Total Test" "$OUT/test.log" ;;
    auto) for p in 4 2; do
            run_suite trsv-dist auto-p$p $p ${AUTO_S:-100} --repeat 5 \
              --problem dag:10000000:8:10000,rmat:22,dag:10000000:8:100,dag:10000000:8:10 \
              --engines domino-1gpu,pull-tied-level-copies,pull-linked-level-copies,pull-auto
          done ;;
    suite) for g in 0 1 2 3; do
             list=()
             for ((k = g; k < ${#SUITE[@]}; k += 4)); do list+=("${SUITE[$k]}"); done
             ( export CUDA_VISIBLE_DEVICES=$g OUT=$OUT/g$g DOMINO_BUILT=1 TAG=trsv PER_PROBLEM_S=150 \
                 ENGINES=auto,levelset,warp,thread,csc,cusparse
               mkdir -p "$OUT"
               timeout ${SUITE_S:-470} bash bench/gpu-run.sh none "${list[@]}" > "$OUT/run.txt" 2>&1 ) &
           done
           wait
           head -1 "$OUT/g0/trsv.csv" > "$OUT/suite-trsv.csv"
           for g in 0 1 2 3; do
             tail -n +2 "$OUT/g$g/trsv.csv" >> "$OUT/suite-trsv.csv"
             cat "$OUT/g$g/trsv.txt" >> "$OUT/suite-trsv.txt"
           done
           rm -rf "$OUT"/g?
           echo "suite: $(( $(wc -l < "$OUT/suite-trsv.csv") - 1 )) rows"
           grep -c ",ok$" "$OUT/suite-trsv.csv" ;;
  esac
done
( cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv )
