# SPDX-License-Identifier: BSD-2-Clause
# Sourced by tests/trace/run.sh and replay.sh: a temporary folder $T
# (removed at exit) and check NAME COMMAND..., one test case whose output
# is shown when it fails; `finish WHAT` prints the totals and sets the
# exit status.
T=$(mktemp -d "${TMPDIR:-/tmp}/memlane-trace-test.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT INT TERM
passed=0 failed=0

. "$(dirname "$0")/../lib/check.sh"

finish() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
