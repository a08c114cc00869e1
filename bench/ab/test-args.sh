#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ab's arguments and environment: values it must refuse (exit 2, one line
# on stderr naming ab) and a few it must take.  Run by `make test` after
# run.sh has built OUTDIR/ab and OUTDIR/libab0.so (AB_RUN=true).
#   test-args.sh OUTDIR
set -u
out=$1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $*"; }

# refused DATA [VAR=VALUE]: exit 2, one line on stderr starting "ab: ".
refused() {
    data=$1; shift
    env "$@" "$out/ab" "$out/libab0.so" memcmp fixed:0:16 "$data" libc >/dev/null 2>"$out/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && grep -q '^ab: ' "$out/err"; then ok; else
        no "ab took DATA '$data' $* (exit $rc)"; fi
}
for d in mismatch/101 mismatch/x mismatch/ mismatch: mismatch:/50 mismatch:x \
    mismatch:9-3 mismatch5 equal/5 sometimes; do
    refused "$d"
done
refused equal AB_CALLER=maybe
refused mismatch AB_DRAWS=mine
refused equal AB_WARM=all

# taken DATA [VAR=VALUE]: runs (one row of 16 B; only its exit and row are checked).
taken() {
    data=$1; shift
    if env "$@" "$out/ab" "$out/libab0.so" memcmp fixed:0:16 "$data" libc >"$out/err" 2>&1 &&
        grep -q '^16 ' "$out/err"; then ok; else no "ab refused DATA '$data' $*"; fi
}
taken mismatch
taken mismatch/25
taken mismatch:5/50
taken mismatch:3-9/0 AB_CALLER=branch
taken equal AB_CALLER=sum
taken mismatch AB_DRAWS=own
taken equal AB_WARM=sizes

echo "ab arguments: $pass passed, $fail failed"
[ $fail -eq 0 ]
