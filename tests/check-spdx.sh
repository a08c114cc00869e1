#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every tracked file names its licence in its first two lines (the second
# when the first must be a shebang, an XML declaration or a man page's
# preprocessor line).  Exempt: fuzz inputs and binary files, which cannot
# carry a comment.  Outside a git checkout (a release tarball), every file
# under the source folders is checked instead.
set -eu
cd "$(dirname "$0")/.."
tag='SPDX-License-Identifier: BSD-2-Clause'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list=$(git ls-files)
else
    list=$(find . -path ./.git -prune -o -path './build*' -prune -o -type f -print | sed 's|^\./||')
fi
bad=0
checked=0
for f in $list; do
    case $f in
    fuzz/corpus/* | fuzz/regress/* | *.png | *.gz | LICENSE) continue ;;
    esac
    [ -f "$f" ] || continue
    checked=$((checked + 1))
    if ! head -n 2 "$f" | grep -q "$tag"; then
        echo "check-spdx: $f: no '$tag' in its first two lines"
        bad=1
    fi
done
[ -f LICENSE ] || { echo "check-spdx: LICENSE missing"; bad=1; }
[ $bad = 0 ] && echo "check-spdx: $checked files name BSD-2-Clause"
exit $bad
