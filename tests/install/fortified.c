/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program built with _FORTIFY_SOURCE=2 (tests/install/run.sh): its
 * memset and explicit_bzero of a buffer whose size the compiler knows,
 * with a length it does not, become calls to __memset_chk and
 * __explicit_bzero_chk.  `fortified N` clears N bytes of a 64-byte
 * buffer both ways and prints the buffer's checksum; N > 64 must end in
 * glibc's "buffer overflow detected" abort, with or without the drop-in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    size_t n = strtoul(argv[1], NULL, 10);
    /* One object: _FORTIFY_SOURCE=2 checks against the whole object. */
    unsigned char buf[64];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 7 + 1);
    memset(buf, 0x5a, n);
    unsigned long sum = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        sum = sum * 31 + buf[i];
    explicit_bzero(buf, n / 2);
    for (size_t i = 0; i < sizeof buf; i++)
        sum = sum * 31 + buf[i];
    printf("%lu\n", sum);
    return 0;
}
