/* elf_code.h - the machine code of the ELF files installed on this host:
   the inputs of the x86 length decoder's differential test
   (tests/diff/ipt_ild.c) and benchmark (tools/bench/ipt_ild.c).
   Include-only (static functions); POSIX (dirent, lstat): the includer
   defines _DEFAULT_SOURCE first.

       ec_paths p = {0};
       ec_list(&p, "/usr/bin");  ...  ec_sort(&p);
       for each p.v[k]: buf = ec_read(p.v[k], &len, 0) (NULL: not ELF, unreadable)
           ec_sections(buf, len, fn, ctx): fn(ctx, code, size, mode) for
           each executable section of an x86-64 (mode 3) or i386 (mode 2)
           file (tdec_ipt_exec_mode numbers)
       ec_free(&p); */
#ifndef ELF_CODE_H
#define ELF_CODE_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct ec_paths {
    char **v;
    size_t n, cap;
} ec_paths;

/* Adds the regular files under dir (recursively, 4 levels, no symlinks). */
static void ec_list(ec_paths *p, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4096];
    struct stat st;
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode) && strlen(path) < sizeof path - 256)
            ec_list(p, path);
        else if (S_ISREG(st.st_mode) && st.st_size > 64) {
            if (p->n == p->cap) {
                p->cap = p->cap ? 2 * p->cap : 1024;
                p->v = (char **)realloc(p->v, p->cap * sizeof *p->v);
                if (!p->v) exit(2);
            }
            p->v[p->n++] = strdup(path);
        }
    }
    closedir(d);
}

static int ec__cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorts the paths (a run's order does not depend on the file system's). */
static void ec_sort(ec_paths *p) { qsort(p->v, p->n, sizeof *p->v, ec__cmp); }

static void ec_free(ec_paths *p)
{
    size_t k;
    for (k = 0; k < p->n; k++) free(p->v[k]);
    free(p->v);
    p->v = NULL;
    p->n = p->cap = 0;
}

/* The whole file in a malloc'ed buffer if it is an ELF file of class
   elf_class (1: 32-bit, 2: 64-bit, 0: either), else NULL. */
static uint8_t *ec_read(const char *path, size_t *len, int elf_class)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL, head[5];
    long n;
    if (!f) return NULL;
    if (fread(head, 1, 5, f) == 5 && memcmp(head, "\177ELF", 4) == 0 && (!elf_class || head[4] == elf_class) &&
        fseek(f, 0, SEEK_END) == 0 &&
        (n = ftell(f)) > 64 && fseek(f, 0, SEEK_SET) == 0 && (buf = (uint8_t *)malloc((size_t)n)) != NULL) {
        if (fread(buf, 1, (size_t)n, f) == (size_t)n) {
            *len = (size_t)n;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

static uint64_t ec__rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n--) v = v << 8 | p[n];
    return v;
}

typedef void (*ec_section_fn)(void *ctx, const uint8_t *code, size_t size, uint32_t mode);

/* Calls fn for each executable PROGBITS section of a little-endian x86-64
   or i386 ELF file; other files are skipped. */
static void ec_sections(const uint8_t *elf, size_t size, ec_section_fn fn, void *ctx)
{
    int is64;
    unsigned machine, shnum, shentsize, k;
    uint64_t shoff;
    if (size < 64 || memcmp(elf, "\177ELF", 4) != 0 || elf[5] != 1) return;
    is64 = elf[4] == 2;
    machine = (unsigned)ec__rd(elf + 18, 2);
    if (!(is64 && machine == 62) && !(!is64 && machine == 3)) return;
    shoff = ec__rd(elf + (is64 ? 40 : 32), is64 ? 8 : 4);
    shentsize = (unsigned)ec__rd(elf + (is64 ? 58 : 46), 2);
    shnum = (unsigned)ec__rd(elf + (is64 ? 60 : 48), 2);
    if (shentsize < (is64 ? 64u : 40u)) return;
    for (k = 0; k < shnum; k++) {
        const uint8_t *sh;
        uint64_t type, flags, off, len;
        if (shoff > size || (uint64_t)(k + 1) * shentsize > size - shoff) return;
        sh = elf + shoff + (uint64_t)k * shentsize;
        type = ec__rd(sh + 4, 4);
        flags = ec__rd(sh + 8, is64 ? 8 : 4);
        off = ec__rd(sh + (is64 ? 24 : 16), is64 ? 8 : 4);
        len = ec__rd(sh + (is64 ? 32 : 20), is64 ? 8 : 4);
        if (type == 1 && (flags & 4) && off <= size && len <= size - off && len > 0) /* PROGBITS, EXECINSTR */
            fn(ctx, elf + off, (size_t)len, is64 ? 3u : 2u);
    }
}

#endif /* ELF_CODE_H */
