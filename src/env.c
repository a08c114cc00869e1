/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The process environment for the library's own settings (MEMLANE_ARCH,
 * the memset tunables), also where libc's getenv cannot see it yet.
 */
#include "internal.h"

/*
 * The environment, also before libc's start-up set `environ`: a call
 * from an executable's .preinit_array, or an IFUNC resolver run while
 * the dynamic loader relocates objects, comes before that.  glibc's
 * loader exports __libc_stack_end, the process's initial stack pointer:
 * argc, then argv[0..argc-1] and NULL, then the environment and NULL.
 * Both references are weak, and their GOT slots are still zero in a copy
 * of this code that the loader has not relocated yet, which then sees no
 * environment (the callers fall back to selecting later).  NULL when the
 * environment cannot be found.
 */
extern char **environ __attribute__((weak));
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c): glibc's name
extern void *__libc_stack_end __attribute__((weak));

char **ml_environ(void)
{
    char ***environ_ref = &environ;
    char **env = environ_ref ? *environ_ref : NULL;
    if (env)
        return env;
    void **stack_end_ref = &__libc_stack_end;
    if (!stack_end_ref || !*stack_end_ref)
        return NULL;
    const long *sp = *stack_end_ref;
    long argc = sp[0];
    /* The layout check keeps a foreign stack layout from being read as
     * an environment. */
    if (argc < 0 || argc > (1L << 24) || sp[1 + argc] != 0)
        return NULL;
    return (char **)(void *)(sp + 2 + argc);
}

/* getenv over an explicit environment (getenv itself reads `environ`). */
const char *ml_env_get(char **env, const char *name)
{
    for (; env && *env; env++) {
        const char *e = *env, *n = name;
        while (*n && *e == *n)
            e++, n++;
        if (!*n && *e == '=')
            return e + 1;
    }
    return NULL;
}
