/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program whose calls are known exactly, for the recorder's tests
 * (tests/trace/run.sh): run under libmemlane-trace.so, its profile must be
 * tests/trace/expected-parent.txt, and the child it forks must write
 * expected-child.txt.  Every call goes through a volatile pointer to the
 * standard name, so the compiler can neither drop nor expand it; the
 * buffers are filled by byte loops (built with -fno-builtin, and gcc's
 * -fno-tree-loop-distribute-patterns, so no loop becomes a memset).
 *
 * Usage: synthetic [exit|_exit|segv|positions]: the parent's calls,
 * threads and forked child; with exit, _exit or segv, a process that
 * makes one memset and then ends the way it names instead; with
 * positions, memcmp calls that differ at every offset of every size to
 * 256 bytes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

static void *(*volatile set)(void *, int, size_t) = memset;
/* Not in glibc: the drop-in's, found at run time.  __memset_chk too:
 * glibc's fortified entry point, which musl and its drop-in lack. */
static void *(*volatile set_explicit)(void *, int, size_t);
static void *(*volatile set_chk)(void *, int, size_t, size_t);
static void (*volatile bzero_explicit)(void *, size_t) = explicit_bzero;
static int (*volatile cmp)(const void *, const void *, size_t) = memcmp;
static int (*volatile eq)(const void *, const void *, size_t) = bcmp;
static int (*volatile ts_eq)(const void *, const void *, size_t);
static int (*volatile ts_cmp)(const void *, const void *, size_t);

static unsigned char a[16384] __attribute__((aligned(4096)));
static unsigned char b[16384] __attribute__((aligned(4096)));

/* a and b equal (b[i + 1] == a[i]: b + 1 + x matches a + x), but for
 * the byte at b + 1 + `at`; at < 0: none. */
static void fill(long at)
{
    volatile unsigned char *va = a, *vb = b;
    for (size_t i = 0; i + 1 < sizeof a; i++) {
        va[i] = (unsigned char)(i * 7 + 1);
        vb[i + 1] = va[i];
    }
    if (at >= 0)
        vb[at + 1] ^= 0x40;
}

static void *thread_calls(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++)
        if (eq(a + 16, b + 17, 16)) /* a: 16, b: 17 mod 64 */
            abort();
    return NULL;
}

int main(int argc, char **argv)
{
    set_explicit = (void *(*)(void *, int, size_t))dlsym(RTLD_DEFAULT, "memset_explicit");
    ts_eq = (int (*)(const void *, const void *, size_t))dlsym(RTLD_DEFAULT,
                                                               "timingsafe_bcmp");
    ts_cmp = (int (*)(const void *, const void *, size_t))dlsym(RTLD_DEFAULT,
                                                                "timingsafe_memcmp");
    set_chk = (void *(*)(void *, int, size_t, size_t))dlsym(RTLD_DEFAULT, "__memset_chk");
    if (!set_explicit || !ts_eq || !ts_cmp) {
        fprintf(stderr, "synthetic: run it under libmemlane-trace.so\n");
        return 2;
    }
    if (argc > 1 && !strcmp(argv[1], "positions")) {
        /* memcmp of every n in 1..256 differing at every offset below
         * n, a at 5 and b at 40 mod 64: where the recorder finds the
         * first difference (all within its exact search). */
        volatile unsigned char *va = a + 4096 + 5, *vb = b + 4096 + 40;
        for (size_t i = 0; i < 256; i++)
            va[i] = vb[i] = (unsigned char)(i * 7 + 1);
        for (size_t n = 1; n <= 256; n++)
            for (size_t at = 0; at < n; at++) {
                vb[at] ^= 0x40;
                if (!cmp(a + 4096 + 5, b + 4096 + 40, n))
                    abort();
                vb[at] ^= 0x40;
            }
        return 0;
    }
    if (argc > 1) {
        set(a, 0, 1);
        if (!strcmp(argv[1], "_exit"))
            _exit(0);
        if (!strcmp(argv[1], "segv"))
            raise(SIGSEGV);
        exit(0);
    }

    /* memset: 9 calls, 10510 bytes. */
    for (int i = 0; i < 5; i++)
        set(a + 3, 0, 100);
    for (int i = 0; i < 2; i++)
        set(a, 1, 5000);
    set(a + 64, 0, 0);
    if (set_chk) /* recorded as memset */
        set_chk(a + 128, 0, 10, 100);
    else
        set(a + 128, 0, 10);
    /* memset_explicit: 2 calls (explicit_bzero counts here). */
    bzero_explicit(a + 8, 24);
    set_explicit(a, 0, 4096);

    /* memcmp: a + 1 against b + 2 (b: 2 mod 64, delta 1). */
    fill(-1);
    for (int i = 0; i < 10; i++)
        if (cmp(a + 1, b + 2, 32))
            abort();
    if (cmp(a + 1, b + 2, 0))
        abort();
    fill(1 + 5); /* differ at offset 5 of the call */
    for (int i = 0; i < 4; i++)
        if (!cmp(a + 1, b + 2, 32))
            abort();
    fill(1 + 1000); /* beyond the exact search: 2 of 64 sampled */
    for (int i = 0; i < 64; i++)
        if (!cmp(a + 1, b + 2, 2000))
            abort();
    /* bcmp: differ at offset 0, n 7; a 0, b 1. */
    fill(0);
    for (int i = 0; i < 3; i++)
        if (!eq(a, b + 1, 7))
            abort();
    /* The timing-safe ones: sizes and alignments only. */
    fill(-1);
    for (int i = 0; i < 2; i++)
        if (ts_eq(a, b + 1, 16))
            abort();
    if (ts_cmp(a + 4, b + 5, 64))
        abort();

    /* Threads: two at once, then one more (the second round reuses a
     * block), 5 equal bcmp of 16 bytes each: 4 threads in all. */
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, thread_calls, NULL))
            abort();
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (pthread_create(&t[0], NULL, thread_calls, NULL))
        abort();
    pthread_join(t[0], NULL);

    /* A child: its own profile, without the parent's calls. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        abort();
    if (pid == 0) {
        for (int i = 0; i < 3; i++)
            set(a, 0, 7);
        exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
        abort();
    printf("%ld %ld\n", (long)getpid(), (long)pid);
    return 0;
}
