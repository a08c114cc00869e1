#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CI step, hardening: a short differential fuzz run (after the
# harness self-test), the test suite under ASan+UBSan with clang and gcc,
# under valgrind, static analysis and formatting, and the aarch64 cross-build under qemu.
# About 7-9 minutes on the 2-core machine.  Installs what a fresh Debian 12
# machine lacks; the make targets themselves install nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/install-missing.sh
install_missing clang libclang-rt-14-dev valgrind cppcheck clang-tidy clang-format file \
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user

run() {
    echo "=== hardening: make $*"
    local t0=$SECONDS
    make --no-print-directory WERROR=1 "$@"
    echo "=== hardening: make $1 took $((SECONDS - t0)) s"
}

run fuzz-selftest FUZZ_SELFTEST_TIME=30
# libFuzzer logs every new input: keep the log, show its end (all of it
# on failure).  The second run lowers memset's rep-stosb and non-temporal
# thresholds into the fuzzer's length range (64 KiB at most).
fuzz_log=$(mktemp)
fuzz() {
    if ! run fuzz "$@" >"$fuzz_log" 2>&1; then
        cat "$fuzz_log"
        exit 1
    fi
    grep -E '^(=== |memlane-fuzz)|INITED|DONE|^Done' "$fuzz_log"
}
fuzz FUZZ_TIME="${FUZZ_TIME:-60}"
MEMLANE_REP_STOSB_THRESHOLD=1K MEMLANE_NT_THRESHOLD=8K fuzz FUZZ_TIME=20 FUZZ_ONLY=memset
# The IFUNC-bound entry points, without sanitizers (guard pages), lengths
# up to 4 MiB, memset's thresholds low so every memset path runs.
fuzz_ifunc() {
    if ! run fuzz-ifunc "$@" >"$fuzz_log" 2>&1; then
        cat "$fuzz_log"
        exit 1
    fi
    grep -E '^(=== |memlane-fuzz)|INITED|DONE|^Done' "$fuzz_log"
}
MEMLANE_REP_STOSB_THRESHOLD=1K MEMLANE_NT_THRESHOLD=8K fuzz_ifunc FUZZ_TIME=30
rm -f "$fuzz_log"
run sanitize
run memcheck
run lint -j2
run format-check
run cross-test
echo "=== hardening: all passed"
