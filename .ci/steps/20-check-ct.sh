#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CI: the constant-time checks (docs/constant-time.md), `make check-ct`
# with gcc and clang at -O2 and -O3, and at -Os for the generic variants,
# each in its own build folder.  Needs valgrind (memcheck.h comes with the
# Debian package) and objdump (binutils).
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
dpkg -s valgrind >/dev/null 2>&1 || need+=(valgrind)
dpkg -s binutils >/dev/null 2>&1 || need+=(binutils)
command -v clang >/dev/null || need+=(clang)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update
    apt-get install -y "${need[@]}"
fi
[ -f /usr/include/valgrind/memcheck.h ] || { echo "valgrind/memcheck.h missing"; exit 1; }

start=$SECONDS
failed=
for cc in gcc clang; do
    for opt in O2 O3 Os; do
        build=build-ct-$cc-$opt
        only=
        [ $opt = Os ] && only=generic   # -Os is for the portable variant only
        echo "=== make check-ct, CC=$cc CFLAGS=-$opt${only:+ CT_VARIANTS=$only}"
        make -s clean BUILD=$build >/dev/null
        t0=$SECONDS
        CT_VARIANTS=$only make -s -j2 check-ct CC=$cc BUILD=$build CFLAGS="-$opt -g" WERROR=1 ||
            failed="$failed $cc-$opt"
        echo "=== $cc -$opt: $((SECONDS - t0)) s"
    done
done
echo "=== constant-time checks: $((SECONDS - start)) s${failed:+, FAILED:$failed}"
[ -z "$failed" ]
