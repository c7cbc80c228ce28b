/* elf.c - ptxed's --elf FILE[:BASE] for `tracedec flow`: the loadable
   segments of an ELF file as image sections, as ptxed's load_elf takes
   them (docs/ipt.md, "tracedec flow"): every PT_LOAD program header with
   file bytes (p_filesz > 0; permissions are not looked at) maps
   [p_offset, p_offset + p_filesz) of the file at p_vaddr; with a BASE
   other than 0 every segment moves by BASE - (the lowest PT_LOAD p_vaddr),
   whatever the ELF type (ET_EXEC or ET_DYN). 32- and 64-bit ELF,
   little-endian only (ptxed reads the headers in the host's byte order).
   The file is hostile input: every offset and size is checked; a header
   outside the file is an error (ptxed's too), a segment starting past the
   end is skipped with a warning and one running past it is cut at the end
   (libipt's file sections), a segment whose addresses wrap past 2^64 is
   skipped with a warning (libipt would map it wrapped). */
#include "tools/cli/ipt/ipt.h"

#include "single/tdec_ipt.h"

#include <string.h>

enum { ELF_HEADER32 = 52, ELF_HEADER64 = 64, ELF_PHDR32 = 32, ELF_PHDR64 = 56, ELF_PT_LOAD = 1 };

/* A little-endian field of n bytes at p. */
static uint64_t elf_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n-- > 0) v = v << 8 | p[n];
    return v;
}

/* One program header's fields. */
typedef struct elf_phdr {
    uint64_t type, offset, vaddr, filesz;
} elf_phdr;

static elf_phdr elf_read_phdr(const uint8_t *p, int is64)
{
    elf_phdr h;
    h.type = elf_le(p, 4);
    h.offset = is64 ? elf_le(p + 8, 8) : elf_le(p + 4, 4);
    h.vaddr = is64 ? elf_le(p + 16, 8) : elf_le(p + 8, 4);
    h.filesz = is64 ? elf_le(p + 32, 8) : elf_le(p + 16, 4);
    return h;
}

static int elf_fail(out_buf *err, uint64_t offset, const char *msg, const char *path)
{
    cli_diag(err, "error", (int64_t)offset, msg, path);
    return 0;
}

static void elf_warn(out_buf *err, unsigned phdr, const char *msg, const char *path)
{
    out_str(err, "tracedec: warning: ");
    out_str(err, path);
    out_str(err, ": program header ");
    out_u64(err, phdr);
    out_str(err, ": ");
    out_str(err, msg);
    out_str(err, "\n");
    out_flush(err);
}

int ipt_elf_sections(const uint8_t *file, uint64_t size, uint64_t base, const char *path,
                     tdec_ipt_section *out, size_t room, size_t *count, out_buf *err)
{
    uint64_t phoff, start, shift = 0, lowest = UINT64_MAX;
    unsigned phnum, k, entry;
    elf_phdr h;
    int is64;
    size_t found = 0;
    if (size < 16 || memcmp(file, "\177ELF", 4) != 0) return elf_fail(err, 0, "not an ELF file", path);
    if (file[4] != 1 && file[4] != 2) return elf_fail(err, 4, "unsupported ELF class", path);
    if (file[5] != 1) return elf_fail(err, 5, "not a little-endian ELF file", path);
    is64 = file[4] == 2;
    if (size < (is64 ? ELF_HEADER64 : ELF_HEADER32)) return elf_fail(err, size, "the ELF header is cut short", path);
    phoff = is64 ? elf_le(file + 32, 8) : elf_le(file + 28, 4);
    phnum = (unsigned)elf_le(file + (is64 ? 56 : 44), 2);
    entry = is64 ? ELF_PHDR64 : ELF_PHDR32; /* ptxed's stride, whatever e_phentsize says */
    /* phnum < 2^16 and entry <= 56: the product cannot overflow */
    if (phoff > size || size - phoff < (uint64_t)phnum * entry)
        return elf_fail(err, phoff, "the program headers run past the end of the file", path);
    for (k = 0; k < phnum; k++) {
        h = elf_read_phdr(file + phoff + (uint64_t)k * entry, is64);
        if (h.type == ELF_PT_LOAD && h.vaddr < lowest) lowest = h.vaddr;
    }
    if (base != 0 && lowest != UINT64_MAX) shift = base - lowest; /* modulo 2^64, as ptxed */
    for (k = 0; k < phnum; k++) {
        h = elf_read_phdr(file + phoff + (uint64_t)k * entry, is64);
        if (h.type != ELF_PT_LOAD || h.filesz == 0) continue;
        if (h.offset >= size) {
            elf_warn(err, k, "its file bytes start past the end of the file: skipped", path);
            continue;
        }
        if (h.filesz > size - h.offset) h.filesz = size - h.offset;
        start = h.vaddr + shift;
        if (h.filesz - 1 > UINT64_MAX - start) {
            elf_warn(err, k, "its addresses wrap past 2^64: skipped", path);
            continue;
        }
        if (*count == room) return elf_fail(err, phoff + (uint64_t)k * entry, "too many image sections", path);
        out[*count].vaddr = start;
        out[*count].size = h.filesz;
        out[*count].bytes = file + h.offset;
        out[*count].asid = TDEC_IPT_ASID_ANY;
        ++*count;
        found++;
    }
    if (found == 0) {
        out_str(err, "tracedec: warning: ");
        out_str(err, path);
        out_str(err, ": did not find any load sections.\n");
        out_flush(err);
    }
    return 1;
}
