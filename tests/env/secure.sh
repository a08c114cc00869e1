#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Secure execution (issue 20): in a set-user-ID program every MEMLANE_*
# variable is ignored, silently.  Each probe is copied to a temporary
# folder, made set-user-ID root and run as nobody with hostile settings;
# it must report AT_SECURE, pick what it picks with no MEMLANE_* at all,
# and print nothing on stderr.  A control copy without the bit, run the
# same way, must obey the settings (so the test can fail).  Needs root
# and setpriv (util-linux); skipped otherwise.  The copies and their
# set-user-ID bits are removed on exit.
#   sh tests/env/secure.sh BUILD
set -u
B=$1
if [ "$(id -u)" != 0 ]; then
    echo "secure: SKIP: needs root to make a set-user-ID root copy (CI runs as root)"
    exit 0
fi
if ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
    echo "secure: SKIP: needs setpriv (util-linux) and a user 'nobody'"
    exit 0
fi
group=$(id -gn nobody)

# A folder where the set-user-ID bit takes effect (not on a nosuid mount)
# and that nobody can reach.
dir=
for base in "$B" /var/tmp /tmp; do
    [ -d "$base" ] || continue
    findmnt -no OPTIONS -T "$base" 2>/dev/null | tr , '\n' | grep -qx nosuid && continue
    dir=$(mktemp -d "$base/memlane-secure.XXXXXX") || continue
    chmod 755 "$dir"
    if setpriv --reuid=nobody --regid="$group" --clear-groups test -x "$dir"; then break; fi
    rm -rf "$dir"
    dir=
done
if [ -z "$dir" ]; then
    echo "secure: FAIL: no folder here where a set-user-ID program can run as nobody"
    exit 1
fi
cleanup() {
    find "$dir" -type f -perm -4000 -exec chmod u-s {} + 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM

HOSTILE="MEMLANE_ARCH=generic MEMLANE_REP_STOSB_THRESHOLD=1 MEMLANE_NT_THRESHOLD=junk MEMLANE_CMP_PREFETCH=junk"
NOENV="-u MEMLANE_ARCH -u MEMLANE_REP_STOSB_THRESHOLD -u MEMLANE_NT_THRESHOLD -u MEMLANE_CMP_PREFETCH"
passed=0 failed=0
fail() { failed=$((failed + 1)); echo "secure: FAIL $*"; }

# check NAME FILE ARGS...
check() {
    name=$1 file=$2
    shift 2
    cp "$file" "$dir/$name" && cp "$file" "$dir/$name-plain" || { fail "$name: copy"; return; }
    chown root:root "$dir/$name" && chmod 4755 "$dir/$name" && chmod 755 "$dir/$name-plain"
    # The reference: what the program picks without any MEMLANE_* variable.
    # shellcheck disable=SC2086
    env $NOENV "$dir/$name-plain" "$@" 2>"$dir/err" | grep -v '^secure-execution' >"$dir/want"
    # The control: no set-user-ID bit, so the settings apply and warn.
    # shellcheck disable=SC2086
    setpriv --reuid=nobody --regid="$group" --clear-groups env $NOENV $HOSTILE \
        "$dir/$name-plain" "$@" >"$dir/control" 2>"$dir/control.err"
    if ! grep -qx 'memset generic' "$dir/control" || ! [ -s "$dir/control.err" ]; then
        fail "$name: control: the settings did not apply outside secure execution:"
        cat "$dir/control" "$dir/control.err"
        return
    fi
    for arch in generic bogus; do
        # shellcheck disable=SC2086
        setpriv --reuid=nobody --regid="$group" --clear-groups env $NOENV $HOSTILE \
            MEMLANE_ARCH=$arch "$dir/$name" "$@" >"$dir/got" 2>"$dir/got.err"
        rc=$?
        if ! grep -qx 'secure-execution 1' "$dir/got"; then
            fail "$name: not a secure-execution process (exit $rc):"
            cat "$dir/got" "$dir/got.err"
        elif [ -s "$dir/got.err" ]; then
            fail "$name MEMLANE_ARCH=$arch: stderr not empty:"
            cat "$dir/got.err"
        elif ! grep -v '^secure-execution' "$dir/got" | cmp -s - "$dir/want"; then
            fail "$name MEMLANE_ARCH=$arch: settings obeyed:"
            grep -v '^secure-execution' "$dir/got" | diff "$dir/want" - | head -20
        else
            passed=$((passed + 1))
        fi
    done
}

check memlane-test "$B/memlane-test" --arch-probe
check memlane-test-static "$B/memlane-test-static" --arch-probe
check memlane-test-static-pie "$B/memlane-test-static-pie" --arch-probe
check env-probe "$B/env-probe"
echo "secure: $passed passed, $failed failed (set-user-ID copies in $dir, removed)"
[ "$failed" -eq 0 ]
