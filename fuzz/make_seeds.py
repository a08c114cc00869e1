#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Write the seed corpus fuzz/corpus/ for fuzz_memlane.c (deterministic).

Each seed follows the input layout described at the top of fuzz_memlane.c:
every function, lengths around the block sizes of 8/16/32/64-byte code,
every placement, varied misalignment, and differences at the first, the
last and a middle byte with the byte pairs that catch signed compares.
Run from the repository root; it replaces the seed files it owns.
"""
import os
import struct

FUNCS = 6  # memset, memset_explicit, memcmp, bcmp, timingsafe_bcmp, timingsafe_memcmp
SET_FUNCS = {0, 1}
LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65,
           95, 127, 128, 129, 255, 256, 257, 511, 1000, 4096, 4101, 57343,
           1 << 20, 2047 * 2048 + 63]
PAIRS = [(0x80, 0x7f), (0x00, 0xff), (0x01, 0x00), (0xff, 0xfe)]


def decode_len(code):
    cls = code >> 14
    if cls == 0:
        return code & 63
    if cls == 1:
        return code & 511
    if cls == 2:
        return code & 8191
    if code & 0x3800 != 0x3800:
        return (code & 0x3fff) * 4 + (code & 3)
    return (code & 0x7ff) * 2048 + (code & 63)


CODE_OF = {}
for c in range(65536):
    CODE_OF.setdefault(decode_len(c), c)


def seed(func, variant, n, place, align_a, align_b, c, edits, payload):
    out = bytes([func, variant]) + struct.pack('<H', CODE_OF[n])
    out += bytes([place, align_a, align_b]) + struct.pack('<i', c)
    out += bytes([len(edits)])
    for pos, va, vb in edits:
        out += struct.pack('<I', pos)[:3] + bytes([va, vb])
    return out + payload


def main():
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if f.startswith('seed-'):
            os.remove(os.path.join(d, f))
    count = 0
    for func in range(FUNCS):
        for i, n in enumerate(LENGTHS):
            variant = i % 5
            place = (i * 5 + func) % 32
            align_a, align_b = (i * 7) % 64, (i * 13 + func) % 64
            fills = [0, 0xff, -1, 0x1234567f, 0x80]
            c = fills[i % len(fills)]
            edits = []
            if func not in SET_FUNCS and n:
                va, vb = PAIRS[i % len(PAIRS)]
                where = [n - 1, 0, n // 2][i % 3]
                edits.append((where, va, vb))
                if where + 1 < n:   # a later, opposite difference
                    edits.append((n - 1, vb, va))
            payload = bytes((j * 37 + i) & 0xff for j in range(i % 9))
            data = seed(func, variant, n, place, align_a, align_b, c, edits,
                        payload)
            name = 'seed-f%d-n%d' % (func, n)
            with open(os.path.join(d, name), 'wb') as fh:
                fh.write(data)
            count += 1
    print('wrote %d seeds to %s' % (count, d))


if __name__ == '__main__':
    main()
