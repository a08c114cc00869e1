#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Check 1: instruction allow-list on the object code.
#
#   check-insn.sh LIST LIBRARY CONTROLS_OBJ ALLOWLIST
#
# LIST (from ct-list) names every timingsafe variant in the variant table
# and the leaky controls.  Each variant's symbol is disassembled from the
# static library as built (objdump -d), together with compiler-made parts
# of it (sym.cold, sym.part.N, ...), and every instruction's mnemonic must
# be on the allow-list; any call fails.  The controls come from their own
# object: ct_leaky_tzcnt must be flagged (tzcnt) and ct_leaky_libcall too
# (call), or this check is not working and fails.  Prints one line per
# function and "N passed, N failed" last.
set -u
list=$1 lib=$2 ctl=$3 allow=$4
OBJDUMP=${OBJDUMP:-objdump}

if ! command -v "$OBJDUMP" >/dev/null; then
    echo "check-insn: $OBJDUMP not found"; echo "0 passed, 1 failed"; exit 1
fi

passed=0 failed=0
# Disassembly of one symbol and its parts: "offset<TAB>instruction text".
# int3s at the end of a part are the padding lld puts between functions
# (GNU ld pads with nops): left out; an int3 followed by code is kept.
disasm() { # file symbol
    "$OBJDUMP" -d --no-show-raw-insn "$1" | awk -v sym="$2" '
        /^[0-9a-f]+ <.*>:$/ {
            name = $2; sub(/^</, "", name); sub(/>:$/, "", name)
            keep = (name == sym || index(name, sym ".") == 1)
            part = name; pad = ""; next
        }
        keep && /^ *[0-9a-f]+:\t/ {
            line = $0; sub(/^ *[0-9a-f]+:\t/, "", line)
            addr = $1; sub(/:$/, "", addr)
            if (line ~ /^int3[ \t]*$/) { pad = pad part "+0x" addr "\t" line "\n"; next }
            printf "%s", pad; pad = ""
            print part "+0x" addr "\t" line
        }'
}

# Verdict on each instruction: "ok mnemonic" or "bad mnemonic reason".
classify() { # allowlist
    awk -v allowfile="$1" -F'\t' '
        BEGIN {
            while ((getline l < allowfile) > 0) {
                if (l ~ /^#/ || l ~ /^[ \t]*$/) continue
                split(l, w, /[ \t]+/); cls[w[1]] = w[2]
            }
        }
        {
            n = split($2, tok, /[ \t]+/); i = 1
            # Prefixes that do not change what the instruction does.
            while (i < n && tok[i] ~ /^(cs|ds|ss|es|data16|addr32|notrack|bnd)$/) i++
            m = tok[i]; ops = (i < n) ? tok[i + 1] : ""
            where = $1
            if (m ~ /^call/) { print "bad\t" where "\t" m "\ta call (calls are never allowed)"; next }
            if ((m == "rep" || m == "repz") && tok[i + 1] ~ /^ret/) { print "ok\t" where "\tret"; next }
            if (m ~ /^nop[lwq]?$/ || (m == "xchg" && ops == "%ax,%ax")) { print "ok\t" where "\tnop"; next }
            base = m
            if (m ~ /^movz[bw][wlq]$/) base = "movzx"
            else if (m ~ /^movs[bw][wlq]$/ || m == "movslq") base = "movsx"
            else if (!(m in cls) && m ~ /[bwlq]$/) {
                b = substr(m, 1, length(m) - 1)
                if ((b in cls) && cls[b] == "gpr") base = b
            }
            sub(/q$/, "", base) # retq, jmpq, callq (old objdump)
            if (!(base in cls)) base = m
            if (base in cls) print "ok\t" where "\t" base
            else print "bad\t" where "\t" m "\tnot on the DOIT allow-list"
        }'
}

while read -r function variant sym control; do
    if [ "$control" = 1 ]; then file=$ctl; else file=$lib; fi
    out=$(disasm "$file" "$sym" | classify "$allow")
    ninsn=$(printf '%s\n' "$out" | grep -c '^ok\|^bad')
    bad=$(printf '%s\n' "$out" | grep '^bad' || true)
    if [ "$ninsn" -eq 0 ]; then
        echo "FAIL insn $function/$variant: symbol $sym not found in $file"
        failed=$((failed + 1)); continue
    fi
    if [ "$control" = 1 ]; then
        case $variant in
        leaky_tzcnt) want=tzcnt ;;
        leaky_libcall) want=call ;;
        *) want= ;;
        esac
        if [ -z "$want" ]; then
            echo "control $variant: $(printf '%s\n' "$bad" | grep -c . ) instructions off the list (informational: an early exit uses only listed instructions, which is why checks 2-4 exist)"
            continue
        fi
        if printf '%s\n' "$bad" | cut -f3 | grep -q "^$want"; then
            echo "control $variant: flagged ($(printf '%s\n' "$bad" | cut -f2,3 | grep -m1 "	$want" | tr '\t' ' ')), as it must be"
            passed=$((passed + 1))
        else
            echo "FAIL insn: control $variant not flagged for $want; the allow-list check is not working"
            failed=$((failed + 1))
        fi
        continue
    fi
    if [ -n "$bad" ]; then
        printf '%s\n' "$bad" | head -n 10 | while IFS=$'\t' read -r _ where m why; do
            echo "FAIL insn $function/$variant (every length): '$m' at $where: $why"
        done
        failed=$((failed + 1))
    else
        mn=$(printf '%s\n' "$out" | cut -f3 | sort -u | tr '\n' ' ')
        echo "ok $function/$variant: $ninsn instructions, all allowed: $mn"
        passed=$((passed + 1))
    fi
done < "$list"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
