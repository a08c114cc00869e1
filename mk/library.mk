# SPDX-License-Identifier: BSD-2-Clause
# The library: every source, the flags each is compiled with, the
# internal archive (tests, benchmark), the installed static archive and
# the shared library with its version script.

# The library must not call itself: no builtin expansion into libcalls
# (a memset loop turned into a call to memset).
ifeq ($(IS_CLANG),1)
  LIB_NOLIBCALL := -fno-builtin
else
  LIB_NOLIBCALL := -fno-builtin -fno-tree-loop-distribute-patterns
endif
LIB_CFLAGS := $(BASE_CFLAGS) -fPIC -fvisibility=hidden $(LIB_NOLIBCALL)

# The benchmark and trace tools: their calls of the measured functions
# stay calls (never an inline expansion, no loop turned into one), but
# printf and the rest keep their builtins, and so their format checks.
TOOL_NOLIBCALL := -fno-builtin-memset -fno-builtin-memcmp -fno-builtin-bcmp \
                  $(if $(filter 1,$(IS_CLANG)),,-fno-tree-loop-distribute-patterns)

# ---- the sources ----
# The functions, in src/functions.def's order; a variant is
# src/<function>/<level>.c, with src/<function>/<level>_entry.S where its
# entry is assembly; beside them the dispatch and its helpers, and
# memset's tunables.
FUNCTIONS := $(shell sed -n 's/^ML_FUNCTION.\([a-z_0-9]*\), .*/\1/p' src/functions.def)
LEVELS    := generic $(if $(IS_X86_64),sse2 avx2 avx512)
LIB_SRCS  := src/cpu.c src/dispatch.c src/env.c src/warn.c src/version.c \
             $(foreach f,$(FUNCTIONS),$(foreach l,$(LEVELS), \
                 $(wildcard src/$(f)/$(l).c src/$(f)/$(l)_entry.S))) \
             $(if $(IS_X86_64),src/memset/avx512_zmm16.c) src/tunables.c
LIB_OBJS  := $(addprefix $(BUILD)/obj/,$(addsuffix .o,$(basename $(LIB_SRCS))))

# ---- the flags ----
# Target flags of each x86-64 level; a variant file is named after its
# level (level_of), and a file that is no variant gets FLAGS_<its name>.
level_of = $(basename $(notdir $(1)))
FLAGS_generic :=
FLAGS_sse2    := -msse2
FLAGS_avx2    := -mavx2 -mbmi -mbmi2 -mmovbe
FLAGS_avx512  := -mavx2 -mbmi -mbmi2 -mmovbe -mavx512f -mavx512bw -mavx512vl
# Every branch target reached only by a jump starts a 32-byte fetch block
# (ALIGN_JUMP_TARGETS) or a 64-byte line (..._64): memset's variants (on
# Zen 5, 1 cycle a call at fixed sizes) and the AVX-512 compares, whose
# size test mispredicts on random sizes and then fetches from its target,
# take 32; the SSE2 and AVX2 compares 64 (docs/memset.md, docs/memcmp.md).
# A file's function is its folder (src/<function>/<level>.c): FLAGS_fn_<function>.
function_of = $(notdir $(patsubst %/,%,$(dir $(1))))
ifeq ($(IS_CLANG),1)
  ALIGN_JUMP_TARGETS    := -mllvm -align-all-nofallthru-blocks=5
  ALIGN_JUMP_TARGETS_64 := -mllvm -align-all-nofallthru-blocks=6
else
  ALIGN_JUMP_TARGETS    := -falign-jumps=32 -fno-crossjumping
  ALIGN_JUMP_TARGETS_64 := -falign-jumps=64 -fno-crossjumping
endif
FLAGS_fn_memset := $(ALIGN_JUMP_TARGETS)
CMP_VEC_OBJS := $(foreach f,memcmp bcmp,$(foreach l,sse2 avx2,$(BUILD)/obj/src/$(f)/$(l).o))
$(CMP_VEC_OBJS): LIB_CFLAGS += $(ALIGN_JUMP_TARGETS_64)
# Code that IFUNC resolvers run (src/dispatch.c, cpu.c, env.c): in a static executable
# they run before libc has set up thread-local storage, which holds the
# stack protector's canary, so no canary checks there whatever CFLAGS say.
FLAGS_dispatch := -fno-stack-protector
FLAGS_cpu      := -fno-stack-protector
FLAGS_env      := -fno-stack-protector

# gcc: keep the AVX-512 memcmp and bcmp on zmm16-31 by reserving
# xmm0-15 for those two files.  Registers 16-31 leave no dirty upper
# state, so no vzeroupper is needed on return (it cost ~1.4 cycles a call
# on Zen 4), and callers' SSE code still pays no transition penalty.
# clang has no such flag; it uses zmm0-15 and inserts vzeroupper itself.
ifneq ($(IS_CLANG),1)
ML_NO_LOW_XMM := $(foreach r,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15,-ffixed-xmm$(r))
endif
FLAGS_cmp512 := $(ML_NO_LOW_XMM) $(ALIGN_JUMP_TARGETS)
$(BUILD)/obj/src/memcmp/avx512.o $(BUILD)/obj/src/bcmp/avx512.o: LIB_CFLAGS += $(FLAGS_cmp512)
# memset's second AVX-512 build, for Zen 4 (src/memset/avx512_zmm16.c):
# its level's flags, and (gcc) xmm0-15 reserved.
FLAGS_avx512_zmm16 := $(FLAGS_avx512)
$(BUILD)/obj/src/memset/avx512_zmm16.o: LIB_CFLAGS += $(ML_NO_LOW_XMM)

# The timing-safe files' code generation, pinned (docs/constant-time.md).
# Users build with their own CFLAGS (-march=native, -march=x86-64-v4,
# -O3, -Os, -mtune=...): a compiler given AVX-512 for the AVX2 variant
# turns a data-dependent compare into a mask and vpmovm2q, which is off
# the DOIT list; -Os turns the SSE2 variants' integer moves into movaps.
# The timing-safe files therefore get, after CFLAGS (the last -march,
# -mtune and -O win): the baseline ISA, generic tuning and -O2, then their
# level's own -m flags (FLAGS_<level>).  -mno-* also take back features a
# user named one by one (-mavx512f, -mbmi, ...); those -mno-* cannot list
# every extension there is (-mavx512vbmi2, -mgfni): check 1 of
# `make check-ct` (and `make check-ct-matrix`) is what catches the rest.
ifeq ($(IS_X86_64),1)
CT_PIN_COMMON  := -O2 -march=x86-64 -mtune=generic -mno-lzcnt -mno-popcnt -mno-adx
CT_PIN_generic := $(CT_PIN_COMMON) -mno-sse3 -mno-bmi -mno-bmi2 -mno-movbe
CT_PIN_sse2    := $(CT_PIN_generic)
CT_PIN_avx2    := $(CT_PIN_COMMON) -mno-avx512f
CT_PIN_avx512  := $(CT_PIN_COMMON)
$(foreach l,$(LEVELS),$(eval \
    $(BUILD)/obj/src/timingsafe_%/$(l).o: LIB_CFLAGS += $$(CT_PIN_$(l))))
endif

# ---- objects and archives ----
$(BUILD)/obj/src/%.o: src/%.c Makefile mk/library.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) $(DEPFLAGS) $(FLAGS_$(call level_of,$<)) \
	    $(FLAGS_fn_$(call function_of,$<)) -c $< -o $@
# Assembly, through the preprocessor with the C flags: -I, -D, -g, -Wa,
# and -fsanitize (which selects the C code instead, src/sanitized.h).
$(BUILD)/obj/src/%.o: src/%.S Makefile mk/library.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) $(DEPFLAGS) -c $< -o $@

# The library's objects, one archive member each, for the programs that
# reach its internals (ml_* functions, the variants by name): the tests
# and the benchmark.  Not installed: the installed libmemlane.a is made of
# the same objects with only the API left global (see below).
LIB_INTERNAL_A := $(BUILD)/libmemlane-internal.a
$(LIB_INTERNAL_A): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The static library users link: every object of the internal archive
# linked into one relocatable object in which only the functions of the
# API (src/memlane.map) stay global; ml_cpu, memlane_memset_avx2 and the
# rest become local, so a program may use those names for its own.
# With link-time optimisation (-flto in CFLAGS) the objects hold compiler
# IR, whose symbols objcopy cannot make local: the partial link compiles
# them (gcc: -flinker-output=nolto-rel; lld does by itself), so this
# archive holds machine code either way.
LIB_A_LTO := $(if $(findstring -flto,$(CFLAGS)),$(CFLAGS) \
               $(if $(filter 1,$(IS_CLANG)),,-flinker-output=nolto-rel))
$(BUILD)/libmemlane.a: $(LIB_INTERNAL_A) src/memlane.map
	sed -n 's/^[[:space:]]*\(memlane_[a-z0-9_]*\);.*/\1/p' src/memlane.map > $(BUILD)/obj/api-symbols.txt
	$(CC) $(LIB_A_LTO) -r -nostdlib -Wl,--whole-archive $(LIB_INTERNAL_A) -Wl,--no-whole-archive \
	    -o $(BUILD)/obj/libmemlane-all.o
	$(OBJCOPY) --keep-global-symbols=$(BUILD)/obj/api-symbols.txt \
	    $(BUILD)/obj/libmemlane-all.o $(BUILD)/obj/libmemlane.o
	@rm -f $@
	$(AR) rcs $@ $(BUILD)/obj/libmemlane.o

# The shared library exports only the public API, in version nodes
# MEMLANE_* (src/memlane.map): -fvisibility=hidden already hides
# everything else; the version script is the second line of defence and
# names the ABI.
$(BUILD)/libmemlane.so.$(SOVERSION): $(LIB_OBJS) src/memlane.map
	$(CC) $(CFLAGS) -Wl,--version-script=src/memlane.map -shared -Wl,-soname,$(SONAME) \
	    -Wl,-z,noexecstack $(LIB_OBJS) -o $@

$(BUILD)/libmemlane.so: $(BUILD)/libmemlane.so.$(SOVERSION)
	ln -sf libmemlane.so.$(SOVERSION) $(BUILD)/$(SONAME)
	ln -sf libmemlane.so.$(SOVERSION) $@

all: $(BUILD)/libmemlane.a $(BUILD)/libmemlane.so
