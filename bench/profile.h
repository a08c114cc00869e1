/* SPDX-License-Identifier: BSD-2-Clause */
/* Recorded profiles (memlane-profile 1, written by libmemlane-trace.so)
 * and LLVM libc's size distributions, as memlane-bench --workload reads
 * them (bench/profile.c). */
#ifndef MEMLANE_BENCH_PROFILE_H
#define MEMLANE_BENCH_PROFILE_H

#include <stdint.h>

#include "preload/trace.h"

struct profile {
    struct ml_trace_counters c;
    uint64_t calls[MLT_COUNT];
    /* memcmp, bcmp: equal or not, and where, recorded (not in an LLVM
     * distribution: its calls count as equal). */
    int has_data;
    int llvm;          /* read from an LLVM libc distribution */
    char program[64];  /* of the process with the most calls */
    char source[1024]; /* what was read, for the reports */
    unsigned files;
    uint64_t processes, threads, pid;
};

/*
 * Reads `path`: a profile; or, when there is no file of that name, every
 * PATH.<pid> the processes of one command wrote, added up; or an LLVM
 * libc distribution (one line of probabilities of the sizes 0, 1, 2, ...)
 * for the functions `llvm_funcs` names (indexed by enum ml_trace_fn;
 * NULL: the function its file name starts with).  Bad input: one line
 * "memlane-bench: FILE:LINE: problem" on stderr and exit status 2.
 */
struct profile *profile_load(const char *path, const int *llvm_funcs);
void profile_free(struct profile *p);

/* Writes p to path (through path.tmp and rename); 0 or an errno value. */
int profile_save(const char *path, const struct profile *p);

/* Calls in [lo, hi] of size class k (bit length of the size, capped as
 * the recorder caps it): the lowest and highest size of the class. */
void profile_class_range(unsigned k, uint64_t *lo, uint64_t *hi);

/* The function whose enum ml_trace_fn name is `name`; -1 if none. */
int profile_fn_index(const char *name);

#endif /* MEMLANE_BENCH_PROFILE_H */
