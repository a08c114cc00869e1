#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# replay.sh REPLAY SELFTEST LOG "BROKEN..." INPUTS...: the regression
# corpus, replayed by `make test` (mk/fuzz.mk).  REPLAY (the harness's own
# main(), no libFuzzer, IFUNC entry points) runs each input once with the
# default settings, with memset's thresholds low so its rep stosb and
# non-temporal paths run, and with MEMLANE_ARCH=sse2.  Then the replay
# must be able to fail: SELFTEST, the harness with deliberately broken
# implementations, must stop on some input for each one named in BROKEN.
set -eu
replay=$1 selftest=$2 log=$3 broken=$4
shift 4
for env in "" "MEMLANE_REP_STOSB_THRESHOLD=1K MEMLANE_NT_THRESHOLD=8K" "MEMLANE_ARCH=sse2"; do
    # shellcheck disable=SC2086
    env $env "$replay" "$@" >"$log" 2>&1 ||
        { cat "$log"; echo "fuzz replay FAILED ($env)"; exit 1; }
    echo "fuzz replay (${env:-default settings}): $(grep -o '[0-9]* inputs, no finding' "$log")"
done
n=0
for t in $broken; do
    if MEMLANE_FUZZ_ONLY=$t "$selftest" "$@" >/dev/null 2>&1; then
        echo "fuzz replay: $t NOT detected by the regression inputs"; exit 1
    fi
    n=$((n + 1))
done
echo "fuzz replay: the regression inputs catch all $n broken implementations"
