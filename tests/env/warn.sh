#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Warnings with hostile values (issue 20): a MEMLANE_* value with a
# newline, an escape sequence or 100 KB gives exactly one short line on
# stderr, its bytes escaped (\n, \x1b) and cut, written with one write(2)
# (counted with strace where it is installed).
#   sh tests/env/warn.sh PROGRAM [ARGS...]
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NOENV="-u MEMLANE_ARCH -u MEMLANE_REP_STOSB_THRESHOLD -u MEMLANE_NT_THRESHOLD -u MEMLANE_CMP_PREFETCH"
MAXLEN=200 # bytes of the whole line, newline included
nl='
'
esc=$(printf '\033')
big=$(head -c 100000 /dev/zero | tr '\0' A)
strace_ok=
if command -v strace >/dev/null 2>&1 && strace -qq -e trace=none true 2>/dev/null; then
    strace_ok=1
else
    echo "warn: strace missing or not permitted: write(2) calls not counted"
fi
passed=0 failed=0

# one NAME VAR VALUE EXPECT: the warning for VAR=VALUE is one line of at
# most MAXLEN bytes with no control byte, containing EXPECT (fixed string).
one() {
    name=$1 var=$2 value=$3 expect=$4
    shift 4
    # shellcheck disable=SC2086
    env $NOENV "$var=$value" "$@" >/dev/null 2>"$tmp/err"
    lines=$(wc -l <"$tmp/err") bytes=$(wc -c <"$tmp/err")
    why=
    if [ "$lines" -ne 1 ]; then why="$lines lines"
    elif [ "$bytes" -gt $MAXLEN ]; then why="$bytes bytes"
    elif LC_ALL=C tr -d '\n' <"$tmp/err" | LC_ALL=C grep -q '[[:cntrl:]]'; then why="a raw control byte"
    elif ! grep -qF -- "$expect" "$tmp/err"; then why="no '$expect'"
    elif [ -n "$strace_ok" ]; then
        # shellcheck disable=SC2086
        env $NOENV "$var=$value" strace -f -qq -e trace=write -e signal=none \
            -o "$tmp/trace" "$@" >/dev/null 2>/dev/null
        writes=$(grep -c 'write(2,' "$tmp/trace")
        [ "$writes" -eq 1 ] || why="$writes write(2) calls to stderr"
    fi
    if [ -z "$why" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf "warn: FAIL %s: %s:\n" "$name" "$why"
        head -c 600 "$tmp/err" | od -c | head -8
    fi
}

one arch-newline MEMLANE_ARCH "avx2${nl}memlane: forged line" 'avx2\nmemlane: forged line' "$@"
one arch-escape MEMLANE_ARCH "${esc}[31mred${esc}[0m" '\x1b[31mred\x1b[0m' "$@"
one arch-100k MEMLANE_ARCH "$big" 'AAAA...' "$@"
one arch-quote MEMLANE_ARCH 'a"b\c' 'a\"b\\c' "$@"
one nt-newline MEMLANE_NT_THRESHOLD "1${nl}memlane: forged" '1\nmemlane: forged' "$@"
one rep-100k MEMLANE_REP_STOSB_THRESHOLD "$big" 'AAAA...' "$@"
echo "warn: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
