/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Differential fuzz target for libFuzzer: every variant of every function
 * that this CPU can run (read from the variant table, so new variants are
 * covered without touching this file), plus the public entry points,
 * against byte-by-byte references.  Built with ASan and UBSan; the library
 * objects are instrumented too, so an access outside [p, p+n) is a report.
 *
 * Input layout (short inputs are zero-extended):
 *   [0]      function (mod the number of functions in play)
 *   [1]      variant of that function (mod its runnable variants + 1;
 *            the last one is the dispatched public entry point)
 *   [2..3]   length code, little-endian; see decode_len()
 *   [4]      placement: bits 0-1 buffer a, bits 2-3 buffer b (see enum
 *            place), bit 4: b is a (same pointer) for comparisons
 *   [5], [6] misalignment of a and b (mod 64) where the placement uses it
 *   [7..10]  memset's int argument (little-endian); [7] also seeds content
 *   [11]     number of edits (mod 8)
 *   edits    5 bytes each: position (24-bit, mod n), byte for a, byte for b
 *   rest     payload, repeated to fill a (and b, before edits)
 *
 * Buffers are placed so that each end of [p, p+n) touches memory that must
 * not be accessed: an ASan redzone at the exact end of a heap block, or a
 * PROT_NONE page.  Where some addressable bytes remain next to the buffer
 * (misalignment padding), they are poisoned for ASan in whole 8-byte
 * granules and hold canaries (memset) or differ between a and b
 * (comparisons), so a stray write or a result-changing stray read shows.
 *
 * MEMLANE_FUZZ_ONLY=function[/variant] restricts the target to one
 * function (and variant; "dispatch" names the entry point), for per-
 * function runs.  At exit the number of calls per variant is printed.
 *
 * Built without ASan (make fuzz-ifunc, and the replay below), the public
 * entry points are the IFUNCs users call (the sanitizer build has none:
 * see ML_IFUNC); every buffer is then placed flush against a PROT_NONE
 * page, the heap placements too, so a stray access past either end
 * faults, and the canary pads catch stray writes next to it.
 *
 * -DMEMLANE_FUZZ_REPLAY gives a main() that runs each file (or each file
 * in each folder) named on the command line once, without libFuzzer:
 * `make test` replays fuzz/regress and fuzz/corpus that way.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "memlane.h"

#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#ifdef FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#else
#define FUZZ_ASAN 0
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

/* A few MiB: past the L2 and the memset thresholds a run may force low.
 * Not under ASan, where a MiB input costs tens of milliseconds (the
 * fuzzer ran 30 times slower): there the same codes stay below 64 KiB. */
#define BIG_UNIT ((size_t)(FUZZ_ASAN ? 32 : 2048))
#define MAX_LEN (2047 * BIG_UNIT + 64)
#define MAX_TARGETS 16
#define MAX_FUNCS 8

/* One callable implementation. */
struct target {
    const char *variant;
    ml_set_fn set;
    ml_cmp_fn cmp;
    unsigned long calls;
};

struct func {
    const char *name;
    enum ml_kind kind;
    struct target targets[MAX_TARGETS];
    unsigned ntargets;
};

static struct func funcs[MAX_FUNCS];
static unsigned nfuncs;

/* A mapping with a PROT_NONE page on each side of [lo, hi). */
struct region {
    unsigned char *lo, *hi;
};
static struct region reg_a, reg_b;

enum place {
    PLACE_HEAP_END,   /* aligned heap block, buffer flush with its end */
    PLACE_HEAP_EXACT, /* malloc(n) exactly: both ends are redzones */
    PLACE_PAGE_END,   /* flush against the trailing PROT_NONE page */
    PLACE_PAGE_START, /* flush against the leading PROT_NONE page */
};

/* One buffer of the call, and what to undo afterwards. */
struct buf {
    unsigned char *p;      /* the n bytes under test */
    unsigned char *block;  /* heap block to free, or NULL */
    unsigned char *pad_lo; /* addressable bytes before p ... */
    size_t npad_lo;
    unsigned char *pad_hi; /* ... and after p + n, canary-filled */
    size_t npad_hi;
    unsigned char *poison; /* region poisoned for ASan */
    size_t npoison, npoison_hi;
    unsigned char *poison_hi;
};

static void region_init(struct region *r)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (MAX_LEN + 256 + page - 1) / page * page;
    unsigned char *m = mmap(NULL, body + 2 * page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m, page, PROT_NONE) ||
        mprotect(m + page + body, page, PROT_NONE)) {
        perror("fuzz: mmap");
        abort();
    }
    r->lo = m + page;
    r->hi = m + page + body;
}

static void print_counts(void)
{
    fprintf(stderr, "memlane-fuzz calls per variant:");
    for (unsigned f = 0; f < nfuncs; f++)
        for (unsigned t = 0; t < funcs[f].ntargets; t++)
            fprintf(stderr, " %s/%s=%lu", funcs[f].name, funcs[f].targets[t].variant,
                    funcs[f].targets[t].calls);
    fprintf(stderr, "\n");
}

#ifdef MEMLANE_FUZZ_SELFTEST
/*
 * Deliberately broken implementations, compiled only into the self-test
 * build (make fuzz-selftest), which checks that the harness reports each
 * one: a harness that cannot fail proves nothing.
 */
static void *broken_memset_overwrite(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n + (n % 61 == 37); i++) /* one byte too many */
        d[i] = (unsigned char)c;
    return dst;
}

static void *broken_memset_underwrite(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = n % 53 == 40; i < n; i++) /* misses byte 0 */
        d[i] = (unsigned char)c;
    return dst;
}

static int broken_memcmp_overread(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    if (n % 67 == 45 && p[n] == 0x42) /* reads p[n] */
        return 1;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return p[i] - q[i];
    return 0;
}

static int broken_memcmp_underread(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    if (n % 67 == 46 && q[-1] == 0x42) /* reads q[-1] */
        return 1;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return p[i] - q[i];
    return 0;
}

static int broken_memcmp_signed(const void *a, const void *b, size_t n)
{
    const signed char *p = a, *q = b; /* wrong sign */
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i])
            return p[i] - q[i];
    return 0;
}

static int broken_timingsafe_bcmp_not01(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    int acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i] ^ q[i]; /* not 0/1 */
    return acc;
}

static int broken_timingsafe_memcmp_lastdiff(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    int res = 0;
    for (size_t i = 0; i < n; i++) /* last diff wins */
        if (p[i] != q[i])
            res = p[i] < q[i] ? -1 : 1;
    return res;
}

static const struct {
    const char *function, *variant;
    ml_set_fn set;
    ml_cmp_fn cmp;
} broken[] = {
    {"memset", "broken-overwrite", broken_memset_overwrite, NULL},
    {"memset", "broken-underwrite", broken_memset_underwrite, NULL},
    {"memcmp", "broken-overread", NULL, broken_memcmp_overread},
    {"memcmp", "broken-underread", NULL, broken_memcmp_underread},
    {"memcmp", "broken-signed", NULL, broken_memcmp_signed},
    {"timingsafe_bcmp", "broken-not01", NULL, broken_timingsafe_bcmp_not01},
    {"timingsafe_memcmp", "broken-lastdiff", NULL, broken_timingsafe_memcmp_lastdiff},
};
#endif

static int wanted(const char *only, const char *function, const char *variant)
{
    if (!only || !*only)
        return 1;
    size_t fl = strlen(function);
    if (strncmp(only, function, fl) != 0)
        return 0;
    if (only[fl] == 0)
        return 1;
    return only[fl] == '/' && !strcmp(only + fl + 1, variant);
}

static void add_func(const char *name, const char *only)
{
    static const struct {
        const char *name;
        ml_set_fn set;
        ml_cmp_fn cmp;
    } entry[] = {
        {"memset", memlane_memset, NULL},
        {"memset_explicit", memlane_memset_explicit, NULL},
        {"memcmp", NULL, memlane_memcmp},
        {"bcmp", NULL, memlane_bcmp},
        {"timingsafe_bcmp", NULL, memlane_timingsafe_bcmp},
        {"timingsafe_memcmp", NULL, memlane_timingsafe_memcmp},
    };
    struct func *fn = &funcs[nfuncs];
    fn->name = name;
    fn->ntargets = 0;
    /* memset_explicit has no table of its own: it is memset's variant. */
    const struct ml_function *f = ml_function_find(name);
    for (unsigned v = 0; f && v < f->nvariants; v++) {
        const struct ml_variant *var = &f->variants[v];
        if (!ml_level_supported(var->level) || !wanted(only, name, var->name))
            continue;
        if (fn->ntargets + 1 >= MAX_TARGETS)
            abort();
        struct target *t = &fn->targets[fn->ntargets++];
        t->variant = var->name;
        t->set = f->kind == ML_KIND_SET ? var->fn.set : NULL;
        t->cmp = f->kind == ML_KIND_CMP ? var->fn.cmp : NULL;
        fn->kind = f->kind;
    }
    for (size_t e = 0; e < sizeof entry / sizeof entry[0]; e++) {
        if (strcmp(entry[e].name, name) != 0 || !wanted(only, name, "dispatch"))
            continue;
        struct target *t = &fn->targets[fn->ntargets++];
        t->variant = "dispatch";
        t->set = entry[e].set;
        t->cmp = entry[e].cmp;
        fn->kind = t->set ? ML_KIND_SET : ML_KIND_CMP;
    }
#ifdef MEMLANE_FUZZ_SELFTEST
    /* Only when named: they must never mix into a real run. */
    for (size_t e = 0; only && e < sizeof broken / sizeof broken[0]; e++) {
        if (strcmp(broken[e].function, name) != 0 ||
            !wanted(only, name, broken[e].variant) || !strchr(only, '/'))
            continue;
        struct target *t = &fn->targets[fn->ntargets++];
        t->variant = broken[e].variant;
        t->set = broken[e].set;
        t->cmp = broken[e].cmp;
        fn->kind = t->set ? ML_KIND_SET : ML_KIND_CMP;
    }
#endif
    if (fn->ntargets)
        nfuncs++;
}

/* libFuzzer's signature: the arguments are not used. */
int LLVMFuzzerInitialize(int *argc,
                         char ***argv); // NOLINT(readability-non-const-parameter)
int LLVMFuzzerInitialize(int *argc,
                         char ***argv) // NOLINT(readability-non-const-parameter)
{
    (void)argc;
    (void)argv;
    const char *only = getenv("MEMLANE_FUZZ_ONLY");
    unsigned count;
    const struct ml_function *table = ml_functions(&count);

    for (unsigned i = 0; i < count && nfuncs < MAX_FUNCS; i++) {
        add_func(table[i].name, only);
        if (!strcmp(table[i].name, "memset"))
            add_func("memset_explicit", only);
    }
    if (nfuncs == 0) {
        fprintf(stderr, "fuzz: MEMLANE_FUZZ_ONLY=%s matches nothing\n", only);
        exit(2);
    }
    /* Whether "dispatch" is the IFUNC-bound symbol users call. */
    fprintf(stderr, "memlane-fuzz: CPU level %s; entry points %s; targets:",
            ml_level_name(ml_cpu_level()),
            ml_dispatch_resolved("memcmp") ? "IFUNC-bound" : "indirect (no IFUNC)");
    for (unsigned f = 0; f < nfuncs; f++)
        for (unsigned t = 0; t < funcs[f].ntargets; t++)
            fprintf(stderr, " %s/%s", funcs[f].name, funcs[f].targets[t].variant);
    fprintf(stderr, "\n");
    region_init(&reg_a);
    region_init(&reg_b);
    atexit(print_counts);
    return 0;
}

/* The input, read with zero extension past its end. */
struct reader {
    const uint8_t *data;
    size_t size, pos;
};

static unsigned rd8(struct reader *r)
{
    return r->pos < r->size ? r->data[r->pos++] : (r->pos++, 0u);
}

static unsigned rd16(struct reader *r)
{
    unsigned lo = rd8(r);
    return lo | rd8(r) << 8;
}

/* Lengths: a quarter of the codes each below 64, below 512, below 8192;
 * the last quarter up to 56 KiB (4k + k % 4), but for its top eighth (one
 * code in 32) up to 4 MiB (2048k + k % 64; under ASan 32k + k % 64, up
 * to 64 KiB); sparse, so every residue
 * mod 64 still occurs.  Short-length special cases get most attention,
 * the long loops still run, and the MiB lengths (memset's rep stosb and
 * non-temporal paths), which cost milliseconds each, stay rare enough
 * not to slow the fuzzer down. */
static size_t decode_len(unsigned code)
{
    switch (code >> 14) {
    case 0:
        return code & 63;
    case 1:
        return code & 511;
    case 2:
        return code & 8191;
    default:
        if ((code & 0x3800) != 0x3800)
            return (size_t)(code & 0x3fff) * 4 + (code & 3);
        return (size_t)(code & 0x7ff) * BIG_UNIT + (code & 63);
    }
}

static void poison(const unsigned char *p, size_t n)
{
    if (n)
        ASAN_POISON_MEMORY_REGION(p, n);
}

/* Place an n-byte buffer as `how` says; pad bytes get the value `pad`. */
static void buf_place(struct buf *b, struct region *r, enum place how, size_t align,
                      size_t n, unsigned char pad)
{
    memset(b, 0, sizeof *b);
    if (!FUZZ_ASAN) /* no redzones: a guard page at the end instead */
        how = how == PLACE_HEAP_END     ? PLACE_PAGE_END
              : how == PLACE_HEAP_EXACT ? PLACE_PAGE_START
                                        : how;
    switch (how) {
    case PLACE_HEAP_END: {
        void *block;
        if (posix_memalign(&block, 64, align + n) != 0)
            abort();
        b->block = block;
        b->p = b->block + align;
        b->pad_lo = b->block;
        b->npad_lo = align;
        break;
    }
    case PLACE_HEAP_EXACT:
        /* With n == 0 this is a zero-size block: any access is a report. */
        b->block = malloc(n); /* ASan's malloc(0) is a unique pointer */
        if (!b->block)
            abort();
        b->p = b->block;
        break;
    case PLACE_PAGE_END:
        b->p = r->hi - n;
        b->pad_lo = b->p - (n + 128 <= (size_t)(r->hi - r->lo) ? 128 : 0);
        b->npad_lo = (size_t)(b->p - b->pad_lo);
        break;
    case PLACE_PAGE_START:
        b->p = r->lo;
        b->pad_hi = b->p + n;
        b->npad_hi =
            (size_t)(r->hi - b->pad_hi) < 128 ? (size_t)(r->hi - b->pad_hi) : 128;
        break;
    default:
        abort();
    }
    if (b->npad_lo)
        memset(b->pad_lo, pad, b->npad_lo);
    if (b->npad_hi)
        memset(b->pad_hi, pad, b->npad_hi);
    /* Poison the pads: whole granules only (ASan cannot mark the start of
     * a granule unaddressable and keep its end), so round inwards. */
    uintptr_t lo_end = (uintptr_t)b->p & ~(uintptr_t)7;
    if (b->npad_lo && lo_end > (uintptr_t)b->pad_lo) {
        b->poison = b->pad_lo;
        b->npoison = lo_end - (uintptr_t)b->pad_lo;
        poison(b->poison, b->npoison);
    }
    uintptr_t hi_start = ((uintptr_t)b->pad_hi + 7) & ~(uintptr_t)7;
    uintptr_t hi_end = (uintptr_t)b->pad_hi + b->npad_hi;
    if (b->npad_hi && hi_end > hi_start) {
        b->poison_hi = (unsigned char *)hi_start;
        b->npoison_hi = hi_end - hi_start;
        poison(b->poison_hi, b->npoison_hi);
    }
}

static void buf_unpoison(struct buf *b)
{
    if (b->npoison)
        ASAN_UNPOISON_MEMORY_REGION(b->poison, b->npoison);
    if (b->npoison_hi)
        ASAN_UNPOISON_MEMORY_REGION(b->poison_hi, b->npoison_hi);
}

static void buf_release(struct buf *b)
{
    buf_unpoison(b);
    free(b->block);
}

/* Pads must still hold `pad`; check after unpoisoning. */
static int pads_intact(const struct buf *b, unsigned char pad)
{
    for (size_t i = 0; i < b->npad_lo; i++)
        if (b->pad_lo[i] != pad)
            return 0;
    for (size_t i = 0; i < b->npad_hi; i++)
        if (b->pad_hi[i] != pad)
            return 0;
    return 1;
}

static int ref_memcmp(const unsigned char *a, const unsigned char *b, size_t n)
{
    /* Equal 4 KiB blocks skipped with libc's memcmp (MiB lengths under
     * ASan), then byte by byte from the block that differs. */
    size_t i = 0;
    while (n - i >= 4096 && memcmp(a + i, b + i, 4096) == 0)
        i += 4096;
    for (; i < n; i++)
        if (a[i] != b[i])
            return (int)a[i] - (int)b[i];
    return 0;
}

/* The exact value each comparison must return, given memcmp's. */
static int expected_cmp(const char *function, int r)
{
    if (!strcmp(function, "memcmp"))
        return r;
    if (!strcmp(function, "timingsafe_bcmp"))
        return r != 0;
    if (!strcmp(function, "timingsafe_memcmp"))
        return (r > 0) - (r < 0);
    return r; /* bcmp: only zero / nonzero is checked */
}

static const char *place_name(unsigned how)
{
    static const char *const names[] = {"heap-end", "heap-exact", "page-end",
                                        "page-start"};
    return names[how & 3];
}

__attribute__((noreturn, format(printf, 3, 4))) static void
finding(const struct func *f, const struct target *t, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\nmemlane-fuzz FINDING in %s/%s: ", f->name, t->variant);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    abort();
}

static void fill_content(unsigned char *p, size_t n, const uint8_t *payload, size_t plen,
                         unsigned char seed)
{
    if (plen == 0) {
        memset(p, seed, n);
        return;
    }
    /* The payload once, then the filled part doubled (MiB lengths). */
    size_t done = n < plen ? n : plen;
    memcpy(p, payload, done);
    while (done < n) {
        size_t k = n - done < done ? n - done : done;
        memcpy(p + done, p, k);
        done += k;
    }
}

static void run_set(const struct func *f, struct target *t, size_t n, unsigned place,
                    size_t align, int c)
{
    unsigned char want = (unsigned char)c, canary = (unsigned char)~want;
    struct buf b;
    buf_place(&b, &reg_a, (enum place)(place & 3), align, n, canary);
    memset(b.p, canary, n);

    void *ret = t->set(b.p, c, n);
    t->calls++;

    buf_unpoison(&b);
    if (ret != b.p)
        finding(f, t, "n=%zu place=%s align=%zu c=%d: returned %p, not dst %p", n,
                place_name(place), align, c, ret, (void *)b.p);
    for (size_t i = 0; i < n; i++)
        if (b.p[i] != want)
            finding(f, t, "n=%zu place=%s align=%zu c=%d: byte %zu is 0x%02x", n,
                    place_name(place), align, c, i, b.p[i]);
    if (!pads_intact(&b, canary))
        finding(f, t, "n=%zu place=%s align=%zu c=%d: wrote outside [dst, dst+n)", n,
                place_name(place), align, c);
    buf_release(&b);
}

static void run_cmp(const struct func *f, struct target *t, size_t n, unsigned place,
                    size_t align_a, size_t align_b, unsigned char seed, struct reader *r)
{
    unsigned nedits = rd8(r) % 8;
    uint32_t epos[8];
    unsigned char ea[8], eb[8];
    for (unsigned e = 0; e < nedits; e++) {
        uint32_t lo = rd16(r);
        epos[e] = lo | (uint32_t)rd8(r) << 16;
        ea[e] = (unsigned char)rd8(r);
        eb[e] = (unsigned char)rd8(r);
    }
    const uint8_t *payload = r->pos < r->size ? r->data + r->pos : NULL;
    size_t plen = r->pos < r->size ? r->size - r->pos : 0;
    int same = (place & 0x10) != 0;

    /* Reference copies, from which the buffers are filled. */
    unsigned char *ra = malloc(n + 1), *rb = malloc(n + 1);
    if (!ra || !rb)
        abort();
    fill_content(ra, n, payload, plen, seed);
    memcpy(rb, ra, n);
    for (unsigned e = 0; e < nedits && n; e++) {
        ra[epos[e] % n] = ea[e];
        rb[epos[e] % n] = eb[e];
    }
    if (same)
        memcpy(rb, ra, n);

    /* Pads of a and b differ, so that a stray read may change the result. */
    struct buf a, b;
    buf_place(&a, &reg_a, (enum place)(place & 3), align_a, n, 0x55);
    if (same)
        b = a;
    else
        buf_place(&b, &reg_b, (enum place)((place >> 2) & 3), align_b, n, 0xaa);
    if (n) {
        memcpy(a.p, ra, n);
        memcpy(b.p, rb, n);
    }

    int want = expected_cmp(f->name, ref_memcmp(ra, rb, n));
    int got = t->cmp(a.p, b.p, n);
    t->calls++;

    buf_unpoison(&a);
    if (!same)
        buf_unpoison(&b);
    int ok = !strcmp(f->name, "bcmp") ? (got != 0) == (want != 0) : got == want;
    if (!ok)
        finding(f, t, "n=%zu place a=%s b=%s%s align a=%zu b=%zu: got %d, want %d", n,
                place_name(place), place_name(place >> 2), same ? " (same pointer)" : "",
                align_a, align_b, got, want);
    if ((n && (memcmp(a.p, ra, n) != 0 || memcmp(b.p, rb, n) != 0)) ||
        !pads_intact(&a, 0x55) || (!same && !pads_intact(&b, 0xaa)))
        finding(f, t, "n=%zu: a comparison wrote to memory", n);
    buf_release(&a);
    if (!same)
        buf_release(&b);
    free(ra);
    free(rb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader r = {data, size, 0};
    struct func *f = &funcs[rd8(&r) % nfuncs];
    struct target *t = &f->targets[rd8(&r) % f->ntargets];
    size_t n = decode_len(rd16(&r));
    unsigned place = rd8(&r);
    size_t align_a = rd8(&r) % 64, align_b = rd8(&r) % 64;
    uint32_t c = rd16(&r);
    c |= (uint32_t)rd16(&r) << 16;

    if (f->kind == ML_KIND_SET)
        run_set(f, t, n, place, align_a, (int)c);
    else
        run_cmp(f, t, n, place, align_a, align_b, (unsigned char)c, &r);
    return 0;
}

#ifdef MEMLANE_FUZZ_REPLAY
/* Each input once: a file, or every regular file in a folder. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    static uint8_t data[1 << 16];
    size_t n = fread(data, 1, sizeof data, f);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    LLVMFuzzerTestOneInput(data, n);
    return 0;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    unsigned long inputs = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            if (replay_file(argv[i]) != 0) {
                perror(argv[i]);
                return 2;
            }
            inputs++;
            continue;
        }
        /* One thread: readdir is fine (readdir_r is deprecated). */
        // cppcheck-suppress readdirCalled
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (replay_file(path) != 0) {
                perror(path);
                return 2;
            }
            inputs++;
        }
        closedir(d);
    }
    fprintf(stderr, "memlane-fuzz replay: %lu inputs, no finding\n", inputs);
    return 0;
}
#endif
