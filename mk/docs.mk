# SPDX-License-Identifier: BSD-2-Clause
# Documentation: every command of README.md run by a test, and the
# commands that regenerate the measurements the docs cite.
#
#   make test-readme   README's commands in a copy of the tree, install staged
#                      (tests/readme/run.sh; part of make test)
#   make check-docs    every link of the Markdown files, every docs/<name>.md
#                      named anywhere, SECURITY.md's version (tests/check-docs.sh;
#                      part of make test)
#   make same-level    memlane's avx2/sse2 variants against glibc's code of the
#                      same level (bench/same-level.sh), output in $(BUILD)/same-level;
#                      SAME_LEVEL_ARGS="--cpu=1" adds memlane-bench options
.PHONY: test-readme same-level check-docs

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

same-level: $(BENCH_BIN)
	BENCH=$(BENCH_BIN) sh bench/same-level.sh $(BUILD)/same-level $(SAME_LEVEL_ARGS)

# The same-level recipe keeps working: one quick pass with a single size
# (it checks that glibc still takes its AVX2 and SSE2 code under the
# tunables).  glibc only.
ifeq ($(IS_X86_64),1)
test-extra:: $(BENCH_BIN)
	@if [ "$(LIBC)" = glibc ]; then \
	    BENCH=$(BENCH_BIN) sh bench/same-level.sh $(BUILD)/same-level-smoke --quick --sizes=64 -d Short; \
	else echo "same-level: SKIP with LIBC=$(LIBC): glibc only (GLIBC_TUNABLES, the libc-variants: line)"; fi
endif
