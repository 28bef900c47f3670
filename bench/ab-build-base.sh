#!/usr/bin/env bash
# ab-build-base.sh [DIR]: builds the CLI of the tree unpacked in DIR
# (default .carry/ab/base: git archive COMMIT | tar -x -C .carry/ab/base;
# any .carry/ab/NAME) into DIR/b, for the A/B sessions
# (one-launch-session.sh, triangle-ab-session.sh, detect-ab-session.sh,
# ab-base-bg.sh), which run it in the background beside their own build;
# zlib headers from .carry/zlib where the machine has none.
cd "${1:-.carry/ab/base}" || exit 1
Z=""
[ -f /usr/include/zlib.h ] || Z="-DZLIB_INCLUDE_DIR=$(pwd)/../../zlib -DZLIB_LIBRARY=$(ls /usr/lib/x86_64-linux-gnu/libz.so* /lib/x86_64-linux-gnu/libz.so* 2>/dev/null | head -1)"
cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DDOMINO_SHARED_MATRICES=$(pwd)/../../matrices $Z > /dev/null 2>&1
cmake --build b -j ${JOBS:-6} --target domino_cli 2>&1 | grep -E "error|Built target domino_cli"
