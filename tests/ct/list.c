/* SPDX-License-Identifier: BSD-2-Clause */
/* Prints the functions the constant-time checks cover, from the variant
 * table: "<function> <variant> <symbol> <control>" per line, every
 * variant whether or not this CPU runs it (check 1 reads the object code
 * and needs no CPU support), then the leaky controls. */
#include <stdio.h>

#include "ct_check.h"

int main(void)
{
    struct ct_target t[64];
    size_t n = ct_targets(t, 64);
    for (size_t i = 0; i < n; i++) {
        if (t[i].control)
            printf("%s %s ct_%s 1\n", t[i].function, t[i].variant, t[i].variant);
        else
            printf("%s %s memlane_%s_%s 0\n", t[i].function, t[i].variant, t[i].function,
                   t[i].variant);
    }
    return 0;
}
