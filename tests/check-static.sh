#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-static.sh FILE TYPE: FILE is a statically linked executable of ELF
# type TYPE (EXEC: -static; DYN: -static-pie): no program interpreter, no
# shared library needed.  A toolchain that quietly ignores -static-pie
# (musl-gcc does) makes a dynamic executable that runs all the same.
set -u
file=$1 want=$2
header=$(readelf -h "$file") || exit 1
type=$(printf '%s\n' "$header" | sed -n 's/^ *Type: *\([A-Z]*\).*/\1/p')
fail=
[ "$type" = "$want" ] || fail="ELF type $type, want $want"
readelf -l "$file" | grep -q 'INTERP' && fail="${fail:+$fail; }has a program interpreter"
readelf -d "$file" | grep -q '(NEEDED)' && fail="${fail:+$fail; }needs shared libraries"
if [ -n "$fail" ]; then
    echo "check-static: $file: $fail"
    exit 1
fi
echo "check-static: $file: static, ELF type $type"
