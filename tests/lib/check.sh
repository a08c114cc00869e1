# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the shell test scripts: `check NAME COMMAND...` runs one test
# case, counts it in $passed or $failed, and shows its output (at most 40
# lines) when it fails.
check() {
    name=$1
    shift
    if out=$("$@" 2>&1); then
        passed=$((passed + 1))
        echo "ok   $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name"
        printf '%s\n' "$out" | sed 's/^/     /' | head -40
    fi
}
