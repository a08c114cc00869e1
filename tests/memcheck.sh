#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# memcheck.sh TEST_BIN FUNCTIONS...: the test suite under valgrind
# (`make memcheck`).  valgrind's CPU hides AVX-512, so the suite's "every
# variant the CPU supports" becomes every variant valgrind can run.  The
# suite is run per function (which leaves out its MEMLANE_ARCH re-exec
# suite: a re-exec of /proc/self/exe under valgrind starts valgrind's own
# binary); the dispatcher is checked instead by --arch-probe under
# valgrind for every MEMLANE_ARCH value: entry points work, nothing above
# the CPU's level is selected, an AVX-512 variant never is, and none that
# reads around its buffers (the dispatcher detects valgrind,
# src/dispatch.c).  MEMCHECK_ARGS (environment) goes to the suite's run.
set -eu
bin=$1
shift
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"

native=$($bin no-such-function | sed -n 1p)
under=$($vg $bin no-such-function | sed -n 1p)
echo "memcheck: natively:      $native"
echo "memcheck: under valgrind: $under"
case "$under" in *"CPU level avx512"*)
    echo "memcheck: valgrind reports AVX-512 usable: it cannot run it"; exit 1;;
esac
for arch in unset generic sse2 avx2 avx512; do
    if [ $arch = unset ]; then env=; else env=MEMLANE_ARCH=$arch; fi
    out=$(env $env $vg $bin --arch-probe 2>&1) ||
        { echo "memcheck: --arch-probe failed under valgrind ($env):"; echo "$out"; exit 1; }
    case "$out" in *"calls ok"*) ;; *)
        echo "memcheck: entry points wrong under valgrind: $out"; exit 1;;
    esac
    case "$out" in *"in-bounds: yes"*) ;; *)
        echo "memcheck: a variant that reads around its buffers under valgrind: $out"; exit 1;;
    esac
    if echo "$out" | grep -q ' avx512$'; then
        echo "memcheck: dispatcher picked AVX-512 under valgrind ($env): $out"; exit 1
    fi
    echo "memcheck: dispatch under valgrind, MEMLANE_ARCH=$arch:" \
        $(echo "$out" | awk '/^[a-z_]+ [a-z0-9]+$/ {printf "%s=%s ", $1, $2}')
done
# shellcheck disable=SC2086
$vg $bin ${MEMCHECK_ARGS:-} "$@"
