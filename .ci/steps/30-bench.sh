#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# memlane-bench: `make test` already ran the tool's tests (test-extra) with
# gcc and clang, with whatever peers (OpenSSL, libsodium) pkg-config found.
# Here: the build without any peer (they are optional), the tests against
# that binary, and `make bench` end to end with --quick.  gnuplot is not
# needed: without it `make bench` prints how to get the charts.
set -euo pipefail
cd "$(dirname "$0")/../.."

echo "--- memlane-bench without OpenSSL/libsodium"
make -j2 WERROR=1 BUILD=build-bench-nopeers BENCH_PEERS= build-bench-nopeers/memlane-bench
if build-bench-nopeers/memlane-bench --list | grep -Eq '^  (openssl|libsodium) '; then
    echo "peers listed in a build without them" >&2
    exit 1
fi
BENCH=build-bench-nopeers/memlane-bench sh bench/test-bench.sh
rm -rf build-bench-nopeers

echo "--- make bench (quick)"
make bench BENCH_ARGS="--quick" | tee build/bench-make.log
grep -q "^charts: " build/bench-make.log
test -s build/bench/tables.txt
test -s build/bench/table1-memset.dat
test -s build/bench/table2-timingsafe_memcmp.dat
test -s build/bench/memlane-bench.gp
