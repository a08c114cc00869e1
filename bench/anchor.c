/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linked first (mk/bench.mk): this page-aligned function starts the
 * .text input of the tool, and the library follows it, so memlane's code
 * sits at the same offsets within pages and cache lines whatever the size
 * of the tool's own code: an edit of the tool must not move a variant's
 * loop across a cache line (docs/benchmarking.md, "How it measures").
 */
void bench_text_anchor(void);

__attribute__((aligned(4096), used)) void bench_text_anchor(void) {}
