/* uftrace.c - unit tests of single/tdec_uftrace.h. Run from the
   repository root (make test does): reads the recordings in
   tests/data/uftrace/<sample>/uftrace.data and uftrace 0.13's own
   `uftrace dump` output beside them (ref/dump.txt).

   Sections: sizeof; info header and text lines; task.txt; maps; .sym; .dbg;
   spec grammar and layouts; enums; every <tid>.dat and perf-cpuN.dat
   decoded and compared with ref/dump.txt record by record (argument values
   included, specs resolved from info/.dbg as uftrace does); the args
   sample's `mixed` block with a hand-written spec; chunk invariance and
   every prefix; big-endian copies; a synthesized 32-bit block; hostile
   inputs; API misuse. Every decode of a .dat or perf file goes through the
   oracle, tests/lib/uftrace_check.h, shared with fuzz/fuzz_uftrace.c; chunk
   invariance and every prefix are its runners (tests/lib/check_common.h). */
#define _POSIX_C_SOURCE 200809L
#define TDEC_UFTRACE_IMPLEMENTATION
#include "tests/lib/uftrace_check.h"
#include "tests/lib/testlib.h"

#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdint.h>
#include <strings.h>

#define DATA_DIR "tests/data/uftrace"
#define LOG_CAP  (1u << 20)

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

typedef struct buf {
    char  *p;
    size_t len, cap;
} buf;

static void buf_add(buf *b, const void *d, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap) cap *= 2;
        b->p = (char *)realloc(b->p, cap);
        if (b->p == NULL) abort();
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, d, n);
    b->len += n;
    b->p[b->len] = 0;
}

static void buf_printf(buf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) abort();
    buf_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void buf_free(buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

static int str_eq(tdec_uftrace_text s, const char *lit)
{
    return s.len == strlen(lit) && (s.len == 0 || memcmp(s.ptr, lit, s.len) == 0);
}

/* Next line of [*p, e) without its '\n'; 0 at the end. */
static int next_line(const char **p, const char *e, const char **ls, size_t *ll)
{
    const char *q;
    if (*p >= e) return 0;
    for (q = *p; q < e && *q != '\n'; q++) {}
    *ls = *p;
    *ll = (size_t)(q - *p);
    *p = q < e ? q + 1 : q;
    return 1;
}

static int ends_with(const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    return n >= m && strcmp(name + n - m, suffix) == 0;
}

/* ------------------------------------------------------------------ */
/* samples                                                             */

#define MAX_FILES 16

typedef struct fspec {
    char                 name[256];
    int                  ret;  /* EXIT spec (retval items)            */
    int                  prio; /* 3 argspec/retspec, 2 .dbg, 1 *auto  */
    tdec_uftrace_argspec spec;
    /* each item's identity in uftrace (add_arg_spec): by index for an
       integer (0) or a float (1), by register (2), by stack offset (3) */
    unsigned char        id_type[TDEC_UFTRACE_MAX_ARGS];
    uint32_t             id[TDEC_UFTRACE_MAX_ARGS];
} fspec;

typedef struct sample {
    char           name[64];
    char           dir[300];
    unsigned char *info;
    size_t         info_len;
    char          *dump;
    size_t         dump_len;
    char           dats[MAX_FILES][64];
    int            ndats;
    char           perfs[MAX_FILES][64];
    int            nperfs;
    char           syms[64][128];
    int            nsyms;
    char           dbgs[64][128];
    int            ndbgs;
    char           maps[MAX_FILES][64];
    int            nmaps;
    unsigned       long_size;
    int            auto_args;
    fspec         *fs;
    size_t         nfs;
} sample;

static sample samples[32];
static int nsamples;

static int cmp_sample(const void *a, const void *b)
{
    return strcmp(((const sample *)a)->name, ((const sample *)b)->name);
}

static int cmp_name64(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int cmp_name128(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static unsigned char *read_in(const sample *s, const char *file, size_t *len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", s->dir, file);
    return tl_read_file(path, len);
}

static void load_samples(void)
{
    char path[512];
    struct dirent *e, *f;
    DIR *dir = opendir(DATA_DIR), *sub;
    sample *s;
    size_t n;
    if (dir == NULL) return;
    while ((e = readdir(dir)) != NULL && nsamples < (int)(sizeof samples / sizeof samples[0])) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= 64) continue;
        s = &samples[nsamples];
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "%s", e->d_name);
        snprintf(s->dir, sizeof s->dir, DATA_DIR "/%s/uftrace.data", e->d_name);
        snprintf(path, sizeof path, "%s/info", s->dir);
        if ((s->info = tl_read_file(path, &s->info_len)) == NULL) continue;
        /* where uftrace dump aborts, its output stops early: the whole
           dump is then our reviewed one, which tests/golden/uftrace.sh
           checks against what uftrace printed */
        snprintf(path, sizeof path, DATA_DIR "/%s/ref/tracedec.dump.txt", e->d_name);
        if ((s->dump = (char *)tl_read_file(path, &n)) == NULL) {
            snprintf(path, sizeof path, DATA_DIR "/%s/ref/dump.txt", e->d_name);
            s->dump = (char *)tl_read_file(path, &n);
        }
        s->dump_len = s->dump ? n : 0;
        s->long_size = s->info_len > 15 && s->info[15] == 1 ? 4 : 8;
        if ((sub = opendir(s->dir)) == NULL) continue;
        while ((f = readdir(sub)) != NULL) {
            if (strlen(f->d_name) >= 64) continue;
            if (strncmp(f->d_name, "perf-cpu", 8) == 0 && ends_with(f->d_name, ".dat")) {
                if (s->nperfs < MAX_FILES) snprintf(s->perfs[s->nperfs++], 64, "%s", f->d_name);
            } else if (ends_with(f->d_name, ".dat") && f->d_name[0] >= '0' && f->d_name[0] <= '9') {
                if (s->ndats < MAX_FILES) snprintf(s->dats[s->ndats++], 64, "%s", f->d_name);
            } else if (ends_with(f->d_name, ".sym")) {
                if (s->nsyms < 64) snprintf(s->syms[s->nsyms++], 128, "%s", f->d_name);
            } else if (ends_with(f->d_name, ".dbg")) {
                if (s->ndbgs < 64) snprintf(s->dbgs[s->ndbgs++], 128, "%s", f->d_name);
            } else if (strncmp(f->d_name, "sid-", 4) == 0 && ends_with(f->d_name, ".map")) {
                if (s->nmaps < MAX_FILES) snprintf(s->maps[s->nmaps++], 64, "%s", f->d_name);
            }
        }
        closedir(sub);
        qsort(s->dats, (size_t)s->ndats, 64, cmp_name64);
        qsort(s->perfs, (size_t)s->nperfs, 64, cmp_name64);
        qsort(s->maps, (size_t)s->nmaps, 64, cmp_name64);
        qsort(s->syms, (size_t)s->nsyms, 128, cmp_name128);
        qsort(s->dbgs, (size_t)s->ndbgs, 128, cmp_name128);
        nsamples++;
    }
    closedir(dir);
    qsort(samples, (size_t)nsamples, sizeof samples[0], cmp_sample);
}

static sample *find_sample(const char *name)
{
    int i;
    for (i = 0; i < nsamples; i++)
        if (strcmp(samples[i].name, name) == 0) return &samples[i];
    return NULL;
}

/* Calls fn(key, value) for every text line of the sample's info. */
typedef void (*info_fn)(void *ctx, tdec_uftrace_text key, tdec_uftrace_text value);
static int each_info_line(const sample *s, info_fn fn, void *ctx)
{
    const char *p = (const char *)s->info + TDEC_UFTRACE_HEADER_SIZE, *e = (const char *)s->info + s->info_len;
    const char *ls;
    size_t ll;
    tdec_uftrace_text k, v;
    int bad = 0;
    while (next_line(&p, e, &ls, &ll)) {
        if (tdec_uftrace_parse_info_line(ls, ll, &k, &v) != TDEC_OK) {
            bad++;
            continue;
        }
        if (fn) fn(ctx, k, v);
    }
    return bad;
}

/* ------------------------------------------------------------------ */
/* spec resolution, as uftrace does it for these recordings: exact names */

static fspec *fs_find(sample *s, const char *name, size_t nlen, int ret)
{
    size_t i;
    fspec *best = NULL;
    for (i = 0; i < s->nfs; i++) {
        fspec *f = &s->fs[i];
        if (f->ret == ret && strlen(f->name) == nlen && memcmp(f->name, name, nlen) == 0 &&
            (best == NULL || f->prio > best->prio))
            best = f;
    }
    return best;
}

static int spec_errors; /* entries dropped for an item uftrace rejects */

/* The spec of this priority for PATTERN's entry (ret 0) or exit (ret 1),
   made if missing; NULL if one of a higher priority exists. */
static fspec *fs_get(sample *s, tdec_uftrace_text pat, int ret, int prio)
{
    fspec *old = fs_find(s, pat.ptr, pat.len, ret);
    if (old && old->prio > prio) return NULL;
    if (old && old->prio == prio) return old;
    s->fs = (fspec *)realloc(s->fs, (s->nfs + 1) * sizeof *s->fs);
    if (s->fs == NULL) abort();
    memset(&s->fs[s->nfs], 0, sizeof s->fs[0]);
    memcpy(s->fs[s->nfs].name, pat.ptr, pat.len);
    s->fs[s->nfs].ret = ret;
    s->fs[s->nfs].prio = prio;
    return &s->fs[s->nfs++];
}

/* 1 + the number of a register uftrace 0.13 knows on x86_64 (the arch of
   these recordings), 0 for an unknown name. */
static uint32_t x86_64_reg(tdec_uftrace_text r)
{
    static const char *const names[] = { "RDI", "RSI", "RDX", "RCX", "R8", "R9" };
    uint32_t i;
    if (r.len == 4 && strncasecmp(r.ptr, "XMM", 3) == 0 && r.ptr[3] >= '0' && r.ptr[3] <= '7')
        return 7u + (uint32_t)(r.ptr[3] - '0');
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == r.len && strncasecmp(names[i], r.ptr, r.len) == 0) return i + 1;
    return 0;
}

/* Adds the items of one spec entry that belong to the pass (1: arg and
   fparg items, 2: retval items; uftrace ignores the others) to PATTERN's
   specs of this priority: items of index 0 ("retval", also "arg0") to its
   EXIT spec, the others to its ENTRY spec, where an item replaces one of
   the same identity (struct registers are not checked: these recordings
   have a struct only in known registers). An entry with arg items
   gets an ENTRY spec even if they all have index 0 ("f@arg0": an empty
   block). An entry with an item uftrace rejects is dropped whole. */
static void fs_add(sample *s, tdec_uftrace_text pat, tdec_uftrace_text items, int prio, int pass)
{
    tdec_uftrace_spec_item it[TDEC_UFTRACE_MAX_ARGS];
    tdec_uftrace_arg a[TDEC_UFTRACE_MAX_ARGS];
    tdec_uftrace_text is;
    const char *q = items.ptr, *qe = items.ptr + items.len;
    size_t n = 0, i;
    uint32_t k;
    if (pat.len == 0 || pat.len >= sizeof s->fs[0].name) return;
    while (tdec_uftrace_next_spec_item(&q, qe, &is) == TDEC_OK && n < TDEC_UFTRACE_MAX_ARGS) {
        tdec_status st = tdec_uftrace_parse_spec_item(is.ptr, is.len, &it[n]);
        if (it[n].kind == TDEC_UFTRACE_ITEM_OTHER || (it[n].kind == TDEC_UFTRACE_ITEM_RETVAL) != (pass == 2)) continue;
        if (st != TDEC_OK || tdec_uftrace_spec_item_layout(&it[n], s->long_size, 10, &a[n]) != TDEC_OK ||
            (it[n].reg.len > 0 && it[n].format != 't' && !x86_64_reg(it[n].reg))) {
            spec_errors++;
            return;
        }
        n++;
    }
    if (n > 0 && pass == 1) fs_get(s, pat, 0, prio);
    for (i = 0; i < n; i++) {
        fspec *f = fs_get(s, pat, it[i].index == 0, prio);
        tdec_uftrace_argspec *sp;
        unsigned char t = it[i].kind == TDEC_UFTRACE_ITEM_FPARG || it[i].format == 'f';
        uint32_t id = it[i].index;
        if (f == NULL) continue;
        if (it[i].has_stack) {
            t = 3;
            id = it[i].stack_offset;
        } else if (it[i].reg.len > 0 && it[i].format != 't') {
            t = 2;
            id = x86_64_reg(it[i].reg);
        }
        sp = &f->spec;
        for (k = 0; k < sp->count; k++)
            if (f->id_type[k] == t && f->id[k] == id) break;
        if (k == TDEC_UFTRACE_MAX_ARGS) continue;
        sp->args[k] = a[i];
        f->id_type[k] = t;
        f->id[k] = id;
        if (k == sp->count) sp->count++;
    }
}

typedef struct info_pass {
    sample *s;
    int     pass; /* 0: find auto-args; 1: explicit specs; 2: auto specs */
    int     retval_in_argspec;
} info_pass;

static void spec_info_line(void *ctx, tdec_uftrace_text k, tdec_uftrace_text v)
{
    info_pass *ip = (info_pass *)ctx;
    tdec_uftrace_spec_entry ent;
    const char *p, *e = v.ptr + v.len;
    int explicit_ = str_eq(k, "argspec") || str_eq(k, "retspec");
    int auto_ = str_eq(k, "argauto") || str_eq(k, "retauto");
    int kind = str_eq(k, "argspec") || str_eq(k, "argauto") ? 1 : 2, again, last;
    if (ip->pass == 0) {
        if (str_eq(k, "auto-args")) ip->s->auto_args = 1;
        return;
    }
    if (!(ip->pass == 1 ? explicit_ : auto_)) return;
    /* uftrace reads an argspec line that says "retval" again for return values */
    again = 0;
    for (p = v.ptr; kind == 1 && explicit_ && p + 6 <= e; p++)
        if (memcmp(p, "retval", 6) == 0) again = 1;
    for (last = kind == 1 ? 1 + again : 2; kind <= last; kind++) {
        for (p = v.ptr; tdec_uftrace_next_spec_entry(&p, e, &ent) == TDEC_OK;) {
            if (ent.items.len == 0) continue; /* "lines=5" */
            fs_add(ip->s, ent.pattern, ent.items, ip->pass == 1 ? 3 : 1, kind);
        }
    }
}

/* The specs of a sample: argspec/retspec; under auto-args the .dbg A:/R:
   specs of each function, then the built-in argauto/retauto prototypes. */
static void build_specs(sample *s)
{
    info_pass ip;
    int i;
    ip.s = s;
    for (ip.pass = 0; ip.pass < 2; ip.pass++) each_info_line(s, spec_info_line, &ip);
    if (!s->auto_args) return;
    for (i = 0; i < s->ndbgs; i++) {
        size_t len;
        char *d = (char *)read_in(s, s->dbgs[i], &len);
        const char *p = d, *e = d + len, *ls;
        size_t ll;
        tdec_uftrace_dbg_line dl;
        tdec_uftrace_text func = { NULL, 0 };
        if (d == NULL) continue;
        while (next_line(&p, e, &ls, &ll)) {
            if (tdec_uftrace_parse_dbg_line(ls, ll, &dl) != TDEC_OK) continue;
            if (dl.kind == TDEC_UFTRACE_DBG_FUNC) func = dl.text;
            if ((dl.kind == TDEC_UFTRACE_DBG_ARGS || dl.kind == TDEC_UFTRACE_DBG_RETVAL) && func.ptr)
                fs_add(s, func, dl.text, 2, dl.kind == TDEC_UFTRACE_DBG_ARGS ? 1 : 2);
        }
        free(d);
    }
    ip.pass = 2;
    each_info_line(s, spec_info_line, &ip);
}

/* ------------------------------------------------------------------ */
/* decoding: the oracle (tests/lib/uftrace_check.h), specs handed out */
/* in order, the items also as this test's text                        */

typedef struct spec_seq {
    uc_spec *v;
    size_t   n, cap;
} spec_seq;

static void seq_push(spec_seq *q, const tdec_uftrace_argspec *sp, int valid)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 16;
        q->v = (uc_spec *)realloc(q->v, q->cap * sizeof *q->v);
        if (q->v == NULL) abort();
    }
    q->v[q->n].spec = sp;
    q->v[q->n].valid = valid;
    q->n++;
}

typedef struct run_res {
    tdec_status st; /* TDEC_END or the error */
    uint64_t    err_offset;
    uint32_t    err_reason;
    int         bad; /* broken invariant: why[] */
    char        why[CC_MSG];
    uint64_t   *starts; /* record start offsets */
    size_t      nstarts, cap_starts;
} run_res;

static void res_start(run_res *r, uint64_t off)
{
    if (r->nstarts == r->cap_starts) {
        r->cap_starts = r->cap_starts ? r->cap_starts * 2 : 64;
        r->starts = (uint64_t *)realloc(r->starts, r->cap_starts * sizeof *r->starts);
        if (r->starts == NULL) abort();
    }
    r->starts[r->nstarts++] = off;
}

static void log_frag(buf *log, uint64_t item_off, const tdec_frag *f)
{
    if (f->offset == 0) buf_printf(log, "F o=%" PRIu64 " n=%" PRIu64 ":", item_off, f->total);
    buf_add(log, f->data, f->len);
    if (f->flags & TDEC_FRAG_LAST) buf_add(log, "\n", 1);
}

static void log_dat_rec(buf *log, uint64_t off, const tdec_uftrace_record *r)
{
    unsigned i;
    buf_printf(log,
               "R o=%" PRIu64 " t=%u m=%u d=%u g=%u time=%" PRIu64 " a=%" PRIx64 " i=%u k=%u f=%u s=%u v=%" PRIx64
               " ps=%" PRIu64 " bl=%u",
               off, r->type, r->more, r->depth, r->magic, r->time, r->addr, r->arg_index, r->arg.kind, r->arg.format,
               r->arg.size, r->value, r->payload_size, r->block_len);
    if (r->type == TDEC_UFTRACE_REC_ARG && r->arg.kind == TDEC_UFTRACE_V_FLOAT) {
        buf_printf(log, " raw=");
        for (i = 0; i < r->arg.size && i < sizeof r->raw; i++) buf_printf(log, "%02x", r->raw[i]);
    }
    buf_add(log, "\n", 1);
}

static void log_perf_rec(buf *log, uint64_t off, const tdec_uftrace_perf_record *r)
{
    buf_printf(log,
               "P o=%" PRIu64 " t=%u m=%x s=%u pid=%u tid=%u ppid=%u ptid=%u time=%" PRIu64
               " comm=%s sp=%u st=%u stime=%" PRIu64 " ps=%" PRIu64 "\n",
               off, r->type, r->misc, r->size, r->pid, r->tid, r->ppid, r->ptid, r->time, r->comm, r->sample_pid,
               r->sample_tid, r->sample_time, r->payload_size);
}

typedef struct run_cfg {
    int                 perf;
    tdec_uftrace_config cfg;
    const spec_seq     *seq;
} run_cfg;

/* An oracle run of the config (whole input; log kept in `log`, or hash
   only with NULL). */
static void oracle_run(uc_run *r, const run_cfg *rc, char *log)
{
    memset(r, 0, sizeof *r);
    r->perf = rc->perf;
    r->cfg = rc->cfg;
    if (rc->seq) {
        r->specs = rc->seq->v;
        r->nspecs = rc->seq->n;
    }
    r->specs_in_order = 1;
    r->cc.log = log;
    r->cc.log_cap = log ? LOG_CAP : 0;
}

typedef struct collect {
    buf     *log;
    run_res *res;
} collect;

static void collect_item(void *ctx, const tdec_uftrace_item *it, const tdec_uftrace_perf_item *pit)
{
    collect *k = (collect *)ctx;
    if (pit && pit->kind == TDEC_ITEM_FRAGMENT) {
        log_frag(k->log, pit->offset - pit->u.frag.offset, &pit->u.frag);
    } else if (pit) {
        res_start(k->res, pit->offset);
        log_perf_rec(k->log, pit->offset, &pit->u.rec);
    } else if (it->kind == TDEC_ITEM_FRAGMENT) {
        log_frag(k->log, it->offset - it->u.frag.offset, &it->u.frag);
    } else {
        if (it->u.rec.type <= TDEC_UFTRACE_REC_EVENT) res_start(k->res, it->offset);
        log_dat_rec(k->log, it->offset, &it->u.rec);
    }
}

/* Decodes data[0, len) whole through the oracle, which checks every
   invariant on the way; the items go to log as this test's text, the
   outcome and the record starts to res. */
static void run_whole(const run_cfg *rc, const unsigned char *data, size_t len, buf *log, run_res *res)
{
    static uc_run r;
    collect k;
    const char *bad;
    k.log = log;
    k.res = res;
    oracle_run(&r, rc, NULL);
    r.on_item = collect_item;
    r.ctx = &k;
    res->bad = 0;
    res->why[0] = 0;
    res->nstarts = 0;
    bad = uc_decode(data, len, &r.cc);
    if (bad) {
        res->bad = 1;
        snprintf(res->why, sizeof res->why, "%s", bad);
    }
    res->st = r.cc.status;
    res->err_offset = r.cc.err_offset;
    res->err_reason = r.cc.err_reason;
}

/* ------------------------------------------------------------------ */
/* sizeof, as the header's MEMORY section states it                    */

TL_DEFINE_SIZEOF_TEST(tdec_uftrace_decoder, "single/tdec_uftrace.h")
TL_DEFINE_SIZEOF_TEST(tdec_uftrace_item, "single/tdec_uftrace.h")
TL_DEFINE_SIZEOF_TEST(tdec_uftrace_perf_decoder, "single/tdec_uftrace.h")
TL_DEFINE_SIZEOF_TEST(tdec_uftrace_perf_item, "single/tdec_uftrace.h")
TL_DEFINE_SIZEOF_TEST(tdec_uftrace_argspec, "single/tdec_uftrace.h")

/* ------------------------------------------------------------------ */
/* info                                                                */

/* "NAME | NAME" as uftrace dump prints a mask. */
static void mask_names(uint64_t mask, int feat, char *out, size_t cap)
{
    unsigned bit;
    size_t n = 0;
    out[0] = 0;
    for (bit = 0; bit < 64; bit++) {
        const char *nm;
        if (!(mask >> bit & 1u)) continue;
        nm = feat ? tdec_uftrace_feat_str(bit) : tdec_uftrace_info_str(bit);
        n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? " | " : "", nm ? nm : "?");
        if (n >= cap) return;
    }
}

static const char *dump_field(const sample *s, const char *label)
{
    const char *p = s->dump ? strstr(s->dump, label) : NULL;
    return p ? p + strlen(label) : NULL;
}

static void test_headers(void)
{
    int i;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        tdec_uftrace_header h;
        char exp[700], names[600];
        const char *f;
        tl_begin(&c, "uftrace info header of %s == ref/dump.txt", s->name);
        TL_EQI(&c, tdec_uftrace_parse_header(s->info, s->info_len, &h), TDEC_OK);
        TL_TRUE(&c, s->dump != NULL, "no ref/dump.txt");
        if (!c.bad) {
            snprintf(exp, sizeof exp, "%u\n", h.version);
            f = dump_field(s, "uftrace file header: version       = ");
            TL_TRUE(&c, f && strncmp(f, exp, strlen(exp)) == 0, "version %u", h.version);
            snprintf(exp, sizeof exp, "%u\n", h.header_size);
            f = dump_field(s, "uftrace file header: header size   = ");
            TL_TRUE(&c, f && strncmp(f, exp, strlen(exp)) == 0, "header size %u", h.header_size);
            snprintf(exp, sizeof exp, "%u (%s)\n", h.endian, h.endian == 1 ? "little" : "big");
            f = dump_field(s, "uftrace file header: endian        = ");
            TL_TRUE(&c, f && strncmp(f, exp, strlen(exp)) == 0, "endian %u", h.endian);
            snprintf(exp, sizeof exp, "%u (%s bit)\n", h.elf_class, h.elf_class == 2 ? "64" : "32");
            f = dump_field(s, "uftrace file header: class         = ");
            TL_TRUE(&c, f && strncmp(f, exp, strlen(exp)) == 0, "class %u", h.elf_class);
            mask_names(h.feat_mask, 1, names, sizeof names);
            snprintf(exp, sizeof exp, "%#" PRIx64 " (%s)\n", h.feat_mask, names);
            f = dump_field(s, "uftrace file header: features      = ");
            TL_TRUE(&c, f && strncmp(f, exp, strlen(exp)) == 0, "features: %s", exp);
            mask_names(h.info_mask, 0, names, sizeof names);
            snprintf(exp, sizeof exp, "%#" PRIx64 " (%s)\n", h.info_mask, names);
            f = dump_field(s, "uftrace file header: info          = ");
            TL_TRUE(&c, f && strncmp(f, exp, strlen(exp)) == 0, "info: %s", exp);
            TL_EQU(&c, h.max_stack, 1024);
            TL_EQU(&c, h.feat_mask & TDEC_UFTRACE_FEAT_TASK_SESSION, TDEC_UFTRACE_FEAT_TASK_SESSION);
        }
        tl_end(&c);
    }

    tl_begin(&c, "uftrace info header: example bytes, big-endian copy, names");
    {
        static const unsigned char le[40] = { 'F', 't', 'r', 'a', 'c', 'e', '!', 0,    4, 0, 0, 0, 40, 0, 1, 2,
                                              0x63, 3, 0, 0, 0, 0, 0, 0, 0xff, 0x3b, 0, 0, 0, 0, 0, 0,
                                              0, 4, 0, 0, 0, 0, 0, 0 };
        static const unsigned char be[40] = { 'F', 't', 'r', 'a', 'c', 'e', '!', 0, 0, 0, 0, 3, 0, 40, 2, 1,
                                              0, 0, 0, 0, 0, 0, 0x20, 0x01, 0, 0, 0, 0, 0, 0, 0xc0, 0x00,
                                              0x02, 0x00, 0, 0, 0, 0, 0, 0 };
        tdec_uftrace_header h;
        TL_EQI(&c, tdec_uftrace_parse_header(le, 40, &h), TDEC_OK);
        TL_EQU(&c, h.version, 4);
        TL_EQU(&c, h.header_size, 40);
        TL_EQU(&c, h.endian, 1);
        TL_EQU(&c, h.elf_class, 2);
        TL_EQU(&c, h.feat_mask, 0x363);
        TL_EQU(&c, h.info_mask, 0x3bff);
        TL_EQU(&c, h.max_stack, 1024);
        TL_EQI(&c, tdec_uftrace_parse_header(be, 40, &h), TDEC_OK);
        TL_EQU(&c, h.version, 3);
        TL_EQU(&c, h.header_size, 40);
        TL_EQU(&c, h.endian, 2);
        TL_EQU(&c, h.elf_class, 1);
        TL_EQU(&c, h.feat_mask, 0x2001);
        TL_EQU(&c, h.info_mask, 0xc000);
        TL_EQU(&c, h.max_stack, 512);
        TL_TRUE(&c, strcmp(tdec_uftrace_feat_str(0), "PLTHOOK") == 0, "feat 0");
        TL_TRUE(&c, strcmp(tdec_uftrace_feat_str(11), "ESTIMATE_RETURN") == 0, "feat 11");
        TL_TRUE(&c, strcmp(tdec_uftrace_feat_str(12), "SYM_SIZE") == 0, "feat 12");
        TL_TRUE(&c, strcmp(tdec_uftrace_feat_str(13), "CALLSITE") == 0, "feat 13");
        TL_TRUE(&c, tdec_uftrace_feat_str(14) == NULL, "feat 14");
        TL_TRUE(&c, tdec_uftrace_feat_str(1000) == NULL, "feat 1000");
        TL_TRUE(&c, strcmp(tdec_uftrace_info_str(0), "EXE_NAME") == 0, "info 0");
        TL_TRUE(&c, strcmp(tdec_uftrace_info_str(10), "ARG_SPEC") == 0, "info 10");
        TL_TRUE(&c, strcmp(tdec_uftrace_info_str(14), "UTC_OFFSET") == 0, "info 14");
        TL_TRUE(&c, strcmp(tdec_uftrace_info_str(15), "SYSCTL") == 0, "info 15");
        TL_TRUE(&c, tdec_uftrace_info_str(16) == NULL, "info 16");
        TL_EQU(&c, TDEC_UFTRACE_FEAT_CALLSITE, 1u << 13);
        TL_EQU(&c, TDEC_UFTRACE_INFO_SYSCTL, 1u << 15);
    }
    tl_end(&c);

    tl_begin(&c, "uftrace info header errors: magic, endian, class, version, truncation, NULL");
    {
        unsigned char h0[40], h[40];
        tdec_uftrace_header out;
        memcpy(h0, samples[0].info, 40);
        TL_EQI(&c, tdec_uftrace_parse_header(h0, 39, &out), TDEC_E_TRUNCATED);
        TL_EQI(&c, tdec_uftrace_parse_header(h0, 0, &out), TDEC_E_TRUNCATED);
        TL_EQI(&c, tdec_uftrace_parse_header(NULL, 40, &out), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_header(h0, 40, NULL), TDEC_E_ARG);
        memcpy(h, h0, 40); h[0] = 'f';
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_FORMAT);
        memcpy(h, h0, 40); h[7] = '!';
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_FORMAT);
        memcpy(h, h0, 40); h[14] = 0;
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_FORMAT);
        memcpy(h, h0, 40); h[14] = 3;
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_FORMAT);
        memcpy(h, h0, 40); h[15] = 0;
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_FORMAT);
        memcpy(h, h0, 40); h[8] = 5;
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_VERSION);
        memcpy(h, h0, 40); h[8] = 2;
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_VERSION);
        memcpy(h, h0, 40); h[8] = 3;
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_OK);
        TL_EQU(&c, out.version, 3);
        memcpy(h, h0, 40); h[14] = 2; /* version 4 read big-endian: 0x04000000 */
        TL_EQI(&c, tdec_uftrace_parse_header(h, 40, &out), TDEC_E_VERSION);
    }
    tl_end(&c);
}

typedef struct info_lines_ctx {
    int         n;
    int         exename_ok;
    int         argspec_lines;
    const char *exename;
} info_lines_ctx;

static void info_lines_cb(void *ctx, tdec_uftrace_text k, tdec_uftrace_text v)
{
    info_lines_ctx *x = (info_lines_ctx *)ctx;
    x->n++;
    if (str_eq(k, "exename")) x->exename_ok = str_eq(v, x->exename);
    if (str_eq(k, "argspec") && v.len > 6 && memcmp(v.ptr, "lines=", 6) == 0) x->argspec_lines = atoi(v.ptr + 6);
}

static void test_info_lines(void)
{
    int i;
    tl_case c;
    char exe[128];
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        info_lines_ctx x;
        memset(&x, 0, sizeof x);
        /* notaskdat: a shell script recorded with --force */
        if (strcmp(s->name, "notaskdat") == 0) snprintf(exe, sizeof exe, "/usr/bin/dash");
        else snprintf(exe, sizeof exe, "/tmp/uft/%.60s/prog", s->name);
        x.exename = exe;
        tl_begin(&c, "uftrace info text lines of %s: every line key:value", s->name);
        TL_EQI(&c, each_info_line(s, info_lines_cb, &x), 0);
        TL_TRUE(&c, x.n >= 20, "%d lines", x.n);
        TL_TRUE(&c, x.exename_ok, "exename is not %s", exe);
        if (strcmp(s->name, "args") == 0 || strcmp(s->name, "forkexec") == 0 || strcmp(s->name, "cxx") == 0)
            TL_EQI(&c, x.argspec_lines, 5);
        if (strcmp(s->name, "libcall") == 0) TL_EQI(&c, x.argspec_lines, 4);
        tl_end(&c);
    }
    tl_begin(&c, "uftrace info line: key/value split at the first ':', errors");
    {
        tdec_uftrace_text k, v;
        TL_EQI(&c, tdec_uftrace_parse_info_line("cpuinfo:desc=AMD: EPYC", 22, &k, &v), TDEC_OK);
        TL_TRUE(&c, str_eq(k, "cpuinfo") && str_eq(v, "desc=AMD: EPYC"), "split");
        TL_EQI(&c, tdec_uftrace_parse_info_line(":x", 2, &k, &v), TDEC_OK);
        TL_TRUE(&c, k.len == 0 && str_eq(v, "x"), "empty key");
        TL_EQI(&c, tdec_uftrace_parse_info_line("a:", 2, &k, &v), TDEC_OK);
        TL_TRUE(&c, str_eq(k, "a") && v.len == 0, "empty value");
        TL_EQI(&c, tdec_uftrace_parse_info_line("nocolon", 7, &k, &v), TDEC_E_FORMAT);
        TL_EQI(&c, tdec_uftrace_parse_info_line(NULL, 0, &k, &v), TDEC_E_FORMAT);
        TL_EQI(&c, tdec_uftrace_parse_info_line(NULL, 3, &k, &v), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_info_line("a:b", 3, NULL, &v), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_info_line("a:b", 1, &k, &v), TDEC_E_FORMAT); /* len is honoured */
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* task.txt                                                            */

/* Checks that parse (one of the line wrappers below) gives the status for
   every line of the array lines, naming the line that does not. */
#define EXPECT_EACH(c, parse, out, lines, status)                                                  \
    do {                                                                                           \
        size_t each_;                                                                              \
        for (each_ = 0; each_ < sizeof(lines) / sizeof *(lines); each_++)                          \
            TL_TRUE((c), parse((lines)[each_], (out)) == (status), "%s(\"%s\") is not %s", #parse, \
                    (lines)[each_], #status);                                                      \
    } while (0)

static tdec_status task(const char *line, tdec_uftrace_task_line *t)
{
    return tdec_uftrace_parse_task_line(line, strlen(line), t);
}

static void test_task(void)
{
    int i;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        size_t len, ll;
        char *d = (char *)read_in(s, "task.txt", &len);
        const char *p, *e, *ls;
        int n = 0, sess = 0, maps_found = 0, j, ntids = 0;
        int32_t tids[64];
        tdec_uftrace_task_line t;
        tl_begin(&c, "uftrace task.txt of %s: every line parses, SESS sids name the map files", s->name);
        TL_TRUE(&c, d != NULL, "no task.txt");
        p = d;
        e = d ? d + len : d;
        while (d && next_line(&p, e, &ls, &ll)) {
            n++;
            if (!TL_EQI(&c, tdec_uftrace_parse_task_line(ls, ll, &t), TDEC_OK)) break;
            TL_TRUE(&c, t.kind != TDEC_UFTRACE_TASK_UNKNOWN, "unknown kind: %.*s", (int)ll, ls);
            /* CLOCK_MONOTONIC ns of machines up for 500 s to a day */
            TL_TRUE(&c, t.time > 500000000000ull && t.time < 86400000000000ull, "time %" PRIu64, t.time);
            if (t.kind == TDEC_UFTRACE_TASK_SESS) {
                char want[128];
                sess++;
                snprintf(want, sizeof want, "sid-%.*s.map", (int)t.sid.len, t.sid.ptr);
                for (j = 0; j < s->nmaps; j++)
                    if (strcmp(s->maps[j], want) == 0) maps_found++;
                TL_EQU(&c, t.sid.len, 16);
                TL_TRUE(&c, (t.name.len > 9 && memcmp(t.name.ptr, "/tmp/uft/", 9) == 0) ||
                                (strcmp(s->name, "notaskdat") == 0 && str_eq(t.name, "/usr/bin/dash")),
                        "exename");
                TL_TRUE(&c, t.pid > 0 && t.tid == 0, "pid %d tid %d", t.pid, t.tid);
            }
            if (t.kind == TDEC_UFTRACE_TASK_TASK || t.kind == TDEC_UFTRACE_TASK_FORK) {
                int32_t id = t.kind == TDEC_UFTRACE_TASK_TASK ? t.tid : t.pid;
                TL_TRUE(&c, id > 0 && t.pid > 0, "TASK/FORK ids");
                for (j = 0; j < ntids && tids[j] != id; j++) {}
                if (j == ntids && ntids < 64) tids[ntids++] = id;
            }
        }
        TL_TRUE(&c, n >= 2, "%d lines", n);
        TL_EQI(&c, sess, s->nmaps);
        TL_EQI(&c, maps_found, s->nmaps);
        /* one <tid>.dat per task, but for the shell of notaskdat */
        TL_EQI(&c, ntids, s->ndats + (strcmp(s->name, "notaskdat") == 0));
        free(d);
        tl_end(&c);
    }

    tl_begin(&c, "uftrace task.txt values: forkexec sessions, fork FORK, dlopen DLOP, threads");
    {
        sample *s = find_sample("forkexec");
        tdec_uftrace_task_line t;
        TL_TRUE(&c, s != NULL, "no forkexec sample");
        TL_EQI(&c, task("SESS timestamp=569.632351340 pid=3010 sid=593710f9c5ffaf34 exename=\"/tmp/uft/forkexec/prog\"", &t), TDEC_OK);
        TL_EQU(&c, t.kind, TDEC_UFTRACE_TASK_SESS);
        TL_EQU(&c, t.time, 569632351340ull);
        TL_EQI(&c, t.pid, 3010);
        TL_TRUE(&c, str_eq(t.sid, "593710f9c5ffaf34"), "sid");
        TL_TRUE(&c, str_eq(t.name, "/tmp/uft/forkexec/prog"), "exename");
        if (s) {
            TL_EQI(&c, s->nmaps, 2);
            TL_TRUE(&c, strcmp(s->maps[0], "sid-593710f9c5ffaf34.map") == 0, "map 0 %s", s->maps[0]);
            TL_TRUE(&c, strcmp(s->maps[1], "sid-bbb683d6d7512f38.map") == 0, "map 1 %s", s->maps[1]);
        }
        TL_EQI(&c, task("SESS timestamp=569.645387277 pid=3012 sid=bbb683d6d7512f38 exename=\"/tmp/uft/forkexec/helper\"", &t), TDEC_OK);
        TL_EQI(&c, t.pid, 3012);
        TL_TRUE(&c, str_eq(t.name, "/tmp/uft/forkexec/helper"), "exename 2");
        TL_EQI(&c, task("FORK timestamp=569.636044535 pid=3012 ppid=3010", &t), TDEC_OK);
        TL_EQU(&c, t.kind, TDEC_UFTRACE_TASK_FORK);
        TL_EQU(&c, t.time, 569636044535ull);
        TL_EQI(&c, t.pid, 3012);
        TL_EQI(&c, t.ppid, 3010);
        TL_EQI(&c, t.tid, 0);
        TL_EQI(&c, task("FORK timestamp=569.244472257 pid=2889 ppid=2887", &t), TDEC_OK);
        TL_EQI(&c, t.pid, 2889);
        TL_EQI(&c, t.ppid, 2887);
        TL_EQI(&c, task("DLOP timestamp=570.022293047 tid=3057 sid=81f32398fb903a5d base=7f4a9ee36000 libname=\"./libfoo.so\"", &t), TDEC_OK);
        TL_EQU(&c, t.kind, TDEC_UFTRACE_TASK_DLOP);
        TL_EQU(&c, t.time, 570022293047ull);
        TL_EQI(&c, t.tid, 3057);
        TL_EQU(&c, t.base, 0x7f4a9ee36000ull);
        TL_TRUE(&c, str_eq(t.sid, "81f32398fb903a5d"), "DLOP sid");
        TL_TRUE(&c, str_eq(t.name, "./libfoo.so"), "libname");
        TL_EQI(&c, task("TASK timestamp=568.895667549 tid=2834 pid=2831", &t), TDEC_OK);
        TL_EQU(&c, t.kind, TDEC_UFTRACE_TASK_TASK);
        TL_EQI(&c, t.tid, 2834);
        TL_EQI(&c, t.pid, 2831);
        TL_EQU(&c, t.time, 568895667549ull);
    }
    tl_end(&c);

    tl_begin(&c, "uftrace task.txt: the real dlopen and fork lines");
    {
        sample *s = find_sample("dlopen");
        size_t len, ll;
        char *d = s ? (char *)read_in(s, "task.txt", &len) : NULL;
        const char *p = d, *e = d ? d + len : d, *ls;
        tdec_uftrace_task_line t;
        int dlop = 0;
        while (d && next_line(&p, e, &ls, &ll)) {
            if (tdec_uftrace_parse_task_line(ls, ll, &t) == TDEC_OK && t.kind == TDEC_UFTRACE_TASK_DLOP) {
                dlop++;
                TL_EQU(&c, t.base, 0x7f4a9ee36000ull);
                TL_TRUE(&c, str_eq(t.name, "./libfoo.so"), "libname");
                TL_TRUE(&c, str_eq(t.sid, "81f32398fb903a5d"), "sid");
            }
        }
        TL_EQI(&c, dlop, 1);
        free(d);
        s = find_sample("fork");
        d = s ? (char *)read_in(s, "task.txt", &len) : NULL;
        p = d;
        e = d ? d + len : d;
        dlop = 0;
        while (d && next_line(&p, e, &ls, &ll)) {
            if (tdec_uftrace_parse_task_line(ls, ll, &t) == TDEC_OK && t.kind == TDEC_UFTRACE_TASK_FORK) {
                dlop++;
                TL_EQI(&c, t.pid, 2889);
                TL_EQI(&c, t.ppid, 2887);
            }
        }
        TL_EQI(&c, dlop, 1);
        free(d);
    }
    tl_end(&c);

    tl_begin(&c, "uftrace task.txt: timestamps, old SESS tid=, quotes, unknown kinds");
    {
        tdec_uftrace_task_line t;
        TL_EQI(&c, task("TASK timestamp=1.5 tid=1 pid=1", &t), TDEC_OK);
        TL_EQU(&c, t.time, 1500000000ull);
        TL_EQI(&c, task("TASK timestamp=1.000000001 tid=1 pid=1", &t), TDEC_OK);
        TL_EQU(&c, t.time, 1000000001ull);
        TL_EQI(&c, task("TASK timestamp=0.12 tid=1 pid=1", &t), TDEC_OK);
        TL_EQU(&c, t.time, 120000000ull);
        TL_EQI(&c, task("TASK timestamp=7 tid=1 pid=1", &t), TDEC_OK);
        TL_EQU(&c, t.time, 7000000000ull);
        TL_EQI(&c, task("TASK timestamp=18446744073.709551615 tid=1 pid=1", &t), TDEC_OK);
        TL_EQU(&c, t.time, UINT64_MAX);
        TL_EQI(&c, task("TASK timestamp=1.5 tid=2147483647 pid=1", &t), TDEC_OK);
        TL_EQI(&c, t.tid, 2147483647);
        TL_EQI(&c, task("TASK  timestamp=1.5   pid=4 tid=3 extra junk=1", &t), TDEC_OK); /* any order */
        TL_EQI(&c, t.tid, 3);
        TL_EQI(&c, t.pid, 4);
        TL_EQI(&c, task("SESS timestamp=1.5 tid=77 sid=0123456789abcdef exename=\"/x\"", &t), TDEC_OK);
        TL_EQI(&c, t.pid, 77);
        TL_EQI(&c, t.tid, 0);
        TL_EQI(&c, task("SESS timestamp=1.5 pid=7 sid=0123456789abcdef exename=\"/a b/\"c\" d", &t), TDEC_OK);
        TL_TRUE(&c, str_eq(t.name, "/a b/\"c"), "name to the last quote: %.*s", (int)t.name.len, t.name.ptr);
        TL_EQI(&c, task("SESS timestamp=1.5 pid=7 sid=0123456789abcdef exename=\"\"", &t), TDEC_OK);
        TL_EQU(&c, t.name.len, 0);
        TL_EQI(&c, task("DLOP timestamp=1.5 tid=1 sid=s base=ffffffffffffffff libname=\"l\"", &t), TDEC_OK);
        TL_EQU(&c, t.base, UINT64_MAX);
        TL_EQI(&c, task("XXXX timestamp=garbage", &t), TDEC_OK);
        TL_EQU(&c, t.kind, TDEC_UFTRACE_TASK_UNKNOWN);
        TL_EQI(&c, task("TASKS timestamp=1.5 tid=1 pid=1", &t), TDEC_OK);
        TL_EQU(&c, t.kind, TDEC_UFTRACE_TASK_UNKNOWN);
        TL_EQI(&c, task("", &t), TDEC_OK);
        TL_EQU(&c, t.kind, TDEC_UFTRACE_TASK_UNKNOWN);
        static const char *const bad_lines[] = {
            "TASK timestamp=18446744073.709551616 tid=1 pid=1",
            "TASK timestamp=18446744074.0 tid=1 pid=1",
            "TASK timestamp=99999999999999999999.0 tid=1 pid=1",
            "TASK timestamp=1.1234567890 tid=1 pid=1",
            "TASK timestamp=1. tid=1 pid=1",
            "TASK timestamp=.5 tid=1 pid=1",
            "TASK timestamp=1.5x tid=1 pid=1",
            "TASK timestamp=1.5 tid=2147483648 pid=1",
            "TASK timestamp=1.5 tid=-1 pid=1",
            "TASK timestamp=1.5 tid=x pid=1",
            "TASK timestamp=1.5 tid= pid=1",
            "TASK timestamp=1.5 tid=1", /* pid missing */
            "TASK tid=1 pid=1", /* timestamp missing */
            "FORK timestamp=1.5 pid=2",
            "SESS timestamp=1.5 pid=7 sid=0123456789abcdef exename=\"/x",
            "SESS timestamp=1.5 pid=7 sid=0123456789abcdef",
            "SESS timestamp=1.5 pid=7 exename=\"/x\"",
            "SESS timestamp=1.5 pid=7 sid= exename=\"/x\"",
            "DLOP timestamp=1.5 tid=1 sid=s base=0x10 libname=\"l\"",
            "DLOP timestamp=1.5 tid=1 sid=s base=10000000000000000 libname=\"l\"",
            "DLOP timestamp=1.5 tid=1 sid=s libname=\"l\"",
            "TASK",
        };
        EXPECT_EACH(&c, task, &t, bad_lines, TDEC_E_FORMAT);
        TL_EQI(&c, tdec_uftrace_parse_task_line(NULL, 0, &t), TDEC_OK);
        TL_EQI(&c, tdec_uftrace_parse_task_line(NULL, 1, &t), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_task_line("TASK", 4, NULL), TDEC_E_ARG);
        /* len is honoured: the line is not NUL-terminated */
        TL_EQI(&c, tdec_uftrace_parse_task_line("TASK timestamp=1.5 tid=1 pid=12345", 30, &t), TDEC_OK);
        TL_EQI(&c, t.pid, 1);
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* maps, .sym, .dbg                                                    */

static tdec_status mapl(const char *line, tdec_uftrace_map_line *m)
{
    return tdec_uftrace_parse_map_line(line, strlen(line), m);
}

static void test_maps(void)
{
    int i, j;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        tl_begin(&c, "uftrace sid-*.map of %s: every line parses", s->name);
        TL_TRUE(&c, s->nmaps >= 1, "no map");
        for (j = 0; j < s->nmaps; j++) {
            size_t len, ll;
            char *d = (char *)read_in(s, s->maps[j], &len);
            const char *p = d, *e = d ? d + len : d, *ls;
            tdec_uftrace_map_line m;
            int n = 0, stack = 0, withid = 0;
            while (d && next_line(&p, e, &ls, &ll)) {
                n++;
                if (!TL_EQI(&c, tdec_uftrace_parse_map_line(ls, ll, &m), TDEC_OK)) break;
                TL_TRUE(&c, m.start < m.end, "start/end");
                TL_TRUE(&c, m.path.len > 0, "path");
                if (str_eq(m.path, "[stack]")) {
                    stack++;
                    TL_EQU(&c, m.build_id.len, 0);
                    TL_TRUE(&c, memcmp(m.perms, "rw-p", 4) == 0, "stack perms");
                } else {
                    TL_EQU(&c, m.build_id.len, 40);
                    TL_TRUE(&c, m.path.ptr[0] == '/', "absolute path");
                    TL_TRUE(&c, m.path.ptr[m.path.len - 1] != ' ', "path trimmed");
                    withid++;
                }
            }
            TL_EQI(&c, stack, 1);
            TL_TRUE(&c, withid >= 5, "%d modules", withid);
            free(d);
        }
        tl_end(&c);
    }
    tl_begin(&c, "uftrace map lines: values, raw /proc maps, spaces in paths, errors");
    {
        tdec_uftrace_map_line m;
        TL_EQI(&c, mapl("555f32a4b000-555f32a50000 r-xp 00000000 00:00 0                          /tmp/uft/forkexec/prog build-id:f9bbb169a396b9ebf7a0245f3e6879e1babb789f", &m), TDEC_OK);
        TL_EQU(&c, m.start, 0x555f32a4b000ull);
        TL_EQU(&c, m.end, 0x555f32a50000ull);
        TL_TRUE(&c, memcmp(m.perms, "r-xp", 4) == 0, "perms");
        TL_TRUE(&c, str_eq(m.path, "/tmp/uft/forkexec/prog"), "path");
        TL_TRUE(&c, str_eq(m.build_id, "f9bbb169a396b9ebf7a0245f3e6879e1babb789f"), "build-id");
        TL_EQI(&c, mapl("7ffee1298000-7ffee12b9000 rw-p 00000000 00:00 0                          [stack]", &m), TDEC_OK);
        TL_TRUE(&c, str_eq(m.path, "[stack]") && m.build_id.len == 0, "stack");
        TL_EQI(&c, mapl("7f0000000000-7f0000001000 rw-p 00000000 00:00 0 ", &m), TDEC_OK);
        TL_EQU(&c, m.path.len, 0);
        TL_EQI(&c, mapl("7f0000000000-7f0000001000 rw-p 00000000 00:00 0", &m), TDEC_OK);
        TL_EQU(&c, m.path.len, 0);
        TL_EQI(&c, mapl("7f0000000000-7f0000001000 r--p 0001a000 fd:01 1234567 /usr/lib/my lib.so  ", &m), TDEC_OK);
        TL_TRUE(&c, str_eq(m.path, "/usr/lib/my lib.so"), "path with a space: %.*s", (int)m.path.len, m.path.ptr);
        TL_EQU(&c, m.build_id.len, 0);
        TL_EQI(&c, mapl("1000-2000 r-xp 0 0:0 0 /a build-id:x build-id:abcd  ", &m), TDEC_OK);
        TL_TRUE(&c, str_eq(m.path, "/a build-id:x"), "last build-id wins");
        TL_TRUE(&c, str_eq(m.build_id, "abcd"), "build-id trimmed");
        TL_EQI(&c, mapl("1000-1000 r-xp 0 0:0 0 /a", &m), TDEC_OK);
        TL_EQI(&c, mapl("ffffffffffffffff-ffffffffffffffff r-xp 0 0:0 0 /a", &m), TDEC_OK);
        static const char *const bad_lines[] = {
            "2000-1000 r-xp 0 0:0 0 /a",
            "1000 2000 r-xp 0 0:0 0 /a",
            "1000-2000 r-x 0 0:0 0 /a",
            "1000-2000 r-xpp 0 0:0 0 /a",
            "1000-2000 r-xp 0 00 0 /a",
            "1000-2000 r-xp 0 0:0 x /a",
            "1000-2000 r-xp 0 0:0 0x /a",
            "10000000000000000-20000000000000000 r-xp 0 0:0 0 /a",
            "1000-2000",
            "",
        };
        EXPECT_EACH(&c, mapl, &m, bad_lines, TDEC_E_FORMAT);
        TL_EQI(&c, tdec_uftrace_parse_map_line(NULL, 0, &m), TDEC_E_FORMAT);
        TL_EQI(&c, tdec_uftrace_parse_map_line(NULL, 2, &m), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_map_line("1-2 r-xp 0 0:0 0 /a", 19, NULL), TDEC_E_ARG);
    }
    tl_end(&c);
}

static tdec_status syml(const char *line, tdec_uftrace_sym_line *sl)
{
    return tdec_uftrace_parse_sym_line(line, strlen(line), sl);
}

static void test_syms(void)
{
    int i, j, files = 0;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        tl_begin(&c, "uftrace .sym files of %s: every line parses, symbol count == '# symbols: N'", s->name);
        for (j = 0; j < s->nsyms; j++) {
            size_t len, ll;
            char *d = (char *)read_in(s, s->syms[j], &len);
            const char *p = d, *e = d ? d + len : d, *ls;
            tdec_uftrace_sym_line sl;
            uint64_t count = UINT64_MAX, nsym = 0, prev = 0;
            int path = 0, bid = 0, markers = 0;
            files++;
            while (d && next_line(&p, e, &ls, &ll)) {
                if (!TL_EQI(&c, tdec_uftrace_parse_sym_line(ls, ll, &sl), TDEC_OK)) {
                    TL_TRUE(&c, 0, "%s: %.*s", s->syms[j], (int)ll, ls);
                    break;
                }
                switch (sl.kind) {
                case TDEC_UFTRACE_SYM_COUNT: count = sl.addr; break;
                case TDEC_UFTRACE_SYM_PATH: path++; TL_TRUE(&c, sl.name.len > 0, "path"); break;
                case TDEC_UFTRACE_SYM_BUILD_ID: bid++; TL_EQU(&c, sl.name.len, 40); break;
                case TDEC_UFTRACE_SYM_SYMBOL:
                    TL_TRUE(&c, !sl.has_size && sl.size == 0, "0.13 lines have no size");
                    TL_TRUE(&c, sl.name.len > 0, "name");
                    TL_TRUE(&c, sl.addr >= prev, "address order");
                    prev = sl.addr;
                    if (sl.type == '?') markers++;
                    else nsym++;
                    break;
                default: TL_TRUE(&c, 0, "kind %u: %.*s", sl.kind, (int)ll, ls); break;
                }
            }
            TL_EQU(&c, nsym, count);
            TL_EQI(&c, path, 1);
            TL_EQI(&c, bid, 1);
            TL_TRUE(&c, markers >= 1, "%s: no ? markers", s->syms[j]);
            free(d);
        }
        TL_TRUE(&c, s->nsyms >= 1, "no .sym");
        tl_end(&c);
    }
    tl_begin(&c, "uftrace .sym lines: values, sized 0.14 lines, TAB suffix, comments, bad types");
    {
        tdec_uftrace_sym_line sl;
        TL_EQI(&c, syml("0000000000001219 t cmp_int", &sl), TDEC_OK);
        TL_TRUE(&c, sl.kind == TDEC_UFTRACE_SYM_SYMBOL && sl.addr == 0x1219 && sl.type == 't' && !sl.has_size &&
                        str_eq(sl.name, "cmp_int"), "0.13 line");
        TL_EQI(&c, syml("0000000000001219 00000028 t cmp_int", &sl), TDEC_OK);
        TL_TRUE(&c, sl.kind == TDEC_UFTRACE_SYM_SYMBOL && sl.addr == 0x1219 && sl.size == 0x28 && sl.has_size &&
                        sl.type == 't' && str_eq(sl.name, "cmp_int"), "0.14 line");
        TL_EQI(&c, syml("0000000000001000 1000000a T big", &sl), TDEC_OK);
        TL_TRUE(&c, sl.has_size && sl.size == 0x1000000a && sl.type == 'T', "size with a letter digit");
        TL_EQI(&c, syml("ffffffffc0a00000 t btrfs_end_transaction\t[btrfs]", &sl), TDEC_OK);
        TL_TRUE(&c, str_eq(sl.name, "btrfs_end_transaction") && sl.addr == 0xffffffffc0a00000ull, "kallsyms");
        TL_EQI(&c, syml("ffffffff81000000 K _stext", &sl), TDEC_OK);
        TL_EQI(&c, syml("0000000000001000 T _ZNK2ns5Shape4areaEii", &sl), TDEC_OK);
        TL_TRUE(&c, str_eq(sl.name, "_ZNK2ns5Shape4areaEii"), "mangled");
        TL_EQI(&c, syml("0000000000001000 T ", &sl), TDEC_OK);
        TL_EQU(&c, sl.name.len, 0);
        TL_EQI(&c, syml("# symbols: 22", &sl), TDEC_OK);
        TL_TRUE(&c, sl.kind == TDEC_UFTRACE_SYM_COUNT && sl.addr == 22, "count");
        TL_EQI(&c, syml("# path name: /tmp/uft/libcall/prog", &sl), TDEC_OK);
        TL_TRUE(&c, sl.kind == TDEC_UFTRACE_SYM_PATH && str_eq(sl.name, "/tmp/uft/libcall/prog"), "path");
        TL_EQI(&c, syml("# build-id: 3c16434659b56aabaf0e6b583696ce638f0d9af2", &sl), TDEC_OK);
        TL_TRUE(&c, sl.kind == TDEC_UFTRACE_SYM_BUILD_ID && str_eq(sl.name, "3c16434659b56aabaf0e6b583696ce638f0d9af2"), "bid");
        TL_EQI(&c, syml("# anything else", &sl), TDEC_OK);
        TL_TRUE(&c, sl.kind == TDEC_UFTRACE_SYM_COMMENT && str_eq(sl.name, "# anything else"), "comment");
        TL_EQI(&c, syml("", &sl), TDEC_OK);
        TL_EQU(&c, sl.kind, TDEC_UFTRACE_SYM_COMMENT);
        static const char *const bad_lines[] = {
            "0000000000001000 a0000000 T big", /* uftrace reads 'a' as the type */
            "# symbols: x",
            "# symbols: 99999999999999999999",
            "0000000000001000 b bss",
            "0000000000001000 r rodata",
            "0000000000001000 A abs",
            "0000000000001000 T",
            "0000000000001000 Tx",
            "0000000000001000  T x",
            "zzzz T x",
            "10000000000000000 T x",
            "0000000000001000 00000010",
            "0000000000001000 00000010 ",
        };
        EXPECT_EACH(&c, syml, &sl, bad_lines, TDEC_E_FORMAT);
        TL_EQI(&c, tdec_uftrace_parse_sym_line(NULL, 1, &sl), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_sym_line("", 0, NULL), TDEC_E_ARG);
        {
            const char *ok = "?TtwPKDdvu";
            char line[40];
            int ch;
            for (ch = 1; ch < 256; ch++) {
                snprintf(line, sizeof line, "0000000000000010 %c n", ch);
                if (ch == ' ' || ch == '\n') continue;
                TL_EQI(&c, syml(line, &sl), (ch >= '0' && ch <= '9') || !strchr(ok, ch) ? TDEC_E_FORMAT : TDEC_OK);
            }
        }
    }
    tl_end(&c);
    (void)files;
}

static tdec_status dbgl(const char *line, tdec_uftrace_dbg_line *dl)
{
    return tdec_uftrace_parse_dbg_line(line, strlen(line), dl);
}

static void test_dbgs(void)
{
    int i, j;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        if (s->ndbgs == 0) continue;
        tl_begin(&c, "uftrace .dbg files of %s: every line parses, specs in A:/R: parse", s->name);
        for (j = 0; j < s->ndbgs; j++) {
            size_t len, ll;
            char *d = (char *)read_in(s, s->dbgs[j], &len);
            const char *p = d, *e = d ? d + len : d, *ls;
            tdec_uftrace_dbg_line dl;
            int funcs = 0, lines = 0;
            while (d && next_line(&p, e, &ls, &ll)) {
                if (!TL_EQI(&c, tdec_uftrace_parse_dbg_line(ls, ll, &dl), TDEC_OK)) {
                    TL_TRUE(&c, 0, "%s: %.*s", s->dbgs[j], (int)ll, ls);
                    break;
                }
                if (dl.kind == TDEC_UFTRACE_DBG_FUNC) funcs++;
                if (dl.kind == TDEC_UFTRACE_DBG_LINE) lines++;
                if (dl.kind == TDEC_UFTRACE_DBG_ARGS || dl.kind == TDEC_UFTRACE_DBG_RETVAL) {
                    const char *q = dl.text.ptr, *qe = q + dl.text.len;
                    tdec_uftrace_text is;
                    tdec_uftrace_spec_item it;
                    tdec_uftrace_arg a;
                    int n = 0;
                    while (tdec_uftrace_next_spec_item(&q, qe, &is) == TDEC_OK) {
                        n++;
                        TL_EQI(&c, tdec_uftrace_parse_spec_item(is.ptr, is.len, &it), TDEC_OK);
                        TL_EQI(&c, tdec_uftrace_spec_item_layout(&it, 8, 10, &a), TDEC_OK);
                        TL_TRUE(&c, (it.kind == TDEC_UFTRACE_ITEM_RETVAL) == (dl.kind == TDEC_UFTRACE_DBG_RETVAL), "kind");
                    }
                    TL_TRUE(&c, n > 0, "empty spec");
                }
            }
            TL_EQI(&c, funcs, lines);
            free(d);
        }
        tl_end(&c);
    }
    tl_begin(&c, "uftrace .dbg lines: libcall prog.dbg values, E:, errors");
    {
        sample *s = find_sample("libcall");
        size_t len, ll;
        char *d = s ? (char *)read_in(s, "prog.dbg", &len) : NULL;
        const char *p = d, *e = d ? d + len : d, *ls;
        tdec_uftrace_dbg_line dl;
        static const char *const want[] = { "C", "C", "F1219 cmp_int", "L6 prog.c", "Aarg1/p,arg2/p", "Rretval",
                                            "F1241 do_strings", "L11 prog.c", "Rretval", "F12d3 do_sort",
                                            "L25 prog.c", "Rretval", "F1322 main", "L32 prog.c", "Rretval" };
        size_t n = 0;
        char got[256];
        while (d && next_line(&p, e, &ls, &ll)) {
            TL_EQI(&c, tdec_uftrace_parse_dbg_line(ls, ll, &dl), TDEC_OK);
            switch (dl.kind) {
            case TDEC_UFTRACE_DBG_COMMENT: snprintf(got, sizeof got, "C"); break;
            case TDEC_UFTRACE_DBG_FUNC: snprintf(got, sizeof got, "F%" PRIx64 " %.*s", dl.addr, (int)dl.text.len, dl.text.ptr); break;
            case TDEC_UFTRACE_DBG_LINE: snprintf(got, sizeof got, "L%" PRIu64 " %.*s", dl.addr, (int)dl.text.len, dl.text.ptr); break;
            case TDEC_UFTRACE_DBG_ARGS: snprintf(got, sizeof got, "A%.*s", (int)dl.text.len, dl.text.ptr); break;
            case TDEC_UFTRACE_DBG_RETVAL: snprintf(got, sizeof got, "R%.*s", (int)dl.text.len, dl.text.ptr); break;
            default: snprintf(got, sizeof got, "?"); break;
            }
            TL_TRUE(&c, n < sizeof want / sizeof want[0] && strcmp(got, want[n]) == 0, "line %zu: %s", n, got);
            n++;
        }
        TL_EQU(&c, n, sizeof want / sizeof want[0]);
        free(d);
        TL_EQI(&c, dbgl("E: enum foo {A,B=5}", &dl), TDEC_OK);
        TL_TRUE(&c, dl.kind == TDEC_UFTRACE_DBG_ENUM && str_eq(dl.text, "enum foo {A,B=5}"), "E:");
        TL_EQI(&c, dbgl("A: arg1/p", &dl), TDEC_OK); /* '@' is optional */
        TL_TRUE(&c, dl.kind == TDEC_UFTRACE_DBG_ARGS && str_eq(dl.text, "arg1/p"), "A: without @");
        TL_EQI(&c, dbgl("F: 23a9 app::greet", &dl), TDEC_OK);
        TL_TRUE(&c, dl.addr == 0x23a9 && str_eq(dl.text, "app::greet"), "F: C++");
        TL_EQI(&c, dbgl("L: 517 /usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h", &dl), TDEC_OK);
        TL_TRUE(&c, dl.addr == 517 && str_eq(dl.text, "/usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h"), "L:");
        TL_EQI(&c, dbgl("F: 1219", &dl), TDEC_OK);
        TL_EQU(&c, dl.text.len, 0);
        TL_EQI(&c, dbgl("", &dl), TDEC_OK);
        TL_EQU(&c, dl.kind, TDEC_UFTRACE_DBG_COMMENT);
        TL_EQI(&c, dbgl("# path name: /x", &dl), TDEC_OK);
        TL_EQU(&c, dl.kind, TDEC_UFTRACE_DBG_COMMENT);
        static const char *const bad_lines[] = {
            "X: foo",
            "F:1219 x",
            "F: zz x",
            "F: 12zz x",
            "F: 10000000000000000 x",
            "L: x prog.c",
            "L: 99999999999999999999 prog.c",
            "A:",
            "F",
        };
        EXPECT_EACH(&c, dbgl, &dl, bad_lines, TDEC_E_FORMAT);
        TL_EQI(&c, tdec_uftrace_parse_dbg_line(NULL, 1, &dl), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_dbg_line("", 0, NULL), TDEC_E_ARG);
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* every .dat and perf file against uftrace's own dump                 */

/* The text of "reading FILE\n" up to the next "reading " section. */
static const char *dump_section(const sample *s, const char *file, const char **end)
{
    char hdr[128];
    const char *p, *q;
    if (s->dump == NULL) return NULL;
    snprintf(hdr, sizeof hdr, "reading %s\n", file);
    p = strstr(s->dump, hdr);
    if (p == NULL || (p != s->dump && p[-1] != '\n')) return NULL;
    p += strlen(hdr);
    q = strstr(p, "\nreading ");
    *end = q ? q + 1 : s->dump + s->dump_len;
    return p;
}

typedef struct cursor {
    const char *p, *e;
} cursor;

static int take_line(cursor *cu, const char **ls, size_t *ll)
{
    return next_line(&cu->p, cu->e, ls, ll);
}

/* Compares the exact text at the cursor and steps over it. */
static int expect_text(cursor *cu, const char *t, size_t n)
{
    if ((size_t)(cu->e - cu->p) < n || memcmp(cu->p, t, n) != 0) return 0;
    cu->p += n;
    return 1;
}

typedef struct dec_arg {
    tdec_uftrace_record rec;
    buf                 text;
} dec_arg;

static void time_prefix(char *out, size_t cap, uint64_t t, int tid)
{
    snprintf(out, cap, "%u.%09u  %5d: ", (unsigned)(t / 1000000000u), (unsigned)(t % 1000000000u), tid);
}

/* One argument line as uftrace dump (cmds/dump.c pr_args/pr_retval)
   prints it; 0 with *why on a mismatch. */
static int check_arg_line(cursor *cu, int is_ret, int idx, const dec_arg *a, char *why, size_t wcap)
{
    char label[32], exp[512];
    const tdec_uftrace_record *r = &a->rec;
    const char *ls, *rest;
    size_t ll, n, i;
    uint64_t v;
    if (is_ret) snprintf(label, sizeof label, "  retval ");
    else snprintf(label, sizeof label, "  args[%d] ", idx);
    switch (r->arg.kind) {
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING: {
        buf e = { NULL, 0, 0 };
        const unsigned char *t = (const unsigned char *)a->text.p;
        n = 0;
        while (n < a->text.len && t[n] != 0) n++; /* strncpy stops at NUL */
        buf_printf(&e, "%s%s: ", label, r->arg.kind == TDEC_UFTRACE_V_STRING ? "str" : "std::string");
        if (a->text.len >= 4 && t[0] == 0xff && t[1] == 0xff && t[2] == 0xff && t[3] == 0xff) buf_add(&e, "NULL", 4);
        else buf_add(&e, t, n);
        buf_add(&e, "\n", 1);
        {
            int ok = expect_text(cu, e.p, e.len);
            if (!ok) snprintf(why, wcap, "string line: want [%s]", e.p);
            buf_free(&e);
            return ok;
        }
    }
    case TDEC_UFTRACE_V_STRUCT:
        /* the name line, then one line per 16 bytes */
        for (i = 0; i <= (r->payload_size + 15) / 16; i++)
            if (!take_line(cu, &ls, &ll)) return 0;
        return 1;
    case TDEC_UFTRACE_V_FLOAT:
        v = 0;
        for (i = r->arg.size < 8 ? r->arg.size : 8; i > 0; i--) v = v << 8 | r->raw[i - 1];
        if (r->arg.size == 10) /* all 80 bits (uftrace 0.13 aborts: docs/uftrace.md) */
            snprintf(exp, sizeof exp, "%sf80: 0x%02x%02x%016" PRIx64 "\n", label, r->raw[9], r->raw[8], v);
        else
            snprintf(exp, sizeof exp, "%sf%u: 0x%0*" PRIx64 "\n", label, r->arg.size * 8u, r->arg.size * 2, v);
        break;
    default:
        /* enum arguments only: uftrace 0.13 prints enum return values raw */
        if (r->arg.format == 'p' || (r->arg.format == 'e' && !is_ret)) {
            snprintf(exp, sizeof exp, "%s%s", label, r->arg.format == 'p' ? "p: " : "enum ");
            if (!take_line(cu, &ls, &ll) || ll < strlen(exp) || memcmp(ls, exp, strlen(exp)) != 0) {
                snprintf(why, wcap, "want a line starting [%s]", exp);
                return 0;
            }
            if (r->arg.format == 'e') return 1;
            rest = ls + strlen(exp);
            n = ll - strlen(exp);
            snprintf(exp, sizeof exp, "0x%" PRIx64, r->value);
            if (n == strlen(exp) && memcmp(rest, exp, n) == 0) return 1;
            snprintf(exp, sizeof exp, "%" PRIx64 " (&", r->value);
            if (n > strlen(exp) && memcmp(rest, exp, strlen(exp)) == 0 && rest[n - 1] == ')') return 1;
            if (r->value == 0 && n == 5 && memcmp(rest, "(nil)", 5) == 0) return 1;
            snprintf(why, wcap, "pointer %" PRIx64 ": [%.*s]", r->value, (int)n, rest);
            return 0;
        }
        snprintf(exp, sizeof exp, "%s%c%u: 0x%0*" PRIx64 "\n", label, r->arg.format, r->arg.size * 8u,
                 r->arg.size * 2, r->value);
        break;
    }
    if (!expect_text(cu, exp, strlen(exp))) {
        snprintf(why, wcap, "want [%.*s] got [%.*s]", (int)strlen(exp) - 1, exp, (int)strcspn(cu->p, "\n"), cu->p);
        return 0;
    }
    return 1;
}

/* Decodes FILE whole, checks every record and argument against the dump,
   resolves each payload's spec by the function name the dump gives, and
   returns the specs in the order the decoder asked for them. */
static void golden_dat(sample *s, const char *file, spec_seq *seq, tl_case *c)
{
    size_t len, ll = 0;
    unsigned char *data = read_in(s, file, &len);
    const char *ls = NULL, *send = NULL, *sbeg = dump_section(s, file, &send);
    int tid = atoi(file), nargs = 0, i, nrec = 0, nblocks = 0;
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    tdec_status st;
    cursor cu;
    char pre[256], suf[512], why[600];
    dec_arg args[TDEC_UFTRACE_MAX_ARGS];
    uint32_t cur_type = 0;
    uint64_t cur_time = 0;
    int in_arg = -1;

    memset(args, 0, sizeof args);
    if (!TL_TRUE(c, data != NULL, "cannot read %s", file) || !TL_TRUE(c, sbeg != NULL, "no dump section for %s", file)) {
        free(data);
        return;
    }
    cu.p = sbeg;
    cu.e = send;
    tdec_uftrace_init(&d, NULL);
    st = tdec_uftrace_feed(&d, data, len);
    for (;;) {
        st = tdec_uftrace_next(&d, &it);
        if (st == TDEC_NEED_INPUT) {
            st = tdec_uftrace_finish(&d);
            break;
        }
        if (st != TDEC_OK) break;
        if (it.kind == TDEC_ITEM_FRAGMENT) {
            if (in_arg >= 0) buf_add(&args[in_arg].text, it.u.frag.data, it.u.frag.len);
            continue;
        }
        if (it.u.rec.type <= TDEC_UFTRACE_REC_EVENT) {
            const tdec_uftrace_record *r = &it.u.rec;
            static const char *const tn[] = { "entry", "exit ", "lost ", "event" };
            nrec++;
            in_arg = -1;
            time_prefix(pre, sizeof pre, r->time, tid);
            strcat(pre, "[");
            strcat(pre, tn[r->type]);
            strcat(pre, "] ");
            snprintf(suf, sizeof suf, "(%" PRIx64 ") depth: %u", r->addr, r->depth);
            if (!TL_TRUE(c, take_line(&cu, &ls, &ll), "%s: dump ends before the record at %" PRIu64, file, it.offset) ||
                !TL_TRUE(c, ll > strlen(pre) + strlen(suf) && memcmp(ls, pre, strlen(pre)) == 0 &&
                                memcmp(ls + ll - strlen(suf), suf, strlen(suf)) == 0,
                         "%s@%" PRIu64 ": got [%.*s] want [%s...%s]", file, it.offset, (int)ll, ls, pre, suf))
                break;
            if (r->type == TDEC_UFTRACE_REC_EVENT && r->more) {
                time_prefix(pre, sizeof pre, r->time, tid);
                snprintf(suf, sizeof suf, "%s[data ] length = %" PRIu64 "\n", pre, r->payload_size);
                if (!TL_TRUE(c, expect_text(&cu, suf, strlen(suf)), "%s: event data line [%s]", file, suf)) break;
                while (cu.e - cu.p >= 2 && cu.p[0] == ' ' && cu.p[1] == ' ') take_line(&cu, &ls, &ll);
            }
            if (tdec_uftrace_needs_spec(&d)) {
                const char *nm = ls + strlen(pre);
                size_t nl = ll - strlen(pre) - strlen(suf);
                fspec *f = fs_find(s, nm, nl, r->type == TDEC_UFTRACE_REC_EXIT);
                TL_TRUE(c, f != NULL, "%s: no spec for %.*s", file, (int)nl, nm);
                seq_push(seq, f ? &f->spec : NULL, 1);
                if (!TL_EQI(c, tdec_uftrace_set_spec(&d, f ? &f->spec : NULL), TDEC_NEED_INPUT)) break;
                cur_type = r->type;
                cur_time = r->time;
                nargs = 0;
            }
            continue;
        }
        if (it.u.rec.type == TDEC_UFTRACE_REC_ARG) {
            in_arg = -1;
            TL_EQU(c, it.u.rec.arg_index, (unsigned)nargs);
            TL_EQU(c, it.u.rec.time, cur_time);
            args[nargs].rec = it.u.rec;
            args[nargs].text.len = 0;
            if (it.u.rec.arg.kind == TDEC_UFTRACE_V_STRING || it.u.rec.arg.kind == TDEC_UFTRACE_V_STDSTRING ||
                it.u.rec.arg.kind == TDEC_UFTRACE_V_STRUCT)
                in_arg = nargs;
            nargs++;
            continue;
        }
        /* ARGS_END */
        in_arg = -1;
        nblocks++;
        time_prefix(pre, sizeof pre, cur_time, tid);
        snprintf(suf, sizeof suf, "%s[%s] length = %u\n", pre, cur_type == TDEC_UFTRACE_REC_ENTRY ? "args " : "retval",
                 it.u.rec.block_len);
        if (!TL_TRUE(c, expect_text(&cu, suf, strlen(suf)), "%s@%" PRIu64 ": want [%s] got [%.*s]", file, it.offset,
                     suf, (int)strcspn(cu.p, "\n"), cu.p))
            break;
        for (i = 0; i < nargs; i++) {
            why[0] = 0;
            if (!TL_TRUE(c, check_arg_line(&cu, cur_type == TDEC_UFTRACE_REC_EXIT, i, &args[i], why, sizeof why),
                         "%s@%" PRIu64 " arg %d: %s", file, it.offset, i, why))
                break;
        }
        if (c->bad) break;
    }
    TL_EQI(c, st, TDEC_END);
    while (cu.p < cu.e && *cu.p == '\n') cu.p++;
    TL_TRUE(c, cu.p == cu.e, "%s: dump has more: [%.*s]", file, (int)strcspn(cu.p, "\n"), cu.p);
    TL_TRUE(c, nrec > 0, "no records");
    for (i = 0; i < (int)TDEC_UFTRACE_MAX_ARGS; i++) buf_free(&args[i].text);
    free(data);
    (void)nblocks;
}

static const char *perf_event_name(const tdec_uftrace_perf_record *r, unsigned *id)
{
    switch (r->type) {
    case TDEC_UFTRACE_PERF_COMM: *id = 200006; return "linux:task-name";
    case TDEC_UFTRACE_PERF_FORK: *id = 200004; return "linux:task-new";
    case TDEC_UFTRACE_PERF_EXIT: *id = 200005; return "linux:task-exit";
    case TDEC_UFTRACE_PERF_SWITCH:
        if (!(r->misc & TDEC_UFTRACE_PERF_SWITCH_OUT)) {
            *id = 200001;
            return "linux:sched-in";
        }
        if (r->misc & TDEC_UFTRACE_PERF_PREEMPT) {
            *id = 200007;
            return "linux:sched-out (pre-empted)";
        }
        *id = 200002;
        return "linux:sched-out";
    }
    *id = 0;
    return NULL;
}

/* 1 if the sample has <tid>.dat: uftrace dump leaves out the perf records
   of a task without one (notaskdat) */
static int has_dat(const sample *s, uint32_t tid)
{
    char name[64];
    int i;
    snprintf(name, sizeof name, "%u.dat", tid);
    for (i = 0; i < s->ndats; i++)
        if (strcmp(s->dats[i], name) == 0) return 1;
    return 0;
}

static void golden_perf(sample *s, const char *file, tl_case *c, int *nrecs)
{
    size_t len;
    unsigned char *data = read_in(s, file, &len);
    const char *send = NULL, *sbeg = dump_section(s, file, &send);
    tdec_uftrace_perf_decoder d;
    tdec_uftrace_perf_item it;
    tdec_status st;
    cursor cu;
    char exp[256];
    unsigned id;
    const char *nm;
    *nrecs = 0;
    if (!TL_TRUE(c, data != NULL, "cannot read %s", file)) return;
    if (len == 0) {
        TL_TRUE(c, sbeg == NULL, "%s is empty but dumped", file);
        free(data);
        return;
    }
    if (!TL_TRUE(c, sbeg != NULL, "no dump section for %s", file)) {
        free(data);
        return;
    }
    cu.p = sbeg;
    cu.e = send;
    tdec_uftrace_perf_init(&d, NULL);
    tdec_uftrace_perf_feed(&d, data, len);
    for (;;) {
        st = tdec_uftrace_perf_next(&d, &it);
        if (st == TDEC_NEED_INPUT) {
            st = tdec_uftrace_perf_finish(&d);
            break;
        }
        if (st != TDEC_OK) break;
        if (!TL_EQU(c, it.kind, TDEC_ITEM_RECORD)) break;
        (*nrecs)++;
        if (!has_dat(s, it.u.rec.tid)) continue;
        nm = perf_event_name(&it.u.rec, &id);
        if (!TL_TRUE(c, nm != NULL, "%s@%" PRIu64 ": type %u", file, it.offset, it.u.rec.type)) break;
        time_prefix(exp, sizeof exp, it.u.rec.time, (int)it.u.rec.tid);
        snprintf(exp + strlen(exp), sizeof exp - strlen(exp), "[event] %s(%u)\n", nm, id);
        if (!TL_TRUE(c, expect_text(&cu, exp, strlen(exp)), "%s@%" PRIu64 ": want [%s] got [%.*s]", file, it.offset,
                     exp, (int)strcspn(cu.p, "\n"), cu.p))
            break;
        TL_TRUE(c, it.u.rec.sample_time > 0 && it.u.rec.sample_tid > 0, "sample trailer");
        if (it.u.rec.type == TDEC_UFTRACE_PERF_SWITCH) TL_EQU(c, it.u.rec.time, it.u.rec.sample_time);
        if (it.u.rec.type == TDEC_UFTRACE_PERF_COMM) {
            TL_TRUE(c, strcmp(it.u.rec.comm, "prog") == 0 || strcmp(it.u.rec.comm, "helper") == 0, "comm %s",
                    it.u.rec.comm);
            TL_EQU(c, it.u.rec.pid, it.u.rec.tid);
        }
        if (it.u.rec.type == TDEC_UFTRACE_PERF_FORK || it.u.rec.type == TDEC_UFTRACE_PERF_EXIT)
            TL_TRUE(c, it.u.rec.ppid > 0 && it.u.rec.ptid > 0, "ppid/ptid");
    }
    TL_EQI(c, st, TDEC_END);
    while (cu.p < cu.e && *cu.p == '\n') cu.p++;
    TL_TRUE(c, cu.p == cu.e, "%s: dump has more: [%.*s]", file, (int)strcspn(cu.p, "\n"), cu.p);
    free(data);
}

static spec_seq seqs[32][MAX_FILES];

static void test_golden(void)
{
    int i, j, nr;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        spec_errors = 0;
        build_specs(s);
        for (j = 0; j < s->ndats; j++) {
            tl_begin(&c, "uftrace %s/%s decoded == uftrace dump (records, argument blocks and values)", s->name,
                     s->dats[j]);
            /* badreg: an unknown register, a format 0.13 lacks */
            TL_EQI(&c, spec_errors, strcmp(s->name, "badreg") == 0 ? 2 : 0);
            golden_dat(s, s->dats[j], &seqs[i][j], &c);
            tl_end(&c);
        }
        for (j = 0; j < s->nperfs; j++) {
            tl_begin(&c, "uftrace %s/%s decoded == uftrace dump (perf events)", s->name, s->perfs[j]);
            golden_perf(s, s->perfs[j], &c, &nr);
            tl_end(&c);
        }
    }
    tl_begin(&c, "uftrace golden coverage: samples with argument payloads resolved and checked");
    {
        size_t total = 0;
        int with = 0;
        for (i = 0; i < nsamples; i++) {
            size_t n = 0;
            for (j = 0; j < samples[i].ndats; j++) n += seqs[i][j].n;
            if (n) with++;
            total += n;
            if (strcmp(samples[i].name, "args") == 0) TL_EQU(&c, n, 26); /* "length =" lines of its dump */
        }
        /* args, cxx, forkexec, libcall, enums, stackspec, longdouble,
           argzero, badreg, oddsize, charstep */
        TL_TRUE(&c, with >= 11, "%d samples with payloads", with);
        TL_EQU(&c, total, 26 + 6 + 2 + 24 + 11 + 3 + 5 + 6 + 4 + 8 + 4);
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* spec grammar                                                        */

typedef struct spec_count {
    int entries, items, args, rets, others, bad;
    int lines;
} spec_count;

static void spec_count_cb(void *ctx, tdec_uftrace_text k, tdec_uftrace_text v)
{
    spec_count *sc = (spec_count *)ctx;
    tdec_uftrace_spec_entry ent;
    tdec_uftrace_text is;
    tdec_uftrace_spec_item it;
    tdec_uftrace_arg a;
    const char *p = v.ptr, *e = v.ptr + v.len, *q, *qe;
    if (!str_eq(k, "argspec") && !str_eq(k, "retspec") && !str_eq(k, "argauto") && !str_eq(k, "retauto")) return;
    sc->lines++;
    while (tdec_uftrace_next_spec_entry(&p, e, &ent) == TDEC_OK) {
        if (ent.items.len == 0) continue;
        sc->entries++;
        if (ent.pattern.len == 0) sc->bad++;
        q = ent.items.ptr;
        qe = q + ent.items.len;
        while (tdec_uftrace_next_spec_item(&q, qe, &is) == TDEC_OK) {
            sc->items++;
            if (tdec_uftrace_parse_spec_item(is.ptr, is.len, &it) != TDEC_OK) {
                sc->bad++;
                continue;
            }
            if (it.kind == TDEC_UFTRACE_ITEM_OTHER) {
                sc->others++;
                continue;
            }
            if (tdec_uftrace_spec_item_layout(&it, 8, 10, &a) != TDEC_OK) sc->bad++;
            if (it.kind == TDEC_UFTRACE_ITEM_RETVAL) sc->rets++;
            else sc->args++;
            if ((str_eq(k, "retspec") || str_eq(k, "retauto")) != (it.kind == TDEC_UFTRACE_ITEM_RETVAL)) sc->bad++;
        }
    }
}

typedef struct item_want {
    const char *s;
    tdec_status st;       /* parse result */
    uint32_t    kind, index;
    char        format;
    uint32_t    bits;
    tdec_status lst;      /* layout result (long 8, f80 10) */
    uint8_t     vkind;
    uint16_t    size8, size4; /* byte size with long_size 8 / 4 */
    uint8_t     eff;          /* effective format */
} item_want;

static void test_spec_grammar(void)
{
    int i;
    tl_case c;
    static const struct {
        const char *name;
        int         entries, args, rets;
    } want[] = {
        /* argspec + retspec (+ argauto + retauto in every file) */
        { "args", 11 + 11 + 224 + 219, 0, 0 },
        { "libcall", 224 + 219, 0, 0 },
        { "forkexec", 1 + 1 + 224 + 219, 0, 0 },
        { "cxx", 2 + 2 + 224 + 219, 0, 0 },
    };
    for (i = 0; i < (int)(sizeof want / sizeof want[0]); i++) {
        sample *s = find_sample(want[i].name);
        spec_count sc;
        memset(&sc, 0, sizeof sc);
        tl_begin(&c, "uftrace spec lines of %s: every entry and item parses and has a layout", want[i].name);
        if (TL_TRUE(&c, s != NULL, "no sample")) {
            each_info_line(s, spec_count_cb, &sc);
            TL_EQI(&c, sc.bad, 0);
            TL_EQI(&c, sc.entries, want[i].entries);
            TL_EQI(&c, sc.others, 0);
            TL_TRUE(&c, sc.args > 300 && sc.rets > 100, "%d args %d rets", sc.args, sc.rets);
        }
        tl_end(&c);
    }

    tl_begin(&c, "uftrace spec items: kinds, formats, sizes and layouts (64- and 32-bit)");
    {
        static const item_want w[] = {
            { "arg1/i32", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'i', 32, TDEC_OK, TDEC_UFTRACE_V_INT, 4, 4, 'i' },
            { "fparg1", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 1, 0, 0, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 8, 8, 'f' },
            { "fparg2/32", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 2, 0, 32, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 4, 4, 'f' },
            { "fparg2/80", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 2, 0, 80, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 10, 10, 'f' },
            { "fparg1/f32", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 1, 'f', 32, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 4, 4, 'f' },
            { "arg2/s", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 2, 's', 0, TDEC_OK, TDEC_UFTRACE_V_STRING, 0, 0, 's' },
            { "arg1/S", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'S', 0, TDEC_OK, TDEC_UFTRACE_V_STDSTRING, 0, 0, 'S' },
            { "retval/f32", TDEC_OK, TDEC_UFTRACE_ITEM_RETVAL, 0, 'f', 32, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 4, 4, 'f' },
            { "retval/f", TDEC_OK, TDEC_UFTRACE_ITEM_RETVAL, 0, 'f', 0, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 8, 8, 'f' },
            { "retval", TDEC_OK, TDEC_UFTRACE_ITEM_RETVAL, 0, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg1", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg3/d32", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 3, 'd', 32, TDEC_OK, TDEC_UFTRACE_V_INT, 4, 4, 'd' },
            { "arg1/x", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'x', 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'x' },
            { "arg1/p", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'p', 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'p' },
            { "arg1/u64", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'u', 64, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 8, 'u' },
            { "arg1/c", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'c', 0, TDEC_OK, TDEC_UFTRACE_V_CHAR, 1, 1, 'c' },
            { "arg1/c8", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'c', 8, TDEC_OK, TDEC_UFTRACE_V_CHAR, 1, 1, 'c' },
            /* sizes uftrace 0.13 stores as given (libmcount copies size bytes) */
            { "arg1/c16", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'c', 16, TDEC_OK, TDEC_UFTRACE_V_CHAR, 2, 2, 'c' },
            { "arg1/c32", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'c', 32, TDEC_OK, TDEC_UFTRACE_V_CHAR, 4, 4, 'c' },
            { "retval/c64", TDEC_OK, TDEC_UFTRACE_ITEM_RETVAL, 0, 'c', 64, TDEC_OK, TDEC_UFTRACE_V_CHAR, 8, 8, 'c' },
            { "arg1/f16", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'f', 16, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 2, 2, 'f' },
            { "arg1/f8", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'f', 8, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 1, 1, 'f' },
            { "fparg1/16", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 1, 0, 16, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 2, 2, 'f' },
            { "arg1/p16", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'p', 16, TDEC_OK, TDEC_UFTRACE_V_INT, 2, 2, 'p' },
            { "arg1/s8", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 's', 8, TDEC_OK, TDEC_UFTRACE_V_STRING, 0, 0, 's' },
            { "arg1/S64", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'S', 64, TDEC_OK, TDEC_UFTRACE_V_STDSTRING, 0, 0, 'S' },
            /* index 0: uftrace files it with the return values */
            { "arg0", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 0, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg0/c16", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 0, 'c', 16, TDEC_OK, TDEC_UFTRACE_V_CHAR, 2, 2, 'c' },
            { "fparg0", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 0, 0, 0, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 8, 8, 'f' },
            { "arg00", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 0, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg1/f80", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'f', 80, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 10, 10, 'f' },
            { "arg1/e:foo", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'e', 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'e' },
            { "arg2/e:uft_signal", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 2, 'e', 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'e' },
            { "arg1/t24:NAME%stack+1", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 24, 24, 't' },
            { "arg1/t8:NAME%RDI", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 8, 8, 't' },
            { "arg3/t16:mystruct%RDI+RSI", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 3, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 16, 16, 't' },
            { "arg1/t", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 0, 0, 't' },
            { "arg1/t1020", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 1020, 1020, 't' },
            { "arg1/t1021", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            { "arg1%RDI", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg2/i32%stack+3", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 2, 'i', 32, TDEC_OK, TDEC_UFTRACE_V_INT, 4, 4, 'i' },
            /* forms uftrace 0.13's parse_argspec() accepts (strtol rules) */
            { "arg7%stack1", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 7, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg1%stack", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg1%stack+", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg1%stack+x", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg2/i64%stack3x", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 2, 'i', 64, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 8, 'i' },
            { "retval%stack4", TDEC_OK, TDEC_UFTRACE_ITEM_RETVAL, 0, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "arg0x2/i32%stack+0x2", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 2, 'i', 32, TDEC_OK, TDEC_UFTRACE_V_INT, 4, 4, 'i' },
            { "arg010", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 8, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "fparg0x1/f32", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 1, 'f', 32, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 4, 4, 'f' },
            { "arg1/i 16", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'i', 16, TDEC_OK, TDEC_UFTRACE_V_INT, 2, 2, 'i' },
            { "arg1/u+8", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 'u', 8, TDEC_OK, TDEC_UFTRACE_V_INT, 1, 1, 'u' },
            { "arg1/t0x10:pair", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 16, 16, 't' },
            { "arg1/t16xyz", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 16, 16, 't' },
            { "arg1/t16:s%stack1", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 1, 't', 0, TDEC_OK, TDEC_UFTRACE_V_STRUCT, 16, 16, 't' },
            { "fparg3%xmm2", TDEC_OK, TDEC_UFTRACE_ITEM_FPARG, 3, 0, 0, TDEC_OK, TDEC_UFTRACE_V_FLOAT, 8, 8, 'f' },
            { "arg4294967295", TDEC_OK, TDEC_UFTRACE_ITEM_ARG, 4294967295u, 0, 0, TDEC_OK, TDEC_UFTRACE_V_INT, 8, 4, 'd' },
            { "libc", TDEC_OK, TDEC_UFTRACE_ITEM_OTHER, 0, 0, 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            { "PLT", TDEC_OK, TDEC_UFTRACE_ITEM_OTHER, 0, 0, 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            { "depth=2", TDEC_OK, TDEC_UFTRACE_ITEM_OTHER, 0, 0, 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            { "read=proc/statm", TDEC_OK, TDEC_UFTRACE_ITEM_OTHER, 0, 0, 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            { "backtrace", TDEC_OK, TDEC_UFTRACE_ITEM_OTHER, 0, 0, 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            { "trace_on", TDEC_OK, TDEC_UFTRACE_ITEM_OTHER, 0, 0, 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            { "", TDEC_OK, TDEC_UFTRACE_ITEM_OTHER, 0, 0, 0, TDEC_E_FORMAT, 0, 0, 0, 0 },
            /* malformed argument items */
            { "arg", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "ARG1/i16", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "Retval/u8", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "fpArg1", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/o", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "argx", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "fparg", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg4294967296", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/i7", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/i0", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/u128", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/i99999999999999999999", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/x80", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/c80", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/32", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "retval/64", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "fparg1/48", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/q", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1x", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/i32x", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/e", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/e:", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/e:1x", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/e32:foo", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg08", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg0x", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/i-32", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1/i+", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1%", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1%R D", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "arg1%RDI+RSI", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            { "retvalue", TDEC_E_FORMAT, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
        };
        size_t k;
        for (k = 0; k < sizeof w / sizeof w[0]; k++) {
            tdec_uftrace_spec_item it;
            tdec_uftrace_arg a, a4;
            tdec_status st = tdec_uftrace_parse_spec_item(w[k].s, strlen(w[k].s), &it);
            if (!TL_TRUE(&c, st == w[k].st, "%s: parse %d", w[k].s, st)) continue;
            if (st != TDEC_OK) {
                /* the item's action is still known: callers drop its entry */
                TL_TRUE(&c, it.kind == (tolower((unsigned char)w[k].s[0]) == 'f' ? TDEC_UFTRACE_ITEM_FPARG
                                        : tolower((unsigned char)w[k].s[0]) == 'r' ? TDEC_UFTRACE_ITEM_RETVAL
                                                                                   : TDEC_UFTRACE_ITEM_ARG),
                        "%s: kind %u", w[k].s, it.kind);
                continue;
            }
            TL_TRUE(&c, it.kind == w[k].kind && it.index == w[k].index && it.format == w[k].format &&
                            it.size_bits == w[k].bits,
                    "%s: kind %u index %u format %d bits %u", w[k].s, it.kind, it.index, it.format, it.size_bits);
            st = tdec_uftrace_spec_item_layout(&it, 8, 10, &a);
            if (!TL_TRUE(&c, st == w[k].lst, "%s: layout %d", w[k].s, st) || st != TDEC_OK) continue;
            TL_TRUE(&c, a.kind == w[k].vkind && a.size == w[k].size8 && a.format == w[k].eff,
                    "%s: layout kind %u size %u format %c", w[k].s, a.kind, a.size, a.format);
            TL_EQI(&c, tdec_uftrace_spec_item_layout(&it, 4, 8, &a4), TDEC_OK);
            TL_TRUE(&c, a4.kind == w[k].vkind && a4.format == w[k].eff &&
                            a4.size == (w[k].size8 == 10 ? 8 : w[k].size4),
                    "%s: 32-bit layout kind %u size %u", w[k].s, a4.kind, a4.size);
        }
    }
    tl_end(&c);

    tl_begin(&c, "uftrace spec items: names, registers, stack offsets, NULL");
    {
        tdec_uftrace_spec_item it;
        tdec_uftrace_arg a;
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1/t24:NAME%stack+1", 21, &it), TDEC_OK);
        TL_TRUE(&c, it.struct_size == 24 && str_eq(it.type_name, "NAME") && it.has_stack && it.stack_offset == 1 &&
                        it.reg.len == 0, "t24:NAME%%stack+1");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg3/t16:mystruct%RDI+RSI", 25, &it), TDEC_OK);
        TL_TRUE(&c, str_eq(it.type_name, "mystruct") && str_eq(it.reg, "RDI+RSI") && !it.has_stack, "struct regs");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1/e:_x%RDI", 13, &it), TDEC_OK);
        TL_TRUE(&c, str_eq(it.type_name, "_x") && str_eq(it.reg, "RDI"), "enum in a register");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1/e:ns::color", 16, &it), TDEC_OK);
        TL_TRUE(&c, str_eq(it.type_name, "ns::color"), "enum name with ::");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg2/i32%stack+3", 16, &it), TDEC_OK);
        TL_TRUE(&c, it.has_stack && it.stack_offset == 3, "stack+3");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1/t8%stack+4294967295", 24, &it), TDEC_OK);
        TL_TRUE(&c, it.struct_size == 8 && it.type_name.len == 0 && it.stack_offset == 4294967295u, "big offset");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg7%stack1", 11, &it), TDEC_OK);
        TL_TRUE(&c, it.has_stack && it.stack_offset == 1 && it.index == 7, "stack1");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1%stack", 10, &it), TDEC_OK);
        TL_TRUE(&c, it.has_stack && it.stack_offset == 0, "stack");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg2/i64%stack3x", 16, &it), TDEC_OK);
        TL_TRUE(&c, it.has_stack && it.stack_offset == 3, "stack3x: the x is ignored");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1%stack+0x10", 15, &it), TDEC_OK);
        TL_TRUE(&c, it.has_stack && it.stack_offset == 16, "stack+0x10");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1%stack-1", 12, &it), TDEC_OK);
        TL_TRUE(&c, it.has_stack && it.stack_offset == 0xFFFFFFFFu, "stack-1: an int");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1%stack+4294967296", 21, &it), TDEC_OK);
        TL_TRUE(&c, it.has_stack && it.stack_offset == 0, "stack+2^32: an int");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1/t16:s%stack1", 17, &it), TDEC_OK);
        TL_TRUE(&c, !it.has_stack && str_eq(it.reg, "stack1"), "a struct's %%stack1 is an (unknown) register");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1/t16xyz", 11, &it), TDEC_OK);
        TL_TRUE(&c, it.struct_size == 16 && it.type_name.len == 0 && it.reg.len == 0, "struct junk ignored");
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1/i32%stack+1", 8, &it), TDEC_OK); /* len honoured */
        TL_TRUE(&c, it.size_bits == 32 && !it.has_stack, "len");
        TL_EQI(&c, tdec_uftrace_parse_spec_item(NULL, 0, &it), TDEC_OK);
        TL_EQU(&c, it.kind, TDEC_UFTRACE_ITEM_OTHER);
        TL_EQI(&c, tdec_uftrace_parse_spec_item(NULL, 3, &it), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1", 4, NULL), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_parse_spec_item("arg1", 4, &it), TDEC_OK);
        TL_EQI(&c, tdec_uftrace_spec_item_layout(NULL, 8, 10, &a), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_spec_item_layout(&it, 8, 10, NULL), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_spec_item_layout(&it, 2, 10, &a), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_spec_item_layout(&it, 8, 12, &a), TDEC_E_ARG);
        it.format = 'Z';
        TL_EQI(&c, tdec_uftrace_spec_item_layout(&it, 8, 10, &a), TDEC_E_FORMAT);
    }
    tl_end(&c);

    tl_begin(&c, "uftrace spec entries and items: splitting, empty pieces, no '@', modules");
    {
        const char *txt = ";a@arg1;;b@arg2/s,,retval,;c;malloc@libc,arg1;", *semis = ";;;";
        const char *p = txt, *e = txt + strlen(txt), *q, *qe;
        tdec_uftrace_spec_entry ent;
        tdec_uftrace_text is;
        buf got = { NULL, 0, 0 };
        while (tdec_uftrace_next_spec_entry(&p, e, &ent) == TDEC_OK) {
            buf_printf(&got, "[%.*s|", (int)ent.pattern.len, ent.pattern.ptr);
            q = ent.items.ptr;
            qe = q + ent.items.len;
            while (tdec_uftrace_next_spec_item(&q, qe, &is) == TDEC_OK) buf_printf(&got, "<%.*s>", (int)is.len, is.ptr);
            buf_printf(&got, "]");
        }
        TL_TRUE(&c, strcmp(got.p, "[a|<arg1>][b|<arg2/s><retval>][c|][malloc|<libc><arg1>]") == 0, "%s", got.p);
        TL_TRUE(&c, p == e, "cursor at the end");
        TL_EQI(&c, tdec_uftrace_next_spec_entry(&p, e, &ent), TDEC_END);
        p = semis;
        TL_EQI(&c, tdec_uftrace_next_spec_entry(&p, semis + 3, &ent), TDEC_END);
        TL_TRUE(&c, p == semis + 3, "cursor at the end of \";;;\"");
        p = NULL;
        TL_EQI(&c, tdec_uftrace_next_spec_entry(&p, e, &ent), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_next_spec_entry(NULL, e, &ent), TDEC_E_ARG);
        p = txt;
        TL_EQI(&c, tdec_uftrace_next_spec_entry(&p, e, NULL), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_next_spec_item(&p, e, NULL), TDEC_E_ARG);
        p = txt + 2;
        TL_EQI(&c, tdec_uftrace_next_spec_item(&p, txt + 1, &is), TDEC_E_ARG); /* *pos > end */
        TL_TRUE(&c, p == txt + 2, "cursor unmoved by E_ARG");
        p = "x@";
        TL_EQI(&c, tdec_uftrace_next_spec_entry(&p, p + 2, &ent), TDEC_OK);
        TL_TRUE(&c, str_eq(ent.pattern, "x") && ent.items.len == 0, "x@");
        buf_free(&got);
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* enums                                                               */

typedef struct enum_log {
    int  defs, values, malformed;
    int  cursor_bad; /* a status the cursor contradicts */
    buf  text;
} enum_log;

/* Walks every definition of [p, e); logs "NAME{A=0,B=1}". Counts the
   E_FORMAT ends, and checks each end against the cursor: at the end of the
   text after TDEC_END from next_enum, unmoved after E_FORMAT from
   next_enum_value. */
static void walk_enums(const char *p, const char *e, enum_log *lg)
{
    tdec_uftrace_text name;
    tdec_uftrace_enum_value v;
    tdec_status st;
    int64_t next;
    const char *before;
    for (;;) {
        st = tdec_uftrace_next_enum(&p, e, &name);
        if (st != TDEC_OK) {
            if (st == TDEC_E_FORMAT) lg->malformed++;
            if ((st == TDEC_END) != (p == e) || (st != TDEC_END && st != TDEC_E_FORMAT)) lg->cursor_bad++;
            return;
        }
        lg->defs++;
        buf_printf(&lg->text, "%.*s{", (int)name.len, name.ptr);
        next = 0;
        for (;;) {
            before = p;
            st = tdec_uftrace_next_enum_value(&p, e, &next, &v);
            if (st != TDEC_OK) break;
            lg->values++;
            buf_printf(&lg->text, "%.*s=%" PRId64 ",", (int)v.name.len, v.name.ptr, v.value);
        }
        if ((st == TDEC_END) == (p == before) || (st != TDEC_END && st != TDEC_E_FORMAT)) lg->cursor_bad++;
        if (st != TDEC_END) {
            lg->malformed++;
            return;
        }
        buf_printf(&lg->text, "}");
    }
}

static int enum_value(const enum_log *lg, const char *name, int64_t *v)
{
    char key[80];
    const char *p;
    snprintf(key, sizeof key, "%s=", name);
    p = lg->text.p;
    while ((p = strstr(p, key)) != NULL) {
        if (p[-1] == '{' || p[-1] == ',') {
            *v = strtoll(p + strlen(key), NULL, 10);
            return 1;
        }
        p++;
    }
    return 0;
}

typedef struct enum_find {
    enum_log *lg;
    int       lines;
} enum_find;

static void enum_info_cb(void *ctx, tdec_uftrace_text k, tdec_uftrace_text v)
{
    enum_find *ef = (enum_find *)ctx;
    if (!str_eq(k, "enumauto")) return;
    ef->lines++;
    walk_enums(v.ptr, v.ptr + v.len, ef->lg);
}

static void test_enums(void)
{
    tl_case c;
    enum_log lg;
    enum_find ef;
    sample *s = find_sample("libcall");
    memset(&lg, 0, sizeof lg);
    tl_begin(&c, "uftrace enumauto of libcall: 21 enums, values (hex, octal, implicit, no trailing comma)");
    if (TL_TRUE(&c, s != NULL, "no sample")) {
        static const struct {
            const char *n;
            int64_t     v;
        } w[] = { { "PROT_NONE", 0 },         { "PROT_WRITE", 2 },       { "PROT_EXEC", 4 },
                  { "MAP_HUGETLB", 0x40000 }, { "O_RDONLY", 0 },         { "O_SYNC", 04010000 },
                  { "O_PATH", 010000000 },    { "mod_777", 0777 },       { "mod_022", 022 },
                  { "SIGKILL", 9 },           { "SIGUSR1", 10 },         { "SIGCHLD", 17 },
                  { "SIGCONT", 18 },          { "SIGRTMAX", 64 },        { "AF_SMC", 43 },
                  { "CLOCK_TAI", 11 },        { "CLOCK_BOOTTIME", 7 },   { "SEEK_HOLE", 4 },
                  { "SIG_SETMASK", 2 },       { "EPOLL_CTL_MOD", 3 },    { "F_GETOWN_EX", 16 },
                  { "MADV_HWPOISON", 100 },   { "RTLD_GLOBAL", 0x100 },  { "PR_CAP_AMBIENT", 47 } };
        size_t k;
        int64_t v = 0;
        ef.lg = &lg;
        ef.lines = 0;
        each_info_line(s, enum_info_cb, &ef);
        TL_EQI(&c, ef.lines, 1);
        TL_EQI(&c, lg.malformed, 0);
        TL_EQI(&c, lg.cursor_bad, 0);
        TL_EQI(&c, lg.defs, 21);
        TL_EQI(&c, lg.values, 281);
        TL_TRUE(&c, strncmp(lg.text.p, "uft_mmap_prot{PROT_NONE=0,PROT_READ=1,PROT_WRITE=2,PROT_EXEC=4,}", 62) == 0,
                "%.80s", lg.text.p);
        for (k = 0; k < sizeof w / sizeof w[0]; k++)
            TL_TRUE(&c, enum_value(&lg, w[k].n, &v) && v == w[k].v, "%s = %" PRId64 ", want %" PRId64, w[k].n, v,
                    w[k].v);
    }
    tl_end(&c);
    buf_free(&lg.text);

    tl_begin(&c, "uftrace enums: uftrace's own test strings, signs, limits, malformed text");
    {
        static const struct {
            const char *in;
            const char *out;
            int         malformed;
        } w[] = {
            { "enum xxx { ZERO, ONE = 111, TWO };", "xxx{ZERO=0,ONE=111,TWO=112,}", 0 },
            { "enum a { AAA, BBB = 1, CCC }", "a{AAA=0,BBB=1,CCC=2,}", 0 },
            { ";enum uftrace{record=100,replay=-23,report}", "uftrace{record=100,replay=-23,report=-22,}", 0 },
            { "enum a {X}; ; enum b {Y=+7,Z};", "a{X=0,}b{Y=7,Z=8,}", 0 },
            { "enum n {A=-0x8000000000000000,B}", "n{A=-9223372036854775808,B=-9223372036854775807,}", 0 },
            { "enum n {A=0x7fffffffffffffff}", "n{A=9223372036854775807,}", 0 },
            { "enum n {A=0x7fffffffffffffff,B}", "n{A=9223372036854775807,", 1 },
            { "enum n {A=0x8000000000000000}", "n{", 1 },
            { "enum n {A=-9223372036854775809}", "n{", 1 },
            { "enum e {}", "e{}", 0 },
            { "enum e {A B}", "e{", 1 },
            { "enum e {A=}", "e{", 1 },
            { "enum e {A=0x}", "e{", 1 },
            { "enum e {A=08}", "e{", 1 },
            { "enum e {A=1 2}", "e{", 1 },
            { "enum e {1A}", "e{", 1 },
            { "enum e {A;B}", "e{", 1 },
            { "enum e {A,", "e{A=0,", 1 },
            { "enum e A}", "", 1 },
            { "enum {A}", "", 1 },
            { "enumx e {A}", "", 1 },
            { "struct e {A}", "", 1 },
            { "", "", 0 },
            { " ; ;", "", 0 },
            { "enum e {A} junk", "e{A=0,}", 1 },
        };
        size_t k;
        for (k = 0; k < sizeof w / sizeof w[0]; k++) {
            memset(&lg, 0, sizeof lg);
            buf_add(&lg.text, "", 0);
            walk_enums(w[k].in, w[k].in + strlen(w[k].in), &lg);
            TL_TRUE(&c, strcmp(lg.text.p, w[k].out) == 0 && (lg.malformed != 0) == w[k].malformed && lg.cursor_bad == 0,
                    "[%s] -> [%s] malformed %d, cursor contradicts the status %d times", w[k].in, lg.text.p,
                    lg.malformed, lg.cursor_bad);
            buf_free(&lg.text);
        }
    }
    {
        const char *t = "enum e {A}", *p = t;
        tdec_uftrace_text name;
        tdec_uftrace_enum_value v;
        int64_t next = 0;
        TL_EQI(&c, tdec_uftrace_next_enum(NULL, t + 10, &name), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_next_enum(&p, t + 10, NULL), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_next_enum(&p, t + 10, &name), TDEC_OK);
        TL_TRUE(&c, p == t + 8, "after {");
        TL_EQI(&c, tdec_uftrace_next_enum_value(&p, t + 10, NULL, &v), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_next_enum_value(&p, t + 10, &next, NULL), TDEC_E_ARG);
        TL_EQI(&c, tdec_uftrace_next_enum_value(&p, t + 10, &next, &v), TDEC_OK);
        TL_EQI(&c, tdec_uftrace_next_enum_value(&p, t + 10, &next, &v), TDEC_END);
        TL_TRUE(&c, p == t + 10, "after }");
        TL_EQI(&c, tdec_uftrace_next_enum(&p, t + 10, &name), TDEC_END);
        p = t;
        TL_EQI(&c, tdec_uftrace_next_enum(&p, t + 6, &name), TDEC_E_FORMAT); /* "enum e" cut before '{' */
        TL_TRUE(&c, p == t, "malformed: cursor at the definition");
        p = t + 8;
        TL_EQI(&c, tdec_uftrace_next_enum_value(&p, t + 9, &next, &v), TDEC_E_FORMAT); /* "A" cut before '}' */
        TL_TRUE(&c, p == t + 8, "malformed value: cursor unmoved");
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* hand-made records                                                   */

static void put_le(unsigned char *p, uint64_t v, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t word(unsigned type, unsigned more, unsigned magic, unsigned depth, uint64_t addr)
{
    return (uint64_t)type | (uint64_t)more << 2 | (uint64_t)magic << 3 | (uint64_t)depth << 6 | addr << 16;
}

/* A 16-byte record at b + off; returns the offset after it. */
static size_t put_rec(unsigned char *b, size_t off, uint64_t time, uint64_t w)
{
    put_le(b + off, time, 8);
    put_le(b + off + 8, w, 8);
    return off + 16;
}

static tdec_uftrace_arg mkarg(uint8_t kind, char format, uint16_t size)
{
    tdec_uftrace_arg a;
    a.kind = kind;
    a.format = (uint8_t)format;
    a.size = size;
    return a;
}

/* ------------------------------------------------------------------ */
/* the args sample's `mixed` block with a hand-written spec             */

static void test_mixed(void)
{
    tl_case c;
    sample *s = find_sample("args");
    size_t len = 0;
    unsigned char *data = s ? read_in(s, "2784.dat", &len) : NULL;
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    tdec_uftrace_argspec mixed, ret;
    static const unsigned char f125[8] = { 0, 0, 0, 0, 0, 0, 0xc0, 0x3f };
    static const unsigned char fret[8] = { 0x03, 0x00, 0x78, 0x79, 0x7a, 0x00, 0xf8, 0x3f };
    tl_begin(&c, "uftrace args/2784.dat: mixed@arg2/s,arg1/i32,fparg1,arg3/i64 at 0x340 by hand");
    if (TL_TRUE(&c, data != NULL && len > 0x400, "no args sample")) {
        mixed.count = 4;
        mixed.args[0] = mkarg(TDEC_UFTRACE_V_STRING, 's', 0);
        mixed.args[1] = mkarg(TDEC_UFTRACE_V_INT, 'i', 4);
        mixed.args[2] = mkarg(TDEC_UFTRACE_V_FLOAT, 'f', 8);
        mixed.args[3] = mkarg(TDEC_UFTRACE_V_INT, 'i', 8);
        ret.count = 1;
        ret.args[0] = mkarg(TDEC_UFTRACE_V_FLOAT, 'f', 8);
        tdec_uftrace_init(&d, NULL);
        TL_EQI(&c, tdec_uftrace_feed(&d, data + 0x340, len - 0x340), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.kind == TDEC_ITEM_RECORD && it.offset == 0 && it.u.rec.type == TDEC_UFTRACE_REC_ENTRY &&
                        it.u.rec.more == 1 && it.u.rec.magic == 5 && it.u.rec.depth == 1 &&
                        it.u.rec.addr == 0x5586798c634eull && it.u.rec.time == 568542137870ull,
                "ENTRY of mixed");
        TL_TRUE(&c, tdec_uftrace_needs_spec(&d), "needs args");
        TL_EQI(&c, tdec_uftrace_set_spec(&d, &mixed), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARG && it.offset == 16 && it.u.rec.arg_index == 0 &&
                        it.u.rec.arg.kind == TDEC_UFTRACE_V_STRING && it.u.rec.payload_size == 3 &&
                        it.u.rec.time == 568542137870ull,
                "arg2/s");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.kind == TDEC_ITEM_FRAGMENT && it.offset == 18 && it.u.frag.len == 3 &&
                        memcmp(it.u.frag.data, "xyz", 3) == 0 && it.u.frag.flags == (TDEC_FRAG_FIRST | TDEC_FRAG_LAST),
                "\"xyz\"");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARG && it.offset == 24 && it.u.rec.value == 7 &&
                        it.u.rec.arg.size == 4 && it.u.rec.arg_index == 1,
                "arg1/i32 = 7");
        /* the stored bytes too (replay's c64 quirk reads them 4 early) */
        TL_TRUE(&c, memcmp(it.u.rec.raw, "\7\0\0\0", 4) == 0, "arg1/i32 raw bytes");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARG && it.offset == 28 && it.u.rec.arg.kind == TDEC_UFTRACE_V_FLOAT &&
                        memcmp(it.u.rec.raw, f125, 8) == 0,
                "fparg1 = 0.125");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARG && it.offset == 36 && it.u.rec.value == 0xffffffffffffffd6ull,
                "arg3/i64 = -42");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARGS_END && it.u.rec.block_len == 28 && it.offset == 48,
                "length = 28, padded to 32");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.offset == 48 && it.u.rec.type == TDEC_UFTRACE_REC_EXIT && it.u.rec.more &&
                        it.u.rec.time == 568542138150ull && it.u.rec.addr == 0x5586798c634eull,
                "EXIT of mixed");
        TL_EQI(&c, tdec_uftrace_set_spec(&d, &ret), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARG && memcmp(it.u.rec.raw, fret, 8) == 0, "retval f64 raw bits");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARGS_END && it.u.rec.block_len == 8, "retval length = 8");
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.offset == 72 && it.u.rec.type == TDEC_UFTRACE_REC_ENTRY && it.u.rec.time == 568542138331ull &&
                        it.u.rec.addr == 0x5586798c63bbull,
                "self_ptr follows");
    }
    free(data);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* chunk invariance and prefixes                                       */

static int same_run(const buf *la, const run_res *ra, const buf *lb, const run_res *rb)
{
    return la->len == lb->len && (la->len == 0 || memcmp(la->p, lb->p, la->len) == 0) && ra->st == rb->st &&
           ra->err_offset == rb->err_offset && ra->err_reason == rb->err_reason && !rb->bad;
}

/* The whole decode of an input: where its records start, its length. */
typedef struct whole_of {
    run_res res;
    size_t  len;
} whole_of;

/* END exactly at record starts (and at the ends), else E_TRUNCATED inside a
   record or a payload. */
static const char *prefix_judge(const void *ctx, size_t l, const cc_verdict *v)
{
    const whole_of *w = (const whole_of *)ctx;
    size_t i;
    int boundary = l == 0 || l == w->len;
    for (i = 0; i < w->res.nstarts && !boundary; i++) boundary = w->res.starts[i] == l;
    if (v->st == TDEC_END && !boundary) return "END inside a record";
    if (v->st == TDEC_E_TRUNCATED && boundary) return "E_TRUNCATED at a record start";
    if (v->st == TDEC_E_TRUNCATED && v->err_reason != TDEC_UFTRACE_R_RECORD && v->err_reason != TDEC_UFTRACE_R_PAYLOAD)
        return "E_TRUNCATED for another reason";
    return NULL;
}

/* Whole input vs byte-at-a-time, every 2-way split (inputs <= 4 KiB) and
   20 seeded random schedules, under three configs derived from `base`
   (as is, max_fragment 1, skip payloads); then every prefix under `base`
   when `prefixes`: END exactly at record starts, items a prefix of the
   whole decode. */
static void invariance(tl_case *c, const char *label, const run_cfg *base, const unsigned char *data, size_t len,
                       int prefixes)
{
    static char log_a[LOG_CAP], log_b[LOG_CAP];
    static uc_run ref, r;
    run_cfg rc;
    cc_plan plan;
    whole_of full;
    buf text = { NULL, 0, 0 };
    size_t runs = 0, direct = 0;
    const char *bad = NULL;
    int cfgi;
    memset(&plan, 0, sizeof plan);
    plan.bytewise = 1;
    plan.split_stride = len <= 4096 ? 1 : 0;
    plan.nseeds = 20;
    for (cfgi = 0; cfgi < 3 && bad == NULL; cfgi++) {
        rc = *base;
        if (cfgi == 1) rc.cfg.max_fragment = 1;
        if (cfgi == 2) rc.cfg.flags |= TDEC_UFTRACE_F_SKIP_PAYLOADS;
        oracle_run(&ref, &rc, log_a);
        oracle_run(&r, &rc, log_b);
        if ((bad = uc_decode(data, len, &ref.cc)) == NULL)
            bad = cc_schedules(uc_decode, &ref.cc, &r.cc, data, len, &plan, stdout, &runs);
        TL_TRUE(c, bad == NULL, "%s cfg %d: %s", label, cfgi, bad ? bad : "");
    }
    if (prefixes && bad == NULL) {
        memset(&full, 0, sizeof full);
        full.len = len;
        run_whole(base, data, len, &text, &full.res);
        oracle_run(&ref, base, log_a);
        oracle_run(&r, base, log_b);
        if ((bad = uc_decode(data, len, &ref.cc)) == NULL)
            bad = cc_prefixes(uc_decode, &ref.cc, &r.cc, data, len, 1, prefix_judge, &full, &direct);
        TL_TRUE(c, bad == NULL, "%s: %s", label, bad ? bad : "");
        free(full.res.starts);
        buf_free(&text);
    }
}

static void test_invariance(void)
{
    int i, j;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        for (j = 0; j < s->ndats; j++) {
            size_t len;
            unsigned char *data = read_in(s, s->dats[j], &len);
            run_cfg rc;
            char label[160];
            memset(&rc, 0, sizeof rc);
            rc.seq = &seqs[i][j];
            snprintf(label, sizeof label, "%.60s/%.60s", s->name, s->dats[j]);
            tl_begin(&c, "uftrace chunk invariance and every prefix of %s (%zu bytes)", label, len);
            if (TL_TRUE(&c, data != NULL, "cannot read")) invariance(&c, label, &rc, data, len, 1);
            tl_end(&c);
            free(data);
        }
        for (j = 0; j < s->nperfs; j++) {
            size_t len;
            unsigned char *data = read_in(s, s->perfs[j], &len);
            run_cfg rc;
            char label[160];
            memset(&rc, 0, sizeof rc);
            rc.perf = 1;
            snprintf(label, sizeof label, "%.60s/%.60s", s->name, s->perfs[j]);
            tl_begin(&c, "uftrace chunk invariance and every prefix of %s (%zu bytes)", label, len);
            if (TL_TRUE(&c, data != NULL, "cannot read")) invariance(&c, label, &rc, data, len, 1);
            tl_end(&c);
            free(data);
        }
    }
}

/* ------------------------------------------------------------------ */
/* big-endian copies                                                   */

static void swap_bytes(unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n / 2; i++) {
        unsigned char t = p[i];
        p[i] = p[n - 1 - i];
        p[n - 1 - i] = t;
    }
}

/* The .dat in big-endian order: both record words, event data lengths,
   string lengths and integer values (floats and text stay as they are). */
static unsigned char *dat_to_be(const unsigned char *data, size_t len, const spec_seq *seq)
{
    unsigned char *be = (unsigned char *)malloc(len ? len : 1);
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    size_t k = 0;
    memcpy(be, data, len);
    tdec_uftrace_init(&d, NULL);
    tdec_uftrace_feed(&d, data, len);
    while (tdec_uftrace_next(&d, &it) == TDEC_OK) {
        const tdec_uftrace_record *r = &it.u.rec;
        size_t o = (size_t)it.offset;
        if (it.kind != TDEC_ITEM_RECORD) continue;
        if (r->type <= TDEC_UFTRACE_REC_EVENT) {
            swap_bytes(be + o, 8);
            swap_bytes(be + o + 8, 8);
            if (r->type == TDEC_UFTRACE_REC_EVENT && r->more) swap_bytes(be + o + 16, 2);
            if (tdec_uftrace_needs_spec(&d)) tdec_uftrace_set_spec(&d, k < seq->n ? seq->v[k++].spec : NULL);
        } else if (r->type == TDEC_UFTRACE_REC_ARG) {
            if (r->arg.kind == TDEC_UFTRACE_V_INT || r->arg.kind == TDEC_UFTRACE_V_CHAR) swap_bytes(be + o, r->arg.size);
            if (r->arg.kind == TDEC_UFTRACE_V_STRING || r->arg.kind == TDEC_UFTRACE_V_STDSTRING) swap_bytes(be + o, 2);
        }
    }
    return be;
}

static unsigned char *perf_to_be(const unsigned char *data, size_t len)
{
    unsigned char *be = (unsigned char *)malloc(len ? len : 1);
    size_t o = 0, i;
    memcpy(be, data, len);
    while (o + 8 <= len) {
        uint32_t type = (uint32_t)data[o] | (uint32_t)data[o + 1] << 8;
        size_t size = (size_t)data[o + 6] | (size_t)data[o + 7] << 8;
        if (size < 8 || o + size > len) break;
        swap_bytes(be + o, 4);
        swap_bytes(be + o + 4, 2);
        swap_bytes(be + o + 6, 2);
        if (type == 3 || type == 4 || type == 7 || type == 14) {
            swap_bytes(be + o + size - 16, 4);
            swap_bytes(be + o + size - 12, 4);
            swap_bytes(be + o + size - 8, 8);
        }
        if (type == 3) {
            swap_bytes(be + o + 8, 4);
            swap_bytes(be + o + 12, 4);
        }
        if (type == 4 || type == 7) {
            for (i = 0; i < 4; i++) swap_bytes(be + o + 8 + 4 * i, 4);
            swap_bytes(be + o + 24, 8);
        }
        o += size;
    }
    return be;
}

static void test_big_endian(void)
{
    int i, j;
    tl_case c;
    for (i = 0; i < nsamples; i++) {
        sample *s = &samples[i];
        tl_begin(&c, "uftrace %s big-endian copies (every .dat and perf file) decode to the same items", s->name);
        for (j = 0; j < s->ndats + s->nperfs && !c.bad; j++) {
            int perf = j >= s->ndats;
            const char *file = perf ? s->perfs[j - s->ndats] : s->dats[j];
            size_t len;
            unsigned char *data = read_in(s, file, &len), *be;
            run_cfg rc;
            buf la = { NULL, 0, 0 }, lb = { NULL, 0, 0 };
            run_res ra, rb;
            char label[160];
            memset(&ra, 0, sizeof ra);
            memset(&rb, 0, sizeof rb);
            memset(&rc, 0, sizeof rc);
            rc.perf = perf;
            rc.seq = perf ? NULL : &seqs[i][j];
            if (data == NULL) continue;
            be = perf ? perf_to_be(data, len) : dat_to_be(data, len, rc.seq);
            run_whole(&rc, data, len, &la, &ra);
            rc.cfg.flags = TDEC_UFTRACE_F_BIG_ENDIAN;
            run_whole(&rc, be, len, &lb, &rb);
            TL_EQI(&c, ra.st, TDEC_END);
            TL_TRUE(&c, len < 16 || memcmp(data, be, len) != 0, "%s: nothing swapped", file);
            TL_TRUE(&c, same_run(&la, &ra, &lb, &rb), "%s: big-endian decode differs (%s)", file, rb.why);
            snprintf(label, sizeof label, "%.60s/%.60s big-endian", s->name, file);
            if (strcmp(s->name, "args") == 0 || strcmp(s->name, "readevents") == 0 || strcmp(s->name, "threads") == 0)
                invariance(&c, label, &rc, be, len, 0);
            free(ra.starts);
            free(rb.starts);
            buf_free(&la);
            buf_free(&lb);
            free(be);
            free(data);
        }
        tl_end(&c);
    }
}

/* ------------------------------------------------------------------ */
/* a synthesized 32-bit recording with the args sample's specs          */

static void test_32bit(void)
{
    tl_case c;
    sample *s = find_sample("args");
    sample t;
    fspec *ne, *nx, *gr, *sp, *sl;
    unsigned char b[256];
    size_t o = 0;
    spec_seq seq = { NULL, 0, 0 };
    run_cfg rc;
    buf lg = { NULL, 0, 0 };
    run_res res;
    tl_begin(&c, "uftrace 32-bit data (elf_class 1): long is 4 bytes in the args sample's specs");
    if (!TL_TRUE(&c, s != NULL, "no args sample")) {
        tl_end(&c);
        return;
    }
    t = *s;
    t.long_size = 4;
    t.fs = NULL;
    t.nfs = 0;
    build_specs(&t);
    ne = fs_find(&t, "neg_long", 8, 0);
    nx = fs_find(&t, "neg_long", 8, 1);
    gr = fs_find(&t, "greet", 5, 0);
    sp = fs_find(&t, "self_ptr", 8, 0);
    sl = fs_find(&t, "str_len", 7, 1);
    if (!TL_TRUE(&c, ne && nx && gr && sp && sl, "specs missing")) {
        free(t.fs);
        tl_end(&c);
        return;
    }
    TL_TRUE(&c, ne->spec.count == 1 && ne->spec.args[0].kind == TDEC_UFTRACE_V_INT && ne->spec.args[0].size == 4, "neg_long@arg1");
    TL_TRUE(&c, gr->spec.count == 2 && gr->spec.args[0].kind == TDEC_UFTRACE_V_STRING && gr->spec.args[1].size == 4, "greet");
    TL_TRUE(&c, sp->spec.args[0].size == 4 && sp->spec.args[0].format == 'p', "self_ptr@arg1/p");
    TL_TRUE(&c, sl->spec.args[0].size == 4 && sl->spec.args[0].format == 'u', "str_len@retval/u");

    memset(b, 0xEE, sizeof b); /* padding is never looked at */
    o = put_rec(b, o, 1000, word(TDEC_UFTRACE_REC_ENTRY, 1, 5, 1, 0x8048400));
    put_le(b + o, 0xffffffd6u, 4);
    o += 8;
    o = put_rec(b, o, 1001, word(TDEC_UFTRACE_REC_EXIT, 1, 5, 1, 0x8048400));
    put_le(b + o, 42, 4);
    o += 8;
    o = put_rec(b, o, 1002, word(TDEC_UFTRACE_REC_ENTRY, 1, 5, 1, 0x8048420));
    put_le(b + o, 7, 2);
    memcpy(b + o + 2, "uftrace", 7);
    put_le(b + o + 12, 2, 4);
    o += 16;
    o = put_rec(b, o, 1003, word(TDEC_UFTRACE_REC_ENTRY, 1, 5, 1, 0x8048440));
    put_le(b + o, 0x08048400u, 4);
    o += 8;
    o = put_rec(b, o, 1004, word(TDEC_UFTRACE_REC_EXIT, 1, 5, 1, 0x8048460));
    put_le(b + o, 16, 4);
    o += 8;
    o = put_rec(b, o, 1005, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 0, 0x8048480));
    seq_push(&seq, &ne->spec, 1);
    seq_push(&seq, &nx->spec, 1);
    seq_push(&seq, &gr->spec, 1);
    seq_push(&seq, &sp->spec, 1);
    seq_push(&seq, &sl->spec, 1);
    memset(&rc, 0, sizeof rc);
    memset(&res, 0, sizeof res);
    rc.seq = &seq;
    run_whole(&rc, b, o, &lg, &res);
    TL_EQI(&c, res.st, TDEC_END);
    TL_TRUE(&c, !res.bad, "%s", res.why);
    TL_TRUE(&c, strstr(lg.p, "R o=16 t=4 m=0 d=0 g=0 time=1000 a=0 i=0 k=1 f=100 s=4 v=ffffffd6 ") != NULL, "neg_long arg");
    TL_TRUE(&c, strstr(lg.p, "R o=24 t=5 m=0 d=0 g=0 time=1000 a=0 i=0 k=0 f=0 s=0 v=0 ps=0 bl=4\n") != NULL, "block_len 4");
    TL_TRUE(&c, strstr(lg.p, "R o=40 t=4 m=0 d=0 g=0 time=1001 a=0 i=0 k=1 f=100 s=4 v=2a ") != NULL, "neg_long retval");
    TL_TRUE(&c, strstr(lg.p, "R o=64 t=4 m=0 d=0 g=0 time=1002 a=0 i=0 k=4 f=115 s=0 v=0 ps=7 ") != NULL, "greet str");
    TL_TRUE(&c, strstr(lg.p, "F o=66 n=7:uftrace\n") != NULL, "greet text");
    TL_TRUE(&c, strstr(lg.p, "R o=76 t=4 m=0 d=0 g=0 time=1002 a=0 i=1 k=1 f=100 s=4 v=2 ") != NULL, "greet arg2");
    TL_TRUE(&c, strstr(lg.p, "R o=80 t=5 m=0 d=0 g=0 time=1002 a=0 i=0 k=0 f=0 s=0 v=0 ps=0 bl=16\n") != NULL, "block_len 16");
    TL_TRUE(&c, strstr(lg.p, "R o=96 t=4 m=0 d=0 g=0 time=1003 a=0 i=0 k=1 f=112 s=4 v=8048400 ") != NULL, "self_ptr");
    TL_TRUE(&c, strstr(lg.p, "R o=120 t=4 m=0 d=0 g=0 time=1004 a=0 i=0 k=1 f=117 s=4 v=10 ") != NULL, "str_len retval");
    TL_TRUE(&c, strstr(lg.p, "R o=128 t=1 m=0 d=0 g=5 time=1005 a=8048480 ") != NULL, "last record at 128");
    invariance(&c, "32-bit", &rc, b, o, 1);
    free(res.starts);
    buf_free(&lg);
    free((void *)seq.v);
    free(t.fs);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* hostile input                                                       */

/* Decodes b whole, every record that asks for a spec given sp (valid: as
   its maker made it). */
static void one(const unsigned char *b, size_t len, const tdec_uftrace_argspec *sp, int valid, run_res *res, buf *lg)
{
    spec_seq seq = { NULL, 0, 0 };
    run_cfg rc;
    int i;
    memset(&rc, 0, sizeof rc);
    for (i = 0; i < 8; i++) seq_push(&seq, sp, valid);
    rc.seq = &seq;
    lg->len = 0;
    run_whole(&rc, b, len, lg, res);
    free((void *)seq.v);
}

static void test_hostile(void)
{
    tl_case c;
    static unsigned char b[4096];
    tdec_uftrace_argspec sp;
    run_res res;
    buf lg = { NULL, 0, 0 };
    size_t o, i;
    memset(&res, 0, sizeof res);

    tl_begin(&c, "uftrace hostile: string past the 1020-byte block -> E_CORRUPT R_BLOCK; 1018 bytes fit");
    sp.count = 1;
    sp.args[0] = mkarg(TDEC_UFTRACE_V_STRING, 's', 0);
    memset(b, 'a', sizeof b);
    o = put_rec(b, 0, 1, word(TDEC_UFTRACE_REC_ENTRY, 1, 5, 0, 0x1000));
    put_le(b + o, 1019, 2);
    one(b, 16 + 1024 + 16, &sp, 1, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_CORRUPT);
    TL_EQU(&c, res.err_offset, 16);
    TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_BLOCK);
    put_le(b + o, 1018, 2);
    put_rec(b, 16 + 1024, 2, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 0, 0x1000));
    one(b, 16 + 1024 + 16, &sp, 1, &res, &lg);
    TL_EQI(&c, res.st, TDEC_END);
    TL_TRUE(&c, strstr(lg.p, "ps=1018") && strstr(lg.p, "bl=1020\n") && strstr(lg.p, "R o=1040 t=1 "), "1018 fits");
    put_le(b + o, 65535, 2);
    one(b, 16 + 1024 + 16, &sp, 1, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_CORRUPT);
    TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_BLOCK);
    tl_end(&c);

    tl_begin(&c, "uftrace hostile: values adding up past 1020 bytes -> E_CORRUPT R_BLOCK at the value");
    sp.count = 2;
    sp.args[0] = mkarg(TDEC_UFTRACE_V_STRUCT, 't', 1020);
    sp.args[1] = mkarg(TDEC_UFTRACE_V_INT, 'd', 4);
    one(b, 16 + 1024 + 16, &sp, 1, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_CORRUPT);
    TL_EQU(&c, res.err_offset, 16 + 1020);
    TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_BLOCK);
    sp.args[0] = mkarg(TDEC_UFTRACE_V_STRUCT, 't', 1017); /* 1020 with its padding */
    sp.args[1] = mkarg(TDEC_UFTRACE_V_CHAR, 'c', 1);
    one(b, 16 + 1024 + 16, &sp, 1, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_CORRUPT);
    TL_EQU(&c, res.err_offset, 16 + 1020);
    sp.count = 4;
    for (i = 0; i < 4; i++) sp.args[i] = mkarg(TDEC_UFTRACE_V_STRING, 's', 0);
    o = 16;
    for (i = 0; i < 4; i++) { /* 4 strings of 2 + 253 -> 256 each: 1024 */
        put_le(b + o, 253, 2);
        o += 256;
    }
    one(b, sizeof b, &sp, 1, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_CORRUPT);
    TL_EQU(&c, res.err_offset, 16 + 768);
    tl_end(&c);

    tl_begin(&c, "uftrace hostile: spec of 65 items -> E_LIMIT R_BAD_SPEC, 64 items decode, bad items");
    {
        static tdec_uftrace_argspec big;
        tdec_uftrace_decoder d;
        tdec_uftrace_item it;
        memset(b, 0, sizeof b);
        o = put_rec(b, 0, 1, word(TDEC_UFTRACE_REC_ENTRY, 1, 5, 0, 0x1000));
        for (i = 0; i < 64; i++) put_le(b + o + 8 * i, 1000 + i, 8);
        put_rec(b, o + 512, 2, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 0, 0x1000));
        big.count = 64;
        for (i = 0; i < 64; i++) big.args[i] = mkarg(TDEC_UFTRACE_V_INT, 'x', 8);
        one(b, 16 + 512 + 16, &big, 1, &res, &lg);
        TL_EQI(&c, res.st, TDEC_END);
        TL_TRUE(&c, strstr(lg.p, "R o=520 t=4 m=0 d=0 g=0 time=1 a=0 i=63 k=1 f=120 s=8 v=427 ") != NULL, "arg 63");
        TL_TRUE(&c, strstr(lg.p, "bl=512\nR o=528 t=1 ") != NULL, "block end");
        big.count = 65;
        one(b, 16 + 512 + 16, &big, 0, &res, &lg);
        TL_EQI(&c, res.st, TDEC_E_LIMIT);
        TL_EQU(&c, res.err_offset, 0);
        TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_BAD_SPEC);
        big.count = UINT32_MAX;
        one(b, 16 + 512 + 16, &big, 0, &res, &lg);
        TL_EQI(&c, res.st, TDEC_E_LIMIT);
        {
            static const tdec_uftrace_arg bad[] = { { 0, 'd', 4 },  { 9, 'd', 4 }, { TDEC_UFTRACE_V_INT, 'd', 3 },
                                                    { TDEC_UFTRACE_V_INT, 'd', 0 }, { TDEC_UFTRACE_V_INT, 'd', 16 },
                                                    { TDEC_UFTRACE_V_CHAR, 'c', 3 }, { TDEC_UFTRACE_V_FLOAT, 'f', 6 },
                                                    { TDEC_UFTRACE_V_STRUCT, 't', 1021 } };
            for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
                big.count = 2;
                big.args[0] = mkarg(TDEC_UFTRACE_V_INT, 'd', 8);
                big.args[1] = bad[i];
                tdec_uftrace_init(&d, NULL);
                tdec_uftrace_feed(&d, b, 16 + 512 + 16);
                TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
                TL_EQI(&c, tdec_uftrace_set_spec(&d, &big), TDEC_E_LIMIT);
                TL_EQU(&c, d.st.err_reason, TDEC_UFTRACE_R_BAD_SPEC);
                TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_E_LIMIT);
            }
        }
    }
    tl_end(&c);

    tl_begin(&c, "uftrace hostile: depth 1023, address 0 and 2^48-1, LOST count, magic, LOST with more");
    memset(b, 0, sizeof b);
    o = put_rec(b, 0, 5, word(TDEC_UFTRACE_REC_ENTRY, 0, 5, 1023, 0));
    o = put_rec(b, o, 6, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 1023, 0xFFFFFFFFFFFFull));
    o = put_rec(b, o, 0, word(TDEC_UFTRACE_REC_LOST, 0, 5, 0, 12345));
    o = put_rec(b, o, UINT64_MAX, word(TDEC_UFTRACE_REC_EVENT, 0, 5, 0, 1000000));
    one(b, o, NULL, 0, &res, &lg);
    TL_EQI(&c, res.st, TDEC_END);
    TL_TRUE(&c, strstr(lg.p, "R o=0 t=0 m=0 d=1023 g=5 time=5 a=0 ") != NULL, "depth 1023, addr 0");
    TL_TRUE(&c, strstr(lg.p, "R o=16 t=1 m=0 d=1023 g=5 time=6 a=ffffffffffff ") != NULL, "addr 2^48-1");
    TL_TRUE(&c, strstr(lg.p, "R o=32 t=2 m=0 d=0 g=5 time=0 a=3039 ") != NULL, "LOST 12345");
    TL_TRUE(&c, strstr(lg.p, "R o=48 t=3 m=0 d=0 g=5 time=18446744073709551615 a=f4240 ") != NULL, "SDT event");
    for (i = 0; i < 8; i++) {
        if (i == 5) continue;
        put_rec(b, 16, 6, word(TDEC_UFTRACE_REC_EXIT, 0, (unsigned)i, 1, 0x1000));
        one(b, o, NULL, 0, &res, &lg);
        TL_EQI(&c, res.st, TDEC_E_CORRUPT);
        TL_EQU(&c, res.err_offset, 16);
        TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_MAGIC);
    }
    put_rec(b, 16, 6, word(TDEC_UFTRACE_REC_LOST, 1, 5, 0, 3));
    one(b, o, NULL, 0, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_CORRUPT);
    TL_EQU(&c, res.err_offset, 16);
    TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_LOST_MORE);
    tl_end(&c);

    tl_begin(&c, "uftrace hostile: event data of 0 and 65535 bytes, truncation inside records and payloads");
    memset(b, 0, sizeof b);
    o = put_rec(b, 0, 1, word(TDEC_UFTRACE_REC_EVENT, 1, 5, 0, 100011));
    put_le(b + o, 0, 2);
    o += 8; /* 2 + 0 padded to 8 */
    o = put_rec(b, o, 2, word(TDEC_UFTRACE_REC_EVENT, 1, 5, 0, 100012));
    put_le(b + o, 5, 2);
    memcpy(b + o + 2, "hello", 5);
    o += 8;
    o = put_rec(b, o, 3, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 0, 0x1000));
    one(b, o, NULL, 0, &res, &lg);
    TL_EQI(&c, res.st, TDEC_END);
    TL_TRUE(&c, strstr(lg.p, "R o=24 t=3 m=1 ") && strstr(lg.p, "ps=5 bl=0\nF o=42 n=5:hello\nR o=48 t=1 "),
            "event data and padding");
    one(b, 20, NULL, 0, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_TRUNCATED);
    TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_PAYLOAD);
    one(b, 44, NULL, 0, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_TRUNCATED);
    TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_PAYLOAD);
    one(b, 30, NULL, 0, &res, &lg);
    TL_EQI(&c, res.st, TDEC_E_TRUNCATED);
    TL_EQU(&c, res.err_reason, TDEC_UFTRACE_R_RECORD);
    TL_EQU(&c, res.err_offset, 24);
    {
        static unsigned char big[16 + 2 + 65535 + 7 + 16];
        size_t n;
        memset(big, 'z', sizeof big);
        n = put_rec(big, 0, 1, word(TDEC_UFTRACE_REC_EVENT, 1, 5, 0, 100012));
        put_le(big + n, 65535, 2);
        n += 2 + 65535 + 7; /* 65537 padded to 65544 */
        n = put_rec(big, n, 2, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 0, 0x1000));
        one(big, n, NULL, 0, &res, &lg);
        TL_EQI(&c, res.st, TDEC_END);
        TL_TRUE(&c, strstr(lg.p, "ps=65535") && strstr(lg.p, "\nR o=65560 t=1 "), "65535-byte event");
    }
    tl_end(&c);

    buf_free(&lg);
    free(res.starts);
}

/* ------------------------------------------------------------------ */
/* API misuse                                                          */

static void test_misuse(void)
{
    tl_case c;
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    tdec_uftrace_argspec sp;
    tdec_uftrace_config cfg;
    unsigned char b[64];
    size_t o;
    memset(b, 0, sizeof b);
    o = put_rec(b, 0, 1, word(TDEC_UFTRACE_REC_ENTRY, 1, 5, 0, 0x1000));
    put_le(b + o, 77, 4);
    o += 8;
    o = put_rec(b, o, 2, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 0, 0x1000));
    sp.count = 1;
    sp.args[0] = mkarg(TDEC_UFTRACE_V_INT, 'i', 4);

    tl_begin(&c, "uftrace misuse: NULL arguments");
    TL_EQI(&c, tdec_uftrace_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_init(&d, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_feed(NULL, b, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_feed(&d, NULL, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_next(NULL, &it), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_next(&d, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_finish(NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_set_spec(NULL, &sp), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_needs_spec(NULL), 0);
    tdec_uftrace_reset(NULL);
    TL_EQI(&c, tdec_uftrace_feed(&d, NULL, 0), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_set_spec(&d, &sp), TDEC_E_SEQUENCE);
    TL_EQI(&c, d.st.err, TDEC_OK);
    TL_TRUE(&c, strcmp(tdec_uftrace_reason_str(TDEC_UFTRACE_R_PERF_SIZE), "unknown reason") != 0, "reason text");
    TL_TRUE(&c, strcmp(tdec_uftrace_reason_str(999), "unknown reason") == 0, "unknown reason");
    tl_end(&c);

    tl_begin(&c, "uftrace misuse: feed before the window is used, awaited spec, finish twice, sticky errors");
    tdec_uftrace_init(&d, NULL);
    TL_EQI(&c, tdec_uftrace_feed(&d, b, o), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_feed(&d, b, o), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_uftrace_finish(&d), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
    TL_TRUE(&c, tdec_uftrace_needs_spec(&d), "awaits a spec");
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_E_SEQUENCE); /* not sticky */
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_E_SEQUENCE);
    TL_EQI(&c, d.st.err, TDEC_OK);
    TL_EQI(&c, tdec_uftrace_set_spec(&d, &sp), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_set_spec(&d, &sp), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
    TL_TRUE(&c, it.u.rec.type == TDEC_UFTRACE_REC_ARG && it.u.rec.value == 77, "value");
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
    TL_EQU(&c, it.u.rec.type, TDEC_UFTRACE_REC_ARGS_END);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
    TL_EQU(&c, it.u.rec.type, TDEC_UFTRACE_REC_EXIT);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_uftrace_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_END);
    TL_EQI(&c, tdec_uftrace_feed(&d, b, 1), TDEC_E_SEQUENCE);
    /* set_spec(NULL): the record's offset, sticky */
    tdec_uftrace_init(&d, NULL);
    tdec_uftrace_feed(&d, b, o);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
    TL_EQI(&c, tdec_uftrace_set_spec(&d, NULL), TDEC_E_CORRUPT);
    TL_EQU(&c, d.st.err_offset, 0);
    TL_EQU(&c, d.st.err_reason, TDEC_UFTRACE_R_NO_SPEC);
    TL_EQI(&c, tdec_uftrace_needs_spec(&d), 0);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_uftrace_feed(&d, b, 1), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_uftrace_finish(&d), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_uftrace_set_spec(&d, &sp), TDEC_E_CORRUPT);
    /* a second record: set_spec(NULL) names it */
    tdec_uftrace_init(&d, NULL);
    {
        unsigned char b2[48];
        memset(b2, 0, sizeof b2);
        put_rec(b2, 0, 1, word(TDEC_UFTRACE_REC_ENTRY, 0, 5, 0, 0x1000));
        put_rec(b2, 16, 2, word(TDEC_UFTRACE_REC_ENTRY, 1, 5, 1, 0x2000));
        tdec_uftrace_feed(&d, b2, sizeof b2);
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
        TL_EQI(&c, tdec_uftrace_set_spec(&d, NULL), TDEC_E_CORRUPT);
        TL_EQU(&c, d.st.err_offset, 16);
    }
    /* reset keeps the config and clears the error */
    cfg.flags = TDEC_UFTRACE_F_BIG_ENDIAN;
    cfg.max_fragment = 0;
    tdec_uftrace_init(&d, &cfg);
    tdec_uftrace_feed(&d, b, 16);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_E_CORRUPT); /* LE data read as BE: bad magic */
    tdec_uftrace_reset(&d);
    TL_EQI(&c, d.st.err, TDEC_OK);
    TL_EQU(&c, d.cfg.flags, TDEC_UFTRACE_F_BIG_ENDIAN);
    TL_EQI(&c, tdec_uftrace_finish(&d), TDEC_END);
    /* finish inside a spec wait: truncated */
    tdec_uftrace_init(&d, NULL);
    tdec_uftrace_feed(&d, b, 16);
    TL_EQI(&c, tdec_uftrace_next(&d, &it), TDEC_OK);
    TL_EQI(&c, tdec_uftrace_finish(&d), TDEC_E_TRUNCATED);
    TL_EQU(&c, d.st.err_reason, TDEC_UFTRACE_R_PAYLOAD);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* perf records by hand                                                 */

static size_t put_perf(unsigned char *b, size_t o, uint32_t type, uint16_t misc, uint16_t size)
{
    memset(b + o, 0, size);
    put_le(b + o, type, 4);
    put_le(b + o + 4, misc, 2);
    put_le(b + o + 6, size, 2);
    return o + size;
}

static void put_sample(unsigned char *b, size_t end, uint32_t pid, uint32_t tid, uint64_t time)
{
    put_le(b + end - 16, pid, 4);
    put_le(b + end - 12, tid, 4);
    put_le(b + end - 8, time, 8);
}

static void test_perf_hand(void)
{
    tl_case c;
    static unsigned char b[1024];
    size_t o, rec2;
    run_cfg rc;
    run_res res;
    buf lg = { NULL, 0, 0 };
    tdec_uftrace_perf_decoder d;
    tdec_uftrace_perf_item it;
    memset(&rc, 0, sizeof rc);
    memset(&res, 0, sizeof res);
    rc.perf = 1;

    tl_begin(&c, "uftrace perf: COMM names, FORK/EXIT body fields, SWITCH, other types with bodies");
    o = put_perf(b, 0, TDEC_UFTRACE_PERF_COMM, 0x2000, 48);
    put_le(b + 8, 10, 4);
    put_le(b + 12, 11, 4);
    memcpy(b + 16, "0123456789abcdef", 16); /* 16 chars, no NUL in the name field */
    put_sample(b, o, 10, 11, 5000);
    rec2 = o;
    o = put_perf(b, o, TDEC_UFTRACE_PERF_COMM, 0, 32); /* no name bytes at all */
    put_le(b + o - 24, 12, 4);
    put_le(b + o - 20, 13, 4);
    put_sample(b, o, 12, 13, 5001);
    o = put_perf(b, o, TDEC_UFTRACE_PERF_FORK, 0, 48);
    put_le(b + o - 40, 20, 4);
    put_le(b + o - 36, 21, 4);
    put_le(b + o - 32, 22, 4);
    put_le(b + o - 28, 23, 4);
    put_le(b + o - 24, 6000, 8);
    put_sample(b, o, 21, 23, 5999);
    o = put_perf(b, o, 9, 0x1, 40); /* PERF_RECORD_SAMPLE: passed through */
    memset(b + o - 32, 'q', 32);
    o = put_perf(b, o, 99, 0, 8);
    o = put_perf(b, o, TDEC_UFTRACE_PERF_SWITCH, 0x6000, 64);
    put_sample(b, o, 30, 31, 7000);
    o = put_perf(b, o, TDEC_UFTRACE_PERF_EXIT, 0, 56);
    put_le(b + o - 48, 40, 4);
    put_le(b + o - 44, 41, 4);
    put_le(b + o - 40, 42, 4);
    put_le(b + o - 36, 43, 4);
    put_le(b + o - 32, 8000, 8);
    put_sample(b, o, 40, 42, 7999);
    run_whole(&rc, b, o, &lg, &res);
    TL_EQI(&c, res.st, TDEC_END);
    TL_TRUE(&c, !res.bad, "%s", res.why);
    TL_TRUE(&c, strstr(lg.p, "P o=0 t=3 m=2000 s=48 pid=10 tid=11 ppid=0 ptid=0 time=5000 comm=0123456789abcdef sp=10 st=11 stime=5000 ps=0\n") != NULL, "COMM 16 chars");
    TL_TRUE(&c, strstr(lg.p, "t=3 m=0 s=32 pid=12 tid=13 ppid=0 ptid=0 time=5001 comm= ") != NULL, "COMM without name");
    TL_TRUE(&c, strstr(lg.p, "t=7 m=0 s=48 pid=20 tid=22 ppid=21 ptid=23 time=6000 comm= sp=21 st=23 stime=5999 ps=0\n") != NULL, "FORK");
    TL_TRUE(&c, strstr(lg.p, "t=9 m=1 s=40 pid=0 tid=0 ppid=0 ptid=0 time=0 comm= sp=0 st=0 stime=0 ps=32\nF o=136 n=32:qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq\n") != NULL, "other type with body");
    TL_TRUE(&c, strstr(lg.p, "t=99 m=0 s=8 pid=0 tid=0 ppid=0 ptid=0 time=0 comm= sp=0 st=0 stime=0 ps=0\nP ") != NULL, "8-byte record");
    TL_TRUE(&c, strstr(lg.p, "t=14 m=6000 s=64 pid=30 tid=31 ppid=0 ptid=0 time=7000 ") != NULL, "SWITCH of 64 bytes");
    TL_TRUE(&c, strstr(lg.p, "t=4 m=0 s=56 pid=40 tid=42 ppid=41 ptid=43 time=8000 comm= sp=40 st=42 stime=7999") != NULL, "EXIT of 56 bytes");
    invariance(&c, "perf by hand", &rc, b, o, 1);
    rc.cfg.flags = TDEC_UFTRACE_F_SKIP_PAYLOADS;
    lg.len = 0;
    run_whole(&rc, b, o, &lg, &res);
    TL_EQI(&c, res.st, TDEC_END);
    TL_TRUE(&c, strstr(lg.p, "F o=") == NULL, "no fragments when skipping");
    rc.cfg.flags = 0;
    {
        unsigned char *be = perf_to_be(b, o);
        buf lb = { NULL, 0, 0 };
        run_res rb;
        memset(&rb, 0, sizeof rb);
        lg.len = 0;
        run_whole(&rc, b, o, &lg, &res);
        rc.cfg.flags = TDEC_UFTRACE_F_BIG_ENDIAN;
        run_whole(&rc, be, o, &lb, &rb);
        TL_TRUE(&c, same_run(&lg, &res, &lb, &rb), "big-endian copy differs");
        rc.cfg.flags = 0;
        free(rb.starts);
        buf_free(&lb);
        free(be);
    }
    (void)rec2;
    tl_end(&c);

    tl_begin(&c, "uftrace perf hostile: sizes below 8, known types too small or too big -> E_CORRUPT R_PERF_SIZE");
    {
        static const struct {
            uint32_t type;
            uint16_t size;
        } bad[] = { { 9, 0 }, { 9, 7 }, { 3, 24 }, { 3, 31 }, { 3, 72 }, { 4, 40 }, { 7, 47 },
                    { 7, 65 }, { 14, 16 }, { 14, 23 }, { 14, 72 }, { 14, 65535 } };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            memset(b, 0, sizeof b);
            o = put_perf(b, 0, TDEC_UFTRACE_PERF_SWITCH, 0, 24);
            put_le(b + o, bad[i].type, 4);
            put_le(b + o + 6, bad[i].size, 2);
            lg.len = 0;
            run_whole(&rc, b, sizeof b, &lg, &res);
            TL_TRUE(&c, res.st == TDEC_E_CORRUPT && res.err_offset == 24 && res.err_reason == TDEC_UFTRACE_R_PERF_SIZE,
                    "type %u size %u: %d at %" PRIu64, bad[i].type, bad[i].size, res.st, res.err_offset);
        }
        memset(b, 0, sizeof b);
        o = put_perf(b, 0, 9, 0, 100);
        lg.len = 0;
        run_whole(&rc, b, 50, &lg, &res);
        TL_TRUE(&c, res.st == TDEC_E_TRUNCATED && res.err_reason == TDEC_UFTRACE_R_PAYLOAD, "truncated body");
        run_whole(&rc, b, 5, &lg, &res);
        TL_TRUE(&c, res.st == TDEC_E_TRUNCATED && res.err_reason == TDEC_UFTRACE_R_RECORD && res.err_offset == 0,
                "truncated header");
        put_perf(b, 0, TDEC_UFTRACE_PERF_FORK, 0, 48);
        run_whole(&rc, b, 40, &lg, &res);
        TL_TRUE(&c, res.st == TDEC_E_TRUNCATED && res.err_reason == TDEC_UFTRACE_R_RECORD, "truncated FORK");
    }
    tl_end(&c);

    tl_begin(&c, "uftrace perf misuse: NULL arguments, sequence, sticky errors, reset");
    TL_EQI(&c, tdec_uftrace_perf_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_perf_feed(NULL, b, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_perf_next(NULL, &it), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_perf_finish(NULL), TDEC_E_ARG);
    tdec_uftrace_perf_reset(NULL);
    TL_EQI(&c, tdec_uftrace_perf_init(&d, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_perf_next(&d, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_uftrace_perf_feed(&d, NULL, 3), TDEC_E_ARG);
    memset(b, 0, sizeof b);
    o = put_perf(b, 0, TDEC_UFTRACE_PERF_SWITCH, 0, 24);
    TL_EQI(&c, tdec_uftrace_perf_feed(&d, b, o), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_perf_feed(&d, b, o), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_uftrace_perf_finish(&d), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_uftrace_perf_next(&d, &it), TDEC_OK);
    TL_EQI(&c, tdec_uftrace_perf_next(&d, &it), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_perf_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_uftrace_perf_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_uftrace_perf_next(&d, &it), TDEC_END);
    TL_EQI(&c, tdec_uftrace_perf_feed(&d, b, 1), TDEC_E_SEQUENCE);
    tdec_uftrace_perf_reset(&d);
    put_le(b + 6, 4, 2);
    TL_EQI(&c, tdec_uftrace_perf_feed(&d, b, o), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_uftrace_perf_next(&d, &it), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_uftrace_perf_next(&d, &it), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_uftrace_perf_feed(&d, b, 1), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_uftrace_perf_finish(&d), TDEC_E_CORRUPT);
    tdec_uftrace_perf_reset(&d);
    TL_EQI(&c, d.st.err, TDEC_OK);
    TL_EQI(&c, tdec_uftrace_perf_finish(&d), TDEC_END);
    tl_end(&c);

    free(res.starts);
    buf_free(&lg);
}

/* ------------------------------------------------------------------ */
/* the Ending rule of the header's CONTRACT, through the oracle         */

/* A hand-made <tid>.dat (ENTRY, an EVENT with 5 bytes of data, EXIT) and
   each of its prefixes, and every perf-cpuN.dat whole and cut by one byte,
   decoded by the oracle (which checks the Ending rule) in 1-, 7- and
   4096-byte chunks: each ends in END exactly on a record boundary, else in
   TDEC_E_TRUNCATED from finish(). */
static void test_ending(void)
{
    static const size_t chunks[] = { 1, 7, 4096 };
    static uc_run r;
    unsigned char b[64], *data;
    size_t o = 0, len, plen, k;
    int i, j;
    tl_case c;
    o = put_rec(b, o, 100, word(TDEC_UFTRACE_REC_ENTRY, 0, 5, 0, 0x1000));
    o = put_rec(b, o, 110, word(TDEC_UFTRACE_REC_EVENT, 1, 5, 0, 200000));
    put_le(b + o, 5, 2);
    memcpy(b + o + 2, "hello", 5);
    b[o + 7] = 0;
    o += 8; /* u16 length, data, padding to 8 */
    o = put_rec(b, o, 120, word(TDEC_UFTRACE_REC_EXIT, 0, 5, 0, 0x1000));
    memset(&r, 0, sizeof r);
    tl_begin(&c, "uftrace Ending: the oracle's decodes in 1-, 7- and 4096-byte chunks end in END or E_TRUNCATED");
    for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
        for (len = 0; len <= o; len++)
            TL_TRUE(&c,
                    cc_ending(uc_decode, &r.cc, b, len, chunks[k],
                              len == 0 || len == 16 || len == 40 || len == o ? TDEC_END : TDEC_E_TRUNCATED) == NULL,
                    "%s", r.cc.msg);
    tl_end(&c);

    r.perf = 1;
    tl_begin(&c, "uftrace perf Ending: every perf-cpuN.dat whole (END) and cut by one byte (E_TRUNCATED)");
    for (i = 0; i < nsamples; i++)
        for (j = 0; j < samples[i].nperfs; j++) {
            data = read_in(&samples[i], samples[i].perfs[j], &len);
            if (!TL_TRUE(&c, data != NULL, "cannot read %s", samples[i].perfs[j])) continue;
            for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
                for (plen = len > 0 ? len - 1 : 0; plen <= len; plen++)
                    TL_TRUE(&c,
                            cc_ending(uc_decode, &r.cc, data, plen, chunks[k],
                                      plen == len ? TDEC_END : TDEC_E_TRUNCATED) == NULL,
                            "%s", r.cc.msg);
            free(data);
        }
    tl_end(&c);
}

int main(void)
{
    tl_case c;
    load_samples();
    tl_begin(&c, "uftrace samples found in " DATA_DIR);
    TL_TRUE(&c, nsamples >= 12, "%d samples", nsamples);
    TL_TRUE(&c, find_sample("args") && find_sample("libcall") && find_sample("forkexec") && find_sample("cxx"),
            "args, libcall, forkexec, cxx");
    tl_end(&c);
    if (nsamples == 0) return tl_exit_code();
    tl_sizeof_tdec_uftrace_decoder();
    tl_sizeof_tdec_uftrace_item();
    tl_sizeof_tdec_uftrace_perf_decoder();
    tl_sizeof_tdec_uftrace_perf_item();
    tl_sizeof_tdec_uftrace_argspec();
    test_headers();
    test_info_lines();
    test_task();
    test_maps();
    test_syms();
    test_dbgs();
    test_spec_grammar();
    test_enums();
    test_golden();
    test_mixed();
    test_invariance();
    test_big_endian();
    test_32bit();
    test_hostile();
    test_misuse();
    test_perf_hand();
    test_ending();
    printf("%d passed, %d failed\n", tl_passed, tl_failed);
    return tl_exit_code();
}
