/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Warnings of the library (a bad MEMLANE_ARCH, a malformed tunable): one
 * line on stderr, with write(2) rather than stdio, which may call memset
 * and memcmp -- memlane's own, under the drop-in.
 *
 * The value comes from whoever set the environment, so it is cut to
 * ML_WARN_VALUE_MAX bytes and every byte outside printable ASCII is
 * escaped: a value cannot forge a second line, reach the terminal as an
 * escape sequence, or make a long line.  The line goes out in one
 * write(), so it does not interleave with other output (a write of up to
 * PIPE_BUF bytes to a pipe is atomic).
 */
#include <unistd.h>

#include "internal.h"

#define ML_WARN_VALUE_MAX 64
/* Every piece but the value is the library's own, and short. */
#define ML_WARN_LINE_MAX 512

/* Appends s to the line at *len, within the buffer. */
static void put(char *line, size_t *len, const char *s)
{
    while (*s && *len < ML_WARN_LINE_MAX - 1)
        line[(*len)++] = *s++;
}

/* Appends the value, escaped and cut. */
static void put_value(char *line, size_t *len, const char *v)
{
    static const char hex[] = "0123456789abcdef";
    size_t i = 0;
    for (; i < ML_WARN_VALUE_MAX && v[i]; i++) {
        unsigned char c = (unsigned char)v[i];
        char e[5] = {'\\', 0, 0, 0, 0};
        switch (c) {
        case '\n':
            e[1] = 'n';
            break;
        case '\t':
            e[1] = 't';
            break;
        case '\r':
            e[1] = 'r';
            break;
        case '"':
        case '\\':
            e[1] = (char)c;
            break;
        default:
            if (c >= 0x20 && c < 0x7f) {
                e[0] = (char)c;
            } else {
                e[1] = 'x';
                e[2] = hex[c >> 4];
                e[3] = hex[c & 15];
            }
        }
        put(line, len, e);
    }
    if (v[i])
        put(line, len, "...");
}

void ml_warn_line(const char *const *parts, unsigned count, unsigned value_index)
{
    char line[ML_WARN_LINE_MAX];
    size_t len = 0;
    for (unsigned i = 0; i < count; i++) {
        if (i == value_index)
            put_value(line, &len, parts[i]);
        else
            put(line, &len, parts[i]);
    }
    if (len == 0 || line[len - 1] != '\n')
        line[len++] = '\n'; /* cut short: still one whole line */
    ssize_t r = write(2, line, len);
    (void)r;
}
