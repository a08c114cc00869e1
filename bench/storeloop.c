/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memset references written for the benchmark:
 * - rep-stosb and rep-stosq: the string instructions, which C cannot
 *   express, hence the inline asm;
 * - store-loop: an unrolled loop of aligned vector stores, the store
 *   bandwidth a memset can reach (AVX-512 if the CPU has it, else AVX2);
 * - nt-store-loop: the same with non-temporal stores and the sfence they
 *   need, for finding where bypassing the caches pays (--calibrate).
 * The loops take 64-aligned dst and n a multiple of 256 (impls.c records
 * that); they are compiled with target attributes and chosen at run time.
 */
#include <stdint.h>

#include "impls.h"

#if defined(__x86_64__)
#include <immintrin.h>

void *bench_rep_stosb(void *dst, int c, size_t n)
{
    void *d = dst;
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
    return dst;
}

void *bench_rep_stosq(void *dst, int c, size_t n)
{
    void *d = dst;
    size_t words = n >> 3, tail = n & 7;
    uint64_t v = (uint64_t)(unsigned char)c * 0x0101010101010101u;
    __asm__ volatile("rep stosq\n\t"
                     "mov %[tail], %%rcx\n\t"
                     "rep stosb"
                     : "+D"(d), "+c"(words)
                     : "a"(v), [tail] "r"(tail)
                     : "memory");
    return dst;
}

__attribute__((target("avx512f"))) static void *store_loop_avx512(void *dst, int c,
                                                                  size_t n)
{
    __m512i v = _mm512_set1_epi32((int)((unsigned char)c * 0x01010101u));
    char *p = dst, *end = p + n;
    for (; p != end; p += 256) {
        _mm512_store_si512((void *)p, v);
        _mm512_store_si512((void *)(p + 64), v);
        _mm512_store_si512((void *)(p + 128), v);
        _mm512_store_si512((void *)(p + 192), v);
    }
    return dst;
}

__attribute__((target("avx512f"))) static void *nt_store_loop_avx512(void *dst, int c,
                                                                     size_t n)
{
    __m512i v = _mm512_set1_epi32((int)((unsigned char)c * 0x01010101u));
    char *p = dst, *end = p + n;
    for (; p != end; p += 256) {
        _mm512_stream_si512((void *)p, v);
        _mm512_stream_si512((void *)(p + 64), v);
        _mm512_stream_si512((void *)(p + 128), v);
        _mm512_stream_si512((void *)(p + 192), v);
    }
    _mm_sfence();
    return dst;
}

__attribute__((target("avx2"))) static void *store_loop_avx2(void *dst, int c, size_t n)
{
    __m256i v = _mm256_set1_epi8((char)c);
    char *p = dst, *end = p + n;
    for (; p != end; p += 256) {
        for (int i = 0; i < 256; i += 32)
            _mm256_store_si256((__m256i *)(void *)(p + i), v);
    }
    return dst;
}

__attribute__((target("avx2"))) static void *nt_store_loop_avx2(void *dst, int c,
                                                                size_t n)
{
    __m256i v = _mm256_set1_epi8((char)c);
    char *p = dst, *end = p + n;
    for (; p != end; p += 256) {
        for (int i = 0; i < 256; i += 32)
            _mm256_stream_si256((__m256i *)(void *)(p + i), v);
    }
    _mm_sfence();
    return dst;
}

/* For replays, whose sizes are anything: unaligned vector stores from
 * dst, the last one ending at dst + n; below one vector, byte stores. */
__attribute__((target("avx512f"))) static void *store_loop_any_avx512(void *dst, int c,
                                                                      size_t n)
{
    char *p = dst;
    if (n < 64) {
        for (volatile char *q = p; n; n--)
            *q++ = (char)c;
        return dst;
    }
    __m512i v = _mm512_set1_epi32((int)((unsigned char)c * 0x01010101u));
    char *last = p + n - 64;
    for (; p < last; p += 64)
        _mm512_storeu_si512((void *)p, v);
    _mm512_storeu_si512((void *)last, v);
    return dst;
}

__attribute__((target("avx2"))) static void *store_loop_any_avx2(void *dst, int c,
                                                                 size_t n)
{
    char *p = dst;
    if (n < 32) {
        for (volatile char *q = p; n; n--)
            *q++ = (char)c;
        return dst;
    }
    __m256i v = _mm256_set1_epi8((char)c);
    char *last = p + n - 32;
    for (; p < last; p += 32)
        _mm256_storeu_si256((__m256i *)(void *)p, v);
    _mm256_storeu_si256((__m256i *)(void *)last, v);
    return dst;
}

ml_set_fn bench_store_loop_any(const char **what)
{
    if (ml_level_supported(ML_AVX512)) {
        *what = "unaligned AVX-512 store loop, the last store ending at dst + n; bytes "
                "below 64 (replays)";
        return store_loop_any_avx512;
    }
    if (ml_level_supported(ML_AVX2)) {
        *what = "unaligned AVX2 store loop, the last store ending at dst + n; bytes "
                "below 32 (replays)";
        return store_loop_any_avx2;
    }
    return NULL;
}

ml_set_fn bench_store_loop(const char **what)
{
    if (ml_level_supported(ML_AVX512)) {
        *what = "aligned AVX-512 store loop, 4x64 B per iteration (n % 256 == 0)";
        return store_loop_avx512;
    }
    if (ml_level_supported(ML_AVX2)) {
        *what = "aligned AVX2 store loop, 8x32 B per iteration (n % 256 == 0)";
        return store_loop_avx2;
    }
    return NULL;
}

ml_set_fn bench_nt_store_loop(const char **what)
{
    if (ml_level_supported(ML_AVX512)) {
        *what = "non-temporal AVX-512 store loop + sfence (n % 256 == 0)";
        return nt_store_loop_avx512;
    }
    if (ml_level_supported(ML_AVX2)) {
        *what = "non-temporal AVX2 store loop + sfence (n % 256 == 0)";
        return nt_store_loop_avx2;
    }
    return NULL;
}
#else
ml_set_fn bench_store_loop(const char **what)
{
    (void)what;
    return NULL;
}
ml_set_fn bench_store_loop_any(const char **what)
{
    (void)what;
    return NULL;
}
ml_set_fn bench_nt_store_loop(const char **what)
{
    (void)what;
    return NULL;
}
#endif
