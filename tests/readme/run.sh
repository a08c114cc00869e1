#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every command of README.md, run as a newcomer would run it, in a copy of
# the tracked tree with the install staged (docs/testing.md, "The README's
# commands").  Run by `make test` (make test-readme) and .ci/steps/60-readme.sh.
#   tests/readme/run.sh [README]        (from the repository root)
# Fenced ```sh blocks are run in document order, each by bash -o pipefail
# with every command line's exit status checked, in $BUILD/readme-test/src.
# Other fenced blocks are files, written first where an HTML comment right
# before them says <!-- readme-test: file=PATH [file=PATH...] -->.  A block
# after <!-- readme-test: needs=cmake-config --> is skipped while the
# tree's makefiles install no CMake package (memlaneConfig.cmake), and
# fails if they do and it is not in the stage.  A block that uses
# pkg-config or cmake is skipped where that tool is missing.
# Staged, because a test cannot do them for real: `sudo make install` and
# `sudo make uninstall` get DESTDIR=$BUILD/readme-test/stage, `sudo ldconfig`
# becomes `ldconfig -n` on the staged library folder, and pkg-config, CMake
# and the loader look in the stage.  A `make ... test` line is not run (it
# would run this test again): .ci/run must run it instead.
# Ends with "readme: N passed, N failed, N skipped"; exits 1 on a failure.
# Environment: BUILD (default build), CC (used by the README's `make`),
# MEMLANE_REQUIRE_TOOLS=1 (a missing tool fails instead of skipping).
set -u
readme=${1:-README.md}
: "${BUILD:=build}" "${MEMLANE_REQUIRE_TOOLS:=}"
max_lines=250

root=$(pwd)
case $readme in /*) ;; *) readme=$root/$readme ;; esac
[ -f "$readme" ] || { echo "readme: $readme not found" >&2; exit 2; }
T=$root/$BUILD/readme-test
rm -rf "$T"
mkdir -p "$T/src" "$T/stage" "$T/bin" "$T/blocks" || exit 2
stage=$T/stage
prefix=/usr/local

passed=0 failed=0 skipped=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $1"; }

# ---- the blocks: blocks/NNN.<lang>, and blocks/NNN.meta: "LINE FILE KEY=VALUE..." ----
awk -v dir="$T/blocks" '
    function flush_marker() { marker = "" }
    /^<!-- readme-test: .* -->$/ {
        marker = $0
        sub(/^<!-- readme-test: /, "", marker)
        sub(/ -->$/, "", marker)
        next
    }
    !inblock && /^```/ {
        inblock = 1
        n++
        lang = substr($0, 4)
        file = sprintf("%s/%03d.%s", dir, n, lang == "" ? "txt" : lang)
        printf "%d %s %s\n", NR, file, marker > sprintf("%s/%03d.meta", dir, n)
        printf "" > file
        flush_marker()
        next
    }
    inblock && /^```$/ { inblock = 0; close(file); next }
    inblock { print > file; next }
    /[^[:space:]]/ { flush_marker() }
    END { if (inblock) { print "readme: unterminated code block" > "/dev/stderr"; exit 1 } }
' "$readme" || exit 2

# ---- README-wide checks ----
lines=$(wc -l <"$readme")
if [ "$lines" -le "$max_lines" ]; then
    pass "README.md has $lines lines (at most $max_lines)"
else
    fail "README.md has $lines lines, more than $max_lines"
fi
if ! ls "$T"/blocks/*.sh >/dev/null 2>&1; then
    fail "README.md has no \`\`\`sh block"
fi
# The README's test command is the one CI runs.
if grep -h -E '^[[:space:]]*make( [^#]*)? test([[:space:]]|$)' "$T"/blocks/*.sh >/dev/null 2>&1; then
    if grep -q -E '^[[:space:]]*make .*[[:space:]]test$' "$root/.ci/run"; then
        pass "README's \`make test\` is what .ci/run runs"
    else
        fail "README says \`make test\`, but .ci/run does not run make ... test"
    fi
else
    fail "README.md has no \`make test\` line"
fi

# ---- a fresh copy of the tracked tree ----
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$root" && git ls-files -z | xargs -0 tar -cf - 2>/dev/null) | tar -C "$T/src" -xf - ||
        { echo "readme: cannot copy the tree" >&2; exit 2; }
else
    (cd "$root" && find . -path ./.git -prune -o -path './build*' -prune -o -type f -print |
        tar -cf - -T -) | tar -C "$T/src" -xf - || { echo "readme: cannot copy the tree" >&2; exit 2; }
fi

# ---- the markers; file blocks are written before any command runs ----
for meta in "$T"/blocks/*.meta; do
    [ -e "$meta" ] || break
    read -r line block keys <"$meta"
    set -f # marker words (file=PATH, needs=...): split, never globbed
    # shellcheck disable=SC2086
    set -- $keys
    set +f
    for kv in "$@"; do
        case $kv in
        file=*)
            path=${kv#file=}
            if ! { mkdir -p "$(dirname "$T/src/$path")" && cp "$block" "$T/src/$path"; }; then
                fail "README.md:$line: cannot write $path"
            fi
            ;;
        needs=cmake-config) ;;
        *) fail "README.md:$line: unknown readme-test marker '$kv'" ;;
        esac
    done
done

# ---- what the test stages: sudo, and where tools look ----
cat >"$T/bin/sudo" <<SHIM
#!/bin/sh
# readme-test's sudo: root's operations of the README, applied to the stage.
case "\$*" in
"make install"* | "make uninstall"*) exec "\$@" DESTDIR="$stage" ;;
ldconfig) exec \$(command -v ldconfig || echo /sbin/ldconfig) -n "$stage$prefix/lib" ;;
*) echo "readme-test: cannot stage 'sudo \$*'" >&2; exit 1 ;;
esac
SHIM
chmod +x "$T/bin/sudo"
PATH=$T/bin:$PATH
PKG_CONFIG_LIBDIR=$stage$prefix/lib/pkgconfig
PKG_CONFIG_PATH=
PKG_CONFIG_SYSROOT_DIR=$stage
LD_LIBRARY_PATH=$stage$prefix/lib
CMAKE_PREFIX_PATH=$stage$prefix
export PATH PKG_CONFIG_LIBDIR PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH CMAKE_PREFIX_PATH
# The README's make runs as a user's would, not as part of this make.
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES 2>/dev/null || true

# ---- the commands ----
for block in "$T"/blocks/*.sh; do
    [ -e "$block" ] || break
    read -r line _ keys <"${block%.sh}.meta"
    needs_cmake=no
    case " $keys " in *" needs=cmake-config "*) needs_cmake=yes ;; esac
    config=$prefix/lib/cmake/memlane/memlaneConfig.cmake
    if [ $needs_cmake = yes ] && [ ! -f "$stage$config" ]; then
        if grep -q -r memlaneConfig "$T/src/Makefile" "$T/src/mk" 2>/dev/null; then
            fail "README.md:$line: make install did not install $config"
        else
            skip "README.md:$line: skipped: no CMake config yet (make install does not install $config)"
        fi
        continue
    fi
    # A tool a fresh machine may lack: skip the block (fail under
    # MEMLANE_REQUIRE_TOOLS=1, as CI's README step sets it).
    missing=
    for tool in pkg-config cmake; do
        if grep -q -E "(^|[^a-z-])$tool([^a-z-]|\$)" "$block" && ! command -v "$tool" >/dev/null 2>&1; then
            missing="$missing $tool"
        fi
    done
    if [ -n "$missing" ]; then
        if [ -n "$MEMLANE_REQUIRE_TOOLS" ]; then
            fail "README.md:$line: needs$missing, not installed"
        else
            skip "README.md:$line: needs$missing, not installed"
        fi
        continue
    fi
    script=${block%.sh}.run
    # Each command line (with its \ continuations) is followed by a check of
    # its status: bash -e would let `cc ... && ./prog` fail unnoticed.
    sed -E 's/^([[:space:]]*make( [^#]*)? test([[:space:]].*)?)$/: not run here, .ci\/run runs it: \1/' "$block" |
        awk '{ print }
             !/\\$/ && /[^[:space:]]/ && !/^[[:space:]]*#/ {
                 printf "readme_test_rc=$?; [ $readme_test_rc = 0 ] || { echo \"readme-test: exit status $readme_test_rc\" >&2; exit $readme_test_rc; }\n"
             }' >"$script"
    log=${block%.sh}.log
    t0=$(date +%s)
    if (cd "$T/src" && bash -o pipefail "$script") >"$log" 2>&1; then
        pass "README.md:$line: $(grep -c . "$block") command line(s), $(($(date +%s) - t0)) s"
    else
        fail "README.md:$line"
        sed 's/^/     | /' "$block"
        tail -n 30 "$log" | sed 's/^/     > /'
    fi
done

echo "readme: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
