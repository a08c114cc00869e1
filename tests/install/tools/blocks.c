/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * blocks SIZE FILE: splits FILE into SIZE-byte blocks and reports how many
 * are zero, how many repeat an earlier block (hash table, each candidate
 * confirmed by memcmp and bcmp), and the primes below the file's size
 * (a sieve cleared by memset); then wipes its buffers with
 * explicit_bzero.  A memset/memcmp-heavy program for the drop-in tests
 * (tests/install/run.sh).
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* gcc turns a bcmp call into memcmp: call it through a pointer. */
static int (*volatile bcmp_fn)(const void *, const void *, size_t) = bcmp;

int main(int argc, char **argv)
{
    size_t bs = argc == 3 ? strtoul(argv[1], NULL, 10) : 0;
    FILE *f = argc == 3 ? fopen(argv[2], "rb") : NULL;
    if (!bs || bs > (1u << 20) || !f)
        return fprintf(stderr, "usage: blocks SIZE FILE\n"), 2;
    size_t len = 0, cap = 1 << 16;
    unsigned char *data = malloc(cap);
    for (size_t got; data && (got = fread(data + len, 1, cap - len, f)) > 0;)
        if ((len += got) == cap)
            data = realloc(data, cap *= 2);
    fclose(f);
    size_t nblocks = len / bs, nslots = 1;
    while (nslots < 2 * nblocks + 1)
        nslots *= 2;
    size_t *slot = malloc(nslots * sizeof *slot);
    unsigned char *zero = malloc(bs);
    if (!data || !slot || !zero)
        return perror("blocks"), 2;
    memset(zero, 0, bs);
    memset(slot, 0xff, nslots * sizeof *slot); /* all SIZE_MAX: empty */

    size_t zeros = 0, repeats = 0, mismatched = 0;
    for (size_t b = 0; b < nblocks; b++) {
        const unsigned char *p = data + b * bs;
        if (!memcmp(p, zero, bs))
            zeros++;
        uint64_t h = 1469598103934665603u;
        for (size_t i = 0; i < bs; i += 1 + bs / 64)
            h = (h ^ p[i]) * 1099511628211u;
        for (size_t s = h & (nslots - 1);; s = (s + 1) & (nslots - 1)) {
            if (slot[s] == SIZE_MAX) {
                slot[s] = b;
                break;
            }
            const unsigned char *q = data + slot[s] * bs;
            int same = !memcmp(p, q, bs);
            if (same != !bcmp_fn(p, q, bs))
                mismatched++;
            if (same) {
                repeats++;
                break;
            }
        }
    }

    size_t limit = len < 2 ? 2 : len;
    unsigned char *composite = malloc(limit);
    if (!composite)
        return perror("blocks"), 2;
    memset(composite, 0, limit);
    size_t primes = 0;
    for (size_t i = 2; i < limit; i++) {
        if (composite[i])
            continue;
        primes++;
        if (i <= (limit - 1) / i)
            for (size_t j = i * i; j < limit; j += i)
                composite[j] = 1;
    }
    printf("%zu blocks of %zu bytes: %zu zero, %zu repeats; %zu primes below %zu%s\n",
           nblocks, bs, zeros, repeats, primes, limit,
           mismatched ? "; memcmp and bcmp DISAGREE" : "");
    explicit_bzero(data, len);
    explicit_bzero(composite, limit);
    free(composite);
    free(zero);
    free(slot);
    free(data);
    return mismatched ? 1 : 0;
}
