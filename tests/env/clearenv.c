/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program that clears its environment and then loads the library
 * (tests/env/clearenv.sh): the library must see no variables, not the
 * ones still lying on the initial stack.  Prints "function variant" for
 * each public function, after one large memset (the tunables).
 *   clearenv LIBRARY [--keep-env]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"memset", "memcmp", "bcmp", "timingsafe_bcmp",
                                    "timingsafe_memcmp"};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIBRARY [--keep-env]\n", argv[0]);
        return 2;
    }
    if (!(argc > 2 && !strcmp(argv[2], "--keep-env")) && clearenv() != 0)
        return 2;
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 2;
    }
    const char *(*active)(const char *) =
        (const char *(*)(const char *))dlsym(lib, "memlane_active");
    void *(*set)(void *, int, size_t) =
        (void *(*)(void *, int, size_t))dlsym(lib, "memlane_memset");
    if (!active || !set)
        return 2;
    size_t n = (size_t)4 << 20;
    unsigned char *buf = malloc(n);
    if (!buf || set(buf, 1, n) != buf || buf[n - 1] != 1)
        return 2;
    free(buf);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        printf("%s %s\n", names[i], active(names[i]));
    return 0;
}
