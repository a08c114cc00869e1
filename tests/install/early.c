/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Start-up under the drop-in (tests/install/run.sh): calls memset, memcmp,
 * bcmp and explicit_bzero from the executable's .preinit_array, which runs
 * before every constructor (libc's and libmemlane-preload.so's included),
 * then checks the results in main and names the file each of the seven
 * standard names resolves to (early_calls.h).  glibc only: musl runs no
 * .preinit_array (early_lib.c is its way).
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "early_calls.h"

static int early_done;

static void early(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    early_make_calls();
    early_done = 1;
    static const char marker[] = "memlane-early: calls done\n";
    ssize_t r = write(2, marker, sizeof marker - 1);
    (void)r;
}

__attribute__((section(".preinit_array"),
               used)) static void (*const early_entry)(int, char **, char **) = early;

int main(void)
{
    if (!early_done) {
        printf("FAILED: the .preinit_array entry did not run\n");
        return 1;
    }
    return early_report();
}
