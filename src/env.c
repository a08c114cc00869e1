/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The process environment for the library's own settings (MEMLANE_ARCH,
 * the memset tunables), also where libc's getenv cannot see it yet; and
 * the secure-execution rule: in a setuid, setgid or file-capability
 * program (AT_SECURE) every MEMLANE_* variable is ignored, silently, as
 * glibc ignores its tunables there.
 *
 * This code runs in IFUNC resolvers, possibly before libc is initialised
 * (in a static executable, before thread-local storage exists), so it
 * calls nothing from libc until libc's start-up is known to have run.
 */
#include <stdint.h>

#include "internal.h"

/* getauxval: glibc 2.16, musl, bionic; elsewhere the ID comparison. */
#if defined(__linux__)
#include <sys/auxv.h>
#define ML_HAVE_GETAUXVAL 1
#endif
#ifndef ML_HAVE_GETAUXVAL
#include <unistd.h>
#endif
#ifndef AT_SECURE
#define AT_SECURE 23 /* the ELF auxiliary vector's tag (Linux, FreeBSD differ) */
#endif
#ifndef AT_NULL
#define AT_NULL 0
#endif

/*
 * All weak: a libc without one of them (or a copy of this code whose GOT
 * the loader has not filled in yet, where each reads as NULL) leaves the
 * answer "cannot tell yet", and the callers select again later.
 *  - environ: set by libc's start-up (or cleared by clearenv).
 *  - __libc_stack_end: glibc's loader exports the process's initial stack
 *    pointer: argc, argv[0..argc-1], NULL, the environment, NULL, then
 *    the auxiliary vector (tag, value pairs up to AT_NULL).
 *  - program_invocation_name (glibc, musl): libc's start-up sets it to
 *    argv[0]; until then glibc's is "" and musl's NULL.  It tells whether
 *    libc has started, which `environ` cannot: NULL there may also mean
 *    that the program cleared its environment.
 */
extern char **environ __attribute__((weak));
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c): glibc's name
extern void *__libc_stack_end __attribute__((weak));
extern char *program_invocation_name __attribute__((weak));

/* The initial stack as the kernel laid it out, found through
 * __libc_stack_end; NULL if there is none or it does not look like one. */
static const long *initial_stack(void)
{
    void **stack_end_ref = &__libc_stack_end;
    if (!stack_end_ref || !*stack_end_ref)
        return NULL;
    const long *sp = *stack_end_ref;
    long argc = sp[0];
    /* The layout check keeps a foreign stack layout from being read as
     * an environment. */
    if (argc < 0 || argc > (1L << 24) || sp[1 + argc] != 0)
        return NULL;
    return sp;
}

/* Whether libc's start-up has run: 1 yes, 0 not yet, -1 cannot tell. */
static int libc_started(const long *sp)
{
    char **name_ref = &program_invocation_name;
    if (!name_ref)
        return -1;
    const char *name = *name_ref;
    if (!name)
        return 0; /* musl, before start-up */
    if (*name)
        return 1;
    /* "": glibc before start-up, or an empty argv[0] (which libc then
     * points to: a string on the initial stack). */
    return sp && sp[0] > 0 && (const char *)sp[1] == name;
}

/* AT_SECURE from the auxiliary vector that follows an environment array
 * still as the kernel laid it out: 1 or 0; 1 also when the vector does
 * not look like one (ignoring the variables is the safe side). */
static int secure_after(char *const *env)
{
    unsigned long n = 0;
    while (env[n])
        if (++n > (1UL << 24))
            return 1;
    const unsigned long *aux = (const unsigned long *)(const void *)(env + n + 1);
    for (unsigned i = 0; i < 256 && aux[2 * i] != AT_NULL; i++)
        if (aux[2 * i] == AT_SECURE)
            return aux[2 * i + 1] != 0;
    return 1;
}

/* 1 in a secure-execution process, 0 if not, -1 if it cannot be told
 * yet.  Once known it is kept: it cannot change. */
static int secure_execution(char **env, int started, const long *sp)
{
    static int known; /* 0 unknown, 1 not secure, 2 secure */
    int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (k)
        return k - 1;
    int secure;
    /* An environ array still the kernel's lies on the initial stack,
     * above this frame; one that setenv replaced is on the heap. */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (env && started == 0 &&
        ((uintptr_t)env < here || (uintptr_t)env - here > (1UL << 26)))
        started = -1; /* libc must be up (an empty argv[0] hid it) */
    if (started != 0) {
        /* libc is up (or this libc does not say): ask it. */
#ifdef ML_HAVE_GETAUXVAL
        secure = getauxval(AT_SECURE) != 0;
#else
        secure = getuid() != geteuid() || getgid() != getegid();
#endif
    } else if (env) {
        /* Start-up: nothing can have replaced the kernel's array yet.
         * glibc's static start-up sets environ before IFUNC resolvers. */
        secure = secure_after(env);
    } else if (sp) {
        secure = secure_after((char *const *)(const void *)(sp + 2 + sp[0]));
    } else {
        return -1;
    }
    __atomic_store_n(&known, secure + 1, __ATOMIC_RELAXED);
    return secure;
}

char **ml_environ(void)
{
    /* What a secure-execution process sees, and one that cleared its
     * environment: no variables. */
    static char *no_variables[1];

    char ***environ_ref = &environ;
    if (!environ_ref)
        return NULL;
    char **env = *environ_ref;
    const long *sp = env ? NULL : initial_stack();
    int started = libc_started(sp);
    int secure = secure_execution(env, started, sp);
    if (secure < 0)
        return NULL;
    if (secure)
        return no_variables;
    if (env)
        return env;
    /* The initial stack only before libc's start-up: after it, a NULL
     * environ is a cleared environment (clearenv), not one to look for. */
    if (started == 0 && sp)
        return (char **)(void *)(sp + 2 + sp[0]);
    return started == 1 ? no_variables : NULL;
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
