#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# memset-ab: each implementation against libc in a process of its own, at
# several code placements, everything in shared libraries.
#   run.sh OUTDIR "CC CFLAGS" MODE IMPL...   (see ab.c for MODE and IMPL)
# Builds OUTDIR/libab.so from src/memset/*.c (with the variants exported:
# a copy of src/ whose ML_HIDDEN is empty) plus probes.c, once per
# placement (an unused block of 0, 1, 2 or 3 KiB + 64 B before the
# variants shifts their addresses), and prints per implementation and row
# the four ratios libc time / implementation time (> 1: faster than libc).
# $cc, $isa and $objs are word lists on purpose (compiler + flags, files).
# shellcheck disable=SC2086
set -eu
out=$1 cc=$2 mode=$3
shift 3
here=$(dirname "$0")
mkdir -p "$out"
rm -rf "$out/src" && cp -r src "$out/src"
sed -i 's/^#define ML_HIDDEN .*/#define ML_HIDDEN/' "$out/src/internal.h"
grep -q '^#define ML_HIDDEN$' "$out/src/internal.h" || { echo "run.sh: ML_HIDDEN not found" >&2; exit 1; }
avx2="-mavx2 -mbmi -mbmi2 -mmovbe"
avx512="$avx2 -mavx512f -mavx512bw -mavx512vl"
$cc "$here/ab.c" -ldl -lm -o "$out/ab"
# Each variant with its level's flags, as the Makefile builds it (a trial
# copy such as avx512x.c gets those of avx512).
objs=
for f in "$out"/src/memset/*.c "$out/src/tunables.c" "$out/src/cpu.c" "$out/src/env.c" "$out/src/warn.c" \
    "$here/probes.c"; do
    case $(basename "$f" .c) in
    sse2*) isa=-msse2 ;;
    avx2*) isa=$avx2 ;;
    avx512* | probes) isa=$avx512 ;;
    *) isa= ;;
    esac
    o="$out/$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
    $cc -fPIC $isa -Iinclude -I"$out/src" -c "$f" -o "$o"
    objs="$objs $o"
done
# The four libraries first, outside the measuring pipeline, so that a
# failed build stops the script (set -e does not see into a pipeline).
# -z defs: a symbol missing from $objs fails here, also in `make test`,
# which builds the libraries but does not run the harness.
for kib in 0 1 2 3; do
    printf '__asm__(".text\\n.globl ab_pad\\nab_pad: .fill %d, 1, 0x90\\nret\\n");\n' \
        $((kib * 1024 + kib * 64 + 1)) > "$out/pad.c"
    $cc -fPIC -c "$out/pad.c" -o "$out/pad.o"
    $cc -shared -Wl,-z,defs -o "$out/libab$kib.so" "$out/pad.o" $objs
done
for kib in 0 1 2 3; do
    for impl in "$@"; do
        ${AB_RUN:-taskset -c 1} "$out/ab" "$out/libab$kib.so" "$mode" libc "$impl" | tail -n +2 |
            awk -v impl="$impl" '{ print impl, $1, $NF }'
    done
done | awk '{ key = $1 " " $2; if (!(key in r)) order[n++] = key; r[key] = r[key] " " $3 }
            END { for (i = 0; i < n; i++) print order[i] ":" r[order[i]] }'
