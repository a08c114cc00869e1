#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Tests of the recorder, libmemlane-trace.so (run by `make test-trace`,
# part of `make test`):
#   profile   a program whose calls are known exactly (tests/trace/
#             synthetic.c: sizes, alignments, first differences, 4
#             threads, a forked child) writes expected-parent.txt, its
#             child expected-child.txt, field by field
#   positions the first difference at every offset of memcmp calls of
#             every size to 256, as counted here
#   real      GNU sort on five lines: the sizes and first differences of its
#             memcmp calls
#   endings   exit writes a profile; _exit and SIGSEGV write none, and
#             never a partial file or a left-over temporary
#   off       without MEMLANE_TRACE nothing is written; an unwritable
#             place gives one line on stderr, the program is unaffected
#   code      the same exports as the drop-in, no call to its own names
# Environment: TRACE_SO PRELOAD_SO SYNTH LIBC (set by mk/trace.mk).
set -u
: "${TRACE_SO:=build/libmemlane-trace.so}" "${PRELOAD_SO:=build/libmemlane-preload.so}"
: "${SYNTH:=build/trace-synthetic}"
TRACE_SO=$(cd "$(dirname "$TRACE_SO")" && pwd)/$(basename "$TRACE_SO")
SYNTH=$(cd "$(dirname "$SYNTH")" && pwd)/$(basename "$SYNTH")
here=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/common.sh"

# traced DIR ARGS...: the synthetic program under the recorder, profiles
# to DIR/p.<pid>; its stdout in DIR/out, stderr in DIR/err.
traced() {
    dir=$1
    shift
    mkdir -p "$dir"
    MEMLANE_TRACE=$dir/p LD_PRELOAD=$TRACE_SO "$SYNTH" "$@" >"$dir/out" 2>"$dir/err"
}

# same_profile EXPECTED FILE PID: FILE is EXPECTED (less its licence
# line) with pid PID.
same_profile() {
    sed '1d; s/^pid PID$/pid '"$3"'/' "$1" >"$T/want"
    diff "$T/want" "$2"
}

t_profile() {
    traced "$T/a" || { cat "$T/a/err"; return 1; }
    read -r parent child <"$T/a/out" || return 1
    [ -s "$T/a/err" ] && { cat "$T/a/err"; return 1; }
    files=$(cd "$T/a" && ls | grep -v '^out$\|^err$' | sort | tr '\n' ' ')
    want=$(printf 'p.%s\np.%s\n' "$parent" "$child" | sort | tr '\n' ' ')
    [ "$files" = "$want" ] || { echo "files: $files, want: $want"; return 1; }
    same_profile "$here/expected-parent.txt" "$T/a/p.$parent" "$parent" &&
        same_profile "$here/expected-child.txt" "$T/a/p.$child" "$child"
}

# The test itself fails when a count is off (a profile with one count
# changed must not compare equal).
t_profile_can_fail() {
    parent=$(cut -d' ' -f1 "$T/a/out")
    sed 's/^size memset 100 5$/size memset 100 4/' "$T/a/p.$parent" >"$T/changed"
    ! same_profile "$here/expected-parent.txt" "$T/changed" "$parent" >/dev/null
}

# Where the first difference is found: memcmp of every size 1..256
# differing at every offset (synthetic.c positions); the diff-at,
# diff-rel and differ records, computed here.
t_positions() {
    traced "$T/pos" positions || { cat "$T/pos/err"; return 1; }
    set -- "$T"/pos/p.*
    [ $# -eq 1 ] || { ls "$T/pos"; return 1; }
    awk 'function cls(x,  k) { k = 0; while (x > 0) { k++; x = int(x / 2) } return k }
         function label(k) { return k < 2 ? k : 2 ^ (k - 1) "-" 2 ^ k - 1 }
         BEGIN { for (n = 1; n <= 256; n++) for (at = 0; at < n; at++) {
                     differ[label(cls(n))]++
                     diffat[label(cls(n)) " " label(cls(at))]++
                     rel[label(cls(n)) " " int(at * 16 / n)]++ }
                 for (k in differ) print "differ memcmp " k " " differ[k]
                 for (k in diffat) print "diff-at memcmp " k " " diffat[k]
                 for (k in rel) print "diff-rel memcmp " k " " rel[k] }' | sort >"$T/pos/want"
    grep -E '^(equal|differ|unsampled|diff-at|diff-rel) ' "$1" | sort >"$T/pos/got"
    diff "$T/pos/want" "$T/pos/got"
}

# A real program: GNU sort, LC_ALL=C, compares lines with memcmp over the
# shorter line's length.  Five distinct 4-byte lines: every call is 4
# bytes, differs, and at byte 0 (or 1: abcd against aaaa); a merge sort
# of 5 makes 4 to 10 comparisons.
t_real_sort() {
    mkdir -p "$T/sort"
    printf 'dddd\nbbbb\naaaa\ncccc\nabcd\n' >"$T/sort/in"
    MEMLANE_TRACE=$T/sort/p LD_PRELOAD=$TRACE_SO LC_ALL=C sort "$T/sort/in" >"$T/sort/out" ||
        return 1
    [ "$(tr '\n' ' ' <"$T/sort/out")" = "aaaa abcd bbbb cccc dddd " ] || return 1
    set -- "$T"/sort/p.*
    [ $# -eq 1 ] || { ls "$T/sort"; return 1; }
    awk '$1 == "fn" && $2 == "memcmp" { calls = $4; ok = $6 == 4 * $4 }
         $1 == "size" && $2 == "memcmp" && $3 != 4 { print "size " $3; bad = 1 }
         $1 == "equal" && $2 == "memcmp" { print "equal inputs"; bad = 1 }
         $1 == "differ" && $2 == "memcmp" && $3 == "4-7" { differ = $4 }
         $1 == "diff-at" && $2 == "memcmp" && $4 != 0 && $4 != 1 { print "at " $4; bad = 1 }
         END { if (!ok || calls < 4 || calls > 10 || differ != calls) {
                   print "calls " calls ", differing " differ; bad = 1 }
               exit bad }' "$1" || { cat "$1"; return 1; }
}

t_exit() {
    traced "$T/exit" exit || return 1
    set -- "$T"/exit/p.*
    [ $# -eq 1 ] && [ -f "$1" ] || { ls "$T/exit"; return 1; }
    grep -qx 'size memset 1 1' "$1" && tail -n 1 "$1" | grep -qx 'end [0-9]*'
}

# _exit and a fatal signal skip the destructor: no file, no temporary.
t_no_file() {
    traced "$T/$1" "$1"
    rc=$?
    [ "$1" != segv ] || [ $rc -gt 128 ] || { echo "segv: exit $rc"; return 1; }
    [ -z "$(ls "$T/$1" | grep '^p')" ] || { ls "$T/$1"; return 1; }
}

t_off() {
    mkdir -p "$T/off" && cd "$T/off" || return 1
    LD_PRELOAD=$TRACE_SO "$SYNTH" >out 2>err || { cat err; return 1; }
    cd - >/dev/null || return 1
    [ "$(ls "$T/off" | tr '\n' ' ')" = "err out " ] && [ ! -s "$T/off/err" ]
}

t_unwritable() {
    mkdir -p "$T/unw"
    MEMLANE_TRACE=$T/no/such/dir/p LD_PRELOAD=$TRACE_SO "$SYNTH" exit >"$T/unw/out" \
        2>"$T/unw/err" || return 1
    [ "$(wc -l <"$T/unw/err")" -eq 1 ] && grep -q '^memlane-trace: cannot write ' "$T/unw/err" ||
        { cat "$T/unw/err"; return 1; }
}

t_exports() {
    [ "$(nm -D --defined-only "$TRACE_SO" | awk '{ print $3 }' | sort)" = \
      "$(nm -D --defined-only "$PRELOAD_SO" | awk '{ print $3 }' | sort)" ]
}

# No call through the PLT or GOT to a name the library exports (it would
# be itself: recursion), in the hooks or the recorder.
t_no_self_calls() {
    names=$(nm -D --defined-only "$TRACE_SO" | awk '{ print $3 }')
    relocs=$(objdump -R "$TRACE_SO") || return 1
    for n in $names; do
        if printf '%s\n' "$relocs" | grep -E "[[:space:]]$n(@|\$)"; then
            echo "dynamic relocation against $n"
            return 1
        fi
    done
}

echo "--- recorder"
check "a known program's profile, field by field (4 threads, a fork)" t_profile
check "the comparison catches a count that is off" t_profile_can_fail
check "the first difference of every offset of every size to 256" t_positions
# The system's sort is linked against the system's libc (glibc here): a
# library built for another libc cannot be loaded into it.
if [ "${LIBC:-glibc}" != glibc ]; then
    echo "skip a real program: LIBC=$LIBC, and sort uses the system's glibc"
elif LC_ALL=C sort --version 2>/dev/null | grep -q 'GNU coreutils'; then
    check "a real program: GNU sort's memcmp calls, as known" t_real_sort
else
    echo "skip a real program: sort is not GNU coreutils'"
fi
check "exit(): a complete profile" t_exit
check "_exit(): no profile, no temporary" t_no_file _exit
check "SIGSEGV: no profile, no temporary" t_no_file segv
check "MEMLANE_TRACE unset: nothing written, nothing said" t_off
check "an unwritable place: one line on stderr, the program unaffected" t_unwritable
check "exports exactly the drop-in's names" t_exports
check "no dynamic relocation against its own names" t_no_self_calls

finish trace
