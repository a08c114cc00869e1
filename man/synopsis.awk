# SPDX-License-Identifier: BSD-2-Clause
# Fills in memlane(7)'s synopsis from the header, so that a new function
# needs no edit of the page.
#   awk -f synopsis.awk include/memlane.h memlane.7.in
# Every prototype of a memlane_ function on one line of the header becomes
# a .BI line, the parameter names in italics; "@SYNOPSIS@" is replaced by
# them, in the header's order.
FNR == NR {
    if ($0 ~ /^[a-z].*[ *]memlane_[a-z0-9_]*\(.*\);$/)
        protos[++n] = bi($0)
    next
}
$0 == "@SYNOPSIS@" {
    if (n == 0) {
        print "synopsis.awk: no prototypes in " FILENAME > "/dev/stderr"
        exit 1
    }
    for (i = 1; i <= n; i++)
        print protos[i]
    next
}
{ print }
# "int f(const void *a, size_t n);" -> .BI "int f(const void *" a ", size_t " n );
function bi(line,    open, head, args, k, a, out, name, type, i) {
    open = index(line, "(")
    head = substr(line, 1, open)
    args = substr(line, open + 1, length(line) - open - 2)
    if (args == "void")
        return ".BI \"" head "void);\""
    k = split(args, a, /, /)
    out = ".BI \"" head
    for (i = 1; i <= k; i++) {
        match(a[i], /[A-Za-z_][A-Za-z0-9_]*$/)
        name = substr(a[i], RSTART)
        type = substr(a[i], 1, RSTART - 1)
        out = out (i > 1 ? " \", " : "") type "\" " name
    }
    return out " );"
}
