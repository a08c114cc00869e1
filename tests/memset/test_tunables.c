/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tunables (memset's thresholds, the compares' prefetch band): the
 * size and band parsers, the defaults by CPU, the environment at start-up
 * (a malformed value gives one line on stderr and the default, never a
 * crash), and the paths a large memset or compare takes before the
 * tunables are in place.  Prints "N passed, N failed".
 *
 *   memset-tunables-test            run the checks
 *   memset-tunables-test --print    print "rep_stosb nt rep_stosb_sse2 lo hi" as
 *                                   the library sees them (used by the checks)
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu.h"
#include "memlane.h"
#include "tunables.h"

extern char **environ;

static unsigned passed, failed;

static void check(int ok, const char *what, const char *detail)
{
    if (ok)
        passed++;
    else {
        failed++;
        printf("FAIL %s: %s\n", what, detail);
    }
}

static void parse_ok(const char *s, size_t want)
{
    size_t got = 12345;
    char buf[200];
    int r = ml_parse_size(s, &got);
    snprintf(buf, sizeof buf, "\"%s\": returned %d, value %zu, want 0 and %zu", s, r, got,
             want);
    check(r == 0 && got == want, "parse", buf);
}

static void parse_bad(const char *s)
{
    size_t got = 12345;
    char buf[200];
    int r = ml_parse_size(s, &got);
    snprintf(buf, sizeof buf, "\"%s\": returned %d, value %zu, want -1 and untouched",
             s ? s : "(null)", r, got);
    check(r == -1 && got == 12345, "parse-malformed", buf);
}

static void test_parser(void)
{
    parse_ok("0", 0);
    parse_ok("1", 1);
    parse_ok("4096", 4096);
    parse_ok("4K", 4096);
    parse_ok("4k", 4096);
    parse_ok("4KB", 4096);
    parse_ok("4KiB", 4096);
    parse_ok("2048B", 2048);
    parse_ok("16M", (size_t)16 << 20);
    parse_ok("16m", (size_t)16 << 20);
    parse_ok("3G", (size_t)3 << 30);
    parse_ok("1GiB", (size_t)1 << 30);
    parse_ok("off", ML_THRESHOLD_OFF);
    parse_ok("OFF", ML_THRESHOLD_OFF);
    parse_ok("Off", ML_THRESHOLD_OFF);
    parse_ok("18446744073709551615", SIZE_MAX);
    parse_ok("17179869183G", (size_t)17179869183 << 30);

    parse_bad(NULL);
    parse_bad("");
    parse_bad("K");
    parse_bad("abc");
    parse_bad("4X");
    parse_bad("4 K");
    parse_bad(" 4");
    parse_bad("4K ");
    parse_bad("-1");
    parse_bad("+4");
    parse_bad("0x100");
    parse_bad("4.5M");
    parse_bad("4KK");
    parse_bad("4iB");
    parse_bad("of");
    parse_bad("offf");
    parse_bad("18446744073709551616"); /* SIZE_MAX + 1 */
    parse_bad("99999999999999999999999");
    parse_bad("17179869184G");       /* 2^64 */
    parse_bad("18014398509481984K"); /* 2^64 */
}

static void band_ok(const char *s, size_t lo, size_t hi)
{
    struct ml_cmp_tunables b = {1, 2};
    char buf[200];
    int r = ml_parse_band(s, &b);
    snprintf(buf, sizeof buf, "\"%s\": returned %d, band %zu-%zu, want 0 and %zu-%zu", s,
             r, b.prefetch_lo, b.prefetch_hi, lo, hi);
    check(r == 0 && b.prefetch_lo == lo && b.prefetch_hi == hi, "parse-band", buf);
}

static void band_bad(const char *s)
{
    struct ml_cmp_tunables b = {1, 2};
    char buf[200];
    int r = ml_parse_band(s, &b);
    snprintf(buf, sizeof buf, "\"%s\": returned %d, band %zu-%zu, want -1 and untouched",
             s ? s : "(null)", r, b.prefetch_lo, b.prefetch_hi);
    check(r == -1 && b.prefetch_lo == 1 && b.prefetch_hi == 2, "parse-band-malformed",
          buf);
}

static void test_band_parser(void)
{
    band_ok("1M-4M", (size_t)1 << 20, (size_t)4 << 20);
    band_ok("256KiB-64mb", (size_t)256 << 10, (size_t)64 << 20);
    band_ok("4096-4096", 4096, 4096);
    band_ok("off", ML_THRESHOLD_OFF, 0);
    band_ok("OFF", ML_THRESHOLD_OFF, 0);
    band_bad(NULL);
    band_bad("");
    band_bad("4M");
    band_bad("4M-1M");
    band_bad("1M-");
    band_bad("-4M");
    band_bad("1M-4M-8M");
    band_bad("1M - 4M");
    band_bad("x-y");
    band_bad("off-4M");
    band_bad("1M-18446744073709551616");
}

/* The band from a CPU description: measured on Zen 5, off elsewhere. */
static void test_band_defaults(void)
{
    struct ml_tun_cpu c;
    struct ml_cmp_tunables b;
    char buf[200];
    const size_t K = 1024, M = K * K;
    static const struct {
        unsigned is_intel, is_amd, family;
        size_t l2, llc, lo, hi; /* hi 0: off */
        const char *what;
    } cases[] = {
        {0, 1, 0x1a, 1 * M, 508 * M, 1 * M, 4 * M, "Zen 5 in KVM (L3 summed over CCXs)"},
        {0, 1, 0x1a, 1 * M, 32 * M, 1 * M, 4 * M, "Zen 5, 32 MiB L3"},
        {0, 1, 0x1a, 1 * M, 96 * M, 1 * M, 12 * M, "Zen 5, 96 MiB L3 (V-Cache)"},
        {0, 1, 0x1a, 128 * K, 32 * M, 256 * K, 4 * M, "an L2 below the smallest start"},
        {0, 1, 0x1a, 1 * M, 4 * M, 0, 0, "an eighth of the L3 below the L2"},
        {0, 1, 0x1a, 0, 32 * M, 0, 0, "L2 unknown"},
        {0, 1, 0x1a, 1 * M, 0, 0, 0, "L3 unknown"},
        {0, 1, 0x19, 1 * M, 32 * M, 0, 0, "Zen 4 (not measured)"},
        {1, 0, 0x06, 2 * M, 32 * M, 0, 0, "Intel (not measured)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        c.is_intel = cases[i].is_intel, c.is_amd = cases[i].is_amd;
        c.erms = 1, c.fsrm = 1, c.fsrs = 0;
        c.family = cases[i].family;
        c.l2_bytes = cases[i].l2;
        c.llc_bytes = cases[i].llc;
        ml_cmp_tunables_defaults(&c, &b);
        size_t want_lo = cases[i].hi ? cases[i].lo : ML_THRESHOLD_OFF;
        snprintf(buf, sizeof buf, "%s: band %zu-%zu, want %zu-%zu", cases[i].what,
                 b.prefetch_lo, b.prefetch_hi, want_lo, cases[i].hi);
        check(b.prefetch_lo == want_lo && b.prefetch_hi == cases[i].hi, "band-defaults",
              buf);
    }
#if defined(__x86_64__)
    size_t l2 = ml_cpu_l2_bytes();
    snprintf(buf, sizeof buf, "ml_cpu_l2_bytes() = %zu", l2);
    check(l2 >= ((size_t)64 << 10) && l2 <= ((size_t)64 << 20), "l2-from-cpuid", buf);
#endif
}

static void test_defaults(void)
{
    struct ml_tun_cpu c;
    struct ml_memset_tunables t;
    char buf[200];

    c.l2_bytes = 0; /* not read by the memset defaults */
    /* Zen 4 as measured: no rep stosb below the NT threshold, NT from half
     * the LLC, and rep stosb as the fallback there if NT is turned off. */
    c.is_intel = 0, c.is_amd = 1, c.erms = 1, c.fsrm = 1, c.fsrs = 0;
    c.family = 0x19;
    c.llc_bytes = (size_t)32 << 20;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "AMD ERMS FSRM 32M LLC: rep %zu nt %zu", t.rep_stosb, t.nt);
    check(t.nt == (size_t)16 << 20 && t.rep_stosb == t.nt, "defaults", buf);
    /* The sse2 variant's 16-byte loop loses to rep stosb from 2 KiB. */
    snprintf(buf, sizeof buf, "AMD ERMS: rep (sse2) %zu", t.rep_stosb_sse2);
    check(t.rep_stosb_sse2 == ML_SSE2_REP_STOSB, "defaults", buf);

    /* An AMD L3 above 96 MiB is a sum over CCXs (a KVM guest on Zen 5
     * reports 508 MiB): one 32 MiB CCX is assumed; 96 MiB (3D V-Cache)
     * is taken as it is. */
    c.llc_bytes = (size_t)508 << 20;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "AMD 508M LLC: rep %zu nt %zu", t.rep_stosb, t.nt);
    check(t.nt == (size_t)16 << 20 && t.rep_stosb == t.nt, "defaults", buf);
    c.llc_bytes = (size_t)96 << 20;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "AMD 96M LLC: nt %zu", t.nt);
    check(t.nt == (size_t)48 << 20, "defaults", buf);

    /* Zen 5 (family 26) as measured: rep stosb from 1 MiB, no NT stores. */
    c.family = 0x1a;
    c.llc_bytes = (size_t)508 << 20;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "AMD family 26: rep %zu nt %zu", t.rep_stosb, t.nt);
    check(t.rep_stosb == ((size_t)1 << 20) && t.nt == ML_THRESHOLD_OFF, "defaults", buf);
    snprintf(buf, sizeof buf, "AMD family 26: rep (sse2) %zu", t.rep_stosb_sse2);
    check(t.rep_stosb_sse2 == ML_SSE2_REP_STOSB, "defaults", buf);
    c.family = 0x19;

    c.is_intel = 1, c.is_amd = 0;
    c.llc_bytes = (size_t)508 << 20;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "Intel 508M LLC: nt %zu", t.nt);
    check(t.nt == (size_t)254 << 20, "defaults", buf);
    c.llc_bytes = (size_t)32 << 20;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "Intel ERMS 32M LLC: rep %zu nt %zu", t.rep_stosb, t.nt);
    check(t.rep_stosb == 2048 && t.nt == (size_t)16 << 20, "defaults", buf);
    snprintf(buf, sizeof buf, "Intel ERMS: rep (sse2) %zu", t.rep_stosb_sse2);
    check(t.rep_stosb_sse2 == 2048, "defaults", buf);

    c.erms = 0, c.fsrm = 0;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "Intel no ERMS: rep %zu, sse2 %zu", t.rep_stosb,
             t.rep_stosb_sse2);
    check(t.rep_stosb == ML_THRESHOLD_OFF && t.rep_stosb_sse2 == ML_THRESHOLD_OFF,
          "defaults", buf);

    c.llc_bytes = 0;
    ml_tunables_defaults(&c, &t);
    snprintf(buf, sizeof buf, "unknown LLC: nt %zu", t.nt);
    check(t.nt == ML_THRESHOLD_OFF, "defaults", buf);

    /* This machine: the LLC comes from CPUID on x86-64. */
#if defined(__x86_64__)
    size_t llc = ml_cpu_llc_bytes();
    snprintf(buf, sizeof buf, "ml_cpu_llc_bytes() = %zu", llc);
    check(llc >= ((size_t)256 << 10) && llc <= ((size_t)4 << 30), "llc-from-cpuid", buf);
#endif
}

/* Run `self --print` with one variable set; capture stdout and stderr. */
static int run_print(const char *self, const char *assign, char *out, size_t outlen,
                     char *err, size_t errlen)
{
    char *envp[64];
    size_t k = 0;
    for (char **e = environ; *e && k < 60; e++)
        if (strncmp(*e, "MEMLANE_REP_STOSB_THRESHOLD=", 28) &&
            strncmp(*e, "MEMLANE_NT_THRESHOLD=", 21) &&
            strncmp(*e, "MEMLANE_CMP_PREFETCH=", 21))
            envp[k++] = *e;
    if (assign)
        envp[k++] = (char *)assign;
    envp[k] = NULL;

    int po[2], pe[2];
    if (pipe(po) || pipe(pe))
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    char *argv[] = {(char *)self, (char *)"--print", NULL};
    pid_t pid;
    int r = posix_spawn(&pid, self, &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (r)
        return -1;
    ssize_t no = read(po[0], out, outlen - 1), ne = read(pe[0], err, errlen - 1);
    out[no > 0 ? no : 0] = 0;
    err[ne > 0 ? ne : 0] = 0;
    close(po[0]);
    close(pe[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_environment(const char *self)
{
    char out[256], err[1024], def[256], buf[1600];

    int r = run_print(self, NULL, def, sizeof def, err, sizeof err);
    snprintf(buf, sizeof buf, "no variables: exit %d, stderr \"%s\"", r, err);
    check(r == 0 && err[0] == 0 && def[0], "env-default", buf);

    static const struct {
        const char *assign;
        int warns;
    } cases[] = {
        {"MEMLANE_REP_STOSB_THRESHOLD=4K", 0},
        {"MEMLANE_NT_THRESHOLD=8M", 0},
        {"MEMLANE_NT_THRESHOLD=off", 0},
        {"MEMLANE_REP_STOSB_THRESHOLD=bogus", 1},
        {"MEMLANE_NT_THRESHOLD=12Q", 1},
        {"MEMLANE_NT_THRESHOLD=99999999999999999999999", 1},
        {"MEMLANE_NT_THRESHOLD=", 0},
        {"MEMLANE_CMP_PREFETCH=2M-8M", 0},
        {"MEMLANE_CMP_PREFETCH=off", 0},
        {"MEMLANE_CMP_PREFETCH=8M-2M", 1},
        {"MEMLANE_CMP_PREFETCH=4M", 1},
        {"MEMLANE_CMP_PREFETCH=", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = run_print(self, cases[i].assign, out, sizeof out, err, sizeof err);
        /* What the library must print: the default with this one change. */
        size_t rep, nt, rep2, lo, hi, want_rep, want_nt, want_rep2, want_lo, want_hi;
        sscanf(def, "%zu %zu %zu %zu %zu", &want_rep, &want_nt, &want_rep2, &want_lo,
               &want_hi);
        const char *val = strchr(cases[i].assign, '=') + 1;
        size_t v;
        struct ml_cmp_tunables band;
        if (!strncmp(cases[i].assign, "MEMLANE_CMP_PREFETCH", 20)) {
            if (!cases[i].warns && *val && ml_parse_band(val, &band) == 0)
                want_lo = band.prefetch_lo, want_hi = band.prefetch_hi;
        } else if (!cases[i].warns && *val && ml_parse_size(val, &v) == 0) {
            if (!strncmp(cases[i].assign, "MEMLANE_NT", 10))
                want_nt = v;
            else
                want_rep = want_rep2 = v; /* every variant's threshold */
        }
        int got = sscanf(out, "%zu %zu %zu %zu %zu", &rep, &nt, &rep2, &lo, &hi) == 5;
        snprintf(buf, sizeof buf,
                 "%s: exit %d, printed \"%.80s\" (want %zu %zu %zu %zu %zu), %zu stderr "
                 "lines: \"%s\"",
                 cases[i].assign, r, out, want_rep, want_nt, want_rep2, want_lo, want_hi,
                 count_lines(err), err);
        int ok = r == 0 && got && rep == want_rep && nt == want_nt && rep2 == want_rep2 &&
                 lo == want_lo && hi == want_hi &&
                 count_lines(err) == (size_t)cases[i].warns &&
                 (!cases[i].warns ||
                  (strstr(err, "memlane:") && strstr(err, "using the default")));
        check(ok, "env", buf);
    }
}

/*
 * Before the tunables are in place (special == 0: a memset called before
 * any constructor ran), every size past a variant's small classes goes
 * out of line, where sizes below both thresholds take the variant's own
 * loop.  Run it with special forced to 0 for every size to 4 KiB, every
 * destination offset mod 64 for some, with bytes around the range that
 * must not change.
 */
static void test_before_init(void)
{
    static unsigned char buf[4096 + 3 * 64];
    const struct ml_function *f = ml_function_find("memset");
    const struct ml_memset_tunables *t = ml_memset_tunables();
    size_t special = t->special, special_sse2 = t->special_sse2;
    char what[96];
    for (unsigned v = 0; f && v < f->nvariants; v++) {
        if (!ml_level_supported(f->variants[v].level))
            continue;
        unsigned bad = 0, calls = 0;
        for (size_t n = 0; n <= 4096; n++)
            for (size_t off = 0; off < 64; off += n % 61 == 0 ? 1 : 64) {
                memlane_memset_generic(buf, 0x5a, sizeof buf);
                __atomic_store_n(&ml_memset_tun.special, 0, __ATOMIC_RELAXED);
                __atomic_store_n(&ml_memset_tun.special_sse2, 0, __ATOMIC_RELAXED);
                void *r = f->variants[v].fn.set(buf + 64 + off, 0xc3, n);
                __atomic_store_n(&ml_memset_tun.special, special, __ATOMIC_RELAXED);
                __atomic_store_n(&ml_memset_tun.special_sse2, special_sse2,
                                 __ATOMIC_RELAXED);
                calls++;
                int ok = r == buf + 64 + off;
                for (size_t i = 0; i < sizeof buf; i++)
                    ok &= buf[i] == (i >= 64 + off && i < 64 + off + n ? 0xc3 : 0x5a);
                bad += !ok;
            }
        snprintf(what, sizeof what, "memset_%s: %u of %u calls wrong",
                 f->variants[v].name, bad, calls);
        check(bad == 0, "before-init", what);
    }
    check(f != NULL, "before-init", "memset in the variant table");
}

/*
 * The compares before the tunables are in place (the band then holds
 * every size from ML_CMP_PREFETCH_MIN on, so the prefetching loop runs and
 * reads the tunables: an x86-64 variant that reaches its loop must leave
 * them read), then with the band forced on for every such size and off:
 * each memcmp and bcmp variant at sizes about the band's start and the
 * loops' steps, equal and with one difference at the first, the last and
 * a spread of bytes, against the generic variant.
 */
static void test_cmp_before_init(void)
{
    static const size_t sizes[] = {ML_CMP_PREFETCH_MIN,      ML_CMP_PREFETCH_MIN + 1,
                                   ML_CMP_PREFETCH_MIN + 63, ML_CMP_PREFETCH_MIN + 200,
                                   (size_t)1 << 20,          ((size_t)1 << 20) + 129};
    enum { MAXN = (1 << 20) + 129 + 64 };
    static unsigned char a[MAXN], b[MAXN];
    const struct ml_cmp_tunables set = ml_cmp_tun;
    static const struct ml_cmp_tunables bands[3] = {
        {ML_CMP_PREFETCH_MIN, SIZE_MAX}, /* before init */
        {ML_CMP_PREFETCH_MIN, SIZE_MAX}, /* on, initialised */
        {ML_THRESHOLD_OFF, 0},           /* off */
    };
    static const char *const funcs[] = {"memcmp", "bcmp"};
    char what[128];
    for (size_t i = 0; i < MAXN; i++)
        a[i] = b[i] = (unsigned char)(i * 7 + 3);
    for (int fi = 0; fi < 2; fi++) {
        const struct ml_function *f = ml_function_find(funcs[fi]);
        check(f != NULL, "cmp-before-init", funcs[fi]);
        for (unsigned v = 0; f && v < f->nvariants; v++) {
            if (!ml_level_supported(f->variants[v].level))
                continue;
            unsigned bad = 0, calls = 0, uninit = 0;
            for (int k = 0; k < 3; k++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    for (size_t off = 0; off < 64; off += 21) {
                        size_t n = sizes[s];
                        for (size_t w = 0; w < 12; w++) {
                            /* w 0: equal; 1: byte 0; 2: n - 1; then a spread */
                            size_t at = w == 1   ? 0
                                        : w == 2 ? n - 1
                                                 : (n / 11) * (w - 2) + w;
                            if (w)
                                b[off + at] ^= 0x80;
                            if (k == 0)
                                __atomic_store_n(&ml_tunables_ready, 0, __ATOMIC_RELEASE);
                            ml_cmp_tun = bands[k];
                            int got = f->variants[v].fn.cmp(a + off, b + off, n);
                            /* read: every compare that reaches its loop
                             * (equal, or the difference at the end) */
                            uninit += k == 0 && (w == 0 || w == 2) &&
                                      f->variants[v].level != ML_GENERIC &&
                                      !ml_tunables_ready;
                            ml_cmp_tun = set;
                            int want = memlane_memcmp_generic(a + off, b + off, n);
                            bad +=
                                fi ? (got != 0) != (want != 0)
                                   : (got > 0) != (want > 0) || (got < 0) != (want < 0);
                            calls++;
                            if (w)
                                b[off + at] ^= 0x80;
                        }
                    }
            __atomic_store_n(&ml_tunables_ready, 1, __ATOMIC_RELEASE);
            snprintf(what, sizeof what,
                     "%s_%s: %u of %u calls wrong, %u left uninitialised", funcs[fi],
                     f->variants[v].name, bad, calls, uninit);
            check(bad == 0 && uninit == 0, "cmp-before-init", what);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--print")) {
        /* One memset large enough to reach the threshold check, then the
         * values in force. */
        static unsigned char big[1 << 16];
        memlane_memset(big, 1, sizeof big);
        const struct ml_memset_tunables *t = ml_memset_tunables();
        printf("%zu %zu %zu %zu %zu\n", t->rep_stosb, t->nt, t->rep_stosb_sse2,
               ml_cmp_tun.prefetch_lo, ml_cmp_tun.prefetch_hi);
        return big[4095] == 1 ? 0 : 1;
    }
    test_parser();
    test_band_parser();
    test_defaults();
    test_band_defaults();
    test_environment("/proc/self/exe");
    test_before_init();
    test_cmp_before_init();
    printf("tunables: %u passed, %u failed\n", passed, failed);
    return failed != 0;
}
