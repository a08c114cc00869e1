#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# cross-test.sh BUILD NM RUN N: the portable library built for another
# architecture (`make cross-test`), in BUILD, run under the emulator
# command RUN (for example "qemu-aarch64 -L /usr/aarch64-linux-gnu").
# The Makefile picks variants by `$(CC) -dumpmachine`, so only generic C
# is built: this checks that no x86 variant got in, and checks the
# dispatcher with --arch-probe for each MEMLANE_ARCH value (the suite's
# own MEMLANE_ARCH part re-executes /proc/self/exe, which qemu-user
# without binfmt_misc cannot do): all N public functions are generic, x86
# levels and bad names warn once on stderr.  The suite itself is run by
# the caller.
set -eu
build=$1 nm=$2 run=$3 nfunc=$4
bin=$build/memlane-test
file "$bin" | grep -q 'ARM aarch64' || { echo "cross-test: $bin is not aarch64"; exit 1; }
syms=$($nm "$build/libmemlane-internal.a")
if echo "$syms" | grep -E 'memlane_[a-z_]+_(sse2|avx2|avx512)$'; then
    echo "cross-test: x86 variants in the portable library"; exit 1
fi
echo "cross-test: variants built:" \
    $(echo "$syms" | grep -oE ' T memlane_[a-z_]+_generic$' | sed 's/ T //' | sort -u)
for arch in unset "" generic sse2 avx2 avx512 bogus; do
    if [ "$arch" = unset ]; then set -- env -u MEMLANE_ARCH; else set -- env MEMLANE_ARCH=$arch; fi
    # shellcheck disable=SC2086
    out=$("$@" $run "$bin" --arch-probe 2>"$build/probe.err") ||
        { echo "cross-test: --arch-probe failed (MEMLANE_ARCH=$arch): $out"; exit 1; }
    nerr=$(wc -l <"$build/probe.err")
    case "$arch" in unset|""|generic) want=0;; *) want=1;; esac
    if [ "$nerr" -ne $want ] || { [ $want = 1 ] && ! grep -q MEMLANE_ARCH "$build/probe.err"; }; then
        echo "cross-test: MEMLANE_ARCH=$arch: want $want warning line(s), got:"
        cat "$build/probe.err"; exit 1
    fi
    if [ "$(echo "$out" | grep -c ' generic$')" -ne "$nfunc" ] || ! echo "$out" | grep -q 'calls ok'; then
        echo "cross-test: MEMLANE_ARCH=$arch: dispatch wrong: $out"; exit 1
    fi
    echo "cross-test: MEMLANE_ARCH=$arch: all generic, $nerr warning line(s), calls ok"
done
