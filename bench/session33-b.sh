#!/usr/bin/env bash
# session33-b.sh: issue 4's closing run (1 GPU, one command): build, then the
# whole stencil suite (D3N7/13/27/33 at 64^3-256^3, lower and upper), each
# problem in its own process with --tune, every variant in the same process:
# CSR input, compact input, the paper's ablation (partition only, + multistage,
# + state compression), auto, cusparseSpSV and the general thread engine;
# summarized (stencil-summary.txt, stencil-bandwidth.dat).
set -uo pipefail
export NVSHMEM_DISABLE_NVLS=1
DOMINO_TARGETS=" " TEST=0 TAG=stencil PER_PROBLEM_S=${PER_PROBLEM_S:-40} \
  ENGINES=stencil,stencil-compact,stencil-partition,stencil-multistage,stencil-compressed,auto,cusparse,thread \
  timeout ${SUITE_S:-520} bash bench/stencil-run.sh suite > $OUT/run.log 2>&1
python3 bench/summarize_stencil.py $OUT/stencil.csv > $OUT/stencil-summary.txt 2>&1
tail -36 $OUT/stencil-summary.txt
echo "problems that did not finish: $(grep -c "exit" $OUT/stencil.txt)"
