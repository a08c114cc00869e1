#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# CI: every command of README.md (tests/readme/run.sh).  `make test` has
# already run it with gcc and clang, skipping blocks whose tools were
# missing; here pkg-config and cmake are installed and required.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/install-missing.sh
install_missing pkgconf cmake

start=$SECONDS
make --no-print-directory BUILD=build-ci-readme MEMLANE_REQUIRE_TOOLS=1 test-readme
rm -rf build-ci-readme
echo "=== readme: $((SECONDS - start)) s"
