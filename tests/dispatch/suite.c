/* SPDX-License-Identifier: BSD-2-Clause */
/* MEMLANE_ARCH: run this binary again with each value and check what the
 * dispatcher picked and what it printed. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "memlane.h"
#include "tunables.h"

#if defined(__linux__)
#include <sys/auxv.h>
#endif

/* The names memlane_active knows: the function table's, and memset_explicit. */
static const char *const public_names[] = {
#define ML_FUNCTION(name, kind) #name,
#include "functions.def"
    "memset_explicit",
};
#define NPUBLIC (sizeof public_names / sizeof public_names[0])

/* Where a call through `address` lands: the address itself, or, in an
 * executable that is not position-independent (which takes an IFUNC's
 * address as its PLT stub), the target of the stub's jmp *slot(%rip). */
static void *call_target(void *address)
{
#if defined(__x86_64__)
    const unsigned char *c = address;
    if (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa)
        c += 4; /* endbr64 */
    if (c[0] == 0xf2)
        c += 1; /* bnd */
    if (c[0] == 0xff && c[1] == 0x25) {
        int32_t disp;
        memcpy(&disp, c + 2, sizeof disp);
        void *const *slot = (void *const *)(const void *)(c + 6 + disp);
        return *slot;
    }
#endif
    return address;
}

/* Every public entry point on a small input: 1 if all are right. */
static int entry_points_ok(void)
{
    unsigned char x[40], y[40];
    memlane_memset(x, 7, sizeof x);
    memlane_memset_explicit(y, 7, sizeof y);
    y[39] = 9;
    return memlane_memcmp(x, y, 40) == -2 && memlane_bcmp(x, y, 40) &&
           memlane_timingsafe_bcmp(x, y, 40) == 1 &&
           memlane_timingsafe_memcmp(y, x, 40) == 1 && memlane_memcmp(x, y, 39) == 0;
}

/*
 * The first calls of the process, from several threads at once, made by
 * a constructor that runs before the library's own (priority 101 comes
 * first in a static link, and memlane-test links libmemlane.a).  Where
 * the entry points are not IFUNCs (musl, sanitizer builds), these calls
 * go through the first-call trampolines, which must select (reading
 * MEMLANE_ARCH) and forward correctly while racing each other.
 */
enum { EARLY_THREADS = 4 };
static pthread_barrier_t early_barrier;
static int early_ok[EARLY_THREADS];
static const char *early_selected_by, *early_active[NPUBLIC];
static int early_started;

static void *early_thread(void *arg)
{
    pthread_barrier_wait(&early_barrier);
    *(int *)arg = entry_points_ok();
    return NULL;
}

__attribute__((constructor(101))) static void early_calls(void)
{
    pthread_t t[EARLY_THREADS];
    unsigned n = 0;
    if (pthread_barrier_init(&early_barrier, NULL, EARLY_THREADS))
        return;
    for (; n < EARLY_THREADS; n++)
        if (pthread_create(&t[n], NULL, early_thread, &early_ok[n]))
            break;
    if (n < EARLY_THREADS) /* cannot happen unless out of resources */
        _exit(3);
    for (unsigned i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&early_barrier);
    early_selected_by = ml_dispatch_selected_by();
    for (size_t i = 0; i < NPUBLIC; i++)
        early_active[i] = memlane_active(public_names[i]);
    early_started = 1;
}

/* Child side: print "function variant" lines, then check the entry points
 * work on a small input. */
int arch_probe(void)
{
    for (size_t i = 0; i < NPUBLIC; i++)
        printf("%s %s\n", public_names[i], memlane_active(public_names[i]));
    int ok = entry_points_ok() && memlane_active("nope") == NULL &&
             memlane_active(NULL) == NULL;
    /* Heap blocks of a few bytes: a compare that reads around them reads
     * past the block, which valgrind reports (make memcheck runs this
     * probe under it, where the dispatcher must pick in-bounds code). */
    unsigned char *h1 = malloc(5), *h2 = malloc(5);
    if (!h1 || !h2)
        return 1;
    memlane_memset(h1, 3, 5);
    memlane_memset(h2, 3, 5);
    h2[4] = 4;
    ok = ok && memlane_memcmp(h1, h2, 5) == -1 && memlane_bcmp(h1, h2, 5) &&
         memlane_memcmp(h1, h2, 4) == 0 && !memlane_bcmp(h1, h2, 4);
    free(h1);
    free(h2);
    printf("calls %s\n", ok ? "ok" : "wrong");
    int early = early_started;
    for (unsigned i = 0; i < EARLY_THREADS; i++)
        early &= early_ok[i];
    printf("early calls from %d threads %s, selected by %s\n", EARLY_THREADS,
           early ? "ok" : "wrong", early_selected_by ? early_selected_by : "(nothing)");
    for (size_t i = 0; i < NPUBLIC; i++)
        printf("early: %s=%s\n", public_names[i], early ? early_active[i] : "(none)");
    ok &= early;
    /* Whether every selected variant stays inside its buffers (required
     * under valgrind, see src/dispatch.c). */
    printf("in-bounds:");
    int around = 0;
    for (size_t i = 0; i < NPUBLIC; i++) {
        const char *fname =
            strcmp(public_names[i], "memset_explicit") ? public_names[i] : "memset";
        int l = ml_level_from_name(memlane_active(public_names[i]));
        if (l >= 0 && ml_variant_reads_around(fname, (enum ml_level)l))
            printf(" %s reads around", public_names[i]), around = 1;
    }
    printf("%s\n", around ? "" : " yes");
    /* What the environment tests (tests/env/) compare: the memset
     * tunables in force, and whether this is a secure-execution process. */
    const struct ml_memset_tunables *tun = ml_memset_tunables();
    printf("tunables rep_stosb=%zu nt=%zu\n", tun->rep_stosb, tun->nt);
#ifdef AT_SECURE
    printf("secure-execution %lu\n", getauxval(AT_SECURE));
#endif

    /* Where the public symbols are IFUNCs, each must be bound to the
     * variant memlane_active names: the resolver's answer, and where this
     * executable's calls land (its GOT slot, or PLT stub, for the symbol). */
    static const struct {
        const char *name;
        void *address;
    } bound[] = {
        {"memset", (void *)memlane_memset},
        {"memcmp", (void *)memlane_memcmp},
        {"bcmp", (void *)memlane_bcmp},
        {"timingsafe_bcmp", (void *)memlane_timingsafe_bcmp},
        {"timingsafe_memcmp", (void *)memlane_timingsafe_memcmp},
    };
    for (size_t i = 0; i < sizeof bound / sizeof bound[0]; i++) {
        const struct ml_function *f = ml_function_find(bound[i].name);
        const char *active = memlane_active(bound[i].name);
        void *variant = NULL;
        for (unsigned v = 0; v < f->nvariants; v++)
            if (!strcmp(f->variants[v].name, active))
                variant = f->kind == ML_KIND_SET ? (void *)f->variants[v].fn.set
                                                 : (void *)f->variants[v].fn.cmp;
        void *resolved = ml_dispatch_resolved(bound[i].name);
        const char *verdict = !ML_IFUNC             ? "ok (no IFUNC in this build)"
                              : resolved != variant ? "wrong resolver answer"
                              : call_target(bound[i].address) != variant ? "wrong address"
                                                                         : "ok";
        printf("bound %s %s\n", bound[i].name, verdict);
        ok &= !strncmp(verdict, "ok", 2);
    }
    return ok ? 0 : 1;
}

/* Read fd to end of file into buf (NUL-terminated, truncated to fit). */
static void read_all(int fd, char *buf, size_t len)
{
    size_t have = 0;
    char discard[256];
    for (;;) {
        /* cppcheck takes discard, which read() fills, for a value read
         * before it is written. */
        // cppcheck-suppress legacyUninitvar
        char *to = have < len - 1 ? buf + have : discard;
        size_t room = have < len - 1 ? len - 1 - have : sizeof discard;
        ssize_t r = read(fd, to, room);
        if (r > 0 && to == buf + have)
            have += (size_t)r;
        else if (r == 0 || (r < 0 && errno != EINTR))
            break;
    }
    buf[have] = 0;
}

/* Run `self --arch-probe` with MEMLANE_ARCH=value (unset if NULL); collect
 * its stdout and stderr. */
static int run_probe(const char *self, const char *value, char *out, size_t outlen,
                     char *err, size_t errlen)
{
    int po[2], pe[2];
    out[0] = err[0] = 0;
    if (pipe(po) || pipe(pe))
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        return -1;
    }
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        if (value)
            setenv("MEMLANE_ARCH", value, 1);
        else
            unsetenv("MEMLANE_ARCH");
        execl(self, self, "--arch-probe", (char *)NULL);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    /* stderr is small (well under a pipe buffer): read stdout to its end,
     * then stderr.  Each may come in several writes (musl's stdout
     * writes its first line at once, then buffers). */
    read_all(po[0], out, outlen);
    read_all(pe[0], err, errlen);
    close(po[0]);
    close(pe[0]);
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The variant the dispatcher must pick for f under cap. */
static const char *expected_variant(const struct ml_function *f, enum ml_level cap)
{
    const char *name = f->variants[0].name;
    for (unsigned v = 0; v < f->nvariants; v++)
        if (f->variants[v].level <= cap && ml_level_supported(f->variants[v].level) &&
            ml_variant_fits_cpu(&f->variants[v]))
            name = f->variants[v].name;
    return name;
}

static size_t count_lines(const char *s)
{
    size_t k = 0;
    for (; *s; s++)
        k += *s == '\n';
    return k;
}

void suite_arch(const char *self)
{
    static const char *const values[] = {NULL,     "",      "generic", "sse2",   "avx2",
                                         "avx512", "bogus", "AVX2",    "avx1024"};
    enum ml_level best = ml_cpu_level();

    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        const char *value = values[i];
        char label[64];
        snprintf(label, sizeof label, "MEMLANE_ARCH=%s", value ? value : "(unset)");
        struct impl im = {.function = label, .variant = "dispatch"};
        case_begin("arch", &im);

        int level = value && *value ? ml_level_from_name(value) : (int)best;
        int valid = level >= 0 && ml_level_supported((enum ml_level)level);
        enum ml_level cap = valid ? (enum ml_level)level : best;

        char out[4096], err[4096];
        int rc = run_probe(self, value, out, sizeof out, err, sizeof err);
        if (rc != 0)
            fail("probe exited with %d; stdout: %s", rc, out);
        if (valid && err[0])
            fail("unexpected stderr: %s", err);
        if (!valid && (count_lines(err) != 1 || !strstr(err, "MEMLANE_ARCH")))
            fail("want one warning line naming MEMLANE_ARCH, got: \"%s\"", err);
        if (!strstr(out, "calls ok"))
            fail("entry points misbehave under this setting: %s", out);
        /* The first calls select: an IFUNC resolver where there are
         * IFUNCs, else the first-call trampolines. */
        char early_line[128];
        snprintf(early_line, sizeof early_line,
                 "early calls from %d threads ok, selected by %s\n", EARLY_THREADS,
                 ML_IFUNC ? "resolver" : "first call");
        if (!strstr(out, early_line))
            fail("want \"%.*s\" in: %s", (int)strlen(early_line) - 1, early_line, out);
        for (const char *b = strstr(out, "bound "); b; b = strstr(b + 1, "bound ")) {
            const char *eol = strchr(b, '\n');
            int len = eol ? (int)(eol - b) : (int)strlen(b);
            if (!strstr(b, " ok") || (eol && strstr(b, " ok") > eol))
                fail("%.*s", len, b);
        }
        if (!strstr(out, "bound timingsafe_memcmp "))
            fail("no IFUNC binding reported: %s", out);

        for (size_t k = 0; k < NPUBLIC; k++) {
            const char *fname =
                strcmp(public_names[k], "memset_explicit") ? public_names[k] : "memset";
            const struct ml_function *f = ml_function_find(fname);
            /* What the first calls selected, and what is in force now
             * (the constructor may select again). */
            char want[128];
            for (int early = 0; early < 2; early++) {
                snprintf(want, sizeof want, early ? "early: %s=%s\n" : "%s %s\n",
                         public_names[k], expected_variant(f, cap));
                if (!strstr(out, want))
                    fail("want \"%.*s\" (cap %s) in: %s", (int)strlen(want) - 1, want,
                         ml_level_name(cap), out);
            }
            /* And never a variant above the cap. */
            for (unsigned v = 0; v < f->nvariants; v++) {
                char line[128];
                snprintf(line, sizeof line, "%s %s\n", public_names[k],
                         f->variants[v].name);
                if (f->variants[v].level > cap && strstr(out, line))
                    fail("%s uses %s above cap %s", public_names[k], f->variants[v].name,
                         ml_level_name(cap));
            }
        }
        case_end();
    }
}
