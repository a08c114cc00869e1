/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memlane — fast, verified memory primitives.
 *
 * Every function below is dispatched at run time to the best variant for
 * the CPU (generic C everywhere; sse2, avx2 and avx512 on x86-64).  The
 * environment variable MEMLANE_ARCH=generic|sse2|avx2|avx512 caps the
 * level; it is read once, on the first call or at load time.
 *
 * No function writes a byte outside [p, p+n) of its arguments.  A
 * comparison may read bytes outside [p, p+n) that lie on a 4 KiB page
 * holding a byte of [p, p+n), never on another page (so it cannot fault
 * where the buffers do not), and its result never depends on them:
 * memlane_memcmp and memlane_bcmp do (a whole vector where n is smaller,
 * as glibc's memcmp); memset and the timing-safe functions read nothing
 * outside.  Sanitizer builds of the library, and the dispatcher in a
 * process under valgrind, keep every read inside [p, p+n).
 * n == 0 is always valid, and then the pointers are not dereferenced.
 */
#ifndef MEMLANE_H
#define MEMLANE_H

#include <stddef.h>

/* The version of this header (https://semver.org).  memlane_version()
 * returns the version of the library that is running, which may be newer
 * than the header a program was built with. */
#define MEMLANE_VERSION_MAJOR 0
#define MEMLANE_VERSION_MINOR 2
#define MEMLANE_VERSION_PATCH 0
#define MEMLANE_VERSION_STRING "0.2.0"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill dst[0..n) with (unsigned char)c.  Returns dst. */
void *memlane_memset(void *dst, int c, size_t n);

/* Compare a[0..n) with b[0..n) as unsigned bytes.  Returns the difference
 * of the first differing bytes, (int)a[i] - (int)b[i] with both read as
 * unsigned char (so a value in -255..255), or 0 if all n bytes are equal.
 * This is the value glibc and FreeBSD return, not only its sign. */
int memlane_memcmp(const void *a, const void *b, size_t n);

/* Returns 0 if a[0..n) and b[0..n) are equal, nonzero otherwise (as with
 * BSD bcmp(3); the value is not the byte difference: use memlane_memcmp
 * for an order). */
int memlane_bcmp(const void *a, const void *b, size_t n);

/*
 * Timing-safe comparisons.
 *
 * Contract: the running time (instructions executed, branches taken and
 * memory addresses touched) may depend on n and on the addresses a and b,
 * never on the values of the bytes.  The length is treated as public: a
 * caller comparing secrets of secret length must pad them to a public
 * length first.  Only instructions that Intel documents as having data
 * operand independent timing are used.  Out of scope: frequency and power
 * side channels, and Intel's DOITM mode bit, which user space cannot set.
 * `make check-ct` tests every variant against this (docs/constant-time.md).
 */

/* Returns exactly 0 if a[0..n) equals b[0..n), exactly 1 otherwise. */
int memlane_timingsafe_bcmp(const void *a, const void *b, size_t n);

/* Returns exactly -1, 0 or 1: the sign of memcmp(a, b, n), bytes compared
 * as unsigned char.  Which byte differs first does not show in the time. */
int memlane_timingsafe_memcmp(const void *a, const void *b, size_t n);

/* C23 memset_explicit: fill dst[0..n) with (unsigned char)c, and never be
 * elided by the compiler, even when dst is dead afterwards (for wiping
 * secrets).  Returns dst.  Uses the same fast variant as memlane_memset. */
void *memlane_memset_explicit(void *dst, int c, size_t n);

/* Name of the variant in use for `function` ("memset", "memcmp", "bcmp",
 * "timingsafe_bcmp", "timingsafe_memcmp" or "memset_explicit"), e.g.
 * "generic" or "avx2".  Returns NULL for an unknown or NULL name.  The
 * string is static. */
const char *memlane_active(const char *function);

/* The library's version, "MAJOR.MINOR.PATCH" (MEMLANE_VERSION_STRING of
 * the header it was built with).  The string is static.  Since 0.2.0. */
const char *memlane_version(void);

#ifdef __cplusplus
}
#endif

#endif /* MEMLANE_H */
