# device-start.sh: sourced first, from the repository root, by the device
# scripts (bench/x4-*.sh): builds (bench/device-build.sh; its log in
# /tmp/domino-build.log, the build's time and any error printed), gives
# NVSHMEM a 16G symmetric heap unless set, and defines run_suite
# (bench/suite-log.sh)
source bench/device-build.sh > /tmp/domino-build.log 2>&1
grep -E "^build|error" /tmp/domino-build.log | head -20
export NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-16G}
source bench/suite-log.sh
