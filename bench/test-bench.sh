#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Tests of memlane-bench itself: it runs, parses its flags, rejects bad
# input with exit status 2 and one line on stderr, and writes well-formed
# tables, Go benchmark lines, CSV and plot data.  No speed is asserted.
# Usage: BENCH=build/memlane-bench sh bench/test-bench.sh
set -u
BENCH=${BENCH:-build/memlane-bench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run NAME ARGS...: must exit 0.
run() {
    name=$1; shift
    if "$BENCH" "$@" >"$tmp/out" 2>"$tmp/err"; then ok; else
        no "$name: exit $? from $BENCH $*"; sed 's/^/  /' "$tmp/err" | head -5; fi
}

# bad ARGS...: must exit 2 with exactly one line on stderr, naming the tool.
bad() {
    "$BENCH" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    lines=$(wc -l <"$tmp/err")
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q '^memlane-bench: .*--help' "$tmp/err"; then
        ok
    else
        no "bad input '$*': exit $rc, $lines stderr lines:"; sed 's/^/  /' "$tmp/err" | head -3
    fi
}

# has PATTERN: the last output contains an extended-regex match.
has() { if grep -Eq -- "$1" "$tmp/out"; then ok; else no "output lacks /$1/"; fi; }

run help --help
has '^Usage: memlane-bench'
has -- '--calibrate'
# --version: the release in include/memlane.h (or $VERSION).
run version --version
want=${VERSION:-$(sed -n 's/^#define MEMLANE_VERSION_STRING "\(.*\)"$/\1/p' include/memlane.h)}
if [ "$(cat "$tmp/out")" = "memlane-bench (memlane) $want" ]; then ok; else
    no "--version printed '$(cat "$tmp/out")', want 'memlane-bench (memlane) $want'"; fi
run list --list
has '^  memlane-generic'
has '^  libc '
has '^  bytewise-ct'

# The default tables, quick, on few sizes: header and both tables.
run quick --quick -q --sizes=0-256:64
for key in cpu features memlane-level libc compiler date tsc; do has "^$key: "; done
has '^memset: TSC cycles per call by size'
has '^ +256 '
for row in MemsetShort MemsetMid MemsetLong MemcmpShort BcmpLong TsBcmpMid TsMemcmpShort; do
    has "^$row "
done
has '^geomean '
has 'vs base'
has '\(p=[0-9.]+ n=5\)'

# --mismatch-at: named in the table header.
run mismatch-at -q --tables=1 -f memcmp --data=mismatch --mismatch-at=5 --sizes=300 --runs=3
has 'inputs differ at position 5 '
run mismatch-range -q --tables=1 -f bcmp --data=mismatch --mismatch-at=0-31 --sizes=1,300 --runs=3
has 'inputs differ at one position in 0\.\.31 '

# Every option that takes a value, in one small run each.
run table1-cmp -q --tables=1 -f memcmp,ts_memcmp --data=both --sizes=0,1,63,4K \
    --footprint=L1 --align=1,3 --runs=3 --unit=ns
has '^memcmp: ns per call by size, fixed size, equal inputs'
has 'inputs differ at one random position'
has '^timingsafe_memcmp: '
# A CPU this process may run on (CPU 0 may be outside a container's set).
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status 2>/dev/null)
run table2-opts -q --tables=2 -f bcmp,memset -d Short,Uniform512 --data=mismatch \
    --runs=3 --batch=2 --base=libc --impls=libc,memlane --columns=1 --cpu=${cpu:-0} --seed=7
has '^BcmpUniform512Mismatch '
has '^MemsetShort '
has 'base libc'
run ratio -q --tables=1 -f ts_memcmp --sizes=64,4K --unit=ratio --base=libc-memcmp --runs=2
has '^timingsafe_memcmp: time per call relative to libc-memcmp by size'
if awk '$1 == "4K" { for (i = 2; i <= NF; i++) if ($i == "1.000") f = 1 } END { exit !f }' "$tmp/out"; then ok; else
    no "ratio: the base column is not 1.000"; fi
run isolate -q --tables=1,2 -f memcmp --data=mismatch --sizes=0,64 -d Short --runs=2 --isolate --impls=libc,memlane
has '^MemcmpShortMismatch '
has '^ +64 +[0-9.]+ +[0-9.]+$'
run base-fallback -q --tables=2 -f memcmp,ts_bcmp -d Long --base=libc --runs=2
has '^memcmp, equal inputs: base libc;'
has '^timingsafe_bcmp, equal inputs: base bytewise-ct;'
run footprint -q --tables=1 --sizes=1K-64K*4 --footprint=256K --runs=2 --impls=all
has 'nt-store-loop'

# gobench: config lines and benchmark lines only, the latter in Go's
# format (name, iterations, then value-unit pairs).
run gobench -q --quick --sizes=0,64 --format=gobench
cp "$tmp/out" "$tmp/gobench"
bench_re='^Benchmark[A-Z][^[:space:]]*[[:space:]]+[0-9]+([[:space:]]+[0-9.]+(e[-+]?[0-9]+)?[[:space:]]+[^[:space:]]+)+$'
conf_re='^[a-z][^[:space:]:]*: '
bad_lines=$(grep -Ev "$bench_re|$conf_re|^\$" "$tmp/gobench" | head -3)
if [ -z "$bad_lines" ]; then ok; else no "gobench lines not in Go's format: $bad_lines"; fi
nb=$(grep -Ec "$bench_re" "$tmp/gobench")
if [ "$nb" -ge 50 ]; then ok; else no "gobench: only $nb benchmark lines"; fi
has '^BenchmarkTsMemcmpShort/memlane-generic[[:space:]]+[0-9]+[[:space:]]+[0-9.]+ ns/op[[:space:]]+[0-9.]+ MB/s'
has '^BenchmarkMemsetFixed/64/libc[[:space:]]'

# csv: a header, then lines with as many fields.
run csv -q --quick --sizes=0,64 --format=csv
cols=$(grep -v '^#' "$tmp/out" | head -1 | awk -F, '{print NF}')
odd=$(grep -v '^#' "$tmp/out" | awk -F, -v n="$cols" 'NF != n' | head -3)
if [ "$cols" -ge 10 ] && [ -z "$odd" ]; then ok; else no "csv: ragged lines: $odd"; fi
has '^table,benchmark,function'
has '^2,TsBcmpLong,timingsafe_bcmp,equal,bytewise-ct,Long,5,'

# Plot data.
run plot -q --quick --sizes=0,64,128 --plot-dir="$tmp/plot" --plot-tag=t
for f in table1-memset-t table2-memset-t table2-timingsafe_memcmp-t; do
    if [ -s "$tmp/plot/$f.dat" ]; then ok; else no "plot data $f.dat missing"; fi
done
if head -1 "$tmp/plot/table1-memset-t.dat" | grep -q '^size libc .*memlane$' &&
   [ "$(wc -l <"$tmp/plot/table1-memset-t.dat")" -eq 4 ]; then ok; else
    no "table1 plot data malformed"; fi

# Calibration prints both settings.
run calibrate --calibrate --quick -q
has '^MEMLANE_REP_STOSB_THRESHOLD=([0-9]+|off)'
has '^MEMLANE_NT_THRESHOLD=([0-9]+|off)'

# Bad input: one line, exit 2.
bad --functions=nope
bad --impls=nope
bad --base=nope
bad --sizes=1,x
bad --sizes=
bad --sizes=2G
bad --sizes=0-10:0
bad --sizes=10-0:1
bad --sizes=0-64*2
bad --sizes=1,
bad --runs=0
bad --runs=abc
bad --footprint=0
bad --footprint=huge
bad --align=5000
bad --mismatch-at=9-3
bad --mismatch-at=x
bad --format=xml
bad --unit=furlongs
bad --tables=3
bad --dists=Tiny
bad --data=sometimes
bad --batch=0
bad --cpu=1000
bad --bogus
bad -Z
bad --runs
bad stray-argument
# A buffer that cannot be allocated: limit the address space.
( ulimit -v 300000 2>/dev/null && exec "$BENCH" -q --tables=1 --sizes=512M --runs=1 ) \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'cannot allocate' "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok; else
    no "unallocatable buffer: exit $rc"; head -3 "$tmp/err"; fi

echo "memlane-bench tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
