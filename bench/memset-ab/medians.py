#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""medians.py LEVEL MODE IMPL... : memset-ab rows as cycles, median over placements.

Runs build/memset-ab/ab (built by `make memset-ab AB_RUN=true`) at the four
code placements, pinned to CPU 1, with glibc forced to its code of LEVEL
(avx2, sse2; anything else: glibc's default), and prints per row the median
over the placements of glibc's TSC cycles per call and of each IMPL's, with
IMPL/glibc; '*' marks a cell 0.3 cycles or more slower than glibc.
MODE as for ab: dist, uniform:A-B, fixed:OFF:N,N,...
Environment: AB_DIR (default build/memset-ab), AB_LIBMEMLANE (default
build/libmemlane.so.0.1.0), AB_CPU (default 1).
"""
import os
import statistics as st
import subprocess
import sys

if len(sys.argv) < 4:
    sys.exit(__doc__)
lvl, mode, impls = sys.argv[1], sys.argv[2], sys.argv[3:]
hwcaps = {"avx2": "glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW",
          "sse2": "glibc.cpu.hwcaps=-AVX2,-AVX512F,-AVX512VL,-AVX512BW"}.get(lvl, "")
d = os.environ.get("AB_DIR", "build/memset-ab")
env = dict(os.environ, GLIBC_TUNABLES=hwcaps)
env.setdefault("AB_LIBMEMLANE", os.path.abspath("build/libmemlane.so.0.1.0"))
rows, order = {}, []
for k in range(4):
    out = subprocess.run(["taskset", "-c", os.environ.get("AB_CPU", "1"), f"{d}/ab", f"{d}/libab{k}.so",
                          mode, "libc"] + impls, env=env, capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines()[1:]:
        f = line.split()
        if f[0] not in rows:
            rows[f[0]] = []
            order.append(f[0])
        rows[f[0]].append([float(x) for x in f[1:2 + len(impls)]])
print("%-10s %8s" % ("row", "glibc") + "".join(" %16s" % i for i in impls))
for r in order:
    lib = st.median(x[0] for x in rows[r])
    line = "%-10s %8.2f" % (r, lib)
    for j in range(len(impls)):
        m = st.median(x[j + 1] for x in rows[r])
        line += " %8.2f %6.3f%s" % (m, m / lib, "*" if m - lib >= 0.3 else " ")
    print(line)
