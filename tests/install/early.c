/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Start-up under the drop-in (tests/install/run.sh): calls memset, memcmp,
 * bcmp and explicit_bzero from the executable's .preinit_array, which runs
 * before every constructor (libc's and libmemlane-preload.so's included),
 * then checks the results in main and names the file each of the seven
 * standard names resolves to.  Built with -fno-builtin so every call is a
 * real call through the PLT.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned char buf[100], zero_me[40];
static int cmp_lt, cmp_eq, bcmp_ne, early_done;
static void *set_ret;

static void early(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    static const unsigned char x[3] = {1, 2, 3}, y[3] = {1, 2, 9};

    set_ret = memset(buf, 0xa5, sizeof buf);
    cmp_lt = memcmp(x, y, 3);
    cmp_eq = memcmp(x, y, 2);
    bcmp_ne = bcmp(x, y, 3);
    for (size_t i = 0; i < sizeof zero_me; i++)
        zero_me[i] = (unsigned char)(i + 1);
    explicit_bzero(zero_me, sizeof zero_me);
    early_done = 1;
    static const char marker[] = "memlane-early: calls done\n";
    ssize_t r = write(2, marker, sizeof marker - 1);
    (void)r;
}

__attribute__((section(".preinit_array"),
               used)) static void (*const early_entry)(int, char **, char **) = early;

int main(void)
{
    int bad = !early_done || set_ret != buf || cmp_lt >= 0 || cmp_eq != 0 || bcmp_ne == 0;
    for (size_t i = 0; i < sizeof buf; i++)
        bad |= buf[i] != 0xa5;
    for (size_t i = 0; i < sizeof zero_me; i++)
        bad |= zero_me[i] != 0;

    static const char *const names[] = {"memset",
                                        "memcmp",
                                        "bcmp",
                                        "timingsafe_bcmp",
                                        "timingsafe_memcmp",
                                        "explicit_bzero",
                                        "memset_explicit"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        Dl_info info;
        void *p = dlsym(RTLD_DEFAULT, names[i]);
        printf("%s from %s\n", names[i],
               p && dladdr(p, &info) && info.dli_fname ? info.dli_fname : "(none)");
    }
    printf("%s\n", bad ? "FAILED" : "ok");
    return bad;
}
