# SPDX-License-Identifier: BSD-2-Clause
# Recording: libmemlane-trace.so, the drop-in that also counts
# the sizes, alignments and first differences of the calls a program
# makes (MEMLANE_TRACE=FILE; src/preload/trace.c), and its tests.  The
# drop-in itself (mk/install.mk) has no recording code at all.
#
#   make trace   $(BUILD)/libmemlane-trace.so

TRACE_SO   := $(BUILD)/libmemlane-trace.so
TRACE_OBJS := $(BUILD)/obj/src/preload/preload-trace.o $(BUILD)/obj/src/preload/trace.o \
              $(BUILD)/obj/src/preload/profile-write.o
TRACE_HDRS := src/preload/trace.h include/memlane.h src/internal.h

.PHONY: trace test-trace
trace: $(TRACE_SO)
all: $(TRACE_SO)

# preload.c again, with the hooks in.
$(BUILD)/obj/src/preload/preload-trace.o: src/preload/preload.c $(TRACE_HDRS) mk/trace.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) -DMEMLANE_TRACE -c $< -o $@
$(BUILD)/obj/src/preload/trace.o $(BUILD)/obj/src/preload/profile-write.o: $(TRACE_HDRS)

$(TRACE_SO): $(TRACE_OBJS) $(LIB_INTERNAL_A) src/preload/preload.map
	$(CC) $(CFLAGS) -shared -Wl,--version-script=src/preload/preload.map \
	    -Wl,-z,noexecstack -Wl,--no-undefined \
	    $(TRACE_OBJS) $(LIB_INTERNAL_A) -pthread -o $@

# A program whose calls are known exactly (tests/trace/synthetic.c).
TRACE_SYNTH := $(BUILD)/trace-synthetic
$(TRACE_SYNTH): tests/trace/synthetic.c
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $(TOOL_NOLIBCALL) $< -pthread -ldl -o $@

test-trace: $(TRACE_SO) $(TRACE_SYNTH) $(PRELOAD_SO) $(BENCH_BIN)
	TRACE_SO=$(TRACE_SO) PRELOAD_SO=$(PRELOAD_SO) SYNTH=$(TRACE_SYNTH) LIBC=$(LIBC) \
	    sh tests/trace/run.sh
	TRACE_SO=$(TRACE_SO) SYNTH=$(TRACE_SYNTH) BENCH=$(BENCH_BIN) sh tests/trace/replay.sh

test-extra:: test-trace

# Installed beside the drop-in (memlane-bench --record looks for it there).
.PHONY: install-trace
INSTALL_FILES += $(LIBDIR)/libmemlane-trace.so
install: install-trace
install-trace: $(TRACE_SO)
	$(INSTALL) -d $(DESTDIR)$(LIBDIR)
	$(INSTALL) -m 755 $(TRACE_SO) $(DESTDIR)$(LIBDIR)/
test-install: $(TRACE_SO)

# memlane-bench --workload reads profiles, and writes merged ones with the
# recorder's own writer.
BENCH_OBJS += $(BUILD)/obj/src/preload/profile-write.o
$(BENCH_BIN): $(BUILD)/obj/src/preload/profile-write.o
$(BUILD)/obj/bench/profile.o $(BUILD)/obj/bench/workload.o $(BUILD)/obj/bench/record.o: $(TRACE_HDRS)

# What recording costs per call: the drop-in, libmemlane-trace.so with
# recording off, and on (bench/trace-overhead).  `make test` only builds it.
#   make trace-overhead [TRACE_OVERHEAD_RUNS=7] [TRACE_OVERHEAD_CPU=1]
TRACE_OVERHEAD_BIN  := $(BUILD)/trace-overhead
TRACE_OVERHEAD_RUNS ?= 7
TRACE_OVERHEAD_CPU  ?= 1
$(TRACE_OVERHEAD_BIN): bench/trace-overhead/overhead.c bench/timer.h
	$(CC) $(CFLAGS) $(BASE_CFLAGS) $(TOOL_NOLIBCALL) -Ibench $< -o $@
.PHONY: trace-overhead
trace-overhead: $(TRACE_OVERHEAD_BIN) $(PRELOAD_SO) $(TRACE_SO)
	taskset -c $(TRACE_OVERHEAD_CPU) sh bench/trace-overhead/run.sh $(TRACE_OVERHEAD_BIN) \
	    $(abspath $(PRELOAD_SO)) $(abspath $(TRACE_SO)) $(TRACE_OVERHEAD_RUNS)
test-extra:: $(TRACE_OVERHEAD_BIN)

# The programs of bench-programs (bench/programs/run.py: sort, Python, zstd,
# git, sqlite3), each recorded and replayed by memlane-bench --record; the
# replay tables of docs/workloads.md.  Times things: not part of make test.
#   make replay-programs [REPLAY_PROGRAMS_ARGS="--only sort --workdir DIR --bench-args=--cpu=1"]
REPLAY_PROGRAMS_ARGS ?=
.PHONY: replay-programs
replay-programs: $(BENCH_BIN) $(TRACE_SO)
	python3 bench/programs/run.py --replay $(BENCH_BIN) $(REPLAY_PROGRAMS_ARGS)
test-extra::
	@if command -v python3 >/dev/null; then \
	    python3 bench/programs/run.py --replay $(BENCH_BIN) --dry-run | grep -q '^would record and replay' && \
	    echo "replay-programs --dry-run: 1 passed, 0 failed"; \
	else echo "replay-programs: python3 missing, dry run skipped"; fi
