/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program built against the installed library through pkg-config
 * (tests/install/run.sh): calls every public function, checks each
 * result, and names the file that memlane_memset was loaded from, so the
 * test can tell the installed copy from the build tree's.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <memlane.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

/* The file mapped at the address of p, from /proc/self/maps. */
static void print_origin(const char *name, const void *p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    uintptr_t a = (uintptr_t)p;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &path_at) >= 2 &&
            path_at > 0 && a >= lo && a < hi) {
            line[strcspn(line, "\n")] = 0;
            printf("%s from %s\n", name, line + path_at);
            break;
        }
    }
    if (f)
        fclose(f);
}

int main(void)
{
    unsigned char a[300], b[300];

    check(memlane_memset(a, 0x5a, sizeof a) == a, "memset returns dst");
    for (size_t i = 0; i < sizeof a; i++)
        if (a[i] != 0x5a) {
            check(0, "memset fills");
            break;
        }
    check(memlane_memset_explicit(b, 0x5a, sizeof b) == b, "memset_explicit returns dst");
    check(memcmp(a, b, sizeof a) == 0, "memset_explicit fills");

    b[200] = 0x01; /* a[200] = 0x5a > b[200] */
    check(memlane_memcmp(a, b, sizeof a) == 0x5a - 0x01, "memcmp difference");
    check(memlane_memcmp(b, a, sizeof a) == 0x01 - 0x5a, "memcmp negative");
    check(memlane_memcmp(a, b, 200) == 0, "memcmp equal prefix");
    check(memlane_bcmp(a, b, sizeof a) != 0, "bcmp differs");
    check(memlane_bcmp(a, b, 200) == 0, "bcmp equal");
    check(memlane_timingsafe_bcmp(a, b, sizeof a) == 1, "timingsafe_bcmp 1");
    check(memlane_timingsafe_bcmp(a, b, 200) == 0, "timingsafe_bcmp 0");
    check(memlane_timingsafe_memcmp(a, b, sizeof a) == 1, "timingsafe_memcmp 1");
    check(memlane_timingsafe_memcmp(b, a, sizeof a) == -1, "timingsafe_memcmp -1");
    check(memlane_timingsafe_memcmp(a, b, 200) == 0, "timingsafe_memcmp 0");
    check(memlane_active("nonesuch") == NULL, "active(unknown) is NULL");

    /* The installed header and library are the same release, and the
     * version string is made of the three numbers. */
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", MEMLANE_VERSION_MAJOR, MEMLANE_VERSION_MINOR,
             MEMLANE_VERSION_PATCH);
    check(strcmp(want, MEMLANE_VERSION_STRING) == 0, "MEMLANE_VERSION_STRING");
    check(strcmp(memlane_version(), MEMLANE_VERSION_STRING) == 0, "memlane_version()");
    printf("version %s\n", memlane_version());

    const char *v = memlane_active("memset");
    check(v != NULL, "active(memset)");
    printf("memset variant %s\n", v ? v : "(null)");
    print_origin("memlane_memset", (const void *)&memlane_memset);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
