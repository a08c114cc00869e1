#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""bench-programs: real programs with and without memlane's LD_PRELOAD drop-in.

Each program runs on input generated here, in alternating pairs (without,
with, without, with, ...; the order inside a pair alternates too), and the
script prints per program the ratio of wall times with / without the
drop-in: the median over the pairs and a ~95 % confidence interval of the
median (order statistics), plus the median times.  Given several drop-ins
(--preload more than once: the same library at different code placements,
as `make bench-programs` builds them), pair i runs the (i mod N)-th, the
order flips every N pairs, and the line also shows each placement's
median ratio.  The outputs of all runs must be identical (compared by
SHA-256), else the program is reported as FAILED and the exit status is 1.

With --replay BENCH it times nothing itself: each program runs once under
memlane-bench's --record (BENCH --record --plot-dir=WORKDIR/replay-NAME
[--bench-args] -- PROGRAM, its output discarded), which records the calls
the program makes and replays them on every implementation
(docs/workloads.md).

Needs: python3 (this script) and, per program, the tool named in --list; a
program whose tool is missing is skipped with a line saying so.  Install
them all on Debian with
    apt-get install coreutils python3 zstd git sqlite3 perl

    run.py [--preload SO]... [--pairs N] [--cpu N] [--only a,b] [--workdir DIR]
           [--scale X] [--dry-run] [--list] [--replay BENCH [--bench-args ARGS]]
"""

import argparse
import hashlib
import math
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ---- input generators (deterministic: seeded) ----


def gen_sort_input(path, scale):
    """Lines with long shared prefixes (paths, log-like records), so sort's
    comparisons are memcmp calls over tens of bytes."""
    rnd = random.Random(1)
    dirs = ["/usr/share/doc/package-%03d/examples/" % i for i in range(200)]
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "lambda"]
    n = int(300000 * scale)
    with open(path, "w") as f:
        for _ in range(n):
            d = rnd.choice(dirs)
            w = rnd.choice(words)
            f.write("%s%s-%08d.%s\n" % (d, w, rnd.randrange(10**8), rnd.choice(("c", "h", "txt"))))


PY_PROGRAM = r"""
import random, sys
rnd = random.Random(2)
scale = float(sys.argv[1])
# bytes comparisons: sort byte strings with long common prefixes, then
# dictionary and equality look-ups of equal-length keys (memcmp / bcmp)
prefix = b"record:" + b"x" * 40
keys = [prefix + b"%012d" % rnd.randrange(10**12) for _ in range(int(100000 * scale))]
keys.sort()
table = {k: i for i, k in enumerate(keys)}
hits = sum(1 for k in keys[::3] if table.get(bytes(k)) is not None)
eq = sum(1 for a, b in zip(keys, keys[1:]) if a[:40] == b[:40])
# fills: bytes(n) and bytearray(n) zero their buffers (memset), of many sizes
total = 0
for i in range(int(150000 * scale)):
    n = (i * 37) % 4096
    total += len(bytes(n)) + len(bytearray(n))
buf = bytearray(1 << 20)
for i in range(int(1000 * scale)):
    buf[:] = bytes(len(buf))
print(len(keys), hits, eq, total, sum(buf[::4096]))
"""


def fresh_dir(dirpath):
    """An empty directory: inputs left in a reused --workdir by an earlier run
    (another --scale, a repository with that run's commits) must not pile up.
    Only a directory this script made (its marker file beside it) is removed;
    another one of that name stops the run."""
    marker = os.path.join(os.path.dirname(dirpath), "." + os.path.basename(dirpath) + ".memlane-programs")
    if os.path.lexists(dirpath):
        if not os.path.exists(marker) and not (os.path.isdir(dirpath) and not os.listdir(dirpath)):
            sys.exit("bench-programs: %s exists and was not made by this script: remove it "
                     "or choose another --workdir" % dirpath)
        shutil.rmtree(dirpath)
    os.makedirs(dirpath)
    open(marker, "w").close()


def gen_zstd_input(dirpath, scale):
    """Many small files: every file resets the compressor's tables (memset)."""
    rnd = random.Random(3)
    fresh_dir(dirpath)
    words = [("w%d" % i).encode() for i in range(500)]
    for i in range(int(3000 * scale)):
        size = rnd.randrange(200, 6000)
        out = bytearray()
        while len(out) < size:
            out += rnd.choice(words) + b" "
        with open(os.path.join(dirpath, "f%04d.txt" % i), "wb") as f:
            f.write(out)


def gen_git_repo(dirpath, scale):
    """A repository with a few thousand files and a history of edits."""
    rnd = random.Random(4)
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.org",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.org",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    git = ["git", "-C", dirpath, "-c", "init.defaultBranch=main", "-c", "gc.auto=0"]
    fresh_dir(dirpath)
    subprocess.run(["git", "init", "-q", dirpath], check=True, env=env)
    nfiles = int(1500 * scale)
    for i in range(nfiles):
        sub = os.path.join(dirpath, "d%02d" % (i % 40))
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, "f%05d.c" % i), "w") as f:
            for j in range(40):
                f.write("int f%d_%d(int x) { return x * %d + %d; }\n" % (i, j, rnd.randrange(100), j))
    subprocess.run(git + ["add", "-A"], check=True, env=env)
    subprocess.run(git + ["commit", "-q", "-m", "initial"], check=True, env=env)
    for c in range(int(30 * scale)):
        for _ in range(50):
            i = rnd.randrange(nfiles)
            p = os.path.join(dirpath, "d%02d" % (i % 40), "f%05d.c" % i)
            with open(p, "a") as f:
                f.write("/* edit %d */\n" % c)
        subprocess.run(git + ["commit", "-q", "-am", "edit %d" % c], check=True, env=env)
    subprocess.run(git + ["gc", "-q"], check=True, env=env)


SQL_SETUP = """
PRAGMA journal_mode=OFF;
PRAGMA synchronous=OFF;
CREATE TABLE t(k BLOB PRIMARY KEY, v TEXT) WITHOUT ROWID;
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < {n})
INSERT INTO t SELECT CAST('key-with-a-long-common-prefix-' || printf('%012d', (i * 7919) % {n}) AS BLOB),
                     printf('%0200d', i) FROM c;
CREATE INDEX tv ON t(v);
SELECT count(*), sum(length(v)) FROM t WHERE k > CAST('key-with-a-long-common-prefix-000000050000' AS BLOB);
SELECT count(DISTINCT substr(v, 1, 190)) FROM t;
"""


class Program:
    def __init__(self, name, tools, what, setup, argv):
        self.name, self.tools, self.what = name, tools, what
        self.setup, self.argv = setup, argv

    def missing(self):
        return [t for t in self.tools if shutil.which(t) is None]


def programs(work, scale):
    py = sys.executable or shutil.which("python3")

    def sort_setup():
        gen_sort_input(os.path.join(work, "sort.txt"), scale)

    def py_setup():
        with open(os.path.join(work, "prog.py"), "w") as f:
            f.write(PY_PROGRAM)

    def zstd_setup():
        gen_zstd_input(os.path.join(work, "zstd-in"), scale)

    def git_setup():
        gen_git_repo(os.path.join(work, "repo"), scale)

    def sql_setup():
        with open(os.path.join(work, "db.sql"), "w") as f:
            f.write(SQL_SETUP.format(n=int(50000 * scale)))

    zfiles = lambda: sorted(os.path.join(work, "zstd-in", f) for f in os.listdir(os.path.join(work, "zstd-in")))
    return [
        Program("sort", ["sort"], "GNU sort, LC_ALL=C (memcmp per comparison) of %d lines" % int(300000 * scale),
                sort_setup, lambda: ["env", "LC_ALL=C", "sort", "-S", "256M", os.path.join(work, "sort.txt")]),
        Program("python", [py], "Python: sort/dict/== of bytes keys (memcmp, bcmp), bytes(n)/bytearray(n) fills (memset)",
                py_setup, lambda: [py, "-S", os.path.join(work, "prog.py"), str(scale)]),
        Program("zstd", ["zstd"], "zstd -3 of %d small files to stdout (table resets: memset)" % int(3000 * scale),
                zstd_setup, lambda: ["zstd", "-q", "-3", "-c"] + zfiles()),
        Program("git", ["git"], "git status, log -p, diff --stat over a generated repository (hash, index and buffer compares)",
                git_setup, lambda: ["sh", "-c", 'cd "$1" && git status --porcelain && git log -p --no-color && git diff --stat "$(git rev-list --max-parents=0 HEAD)" HEAD',
                                    "sh", os.path.join(work, "repo")]),
        Program("sqlite3", ["sqlite3"], "sqlite3: %d-row WITHOUT ROWID table on a blob key, index, scans (memcmp, memset)" % int(50000 * scale),
                sql_setup, lambda: ["sh", "-c", 'rm -f "$1/db" && sqlite3 "$1/db" < "$1/db.sql"', "sh", work]),
    ]


def run_once(argv, env, out_path):
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        r = subprocess.run(argv, env=env, stdout=out, stderr=subprocess.PIPE)
        t1 = time.perf_counter()
    if r.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (argv[0], r.returncode, r.stderr.decode(errors="replace")[-300:]))
    return t1 - t0


def median_ci(values):
    """Median and a distribution-free ~95 % confidence interval for it
    (order statistics from the binomial(n, 1/2); the whole range if n < 6)."""
    v = sorted(values)
    n = len(v)
    med = statistics.median(v)
    if n < 6:
        return med, v[0], v[-1]
    # largest k with P(Bin(n, .5) < k) <= 0.025: interval (v[k-1], v[n-k])
    k, cum = 0, 0.0
    while True:
        p = math.comb(n, k) / 2.0**n
        if cum + p > 0.025:
            break
        cum += p
        k += 1
    k = max(k, 1)
    return med, v[k - 1], v[n - k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preload", action="append", default=[],
                    help="the drop-in; more than once: placements taken in turns by the pairs")
    ap.add_argument("--pairs", type=int, default=15)
    ap.add_argument("--cpu", type=int, default=None, help="pin this script and the programs to CPU N")
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--workdir", default=None, help="where inputs go (default: a temporary directory)")
    ap.add_argument("--scale", type=float, default=1.0, help="input size factor")
    ap.add_argument("--dry-run", action="store_true", help="list what would run, run nothing")
    ap.add_argument("--list", action="store_true", help="list the programs and what they need")
    ap.add_argument("--replay", metavar="BENCH", default=None,
                    help="record each program with BENCH --record (memlane-bench) and print its replay")
    ap.add_argument("--bench-args", default="", help="more options for BENCH, as one string")
    a = ap.parse_args()
    preloads = [os.path.abspath(f) for f in a.preload] or \
        [os.path.abspath(os.path.join(HERE, "..", "..", "build", "libmemlane-preload.so"))]

    work = a.workdir or tempfile.mkdtemp(prefix="memlane-programs-")
    os.makedirs(work, exist_ok=True)
    progs = programs(work, a.scale)
    if a.only:
        names = a.only.split(",")
        unknown = [n for n in names if n not in [p.name for p in progs]]
        if unknown:
            ap.error("unknown program(s): %s" % ",".join(unknown))
        progs = [p for p in progs if p.name in names]
    if a.list or a.dry_run:
        for p in progs:
            miss = p.missing()
            print("%-8s %s; needs %s%s" % (p.name, p.what, ", ".join(p.tools),
                                           " (MISSING: skipped)" if miss else ""))
        if a.dry_run and a.replay:
            print("would record and replay each with %s --record %s" % (a.replay, a.bench_args))
        elif a.dry_run:
            print("would run %d pairs each with and without LD_PRELOAD=%s" % (a.pairs, " or ".join(preloads)))
        if not a.workdir:
            os.rmdir(work)
        return 0

    if a.replay:
        status = replay(progs, work, a.replay, shlex.split(a.bench_args))
        if not a.workdir:
            shutil.rmtree(work, ignore_errors=True)
        return status

    for preload in preloads:
        if not os.path.exists(preload):
            print("bench-programs: %s not found (make preload)" % preload, file=sys.stderr)
            return 2
    if a.cpu is not None:
        os.sched_setaffinity(0, {a.cpu})
    base_env = dict(os.environ)
    base_env.pop("LD_PRELOAD", None)
    with_envs = [dict(base_env, LD_PRELOAD=f) for f in preloads]

    print("bench-programs: wall time with LD_PRELOAD=%s / without, %d alternating pairs" % (
        " or ".join(preloads), a.pairs))
    if len(preloads) > 1:
        print("placements: %d, taken in turns; \"by placement\": the median ratio of each" % len(preloads))
    print("cpu: %s; pinned: %s; date: %s" % (cpu_name(), a.cpu if a.cpu is not None else "no",
                                             time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    print("%-8s %9s %9s %7s  %-15s %-10s%s" % ("program", "without", "with", "ratio", "95% CI", "outputs",
                                               "  by placement" if len(preloads) > 1 else ""))
    status = 0
    for p in progs:
        miss = p.missing()
        if miss:
            print("%-8s skipped: %s not installed" % (p.name, ", ".join(miss)))
            continue
        outs = [os.path.join(work, p.name + ".out%d" % i) for i in (0, 1)]
        try:
            p.setup()
            argv = p.argv()
            # untimed runs: warm the page cache and check that all run
            run_once(argv, base_env, outs[0])
            untimed = []
            for env in with_envs:
                run_once(argv, env, outs[1])
                untimed.append(sha256_file(outs[1]))
        except (OSError, RuntimeError, subprocess.CalledProcessError) as e:
            print("%-8s FAILED: %s" % (p.name, e))
            status = 1
            continue
        ref = sha256_file(outs[0])
        same = all(h == ref for h in untimed)
        t_without, t_with, ratios = [], [], []
        by_placement = [[] for _ in preloads]
        for i in range(a.pairs):
            # each placement in turn; the order inside a pair flips every round
            order = [(base_env, 0), (with_envs[i % len(preloads)], 1)]
            if (i // len(preloads)) % 2:
                order.reverse()
            t = {}
            for env, k in order:
                t[k] = run_once(argv, env, outs[k])
                same = same and sha256_file(outs[k]) == ref
            t_without.append(t[0])
            t_with.append(t[1])
            ratios.append(t[1] / t[0])
            by_placement[i % len(preloads)].append(t[1] / t[0])
        med, lo, hi = median_ci(ratios)
        if not same:
            status = 1
        per = "  " + " ".join("%.3f" % statistics.median(r) for r in by_placement if r) \
            if len(preloads) > 1 else ""
        print("%-8s %8.3fs %8.3fs %7.3f  [%.3f, %.3f]  %-10s%s" % (
            p.name, statistics.median(t_without), statistics.median(t_with), med, lo, hi,
            "identical" if same else "DIFFER: FAILED", per))
        sys.stdout.flush()
    if not a.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return status


def replay(progs, work, bench, bench_args):
    """Each program recorded and replayed by memlane-bench --record; its
    profile and chart stay in WORKDIR/replay-NAME."""
    status = 0
    for p in progs:
        miss = p.missing()
        if miss:
            print("%s skipped: %s not installed" % (p.name, ", ".join(miss)))
            continue
        p.setup()
        out = os.path.join(work, "replay-" + p.name)
        shutil.rmtree(out, ignore_errors=True)
        # sh execs the program with its output discarded: the replay's
        # tables stay readable, and sh itself records nothing (exec).
        cmd = [bench, "--record", "--plot-dir=" + out] + bench_args + \
              ["--", "sh", "-c", 'exec "$@" >/dev/null', "sh"] + p.argv()
        shown = cmd if len(cmd) < 24 else cmd[:20] + ["... (%d more)" % (len(cmd) - 20)]
        print("==> %s: %s" % (p.name, " ".join(shlex.quote(c) for c in shown)))
        sys.stdout.flush()
        r = subprocess.run(cmd)
        if r.returncode != 0:
            print("%s FAILED: %s exited %d" % (p.name, bench, r.returncode))
            status = 1
        print()
        sys.stdout.flush()
    return status


def cpu_name():
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return "%s (family %s model %s)" % (info.get("model name", "unknown"), info.get("cpu family", "?"),
                                        info.get("model", "?"))


if __name__ == "__main__":
    sys.exit(main())
