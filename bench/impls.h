/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The implementations the benchmark compares, per function: every memlane
 * variant this CPU supports (memlane-<variant>), the dispatched entry
 * point (memlane), libc, and references and peers (rep-stosb, rep-stosq,
 * store-loop, nt-store-loop, bytewise-ct, openssl, libsodium).
 */
#ifndef MEMLANE_BENCH_IMPLS_H
#define MEMLANE_BENCH_IMPLS_H

#include <stddef.h>

#include "internal.h"

enum bench_func { BF_MEMSET, BF_MEMCMP, BF_BCMP, BF_TS_BCMP, BF_TS_MEMCMP, BF_COUNT };

struct bench_impl {
    char name[32];
    const char *what; /* one line for --list */
    union {
        ml_set_fn set;
        ml_cmp_fn cmp;
    } fn;
    int in_default;       /* part of the default set of columns */
    size_t size_multiple; /* n must be a multiple of this (0: any) */
    size_t dst_align;     /* dst/a must be aligned so (0: any) */
    unsigned site;        /* its own copy of the timed loop */
    int tuned;            /* memlane memset with these tunables (replays) */
    size_t rep_stosb, nt;
};

enum { BENCH_MAX_IMPLS = 24 };

struct bench_function {
    const char *name;  /* "memset", "timingsafe_memcmp", ... */
    const char *title; /* row-name prefix: "Memset", "TsMemcmp" */
    enum ml_kind kind;
    const char *default_base; /* base of table 2 */
    struct bench_impl impls[BENCH_MAX_IMPLS];
    unsigned nimpls;
};

/* Builds the tables (once). */
void impls_init(void);
/* Adds an implementation to f's table (after impls_init); NULL when full. */
struct bench_impl *bench_impl_add(enum bench_func f, const char *name, const char *what,
                                  int in_default);
struct bench_function *bench_function_get(enum bench_func f);
/* By name ("memset", ...; also "ts_bcmp", "ts_memcmp"); NULL if unknown. */
struct bench_function *bench_function_find(const char *name);
/* Index of the implementation in f, -1 if f has none of that name. */
int bench_impl_index(const struct bench_function *f, const char *name);
/* Whether im can be called with length n at a dst/a offset of align
 * from a 4 KiB boundary. */
int impl_supports(const struct bench_impl *im, size_t n, size_t align);

/* The name of the glibc variant that libc's memset, memcmp or bcmp
 * resolved to in this process (say "__memset_avx2_unaligned_erms"), or
 * NULL where that cannot be found out (not glibc, or its private ifunc
 * list missing). */
const char *bench_libc_variant(enum bench_func f);

/* Implementations in other files. */
void *bench_rep_stosb(void *dst, int c, size_t n);
void *bench_rep_stosq(void *dst, int c, size_t n);
/* Aligned vector store loops, 256 bytes per iteration; dst 64-aligned,
 * n a multiple of 256.  NULL where the CPU has neither AVX-512 nor AVX2. */
ml_set_fn bench_store_loop(const char **what);
ml_set_fn bench_nt_store_loop(const char **what);
/* Any n and alignment: the replays' store loop; NULL without AVX2. */
ml_set_fn bench_store_loop_any(const char **what);
int bench_bytewise_ct_bcmp(const void *a, const void *b, size_t n);
int bench_bytewise_ct_memcmp(const void *a, const void *b, size_t n);

#endif /* MEMLANE_BENCH_IMPLS_H */
