/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "memlane.h"
#include "rng.h"

struct guarded g_a, g_b;
int g_long;
unsigned long cases_passed, cases_failed;

int guarded_init(struct guarded *g, size_t usable)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (usable + page - 1) / page * page;
    g->map_len = body + 2 * page;
    g->map = mmap(NULL, g->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                  -1, 0);
    if (g->map == MAP_FAILED)
        return -1;
    unsigned char *base = g->map;
    if (mprotect(base, page, PROT_NONE) || mprotect(base + page + body, page, PROT_NONE))
        return -1;
    g->lo = base + page;
    g->hi = base + page + body;
    return 0;
}

void guarded_free(struct guarded *g) { munmap(g->map, g->map_len); }

size_t impls_all(struct impl *out, size_t max)
{
    static const struct {
        const char *function;
        enum ml_kind kind;
        ml_set_fn set;
        ml_cmp_fn cmp;
    } entry[] = {
        {"memset", ML_KIND_SET, memlane_memset, NULL},
        {"memset_explicit", ML_KIND_SET, memlane_memset_explicit, NULL},
        {"memcmp", ML_KIND_CMP, NULL, memlane_memcmp},
        {"bcmp", ML_KIND_CMP, NULL, memlane_bcmp},
        {"timingsafe_bcmp", ML_KIND_CMP, NULL, memlane_timingsafe_bcmp},
        {"timingsafe_memcmp", ML_KIND_CMP, NULL, memlane_timingsafe_memcmp},
    };
    size_t k = 0;
    for (size_t e = 0; e < sizeof entry / sizeof entry[0]; e++) {
        const struct ml_function *f = ml_function_find(entry[e].function);
        for (unsigned v = 0; f && v < f->nvariants && k < max; v++) {
            if (!ml_level_supported(f->variants[v].level))
                continue;
            out[k].function = f->name;
            out[k].variant = f->variants[v].name;
            out[k].kind = f->kind;
            out[k].fn.cmp = NULL;
            if (f->kind == ML_KIND_SET)
                out[k].fn.set = f->variants[v].fn.set;
            else
                out[k].fn.cmp = f->variants[v].fn.cmp;
            k++;
        }
        if (k < max) {
            out[k].function = entry[e].function;
            out[k].variant = "dispatch";
            out[k].kind = entry[e].kind;
            if (entry[e].kind == ML_KIND_SET)
                out[k].fn.set = entry[e].set;
            else
                out[k].fn.cmp = entry[e].cmp;
            k++;
        }
    }
    return k;
}

static const char *cur_suite;
static const struct impl *cur_impl;
size_t cur_n, cur_align_a, cur_align_b;

/* Async-signal-safe formatting for the fault handler: stdio is not
 * (the handler interrupts arbitrary code), so it appends by hand. */
struct sigbuf {
    char buf[320];
    size_t len;
};

static void sb_str(struct sigbuf *b, const char *s)
{
    while (*s && b->len < sizeof b->buf)
        b->buf[b->len++] = *s++;
}

static void sb_num(struct sigbuf *b, unsigned long v)
{
    char digits[24];
    size_t k = 0;
    do
        digits[k++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (k && b->len < sizeof b->buf)
        b->buf[b->len++] = digits[--k];
}

/* A guard page hit: name the case, print the closing line, exit.  stdout
 * is line-buffered (install_fault_handler), so no earlier line is lost. */
static void on_fault(int sig)
{
    struct sigbuf b = {.len = 0};
    sb_str(&b, "FAIL ");
    sb_str(&b, cur_suite ? cur_suite : "-");
    sb_str(&b, " ");
    sb_str(&b, cur_impl ? cur_impl->function : "-");
    sb_str(&b, "/");
    sb_str(&b, cur_impl ? cur_impl->variant : "-");
    sb_str(&b, ": signal ");
    sb_num(&b, (unsigned long)sig);
    sb_str(&b, " (out-of-bounds access?) at n=");
    sb_num(&b, cur_n);
    sb_str(&b, " align a=");
    sb_num(&b, cur_align_a);
    sb_str(&b, " b=");
    sb_num(&b, cur_align_b);
    sb_str(&b, "\n");
    sb_num(&b, cases_passed);
    sb_str(&b, " passed, ");
    sb_num(&b, cases_failed + 1);
    sb_str(&b, " failed\n");
    if (write(1, b.buf, b.len) < 0)
        _exit(1);
    _exit(1);
}

void install_fault_handler(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGSEGV, on_fault);
    signal(SIGBUS, on_fault);
}
static unsigned cur_failures;

void case_begin(const char *suite, const struct impl *im)
{
    cur_suite = suite;
    cur_impl = im;
    cur_failures = 0;
}

void case_end(void)
{
    if (cur_failures) {
        cases_failed++;
        if (cur_failures > 5)
            printf("FAIL %s %s/%s: %u failures in all\n", cur_suite,
                   cur_impl ? cur_impl->function : "-",
                   cur_impl ? cur_impl->variant : "-", cur_failures);
    } else {
        cases_passed++;
    }
    fflush(stdout);
}

int case_failed(void) { return cur_failures != 0; }

void fail(const char *fmt, ...)
{
    if (++cur_failures > 5)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s %s/%s: ", cur_suite, cur_impl ? cur_impl->function : "-",
           cur_impl ? cur_impl->variant : "-");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15u;

uint64_t rnd(void) { return ml_rng_next(&rnd_state); }

void rnd_fill(unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t r = rnd();
        memcpy(p + i, &r, 8);
    }
    for (uint64_t r = rnd(); i < n; i++, r >>= 8)
        p[i] = (unsigned char)r;
}

int ref_memcmp(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return (int)a[i] - (int)b[i];
    return 0;
}

int cmp_result_ok(const char *function, int got, int r)
{
    if (!strcmp(function, "memcmp"))
        return got == r;
    if (!strcmp(function, "bcmp"))
        return (got != 0) == (r != 0);
    if (!strcmp(function, "timingsafe_bcmp"))
        return got == (r != 0);
    /* timingsafe_memcmp */
    return got == (r > 0) - (r < 0);
}
