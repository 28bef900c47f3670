#!/usr/bin/env bash
# trsv-check8.sh: one device command (one GPU, about 3 minutes): the first
# GPU run of AUTO's cheaper analysis (the pattern downloaded through the
# handle's pinned staging buffer, the level count with a register
# accumulator, the stencil detection's samples through the same buffer):
#  1. build; test_gpu_trsv, _levelblock, test_gpu_stencil, test_gpu_precond
#     -> gpu-test.log;
#  2. the shared matrices with auto, thread and cusparse, the analysis
#     phases traced (DOMINO_ANALYSIS_TRACE=1, DOMINO_LEVELBLOCK_TRACE=1)
#     -> small.csv / small.txt (compare bench/results/h200-check7/trace.txt:
#     AUTO's analysis 0.20-1.06 ms on the small systems it gives the
#     thread engine, of which the download 0.04-0.30 ms and the count
#     0.02-0.60 ms).
# Its run: bench/results/h200-check8.  Run it again for the commits after
# it (compiled only then): the level order's one branchy pass less, and the
# pattern downloaded once for both the stencil detection's samples and the
# level count (AUTO's "stencil detection" phase on the small systems should
# drop from 0.03-0.12 ms to about 0, the download now a phase of its own,
# ~0.01-0.04 ms; compare h200-check8/small.txt), and test_gpu_stencil's
# AUTO cases with one right-hand side (they take that path).
set -uo pipefail
cd "$(dirname "$0")/.."
export NVSHMEM_DISABLE_NVLS=1 DOMINO_LEVELBLOCK_TRACE=1 DOMINO_ANALYSIS_TRACE=1
T="test_gpu_trsv test_gpu_trsv_levelblock test_gpu_stencil test_gpu_precond"
TARGETS="$T" TESTS='test_gpu_trsv$|test_gpu_trsv_levelblock|test_gpu_stencil|test_gpu_precond' TEST_S=150 \
  ENGINES=auto,thread,cusparse SUITE_S=150 PER_PROBLEM_S=30 SWEEP=0 DEEP="d3n7:32" TAG=small bash bench/trsv-session.sh
