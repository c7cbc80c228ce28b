/* xray.c - unit tests of single/tdec_xray.h. Run from the repository
   root (make test does): reads tests/data/xray/<sample>/<sample>.xray and the
   LLVM reference outputs beside them.

   Sections: sizeof; chunk invariance (samples and hand-made inputs, four
   configs); every prefix; decoded content against the format facts and
   llvm-xray's YAML; hostile inputs; API misuse. Every decode goes through
   the oracle, tests/lib/xray_check.h, shared with fuzz/fuzz_xray.c; chunk
   invariance and every prefix are its runners (tests/lib/check_common.h). */
#define _POSIX_C_SOURCE 200809L
#define TDEC_XRAY_IMPLEMENTATION
#include "tests/lib/xray_check.h"
#include "tests/lib/testlib.h"

#include <dirent.h>
#include <stdint.h>

#define DATA_DIR "tests/data/xray"
#define LOG_CAP  (4u << 20)

static char log_a[LOG_CAP], log_b[LOG_CAP];

/* ------------------------------------------------------------------ */
/* inputs                                                              */

typedef struct input {
    char           name[64];
    unsigned char *data;
    size_t         len;
    int            sample; /* from tests/data (else hand-made) */
} input;

static input inputs[96];
static size_t ninputs;

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const input *)a)->name, ((const input *)b)->name);
}

/* Every tests/data/xray/<s>/<s>.xray. */
static void load_samples(void)
{
    char path[512];
    struct dirent *e;
    DIR *dir = opendir(DATA_DIR);
    input *in;
    if (dir == NULL) return;
    while ((e = readdir(dir)) != NULL && ninputs < sizeof inputs / sizeof inputs[0]) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof inputs[0].name) continue;
        snprintf(path, sizeof path, DATA_DIR "/%s/%s.xray", e->d_name, e->d_name);
        in = &inputs[ninputs];
        if ((in->data = tl_read_file(path, &in->len)) == NULL) continue;
        snprintf(in->name, sizeof in->name, "%s", e->d_name);
        in->sample = 1;
        ninputs++;
    }
    closedir(dir);
    qsort(inputs, ninputs, sizeof inputs[0], cmp_name);
}

static const input *find_input(const char *name)
{
    size_t i;
    for (i = 0; i < ninputs; i++)
        if (strcmp(inputs[i].name, name) == 0) return &inputs[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* a builder for hand-made FDR and basic logs                          */

typedef struct bld {
    uint8_t b[4096];
    size_t  n;
    size_t  ext;  /* offset of the open BufferExtents record          */
    size_t  mark; /* offset a test is about (set by the builder)      */
} bld;

static void b_u8(bld *b, unsigned v) { b->b[b->n++] = (uint8_t)v; }
static void b_u16(bld *b, unsigned v) { b_u8(b, v & 255u); b_u8(b, (v >> 8) & 255u); }
static void b_u32(bld *b, uint32_t v) { b_u16(b, v & 0xFFFFu); b_u16(b, v >> 16); }
static void b_u64(bld *b, uint64_t v) { b_u32(b, (uint32_t)v); b_u32(b, (uint32_t)(v >> 32)); }
static void b_fill(bld *b, unsigned byte, size_t n) { while (n--) b_u8(b, byte); }
static void b_str(bld *b, const char *s) { while (*s) b_u8(b, (unsigned char)*s++); }
static void b_mark(bld *b) { b->mark = b->n; }

static void b_hdr(bld *b, unsigned version, unsigned type, uint64_t bufsize)
{
    b_u16(b, version);
    b_u16(b, type);
    b_u32(b, 3);
    b_u64(b, 1000000000u);
    b_u64(b, bufsize);
    b_u64(b, 0);
}

/* Metadata records: the tag, then fields written by the caller, padded to 16. */
static size_t b_meta(bld *b, unsigned kind) { b_u8(b, kind << 1 | 1u); return b->n - 1; }
static void b_pad(bld *b, size_t start) { b_fill(b, 0, start + 16 - b->n); }
static void b_meta0(bld *b, unsigned kind) { b_pad(b, b_meta(b, kind)); }
static void b_meta32(bld *b, unsigned kind, uint32_t v) { size_t s = b_meta(b, kind); b_u32(b, v); b_pad(b, s); }
static void b_meta64(bld *b, unsigned kind, uint64_t v) { size_t s = b_meta(b, kind); b_u64(b, v); b_pad(b, s); }
static void b_cpu(bld *b, unsigned cpu, uint64_t tsc) { size_t s = b_meta(b, 2); b_u16(b, cpu); b_u64(b, tsc); b_pad(b, s); }
static void b_wall(bld *b, uint64_t sec, uint32_t usec) { size_t s = b_meta(b, 4); b_u64(b, sec); b_u32(b, usec); b_pad(b, s); }
/* v5 custom event: size, delta. */
static void b_custom5(bld *b, uint32_t size, uint32_t delta) { size_t s = b_meta(b, 5); b_u32(b, size); b_u32(b, delta); b_pad(b, s); }
/* v4 custom event: size, absolute tsc, cpu. */
static void b_custom4(bld *b, uint32_t size, uint64_t tsc, unsigned cpu) { size_t s = b_meta(b, 5); b_u32(b, size); b_u64(b, tsc); b_u16(b, cpu); b_pad(b, s); }
static void b_typed(bld *b, uint32_t size, uint32_t delta, unsigned type) { size_t s = b_meta(b, 8); b_u32(b, size); b_u32(b, delta); b_u16(b, type); b_pad(b, s); }
static void b_fn(bld *b, unsigned action, uint32_t fid, uint32_t delta) { b_u32(b, fid << 4 | action << 1); b_u32(b, delta); }

/* BufferExtents whose size is patched by b_ext_end(). */
static void b_ext_begin(bld *b) { b->ext = b->n; b_meta64(b, 7, 0); }
static void b_ext_end(bld *b)
{
    size_t size = b->n - b->ext - 16, i;
    for (i = 0; i < 8; i++) b->b[b->ext + 1 + i] = (uint8_t)((uint64_t)size >> (8 * i));
}
/* The preamble of a v3+ block: extents (open), NewBuffer, WallTime, Pid, NewCPUId. */
static void b_block(bld *b, uint32_t tid, unsigned cpu, uint64_t tsc)
{
    b_ext_begin(b);
    b_meta32(b, 0, tid);
    b_wall(b, 1555, 123456);
    b_meta32(b, 9, 4242);
    b_cpu(b, cpu, tsc);
}
/* The start of most hand-made files: a v5 FDR header and one block (tid
   1, cpu 0, tsc 0), open; b_v5_entry adds an entry into function 1. */
static void b_v5_block(bld *b)
{
    b_hdr(b, 5, 1, 16384);
    b_block(b, 1, 0, 0);
}
static void b_v5_entry(bld *b)
{
    b_v5_block(b);
    b_fn(b, 0, 1, 0);
}
static void b_basic(bld *b, unsigned kind, uint32_t fid, uint64_t tsc, uint32_t tid)
{
    b_u16(b, 0); b_u8(b, 3); b_u8(b, kind); b_u32(b, fid); b_u64(b, tsc); b_u32(b, tid); b_u32(b, 77); b_u64(b, 0);
}
static void b_basic_arg(bld *b, uint32_t fid, uint32_t tid, uint64_t arg)
{
    b_u16(b, 1); b_u16(b, 0); b_u32(b, fid); b_u32(b, tid); b_u32(b, 77); b_u64(b, arg); b_u64(b, 0);
}

/* A well-formed v5 log with every record kind. */
static void mk_v5_all(bld *b)
{
    b_hdr(b, 5, 1, 16384);
    b_block(b, 11, 3, 1000);
    b_fn(b, 0, 1, 0);
    b_fn(b, 3, 2, 5);
    b_meta64(b, 6, 42);
    b_custom5(b, 5, 10);
    b_str(b, "hello");
    b_typed(b, 3, 4, 9);
    b_str(b, "abc");
    b_meta64(b, 3, 5000);
    b_fn(b, 1, 2, 3);
    b_fn(b, 2, 1, 1);
    b_custom5(b, 0, 2);
    b_ext_end(b);
    b_block(b, 12, 1, 9000);
    b_fn(b, 0, 3, 7);
    b_ext_end(b);
}
static void mk_v4_event(bld *b)
{
    b_hdr(b, 4, 1, 16384);
    b_block(b, 3, 2, 77);
    b_fn(b, 0, 1, 10);
    b_mark(b);
    b_custom4(b, 5, 99, 6);
    b_str(b, "world");
    b_fn(b, 1, 1, 10);
    b_ext_end(b);
}
static void mk_v1_eob(bld *b)
{
    b_hdr(b, 1, 1, 128);
    b_meta32(b, 0, 5);
    b_wall(b, 1, 2);
    b_cpu(b, 0, 1);
    b_fn(b, 0, 1, 2);
    b_meta0(b, 1);
    b_fill(b, 0, 128 - 72);
    b_meta32(b, 0, 6); /* an unfinished last buffer (no EndOfBuffer) */
    b_wall(b, 1, 3);
    b_cpu(b, 0, 5);
    b_fn(b, 0, 2, 2);
    b_fill(b, 0, 128 - 56);
}
static void mk_basic_args(bld *b)
{
    b_hdr(b, 3, 0, 0);
    b_basic(b, 3, 4, 1234, 55);
    b_basic_arg(b, 4, 55, 99);
    b_basic(b, 1, 4, 1240, 55);
}

typedef void (*build_fn)(bld *);
static const struct { const char *name; build_fn build; } handmade[] = {
    {"hand-v5-all", mk_v5_all},
    {"hand-v4-event", mk_v4_event},
    {"hand-v1-eob", mk_v1_eob},
    {"hand-basic-args", mk_basic_args},
};

static void add_handmade(void)
{
    size_t i;
    bld *b = (bld *)calloc(1, sizeof *b);
    for (i = 0; i < sizeof handmade / sizeof handmade[0] && ninputs < sizeof inputs / sizeof inputs[0]; i++) {
        memset(b, 0, sizeof *b);
        handmade[i].build(b);
        inputs[ninputs].data = (unsigned char *)malloc(b->n);
        memcpy(inputs[ninputs].data, b->b, b->n);
        inputs[ninputs].len = b->n;
        snprintf(inputs[ninputs].name, sizeof inputs[0].name, "%s", handmade[i].name);
        ninputs++;
    }
    free(b);
}

/* ------------------------------------------------------------------ */
/* collecting items                                                    */

typedef struct titem {
    tdec_xray_item it;
    size_t         pay_off, pay_len; /* reassembled payload in coll.pay */
    size_t         nfrag;
} titem;

typedef struct coll {
    titem   *v;
    size_t   n, cap;
    uint8_t *pay;
    size_t   pay_n, pay_cap;
    size_t   nfrag;
    tdec_xray_header hdr;
} coll;

static void coll_item(void *ctx, const tdec_xray_item *it, const tdec_xray_decoder *d)
{
    coll *c = (coll *)ctx;
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        if (c->pay_n + it->u.frag.len > c->pay_cap) {
            c->pay_cap = (c->pay_n + it->u.frag.len) * 2;
            c->pay = (uint8_t *)realloc(c->pay, c->pay_cap);
        }
        memcpy(c->pay + c->pay_n, it->u.frag.data, it->u.frag.len);
        c->pay_n += it->u.frag.len;
        c->nfrag++;
        if (c->n > 0) {
            c->v[c->n - 1].pay_len += it->u.frag.len;
            c->v[c->n - 1].nfrag++;
        }
        return;
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->v = (titem *)realloc(c->v, c->cap * sizeof *c->v);
    }
    c->v[c->n].it = *it;
    c->v[c->n].pay_off = c->pay_n;
    c->v[c->n].pay_len = 0;
    c->v[c->n].nfrag = 0;
    c->n++;
    if (it->kind == TDEC_ITEM_RECORD && it->u.rec.type == TDEC_XRAY_REC_HEADER) c->hdr = d->hdr;
}

static void coll_free(coll *c)
{
    free(c->v);
    free(c->pay);
    memset(c, 0, sizeof *c);
}

/* Decodes in one chunk, collecting items; r gets the status and log. */
static const char *decode(const uint8_t *in, size_t len, uint32_t flags, coll *c, xc_run *r)
{
    memset(r, 0, sizeof *r);
    memset(c, 0, sizeof *c);
    r->cfg.flags = flags;
    r->on_item = coll_item;
    r->ctx = c;
    r->cc.log = log_a;
    r->cc.log_cap = LOG_CAP;
    return xc_decode(in, len, &r->cc);
}

static size_t count_rec(const coll *c, uint32_t type)
{
    size_t i, k = 0;
    for (i = 0; i < c->n; i++) k += c->v[i].it.kind == TDEC_ITEM_RECORD && c->v[i].it.u.rec.type == type;
    return k;
}

static size_t count_gaps(const coll *c, uint32_t reason)
{
    size_t i, k = 0;
    for (i = 0; i < c->n; i++) k += c->v[i].it.kind == TDEC_ITEM_GAP && c->v[i].it.u.gap.reason == reason;
    return k;
}

/* The i-th record of a type, or NULL. */
static const titem *nth_rec(const coll *c, uint32_t type, size_t i)
{
    size_t j;
    for (j = 0; j < c->n; j++)
        if (c->v[j].it.kind == TDEC_ITEM_RECORD && c->v[j].it.u.rec.type == type && i-- == 0) return &c->v[j];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* sizeof and the Ending rule, as the header states them               */

TL_DEFINE_SIZEOF_TEST(tdec_xray_decoder, "single/tdec_xray.h")
TL_DEFINE_SIZEOF_TEST(tdec_xray_item, "single/tdec_xray.h")

/* Every input that decodes to its end, whole and cut by one byte, and the
   empty input, decoded by the oracle (which checks the Ending rule) in 1-,
   7- and 4096-byte chunks: each ends as the whole decode ends (END, or
   TDEC_E_TRUNCATED from finish()). */
static void test_ending(void)
{
    static const size_t chunks[] = { 1, 7, 4096 };
    xc_run r;
    size_t i, k, len, runs = 0;
    tdec_status want;
    tl_case c;
    tl_begin(&c, "xray Ending: the oracle's decodes in 1-, 7- and 4096-byte chunks end as the whole decode");
    for (i = 0; i < ninputs; i++) {
        for (len = inputs[i].len; len + 1 >= inputs[i].len && len > 0; len--) {
            memset(&r, 0, sizeof r);
            xc_decode(inputs[i].data, len, &r.cc);
            want = r.cc.status;
            if (want != TDEC_END && (len == inputs[i].len || want != TDEC_E_TRUNCATED)) break;
            for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++, runs++)
                TL_TRUE(&c, cc_ending(xc_decode, &r.cc, inputs[i].data, len, chunks[k], want) == NULL, "%s",
                        r.cc.msg);
        }
    }
    memset(&r, 0, sizeof r);
    TL_TRUE(&c, cc_ending(xc_decode, &r.cc, NULL, 0, 1, TDEC_E_TRUNCATED) == NULL, "%s", r.cc.msg);
    TL_TRUE(&c, runs >= 3 * 2 * 18, "only %zu runs", runs);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* chunk invariance                                                    */

static const tl_cfg_row cfgs[] = {
    {"default", 0, 0},
    {"strict", TDEC_XRAY_F_STRICT, 0},
    {"skip-payloads", TDEC_XRAY_F_SKIP_PAYLOADS, 0},
    {"max_fragment=1", 0, 1},
};

typedef struct offs {
    size_t *v;
    size_t  n, cap;
} offs;

static void offs_item(void *ctx, const tdec_xray_item *it, const tdec_xray_decoder *d)
{
    offs *o = (offs *)ctx;
    (void)d;
    /* record boundaries around metadata records and gaps */
    if (it->kind == TDEC_ITEM_FRAGMENT || (it->kind == TDEC_ITEM_RECORD && it->u.rec.type == TDEC_XRAY_REC_FUNCTION))
        return;
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 64;
        o->v = (size_t *)realloc(o->v, o->cap * sizeof *o->v);
    }
    o->v[o->n++] = (size_t)it->offset;
}

/* TDEC_TEST_QUICK=N multiplies the split and prefix strides by N (pick one
   coprime to 8 and 16, e.g. 13): the same checks over fewer cuts, for slow
   hosts such as the big-endian run under qemu. */
static size_t quick = 1;

static size_t split_stride(size_t len, size_t at, int dflt)
{
    if (dflt) return quick * (len <= 4096 ? 1 : at < 4096 ? 7 : 61);
    return quick * (len <= 1024 ? 1 : len <= 4096 ? 5 : 61);
}

/* 2-way splits. Default config: all of them up to 4 KiB; beyond, a stride
   of 7 over the first 4 KiB (it visits every residue mod 8 and 16), then of
   61, plus both sides of every metadata record. Other configs: all up to
   1 KiB, a stride of 5 (coprime to 8 and 16) up to 4 KiB, else of 61. 3-way
   splits of tiny inputs (default and strict). */
static void test_chunk_invariance(const input *in, const tl_cfg_row *cfg)
{
    tl_case c;
    xc_run ref, r;
    offs o;
    cc_plan plan;
    size_t *cuts = NULL, n = 0, i, j, k, runs = 0;
    const char *bad;
    int big = in->len > 4096, dflt = cfg->flags == 0 && cfg->max_fragment == 0;

    tl_begin(&c, "xray chunk invariance %s [%s]", in->name, cfg->tag);
    memset(&ref, 0, sizeof ref);
    memset(&o, 0, sizeof o);
    ref.cfg.flags = cfg->flags;
    ref.cfg.max_fragment = cfg->max_fragment;
    ref.cc.log = log_a;
    ref.cc.log_cap = LOG_CAP;
    ref.on_item = offs_item;
    ref.ctx = &o;
    bad = xc_decode(in->data, in->len, &ref.cc);
    if (!TL_TRUE(&c, bad == NULL, "whole: %s", bad ? bad : "")) goto done;
    if (!TL_TRUE(&c, ref.cc.log_len < LOG_CAP, "log longer than the test's buffer")) goto done;

    cuts = (size_t *)malloc((in->len + 3 * o.n + 1) * sizeof *cuts);
    for (i = 1; i < in->len; i += split_stride(in->len, i, dflt)) cuts[n++] = i;
    for (j = 0; big && dflt && j < o.n; j++)
        for (k = 0; k < 3; k++)
            if (o.v[j] + k > 1 && o.v[j] + k - 1 < in->len) cuts[n++] = o.v[j] + k - 1;
    memset(&plan, 0, sizeof plan);
    plan.bytewise = 1;
    plan.splits = cuts;
    plan.nsplits = n;
    plan.triples_below = dflt || cfg->flags == TDEC_XRAY_F_STRICT ? 300 : 0;
    plan.nseeds = 20;
    r = ref;
    r.on_item = NULL;
    r.cc.log = log_b;
    bad = cc_schedules(xc_decode, &ref.cc, &r.cc, in->data, in->len, &plan, stdout, &runs);
    /* max_fragment changes only how payloads are cut: the log must equal the
       default config's */
    if (bad == NULL && cfg->max_fragment) {
        r.cfg.max_fragment = 0;
        r.cc.sched.seed = 7;
        bad = cc_same_as(xc_decode, &ref.cc, &r.cc, in->data, in->len, "max_fragment=0 vs 1", stdout);
    }
    if (TL_TRUE(&c, bad == NULL, "%s", bad ? bad : ""))
        snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), " (%zu schedules)", runs);
done:
    free(cuts);
    free(o.v);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* prefixes                                                            */

/* 1 if a decode may end cleanly after `l` bytes: at the end of the header
   or of a buffer (FDR v2+: the extents; v1: the header's buffer size), or
   on a 32-byte record boundary (basic). */
static int clean_cut(const coll *full, size_t l)
{
    size_t i;
    const tdec_xray_header *h = &full->hdr;
    if (l == 32) return 1;
    if (l < 32) return 0;
    if (h->file_type == TDEC_XRAY_BASIC) return (l - 32) % 32 == 0;
    if (h->version == 1) return (l - 32) % h->buffer_size == 0;
    for (i = 0; i < full->n; i++) {
        const tdec_xray_item *it = &full->v[i].it;
        if (it->kind == TDEC_ITEM_RECORD && it->u.rec.type == TDEC_XRAY_REC_BUFFER_EXTENTS &&
            it->offset + 16 + it->u.rec.value == l)
            return 1;
    }
    return 0;
}

/* What finish() may say after l bytes: END exactly at a clean cut, else
   E_TRUNCATED, at the cut itself for a cut payload or buffer, within 32
   bytes before it for a cut record. */
static const char *prefix_judge(const void *ctx, size_t l, const cc_verdict *v)
{
    const coll *full = (const coll *)ctx;
    if (v->st == TDEC_END) return clean_cut(full, l) ? NULL : "ends cleanly inside a record or buffer";
    if (clean_cut(full, l)) return "E_TRUNCATED at a clean boundary";
    if ((v->err_reason == TDEC_XRAY_R_PAYLOAD || v->err_reason == TDEC_XRAY_R_BUFFER) && v->err_offset != l)
        return "a cut payload or buffer not reported at the cut";
    if (v->err_reason == TDEC_XRAY_R_RECORD && !(v->err_offset < l && l - v->err_offset < 32))
        return "a cut record not reported at its start";
    return NULL;
}

static void test_prefixes(const input *in)
{
    tl_case c;
    coll full;
    xc_run ref, r;
    size_t direct = 0;
    const char *bad;

    tl_begin(&c, "xray every prefix of %s ends in END or E_TRUNCATED, items a prefix of the whole", in->name);
    bad = decode(in->data, in->len, 0, &full, &ref);
    if (TL_TRUE(&c, bad == NULL, "whole decode: %s", bad ? bad : "")) {
        memset(&r, 0, sizeof r);
        r.cc.log = log_b;
        r.cc.log_cap = LOG_CAP;
        bad = cc_prefixes(xc_decode, &ref.cc, &r.cc, in->data, in->len, quick * (in->len > 4096 ? 61 : 1), prefix_judge,
                          &full, &direct);
        TL_TRUE(&c, bad == NULL, "%s", bad ? bad : "");
    }
    snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), " (%zu prefixes, %zu decoded whole)",
             in->len + 1, direct);
    coll_free(&full);
    tl_end(&c);
}

/* Specific prefixes checked by hand. */
static void test_prefix_by_hand(void)
{
    static const struct {
        const char *sample;
        size_t      len;       /* prefix length; (size_t)-1: whole */
        tdec_status st;
        uint64_t    off;
        uint32_t    reason;
    } rows[] = {
        {"fdr-args", 0, TDEC_E_TRUNCATED, 0, TDEC_XRAY_R_HEADER},
        {"fdr-args", 31, TDEC_E_TRUNCATED, 0, TDEC_XRAY_R_HEADER},
        {"fdr-args", 32, TDEC_END, 0, 0},                         /* after the header          */
        {"fdr-args", 33, TDEC_E_TRUNCATED, 32, TDEC_XRAY_R_RECORD}, /* inside BufferExtents      */
        {"fdr-args", 47, TDEC_E_TRUNCATED, 32, TDEC_XRAY_R_RECORD},
        {"fdr-args", 48, TDEC_E_TRUNCATED, 48, TDEC_XRAY_R_BUFFER}, /* extents promise more      */
        {"fdr-args", 115, TDEC_E_TRUNCATED, 112, TDEC_XRAY_R_RECORD}, /* first function record  */
        {"fdr-args", 120, TDEC_E_TRUNCATED, 120, TDEC_XRAY_R_BUFFER},
        {"fdr-args", 432, TDEC_END, 0, 0},                        /* the whole file: one block */
        {"fdr-custom-events", 125, TDEC_E_TRUNCATED, 120, TDEC_XRAY_R_RECORD},  /* inside the marker */
        {"fdr-custom-events", 136, TDEC_E_TRUNCATED, 136, TDEC_XRAY_R_PAYLOAD}, /* 'start' not begun */
        {"fdr-custom-events", 138, TDEC_E_TRUNCATED, 138, TDEC_XRAY_R_PAYLOAD}, /* inside 'start' */
        {"fdr-custom-events", 141, TDEC_E_TRUNCATED, 141, TDEC_XRAY_R_BUFFER},  /* after it */
        {"basic-mode", 64, TDEC_END, 0, 0},
        {"basic-mode", 70, TDEC_E_TRUNCATED, 64, TDEC_XRAY_R_RECORD},
        {"fdr-v1-synthetic", 32 + 4096, TDEC_END, 0, 0},           /* one whole v1 buffer       */
        {"fdr-v1-synthetic", 32 + 4095, TDEC_E_TRUNCATED, 32 + 4095, TDEC_XRAY_R_PAYLOAD},
    };
    size_t i;
    tl_case c;
    coll col;
    xc_run r;
    const input *in;
    tdec_xray_decoder d;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tl_begin(&c, "xray prefix %s[0..%zu) gives %s", rows[i].sample, rows[i].len, tdec_status_str(rows[i].st));
        in = find_input(rows[i].sample);
        if (TL_TRUE(&c, in != NULL && rows[i].len <= in->len, "sample missing or too short")) {
            decode(in->data, rows[i].len, 0, &col, &r);
            TL_EQI(&c, r.cc.status, rows[i].st);
            /* the decoder itself, for err_offset/err_reason */
            tdec_xray_init(&d, NULL);
            {
                tdec_xray_item it;
                tdec_status st = tdec_xray_feed(&d, in->data, rows[i].len);
                while (st == TDEC_NEED_INPUT || st == TDEC_OK) {
                    st = tdec_xray_next(&d, &it);
                    if (st == TDEC_NEED_INPUT) { st = tdec_xray_finish(&d); break; }
                }
                TL_EQI(&c, st, rows[i].st);
            }
            if (rows[i].st < 0) {
                TL_EQU(&c, d.st.err_offset, rows[i].off);
                TL_EQU(&c, d.st.err_reason, rows[i].reason);
            }
            coll_free(&col);
        }
        tl_end(&c);
    }
}

/* ------------------------------------------------------------------ */
/* decoded content                                                     */

static const char *action_kind(uint32_t a)
{
    switch (a) {
    case TDEC_XRAY_ENTER: return "function-enter";
    case TDEC_XRAY_EXIT: return "function-exit";
    case TDEC_XRAY_TAIL_EXIT: return "function-tail-exit";
    case TDEC_XRAY_ENTER_ARGS: return "function-enter-arg";
    }
    return "?";
}

/* A function record as llvm-xray convert -f yaml shows it. */
typedef struct frec {
    uint64_t thread, tsc;
    uint32_t fid;
    char     kind[24];
    uint64_t args[4];
    unsigned nargs;
} frec;

typedef struct frecs {
    frec  *v;
    size_t n, cap;
} frecs;

static frec *frecs_add(frecs *f)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 256;
        f->v = (frec *)realloc(f->v, f->cap * sizeof *f->v);
    }
    memset(&f->v[f->n], 0, sizeof f->v[0]);
    return &f->v[f->n++];
}

static int frec_cmp(const void *pa, const void *pb)
{
    const frec *a = (const frec *)pa, *b = (const frec *)pb;
    unsigned i;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    if (a->tsc != b->tsc) return a->tsc < b->tsc ? -1 : 1;
    if (a->fid != b->fid) return a->fid < b->fid ? -1 : 1;
    if (strcmp(a->kind, b->kind) != 0) return strcmp(a->kind, b->kind);
    if (a->nargs != b->nargs) return a->nargs < b->nargs ? -1 : 1;
    for (i = 0; i < a->nargs; i++)
        if (a->args[i] != b->args[i]) return a->args[i] < b->args[i] ? -1 : 1;
    return 0;
}

static void frec_str(const frec *f, char *s, size_t n)
{
    snprintf(s, n, "thread %llu %s fid %u tsc %llu args %u:%llu", (unsigned long long)f->thread, f->kind,
             (unsigned)f->fid, (unsigned long long)f->tsc, f->nargs, (unsigned long long)f->args[0]);
}

static int yaml_num(const char *line, const char *key, uint64_t *v)
{
    const char *p = strstr(line, key);
    if (p == NULL) return 0;
    *v = strtoull(p + strlen(key), NULL, 10);
    return 1;
}

/* The function records of an llvm-xray YAML file (one flow mapping per
   line). Returns 0 if the file is missing. */
static int yaml_load(const char *path, frecs *out)
{
    size_t len, k;
    char *text = (char *)tl_read_file(path, &len), *line, *next, *p;
    uint64_t v;
    frec *f;
    if (text == NULL) return 0;
    for (line = text; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (strncmp(line, "  - {", 5) != 0 || (p = strstr(line, "kind: function-")) == NULL) continue;
        f = frecs_add(out);
        p += 6;
        for (k = 0; k + 1 < sizeof f->kind && p[k] && p[k] != ',' && p[k] != ' '; k++) f->kind[k] = p[k];
        yaml_num(line, "thread: ", &f->thread);
        yaml_num(line, "tsc: ", &f->tsc);
        if (yaml_num(line, "func-id: ", &v)) f->fid = (uint32_t)v;
        if ((p = strstr(line, "args: [ ")) != NULL) {
            p += 8;
            while (*p >= '0' && *p <= '9' && f->nargs < 4) {
                f->args[f->nargs++] = strtoull(p, &p, 10);
                while (*p == ',' || *p == ' ') p++;
            }
        }
    }
    free(text);
    return 1;
}

/* Our function records in the same shape; call arguments attach to the
   function record before them. */
static void ours_load(const coll *c, frecs *out)
{
    size_t i;
    frec *last = NULL;
    for (i = 0; i < c->n; i++) {
        const tdec_xray_record *r = &c->v[i].it.u.rec;
        if (c->v[i].it.kind != TDEC_ITEM_RECORD) continue;
        if (r->type == TDEC_XRAY_REC_FUNCTION) {
            last = frecs_add(out);
            last->thread = r->tid;
            last->tsc = r->tsc;
            last->fid = r->fid;
            snprintf(last->kind, sizeof last->kind, "%s", action_kind(r->action));
        } else if (r->type == TDEC_XRAY_REC_CALL_ARG && last && last->nargs < 4) {
            last->args[last->nargs++] = r->value;
        }
    }
}

/* FDR: the multiset of function records equals llvm-xray's. */
static void test_fdr_yaml(const input *in)
{
    char path[256], s1[128], s2[128];
    frecs ours = {NULL, 0, 0}, ref = {NULL, 0, 0};
    const char *file = "ref.yaml";
    coll col;
    xc_run r;
    tl_case c;
    size_t i;

    snprintf(path, sizeof path, DATA_DIR "/%.63s/%s", in->name, file);
    if (!yaml_load(path, &ref)) {
        file = "expected.yaml"; /* samples LLVM cannot read: the generator's expectation */
        snprintf(path, sizeof path, DATA_DIR "/%.63s/%s", in->name, file);
        if (!yaml_load(path, &ref)) return;
    }
    tl_begin(&c, "xray %s function records equal %s %s (thread, kind, tsc, func-id, args)", in->name,
             file[0] == 'r' ? "llvm-xray's" : "the sample generator's", file);
    decode(in->data, in->len, 0, &col, &r);
    ours_load(&col, &ours);
    qsort(ours.v, ours.n, sizeof ours.v[0], frec_cmp);
    qsort(ref.v, ref.n, sizeof ref.v[0], frec_cmp);
    TL_TRUE(&c, ref.n > 0, "no records in the reference");
    TL_EQU(&c, ours.n, ref.n);
    for (i = 0; !c.bad && i < ours.n && i < ref.n; i++) {
        frec_str(&ours.v[i], s1, sizeof s1);
        frec_str(&ref.v[i], s2, sizeof s2);
        TL_TRUE(&c, frec_cmp(&ours.v[i], &ref.v[i]) == 0, "sorted record %zu: ours %s, llvm %s", i, s1, s2);
    }
    if (!c.bad) snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), " (%zu records)", ours.n);
    tl_end(&c);
    coll_free(&col);
    free(ours.v);
    free(ref.v);
}

/* Basic mode: per thread, in order, every record equals llvm-xray's. */
static void test_basic_yaml(void)
{
    frecs ours = {NULL, 0, 0}, ref = {NULL, 0, 0};
    const input *in = find_input("basic-mode");
    char s1[128], s2[128];
    coll col;
    xc_run r;
    tl_case c;
    size_t i, j, k, threads = 0;

    tl_begin(&c, "xray basic-mode records equal llvm-xray's ref.unsorted.yaml per thread in order");
    if (TL_TRUE(&c, in && yaml_load(DATA_DIR "/basic-mode/ref.unsorted.yaml", &ref), "missing files")) {
        decode(in->data, in->len, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        ours_load(&col, &ours);
        TL_EQU(&c, ours.n, ref.n);
        for (i = 0; !c.bad && i < ref.n; i++) {
            uint64_t t = ref.v[i].thread;
            for (j = 0; j < i && ref.v[j].thread != t; j++) {}
            if (j < i) continue; /* thread already compared */
            threads++;
            for (j = i, k = 0; !c.bad; j++, k++) {
                while (j < ref.n && ref.v[j].thread != t) j++;
                while (k < ours.n && ours.v[k].thread != t) k++;
                if (j == ref.n || k == ours.n) {
                    TL_TRUE(&c, j == ref.n && k == ours.n, "thread %llu: record counts differ",
                            (unsigned long long)t);
                    break;
                }
                frec_str(&ours.v[k], s1, sizeof s1);
                frec_str(&ref.v[j], s2, sizeof s2);
                TL_TRUE(&c, frec_cmp(&ours.v[k], &ref.v[j]) == 0, "ours %s, llvm %s", s1, s2);
            }
        }
        TL_TRUE(&c, threads >= 2, "expected several threads, saw %zu", threads);
        coll_free(&col);
    }
    if (!c.bad) snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), " (%zu records, %zu threads)", ref.n, threads);
    tl_end(&c);
    free(ours.v);
    free(ref.v);
}

static void test_content(void)
{
    const input *in;
    coll col;
    xc_run r;
    tl_case c;
    size_t i, k;
    const titem *t;

    tl_begin(&c, "xray fdr-args: 9 call arguments incl. 42, 0xfffffffb, 2^64-1, each after an enter-with-args");
    if (TL_TRUE(&c, (in = find_input("fdr-args")) != NULL, "missing")) {
        uint64_t want[] = {42, 0xfffffffbu, UINT64_MAX, 0x123456789abcdefu, 94059868871528u,
                           0xfedcba9876543210u, 7, 1000, 2000};
        decode(in->data, in->len, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_CALL_ARG), 9);
        for (i = 0; i < 9 && (t = nth_rec(&col, TDEC_XRAY_REC_CALL_ARG, i)) != NULL; i++) {
            TL_EQU(&c, t->it.u.rec.value, want[i]);
            TL_TRUE(&c, t[-1].it.u.rec.type == TDEC_XRAY_REC_FUNCTION && t[-1].it.u.rec.action == TDEC_XRAY_ENTER_ARGS,
                    "argument %zu does not follow an enter-with-args record", i);
        }
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray fdr-custom-events: 7 custom events of sizes 5,9,9,3,33,62,3 with their text");
    if (TL_TRUE(&c, (in = find_input("fdr-custom-events")) != NULL, "missing")) {
        static const unsigned sizes[] = {5, 9, 9, 3, 33, 62, 3};
        static const char *const text[] = {"start", "even step", "even step", NULL, NULL,
                                           "a slightly longer custom event payload, 64 bytes long........!", "end"};
        decode(in->data, in->len, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT), 7);
        for (i = 0; i < 7 && (t = nth_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT, i)) != NULL; i++) {
            TL_EQU(&c, t->it.u.rec.payload_size, sizes[i]);
            TL_EQU(&c, t->pay_len, sizes[i]);
            if (text[i])
                TL_TRUE(&c, t->pay_len == strlen(text[i]) && memcmp(col.pay + t->pay_off, text[i], t->pay_len) == 0,
                        "event %zu text differs", i);
        }
        t = nth_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT, 3);
        TL_TRUE(&c, t && memcmp(col.pay + t->pay_off, "\x01&K", 3) == 0, "event 3 is not \"\\x01&K\"");
        t = nth_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT, 0);
        TL_TRUE(&c, t && t->it.u.rec.delta == 30062, "first event delta");
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray fdr-emulated-tsc: cycle frequency 1e9 and a TSC_WRAP record");
    if (TL_TRUE(&c, (in = find_input("fdr-emulated-tsc")) != NULL, "missing")) {
        decode(in->data, in->len, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        TL_EQU(&c, col.hdr.cycle_frequency, 1000000000u);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_TSC_WRAP), 1);
        t = nth_rec(&col, TDEC_XRAY_REC_TSC_WRAP, 0);
        TL_TRUE(&c, t && t->it.u.rec.tsc == 1795314744339689735u, "TSC wrap base");
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray fdr-typed-events: one OVERRUN gap at 230 (24 bytes); strict: E_CORRUPT at 230");
    if (TL_TRUE(&c, (in = find_input("fdr-typed-events")) != NULL, "missing")) {
        decode(in->data, in->len, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        k = 0;
        for (i = 0; i < col.n; i++) {
            if (col.v[i].it.kind != TDEC_ITEM_GAP) continue;
            k++;
            TL_EQU(&c, col.v[i].it.offset, 230);
            TL_EQU(&c, col.v[i].it.u.gap.len, 24);
            TL_EQU(&c, col.v[i].it.u.gap.reason, TDEC_XRAY_R_OVERRUN);
        }
        TL_EQU(&c, k, 1);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_TYPED_EVENT), 1);
        t = nth_rec(&col, TDEC_XRAY_REC_TYPED_EVENT, 0);
        TL_TRUE(&c, t && t->it.u.rec.event_type == 1 && t->pay_len == 8 && memcmp(col.pay + t->pay_off, "type-one", 8) == 0,
                "typed event 'type-one'");
        coll_free(&col);
        decode(in->data, in->len, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_E_CORRUPT);
        TL_TRUE(&c, strstr(log_a, "E st=-6 off=230 reason=9 ") != NULL, "strict error not at 230 (R_OVERRUN)");
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray fdr-custom-event-zero-size: a custom event of size 0 and no fragment after it");
    if (TL_TRUE(&c, (in = find_input("fdr-custom-event-zero-size")) != NULL, "missing")) {
        decode(in->data, in->len, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        k = 0;
        for (i = 0; (t = nth_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT, i)) != NULL; i++)
            if (t->it.u.rec.payload_size == 0) {
                k++;
                TL_EQU(&c, t->nfrag, 0);
            }
        TL_TRUE(&c, k >= 1, "no zero-size custom event");
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray fdr-v1-synthetic: 5 PADDING records of zero bytes, END");
    if (TL_TRUE(&c, (in = find_input("fdr-v1-synthetic")) != NULL, "missing")) {
        decode(in->data, in->len, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_PADDING), 5);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_END_OF_BUFFER), 5);
        for (i = 0; (t = nth_rec(&col, TDEC_XRAY_REC_PADDING, i)) != NULL; i++) {
            TL_EQU(&c, t->pay_len, t->it.u.rec.payload_size);
            for (k = 0; k < t->pay_len; k++)
                if (!TL_TRUE(&c, col.pay[t->pay_off + k] == 0, "padding %zu byte %zu not zero", i, k)) break;
        }
        coll_free(&col);
    }
    tl_end(&c);

    /* The custom events leave the buffer tail at a length that is not a
       multiple of 8, where llvm-xray (parsing padding as records) loses sync. */
    tl_begin(&c, "xray fdr-v1-synthetic-oddpad: END with a PADDING record of 15908 bytes (not a multiple of 8)");
    if (TL_TRUE(&c, (in = find_input("fdr-v1-synthetic-oddpad")) != NULL, "missing")) {
        decode(in->data, in->len, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        k = 0;
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_PADDING), 1);
        t = nth_rec(&col, TDEC_XRAY_REC_PADDING, 0);
        TL_TRUE(&c, t && t->it.u.rec.payload_size == 15908 && t->it.offset == 508 && t->pay_len == 15908,
                "padding record");
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT), 7);
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray v4 custom events carry the CPU of their marker and an absolute TSC");
    {
        bld *b = (bld *)calloc(1, sizeof *b);
        mk_v4_event(b);
        decode(b->b, b->n, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        t = nth_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT, 0);
        TL_TRUE(&c, t != NULL, "no custom event");
        if (t) {
            TL_EQU(&c, t->it.offset, b->mark);
            TL_EQU(&c, t->it.u.rec.cpu, 6);  /* the marker's, not the block's 2 */
            TL_EQU(&c, t->it.u.rec.tsc, 99); /* absolute */
            TL_TRUE(&c, t->pay_len == 5 && memcmp(col.pay + t->pay_off, "world", 5) == 0, "payload");
        }
        /* the base stays: the exit after it is 77 + 10 + 10 */
        t = nth_rec(&col, TDEC_XRAY_REC_FUNCTION, 1);
        TL_TRUE(&c, t && t->it.u.rec.tsc == 97 && t->it.u.rec.cpu == 2, "exit after a v4 event: tsc/cpu");
        coll_free(&col);
        free(b);
    }
    if ((in = find_input("fdr-v4-synthetic")) != NULL) {
        decode(in->data, in->len, 0, &col, &r);
        t = nth_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT, 0);
        TL_TRUE(&c, t && t->it.u.rec.tsc == 3801616492940u && t->it.u.rec.cpu == 0, "fdr-v4-synthetic first event");
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray fdr-v2-synthetic: no PID records and pid 0 on every record");
    if (TL_TRUE(&c, (in = find_input("fdr-v2-synthetic")) != NULL, "missing")) {
        decode(in->data, in->len, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        TL_EQU(&c, col.hdr.version, 2);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_PID), 0);
        for (i = 0; i < col.n; i++)
            if (col.v[i].it.kind == TDEC_ITEM_RECORD && !TL_EQU(&c, col.v[i].it.u.rec.pid, 0)) break;
        TL_TRUE(&c, count_rec(&col, TDEC_XRAY_REC_FUNCTION) > 100, "few function records");
        coll_free(&col);
    }
    tl_end(&c);

    tl_begin(&c, "xray hand-made v5 log: every record kind, times rebuilt from deltas");
    {
        bld *b = (bld *)calloc(1, sizeof *b);
        mk_v5_all(b);
        decode(b->b, b->n, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_BUFFER_EXTENTS), 2);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_FUNCTION), 5);
        t = nth_rec(&col, TDEC_XRAY_REC_CUSTOM_EVENT, 0);
        TL_TRUE(&c, t && t->it.u.rec.tsc == 1015 && t->it.u.rec.delta == 10 && t->pay_len == 5, "v5 custom event");
        t = nth_rec(&col, TDEC_XRAY_REC_TYPED_EVENT, 0);
        TL_TRUE(&c, t && t->it.u.rec.tsc == 1019 && t->it.u.rec.event_type == 9 && t->pay_len == 3, "typed event");
        t = nth_rec(&col, TDEC_XRAY_REC_FUNCTION, 2); /* after TSCWrap 5000 */
        TL_TRUE(&c, t && t->it.u.rec.tsc == 5003 && t->it.u.rec.action == TDEC_XRAY_EXIT, "exit after wrap");
        t = nth_rec(&col, TDEC_XRAY_REC_FUNCTION, 4); /* next block */
        TL_TRUE(&c, t && t->it.u.rec.tsc == 9007 && t->it.u.rec.tid == 12 && t->it.u.rec.pid == 4242 &&
                        t->it.u.rec.cpu == 1, "second block");
        t = nth_rec(&col, TDEC_XRAY_REC_WALLTIME, 0);
        TL_TRUE(&c, t && t->it.u.rec.wall_sec == 1555 && t->it.u.rec.wall_usec == 123456, "wall time");
        coll_free(&col);
        free(b);
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* hostile inputs                                                      */

#define OFF_END  (-1) /* the input's length */
#define OFF_MARK (-2) /* the builder's mark */

static void h_custom_huge_small(bld *b)
{
    b_v5_entry(b);
    b_mark(b);
    b_custom5(b, 0x7FFFFFFFu, 1);
    b_str(b, "payload!");
    b_ext_end(b);
}
static void h_custom_huge_extents(bld *b)
{
    b_hdr(b, 5, 1, 16384);
    b_meta64(b, 7, UINT64_MAX);
    b_meta32(b, 0, 1);
    b_wall(b, 0, 0);
    b_meta32(b, 9, 1);
    b_cpu(b, 0, 0);
    b_mark(b);
    b_custom5(b, 0x7FFFFFFFu, 1);
    b_fill(b, 'x', 100);
}
static void h_event_size(bld *b, unsigned kind, uint32_t size)
{
    b_v5_entry(b);
    b_mark(b);
    if (kind == 5) b_custom5(b, size, 1); else b_typed(b, size, 1, 3);
    b_fill(b, 'y', 8);
    b_ext_end(b);
}
static void h_custom_m1(bld *b) { h_event_size(b, 5, 0xFFFFFFFFu); }
static void h_custom_min(bld *b) { h_event_size(b, 5, 0x80000000u); }
static void h_typed_m1(bld *b) { h_event_size(b, 8, 0xFFFFFFFFu); }
static void h_typed_min(bld *b) { h_event_size(b, 8, 0x80000000u); }
static void h_extents_past_eof(bld *b)
{
    b_v5_entry(b);
    b_ext_end(b);
    b->b[b->ext + 1] = (uint8_t)(b->b[b->ext + 1] + 100);
}
static void h_extents_max(bld *b)
{
    b_hdr(b, 5, 1, 16384);
    b_meta64(b, 7, UINT64_MAX);
    b_meta32(b, 0, 1);
    b_fn(b, 0, 1, 0);
}
static void h_hdr_fdr0(bld *b) { b_hdr(b, 0, 1, 16384); }
static void h_hdr_fdr6(bld *b) { b_hdr(b, 6, 1, 16384); }
static void h_hdr_basic0(bld *b) { b_hdr(b, 0, 0, 0); }
static void h_hdr_basic4(bld *b) { b_hdr(b, 4, 0, 0); }
static void h_hdr_type2(bld *b) { b_hdr(b, 3, 2, 0); }
static void h_hdr_v1_size0(bld *b) { b_hdr(b, 1, 1, 0); b_meta32(b, 0, 1); }
static void h_swapped_sample(bld *b)
{
    const input *in = find_input("fdr-args");
    static const unsigned fields[][2] = {{0, 2}, {2, 2}, {4, 4}, {8, 8}, {16, 8}};
    size_t i, k;
    if (in == NULL || in->len > sizeof b->b) return;
    memcpy(b->b, in->data, in->len);
    b->n = in->len;
    for (i = 0; i < 5; i++) /* each header field byte-reversed, as a big-endian producer writes it */
        for (k = 0; k < fields[i][1] / 2; k++) {
            uint8_t t = b->b[fields[i][0] + k];
            b->b[fields[i][0] + k] = b->b[fields[i][0] + fields[i][1] - 1 - k];
            b->b[fields[i][0] + fields[i][1] - 1 - k] = t;
        }
}
static void h_eob_v5(bld *b)
{
    b_v5_entry(b);
    b_mark(b);
    b_meta0(b, 1);
    b_fn(b, 1, 1, 5);
    b_ext_end(b);
}
static void h_junk_between(bld *b)
{
    b_v5_entry(b);
    b_ext_end(b);
    b_mark(b);
    b_str(b, "\xaa\xbb");
    b_fill(b, 0, 3);
    b_block(b, 2, 0, 0);
    b_fn(b, 1, 1, 0);
    b_ext_end(b);
}
static void h_trailing_junk(bld *b)
{
    b_v5_entry(b);
    b_ext_end(b);
    b_mark(b);
    b_fill(b, 0xEE, 5);
}
static void h_event10(bld *b)
{
    b_v5_block(b);
    b_mark(b);
    b_custom5(b, 10, 1);
    b_str(b, "0123456789");
    b_ext_end(b);
}
static void h_fdr_only(bld *b) { b_hdr(b, 5, 1, 16384); }
static void h_basic_only(bld *b) { b_hdr(b, 3, 0, 0); }
static void h_empty(bld *b) { (void)b; }
static void h_fn_past_buffer(bld *b)
{
    b_v5_entry(b);
    b_ext_end(b);
    b->b[b->ext + 1] = (uint8_t)(b->b[b->ext + 1] - 4); /* the buffer ends inside the last record */
    b->n -= 4;
    b->mark = b->n - 4;
    b_block(b, 2, 0, 0);
    b_ext_end(b);
}
static void h_basic_bad_arg(bld *b)
{
    b_hdr(b, 3, 0, 0);
    b_basic(b, 3, 4, 10, 55);
    b_mark(b);
    b_basic_arg(b, 5, 55, 1); /* another function */
}
static void h_basic_type2(bld *b)
{
    b_hdr(b, 3, 0, 0);
    b_mark(b);
    b_u16(b, 2);
    b_fill(b, 0x33, 30);
}
static void h_basic_kind5(bld *b)
{
    b_hdr(b, 2, 0, 0);
    b_mark(b);
    b_basic(b, 5, 1, 10, 55);
}

static const struct hostile {
    const char *name;
    build_fn    build;
    uint32_t    flags;
    uint64_t    max_payload;
    tdec_status st;
    int         err_off;    /* OFF_END, OFF_MARK or a literal offset (errors only) */
    uint32_t    reason;     /* err_reason (errors only) */
    uint32_t    gap_reason; /* 0: no gap item; else exactly one gap, at the mark */
    int         gap_len;    /* -1: to the end of the buffer that holds the mark */
    int         items;      /* exact item count, or -1 */
} hostile[] = {
#define S TDEC_XRAY_F_STRICT
#define K TDEC_XRAY_F_SKIP_PAYLOADS
    {"custom event size 2^31-1 in a small buffer", h_custom_huge_small, 0, 0, TDEC_END, 0, 0, TDEC_XRAY_R_OVERRUN, 24, -1},
    {"custom event size 2^31-1 in a small buffer", h_custom_huge_small, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_OVERRUN, 0, 0, -1},
    {"custom event size 2^31-1, extents 2^64-1 (streams to EOF)", h_custom_huge_extents, 0, 0, TDEC_E_TRUNCATED, OFF_END, TDEC_XRAY_R_PAYLOAD, 0, 0, -1},
    {"custom event size 2^31-1, extents 2^64-1 (streams to EOF)", h_custom_huge_extents, K, 0, TDEC_E_TRUNCATED, OFF_END, TDEC_XRAY_R_PAYLOAD, 0, 0, 7},
    {"custom event size -1", h_custom_m1, 0, 0, TDEC_END, 0, 0, TDEC_XRAY_R_EVENT_SIZE, 24, -1},
    {"custom event size -1", h_custom_m1, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_EVENT_SIZE, 0, 0, -1},
    {"custom event size INT32_MIN", h_custom_min, 0, 0, TDEC_END, 0, 0, TDEC_XRAY_R_EVENT_SIZE, 24, -1},
    {"custom event size INT32_MIN", h_custom_min, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_EVENT_SIZE, 0, 0, -1},
    {"typed event size -1", h_typed_m1, 0, 0, TDEC_END, 0, 0, TDEC_XRAY_R_EVENT_SIZE, 24, -1},
    {"typed event size -1", h_typed_m1, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_EVENT_SIZE, 0, 0, -1},
    {"typed event size INT32_MIN", h_typed_min, 0, 0, TDEC_END, 0, 0, TDEC_XRAY_R_EVENT_SIZE, 24, -1},
    {"typed event size INT32_MIN", h_typed_min, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_EVENT_SIZE, 0, 0, -1},
    {"extents beyond the end of the file", h_extents_past_eof, 0, 0, TDEC_E_TRUNCATED, OFF_END, TDEC_XRAY_R_BUFFER, 0, 0, -1},
    {"extents beyond the end of the file", h_extents_past_eof, S, 0, TDEC_E_TRUNCATED, OFF_END, TDEC_XRAY_R_BUFFER, 0, 0, -1},
    {"extents 2^64-1", h_extents_max, 0, 0, TDEC_E_TRUNCATED, OFF_END, TDEC_XRAY_R_BUFFER, 0, 0, 4},
    {"function record running past its buffer", h_fn_past_buffer, 0, 0, TDEC_END, 0, 0, TDEC_XRAY_R_OVERRUN, 4, -1},
    {"function record running past its buffer", h_fn_past_buffer, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_OVERRUN, 0, 0, -1},
    {"FDR version 0", h_hdr_fdr0, 0, 0, TDEC_E_VERSION, 0, TDEC_XRAY_R_VERSION, 0, 0, 0},
    {"FDR version 6", h_hdr_fdr6, 0, 0, TDEC_E_VERSION, 0, TDEC_XRAY_R_VERSION, 0, 0, 0},
    {"basic version 0", h_hdr_basic0, 0, 0, TDEC_E_VERSION, 0, TDEC_XRAY_R_VERSION, 0, 0, 0},
    {"basic version 4", h_hdr_basic4, 0, 0, TDEC_E_VERSION, 0, TDEC_XRAY_R_VERSION, 0, 0, 0},
    {"file type 2", h_hdr_type2, 0, 0, TDEC_E_FORMAT, 0, TDEC_XRAY_R_FILE_TYPE, 0, 0, 0},
    {"byte-swapped header of fdr-args", h_swapped_sample, 0, 0, TDEC_E_FORMAT, 0, TDEC_XRAY_R_BIG_ENDIAN, 0, 0, 0},
    {"v1 header with buffer size 0", h_hdr_v1_size0, 0, 0, TDEC_E_FORMAT, 0, TDEC_XRAY_R_BUFFER_SIZE, 0, 0, 0},
    {"EndOfBuffer in v5", h_eob_v5, 0, 0, TDEC_END, 0, 0, 0, 0, 9},
    {"EndOfBuffer in v5", h_eob_v5, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_END_OF_BUFFER, 0, 0, -1},
    {"junk between v5 buffers", h_junk_between, 0, 0, TDEC_END, 0, 0, TDEC_XRAY_R_JUNK, 5, 14},
    {"junk between v5 buffers", h_junk_between, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_JUNK, 0, 0, -1},
    {"trailing junk", h_trailing_junk, 0, 0, TDEC_E_TRUNCATED, OFF_MARK, TDEC_XRAY_R_JUNK, 0, 0, 7},
    {"trailing junk", h_trailing_junk, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_JUNK, 0, 0, 7},
    {"max_payload 9 below a 10-byte event", h_event10, 0, 9, TDEC_E_LIMIT, OFF_MARK, TDEC_XRAY_R_LIMIT, 0, 0, 6},
    {"max_payload 10 for a 10-byte event", h_event10, 0, 10, TDEC_END, 0, 0, 0, 0, 8},
    {"header-only FDR file", h_fdr_only, S, 0, TDEC_END, 0, 0, 0, 0, 1},
    {"header-only basic file", h_basic_only, S, 0, TDEC_END, 0, 0, 0, 0, 1},
    {"empty input", h_empty, 0, 0, TDEC_E_TRUNCATED, 0, TDEC_XRAY_R_HEADER, 0, 0, 0},
    {"basic argument record of another function", h_basic_bad_arg, 0, 0, TDEC_END, 0, 0, 0, 0, 3},
    {"basic argument record of another function", h_basic_bad_arg, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_BASIC_ARG, 0, 0, -1},
    {"basic record type 2", h_basic_type2, 0, 0, TDEC_END, 0, 0, 0, 0, 2},
    {"basic record type 2", h_basic_type2, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_BASIC_TYPE, 0, 0, -1},
    {"basic kind 5", h_basic_kind5, 0, 0, TDEC_END, 0, 0, 0, 0, 2},
    {"basic kind 5", h_basic_kind5, S, 0, TDEC_E_CORRUPT, OFF_MARK, TDEC_XRAY_R_ACTION, 0, 0, -1},
#undef S
#undef K
};

/* Decodes what was fed; returns the first status that is not TDEC_OK. */
static tdec_status drain(tdec_xray_decoder *d, size_t *items)
{
    tdec_xray_item it;
    tdec_status st;
    while ((st = tdec_xray_next(d, &it)) == TDEC_OK)
        if (items) (*items)++;
    return st;
}

/* Runs one hand-made input whole, one byte at a time and in every split;
   1 if all agree. */
static int chunk_invariant(tl_case *c, const uint8_t *data, size_t len, const tdec_xray_config *cfg)
{
    xc_run ref, r;
    cc_plan plan;
    size_t runs = 0;
    const char *bad;
    memset(&ref, 0, sizeof ref);
    ref.cfg = *cfg;
    ref.cc.log = log_a;
    ref.cc.log_cap = LOG_CAP;
    bad = xc_decode(data, len, &ref.cc);
    if (!TL_TRUE(c, bad == NULL, "whole: %s", bad ? bad : "")) return 0;
    r = ref;
    r.cc.log = log_b;
    memset(&plan, 0, sizeof plan);
    plan.bytewise = 1;
    plan.split_stride = 1;
    bad = cc_schedules(xc_decode, &ref.cc, &r.cc, data, len, &plan, stdout, &runs);
    return TL_TRUE(c, bad == NULL, "%s", bad ? bad : "");
}

/* A basic argument record after a record of another call (the runtime
   dropped its own call) is flagged NO_CALL, with no time or CPU; those of
   the basic-mode sample follow their calls and are not. */
static void test_basic_no_call(void)
{
    bld *b = (bld *)calloc(1, sizeof *b);
    const input *in = find_input("basic-mode");
    const tdec_xray_record *arg;
    size_t i, args = 0;
    coll col;
    xc_run r;
    tl_case c;

    tl_begin(&c, "xray basic argument record without its call: flags NO_CALL, tsc and cpu 0");
    h_basic_bad_arg(b);
    decode(b->b, b->n, 0, &col, &r);
    TL_EQI(&c, r.cc.status, TDEC_END);
    if (TL_TRUE(&c, col.n == 3, "%zu items", col.n)) {
        arg = &col.v[2].it.u.rec;
        TL_EQU(&c, arg->type, TDEC_XRAY_REC_CALL_ARG);
        TL_EQU(&c, arg->flags, TDEC_XRAY_RF_NO_CALL);
        TL_EQU(&c, arg->fid, 5);
        TL_EQU(&c, arg->tsc, 0);
        TL_EQU(&c, arg->cpu, 0);
        TL_EQU(&c, arg->value, 1);
        TL_EQU(&c, col.v[1].it.u.rec.flags, 0);
    }
    coll_free(&col);
    tl_end(&c);
    free(b);

    tl_begin(&c, "xray basic-mode sample: every argument record follows its call (flags 0, tsc set)");
    if (TL_TRUE(&c, in != NULL, "sample missing")) {
        decode(in->data, in->len, 0, &col, &r);
        for (i = 0; i < col.n && !c.bad; i++) {
            arg = &col.v[i].it.u.rec;
            if (col.v[i].it.kind != TDEC_ITEM_RECORD || arg->type != TDEC_XRAY_REC_CALL_ARG) continue;
            args++;
            TL_EQU(&c, arg->flags, 0);
            TL_TRUE(&c, arg->tsc != 0, "argument record at %llu without tsc", (unsigned long long)col.v[i].it.offset);
        }
        TL_TRUE(&c, args > 0, "no argument records");
        coll_free(&col);
    }
    tl_end(&c);
}

static void test_hostile(void)
{
    size_t i, j, gaps;
    tl_case c;
    coll col;
    xc_run r;
    tdec_xray_config cfg;
    tdec_xray_decoder d;
    bld *b = (bld *)malloc(sizeof *b);
    const char *bad;

    for (i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        const struct hostile *h = &hostile[i];
        memset(b, 0, sizeof *b);
        h->build(b);
        tl_begin(&c, "xray hostile: %s [%s%s] gives %s", h->name,
                 h->flags & TDEC_XRAY_F_STRICT ? "strict" : "lenient",
                 h->flags & TDEC_XRAY_F_SKIP_PAYLOADS ? ", skip payloads" : "", tdec_status_str(h->st));
        memset(&r, 0, sizeof r);
        memset(&col, 0, sizeof col);
        r.cfg.flags = h->flags;
        r.cfg.max_payload = h->max_payload;
        r.on_item = coll_item;
        r.ctx = &col;
        r.cc.log = log_a;
        r.cc.log_cap = LOG_CAP;
        bad = xc_decode(b->b, b->n, &r.cc);
        TL_TRUE(&c, bad == NULL, "%s", bad ? bad : "");
        TL_EQI(&c, r.cc.status, h->st);
        /* err_offset/err_reason from the log's last line ("E st= off= reason=") */
        if (h->st < 0) {
            char want[96];
            uint64_t off = h->err_off == OFF_END ? b->n : h->err_off == OFF_MARK ? b->mark : (uint64_t)h->err_off;
            snprintf(want, sizeof want, "E st=%d off=%llu reason=%u ", h->st, (unsigned long long)off,
                     (unsigned)h->reason);
            TL_TRUE(&c, strstr(log_a, want) != NULL, "expected \"%s\" in the log", want);
        }
        gaps = 0;
        for (j = 0; j < col.n; j++) {
            if (col.v[j].it.kind != TDEC_ITEM_GAP) continue;
            gaps++;
            TL_EQU(&c, col.v[j].it.u.gap.reason, h->gap_reason);
            TL_EQU(&c, col.v[j].it.offset, b->mark);
            TL_EQU(&c, col.v[j].it.u.gap.len, (unsigned)h->gap_len);
        }
        TL_EQU(&c, gaps, h->gap_reason ? 1 : 0);
        if (h->items >= 0) TL_EQU(&c, col.n + col.nfrag, (unsigned)h->items);
        if (h->flags & TDEC_XRAY_F_SKIP_PAYLOADS) TL_EQU(&c, col.nfrag, 0);
        coll_free(&col);
        cfg = r.cfg;
        if (!c.bad) chunk_invariant(&c, b->b, b->n, &cfg);
        tl_end(&c);
    }

    /* unknown metadata kinds: lenient UNKNOWN record with the raw bytes */
    tl_begin(&c, "xray hostile: metadata kinds 10..127 (lenient UNKNOWN with raw bytes, strict E_CORRUPT)");
    for (i = 10; i <= 127 && !c.bad; i++) {
        memset(b, 0, sizeof *b);
        b_v5_block(b);
        b_mark(b);
        j = b_meta(b, (unsigned)i);
        b_str(b, "raw-bytes-here");
        b_pad(b, j);
        b_fn(b, 0, 1, 0);
        b_ext_end(b);
        decode(b->b, b->n, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        {
            const titem *t = nth_rec(&col, TDEC_XRAY_REC_UNKNOWN, 0);
            TL_TRUE(&c, t && t->it.offset == b->mark && (size_t)t->it.u.rec.meta_kind == i && t->it.u.rec.raw_len == 16 &&
                            memcmp(t->it.u.rec.raw, b->b + b->mark, 16) == 0,
                    "kind %zu: UNKNOWN record", i);
        }
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_FUNCTION), 1);
        coll_free(&col);
        decode(b->b, b->n, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_E_CORRUPT);
        coll_free(&col);
        cfg.flags = TDEC_XRAY_F_STRICT;
        cfg.max_fragment = 0;
        cfg.max_payload = 0;
        tdec_xray_init(&d, &cfg);
        tdec_xray_feed(&d, b->b, b->n);
        {
            tdec_xray_item it;
            tdec_status st;
            while ((st = tdec_xray_next(&d, &it)) == TDEC_OK) {}
            TL_EQI(&c, st, TDEC_E_CORRUPT);
            TL_EQU(&c, d.st.err_offset, b->mark);
            TL_EQU(&c, d.st.err_reason, TDEC_XRAY_R_META_KIND);
        }
        if (i == 10 || i == 127) {
            cfg.flags = 0;
            chunk_invariant(&c, b->b, b->n, &cfg);
        }
    }
    tl_end(&c);

    tl_begin(&c, "xray hostile: function actions 4..7 (lenient passed through, strict E_CORRUPT)");
    for (i = 4; i <= 7 && !c.bad; i++) {
        memset(b, 0, sizeof *b);
        b_hdr(b, 5, 1, 16384);
        b_block(b, 1, 0, 100);
        b_mark(b);
        b_fn(b, (unsigned)i, 9, 5);
        b_ext_end(b);
        decode(b->b, b->n, 0, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_END);
        {
            const titem *t = nth_rec(&col, TDEC_XRAY_REC_FUNCTION, 0);
            TL_TRUE(&c, t && t->it.u.rec.action == i && t->it.u.rec.fid == 9 && t->it.u.rec.tsc == 105,
                    "action %zu passed through", i);
        }
        coll_free(&col);
        decode(b->b, b->n, TDEC_XRAY_F_STRICT, &col, &r);
        TL_EQI(&c, r.cc.status, TDEC_E_CORRUPT);
        {
            char want[64];
            snprintf(want, sizeof want, "E st=-6 off=%zu reason=%u ", b->mark, (unsigned)TDEC_XRAY_R_ACTION);
            TL_TRUE(&c, strstr(log_a, want) != NULL, "expected \"%s\"", want);
        }
        coll_free(&col);
    }
    tl_end(&c);

    /* A 2^31-1 byte payload streamed with SKIP_PAYLOADS in 64 KiB chunks:
       no items, constant state, pos advances. */
    tl_begin(&c, "xray hostile: 2^31-1 byte custom event skipped in constant state (1 MiB fed)");
    {
        static uint8_t zeros[65536];
        tdec_xray_item it;
        tdec_status st;
        size_t items = 0, k;
        memset(b, 0, sizeof *b);
        h_custom_huge_extents(b);
        b->n = b->mark + 16; /* up to the payload */
        cfg.flags = TDEC_XRAY_F_SKIP_PAYLOADS;
        cfg.max_fragment = 0;
        cfg.max_payload = 0;
        tdec_xray_init(&d, &cfg);
        st = tdec_xray_feed(&d, b->b, b->n);
        while ((st = tdec_xray_next(&d, &it)) == TDEC_OK) items++;
        TL_EQU(&c, items, 7);
        for (k = 0; k < 16 && st == TDEC_NEED_INPUT; k++) {
            st = tdec_xray_feed(&d, zeros, sizeof zeros);
            if (st == TDEC_NEED_INPUT) st = tdec_xray_next(&d, &it);
        }
        TL_EQI(&c, st, TDEC_NEED_INPUT);
        TL_EQU(&c, d.st.pos, b->n + 16 * sizeof zeros);
        TL_EQU(&c, d.st.carry_len, 0);
        TL_EQI(&c, tdec_xray_finish(&d), TDEC_E_TRUNCATED);
        TL_EQU(&c, d.st.err_offset, b->n + 16 * sizeof zeros);
    }
    tl_end(&c);

    /* resync after a strict error: a RESYNC gap, then the next buffer */
    tl_begin(&c, "xray resync after a strict E_CORRUPT: RESYNC gap, then the next buffer's records");
    {
        tdec_xray_item it;
        size_t second_ext, items = 0;
        memset(b, 0, sizeof *b);
        b_v5_block(b);
        b_mark(b);
        b_meta0(b, 12); /* unknown kind: the strict error */
        b_fn(b, 0, 1, 0);
        b_ext_end(b);
        second_ext = b->n;
        b_block(b, 2, 0, 50);
        b_fn(b, 0, 3, 1);
        b_ext_end(b);
        cfg.flags = TDEC_XRAY_F_STRICT;
        cfg.max_fragment = 0;
        cfg.max_payload = 0;
        tdec_xray_init(&d, &cfg);
        tdec_xray_feed(&d, b->b, b->n);
        TL_EQI(&c, drain(&d, NULL), TDEC_E_CORRUPT);
        TL_EQU(&c, d.st.err_offset, b->mark);
        TL_EQI(&c, tdec_xray_resync(&d), TDEC_NEED_INPUT);
        TL_EQI(&c, d.st.err, TDEC_OK);
        TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.kind == TDEC_ITEM_GAP && it.u.gap.reason == TDEC_XRAY_R_RESYNC && it.offset == b->mark &&
                        it.u.gap.len == second_ext - b->mark,
                "first item after resync: kind %u offset %llu", (unsigned)it.kind, (unsigned long long)it.offset);
        TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.kind == TDEC_ITEM_RECORD && it.u.rec.type == TDEC_XRAY_REC_BUFFER_EXTENTS &&
                        it.offset == second_ext, "then the second buffer's extents");
        TL_EQI(&c, drain(&d, &items), TDEC_NEED_INPUT);
        TL_EQU(&c, items, 5); /* NewBuffer, WallTime, Pid, NewCPUId, the function */
        TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);

        /* A tag inside the failed record: the scan after resync must find it
           whether the record was carried across a split or not. The false
           extents (size 0) end 5 bytes after the record; the real second
           buffer follows. */
        memset(b, 0, sizeof *b);
        b_v5_block(b);
        b_mark(b);
        b_u8(b, 12u << 1 | 1u);
        b_fill(b, 0, 4);
        b_u8(b, 0x0F);
        b_fill(b, 0, 10); /* byte 5: the tag; bytes 6..13: extents size 0 */
        b_fill(b, 0, 5);
        b_ext_end(b);
        second_ext = b->n;
        b_block(b, 2, 0, 50);
        b_fn(b, 0, 3, 1);
        b_ext_end(b);
        memset(&r, 0, sizeof r);
        memset(&col, 0, sizeof col);
        r.cfg.flags = TDEC_XRAY_F_STRICT;
        r.resync = 1;
        r.on_item = coll_item;
        r.ctx = &col;
        r.cc.log = log_a;
        r.cc.log_cap = LOG_CAP;
        bad = xc_decode(b->b, b->n, &r.cc);
        TL_TRUE(&c, bad == NULL, "%s", bad ? bad : "");
        TL_EQI(&c, r.cc.status, TDEC_END);
        TL_EQU(&c, count_gaps(&col, TDEC_XRAY_R_RESYNC), 1);
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_BUFFER_EXTENTS), 3);
        TL_TRUE(&c, nth_rec(&col, TDEC_XRAY_REC_BUFFER_EXTENTS, 1) &&
                        nth_rec(&col, TDEC_XRAY_REC_BUFFER_EXTENTS, 1)->it.offset == b->mark + 5 &&
                        nth_rec(&col, TDEC_XRAY_REC_BUFFER_EXTENTS, 2)->it.offset == second_ext,
                "false and real extents");
        TL_EQU(&c, count_rec(&col, TDEC_XRAY_REC_FUNCTION), 1);
        coll_free(&col);
        {
            xc_run ref, rr;
            cc_plan plan;
            size_t runs = 0;
            ref = r;
            ref.on_item = NULL;
            bad = xc_decode(b->b, b->n, &ref.cc);
            rr = ref;
            rr.cc.log = log_b;
            memset(&plan, 0, sizeof plan);
            plan.split_stride = 1;
            if (bad == NULL) bad = cc_schedules(xc_decode, &ref.cc, &rr.cc, b->b, b->n, &plan, stdout, &runs);
            TL_TRUE(&c, bad == NULL, "resync with a split: %s", bad ? bad : "");
        }
    }
    tl_end(&c);
    free(b);
}

/* ------------------------------------------------------------------ */
/* API misuse                                                          */

static void test_api(void)
{
    const input *in = find_input("fdr-args");
    tdec_xray_decoder d, copy;
    tdec_xray_item it;
    tdec_xray_config cfg;
    size_t n1 = 0, n2 = 0;
    uint64_t off;
    tl_case c;
    static const uint8_t v6[32] = {6, 0, 1, 0};
    bld *b = (bld *)calloc(1, sizeof *b);

    if (in == NULL) {
        tl_begin(&c, "xray API tests need fdr-args");
        TL_TRUE(&c, 0, "missing sample");
        tl_end(&c);
        free(b);
        return;
    }

    tl_begin(&c, "xray API: NULL decoder/item/data give E_ARG and change nothing");
    TL_EQI(&c, tdec_xray_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_xray_feed(NULL, in->data, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_xray_next(NULL, &it), TDEC_E_ARG);
    TL_EQI(&c, tdec_xray_finish(NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_xray_resync(NULL), TDEC_E_ARG);
    tdec_xray_reset(NULL);
    tdec_xray_init(&d, NULL);
    tdec_xray_feed(&d, in->data, 40);
    drain(&d, NULL);
    memcpy(&copy, &d, sizeof d);
    TL_EQI(&c, tdec_xray_next(&d, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_xray_feed(&d, NULL, 5), TDEC_E_ARG);
    TL_TRUE(&c, memcmp(&copy, &d, sizeof d) == 0, "decoder changed");
    TL_EQI(&c, tdec_xray_parse_header(NULL, 32, NULL, NULL), TDEC_E_ARG);
    tl_end(&c);

    tl_begin(&c, "xray API: feed while the window is not used up is E_SEQUENCE, not sticky");
    tdec_xray_init(&d, NULL);
    TL_EQI(&c, tdec_xray_feed(&d, in->data, in->len), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_OK); /* the header; the window holds more */
    memcpy(&copy, &d, sizeof d);
    TL_EQI(&c, tdec_xray_feed(&d, in->data, in->len), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_E_SEQUENCE);
    TL_TRUE(&c, memcmp(&copy, &d, sizeof d) == 0, "decoder changed");
    TL_EQI(&c, drain(&d, &n1), TDEC_NEED_INPUT);
    n1++; /* the header */
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);
    tl_end(&c);

    tl_begin(&c, "xray API: after END: next END, finish END, feed E_SEQUENCE");
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_END);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_xray_feed(&d, in->data, 4), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_END);
    TL_EQI(&c, tdec_xray_resync(&d), TDEC_E_NOSYNC);
    tl_end(&c);

    tl_begin(&c, "xray API: errors are sticky in next, feed and finish");
    tdec_xray_init(&d, NULL);
    tdec_xray_feed(&d, v6, sizeof v6);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_E_VERSION);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_E_VERSION);
    TL_EQI(&c, tdec_xray_feed(&d, in->data, 4), TDEC_E_VERSION);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_E_VERSION);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_E_VERSION);
    TL_EQI(&c, d.st.err, TDEC_E_VERSION);
    TL_EQU(&c, d.st.err_offset, 0);
    TL_EQI(&c, tdec_xray_resync(&d), TDEC_E_NOSYNC); /* no header: nothing to sync on */
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_E_VERSION);
    tl_end(&c);

    tl_begin(&c, "xray API: finish twice gives the same result (END; E_TRUNCATED with the same offset)");
    tdec_xray_init(&d, NULL);
    tdec_xray_feed(&d, in->data, in->len);
    drain(&d, NULL);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);
    tdec_xray_init(&d, NULL);
    tdec_xray_feed(&d, in->data, 100);
    drain(&d, NULL);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_E_TRUNCATED);
    off = d.st.err_offset;
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_E_TRUNCATED);
    TL_EQU(&c, d.st.err_offset, off);
    TL_EQI(&c, tdec_xray_resync(&d), TDEC_E_NOSYNC); /* the stream is over */
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_E_TRUNCATED);
    /* trailing junk: err_offset is the junk's start, also on a second finish */
    h_trailing_junk(b);
    tdec_xray_init(&d, NULL);
    tdec_xray_feed(&d, b->b, b->n);
    drain(&d, NULL);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_E_TRUNCATED);
    TL_EQU(&c, d.st.err_offset, b->mark);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_E_TRUNCATED);
    TL_EQU(&c, d.st.err_offset, b->mark);
    tl_end(&c);

    tl_begin(&c, "xray API: reset() gives a usable decoder and keeps the config");
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = TDEC_XRAY_F_STRICT;
    memset(b, 0, sizeof *b);
    h_eob_v5(b);
    tdec_xray_init(&d, &cfg);
    tdec_xray_feed(&d, b->b, b->n);
    TL_EQI(&c, drain(&d, NULL), TDEC_E_CORRUPT);
    tdec_xray_reset(&d);
    TL_EQI(&c, d.st.err, TDEC_OK);
    tdec_xray_feed(&d, b->b, b->n);
    TL_EQI(&c, drain(&d, NULL), TDEC_E_CORRUPT); /* still strict */
    tdec_xray_reset(&d);
    tdec_xray_feed(&d, in->data, in->len);
    n2 = 0;
    TL_EQI(&c, drain(&d, &n2), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);
    TL_EQU(&c, n2, n1);
    tl_end(&c);

    tl_begin(&c, "xray API: init with a NULL config decodes with defaults (lenient)");
    tdec_xray_init(&d, NULL);
    tdec_xray_feed(&d, b->b, b->n); /* EndOfBuffer in v5: tolerated by default */
    TL_EQI(&c, drain(&d, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);
    TL_EQU(&c, d.cfg.max_payload, 0x7FFFFFFFu);
    tl_end(&c);

    tl_begin(&c, "xray API: feed(len=0) is harmless (also with NULL data)");
    tdec_xray_init(&d, NULL);
    TL_EQI(&c, tdec_xray_feed(&d, in->data, 0), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_feed(&d, NULL, 0), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_feed(&d, in->data, in->len), TDEC_NEED_INPUT);
    n2 = 0;
    TL_EQI(&c, drain(&d, &n2), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_feed(&d, in->data, 0), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xray_finish(&d), TDEC_END);
    TL_EQU(&c, n2, n1);
    tl_end(&c);

    tl_begin(&c, "xray API: resync on a basic or v1 log is E_NOSYNC and the error stays");
    memset(b, 0, sizeof *b);
    h_basic_type2(b);
    tdec_xray_init(&d, &cfg); /* strict */
    tdec_xray_feed(&d, b->b, b->n);
    TL_EQI(&c, drain(&d, NULL), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_xray_resync(&d), TDEC_E_NOSYNC);
    TL_EQI(&c, tdec_xray_next(&d, &it), TDEC_E_CORRUPT);
    tl_end(&c);

    tl_begin(&c, "xray API: every status and reason has a text");
    {
        int s;
        uint32_t k;
        for (s = TDEC_E_NOSYNC; s <= TDEC_END; s++)
            TL_TRUE(&c, strcmp(tdec_status_str((tdec_status)s), "unknown status") != 0 &&
                            tdec_status_str((tdec_status)s)[0],
                    "status %d", s);
        for (k = TDEC_XRAY_R_NONE; k <= TDEC_XRAY_R_RESYNC; k++)
            TL_TRUE(&c, strcmp(tdec_xray_reason_str(k), "unknown reason") != 0, "reason %u", (unsigned)k);
    }
    tl_end(&c);
    free(b);
}

/* ------------------------------------------------------------------ */

int main(void)
{
    size_t i, j, nsamples;
    tl_case c;

    quick = tl_quick();
    load_samples();
    nsamples = ninputs;
    tl_begin(&c, "xray samples found in " DATA_DIR);
    TL_TRUE(&c, nsamples >= 18, "only %zu samples", nsamples);
    tl_end(&c);
    add_handmade();

    tl_sizeof_tdec_xray_decoder();
    tl_sizeof_tdec_xray_item();
    test_ending();
    for (i = 0; i < ninputs; i++)
        for (j = 0; j < sizeof cfgs / sizeof cfgs[0]; j++) test_chunk_invariance(&inputs[i], &cfgs[j]);
    for (i = 0; i < ninputs; i++) test_prefixes(&inputs[i]);
    test_prefix_by_hand();
    test_content();
    for (i = 0; i < nsamples; i++)
        if (strncmp(inputs[i].name, "fdr-", 4) == 0) test_fdr_yaml(&inputs[i]);
    test_basic_yaml();
    test_hostile();
    test_basic_no_call();
    test_api();

    for (i = 0; i < ninputs; i++) free(inputs[i].data);
    printf("%d passed, %d failed\n", tl_passed, tl_failed);
    return tl_exit_code();
}
