#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# memset_explicit must survive optimisation: build a caller whose buffer
# is dead after the wipe with -O3 and with -O3 -flto, link it against the
# static library, and read the machine code of the caller.  The call (or
# tail jump) to memlane_memset_explicit must be there, and the control
# (plain memset on a dead buffer) must be gone, which shows the check can
# tell the two apart.
#   explicit_survives.sh CC LIBMEMLANE_A OUTDIR
set -u
cc=$1 lib=$2 out=$3
src=$(dirname "$0")/explicit_caller.c
mkdir -p "$out"
pass=0 fail=0

# Machine code of one function of a linked program.
body() { objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f {on = 1; next} on && /^$/ {exit} on'; }

for flags in "-O3" "-O3 -flto"; do
    tag=$(echo "$flags" | tr -d ' -')
    exe=$out/explicit-$tag
    if ! $cc $flags -std=gnu11 -Iinclude -Isrc "$src" "$lib" -o "$exe"; then
        echo "FAIL explicit [$flags]: cannot build $src with $cc"
        fail=$((fail + 1)); continue
    fi
    if ! "$exe"; then
        echo "FAIL explicit [$flags]: the program returned an error"
        fail=$((fail + 1)); continue
    fi
    ex=$(body "$exe" wipe_explicit)
    pl=$(body "$exe" wipe_plain)
    if [ -z "$ex" ] || [ -z "$pl" ]; then
        echo "FAIL explicit [$flags]: wipe_explicit/wipe_plain not found in $exe"
        fail=$((fail + 1)); continue
    fi
    if echo "$ex" | grep -Eq '(call|jmp)[[:space:]]+[0-9a-f]+ <memlane_memset_explicit'; then
        echo "ok   explicit [$flags]: wipe_explicit still calls memlane_memset_explicit"
        pass=$((pass + 1))
    else
        echo "FAIL explicit [$flags]: the call to memlane_memset_explicit was removed:"
        echo "$ex"
        fail=$((fail + 1))
    fi
    # The control: after the key is filled, no memset call and no store to
    # the stack frame (an inlined memset would be one) may be left.
    after=$(echo "$pl" | sed -n '/call.*<fill_key/,$p' | tail -n +2)
    if echo "$after" | grep -Eq '(call|jmp)[[:space:]]+[0-9a-f]+ <(memset|memlane_memset)' ||
       echo "$after" | grep -Eq ',[-0-9a-fx]*\(%r[sb]p(,[^)]*)?\)$'; then
        echo "FAIL explicit [$flags]: control: $cc kept the dead memset, so this check proves nothing"
        fail=$((fail + 1))
    else
        echo "ok   explicit [$flags]: control: $cc removed the plain dead memset"
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
