/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Check 2: instruction-trace equality under ptrace single-stepping.
 *
 * A forked child calls each function between two int3 markers on many
 * input pairs of the same length and alignment; the parent single-steps
 * it from the first marker to the second and records every instruction
 * address.  For a fixed (function, length, alignment) all pairs must give
 * the exact same address sequence; the first pair's sequence is the
 * reference and any difference is reported with its step number and the
 * two addresses (as offsets into the function when they fall in it).
 * The child is a fork of this process, so both run the same code at the
 * same addresses and the parent knows every case the child will run.
 *
 * The leaky controls run too: ct_leaky_early_exit must be flagged, or
 * this check fails as not sensitive.
 *
 *   ct-trace [--quick]     --quick: fewer lengths (for make test)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_check.h"

#define MAX_TARGETS 64
#define MAX_LEN 20000
#define MAX_STEPS (1u << 20)

static struct ct_target targets[MAX_TARGETS];
static size_t ntargets;

static size_t lengths[512];
static size_t nlengths;

static const size_t aligns[][2] = {{0, 0}, {1, 3}, {7, 33}, {63, 16}};
#define NALIGNS (sizeof aligns / sizeof aligns[0])
/* Pairs per group: every kind up to 300 bytes, a subset above (time). */
static int pair_wanted(int p, size_t len)
{
    return len <= 300 || p == CT_EQUAL || p == CT_FIRST_UP || p == CT_LAST_DOWN ||
           (len < 4096 && p == CT_ZERO_FF);
}
/* Alignments per length: all for short lengths, the first two above. */
static int quick;
static size_t naligns_for(size_t len)
{
    int edge = len <= 16 || len == 31 || len == 32 || len == 33 || len == 63 || len == 64;
    return edge && !quick ? NALIGNS : len < 4096 ? 2 : 1;
}
/* Of the controls only the early exit is traced: the others are there
 * for the instruction allow-list and would only cost time here. */
static int traced_target(const struct ct_target *t)
{
    return t->runnable && (!t->control || !strcmp(t->variant, "leaky_early_exit"));
}

static unsigned char *buf_a, *buf_b;

/* The traced call: int3 before and after; the parent steps in between.
 * noinline so that both markers exist once, in this function only. */
__attribute__((noinline)) static int traced_call(ml_cmp_fn fn, const void *a,
                                                 const void *b, size_t n)
{
    __asm__ volatile("int3" ::: "memory");
    int r = fn(a, b, n);
    __asm__ volatile("int3" ::: "memory");
    return r;
}

/* Every case, in order; the child runs them and the parent follows. */
struct tcase {
    size_t target, len, align;
    int pair;
    unsigned round;
};

static void case_inputs(const struct tcase *c, unsigned char **a, unsigned char **b)
{
    *a = buf_a + aligns[c->align][0];
    *b = buf_b + aligns[c->align][1];
    /* Seeded per case so the child and the parent agree without talking. */
    ct_rnd_seed(0x9e3779b97f4a7c15u ^ (c->len * 1000003u) ^ ((uint64_t)c->pair << 40) ^
                ((uint64_t)c->round << 52) ^ (c->align << 20));
    ct_make_pair((enum ct_pair)c->pair, *a, *b, c->len);
}

/* Iterate the cases of one (target, length, alignment) group. */
#define FOR_PAIRS(c) \
    for (int p_ = 0; p_ < CT_NPAIRS; p_++) \
        if (pair_wanted(p_, c.len) && (c.pair = p_, c.round = 0, 1))

static void child(void)
{
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
        _exit(3);
    raise(SIGSTOP);
    for (size_t t = 0; t < ntargets; t++) {
        if (!traced_target(&targets[t]))
            continue;
        for (size_t l = 0; l < nlengths; l++)
            for (size_t al = 0; al < naligns_for(lengths[l]); al++) {
                if (targets[t].control && lengths[l] > 64)
                    continue;
                struct tcase c = {t, lengths[l], al, 0, 0};
                FOR_PAIRS(c)
                {
                    unsigned char *a, *b;
                    case_inputs(&c, &a, &b);
                    traced_call(targets[t].fn, a, b, c.len);
                }
            }
    }
    _exit(0);
}

static pid_t pid;

static void die(const char *what)
{
    fprintf(stderr, "ct-trace: %s: %s\n", what, strerror(errno));
    if (pid > 0)
        kill(pid, SIGKILL);
    exit(2);
}

/* Wait for the child to stop with SIGTRAP. */
static void wait_trap(void)
{
    int st;
    if (waitpid(pid, &st, 0) != pid)
        die("waitpid");
    if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) {
        fprintf(stderr, "ct-trace: child did not stop with SIGTRAP (status %#x)\n", st);
        kill(pid, SIGKILL);
        exit(2);
    }
}

static unsigned long rip_now(void)
{
    errno = 0;
    long v = ptrace(PTRACE_PEEKUSER, pid, (void *)offsetof(struct user_regs_struct, rip),
                    NULL);
    if (errno)
        die("PTRACE_PEEKUSER rip");
    return (unsigned long)v;
}

/* Step from the start marker to the end marker; addresses into out[]. */
static size_t trace_one(unsigned long *out, size_t max)
{
    wait_trap(); /* first int3 */
    size_t n = 0;
    for (;;) {
        if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) != 0)
            die("PTRACE_SINGLESTEP");
        wait_trap();
        unsigned long rip = rip_now();
        /* The end marker: an int3 in traced_call (same code as ours). */
        if (rip >= (unsigned long)traced_call && rip < (unsigned long)traced_call + 256 &&
            *(const unsigned char *)rip == 0xcc)
            break;
        if (n < max)
            out[n] = rip;
        n++;
    }
    /* Run the int3, then on to the next case's first marker. */
    if (ptrace(PTRACE_CONT, pid, NULL, NULL) != 0)
        die("PTRACE_CONT");
    wait_trap();
    if (ptrace(PTRACE_CONT, pid, NULL, NULL) != 0)
        die("PTRACE_CONT");
    return n;
}

/* An address as "fn+0x12" if inside [fn, fn+64K), else absolute. */
static void where(char *s, size_t sz, unsigned long rip, ml_cmp_fn fn)
{
    unsigned long base = (unsigned long)fn;
    if (rip >= base && rip < base + 65536)
        snprintf(s, sz, "fn+%#lx", rip - base);
    else
        snprintf(s, sz, "%#lx", rip);
}

int main(int argc, char **argv)
{
    quick = argc > 1 && !strcmp(argv[1], "--quick");
#if !defined(__x86_64__)
    (void)quick;
    printf("ct-trace: x86-64 only; skipped\n0 passed, 0 failed\n");
    return 0;
#else
    ntargets = ct_targets(targets, MAX_TARGETS);
    /* Every length up to 72 (each remainder modulo 8, 16, 32 and 64,
     * plus a bit), then the edges of 32- and 64-byte blocks, then large
     * (20000: above 16 KiB, where avx512 timingsafe_memcmp walks forwards). */
    for (size_t n = 0; n <= (quick ? 33u : 72u); n++)
        lengths[nlengths++] = n;
    static const size_t more[] = {95,  96,  97,  127, 128,  129,  191,
                                  255, 256, 257, 300, 1000, 4096, 20000};
    static const size_t more_quick[] = {63, 64, 65, 128, 300};
    const size_t *m = quick ? more_quick : more;
    size_t nm = quick ? sizeof more_quick / sizeof *m : sizeof more / sizeof *m;
    for (size_t i = 0; i < nm; i++)
        lengths[nlengths++] = m[i];

    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t blen = (MAX_LEN + 128 + page - 1) / page * page;
    buf_a = mmap(NULL, blen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    buf_b = mmap(NULL, blen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf_a == MAP_FAILED || buf_b == MAP_FAILED)
        die("mmap");

    fflush(stdout);
    pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0)
        child();
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP) {
        fprintf(stderr,
                "ct-trace: child did not start under ptrace (is ptrace allowed?)\n");
        return 2;
    }
    if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_EXITKILL) != 0)
        die("PTRACE_SETOPTIONS");
    if (ptrace(PTRACE_CONT, pid, NULL, NULL) != 0)
        die("PTRACE_CONT");

    unsigned long *ref = malloc(MAX_STEPS * sizeof *ref);
    unsigned long *cur = malloc(MAX_STEPS * sizeof *cur);
    if (!ref || !cur)
        die("malloc");
    unsigned long total_steps = 0;
    int have_control = 0;

    for (size_t t = 0; t < ntargets; t++) {
        const struct ct_target *tg = &targets[t];
        if (!tg->runnable) {
            printf("skip %s/%s: not supported by this CPU\n", tg->function, tg->variant);
            continue;
        }
        if (!traced_target(tg))
            continue;
        unsigned long groups = 0, bad_groups = 0, traces = 0;
        size_t max_steps_seen = 0;
        for (size_t l = 0; l < nlengths; l++)
            for (size_t al = 0; al < naligns_for(lengths[l]); al++) {
                if (tg->control && lengths[l] > 64)
                    continue; /* the controls need no long traces */
                struct tcase c = {t, lengths[l], al, 0, 0};
                size_t nref = 0;
                int first = 1, bad = 0;
                const char *ref_name = NULL;
                FOR_PAIRS(c)
                {
                    size_t n = trace_one(first ? ref : cur, MAX_STEPS);
                    total_steps += n;
                    traces++;
                    if (n > max_steps_seen)
                        max_steps_seen = n;
                    if (first) {
                        nref = n;
                        ref_name = ct_pair_name[c.pair];
                        first = 0;
                        continue;
                    }
                    if (bad)
                        continue;
                    size_t lim = n < nref ? n : nref, i = 0;
                    if (lim > MAX_STEPS)
                        lim = MAX_STEPS;
                    while (i < lim && cur[i] == ref[i])
                        i++;
                    if (i == lim && n == nref)
                        continue;
                    bad = 1;
                    if (tg->control)
                        continue;
                    char w1[48] = "(end)", w2[48] = "(end)";
                    if (i < nref && i < MAX_STEPS)
                        where(w1, sizeof w1, ref[i], tg->fn);
                    if (i < n && i < MAX_STEPS)
                        where(w2, sizeof w2, cur[i], tg->fn);
                    printf("FAIL trace %s/%s n=%zu align a=%zu b=%zu: '%s' (%zu steps) "
                           "and '%s' (%zu steps) differ at step %zu: %s vs %s\n",
                           tg->function, tg->variant, c.len, aligns[al][0], aligns[al][1],
                           ref_name, nref, ct_pair_name[c.pair], n, i, w1, w2);
                }
                groups++;
                bad_groups += (unsigned long)bad;
            }
        if (tg->control) {
            if (!strcmp(tg->variant, "leaky_early_exit")) {
                have_control = 1;
                printf("control %s: traces differ in %lu of %lu groups (%s)\n",
                       tg->variant, bad_groups, groups,
                       bad_groups ? "flagged, as it must be" : "NOT flagged");
                if (bad_groups)
                    ct_passed++;
                else {
                    ct_failed++;
                    printf("FAIL trace: the early-exit control was not flagged; the "
                           "tracer is not sensitive\n");
                }
            }
            continue;
        }
        printf("%s %s/%s: %lu groups (length x alignment), %lu traces, up to %zu steps\n",
               bad_groups ? "FAIL" : "ok", tg->function, tg->variant, groups, traces,
               max_steps_seen);
        if (bad_groups)
            ct_failed++;
        else
            ct_passed++;
        fflush(stdout);
    }
    if (!have_control) {
        printf("FAIL trace: no early-exit control ran\n");
        ct_failed++;
    }
    waitpid(pid, &st, 0);
    printf("trace: %lu instructions single-stepped\n", total_steps);
    printf("%lu passed, %lu failed\n", ct_passed, ct_failed);
    return ct_failed ? 1 : 0;
#endif
}
