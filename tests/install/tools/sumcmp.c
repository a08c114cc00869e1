/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sumcmp sum FILE...   CRC-32 (as cksum -a crc32b / zlib) and size of each
 * sumcmp cmp A B       where two files first differ, in GNU cmp's words;
 *                      exit 1 if they differ
 * A checksum and compare tool for the drop-in tests (tests/install/run.sh):
 * block compares by memcmp, buffers cleared by memset.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { BLOCK = 1 << 16 };
static unsigned char buf_a[BLOCK], buf_b[BLOCK];

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static int sum(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return perror(path), 2;
    uint32_t crc = 0xffffffffu;
    unsigned long long size = 0;
    size_t got;
    while ((got = fread(buf_a, 1, BLOCK, f)) > 0) {
        for (size_t i = 0; i < got; i++)
            crc = crc_table[(crc ^ buf_a[i]) & 0xff] ^ (crc >> 8);
        size += got;
        memset(buf_a, 0, got);
    }
    fclose(f);
    printf("%08x %llu %s\n", crc ^ 0xffffffffu, size, path);
    return 0;
}

static int cmp(const char *pa, const char *pb)
{
    FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
    if (!fa || !fb)
        return perror(fa ? pb : pa), 2;
    unsigned long long offset = 0, line = 1;
    int last = 0;
    for (;;) {
        size_t na = fread(buf_a, 1, BLOCK, fa), nb = fread(buf_b, 1, BLOCK, fb);
        size_t n = na < nb ? na : nb;
        if (memcmp(buf_a, buf_b, n)) {
            /* Narrow down by halves, each step one memcmp. */
            size_t lo = 0, hi = n;
            while (hi - lo > 1) {
                size_t mid = lo + (hi - lo) / 2;
                if (memcmp(buf_a + lo, buf_b + lo, mid - lo))
                    hi = mid;
                else
                    lo = mid;
            }
            for (size_t i = 0; i < lo; i++)
                line += buf_a[i] == '\n';
            printf("%s %s differ: byte %llu, line %llu\n", pa, pb, offset + lo + 1, line);
            return 1;
        }
        for (size_t i = 0; i < n; i++)
            line += buf_a[i] == '\n';
        offset += n;
        if (n)
            last = buf_a[n - 1];
        if (na != nb) {
            const char *shorter = na < nb ? pa : pb;
            if (!offset)
                fprintf(stderr, "cmp: EOF on %s which is empty\n", shorter);
            else if (last == '\n')
                fprintf(stderr, "cmp: EOF on %s after byte %llu, line %llu\n", shorter,
                        offset, line - 1);
            else
                fprintf(stderr, "cmp: EOF on %s after byte %llu, in line %llu\n", shorter,
                        offset, line);
            return 1;
        }
        if (!na)
            return 0;
    }
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "sum")) {
        crc_init();
        int rc = 0;
        for (int i = 2; i < argc; i++)
            rc |= sum(argv[i]);
        return rc;
    }
    if (argc == 4 && !strcmp(argv[1], "cmp"))
        return cmp(argv[2], argv[3]);
    fprintf(stderr, "usage: sumcmp sum FILE... | sumcmp cmp A B\n");
    return 2;
}
