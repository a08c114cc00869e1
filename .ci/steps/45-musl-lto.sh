#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CI step (docs/musl.md): musl, static executables, LTO.
#  1. make test with musl-gcc (Debian's musl-tools; the musl package has
#     the dynamic loader), warnings as errors;
#  2. on musl the dispatch is the function-pointer path: the suite again
#     under each MEMLANE_ARCH level the CPU has, dynamically linked, and
#     once in the static and static-pie executables;
#  3. make test-lto: the whole suite with -flto, gcc (gcc-ar) and clang
#     (lld, llvm-ar), the code checked as linked (check-nolibcall).
# About 6 minutes on the 2-core machine (368 s on 2026-12-01).
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/install-missing.sh
install_missing musl musl-tools musl-dev lld llvm clang binutils

start=$SECONDS
part() { echo "=== musl-lto: $1 took $((SECONDS - t0)) s"; }

B=build-ci-musl
t0=$SECONDS
echo "=== musl-lto: make test, CC=musl-gcc ($(/lib/ld-musl-x86_64.so.1 2>&1 | sed -n 's/^Version //p' || true))"
make -s clean BUILD=$B
make -j2 CC=musl-gcc WERROR=1 BUILD=$B test
part "make test (musl)"

t0=$SECONDS
# The levels this CPU has, from the suite's own header line.
cpu_level=$($B/memlane-test no-such-function | sed -n 's/.*CPU level \([a-z0-9]*\),.*/\1/p')
levels=generic
case $cpu_level in
sse2) levels="generic sse2" ;;
avx2) levels="generic sse2 avx2" ;;
avx512) levels="generic sse2 avx2 avx512" ;;
esac
suite() { # label command...: the whole suite; its last line, or its failures
    local out
    out=$("${@:2}" 2>&1) || { echo "--- $1: FAILED"; echo "$out" | grep -v '^ok\|^[a-z_]*/[a-z0-9]*$'; exit 1; }
    echo "--- $1: $(echo "$out" | tail -1)"
}
for level in $levels; do
    suite "MEMLANE_ARCH=$level, dynamic" env MEMLANE_ARCH=$level $B/memlane-test
done
suite "static" $B/memlane-test-static
suite "static-pie" $B/memlane-test-static-pie
part "the suite per level and static (musl)"

t0=$SECONDS
make -j2 WERROR=1 test-lto
part "make test-lto (gcc, clang)"
echo "=== musl-lto: all passed in $((SECONDS - start)) s"
