#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Tests of issue 9's area, run by `make test-install` (part of `make test`):
#   symbols  libmemlane.so exports exactly the API of include/memlane.h;
#            the drop-in exports exactly the seven standard names (and,
#            on glibc, two fortified entry points), and never calls itself
#   man      every page renders without a groff warning; the synopses
#            match the header; memlane(7)'s table matches the build
#   install  make install into a temporary DESTDIR, programs built through
#            pkg-config (shared and static) run; uninstall removes exactly
#            what install added
#   preload  calls before any constructor; real programs give the same
#            output under LD_PRELOAD as without it: the system's (glibc)
#            and small ones built here with $CC (tests/install/tools/,
#            the only ones on musl); a fortified program's checked calls
#            bind to the drop-in and still fail on overflow (glibc)
# Ends with "install: N passed, N failed"; exits non-zero on a failure.
#
# Environment (set by mk/install.mk): CC CFLAGS BASE_CFLAGS BUILD MAKE
# SONAME SOVERSION VERSION INSTALL_BENCH LIBC (glibc, musl: the Makefile's
# guess).  MEMLANE_REQUIRE_TOOLS=1 turns a missing
# tool (pkg-config, groff, mandoc) from a skip into a failure (CI sets it).
set -u

: "${CC:=cc}" "${CFLAGS:=-O2 -g}" "${BASE_CFLAGS:=-std=gnu11 -Iinclude -Isrc}"
: "${BUILD:=build}" "${MAKE:=make}" "${SONAME:=libmemlane.so.0}"
: "${VERSION:=$($MAKE -s version)}" "${SOVERSION:=$VERSION}"
: "${INSTALL_BENCH:=}" "${MEMLANE_REQUIRE_TOOLS:=}" "${LIBC:=glibc}"

passed=0 failed=0 skipped=0
T=$(mktemp -d "${TMPDIR:-/tmp}/memlane-install-test.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
SO=$BUILD/libmemlane.so.$SOVERSION
MAN_PAGES="$BUILD/man/memlane.7 $(ls man/*.3) man/memlane-bench.1"
PRELOAD=$(cd "$BUILD" && pwd)/libmemlane-preload.so
# The seven names the drop-in exports.
STD_NAMES="bcmp explicit_bzero memcmp memset memset_explicit timingsafe_bcmp timingsafe_memcmp"
# And glibc's fortified entry points (_FORTIFY_SOURCE) it takes over too;
# musl has none (src/preload/preload.c).
CHK_NAMES=
[ "$LIBC" = glibc ] && CHK_NAMES="__explicit_bzero_chk __memset_chk"

# check NAME COMMAND...: one test case; on failure its output is shown.
. "$(dirname "$0")/../lib/check.sh"

skip() {
    skipped=$((skipped + 1))
    echo "SKIP $1"
}

# A tool the tests need; absent: skip (or fail under MEMLANE_REQUIRE_TOOLS).
have_tool() {
    command -v "$1" >/dev/null 2>&1 && return 0
    if [ -n "$MEMLANE_REQUIRE_TOOLS" ]; then
        failed=$((failed + 1))
        echo "FAIL $1 is not installed (Debian: apt-get install $2)"
    else
        skip "tests that need $1 (Debian package $2)"
    fi
    return 1
}

same() { # same EXPECTED ACTUAL: compare two strings, show both on failure
    [ "$1" = "$2" ] && return 0
    printf 'expected:\n%s\ngot:\n%s\n' "$1" "$2"
    return 1
}

# The public API: every memlane_* function declared in the header.
api_names() {
    sed -n 's/^[a-z].*[ *]\(memlane_[a-z0-9_]*\)(.*/\1/p' include/memlane.h | sort
}

# ============================== symbols ==============================

t_api_nonempty() { [ "$(api_names | wc -l)" -ge 7 ] || { api_names; return 1; }; }

t_map_matches_header() {
    same "$(api_names)" \
        "$(sed -n 's/^[[:space:]]*\(memlane_[a-z0-9_]*\);.*/\1/p' src/memlane.map | sort)"
}

# The released ABI, "symbol node" per line (tests/install/abi.txt).
abi() { grep -v '^#' tests/install/abi.txt | sort; }

# The version script puts each function in the node the ABI record says.
t_map_nodes() {
    got=$(awk '/^[A-Z][A-Z0-9_.]* *\{/ { node = $1 }
        /^[[:space:]]*memlane_[a-z0-9_]*;/ { sub(/;.*/, ""); print $1, node }' src/memlane.map | sort)
    same "$(abi)" "$got"
}

# The header declares exactly the functions of the ABI record.
t_abi_matches_header() {
    same "$(api_names)" "$(abi | awk '{ print $1 }')"
}

# objdump -T: each exported function in its recorded version node, none
# hidden (a "(NODE)" is a non-default version), none added or moved.
t_exports_nodes() {
    same "$(abi)" "$(objdump -T "$SO" | awk '$NF ~ /^memlane_/ { print $NF, $(NF - 1) }' | sort)"
}

# nm -D --defined-only: the API and the version nodes themselves (absolute
# symbols); nothing else.
# GNU ld also defines each version node as an absolute symbol; lld (the
# clang LTO build, mk/test.mk) does not, and writes no verdef parents.
linked_by_lld() { readelf -p .comment "$SO" 2>/dev/null | grep -q 'Linker: .*LLD'; }

t_exports_only_api() {
    nodes=$(abi | awk '{ print $2 }' | sort -u)
    linked_by_lld && nodes=
    got=$(nm -D --defined-only "$SO" | awk '
        $2 == "A" && $3 ~ /^MEMLANE_/ { print "A", $3; next }
        { print ($2 == "i" ? "T" : $2), $3 }' | sort) # i: an IFUNC (src/dispatch.c)
    same "$( (for n in $nodes; do echo "A $n"; done; abi | awk '{ print "T " $1 "@@" $2 }') | sort)" "$got"
}

# Each node after the first inherits its predecessor (ld's verdef "Parent").
t_node_parents() {
    nodes=$(abi | awk '{ print $2 }' | sort -u -V)
    verdef=$(readelf -V "$SO" | sed -n '/\.gnu\.version_d/,/^$/p')
    prev=
    for n in $nodes; do
        if [ -n "$prev" ]; then
            printf '%s\n' "$verdef" | grep -A1 "Name: $n\$" | grep -q "Parent 1: $prev\$" ||
                { echo "$n does not inherit $prev:"; echo "$verdef"; return 1; }
        fi
        prev=$n
    done
}

t_soname() {
    same "$SONAME" "$(readelf -d "$SO" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" &&
    same "libmemlane.so.$SOVERSION" "$(readlink "$BUILD/$SONAME")"
}

# One version, written in the header: the string is the three numbers,
# the build uses it (file name, soname = major), and so do the man pages.
hdr_macro() { sed -n "s/^#define MEMLANE_VERSION_$1 \(.*\)\$/\1/p" include/memlane.h; }
t_version_one_source() {
    v=$(hdr_macro MAJOR).$(hdr_macro MINOR).$(hdr_macro PATCH)
    same "\"$v\"" "$(hdr_macro STRING)" &&
    same "$v" "$VERSION" && same "$v" "$SOVERSION" &&
    same "libmemlane.so.$(hdr_macro MAJOR)" "$SONAME" || return 1
    for p in $MAN_PAGES; do
        th=$(sed -n 's/^\.TH [^ ]* [0-9] [^ ]* "\([^"]*\)".*/\1/p' "$p")
        same "$p: memlane $v" "$p: $th" || return 1
    done
}

t_preload_exports() {
    same "$(printf '%s\n' $CHK_NAMES $STD_NAMES)" \
        "$(nm -D --defined-only "$PRELOAD" | awk '{ print $3 }' | LC_ALL=C sort)"
}

# Nothing in the drop-in may reach one of its own exported names through
# the dynamic symbol table (that would be a call to itself, or to libc's),
# and each entry point must go to its memlane_ counterpart: by an indirect
# jump or call through the function's dispatch pointer ml_<function>_ptr
# (src/preload/preload.c), or, for memlane_memset_explicit (a plain
# function), directly.
t_preload_no_self_calls() {
    relocs=$(objdump -R "$PRELOAD") || return 1
    for n in $STD_NAMES $CHK_NAMES; do
        if printf '%s\n' "$relocs" | grep -E "[[:space:]]$n(@|\$)"; then
            echo "dynamic relocation against $n"
            return 1
        fi
    done
    dis=$(objdump -d --no-show-raw-insn "$PRELOAD") || return 1
    for n in $STD_NAMES $CHK_NAMES; do
        body=$(printf '%s\n' "$dis" | awk -v fn="<$n>:" '
            $2 == fn { on = 1; next } on && NF == 0 { exit } on')
        [ -n "$body" ] || { echo "no code for $n"; return 1; }
        # the target name of each direct call or jump
        targets=$(printf '%s\n' "$body" |
            sed -n 's/.*\(call\|jmp\)[[:space:]]*[0-9a-f]* <\([^>]*\)>.*/\2/p')
        # The fortified ones may also call glibc's failure report.
        also=
        case $n in
        explicit_bzero) want=memlane_memset_explicit ;;
        __explicit_bzero_chk) want=memlane_memset_explicit also=__chk_fail@plt ;;
        __memset_chk) want=memlane_memset also=__chk_fail@plt ;;
        *) want=memlane_$n ;;
        esac
        reached=
        while read -r t; do
            [ -n "$t" ] || continue
            case $t in
            "$want" | "$n+"*) [ "$t" = "$want" ] && reached=1 ;;
            "$also") ;;
            *)
                printf '%s calls %s, expected only %s:\n%s\n' "$n" "$t" "$want" "$body"
                return 1
                ;;
            esac
        done <<EOF_TARGETS
$targets
EOF_TARGETS
        if [ -z "$reached" ]; then
            case $want in
            memlane_memset_explicit) ptr= ;;
            *) ptr=ml_${want#memlane_}_ptr ;;
            esac
            if [ -n "$ptr" ] && printf '%s\n' "$body" | grep -Eq "<$ptr(>|\.)" &&
               printf '%s\n' "$body" | grep -Eq '(call|jmp)[[:space:]]+\*'; then
                reached=1
            fi
        fi
        [ -n "$reached" ] ||
            { printf '%s does not reach %s:\n%s\n' "$n" "$want" "$body"; return 1; }
    done
}

echo "--- symbols"
check "the header declares the API" t_api_nonempty
check "src/memlane.map lists exactly the header's functions" t_map_matches_header
check "the header's functions are those of the ABI record (tests/install/abi.txt)" t_abi_matches_header
check "src/memlane.map: each function in its recorded version node" t_map_nodes
check "objdump -T $SO: each function in its recorded version node" t_exports_nodes
check "nm -D $SO: only the API and its version nodes" t_exports_only_api
if linked_by_lld; then
    skip "each version node inherits the one before: lld writes no verdef parents (the loader reads none)"
else
    check "each version node inherits the one before" t_node_parents
fi
check "soname $SONAME and its link" t_soname
check "one version (include/memlane.h): string, soname, file name, man pages" t_version_one_source
check "nm -D libmemlane-preload.so: exactly the seven standard names${CHK_NAMES:+ and two _chk}" t_preload_exports
check "drop-in entry points jump to memlane, never to themselves" t_preload_no_self_calls

# ============================== man ==============================

t_man_lint() {
    for p in $MAN_PAGES; do
        out=$(LC_ALL=C groff -t -ww -man -z "$p" 2>&1) || { echo "$p: groff failed"; echo "$out"; return 1; }
        [ -z "$out" ] || { echo "$p:"; echo "$out"; return 1; }
    done
}

t_mandoc_lint() {
    mandoc -T lint -W all $MAN_PAGES
}

# groff must report problems at all: a page with an unknown macro.
t_man_lint_catches() {
    printf '.TH X 3\n.SH NAME\nx \\- y\n.NOSUCHMACRO\n' > "$T/bad.3"
    [ -n "$(LC_ALL=C groff -t -ww -man -z "$T/bad.3" 2>&1)" ]
}

t_man3_per_function() {
    same "$(api_names)" "$(ls man/*.3 | sed 's|^man/||; s|\.3$||' | sort)"
}

# A prototype in a canonical spacing: "void *f(void *dst, int c, size_t n);"
canon() {
    sed 's/[[:space:]][[:space:]]*/ /g; s/ *\([(),;]\) */\1/g; s/,/, /g;
         s/\* /*/g; s/^ //; s/ $//'
}
# The prototypes in a page's .BI lines, quotes dropped.
page_protos() { sed -n 's/^\.BI //p' "$1" | tr -d '"' | canon; }

t_man_synopses() {
    header=$(grep -E '^[a-z].*[ *]memlane_[a-z0-9_]*\(' include/memlane.h | canon | sort)
    for f in $(api_names); do
        same "$(printf '%s\n' "$header" | grep "[ *]$f(")" "$(page_protos "man/$f.3")" || {
            echo "man/$f.3 synopsis differs from include/memlane.h"; return 1; }
    done
    same "$header" "$(page_protos "$BUILD/man/memlane.7" | sort)" ||
        { echo "memlane(7) synopsis differs from include/memlane.h"; return 1; }
}

# memlane(7)'s table was made from the variant table as the preprocessor
# sees it; the compiled library must have the same table, and every
# variant must show in the page.
t_man_table() {
    $CC $CFLAGS $BASE_CFLAGS tests/install/variant_table.c "$BUILD/libmemlane-internal.a" \
        -o "$T/variant_table" || return 1
    same "$("$T/variant_table" | sort)" "$(sort "$BUILD/man/variants.txt")" || return 1
    rows=$(sed -n '/^function\tgeneric\tsse2\tavx2\tavx512$/,/^\.TE$/p' "$BUILD/man/memlane.7")
    for f in $(awk '{ print $1 }' "$BUILD/man/variants.txt" | sort -u) memset_explicit; do
        src=$f
        [ "$f" = memset_explicit ] && src=memset
        want=$(awk -v f="$src" '$1 == f { n++ } END { print n + 0 }' "$BUILD/man/variants.txt")
        row=$(printf '%s\n' "$rows" | grep "^$f	")
        [ -n "$row" ] || { echo "no row for $f"; return 1; }
        # cells other than "no"; a cell with several variants lists them
        # separated by ", "
        got=$(printf '%s\n' "$row" | cut -f2- | tr '\t' '\n' | grep -v '^no$' |
              sed 's/, /\n/g' | grep -c .)
        same "$f: $want variants" "$f: $got variants" || return 1
    done
}

# Every environment variable the library reads is documented in memlane(7).
t_man_env() {
    vars=$(grep -rhoE '"MEMLANE_[A-Z0-9_]+"' src | tr -d '"' | sort -u)
    [ -n "$vars" ] || { echo "no MEMLANE_ variable found in src/"; return 1; }
    env_section=$(sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$BUILD/man/memlane.7")
    for v in $vars; do
        printf '%s\n' "$env_section" | grep -qx "\.B $v" ||
            { echo "$v is read in src/ but not under ENVIRONMENT in memlane(7)"; return 1; }
    done
}

# Every page another page refers to, "name(section)", is one of ours or
# one the system has (Debian has no timingsafe_bcmp(3), timingsafe_memcmp(3)
# or memset_explicit(3)).
man_xrefs() {
    sed -n 's/^\.[BI]R \([^ ]*\) (\([0-9]\)).*/\1 \2/p' $MAN_PAGES | sed 's/\\-/-/g' | sort -u
}
t_man_xrefs() {
    [ "$(man_xrefs | wc -l)" -ge 10 ] || { man_xrefs; return 1; }
    ours=$(for p in $MAN_PAGES; do b=${p##*/}; echo "${b%.*} ${b##*.}"; done)
    man_xrefs | while read -r name sec; do
        printf '%s\n' "$ours" | grep -qx "$name $sec" && continue
        man -w "$sec" "$name" >/dev/null 2>&1 || { echo "$name($sec): no such page here"; exit 1; }
    done
}

# Installed pages cannot send users to the source tree's make targets.
t_man_no_make() {
    ! grep -n '^\.B make \|make [a-z-]* in the source' $MAN_PAGES
}

# ---- memlane-bench(1) against the tool ----
# The options of `memlane-bench --help`, one entry a line: "-t --tables"
# or "--data" (option lines start with 2 or 6 blanks, descriptions with more).
bench_help_opts() {
    "$INSTALL_BENCH" --help | sed -n -E \
        's/^ {2,6}(-[a-zA-Z]), (--[a-z][a-z-]*[a-z]).*/\1 \2/p; s/^ {2,6}(--[a-z][a-z-]*[a-z]).*/\1/p' |
        LC_ALL=C sort
}
# The entries under a page's OPTIONS: the tag line after each .TP, in the
# same form.
page_opts() { # page
    sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$1" | awk '
        tag { gsub(/\\-/, "-"); gsub(/\\f[BIRP]/, ""); gsub(/[",]/, " "); out = ""
              for (i = 2; i <= NF; i++) {
                  w = $i
                  if (w ~ /^-[a-zA-Z]$/) out = out w " "
                  else if (w ~ /^--[a-z][a-z-]*[a-z]=?$/) { sub(/=$/, "", w); out = out w " "; break }
              }
              sub(/ $/, "", out); print out; tag = 0; next }
        /^\.TP/ { tag = 1 }' | LC_ALL=C sort
}
# Every --option named anywhere in a page, one a line.
page_mentions() { # page
    sed 's/\\-/-/g; s/\\f[BIRP]//g' "$1" | grep -oE -- '--[a-z][a-z-]*[a-z]' | LC_ALL=C sort -u
}
# bench_page_matches PAGE: its option entries are exactly those of --help,
# and it names no option the tool lacks.
bench_page_matches() {
    same "$(bench_help_opts)" "$(page_opts "$1")" || return 1
    known=$(bench_help_opts | grep -oE -- '--[a-z-]+')
    unknown=$(page_mentions "$1" | grep -vxF -e "$known")
    [ -z "$unknown" ] || { echo "$1 names options memlane-bench lacks:"; echo "$unknown"; return 1; }
}

t_bench_help_nonempty() { # the parser reads all of it (29 options in 0.2.0)
    [ "$(bench_help_opts | wc -l)" -ge 29 ] || { bench_help_opts; return 1; }
}

# --help lists exactly the options bench/main.c's getopt_long accepts.
t_bench_help_source() {
    longs=$(sed -n '/struct option longs\[\]/,/};/s/^ *{"\([a-z-]*\)".*/--\1/p' bench/main.c | LC_ALL=C sort)
    shorts=$(sed -n 's/.*getopt_long(argc, argv, "\([^"]*\)".*/\1/p' bench/main.c | tr -d ':' |
        sed 's/./-& /g' | tr ' ' '\n' | grep . | LC_ALL=C sort)
    same "$longs" "$(bench_help_opts | grep -oE -- '--[a-z-]+' | LC_ALL=C sort)" &&
    same "$shorts" "$(bench_help_opts | grep -oE -- '^-[a-zA-Z]' | LC_ALL=C sort)"
}

t_bench_page_options() { bench_page_matches man/memlane-bench.1; }

# The comparison fails on a page missing an option, and on one that names
# an option the tool does not have.
t_bench_page_check_catches() {
    sed '/^\.BI \\-\\-seed= n$/,/^\.TP$/d' man/memlane-bench.1 > "$T/missing.1"
    ! cmp -s man/memlane-bench.1 "$T/missing.1" || { echo "no --seed entry to remove"; return 1; }
    ! bench_page_matches "$T/missing.1" > /dev/null || { echo "a page without --seed passed"; return 1; }
    sed 's/^\.B \\-\\-quick$/.B \\-\\-quick\nor \\-\\-quickly/' man/memlane-bench.1 > "$T/extra.1"
    ! bench_page_matches "$T/extra.1" > /dev/null || { echo "a page naming --quickly passed"; return 1; }
}

echo "--- man pages"
if [ -n "$INSTALL_BENCH" ]; then
    check "memlane-bench --help: options read" t_bench_help_nonempty
    check "memlane-bench --help lists exactly the options of bench/main.c" t_bench_help_source
    check "memlane-bench(1) has an entry for every option of --help, no other, and names no other" \
        t_bench_page_options
    check "the memlane-bench(1) check fails on a missing or unknown option" t_bench_page_check_catches
fi
if have_tool groff groff-base; then
    check "groff -t -ww -man -z reports problems at all" t_man_lint_catches
    check "all pages render without warnings" t_man_lint
fi
if have_tool mandoc mandoc; then
    check "mandoc -T lint -W all: no message on any page" t_mandoc_lint
fi
check "a man3 page for each function of the header" t_man3_per_function
check "no page sends installed users to a make target" t_man_no_make
if have_tool man man-db && { man -w 3 memcpy >/dev/null 2>&1 || ! skip "man page cross-references (install manpages-dev)"; }; then
    check "every page referred to exists (ours, or the system's: man -w)" t_man_xrefs
fi
check "man page synopses match include/memlane.h" t_man_synopses
check "memlane(7) table matches the compiled variant table" t_man_table
check "memlane(7) documents every MEMLANE_ variable read in src/" t_man_env

# ============================== install ==============================

D=$T/destdir
# Files that were there before and must survive uninstall.
seed_destdir() {
    mkdir -p "$1/usr/lib" "$1/usr/share/man/man3" "$1/usr/include" &&
    echo other > "$1/usr/lib/libother.so.1" &&
    echo other > "$1/usr/share/man/man3/other.3" &&
    echo other > "$1/usr/include/other.h"
}
tree() { (cd "$1" && find . ! -type d | sort); }

expected_files() { # prefix
    p=.$1
    {
        echo "$p/include/memlane.h"
        echo "$p/lib/libmemlane.a"
        echo "$p/lib/libmemlane.so"
        echo "$p/lib/$SONAME"
        echo "$p/lib/libmemlane.so.$SOVERSION"
        echo "$p/lib/libmemlane-preload.so"
        echo "$p/lib/libmemlane-trace.so"
        echo "$p/lib/pkgconfig/memlane.pc"
        echo "$p/lib/cmake/memlane/memlaneConfig.cmake"
        echo "$p/lib/cmake/memlane/memlaneConfigVersion.cmake"
        echo "$p/share/man/man7/memlane.7"
        for f in man/*.3; do echo "$p/share/man/man3/${f#man/}"; done
        [ -n "$INSTALL_BENCH" ] && echo "$p/bin/memlane-bench" &&
            echo "$p/share/memlane/memlane-bench.gp" &&
            echo "$p/share/man/man1/memlane-bench.1"
        echo ./usr/include/other.h
        echo ./usr/lib/libother.so.1
        echo ./usr/share/man/man3/other.3
    } | sort
}

t_install() {
    seed_destdir "$D" || return 1
    $MAKE --no-print-directory install BUILD="$BUILD" DESTDIR="$D" PREFIX=/usr || return 1
    same "$(expected_files /usr)" "$(tree "$D")" || return 1
    same "libmemlane.so.$SOVERSION" "$(readlink "$D/usr/lib/$SONAME")" &&
    same "$SONAME" "$(readlink "$D/usr/lib/libmemlane.so")" &&
    cmp "$BUILD/man/memlane.7" "$D/usr/share/man/man7/memlane.7" &&
    cmp include/memlane.h "$D/usr/include/memlane.h" &&
    grep -qx 'prefix=/usr' "$D/usr/lib/pkgconfig/memlane.pc" &&
    grep -qx 'libdir=${prefix}/lib' "$D/usr/lib/pkgconfig/memlane.pc" &&
    grep -qx "Version: $VERSION" "$D/usr/lib/pkgconfig/memlane.pc"
}

# man(1) finds every installed page by name through MANPATH.
t_man_finds_pages() {
    for f in $(api_names); do
        same "$D/usr/share/man/man3/$f.3" "$(MANPATH=$D/usr/share/man man -w 3 "$f")" || return 1
    done
    same "$D/usr/share/man/man7/memlane.7" "$(MANPATH=$D/usr/share/man man -w 7 memlane)" || return 1
    [ -z "$INSTALL_BENCH" ] ||
        same "$D/usr/share/man/man1/memlane-bench.1" "$(MANPATH=$D/usr/share/man man -w 1 memlane-bench)"
}

pc() {
    PKG_CONFIG_LIBDIR=$D/usr/lib/pkgconfig PKG_CONFIG_PATH= \
    PKG_CONFIG_SYSROOT_DIR=$D PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 \
    PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 pkg-config "$@"
}

t_pkgconfig_flags() {
    same "-I$D/usr/include" "$(pc --cflags memlane | sed 's/ *$//')" &&
    same "-L$D/usr/lib -lmemlane" "$(pc --libs memlane | sed 's/ *$//')" &&
    same "$VERSION" "$(pc --modversion memlane)"
}

# Built with the installed header and library only: the build tree's
# include/ and build/ are not on any path here.
t_consumer_shared() {
    $CC $CFLAGS tests/install/consumer.c $(pc --cflags --libs memlane) \
        -o "$T/consumer-shared" || return 1
    readelf -d "$T/consumer-shared" | grep -q "NEEDED.*\[$SONAME\]" ||
        { echo "not linked against $SONAME"; return 1; }
    out=$(LD_LIBRARY_PATH=$D/usr/lib "$T/consumer-shared") || { echo "$out"; return 1; }
    echo "$out"
    printf '%s\n' "$out" | grep -qx ok &&
    printf '%s\n' "$out" | grep -qx "memlane_memset from $D/usr/lib/libmemlane.so.$SOVERSION"
}

t_consumer_static() {
    $CC $CFLAGS -static tests/install/consumer.c \
        $(pc --static --cflags --libs memlane) -o "$T/consumer-static" || return 1
    if readelf -d "$T/consumer-static" 2>/dev/null | grep -q NEEDED; then
        echo "static program has NEEDED entries"; return 1
    fi
    out=$("$T/consumer-static") || { echo "$out"; return 1; }
    echo "$out"
    printf '%s\n' "$out" | grep -qx ok &&
    printf '%s\n' "$out" | grep -qx "memlane_memset from $T/consumer-static"
}

# ---- CMake: find_package(memlane) in tests/install/cmake ----
# cmake_consumer PREFIX BUILDDIR [cmake -D options]: configure and build.
cmake_consumer() {
    prefix=$1 dir=$2
    shift 2
    cmake -S tests/install/cmake -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" "$@" > "$dir.log" 2>&1 &&
    cmake --build "$dir" >> "$dir.log" 2>&1 || { cat "$dir.log"; return 1; }
}

# cmake_runs DIR LIBDIR: both programs run; the shared one on LIBDIR's
# library (through the build's RUNPATH, no LD_LIBRARY_PATH), the static
# one on its own copy.
cmake_runs() {
    readelf -d "$1/consumer-shared" | grep -q "NEEDED.*\[$SONAME\]" ||
        { echo "consumer-shared is not linked against $SONAME"; return 1; }
    if readelf -d "$1/consumer-static" | grep -q "NEEDED.*libmemlane"; then
        echo "consumer-static needs libmemlane.so"; return 1
    fi
    out=$(env -u LD_LIBRARY_PATH "$1/consumer-shared") || { echo "$out"; return 1; }
    printf '%s\n' "$out" | grep -qx ok &&
    printf '%s\n' "$out" | grep -qx "memlane_memset from $2/libmemlane.so.$SOVERSION" ||
        { echo "$out"; return 1; }
    out=$("$1/consumer-static") || { echo "$out"; return 1; }
    printf '%s\n' "$out" | grep -qx ok &&
    printf '%s\n' "$out" | grep -qx "memlane_memset from $1/consumer-static" || { echo "$out"; return 1; }
}

# Installed with PREFIX=/usr, found under $D/usr: the package locates itself.
t_cmake_consumer() {
    cmake_consumer "$D/usr" "$T/cmake" && cmake_runs "$T/cmake" "$D/usr/lib" &&
    grep -q "memlane $VERSION from $D/usr/lib/cmake/memlane" "$T/cmake.log"
}

# The whole tree moved elsewhere still works (no absolute path inside).
t_cmake_relocated() {
    mkdir -p "$T/moved" && cp -a "$D/usr" "$T/moved/" || return 1
    cmake_consumer "$T/moved/usr" "$T/cmake-moved" && cmake_runs "$T/cmake-moved" "$T/moved/usr/lib"
    rc=$?
    rm -rf "$T/moved"
    return $rc
}

# The version rule: same major, not older than asked; ranges.
t_cmake_versions() {
    for want in 0.1 0.2 $VERSION 0.1...0.9 0.2...$VERSION x 0.3 1.0 0.3...0.9 0.1...\<$VERSION; do
        case $want in
        x) want=; expect=ok ;; # no version asked
        0.3 | 1.0 | 0.3...0.9 | 0.1...\<*) expect=refused ;;
        *) expect=ok ;;
        esac
        if cmake -S tests/install/cmake -B "$T/cmake-ver" -DCMAKE_PREFIX_PATH="$D/usr" \
            -DMEMLANE_CONFIGURE_ONLY=ON -DMEMLANE_WANT="$want" > "$T/ver.log" 2>&1; then
            got=ok
        else
            got=refused
        fi
        same "find_package(memlane $want): $expect" "find_package(memlane $want): $got" ||
            { tail -15 "$T/ver.log"; return 1; }
    done
}

# The same rule across a major version, on the template filled in for a
# made-up release 1.4.2 (cmake -P, as find_package would evaluate it).
t_cmake_version_rule() {
    sed -e 's/@VERSION@/1.4.2/g; s/@VERSION_MAJOR@/1/g; s/@SIZEOF_POINTER@/8/g' \
        cmake/memlaneConfigVersion.cmake.in > "$T/v142.cmake" || return 1
    printf 'include(${VERSION_FILE})\nmessage("${PACKAGE_VERSION_COMPATIBLE}")\n' > "$T/rule.cmake"
    for case in 0.9:FALSE 1:TRUE 1.0:TRUE 1.4.2:TRUE 1.4.3:FALSE 1.5:FALSE 2.0:FALSE; do
        want=${case%%:*}
        got=$(cmake -DPACKAGE_FIND_VERSION="$want" -DPACKAGE_FIND_VERSION_MAJOR="${want%%.*}" \
            -DCMAKE_SIZEOF_VOID_P=8 -DVERSION_FILE="$T/v142.cmake" -P "$T/rule.cmake" 2>&1)
        same "1.4.2 for $want: ${case#*:}" "1.4.2 for $want: $got" || return 1
    done
}

# ---- memlane-bench --plot-dir: data, the script, and (with gnuplot) charts ----
PLOT=$T/plot
t_plot_script() {
    B=$D/usr/bin/memlane-bench
    "$B" -q --quick --sizes=0-1K:128 --runs=2 --plot-dir="$PLOT" > /dev/null &&
    "$B" -q --quick --tables=1 -f memset,ts_memcmp --sizes=1K-64K*8 --runs=2 \
        --plot-dir="$PLOT" --plot-tag=large > /dev/null || return 1
    cmp "$PLOT/memlane-bench.gp" "$D/usr/share/memlane/memlane-bench.gp"
}

# The legend entries of every SVG chart: "implementation colour" lines.
svg_key_colours() {
    names=$(head -qn1 "$PLOT"/*.dat | tr ' ' '\n' | sort -u | grep -vx -e size -e row)
    for f in "$PLOT"/*.svg; do
        awk -v names="$names" 'BEGIN { n = split(names, w, "\n"); for (i = 1; i <= n; i++) known[w[i]] = 1 }
            match($0, /<text>[^<]*<\/text>/) { t = substr($0, RSTART + 6, RLENGTH - 13); cur = (t in known) ? t : ""; next }
            cur != "" && match($0, /rgb\( *[0-9]+, *[0-9]+, *[0-9]+\)/) {
                c = substr($0, RSTART, RLENGTH); gsub(/ /, "", c); print cur, c; cur = "" }' "$f"
    done | sort -u
}

t_plot_charts() {
    (cd "$PLOT" && gnuplot memlane-bench.gp) > "$T/gnuplot.out" 2>&1 || { cat "$T/gnuplot.out"; return 1; }
    [ ! -s "$T/gnuplot.out" ] || { echo "gnuplot said:"; cat "$T/gnuplot.out"; return 1; }
    for c in cycles-memset cycles-memset-large cycles-timingsafe_memcmp-large speedup-memset \
             speedup-memset-large speedup-timingsafe_memcmp-large throughput; do
        [ -s "$PLOT/$c.png" ] && [ -s "$PLOT/$c.svg" ] || { echo "no chart $c"; ls "$PLOT"; return 1; }
    done
    # Sizes up to 1 KiB: linear axes, from 0; above: log-log.
    grep -q 'log scale' "$PLOT/cycles-memset.svg" && { echo "cycles-memset: log axes"; return 1; }
    grep -q '<text>size in bytes (.*log scale' "$PLOT/cycles-memset-large.svg" ||
        { echo "cycles-memset-large: not log axes"; return 1; }
    # Every implementation has one colour in all charts, and no two share one.
    kc=$(svg_key_colours)
    want=$(head -qn1 "$PLOT"/*.dat | tr ' ' '\n' | grep -vx -e size -e row | sort -u)
    same "$want" "$(printf '%s\n' "$kc" | awk '{ print $1 }' | sort -u)" ||
        { echo "(implementations in the data, and with a legend entry and colour)"; return 1; }
    twice=$(printf '%s\n' "$kc" | awk '{ print $1 }' | uniq -d)
    [ -z "$twice" ] || { echo "several colours for: $twice"; printf '%s\n' "$kc"; return 1; }
    shared=$(printf '%s\n' "$kc" | awk '{ print $2 }' | sort | uniq -d)
    [ -z "$shared" ] || { echo "colours shared: $shared"; printf '%s\n' "$kc"; return 1; }
}

# ---- the installed static library's symbols ----
ARCHIVE=$D/usr/lib/libmemlane.a

# Only the API is global: no ml_*, no variant (memlane_memset_avx2, ...).
t_static_only_api() {
    same "$(api_names)" "$(nm -g --defined-only "$ARCHIVE" | awk 'NF == 3 { print $3 }' | sort)"
}

# What it needs from outside is the C library's (libc.so.6 and the
# dynamic loader, which defines __libc_stack_end; musl's libc.so is its
# loader) or the linker's.  On musl, weak references to glibc's names
# (__libc_stack_end) may stay undefined: they read as NULL.
t_static_undefined() {
    echo 'int main(void) { return 0; }' > "$T/empty.c" && $CC "$T/empty.c" -o "$T/empty" || return 1
    interp=$(readelf -l "$T/empty" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
    libc=
    if [ "$LIBC" != musl ]; then
        libc=$($CC -print-file-name=libc.so.6)
        [ -f "$libc" ] || { echo "no libc.so.6 next to $CC (not glibc?)"; return 1; }
    fi
    provided=$(nm -D --defined-only $libc "$interp" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }' | sort -u)
    nm -u "$ARCHIVE" | awk 'NF == 2 { print $1, $2 }' | sort -u > "$T/undefined"
    while read -r kind u; do
        [ "$u" = _GLOBAL_OFFSET_TABLE_ ] && continue
        printf '%s\n' "$provided" | grep -qx "$u" && continue
        if [ "$LIBC" = musl ] && [ "$kind" = w ]; then
            echo "weak $u: not in musl (reads as NULL)"
            continue
        fi
        echo "undefined $u is not libc's"
        return 1
    done < "$T/undefined"
}

# A program that defines, for its own use, every name the library defines
# globally in its internal archive besides the API (ml_cpu, ml_functions,
# memlane_memset_avx2, ...) links with the installed archive and runs;
# with the internal archive (the objects as compiled) it must not link,
# which shows the list of names is one that clashed.
internal_names() {
    nm -g --defined-only "$BUILD/libmemlane-internal.a" | awk 'NF == 3 { print $3 }' |
        sort -u | grep -vxF "$(api_names)"
}
t_static_internal_names_free() {
    names=$(internal_names)
    [ "$(printf '%s\n' "$names" | grep -c '^ml_')" -ge 10 ] || { echo "names: $names"; return 1; }
    printf '%s\n' $names | awk '{ printf "const char %s[] = \"%s\";\n", $1, $1 }' > "$T/names.c"
    echo "$(printf '%s\n' $names | wc -l) names, e.g. $(printf '%s ' $names | cut -c1-60)..."
    if $CC $CFLAGS -Iinclude tests/install/consumer.c "$T/names.c" \
        "$BUILD/libmemlane-internal.a" -o "$T/clash" > "$T/clash.err" 2>&1; then
        echo "control: linked with the internal archive, expected multiple definitions"; return 1
    fi
    # GNU ld: "multiple definition of `ml_..."; lld: "duplicate symbol: ml_...".
    grep -Eq 'multiple definition of .ml_|duplicate symbol: ml_' "$T/clash.err" ||
        { cat "$T/clash.err"; return 1; }
    $CC $CFLAGS -I"$D/usr/include" tests/install/consumer.c "$T/names.c" "$ARCHIVE" \
        -o "$T/own-names" || return 1
    out=$("$T/own-names") || { echo "$out"; return 1; }
    printf '%s\n' "$out" | grep -qx ok
}

t_uninstall() {
    $MAKE --no-print-directory uninstall BUILD="$BUILD" DESTDIR="$D" PREFIX=/usr || return 1
    same "$(printf '%s\n' ./usr/include/other.h ./usr/lib/libother.so.1 \
        ./usr/share/man/man3/other.3)" "$(tree "$D")"
}

# Default PREFIX, and LIBDIR outside ${prefix}/lib.
t_install_defaults() {
    D2=$T/destdir2
    seed_destdir "$D2" || return 1
    $MAKE --no-print-directory install BUILD="$BUILD" DESTDIR="$D2" || return 1
    same "$(expected_files /usr/local)" "$(tree "$D2")" || return 1
    grep -qx 'prefix=/usr/local' "$D2/usr/local/lib/pkgconfig/memlane.pc" || return 1
    $MAKE --no-print-directory uninstall BUILD="$BUILD" DESTDIR="$D2" || return 1
    [ "$(tree "$D2" | wc -l)" -eq 3 ] || { tree "$D2"; return 1; }
    D3=$T/destdir3
    $MAKE --no-print-directory install BUILD="$BUILD" DESTDIR="$D3" PREFIX=/opt/ml \
        LIBDIR=/usr/lib64 || return 1
    pcf=$D3/usr/lib64/pkgconfig/memlane.pc
    cmf=$D3/usr/lib64/cmake/memlane/memlaneConfig.cmake
    grep -qx 'libdir=/usr/lib64' "$pcf" && grep -qx 'includedir=${prefix}/include' "$pcf" &&
    grep -qx 'set(_memlane_up "")' "$cmf" && grep -qx 'set(_memlane_prefix "/opt/ml")' "$cmf" &&
    grep -qx 'set(_memlane_libdir "/usr/lib64")' "$cmf" &&
    grep -qx 'set(_memlane_includedir "${_memlane_prefix}/include")' "$cmf" &&
    [ -f "$D3/usr/lib64/$SONAME" ] && [ -f "$D3/opt/ml/include/memlane.h" ] ||
        { cat "$pcf"; tree "$D3"; return 1; }
}

echo "--- install"
check "make install DESTDIR=... PREFIX=/usr installs exactly the expected files" t_install
if command -v man >/dev/null 2>&1; then
    check "man -w finds the installed pages" t_man_finds_pages
fi
if have_tool pkg-config pkgconf; then
    check "pkg-config --cflags --libs memlane (sysroot)" t_pkgconfig_flags
    check "a program built through pkg-config runs on the installed shared library" t_consumer_shared
    check "a program built through pkg-config --static runs" t_consumer_static
fi
if have_tool cmake cmake; then
    check "CMake: find_package(memlane) in a staged install, memlane::memlane and _static run" t_cmake_consumer
    check "CMake: the installed tree moved elsewhere still works" t_cmake_relocated
    check "CMake: version $VERSION meets same-major requests not above it" t_cmake_versions
    check "CMake: the version rule across majors (a made-up 1.4.2)" t_cmake_version_rule
fi
if [ -n "$INSTALL_BENCH" ]; then
    check "installed memlane-bench --plot-dir writes the installed chart script" t_plot_script
    if have_tool gnuplot gnuplot-nox; then
        check "gnuplot draws the charts: linear 0-1 KiB, speed-up, one colour per implementation" t_plot_charts
    fi
fi
check "installed libmemlane.a: only the API is global" t_static_only_api
check "installed libmemlane.a: undefined symbols are libc's" t_static_undefined
check "a program defining every internal name links with libmemlane.a and runs" t_static_internal_names_free
check "make uninstall removes exactly what install added" t_uninstall
check "default PREFIX=/usr/local; LIBDIR outside PREFIX" t_install_defaults

# ============================== preload ==============================

t_early_calls() {
    $CC $CFLAGS -std=gnu11 -fno-builtin -U_FORTIFY_SOURCE tests/install/early.c \
        -o "$T/early" -ldl || return 1
    # Plain run first: the program itself must be right on libc.
    "$T/early" > "$T/early.plain" 2>&1 || { cat "$T/early.plain"; return 1; }
    LD_DEBUG=libs LD_PRELOAD=$PRELOAD "$T/early" > "$T/early.out" 2> "$T/early.err" ||
        { cat "$T/early.out" "$T/early.err"; return 1; }
    cat "$T/early.out"
    grep -qx ok "$T/early.out" || return 1
    for n in $STD_NAMES; do
        grep -qx "$n from $PRELOAD" "$T/early.out" || { echo "$n not from the drop-in"; return 1; }
    done
    # The calls were made before the drop-in's own constructor ran.
    marker=$(grep -n 'memlane-early: calls done' "$T/early.err" | cut -d: -f1)
    init=$(grep -n "calling init: $PRELOAD" "$T/early.err" | cut -d: -f1)
    [ -n "$marker" ] && [ -n "$init" ] && [ "$marker" -lt "$init" ] ||
        { echo "marker line '$marker', init line '$init'"; cat "$T/early.err"; return 1; }
}

# musl runs no .preinit_array: the calls come from the constructor of a
# library preloaded ahead of the drop-in (tests/install/early_lib.c).  The
# drop-in's warning about MEMLANE_ARCH between its two markers shows that
# a call selected, not the drop-in's constructor.
t_early_calls_musl() {
    $CC $CFLAGS -std=gnu11 -fno-builtin -U_FORTIFY_SOURCE -shared -fPIC \
        tests/install/early_lib.c -o "$T/libearly.so" || return 1
    MEMLANE_ARCH=nonesuch LD_PRELOAD="$T/libearly.so $PRELOAD" "$TOOLS/lsort" \
        < /dev/null > "$T/early.out" 2> "$T/early.err" ||
        { cat "$T/early.out" "$T/early.err"; return 1; }
    cat "$T/early.out" "$T/early.err"
    grep -qx ok "$T/early.out" || return 1
    for n in $STD_NAMES; do
        grep -qx "$n from $PRELOAD" "$T/early.out" || { echo "$n not from the drop-in"; return 1; }
    done
    same "memlane-early: calls start
memlane: MEMLANE_ARCH=\"nonesuch\"
memlane-early: calls done" "$(sed 's/\(MEMLANE_ARCH="nonesuch"\).*/\1/' "$T/early.err")"
}

# The programs of tests/install/tools/, built like any program (builtins
# on), must call the standard names through the dynamic symbol table, or
# the drop-in would have nothing to replace.  (clang makes a memcmp whose
# result is only compared with 0 a call to bcmp.)
make_tools() {
    mkdir -p "$TOOLS" || return 1
    for t in tests/install/tools/*.c; do
        $CC $CFLAGS -std=gnu11 "$t" -o "$TOOLS/$(basename "$t" .c)" || return 1
    done
}

# The drop-in's load-time binding (src/preload/bind.c): when main starts,
# a lazily bound program's PLT slots for memset, memcmp and bcmp hold the
# selected variants (here MEMLANE_ARCH=sse2's, found by name in the
# drop-in's symbol table), with the loader's LD_BIND_NOT obeyed (glibc);
# a program linked with -z now (read-only slots) keeps the entry points;
# and a memcmp preloaded ahead of the drop-in is left to the loader, not
# called by the drop-in (tests/install/own_memcmp.c).
t_plt_slots() {
    for how in lazy now; do
        $CC $CFLAGS -std=gnu11 -fno-builtin -U_FORTIFY_SOURCE tests/install/plt_slots.c \
            -Wl,-z,$how -Wl,-z,relro -o "$T/plt_$how" -ldl || return 1
    done
    $CC $CFLAGS -std=gnu11 -fno-builtin -shared -fPIC tests/install/own_memcmp.c \
        -o "$T/libown_memcmp.so" || return 1
    syms=$(nm "$PRELOAD") || return 1
    want=
    for f in memset memcmp bcmp; do
        off=$(printf '%s\n' "$syms" | awk -v s="memlane_${f}_sse2" '$3 == s { print $1 }')
        [ -n "$off" ] || { echo "no memlane_${f}_sse2 in $PRELOAD"; return 1; }
        want="$want$f at $PRELOAD+$(printf '%#x' "0x$off")
"
    done
    same "${want}ok" "$(MEMLANE_ARCH=sse2 LD_PRELOAD=$PRELOAD "$T/plt_lazy")" || return 1
    # memcmp's slot: not bound yet on glibc (lazy), bound at load time to
    # the preloaded memcmp on musl (no lazy binding); never rewritten.
    own=unbound
    if [ "$LIBC" = musl ]; then own=entry; fi
    same "$(printf '%s\n' "$want" | sed -n 1p)
memcmp $own
$(printf '%s\n' "$want" | sed -n 3p)
ok
3" "$(MEMLANE_ARCH=sse2 LD_PRELOAD="$T/libown_memcmp.so $PRELOAD" "$T/plt_lazy" 2> "$T/own.err"
         grep -c '^own memcmp$' "$T/own.err")" || return 1
    same "memset entry
memcmp entry
bcmp entry
ok" "$(LD_PRELOAD=$PRELOAD "$T/plt_now")" || return 1
    if [ "$LIBC" = glibc ]; then
        same "memset unbound
memcmp unbound
bcmp unbound
ok" "$(LD_BIND_NOT=1 LD_PRELOAD=$PRELOAD "$T/plt_lazy")" || return 1
    fi
}

t_tools_import() {
    for want in lsort:memcmp 'sumcmp:(memcmp|bcmp)' sumcmp:memset blocks:memset \
                blocks:bcmp blocks:explicit_bzero; do
        nm -D --undefined-only "$TOOLS/${want%%:*}" | grep -Eq " ${want#*:}(@|\$)" ||
            { echo "${want%%:*} does not import ${want#*:}"; return 1; }
    done
}

# The tools give the answers the system's tools give (no drop-in).
t_tools_right() {
    (cd "$T/in" &&
        same "$(LC_ALL=C sort text)" "$("$TOOLS/lsort" text)" &&
        same "$(LC_ALL=C sort -u -r sub/repetitive text)" \
             "$(cat sub/repetitive text | "$TOOLS/lsort" -u -r)" &&
        same "$(cmp text text2 2>&1)" "$("$TOOLS/sumcmp" cmp text text2 2>&1)" &&
        same "$(cmp sub/hex text 2>&1)" "$("$TOOLS/sumcmp" cmp sub/hex text 2>&1)" &&
        same "8 blocks of 4096 bytes: 3 zero, 4 repeats; 3512 primes below 32768" \
             "$("$TOOLS/blocks" 4096 blocky)")
}

# Input files for the programs.
make_inputs() {
    mkdir -p "$T/in/sub" &&
    awk 'BEGIN { x = 12345; for (i = 0; i < 60000; i++) {
            x = (x * 1103515245 + 12345) % 2147483648
            printf "%d %s line-%d %c\n", x % 100003, (x % 7 ? "alpha" : "beta"), i, 65 + x % 26 } }' \
        > "$T/in/text" &&
    seq 1 20000 | sed 's/$/ zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz/' > "$T/in/sub/repetitive" &&
    head -c 300000 "$T/in/text" | od -An -tx1 > "$T/in/sub/hex" &&
    cp "$T/in/text" "$T/in/text2" &&
    printf 'differs\n' >> "$T/in/text2" &&
    # 4 KiB blocks: zero A B A zero C A zero
    head -c 4096 /dev/zero > "$T/z" && tr '\0' a < "$T/z" > "$T/a" &&
    tr '\0' b < "$T/z" > "$T/b" && head -c 4096 "$T/in/text" > "$T/c" &&
    (cd "$T" && cat z a b a z c a z) > "$T/in/blocky"
}

# run_both NAME 'shell command': same stdout, stderr and exit status with
# and without the drop-in; the command runs in $T/in.
run_both() {
    (cd "$T/in" && sh -c "$2") > "$T/plain.out" 2> "$T/plain.err"
    plain_rc=$?
    (cd "$T/in" && LD_PRELOAD=$PRELOAD sh -c "$2") > "$T/pre.out" 2> "$T/pre.err"
    pre_rc=$?
    [ -s "$T/plain.out" ] || { echo "no output from: $2"; cat "$T/plain.err"; return 1; }
    same "exit $plain_rc" "exit $pre_rc" &&
    cmp "$T/plain.out" "$T/pre.out" &&
    cmp "$T/plain.err" "$T/pre.err"
}

# tool_both 'shell command': as run_both, but only the commands run as
# "$RUN" CMD get the drop-in (on musl the shell itself is a glibc program).
tool_both() {
    (cd "$T/in" && RUN=$T/run-plain TOOLS=$TOOLS sh -c "$1") > "$T/plain.out" 2> "$T/plain.err"
    plain_rc=$?
    (cd "$T/in" && RUN=$T/run-pre TOOLS=$TOOLS sh -c "$1") > "$T/pre.out" 2> "$T/pre.err"
    pre_rc=$?
    [ -s "$T/plain.out" ] || { echo "no output from: $1"; cat "$T/plain.err"; return 1; }
    same "exit $plain_rc" "exit $pre_rc" &&
    cmp "$T/plain.out" "$T/pre.out" &&
    cmp "$T/plain.err" "$T/pre.err"
}

t_bindings() {
    # With eager binding, ld.so reports where each symbol went.
    LD_BIND_NOW=1 LD_DEBUG=bindings LD_PRELOAD=$PRELOAD \
        python3 -c 'pass' > /dev/null 2> "$T/bind.err" || return 1
    for n in memset memcmp; do
        grep -q "to $PRELOAD \[0\]: normal symbol \`$n'" "$T/bind.err" ||
            { echo "python3: $n not bound to the drop-in"; grep "\`$n'" "$T/bind.err" | head; return 1; }
    done
}

# Under _FORTIFY_SOURCE the checked calls go to the drop-in, give the same
# result, and an overflow still ends in glibc's report and abort.
t_fortified() {
    $CC -O2 -D_FORTIFY_SOURCE=2 tests/install/fortified.c -o "$T/fortified" || return 1
    dis=$(objdump -d "$T/fortified") || return 1
    for n in $CHK_NAMES; do
        printf '%s\n' "$dis" | grep -q "call.*<$n@plt>" ||
            { echo "the compiler did not emit $n"; return 1; }
    done
    for len in 0 1 17 63 64; do
        plain=$("$T/fortified" $len) || return 1
        pre=$(LD_PRELOAD=$PRELOAD "$T/fortified" $len) || return 1
        same "$plain" "$pre" || return 1
    done
    LD_BIND_NOW=1 LD_DEBUG=bindings LD_PRELOAD=$PRELOAD "$T/fortified" 5 \
        > /dev/null 2> "$T/chk.bind" || return 1
    for n in $CHK_NAMES; do
        grep -q "to $PRELOAD \[0\]: normal symbol \`$n'" "$T/chk.bind" ||
            { echo "$n not bound to the drop-in"; grep "\`$n'" "$T/chk.bind"; return 1; }
    done
    for pre in "" "$PRELOAD"; do
        LD_PRELOAD=$pre "$T/fortified" 65 > /dev/null 2> "$T/chk.err"
        rc=$?
        cat "$T/chk.err"
        [ $rc -gt 128 ] && grep -q "buffer overflow detected" "$T/chk.err" ||
            { echo "65 bytes into 64 (LD_PRELOAD=$pre): exit $rc, want the overflow abort"; return 1; }
    done
}

# t_arch_warning SORT...: a sort program (the system's, or lsort).
t_arch_warning() {
    (cd "$T/in" && LC_ALL=C "$@" text) > "$T/w.plain" || return 1
    (cd "$T/in" && LC_ALL=C MEMLANE_ARCH=nonesuch LD_PRELOAD=$PRELOAD "$@" text) \
        > "$T/w.out" 2> "$T/w.err" || { cat "$T/w.err"; return 1; }
    cat "$T/w.err"
    same 1 "$(grep -c '^memlane: MEMLANE_ARCH="nonesuch"' "$T/w.err")" &&
    same 1 "$(wc -l < "$T/w.err" | tr -d ' ')" &&
    cmp "$T/w.plain" "$T/w.out"
}

echo "--- preload ($LIBC)"
TOOLS=$T/tools
printf '#!/bin/sh\nexec "$@"\n' > "$T/run-plain"
printf '#!/bin/sh\nLD_PRELOAD="%s" exec "$@"\n' "$PRELOAD" > "$T/run-pre"
chmod +x "$T/run-plain" "$T/run-pre"
if ! make_tools || ! make_inputs; then
    failed=$((failed + 1))
    echo "FAIL could not build the tools or make the input files"
else
    case $LIBC in
    glibc) check "calls before any constructor run (preinit) under the drop-in" t_early_calls ;;
    musl)
        skip "calls from .preinit_array: musl runs no .preinit_array (a preloaded library's constructor calls instead)"
        check "calls before the drop-in's constructor (a library preloaded ahead of it)" t_early_calls_musl
        ;;
    *) skip "calls before any constructor: no way known for C library '$LIBC'" ;;
    esac
    check "tests/install/tools/ import the standard names" t_tools_import
    case $(uname -m) in
    x86_64) check "the drop-in binds a program's PLT slots to the selected variants" t_plt_slots ;;
    *) skip "the drop-in's load-time binding of PLT slots: x86-64 only (src/preload/bind.c)" ;;
    esac
    check "tests/install/tools/ agree with sort and cmp, blocks with its known answer" t_tools_right
    tool() { check "same output under LD_PRELOAD: $1 (tests/install/tools)" tool_both "$2"; }
    tool lsort '"$RUN" "$TOOLS/lsort" text | sha256sum; "$RUN" "$TOOLS/lsort" -u -r sub/repetitive | head -3'
    tool sumcmp '"$RUN" "$TOOLS/sumcmp" sum text text2 sub/hex blocky
        "$RUN" "$TOOLS/sumcmp" cmp text text2; echo "rc $?"
        "$RUN" "$TOOLS/sumcmp" cmp text sub/hex; echo "rc $?"'
    tool blocks '"$RUN" "$TOOLS/blocks" 4096 blocky; "$RUN" "$TOOLS/blocks" 64 text
        "$RUN" "$TOOLS/blocks" 3 sub/hex; "$RUN" "$TOOLS/blocks" 100000 sub/repetitive'
    if [ "$LIBC" = glibc ]; then
        prog() { check "same output under LD_PRELOAD: $1" run_both "$1" "$2"; }
        prog sort 'LC_ALL=C sort -k1,1n -k3 text | sha256sum'
        prog "sort -u" 'LC_ALL=C sort -u -k2,2 -k4,4 text'
        prog "gzip round trip" 'gzip -9 -n -c text > t.gz && gzip -dc t.gz | cmp - text &&
            sha256sum t.gz && rm t.gz'
        prog sha256sum 'sha256sum text sub/repetitive sub/hex'
        prog grep 'grep -c beta text; grep -E "^9[0-9]{3} alpha .* Q$" text | head -50'
        prog awk "awk '{ n[\$2]++; s += \$1 } END { for (k in n) print k, n[k]; print s }' text | sort"
        prog python3 "python3 -c 'import hashlib, zlib
d = open(\"text\", \"rb\").read()
lines = d.split(b\"\\n\")
lines.sort()
print(hashlib.sha256(b\"\\n\".join(lines)).hexdigest(), len(zlib.compress(d, 6)))
print(sum(1 for a, b in zip(lines, lines[1:]) if a == b), bytes(64) == bytearray(64), d[:40] < d[40:80])'"
        prog perl "perl -ne '\$c{(split)[3]}++; END { print \"\$_ \$c{\$_}\\n\" for sort keys %c }' text"
        prog tar 'tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - text sub | sha256sum
            tar --sort=name --mtime=@0 --owner=0 --group=0 -cf - sub | tar -tvf -'
        prog "xz and bzip2" 'xz -c text | xz -dc | sha256sum; bzip2 -c sub/hex | bzip2 -dc | cmp - sub/hex && echo same'
        prog "cmp and diff" 'cmp text text2; diff text text2; echo "rc $?"'
        check "python3 binds memset and memcmp to the drop-in" t_bindings
        check "a _FORTIFY_SOURCE program: __memset_chk, __explicit_bzero_chk" t_fortified
        check "MEMLANE_ARCH=nonesuch under the drop-in: one warning, same output" t_arch_warning sort
    else
        skip "the system's programs (sort, gzip, python3, ...) under the drop-in: they are glibc programs, which cannot load a $LIBC library"
        skip "LD_DEBUG=bindings of python3: the system's python3 is a glibc program (the early test names each symbol's file by dladdr instead)"
        skip "_FORTIFY_SOURCE: $LIBC has no __memset_chk or __explicit_bzero_chk to take over"
        check "MEMLANE_ARCH=nonesuch under the drop-in: one warning, same output (lsort)" \
            t_arch_warning "$TOOLS/lsort"
    fi
fi

if [ "$skipped" -gt 0 ]; then
    echo "install: $passed passed, $failed failed, $skipped skipped"
else
    echo "install: $passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
