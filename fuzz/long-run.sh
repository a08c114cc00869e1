#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A long fuzz run (docs/testing.md): each function for SECONDS (default
# 600) over every variant this CPU runs, plus memset once more with its
# rep-stosb and non-temporal thresholds lowered into the fuzzer's length
# range.  Runs LANES (default 2) at a time under nice, each with its own
# corpus; writes each run's log, corpus and artifacts to build-fuzz/long/,
# and one summary line per run to the terminal and build-fuzz/long/summary.txt.
#   fuzz/long-run.sh [SECONDS] [LANES] [RUN...]   (from the repository root)
# RUN names some of the runs below (default: all).  Exits 1 if a run failed.
set -euo pipefail
secs=${1:-600}
lanes=${2:-2}
shift $(($# < 2 ? $# : 2))
out=build-fuzz/long
make --no-print-directory fuzz-build >/dev/null
rm -rf "$out"
mkdir -p "$out"

# name|MEMLANE_FUZZ_ONLY|extra environment
runs=(
    "memset|memset|"
    "memset-low-thresholds|memset|MEMLANE_REP_STOSB_THRESHOLD=1K MEMLANE_NT_THRESHOLD=8K"
    "memset_explicit|memset_explicit|"
    "memcmp|memcmp|"
    "bcmp|bcmp|"
    "timingsafe_bcmp|timingsafe_bcmp|"
    "timingsafe_memcmp|timingsafe_memcmp|"
)
if [ $# -gt 0 ]; then
    chosen=()
    for r in "${runs[@]}"; do
        for want in "$@"; do
            [ "${r%%|*}" = "$want" ] && chosen+=("$r")
        done
    done
    runs=("${chosen[@]}")
fi

one() {
    local name=$1 only=$2 extra=$3
    mkdir -p "$out/corpus-$name" "$out/artifacts-$name"
    # shellcheck disable=SC2086
    if env $extra MEMLANE_FUZZ_ONLY="$only" ASAN_OPTIONS=detect_leaks=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        nice -n 19 build-fuzz/fuzz_memlane -max_total_time="$secs" \
        -print_final_stats=1 -artifact_prefix="$out/artifacts-$name/" \
        "$out/corpus-$name" fuzz/corpus $(ls -d fuzz/regress 2>/dev/null) \
        >"$out/$name.log" 2>&1; then
        echo "ok" >"$out/$name.status"
    else
        echo "FAILED" >"$out/$name.status"
    fi
}

i=0
for r in "${runs[@]}"; do
    IFS='|' read -r name only extra <<<"$r"
    one "$name" "$only" "$extra" &
    i=$((i + 1))
    if [ $((i % lanes)) -eq 0 ]; then wait; fi
done
wait

for r in "${runs[@]}"; do
    IFS='|' read -r name only extra <<<"$r"
    log=$out/$name.log
    execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
    secs_run=$(grep -oE '^Done [0-9]+ runs in [0-9]+ second' "$log" | grep -oE '[0-9]+ second' | grep -oE '[0-9]+' || echo '?')
    calls=$(grep -m1 '^memlane-fuzz calls per variant:' "$log" | sed 's/^memlane-fuzz calls per variant: *//')
    echo "$name | $(cat "$out/$name.status") | ${secs_run}s | $execs execs | ${extra:-default env} | $calls"
done | tee "$out/summary.txt"
! grep -q -v -x ok "$out"/*.status
