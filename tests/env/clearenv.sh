#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# clearenv() then dlopen (issue 20): a program that emptied its environment
# and then loads libmemlane.so gets the defaults, silently, although the
# MEMLANE_* strings are still on its initial stack.  The control (same
# program, environment kept) must obey them, so the test can fail.
#   sh tests/env/clearenv.sh PROGRAM LIBRARY
set -u
prog=$1 lib=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NOENV="-u MEMLANE_ARCH -u MEMLANE_REP_STOSB_THRESHOLD -u MEMLANE_NT_THRESHOLD -u MEMLANE_CMP_PREFETCH"
HOSTILE="MEMLANE_ARCH=generic MEMLANE_NT_THRESHOLD=junk"
failed=0
# shellcheck disable=SC2086
env $NOENV "$prog" "$lib" >"$tmp/want" || { echo "clearenv: FAIL: reference run"; exit 1; }
# shellcheck disable=SC2086
env $NOENV $HOSTILE "$prog" "$lib" --keep-env >"$tmp/control" 2>"$tmp/control.err"
if ! grep -qx 'memset generic' "$tmp/control" || ! grep -q MEMLANE_NT_THRESHOLD "$tmp/control.err"; then
    echo "clearenv: FAIL: control: the variables did not apply with the environment kept"
    cat "$tmp/control" "$tmp/control.err"
    failed=1
fi
# shellcheck disable=SC2086
env $NOENV $HOSTILE "$prog" "$lib" >"$tmp/got" 2>"$tmp/got.err"
if [ -s "$tmp/got.err" ] || ! cmp -s "$tmp/want" "$tmp/got"; then
    echo "clearenv: FAIL: after clearenv the library still read the environment:"
    diff "$tmp/want" "$tmp/got"
    cat "$tmp/got.err"
    failed=1
fi
[ $failed = 0 ] && echo "clearenv: defaults after clearenv, variables obeyed without it"
exit $failed
