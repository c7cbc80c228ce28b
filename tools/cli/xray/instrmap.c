/* instrmap.c - an XRay-instrumented ELF file's instrumentation map and
   function names, as llvm-xray 14 reads them (instrmap.h says what and
   how). The file is read with pread(2) piece by piece: the section headers,
   the map, the relocation and symbol sections one entry at a time, and only
   the names that are used; every offset and size is checked against the
   file and against overflow first. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/xray/instrmap.h"

#include "tools/cli/cli.h"
#include "tools/cli/uftrace/demangle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ELF_EHDR_SIZE  64u
#define ELF_SHDR_SIZE  64u
#define ELF_SYM_SIZE   24u
#define ELF_RELA_SIZE  24u
#define ELF_REL_SIZE   16u
#define SLED_SIZE      32u
#define SHT_SYMTAB     2u
#define SHT_STRTAB     3u
#define SHT_RELA       4u
#define SHT_NOBITS     8u
#define SHT_REL        9u
#define SHT_DYNSYM     11u
#define SHN_UNDEF      0u
#define SHN_LORESERVE  0xff00u
#define SHN_COMMON     0xfff2u
#define SHN_XINDEX     0xffffu
#define EM_X86_64      62u
#define EM_AARCH64     183u
#define NAME_MAX_LEN   (1u << 20) /* longer symbol names are cut here */

/* An id given to a function address; seq: the order of the givings (a
   later one replaces an earlier one, as in llvm-xray's maps). */
typedef struct fid_entry {
    uint64_t address;
    int32_t  fid;
    size_t   seq;
} fid_entry;

/* The symbol chosen for a function address so far. */
typedef struct sym_pick {
    uint64_t addr, size, index; /* index 0: none */
    uint32_t name;              /* st_name */
} sym_pick;

struct xray_instrmap {
    xray_sled *sleds;
    size_t     nsleds;
    fid_entry *by_fid;     /* sorted by id, one per id: its address          */
    size_t     nfn;
    fid_entry *by_address; /* sorted by address, one per address: its id     */
    size_t     nby_address;
    char     **symbol;     /* by_fid[i]'s symbol name or NULL                */
    char     **name;       /* by_fid[i]'s demangled name or NULL             */
    char      *symbol_error; /* the symbol table cannot be read: why        */
    char     **where;      /* by_address[i]'s "FILE:LINE:COLUMN" or NULL     */
    uint8_t   *where_known; /* by_address[i]'s line was looked up            */
};

/* Recently read pieces of the file: tables are read an entry at a time,
   and a relocation's symbol lies in another table. */
#define WINDOWS     4
#define WINDOW_SIZE 16384u

typedef struct window {
    uint64_t start, len;
    uint8_t  bytes[WINDOW_SIZE];
} window;

/* The file being read. */
typedef struct elf_file {
    int      fd;
    uint64_t size;
    window  *win;  /* WINDOWS of them */
    unsigned next; /* the window to refill next */
    uint16_t machine;
    uint8_t *shdr; /* the section headers, ELF_SHDR_SIZE each */
    uint64_t shnum;
    char    *why;
    size_t   why_len;
} elf_file;

/* A little-endian field of n (1, 2, 4 or 8) bytes at p; written out for
   each size (the loops over 40000 sleds and symbols read millions). */
static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t lo;
    if (n == 1) return p[0];
    lo = (uint64_t)p[0] | (uint64_t)p[1] << 8;
    if (n == 2) return lo;
    lo |= (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
    if (n == 4) return lo;
    return lo | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* 0, or -1 with the reason in f->why. */
static int fail(elf_file *f, const char *why)
{
    snprintf(f->why, f->why_len, "%s", why);
    return -1;
}

static int read_direct(elf_file *f, uint64_t off, void *buf, uint64_t len)
{
    uint8_t *p = buf;
    while (len > 0) {
        ssize_t n = pread(f->fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len, (off_t)off);
        if (n <= 0) return fail(f, n < 0 ? strerror(errno) : "Invalid data was encountered while parsing the file");
        p += n;
        off += (uint64_t)n;
        len -= (uint64_t)n;
    }
    return 0;
}

/* Reads len bytes at off: 0, or -1 when they are not all in the file. */
static int read_at(elf_file *f, uint64_t off, void *buf, uint64_t len)
{
    window *w;
    unsigned i;
    if (off > f->size || len > f->size - off) return fail(f, "Invalid data was encountered while parsing the file");
    if (len > 1024) return read_direct(f, off, buf, len);
    for (i = 0; i < WINDOWS; i++) {
        w = &f->win[i];
        if (off >= w->start && off - w->start <= w->len && len <= w->len - (off - w->start)) {
            memcpy(buf, w->bytes + (off - w->start), (size_t)len);
            return 0;
        }
    }
    w = &f->win[f->next];
    f->next = (f->next + 1) % WINDOWS;
    w->len = f->size - off < WINDOW_SIZE ? f->size - off : WINDOW_SIZE;
    if (read_direct(f, off, w->bytes, w->len) != 0) {
        w->len = 0;
        return -1;
    }
    w->start = off;
    memcpy(buf, w->bytes, (size_t)len);
    return 0;
}

static uint64_t sh_get(const elf_file *f, uint64_t i, unsigned field, unsigned n)
{
    return get_le(f->shdr + i * ELF_SHDR_SIZE + field, n);
}
#define SH_NAME(f, i)    sh_get(f, i, 0, 4)
#define SH_TYPE(f, i)    sh_get(f, i, 4, 4)
#define SH_ADDR(f, i)    sh_get(f, i, 16, 8)
#define SH_OFFSET(f, i)  sh_get(f, i, 24, 8)
#define SH_SIZE(f, i)    sh_get(f, i, 32, 8)
#define SH_LINK(f, i)    sh_get(f, i, 40, 4)
#define SH_ENTSIZE(f, i) sh_get(f, i, 56, 8)

/* A section's bytes must lie in the file (SHT_NOBITS has none). */
static int section_in_file(elf_file *f, uint64_t i)
{
    char msg[160];
    uint64_t off = SH_OFFSET(f, i), size = SH_SIZE(f, i);
    if (SH_TYPE(f, i) == SHT_NOBITS || (off <= f->size && size <= f->size - off)) return 0;
    snprintf(msg, sizeof msg,
             "section [index %llu] has a sh_offset (0x%llx) + sh_size (0x%llx) that is greater than the file size (0x%llx)",
             (unsigned long long)i, (unsigned long long)off, (unsigned long long)size,
             (unsigned long long)f->size);
    return fail(f, msg);
}

/* A table section (symbols, relocations): entries of `entsize` bytes. */
static int table_section(elf_file *f, uint64_t i, uint64_t entsize, uint64_t *count)
{
    char msg[120];
    if (section_in_file(f, i) != 0) return -1;
    if (SH_ENTSIZE(f, i) != entsize || SH_SIZE(f, i) % entsize != 0) {
        snprintf(msg, sizeof msg, "section [index %llu] has invalid sh_entsize: expected %llu, but got %llu",
                 (unsigned long long)i, (unsigned long long)entsize, (unsigned long long)SH_ENTSIZE(f, i));
        return fail(f, msg);
    }
    *count = SH_TYPE(f, i) == SHT_NOBITS ? 0 : SH_SIZE(f, i) / entsize;
    return 0;
}

/* The NUL-terminated string at `off` in string table section `strtab`,
   malloc'd (cut at NAME_MAX_LEN); NULL with f->why when it is not there. */
static char *read_string(elf_file *f, uint64_t strtab, uint64_t off)
{
    uint64_t base = SH_OFFSET(f, strtab), size = SH_SIZE(f, strtab), len = 0;
    char *s = NULL;
    if (strtab >= f->shnum || SH_TYPE(f, strtab) != SHT_STRTAB || section_in_file(f, strtab) != 0 || off >= size) {
        fail(f, "invalid string table offset");
        return NULL;
    }
    for (;;) { /* grow by chunks until the NUL */
        uint64_t want = len ? len * 2 : 256, got;
        char *t;
        const char *nul;
        if (want > NAME_MAX_LEN) want = NAME_MAX_LEN;
        if (want > size - off) want = size - off;
        t = realloc(s, (size_t)want + 1);
        if (!t) break;
        s = t;
        got = want;
        if (read_at(f, base + off, s, got) != 0) break;
        s[got] = '\0';
        nul = memchr(s, '\0', (size_t)got);
        if (nul || got == size - off || got == NAME_MAX_LEN) {
            if (!nul && got == size - off) break; /* no terminator in the section */
            return s;
        }
        len = got;
    }
    free(s);
    fail(f, "invalid string table offset");
    return NULL;
}

/* The ELF header and section headers: 0, -1 on an error, -2 when the file
   is not empty and no ELF file (llvm-xray then reads it as YAML). */
static int read_headers(elf_file *f)
{
    uint8_t eh[ELF_EHDR_SIZE], first[ELF_SHDR_SIZE];
    uint64_t shoff, shnum;
    char msg[160];
    if (f->size < 4) return fail(f, "The file was not recognized as a valid object file") - (f->size > 0);
    if (read_at(f, 0, eh, f->size < sizeof eh ? f->size : sizeof eh) != 0) return -1;
    if (memcmp(eh, "\177ELF", 4) != 0) return fail(f, "The file was not recognized as a valid object file") - 1;
    if (f->size < sizeof eh) return fail(f, "Invalid data was encountered while parsing the file");
    f->machine = (uint16_t)get_le(eh + 18, 2);
    if (eh[4] != 2 || eh[5] != 1 || (f->machine != EM_X86_64 && f->machine != EM_AARCH64))
        return fail(f, "File format not supported (only does ELF and Mach-O little endian 64-bit).");
    shoff = get_le(eh + 0x28, 8);
    if (shoff == 0) return 0; /* no sections */
    if (get_le(eh + 0x3a, 2) != ELF_SHDR_SIZE) {
        snprintf(msg, sizeof msg, "invalid e_shentsize in ELF header: %u", (unsigned)get_le(eh + 0x3a, 2));
        return fail(f, msg);
    }
    if (shoff > f->size || f->size - shoff < ELF_SHDR_SIZE) {
        snprintf(msg, sizeof msg, "section header table goes past the end of the file: e_shoff = 0x%llx",
                 (unsigned long long)shoff);
        return fail(f, msg);
    }
    if (read_at(f, shoff, first, sizeof first) != 0) return -1;
    shnum = get_le(eh + 0x3c, 2);
    if (shnum == 0) shnum = get_le(first + 32, 8); /* many sections: the count is in section 0 */
    if (shnum > (f->size - shoff) / ELF_SHDR_SIZE) return fail(f, "section table goes past the end of file");
    f->shnum = shnum;
    f->shdr = malloc((size_t)(shnum * ELF_SHDR_SIZE) + 1);
    if (!f->shdr) return fail(f, "out of memory");
    return read_at(f, shoff, f->shdr, shnum * ELF_SHDR_SIZE);
}

/* The index of the first section named `wanted`, or shnum. Sections
   whose name cannot be read are passed over, as llvm-xray does. */
static uint64_t find_section(elf_file *f, const char *wanted)
{
    uint8_t eh[ELF_EHDR_SIZE];
    uint64_t strndx, i, len = strlen(wanted) + 1;
    char name[32];
    if (f->shnum == 0 || len > sizeof name || read_at(f, 0, eh, sizeof eh) != 0) return f->shnum;
    strndx = get_le(eh + 0x3e, 2);
    if (strndx == SHN_XINDEX) strndx = SH_LINK(f, 0);
    if (strndx == 0 || strndx >= f->shnum || SH_TYPE(f, strndx) != SHT_STRTAB || section_in_file(f, strndx) != 0 ||
        SH_SIZE(f, strndx) == 0)
        return f->shnum;
    for (i = 0; i < f->shnum; i++) {
        uint64_t off = SH_NAME(f, i), size = SH_SIZE(f, strndx);
        if (off >= size || size - off < len) continue;
        if (read_at(f, SH_OFFSET(f, strndx) + off, name, len) != 0) return f->shnum;
        if (memcmp(name, wanted, len) == 0) return i;
    }
    return f->shnum;
}

/* ---- relocations --------------------------------------------------------- */

typedef struct reloc {
    uint64_t offset, value;
    uint64_t order; /* the first one at an offset wins */
} reloc;

typedef struct reloc_set {
    reloc *r;
    size_t n, cap;
} reloc_set;

/* The value a relocation of `type` gives with symbol value s and addend a
   (llvm's RelocationResolver for the types it supports); 0 when llvm-xray
   does not use this type. *relative: it is the RELATIVE type (the addend). */
static int reloc_value(uint16_t machine, uint32_t type, uint64_t offset, uint64_t s, uint64_t a, uint64_t *v,
                       int *uses_symbol)
{
    *uses_symbol = 1;
    if (machine == EM_X86_64) {
        switch (type) {
        case 0: *v = 0; return 1;                              /* R_X86_64_NONE       */
        case 1: case 17: case 21: *v = s + a; return 1;        /* 64, DTPOFF64/32     */
        case 2: case 24: *v = s + a - offset; return 1;        /* PC32, PC64          */
        case 10: case 11: *v = (s + a) & 0xffffffffu; return 1; /* 32, 32S            */
        case 8: *uses_symbol = 0; *v = a; return 1;            /* RELATIVE            */
        default: return 0;
        }
    }
    switch (type) { /* AArch64 */
    case 257: *v = s + a; return 1;                             /* ABS64               */
    case 258: *v = (s + a) & 0xffffffffu; return 1;             /* ABS32               */
    case 260: *v = s + a - offset; return 1;                    /* PREL64              */
    case 261: *v = (s + a - offset) & 0xffffffffu; return 1;    /* PREL32              */
    case 1027: *uses_symbol = 0; *v = a; return 1;              /* RELATIVE            */
    default: return 0;
    }
}

/* The value llvm gives a relocation's symbol: 0 when undefined, st_value
   otherwise (st_size for a common symbol). */
static int symbol_value(elf_file *f, uint64_t symtab, uint64_t index, uint64_t *v)
{
    uint8_t sym[ELF_SYM_SIZE];
    uint64_t count;
    char msg[120];
    if (symtab >= f->shnum || table_section(f, symtab, ELF_SYM_SIZE, &count) != 0) return -1;
    if (index == 0 || index >= count) {
        snprintf(msg, sizeof msg, "relocation refers to symbol index %llu, not in section [index %llu]",
                 (unsigned long long)index, (unsigned long long)symtab);
        return fail(f, msg);
    }
    if (read_at(f, SH_OFFSET(f, symtab) + index * ELF_SYM_SIZE, sym, sizeof sym) != 0) return -1;
    switch (get_le(sym + 6, 2)) {
    case SHN_UNDEF: *v = 0; break;
    case SHN_COMMON: *v = get_le(sym + 16, 8); break;
    default: *v = get_le(sym + 8, 8); break;
    }
    return 0;
}

static int reloc_cmp(const void *a, const void *b)
{
    const reloc *x = a, *y = b;
    if (x->offset != y->offset) return x->offset < y->offset ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Every relocation of every SHT_REL/SHT_RELA section that llvm-xray uses
   and that falls in [lo, hi) (the map: no other place is looked up),
   sorted by offset and then by file order. Those outside are still read:
   a symbol llvm cannot read makes it fail. */
static int read_relocs(elf_file *f, reloc_set *rs, uint64_t lo, uint64_t hi)
{
    uint64_t i, k, count, order = 0;
    for (i = 0; i < f->shnum; i++) {
        uint64_t type = SH_TYPE(f, i), entsize = type == SHT_RELA ? ELF_RELA_SIZE : ELF_REL_SIZE;
        if (type != SHT_RELA && type != SHT_REL) continue;
        if (table_section(f, i, entsize, &count) != 0) return -1;
        for (k = 0; k < count; k++) {
            uint8_t e[ELF_RELA_SIZE];
            uint64_t offset, info, addend, s = 0, v;
            int uses_symbol;
            if (read_at(f, SH_OFFSET(f, i) + k * entsize, e, entsize) != 0) return -1;
            offset = get_le(e, 8);
            info = get_le(e + 8, 8);
            addend = type == SHT_RELA ? get_le(e + 16, 8) : 0;
            if (!reloc_value(f->machine, (uint32_t)info, offset, 0, addend, &v, &uses_symbol)) continue;
            if (type == SHT_REL && !uses_symbol) continue; /* RELATIVE needs an addend */
            if (uses_symbol) {
                if (symbol_value(f, SH_LINK(f, i), info >> 32, &s) != 0) return -1;
                reloc_value(f->machine, (uint32_t)info, offset, s, addend, &v, &uses_symbol);
            }
            if (offset < lo || offset >= hi) continue;
            if (rs->n == rs->cap) {
                size_t cap = rs->cap ? rs->cap * 2 : 64;
                reloc *r = realloc(rs->r, cap * sizeof *r);
                if (!r) return fail(f, "out of memory");
                rs->r = r;
                rs->cap = cap;
            }
            rs->r[rs->n].offset = offset;
            rs->r[rs->n].value = v;
            rs->r[rs->n].order = order++;
            rs->n++;
        }
    }
    if (rs->n) qsort(rs->r, rs->n, sizeof *rs->r, reloc_cmp);
    return 0;
}

/* A zero field at `place` takes the value of the first relocation there. */
static uint64_t relocate(const reloc_set *rs, uint64_t place, uint64_t value)
{
    size_t lo = 0, hi = rs->n;
    if (value != 0) return value;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rs->r[mid].offset < place) lo = mid + 1;
        else hi = mid;
    }
    return lo < rs->n && rs->r[lo].offset == place ? rs->r[lo].value : value;
}

/* ---- the sleds and function ids ------------------------------------------ */

static int fid_cmp_address(const void *a, const void *b)
{
    const fid_entry *x = a, *y = b;
    return x->address < y->address ? -1 : x->address > y->address;
}

static int fid_cmp_fid(const void *a, const void *b)
{
    const fid_entry *x = a, *y = b;
    return x->fid < y->fid ? -1 : x->fid > y->fid;
}

static int fid_cmp_address_seq(const void *a, const void *b)
{
    const fid_entry *x = a, *y = b;
    if (x->address != y->address) return x->address < y->address ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int fid_cmp_fid_seq(const void *a, const void *b)
{
    const fid_entry *x = a, *y = b;
    if (x->fid != y->fid) return x->fid < y->fid ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts v[n] by cmp and keeps the last entry of each key (same: equal
   keys); returns the new count. */
static size_t keep_last(fid_entry *v, size_t n, int (*cmp)(const void *, const void *),
                        int (*same)(const void *, const void *))
{
    size_t i, k = 0;
    if (n == 0) return 0; /* v may be NULL */
    qsort(v, n, sizeof *v, cmp);
    for (i = 0; i < n; i++) {
        if (k && same(&v[k - 1], &v[i]) == 0) k--;
        v[k++] = v[i];
    }
    return k;
}

/* The map's tables from its id givings (address, id) in order: llvm-xray's
   FunctionAddresses[id] and FunctionIds[address], a later giving winning. */
static int index_functions(xray_instrmap *m, fid_entry *given, size_t n)
{
    m->by_fid = malloc((n ? n : 1) * sizeof *m->by_fid);
    if (!m->by_fid) return -1;
    if (n) memcpy(m->by_fid, given, n * sizeof *given);
    m->nfn = keep_last(m->by_fid, n, fid_cmp_fid_seq, fid_cmp_fid);
    m->nby_address = keep_last(given, n, fid_cmp_address_seq, fid_cmp_address);
    m->by_address = given;
    return 0;
}

/* Ids as llvm-xray hands them out from an ELF map: 1 for the first sled's
   function, one more each time the function changes. */
static int number_functions(elf_file *f, xray_instrmap *m)
{
    size_t i, n = 0;
    int32_t fid = 1;
    uint64_t cur = 0;
    fid_entry *given = calloc(m->nsleds + 1, sizeof *given);
    if (!given) return fail(f, "out of memory");
    for (i = 0; i < m->nsleds; i++) {
        uint64_t fn = m->sleds[i].function;
        if (cur == 0 || fn != cur) {
            if (cur != 0) fid++;
            cur = fn;
            given[n].address = fn;
            given[n].fid = fid;
            given[n].seq = n;
            n++;
        }
    }
    if (index_functions(m, given, n) == 0) return 0;
    free(given);
    return fail(f, "out of memory");
}

static int read_sleds(elf_file *f, xray_instrmap *m, uint64_t sec)
{
    reloc_set rs = {NULL, 0, 0};
    uint64_t size = SH_SIZE(f, sec), addr = SH_ADDR(f, sec), off, i;
    uint8_t e[SLED_SIZE];
    int rc = -1;
    if (section_in_file(f, sec) != 0) return -1;
    if (SH_TYPE(f, sec) == SHT_NOBITS) size = 0;
    if (size % SLED_SIZE != 0)
        return fail(f, "Instrumentation map entries not evenly divisible by size of an XRay sled entry.");
    if (read_relocs(f, &rs, addr, addr + size < addr ? UINT64_MAX : addr + size) != 0) goto out;
    m->sleds = calloc((size_t)(size / SLED_SIZE) + 1, sizeof *m->sleds);
    if (!m->sleds) {
        fail(f, "out of memory");
        goto out;
    }
    for (i = 0; i < size / SLED_SIZE; i++) {
        xray_sled *s = &m->sleds[i];
        off = i * SLED_SIZE;
        if (read_at(f, SH_OFFSET(f, sec) + off, e, sizeof e) != 0) goto out;
        s->address = relocate(&rs, addr + off, get_le(e, 8));
        s->function = relocate(&rs, addr + off + 8, get_le(e + 8, 8));
        s->kind = e[16];
        s->always_instrument = e[17] != 0;
        s->version = e[18];
        if (s->kind > 4) {
            fail(f, "Exec format error"); /* LLVM 14 knows the kinds up to custom-event */
            goto out;
        }
        if (s->version >= 2) { /* relative to the field's own place */
            s->address += off + addr;
            s->function += off + 8 + addr;
        }
        m->nsleds++;
    }
    rc = number_functions(f, m);
out:
    free(rs.r);
    return rc;
}

/* ---- names ----------------------------------------------------------------- */

/* Whether llvm-symbolizer keeps a symbol (SymbolizableObjectFile::addSymbol):
   defined in a section, of type function, object or none. */
static int symbol_kept(elf_file *f, const uint8_t *sym)
{
    unsigned type = sym[4] & 0xfu;
    uint64_t shndx = get_le(sym + 6, 2);
    if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || shndx >= f->shnum) return 0;
    return type == 0 || type == 1 || type == 2 || type == 10; /* NOTYPE, OBJECT, FUNC, GNU_IFUNC */
}

/* AArch64's mapping symbols ($x, $d and whatever starts so) are no names
   for llvm-symbolizer; checked only for a symbol that would be picked. */
static int mapping_symbol(elf_file *f, uint64_t strtab, uint32_t name)
{
    uint8_t c[2];
    if (f->machine != EM_AARCH64 || SH_SIZE(f, strtab) - name < 2 ||
        read_at(f, SH_OFFSET(f, strtab) + name, c, 2) != 0)
        return 0;
    return c[0] == '$' && (c[1] == 'x' || c[1] == 'd');
}

static int pick_better(const sym_pick *a, const sym_pick *b)
{
    if (a->addr != b->addr) return a->addr > b->addr;
    if (a->size != b->size) return a->size > b->size;
    return a->index > b->index;
}

typedef struct name_ref {
    uint32_t name; /* st_name */
    size_t   fid_index;
} name_ref;

static int name_cmp(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    return x->name < y->name ? -1 : x->name > y->name;
}

/* Names every function id from the symbol table. The symbol for address F
   is the best (address, size, position) among those at or below F; a
   symbol can only be the best for the first function address at or above
   its own, so one pass over the table keeps one candidate per address,
   and a prefix maximum finishes the job. A table llvm-symbolizer cannot
   read gives no names at all, as in llvm-xray. */
static void read_names(elf_file *f, xray_instrmap *m)
{
    uint64_t i, symtab = f->shnum, strtab, count = 0, k;
    size_t n = m->nby_address, lo, hi, nwanted = 0;
    sym_pick *best;
    name_ref *wanted;
    for (i = 0; i < f->shnum && symtab == f->shnum; i++)
        if (SH_TYPE(f, i) == SHT_SYMTAB) symtab = i;
    if (symtab < f->shnum && table_section(f, symtab, ELF_SYM_SIZE, &count) != 0) goto unreadable;
    if (symtab == f->shnum || count < 2) {
        symtab = f->shnum;
        for (i = 0; i < f->shnum && symtab == f->shnum; i++)
            if (SH_TYPE(f, i) == SHT_DYNSYM) symtab = i;
        if (symtab == f->shnum) return;
        if (table_section(f, symtab, ELF_SYM_SIZE, &count) != 0) goto unreadable;
    }
    strtab = SH_LINK(f, symtab);
    if (n == 0 || strtab >= f->shnum || SH_TYPE(f, strtab) != SHT_STRTAB || section_in_file(f, strtab) != 0) return;
    best = calloc(n, sizeof *best);
    if (!best) return;
    for (k = 1; k < count; k++) {
        uint8_t sym[ELF_SYM_SIZE];
        sym_pick p;
        if (read_at(f, SH_OFFSET(f, symtab) + k * ELF_SYM_SIZE, sym, sizeof sym) != 0) goto out;
        p.name = (uint32_t)get_le(sym, 4);
        if (p.name >= SH_SIZE(f, strtab)) goto out; /* a name llvm cannot read: no names at all */
        if (!symbol_kept(f, sym)) continue;
        p.addr = get_le(sym + 8, 8);
        p.size = get_le(sym + 16, 8);
        p.index = k;
        lo = 0;
        hi = n;
        while (lo < hi) { /* the first function address >= p.addr */
            size_t mid = lo + (hi - lo) / 2;
            if (m->by_address[mid].address < p.addr) lo = mid + 1;
            else hi = mid;
        }
        if (lo < n && pick_better(&p, &best[lo]) && !mapping_symbol(f, strtab, p.name)) best[lo] = p;
    }
    for (lo = 1; lo < n; lo++)
        if (pick_better(&best[lo - 1], &best[lo])) best[lo] = best[lo - 1];
    /* the names, read in string table order (a symbol table is often in
       hash order: reading by function would jump around the file) */
    wanted = calloc(m->nfn + 1, sizeof *wanted);
    if (!wanted) goto out;
    for (i = 0; i < m->nfn; i++) {
        const fid_entry key = {m->by_fid[i].address, 0, 0};
        const sym_pick *p;
        fid_entry *at = bsearch(&key, m->by_address, n, sizeof *m->by_address, fid_cmp_address);
        if (!at) continue;
        p = &best[at - m->by_address];
        if (p->index == 0 || (p->size != 0 && p->addr + p->size <= key.address)) continue;
        wanted[nwanted].name = p->name;
        wanted[nwanted].fid_index = (size_t)i;
        nwanted++;
    }
    qsort(wanted, nwanted, sizeof *wanted, name_cmp);
    for (k = 0; k < nwanted; k++) m->symbol[wanted[k].fid_index] = read_string(f, strtab, wanted[k].name);
    free(wanted);
out:
    free(best);
    return;
unreadable: /* llvm-symbolizer stops the program with this message */
    m->symbol_error = strdup(f->why);
}

/* ---- source lines: DWARF line tables ------------------------------------- */

/* llvm-xray account's debug column is llvm-symbolizer's line information
   for a function's address: the row of a line table sequence covering it
   (the last row at or below the address), "FILE:LINE:COLUMN" with the last
   path component of the row's file. Read here: each unit of .debug_line
   (versions 2-5, 32- and 64-bit DWARF; file names inline, or in
   .debug_line_str / .debug_str); a unit that cannot be read ends the
   reading. An address no sequence covers, or whose row names a file the
   unit does not have, has no line information ("<invalid>:0:0"). */

typedef struct dw_cursor {
    const uint8_t *p, *end;
    int            bad; /* read past the end */
} dw_cursor;

/* A little-endian number of n <= 8 bytes. */
static uint64_t dw_fixed(dw_cursor *c, unsigned n)
{
    uint64_t v;
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = 1;
        return 0;
    }
    v = get_le(c->p, n);
    c->p += n;
    return v;
}

static void dw_skip(dw_cursor *c, uint64_t n)
{
    if (c->bad || (uint64_t)(c->end - c->p) < n) c->bad = 1;
    else c->p += n;
}

/* A LEB128 number, sign-extended when `is_signed`. */
static uint64_t dw_leb(dw_cursor *c, int is_signed)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (c->bad || c->p >= c->end) {
            c->bad = 1;
            return 0;
        }
        b = *c->p++;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (is_signed && shift < 64 && (b & 0x40)) v |= ~(uint64_t)0 << shift;
    return v;
}
#define dw_uleb(c) dw_leb((c), 0)

/* An inline NUL-terminated string: its start, the cursor past it. */
static const char *dw_cstr(dw_cursor *c)
{
    const uint8_t *nul = c->bad ? NULL : memchr(c->p, 0, (size_t)(c->end - c->p));
    const char *s = (const char *)c->p;
    if (!nul) {
        c->bad = 1;
        return "";
    }
    c->p = nul + 1;
    return s;
}

/* Where a file's name is: inline, or at `off` in string section `sec`. */
typedef struct dw_file {
    const char *name;
    uint64_t    sec, off;
} dw_file;

typedef struct dw_unit {
    elf_file      *f;
    xray_instrmap *m;
    uint64_t       line_str, str; /* section indexes, or shnum */
    dw_file       *files;
    size_t         nfiles, cap;
    unsigned       version;
} dw_unit;

static int dw_add_file(dw_unit *u, dw_file file)
{
    if (u->nfiles == u->cap) {
        size_t cap = u->cap ? 2 * u->cap : 16;
        dw_file *t = realloc(u->files, cap * sizeof *t);
        if (!t) return -1;
        u->files = t;
        u->cap = cap;
    }
    u->files[u->nfiles++] = file;
    return 0;
}

/* A v5 entry's attribute of `form`: its file name part when `path`. */
static void dw_form(dw_unit *u, dw_cursor *c, uint64_t form, unsigned offset_size, int path, dw_file *file)
{
    uint64_t v;
    switch (form) {
    case 0x08: /* DW_FORM_string */
        if (path) file->name = dw_cstr(c);
        else dw_cstr(c);
        return;
    case 0x1f: /* DW_FORM_line_strp */
    case 0x0e: /* DW_FORM_strp */
        v = dw_fixed(c, offset_size);
        if (path) {
            file->sec = form == 0x1f ? u->line_str : u->str;
            file->off = v;
        }
        return;
    case 0x0b: dw_fixed(c, 1); return;  /* data1 */
    case 0x05: dw_fixed(c, 2); return;  /* data2 */
    case 0x06: dw_fixed(c, 4); return;  /* data4 */
    case 0x07: dw_fixed(c, 8); return;  /* data8 */
    case 0x1e: dw_skip(c, 16); return;  /* data16 */
    case 0x0f: dw_uleb(c); return;      /* udata */
    case 0x09: dw_skip(c, dw_uleb(c)); return; /* block */
    default:
        c->bad = 1;
    }
}

/* The v5 directory or file list: its entries (files kept when `keep`). */
static void dw_entries(dw_unit *u, dw_cursor *c, unsigned offset_size, int keep)
{
    uint64_t formats[2 * 16], nformats, count, i, k;
    nformats = dw_fixed(c, 1);
    if (nformats > 16) {
        c->bad = 1;
        return;
    }
    for (k = 0; k < 2 * nformats; k++) formats[k] = dw_uleb(c);
    count = dw_uleb(c);
    for (i = 0; i < count && !c->bad; i++) {
        dw_file file = {NULL, 0, 0};
        file.sec = u->f->shnum;
        for (k = 0; k < nformats; k++) dw_form(u, c, formats[2 * k + 1], offset_size, formats[2 * k] == 1, &file);
        if (keep && !c->bad && dw_add_file(u, file) != 0) c->bad = 1;
    }
}

/* "BASENAME:LINE:COLUMN" of file index `file` of the unit, malloc'd; NULL
   when the unit has no such file (or out of memory). */
static char *dw_where(dw_unit *u, uint64_t file, uint32_t line, uint16_t column)
{
    char buf[4097], *w;
    const char *name, *base;
    size_t len;
    if (u->version < 5) {
        if (file == 0) return NULL;
        file--;
    }
    if (file >= u->nfiles) return NULL;
    name = u->files[file].name;
    if (!name) { /* in a string section */
        uint64_t sec = u->files[file].sec, off = u->files[file].off, n;
        if (sec >= u->f->shnum || off >= SH_SIZE(u->f, sec)) return NULL;
        n = SH_SIZE(u->f, sec) - off < sizeof buf - 1 ? SH_SIZE(u->f, sec) - off : sizeof buf - 1;
        if (read_at(u->f, SH_OFFSET(u->f, sec) + off, buf, n) != 0) return NULL;
        buf[n] = '\0';
        name = buf;
    }
    base = strrchr(name, '/');
    base = base ? base + 1 : name;
    len = strlen(base);
    w = malloc(len + 32);
    if (w) snprintf(w, len + 32, "%s:%u:%u", base, (unsigned)line, (unsigned)column);
    return w;
}

/* The functions at addresses [lo, hi) that have no line yet get this row's. */
static void dw_cover(dw_unit *u, uint64_t lo, uint64_t hi, uint64_t file, uint32_t line, uint16_t column)
{
    xray_instrmap *m = u->m;
    size_t a = 0, b = m->nby_address;
    while (a < b) { /* the first function at or above lo */
        size_t mid = a + (b - a) / 2;
        if (m->by_address[mid].address < lo) a = mid + 1;
        else b = mid;
    }
    for (; a < m->nby_address && m->by_address[a].address < hi; a++)
        if (!m->where[a] && !m->where_known[a]) {
            m->where[a] = dw_where(u, file, line, column);
            m->where_known[a] = 1;
        }
}

/* One line table unit (its header and program in c); 0, or -1 when it
   cannot be read. */
static int dw_unit_rows(dw_unit *u, dw_cursor *c, unsigned offset_size)
{
    uint64_t header_length, addr = 0, file = 1, prev_addr = 0, prev_file = 0, op, len, k;
    uint32_t line = 1, prev_line = 0;
    uint16_t column = 0, prev_column = 0;
    unsigned min_inst, line_range, opcode_base;
    int line_base, have_prev = 0;
    uint8_t lengths[256];
    dw_cursor prog;
    u->nfiles = 0;
    u->version = (unsigned)dw_fixed(c, 2);
    if (u->version < 2 || u->version > 5) return -1;
    if (u->version == 5) dw_fixed(c, 2); /* address and segment selector sizes */
    header_length = dw_fixed(c, offset_size);
    if (c->bad || header_length > (uint64_t)(c->end - c->p)) return -1;
    prog.p = c->p + header_length;
    prog.end = c->end;
    prog.bad = 0;
    min_inst = (unsigned)dw_fixed(c, 1);
    if (u->version >= 4) dw_fixed(c, 1); /* maximum operations per instruction */
    dw_fixed(c, 1);                      /* default_is_stmt */
    line_base = (int8_t)dw_fixed(c, 1);
    line_range = (unsigned)dw_fixed(c, 1);
    opcode_base = (unsigned)dw_fixed(c, 1);
    if (line_range == 0 || opcode_base == 0) return -1;
    memset(lengths, 0, sizeof lengths);
    for (k = 1; k < opcode_base; k++) lengths[k] = (uint8_t)dw_fixed(c, 1);
    if (u->version == 5) {
        dw_entries(u, c, offset_size, 0);
        dw_entries(u, c, offset_size, 1);
    } else {
        while (!c->bad && *dw_cstr(c)) continue; /* include directories */
        for (;;) {
            dw_file file_entry = {NULL, 0, 0};
            file_entry.name = dw_cstr(c);
            if (c->bad || !*file_entry.name) break;
            dw_uleb(c);
            dw_uleb(c);
            dw_uleb(c);
            if (dw_add_file(u, file_entry) != 0) return -1;
        }
    }
    if (c->bad) return -1;
    c = &prog;
#define DW_ROW(end_sequence)                                                                     \
    do {                                                                                         \
        if (have_prev && addr > prev_addr) dw_cover(u, prev_addr, addr, prev_file, prev_line, prev_column); \
        have_prev = !(end_sequence);                                                             \
        prev_addr = addr;                                                                        \
        prev_file = file;                                                                        \
        prev_line = line;                                                                        \
        prev_column = column;                                                                    \
    } while (0)
    while (c->p < c->end && !c->bad) {
        op = dw_fixed(c, 1);
        if (op >= opcode_base) { /* special opcode */
            op -= opcode_base;
            addr += (op / line_range) * min_inst;
            line += (uint32_t)(line_base + (int)(op % line_range));
            DW_ROW(0);
            continue;
        }
        switch (op) {
        case 0: /* extended */
            len = dw_uleb(c);
            if (c->bad || len == 0 || len > (uint64_t)(c->end - c->p)) return -1;
            op = dw_fixed(c, 1);
            if (op == 1) { /* DW_LNE_end_sequence */
                DW_ROW(1);
                addr = 0;
                file = 1;
                line = 1;
                column = 0;
            } else if (op == 2 && len - 1 <= 8) { /* DW_LNE_set_address */
                addr = dw_fixed(c, (unsigned)(len - 1));
            } else {
                dw_skip(c, len - 1); /* define_file (v2-4) and others: not used here */
            }
            break;
        case 1: DW_ROW(0); break;                                   /* copy */
        case 2: addr += dw_uleb(c) * min_inst; break;               /* advance_pc */
        case 3: line += (uint32_t)dw_leb(c, 1); break;              /* advance_line */
        case 4: file = dw_uleb(c); break;                           /* set_file */
        case 5: column = (uint16_t)dw_uleb(c); break;               /* set_column */
        case 8: addr += ((255 - opcode_base) / line_range) * min_inst; break; /* const_add_pc */
        case 9: addr += dw_fixed(c, 2); break;                      /* fixed_advance_pc */
        default:
            for (k = 0; k < lengths[op]; k++) dw_uleb(c);
        }
    }
#undef DW_ROW
    return c->bad ? -1 : 0;
}

/* Each function's line (m->where), from the file's .debug_line. */
static void read_lines(elf_file *f, xray_instrmap *m)
{
    uint64_t sec = find_section(f, ".debug_line"), off, size, len;
    dw_unit u;
    uint8_t *buf = NULL;
    m->where = calloc(m->nby_address + 1, sizeof *m->where);
    m->where_known = calloc(m->nby_address + 1, 1);
    if (!m->where || !m->where_known || sec == f->shnum || section_in_file(f, sec) != 0 ||
        SH_TYPE(f, sec) == SHT_NOBITS)
        return;
    memset(&u, 0, sizeof u);
    u.f = f;
    u.m = m;
    u.line_str = find_section(f, ".debug_line_str");
    u.str = find_section(f, ".debug_str");
    size = SH_SIZE(f, sec);
    for (off = 0; size - off >= 4;) {
        uint8_t head[12];
        unsigned offset_size = 4, skip = 4;
        dw_cursor c;
        if (read_at(f, SH_OFFSET(f, sec) + off, head, size - off < 12 ? 4 : 12) != 0) break;
        len = get_le(head, 4);
        if (len == 0xffffffffu) {
            if (size - off < 12) break;
            len = get_le(head + 4, 8);
            offset_size = 8;
            skip = 12;
        } else if (len >= 0xfffffff0u) {
            break;
        }
        if (len > size - off - skip || len > ((uint64_t)1 << 30)) break;
        free(buf);
        buf = malloc((size_t)len + 1);
        if (!buf || read_at(f, SH_OFFSET(f, sec) + off + skip, buf, len) != 0) break;
        c.p = buf;
        c.end = buf + len;
        c.bad = 0;
        if (dw_unit_rows(&u, &c, offset_size) != 0) break;
        off += skip + len;
    }
    free(buf);
    free(u.files);
}

/* ---- YAML maps ------------------------------------------------------------ */

/* llvm-xray reads a file that is no object file as a YAML map (what
   extract prints): sleds and ids, no names (its symbolizer cannot read the
   file, so every function is "@(address)"). Read here: the flow style
   extract writes, one "- { key: value, ... }" a line, "---", "...", "[]",
   blank and comment lines. */

/* LLVM's getAsInteger with radix 0 ("0x" hex, "0b" binary, "0o" or a
   leading 0 octal, else decimal), unsigned: 1 and *v, or 0. */
static int yaml_uint(const char *s, size_t n, uint64_t *v)
{
    unsigned base = 10;
    size_t i = 0;
    if (n > 1 && s[0] == '0') {
        if (s[1] == 'x' || s[1] == 'X') base = 16, i = 2;
        else if (s[1] == 'b' || s[1] == 'B') base = 2, i = 2;
        else if (s[1] == 'o') base = 8, i = 2;
        else base = 8, i = 1;
    }
    if (i == n) return 0;
    for (*v = 0; i < n; i++) {
        unsigned d = s[i] >= '0' && s[i] <= '9' ? (unsigned)(s[i] - '0')
                   : s[i] >= 'a' && s[i] <= 'f' ? (unsigned)(s[i] - 'a' + 10)
                   : s[i] >= 'A' && s[i] <= 'F' ? (unsigned)(s[i] - 'A' + 10) : 99u;
        if (d >= base || *v > (UINT64_MAX - d) / base) return 0;
        *v = *v * base + d;
    }
    return 1;
}

/* One "- { ... }" line into *s and *fid: 1, or 0 when it is malformed. */
static int yaml_sled(const char *line, xray_sled *s, int32_t *fid)
{
    static const char *const kinds[] = {"function-enter", "function-exit", "tail-exit", "log-args-enter",
                                        "custom-event"};
    const char *p = line, *end;
    unsigned seen = 0;
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) n--;
    end = line + n;
    if (n < 4 || strncmp(p, "- {", 3) != 0 || end[-1] != '}') return 0;
    p += 3;
    end--;
    memset(s, 0, sizeof *s);
    while (p < end) {
        const char *key, *val, *q;
        size_t klen, vlen;
        uint64_t v;
        int k;
        while (p < end && (*p == ' ' || *p == ',')) p++;
        if (p == end) break;
        key = p;
        while (p < end && *p != ':') p++;
        if (p == end) return 0;
        klen = (size_t)(p - key);
        p++;
        while (p < end && *p == ' ') p++;
        val = p;
        if (p < end && (*p == '\'' || *p == '"')) { /* a quoted scalar: to its closing quote */
            char quote = *p++;
            while (p < end) {
                if (*p == '\\' && quote == '"' && p + 1 < end) p += 2;
                else if (*p == quote && quote == '\'' && p + 1 < end && p[1] == '\'') p += 2;
                else if (*p++ == quote) break;
            }
            vlen = (size_t)(p - val);
        } else {
            while (p < end && *p != ',') p++;
            for (q = p; q > val && q[-1] == ' '; q--) continue;
            vlen = (size_t)(q - val);
        }
#define KEY(lit) (klen == sizeof(lit) - 1 && strncmp(key, lit, klen) == 0)
        if (KEY("id")) {
            int neg = vlen > 0 && val[0] == '-';
            if (!yaml_uint(val + neg, vlen - (size_t)neg, &v) || v > (neg ? 0x80000000u : 0x7fffffffu)) return 0;
            *fid = neg ? (int32_t)(0 - (int64_t)v) : (int32_t)v;
            seen |= 1;
        } else if (KEY("address") || KEY("function")) {
            if (!yaml_uint(val, vlen, &v)) return 0;
            if (key[0] == 'a') s->address = v;
            else s->function = v;
            seen |= key[0] == 'a' ? 2u : 4u;
        } else if (KEY("kind")) {
            for (k = 0; k < 5 && !(strlen(kinds[k]) == vlen && strncmp(val, kinds[k], vlen) == 0); k++) continue;
            if (k == 5) return 0;
            s->kind = (uint8_t)k;
            seen |= 8;
        } else if (KEY("always-instrument")) {
            if (vlen == 4 && strncmp(val, "true", 4) == 0) s->always_instrument = 1;
            else if (!(vlen == 5 && strncmp(val, "false", 5) == 0)) return 0;
            seen |= 16;
        } else if (KEY("version")) {
            if (!yaml_uint(val, vlen, &v) || v > 255) return 0;
            s->version = (uint8_t)v;
        } else if (!KEY("function-name")) {
            return 0;
        }
#undef KEY
    }
    return seen == 31;
}

static int read_yaml(elf_file *f, xray_instrmap *m, const char *path)
{
    FILE *in = fdopen(dup(f->fd), "r");
    char *line = NULL, msg[4200];
    size_t cap = 0, nsleds = 0, cap_sleds = 0;
    fid_entry *given = NULL;
    int ok = in != NULL, ended = 0;
    ssize_t len;
    while (ok && (len = getline(&line, &cap, in)) >= 0) {
        const char *t = line + strspn(line, " \t");
        xray_sled s;
        int32_t fid = 0;
        if (strlen(line) != (size_t)len) { /* a NUL byte: no text */
            ok = 0;
            break;
        }
        if (*t == '\0' || *t == '\n' || *t == '#' || strncmp(t, "---", 3) == 0) continue;
        if (strncmp(t, "...", 3) == 0) {
            ended = 1;
            continue;
        }
        if (ended || strncmp(t, "[]", 2) == 0) {
            ok = strncmp(t, "[]", 2) == 0 && nsleds == 0;
            continue;
        }
        if (!yaml_sled(line, &s, &fid)) {
            ok = 0;
            break;
        }
        if (nsleds == cap_sleds) {
            size_t c = cap_sleds ? cap_sleds * 2 : 256;
            xray_sled *v = realloc(m->sleds, c * sizeof *v);
            fid_entry *g = realloc(given, c * sizeof *g);
            if (v) m->sleds = v;
            if (g) given = g;
            if (!v || !g) {
                ok = 0;
                break;
            }
            cap_sleds = c;
        }
        m->sleds[nsleds] = s;
        given[nsleds].address = s.function;
        given[nsleds].fid = fid;
        given[nsleds].seq = nsleds;
        nsleds++;
    }
    free(line);
    if (in) fclose(in);
    m->nsleds = nsleds;
    if (ok && index_functions(m, given, nsleds) == 0) return 0;
    free(given);
    snprintf(msg, sizeof msg, "Failed loading YAML document from '%s'.", path);
    return fail(f, msg);
}

/* ---- the interface ----------------------------------------------------------- */

void xray_instrmap_free(xray_instrmap *m)
{
    size_t i;
    if (!m) return;
    for (i = 0; i < m->nfn; i++) {
        if (m->name && m->name[i] != m->symbol[i]) free(m->name[i]);
        if (m->symbol) free(m->symbol[i]);
    }
    for (i = 0; m->where && i < m->nby_address; i++) free(m->where[i]);
    free(m->where);
    free(m->where_known);
    free(m->name);
    free(m->symbol);
    free(m->symbol_error);
    free(m->by_address);
    free(m->by_fid);
    free(m->sleds);
    free(m);
}

int xray_instrmap_open(const char *path, xray_instrmap **out, char *why, size_t why_len)
{
    elf_file f;
    struct stat sb;
    xray_instrmap *m = calloc(1, sizeof *m);
    uint64_t sec;
    size_t i;
    int rc = -1; /* then 0: a map without names (YAML), 1: an ELF map */
    memset(&f, 0, sizeof f);
    f.why = why;
    f.why_len = why_len;
    *out = NULL;
    f.fd = open(path, O_RDONLY);
    f.win = calloc(WINDOWS, sizeof *f.win);
    if (!m || !f.win) fail(&f, "out of memory");
    else if (f.fd < 0 || fstat(f.fd, &sb) != 0) fail(&f, strerror(errno));
    else if (S_ISDIR(sb.st_mode)) fail(&f, strerror(EISDIR));
    else {
        f.size = (uint64_t)sb.st_size;
        rc = read_headers(&f);
        if (rc == -2) {
            rc = read_yaml(&f, m, path);
        } else if (rc == 0) {
            sec = find_section(&f, "xray_instr_map");
            if (sec == f.shnum) rc = fail(&f, "Failed to find XRay instrumentation map.");
            else rc = read_sleds(&f, m, sec);
            if (rc == 0) rc = 1; /* names from its symbols */
        }
    }
    if (rc >= 0) {
        m->symbol = calloc(m->nfn + 1, sizeof *m->symbol);
        m->name = calloc(m->nfn + 1, sizeof *m->name);
        if (!m->symbol || !m->name) rc = fail(&f, "out of memory");
    }
    if (rc == 1) {
        rc = 0;
        read_names(&f, m);
        for (i = 0; i < m->nfn; i++) { /* llvm-symbolizer demangles names starting with _Z */
            m->name[i] = m->symbol[i] ? demangle_full(m->symbol[i]) : NULL;
            if (!m->name[i]) m->name[i] = m->symbol[i];
        }
    }
    if (f.fd >= 0) close(f.fd);
    free(f.shdr);
    free(f.win);
    if (rc != 0) {
        xray_instrmap_free(m);
        return 1;
    }
    *out = m;
    return 0;
}

int xray_instrmap_load(const char *path, xray_instrmap **m, out_buf *err)
{
    char why[256], msg[64 + 4096];
    if (xray_instrmap_open(path, m, why, sizeof why) == 0) return 0;
    snprintf(msg, sizeof msg, "Cannot open instrumentation map '%s'", path);
    cli_diag(err, "error", -1, msg, why);
    return 1;
}

size_t xray_instrmap_sleds(const xray_instrmap *m, const xray_sled **sleds)
{
    *sleds = m->sleds;
    return m->nsleds;
}

/* by_fid's index of fid, or nfn */
static size_t fid_index(const xray_instrmap *m, int32_t fid)
{
    const fid_entry key = {0, fid, 0};
    const fid_entry *at = bsearch(&key, m->by_fid, m->nfn, sizeof key, fid_cmp_fid);
    return at ? (size_t)(at - m->by_fid) : m->nfn;
}

int xray_instrmap_address(const xray_instrmap *m, int32_t fid, uint64_t *address)
{
    size_t i = fid_index(m, fid);
    if (i == m->nfn) return 0;
    *address = m->by_fid[i].address;
    return 1;
}

const char *xray_instrmap_name(const xray_instrmap *m, int32_t fid)
{
    size_t i = fid_index(m, fid);
    return i == m->nfn ? NULL : m->name[i];
}

const char *xray_instrmap_symbol(const xray_instrmap *m, int32_t fid)
{
    size_t i = fid_index(m, fid);
    return i == m->nfn ? NULL : m->symbol[i];
}

int32_t xray_instrmap_fid(const xray_instrmap *m, uint64_t function)
{
    const fid_entry key = {function, 0, 0};
    const fid_entry *at = bsearch(&key, m->by_address, m->nby_address, sizeof key, fid_cmp_address);
    return at ? at->fid : 0;
}

const char *xray_instrmap_symbol_error(const xray_instrmap *m)
{
    return m->symbol_error;
}

const char *xray_instrmap_where(const xray_instrmap *m, int32_t fid)
{
    fid_entry key = {0, 0, 0}, *at;
    if (!m->where || !xray_instrmap_address(m, fid, &key.address)) return NULL;
    at = bsearch(&key, m->by_address, m->nby_address, sizeof key, fid_cmp_address);
    return at ? m->where[at - m->by_address] : NULL;
}

void xray_instrmap_read_lines(xray_instrmap *m, const char *path)
{
    elf_file f;
    struct stat sb;
    char why[256];
    memset(&f, 0, sizeof f);
    f.why = why;
    f.why_len = sizeof why;
    f.fd = open(path, O_RDONLY);
    f.win = calloc(WINDOWS, sizeof *f.win);
    if (f.fd >= 0 && f.win && fstat(f.fd, &sb) == 0) {
        f.size = (uint64_t)sb.st_size;
        if (read_headers(&f) == 0) read_lines(&f, m);
    }
    if (f.fd >= 0) close(f.fd);
    free(f.shdr);
    free(f.win);
}
