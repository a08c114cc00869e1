#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CI step: install and use.  `make test` has already run the
# install tests (tests/install/run.sh) with gcc and clang; they skip what
# needs pkg-config, groff, mandoc, cmake, gnuplot or the system's man pages
# when those are missing.  Here:
#  1. install pkgconf, groff-base, mandoc, cmake, gnuplot-nox, man-db and
#     manpages-dev if missing, and then rerun the tests with every tool
#     required;
#  2. on a CI machine (CI=true, root, no memlane in /usr/local yet), a real
#     `make install` into /usr/local: a program built with plain
#     `pkg-config --cflags --libs memlane` runs with no LD_LIBRARY_PATH,
#     so do the CMake consumer's (find_package(memlane) with no hint),
#     man finds the pages, the drop-in runs a program, and
#     `make uninstall` leaves no memlane file behind.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/install-missing.sh
install_missing pkgconf groff-base mandoc cmake gnuplot-nox man-db manpages-dev
if [ -n "$INSTALLED" ]; then
    make -j2 WERROR=1 BUILD=build-ci-install MEMLANE_REQUIRE_TOOLS=1 test-install
fi

if [ "${CI:-}" != true ] || [ "$(id -u)" != 0 ]; then
    echo "system install check: only on CI as root; skipped"
    exit 0
fi
if compgen -G '/usr/local/lib/libmemlane*' >/dev/null ||
   [ -e /usr/local/include/memlane.h ]; then
    echo "system install check: memlane already in /usr/local; skipped"
    exit 0
fi

B=build-ci-install
tmp=$(mktemp -d)
cleanup() {
    make --no-print-directory BUILD=$B uninstall >/dev/null 2>&1 || true
    ldconfig || true
    rm -rf "$tmp"
}
trap cleanup EXIT

make -j2 WERROR=1 BUILD=$B install
ldconfig
cc -O2 tests/install/consumer.c $(pkg-config --cflags --libs memlane) -o "$tmp/consumer"
"$tmp/consumer" | tee "$tmp/out"
grep -qx ok "$tmp/out"
grep -qx "memlane_memset from /usr/local/lib/libmemlane.so.$(make -s version)" "$tmp/out"
cmake -S tests/install/cmake -B "$tmp/cmake" >/dev/null
cmake --build "$tmp/cmake" >/dev/null
"$tmp/cmake/consumer-shared" > "$tmp/out"
grep -qx "memlane_memset from /usr/local/lib/libmemlane.so.$(make -s version)" "$tmp/out"
"$tmp/cmake/consumer-static" > "$tmp/out"
grep -qx ok "$tmp/out"
man -w memlane_timingsafe_memcmp
man -w 7 memlane
man -w 1 memlane-bench
seq 1 1000 | LD_PRELOAD=/usr/local/lib/libmemlane-preload.so sort -n | cmp - <(seq 1 1000)

make --no-print-directory BUILD=$B uninstall
ldconfig
left=$(find /usr/local -name '*memlane*' ! -type d)
if [ -n "$left" ]; then
    echo "left after uninstall:"; echo "$left"
    exit 1
fi
echo "system install check: passed"
