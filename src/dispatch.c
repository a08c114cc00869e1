/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Run-time dispatch.
 *
 * On glibc each public function is an IFUNC bound to the selected variant
 * (see "public entry points" below).  Otherwise, and as the IFUNCs'
 * fallback, each jumps through one function pointer.  The pointers
 * start at "first call" trampolines that select every function's variant
 * and then forward the call, so a call that arrives before any constructor
 * ran (other libraries' start-up code, under the LD_PRELOAD drop-in) still
 * works.  A constructor makes the same selection at load time, so that a
 * warning about MEMLANE_ARCH appears at start-up.  Selection is idempotent
 * (every thread computes the same pointers), so racing first calls are
 * harmless; the pointers are accessed with relaxed atomics, which compile
 * to plain loads and stores.
 *
 * Nothing here calls memset or memcmp: the library is built with
 * -fno-builtin (and gcc's -fno-tree-loop-distribute-patterns), and the
 * selection avoids stdio.
 */

#include "memlane.h"
#include "internal.h"
#include "cpu.h"

/* valgrind's client requests, if its header is there (ml_under_valgrind);
 * -DMEMLANE_NO_VALGRIND_H builds as if it were not. */
#if defined(__has_include) && !defined(MEMLANE_NO_VALGRIND_H)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define ML_HAVE_VALGRIND_H 1
#endif
#endif

/* ---- the function table (functions.def) ---- */

/* Each function's variants: the array memlane_<name>_variants. */
#define ML_FUNCTION(name, kind) static const struct ml_variant name##_variants[] = {
#define ML_VARIANT(function, variant, lvl) \
    {#variant, lvl, {.any = (void (*)(void))memlane_##function##_##variant}},
#define ML_FUNCTION_END(name) \
    } \
    ;
#include "functions.def"

#define ML_COUNT(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))

/* F_<name>: the function's index in functions[]. */
enum {
#define ML_FUNCTION(name, kind) F_##name,
#include "functions.def"
    F_COUNT
};

static const struct ml_function functions[F_COUNT] = {
#define ML_FUNCTION(name, kind) \
    [F_##name] = {#name, ML_KIND_##kind, name##_variants, ML_COUNT(name##_variants)},
#include "functions.def"
};

static const char *const level_names[ML_NLEVELS] = {
    [ML_GENERIC] = "generic",
    [ML_SSE2] = "sse2",
    [ML_AVX2] = "avx2",
    [ML_AVX512] = "avx512",
};

/* strcmp without libc: the resolver may run before libc is ready for us
 * and must not recurse into an interposed string function. */
static int ml_streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

#if !defined(ML_HAVE_VALGRIND_H)
/* Whether s starts with prefix. */
static int ml_streq_prefix(const char *s, const char *prefix)
{
    while (*prefix && *s == *prefix)
        s++, prefix++;
    return !*prefix;
}
#endif

const struct ml_function *ml_functions(unsigned *count)
{
    *count = F_COUNT;
    return functions;
}

const struct ml_function *ml_function_find(const char *name)
{
    for (unsigned i = 0; name && i < F_COUNT; i++)
        if (ml_streq(functions[i].name, name))
            return &functions[i];
    return NULL;
}

const char *ml_level_name(enum ml_level level)
{
    return (unsigned)level < ML_NLEVELS ? level_names[level] : NULL;
}

int ml_level_from_name(const char *name)
{
    for (int l = 0; name && l < ML_NLEVELS; l++)
        if (ml_streq(level_names[l], name))
            return l;
    return -1;
}

/* ---- selection ---- */

/* The pointer each entry point jumps through: ml_<name>_ptr (internal.h),
 * at first the trampoline <name>_first (below). */
#define ML_FUNCTION(name, kind) \
    static ML_RET_##kind name##_first ML_PARAMS_##kind; \
    ML_TYPE_##kind ml_##name##_ptr = name##_first;
#include "functions.def"

/* Index into each function's variant table of the variant in use. */
static unsigned char selected[F_COUNT];
static int selected_level = -1;

/* Set when a selection was made without the environment (see
 * ml_environ): MEMLANE_ARCH was not seen then.  The constructor, which
 * runs after libc's start-up, selects again. */
static int selected_without_env;

/* The MEMLANE_ARCH warning, made at selection and printed by the next
 * caller that may write: a resolver may run before libc can (in a static
 * executable, before thread-local storage, so errno, exists). */
static const char *warn_value, *warn_why;
static int warn_pending;

static void ml_warn_flush(void)
{
    if (!__atomic_exchange_n(&warn_pending, 0, __ATOMIC_ACQ_REL))
        return;
    const char *const parts[] = {"memlane: MEMLANE_ARCH=\"", warn_value, warn_why,
                                 level_names[selected_level], "\n"};
    ml_warn_line(parts, sizeof parts / sizeof parts[0], 1);
}

/*
 * Variants that read around their buffers (bytes outside [p, p+n) on the
 * buffers' own pages, never deciding the result; include/memlane.h), as a
 * bit per level and function.  valgrind cannot tell such reads from bugs
 * (it reports reads past a heap block and branches on the undefined bytes
 * loaded with them), so under valgrind the dispatcher passes these over
 * and picks the best strictly in-bounds variant.  Sanitizer builds
 * compile in-bounds code into every variant (ML_READ_AROUND).
 */
static const unsigned reads_around[F_COUNT] = {
    [F_memcmp] = 1u << ML_SSE2 | 1u << ML_AVX2,
    [F_bcmp] = 1u << ML_SSE2 | 1u << ML_AVX2,
};

/* Whether this process runs under valgrind: its client request where
 * <valgrind/valgrind.h> was there at build time (a few no-op instructions
 * natively), else its preload libraries in LD_PRELOAD, which valgrind
 * puts in every client's environment. */
static int ml_under_valgrind(char **env)
{
#if defined(ML_HAVE_VALGRIND_H)
    (void)env;
    return RUNNING_ON_VALGRIND != 0;
#else
    const char *pre = ml_env_get(env, "LD_PRELOAD");
    for (; pre && *pre; pre++)
        if (ml_streq_prefix(pre, "/vgpreload_"))
            return 1;
    return 0;
#endif
}

int ml_variant_reads_around(const char *function, enum ml_level level)
{
    const struct ml_function *f = ml_function_find(function);
    return f && (unsigned)level < ML_NLEVELS &&
           (reads_around[f - functions] >> level & 1);
}

/* Variants for CPUs that run a 512-bit operation as two 256-bit halves,
 * AMD family 0x19 (Zen 4; Zen 3, the same family, has no AVX-512):
 * memcmp's "avx512_ymm" (32-byte vectors above 128 B) and memset's
 * "avx512_zmm16" (no vzeroupper).  Listed after "avx512", they win there;
 * elsewhere "avx512" does.  Measured: docs/memcmp.md, docs/memset.md. */
int ml_variant_fits_cpu(const struct ml_variant *variant)
{
    if (!ml_streq(variant->name, "avx512_ymm") &&
        !ml_streq(variant->name, "avx512_zmm16"))
        return 1;
    const struct ml_cpu *c = ml_cpu_all();
    return c->is_amd && c->family == 0x19;
}

static unsigned pick(unsigned fi, enum ml_level cap, int in_bounds)
{
    const struct ml_function *f = &functions[fi];
    unsigned best = 0; /* the generic variant, always first */
    for (unsigned i = 0; i < f->nvariants; i++)
        if (f->variants[i].level <= cap && ml_level_supported(f->variants[i].level) &&
            ml_variant_fits_cpu(&f->variants[i]) &&
            !(in_bounds && (reads_around[fi] >> f->variants[i].level & 1)))
            best = i;
    return best;
}

/* What made the selection in force (for the tests): "first call" (a
 * trampoline), "constructor", "resolver" (IFUNC) or "query". */
static const char *selected_by;

static void ml_select(const char *by)
{
    if (__atomic_load_n(&selected_level, __ATOMIC_ACQUIRE) >= 0)
        return;
    char **env = ml_environ();
    if (!env)
        __atomic_store_n(&selected_without_env, 1, __ATOMIC_RELAXED);

    enum ml_level best = ml_cpu_level(), cap = best;
    const char *want = ml_env_get(env, "MEMLANE_ARCH");
    const char *why = NULL;
    if (want && *want) {
        int l = ml_level_from_name(want);
        if (l < 0)
            why = "\" is not one of generic, sse2, avx2, avx512; using ";
        else if (!ml_level_supported((enum ml_level)l))
            why = "\" is not supported by this CPU; using ";
        else
            cap = (enum ml_level)l;
    }

    int in_bounds = ml_under_valgrind(env);
    for (unsigned i = 0; i < F_COUNT; i++)
        selected[i] = (unsigned char)pick(i, cap, in_bounds);
#define ML_FUNCTION(name, kind) \
    __atomic_store_n( \
        &ml_##name##_ptr, \
        (ML_TYPE_##kind)functions[F_##name].variants[selected[F_##name]].fn.any, \
        __ATOMIC_RELAXED);
#include "functions.def"

    /* Only the thread that publishes the level says what selected and
     * queues the warning. */
    int unset = -1;
    if (__atomic_compare_exchange_n(&selected_level, &unset, (int)cap, 0,
                                    __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&selected_by, by, __ATOMIC_RELAXED);
        if (why) {
            warn_value = want;
            warn_why = why;
            __atomic_store_n(&warn_pending, 1, __ATOMIC_RELEASE);
        }
    }
}

void ml_select_at_load(void)
{
    if (__atomic_load_n(&selected_without_env, __ATOMIC_RELAXED) && ml_environ()) {
        __atomic_store_n(&selected_without_env, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&selected_level, -1, __ATOMIC_RELEASE);
    }
    ml_select("constructor");
    ml_warn_flush();
}

__attribute__((constructor)) static void ml_init(void) { ml_select_at_load(); }

/* Trampolines: the first call through an entry point selects. */
#define ML_FUNCTION(name, kind) \
    static ML_RET_##kind name##_first ML_PARAMS_##kind \
    { \
        ml_select("first call"); \
        ml_warn_flush(); \
        return ml_##name##_ptr ML_ARGS_##kind; \
    }
#include "functions.def"

enum ml_level ml_selected_level(void)
{
    ml_select("query");
    return (enum ml_level)selected_level;
}

/* ---- public entry points ----
 *
 * Each entry point exists in an indirect form: one jump through its
 * pointer.  Where the toolchain has GNU indirect functions (glibc, ELF),
 * the public symbol is an IFUNC instead: the dynamic loader (or, in a
 * static executable, libc's start-up) asks a resolver once and binds
 * callers' PLT/GOT slots to the selected variant itself, so a call costs
 * no more than a call to libc's own memset.  A resolver returns the
 * indirect form when the selection is not final yet: no environment was
 * found (ml_environ), or an earlier selection made without it is still
 * to be redone by the constructor.
 *
 * Sanitizer builds keep the indirect form (ML_IFUNC, internal.h).
 */
#define ML_API __attribute__((__visibility__("default")))
#define ML_LOAD(p) __atomic_load_n(&(p), __ATOMIC_RELAXED)

#define ML_FUNCTION(name, kind) \
    static ML_RET_##kind name##_indirect ML_PARAMS_##kind \
    { \
        return ML_LOAD(ml_##name##_ptr) ML_ARGS_##kind; \
    }
#include "functions.def"

/* What each resolver returned (NULL: none ran), for the tests. */
static void *resolved[F_COUNT];

#if ML_IFUNC
/* Whether the selection is final, selecting first if need be. */
static int ml_select_final(void)
{
    if (__atomic_load_n(&selected_without_env, __ATOMIC_RELAXED) || !ml_environ())
        return 0;
    ml_select("resolver");
    return !__atomic_load_n(&selected_without_env, __ATOMIC_RELAXED);
}

#define ML_FUNCTION(name, kind) \
    __attribute__((used)) static ML_TYPE_##kind ml_resolve_##name(void) \
    { \
        ML_TYPE_##kind fn = \
            ml_select_final() ? ML_LOAD(ml_##name##_ptr) : name##_indirect; \
        resolved[F_##name] = (void *)fn; \
        return fn; \
    } \
    ML_API ML_RET_##kind memlane_##name ML_PARAMS_##kind \
        __attribute__((ifunc("ml_resolve_" #name)));
#include "functions.def"
#else
#define ML_FUNCTION(name, kind) \
    ML_API ML_RET_##kind memlane_##name ML_PARAMS_##kind \
    { \
        return name##_indirect ML_ARGS_##kind; \
    }
#include "functions.def"
#endif

void *ml_dispatch_resolved(const char *function)
{
    for (unsigned i = 0; function && i < F_COUNT; i++)
        if (ml_streq(functions[i].name, function))
            return resolved[i];
    return NULL;
}

const char *ml_dispatch_selected_by(void)
{
    return __atomic_load_n(&selected_by, __ATOMIC_RELAXED);
}

/* Out of line also under link-time optimisation, which would otherwise
 * inline it into callers in the same link (the drop-in's explicit_bzero,
 * a program linking libmemlane.a): a wipe stays a visible call.  gcc's
 * noipa also keeps it from being cloned per constant argument. */
#if defined(__clang__)
#define ML_OUT_OF_LINE __attribute__((noinline))
#else
#define ML_OUT_OF_LINE __attribute__((noipa))
#endif

ML_API ML_OUT_OF_LINE void *memlane_memset_explicit(void *dst, int c, size_t n)
{
    void *r = ML_LOAD(ml_memset_ptr)(dst, c, n);
    /* The stores above must happen even if the caller never reads dst
     * again: tell the compiler the memory is read here.  This function
     * lives in the library, so callers cannot see through it either. */
    __asm__ volatile("" : : "r"(dst) : "memory");
    return r;
}

ML_API const char *memlane_active(const char *function)
{
    if (!function)
        return NULL;
    ml_select("query");
    if (ml_streq(function, "memset_explicit"))
        function = "memset";
    for (unsigned i = 0; i < F_COUNT; i++)
        if (ml_streq(functions[i].name, function))
            return functions[i].variants[selected[i]].name;
    return NULL;
}
