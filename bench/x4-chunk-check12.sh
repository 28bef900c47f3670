#!/usr/bin/env bash
# x4-chunk-check12.sh: the CSC push in rounds of 32 as the default
# (DOMINO_PUSH_CHUNK_DEFAULT; nvidia-h200-x4, about 8 minutes):
#  1. the tests of the kernels it touches at the new default -> test.log
#  2. issue 5's comparison on 2 PEs and issue 7's on 4, the six large
#     problems, every UM and zero-copy configuration that earlier tables had
#     -> six-p2.csv, six-p4.csv (tables.txt)
set -uo pipefail
cd "$(dirname "$0")/.."
source bench/device-start.sh
( cd $B && timeout 200 ctest -R "test_gpu_trsv$|test_gpu_precond|test_dist_trsv" --timeout 150 \
    --output-on-failure ) > "$OUT/test.log" 2>&1
grep -E "Test *#|tests passed|FAIL" "$OUT/test.log" | tail -5
SIX=d3n27:192,rmat:20,dag:10000000:8:100,d3n7:256,dag:10000000:8:1000,rmat:22
run_suite trsv-dist six-p2 2 ${P2_S:-200} --problem $SIX --repeat 2 \
  --engines um,um-plain,um-tasks8-level,zerocopy-tasks8,zerocopy-tasks64,zerocopy-tied,zerocopy-tasks8-level
run_suite trsv-dist six-p4 4 ${P4_S:-200} --problem $SIX --repeat 2 \
  --engines um,um-plain,um-tasks8-level,zerocopy-tasks8,zerocopy-tasks64,zerocopy-tied,zerocopy-tasks8-level
( cd "$OUT" && tar czf csv.tgz *.csv && rm -f *.csv )
