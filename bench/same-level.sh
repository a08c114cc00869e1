#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# memlane's avx2 and sse2 variants against glibc's code of the same level
# (docs/benchmarking.md, "Against glibc's code of the same level"): glibc
# is forced down with GLIBC_TUNABLES, every run checks from memlane-bench's
# `libc-variants:` line that glibc took that level's code, and each run's
# full output goes to OUTDIR/<level>-<run>.txt.
#   bench/same-level.sh [OUTDIR] [memlane-bench options...]
# OUTDIR defaults to build/same-level; options are added to every run
# (later ones win: `--cpu=1`, or `--quick --sizes=64` for a smoke run).
# BENCH names the tool (default build/memlane-bench).  A timing run: on a
# shared machine, run it under the machine's lock, pinned to one CPU.
set -eu
out=${1:-build/same-level}
[ $# -gt 0 ] && shift
bench=${BENCH:-build/memlane-bench}
[ -x "$bench" ] || { echo "same-level: $bench not found (make $bench)" >&2; exit 2; }
mkdir -p "$out"

no512=-AVX512F,-AVX512VL,-AVX512BW
ran=0
for level in avx2 sse2; do
    case $level in
    avx2) hwcaps=$no512 ;;
    sse2) hwcaps=-AVX2,$no512 ;;
    esac
    if ! "$bench" --list | grep -q "^  memlane-$level "; then
        echo "same-level: this CPU cannot run memlane-$level; skipped"
        continue
    fi
    # run NAME OPTIONS...: one memlane-bench run into $out/$level-NAME.txt
    run() {
        name=$1
        shift
        f=$out/$level-$name.txt
        echo "same-level: $f"
        # shellcheck disable=SC2086 # $extra: the caller's options, split on purpose
        GLIBC_TUNABLES=glibc.cpu.hwcaps=$hwcaps "$bench" -q -i "libc,memlane-$level" -b libc \
            "$@" $extra >"$f"
        variants=$(grep '^libc-variants:' "$f" || true)
        case $variants in
        *"memset=__memset_${level}_"*"memcmp=__memcmp_${level}"*) ;;
        *)
            echo "same-level: glibc did not take its $level code under" \
                "GLIBC_TUNABLES=glibc.cpu.hwcaps=$hwcaps: '$variants'" >&2
            exit 1
            ;;
        esac
    }
    extra="$*"
    run t1-memset -t 1 -f memset --sizes=0-1024:16,2K-64M*2 --unit=ratio
    run t1-cmp-align0 -t 1 -f memcmp,bcmp --data=both --sizes=0-1024:16,2K-64M*2 --unit=ratio --align=0,0
    run t1-cmp-align5 -t 1 -f memcmp,bcmp --data=both --sizes=0-1024:16,2K-64M*2 --unit=ratio --align=5,5
    run t2 -t 2 -f memset,memcmp,bcmp -d Short,Mid,Uniform512 --data=both
    ran=$((ran + 1))
done
echo "same-level: $ran level(s) measured, output in $out"
