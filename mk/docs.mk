# SPDX-License-Identifier: BSD-2-Clause
# Documentation as tests: every command of README.md run, every link
# resolved.
#
#   make test-readme   README's commands in a copy of the tree, install staged
#                      (tests/readme/run.sh; part of make test)
#   make check-docs    every link of the Markdown files, every docs/<name>.md
#                      named anywhere, SECURITY.md's version (tests/check-docs.sh;
#                      part of make test)
.PHONY: test-readme check-docs

check-docs:
	sh tests/check-docs.sh
test-extra:: check-docs

test-readme:
	BUILD="$(BUILD)" CC="$(CC)" sh tests/readme/run.sh

# README's commands build and run with the system's cc and programs
# (glibc), which cannot use a library built for musl.
ifeq ($(LIBC),musl)
test-extra::
	@echo "test-readme: SKIP with CC=$(CC): README's commands use the system's cc and programs (glibc), which cannot load a musl build"
else
test-extra:: test-readme
endif
