/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * startup: what loading memlane costs each process.  Starts a program
 * (default /bin/true) many times with LD_PRELOAD set to each object given,
 * "none" for no preload, and prints the median time per start (with its
 * quartiles, bench/stats.c) and its difference from the first
 * configuration.  The configurations take turns in batches, so drifts of
 * a shared machine fall on all of them alike.
 * In a virtual machine every CPUID instruction traps to the hypervisor,
 * which makes the feature detection the largest part of the cost
 * (docs/design.md, "Start-up cost").
 *
 *   startup [-r ROUNDS] [-b BATCH] [-p PROGRAM] CONFIG...
 *   make bench-startup          (none, an empty object, the drop-in)
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* Microseconds per start of prog, batch starts in a row; -1 on failure. */
static double time_batch(const char *prog, const char *preload, int batch)
{
    char env_preload[4096];
    snprintf(env_preload, sizeof env_preload, "LD_PRELOAD=%s",
             strcmp(preload, "none") ? preload : "");
    char *envp[] = {env_preload, NULL};
    char *argv[] = {(char *)prog, NULL};
    double t0 = now_us();
    for (int i = 0; i < batch; i++) {
        pid_t pid;
        int status;
        if (posix_spawn(&pid, prog, NULL, NULL, argv, envp) != 0 ||
            waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
            return -1;
    }
    return (now_us() - t0) / batch;
}

int main(int argc, char **argv)
{
    int rounds = 40, batch = 50, opt;
    const char *prog = "/bin/true";
    while ((opt = getopt(argc, argv, "r:b:p:")) != -1) {
        if (opt == 'r')
            rounds = atoi(optarg);
        else if (opt == 'b')
            batch = atoi(optarg);
        else if (opt == 'p')
            prog = optarg;
        else
            return 2;
    }
    int nconf = argc - optind;
    if (nconf < 1 || rounds < 1 || batch < 1) {
        fprintf(stderr,
                "usage: startup [-r ROUNDS] [-b BATCH] [-p PROGRAM] none|OBJECT...\n");
        return 2;
    }
    double *t = calloc((size_t)nconf * (size_t)rounds, sizeof *t);
    if (!t)
        return 1;
    for (int r = 0; r < rounds; r++)
        for (int c = 0; c < nconf; c++) {
            double us = time_batch(prog, argv[optind + c], batch);
            if (us < 0) {
                fprintf(stderr, "startup: %s failed with LD_PRELOAD=%s\n", prog,
                        argv[optind + c]);
                return 1;
            }
            t[(size_t)c * (size_t)rounds + (size_t)r] = us;
        }
    printf("startup: %s, median of %d batches of %d starts, microseconds per start\n",
           prog, rounds, batch);
    double base = 0;
    for (int c = 0; c < nconf; c++) {
        struct summary sum;
        summarize(t + (size_t)c * (size_t)rounds, (size_t)rounds, &sum);
        if (c == 0)
            base = sum.median;
        printf("%-48s %8.1f  [%.1f %.1f]  %+7.1f\n", argv[optind + c], sum.median, sum.q1,
               sum.q3, sum.median - base);
    }
    free(t);
    return 0;
}
