/* SPDX-License-Identifier: BSD-2-Clause */
/* memlane_version: the library's version, from the header's macros (the
 * one place the version number is written; the Makefile reads it there). */
#include "memlane.h"

__attribute__((__visibility__("default"))) const char *memlane_version(void)
{
    return MEMLANE_VERSION_STRING;
}
