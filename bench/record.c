/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --record -- CMD ARGS...: runs the command under libmemlane-trace.so
 * (each of its processes writes DIR/profile.<pid>), adds the profiles up
 * into DIR/profile, and hands that to the replay; and the gnuplot chart
 * of a replayed profile's sizes.
 *
 * libmemlane-trace.so is looked for in $MEMLANE_TRACE_LIB, beside the
 * memlane-bench executable (the build folder), then in ../lib from it
 * (an installed tree).
 */
#define _GNU_SOURCE
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile.h"

static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "memlane-bench: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static const char *trace_lib(void)
{
    static char path[PATH_MAX + 64];
    const char *env = getenv("MEMLANE_TRACE_LIB");
    if (env && *env) {
        if (access(env, R_OK))
            fatal("MEMLANE_TRACE_LIB=%s: %s", env, strerror(errno));
        return env;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        fatal(
            "cannot find libmemlane-trace.so (no /proc/self/exe): set MEMLANE_TRACE_LIB");
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    *slash = 0;
    snprintf(path, sizeof path, "%s/libmemlane-trace.so", exe);
    if (!access(path, R_OK))
        return path;
    snprintf(path, sizeof path, "%s/../lib/libmemlane-trace.so", exe);
    if (!access(path, R_OK))
        return path;
    fatal("cannot find libmemlane-trace.so in %s or %s/../lib: set MEMLANE_TRACE_LIB",
          exe, exe);
}

static int made_dir; /* record_dir made it: removed if nothing is recorded */

/* The folder for the profiles: --plot-dir, or a new one in TMPDIR. */
static const char *record_dir(void)
{
    if (ctx.opt.plot_dir) {
        if (mkdir(ctx.opt.plot_dir, 0777) && errno != EEXIST)
            fatal("cannot create %s: %s", ctx.opt.plot_dir, strerror(errno));
        return ctx.opt.plot_dir;
    }
    const char *tmp = getenv("TMPDIR");
    static char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/memlane-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fatal("cannot create a folder in %s: %s", tmp && *tmp ? tmp : "/tmp",
              strerror(errno));
    ctx.opt.plot_dir = dir;
    made_dir = 1;
    return dir;
}

const char *record_command(char **argv)
{
    const char *lib = trace_lib();
    const char *dir = record_dir();
    static char prefix[PATH_MAX + 16], merged[PATH_MAX + 16];
    char abs[PATH_MAX];
    if (!realpath(dir, abs))
        fatal("%s: %s", dir, strerror(errno));
    snprintf(prefix, sizeof prefix, "%s/profile", abs);

    /* Profiles of an earlier recording in the same folder would be
     * added in: refuse. */
    DIR *d = opendir(abs);
    for (struct dirent *e; d && (e = readdir(d));)
        if (!strncmp(e->d_name, "profile", 7))
            fatal("%s already holds profiles: record into another folder", abs);
    if (d)
        closedir(d);

    char *preload = NULL;
    const char *old = getenv("LD_PRELOAD");
    if (asprintf(&preload, "%s%s%s", lib, old && *old ? ":" : "", old ? old : "") < 0)
        abort();
    if (!ctx.opt.quiet)
        fprintf(stderr, "memlane-bench: recording %s (profiles in %s/)\n", argv[0], abs);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        fatal("fork: %s", strerror(errno));
    if (pid == 0) {
        setenv("MEMLANE_TRACE", prefix, 1);
        setenv("LD_PRELOAD", preload, 1);
        execvp(argv[0], argv);
        fprintf(stderr, "memlane-bench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    free(preload);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            fatal("waitpid: %s", strerror(errno));
    d = opendir(abs);
    int recorded = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        recorded |= !strncmp(e->d_name, "profile.", 8);
    if (d)
        closedir(d);
    if (!recorded) {
        if (made_dir)
            rmdir(abs);
        fatal("%s: nothing recorded (did it run? is it a static executable?)", argv[0]);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status))
        fprintf(stderr,
                "memlane-bench: %s %s %d; replaying what its processes recorded "
                "(one killed by a signal records nothing)\n",
                argv[0],
                WIFEXITED(status) ? "exited with status" : "was killed by signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));

    /* All processes' profiles in one file, for later replays. */
    struct profile *p = profile_load(prefix, NULL);
    snprintf(merged, sizeof merged, "%s", prefix);
    int err = profile_save(merged, p);
    if (err)
        fatal("cannot write %s: %s", merged, strerror(err));
    if (!ctx.opt.quiet)
        fprintf(stderr, "memlane-bench: %u process%s recorded; their profile: %s\n",
                p->files, p->files == 1 ? "" : "es", merged);
    profile_free(p);
    return merged;
}

void workload_chart(void)
{
    if (!ctx.opt.plot_dir)
        return;
    char script[PATH_MAX + 64];
    snprintf(script, sizeof script, "%s/workload-sizes.gp", ctx.opt.plot_dir);
    FILE *out = fopen(script, "w");
    if (!out) {
        fprintf(stderr, "memlane-bench: cannot write %s: %s\n", script, strerror(errno));
        return;
    }
    /* workload-sizes.dat (bench/workload.c): from, to, label, % per function. */
    fprintf(
        out,
        "# memlane-bench: the recorded size distribution, %% of each function's calls\n"
        "# by size class.  gnuplot workload-sizes.gp\n"
        "set terminal pngcairo size 1000,500 noenhanced\n"
        "set output 'workload-sizes.png'\n"
        "set style data histograms\n"
        "set style histogram clustered gap 1\n"
        "set style fill solid 0.8 border -1\n"
        "set ylabel '%% of the calls'\n"
        "set xlabel 'size (bytes)'\n"
        "set xtics rotate by -45\n"
        "set key top right\n"
        "set grid ytics\n"
        "plot for [c=4:*] 'workload-sizes.dat' using c:xtic(3) title columnheader(c)\n");
    fclose(out);
    const char *gp = getenv("GNUPLOT");
    char cmd[2 * PATH_MAX + 128];
    snprintf(
        cmd, sizeof cmd,
        "command -v %s >/dev/null 2>&1 && cd '%s' && %s workload-sizes.gp 2>/dev/null",
        gp ? gp : "gnuplot", ctx.opt.plot_dir, gp ? gp : "gnuplot");
    if (system(cmd) == 0)
        printf("chart: %s/workload-sizes.png\n", ctx.opt.plot_dir);
    else
        printf("chart: install gnuplot (apt-get install gnuplot-nox), then: cd %s && "
               "gnuplot "
               "workload-sizes.gp\n",
               ctx.opt.plot_dir);
}
