#!/usr/bin/env bash
# x2-next21.sh: twenty-first session's device commands on a 2-GPU machine.
#   STEPS=test:   ctest -L "gpu|dist" (the dist tests on both GPUs) -> test.log:
#                 the first GPU run of the twentieth session's host paths
#                 (plan counts and LINKED links on host threads, the
#                 chunked Matrix Market reader, domino_host_threads)
#   STEPS=some:   the ctests matching TESTS (a regex) -> gpu-test.log
#                 (test-some.log in this session's runs)
#   STEPS=box:    issue 6, the D3N27 half of the precond suite for each of
#                 CONFIGS ("name:ENV=V,ENV=V ..."; default: table path, box
#                 path for ILU(0) at 3 and at 2 blocks an SM, box path with
#                 16 keys in flight) -> box-NAME.txt, csv.tgz
#   STEPS=traced: issue 3, the analysis and first solve traced by part
#                 (DOMINO_ANALYSIS_TRACE=1, DOMINO_SOLVE_TRACE=1) on ONLY
#                 (default D3N27,D3N7,D2N5 of the trsv suite) -> traced.txt
# DOMINO_BUILT=1 skips the build (same warm machine).
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
mkdir -p "$OUT/csv"
for step in ${STEPS:-test}; do
  t0=$(date +%s)
  case $step in
    test) TEST_S=${TEST_S:-470} run_label_tests "gpu|dist" ;;
    some) NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G} run_gpu_tests ;;
    box) CONFIGS=${CONFIGS:-"auto:DOMINO_FACTOR_POLL=64 table:DOMINO_FACTOR_BOX=0 box3:DOMINO_FACTOR_BOX=1 box2:DOMINO_FACTOR_BOX=1,DOMINO_FACTOR_BOX_BLOCKS=2 box16:DOMINO_FACTOR_BOX=1,DOMINO_FACTOR_BOX_LEVELS=16"}
         for c in $CONFIGS; do
           name=${c%%:*}; envs=${c#*:}
           env $(echo $envs | tr ',' ' ') DOMINO_PRECOND_ONLY=${BOX_ONLY:-D3N27} timeout ${BOX_S:-120} $B/domino bench \
             --suite precond --csv "$OUT/csv/box-$name.csv" > "$OUT/box-$name.txt" 2>&1
           echo "== $name ($envs) exit $?"; grep -E "ic0|ilu0" "$OUT/box-$name.txt" | grep -v "^values\|^setup" | head -6 | cut -c1-100
         done ;;
    traced) DOMINO_ANALYSIS_TRACE=1 DOMINO_SOLVE_TRACE=1 DOMINO_TRSV_ONLY=${ONLY:-"D3N27,D3N7,D2N5"} \
              timeout ${TRACED_S:-120} $B/domino bench --suite trsv --engines auto,cusparse \
              --csv "$OUT/csv/traced.csv" > "$OUT/traced.txt" 2>&1
            echo "traced exit $?"; grep -vE "^  " "$OUT/traced.txt" | tail -30 ;;
  esac
  echo "$step: $(( $(date +%s) - t0 )) s"
done
( cd "$OUT" && [ -n "$(ls csv)" ] && tar czf csv-${STEPS// /-}.tgz csv ); rm -rf "$OUT/csv"
true
