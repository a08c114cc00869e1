#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make ab-goals: every ab run behind issue 14's speed goals on this CPU,
# then one summary line per run and implementation.
#   memcmp, bcmp (equal and mismatching inputs) and memset; the compares'
#   fixed sizes to 1 KiB also with the difference at byte 0 and at byte
#   40 (mismatch:0, mismatch:40, the last byte below 41 B), where the
#   branch predictor learns where each call ends and the time follows the
#   tests and lines read before the exit;
#   fixed sizes 0-64 B every byte and 80 B-1 KiB every 16, powers of two
#   2 KiB-64 MiB, and the random-size rows Short / Mid / Uniform512;
#   the fixed sizes to 1 KiB with equal inputs (memset: all) also with
#   every size warmed before each row (AB_WARM=sizes, run `0-1K-warm`):
#   run in one order only, a row sees only the branches the rows before
#   it took, and a branch once taken can cost a cycle where it is not;
#   each level the CPU has against glibc's code of the same level (sse2,
#   avx2), and the dispatched library (with the avx512 variant if the CPU
#   has AVX-512) against glibc's default.
# Usage (run by make, which passes MAKE and BUILD):
#   goals.sh OUTDIR [make arguments for every run, e.g. AB_PROBE_MAX=4.4]
# The runs' tables stay in OUTDIR, one file each; a summary line gives the
# rows flagged slower than glibc ("!": > 1.00 and > 0.3 tick; random
# sizes > 0.95), the worst row, and the state probe before/after.
set -eu
out=$1
shift
: "${MAKE:=make}"
mkdir -p "$out"
rm -f "$out"/*.txt

flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
levels=sse2
has avx2 && levels="$levels avx2"
levels="$levels default"
impls_default=memlane
has avx512bw && has avx512vl && impls_default="avx512 memlane"

for func in memcmp bcmp memset; do
    datas="equal mismatch mismatch:0 mismatch:40"
    [ "$func" = memset ] && datas=equal
    for level in $levels; do
        impls=$level
        [ "$level" = default ] && impls=$impls_default
        for data in $datas; do
            for mode in fixed:0:0-64:1,80-1024:16 warm fixed:0:2K-64M*2 dist; do
                warm=off
                case $mode in
                warm) sizes=0-1K-warm warm=sizes mode=fixed:0:0-64:1,80-1024:16 ;;
                *0-64*) sizes=0-1K ;;
                *2K*) sizes=2K-64M ;;
                *) sizes=random ;;
                esac
                # The fixed position only where it can matter: to 1 KiB;
                # the warmed rows with equal inputs.
                case $data:$sizes in
                mismatch:*:2K-64M | mismatch:*:random | mismatch*:0-1K-warm) continue ;;
                esac
                f=$out/$func-$level-$(echo "$data" | tr -d :)-$sizes.txt
                # A run that finds the machine in its slow state (exit 3
                # with AB_PROBE_MAX) is kept and named in the summary.
                "$MAKE" -s ab FUNC="$func" AB_GLIBC="$level" AB_MODE="$mode" \
                    AB_DATA="$data" AB_IMPLS="$impls" AB_WARM="$warm" "$@" > "$f" 2>&1 ||
                    echo "# run failed: exit $?" >> "$f"
            done
        done
    done
done

echo "ab-goals: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')," \
    "family $(grep -m1 'cpu family' /proc/cpuinfo | sed 's/.*: //')" \
    "model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | sed 's/.*: //'); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "run (function-level-data-sizes), implementation, state probe, then flagged rows"
for f in "$out"/*.txt; do
    awk -v run="$(basename "$f" .txt)" '
        /state probe:/ { probe = $(NF - 6) "/" $(NF - 1) }
        /^# run failed/ { failed = 1 }
        $1 == "impl" || /^#/ || NF < 5 || $5 !~ /^[0-9.]+$/ { next }
        {
            impl = $1
            if (!(impl in n)) order[++k] = impl
            n[impl]++
            flag = ($NF == "!")
            if ($2 ~ /^(Short|Mid|Uniform512)$/)
                dist[impl] = dist[impl] sprintf(" %s %.3f%s", $2, $5, flag ? "!" : "")
            if (flag) { nf[impl]++; fl[impl] = fl[impl] sprintf(" %s %.3f", $2, $5) }
            if (!(impl in worst) || $5 > worst[impl]) { worst[impl] = $5; wrow[impl] = $2 }
        }
        END {
            if (failed) print run, "failed (see the file)"
            for (i = 1; i <= k; i++) {
                m = order[i]
                if (dist[m] != "")
                    printf "%-28s %-8s %-12s%s\n", run, m, probe, dist[m]
                else
                    printf "%-28s %-8s %-12s worst %s %.3f; %d of %d rows flagged%s\n",
                        run, m, probe, wrow[m], worst[m], nf[m], n[m], fl[m] != "" ? ":" fl[m] : ""
            }
        }' "$f"
done
