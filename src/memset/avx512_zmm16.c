/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memset, AVX-512 on zmm16-31: avx512.c built again with gcc's xmm0-15
 * reserved (mk/library.mk, as the AVX-512 compares), so that no exit needs
 * a vzeroupper.  For AMD Zen 4 (src/dispatch.c), where that vzeroupper
 * slowed the 129-256 B class; not for Zen 5, where this build lost on
 * random sizes (numbers: docs/memset.md).  clang has no such flag: there
 * this is avx512.c's code again.
 */
#define ML_MEMSET_AVX512_ENTRY memlane_memset_avx512_zmm16
#include "avx512.c" /* NOLINT(bugprone-suspicious-include): built again */
