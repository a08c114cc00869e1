#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The constant-time checks over a matrix of build flags (mk/check-ct.mk):
#   matrix.sh insn DIR CT_LIST   check 1 only: each configuration compiles
#                                the timing-safe objects and the leaky
#                                controls, with CT_LIST (another build's
#                                ct-list) naming the targets
#   matrix.sh all DIR            `make check-ct` (all four checks) each
# Configurations: CT_MATRIX_CCS x CT_MATRIX_OPTS x CT_MATRIX_ARCHS, where
# an arch is default (no -march), native, hardened (Debian's hardening
# flags: -fstack-protector-strong -fcf-protection -D_FORTIFY_SOURCE=2
# -fPIE) or a -march value.  One line per configuration; any failure, or
# a compiler that is not installed, fails the whole run.
set -u
mode=$1 dir=$2 list=${3:-}
: "${MAKE:=make}" "${WERROR:=}" "${CT_MATRIX_CCS:=gcc clang}"
: "${CT_MATRIX_OPTS:=-O2 -O3 -Os}" "${CT_MATRIX_ARCHS:=default native}"
mkdir -p "$dir"
start=$(date +%s)
n=0 failed=
for cc in $CT_MATRIX_CCS; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "check-ct-matrix: FAIL $cc: not installed"
        failed="$failed $cc"
        continue
    fi
    for opt in $CT_MATRIX_OPTS; do
        for arch in $CT_MATRIX_ARCHS; do
            case $arch in
            default) flags= ;;
            hardened) flags="-fstack-protector-strong -fcf-protection -D_FORTIFY_SOURCE=2 -fPIE" ;;
            *) flags=-march=$arch ;;
            esac
            name=$cc$opt-$arch
            build=$dir/$name
            log=$build.log
            t0=$(date +%s)
            if [ "$mode" = insn ]; then
                set -- check-ct-insn CT_INSN_LIST="$list" CT_INSN_LIB="$build/ct/timingsafe.a"
            else
                set -- check-ct
            fi
            if $MAKE --no-print-directory -s -j2 BUILD="$build" CC="$cc" \
                CFLAGS="$opt -g $flags" WERROR="$WERROR" "$@" >"$log" 2>&1; then
                verdict=ok
            else
                verdict=FAIL
                failed="$failed $name"
            fi
            n=$((n + 1))
            echo "check-ct-matrix: $verdict $cc $opt $flags ($mode, $(($(date +%s) - t0)) s)"
            if [ $verdict = FAIL ]; then
                grep -E 'FAIL|rror' "$log" | head -n 12 | sed 's/^/    /'
                echo "    (all of it: $log)"
            fi
        done
    done
done
echo "check-ct-matrix ($mode): $n configurations in $(($(date +%s) - start)) s${failed:+, FAILED:$failed}"
[ -z "$failed" ]
