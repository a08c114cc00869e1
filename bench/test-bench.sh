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

# bad_msg TEXT ARGS...: as bad, and the line contains TEXT (fixed string).
bad_msg() {
    text=$1; shift
    bad "$@"
    if grep -qF -- "$text" "$tmp/err"; then ok; else
        no "bad input '$*': message lacks '$text':"; sed 's/^/  /' "$tmp/err" | head -3; fi
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
# --mismatch-share, --caller: named in the headers; MEMLANE_BENCH_CHECK=1
# checks every call of every layout against the differences recorded.
export MEMLANE_BENCH_CHECK=1
run mismatch-share -q --tables=1,2 -f memcmp --data=mismatch \
    --mismatch-share=25 --caller=branch --sizes=8,300 -d Short --runs=3
unset MEMLANE_BENCH_CHECK
has 'per call in 25 % of the calls \(the rest equal\), the caller branching on each result'

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
has '^BenchmarkTsMemcmp/data=equal/dist=Short/impl=memlane-generic[[:space:]]+[0-9]+[[:space:]]+[0-9.]+ ns/op[[:space:]]+[0-9.]+ MB/s'
has '^BenchmarkMemset/size=64/impl=libc[[:space:]]'

# gobench names are key=value sub-benchmarks, as benchstat projects them
# (benchstat itself is not installed here; this parses the names the way
# it does): Benchmark<Function>, data= for the comparisons only, size=
# (table 1) or dist= (table 2), impl= last; keys once each.  And what
# `benchstat -col /impl` makes of them: every row (the name without
# /impl) has at least two implementations to compare.
gobench_names() { # file
    awk '/^Benchmark/ { print $1 }' "$1" | awk -F/ '
        {
            why = ""; row = $1; impl = ""; table = ""
            for (k in seen) delete seen[k]
            if ($1 !~ /^Benchmark(Memset|Memcmp|Bcmp|TsBcmp|TsMemcmp)$/) why = "function"
            for (i = 2; i <= NF && why == ""; i++) {
                if (split($i, kv, "=") != 2 || kv[2] == "") { why = "not key=value"; break }
                if (kv[1] in seen) { why = "key twice"; break }
                seen[kv[1]] = 1
                if (kv[1] == "impl") { if (i != NF) why = "impl not last"; impl = kv[2]; continue }
                if (kv[1] == "size") { if (kv[2] !~ /^[0-9]+$/) why = "size"; table = 1 }
                else if (kv[1] == "dist") { if (kv[2] !~ /^(Short|Mid|Long|Uniform512)$/) why = "dist"; table = 2 }
                else if (kv[1] == "data") { if (kv[2] !~ /^(equal|mismatch)$/) why = "data" }
                else why = "unknown key " kv[1]
                row = row "/" $i
            }
            if (why == "" && (impl == "" || table == "")) why = "impl or size/dist missing"
            if (why == "" && ($1 == "BenchmarkMemset") == ("data" in seen)) why = "data= (comparisons only)"
            if (why != "") { print why ": " $0; bad = 1; next }
            if (!((row, impl) in cell)) { cell[row, impl] = 1; impls[row] = impls[row] " " impl }
        }
        END {
            for (r in impls) {
                if (split(impls[r], list, " ") < 2) { print "one implementation in row " r; bad = 1 }
            }
            exit bad
        }'
}
if out=$(gobench_names "$tmp/gobench"); then ok; else no "gobench names: $out"; fi
run gobench-data -q --tables=1,2 -f memcmp,ts_bcmp --data=both --sizes=0,100 -d Short --runs=2 \
    --impls=libc,libc-memcmp,memlane --format=gobench
if out=$(gobench_names "$tmp/out"); then ok; else no "gobench names (--data=both): $out"; fi
has '^BenchmarkMemcmp/data=mismatch/size=100/impl=libc[[:space:]]'
has '^BenchmarkTsBcmp/data=equal/dist=Short/impl=bytewise-ct[[:space:]]'
# The parser must reject positional names (the old format) and a name
# without impl=.
printf 'BenchmarkMemsetFixed/64/libc\t1\t1 ns/op\nBenchmarkMemset/size=64\t1\t1 ns/op\n' > "$tmp/old"
if gobench_names "$tmp/old" >/dev/null; then no "gobench name check accepts positional names"; else ok; fi

# csv: a header, then lines with as many fields.
run csv -q --quick --sizes=0,64 --format=csv
cols=$(grep -v '^#' "$tmp/out" | head -1 | awk -F, '{print NF}')
odd=$(grep -v '^#' "$tmp/out" | awk -F, -v n="$cols" 'NF != n' | head -3)
if [ "$cols" -ge 10 ] && [ -z "$odd" ]; then ok; else no "csv: ragged lines: $odd"; fi
has '^table,benchmark,function'
has '^2,TsBcmpLong,timingsafe_bcmp,equal,bytewise-ct,Long,5,'

# Plot data, and the chart script next to it: bench/plot.gp as it is.
run plot -q --quick --sizes=0,64,128 --plot-dir="$tmp/plot" --plot-tag=t
if cmp -s "$tmp/plot/memlane-bench.gp" bench/plot.gp; then ok; else
    no "--plot-dir: memlane-bench.gp differs from bench/plot.gp"; fi
for f in table1-memset-t table2-memset-t table2-timingsafe_memcmp-t; do
    if [ -s "$tmp/plot/$f.dat" ]; then ok; else no "plot data $f.dat missing"; fi
done
if head -1 "$tmp/plot/table1-memset-t.dat" | grep -q '^size libc .*memlane$' &&
   [ "$(wc -l <"$tmp/plot/table1-memset-t.dat")" -eq 4 ]; then ok; else
    no "table1 plot data malformed"; fi

# Calibration prints both settings, each with this CPU's default.
run calibrate --calibrate --quick -q
thr='([0-9]+[KMG]?|off)'
has "^MEMLANE_REP_STOSB_THRESHOLD=([0-9]+|off) +# measured $thr; default on this CPU $thr\$"
has "^MEMLANE_NT_THRESHOLD=([0-9]+|off) +# measured $thr; default on this CPU $thr\$"
cal_defaults=$(sed -n 's/^MEMLANE_\(REP_STOSB\|NT\)_THRESHOLD=.*default on this CPU //p' "$tmp/out" | tr '\n' ' ')

# The header's thresholds: in effect, and this CPU's defaults, which are
# what calibration printed and what memset uses with no variable set.
run thresholds -q --tables=1 --sizes=0 --runs=1
hdr_re="^memset-thresholds: rep-stosb=$thr nt=$thr \\(this CPU's defaults: rep-stosb=$thr nt=$thr\\)\$"
has "$hdr_re"
hdr=$(grep '^memset-thresholds: ' "$tmp/out")
set -- $(printf '%s\n' "$hdr" | sed 's/[^ ]*=\([^ )]*\)/\1/g; s/[^ ]*: //; s/(this CPU.s defaults: //; s/)//')
if [ "$1 $2" = "$3 $4" ] && [ "$3 $4 " = "$cal_defaults" ]; then ok; else
    no "thresholds: header '$hdr', calibration defaults '$cal_defaults'"; fi
if MEMLANE_NT_THRESHOLD=1M MEMLANE_REP_STOSB_THRESHOLD=off "$BENCH" -q --tables=1 --sizes=0 --runs=1 >"$tmp/out" 2>&1 &&
   grep -q "^memset-thresholds: rep-stosb=off nt=1M (this CPU's defaults: rep-stosb=$3 nt=$4)\$" "$tmp/out"; then ok; else
    no "thresholds under MEMLANE_*: $(grep thresholds "$tmp/out")"; fi

# The compares' prefetch band, in effect and this CPU's default.
band='([0-9]+[KMG]?-[0-9]+[KMG]?|off)'
has "^cmp-prefetch: $band \\(this CPU's default: $band\\)\$"
set -- $(sed -n 's/^cmp-prefetch: \([^ ]*\) (this CPU.s default: \([^)]*\))$/\1 \2/p' "$tmp/out")
if [ $# = 2 ] && [ "$1" = "$2" ]; then ok; else no "cmp-prefetch: $(grep cmp-prefetch "$tmp/out")"; fi
if MEMLANE_CMP_PREFETCH=2M-8M "$BENCH" -q --tables=1 --sizes=0 --runs=1 >"$tmp/out" 2>&1 &&
   grep -q "^cmp-prefetch: 2M-8M (this CPU's default: $2)\$" "$tmp/out"; then ok; else
    no "cmp-prefetch under MEMLANE_CMP_PREFETCH=2M-8M: $(grep cmp-prefetch "$tmp/out")"; fi

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
bad --mismatch-share=101
bad --mismatch-share=x
bad --caller=maybe
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
# Options without a value given one: named, not shown as their code.
for o in list quick isolate help quiet calibrate; do
    bad_msg "option '--$o' takes no value" "--$o=yes"
done
# Empty items in every list, as in --sizes.
bad_msg "empty item in --functions" -f memset,,memcmp
bad_msg "empty item in --functions" --functions=memset,
bad_msg "empty item in --tables" -t 1,,2
bad_msg "empty item in --impls" --impls=,libc
bad_msg "empty item in --dists" -d Short,,Mid
# Numbers: digits only (strtoul takes blanks and signs: ' -1' is 2^64-1).
bad_msg "--seed must be a whole number" "--seed= -1"
bad_msg "--seed must be a whole number" --seed=-1
bad_msg "--seed must be a whole number" --seed=+1
bad_msg "--seed must be a whole number" --seed=18446744073709551616
bad_msg "--seed must be a whole number" --seed=1x
bad_msg "--runs must be a whole number" "--runs= 5"
bad_msg "--cpu must be a whole number" --cpu=-1
bad_msg "--columns must be a whole number" --columns=0x3
bad_msg "--batch must be" "--batch= 5"
bad_msg "--batch must be" --batch=0x10
bad_msg "--batch must be" --batch=-1
bad_msg "--batch must be" --batch=nan
# A --plot-dir that cannot take files: rejected before measuring (no
# output at all), exit 2.
bad_msg "--plot-dir '/dev/null/x'" -q --tables=1 --sizes=0 --runs=1 --plot-dir=/dev/null/x
if [ -s "$tmp/out" ]; then no "bad --plot-dir: output before the check"; else ok; fi
# Output that cannot be written (a full disk): exit 1 and one line.
for args in "--list" "--help" "-q --tables=1 --sizes=0 --runs=1"; do
    # shellcheck disable=SC2086
    "$BENCH" $args >/dev/full 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q '^memlane-bench: cannot write standard output' "$tmp/err"; then ok; else
        no "$args >/dev/full: exit $rc:"; head -3 "$tmp/err"; fi
done
# A long run is announced up front (a lower bound above 10 minutes
# warns, even with -q); the address-space limit then stops it before
# any measurement.
( ulimit -v 300000 2>/dev/null && exec "$BENCH" -q -n 10000 -s 1G --tables=1 ) \
    >"$tmp/out" 2>"$tmp/err"
if grep -q '^memlane-bench: warning: this run takes at least [0-9.]* \(minutes\|hours\)' "$tmp/err"; then ok; else
    no "-n 10000 -s 1G: no run-time warning:"; head -3 "$tmp/err"; fi
"$BENCH" -q --tables=1 --sizes=0,64 --runs=2 >"$tmp/out" 2>"$tmp/err"
if [ -s "$tmp/err" ]; then no "short -q run: stderr not empty:"; head -3 "$tmp/err"; else ok; fi
# The exit statuses are documented.
"$BENCH" --help >"$tmp/out"
has '^Exit status:'
has '^  1  an output could not be written'
has '^  2  bad usage'

# A buffer that cannot be allocated: limit the address space.
( ulimit -v 300000 2>/dev/null && exec "$BENCH" -q --tables=1 --sizes=512M --runs=1 ) \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -q 'cannot allocate' "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok; else
    no "unallocatable buffer: exit $rc"; head -3 "$tmp/err"; fi

echo "memlane-bench tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
