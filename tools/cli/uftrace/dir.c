/* dir.c - a uftrace data directory as uftrace 0.13's readers see it; see
   dir.h. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/demangle.h"

#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>
#include <fnmatch.h>
#include <regex.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define TDEC_UFTRACE_IMPLEMENTATION
#include "single/tdec_uftrace.h"

typedef struct uft_spec_cache {
    const uft_session *sess;
    uint64_t           addr; /* absolute start of the function */
    int                is_exit;
    int                found;
    uft_spec           spec;
} uft_spec_cache;

void *uft_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL) {
        fputs("tracedec: out of memory\n", stderr);
        exit(2);
    }
    return q;
}

void *uft_zalloc(size_t n)
{
    return memset(uft_xrealloc(NULL, n), 0, n);
}

static char *xstrndup(const char *s, size_t n)
{
    char *p = (char *)uft_xrealloc(NULL, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void uft_append(char **s, const char *text)
{
    size_t old = *s ? strlen(*s) : 0, n = strlen(text);
    *s = (char *)uft_xrealloc(*s, old + n + 1);
    memcpy(*s + old, text, n + 1);
}

char *uft_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, k;
    if (f == NULL) return NULL;
    for (;;) {
        if (cap - n < 65536) buf = (char *)uft_xrealloc(buf, cap = cap * 2 + 65536);
        k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0) break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* Calls fn on every line of text (without its newline). */
typedef int (*uft_line_fn)(void *ctx, const char *line, size_t len);
static int uft_each_line(const char *text, size_t n, uft_line_fn fn, void *ctx)
{
    const char *p = text, *end = text + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        int rc = fn(ctx, p, (size_t)(e - p));
        if (rc) return rc;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

/* The register names uftrace 0.13 accepts in argument specs (utils/regs.c),
   per architecture, in its order (an index identifies a register). */
static const char *const uft_regs_x86_64[] = {"RDI",  "RSI",  "RDX",  "RCX",  "R8",   "R9",   "XMM0", "XMM1",
                                              "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7", NULL};
static const char *const uft_regs_i386[] = {"ECX",  "EDX",  "XMM0", "XMM1", "XMM2",
                                            "XMM3", "XMM4", "XMM5", "XMM6", "XMM7", NULL};
static const char *const uft_regs_arm[] = {"R0",  "R1",  "R2",  "R3",  "S0",  "S1",  "S2",  "S3",  "S4",  "S5",
                                           "S6",  "S7",  "S8",  "S9",  "S10", "S11", "S12", "S13", "S14", "S15",
                                           "D0",  "D1",  "D2",  "D3",  "D4",  "D5",  "D6",  "D7",  NULL};
static const char *const uft_regs_aarch64[] = {"X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7",
                                               "S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7",
                                               "D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7", NULL};

static int uft_str_is(tdec_uftrace_text s, const char *lit)
{
    return s.len == strlen(lit) && memcmp(s.ptr, lit, s.len) == 0;
}

static const char *uft_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- info ------------------------------------------------------------------ */

static int uft_info_line(void *ctx, const char *line, size_t len)
{
    uft_dir *d = (uft_dir *)ctx;
    tdec_uftrace_text key, val;
    if (tdec_uftrace_parse_info_line(line, len, &key, &val) != TDEC_OK) return 0;
    if (uft_str_is(key, "exename")) {
        free(d->exename);
        d->exename = xstrndup(val.ptr, val.len);
    } else if (uft_str_is(key, "taskinfo") && val.len > 5 && memcmp(val.ptr, "tids=", 5) == 0) {
        const char *p = val.ptr + 5, *end = val.ptr + val.len;
        while (p < end) {
            long tid = strtol(p, NULL, 10);
            d->tids = (int32_t *)uft_xrealloc(d->tids, (d->ntids + 1) * sizeof *d->tids);
            d->tids[d->ntids++] = (int32_t)tid;
            while (p < end && *p != ',') p++;
            if (p < end) p++;
        }
    } else if (uft_str_is(key, "argspec") && !(val.len > 6 && memcmp(val.ptr, "lines=", 6) == 0)) {
        d->argspec = xstrndup(val.ptr, val.len);
    } else if (uft_str_is(key, "retspec")) {
        d->retspec = xstrndup(val.ptr, val.len);
    } else if (uft_str_is(key, "argauto")) {
        d->argauto = xstrndup(val.ptr, val.len);
    } else if (uft_str_is(key, "retauto")) {
        d->retauto = xstrndup(val.ptr, val.len);
    } else if (uft_str_is(key, "enumauto")) {
        free(d->enumauto);
        d->enumauto = xstrndup(val.ptr, val.len);
    } else if (uft_str_is(key, "auto-args")) {
        d->auto_args = 1;
    } else if (uft_str_is(key, "pattern_type")) {
        d->pattern = uft_str_is(val, "glob") ? 'g' : uft_str_is(val, "simple") ? 's' : 'r';
    } else if (uft_str_is(key, "cpuinfo") && val.len > 5 && memcmp(val.ptr, "desc=", 5) == 0) {
        /* the architecture, guessed from the description as uftrace does;
           32-bit ARM data: f80 means 8 bytes (a double) */
        if (val.len >= 10 && (memcmp(val.ptr + 5, "ARMv6", 5) == 0 || memcmp(val.ptr + 5, "ARMv7", 5) == 0)) {
            d->f80_size = 8;
            d->regs = uft_regs_arm;
        } else if (val.len >= 10 && memcmp(val.ptr + 5, "ARM64", 5) == 0) {
            d->regs = uft_regs_aarch64;
        } else {
            d->regs = d->hdr.elf_class == 1 ? uft_regs_i386 : uft_regs_x86_64;
        }
    }
    return 0;
}

static int uft_read_info(uft_dir *d, char *err, size_t errlen)
{
    char path[4096];
    size_t n;
    char *buf;
    tdec_status st;
    snprintf(path, sizeof path, "%s/info", d->path);
    buf = uft_read_file(path, &n);
    if (buf == NULL) {
        snprintf(err, errlen, "%s: cannot read", path);
        return -1;
    }
    st = tdec_uftrace_parse_header(buf, n, &d->hdr);
    if (st != TDEC_OK) {
        snprintf(err, errlen, "%s: %s", path, tdec_status_str(st));
        free(buf);
        return -1;
    }
    d->cfg.flags = d->hdr.endian == 2 ? TDEC_UFTRACE_F_BIG_ENDIAN : 0u;
    d->long_size = d->hdr.elf_class == 1 ? 4u : 8u;
    d->f80_size = 10;
    d->pattern = 'r';
    uft_each_line(buf + 40, n - 40, uft_info_line, d);
    free(buf);
    return 0;
}

/* ---- modules and symbols ------------------------------------------------------ */

static int uft_sym_cmp(const void *a, const void *b)
{
    const uft_sym *x = (const uft_sym *)a, *y = (const uft_sym *)b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int uft_is_symbol_end(const char *name, size_t len)
{
    return (len == 9 && memcmp(name, "__sym_end", 9) == 0) ||
           (len == 12 && memcmp(name, "__dynsym_end", 12) == 0) ||
           (len == 10 && memcmp(name, "__func_end", 10) == 0);
}

typedef struct uft_sym_loader {
    const uft_dir *d;
    uft_module *m;
    uint64_t    prev_addr;
    char        prev_type;
    size_t      cap;
} uft_sym_loader;

/* As uftrace 0.13 loads a .sym file: aliases (same address and type as the
   previous line) dropped, '?' markers closing the previous symbol, sizes
   from the next symbol. */
static int uft_sym_line(void *ctx, const char *line, size_t len)
{
    uft_sym_loader *l = (uft_sym_loader *)ctx;
    uft_module *m = l->m;
    tdec_uftrace_sym_line s;
    uft_sym *sym;
    if (tdec_uftrace_parse_sym_line(line, len, &s) != TDEC_OK || s.kind != TDEC_UFTRACE_SYM_SYMBOL) return 0;
    if (s.addr == l->prev_addr && s.type == l->prev_type) return 0;
    l->prev_addr = s.addr;
    l->prev_type = s.type;
    if (s.type == '?' || uft_is_symbol_end(s.name.ptr, s.name.len)) {
        if (m->nsyms > 0) m->syms[m->nsyms - 1].size = s.addr - m->syms[m->nsyms - 1].addr;
        return 0;
    }
    if (m->nsyms == l->cap) m->syms = (uft_sym *)uft_xrealloc(m->syms, (l->cap = l->cap * 2 + 256) * sizeof *m->syms);
    sym = &m->syms[m->nsyms++];
    sym->addr = s.addr;
    sym->size = s.has_size ? s.size : 0;
    sym->type = s.type;
    /* names are stored mangled; uftrace shows them demangled (by default
       "simple": "_Z..." and static initialisers "_GLOBAL__sub_I__Z...";
       "full" gives every name to __cxa_demangle: "a" is "signed char") */
    sym->name = xstrndup(s.name.ptr, s.name.len);
    if (sym->name[0] == '_' || l->d->demangle == 'f') {
        char buf[4096];
        uft_display_name(l->d, sym->name, buf, sizeof buf);
        free(sym->name);
        sym->name = xstrndup(buf, strlen(buf));
    }
    sym->name_len = strlen(sym->name);
    if (m->nsyms > 1 && sym[-1].size == 0) sym[-1].size = sym->addr - sym[-1].addr;
    return 0;
}

static int uft_dbg_line(void *ctx, const char *line, size_t len)
{
    uft_module *m = (uft_module *)ctx;
    tdec_uftrace_dbg_line l;
    uft_dbg_func *f;
    if (tdec_uftrace_parse_dbg_line(line, len, &l) != TDEC_OK) return 0;
    if (l.kind == TDEC_UFTRACE_DBG_FUNC) {
        m->dbg = (uft_dbg_func *)uft_xrealloc(m->dbg, (m->ndbg + 1) * sizeof *m->dbg);
        f = &m->dbg[m->ndbg++];
        f->addr = l.addr;
        f->args = f->retval = f->file = NULL;
        f->line = 0;
    } else if (l.kind == TDEC_UFTRACE_DBG_LINE && m->ndbg > 0) {
        f = &m->dbg[m->ndbg - 1];
        free(f->file);
        f->file = xstrndup(l.text.ptr, l.text.len);
        f->line = l.addr;
    } else if (l.kind == TDEC_UFTRACE_DBG_ENUM) {
        size_t have = m->enums ? strlen(m->enums) : 0;
        m->enums = (char *)uft_xrealloc(m->enums, have + l.text.len + 2);
        if (have > 0) m->enums[have++] = ';';
        memcpy(m->enums + have, l.text.ptr, l.text.len);
        m->enums[have + l.text.len] = '\0';
    } else if (m->ndbg > 0 && (l.kind == TDEC_UFTRACE_DBG_ARGS || l.kind == TDEC_UFTRACE_DBG_RETVAL)) {
        f = &m->dbg[m->ndbg - 1];
        if (l.kind == TDEC_UFTRACE_DBG_ARGS) f->args = xstrndup(l.text.ptr, l.text.len);
        else f->retval = xstrndup(l.text.ptr, l.text.len);
    }
    return 0;
}

static int uft_dbg_cmp(const void *a, const void *b)
{
    const uft_dbg_func *x = (const uft_dbg_func *)a, *y = (const uft_dbg_func *)b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Which .sym (.dbg) file holds module m: <basename>.sym, unless its header
   names another path or build-id; then <basename>-<4 hex>.sym. */
static void uft_module_file(const uft_dir *d, const uft_module *m, const char *ext, char *out, size_t len)
{
    char *text;
    size_t n;
    const char *base = uft_basename(m->path);
    int other = 0;
    snprintf(out, len, "%s/%s.sym", d->path, base);
    text = uft_read_file(out, &n);
    if (text != NULL) {
        const char *p = text, *end = text + n;
        while (p < end && *p == '#') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t l = (size_t)((nl ? nl : end) - p);
            if (l > 13 && memcmp(p, "# path name: ", 13) == 0)
                other |= strlen(m->path) != l - 13 || memcmp(p + 13, m->path, l - 13) != 0;
            if (l > 12 && memcmp(p, "# build-id: ", 12) == 0 && m->build_id[0])
                other |= strlen(m->build_id) != l - 12 || memcmp(p + 12, m->build_id, l - 12) != 0;
            p = nl ? nl + 1 : end;
        }
        free(text);
    }
    if (other) {
        if (m->build_id[0]) {
            snprintf(out, len, "%s/%s-%.4s%s", d->path, base, m->build_id, ext);
        } else {
            unsigned csum = 0;
            const char *c;
            for (c = m->path; *c; c++) csum = (csum + (unsigned)(signed char)*c) & 0xFFFFu;
            snprintf(out, len, "%s/%s-%04x%s", d->path, base, csum, ext);
        }
    } else {
        snprintf(out, len, "%s/%s%s", d->path, base, ext);
    }
}

static void uft_load_module(const uft_dir *d, uft_module *m)
{
    char path[4096];
    char *text;
    size_t n;
    uft_sym_loader l;
    m->loaded = 1;
    uft_module_file(d, m, ".sym", path, sizeof path);
    text = uft_read_file(path, &n);
    if (text != NULL) {
        l.d = d;
        l.m = m;
        l.prev_addr = UINT64_MAX;
        l.prev_type = 'X';
        l.cap = 0;
        uft_each_line(text, n, uft_sym_line, &l);
        free(text);
        if (m->nsyms > 1) qsort(m->syms, m->nsyms, sizeof *m->syms, uft_sym_cmp);
    }
    uft_module_file(d, m, ".dbg", path, sizeof path);
    text = uft_read_file(path, &n);
    if (text != NULL) {
        uft_each_line(text, n, uft_dbg_line, m);
        free(text);
        if (m->ndbg > 1) qsort(m->dbg, m->ndbg, sizeof *m->dbg, uft_dbg_cmp);
    }
}

static uft_module *uft_module_get(uft_dir *d, const char *path, size_t plen, const char *bid, size_t blen)
{
    size_t i;
    uft_module *m;
    for (i = 0; i < d->nmods; i++) {
        m = d->mods[i];
        if (strlen(m->path) == plen && memcmp(m->path, path, plen) == 0 && strlen(m->build_id) == blen &&
            memcmp(m->build_id, bid, blen) == 0)
            return m;
    }
    m = (uft_module *)uft_xrealloc(NULL, sizeof *m);
    memset(m, 0, sizeof *m);
    m->path = xstrndup(path, plen);
    m->build_id = xstrndup(bid, blen);
    d->mods = (uft_module **)uft_xrealloc(d->mods, (d->nmods + 1) * sizeof *d->mods);
    d->mods[d->nmods++] = m;
    return m;
}

void uft_display_name(const uft_dir *d, const char *name, char *buf, size_t len)
{
    typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);
    static cxa_demangle_fn cxa_demangle;
    static int looked;
    char *full = NULL;
    int status = -1;
    if (d->demangle == 'n' || len == 0) {
        snprintf(buf, len, "%s", name);
        return;
    }
    if (d->demangle != 'f') {
        uft_demangle_simple(name, buf, len);
        return;
    }
    if (!looked) {
        void *lib = dlopen("libstdc++.so.6", RTLD_LAZY), *sym = lib ? dlsym(lib, "__cxa_demangle") : NULL;
        looked = 1;
        if (sym != NULL) memcpy(&cxa_demangle, &sym, sizeof cxa_demangle);
        else fputs("tracedec: warning: --demangle=full needs libstdc++.so.6 (__cxa_demangle): names kept\n", stderr);
    }
    if (cxa_demangle != NULL) full = cxa_demangle(name, NULL, NULL, &status);
    snprintf(buf, len, "%s", status == 0 && full != NULL ? full : name);
    free(full);
}

/* "FILE:LINE" of sym, a symbol of map (NULL: none), into buf; 0 if none. */
static int uft_sym_srcline(const uft_sym *sym, const uft_map *map, char *buf, size_t len)
{
    const uft_module *m;
    size_t i;
    if (sym == NULL || map == NULL || (sym->type != 't' && sym->type != 'T')) return 0;
    m = map->mod;
    for (i = 0; i < m->ndbg; i++) {
        const uft_dbg_func *f = &m->dbg[i];
        if (f->file == NULL || f->addr < sym->addr || f->addr - sym->addr >= sym->size) continue;
        snprintf(buf, len, "%s:%d", f->file, (int)f->line);
        return 1;
    }
    return 0;
}

const uft_module *uft_module_symbols(const uft_dir *d, uft_module *m)
{
    if (!m->loaded) uft_load_module(d, m);
    return m;
}

/* Range lookup in a module (relative address); markers never match. */
static const uft_sym *uft_module_find(const uft_dir *d, uft_module *m, uint64_t rel)
{
    size_t lo = 0, hi;
    if (!m->loaded) uft_load_module(d, m);
    hi = m->nsyms;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uft_sym *s = &m->syms[mid];
        if (rel < s->addr) hi = mid;
        else if (rel - s->addr >= s->size) lo = mid + 1;
        else return s;
    }
    return NULL;
}

/* ---- sessions and tasks -------------------------------------------------------- */

static int uft_map_line(void *ctx, const char *line, size_t len)
{
    void **c = (void **)ctx;
    uft_dir *d = (uft_dir *)c[0];
    uft_session *s = (uft_session *)c[1];
    tdec_uftrace_map_line ml;
    if (tdec_uftrace_parse_map_line(line, len, &ml) != TDEC_OK || ml.path.len == 0 || ml.path.ptr[0] == '[')
        return 0;
    /* consecutive segments of one file are one module */
    if (s->nmaps > 0 && strlen(s->maps[s->nmaps - 1].mod->path) == ml.path.len &&
        memcmp(s->maps[s->nmaps - 1].mod->path, ml.path.ptr, ml.path.len) == 0) {
        s->maps[s->nmaps - 1].end = ml.end;
        return 0;
    }
    s->maps = (uft_map *)uft_xrealloc(s->maps, (s->nmaps + 1) * sizeof *s->maps);
    s->maps[s->nmaps].start = ml.start;
    s->maps[s->nmaps].end = ml.end;
    s->maps[s->nmaps].mod = uft_module_get(d, ml.path.ptr, ml.path.len, ml.build_id.ptr, ml.build_id.len);
    s->nmaps++;
    return 0;
}

/* The latest session of pid started at or before time. */
static uft_session *uft_find_session(const uft_dir *d, int32_t pid, uint64_t time)
{
    uft_session *best = NULL;
    size_t i;
    for (i = 0; i < d->nsess; i++)
        if (d->sess[i]->pid == pid && d->sess[i]->start <= time && (!best || d->sess[i]->start >= best->start))
            best = d->sess[i];
    return best;
}

static uft_session *uft_session_by_sid(const uft_dir *d, const char *sid, size_t len)
{
    size_t i;
    for (i = 0; i < d->nsess; i++)
        if (strlen(d->sess[i]->sid) == len && memcmp(d->sess[i]->sid, sid, len) == 0) return d->sess[i];
    return NULL;
}

static uft_task *uft_task_mut(const uft_dir *d, int32_t tid)
{
    size_t i;
    for (i = 0; i < d->ntasks; i++)
        if (d->tasks[i].tid == tid) return &d->tasks[i];
    return NULL;
}

const uft_task *uft_find_task(const uft_dir *d, int32_t tid)
{
    return uft_task_mut(d, tid);
}

static void uft_add_ref(uft_task *t, uft_session *s, uint64_t time)
{
    if (s == NULL) return;
    if (t->nrefs > 0) t->refs[t->nrefs - 1].end = time;
    t->refs = (uft_sref *)uft_xrealloc(t->refs, (t->nrefs + 1) * sizeof *t->refs);
    t->refs[t->nrefs].sess = s;
    t->refs[t->nrefs].start = time;
    t->refs[t->nrefs].end = UINT64_MAX;
    t->nrefs++;
}

/* A task takes the name of its session's program (uftrace's create_task()
   and create_session()). */
static void uft_task_comm(uft_task *t, const uft_session *s)
{
    snprintf(t->comm, sizeof t->comm, "%s", uft_basename(s->exename));
}

/* TASK (fork == 0: tid, pid) and FORK (fork == 1: tid = child, pid = parent). */
static void uft_create_task(uft_dir *d, int32_t tid, int32_t pid, uint64_t time, int fork)
{
    uft_task *t = uft_task_mut(d, tid), *parent;
    uft_session *s;
    if (t != NULL) { /* exec: the new session from now on */
        uft_add_ref(t, uft_find_session(d, pid, time), time);
        return;
    }
    d->tasks = (uft_task *)uft_xrealloc(d->tasks, (d->ntasks + 1) * sizeof *d->tasks);
    t = &d->tasks[d->ntasks++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->pid = fork ? tid : pid;
    t->ppid = fork ? pid : 0;
    t->time = time;
    s = uft_find_session(d, pid, time);
    parent = uft_task_mut(d, pid);
    if (s == NULL && parent != NULL && parent->nrefs > 0 && parent->refs[parent->nrefs - 1].start < time)
        s = parent->refs[parent->nrefs - 1].sess;
    uft_add_ref(t, s, time);
    if (s != NULL) uft_task_comm(t, s);
}

static int uft_task_line(void *ctx, const char *line, size_t len)
{
    uft_dir *d = (uft_dir *)ctx;
    tdec_uftrace_task_line tl;
    uft_session *s;
    char path[4096];
    size_t n;
    char *text;
    void *c[2];
    if (tdec_uftrace_parse_task_line(line, len, &tl) != TDEC_OK) return 0;
    switch (tl.kind) {
    case TDEC_UFTRACE_TASK_SESS:
        s = (uft_session *)uft_xrealloc(NULL, sizeof *s);
        memset(s, 0, sizeof *s);
        memcpy(s->sid, tl.sid.ptr, tl.sid.len < 16 ? tl.sid.len : 16);
        s->pid = tl.pid;
        s->start = tl.time;
        s->exename = xstrndup(tl.name.ptr, tl.name.len);
        d->sess = (uft_session **)uft_xrealloc(d->sess, (d->nsess + 1) * sizeof *d->sess);
        d->sess[d->nsess++] = s;
        if (uft_task_mut(d, s->pid) != NULL) uft_task_comm(uft_task_mut(d, s->pid), s); /* an exec */
        snprintf(path, sizeof path, "%s/sid-%s.map", d->path, s->sid);
        text = uft_read_file(path, &n);
        if (text != NULL) {
            c[0] = d;
            c[1] = s;
            uft_each_line(text, n, uft_map_line, c);
            free(text);
        }
        break;
    case TDEC_UFTRACE_TASK_TASK:
        uft_create_task(d, tl.tid, tl.pid, tl.time, 0);
        break;
    case TDEC_UFTRACE_TASK_FORK:
        uft_create_task(d, tl.pid, tl.ppid, tl.time, 1);
        break;
    case TDEC_UFTRACE_TASK_DLOP: {
        size_t i;
        s = uft_session_by_sid(d, tl.sid.ptr, tl.sid.len);
        if (s == NULL) break;
        s->dl = (uft_dlopen *)uft_xrealloc(s->dl, (s->ndl + 1) * sizeof *s->dl);
        /* keep time order; equal times in file order */
        for (i = s->ndl; i > 0 && s->dl[i - 1].time > tl.time; i--) s->dl[i] = s->dl[i - 1];
        s->dl[i].time = tl.time;
        s->dl[i].base = tl.base;
        s->dl[i].mod = uft_module_get(d, tl.name.ptr, tl.name.len, "", 0);
        s->ndl++;
        break;
    }
    default:
        break;
    }
    return 0;
}

/* The session of t at time; when it is one of t's own references, [*from,
   *to) is the time window in which it holds, else the window is empty. */
const uft_session *uft_task_session_win(const uft_dir *d, const uft_task *t, uint64_t time, uint64_t *from,
                                        uint64_t *to)
{
    size_t i;
    int32_t parent;
    /* a parent chain longer than the task count would be a cycle */
    size_t hops = 0;
    *from = *to = 0;
    while (t != NULL && hops++ <= d->ntasks) {
        for (i = 0; i < t->nrefs; i++) {
            if (t->refs[i].start <= time && time < t->refs[i].end) {
                if (hops == 1) {
                    *from = t->refs[i].start;
                    *to = t->refs[i].end;
                }
                return t->refs[i].sess;
            }
        }
        parent = t->ppid ? t->ppid : t->pid;
        if (parent == 0 || parent == t->tid) break;
        t = uft_find_task(d, parent);
    }
    return NULL;
}

const uft_session *uft_task_session(const uft_dir *d, const uft_task *t, uint64_t time)
{
    uint64_t from, to;
    return uft_task_session_win(d, t, time, &from, &to);
}

static const uft_sym *uft_session_find(const uft_dir *d, const uft_session *s, uint64_t time, uint64_t addr,
                                       const uft_map **map_out)
{
    size_t i;
    const uft_sym *sym;
    *map_out = NULL;
    for (i = 0; i < s->nmaps; i++) {
        if (s->maps[i].start <= addr && addr < s->maps[i].end) {
            *map_out = &s->maps[i];
            return uft_module_find(d, s->maps[i].mod, addr - s->maps[i].start);
        }
    }
    for (i = s->ndl; i > 0; i--) {
        const uft_dlopen *dl = &s->dl[i - 1];
        if (dl->time > time) continue;
        sym = uft_module_find(d, dl->mod, addr - dl->base);
        if (sym) return sym;
    }
    return NULL;
}

const uft_sym *uft_session_sym(const uft_dir *d, const uft_session *s, uint64_t time, uint64_t addr)
{
    const uft_map *map;
    return uft_session_find(d, s, time, addr, &map);
}

int uft_srcline(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr, char *buf, size_t len)
{
    const uft_map *map = NULL;
    const uft_sym *sym = uft_find_sym_map(d, t, time, addr, &map);
    return uft_sym_srcline(sym, map, buf, len);
}

int uft_session_srcline(const uft_dir *d, const uft_session *s, uint64_t time, uint64_t addr, char *buf, size_t len)
{
    const uft_map *map = NULL;
    const uft_sym *sym = uft_session_find(d, s, time, addr, &map);
    return uft_sym_srcline(sym, map, buf, len);
}

const uft_sym *uft_find_sym_slow(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr, const uft_map **map)
{
    uft_sym_hit *c = uft_sym_hit_slot(d, addr);
    const uft_session *s;
    const uft_map *m = NULL;
    const uft_sym *sym = NULL;
    uint64_t from, to;
    s = uft_task_session_win(d, t, time, &from, &to);
    if (s != NULL) sym = uft_session_find(d, s, time, addr, &m);
    if (sym != NULL && m != NULL && from < to) {
        c->task = t;
        c->from = from;
        c->span = to - from;
        c->lo = m->start + sym->addr;
        c->size = sym->size;
        c->sym = sym;
        c->map = m;
    }
    if (map) *map = m;
    return sym;
}

/* ---- enums ------------------------------------------------------------------------ */

/* The values of enum `name` in the definition list text (first definition
   of that name wins), in uftrace's order: by value, highest first, later
   definitions of an equal value first. Returns the count (0: not found). */
static size_t uft_enum_values(const char *text, const char *name, tdec_uftrace_enum_value *v, size_t cap)
{
    const char *p, *end;
    tdec_uftrace_text ename;
    tdec_uftrace_enum_value x;
    int64_t next;
    size_t n, i;
    if (text == NULL) return 0;
    p = text;
    end = text + strlen(text);
    while (tdec_uftrace_next_enum(&p, end, &ename) == TDEC_OK) {
        int want = ename.len == strlen(name) && memcmp(ename.ptr, name, ename.len) == 0;
        n = 0;
        next = 0;
        while (tdec_uftrace_next_enum_value(&p, end, &next, &x) == TDEC_OK) {
            if (!want || n == cap) continue;
            for (i = 0; i < n && v[i].value > x.value; i++) continue;
            memmove(v + i + 1, v + i, (n - i) * sizeof *v);
            v[i] = x;
            n++;
        }
        if (want) return n;
    }
    return 0;
}

void uft_enum_text(const uft_dir *d, uft_module *m, const char *name, int32_t val, char *buf, size_t len)
{
    static tdec_uftrace_enum_value v[4096];
    size_t n = 0, i, used = 0;
    int32_t left = val; /* an int in uftrace */
    if (m != NULL && !m->loaded) uft_load_module(d, m);
    if (m != NULL) n = uft_enum_values(m->enums, name, v, sizeof v / sizeof *v);
    if (n == 0 && (d->hdr.feat_mask & TDEC_UFTRACE_FEAT_AUTO_ARGS))
        n = uft_enum_values(d->enumauto, name, v, sizeof v / sizeof *v);
    buf[0] = '\0';
    if (n == 0) {
        snprintf(buf, len, "%d", (int)val);
        return;
    }
    for (i = 0; i < n; i++) {
        if (v[i].value == val) {
            snprintf(buf, len, "%.*s", (int)v[i].name.len, v[i].name.ptr);
            return;
        }
    }
    /* bit flags, highest value first, as long as something is left */
    for (i = 0; i < n; i++) {
        if (v[i].value <= left) {
            left = (int32_t)(uint32_t)((uint64_t)(int64_t)left - (uint64_t)v[i].value);
            if (used < len)
                used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? "|" : "", (int)v[i].name.len,
                                         v[i].name.ptr);
        }
        if (left == 0) break;
    }
    if (used > 0 && left != 0) {
        if (used < len) snprintf(buf + used, len - used, "+%#x", (unsigned)left);
    } else if (used == 0) {
        if (val > 100000 || val < -100000) snprintf(buf, len, "%#x", (unsigned)val);
        else snprintf(buf, len, "%d", (int)val);
    }
}

int uft_func_enum_text(uft_dir *d, const uft_task *t, uint64_t time, uint64_t func, const char *name, int32_t val,
                       char *buf, size_t len)
{
    const uft_map *map = NULL;
    if (uft_task_session(d, t, time) != NULL) uft_find_sym_map(d, t, time, func, &map);
    if (map == NULL) return 0;
    uft_enum_text(d, map->mod, name, val, buf, len);
    return 1;
}

/* ---- argument specs ------------------------------------------------------------ */

static int uft_has_meta(const char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strchr(".?*+-^$|()[]{}", p[i]) && p[i] != '\0') return 1;
    return 0;
}

/* Does pattern match name? Exact compare unless the pattern has regex or
   glob characters. *exact tells which it was. */
/* A spec pattern as uftrace reads it: demangled as the symbol names are
   (setup_trigger() and build_auto_args() demangle every pattern). */
static tdec_uftrace_text uft_pattern_display(const uft_dir *d, tdec_uftrace_text pat, char *buf, size_t len)
{
    char raw[4096];
    if ((pat.len == 0 || pat.ptr[0] != '_') && d->demangle != 'f') return pat;
    snprintf(raw, sizeof raw, "%.*s", (int)pat.len, pat.ptr);
    uft_display_name(d, raw, buf, len);
    pat.ptr = buf;
    pat.len = strlen(buf);
    return pat;
}

static int uft_match(const uft_dir *d, tdec_uftrace_text pat, const char *name, int *exact)
{
    char *p, shown[4096];
    int ok = 0;
    *exact = 0;
    pat = uft_pattern_display(d, pat, shown, sizeof shown);
    /* uftrace takes a pattern naming an operator as a plain name */
    if (d->pattern == 's' || !uft_has_meta(pat.ptr, pat.len) || (pat.len >= 9 && memcmp(pat.ptr, "operator ", 9) == 0)) {
        *exact = 1;
        return strlen(name) == pat.len && memcmp(name, pat.ptr, pat.len) == 0;
    }
    p = xstrndup(pat.ptr, pat.len);
    if (d->pattern == 'g') {
        ok = fnmatch(p, name, 0) == 0;
    } else {
        regex_t re;
        if (regcomp(&re, p, REG_EXTENDED | REG_NOSUB) == 0) {
            ok = regexec(&re, name, 0, NULL, 0) == 0;
            regfree(&re);
        }
    }
    free(p);
    return ok;
}

/* How uftrace 0.13 identifies an item in a function's list (add_arg_spec):
   a later item with the same identity replaces the earlier one. */
#define UFT_ID_INDEX 0 /* by index (retval and arg0 share index 0)    */
#define UFT_ID_FLOAT 1 /* fparg, or /f: by index                       */
#define UFT_ID_REG   2 /* %REG: by register                            */
#define UFT_ID_STACK 3 /* %stack: by offset                            */

typedef struct uft_item {
    tdec_uftrace_spec_item item;
    tdec_uftrace_arg       layout;
    int                    id_type; /* UFT_ID_*                      */
    uint32_t               id;      /* index, register or offset     */
    int                    exact;   /* set by an exact-name pattern  */
    char                   type_name[32];
} uft_item;

typedef struct uft_items {
    uft_item v[TDEC_UFTRACE_MAX_ARGS];
    size_t   n;
    int      has_args, has_retval; /* explicit items of each kind set */
} uft_items;

/* The item pass (1: argument specs, 2: return value specs) takes only its
   own kind of item, as uftrace ignores "incompatible actions". */
#define UFT_PASS_ARGS   1
#define UFT_PASS_RETVAL 2

static int uft_in_pass(uint32_t kind, int pass)
{
    if (kind == TDEC_UFTRACE_ITEM_RETVAL) return pass == UFT_PASS_RETVAL;
    return (kind == TDEC_UFTRACE_ITEM_ARG || kind == TDEC_UFTRACE_ITEM_FPARG) && pass == UFT_PASS_ARGS;
}

/* The index of a register name (case-insensitive) in the recorded
   architecture's table, or -1. */
static int uft_reg_number(const uft_dir *d, const char *p, size_t len)
{
    int i;
    for (i = 0; d->regs != NULL && d->regs[i] != NULL; i++)
        if (strlen(d->regs[i]) == len && strncasecmp(d->regs[i], p, len) == 0) return i;
    return -1;
}

/* Sets x's identity; 0 if uftrace's parser rejects the item (a register
   name unknown to the recorded architecture). A struct in registers
   ("%RDI+RSI") is identified by its last known register; unknown names
   there are skipped, as uftrace skips them. */
static int uft_item_identity(const uft_dir *d, uft_item *x)
{
    const tdec_uftrace_spec_item *it = &x->item;
    const char *p = it->reg.ptr, *e = it->reg.ptr + it->reg.len, *q;
    int r;
    x->id_type = it->kind == TDEC_UFTRACE_ITEM_FPARG || it->format == 'f' ? UFT_ID_FLOAT : UFT_ID_INDEX;
    x->id = it->index;
    if (it->has_stack) {
        x->id_type = UFT_ID_STACK;
        x->id = it->stack_offset;
    } else if (it->format == 't') {
        for (; p < e; p = q + 1) {
            for (q = p; q < e && *q != '+'; q++) continue;
            if ((r = uft_reg_number(d, p, (size_t)(q - p))) >= 0) {
                x->id_type = UFT_ID_REG;
                x->id = (uint32_t)r;
            }
            if (q == e) break;
        }
    } else if (it->reg.len > 0) {
        if ((r = uft_reg_number(d, p, it->reg.len)) < 0) return 0;
        x->id_type = UFT_ID_REG;
        x->id = (uint32_t)r;
    }
    return 1;
}

/* Parses one item; 0 if uftrace 0.13's parser rejects it. */
static int uft_make_item(const uft_dir *d, const char *s, size_t len, int exact, uft_item *x)
{
    memset(x, 0, sizeof *x);
    if (tdec_uftrace_parse_spec_item(s, len, &x->item) != TDEC_OK) return 0;
    if (tdec_uftrace_spec_item_layout(&x->item, d->long_size, d->f80_size, &x->layout) != TDEC_OK) return 0;
    if (!uft_item_identity(d, x)) return 0;
    x->exact = exact;
    if (x->item.type_name.len > 0) {
        size_t n = x->item.type_name.len < sizeof x->type_name - 1 ? x->item.type_name.len : sizeof x->type_name - 1;
        memcpy(x->type_name, x->item.type_name.ptr, n);
    }
    x->item.type_name.ptr = NULL; /* point into a string we do not keep */
    x->item.reg.ptr = NULL;
    return 1;
}

/* Adds x under the replacement rule: an exact-name pattern's item is not
   replaced by a regex pattern's. */
static void uft_merge_item(uft_items *it, const uft_item *x)
{
    size_t i;
    for (i = 0; i < it->n; i++) {
        if (it->v[i].id_type == x->id_type && it->v[i].id == x->id) {
            if (x->exact || !it->v[i].exact) it->v[i] = *x;
            return;
        }
    }
    if (it->n < TDEC_UFTRACE_MAX_ARGS) it->v[it->n++] = *x;
}

/* Applies the items of one spec entry that belong to the pass: all or
   none, as uftrace drops an entry with an item its parser rejects ("arg1/o",
   "ARG1", an unknown register). Returns how many were added, -1 if the
   entry was dropped. */
static int uft_add_items(const uft_dir *d, uft_items *it, const char *s, size_t len, int exact, int pass)
{
    const char *pos = s, *end = s + len;
    tdec_uftrace_text text;
    tdec_uftrace_spec_item item;
    uft_item add[TDEC_UFTRACE_MAX_ARGS], x;
    size_t n = 0, i;
    while (tdec_uftrace_next_spec_item(&pos, end, &text) == TDEC_OK) {
        item.kind = TDEC_UFTRACE_ITEM_OTHER;
        tdec_uftrace_parse_spec_item(text.ptr, text.len, &item); /* sets kind even for a bad item */
        if (!uft_in_pass(item.kind, pass)) continue;
        if (!uft_make_item(d, text.ptr, text.len, exact, &x)) return -1;
        if (n < TDEC_UFTRACE_MAX_ARGS) add[n++] = x;
    }
    for (i = 0; i < n; i++) uft_merge_item(it, &add[i]);
    return (int)n;
}

/* The built-in prototype of name in an argauto/retauto list. */
static int uft_auto_proto(const uft_dir *d, const char *list, const char *name, tdec_uftrace_spec_entry *out)
{
    const char *pos = list, *end;
    char shown[4096];
    tdec_uftrace_text pat;
    if (list == NULL) return 0;
    end = list + strlen(list);
    while (tdec_uftrace_next_spec_entry(&pos, end, out) == TDEC_OK) {
        pat = uft_pattern_display(d, out->pattern, shown, sizeof shown);
        if (pat.len == strlen(name) && memcmp(pat.ptr, name, pat.len) == 0) return 1;
    }
    return 0;
}

/* Automatic specs for one function: its .dbg entry, else the built-in
   prototype; only the kinds not set explicitly. */
static void uft_add_auto(const uft_dir *d, uft_items *it, const uft_sym *sym, const uft_map *map, int exact)
{
    tdec_uftrace_spec_entry e;
    const uft_dbg_func *f = NULL;
    size_t i;
    uft_items add;
    if (map != NULL && (d->hdr.feat_mask & TDEC_UFTRACE_FEAT_DEBUG_INFO))
        for (i = 0; i < map->mod->ndbg; i++)
            if (map->mod->dbg[i].addr == sym->addr) f = &map->mod->dbg[i];
    memset(&add, 0, sizeof add);
    if (f != NULL) {
        if (f->args) uft_add_items(d, &add, f->args, strlen(f->args), exact, UFT_PASS_ARGS);
        if (f->retval) uft_add_items(d, &add, f->retval, strlen(f->retval), exact, UFT_PASS_RETVAL);
    } else {
        if (uft_auto_proto(d, d->argauto, sym->name, &e))
            uft_add_items(d, &add, e.items.ptr, e.items.len, exact, UFT_PASS_ARGS);
        if (uft_auto_proto(d, d->retauto, sym->name, &e))
            uft_add_items(d, &add, e.items.ptr, e.items.len, exact, UFT_PASS_RETVAL);
    }
    for (i = 0; i < add.n; i++) {
        int rv = add.v[i].item.kind == TDEC_UFTRACE_ITEM_RETVAL;
        if ((rv && it->has_retval) || (!rv && it->has_args)) continue;
        if (it->n < TDEC_UFTRACE_MAX_ARGS) it->v[it->n++] = add.v[i];
    }
}

/* One pass over a spec list (info argspec:, retspec:, ...) for a function.
   An entry without items of the pass asks for automatic ones. */
static void uft_apply_list(const uft_dir *d, uft_items *it, const char *list, const uft_sym *sym, int pass,
                           int *want_auto)
{
    const char *pos = list, *end;
    tdec_uftrace_spec_entry e;
    int exact, n;
    if (list == NULL) return;
    end = list + strlen(list);
    while (tdec_uftrace_next_spec_entry(&pos, end, &e) == TDEC_OK) {
        if (!uft_match(d, e.pattern, sym->name, &exact)) continue;
        n = uft_add_items(d, it, e.items.ptr, e.items.len, exact, pass);
        if (n == 0) *want_auto = 1;
        if (n > 0 && pass == UFT_PASS_ARGS) it->has_args = 1;
        if (n > 0 && pass == UFT_PASS_RETVAL) it->has_retval = 1;
    }
}

/* uftrace's message for the first item of an entry it rejects, in pass;
   "" if none or it says nothing. */
static const char *uft_entry_usage(const uft_dir *d, tdec_uftrace_text items, int pass, char *buf, size_t len)
{
    const char *pos = items.ptr, *end = items.ptr + items.len, *slash;
    tdec_uftrace_text text;
    uft_item x;
    static const char *const what[] = {"", "", "skipping invalid argument", "unsupported argument type",
                                       "unsupported argument size", "invalid enum spec", "unknown register name"};
    uint32_t bad;
    while (tdec_uftrace_next_spec_item(&pos, end, &text) == TDEC_OK) {
        x.item.kind = TDEC_UFTRACE_ITEM_OTHER;
        x.item.bad = 0;
        bad = tdec_uftrace_parse_spec_item(text.ptr, text.len, &x.item) == TDEC_OK ? 0u : x.item.bad;
        if (!uft_in_pass(x.item.kind, pass)) continue;
        if (bad == 0 && !uft_make_item(d, text.ptr, text.len, 0, &x)) bad = TDEC_UFTRACE_BAD_REGISTER;
        if (bad == 0) continue;
        if (bad >= sizeof what / sizeof *what || what[bad][0] == '\0') return "";
        if (bad == TDEC_UFTRACE_BAD_ENUM) { /* the text from the format on */
            slash = memchr(text.ptr, '/', text.len);
            text.len -= (size_t)(slash + 1 - text.ptr);
            text.ptr = slash + 1;
        }
        snprintf(buf, len, "Usage: %s: %.*s\n", what[bad], (int)text.len, text.ptr);
        return buf;
    }
    return "";
}

void uft_spec_usage(const uft_dir *d, out_buf *out)
{
    const char *list[3];
    int pass[3] = {UFT_PASS_ARGS, UFT_PASS_RETVAL, UFT_PASS_RETVAL};
    size_t n = 0, i, k;
    const char *pos, *end;
    tdec_uftrace_spec_entry e;
    char buf[1100];
    list[n++] = d->argspec;
    list[n++] = d->retspec;
    if (d->argspec != NULL && strstr(d->argspec, "retval") != NULL) list[n++] = d->argspec;
    for (i = 0; i < n; i++) {
        if (list[i] == NULL) continue;
        for (k = 0; k < d->nsess; k++) {
            end = list[i] + strlen(list[i]);
            for (pos = list[i]; tdec_uftrace_next_spec_entry(&pos, end, &e) == TDEC_OK;)
                out_str(out, uft_entry_usage(d, e.items, pass[i], buf, sizeof buf));
        }
    }
}

/* The layout of the function's argument (entry) or return value (exit)
   block: uftrace 0.13 reads every item of index 0 in an exit block, the
   others in an entry block. Returns 0 if no spec applies; a spec may be
   empty ("f@arg0": the entry block is empty). */
static int uft_build_spec(uft_dir *d, const uft_sym *sym, const uft_map *map, int is_exit, uft_spec *out)
{
    uft_items it;
    int want_auto = 0, exact;
    size_t i;
    tdec_uftrace_text dot;
    memset(&it, 0, sizeof it);
    uft_apply_list(d, &it, d->argspec, sym, UFT_PASS_ARGS, &want_auto);
    uft_apply_list(d, &it, d->retspec, sym, UFT_PASS_RETVAL, &want_auto);
    /* old recordings kept return values in argspec: uftrace reads it again */
    if (d->argspec != NULL && strstr(d->argspec, "retval") != NULL)
        uft_apply_list(d, &it, d->argspec, sym, UFT_PASS_RETVAL, &want_auto);
    if (d->auto_args) {
        if (d->hdr.feat_mask & TDEC_UFTRACE_FEAT_DEBUG_INFO) {
            dot.ptr = d->pattern == 'g' ? "*" : ".";
            dot.len = 1;
            if (uft_match(d, dot, sym->name, &exact)) want_auto = 1;
        } else {
            uft_apply_list(d, &it, d->argauto, sym, UFT_PASS_ARGS, &want_auto);
            uft_apply_list(d, &it, d->retauto, sym, UFT_PASS_RETVAL, &want_auto);
        }
    }
    if (want_auto) uft_add_auto(d, &it, sym, map, 0);
    out->layout.count = 0;
    for (i = 0; i < it.n; i++) {
        uint32_t k = out->layout.count;
        if ((it.v[i].item.index == 0) != is_exit) continue;
        out->layout.args[k] = it.v[i].layout;
        memcpy(out->type_name[k], it.v[i].type_name, sizeof out->type_name[k]);
        out->layout.count++;
    }
    return out->layout.count > 0 || it.has_args || it.has_retval;
}

int uft_resolve_spec(uft_dir *d, const uft_task *t, uint64_t time, uint64_t addr, int is_exit, uft_spec *out)
{
    const uft_session *s = uft_task_session(d, t, time);
    const uft_map *map = NULL;
    const uft_sym *sym;
    uint64_t fn;
    size_t i;
    uft_spec_cache *c;
    if (s == NULL) return 0;
    sym = uft_session_find(d, s, time, addr, &map);
    /* 0.13 applies specs to the session's maps only, not to dlopen()ed code */
    if (sym == NULL || map == NULL) return 0;
    fn = map->start + sym->addr;
    for (i = 0; i < d->ncache; i++) {
        c = &d->cache[i];
        if (c->sess == s && c->addr == fn && c->is_exit == is_exit) {
            if (c->found) *out = c->spec;
            return c->found;
        }
    }
    d->cache = (uft_spec_cache *)uft_xrealloc(d->cache, (d->ncache + 1) * sizeof *d->cache);
    c = &d->cache[d->ncache++];
    c->sess = s;
    c->addr = fn;
    c->is_exit = is_exit;
    c->found = uft_build_spec(d, sym, map, is_exit, &c->spec);
    if (c->found) *out = c->spec;
    return c->found;
}

/* ---- events ------------------------------------------------------------------------ */

static int uft_event_line(void *ctx, const char *line, size_t len)
{
    uft_dir *d = (uft_dir *)ctx;
    unsigned long id;
    char *end;
    char *copy;
    if (len < 8 || memcmp(line, "EVENT: ", 7) != 0) return 0;
    copy = xstrndup(line + 7, len - 7);
    id = strtoul(copy, &end, 10);
    while (*end == ' ') end++;
    d->events = (uft_event_def *)uft_xrealloc(d->events, (d->nevents + 1) * sizeof *d->events);
    d->events[d->nevents].id = (uint32_t)id;
    d->events[d->nevents].name = strdup(end);
    d->nevents++;
    free(copy);
    return 0;
}

const char *uft_event_name(const uft_dir *d, uint64_t id, char *buf, size_t len)
{
    static const char *const builtin[] = {
        "read:proc/statm", "read:page-fault", "diff:proc/statm", "diff:page-fault", "read:pmu-cycle",
        "diff:pmu-cycle",  "read:pmu-cache",  "diff:pmu-cache",  "read:pmu-branch", "diff:pmu-branch",
        "watch:cpu",
    };
    static const char *const perf[] = {
        "sched-in", "sched-out", "schedule", "task-new", "task-exit", "task-name",
        "sched-out (pre-empted)", "schedule (pre-empted)",
    };
    size_t i;
    if (id == 2000000) {
        snprintf(buf, len, "external-data");
    } else if (id >= 1000000) {
        for (i = 0; i < d->nevents; i++)
            if (d->events[i].id == id) {
                snprintf(buf, len, "%s", d->events[i].name);
                return buf;
            }
        snprintf(buf, len, "user_event:%u", (unsigned)id);
    } else if (id >= 200000) {
        snprintf(buf, len, "linux:%s", id >= 200001 && id <= 200008 ? perf[id - 200001] : "unknown");
    } else if (id >= 100000) {
        if (id >= 100001 && id <= 100011) snprintf(buf, len, "%s", builtin[id - 100001]);
        else snprintf(buf, len, "builtin_event:%u", (unsigned)id);
    } else {
        snprintf(buf, len, "kernel_event:%u", (unsigned)id);
    }
    return buf;
}

/* ---- open ------------------------------------------------------------------------------ */

static int uft_name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* perf-cpu*.dat in name order, as uftrace's glob() lists them. */
static void uft_list_perf(uft_dir *d)
{
    DIR *dp = opendir(d->path);
    struct dirent *de;
    size_t len;
    if (dp == NULL) return;
    while ((de = readdir(dp)) != NULL) {
        len = strlen(de->d_name);
        if (len < 12 || strncmp(de->d_name, "perf-cpu", 8) != 0 || strcmp(de->d_name + len - 4, ".dat") != 0)
            continue;
        d->perf_files = (char **)uft_xrealloc(d->perf_files, (d->nperf_files + 1) * sizeof *d->perf_files);
        d->perf_files[d->nperf_files++] = xstrndup(de->d_name, len);
    }
    closedir(dp);
    if (d->nperf_files > 1) qsort(d->perf_files, d->nperf_files, sizeof *d->perf_files, uft_name_cmp);
}

/* 1 if the directory holds a non-empty file matching uftrace's glob
   "[0-9]*.dat": without one uftrace 0.13 refuses the directory. */
static int uft_has_task_data(const char *path)
{
    DIR *dp = opendir(path);
    struct dirent *de;
    char file[4096];
    struct stat sb;
    size_t len;
    int found = 0;
    if (dp == NULL) return 0;
    while (!found && (de = readdir(dp)) != NULL) {
        len = strlen(de->d_name);
        if (len < 5 || de->d_name[0] < '0' || de->d_name[0] > '9' || strcmp(de->d_name + len - 4, ".dat") != 0)
            continue;
        snprintf(file, sizeof file, "%s/%s", path, de->d_name);
        found = stat(file, &sb) == 0 && sb.st_size > 0;
    }
    closedir(dp);
    return found;
}

int uft_dir_load(uft_dir *d, const char *path, char *err, size_t errlen)
{
    char file[4096];
    char *text;
    size_t n;
    int no_task_txt = 0;
    memset(d, 0, sizeof *d);
    d->path = strdup(path);
    if (uft_read_info(d, err, errlen) < 0) return -1;
    snprintf(file, sizeof file, "%s/task.txt", path);
    text = uft_read_file(file, &n);
    if (text != NULL) {
        uft_each_line(text, n, uft_task_line, d);
        free(text);
    } else {
        no_task_txt = 1;
    }
    snprintf(file, sizeof file, "%s/events.txt", path);
    text = uft_read_file(file, &n);
    if (text != NULL) {
        uft_each_line(text, n, uft_event_line, d);
        free(text);
    }
    d->tid_dat = (unsigned char *)uft_xrealloc(NULL, d->ntids + 1);
    for (n = 0; n < d->ntids; n++) {
        snprintf(file, sizeof file, "%s/%d.dat", path, d->tids[n]);
        d->tid_dat[n] = access(file, F_OK) == 0;
    }
    uft_list_perf(d);
    return no_task_txt;
}

int uft_dir_open(uft_dir *d, const char *path, char *err, size_t errlen)
{
    int rc = uft_dir_load(d, path, err, errlen);
    if (rc < 0) return -1;
    if (rc > 0) {
        snprintf(err, errlen, "%s/task.txt: cannot read (the legacy binary 'task' file is not supported)", path);
        return -1;
    }
    if (d->ntids == 0 || !uft_has_task_data(path)) {
        /* uftrace 0.13: "cannot open record data: DIR: No data available" */
        snprintf(err, errlen, "%s: no task data (no non-empty <tid>.dat)", path);
        return -1;
    }
    return 0;
}

int uft_tid_recorded(const uft_dir *d, int32_t tid)
{
    size_t i;
    for (i = 0; i < d->ntids; i++)
        if (d->tids[i] == tid) return d->tid_dat[i];
    return 0;
}
