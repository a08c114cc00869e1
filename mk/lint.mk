# SPDX-License-Identifier: BSD-2-Clause
# Static analysis and formatting.
#
#   make lint          cppcheck and clang-tidy; LINT_EXTRA adds files
#   make format        clang-format every tracked C file in place
#   make format-check  list the files that differ from clang-format; fail if any

.PHONY: lint lint-cppcheck lint-tidy format format-check

# ---- lint: cppcheck and clang-tidy with the checked-in configuration ----
# (.cppcheck-suppressions, .cppcheck/memlane.cfg and .clang-tidy).  Each file is analysed with
# its variant level's target flags, as the build compiles it.
CPPCHECK   ?= cppcheck
CLANG_TIDY ?= clang-tidy
CPPCHECK_FLAGS := --enable=warning,portability,performance --std=c11 \
                  --library=posix --library=.cppcheck/memlane.cfg \
                  --platform=unix64 --inline-suppr \
                  --suppressions-list=.cppcheck-suppressions \
                  --error-exitcode=1 -q -Iinclude -Isrc -Itests/suite
# The whole library (every variant, whoever wrote it), the foundation's
# test suite and the fuzz harness.  Other areas' test folders
# (tests/<area>/) have their own include paths and are not linted here;
# LINT_EXTRA adds files.
LINT_TESTS := $(TEST_SRCS) tests/suite/harness.h
LINT_C    := $(wildcard src/*.c src/*/*.c fuzz/*.c) $(TEST_SRCS) $(LINT_EXTRA)
LINT_DIRS := src $(LINT_TESTS) fuzz $(LINT_EXTRA)
TIDY_CHECKS := $(LINT_C:%=tidy/%)
.PHONY: $(TIDY_CHECKS)

lint: lint-cppcheck lint-tidy
	@echo "lint: clean (cppcheck and clang-tidy, $(words $(LINT_C)) files)"

lint-cppcheck:
	$(CPPCHECK) $(CPPCHECK_FLAGS) $(LINT_DIRS)

lint-tidy: $(TIDY_CHECKS)

$(TIDY_CHECKS): tidy/%:
	@echo "clang-tidy $*"
	@out=$$($(CLANG_TIDY) --quiet $* -- -std=gnu11 -Iinclude -Isrc -Itests/suite \
	    $(FLAGS_$(call level_of,$*)) 2>&1); rc=$$?; \
	printf '%s\n' "$$out" | grep -v '^[0-9]* warnings* generated\.$$' | grep . ; \
	exit $$rc

# ---- format: clang-format with the checked-in .clang-format ----
# Every tracked C file; `format` rewrites them, `format-check` lists the
# files that differ and fails if any does.
CLANG_FORMAT ?= clang-format
FORMAT_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)

format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

format-check:
	@bad=; for f in $(FORMAT_FILES); do \
	    $(CLANG_FORMAT) --dry-run --Werror $$f >/dev/null 2>&1 || bad="$$bad $$f"; \
	done; \
	if [ -n "$$bad" ]; then echo "format-check: not formatted:$$bad"; exit 1; fi; \
	echo "format-check: $(words $(FORMAT_FILES)) files formatted"
