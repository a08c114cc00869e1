/* SPDX-License-Identifier: BSD-2-Clause */
/* CPU feature detection: CPUID for what the CPU has, XGETBV for what the
 * OS saves on context switch (AVX state is unusable without it). */
#include "cpu.h"

#if defined(__x86_64__)
#include <cpuid.h>

static unsigned long long ml_xgetbv0(void)
{
    unsigned lo, hi;
    /* xgetbv with ecx = 0 reads XCR0; encoded by hand so that no -mxsave
     * is needed. */
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

/* Each CPUID traps to the hypervisor in a virtual machine (microseconds
 * each: docs/design.md, "Start-up cost"), and every process that loads
 * memlane selects its variants at start-up: so that selection reads only
 * leaves 1 and 7.0, each once.  Leaf 7 exists wherever OSXSAVE is set
 * (XSAVE is enumerated by leaf 0xD), and without OSXSAVE no level above
 * sse2 is usable, so the selection needs leaf 0 neither for the highest
 * leaf nor for the vendor; those, and leaf 7.1, are read with the cache
 * sizes (ml_cpu_all), the brand string only when asked for. */
static void ml_cpu_detect(struct ml_cpu *cpu)
{
    unsigned a, b, c, d;

    __cpuid(1, a, b, c, d);
    /* The display family: the base family, plus the extended family when
     * the base is 15 (AMD Zen: 0x17, 0x19, 0x1a). */
    unsigned base_family = (a >> 8) & 0xf;
    cpu->family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
    cpu->sse2 = (d >> 26) & 1;
    cpu->movbe = (c >> 22) & 1;
    unsigned osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (!osxsave)
        return;

    /* XCR0 bits: 1 SSE, 2 AVX (YMM upper), 5 opmask, 6 ZMM upper 256,
     * 7 ZMM16-31. */
    unsigned long long xcr0 = ml_xgetbv0();
    int ymm_ok = avx && (xcr0 & 0x6) == 0x6;
    int zmm_ok = ymm_ok && (xcr0 & 0xe6) == 0xe6;

    __cpuid_count(7, 0, a, b, c, d);
    cpu->leaf7_read = 1;
    cpu->leaf7_subleaves = a;
    cpu->bmi1 = (b >> 3) & 1;
    cpu->avx2 = ymm_ok && ((b >> 5) & 1);
    cpu->bmi2 = (b >> 8) & 1;
    cpu->erms = (b >> 9) & 1;
    cpu->avx512f = zmm_ok && ((b >> 16) & 1);
    cpu->avx512bw = zmm_ok && ((b >> 30) & 1);
    cpu->avx512vl = zmm_ok && ((b >> 31) & 1);
    cpu->fsrm = (d >> 4) & 1;
}

/* The rest, for the tunables and the reports: the vendor, the highest
 * basic leaf, leaf 7.0's string flags where the selection did not read
 * it, leaf 7.1. */
static void ml_cpu_detect_rest(struct ml_cpu *cpu)
{
    unsigned a, b, c, d, vendor_ebx;

    __cpuid(0, cpu->max_leaf, vendor_ebx, c, d);
    cpu->is_intel = vendor_ebx == 0x756e6547; /* "Genu" */
    cpu->is_amd = vendor_ebx == 0x68747541;   /* "Auth" */
    if (cpu->max_leaf < 7)
        return;
    if (!cpu->leaf7_read) {
        __cpuid_count(7, 0, a, b, c, d);
        cpu->leaf7_read = 1;
        cpu->leaf7_subleaves = a;
        cpu->erms = (b >> 9) & 1;
        cpu->fsrm = (d >> 4) & 1;
    }
    if (cpu->leaf7_subleaves >= 1) {
        __cpuid_count(7, 1, a, b, c, d);
        cpu->fsrs = (a >> 11) & 1;
    }
}

void ml_cpu_brand(char out[49])
{
    unsigned ext_max = __get_cpuid_max(0x80000000, 0);
    out[0] = 0;
    if (ext_max >= 0x80000004) {
        unsigned w[12];
        for (unsigned leaf = 0; leaf < 3; leaf++)
            __cpuid(0x80000002 + leaf, w[4 * leaf], w[4 * leaf + 1], w[4 * leaf + 2],
                    w[4 * leaf + 3]);
        /* Without the blanks some CPUs pad it with, at either end. */
        const unsigned char *bytes = (const unsigned char *)w;
        unsigned from = 0, k = 0;
        while (from < 48 && bytes[from] == ' ')
            from++;
        for (unsigned i = from; i < 48 && bytes[i]; i++)
            out[k++] = (char)bytes[i];
        while (k && out[k - 1] == ' ')
            k--;
        out[k] = 0;
    }
}
#else
static void ml_cpu_detect(struct ml_cpu *cpu) { (void)cpu; }
static void ml_cpu_detect_rest(struct ml_cpu *cpu) { (void)cpu; }
void ml_cpu_brand(char out[49]) { out[0] = 0; }
#endif

/* Zeroed field by field: a struct initialiser may become a memset call. */
static void ml_cpu_clear(struct ml_cpu *c)
{
    unsigned char *p = (unsigned char *)c;
    for (size_t i = 0; i < sizeof *c; i++)
        p[i] = 0;
}

const struct ml_cpu *ml_cpu(void)
{
    static struct ml_cpu cpu;
    static int done;

    if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        struct ml_cpu tmp;
        ml_cpu_clear(&tmp);
        ml_cpu_detect(&tmp);
        cpu = tmp;
        __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    }
    return &cpu;
}

const struct ml_cpu *ml_cpu_all(void)
{
    static struct ml_cpu cpu;
    static int done;

    if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        struct ml_cpu tmp = *ml_cpu();
        ml_cpu_detect_rest(&tmp);
        cpu = tmp;
        __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    }
    return &cpu;
}

int ml_level_supported(enum ml_level level)
{
    const struct ml_cpu *c = ml_cpu();

    switch (level) {
    case ML_GENERIC:
        return 1;
    case ML_SSE2:
        return c->sse2;
    case ML_AVX2:
        return c->sse2 && c->avx2 && c->bmi1 && c->bmi2 && c->movbe;
    case ML_AVX512:
        return ml_level_supported(ML_AVX2) && c->avx512f && c->avx512bw && c->avx512vl;
    default:
        return 0;
    }
}

enum ml_level ml_cpu_level(void)
{
    enum ml_level best = ML_GENERIC;
    for (int l = ML_GENERIC; l < ML_NLEVELS; l++)
        if (ml_level_supported((enum ml_level)l))
            best = (enum ml_level)l;
    return best;
}

/* ---- cache sizes (used by the tunables) ---- */

#if defined(__x86_64__)
/* Deterministic cache parameters: Intel leaf 4 and AMD leaf 0x8000001D
 * share the layout.  Returns the size of the data or unified cache of
 * the given level, or of the highest level listed if want_level is 0;
 * 0 if the leaf lists none. */
static size_t ml_cache_from_leaf(unsigned leaf, unsigned want_level)
{
    size_t best = 0;
    unsigned best_level = 0;
    for (unsigned sub = 0; sub < 16; sub++) {
        unsigned a, b, c, d;
        __cpuid_count(leaf, sub, a, b, c, d);
        unsigned type = a & 0x1f; /* 0 none, 1 data, 2 code, 3 unified */
        if (type == 0)
            break;
        if (type == 2)
            continue;
        unsigned level = (a >> 5) & 7;
        if (want_level && level != want_level)
            continue;
        size_t ways = (b >> 22) + 1, parts = ((b >> 12) & 0x3ff) + 1,
               line = (b & 0xfff) + 1, sets = (size_t)c + 1;
        size_t size = ways * parts * line * sets;
        (void)d;
        if (level > best_level || (level == best_level && size > best)) {
            best_level = level;
            best = size;
        }
    }
    return best;
}

/* The highest extended CPUID leaf. */
static unsigned ml_ext_max(void) { return (unsigned)__get_cpuid_max(0x80000000, 0); }

/* AMD: whether leaf 0x8000001D is there (topology extensions). */
static int ml_amd_has_cache_leaf(void)
{
    unsigned a, b, c, d;
    if (ml_ext_max() < 0x8000001d)
        return 0;
    __cpuid(0x80000001, a, b, c, d);
    return ((c >> 22) & 1) != 0;
}

/* The size of the data or unified cache of the given level, 2 or 0 (the
 * highest listed); 0 if unknown. */
static size_t ml_cache_bytes(unsigned level)
{
    const struct ml_cpu *cpu = ml_cpu_all();

    if (cpu->is_intel && cpu->max_leaf >= 4)
        return ml_cache_from_leaf(4, level);
    if (!cpu->is_amd)
        return 0;
    size_t size = ml_amd_has_cache_leaf() ? ml_cache_from_leaf(0x8000001d, level) : 0;
    if (!size && ml_ext_max() >= 0x80000006) {
        unsigned a, b, c, d;
        __cpuid(0x80000006, a, b, c, d);
        size_t l2 = (size_t)(c >> 16) * 1024;       /* in KiB */
        size_t l3 = (size_t)(d >> 18) * 512 * 1024; /* in 512 KiB units */
        size = level == 2 || !l3 ? l2 : l3;
    }
    return size;
}

size_t ml_cpu_llc_bytes(void) { return ml_cache_bytes(0); }

size_t ml_cpu_l2_bytes(void) { return ml_cache_bytes(2); }
#else
size_t ml_cpu_llc_bytes(void) { return 0; }
size_t ml_cpu_l2_bytes(void) { return 0; }
#endif
