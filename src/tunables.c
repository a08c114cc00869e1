/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tunables (memset's thresholds, the compares' prefetch band): defaults
 * from the CPU, overrides from the environment.
 * Nothing here may call memset or memcmp (they may be us, under a drop-in
 * preload), nor stdio (it may call them): warnings go out through
 * ml_warn_line (write(2)).
 */

#include "cpu.h"
#include "tunables.h"

/* Until initialised: no rep stosb, no non-temporal stores, and every
 * large memset takes the path that initialises (special = 0). */
struct ml_memset_tunables ml_memset_tun = {ML_THRESHOLD_OFF, ML_THRESHOLD_OFF,
                                           ML_THRESHOLD_OFF, 0, 0};
/* Until initialised: every compare of ML_CMP_PREFETCH_MIN bytes or more
 * takes the prefetching loop, which initialises (ml_cmp_prefetches). */
struct ml_cmp_tunables ml_cmp_tun = {ML_CMP_PREFETCH_MIN, SIZE_MAX};
int ml_tunables_ready;

int ml_parse_size_span(const char *s, const char *end, size_t *out)
{
    if (s == end || *s < '0' || *s > '9')
        return -1;
    size_t v = 0;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        size_t digit = (size_t)(*s - '0');
        if (v > (SIZE_MAX - digit) / 10)
            return -2;
        v = v * 10 + digit;
    }
    unsigned shift = 0;
    if (s < end) {
        switch (*s | 0x20) {
        case 'k':
            shift = 10;
            s++;
            break;
        case 'm':
            shift = 20;
            s++;
            break;
        case 'g':
            shift = 30;
            s++;
            break;
        default:
            break;
        }
    }
    /* optional "B" or, after a unit, "iB" */
    if (shift && end - s >= 2 && (s[0] | 0x20) == 'i' && (s[1] | 0x20) == 'b')
        s += 2;
    else if (s < end && (*s | 0x20) == 'b')
        s++;
    if (s != end)
        return -1;
    if (shift && v > (SIZE_MAX >> shift))
        return -2;
    *out = v << shift;
    return 0;
}

int ml_parse_size(const char *s, size_t *out)
{
    if (!s)
        return -1;
    /* "off", any case */
    if ((s[0] | 0x20) == 'o' && (s[1] | 0x20) == 'f' && (s[2] | 0x20) == 'f' &&
        s[3] == 0) {
        *out = ML_THRESHOLD_OFF;
        return 0;
    }
    const char *end = s;
    while (*end)
        end++;
    return ml_parse_size_span(s, end, out) ? -1 : 0;
}

/* The last-level cache one core uses: an AMD L3 above what one CCX can
 * have is a sum over CCXs, and one CCX's is assumed. */
static size_t core_llc(const struct ml_tun_cpu *cpu)
{
    if (cpu->is_amd && cpu->llc_bytes > ML_AMD_CCX_L3_MAX)
        return ML_AMD_CCX_L3_ASSUMED;
    return cpu->llc_bytes;
}

void ml_tunables_defaults(const struct ml_tun_cpu *cpu, struct ml_memset_tunables *out)
{
    /* The measurements behind each rule: docs/memset.md, "Thresholds". */
    size_t llc = core_llc(cpu);
    /* NT stores from half the LLC: a fill that stays in the cache wins below. */
    size_t nt = llc ? llc / 2 : ML_THRESHOLD_OFF;

    size_t rep = ML_THRESHOLD_OFF;
    if (cpu->is_intel && cpu->erms)
        rep = 2048; /* glibc's default for Intel ERMS parts (not measured here) */
    else if (cpu->is_amd && cpu->erms && cpu->family == 0x1a) {
        /* Zen 5: rep stosb beats the vector loops from 1 MiB and NT stores. */
        rep = (size_t)1 << 20;
        nt = ML_THRESHOLD_OFF;
    } else if (cpu->is_amd)
        rep = nt; /* Zen 4: rep stosb only as the fallback when NT is off */
    out->rep_stosb = rep;
    /* The sse2 loop stores 16 bytes at a time: rep stosb wins from 2 KiB. */
    out->rep_stosb_sse2 = cpu->erms && rep > ML_SSE2_REP_STOSB ? ML_SSE2_REP_STOSB : rep;
    out->nt = nt;
}

void ml_cmp_tunables_defaults(const struct ml_tun_cpu *cpu, struct ml_cmp_tunables *out)
{
    out->prefetch_lo = ML_THRESHOLD_OFF;
    out->prefetch_hi = 0;
    /* Measured on Zen 5 only (docs/memcmp.md, "Prefetching where both
     * buffers live in L3"): from one core's L2 (both buffers then outgrow
     * it) to an eighth of the L3 (both within a quarter of it); beyond
     * that, from DRAM, the prefetches slowed the loops. */
    if (!cpu->is_amd || cpu->family != 0x1a || !cpu->l2_bytes || !cpu->llc_bytes)
        return;
    size_t lo = cpu->l2_bytes > ML_CMP_PREFETCH_MIN ? cpu->l2_bytes : ML_CMP_PREFETCH_MIN;
    size_t hi = core_llc(cpu) / 8;
    if (lo <= hi) {
        out->prefetch_lo = lo;
        out->prefetch_hi = hi;
    }
}

int ml_parse_band(const char *s, struct ml_cmp_tunables *out)
{
    size_t lo, hi;
    if (!s)
        return -1;
    if (ml_parse_size(s, &lo) == 0) {
        if (lo != ML_THRESHOLD_OFF)
            return -1; /* one size: not a band */
        out->prefetch_lo = ML_THRESHOLD_OFF;
        out->prefetch_hi = 0;
        return 0;
    }
    const char *dash = s, *end;
    while (*dash && *dash != '-')
        dash++;
    if (!*dash)
        return -1;
    for (end = dash + 1; *end; end++)
        ;
    if (ml_parse_size_span(s, dash, &lo) || ml_parse_size_span(dash + 1, end, &hi) ||
        lo > hi)
        return -1;
    out->prefetch_lo = lo;
    out->prefetch_hi = hi;
    return 0;
}

static void warn_bad(const char *name, const char *value, const char *want)
{
    const char *parts[] = {
        "memlane: ", name, "=\"", value, "\" is not ", want, "; using the default\n"};
    ml_warn_line(parts, sizeof parts / sizeof parts[0], 3);
}

/* The variables, read by ml_tunables_init and looked for at start-up. */
#define ENV_REP_STOSB "MEMLANE_REP_STOSB_THRESHOLD"
#define ENV_NT "MEMLANE_NT_THRESHOLD"
#define ENV_CMP_PREFETCH "MEMLANE_CMP_PREFETCH"

/* Returns 1 if the variable set *value. */
static int apply_env(char **env, const char *name, size_t *value, int warn)
{
    const char *s = ml_env_get(env, name);
    if (!s || !*s)
        return 0;
    size_t v;
    if (ml_parse_size(s, &v) == 0) {
        *value = v;
        return 1;
    }
    if (warn)
        warn_bad(name, s, "a size (digits with K/M/G, or off)");
    return 0;
}

static void apply_env_band(char **env, const char *name, struct ml_cmp_tunables *band,
                           int warn)
{
    const char *s = ml_env_get(env, name);
    if (s && *s && ml_parse_band(s, band) && warn)
        warn_bad(name, s, "a band (two sizes LO-HI, LO <= HI, or off)");
}

/* This CPU as the defaults see it (field by field: no memset call). */
static void this_cpu(struct ml_tun_cpu *tc)
{
    const struct ml_cpu *c = ml_cpu_all();
    tc->is_intel = c->is_intel;
    tc->is_amd = c->is_amd;
    tc->erms = c->erms;
    tc->fsrm = c->fsrm;
    tc->fsrs = c->fsrs;
    tc->family = c->family;
    tc->llc_bytes = ml_cpu_llc_bytes();
    tc->l2_bytes = ml_cpu_l2_bytes();
}

void ml_tunables_cpu_defaults(struct ml_memset_tunables *out)
{
    struct ml_tun_cpu tc;
    this_cpu(&tc);
    ml_tunables_defaults(&tc, out);
}

void ml_cmp_tunables_cpu_defaults(struct ml_cmp_tunables *out)
{
    struct ml_tun_cpu tc;
    this_cpu(&tc);
    ml_cmp_tunables_defaults(&tc, out);
}

void ml_tunables_init(void)
{
    static int claimed;
    struct ml_memset_tunables t;
    struct ml_cmp_tunables band;
    struct ml_tun_cpu tc;
    this_cpu(&tc);
    ml_tunables_defaults(&tc, &t);
    ml_cmp_tunables_defaults(&tc, &band);
    /* Every thread computes the same values (no lock: a signal handler
     * may get here while its own thread is half-way through), but only
     * the first one to read the environment warns about a malformed
     * variable.  The environment comes from ml_environ, as for
     * MEMLANE_ARCH, so a memset that comes before libc has set up
     * environ (the preload drop-in, .preinit_array code) sees it too;
     * where it cannot be found, the defaults hold until the constructor
     * below reads the variables. */
    char **env = ml_environ();
    if (env) {
        int first = !__atomic_exchange_n(&claimed, 1, __ATOMIC_ACQ_REL);
        /* the variable sets the threshold of every variant */
        if (apply_env(env, ENV_REP_STOSB, &t.rep_stosb, first))
            t.rep_stosb_sse2 = t.rep_stosb;
        apply_env(env, ENV_NT, &t.nt, first);
        apply_env_band(env, ENV_CMP_PREFETCH, &band, first);
    }
    t.special = t.rep_stosb < t.nt ? t.rep_stosb : t.nt;
    t.special_sse2 = t.rep_stosb_sse2 < t.nt ? t.rep_stosb_sse2 : t.nt;
    __atomic_store_n(&ml_memset_tun.rep_stosb, t.rep_stosb, __ATOMIC_RELAXED);
    __atomic_store_n(&ml_memset_tun.rep_stosb_sse2, t.rep_stosb_sse2, __ATOMIC_RELAXED);
    __atomic_store_n(&ml_memset_tun.nt, t.nt, __ATOMIC_RELAXED);
    __atomic_store_n(&ml_memset_tun.special, t.special, __ATOMIC_RELAXED);
    __atomic_store_n(&ml_memset_tun.special_sse2, t.special_sse2, __ATOMIC_RELAXED);
    __atomic_store_n(&ml_cmp_tun.prefetch_lo, band.prefetch_lo, __ATOMIC_RELAXED);
    __atomic_store_n(&ml_cmp_tun.prefetch_hi, band.prefetch_hi, __ATOMIC_RELAXED);
    __atomic_store_n(&ml_tunables_ready, 1, __ATOMIC_RELEASE);
}

/* At start-up when a variable is set, so that a warning appears then and
 * not mid-run, and when values were computed before environ existed, so
 * that they are replaced.  Otherwise the first call that needs them
 * computes them: reading the cache sizes takes several CPUID leaves,
 * each a trap to the hypervisor in a virtual machine, which a process
 * that never makes a large memset or compare need not pay. */
__attribute__((constructor)) static void ml_tunables_ctor(void)
{
    char **env = ml_environ();
    if (__atomic_load_n(&ml_tunables_ready, __ATOMIC_ACQUIRE) ||
        (env && (ml_env_get(env, ENV_REP_STOSB) || ml_env_get(env, ENV_NT) ||
                 ml_env_get(env, ENV_CMP_PREFETCH))))
        ml_tunables_init();
}
