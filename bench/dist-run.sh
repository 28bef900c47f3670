#!/usr/bin/env bash
# dist-run.sh: what one multi-GPU device session runs: the build, the
# dist-labelled tests (forked PEs and mpirun), then the trsv-dist suite on
# all the GPUs of the machine.
#   bench/dist-run.sh test [BENCH OPTIONS...]   tests, then the suite with the options
#   bench/dist-run.sh none [BENCH OPTIONS...]   the suite only
#   bench/dist-run.sh test skip                 tests only
# Environment: PES (default: every GPU), TAG (file names, default trsv-dist),
# BENCH_S (time limit of the suite, default 500).
# Results: $OUT (device tool) or bench/results/raw: TAG.csv, TAG.txt, dist-test.log.
set -uo pipefail
source "$(dirname "$0")/device-build.sh"
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-4G}
what=${1:-test}
shift || true
if [ "$what" = test ]; then
  ( cd $B && timeout 240 ctest -L dist -V --timeout ${TEST_S:-90} ) > "$OUT/dist-test.log" 2>&1
  grep -E "passed|failed|skipped|tests passed|FAIL|Test *#" "$OUT/dist-test.log" | tail -30
fi
[ "${1:-}" = skip ] && exit 0
PES=${PES:-$(nvidia-smi -L | wc -l)}
T=${TAG:-trsv-dist}
echo "# $B/domino run -n $PES bench --suite trsv-dist $* --csv $T.csv ; $(date -u +%FT%TZ) ; $(head -2 "$OUT/device.txt" | tail -1)" > "$OUT/$T.txt"
timeout ${BENCH_S:-500} $B/domino run -n $PES bench --suite trsv-dist "$@" --csv "$OUT/$T.csv" 2>&1 | tee -a "$OUT/$T.txt"
echo "exit ${PIPESTATUS[0]}" | tee -a "$OUT/$T.txt"
