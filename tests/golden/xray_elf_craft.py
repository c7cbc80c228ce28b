#!/usr/bin/env python3
"""Crafted and hostile variants of an XRay-instrumented ELF file.

usage: xray_elf_craft.py SAMPLE OUT_DIR

SAMPLE is tests/data/xray/fdr-calls/instrmap.elf (x86-64, 5 functions,
11 sleds, a 5-symbol .symtab). Writes OUT_DIR/CASE.elf for every case and
OUT_DIR/cases.txt listing them. The same sample always gives the same
files, so tests/data/xray/instrmap/crafted.tsv holds what llvm-xray 14
printed for each (tests/golden/xray_extract.sh compares):

  sym-*     the symbol table replaced (llvm-symbolizer's choice of a name:
            ties, types, sections, sizes, unreadable names)
  rel-*     version-1 sleds whose address fields are zero, resolved by
            relocations in an added SHT_RELA section (RELATIVE, 64 with a
            symbol, PC64, two at one place, some fields left unrelocated)
  bad-*     hostile files: cut short, header and section fields broken,
            huge counts and sizes, sled kinds and versions out of range
  flip-*    a few random bytes changed in the headers, the map or the
            symbol table (a generator seeded per case)
"""
import os
import random
import struct
import sys

SHDR = '<IIQQQQIIQQ'  # name type flags addr offset size link info align entsize


class Elf:
    def __init__(self, data):
        self.b = bytearray(data)
        self.shoff, = struct.unpack_from('<Q', self.b, 0x28)
        self.shnum, self.shstrndx = struct.unpack_from('<HH', self.b, 0x3c)

    def sh(self, i):
        return list(struct.unpack_from(SHDR, self.b, self.shoff + 64 * i))

    def put_sh(self, i, v):
        struct.pack_into(SHDR, self.b, self.shoff + 64 * i, *v)

    def name(self, i):
        strtab = self.sh(self.shstrndx)
        o = strtab[4] + self.sh(i)[0]
        return self.b[o:self.b.index(b'\0', o)].decode()

    def find(self, name=None, type_=None):
        for i in range(self.shnum):
            if (name is None or self.name(i) == name) and (type_ is None or self.sh(i)[1] == type_):
                return i
        raise KeyError(name or type_)

    def append(self, data):
        self.b += bytes((-len(self.b)) % 8)
        off = len(self.b)
        self.b += data
        return off

    def add_section(self, v):
        """Moves the section table to the end with one more entry."""
        shs = [self.sh(i) for i in range(self.shnum)] + [v]
        self.b += bytes((-len(self.b)) % 8)
        self.shoff = len(self.b)
        for s in shs:
            self.b += struct.pack(SHDR, *s)
        struct.pack_into('<Q', self.b, 0x28, self.shoff)
        self.shnum += 1
        struct.pack_into('<H', self.b, 0x3c, self.shnum)


TYPES = {'notype': 0, 'object': 1, 'func': 2, 'section': 3, 'file': 4, 'tls': 6, 'ifunc': 10}
BINDS = {'local': 0, 'global': 1, 'weak': 2}


def with_symbols(e, specs):
    """specs: (name, value, size, type, bind, shndx); name None: an st_name
    past the string table."""
    symi = e.find(type_=2)
    stri = e.sh(symi)[6]
    strtab, syms = bytearray(b'\0'), bytearray(24)
    for name, value, size, typ, bind, ndx in specs:
        off = 0x7fffff if name is None else len(strtab)
        if name is not None:
            strtab += name.encode() + b'\0'
        syms += struct.pack('<IBBHQQ', off, BINDS[bind] << 4 | TYPES[typ], 0, ndx, value, size)
    v = e.sh(symi)
    v[4], v[5] = e.append(bytes(syms)), len(syms)
    e.put_sh(symi, v)
    v = e.sh(stri)
    v[4], v[5] = e.append(bytes(strtab)), len(strtab)
    e.put_sh(stri, v)


def with_relocs(e, mode):
    """Version-1 sleds with zero address fields, and relocations for them."""
    mi, symi = e.find('xray_instr_map'), e.find(type_=2)
    addr, off, size = e.sh(mi)[3:6]
    relas = []
    for k in range(size // 32):
        o = off + 32 * k
        a, f = struct.unpack_from('<QQ', e.b, o)
        a = (a + addr + 32 * k) % 2**64
        f = (f + addr + 32 * k + 8) % 2**64
        struct.pack_into('<QQ', e.b, o, 0, 0)
        e.b[o + 18] = 1
        here = addr + 32 * k
        if mode == 'relative':
            relas += [(here, 8, 0, a), (here + 8, 8, 0, f)]
        elif mode == 'abs64':  # R_X86_64_64 against symbol 1 (leaf, 0x21d60)
            relas += [(here, 8, 0, a), (here + 8, 1, 1, f - 0x21d60)]
        elif mode == 'first-wins':
            relas += [(here, 8, 0, a), (here, 8, 0, a + 0x1000), (here + 8, 8, 0, f)]
        elif mode == 'pc64':
            relas += [(here, 24, 1, a - 0x21d60), (here + 8, 2, 1, f - 0x21d60)]
        elif mode == 'partial':
            relas += [(here, 8, 0, a)]
    rel = b''.join(struct.pack('<QQq', o, s << 32 | t, ad if ad < 2**63 else ad - 2**64)
                   for o, t, s, ad in relas)
    e.add_section([0, 4, 0, 0, e.append(rel), len(rel), symi, mi, 8, 24])


def sym_cases():
    f = lambda n, v, s, t='func', b='global', x=16: (n, v, s, t, b, x)
    return {
        'sym-tie-last': [f('zzz', 0x21d60, 35), f('aaa', 0x21d60, 35)],
        'sym-types': [f('n', 0x21d60, 35, 'notype'), f('o', 0x21d90, 65, 'object'), f('i', 0x21de0, 33, 'ifunc'),
                      f('t', 0x21e10, 47, 'tls'), f('s', 0x21e40, 0, 'section', 'local')],
        'sym-dollar': [f('$x', 0x21d60, 0, 'notype', 'local'), f('$d.1', 0x21d90, 0, 'notype', 'local')],
        'sym-size0': [f('a', 0x21d00, 0), f('b', 0x21d88, 4)],
        'sym-special-sections': [f('a', 0x21d60, 35, x=0xfff1), f('b', 0x21d90, 65, x=0xfff2), f('c', 0x21de0, 33, x=0)],
        'sym-bad-name-undef': [(None, 0, 0, 'notype', 'global', 0), f('leaf', 0x21d60, 35)],
        'sym-bad-name': [f('leaf', 0x21d60, 35), (None, 0x21d90, 65, 'func', 'global', 16)],
        'sym-bad-shndx': [f('leaf', 0x21d60, 35, x=99), f('mid', 0x21d90, 65)],
        'sym-local-global': [f('l', 0x21d60, 35, b='local'), f('g', 0x21d60, 35)],
        'sym-larger': [f('big', 0x21d60, 100), f('small', 0x21d60, 35)],
        'sym-file': [f('x.c', 0x21d60, 0, 'file', 'local', 0xfff1), f('leaf', 0x21d60, 35)],
        'sym-quoting': [f('true', 0x21d60, 35), f('a b', 0x21d90, 65), f("it's", 0x21de0, 33),
                        f('0x1F', 0x21e10, 47), f('tab\tname', 0x21e40, 93)],
        'sym-control': [f('a\x01b', 0x21d60, 35), f('caf\xe9', 0x21d90, 65), f('-dash', 0x21de0, 33),
                        f('1e5', 0x21e10, 47), f('null', 0x21e40, 93)],
        'sym-cxx': [f('_ZN2ns3fooEv', 0x21d60, 35), f('_Z3barIiEvT_', 0x21d90, 65), f('_Zbad', 0x21de0, 33),
                    f('_ZN1A1fEv.cold', 0x21e10, 47), f('_ZZ4mainENKUlvE_clEv', 0x21e40, 93)],
        'sym-wrap': [f('wrap', 0xffffffffffffff00, 0x200), f('mid', 0x21d90, 65)],
    }


def bad_cases(base):
    e = Elf(base)
    mi, symi = e.find('xray_instr_map'), e.find(type_=2)
    stri = e.sh(symi)[6]
    size = len(base)
    cases = {}

    def patch(name, off, fmt, *vals):
        b = bytearray(base)
        struct.pack_into(fmt, b, off, *vals)
        cases[name] = b

    def sh_field(name, i, field, value):
        v = e.sh(i)
        v[field] = value
        b = bytearray(base)
        struct.pack_into(SHDR, b, e.shoff + 64 * i, *v)
        cases[name] = b

    for n in sorted({0, 3, 4, 16, 63, 64, 100, e.shoff, e.shoff + 63, e.shoff + 64 * mi + 10,
                     e.sh(mi)[4] + 40, e.sh(symi)[4] + 30, size - 1}):
        cases['bad-cut-%d' % n] = base[:n]
    patch('bad-class32', 4, '<B', 1)
    patch('bad-bigendian', 5, '<B', 2)
    patch('bad-machine', 18, '<H', 3)
    patch('bad-shentsize', 0x3a, '<H', 40)
    patch('bad-shoff-huge', 0x28, '<Q', 2**64 - 64)
    patch('bad-shoff-past', 0x28, '<Q', size)
    patch('bad-shoff-unaligned', 0x28, '<Q', e.shoff + 4)
    patch('bad-shnum-big', 0x3c, '<H', 0xffff)
    patch('bad-shnum-zero', 0x3c, '<H', 0)
    patch('bad-shstrndx-big', 0x3e, '<H', 999)
    patch('bad-shstrndx-xindex', 0x3e, '<H', 0xffff)
    patch('bad-shstrndx-zero', 0x3e, '<H', 0)
    sh_field('bad-map-size-odd', mi, 5, 31)
    sh_field('bad-map-size-zero', mi, 5, 0)
    sh_field('bad-map-size-huge', mi, 5, 2**64 - 32)
    sh_field('bad-map-offset-huge', mi, 4, 2**64 - 8)
    sh_field('bad-map-nobits', mi, 1, 8)
    sh_field('bad-map-name', mi, 0, 1)
    sh_field('bad-symtab-entsize-zero', symi, 9, 0)
    sh_field('bad-symtab-entsize', symi, 9, 23)
    sh_field('bad-symtab-size-huge', symi, 5, 2**63)
    sh_field('bad-symtab-size-odd', symi, 5, 24 * 3 + 5)
    sh_field('bad-symtab-link', symi, 6, 999)
    sh_field('bad-symtab-link-self', symi, 6, symi)
    sh_field('bad-strtab-type', stri, 1, 1)
    sh_field('bad-strtab-size', stri, 5, 2**40)
    sh_field('bad-shstrtab-type', e.shstrndx, 1, 1)
    sh_field('bad-shstrtab-size', e.shstrndx, 5, 3)
    for kind in (5, 9, 255):
        patch('bad-kind-%d' % kind, e.sh(mi)[4] + 32 * 3 + 16, '<B', kind)
    for version in (0, 1, 3, 255):
        patch('bad-version-%d' % version, e.sh(mi)[4] + 32 * 2 + 18, '<B', version)
    b = Elf(base)
    b.add_section([0, 4, 0, 0, b.append(bytes(24)), 24, symi, mi, 8, 0])
    cases['bad-rela-entsize-zero'] = b.b
    b = Elf(base)
    b.add_section([0, 4, 0, 0, b.append(bytes(48)), 48, 999, mi, 8, 24])
    cases['bad-rela-link'] = b.b
    b = Elf(base)
    b.add_section([0, 4, 0, 0, 2**62, 48, symi, mi, 8, 24])
    cases['bad-rela-offset'] = b.b
    b = Elf(base)
    mo = b.sh(mi)[4]
    struct.pack_into('<QQ', b.b, mo, 0, 0)
    rel = struct.pack('<QQq', b.sh(mi)[3], 1, 0)  # R_X86_64_64 against symbol 0
    b.add_section([0, 4, 0, 0, b.append(rel), 24, symi, mi, 8, 24])
    cases['bad-rela-symbol-zero'] = b.b
    b = Elf(base)
    struct.pack_into('<QQ', b.b, mo, 0, 0)
    rel = struct.pack('<QQq', b.sh(mi)[3], 77 << 32 | 1, 0)
    b.add_section([0, 4, 0, 0, b.append(rel), 24, symi, mi, 8, 24])
    cases['bad-rela-symbol-big'] = b.b
    # random flips in the ELF header, the section table, the map, the symbols
    regions = [(0, 64), (e.shoff, e.shoff + 64 * e.shnum), (e.sh(mi)[4], e.sh(mi)[4] + e.sh(mi)[5]),
               (e.sh(symi)[4], e.sh(symi)[4] + e.sh(symi)[5])]
    for k in range(64):
        rng = random.Random(k)
        b = bytearray(base)
        lo, hi = regions[k % len(regions)]
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(lo, hi)] = rng.randrange(256)
        cases['flip-%03d' % k] = b
    return cases


def main():
    sample, out = sys.argv[1], sys.argv[2]
    base = open(sample, 'rb').read()
    os.makedirs(out, exist_ok=True)
    cases = {}
    for name, specs in sym_cases().items():
        e = Elf(base)
        with_symbols(e, specs)
        cases[name] = e.b
    for mode in ('relative', 'abs64', 'first-wins', 'pc64', 'partial'):
        e = Elf(base)
        with_relocs(e, mode)
        cases['rel-' + mode] = e.b
    cases.update(bad_cases(base))
    for name, data in cases.items():
        with open(os.path.join(out, name + '.elf'), 'wb') as f:
            f.write(data)
    with open(os.path.join(out, 'cases.txt'), 'w') as f:
        f.write('\n'.join(sorted(cases)) + '\n')


if __name__ == '__main__':
    main()
