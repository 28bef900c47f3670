#!/usr/bin/env bash
# x4-linked13.sh: the next session's device commands (nvidia-h200-x4): the
# first GPU run of b9a1204 and after (compiled and CPU-tested only: the
# LINKED distribution, each component on the PE of a predecessor one level
# up while that PE's share of the level lasts; domino solve --dist).
#  test    build; ctest -L "gpu|dist" on 4 PEs -> test.log (test_dist_trsv
#          runs LINKED as its 13th scheme with every solver; cli_solve_dist
#          runs domino run -n 4 solve FILE --dist ...); about 7 minutes
#  linked  the pull solver, level-tied tasks (the default) against LINKED,
#          beside domino's single GPU, on the DAGs of 10-10^4 levels (and a
#          tiny one-level DAG: the fixed cost of a solve on N PEs), R-MAT
#          22 and D3N7 256^3, 4 PEs then 2 -> linked-p4.csv, linked-p2.csv.
#          The chain model (bench/results/dist-plan-linked) predicts the
#          100-level DAG at 2.2x one GPU on 4 PEs and 1.6x on 2, the
#          1000-level one at 1.4x, and the stencil slower; about 4 minutes
#  zc      zero-copy and UM with LINKED against um on the six problems, 4 PEs
#          -> zc-linked-p4.csv; about 3 minutes
# STEPS picks them: first "bash bench/x4-linked13.sh" (test), then
# "STEPS='linked zc' bash bench/x4-linked13.sh" on the warm machine (the
# build is kept); the CSVs come back in csv.tgz
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
DAGS=dag:40000:8:1,dag:10000000:8:10,dag:10000000:8:100,dag:10000000:8:1000,dag:10000000:8:10000
for step in ${STEPS:-test}; do
  case $step in
    test) TEST_S=${TEST_S:-480} run_label_tests "gpu|dist" ;;
    linked) for p in 4 2; do
              run_suite trsv-dist linked-p$p $p ${LINKED_S:-120} --problem $DAGS,rmat:22,d3n7:256 --repeat 5 \
                --engines domino-1gpu,pull-tied-level-copies,pull-linked-level-copies
            done ;;
    zc) run_suite trsv-dist zc-linked-p4 4 ${ZC_S:-170} --repeat 2 \
          --problem d3n27:192,rmat:20,dag:10000000:8:100,d3n7:256,dag:10000000:8:1000,rmat:22 \
          --engines um,um-linked-level,zerocopy-tasks8-level,zerocopy-linked-level ;;
  esac
done
( cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv )
