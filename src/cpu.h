/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CPU features, read once with CPUID and XGETBV.  On other architectures
 * every flag is 0 and only the generic level is supported.
 */
#ifndef MEMLANE_CPU_H
#define MEMLANE_CPU_H

#include "internal.h"

struct ml_cpu {
    unsigned sse2 : 1;
    unsigned avx2 : 1; /* CPUID bit and OS-enabled YMM state */
    unsigned bmi1 : 1;
    unsigned bmi2 : 1;
    unsigned movbe : 1;
    unsigned avx512f : 1; /* CPUID bit and OS-enabled ZMM/opmask state */
    unsigned avx512bw : 1;
    unsigned avx512vl : 1;
    unsigned erms : 1; /* enhanced rep movsb/stosb */
    unsigned fsrm : 1; /* fast short rep movsb */
    unsigned fsrs : 1; /* fast short rep stosb */
    unsigned is_intel : 1;
    unsigned is_amd : 1;
    unsigned leaf7_read : 1;  /* CPUID leaf 7.0 read */
    unsigned leaf7_subleaves; /* its highest subleaf */
    unsigned max_leaf;        /* highest basic CPUID leaf */
    unsigned family;          /* display family (base + extended), 0 if unknown */
};

/* The features the selection of variants needs: the ISA flags, family
 * and, where OSXSAVE is set, erms and fsrm; the vendor, max_leaf and fsrs
 * read 0 here.  Computed on first use; thread-safe: every caller
 * computes the same value. */
ML_HIDDEN const struct ml_cpu *ml_cpu(void);

/* Every field (two or three CPUID leaves more than ml_cpu). */
ML_HIDDEN const struct ml_cpu *ml_cpu_all(void);

/* The processor brand string (CPUID 0x80000002-4) without the blanks at
 * either end, "" if unknown; read on each call (for reports, not for the dispatch). */
ML_HIDDEN void ml_cpu_brand(char out[49]);

/* Size in bytes of the last-level data or unified cache (CPUID leaf 4 on
 * Intel, 0x8000001D on AMD, 0x80000006 as AMD's fallback); 0 if unknown.
 * The whole cache, not a per-thread share. */
ML_HIDDEN size_t ml_cpu_llc_bytes(void);

/* Size in bytes of one core's L2 (the same leaves; 0x80000006 on AMD
 * without 0x8000001D); 0 if unknown. */
ML_HIDDEN size_t ml_cpu_l2_bytes(void);
#endif /* MEMLANE_CPU_H */
