#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CI: the constant-time checks (docs/constant-time.md).  Check 1 (the
# instruction allow-list, seconds per build) over the whole flag matrix,
# `make check-ct-insn-matrix`: gcc and clang x -O2/-O3/-Os x default,
# -march=x86-64-v2/v3/v4, -march=native and Debian's hardening flags.
# All four checks (`make check-ct`: the trace, taint and timing checks are
# the slow ones) with gcc and clang at the default flags, and checks 1, 2
# and 4 with one -march=native build.  `make check-ct-matrix` runs all four over the
# whole matrix (not here: hours of dudect).  Needs valgrind (memcheck.h
# comes with the Debian package) and objdump (binutils).
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/install-missing.sh
install_missing valgrind binutils clang
[ -f /usr/include/valgrind/memcheck.h ] || { echo "valgrind/memcheck.h missing"; exit 1; }

start=$SECONDS
failed=
t0=$SECONDS
make -s -j2 WERROR=1 check-ct-insn-matrix || failed="$failed insn-matrix"
echo "=== check 1 over the flag matrix: $((SECONDS - t0)) s"
rm -rf build-ct-matrix

# The -march=native build leaves out check 3: valgrind 3.19 cannot run
# AVX-512 code, which -march=native puts all over the test program and
# the rest of the library on an AVX-512 machine (SIGILL).
for config in "gcc -O2" "clang -O2" "clang -O2 -march=native"; do
    set -- $config
    cc=$1
    shift
    build=build-ct-$cc$(printf '%s' "$*" | tr -c 'A-Za-z0-9-' _)
    checks="insn trace taint dudect"
    case "$*" in *-march=native*) checks="insn trace dudect" ;; esac
    echo "=== make check-ct CT_CHECKS='$checks', CC=$cc CFLAGS=$* -g"
    make -s clean BUILD="$build" >/dev/null
    t0=$SECONDS
    make -s -j2 check-ct CT_CHECKS="$checks" CC="$cc" BUILD="$build" CFLAGS="$* -g" WERROR=1 ||
        failed="$failed $cc$*"
    echo "=== $cc $*: $((SECONDS - t0)) s"
    rm -rf "$build"
done
echo "=== constant-time checks: $((SECONDS - start)) s${failed:+, FAILED:$failed}"
[ -z "$failed" ]
