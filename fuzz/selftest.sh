#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# selftest.sh FUZZER DIR TIME "BROKEN...": the fuzzer must be able to fail
# (`make fuzz-selftest`, mk/fuzz.mk).  FUZZER is the harness built with
# deliberately broken implementations added (over- and under-reads and
# -writes, wrong return conventions); each named in BROKEN must be
# reported within TIME seconds.  Logs and artifacts go to DIR.
set -eu
fuzzer=$1 dir=$2 time=$3 broken=$4
rm -rf "$dir"
mkdir -p "$dir/corpus"
for t in $broken; do
    log=$dir/$(echo "$t" | tr / _).log
    if MEMLANE_FUZZ_ONLY=$t "$fuzzer" -max_total_time="$time" -artifact_prefix="$dir/" \
        "$dir/corpus" fuzz/corpus >"$log" 2>&1; then
        echo "fuzz-selftest: $t NOT detected (see $log)"; exit 1
    fi
    what=$(grep -m1 -oE 'memlane-fuzz FINDING|AddressSanitizer: [a-z-]+|SEGV' "$log" || true)
    if [ -z "$what" ]; then
        echo "fuzz-selftest: $t failed without a report (see $log)"; exit 1
    fi
    echo "fuzz-selftest: $t detected: $what"
done
