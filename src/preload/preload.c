/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LD_PRELOAD drop-in: the standard names, each a thin entry point into
 * memlane's dispatch.  Linked into build/libmemlane-preload.so together
 * with the library's objects; preload.map exports these names only.
 *
 * Calls that libc makes internally (its own memset inside calloc, qsort,
 * printf, ...) are bound inside libc and stay on libc's copies; only calls
 * through the dynamic symbol table (programs and other libraries) come here.
 *
 * Safe before any constructor ran: memlane's dispatch pointers start at
 * first-call trampolines (src/dispatch.c), and nothing reached from here
 * calls one of these names back (built with -fno-builtin; the install
 * tests check the object code).
 *
 * The standard names are plain functions, not IFUNCs like memlane_*: the
 * loader relocates a preloaded object after the libraries loaded behind
 * it, so their references to memset would run a resolver in an object
 * not yet relocated (glibc then warns "Relink ... for IFUNC symbol").
 * Each name is one indirect jump through memlane's dispatch pointer for
 * it (ml_<name>_ptr), the selected variant once selected.  A call of
 * memlane_<name> from here would be two taken jumps (to this object's
 * PLT, then through its slot), on every call a program makes.  On x86-64
 * the programs' writable PLT slots for memset, memcmp and bcmp are then
 * bound past these entry points, to the variants (src/preload/bind.c).
 *
 * string.h is not included: its declarations carry attributes (nonnull,
 * fortify wrappers) meant for callers, not for a definition.
 *
 * Built a second time with -DMEMLANE_TRACE into libmemlane-trace.so, the
 * drop-in that also records the calls (src/preload/trace.h); here the
 * hooks are empty and the object code is the plain drop-in's.
 */
#include <limits.h> /* on glibc, defines __GLIBC__ (features.h) */
#include <stddef.h>

#include "internal.h"

#ifdef MEMLANE_TRACE
#include "trace.h"
/* Count a memset-like call, then go on (a tail call). */
#define ML_TRACE_SET(f, dst, n) \
    do { \
        struct ml_trace_counters *t_ = ml_trace_get(); \
        if (t_) \
            ml_trace_set(t_, f, dst, n); \
    } while (0)
/* Count a comparison's size and addresses, then go on. */
#define ML_TRACE_PAIR(f, a, b, n) \
    do { \
        struct ml_trace_counters *t_ = ml_trace_get(); \
        if (t_) \
            ml_trace_pair(t_, f, a, b, n); \
    } while (0)
/* When recording, memcmp and bcmp go on in trace.c (they count after the
 * call, which then cannot be a tail call); otherwise to memlane's. */
#define ML_TRACE_CMP(recorded, a, b, n) \
    do { \
        struct ml_trace_counters *t_ = ml_trace_get(); \
        if (t_) \
            return recorded(t_, a, b, n); \
    } while (0)
#else
#define ML_TRACE_SET(f, dst, n) ((void)0)
#define ML_TRACE_PAIR(f, a, b, n) ((void)0)
#define ML_TRACE_CMP(recorded, a, b, n) ((void)0)
#endif

#define ML_EXPORT __attribute__((__visibility__("default")))

/* The selected variant of a function: memlane's dispatch pointer for it
 * (src/dispatch.c), so that each name below is one indirect jump. */
#define ML_VIA(name) __atomic_load_n(&ml_##name##_ptr, __ATOMIC_RELAXED)

ML_EXPORT void *memset(void *dst, int c, size_t n);
ML_EXPORT int memcmp(const void *a, const void *b, size_t n);
ML_EXPORT int bcmp(const void *a, const void *b, size_t n);
ML_EXPORT int timingsafe_bcmp(const void *a, const void *b, size_t n);
ML_EXPORT int timingsafe_memcmp(const void *a, const void *b, size_t n);
ML_EXPORT void explicit_bzero(void *dst, size_t n);
ML_EXPORT void *memset_explicit(void *dst, int c, size_t n);
#if defined(__GLIBC__)
/* glibc's names, reserved identifiers by design.  musl has no fortified
 * entry points (its fortification, where a distribution adds it, lives in
 * headers that call memset itself), so a musl build exports the seven
 * standard names only. */
// NOLINTBEGIN(bugprone-reserved-identifier,cert-dcl37-c)
ML_EXPORT void *__memset_chk(void *dst, int c, size_t n, size_t dst_size);
ML_EXPORT void __explicit_bzero_chk(void *dst, size_t n, size_t dst_size);

/* glibc's report of a fortify check that failed: prints "*** buffer
 * overflow detected ***" and aborts. */
extern void __chk_fail(void) __attribute__((__noreturn__));
// NOLINTEND(bugprone-reserved-identifier,cert-dcl37-c)
#endif

void *memset(void *dst, int c, size_t n)
{
    ML_TRACE_SET(MLT_MEMSET, dst, n);
    return ML_VIA(memset)(dst, c, n);
}

int memcmp(const void *a, const void *b, size_t n)
{
    ML_TRACE_CMP(ml_trace_memcmp, a, b, n);
    return ML_VIA(memcmp)(a, b, n);
}

int bcmp(const void *a, const void *b, size_t n)
{
    ML_TRACE_CMP(ml_trace_bcmp, a, b, n);
    return ML_VIA(bcmp)(a, b, n);
}

#if !defined(MEMLANE_TRACE)
/* The three entry points under names that nothing interposes on, for the
 * load-time binding of programs' PLT slots (src/preload/bind.c). */
ML_HIDDEN extern __typeof__(memset) ml_preload_memset __attribute__((alias("memset")));
ML_HIDDEN extern __typeof__(memcmp) ml_preload_memcmp __attribute__((alias("memcmp")));
ML_HIDDEN extern __typeof__(bcmp) ml_preload_bcmp __attribute__((alias("bcmp")));
#endif

/* The timing-safe ones: sizes and alignments only, never the data. */
int timingsafe_bcmp(const void *a, const void *b, size_t n)
{
    ML_TRACE_PAIR(MLT_TS_BCMP, a, b, n);
    return ML_VIA(timingsafe_bcmp)(a, b, n);
}

int timingsafe_memcmp(const void *a, const void *b, size_t n)
{
    ML_TRACE_PAIR(MLT_TS_MEMCMP, a, b, n);
    return ML_VIA(timingsafe_memcmp)(a, b, n);
}

/* memlane_memset_explicit is a call into another object file that the
 * compiler cannot see through, and it ends in a memory barrier, so the
 * stores cannot be dropped here either. */
void explicit_bzero(void *dst, size_t n)
{
    ML_TRACE_SET(MLT_MEMSET_EXPLICIT, dst, n);
    memlane_memset_explicit(dst, 0, n);
}

void *memset_explicit(void *dst, int c, size_t n)
{
    ML_TRACE_SET(MLT_MEMSET_EXPLICIT, dst, n);
    return memlane_memset_explicit(dst, c, n);
}

#if defined(__GLIBC__)
/* The fortified entry points that glibc's <string.h> calls under
 * _FORTIFY_SOURCE when the destination's size is known but the length is
 * not a constant (Debian builds its packages that way).  They check the
 * length against the size first, as glibc's do, and fail the same way. */
// NOLINTBEGIN(bugprone-reserved-identifier,cert-dcl37-c)
void *__memset_chk(void *dst, int c, size_t n, size_t dst_size)
{
    if (__builtin_expect(n > dst_size, 0))
        __chk_fail();
    ML_TRACE_SET(MLT_MEMSET, dst, n);
    return ML_VIA(memset)(dst, c, n);
}

void __explicit_bzero_chk(void *dst, size_t n, size_t dst_size)
{
    if (__builtin_expect(n > dst_size, 0))
        __chk_fail();
    ML_TRACE_SET(MLT_MEMSET_EXPLICIT, dst, n);
    memlane_memset_explicit(dst, 0, n);
}
// NOLINTEND(bugprone-reserved-identifier,cert-dcl37-c)
#endif
