#!/usr/bin/env bash
# session33.sh: the thirty-third session's closing device command (1 GPU):
# every target built, every gpu ctest (3 at a time, test.log), then the
# whole stencil suite (CSR and compact input against cusparseSpSV, tuned,
# each problem in its own process; stencil.csv/.txt/-tune.log), summarized
# (stencil-summary.txt).
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
bash bench/session32-d.sh tests
DOMINO_BUILT=1 bash bench/session32-d.sh suite
