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

# TOOL_NOLIBCALL (mk/library.mk): libc is measured through its real
# functions, never an inline expansion, and the reference loops stay
# loops.
BENCH_CFLAGS := $(BASE_CFLAGS) $(TOOL_NOLIBCALL) $(BENCH_DEFS) $(BENCH_PEER_CFLAGS)
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
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $(TOOL_NOLIBCALL) -Ibench $< $(BUILD)/libmemlane.a -o $@
.PHONY: masked-lanes
ifeq ($(IS_X86_64),1)
masked-lanes: $(MASKED_LANES_BIN)
	taskset -c $(MASKED_LANES_CPU) $(MASKED_LANES_BIN)
test-extra:: $(MASKED_LANES_BIN)
else
masked-lanes:
	@echo "$@: x86-64 only (rdtsc); skipped on $(TARGET)"
endif

# store-forward (bench/store-forward): memset, then a load of bytes it
# wrote, each fill byte from the load before: the latency that includes
# store-to-load forwarding, for libc and each memlane variant the CPU runs.
# `make store-forward` runs it pinned to one CPU (STORE_FORWARD_CPU);
# `make test` only builds it.
STORE_FORWARD_BIN := $(BUILD)/store-forward
STORE_FORWARD_CPU ?= 1
$(STORE_FORWARD_BIN): bench/store-forward/store-forward.c bench/timer.h include/memlane.h $(LIB_INTERNAL_A)
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $(TOOL_NOLIBCALL) -Ibench $< $(LIB_INTERNAL_A) -o $@
.PHONY: store-forward
ifeq ($(IS_X86_64),1)
store-forward: $(STORE_FORWARD_BIN)
	taskset -c $(STORE_FORWARD_CPU) $(STORE_FORWARD_BIN)
test-extra:: $(STORE_FORWARD_BIN)
else
store-forward:
	@echo "$@: x86-64 only (rdtsc); skipped on $(TARGET)"
endif

# ---- ab: variants against libc at several code placements ----
# ab (bench/ab): one function's variants against libc's, both in shared
# libraries, each implementation in a process of its own next to libc, at
# four code placements; per row the ticks and the time ratio (median over
# the placements, with its spread).
#   make ab FUNC=memcmp AB_MODE=fixed[:OFF][:SIZES]|dist[:OFF]|uniform:A-B
#           AB_DATA=equal|mismatch|mismatch:K|mismatch:A-B (each /P: P % of calls)
#           AB_IMPLS="avx2 memlane" AB_GLIBC=default|avx2|sse2
#           AB_PROBE_MAX=T (rerun until the state probe reads <= T ticks)
#           AB_CALLER=branch (the timed loop branches on each compare's result)
#           AB_DRAWS=own (random sizes and positions drawn per implementation)
#           AB_WARM=sizes (each row after a call at every size to 4 KiB)
# (bench/ab/ab.c and run.sh say more.)  `make memset-ab` is the former
# memset harness's interface: FUNC=memset, its speed-ratio layout.
# The harness is built (not run) by `make test`, so it keeps compiling.
FUNC     ?= memcmp
AB_MODE  ?= dist
AB_DATA  ?= equal
AB_IMPLS ?= avx512 avx2 sse2 memlane
# The library's flags: the harness builds the variants with AB_CC too.
AB_CC     = $(CC) $(CFLAGS) -std=gnu11 $(WARN) $(LIB_NOLIBCALL)
AB_ENV    = AB_LIBMEMLANE=$(abspath $(BUILD)/libmemlane.so.$(SOVERSION)) \
            AB_FLAGS_sse2="$(FLAGS_sse2)" AB_FLAGS_avx2="$(FLAGS_avx2)" \
            AB_FLAGS_avx512="$(FLAGS_avx512)" AB_FLAGS_cmp512="$(FLAGS_cmp512)" \
            AB_FLAGS_cmpvec="$(ALIGN_JUMP_TARGETS_64)" \
            AB_FLAGS_memset="$(FLAGS_fn_memset)" AB_FLAGS_zmm16="$(ML_NO_LOW_XMM)"
.PHONY: ab memset-ab
ab: $(BUILD)/libmemlane.so.$(SOVERSION)
	$(AB_ENV) sh bench/ab/run.sh $(BUILD)/ab "$(AB_CC)" $(FUNC) $(AB_MODE) $(AB_DATA) $(AB_IMPLS)
memset-ab: $(BUILD)/libmemlane.so.$(SOVERSION)
	$(AB_ENV) AB_FORMAT=speed sh bench/ab/run.sh $(BUILD)/ab "$(AB_CC)" memset $(AB_MODE) - \
	    $(if $(filter command line,$(origin AB_IMPLS)),$(AB_IMPLS),avx512 memlane null onemask)
# ab-goals (bench/ab/goals.sh): every ab run behind the speed goals on
# this CPU (memcmp, bcmp, memset; fixed sizes 0-1 KiB and 2 KiB-64 MiB,
# random sizes; compares equal, differing at a random byte, and to 1 KiB
# at byte 0 and at byte 40; each level against glibc's same level; to
# 1 KiB equal also with every size warmed, AB_WARM=sizes), the tables in
# $(BUILD)/ab-goals, then a summary.  About 25 minutes.
#   make ab-goals [AB_GOALS_ARGS="AB_PROBE_MAX=4.4 AB_EXTRA_OBJS=..."]
AB_GOALS_ARGS ?=
.PHONY: ab-goals
ab-goals: $(BUILD)/libmemlane.so.$(SOVERSION)
	MAKE="$(MAKE)" sh bench/ab/goals.sh $(BUILD)/ab-goals "BUILD=$(BUILD)" "CC=$(CC)" \
	    $(AB_GOALS_ARGS)
ifeq ($(IS_X86_64),1)
test-extra::
	$(AB_ENV) AB_RUN=true sh bench/ab/run.sh $(BUILD)/ab "$(AB_CC)" memcmp dist equal avx2
	sh bench/ab/test-args.sh $(BUILD)/ab
endif

# ---- bench-programs: real programs with and without the drop-in ----
# bench-programs (bench/programs/run.py): real programs (sort, Python, zstd,
# git, sqlite3) timed with and without the LD_PRELOAD drop-in in
# alternating pairs; prints each ratio with its spread and checks that the
# outputs are identical.  It times things, so it is not part of `make test`,
# which only checks that the script parses and lists its programs.
# The drop-in is linked once per placement (PROGRAMS_PADS): an unused block
# of pad KiB + pad * 80 + 1 bytes after the drop-in's own objects shifts
# the library's code, as in `make ab`; pair i runs placement i mod N, so no
# figure rests on one lucky or unlucky layout.
#   make bench-programs [BENCH_PROGRAMS_ARGS="--cpu 1 --pairs 10 --only sort,git"]
#                       [PROGRAMS_PADS="0 1 2 3"]
BENCH_PROGRAMS_ARGS ?=
PROGRAMS_PADS ?= 0 1 2 3
PROGRAMS_PRELOADS := $(foreach p,$(PROGRAMS_PADS),$(BUILD)/placements/libmemlane-preload-pad$(p).so)
$(BUILD)/placements/libmemlane-preload-pad%.so: $(PRELOAD_OBJS) $(LIB_INTERNAL_A) \
                                               src/preload/preload.map
	@mkdir -p $(@D)
	printf '__asm__(".text\\n.globl ml_pad\\nml_pad: .fill %d, 1, 0x90\\nret\\n");\n' \
	    $$(($* * 1024 + $* * 80 + 1)) > $(@D)/pad$*.c
	$(CC) -fPIC -c $(@D)/pad$*.c -o $(@D)/pad$*.o
	$(CC) $(CFLAGS) -shared -Wl,--version-script=src/preload/preload.map \
	    -Wl,-z,noexecstack -Wl,--no-undefined \
	    $(PRELOAD_OBJS) $(@D)/pad$*.o $(LIB_INTERNAL_A) -ldl -o $@
.PHONY: bench-programs
bench-programs: $(PROGRAMS_PRELOADS)
	python3 bench/programs/run.py $(foreach f,$(abspath $(PROGRAMS_PRELOADS)),--preload $(f)) \
	    $(BENCH_PROGRAMS_ARGS)
test-extra::
	@if command -v python3 >/dev/null; then \
	    python3 bench/programs/run.py --dry-run | grep -q '^would run' && echo "bench-programs --dry-run: 1 passed, 0 failed"; \
	else echo "bench-programs: python3 missing, dry run skipped"; fi

# ---- bench-startup: what loading memlane costs a process ----
# bench-startup (bench/startup): /bin/true started with no preload, with
# an empty preloaded object and with the drop-in, in turns; the median
# time per start and its difference.  `make test` only builds it.
#   make bench-startup [STARTUP_ARGS="-r 40 -b 50"]
STARTUP_BIN := $(BUILD)/startup
STARTUP_EMPTY := $(BUILD)/startup-empty.so
STARTUP_ARGS ?=
STARTUP_CPU ?= 1
$(STARTUP_BIN): bench/startup/startup.c bench/stats.c bench/stats.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -Ibench bench/startup/startup.c bench/stats.c -lm -o $@
$(STARTUP_EMPTY): bench/startup/empty.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(BASE_CFLAGS) -fPIC -shared $< -o $@
.PHONY: bench-startup
bench-startup: $(STARTUP_BIN) $(STARTUP_EMPTY) $(PRELOAD_SO)
	taskset -c $(STARTUP_CPU) $(STARTUP_BIN) $(STARTUP_ARGS) none $(abspath $(STARTUP_EMPTY)) $(abspath $(PRELOAD_SO))
test-extra:: $(STARTUP_BIN) $(STARTUP_EMPTY)

# ---- same-level: against glibc's code of the same level ----
# memlane's avx2/sse2 variants against glibc's code of the same level
# (bench/same-level.sh), output in $(BUILD)/same-level;
# SAME_LEVEL_ARGS="--cpu=1" adds memlane-bench options.
.PHONY: same-level
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
