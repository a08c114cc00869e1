#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Tests of memlane-bench's replays (run by `make test-trace`):
#   sequence  --dump-sequence: the same calls for a seed every time,
#             other calls for another seed, drawn as the profile says
#             (sizes, alignments, equal inputs, first differences)
#   llvm      LLVM libc's distribution format, the function from the
#             file name or --functions
#   bad       a missing, empty, truncated, foreign-version, hand-edited or
#             foreign profile: exit status 2, one line naming file and line
#   replay    a short replay of a recorded profile ends in a verdict, one
#             that names no winner when no p-value is below 0.05;
#             --record -- CMD records, adds the processes up and replays
# Never a speed assertion.
# Environment: BENCH SYNTH TRACE_SO (set by mk/trace.mk).
set -u
: "${BENCH:=build/memlane-bench}" "${SYNTH:=build/trace-synthetic}"
: "${TRACE_SO:=build/libmemlane-trace.so}"
. "$(dirname "$0")/common.sh"

# A profile written by hand: memcmp, 1000 equal calls of 10 bytes and
# 3000 of 20 bytes that differ at offset 4-7; a at 0, b at 8 mod 64.
good=$T/good
cat >"$good" <<'EOF'
memlane-profile 1
program handmade
pid 1
processes 1
threads 1
diff-scan 256 32
fn memcmp calls 4000 bytes 70000
size memcmp 10 1000
size memcmp 20 3000
align memcmp a 0 4000
align memcmp b 8 4000
align memcmp delta 8 4000
equal memcmp 8-15 1000
differ memcmp 16-31 3000
diff-at memcmp 16-31 4-7 3000
diff-rel memcmp 16-31 4 3000
end 15
EOF

t_same_seed() {
    a=$("$BENCH" --workload="$good" --dump-sequence=4000 --seed=7) &&
        b=$("$BENCH" --workload="$good" --dump-sequence=4000 --seed=7) &&
        [ "$a" = "$b" ] && [ "$(printf '%s\n' "$a" | grep -c '^memcmp ')" -eq 4000 ]
}

t_other_seed() {
    a=$("$BENCH" --workload="$good" --dump-sequence=200 --seed=7) &&
        b=$("$BENCH" --workload="$good" --dump-sequence=200 --seed=8) && [ "$a" != "$b" ]
}

# What is drawn follows the profile: 10-byte calls equal, 20-byte ones
# differing at 4..7, a 25 % share of 10-byte calls (4000 draws, seed 1:
# deterministic), the alignments as recorded.
t_drawn_as_recorded() {
    "$BENCH" --workload="$good" --dump-sequence=4000 >"$T/seq" || return 1
    awk '
        /^#/ { next }
        $2 == 10 && $5 == "equal" { ten++; next }
        $2 == 20 && $5 ~ /^differ@[4-7]$/ { twenty++; next }
        { print "unexpected: " $0; bad = 1 }
        $3 != "a=0" || $4 != "b=8" { print "alignment: " $0; bad = 1 }
        END {
            if (ten < 900 || ten > 1100) { print "10-byte calls: " ten; bad = 1 }
            exit bad
        }' "$T/seq"
}

# The first difference within its offset class is drawn in the sixteenths
# of n that 'diff-rel' gives: 200-byte calls differing at 128-255, in
# sixteenths 11 (bytes 138-149) and 15 (188-199) at 1:3.
t_drawn_rel() {
    cat >"$T/rel" <<'EOF2'
memlane-profile 1
program rel
pid 1
processes 1
threads 1
diff-scan 256 32
fn bcmp calls 4000 bytes 800000
size bcmp 200 4000
align bcmp a 0 4000
align bcmp b 0 4000
align bcmp delta 0 4000
differ bcmp 128-255 4000
diff-at bcmp 128-255 128-255 4000
diff-rel bcmp 128-255 11 1000
diff-rel bcmp 128-255 15 3000
end 14
EOF2
    "$BENCH" --workload="$T/rel" --dump-sequence=4000 >"$T/seq" || return 1
    awk '/^#/ { next }
         { sub(/^differ@/, "", $5) }
         $5 >= 138 && $5 <= 149 { eleven++; next }
         $5 >= 188 && $5 <= 199 { next }
         { print "outside both sixteenths: " $0; bad = 1 }
         END { if (eleven < 900 || eleven > 1100) { print "sixteenth 11: " eleven; bad = 1 }
               exit bad }' "$T/seq"
}

# An LLVM libc distribution: sizes 1 and 3 at 1:3.
t_llvm_by_name() {
    printf '0,0.25,0,0.75\n' >"$T/MemsetTest.csv"
    "$BENCH" --workload="$T/MemsetTest.csv" --dump-sequence=1000 >"$T/seq" || return 1
    awk '/^#/ { next } $1 != "memset" || ($2 != 1 && $2 != 3) { print; bad = 1 }
         $2 == 1 { one++ } END { if (one < 200 || one > 300) { print "size 1: " one; bad = 1 }
         exit bad }' "$T/seq"
}

t_llvm_functions() {
    printf '0,0,1\n' >"$T/Workload.csv"
    "$BENCH" --workload="$T/Workload.csv" --dump-sequence=3 -f bcmp >"$T/seq" || return 1
    [ "$(grep -v '^#' "$T/seq" | sort -u)" = "bcmp 2 a=0 b=0 equal" ] || { cat "$T/seq"; return 1; }
}

# As LLVM's files are: all 4097 sizes (0 to 4096) on one line, numbers
# in exponent form too, a final newline.  Sizes 384 and 4096 at 1:2.
t_llvm_full_line() {
    awk 'BEGIN { for (i = 0; i <= 4096; i++) {
                     v = i == 384 ? "2.5e-1" : i == 4096 ? "5E-1" : i % 7 ? "0" : "0.000"
                     printf "%s%s", v, i < 4096 ? "," : "\n" } }' >"$T/MemcmpGoogleT.csv"
    "$BENCH" --workload="$T/MemcmpGoogleT.csv" --dump-sequence=3000 >"$T/seq" || return 1
    awk '/^#/ { next } $1 != "memcmp" || ($2 != 384 && $2 != 4096) || $5 != "equal" { print; bad = 1 }
         $2 == 384 { small++ }
         END { if (small < 900 || small > 1100) { print "size 384: " small; bad = 1 }
               exit bad }' "$T/seq"
}

# bad NAME PATTERN ARGS...: exit 2, one line on stderr matching PATTERN.
bad() {
    pattern=$1
    shift
    "$BENCH" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -Eq "$pattern" "$T/err"; then
        return 0
    fi
    echo "exit $rc, stderr:"
    cat "$T/err"
    return 1
}

# edited NAME SED: the good profile edited by SED, as $T/NAME.
edited() { sed "$2" "$good" >"$T/$1"; }

t_bad_missing() { bad "$T/none: no such profile" --workload="$T/none" --dump-sequence=1; }
t_bad_empty() { : >"$T/empty" && bad "$T/empty: empty" --workload="$T/empty" --dump-sequence=1; }
t_bad_truncated() {
    edited trunc '$d' && bad "trunc:16: truncated" --workload="$T/trunc" --dump-sequence=1
}
t_bad_cut_mid_line() {
    head -c 200 "$good" >"$T/cut" && bad "cut:[0-9]+: " --workload="$T/cut" --dump-sequence=1
}
t_bad_version() {
    edited v2 '1s/ 1$/ 2/' && bad "v2:1: .*version 2; this memlane-bench reads version 1" \
        --workload="$T/v2" --dump-sequence=1
}
# Without --dump-sequence too, before anything is measured or printed.
t_bad_before_measuring() {
    edited v3 '1s/ 1$/ 3/' && bad "v3:1: .*version 3" --workload="$T/v3" && [ ! -s "$T/out" ] ||
        { echo "stdout:"; cat "$T/out"; return 1; }
}
t_bad_count() {
    edited count 's/^size memcmp 20 3000$/size memcmp 20 2999/' &&
        bad "count:7: memcmp: the sizes add up to 3999 calls" --workload="$T/count" \
            --dump-sequence=1
}
t_bad_record() {
    edited rec 's/^threads 1$/thread 1/' &&
        bad "rec:5: unknown record 'thread'" --workload="$T/rec" --dump-sequence=1
}
t_bad_twice() {
    edited twice '8p' &&
        bad "twice:9: a second 'size memcmp 10' record \(the first is on line 8\)" \
            --workload="$T/twice" --dump-sequence=1
}
t_bad_number() {
    edited num 's/^align memcmp a 0 4000$/align memcmp a 0 4k/' &&
        bad "num:10: 'align memcmp a 0': the count '4k' is not a whole number" \
            --workload="$T/num" --dump-sequence=1
}
t_bad_end() {
    edited end '/^diff-rel/d' && bad "end:16: 'end' counts 15 records, the file has 14" \
        --workload="$T/end" --dump-sequence=1
}
t_bad_foreign() {
    printf 'hello, world\n' >"$T/foreign" &&
        bad "foreign:1: neither a memlane profile" --workload="$T/foreign" --dump-sequence=1
}
t_bad_llvm_value() {
    printf '0,0.5,x\n' >"$T/MemsetBad.csv" &&
        bad "MemsetBad.csv:1: neither" --workload="$T/MemsetBad.csv" --dump-sequence=1
}
t_bad_llvm_long() {
    awk 'BEGIN { for (i = 0; i <= 4097; i++) printf "%s%s", i == 4097 ? 1 : 0, i < 4097 ? "," : "\n" }' \
        >"$T/MemsetLong.csv" &&
        bad "MemsetLong.csv:1: more than 4097 values \(sizes 0 to 4096\)" \
            --workload="$T/MemsetLong.csv" --dump-sequence=1
}
t_bad_llvm_name() {
    printf '0,1\n' >"$T/Foo.csv" &&
        bad "Foo.csv: cannot tell .* --functions" --workload="$T/Foo.csv" --dump-sequence=1
}
t_bad_llvm_memcpy() {
    printf '0,1\n' >"$T/MemcpyGoogleA.csv" &&
        bad "memlane has no such function" --workload="$T/MemcpyGoogleA.csv" --dump-sequence=1
}

# A real replay, short: a recorded profile, one function.  Two samples a
# cell can never give a Mann-Whitney p below 0.05 (0.33 at the least, 0.19
# with ties), so the verdict must name no winner, whatever the times.
t_replay() {
    mkdir -p "$T/recorded"
    MEMLANE_TRACE=$T/recorded/p LD_PRELOAD=$TRACE_SO "$SYNTH" >/dev/null || return 1
    "$BENCH" -q --workload="$T/recorded/p" -f memcmp --runs=2 --batch=20 >"$T/out" || return 1
    grep -q '^workload: .*(2 files) (trace-synthetic, 2 processes, 5 threads): 79 calls' "$T/out" &&
        grep -Eq '^Memcmp/trace-synthetic +[0-9.]+[nµ] ± [0-9]+%' "$T/out" &&
        grep -q '^verdict for trace-synthetic' "$T/out" &&
        grep -Eq '^  Memcmp/trace-synthetic \(100.0% of the calls\): no difference \(Mann-Whitney p >= 0.05\) between [a-z0-9_-]+, [0-9.]+ ns a call, and( [a-z0-9_-]+ \(p=[01]\.[0-9]{3}\),?)+$' "$T/out" &&
        grep -q "^  weighted by the program's calls: .* (no difference: Mann-Whitney p >= 0.05 between them in every function)" "$T/out" &&
        grep -q '^  No setting tried helps' "$T/out" &&
        ! grep -q 'fastest\|x as fast\|x its time' "$T/out" ||
        { cat "$T/out"; return 1; }
}

# Every call of a sample differs where it was drawn to (or not at all),
# checked by memlane-bench itself after every layout (MEMLANE_BENCH_CHECK):
# a replay of two sizes, whose lists go over the buffer many times, one
# with differences beyond DIFF_EXACT, and table 2 with differences.
t_differences_where_drawn() {
    cat >"$T/mix" <<'EOF2'
memlane-profile 1
program mix
pid 1
processes 1
threads 1
diff-scan 256 32
fn memcmp calls 3000 bytes 100242000
size memcmp 42 1000
size memcmp 200 1000
size memcmp 65536-131071 1000
align memcmp a 20 3000
align memcmp b 36 3000
align memcmp delta 16 3000
equal memcmp 32-63 200
differ memcmp 32-63 800
differ memcmp 128-255 1000
differ memcmp 65536-131071 1000
diff-at memcmp 32-63 32-63 800
diff-at memcmp 128-255 128-255 1000
diff-at memcmp 65536-131071 32768-65535 1000
diff-rel memcmp 32-63 15 800
diff-rel memcmp 128-255 15 1000
diff-rel memcmp 65536-131071 5 1000
end 22
EOF2
    MEMLANE_BENCH_CHECK=1 "$BENCH" -q --workload="$T/mix" -i libc --runs=3 --batch=20 \
        >"$T/out" 2>&1 || { cat "$T/out"; return 1; }
    MEMLANE_BENCH_CHECK=1 "$BENCH" -q -t 2 -f memcmp,bcmp --data=both \
        -d Short,Mid,Long,Uniform512 -i libc --runs=2 --batch=20 >"$T/out" 2>&1 ||
        { cat "$T/out"; return 1; }
}

# --record: the command's processes recorded and added up (the parent's
# 12 memsets and its child's 3); the chart's data has the function
# replayed (-f bcmp: 15 of its 18 calls are 16 bytes).
t_record() {
    "$BENCH" -q --record --plot-dir="$T/recd" -f bcmp --runs=2 --batch=20 -- "$SYNTH" \
        >"$T/out" 2>"$T/err" || { cat "$T/err"; return 1; }
    grep -qx 'processes 2' "$T/recd/profile" && grep -qx 'fn memset calls 12 bytes 10531' \
        "$T/recd/profile" && grep -q '^Bcmp/trace-synthetic ' "$T/out" &&
        grep -q '^verdict for trace-synthetic' "$T/out" &&
        grep -qx 'from to label bcmp' "$T/recd/workload-sizes.dat" &&
        grep -qx '16 31 16-31 83.3333' "$T/recd/workload-sizes.dat" ||
        { cat "$T/out" "$T/err"; return 1; }
}

t_record_bad() {
    "$BENCH" -q --record -- "$T/no-such-command" >"$T/out" 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "cannot run $T/no-such-command: No such file" "$T/err" &&
        grep -q "nothing recorded" "$T/err" || { echo "exit $rc"; cat "$T/err"; return 1; }
    bad "needs a command" --record && bad "needs --workload" --dump-sequence=3
}

echo "--- replay"
check "--dump-sequence: one seed, the same calls every time" t_same_seed
check "--dump-sequence: another seed, other calls" t_other_seed
check "drawn as recorded: sizes, equal or where they differ, alignments" t_drawn_as_recorded
check "drawn as recorded: the first difference's sixteenth of n" t_drawn_rel
check "an LLVM libc distribution, function from its name" t_llvm_by_name
check "an LLVM libc distribution, function from --functions" t_llvm_functions
check "an LLVM libc distribution as LLVM ships them (4097 values, exponents)" t_llvm_full_line
check "bad: no such file" t_bad_missing
check "bad: empty" t_bad_empty
check "bad: truncated (no end line)" t_bad_truncated
check "bad: cut in the middle of a line" t_bad_cut_mid_line
check "bad: another format version" t_bad_version
check "bad: found before measuring or printing anything" t_bad_before_measuring
check "bad: a count edited" t_bad_count
check "bad: an unknown record" t_bad_record
check "bad: a record twice" t_bad_twice
check "bad: not a number" t_bad_number
check "bad: the end count" t_bad_end
check "bad: not a profile" t_bad_foreign
check "bad: an LLVM file with a word in it" t_bad_llvm_value
check "bad: an LLVM file of more than 4097 values" t_bad_llvm_long
check "bad: an LLVM file named for no function" t_bad_llvm_name
check "bad: an LLVM memcpy distribution" t_bad_llvm_memcpy
check "every call differs where drawn (replay, table 2), checked per sample" t_differences_where_drawn
check "a recorded profile replayed; with 2 runs a cell (p >= 0.19) the verdict says no difference" t_replay
check "--record -- CMD: recorded, added up, replayed" t_record
check "--record and --dump-sequence misused" t_record_bad

finish replay
