/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * memlane test runner: every variant the CPU supports, called directly,
 * plus the dispatched entry points.  Prints "N passed, N failed" last and
 * exits non-zero on any failure.
 *
 *   memlane-test [--long] [function ...]
 *     --long     wider alignment sweeps above 256 bytes
 *     function   test only these functions (default: all)
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

int main(int argc, char **argv)
{
    const char *only[16];
    int nonly = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--arch-probe"))
            return arch_probe();
        else if (!strcmp(argv[i], "--long"))
            g_long = 1;
        else if (nonly < 16 && argv[i][0] != '-')
            only[nonly++] = argv[i];
        else {
            fprintf(stderr, "usage: %s [--long] [function ... | arch]\n", argv[0]);
            return 2;
        }
    }
    if (guarded_init(&g_a, BIG_MAX) || guarded_init(&g_b, BIG_MAX)) {
        perror("mmap");
        return 2;
    }

    install_fault_handler();
    printf("memlane tests: CPU level %s, dispatch level %s\n",
           ml_level_name(ml_cpu_level()), ml_level_name(ml_selected_level()));
    struct impl impls[64];
    size_t nimpls = impls_all(impls, 64);
    for (size_t i = 0; i < nimpls; i++) {
        int wanted = nonly == 0;
        for (int k = 0; k < nonly; k++)
            wanted |= !strcmp(only[k], impls[i].function);
        if (!wanted)
            continue;
        printf("%s/%s\n", impls[i].function, impls[i].variant);
        fflush(stdout);
        if (impls[i].kind == ML_KIND_SET)
            suite_set(&impls[i]);
        else
            suite_cmp(&impls[i]);
    }
    int arch = nonly == 0;
    for (int k = 0; k < nonly; k++)
        arch |= !strcmp(only[k], "arch");
    if (arch)
        suite_arch("/proc/self/exe");

    printf("%lu passed, %lu failed\n", cases_passed, cases_failed);
    return cases_failed ? 1 : 0;
}
