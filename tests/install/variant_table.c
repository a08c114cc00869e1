/* SPDX-License-Identifier: BSD-2-Clause */
/* Prints the library's compiled variant table, "function variant ML_LEVEL"
 * per line, to compare with the one memlane(7) was generated from. */
#include <stdio.h>

#include "internal.h"

int main(void)
{
    static const char *const level_macro[ML_NLEVELS] = {[ML_GENERIC] = "ML_GENERIC",
                                                        [ML_SSE2] = "ML_SSE2",
                                                        [ML_AVX2] = "ML_AVX2",
                                                        [ML_AVX512] = "ML_AVX512"};
    unsigned n;
    const struct ml_function *f = ml_functions(&n);
    for (unsigned i = 0; i < n; i++)
        for (unsigned v = 0; v < f[i].nvariants; v++)
            printf("%s %s %s\n", f[i].name, f[i].variants[v].name,
                   level_macro[f[i].variants[v].level]);
    return 0;
}
