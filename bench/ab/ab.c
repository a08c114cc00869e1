/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ab: one memlane function's variants against libc's, all of them reached
 * in a shared library as glibc is (memlane-bench links the variants into
 * the executable, which moves small-size results: docs/benchmarking.md,
 * "ab").  run.sh builds the library with the variants exported, once per
 * code placement, and runs this program once per implementation and
 * placement, each time next to libc.
 *
 *   ab LIB FUNC MODE DATA IMPL...
 *     LIB   the shared library holding memlane_<FUNC>_<variant> and the
 *           probes of probes.c
 *     FUNC  memset, memcmp, bcmp, timingsafe_bcmp or timingsafe_memcmp
 *     MODE  fixed[:OFF][:SIZES]  each size in a loop; OFF = A or A/B, the
 *                           offsets of the buffers from a page start
 *                           (default 0); SIZES as memlane-bench's --sizes
 *                           ("0-64:1,80-1024:16,2K-64M*2", the default)
 *           dist[:OFF]      random sizes: Short, Mid, Uniform512 (as in
 *                           memlane-bench: a 128 KiB buffer cut into
 *                           consecutive calls, a new cut every sample)
 *           uniform:A-B[:OFF]  sizes uniform in A..B, the same way
 *     DATA  (compares) equal, or mismatch (one differing byte per call at
 *           a random position), mismatch:K (at K, or n - 1 if n <= K),
 *           mismatch:A-B (random in A..B, clamped to n - 1); any of these
 *           with /P: a difference in P % of the calls, drawn per call
 *           with the position, the rest equal; memset: -
 *     IMPL  libc (glibc's FUNC; its memcmp for the timing-safe ones), a
 *           variant name (avx512, avx2, ...), a probe of probes.c, or
 *           memlane: memlane_<FUNC> of the library named by $AB_LIBMEMLANE
 *           (the real libmemlane.so; not moved by placements)
 *
 * Environment: AB_STACK=bytes moves the stack of the timed calls down;
 * AB_CALLER=branch makes the timed loop branch on each compare's result
 * (default: sum: the results are added up, no branch on them);
 * AB_DRAWS=own gives each implementation cuts and positions of its own;
 * AB_WARM=sizes calls each implementation once at every size of a fixed
 * list up to WARM_MAX before each row (warm_sizes).
 *
 * Output: a header line, then one line per row: the row's name and the
 * median TSC ticks per call of each implementation over SAMPLES samples.
 * Samples interleave the implementations, starting at a different one
 * each round; with a difference, every sample draws new positions (or a
 * new cut), the same for every implementation, so the branch predictor
 * cannot learn them and all see the same work.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../timer.h"

typedef void *(*set_fn)(void *, int, size_t);
typedef int (*cmp_fn)(const void *, const void *, size_t);

enum {
    DIST_BUF = 128 * 1024,   /* random sizes: one pass covers this */
    SAMPLES = 21,            /* per implementation and row */
    MAX_IMPLS = 8,           /* columns */
    FIXED_CALLS = 2000,      /* calls per sample at small fixed sizes */
    SLOT_BYTES = 256 * 1024, /* mismatch slots fill this much of a buffer */
    MAX_SLOTS = 1024,        /* and are at most this many */
    MAX_SIZES = 512,
    WARM_MAX = 4096 /* AB_WARM=sizes: the largest size warmed */
};
#define TARGET_TICKS 200000.0 /* a fixed-size sample at large sizes */

static int is_set;
static union {
    set_fn set;
    cmp_fn cmp;
} fns[MAX_IMPLS];
static int nimpl;
static size_t off_a, off_b;
static volatile uintptr_t sink;

/* ---- random numbers, sizes ---- */

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static size_t rnd_below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

/* Geometric length with the given mean (support 0, 1, 2, ...). */
static size_t geometric(double mean)
{
    double u = ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
    return (size_t)floor(log(u) / log(mean / (mean + 1)));
}

/* A size with an optional K or M suffix; *s is moved past it. */
static size_t size_at(const char **s)
{
    char *e;
    size_t v = strtoull(*s, &e, 10);
    if (*e == 'K' || *e == 'k')
        v <<= 10, e++;
    else if (*e == 'M' || *e == 'm')
        v <<= 20, e++;
    *s = e;
    return v;
}

/* "A", "A-B:STEP" or "A-B*FACTOR", comma-separated. */
static size_t parse_sizes(const char *s, size_t *out)
{
    size_t k = 0;
    while (*s && k < MAX_SIZES) {
        size_t a = size_at(&s), b = a, step = 1;
        int mul = 0;
        if (*s == '-') {
            s++;
            b = size_at(&s);
            if (*s == ':' || *s == '*') {
                mul = *s == '*';
                s++;
                step = size_at(&s);
            }
        }
        if ((*s && *s != ',') || b < a || step == 0 || (mul && (step < 2 || a == 0))) {
            fprintf(stderr, "ab: bad size list at '%s'\n", s);
            exit(2);
        }
        for (size_t n = a; n <= b && k < MAX_SIZES; n = mul ? n * step : n + step)
            out[k++] = n;
        if (*s == ',')
            s++;
    }
    return k;
}

/* "A" or "A/B" as the two buffer offsets. */
static void parse_offsets(const char *s)
{
    char *e;
    off_a = off_b = strtoul(s, &e, 10);
    if (*e == '/')
        off_b = strtoul(e + 1, &e, 10);
    if (off_a >= 4096 || off_b >= 4096) {
        fprintf(stderr, "ab: offsets must be below 4096\n");
        exit(2);
    }
}

/* ---- differences ---- */

static size_t mis_lo, mis_hi = SIZE_MAX;
static int mismatch;
static unsigned mis_share = 100; /* percent of calls with a difference */

/* Where the difference of a call of n bytes goes (n > 0). */
static size_t mismatch_pos(size_t n)
{
    size_t hi = mis_hi < n - 1 ? mis_hi : n - 1, lo = mis_lo < hi ? mis_lo : hi;
    return lo + rnd_below(hi - lo + 1);
}

/* The calls of a sample: a + off[i] against b + off[i], len[i] bytes;
 * pos[i] the byte made to differ in b, or SIZE_MAX. */
static unsigned char *buf_a, *buf_b;
static size_t *call_off, *call_len, *call_pos, ncalls, cap_calls;

static void calls_alloc(size_t cap)
{
    if (cap <= cap_calls)
        return;
    free(call_off), free(call_len), free(call_pos);
    call_off = malloc(cap * sizeof *call_off);
    call_len = malloc(cap * sizeof *call_len);
    call_pos = malloc(cap * sizeof *call_pos);
    if (!call_off || !call_len || !call_pos)
        abort();
    cap_calls = cap;
}

static void undo_mismatches(void)
{
    for (size_t i = 0; buf_b && i < ncalls; i++)
        if (call_pos[i] != SIZE_MAX) {
            size_t at = call_off[i] + call_pos[i];
            buf_b[at] = buf_a[at];
            call_pos[i] = SIZE_MAX;
        }
}

static void place_mismatches(void)
{
    for (size_t i = 0; i < ncalls; i++) {
        call_pos[i] = SIZE_MAX;
        if (!mismatch || !buf_b || call_len[i] == 0)
            continue;
        if (mis_share < 100 && rnd_below(100) >= mis_share)
            continue;
        size_t p = mismatch_pos(call_len[i]), at = call_off[i] + p;
        buf_b[at] = (unsigned char)(buf_a[at] ^ (1 + rnd_below(255)));
        call_pos[i] = p;
    }
}

/* ---- buffers ---- */

/* Two buffers of `bytes` each, page aligned, faulted in, b a copy of a
 * as seen from the call bases (b + off_b + x == a + off_a + x). */
static void buffers(size_t bytes)
{
    static size_t have;
    bytes = (bytes + off_a + off_b + 8191) & ~(size_t)4095;
    if (bytes <= have)
        return;
    if (have) {
        munmap(buf_a - off_a, have);
        if (buf_b)
            munmap(buf_b - off_b, have);
    }
    unsigned char *a =
        mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *b = is_set ? NULL
                              : mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED || b == MAP_FAILED) {
        perror("ab: mmap");
        exit(1);
    }
    for (size_t i = 0; i < bytes; i += 8) {
        uint64_t v = rnd();
        memcpy(a + i, &v, 8);
    }
    if (b)
        memcpy(b + off_b, a + off_a, bytes - (off_a > off_b ? off_a : off_b));
    have = bytes;
    buf_a = a + off_a;
    buf_b = b ? b + off_b : NULL;
}

/* ---- timing ---- */

/* AB_CALLER=branch: the timed loop branches on each compare's result, as
 * callers do, instead of summing the results.  With inputs that differ
 * in some calls only (DATA mismatch/P), a compare that returns without a
 * branch then pays the misprediction in its caller, as it would in a
 * program. */
static int caller_branches;

/* AB_DRAWS=own: each implementation runs a cut and difference positions
 * of its own, drawn for it, instead of the same ones as the others.  The
 * branch predictor remembers a cut of a few hundred calls, so the same
 * code run twice on one cut is faster the second time: a control of libc
 * against libc needs its own draws (docs/benchmarking.md). */
static int own_draws;

/* An environment variable that chooses between two values: 0 when unset,
 * empty or `off`, 1 when `on`, else -1 after a line on stderr. */
static int env_choice(const char *name, const char *off, const char *on)
{
    const char *v = getenv(name);
    if (!v || !*v || !strcmp(v, off))
        return 0;
    if (!strcmp(v, on))
        return 1;
    fprintf(stderr, "ab: %s is %s or %s, not %s\n", name, off, on, v);
    return -1;
}

/* k calls cycling over the call list from call 0. */
static __attribute__((noinline)) double run_calls(int impl, size_t k)
{
    uintptr_t acc = 0;
    size_t i = 0;
    uint64_t t0 = tsc_start();
    if (is_set) {
        set_fn f = fns[impl].set;
        for (size_t j = 0; j < k; j++) {
            acc += (uintptr_t)f(buf_a + call_off[i], (int)j, call_len[i]);
            i = i + 1 == ncalls ? 0 : i + 1;
        }
    } else if (caller_branches) {
        cmp_fn f = fns[impl].cmp;
        for (size_t j = 0; j < k; j++) {
            /* A branch on the result, as `if (memcmp(...))` makes: the
             * volatile asm keeps the compiler from turning it into a
             * conditional move. */
            if (f(buf_a + call_off[i], buf_b + call_off[i], call_len[i]) != 0) {
                __asm__ volatile("" : "+r"(acc));
                acc++;
            }
            i = i + 1 == ncalls ? 0 : i + 1;
        }
    } else {
        cmp_fn f = fns[impl].cmp;
        for (size_t j = 0; j < k; j++) {
            acc += (uintptr_t)f(buf_a + call_off[i], buf_b + call_off[i], call_len[i]);
            i = i + 1 == ncalls ? 0 : i + 1;
        }
    }
    uint64_t t = tsc_stop() - t0;
    sink += acc;
    return (double)t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, SAMPLES, sizeof *v, cmp_double);
    return v[SAMPLES / 2];
}

static void row(const char *name, double t[][SAMPLES])
{
    printf("%-10s", name);
    for (int k = 0; k < nimpl; k++)
        printf(" %10.3f", median(t[k]));
    printf("\n");
    fflush(stdout);
}

/* One row of a fixed size.  Equal inputs (and memset): one call site,
 * `calls` calls per sample after an untimed run of the same.  With
 * differences: the slots in a random order, one pass per sample, new
 * positions every sample (an untimed pass over other positions first). */
static void fixed_row(size_t n, double t[][SAMPLES])
{
    size_t stride = (n + 63) & ~(size_t)63, slots = 1;
    if (!stride)
        stride = 64;
    if (mismatch && !is_set) {
        slots = SLOT_BYTES / stride;
        if (slots > MAX_SLOTS)
            slots = MAX_SLOTS;
        if (slots < 8 && 8 * stride <= (16u << 20))
            slots = 8;
        if (!slots)
            slots = 1;
    }
    buffers(slots * stride);
    calls_alloc(slots);
    for (size_t i = 0; i < slots; i++)
        call_off[i] = i * stride, call_len[i] = n, call_pos[i] = SIZE_MAX;
    for (size_t i = slots; i > 1; i--) {
        size_t j = rnd_below(i), x = call_off[i - 1];
        call_off[i - 1] = call_off[j];
        call_off[j] = x;
    }
    ncalls = slots;
    if (slots == 1 || !mismatch) {
        /* calls per sample: FIXED_CALLS, fewer where a call is long */
        place_mismatches();
        run_calls(0, 1);
        double one = run_calls(0, 1);
        size_t calls =
            one * FIXED_CALLS > TARGET_TICKS ? (size_t)(TARGET_TICKS / one) : FIXED_CALLS;
        if (calls < 1)
            calls = 1;
        for (int r = 0; r < SAMPLES; r++) {
            if (mismatch) { /* one slot: a new position each sample */
                undo_mismatches();
                place_mismatches();
            }
            for (int c = 0; c < nimpl; c++) {
                int k = (c + r) % nimpl;
                run_calls(k, calls);
                t[k][r] = run_calls(k, calls) / (double)calls;
            }
        }
        undo_mismatches();
        return;
    }
    for (int r = -1; r < SAMPLES; r++) {
        undo_mismatches();
        place_mismatches();
        for (int c = 0; c < nimpl; c++) {
            int k = (c + (r < 0 ? 0 : r)) % nimpl;
            if (own_draws && c > 0) {
                undo_mismatches();
                place_mismatches();
            }
            double ticks = run_calls(k, slots) / (double)slots;
            if (r >= 0)
                t[k][r] = ticks;
        }
    }
    undo_mismatches();
}

/* AB_WARM=sizes: before a fixed row, each implementation once at every
 * size of the list up to WARM_MAX.  A branch that has never been taken
 * costs nothing in the predictor; once taken it holds a BTB entry for
 * good, and the more entries a fetch block has, the slower it can be
 * predicted.  Rows timed in one order only see the branches of the sizes
 * before them; this pass gives each row every branch a program calling
 * the function at many sizes has (docs/benchmarking.md, "Every size
 * warmed before each row"). */
static int warm;

static void warm_sizes(const size_t *sizes, size_t nsizes)
{
    uintptr_t acc = 0;
    buffers(WARM_MAX);
    for (int k = 0; k < nimpl; k++)
        for (size_t i = 0; i < nsizes; i++) {
            if (sizes[i] > WARM_MAX)
                continue;
            if (is_set)
                acc += (uintptr_t)fns[k].set(buf_a, 0, sizes[i]);
            else
                acc += (uintptr_t)fns[k].cmp(buf_a, buf_b, sizes[i]);
        }
    sink = acc;
}

/* A new cut of the random-size buffer. kind: 0 Short, 1 Mid, 2 uniform */
static void new_cut(int kind, size_t lo, size_t hi)
{
    size_t pos = 0;
    ncalls = 0;
    while (pos < DIST_BUF) {
        size_t n = kind == 0   ? geometric(16)
                   : kind == 1 ? geometric(64)
                               : lo + rnd_below(hi - lo + 1);
        if (n > DIST_BUF - pos)
            n = DIST_BUF - pos;
        call_off[ncalls] = pos;
        call_len[ncalls++] = n;
        pos += n;
    }
    place_mismatches();
}

static void dist_row(int kind, size_t lo, size_t hi, double t[][SAMPLES])
{
    buffers(DIST_BUF);
    calls_alloc(4 * DIST_BUF);
    for (int r = -1; r < SAMPLES; r++) {
        undo_mismatches();
        new_cut(kind, lo, hi);
        for (int c = 0; c < nimpl; c++) {
            int k = (c + (r < 0 ? 0 : r)) % nimpl;
            if (own_draws && c > 0) {
                undo_mismatches();
                new_cut(kind, lo, hi);
            }
            /* ticks per call */
            double ticks = run_calls(k, ncalls) / (double)ncalls;
            if (r >= 0)
                t[k][r] = ticks;
        }
    }
    undo_mismatches();
}

/* ---- set-up ---- */

/* The name of glibc's variant at addr, from its __libc_ifunc_impl_list
 * (GLIBC_PRIVATE; dladdr cannot name the local symbols), or "?". */
static const char *glibc_variant(const char *func, void *addr)
{
    struct impl {
        const char *name;
        void (*fn)(void);
        _Bool usable;
    } list[64];
    typedef size_t list_fn(const char *, struct impl *, size_t);
    list_fn *get = (list_fn *)dlsym(RTLD_DEFAULT, "__libc_ifunc_impl_list");
    if (!strcmp(func, "bcmp") || !strncmp(func, "timingsafe_", 11))
        func = "memcmp"; /* bcmp is memcmp's alias in glibc */
    size_t count = get ? get(func, list, 64) : 0;
    for (size_t i = 0; i < count && i < 64; i++)
        if ((void *)list[i].fn == addr && list[i].name)
            return list[i].name;
    return "?";
}

static void *lookup(void *lib, const char *func, const char *name)
{
    char sym[128];
    void *from = lib;
    if (!strcmp(name, "libc")) {
        from = RTLD_DEFAULT;
        snprintf(sym, sizeof sym, "%s",
                 strncmp(func, "timingsafe_", 11) ? func : "memcmp");
    } else if (!strcmp(name, "memlane")) {
        const char *so = getenv("AB_LIBMEMLANE");
        from = so ? dlopen(so, RTLD_NOW) : NULL;
        if (!from) {
            fprintf(stderr, "ab: memlane needs AB_LIBMEMLANE=path of libmemlane.so\n");
            exit(2);
        }
        snprintf(sym, sizeof sym, "memlane_%s", func);
    } else {
        snprintf(sym, sizeof sym, "memlane_%s_%s", func, name);
    }
    void *addr = dlsym(from, sym);
    if (!addr) {
        fprintf(stderr, "ab: no %s\n", sym);
        exit(2);
    }
    return addr;
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc - 5 > MAX_IMPLS) {
        fprintf(stderr, "usage: ab LIB FUNC MODE DATA IMPL... (at most %d)\n", MAX_IMPLS);
        return 2;
    }
    const char *func = argv[2], *mode = argv[3], *data = argv[4];
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "ab: %s\n", dlerror());
        return 2;
    }
    is_set = !strcmp(func, "memset");
    nimpl = argc - 5;
    for (int k = 0; k < nimpl; k++) {
        void *addr = lookup(lib, func, argv[k + 5]);
        if (is_set)
            memcpy(&fns[k].set, &addr, sizeof addr);
        else
            memcpy(&fns[k].cmp, &addr, sizeof addr);
    }
    if (!strncmp(data, "mismatch", 8) && strchr(":/", data[8]) && !is_set) {
        mismatch = 1;
        if (data[8] == ':') {
            const char *s = data + 9;
            if (*s < '0' || *s > '9') {
                fprintf(stderr, "ab: bad %s\n", data);
                return 2;
            }
            mis_lo = mis_hi = size_at(&s);
            if (*s == '-')
                s++, mis_hi = size_at(&s);
            if ((*s && *s != '/') || mis_hi < mis_lo) {
                fprintf(stderr, "ab: bad %s\n", data);
                return 2;
            }
        }
        const char *share = strchr(data, '/');
        if (share) {
            char *e;
            unsigned long v = strtoul(share + 1, &e, 10);
            if (e == share + 1 || *e || v > 100) {
                fprintf(stderr, "ab: bad share in %s (/P, P in 0..100)\n", data);
                return 2;
            }
            mis_share = (unsigned)v;
        }
    } else if (strcmp(data, "equal") && strcmp(data, "-")) {
        fprintf(stderr, "ab: unknown data %s\n", data);
        return 2;
    }

    caller_branches = env_choice("AB_CALLER", "sum", "branch");
    own_draws = env_choice("AB_DRAWS", "shared", "own");
    warm = env_choice("AB_WARM", "off", "sizes");
    if (caller_branches < 0 || own_draws < 0 || warm < 0)
        return 2;

    /* AB_STACK: bytes by which the timed calls' stack moves down.  Where
     * the return address lands relative to the harness's data and the
     * buffers (address bits 0-11) moves results at small sizes by a
     * cycle or more, for libc and memlane alike, so run.sh varies it
     * with the placement, as it does the code. */
    const char *stack = getenv("AB_STACK");
    size_t shift = stack ? strtoul(stack, NULL, 10) : 0;
    volatile char *below = __builtin_alloca((shift < 65536 ? shift : 65536) + 16);
    below[0] = 0;

    for (int k = 0; k < nimpl; k++)
        if (!strcmp(argv[k + 5], "libc"))
            printf("# libc: %s\n",
                   glibc_variant(func, is_set ? (void *)fns[k].set : (void *)fns[k].cmp));
    static double t[MAX_IMPLS][SAMPLES];
    int fixed = !strncmp(mode, "fixed", 5);
    printf("%-10s", fixed ? "size" : "dist");
    for (int k = 0; k < nimpl; k++)
        printf(" %10s", argv[k + 5]);
    printf("\n");

    if (fixed) {
        /* fixed[:OFF][:SIZES]: OFF is digits and '/', followed by ':'
         * or holding a '/' */
        const char *s = mode[5] == ':' ? mode + 6 : "";
        size_t digits = strspn(s, "0123456789/");
        if (digits && (s[digits] == ':' || (!s[digits] && strchr(s, '/')))) {
            parse_offsets(s);
            s += digits + (s[digits] == ':');
        }
        static size_t sizes[MAX_SIZES];
        size_t nsizes = parse_sizes(*s ? s : "0-64:1,80-1024:16,2K-64M*2", sizes);
        for (size_t i = 0; i < nsizes; i++) {
            char name[32];
            if (warm)
                warm_sizes(sizes, nsizes);
            fixed_row(sizes[i], t);
            snprintf(name, sizeof name, "%zu", sizes[i]);
            row(name, t);
        }
        return 0;
    }
    size_t lo = 0, hi = 512;
    int first = 0, last = 2;
    const char *rest;
    if (!strncmp(mode, "uniform:", 8)) {
        char *e;
        lo = strtoul(mode + 8, &e, 10);
        if (*e != '-' || (hi = strtoul(e + 1, &e, 10)) < lo || hi > DIST_BUF ||
            (*e && *e != ':')) {
            fprintf(stderr, "ab: bad %s\n", mode);
            return 2;
        }
        rest = e;
        first = 2;
    } else if (!strncmp(mode, "dist", 4) && (mode[4] == ':' || !mode[4])) {
        rest = mode + 4;
    } else {
        fprintf(stderr, "ab: unknown mode %s\n", mode);
        return 2;
    }
    if (*rest == ':')
        parse_offsets(rest + 1);
    static const char *const names[3] = {"Short", "Mid", "Uniform512"};
    for (int kind = first; kind <= last; kind++) {
        char name[32];
        snprintf(name, sizeof name, "%zu-%zu", lo, hi);
        dist_row(kind, lo, hi, t);
        row(kind == 2 && first == 2 ? name : names[kind], t);
    }
    return 0;
}
