#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The documentation's references resolve (run by `make test`, mk/docs.mk):
#   links     every relative link of every Markdown file (outside code
#             blocks) names a file that exists, and a "#anchor" on a .md
#             file one of its headings (GitHub's rule: lower case, only
#             letters, digits, blanks, '-' and '_' kept, blanks as '-')
#   mentions  every docs/<name>.md named in any file of the tree (code
#             comments, scripts, man pages) exists
#   security  SECURITY.md lists the version of include/memlane.h as
#             supported
# and the link check fails on a made-up broken link and anchor.  No git
# needed: a release archive runs it too.  From the repository root.
set -u
failed=0
passed=0
ok() { passed=$((passed + 1)); }
no() { failed=$((failed + 1)); echo "FAIL check-docs: $*"; }

# The tree's files, without build folders and git's.
tree_files() {
    find . \( -name '.git' -o -name 'build*' \) -prune -o -type f "$@" -print
}

# links FILE: "LINE TARGET" for each link [text](TARGET) outside fenced blocks.
links() {
    awk '/^[[:space:]]*```/ { code = !code; next }
        !code {
            line = $0
            while (match(line, /\]\([^) ]+\)/)) {
                print NR, substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$1"
}

# anchors FILE: the anchor of each heading.
anchors() {
    awk '/^[[:space:]]*```/ { code = !code; next }
        !code && /^#+ / { sub(/^#+ +/, ""); print }' "$1" |
        LC_ALL=C tr 'A-Z' 'a-z' | LC_ALL=C sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}

# check_links FILE...: one line per broken link; status 1 if any.
check_links() {
    bad=0
    for md in "$@"; do
        dir=$(dirname "$md")
        out=$(links "$md" | while read -r line target; do
            case $target in http://* | https://* | mailto:*) continue ;; esac
            path=${target%%#*}
            anchor=
            case $target in *'#'*) anchor=${target#*#} ;; esac
            if [ -z "$path" ]; then file=$md; else file=$dir/$path; fi
            if [ ! -e "$file" ]; then
                echo "$md:$line: $target: no such file"
                continue
            fi
            if [ -n "$anchor" ]; then
                case $file in
                *.md) anchors "$file" | grep -qxF -e "$anchor" ||
                        echo "$md:$line: $target: no heading with that anchor in $file" ;;
                esac
            fi
        done)
        if [ -n "$out" ]; then
            printf '%s\n' "$out"
            bad=1
        fi
    done
    return $bad
}

# ---- links ----
mds=$(tree_files -name '*.md' | LC_ALL=C sort)
[ -n "$mds" ] || { no "no Markdown file found (run from the repository root)"; exit 1; }
# shellcheck disable=SC2086
if out=$(check_links $mds); then ok; else no "broken links:"; printf '%s\n' "$out" | sed 's/^/  /'; fi

# ---- the check can fail ----
T=$(mktemp -d "${TMPDIR:-/tmp}/memlane-check-docs.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
printf '# Title\n\n## A `code` heading, too\n\n[a](b.md) [c](#a-code-heading-too) [d](#title)\n' > "$T/a.md"
printf '# B\n' > "$T/b.md"
if check_links "$T/a.md" > /dev/null; then ok; else no "a good file fails:"; check_links "$T/a.md"; fi
printf '[x](missing.md) [y](b.md#nowhere) [z](#title)\n' >> "$T/a.md"
n=$(check_links "$T/a.md" | wc -l)
if [ "$n" -eq 2 ]; then ok; else no "a missing file and a missing anchor gave $n lines, want 2"; fi

# ---- mentions of docs/<name>.md ----
missing=$(tree_files | xargs grep -IHno 'docs/[A-Za-z0-9_-]*\.md' 2>/dev/null |
    while IFS=: read -r file line name; do
        [ -e "$name" ] || echo "$file:$line: $name"
    done)
if [ -z "$missing" ]; then ok; else no "files name documents that do not exist:"; printf '%s\n' "$missing" | sed 's/^/  /'; fi

# ---- SECURITY.md's supported version ----
major=$(sed -n 's/^#define MEMLANE_VERSION_MAJOR \([0-9]*\)$/\1/p' include/memlane.h)
minor=$(sed -n 's/^#define MEMLANE_VERSION_MINOR \([0-9]*\)$/\1/p' include/memlane.h)
if grep -qx "| $major\\.$minor\\.x | yes |" SECURITY.md; then ok; else
    no "SECURITY.md has no line '| $major.$minor.x | yes |' (the version in include/memlane.h)"; fi

echo "check-docs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
