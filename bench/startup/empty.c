/* SPDX-License-Identifier: BSD-2-Clause */
/* An object with nothing in it, preloaded to measure what preloading any
 * object costs (bench/startup/startup.c). */
int ml_startup_empty;
