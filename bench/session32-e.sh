#!/usr/bin/env bash
# session32-e.sh: the thirty-second session's last device command (1 GPU):
# the working tree (the queue kernel's FORM_CSR: a CSR row read by offset
# into the compact form's slots, the compact form's gather; irregular rows
# solved again by FORM_CSR_WALK) against HEAD in .carry/ab/base, tuned, on
# D3N13 and D3N7 from CSR, with test_gpu_stencil first
# (stencil-ab-session.sh: ab.csv, tune.log, gpu-test.log).
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
TESTS=test_gpu_stencil DOMINO_TARGETS=test_gpu_stencil CONFIGS=" " RUN_S=40 REPEAT=10 \
  PROBLEMS=${PROBLEMS:-"d3n13:128 d3n13:256 d3n7:256 d3n13:192"} bash bench/stencil-ab-session.sh
cut -d, -f1,2,9,11,14,15 $OUT/ab.csv | grep -v compact
