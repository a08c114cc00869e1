/* SPDX-License-Identifier: BSD-2-Clause */
/* ML_SANITIZED: defined in builds with AddressSanitizer, MemorySanitizer
 * or ThreadSanitizer (gcc or clang).  Macros only, so that assembly
 * sources include it too. */
#ifndef MEMLANE_SANITIZED_H
#define MEMLANE_SANITIZED_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define ML_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ML_SANITIZED 1
#endif

#endif
