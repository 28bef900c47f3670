#!/usr/bin/env bash
# run-libfuzzer.sh SECONDS: build the Matrix Market reader's fuzzer with clang
# (libFuzzer + AddressSanitizer + UndefinedBehaviorSanitizer) into build-fuzz/
# and run it for SECONDS on a copy of tests/fuzz/corpus.  Exits non-zero when
# the fuzzer finds a crash (the reproducer is left in build-fuzz/).
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/build-fuzz"
cc="${CC_FUZZ:-clang}"
mkdir -p "$out/corpus"
cp "$root"/tests/fuzz/corpus/* "$out/corpus/"
sources=("$root"/src/core/*.c "$root"/src/matrix/*.c "$root"/src/io/*.c "$root"/src/cuda/no_cuda.c
         "$root"/tests/fuzz/fuzz_mm_read.c)
echo "building $out/fuzz_mm_read with $cc"
"$cc" -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$root/include" -I"$root/src/core" -I"$root/src" \
    "${sources[@]}" -o "$out/fuzz_mm_read" -lz -lm -lpthread
cd "$out"
echo "fuzzing for $seconds s"
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
./fuzz_mm_read -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -max_len=4096 -print_final_stats=1 "$out/corpus"
