#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The recorder's cost per call (make trace-overhead): bench/trace-overhead
# /overhead.c run under the drop-in, under libmemlane-trace.so with
# MEMLANE_TRACE unset, and with it set, in turn, RUNS times each (so drift
# hits all three alike); prints each case's median cycles per call and
# the differences.
# Usage: run.sh OVERHEAD_BIN PRELOAD_SO TRACE_SO [RUNS]
set -eu
bin=$1 preload=$2 trace=$3 runs=${4:-7}
out=$(mktemp -d "${TMPDIR:-/tmp}/memlane-trace-overhead.XXXXXX")
trap 'rm -rf "$out"' EXIT
i=0
while [ $i -lt "$runs" ]; do
    LD_PRELOAD=$preload "$bin" >>"$out/drop-in"
    LD_PRELOAD=$trace "$bin" >>"$out/off"
    MEMLANE_TRACE=$out/profile LD_PRELOAD=$trace "$bin" >>"$out/on"
    i=$((i + 1))
done
# The median of each case over the runs.
median() {
    sort -k1,1 -k2,2n "$1" | awk '
        { v[$1, ++n[$1]] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
        END { for (i = 1; i <= k; i++) { c = order[i]; m = n[c];
              x = (m % 2) ? v[c, (m + 1) / 2] : (v[c, m / 2] + v[c, m / 2 + 1]) / 2;
              print c, x } }' | sort
}
median "$out/drop-in" >"$out/m0"
median "$out/off" >"$out/m1"
median "$out/on" >"$out/m2"
printf '%-24s %8s %8s %8s %10s %10s\n' case drop-in off on off-drop on-drop
join "$out/m0" "$out/m1" | join - "$out/m2" |
    awk '{ printf "%-24s %8.2f %8.2f %8.2f %+10.2f %+10.2f\n", $1, $2, $3, $4, $3 - $2, $4 - $2 }'
echo "(TSC cycles per call, median of $runs runs of 15 rounds; profiles written: $(ls "$out" | grep -c '^profile\.'))"
