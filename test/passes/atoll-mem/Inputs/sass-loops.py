#!/usr/bin/env python3
"""Counts the loops ptxas left in an sm_90 cubin: per kernel (.text.<name> section),
the backward branches (BRA, opcode 0x947, with a negative offset: bit 63 of the
first 64-bit word), leaving out the self-loop that follows EXIT. Prints
"<kernel> <count>" per kernel, sorted by name. Used where cuobjdump is absent."""
import struct
import sys

BRA = 0x947
SELF_LOOP = 0xFFFFFFFC00FC7947  # BRA to itself, after the kernel's last EXIT


def sections(path):
    data = open(path, 'rb').read()
    if data[:4] != b'\x7fELF' or data[4] != 2:
        sys.exit(f'{path}: not a 64-bit ELF cubin')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    heads = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
    strtab = heads[shstrndx][4]
    for name, _typ, _flags, _addr, off, size in heads:
        end = data.index(b'\0', strtab + name)
        yield data[strtab + name:end].decode(), data[off:off + size]


def main():
    counts = {}
    for name, text in sections(sys.argv[1]):
        if not name.startswith('.text.'):
            continue
        n = 0
        for i in range(0, len(text) - 15, 16):
            lo, = struct.unpack_from('<Q', text, i)
            if lo & 0xfff == BRA and lo >> 63 and lo != SELF_LOOP:
                n += 1
        counts[name[len('.text.'):]] = n
    for name in sorted(counts):
        print(name, counts[name])


if __name__ == '__main__':
    main()
