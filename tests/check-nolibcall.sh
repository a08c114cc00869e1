#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# check-nolibcall.sh FILE [NAMES_FROM]: no function in FILE (a shared
# object or executable; or an object or archive, read with its
# relocations) calls or jumps to a memory function of the C library:
# memset, memcmp, bcmp, memcpy, memmove and their fortified and explicit
# relatives.  The library is built with -fno-builtin (gcc also
# -fno-tree-loop-distribute-patterns) so that no loop of it becomes such a
# call, which in the drop-in would be a call to itself; link-time
# optimisation must keep it that way.  With NAMES_FROM (an ELF file),
# only the functions that NAMES_FROM defines are examined, by name
# (a suffix such as .lto_priv.0 or .constprop.0 ignored): the library's
# code inside a program that may call memset itself.
#
# A call is named by its target: a symbol, or a PLT stub or GOT slot
# whose relocation names the symbol, or, for glibc's IFUNCs in a static
# executable (an IRELATIVE relocation), the symbol at the resolver's
# address.
set -u
file=$1 names_from=${2:-}
LIBCALLS='memset|memcmp|bcmp|memcpy|memmove|bzero|explicit_bzero|memset_explicit|timingsafe_bcmp|timingsafe_memcmp|__memset_chk|__memcpy_chk|__memmove_chk|__explicit_bzero_chk'

names=
if [ -n "$names_from" ]; then
    names=$(nm --defined-only "$names_from" | awk '$2 ~ /^[tTiW]$/ { sub(/\..*/, "", $3); print $3 }' |
            sort -u | tr '\n' ' ') || exit 2
    [ -n "$names" ] || { echo "check-nolibcall: no functions in $names_from"; exit 2; }
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
objdump -dr --no-show-raw-insn "$file" > "$tmp/dis" || exit 2
grep -q '>:$' "$tmp/dis" || { echo "check-nolibcall: no code in $file (objects of IR only?)"; exit 2; }
# Symbols by address, and relocations (slot, type, value or addend, name).
nm --defined-only "$file" 2>/dev/null > "$tmp/syms"
readelf -rW "$file" 2>/dev/null > "$tmp/relocs"

bad=$(awk -v calls="^($LIBCALLS)$" -v names=" $names" -v syms="$tmp/syms" -v relocs="$tmp/relocs" '
    function hex(s) { sub(/^0x/, "", s); sub(/^0+/, "", s); return s == "" ? "0" : s }
    # A symbol name without version, PLT and offset decorations.
    function bare(s) { sub(/^</, "", s); sub(/>$/, "", s); sub(/\+0x[0-9a-f]+$/, "", s)
                       sub(/@.*/, "", s); return s }
    function libcall(list,   n, i, w) {
        n = split(list, w, " ")
        for (i = 1; i <= n; i++) if (w[i] ~ calls) return w[i]
        return ""
    }
    BEGIN {
        while ((getline l < syms) > 0) {
            split(l, f, " ")
            if (f[3] != "") at[hex(f[1])] = at[hex(f[1])] " " f[3]
        }
        while ((getline l < relocs) > 0) {
            n = split(l, f, " ")
            if (f[3] ~ /JUMP_SLOT|GLOB_DAT|_64$/ && n >= 5) slot[hex(f[1])] = bare(f[5])
            else if (f[3] ~ /IRELATIVE/) slot[hex(f[1])] = at[hex(f[n])]
        }
    }
    /^[0-9a-f]+ <.*>:$/ {
        fn = $2; sub(/^</, "", fn); sub(/>:$/, "", fn)
        base = fn; sub(/\..*/, "", base)
        on = names == " " || index(names, " " base " ") > 0
        prev = ""; next
    }
    # PLT stubs: the address called (the jmp, or the endbr64 before it)
    # and the GOT slot it jumps through.
    /^ *[0-9a-f]+:/ {
        addr = $1; sub(/:$/, "", addr); addr = hex(addr)
        if ($0 ~ /jmp +\*0x[0-9a-f]+\(%rip\) +# [0-9a-f]+/) {
            s = $0; sub(/.*# /, "", s); sub(/ .*/, "", s)
            stub[addr] = hex(s); if (prev != "") stub[prev] = hex(s)
        }
        prev = ($0 ~ /endbr64/) ? addr : ""
    }
    !on { next }
    /[[:space:]](call|jmp)[a-z]*[[:space:]]/ {
        ncalls++; line[ncalls] = fn ": " $0
        t = $0; sub(/.*(call|jmp)[a-z]*[[:space:]]+/, "", t)
        if (t ~ /^\*/) {                 # through a GOT slot: "# slot <name>"
            s = $0; if (s !~ /# [0-9a-f]+/) { ncalls--; next }
            sub(/.*# /, "", s); split(s, g, " ")
            tslot[ncalls] = hex(g[1]); tname[ncalls] = bare(g[2])
        } else {
            split(t, g, " "); taddr[ncalls] = hex(g[1]); tname[ncalls] = bare(g[2])
        }
        next
    }
    # relocations in objects: R_X86_64_PLT32 memset-0x4
    on && /R_[A-Z0-9_]+[[:space:]]/ {
        t = $NF; sub(/[-+]0x[0-9a-f]+$/, "", t)
        if (t ~ calls) print fn ": " $0
    }
    END {
        for (i = 1; i <= ncalls; i++) {
            who = libcall(tname[i])
            if (who == "" && (taddr[i] in stub)) who = libcall(slot[stub[taddr[i]]])
            if (who == "" && tslot[i] != "") who = libcall(slot[tslot[i]])
            if (who != "") print line[i] "  (" who ")"
        }
    }' "$tmp/dis")
if [ -n "$bad" ]; then
    echo "check-nolibcall: $file: calls to the C library's memory functions:"
    printf '%s\n' "$bad" | head -20
    exit 1
fi
echo "check-nolibcall: $file: no call to the C library's memory functions${names_from:+ in the functions of $names_from}"
