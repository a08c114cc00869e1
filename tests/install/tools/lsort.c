/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lsort [-r] [-u] [FILE]: sort lines bytewise, as `LC_ALL=C sort` does;
 * -u drops repeated lines, -r reverses.  One of the small programs the
 * drop-in is tested on where the system's own programs cannot take it
 * (tests/install/run.sh: they are linked against another C library).
 * Its comparisons are memcmp calls of every length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct line {
    const char *p;
    size_t n;
};

static int reverse;

static int by_bytes(const void *va, const void *vb)
{
    const struct line *a = va, *b = vb;
    int r = memcmp(a->p, b->p, a->n < b->n ? a->n : b->n);
    if (!r)
        r = (a->n > b->n) - (a->n < b->n);
    return reverse ? -r : r;
}

int main(int argc, char **argv)
{
    int unique = 0, i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++)
        for (const char *o = argv[i] + 1; *o; o++) {
            if (*o == 'r')
                reverse = 1;
            else if (*o == 'u')
                unique = 1;
            else
                return fprintf(stderr, "usage: lsort [-r] [-u] [FILE]\n"), 2;
        }
    FILE *in = i < argc ? fopen(argv[i], "rb") : stdin;
    if (!in)
        return perror(argv[i]), 2;
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + len, 1, cap - len, in)) > 0;)
        if ((len += got) == cap)
            text = realloc(text, cap *= 2);
    if (!text)
        return perror("lsort"), 2;
    size_t nlines = 0, lcap = 1024;
    struct line *lines = malloc(lcap * sizeof *lines);
    for (size_t s = 0; lines && s < len;) {
        const char *nl = memchr(text + s, '\n', len - s);
        size_t e = nl ? (size_t)(nl - text) : len;
        if (nlines == lcap)
            lines = realloc(lines, (lcap *= 2) * sizeof *lines);
        if (lines)
            lines[nlines++] = (struct line){text + s, e - s};
        s = e + 1;
    }
    if (!lines)
        return perror("lsort"), 2;
    qsort(lines, nlines, sizeof *lines, by_bytes);
    for (size_t k = 0; k < nlines; k++) {
        if (unique && k && !by_bytes(&lines[k], &lines[k - 1]))
            continue;
        fwrite(lines[k].p, 1, lines[k].n, stdout);
        putchar('\n');
    }
    free(lines);
    free(text);
    return ferror(stdout) ? 1 : 0;
}
