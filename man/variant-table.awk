# SPDX-License-Identifier: BSD-2-Clause
# Fills in memlane(7)'s table of functions x levels.
#   awk -f variant-table.awk variants.txt memlane.7.in > memlane.7
# variants.txt: "function variant ML_LEVEL" per variant (see mk/install.mk).
# The template's line "@VARIANT_ROWS@" becomes one tbl row per function:
# "yes" where the level has one variant, named after it; the variants'
# names where it has others; "no" where it has none.  memset_explicit shares memset's variants.
BEGIN {
    nlev = split("generic sse2 avx2 avx512", lev, " ")
    for (i = 1; i <= nlev; i++)
        col["ML_" toupper(lev[i])] = i
}
FNR == NR {
    if (!($3 in col)) {
        print "variant-table.awk: unknown level " $3 " of " $1 "/" $2 > "/dev/stderr"
        failed = 1
        exit 1
    }
    if (!($1 in seen)) {
        seen[$1] = 1
        order[++nfun] = $1
    }
    key = $1 SUBSEP col[$3]
    names = (key in has) ? has[key] ", " $2 : $2
    has[key] = names
    next
}
$0 == "@VARIANT_ROWS@" {
    for (f = 1; f <= nfun; f++) {
        row(order[f], order[f])
        if (order[f] == "memset")
            row("memset_explicit", "memset")
    }
    next
}
{ print }
function row(label, fn,    i, line) {
    line = label
    for (i = 1; i <= nlev; i++)
        line = line "\t" cell(fn, i)
    print line
}
# "yes" for the one variant named after its level, else the names.
function cell(fn, i,    k) {
    k = fn SUBSEP i
    if (!(k in has))
        return "no"
    return has[k] == lev[i] ? "yes" : has[k]
}
END { if (failed) exit 1 }
