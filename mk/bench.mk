# SPDX-License-Identifier: BSD-2-Clause
# memlane-bench: the benchmark tool (bench/), `make bench`, and its tests
# (part of `make test`).  OpenSSL and libsodium are compared when
# pkg-config finds them at build time; neither is required.

BENCH_BIN  := $(BUILD)/memlane-bench
BENCH_SRCS := $(wildcard bench/*.c)
BENCH_OUT  := $(BUILD)/bench

# pkg-config describes the system's libraries; a peer counts only if this
# compiler also finds its header (musl-gcc does not see glibc's OpenSSL).
bench_peer = $(shell pkg-config --exists $(1) 2>/dev/null && \
    printf '\043include <%s>\n' $(2) | $(CC) $$(pkg-config --cflags $(1)) -E -x c - \
    >/dev/null 2>&1 && echo $(1))
BENCH_PEERS := $(call bench_peer,libcrypto,openssl/crypto.h) \
               $(call bench_peer,libsodium,sodium.h)
BENCH_PEERS := $(strip $(BENCH_PEERS))
BENCH_DEFS  := $(if $(filter libcrypto,$(BENCH_PEERS)),-DBENCH_HAVE_OPENSSL) \
               $(if $(filter libsodium,$(BENCH_PEERS)),-DBENCH_HAVE_SODIUM) \
               $(if $(filter musl,$(LIBC)),-DBENCH_LIBC_MUSL='"$(or $(MUSL_VERSION),?)"')
BENCH_PEER_CFLAGS := $(if $(BENCH_PEERS),$(shell pkg-config --cflags $(BENCH_PEERS)))
BENCH_PEER_LIBS   := $(if $(BENCH_PEERS),$(shell pkg-config --libs $(BENCH_PEERS)))

# -fno-builtin (and gcc's -fno-tree-loop-distribute-patterns): libc is
# measured through its real functions, never an inline expansion, and
# the reference loops stay loops.
BENCH_CFLAGS := $(BASE_CFLAGS) $(LIB_NOLIBCALL) $(BENCH_DEFS) $(BENCH_PEER_CFLAGS)
# The constant-time byte loops must stay byte loops, as the BSDs ship them.
BENCH_NOVEC := $(if $(filter 1,$(IS_CLANG)),-fno-vectorize -fno-slp-vectorize,-fno-tree-vectorize -fno-tree-slp-vectorize)

# The timed loops start on a 64-byte line: a loop that straddles two
# lines can run much slower (docs/benchmarking.md, "How it measures").
BENCH_LOOP_ALIGN := -falign-loops=64

BENCH_OBJS := $(BENCH_SRCS:%.c=$(BUILD)/obj/%.o)

# The chart script (bench/plot.gp) as a C string in the tool, which
# writes it next to its plot data (--plot-dir).
BENCH_PLOT_C := $(BUILD)/gen/plot_script.c
BENCH_OBJS   += $(BUILD)/obj/gen/plot_script.o
$(BENCH_PLOT_C): bench/plot.gp mk/bench.mk
	@mkdir -p $(dir $@)
	{ printf '/* Generated from bench/plot.gp by mk/bench.mk. */\n#include "bench.h"\n'; \
	  printf 'const char bench_plot_script[] =\n'; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/\\n"/' $<; echo ';'; } > $@.tmp
	mv $@.tmp $@
$(BUILD)/obj/gen/plot_script.o: $(BENCH_PLOT_C) bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_CFLAGS) -Ibench -c $< -o $@

GNUPLOT    ?= gnuplot

all: $(BENCH_BIN)

$(BUILD)/obj/bench/%.o: bench/%.c mk/bench.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_CFLAGS) $(DEPFLAGS) $(if $(filter ctref,$(basename $(notdir $<))),$(BENCH_NOVEC)) \
	    $(if $(filter batch,$(basename $(notdir $<))),$(BENCH_LOOP_ALIGN)) -c $< -o $@

# A page-aligned anchor, then the whole library, then the rest: memlane's
# code then sits at the same offsets within pages and cache lines
# whatever the size of the tool's own code, so editing the tool does not
# move a variant's loops across a 64-byte line (docs/benchmarking.md,
# "How it measures").  See bench/anchor.c.
BENCH_ANCHOR := $(BUILD)/obj/bench/anchor.o
$(BENCH_BIN): $(BENCH_OBJS) $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(BENCH_ANCHOR) -Wl,--whole-archive $(LIB_INTERNAL_A) -Wl,--no-whole-archive \
	    $(filter-out $(BENCH_ANCHOR),$(BENCH_OBJS)) $(BENCH_PEER_LIBS) -lm -o $@

.PHONY: bench bench-quick
# The default tables, plus a log-size memset sweep for the chart; data,
# a gnuplot script and (with gnuplot) charts in $(BENCH_OUT).
bench: all
	@mkdir -p $(BENCH_OUT)
	@rm -f $(BENCH_OUT)/*.dat
	@# tee for the terminal and the file; the tool's exit status, not tee's
	{ $(BENCH_BIN) --plot-dir=$(BENCH_OUT) $(BENCH_ARGS); echo $$? > $(BENCH_OUT)/.status; } | tee $(BENCH_OUT)/tables.txt; \
	    exit $$(cat $(BENCH_OUT)/.status)
	$(BENCH_BIN) --tables=1 --sizes=64-64M*2 --runs=9 --plot-dir=$(BENCH_OUT) --plot-tag=large $(BENCH_ARGS) > $(BENCH_OUT)/memset-large.txt
	@if command -v $(GNUPLOT) >/dev/null 2>&1; then \
	    (cd $(BENCH_OUT) && $(GNUPLOT) memlane-bench.gp) && \
	    echo "charts: $$(ls $(BENCH_OUT)/*.png $(BENCH_OUT)/*.svg | tr '\n' ' ')"; \
	else \
	    echo "charts: install gnuplot (apt-get install gnuplot-nox), then: cd $(BENCH_OUT) && gnuplot memlane-bench.gp"; \
	fi

bench-quick: all
	$(BENCH_BIN) --quick $(BENCH_ARGS)

# The tool's own tests: it runs, parses its flags, writes well-formed
# output.  Never a speed assertion.
BENCH_STATS_TEST := $(BUILD)/bench-test-stats
$(BENCH_STATS_TEST): tests/bench/test_stats.c bench/stats.c bench/stats.h
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -Ibench tests/bench/test_stats.c bench/stats.c -lm -o $@

test-extra:: $(BENCH_BIN) $(BENCH_STATS_TEST)
	$(BENCH_STATS_TEST)
	BENCH=$(BENCH_BIN) sh bench/test-bench.sh

# masked-lanes (bench/masked-lanes): masked loads/stores whose masked-off
# lanes reach a page that is not present: n == 0 calls by the page behind
# the pointer, and buffers ending at a page end before PROT_NONE; memlane
# next to libc.  `make masked-lanes` runs it pinned to one CPU
# (MASKED_LANES_CPU); `make test` only builds it, so it keeps compiling.
MASKED_LANES_BIN := $(BUILD)/masked-lanes
MASKED_LANES_CPU ?= 1
$(MASKED_LANES_BIN): bench/masked-lanes/masked-lanes.c bench/timer.h include/memlane.h $(BUILD)/libmemlane.a
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $(LIB_NOLIBCALL) -Ibench $< $(BUILD)/libmemlane.a -o $@
.PHONY: masked-lanes
ifeq ($(IS_X86_64),1)
masked-lanes: $(MASKED_LANES_BIN)
	taskset -c $(MASKED_LANES_CPU) $(MASKED_LANES_BIN)
test-extra:: $(MASKED_LANES_BIN)
else
masked-lanes:
	@echo "$@: x86-64 only (rdtsc); skipped on $(TARGET)"
endif
