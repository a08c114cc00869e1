/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal interface shared by the library, the tests and the benchmark:
 * the levels, the table of every variant of every function, and the
 * dispatcher's choice.  Not installed.
 */
#ifndef MEMLANE_INTERNAL_H
#define MEMLANE_INTERNAL_H

#include <limits.h> /* on glibc, defines __GLIBC__ (features.h) */
#include <stddef.h>

#include "memlane.h"
#include "sanitized.h"

/* Symbols of the library that are not public API. */
#define ML_HIDDEN __attribute__((__visibility__("hidden")))

/* The C parts that an assembly entry (src/<function>/<level>_entry.S)
 * jumps to: hidden also in ab's build (bench/ab/run.sh, which exports
 * ML_HIDDEN symbols), so that those jumps bind directly, not through a
 * PLT. */
#define ML_ASM_PART __attribute__((__visibility__("hidden")))

/* x86-64 levels, in increasing order; generic is the portable C. */
enum ml_level {
    ML_GENERIC = 0,
    ML_SSE2,   /* x86-64 baseline */
    ML_AVX2,   /* AVX2 + BMI1 + BMI2 + MOVBE, OS-enabled YMM state */
    ML_AVX512, /* the above + AVX-512 F/BW/VL, OS-enabled ZMM state */
    ML_NLEVELS
};

typedef void *(*ml_set_fn)(void *dst, int c, size_t n);
typedef int (*ml_cmp_fn)(const void *a, const void *b, size_t n);

/* Each kind of function in functions.def: its pointer type, return type,
 * parameters and the arguments that forward them. */
#define ML_TYPE_SET ml_set_fn
#define ML_RET_SET void *
#define ML_PARAMS_SET (void *dst, int c, size_t n)
#define ML_ARGS_SET (dst, c, n)
#define ML_TYPE_CMP ml_cmp_fn
#define ML_RET_CMP int
#define ML_PARAMS_CMP (const void *a, const void *b, size_t n)
#define ML_ARGS_CMP (a, b, n)

enum ml_kind { ML_KIND_SET, ML_KIND_CMP };

struct ml_variant {
    const char *name; /* "generic", "sse2", ... */
    enum ml_level level;
    union {
        ml_set_fn set;
        ml_cmp_fn cmp;
        void (*any)(void); /* as the function table initialises it */
    } fn;
};

struct ml_function {
    const char *name; /* "memset", "memcmp", ... */
    enum ml_kind kind;
    const struct ml_variant *variants; /* ascending level */
    unsigned nvariants;
};

/* Every variant of every function (support on this CPU not implied). */
ML_HIDDEN const struct ml_function *ml_functions(unsigned *count);
ML_HIDDEN const struct ml_function *ml_function_find(const char *name);

/* Level names, and the level a name stands for (-1 if none). */
ML_HIDDEN const char *ml_level_name(enum ml_level level);
ML_HIDDEN int ml_level_from_name(const char *name);

/* Whether a function's variant of this level reads around its buffers
 * (within their pages, include/memlane.h): under valgrind the dispatcher
 * does not select such a variant. */
ML_HIDDEN int ml_variant_reads_around(const char *function, enum ml_level level);

/* Whether the dispatcher may select a variant on this CPU (its level
 * aside): some are for certain CPUs only (dispatch.c says which). */
ML_HIDDEN int ml_variant_fits_cpu(const struct ml_variant *variant);

/* Highest level the CPU and OS support (MEMLANE_ARCH not applied). */
ML_HIDDEN enum ml_level ml_cpu_level(void);
/* Whether a variant of this level can run here. */
ML_HIDDEN int ml_level_supported(enum ml_level level);
/* The level the dispatcher selected (after MEMLANE_ARCH). */
ML_HIDDEN enum ml_level ml_selected_level(void);
/* The selection a constructor makes at load time, with the environment
 * (src/dispatch.c); done once, whoever calls first. */
ML_HIDDEN void ml_select_at_load(void);
/* The environment, also before libc has set `environ` (IFUNC resolvers,
 * .preinit_array callers), or NULL when it cannot be found (src/env.c);
 * and getenv over such an array. */
ML_HIDDEN char **ml_environ(void);
ML_HIDDEN const char *ml_env_get(char **env, const char *name);
/* One line on stderr from the given pieces, in one write(2) (stdio may
 * call memset, which may be memlane's).  parts[value_index] comes from the
 * environment: it is cut short and its non-printable bytes escaped
 * (src/warn.c). */
ML_HIDDEN void ml_warn_line(const char *const *parts, unsigned count,
                            unsigned value_index);
/* What the IFUNC resolver of a public function ("memset", ...) bound its
 * symbol to: the selected variant, or the indirect entry point when the
 * selection was not final yet.  NULL if no resolver ran (a build without
 * IFUNC, or a symbol nobody referenced). */
ML_HIDDEN void *ml_dispatch_resolved(const char *function);
/* What made the selection in force: "first call" (a trampoline of the
 * indirect entry points), "constructor", "resolver" (IFUNC) or "query"
 * (memlane_active and the like); NULL before any selection. */
ML_HIDDEN const char *ml_dispatch_selected_by(void);

/*
 * Whether the public functions are GNU indirect functions (IFUNC, see
 * src/dispatch.c): on glibc/ELF, but not in sanitizer builds, whose
 * runtime sets up its shadow memory only after the resolvers ran.
 * -DMEMLANE_NO_IFUNC turns them off.
 */
#if defined(__GLIBC__) && defined(__ELF__) && !defined(ML_SANITIZED) && \
    !defined(MEMLANE_NO_IFUNC)
#define ML_IFUNC 1
#else
#define ML_IFUNC 0
#endif

/* The pointer each public function jumps through where it is not an IFUNC
 * (src/dispatch.c): the selected variant, or before the selection a
 * trampoline that selects.  The LD_PRELOAD drop-in jumps through it too. */
#define ML_FUNCTION(name, kind) ML_HIDDEN extern ML_TYPE_##kind ml_##name##_ptr;
#include "functions.def"

/* Declarations of every variant, memlane_<function>_<variant>, with the
 * type of the public memlane_<function>. */
#define ML_VARIANT(function, variant, level) \
    ML_HIDDEN __typeof__(memlane_##function) memlane_##function##_##variant;
#include "functions.def"

#endif /* MEMLANE_INTERNAL_H */
