/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program linked with libmemlane.so (tests/env/): prints the variant
 * each public function uses, one "function variant" line each, and
 * whether it runs in secure-execution mode (AT_SECURE).
 */
#include <stdio.h>
#include <sys/auxv.h>

#include "memlane.h"

static const char *const names[] = {"memset", "memcmp", "bcmp", "timingsafe_bcmp",
                                    "timingsafe_memcmp"};

int main(void)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        printf("%s %s\n", names[i], memlane_active(names[i]));
    printf("secure-execution %lu\n", getauxval(AT_SECURE));
    return 0;
}
