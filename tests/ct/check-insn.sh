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
# The parts are the compiler's pieces of it (sym.cold, sym.part.N, ...)
# and every function of the same object that its code jumps to, such as
# a tail call to a static helper, followed to the end.  A jump the object
# leaves to a relocation is followed to the function its symbol (or
# section and offset) names; one that leads to no function of the object,
# or (linked) to a PLT entry, is reported.
# int3s at the end of a part are the padding lld puts between functions
# (GNU ld pads with nops): left out; an int3 followed by code is kept.
disasm() { # file symbol
    # In a relocatable object every section starts at 0, so a resolved
    # jump is looked up in its own section; in a linked file anywhere.
    rel=0
    readelf -h "$1" 2>/dev/null | grep -q 'Type:[[:space:]]*REL ' && rel=1
    "$OBJDUMP" -dr --no-show-raw-insn "$1" | awk -v sym="$2" -v rel="$rel" '
        function hex(s,    v, i) {
            v = 0; s = tolower(s)
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v
        }
        # the function of object o (and section sec, if given) holding
        # address a: the one starting last at or before it (0: none)
        function holder(o, sec, a,    g, best) {
            best = 0
            for (g = nf; g >= 1; g--)
                if (fobj[g] == o && (sec == "" || fsec[g] == sec) && fstart[g] <= a &&
                    (!best || fstart[g] > fstart[best])) best = g
            return best
        }
        function add(g) { if (g && !(g in keep)) { keep[g] = 1; grew = 1 } }
        / file format / { obj++; next }
        /^Disassembly of section / { sec = $4; sub(/:$/, "", sec); next }
        /^[0-9a-f]+ <.*>:$/ {
            name = $2; sub(/^</, "", name); sub(/>:$/, "", name)
            nf++; fname[nf] = name; fobj[nf] = obj; fsec[nf] = sec; fstart[nf] = hex($1)
            if (name == sym || index(name, sym ".") == 1) keep[nf] = 1
            next
        }
        nf && /^ *[0-9a-f]+:\t/ {
            line = $0; sub(/^ *[0-9a-f]+:\t/, "", line)
            addr = $1; sub(/:$/, "", addr)
            nl++; lf[nl] = nf; laddr[nl] = addr; ltext[nl] = line
            ljump[nl] = (line ~ /^((bnd|notrack)[ \t]+)?j[a-z]+[ \t]/)
            if (ljump[nl] && match(line, /[ \t][0-9a-f]+ </))
                ltarget[nl] = hex(substr(line, RSTART + 1, RLENGTH - 3))
            next
        }
        # a relocation on the jump just read: its symbol and addend
        nl && /^[ \t]+[0-9a-f]+: R_X86_64_/ && ljump[nl] && lf[nl] == nf {
            t = $NF; off = 0
            if (match(t, /[-+]0x[0-9a-f]+$/)) {
                off = hex(substr(t, RSTART + 3))
                if (substr(t, RSTART, 1) == "-") off = -off
                t = substr(t, 1, RSTART - 1)
            }
            lsym[nl] = t; loff[nl] = off + 4 # rel32 at the end of the jump
            delete ltarget[nl]
        }
        END {
            grew = 1
            while (grew) {
                grew = 0
                for (i = 1; i <= nl; i++) {
                    f = lf[i]
                    if (!(f in keep) || !ljump[i]) continue
                    if (i in ltarget) {
                        g = holder(fobj[f], rel ? fsec[f] : "", ltarget[i])
                        # none, or a PLT entry (code of another object: a libc call)
                        if (!g) { lost[i] = 1; lsym[i] = "(no-symbol)" }
                        else if (fsec[g] ~ /^\.plt/) { lost[i] = 1; lsym[i] = fname[g] }
                        else add(g)
                    } else if (i in lsym) {
                        found = 0
                        if (substr(lsym[i], 1, 1) == ".") {
                            g = holder(fobj[f], lsym[i], loff[i]); add(g); found = g > 0
                        } else {
                            for (g = 1; g <= nf; g++)
                                if (fobj[g] == fobj[f] && fname[g] == lsym[i]) { add(g); found = 1 }
                        }
                        if (!found) lost[i] = 1
                    }
                }
            }
            for (i = 1; i <= nl; i++) {
                f = lf[i]
                if (!(f in keep)) continue
                if (f != prev) { pad = ""; prev = f }
                where = fname[f] "+0x" laddr[i]
                if (i in lost) { print where "\tjump-outside " lsym[i]; continue }
                if (ltext[i] ~ /^int3[ \t]*$/) { pad = pad where "\t" ltext[i] "\n"; continue }
                printf "%s", pad; pad = ""
                print where "\t" ltext[i]
            }
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
            if (m == "jump-outside") { print "bad\t" where "\t" m "\ta jump to " tok[i + 1] ", which is no function of this object"; next }
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
        leaky_tailjump) want=tzcnt ;; # in the function it jumps to
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
