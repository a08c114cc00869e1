/* SPDX-License-Identifier: BSD-2-Clause */
/* The table of implementations.  libc and the peers are reached through
 * volatile function pointers, so the compiler can neither inline nor
 * specialise them; the memlane variants come from the library's own
 * table (src/internal.h), so a new variant shows up here without edits. */
#include "impls.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#if defined(__GLIBC__)
#include <dlfcn.h>
#endif

#include "memlane.h"

#ifdef BENCH_HAVE_OPENSSL
#include <openssl/crypto.h>
#endif
#ifdef BENCH_HAVE_SODIUM
#include <sodium.h>
#endif

static void *(*volatile const libc_memset)(void *, int, size_t) = memset;
static int (*volatile const libc_memcmp)(const void *, const void *, size_t) = memcmp;
static int (*volatile const libc_bcmp)(const void *, const void *, size_t) = bcmp;

/*
 * glibc picks memset and memcmp by ifunc, from the CPU's features minus
 * those GLIBC_TUNABLES=glibc.cpu.hwcaps=-X turns off, and the chosen
 * variant is a local symbol: dladdr cannot name it.  glibc's own
 * __libc_ifunc_impl_list (GLIBC_PRIVATE, what its test suite uses; an
 * array of {name, function, usable} per function) names every variant
 * with its address, so the resolved pointer is looked up there.  bcmp
 * is memcmp's alias in glibc, listed under "memcmp".  Only for the
 * header; the tables do not depend on it.
 */
struct glibc_ifunc_impl {
    const char *name;
    void (*fn)(void);
    _Bool usable;
};

const char *bench_libc_variant(enum bench_func f)
{
#if defined(__GLIBC__)
    void *fn;
    const char *list_name;
    switch (f) {
    case BF_MEMSET:
        fn = (void *)libc_memset, list_name = "memset";
        break;
    case BF_MEMCMP:
        fn = (void *)libc_memcmp, list_name = "memcmp";
        break;
    case BF_BCMP:
        fn = (void *)libc_bcmp, list_name = "memcmp";
        break;
    default:
        return NULL;
    }
    typedef size_t list_fn(const char *, struct glibc_ifunc_impl *, size_t);
    list_fn *list = (list_fn *)dlsym(RTLD_DEFAULT, "__libc_ifunc_impl_list");
    if (!list)
        return NULL;
    static struct glibc_ifunc_impl impls[64];
    size_t count = list(list_name, impls, sizeof impls / sizeof impls[0]);
    for (size_t i = 0; i < count && i < sizeof impls / sizeof impls[0]; i++)
        if ((void *)impls[i].fn == fn && impls[i].name)
            return impls[i].name;
#else
    (void)f;
#endif
    return NULL;
}

static struct bench_function functions[BF_COUNT] = {
    [BF_MEMSET] = {.name = "memset",
                   .title = "Memset",
                   .kind = ML_KIND_SET,
                   .default_base = "memlane-generic"},
    [BF_MEMCMP] = {.name = "memcmp",
                   .title = "Memcmp",
                   .kind = ML_KIND_CMP,
                   .default_base = "memlane-generic"},
    [BF_BCMP] = {.name = "bcmp",
                 .title = "Bcmp",
                 .kind = ML_KIND_CMP,
                 .default_base = "memlane-generic"},
    [BF_TS_BCMP] = {.name = "timingsafe_bcmp",
                    .title = "TsBcmp",
                    .kind = ML_KIND_CMP,
                    .default_base = "bytewise-ct"},
    [BF_TS_MEMCMP] = {.name = "timingsafe_memcmp",
                      .title = "TsMemcmp",
                      .kind = ML_KIND_CMP,
                      .default_base = "bytewise-ct"},
};

struct bench_impl *bench_impl_add(enum bench_func f, const char *name, const char *what,
                                  int in_default)
{
    struct bench_function *fn = &functions[f];
    if (fn->nimpls == BENCH_MAX_IMPLS) {
        fprintf(stderr, "memlane-bench: too many implementations of %s\n", fn->name);
        return NULL;
    }
    struct bench_impl *im = &fn->impls[fn->nimpls];
    im->site = (unsigned)f * BENCH_MAX_IMPLS + fn->nimpls;
    fn->nimpls++;
    snprintf(im->name, sizeof im->name, "%s", name);
    im->what = what;
    im->in_default = in_default;
    return im;
}

static void add_set(enum bench_func f, const char *name, const char *what, ml_set_fn fn,
                    int in_default)
{
    struct bench_impl *im = bench_impl_add(f, name, what, in_default);
    if (im)
        im->fn.set = fn;
}

static void add_cmp(enum bench_func f, const char *name, const char *what, ml_cmp_fn fn,
                    int in_default)
{
    struct bench_impl *im = bench_impl_add(f, name, what, in_default);
    if (im)
        im->fn.cmp = fn;
}

/* Every memlane variant of `function` this CPU runs, then the dispatched
 * entry point. */
static void add_memlane(enum bench_func f, const char *function, void *dispatched_set,
                        ml_cmp_fn dispatched_cmp)
{
    const struct ml_function *mf = ml_function_find(function);
    for (unsigned i = 0; mf && i < mf->nvariants; i++) {
        const struct ml_variant *v = &mf->variants[i];
        if (!ml_level_supported(v->level))
            continue;
        char name[32];
        snprintf(name, sizeof name, "memlane-%s", v->name);
        struct bench_impl *im =
            bench_impl_add(f, name, "memlane variant, called directly", 1);
        if (!im)
            continue;
        if (mf->kind == ML_KIND_SET)
            im->fn.set = v->fn.set;
        else
            im->fn.cmp = v->fn.cmp;
    }
    if (dispatched_set)
        add_set(f, "memlane", "memlane's public entry point (dispatched)",
                (ml_set_fn)dispatched_set, 1);
    else
        add_cmp(f, "memlane", "memlane's public entry point (dispatched)", dispatched_cmp,
                1);
}

void impls_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;

    /* memset: the columns of the kernel-list table first. */
    add_set(BF_MEMSET, "libc", "libc memset", libc_memset, 1);
#if defined(__x86_64__)
    add_set(BF_MEMSET, "rep-stosb", "rep stosb", bench_rep_stosb, 1);
    add_set(BF_MEMSET, "rep-stosq", "rep stosq, then rep stosb for the tail",
            bench_rep_stosq, 1);
#endif
    const char *what;
    ml_set_fn loop = bench_store_loop(&what);
    if (loop) {
        struct bench_impl *im = bench_impl_add(BF_MEMSET, "store-loop", what, 1);
        if (im) {
            im->fn.set = loop;
            im->size_multiple = 256;
            im->dst_align = 64;
        }
    }
    loop = bench_nt_store_loop(&what);
    if (loop) {
        struct bench_impl *im = bench_impl_add(BF_MEMSET, "nt-store-loop", what, 0);
        if (im) {
            im->fn.set = loop;
            im->size_multiple = 256;
            im->dst_align = 64;
        }
    }
    add_memlane(BF_MEMSET, "memset", (void *)memlane_memset, NULL);

    add_cmp(BF_MEMCMP, "libc", "libc memcmp", libc_memcmp, 1);
    add_memlane(BF_MEMCMP, "memcmp", NULL, memlane_memcmp);

    add_cmp(BF_BCMP, "libc", "libc bcmp", libc_bcmp, 1);
    add_memlane(BF_BCMP, "bcmp", NULL, memlane_bcmp);

    /* Constant-time: the classic byte loop (the base), the fastest
     * non-constant-time reference, and the peers' public APIs. */
    static const enum bench_func ts[2] = {BF_TS_BCMP, BF_TS_MEMCMP};
    for (int i = 0; i < 2; i++) {
        enum bench_func f = ts[i];
        add_cmp(f, "bytewise-ct", "classic constant-time byte loop in C",
                f == BF_TS_BCMP ? bench_bytewise_ct_bcmp : bench_bytewise_ct_memcmp, 1);
        add_cmp(f, "libc-memcmp", "libc memcmp (NOT constant-time; speed reference)",
                libc_memcmp, 1);
#ifdef BENCH_HAVE_OPENSSL
        {
            static int (*volatile const p)(const void *, const void *, size_t) =
                CRYPTO_memcmp;
            add_cmp(f, "openssl", "OpenSSL CRYPTO_memcmp (equality only)", p, 1);
        }
#endif
#ifdef BENCH_HAVE_SODIUM
        {
            static int (*volatile const p)(const void *, const void *, size_t) =
                sodium_memcmp;
            add_cmp(f, "libsodium", "libsodium sodium_memcmp (equality only)", p, 1);
        }
#endif
    }
#ifdef BENCH_HAVE_SODIUM
    if (sodium_init() < 0)
        fprintf(stderr, "memlane-bench: sodium_init failed\n");
#endif
    add_memlane(BF_TS_BCMP, "timingsafe_bcmp", NULL, memlane_timingsafe_bcmp);
    add_memlane(BF_TS_MEMCMP, "timingsafe_memcmp", NULL, memlane_timingsafe_memcmp);
}

struct bench_function *bench_function_get(enum bench_func f)
{
    impls_init();
    return &functions[f];
}

struct bench_function *bench_function_find(const char *name)
{
    impls_init();
    if (!strcmp(name, "ts_bcmp"))
        name = "timingsafe_bcmp";
    else if (!strcmp(name, "ts_memcmp"))
        name = "timingsafe_memcmp";
    for (int i = 0; i < BF_COUNT; i++)
        if (!strcmp(functions[i].name, name))
            return &functions[i];
    return NULL;
}

int bench_impl_index(const struct bench_function *f, const char *name)
{
    for (unsigned i = 0; i < f->nimpls; i++)
        if (!strcmp(f->impls[i].name, name))
            return (int)i;
    return -1;
}

int impl_supports(const struct bench_impl *im, size_t n, size_t align)
{
    if (im->size_multiple && n % im->size_multiple)
        return 0;
    if (im->dst_align && align % im->dst_align)
        return 0;
    return 1;
}
