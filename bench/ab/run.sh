#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ab: a memlane function's variants against libc, each in a process of its
# own next to libc, at several code placements, everything in shared
# libraries.
#   run.sh OUTDIR "CC CFLAGS" FUNC MODE DATA IMPL...   (see ab.c)
# Builds OUTDIR/libab<pad>.so from every variant file of every function
# (a copy of src/ whose ML_HIDDEN is empty, so the variants are exported;
# a trial copy such as src/memcmp/avx2x.c defining memlane_memcmp_avx2x
# comes along) plus probes.c, once per placement: an unused block of
# pad KiB + pad * 80 + 1 bytes linked first shifts every variant that is
# not aligned itself (memcmp's and bcmp's are): code aligned to 16 bytes
# moves by 16 bytes modulo 64 from one placement to the next, 64-aligned
# code by 64 bytes and more.  The timing-safe variants and AB_EXTRA_OBJS
# come right after it, ahead of the aligned functions.
# Environment (mk/bench.mk sets the first six from the Makefile):
#   AB_FLAGS_sse2, AB_FLAGS_avx2, AB_FLAGS_avx512  each level's target flags
#   AB_FLAGS_cmp512  extra flags of src/{memcmp,bcmp}/avx512*.c
#   AB_FLAGS_cmpvec  extra flags of src/{memcmp,bcmp}/{sse2,avx2}*.c
#   AB_FLAGS_memset  extra flags of src/memset/*.c (code alignment)
#   AB_FLAGS_zmm16   extra flags of src/memset/avx512_zmm16.c (xmm0-15 reserved)
#   AB_PADS     placements (default "0 1 2 3")
#   AB_RUN      how to run the harness (default "setarch -R taskset -c 1":
#               no address randomisation, so a placement is one layout; "true"
#               builds only)
#   AB_STACK_STEP  bytes the stack of the timed calls moves per placement
#               (default 1104: pad * 1104, so each placement also puts the
#               return address elsewhere relative to the data; 0: never)
#   AB_CALLER   sum (default) | branch: the timed loop adds up the compares'
#               results, or branches on each as a caller does (ab.c)
#   AB_DRAWS    shared (default) | own: random cuts and difference positions
#               the same for every implementation of a sample, or drawn for
#               each (needed where libc runs against itself: ab.c)
#   AB_WARM     off (default) | sizes: before each fixed row, every
#               implementation is called once at each size of the list up
#               to 4 KiB, so each row runs with every branch taken before
#               (ab.c, warm_sizes)
#   AB_GLIBC    default | avx2 | sse2: glibc's code at that level through
#               GLIBC_TUNABLES (default: as the environment says)
#   AB_FORMAT   table (default) | speed (memset-ab's old layout: per row
#               the libc/impl speed ratio of each placement)
#   AB_EXTRA_OBJS  more object files (PIC) linked into every library, e.g.
#               another project's implementation assembled outside the tree
#               as memlane_<FUNC>_<name>, so that IMPL <name> measures it
#               at the same placements
#   AB_PROBE_MAX   ticks: a run whose state probe (the last line) reads
#               more before or after it is done again, up to AB_PROBE_TRIES
#               (default 5) times, AB_PROBE_WAIT (default 20) seconds apart;
#               exit status 3 if none passes (unset: every run counts)
# $cc, $isa and $objs are word lists on purpose (compiler + flags, files).
# shellcheck disable=SC2086
set -eu
out=$1 cc=$2 func=$3 mode=$4 data=$5
shift 5
here=$(dirname "$0")
: "${AB_FLAGS_sse2:?run by make (mk/bench.mk)}" "${AB_FLAGS_avx2:?}" "${AB_FLAGS_avx512:?}"
pads=${AB_PADS:-0 1 2 3}
mkdir -p "$out"
rm -rf "$out/src" && cp -r src "$out/src"
sed -i 's/^#define ML_HIDDEN .*/#define ML_HIDDEN/' "$out/src/internal.h"
grep -q '^#define ML_HIDDEN$' "$out/src/internal.h" || { echo "run.sh: ML_HIDDEN not found" >&2; exit 1; }
$cc "$here/ab.c" -ldl -lm -o "$out/ab"
# Each variant with its level's flags, as the Makefile builds it.
objs=
for f in "$out"/src/timingsafe_bcmp/*.c "$out"/src/timingsafe_memcmp/*.c \
    "$out"/src/memset/*.c "$out"/src/memcmp/*.c "$out"/src/bcmp/*.c \
    "$out/src/tunables.c" "$out/src/cpu.c" "$out/src/env.c" "$out/src/warn.c" \
    "$here/probes.c"; do
    dir=$(basename "$(dirname "$f")")
    case $(basename "$f" .c) in
    sse2*) isa=$AB_FLAGS_sse2 ;;
    avx2*) isa=$AB_FLAGS_avx2 ;;
    avx512* | probes) isa=$AB_FLAGS_avx512 ;;
    *) isa= ;;
    esac
    case $dir/$(basename "$f") in
    memcmp/avx512*.c | bcmp/avx512*.c) isa="$isa ${AB_FLAGS_cmp512:-}" ;;
    memcmp/sse2*.c | memcmp/avx2*.c | bcmp/sse2*.c | bcmp/avx2*.c)
        isa="$isa ${AB_FLAGS_cmpvec:-}" ;;
    memset/avx512_zmm16.c) isa="$isa ${AB_FLAGS_memset:-} ${AB_FLAGS_zmm16:-}" ;;
    memset/*.c) isa="$isa ${AB_FLAGS_memset:-}" ;;
    esac
    o="$out/$dir-$(basename "$f" .c).o"
    $cc -fPIC $isa -Iinclude -I"$out/src" -c "$f" -o "$o"
    objs="$objs $o"
done
# The variants' assembly entries (src/<function>/<level>_entry.S),
# exported as the C variants are here.
for f in "$out"/src/*/*.S; do
    [ -e "$f" ] || continue
    o="$out/$(basename "$(dirname "$f")")-$(basename "$f" .S).o"
    $cc -fPIC -DML_EXPORT_VARIANTS -Iinclude -I"$out/src" -c "$f" -o "$o"
    objs="$objs $o"
done
# The libraries first, outside the measuring pipeline, so that a failed
# build stops the script (set -e does not see into a pipeline).  -z defs:
# a symbol missing from $objs fails here, also in `make test`, which
# builds the libraries but does not run the harness.
for pad in $pads; do
    printf '__asm__(".text\\n.globl ab_pad\\nab_pad: .fill %d, 1, 0x90\\nret\\n");\n' \
        $((pad * 1024 + pad * 80 + 1)) > "$out/pad.c"
    $cc -fPIC -c "$out/pad.c" -o "$out/pad.o"
    $cc -shared -Wl,-z,defs -o "$out/libab$pad.so" "$out/pad.o" ${AB_EXTRA_OBJS:-} $objs
done
case ${AB_GLIBC:-} in
'') ;;
default) unset GLIBC_TUNABLES ;;
avx2) export GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW ;;
sse2) export GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-AVX512F,-AVX512VL,-AVX512BW ;;
*) echo "run.sh: AB_GLIBC is default, avx2 or sse2" >&2; exit 2 ;;
esac
run=${AB_RUN:-setarch -R taskset -c 1}
# The machine's state, before and after the run: glibc's own memcmp (its
# default level) on 16 equal bytes at the first placement.  A shared host
# can run the same code 1.5x slower for minutes (docs/benchmarking.md), so
# each table names the state it was measured in (memset-ab's speed layout
# has no place for it, so it is not timed there).
probe() {
    [ "${AB_FORMAT:-table}" = table ] || return 0
    env -u GLIBC_TUNABLES $run "$out/ab" "$out/libab${pads%% *}.so" memcmp fixed:0:16 equal \
        libc libc 2>/dev/null | awk '$1 == "16" { print $2 }'
}
# Every placement, every implementation next to libc: lines
# "impl pad row libc-ticks impl-ticks", then per implementation and row
# the ticks (medians over the placements) and the time ratios.
table=$out/table.txt
measure() {
    for pad in $pads; do
        for impl in "$@"; do
            AB_STACK=$((pad * ${AB_STACK_STEP:-1104})) \
                $run "$out/ab" "$out/libab$pad.so" "$func" "$mode" "$data" libc "$impl" |
                awk -v impl="$impl" -v pad="$pad" -v first="${pads%% *}" '
                    /^# libc:/ { if (pad == first) print "#", $3; next }
                    $1 != "size" && $1 != "dist" { print impl, pad, $1, $2, $3 }'
        done
    done | awk -v fmt="${AB_FORMAT:-table}" -v func="$func" -v mode="$mode" -v data="$data" \
        -v tun="${GLIBC_TUNABLES:-}" -v pads="$pads" -v caller="${AB_CALLER:-sum}" \
        -v draws="${AB_DRAWS:-shared}" -v warm="${AB_WARM:-off}" '
        function med(s,    v, n, i, j, x) {
            n = split(s, v, " ")
            for (i = 2; i <= n; i++)        # insertion sort, n is small
                for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
            lo = v[1]; hi = v[n]
            return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        $1 == "#" { libc = $2; next }
        {
            key = $1 " " $3
            if (!(key in tl)) order[nk++] = key
            tl[key] = tl[key] " " $4; ti[key] = ti[key] " " $5
            rt[key] = rt[key] " " ($4 > 0 ? $5 / $4 : 0)
            sp[key] = sp[key] sprintf(" %.2f", $5 > 0 ? $4 / $5 : 0)
        }
        END {
            if (fmt == "speed") {
                for (i = 0; i < nk; i++) print order[i] ":" sp[order[i]]
                exit
            }
            printf "# %s %s %s%s%s%s, libc: %s%s; placements (pads): %s\n", func, mode, data,
                caller == "branch" ? " (the caller branches on the result)" : "",
                draws == "own" ? " (draws per implementation)" : "",
                warm == "sizes" ? " (every size warmed before each row)" : "", libc,
                tun != "" ? " (GLIBC_TUNABLES=" tun ")" : "", pads
            print "# ticks: median over placements of each process median (TSC ticks a call);"
            print "# ratio: impl time / libc time, median over placements [min max];"
            print "# \"!\": fixed size > 1.00 and > 0.3 ticks slower, random sizes > 0.95"
            printf "%-10s %-10s %9s %9s %6s  %s\n", "impl", "row", "libc", "impl", "ratio", "[min max]"
            for (i = 0; i < nk; i++) {
                k = order[i]; split(k, kv, " ")
                a = med(tl[k]); b = med(ti[k]); r = med(rt[k])
                dist = kv[2] !~ /^[0-9]+$/
                bad = dist ? r > 0.955 : (r > 1.005 && b - a > 0.3)
                printf "%-10s %-10s %9.2f %9.2f %6.3f  [%.3f %.3f]%s\n", kv[1], kv[2], a, b, r,
                    lo, hi, bad ? " !" : ""
            }
        }' > "$table"
}
# Whether a probe reading is at most AB_PROBE_MAX ticks (always, when unset).
probe_ok() {
    [ -z "${AB_PROBE_MAX:-}" ] || [ -z "$1" ] ||
        awk -v t="$1" -v m="$AB_PROBE_MAX" 'BEGIN { exit !(t + 0 <= m + 0) }'
}
# With AB_PROBE_MAX, a run whose probe before or after reads higher is
# done again, up to AB_PROBE_TRIES times, AB_PROBE_WAIT seconds apart.
tries=${AB_PROBE_TRIES:-5} try=1
while :; do
    probe_before=$(probe)
    if probe_ok "$probe_before"; then
        measure "$@"
        probe_after=$(probe)
        probe_ok "$probe_after" && break
    else
        probe_after=-
    fi
    echo "# state probe $probe_before / $probe_after ticks, above AB_PROBE_MAX=$AB_PROBE_MAX (try $try of $tries)" >&2
    if [ "$try" -ge "$tries" ]; then
        [ -s "$table" ] && [ "$probe_after" != - ] && cat "$table"
        echo "run.sh: the state probe stayed above AB_PROBE_MAX=$AB_PROBE_MAX" >&2
        exit 3
    fi
    try=$((try + 1))
    sleep "${AB_PROBE_WAIT:-20}"
done
cat "$table"
if [ -n "$probe_before" ]; then
    echo "# state probe: glibc's memcmp on 16 equal bytes, $probe_before ticks before the run," \
        "$probe_after after"
fi
