/* xtrace.c - unit tests of single/tdec_xtrace.h. SPEC =
   ../shared/formats/xtrace/SPEC.md (the format, byte by byte); the API
   contract is the header's top comment and declarations.

   Sections:
     1. hand-written vectors: literal bytes derived from SPEC's tables, with
        the exact records expected; the encoder (tests/gen/xtrace_encoder.h,
        written from SPEC alone) must produce the same bytes;
     2. PC reconstruction and ownership of the non-instruction tokens;
     3. round trips through the encoder: every token kind, seeded random
        mixes, a stream of 1,000,000 tokens, snapshots at every VL;
     4. chunk invariance; 5. every prefix; 6. hostile and edge inputs, API
        misuse; 7. file names.

   Every decode goes through the oracle, tests/lib/xtrace_check.h, which
   checks each item against its own reference walk of the input as it goes
   (chunk invariance and every prefix are its runners, in
   tests/lib/check_common.h). Expected records come from a model (struct
   model) that encodes a stream through the encoder and writes down, from
   SPEC, what a reader must report for it. */
#define TDEC_XTRACE_IMPLEMENTATION
#include "tests/lib/xtrace_check.h"
#include "tests/lib/testlib.h"
#include "tests/gen/xtrace_encoder.h"

#include <stdint.h>
#include <time.h>

static size_t quick = 1; /* TDEC_TEST_QUICK: stride multiplier (testlib.h) */

#define NOFF ((uint64_t)-1)

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

static uint64_t rdn(const uint8_t *p, unsigned n, int be)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++) v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

/* Test-private writer for the hand-made vectors (explicit offsets). */
static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
    unsigned i;
    for (i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 255u;
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#define FNV0 0xcbf29ce484222325ull

static uint64_t rec_hash(uint64_t h, uint64_t off, const tdec_xtrace_record *r)
{
    h = fnv(h, off);
    h = fnv(h, r->type);
    h = fnv(h, r->insn);
    h = fnv(h, (uint64_t)r->token | (uint64_t)r->flags << 8 | (uint64_t)r->el << 16 | (uint64_t)r->size_log2 << 24 |
                   (uint64_t)r->val_kind << 32 | (uint64_t)r->reg << 40 | (uint64_t)r->snap_split << 48 |
                   (uint64_t)r->snap_stream << 56);
    h = fnv(h, r->snap_time);
    h = fnv(h, r->index);
    h = fnv(h, r->pc);
    h = fnv(h, r->addr);
    h = fnv(h, r->value);
    h = fnv(h, r->value2);
    h = fnv(h, r->value3);
    h = fnv(h, r->data_len);
    return h;
}

static void rec_str(char *s, size_t cap, uint64_t off, const tdec_xtrace_record *r)
{
    snprintf(s, cap,
             "@%llu %s tok=%02x fl=%u el=%u idx=%llu pc=%llx insn=%08x addr=%llx val=%llx v2=%llx v3=%llx k=%u vk=%u "
             "reg=%u dl=%llu",
             (unsigned long long)off, tdec_xtrace_type_str(r->type), (unsigned)r->token, (unsigned)r->flags,
             (unsigned)r->el, (unsigned long long)r->index, (unsigned long long)r->pc, (unsigned)r->insn,
             (unsigned long long)r->addr, (unsigned long long)r->value, (unsigned long long)r->value2,
             (unsigned long long)r->value3, (unsigned)r->size_log2, (unsigned)r->val_kind, (unsigned)r->reg,
             (unsigned long long)r->data_len);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "test_xtrace: out of memory\n");
        abort();
    }
    return q;
}

static uint32_t rng32(uint64_t *s) /* splitmix64, top half */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (uint32_t)(z >> 32);
}
static uint64_t rng64(uint64_t *s) { return (uint64_t)rng32(s) << 32 | rng32(s); }

/* ------------------------------------------------------------------ */
/* the model: encodes through xtrace_encoder.h and writes down what     */
/* SPEC says a reader reports                                          */

typedef struct xrec {
    uint64_t           off;
    tdec_xtrace_record r;
    uint64_t           ready_lo, ready_hi; /* prefix lengths from which it may / must be out */
} xrec;

/* A stretch of input for the prefix verdicts: cutting before byte e
   (s <= cut < e) truncates the token at `tok`, inside the part at `part`;
   `payload`: fragment bytes (from s). */
typedef struct seg {
    uint64_t s, e, tok, part;
    int      payload;
} seg;

typedef struct model {
    xe_buf          b;
    uint32_t        kind, vl;
    int             be, iovec_data, hdr;
    unsigned        time_size;
    const uint32_t *token_size;
    /* the owning instruction */
    int      has_insn, pc_known;
    uint64_t index, pc, ninsn, nsnap;
    uint8_t  el;
    /* expected output */
    int      hash_only;
    uint64_t hash, bhash;
    xrec    *rec;
    size_t   n, cap;
    uint8_t *blob;
    size_t   blob_n, blob_cap;
    seg     *segs;
    size_t   nseg, segcap;
    uint64_t *bound; /* clean end points (token or snapshot ends), ascending */
    size_t    nbound, boundcap;
} model;

static void m_init(model *m, int be)
{
    memset(m, 0, sizeof *m);
    xe_init(&m->b, be);
    m->be = be;
    m->time_size = 8;
    m->hash = FNV0;
    m->bhash = FNV0;
}

/* An empty snapshot file of vector length vl. */
static void m_init_snapshot(model *m, int be, uint32_t vl)
{
    m_init(m, be);
    m->kind = TDEC_XTRACE_KIND_SNAPSHOT;
    m->vl = vl;
}

static void m_free(model *m)
{
    xe_free(&m->b);
    free(m->rec);
    free(m->blob);
    free(m->segs);
    free(m->bound);
    memset(m, 0, sizeof *m);
}

/* The decoder config that reads m's stream. */
static tdec_xtrace_config m_cfg(const model *m)
{
    tdec_xtrace_config c;
    memset(&c, 0, sizeof c);
    c.kind = m->kind;
    c.flags = (m->be ? TDEC_XTRACE_F_BIG_ENDIAN : 0u) | (m->iovec_data ? TDEC_XTRACE_F_IOVEC_DATA : 0u);
    c.time_size = m->time_size == 8 ? 0u : m->time_size;
    c.token_size = m->token_size;
    c.vl = m->vl;
    c.snap_header = m->kind == TDEC_XTRACE_KIND_SNAPSHOT ? TDEC_XTRACE_HDR_AUTO : 0u;
    c.file_size = m->b.len;
    return c;
}

/* The decoder config of a snapshot file of vector length vl, the rest 0. */
static tdec_xtrace_config snapshot_cfg(uint32_t vl)
{
    tdec_xtrace_config c;
    memset(&c, 0, sizeof c);
    c.kind = TDEC_XTRACE_KIND_SNAPSHOT;
    c.vl = vl;
    return c;
}

/* A record of the current token; fields of the owning instruction set. */
static tdec_xtrace_record m_owned(const model *m, uint32_t type, uint8_t token)
{
    tdec_xtrace_record r;
    memset(&r, 0, sizeof r);
    r.type = type;
    r.token = token;
    if (m->has_insn) {
        r.flags = (uint8_t)(TDEC_XTRACE_HAS_INSN | (m->pc_known ? TDEC_XTRACE_PC_KNOWN : 0u));
        r.index = m->index;
        r.pc = m->pc_known ? m->pc : 0;
        r.el = m->el;
    }
    return r;
}

static void m_rec(model *m, uint64_t off, const tdec_xtrace_record *r, uint64_t ready_lo, uint64_t ready_hi)
{
    if (m->hash_only) {
        m->hash = rec_hash(m->hash, off, r);
        m->n++;
        return;
    }
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 256;
        m->rec = (xrec *)xrealloc(m->rec, m->cap * sizeof *m->rec);
    }
    m->rec[m->n].off = off;
    m->rec[m->n].r = *r;
    m->rec[m->n].ready_lo = ready_lo;
    m->rec[m->n].ready_hi = ready_hi;
    m->n++;
}

static void m_blob(model *m, const uint8_t *p, size_t n)
{
    if (m->hash_only) {
        m->bhash = fnv_bytes(m->bhash, p, n);
        m->blob_n += n;
        return;
    }
    if (m->blob_n + n > m->blob_cap) {
        m->blob_cap = 2 * (m->blob_n + n) + 64;
        m->blob = (uint8_t *)xrealloc(m->blob, m->blob_cap);
    }
    if (n) memcpy(m->blob + m->blob_n, p, n);
    m->blob_n += n;
}

static void m_seg(model *m, uint64_t s, uint64_t e, uint64_t tok, uint64_t part, int payload)
{
    if (m->hash_only || s >= e) return;
    if (m->nseg == m->segcap) {
        m->segcap = m->segcap ? 2 * m->segcap : 256;
        m->segs = (seg *)xrealloc(m->segs, m->segcap * sizeof *m->segs);
    }
    m->segs[m->nseg].s = s;
    m->segs[m->nseg].e = e;
    m->segs[m->nseg].tok = tok;
    m->segs[m->nseg].part = part;
    m->segs[m->nseg].payload = payload;
    m->nseg++;
}

static void m_bound(model *m)
{
    if (m->hash_only) return;
    if (m->nbound == m->boundcap) {
        m->boundcap = m->boundcap ? 2 * m->boundcap : 256;
        m->bound = (uint64_t *)xrealloc(m->bound, m->boundcap * sizeof *m->bound);
    }
    m->bound[m->nbound++] = m->b.len;
}

/* A token with `fixed` bytes after the token byte and no payload. */
static void m_simple(model *m, uint64_t off, const tdec_xtrace_record *r, unsigned fixed)
{
    m_rec(m, off, r, off + 1 + fixed, off + 1 + fixed);
    m_seg(m, off, off + 1 + fixed, off, off, 0);
    m_bound(m);
}

static void m_inst(model *m, unsigned el, uint32_t insn)
{
    uint64_t off = m->b.len;
    tdec_xtrace_record r;
    xe_inst(&m->b, el, insn);
    m->has_insn = 1;
    m->index = m->ninsn++;
    m->el = (uint8_t)(el & 3u);
    if (m->pc_known) m->pc += 4; /* SPEC: PC = previous PC + 4 */
    r = m_owned(m, TDEC_XTRACE_REC_INST, m->b.p[off]);
    r.insn = insn;
    m_simple(m, off, &r, 4);
}

static void m_pcinst(model *m, unsigned el, uint64_t pc, uint32_t insn)
{
    uint64_t off = m->b.len;
    tdec_xtrace_record r;
    xe_pcinst(&m->b, el, pc, insn);
    m->has_insn = 1;
    m->index = m->ninsn++;
    m->el = (uint8_t)(el & 3u);
    m->pc = pc;
    m->pc_known = 1;
    r = m_owned(m, TDEC_XTRACE_REC_PCINST, m->b.p[off]);
    r.insn = insn;
    m_simple(m, off, &r, 12);
}

/* value: 2^k bytes (NULL: zeros). Values up to 8 bytes are read in the
   stream's byte order (SPEC: the bytes at that address, on a machine of
   that byte order); larger ones come out as fragments. */
static void m_mem(model *m, int store, unsigned k, uint64_t addr, const uint8_t *value)
{
    uint64_t off = m->b.len, n = (uint64_t)1 << k;
    tdec_xtrace_record r;
    xe_mem(&m->b, store, k, addr, value);
    r = m_owned(m, store ? TDEC_XTRACE_REC_STORE : TDEC_XTRACE_REC_LOAD, m->b.p[off]);
    r.addr = addr;
    r.size_log2 = (uint8_t)k;
    if (n <= 8) {
        r.value = rdn(m->b.p + off + 9, (unsigned)n, m->be);
        m_simple(m, off, &r, 8 + (unsigned)n);
        return;
    }
    r.data_len = n;
    m_rec(m, off, &r, off + 9, off + 9);
    m_seg(m, off, off + 9, off, off, 0);
    m_seg(m, off + 9, off + 9 + n, off, off, 1);
    m_blob(m, m->b.p + off + 9, (size_t)n);
    m_bound(m);
}

static void m_val(model *m, unsigned kind, uint64_t v)
{
    uint64_t off = m->b.len;
    tdec_xtrace_record r;
    xe_val(&m->b, kind, v);
    r = m_owned(m, TDEC_XTRACE_REC_VAL, m->b.p[off]);
    r.val_kind = (uint8_t)kind;
    r.value = v;
    m_simple(m, off, &r, 8);
}

static void m_flags(model *m, uint64_t v)
{
    uint64_t off = m->b.len;
    tdec_xtrace_record r;
    xe_misc_flags(&m->b, v);
    r = m_owned(m, TDEC_XTRACE_REC_MISC_FLAGS, m->b.p[off]);
    r.value = v;
    m_simple(m, off, &r, 8);
}

/* Sub-records (REG of ALLGPR, IOVEC) carry the owner's fields and token 0. */
static void m_allgpr(model *m, const uint64_t x[32])
{
    uint64_t off = m->b.len, p;
    tdec_xtrace_record r;
    unsigned i;
    xe_allgpr(&m->b, x);
    r = m_owned(m, TDEC_XTRACE_REC_ALLGPR, m->b.p[off]);
    m_rec(m, off, &r, off + 1, off + 1);
    for (i = 0; i < 32; i++) {
        p = off + 1 + 8u * i;
        r = m_owned(m, TDEC_XTRACE_REC_REG, 0);
        r.reg = (uint8_t)i;
        r.value = x[i];
        m_rec(m, p, &r, p + 8, p + 8);
        m_seg(m, p, p + 8, off, p, 0);
    }
    m_bound(m);
}

static void m_svec(model *m, uint64_t n, const uint64_t *base, const uint64_t *len, const uint8_t *const *data)
{
    uint64_t off = m->b.len, p, i;
    tdec_xtrace_record r;
    xe_syscall_vec(&m->b, n, base, len, m->iovec_data ? data : NULL);
    r = m_owned(m, TDEC_XTRACE_REC_SYSCALL_VEC, m->b.p[off]);
    r.value = n;
    m_rec(m, off, &r, off + 9, off + 9);
    m_seg(m, off, off + 9, off, off, 0);
    p = off + 9;
    for (i = 0; i < n; i++) {
        r = m_owned(m, TDEC_XTRACE_REC_IOVEC, 0);
        r.addr = base[i];
        r.value = len[i];
        r.data_len = m->iovec_data ? len[i] : 0;
        m_rec(m, p, &r, p + 16, p + 16);
        m_seg(m, p, p + 16, off, p, 0);
        if (m->iovec_data) {
            m_seg(m, p + 16, p + 16 + len[i], off, p, 1);
            m_blob(m, m->b.p + p + 16, (size_t)len[i]);
            p += len[i];
        }
        p += 16;
    }
    m_bound(m);
}

static void m_time(model *m, uint64_t v)
{
    uint64_t off = m->b.len;
    tdec_xtrace_record r;
    xe_time(&m->b, m->time_size, v);
    r = m_owned(m, TDEC_XTRACE_REC_TIME, m->b.p[off]);
    r.value = rdn(m->b.p + off + 1, m->time_size, m->be);
    m_simple(m, off, &r, m->time_size);
}

/* A token SPEC leaves unsized, with `size` data bytes (m->token_size[token]
   must say size). */
static void m_unknown(model *m, uint8_t token, const uint8_t *data, size_t size)
{
    uint64_t off = m->b.len;
    tdec_xtrace_record r;
    xe_byte(&m->b, token);
    xe_raw(&m->b, data, size);
    r = m_owned(m, TDEC_XTRACE_REC_UNKNOWN, token);
    r.data_len = size;
    m_rec(m, off, &r, off + 1, off + 1);
    m_seg(m, off + 1, off + 1 + size, off, off, 1);
    m_blob(m, m->b.p + off + 1, size);
    m_bound(m);
}

/* Snapshot files. m->vl must be set. */
static void m_snap_header(model *m, uint32_t magic, uint32_t point, uint64_t version, uint8_t split, uint8_t stream,
                          uint8_t tm)
{
    tdec_xtrace_record r;
    xe_snap_header(&m->b, magic, point, version, split, stream, tm);
    m->hdr = 1;
    memset(&r, 0, sizeof r);
    r.type = TDEC_XTRACE_REC_SNAP_HEADER;
    r.addr = magic;
    r.value = version;
    r.value2 = point;
    r.snap_split = split;
    r.snap_stream = stream;
    r.snap_time = tm;
    m_rec(m, 0, &r, 24, 24);
    m_seg(m, 0, 24, 0, 0, 0);
    m_bound(m);
}

static void m_reg(model *m, uint64_t off, unsigned reg, uint64_t v, uint64_t snap)
{
    tdec_xtrace_record r;
    memset(&r, 0, sizeof r);
    r.type = TDEC_XTRACE_REC_REG;
    r.reg = (uint8_t)reg;
    r.value = v;
    m_rec(m, off, &r, off + 8, off + 8);
    m_seg(m, off, off + 8, snap, off, 0);
}

static void m_vreg(model *m, uint64_t off, unsigned reg, uint64_t size, uint64_t snap)
{
    tdec_xtrace_record r;
    memset(&r, 0, sizeof r);
    r.type = TDEC_XTRACE_REC_VREG;
    r.reg = (uint8_t)reg;
    r.data_len = size;
    /* no fixed bytes: out once the part starts, at the latest with its first byte */
    m_rec(m, off, &r, off, off + 1);
    m_seg(m, off, off + size, snap, off, 1);
    m_blob(m, m->b.p + off, (size_t)size);
}

/* One snapshot; vl_field differs from m->vl for hostile files (then the
   model stops at the VL field, where the decoder must fail). */
static void m_snapshot(model *m, const xe_snap *s, uint64_t vl_field)
{
    uint64_t off = m->b.len, p, B = m->vl / 8u, zs = xe_pad16((size_t)B), ps = xe_pad16((size_t)(B / 8u)),
             zas = xe_pad16((size_t)(B * B));
    tdec_xtrace_record r;
    unsigned i;
    xe_snapshot(&m->b, m->vl, s, vl_field);
    memset(&r, 0, sizeof r);
    r.type = TDEC_XTRACE_REC_SNAPSHOT;
    r.index = m->nsnap++;
    r.addr = s->file_no;
    r.value = s->index;
    r.value2 = s->user_insns;
    r.value3 = s->total_insns;
    m_rec(m, off, &r, off + 32, off + 32);
    m_seg(m, off, off + 32, off, off, 0);
    p = off + 32;
    for (i = 0; i < 32; i++, p += 8) m_reg(m, p, i, s->x[i], off);
    for (i = 0; i < 32; i++, p += zs) m_vreg(m, p, TDEC_XTRACE_REG_Z0 + i, zs, off);
    for (i = 0; i < 16; i++, p += ps) m_vreg(m, p, TDEC_XTRACE_REG_P0 + i, ps, off);
    m_vreg(m, p, TDEC_XTRACE_REG_FFR, ps, off);
    p += ps;
    m_vreg(m, p, TDEC_XTRACE_REG_ZA, zas, off);
    p += zas;
    for (i = 0; i < 11; i++, p += 8) m_reg(m, p, TDEC_XTRACE_REG_FPCR + i, s->sysreg[i], off);
    if (vl_field == m->vl) {
        m_reg(m, p, TDEC_XTRACE_REG_VL, vl_field, off);
        m_bound(m);
    } else {
        m_seg(m, p, p + 8, off, p, 0);
    }
}

static void snap_fill(xe_snap *s, uint64_t seed)
{
    unsigned i;
    uint64_t r = seed;
    s->file_no = rng64(&r) & 0xFFFF;
    s->index = seed & 0xFF;
    s->user_insns = rng64(&r);
    s->total_insns = rng64(&r);
    for (i = 0; i < 32; i++) s->x[i] = rng64(&r);
    for (i = 0; i < 11; i++) s->sysreg[i] = rng64(&r);
    s->fill = (uint8_t)rng32(&r);
}

/* ------------------------------------------------------------------ */
/* decoding through the oracle                                         */

/* The outcome of one decode: the records (or their hash), the payload
   bytes (or their hash), the final status. */
typedef struct run {
    tdec_xtrace_config cfg;
    int                hash_only;
    uint64_t           hash, bhash;
    tdec_xtrace_item  *rec;
    size_t             n, cap;
    uint8_t           *blob;
    size_t             blob_n, blob_cap;
    size_t             nfrag;
    tdec_status        st;
    uint64_t           err_offset;
    uint32_t           err_reason;
    uint8_t            bad_token;
    int                bad;
    char               why[CC_MSG];
} run;

static void run_free(run *r)
{
    free(r->rec);
    free(r->blob);
    memset(r, 0, sizeof *r);
}

static void collect(void *ctx, const tdec_xtrace_item *it, const tdec_xtrace_decoder *d)
{
    run *r = (run *)ctx;
    const tdec_frag *f = &it->u.frag;
    (void)d;
    if (it->kind == TDEC_ITEM_RECORD && r->hash_only) {
        r->hash = rec_hash(r->hash, it->offset, &it->u.rec);
        r->n++;
    } else if (it->kind == TDEC_ITEM_RECORD) {
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 256;
            r->rec = (tdec_xtrace_item *)xrealloc(r->rec, r->cap * sizeof *r->rec);
        }
        r->rec[r->n++] = *it;
    } else if (r->hash_only) {
        r->bhash = fnv_bytes(r->bhash, f->data, f->len);
        r->blob_n += f->len;
        r->nfrag++;
    } else {
        if (r->blob_n + f->len > r->blob_cap) {
            r->blob_cap = 2 * (r->blob_n + f->len);
            r->blob = (uint8_t *)xrealloc(r->blob, r->blob_cap);
        }
        memcpy(r->blob + r->blob_n, f->data, f->len);
        r->blob_n += f->len;
        r->nfrag++;
    }
}

/* Decodes in[0..len) through the oracle (tests/lib/xtrace_check.h), which
   checks every item against its reference walk of the input as it goes,
   whole (s == NULL) or in the schedule s; r gets the records, the payload
   bytes and the outcome. */
static void run_decode(run *r, const uint8_t *in, size_t len, const cc_sched *s)
{
    static xtc_run o;
    const char *bad;
    memset(&o, 0, sizeof o);
    o.cfg = r->cfg;
    if (s) o.cc.sched = *s;
    o.on_item = collect;
    o.ctx = r;
    r->n = r->blob_n = r->nfrag = 0;
    r->hash = r->bhash = FNV0;
    bad = xtc_decode(in, len, &o.cc);
    r->bad = bad != NULL;
    snprintf(r->why, sizeof r->why, "%s", bad ? bad : "");
    r->st = o.cc.status;
    r->err_offset = o.cc.err_offset;
    r->err_reason = o.cc.err_reason;
    r->bad_token = o.bad_token;
}

/* r against the model: END (or the given error), the same records, the
   same payload bytes (unless records_only). */
static int same_as_model(tl_case *c, const model *m, const run *r, const char *what, int records_only)
{
    size_t i;
    const char *f = NULL;
    char a[400], b[400];
    if (!TL_TRUE(c, !r->bad, "%s: %s", what, r->why)) return 0;
    if (!TL_TRUE(c, r->st == TDEC_END, "%s: status %d at %llu reason %u (%s)", what, r->st,
                 (unsigned long long)r->err_offset, (unsigned)r->err_reason, tdec_xtrace_reason_str(r->err_reason)))
        return 0;
    if (!TL_TRUE(c, r->n == m->n, "%s: %zu records, model %zu", what, r->n, m->n)) return 0;
    if (m->hash_only || r->hash_only) {
        if (!TL_TRUE(c, r->hash == m->hash, "%s: record hash differs", what)) return 0;
        if (records_only) return 1;
        return TL_TRUE(c, r->blob_n == m->blob_n && r->bhash == m->bhash, "%s: payload bytes differ (%zu, model %zu)",
                       what, r->blob_n, m->blob_n);
    }
    for (i = 0; i < r->n; i++) {
        f = xtc_rec_diff(&r->rec[i].u.rec, &m->rec[i].r);
        if (f || r->rec[i].offset != m->rec[i].off) break;
    }
    if (i < r->n) {
        rec_str(a, sizeof a, r->rec[i].offset, &r->rec[i].u.rec);
        rec_str(b, sizeof b, m->rec[i].off, &m->rec[i].r);
        TL_TRUE(c, 0, "%s: record %zu differs in %s: got %s, expected %s", what, i, f ? f : "offset", a, b);
        return 0;
    }
    if (records_only) return 1;
    return TL_TRUE(c, r->blob_n == m->blob_n && (r->blob_n == 0 || memcmp(r->blob, m->blob, r->blob_n) == 0),
                   "%s: payload bytes differ (%zu, model %zu)", what, r->blob_n, m->blob_n);
}

/* Two runs alike: status, error, records, payload bytes. */
static int same_run(tl_case *c, const run *ref, const run *r, const char *what, int records_only)
{
    size_t i;
    if (!TL_TRUE(c, !r->bad, "%s: %s", what, r->why)) return 0;
    if (!TL_TRUE(c, r->st == ref->st && r->err_offset == ref->err_offset && r->err_reason == ref->err_reason &&
                        r->bad_token == ref->bad_token,
                 "%s: status %d at %llu reason %u, reference %d at %llu reason %u", what, r->st,
                 (unsigned long long)r->err_offset, (unsigned)r->err_reason, ref->st,
                 (unsigned long long)ref->err_offset, (unsigned)ref->err_reason))
        return 0;
    if (!TL_TRUE(c, r->n == ref->n, "%s: %zu records, reference %zu", what, r->n, ref->n)) return 0;
    if (r->hash_only || ref->hash_only) {
        if (!TL_TRUE(c, r->hash == ref->hash, "%s: record hash differs", what)) return 0;
    } else {
        for (i = 0; i < r->n; i++)
            if (r->rec[i].offset != ref->rec[i].offset || xtc_rec_diff(&r->rec[i].u.rec, &ref->rec[i].u.rec)) break;
        if (!TL_TRUE(c, i == r->n, "%s: record %zu (offset %llu) differs", what, i,
                     (unsigned long long)(i < r->n ? r->rec[i].offset : 0)))
            return 0;
    }
    if (records_only) return 1;
    if (r->hash_only || ref->hash_only)
        return TL_TRUE(c, r->blob_n == ref->blob_n && r->bhash == ref->bhash, "%s: payload bytes differ", what);
    return TL_TRUE(c, r->blob_n == ref->blob_n && (r->blob_n == 0 || memcmp(r->blob, ref->blob, r->blob_n) == 0),
                   "%s: reassembled payloads differ (%zu bytes, reference %zu)", what, r->blob_n, ref->blob_n);
}

/* Decodes a model's stream whole (and in random chunks) and compares. */
static int check_model(tl_case *c, const model *m, uint32_t extra_flags, const char *what)
{
    run r;
    cc_sched s;
    char w[160];
    int ok;
    memset(&r, 0, sizeof r);
    r.cfg = m_cfg(m);
    r.cfg.flags |= extra_flags;
    r.hash_only = m->hash_only;
    run_decode(&r, m->b.p, m->b.len, NULL);
    snprintf(w, sizeof w, "%s, whole", what);
    ok = same_as_model(c, m, &r, w, (extra_flags & TDEC_XTRACE_F_SKIP_PAYLOADS) != 0);
    if (ok) {
        memset(&s, 0, sizeof s);
        s.seed = 0x9E3779B9u ^ (uint32_t)m->b.len;
        run_decode(&r, m->b.p, m->b.len, &s);
        snprintf(w, sizeof w, "%s, random chunks", what);
        ok = same_as_model(c, m, &r, w, (extra_flags & TDEC_XTRACE_F_SKIP_PAYLOADS) != 0);
    }
    run_free(&r);
    return ok;
}

/* ------------------------------------------------------------------ */
/* 1. hand-written vectors (SPEC's tables, byte by byte)               */

/* One expected record: offset, type, token, flags, el, index, pc, insn,
   addr, value, size_log2, val_kind, reg, data_len. */
typedef struct xv {
    uint64_t off;
    uint32_t type;
    uint8_t  token, flags, el;
    uint64_t index, pc;
    uint32_t insn;
    uint64_t addr, value;
    uint8_t  k, vk, reg;
    uint64_t dl;
} xv;

#define I    TDEC_XTRACE_REC_INST
#define PI   TDEC_XTRACE_REC_PCINST
#define LD   TDEC_XTRACE_REC_LOAD
#define ST   TDEC_XTRACE_REC_STORE
#define V    TDEC_XTRACE_REC_VAL
#define AG   TDEC_XTRACE_REC_ALLGPR
#define MF   TDEC_XTRACE_REC_MISC_FLAGS
#define SV   TDEC_XTRACE_REC_SYSCALL_VEC
#define IOV  TDEC_XTRACE_REC_IOVEC
#define TM   TDEC_XTRACE_REC_TIME
#define R    TDEC_XTRACE_REC_REG
#define H    TDEC_XTRACE_HAS_INSN
#define HP   (TDEC_XTRACE_HAS_INSN | TDEC_XTRACE_PC_KNOWN)

static tdec_xtrace_record xv_rec(const xv *v)
{
    tdec_xtrace_record r;
    memset(&r, 0, sizeof r);
    r.type = v->type;
    r.token = v->token;
    r.flags = v->flags;
    r.el = v->el;
    r.index = v->index;
    r.pc = v->pc;
    r.insn = v->insn;
    r.addr = v->addr;
    r.value = v->value;
    r.size_log2 = v->k;
    r.val_kind = v->vk;
    r.reg = v->reg;
    r.data_len = v->dl;
    return r;
}

/* Decodes a vector (whole and one byte at a time) and compares every record
   and the payload bytes with the table. Returns 1 if all agree. */
static int check_vector(tl_case *c, const uint8_t *in, size_t len, const tdec_xtrace_config *cfg, const xv *x,
                        size_t nx, const uint8_t *blob, size_t blob_n)
{
    run r;
    cc_sched s;
    size_t i, pass;
    const char *f = NULL;
    char a[400], b[400];
    int ok = 1;
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    s.step = 1;
    r.cfg = *cfg;
    for (pass = 0; pass < 2 && ok; pass++) {
        run_decode(&r, in, len, pass ? &s : NULL);
        ok = TL_TRUE(c, !r.bad, "%s: %s", pass ? "byte by byte" : "whole", r.why) &&
             TL_TRUE(c, r.st == TDEC_END, "status %d at %llu reason %u", r.st, (unsigned long long)r.err_offset,
                     (unsigned)r.err_reason) &&
             TL_TRUE(c, r.n == nx, "%zu records, expected %zu", r.n, nx);
        for (i = 0; ok && i < nx; i++) {
            tdec_xtrace_record e = xv_rec(&x[i]);
            f = xtc_rec_diff(&r.rec[i].u.rec, &e);
            if (f || r.rec[i].offset != x[i].off) {
                rec_str(a, sizeof a, r.rec[i].offset, &r.rec[i].u.rec);
                rec_str(b, sizeof b, x[i].off, &e);
                ok = TL_TRUE(c, 0, "record %zu differs in %s: got %s, expected %s", i, f ? f : "offset", a, b);
            }
        }
        if (ok)
            ok = TL_TRUE(c, r.blob_n == blob_n && (blob_n == 0 || memcmp(r.blob, blob, blob_n) == 0),
                         "payload bytes: %zu, expected %zu", r.blob_n, blob_n);
    }
    run_free(&r);
    return ok;
}

static int same_bytes(tl_case *c, const xe_buf *b, const uint8_t *in, size_t len, const char *what)
{
    size_t i;
    if (!TL_TRUE(c, b->len == len, "%s: encoder wrote %zu bytes, vector has %zu", what, b->len, len)) return 0;
    for (i = 0; i < len && b->p[i] == in[i]; i++) {}
    return TL_TRUE(c, i == len, "%s: encoder byte %zu is %02x, vector has %02x", what, i, i < len ? b->p[i] : 0,
                   i < len ? in[i] : 0);
}

static tdec_xtrace_config cfg_of(uint32_t flags, uint32_t time_size)
{
    tdec_xtrace_config c;
    memset(&c, 0, sizeof c);
    c.flags = flags;
    c.time_size = time_size;
    return c;
}

/* INST EL0/EL1/EL3, PCINST EL0/EL1/EL2, a VAL before any instruction. */
static const uint8_t vec_insn[] = {
    /*  0 VAL STXR */ 0x03, 0x2a, 0, 0, 0, 0, 0, 0, 0,
    /*  9 INST EL0 */ 0x01, 0x1f, 0x20, 0x03, 0xd5,
    /* 14 INST EL1 */ 0x41, 0x00, 0x00, 0x80, 0xd2,
    /* 19 PCINST EL1 */ 0x49, 0x00, 0x10, 0x40, 0, 0, 0, 0, 0, 0xe0, 0x03, 0x1f, 0xaa,
    /* 32 INST EL0 */ 0x01, 0xc0, 0x03, 0x5f, 0xd6,
    /* 37 VAL SVCARG */ 0x13, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
    /* 46 PCINST EL0 */ 0x09, 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0x00, 0x00, 0x1f, 0x20, 0x03, 0xd5,
    /* 59 INST EL3 */ 0xc1, 0x00, 0x00, 0x00, 0x14,
    /* 64 PCINST EL2 */ 0x89, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x9f, 0x3f, 0x03, 0xd5,
    /* 77 VAL MRS */ 0x0b, 0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0,
    /* 86 */
};
static const xv xv_insn[] = {
    {0, V, 0x03, 0, 0, 0, 0, 0, 0, 42, 0, TDEC_XTRACE_VAL_STXR, 0, 0},
    {9, I, 0x01, H, 0, 0, 0, 0xd503201f, 0, 0, 0, 0, 0, 0},
    {14, I, 0x41, H, 1, 1, 0, 0xd2800000, 0, 0, 0, 0, 0, 0},
    {19, PI, 0x49, HP, 1, 2, 0x401000, 0xaa1f03e0, 0, 0, 0, 0, 0, 0},
    {32, I, 0x01, HP, 0, 3, 0x401004, 0xd65f03c0, 0, 0, 0, 0, 0, 0},
    {37, V, 0x13, HP, 0, 3, 0x401004, 0, 0, 0x0102030405060708ull, 0, TDEC_XTRACE_VAL_SVCARG, 0, 0},
    {46, PI, 0x09, HP, 0, 4, 0xffff12345678ull, 0xd503201f, 0, 0, 0, 0, 0, 0},
    {59, I, 0xc1, HP, 3, 5, 0xffff1234567cull, 0x14000000, 0, 0, 0, 0, 0, 0},
    {64, PI, 0x89, HP, 2, 6, 0x8000000000000000ull, 0xd5033f9f, 0, 0, 0, 0, 0, 0},
    {77, V, 0x0b, HP, 2, 6, 0x8000000000000000ull, 0, 0, 0xdeadbeef, 0, TDEC_XTRACE_VAL_MRS, 0, 0},
};

/* LOAD and STORE for k = 0..4, STORE k = 6, LOAD k = 10 (value filled in). */
static const uint8_t vec_mem_head[] = {
    /*   0 PCINST EL0 */ 0x09, 0x00, 0x00, 0x40, 0, 0, 0, 0, 0, 0x20, 0x00, 0x40, 0xb9,
    /*  13 LOAD k0 */ 0x02, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0xab,
    /*  23 STORE k0 */ 0x0a, 0x01, 0x10, 0, 0, 0, 0, 0, 0, 0xcd,
    /*  33 LOAD k1 */ 0x12, 0x00, 0x20, 0, 0, 0, 0, 0, 0, 0x34, 0x12,
    /*  44 STORE k1 */ 0x1a, 0x02, 0x20, 0, 0, 0, 0, 0, 0, 0xff, 0xee,
    /*  55 LOAD k2 */ 0x22, 0x00, 0x30, 0, 0, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12,
    /*  68 STORE k2 */ 0x2a, 0x04, 0x30, 0, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00, 0x80,
    /*  81 LOAD k3 */ 0x32, 0x00, 0x40, 0, 0, 0, 0, 0, 0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
    /*  98 STORE k3 */ 0x3a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                       0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
    /* 115 LOAD k4 */ 0x42, 0x00, 0x50, 0, 0, 0, 0, 0, 0,
                      0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
    /* 140 STORE k4 */ 0x4a, 0x10, 0x50, 0, 0, 0, 0, 0, 0,
                       0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
    /* 165 INST EL0 */ 0x01, 0x20, 0x00, 0x00, 0xf9,
    /* 170 STORE k6 */ 0x6a, 0x00, 0x60, 0, 0, 0, 0, 0, 0,
      0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
      0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
      0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
      0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f,
    /* 243 LOAD k10: then 1024 value bytes, byte i = (i * 7 + 3) & 255 */
                      0xa2, 0x00, 0x70, 0, 0, 0, 0, 0, 0,
    /* 1276 */
};
static const xv xv_mem[] = {
    {0, PI, 0x09, HP, 0, 0, 0x400000, 0xb9400020, 0, 0, 0, 0, 0, 0},
    {13, LD, 0x02, HP, 0, 0, 0x400000, 0, 0x1000, 0xab, 0, 0, 0, 0},
    {23, ST, 0x0a, HP, 0, 0, 0x400000, 0, 0x1001, 0xcd, 0, 0, 0, 0},
    {33, LD, 0x12, HP, 0, 0, 0x400000, 0, 0x2000, 0x1234, 1, 0, 0, 0},
    {44, ST, 0x1a, HP, 0, 0, 0x400000, 0, 0x2002, 0xeeff, 1, 0, 0, 0},
    {55, LD, 0x22, HP, 0, 0, 0x400000, 0, 0x3000, 0x12345678, 2, 0, 0, 0},
    {68, ST, 0x2a, HP, 0, 0, 0x400000, 0, 0x3004, 0x80000001, 2, 0, 0, 0},
    {81, LD, 0x32, HP, 0, 0, 0x400000, 0, 0x4000, 0x0807060504030201ull, 3, 0, 0, 0},
    {98, ST, 0x3a, HP, 0, 0, 0x400000, 0, 0xffffffffffffffffull, 0x0123456789abcdefull, 3, 0, 0, 0},
    {115, LD, 0x42, HP, 0, 0, 0x400000, 0, 0x5000, 0, 4, 0, 0, 16},
    {140, ST, 0x4a, HP, 0, 0, 0x400000, 0, 0x5010, 0, 4, 0, 0, 16},
    {165, I, 0x01, HP, 0, 1, 0x400004, 0xf9000020, 0, 0, 0, 0, 0, 0},
    {170, ST, 0x6a, HP, 0, 1, 0x400004, 0, 0x6000, 0, 6, 0, 0, 64},
    {243, LD, 0xa2, HP, 0, 1, 0x400004, 0, 0x7000, 0, 10, 0, 0, 1024},
};

/* The six VAL kinds, MISC_FLAGS, ALLGPR (bytes 0..255: X_i = bytes 8i..8i+7), TIME. */
static const uint8_t vec_vals[] = {
    /*   0 PCINST EL0 */ 0x09, 0x00, 0x01, 0x40, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00, 0xd4,
    /*  13 STXR */ 0x03, 0x01, 0, 0, 0, 0, 0, 0, 0,
    /*  22 MRS */ 0x0b, 0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0,
    /*  31 SVCARG */ 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0,
    /*  40 SVCRET */ 0x1b, 0xf2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    /*  49 DC */ 0x23, 0x00, 0x00, 0x00, 0xa0, 0xff, 0xff, 0x00, 0x00,
    /*  58 TARGET_B */ 0x2b, 0x00, 0x02, 0x40, 0, 0, 0, 0, 0,
    /*  67 MISC_FLAGS */ 0x1c, 0x00, 0x00, 0x00, 0x60, 0, 0, 0, 0,
    /*  76 ALLGPR */ 0x0c,
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
    0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
    0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f,
    0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f,
    0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f,
    0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f,
    0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f,
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
    0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
    0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
    0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf,
    0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
    0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
    0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef,
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
    /* 333 TIME */ 0x07, 0x05, 0, 0, 0, 0, 0, 0, 0,
    /* 342 */
};
static const xv xv_vals[] = {
    {0, PI, 0x09, HP, 0, 0, 0x400100, 0xd4000001, 0, 0, 0, 0, 0, 0},
    {13, V, 0x03, HP, 0, 0, 0x400100, 0, 0, 1, 0, TDEC_XTRACE_VAL_STXR, 0, 0},
    {22, V, 0x0b, HP, 0, 0, 0x400100, 0, 0, 0xdeadbeef, 0, TDEC_XTRACE_VAL_MRS, 0, 0},
    {31, V, 0x13, HP, 0, 0, 0x400100, 0, 0, 64, 0, TDEC_XTRACE_VAL_SVCARG, 0, 0},
    {40, V, 0x1b, HP, 0, 0, 0x400100, 0, 0, 0xfffffffffffffff2ull, 0, TDEC_XTRACE_VAL_SVCRET, 0, 0},
    {49, V, 0x23, HP, 0, 0, 0x400100, 0, 0, 0xffffa0000000ull, 0, TDEC_XTRACE_VAL_DC, 0, 0},
    {58, V, 0x2b, HP, 0, 0, 0x400100, 0, 0, 0x400200, 0, TDEC_XTRACE_VAL_TARGET_B, 0, 0},
    {67, MF, 0x1c, HP, 0, 0, 0x400100, 0, 0, 0x60000000, 0, 0, 0, 0},
    {76, AG, 0x0c, HP, 0, 0, 0x400100, 0, 0, 0, 0, 0, 0, 0},
    {77, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x0706050403020100ull, 0, 0, 0, 0},
    {85, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x0f0e0d0c0b0a0908ull, 0, 0, 1, 0},
    {93, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x1716151413121110ull, 0, 0, 2, 0},
    {101, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x1f1e1d1c1b1a1918ull, 0, 0, 3, 0},
    {109, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x2726252423222120ull, 0, 0, 4, 0},
    {117, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x2f2e2d2c2b2a2928ull, 0, 0, 5, 0},
    {125, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x3736353433323130ull, 0, 0, 6, 0},
    {133, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x3f3e3d3c3b3a3938ull, 0, 0, 7, 0},
    {141, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x4746454443424140ull, 0, 0, 8, 0},
    {149, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x4f4e4d4c4b4a4948ull, 0, 0, 9, 0},
    {157, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x5756555453525150ull, 0, 0, 10, 0},
    {165, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x5f5e5d5c5b5a5958ull, 0, 0, 11, 0},
    {173, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x6766656463626160ull, 0, 0, 12, 0},
    {181, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x6f6e6d6c6b6a6968ull, 0, 0, 13, 0},
    {189, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x7776757473727170ull, 0, 0, 14, 0},
    {197, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x7f7e7d7c7b7a7978ull, 0, 0, 15, 0},
    {205, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x8786858483828180ull, 0, 0, 16, 0},
    {213, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x8f8e8d8c8b8a8988ull, 0, 0, 17, 0},
    {221, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x9796959493929190ull, 0, 0, 18, 0},
    {229, R, 0, HP, 0, 0, 0x400100, 0, 0, 0x9f9e9d9c9b9a9998ull, 0, 0, 19, 0},
    {237, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xa7a6a5a4a3a2a1a0ull, 0, 0, 20, 0},
    {245, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xafaeadacabaaa9a8ull, 0, 0, 21, 0},
    {253, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xb7b6b5b4b3b2b1b0ull, 0, 0, 22, 0},
    {261, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xbfbebdbcbbbab9b8ull, 0, 0, 23, 0},
    {269, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xc7c6c5c4c3c2c1c0ull, 0, 0, 24, 0},
    {277, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xcfcecdcccbcac9c8ull, 0, 0, 25, 0},
    {285, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xd7d6d5d4d3d2d1d0ull, 0, 0, 26, 0},
    {293, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xdfdedddcdbdad9d8ull, 0, 0, 27, 0},
    {301, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xe7e6e5e4e3e2e1e0ull, 0, 0, 28, 0},
    {309, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xefeeedecebeae9e8ull, 0, 0, 29, 0},
    {317, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xf7f6f5f4f3f2f1f0ull, 0, 0, 30, 0},
    {325, R, 0, HP, 0, 0, 0x400100, 0, 0, 0xfffefdfcfbfaf9f8ull, 0, 0, 31, 0},
    {333, TM, 0x07, HP, 0, 0, 0x400100, 0, 0, 5, 0, 0, 0, 0},
};

/* SYSCALL_VEC with 0 and 2 entries, plain 16-byte entries. */
static const uint8_t vec_svec[] = {
    /*  0 INST EL0 */ 0x01, 0x01, 0x00, 0x00, 0xd4,
    /*  5 SYSCALL_VEC 0 */ 0x24, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 14 SYSCALL_VEC 2 */ 0x24, 0x02, 0, 0, 0, 0, 0, 0, 0,
    /* 23 entry */ 0x00, 0x10, 0x00, 0xe0, 0xff, 0xff, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0,
    /* 39 entry */ 0x00, 0x20, 0x00, 0xe0, 0xff, 0xff, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0,
    /* 55 TIME */ 0x07, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
    /* 64 */
};
static const xv xv_svec[] = {
    {0, I, 0x01, H, 0, 0, 0, 0xd4000001, 0, 0, 0, 0, 0, 0},
    {5, SV, 0x24, H, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {14, SV, 0x24, H, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0},
    {23, IOV, 0, H, 0, 0, 0, 0, 0xffffe0001000ull, 16, 0, 0, 0, 0},
    {39, IOV, 0, H, 0, 0, 0, 0, 0xffffe0002000ull, 3, 0, 0, 0, 0},
    {55, TM, 0x07, H, 0, 0, 0, 0, 0, 0x0102030405060708ull, 0, 0, 0, 0},
};

/* The same with TDEC_XTRACE_F_IOVEC_DATA: each entry followed by its bytes. */
static const uint8_t vec_svec_data[] = {
    /*  0 SYSCALL_VEC 0 */ 0x24, 0, 0, 0, 0, 0, 0, 0, 0,
    /*  9 SYSCALL_VEC 2 */ 0x24, 0x02, 0, 0, 0, 0, 0, 0, 0,
    /* 18 entry */ 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0,
    /* 34 data */ 'a', 'b', 'c',
    /* 37 entry */ 0x00, 0x20, 0, 0, 0, 0, 0, 0, 0x05, 0, 0, 0, 0, 0, 0, 0,
    /* 53 data */ 'h', 'e', 'l', 'l', 'o',
    /* 58 SYSCALL_VEC 1 */ 0x24, 0x01, 0, 0, 0, 0, 0, 0, 0,
    /* 67 entry */ 0x00, 0x30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 83 TIME */ 0x07, 0x09, 0, 0, 0, 0, 0, 0, 0,
    /* 92 */
};
static const xv xv_svec_data[] = {
    {0, SV, 0x24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {9, SV, 0x24, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0},
    {18, IOV, 0, 0, 0, 0, 0, 0, 0x1000, 3, 0, 0, 0, 3},
    {37, IOV, 0, 0, 0, 0, 0, 0, 0x2000, 5, 0, 0, 0, 5},
    {58, SV, 0x24, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
    {67, IOV, 0, 0, 0, 0, 0, 0, 0x3000, 0, 0, 0, 0, 0},
    {83, TM, 0x07, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0},
};

/* TIME with cfg.time_size 4, and 1. */
static const uint8_t vec_time4[] = {
    /*  0 */ 0x07, 0x04, 0x03, 0x02, 0x01,
    /*  5 */ 0x07, 0xff, 0xff, 0xff, 0xff,
    /* 10 INST */ 0x01, 0x1f, 0x20, 0x03, 0xd5,
    /* 15 */ 0x07, 0x01, 0x00, 0x00, 0x00,
    /* 20 */
};
static const xv xv_time4[] = {
    {0, TM, 0x07, 0, 0, 0, 0, 0, 0, 0x01020304, 0, 0, 0, 0},
    {5, TM, 0x07, 0, 0, 0, 0, 0, 0, 0xffffffff, 0, 0, 0, 0},
    {10, I, 0x01, H, 0, 0, 0, 0xd503201f, 0, 0, 0, 0, 0, 0},
    {15, TM, 0x07, H, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
};
static const uint8_t vec_time1[] = {0x07, 0x2a, 0x07, 0xff, 0x07, 0x07};
static const xv xv_time1[] = {
    {0, TM, 0x07, 0, 0, 0, 0, 0, 0, 0x2a, 0, 0, 0, 0},
    {2, TM, 0x07, 0, 0, 0, 0, 0, 0, 0xff, 0, 0, 0, 0},
    {4, TM, 0x07, 0, 0, 0, 0, 0, 0, 0x07, 0, 0, 0, 0},
};

/* Big-endian (TDEC_XTRACE_F_BIG_ENDIAN). */
static const uint8_t vec_be[] = {
    /*  0 PCINST */ 0x09, 0, 0, 0, 0, 0, 0x40, 0x00, 0x00, 0xd5, 0x03, 0x20, 0x1f,
    /* 13 INST */ 0x01, 0xd6, 0x5f, 0x03, 0xc0,
    /* 18 LOAD k2 */ 0x22, 0, 0, 0, 0, 0, 0, 0x10, 0x00, 0x12, 0x34, 0x56, 0x78,
    /* 31 MRS */ 0x0b, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef,
    /* 40 TIME */ 0x07, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
    /* 49 SYSCALL_VEC 1 */ 0x24, 0, 0, 0, 0, 0, 0, 0, 0x01,
    /* 58 entry */ 0, 0, 0, 0, 0, 0, 0x20, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x07,
    /* 74 MISC_FLAGS */ 0x1c, 0, 0, 0, 0, 0x60, 0, 0, 0,
    /* 83 */
};
static const xv xv_be[] = {
    {0, PI, 0x09, HP, 0, 0, 0x400000, 0xd503201f, 0, 0, 0, 0, 0, 0},
    {13, I, 0x01, HP, 0, 1, 0x400004, 0xd65f03c0, 0, 0, 0, 0, 0, 0},
    {18, LD, 0x22, HP, 0, 1, 0x400004, 0, 0x1000, 0x12345678, 2, 0, 0, 0},
    {31, V, 0x0b, HP, 0, 1, 0x400004, 0, 0, 0xdeadbeef, 0, TDEC_XTRACE_VAL_MRS, 0, 0},
    {40, TM, 0x07, HP, 0, 1, 0x400004, 0, 0, 0x0102030405060708ull, 0, 0, 0, 0},
    {49, SV, 0x24, HP, 0, 1, 0x400004, 0, 0, 1, 0, 0, 0, 0},
    {58, IOV, 0, HP, 0, 1, 0x400004, 0, 0x2000, 7, 0, 0, 0, 0},
    {74, MF, 0x1c, HP, 0, 1, 0x400004, 0, 0, 0x60000000, 0, 0, 0, 0},
};

#define NX(a) (sizeof(a) / sizeof((a)[0]))

static void test_vectors(void)
{
    tl_case c;
    xe_buf b;
    tdec_xtrace_config cfg;
    uint8_t *mem, big[1024], x8[8];
    uint64_t x[32], base[3], len[3];
    const uint8_t *data[3] = {NULL, NULL, NULL};
    size_t i, n;
    unsigned j;

    tl_begin(&c, "xtrace vector: INST EL0/EL1/EL3, PCINST EL0/EL1/EL2, VAL before any instruction; encoder same bytes");
    cfg = cfg_of(0, 0);
    check_vector(&c, vec_insn, sizeof vec_insn, &cfg, xv_insn, NX(xv_insn), NULL, 0);
    xe_init(&b, 0);
    xe_val(&b, 0, 42);
    xe_inst(&b, 0, 0xd503201f);
    xe_inst(&b, 1, 0xd2800000);
    xe_pcinst(&b, 1, 0x401000, 0xaa1f03e0);
    xe_inst(&b, 0, 0xd65f03c0);
    xe_val(&b, 2, 0x0102030405060708ull);
    xe_pcinst(&b, 0, 0xffff12345678ull, 0xd503201f);
    xe_inst(&b, 3, 0x14000000);
    xe_pcinst(&b, 2, 0x8000000000000000ull, 0xd5033f9f);
    xe_val(&b, 1, 0xdeadbeef);
    same_bytes(&c, &b, vec_insn, sizeof vec_insn, "encoder");
    xe_free(&b);
    tl_end(&c);

    tl_begin(&c, "xtrace vector: LOAD/STORE k = 0..4, STORE k = 6, LOAD k = 10 (values <= 8 bytes in value, larger as fragments); encoder same bytes");
    n = sizeof vec_mem_head + 1024;
    mem = (uint8_t *)xrealloc(NULL, n);
    memcpy(mem, vec_mem_head, sizeof vec_mem_head);
    for (i = 0; i < 1024; i++) big[i] = (uint8_t)(i * 7 + 3);
    memcpy(mem + sizeof vec_mem_head, big, 1024);
    {
        uint8_t blob[16 + 16 + 64 + 1024];
        for (i = 0; i < 16; i++) blob[i] = (uint8_t)(0x10 + i);
        for (i = 0; i < 16; i++) blob[16 + i] = (uint8_t)(0xf0 + i);
        for (i = 0; i < 64; i++) blob[32 + i] = (uint8_t)i;
        memcpy(blob + 96, big, 1024);
        cfg = cfg_of(0, 0);
        check_vector(&c, mem, n, &cfg, xv_mem, NX(xv_mem), blob, sizeof blob);
        xe_init(&b, 0);
        xe_pcinst(&b, 0, 0x400000, 0xb9400020);
        x8[0] = 0xab;
        xe_mem(&b, 0, 0, 0x1000, x8);
        x8[0] = 0xcd;
        xe_mem(&b, 1, 0, 0x1001, x8);
        x8[0] = 0x34, x8[1] = 0x12;
        xe_mem(&b, 0, 1, 0x2000, x8);
        x8[0] = 0xff, x8[1] = 0xee;
        xe_mem(&b, 1, 1, 0x2002, x8);
        x8[0] = 0x78, x8[1] = 0x56, x8[2] = 0x34, x8[3] = 0x12;
        xe_mem(&b, 0, 2, 0x3000, x8);
        x8[0] = 0x01, x8[1] = 0, x8[2] = 0, x8[3] = 0x80;
        xe_mem(&b, 1, 2, 0x3004, x8);
        for (j = 0; j < 8; j++) x8[j] = (uint8_t)(j + 1);
        xe_mem(&b, 0, 3, 0x4000, x8);
        for (j = 0; j < 8; j++) x8[j] = (uint8_t)(0x0123456789abcdefull >> (8 * j));
        xe_mem(&b, 1, 3, 0xffffffffffffffffull, x8);
        xe_mem(&b, 0, 4, 0x5000, blob);
        xe_mem(&b, 1, 4, 0x5010, blob + 16);
        xe_inst(&b, 0, 0xf9000020);
        xe_mem(&b, 1, 6, 0x6000, blob + 32);
        xe_mem(&b, 0, 10, 0x7000, big);
        same_bytes(&c, &b, mem, n, "encoder");
        xe_free(&b);
    }
    free(mem);
    tl_end(&c);

    tl_begin(&c, "xtrace vector: VAL STXR/MRS/SVCARG/SVCRET/DC/TARGET_B, MISC_FLAGS, ALLGPR (32 REG values), TIME; encoder same bytes");
    cfg = cfg_of(0, 0);
    check_vector(&c, vec_vals, sizeof vec_vals, &cfg, xv_vals, NX(xv_vals), NULL, 0);
    xe_init(&b, 0);
    xe_pcinst(&b, 0, 0x400100, 0xd4000001);
    xe_val(&b, 0, 1);
    xe_val(&b, 1, 0xdeadbeef);
    xe_val(&b, 2, 64);
    xe_val(&b, 3, 0xfffffffffffffff2ull);
    xe_val(&b, 4, 0xffffa0000000ull);
    xe_val(&b, 5, 0x400200);
    xe_misc_flags(&b, 0x60000000);
    for (i = 0; i < 32; i++) x[i] = rdn(vec_vals + 77 + 8 * i, 8, 0);
    xe_allgpr(&b, x);
    xe_time(&b, 8, 5);
    same_bytes(&c, &b, vec_vals, sizeof vec_vals, "encoder");
    xe_free(&b);
    tl_end(&c);

    tl_begin(&c, "xtrace vector: SYSCALL_VEC with 0 and 2 plain 16-byte entries; encoder same bytes");
    cfg = cfg_of(0, 0);
    check_vector(&c, vec_svec, sizeof vec_svec, &cfg, xv_svec, NX(xv_svec), NULL, 0);
    xe_init(&b, 0);
    xe_inst(&b, 0, 0xd4000001);
    xe_syscall_vec(&b, 0, NULL, NULL, NULL);
    base[0] = 0xffffe0001000ull, len[0] = 16;
    base[1] = 0xffffe0002000ull, len[1] = 3;
    xe_syscall_vec(&b, 2, base, len, NULL);
    xe_time(&b, 8, 0x0102030405060708ull);
    same_bytes(&c, &b, vec_svec, sizeof vec_svec, "encoder");
    xe_free(&b);
    tl_end(&c);

    tl_begin(&c, "xtrace vector: SYSCALL_VEC with 0, 2 and 1 entries, IOVEC_DATA reading (data as fragments); encoder same bytes");
    cfg = cfg_of(TDEC_XTRACE_F_IOVEC_DATA, 0);
    check_vector(&c, vec_svec_data, sizeof vec_svec_data, &cfg, xv_svec_data, NX(xv_svec_data),
                 (const uint8_t *)"abchello", 8);
    xe_init(&b, 0);
    xe_syscall_vec(&b, 0, NULL, NULL, data);
    base[0] = 0x1000, len[0] = 3, data[0] = (const uint8_t *)"abc";
    base[1] = 0x2000, len[1] = 5, data[1] = (const uint8_t *)"hello";
    xe_syscall_vec(&b, 2, base, len, data);
    base[0] = 0x3000, len[0] = 0, data[0] = (const uint8_t *)"";
    xe_syscall_vec(&b, 1, base, len, data);
    xe_time(&b, 8, 9);
    same_bytes(&c, &b, vec_svec_data, sizeof vec_svec_data, "encoder");
    xe_free(&b);
    tl_end(&c);

    tl_begin(&c, "xtrace vector: TIME with time_size 4 and 1; encoder same bytes");
    cfg = cfg_of(0, 4);
    check_vector(&c, vec_time4, sizeof vec_time4, &cfg, xv_time4, NX(xv_time4), NULL, 0);
    cfg = cfg_of(0, 1);
    check_vector(&c, vec_time1, sizeof vec_time1, &cfg, xv_time1, NX(xv_time1), NULL, 0);
    xe_init(&b, 0);
    xe_time(&b, 4, 0x01020304);
    xe_time(&b, 4, 0xffffffff);
    xe_inst(&b, 0, 0xd503201f);
    xe_time(&b, 4, 1);
    same_bytes(&c, &b, vec_time4, sizeof vec_time4, "encoder, time_size 4");
    b.len = 0;
    xe_time(&b, 1, 0x2a);
    xe_time(&b, 1, 0xff);
    xe_time(&b, 1, 0x07);
    same_bytes(&c, &b, vec_time1, sizeof vec_time1, "encoder, time_size 1");
    xe_free(&b);
    tl_end(&c);

    tl_begin(&c, "xtrace vector: big-endian option (PCINST, INST, LOAD k2, VAL, TIME, SYSCALL_VEC, MISC_FLAGS); encoder same bytes");
    cfg = cfg_of(TDEC_XTRACE_F_BIG_ENDIAN, 0);
    check_vector(&c, vec_be, sizeof vec_be, &cfg, xv_be, NX(xv_be), NULL, 0);
    xe_init(&b, 1);
    xe_pcinst(&b, 0, 0x400000, 0xd503201f);
    xe_inst(&b, 0, 0xd65f03c0);
    x8[0] = 0x12, x8[1] = 0x34, x8[2] = 0x56, x8[3] = 0x78;
    xe_mem(&b, 0, 2, 0x1000, x8);
    xe_val(&b, 1, 0xdeadbeef);
    xe_time(&b, 8, 0x0102030405060708ull);
    base[0] = 0x2000, len[0] = 7;
    xe_syscall_vec(&b, 1, base, len, NULL);
    xe_misc_flags(&b, 0x60000000);
    same_bytes(&c, &b, vec_be, sizeof vec_be, "encoder");
    xe_free(&b);
    tl_end(&c);
}

/* Snapshot layouts written out from SPEC's table (B = VL/8; Z slots
   pad16(B), P and FFR slots pad16(B/8), ZA pad16(B*B)):
     VL 128: B 16: 32 counters, X at 32, Z at 288 (16 each), P at 800 (16
             each, 2 bytes used), FFR 1056, ZA 1072 (256), sysregs 1328, VL
             1416, size 1424;
     VL 256: B 32: Z at 288 (32 each), P at 1312 (16 each, 4 used), FFR 1568,
             ZA 1584 (1024), sysregs 2608, VL 2696, size 2704. */
typedef struct snap_layout {
    uint32_t vl;
    size_t   z, zslot, p, pused, pslot, ffr, za, zaslot, sys, vlf, total;
} snap_layout;
static const snap_layout layouts[2] = {
    {128, 288, 16, 800, 2, 16, 1056, 1072, 256, 1328, 1416, 1424},
    {256, 288, 32, 1312, 4, 16, 1568, 1584, 1024, 2608, 2696, 2704},
};

static uint64_t lit_x(unsigned i) { return 0xa5a5000000000000ull + i * 0x10001ull; }
static uint64_t lit_sys(unsigned j) { return 0xc0de000000000000ull + ((uint64_t)j << 8) + j; }

/* Writes a snapshot at p per the layout; vector register bytes by the rule
   of xtrace_encoder.h (byte i of register r = fill + 7r + i, padding 0). */
static void lit_snapshot(uint8_t *p, const snap_layout *L, uint8_t fill)
{
    unsigned i, j;
    memset(p, 0, L->total);
    put_le(p + 0, 3, 8);        /* file number */
    put_le(p + 8, 7, 8);        /* index within the file */
    put_le(p + 16, 7000000, 8); /* user-mode instructions before */
    put_le(p + 24, 7123456, 8); /* total instructions before */
    for (i = 0; i < 32; i++) put_le(p + 32 + 8 * i, lit_x(i), 8);
    for (i = 0; i < 32; i++)
        for (j = 0; j < L->zslot; j++) p[L->z + L->zslot * i + j] = (uint8_t)(fill + 7 * (64 + i) + j);
    for (i = 0; i < 16; i++)
        for (j = 0; j < L->pused; j++) p[L->p + L->pslot * i + j] = (uint8_t)(fill + 7 * (96 + i) + j);
    for (j = 0; j < L->pused; j++) p[L->ffr + j] = (uint8_t)(fill + 7 * 112 + j);
    for (j = 0; j < L->zaslot; j++) p[L->za + j] = (uint8_t)(fill + 7 * 113 + j);
    for (j = 0; j < 11; j++) put_le(p + L->sys + 8 * j, lit_sys(j), 8);
    put_le(p + L->vlf, L->vl, 8);
}

static void lit_header(uint8_t *p)
{
    memset(p, 0, 24);
    put_le(p + 0, 0x58534e50, 4); /* magic */
    put_le(p + 4, 12, 4);         /* global snapshot point */
    put_le(p + 8, 2, 8);          /* version */
    p[16] = 1;                    /* split kind */
    p[17] = 0;                    /* stream kind */
    p[18] = 1;                    /* memory-order timestamps */
}

/* Expected byte j of the vector register with id reg in its slot. */
static uint8_t lit_vbyte(const snap_layout *L, uint8_t fill, unsigned reg, size_t j)
{
    size_t used = reg < 96 ? L->zslot : reg < 113 ? L->pused : L->zaslot;
    return j < used ? (uint8_t)(fill + 7 * reg + j) : 0;
}

static void test_snapshot_vectors(void)
{
    tl_case c;
    unsigned li, hdr, i, reg;
    uint8_t buf[24 + 2704];
    for (li = 0; li < 2; li++)
        for (hdr = 0; hdr < 2; hdr++) {
            const snap_layout *L = &layouts[li];
            uint8_t fill = (uint8_t)(li ? 0x90 : 0x30), *s;
            size_t base = hdr ? 24 : 0, len = base + L->total, k, j, vb = 0;
            run r;
            tdec_xtrace_snapshot v;
            xe_buf b;
            xe_snap es;
            int ok;
            tl_begin(&c, "xtrace snapshot vector VL %u (%zu bytes) %s the 24-byte header: every REG, VREG and counter; "
                         "snap_view; encoder same bytes", L->vl, L->total, hdr ? "with" : "without");
            if (hdr) lit_header(buf);
            s = buf + base;
            lit_snapshot(s, L, fill);
            memset(&r, 0, sizeof r);
            r.cfg = snapshot_cfg(L->vl);
            r.cfg.snap_header = hdr ? TDEC_XTRACE_HDR_PRESENT : TDEC_XTRACE_HDR_ABSENT;
            run_decode(&r, buf, len, NULL);
            ok = TL_TRUE(&c, !r.bad, "%s", r.why) && TL_EQI(&c, r.st, TDEC_END) &&
                 TL_EQU(&c, r.n, hdr + 1 + 32 + 32 + 16 + 1 + 1 + 11 + 1);
            k = 0;
            if (ok && hdr) {
                const tdec_xtrace_record *e = &r.rec[k++].u.rec;
                ok = TL_TRUE(&c, r.rec[0].offset == 0 && e->type == TDEC_XTRACE_REC_SNAP_HEADER && e->addr == 0x58534e50 &&
                                     e->value2 == 12 && e->value == 2 && e->snap_split == 1 && e->snap_stream == 0 &&
                                     e->snap_time == 1 && e->token == 0 && e->flags == 0 && e->data_len == 0,
                             "SNAP_HEADER fields: magic %llx point %llu version %llu split %u stream %u time %u",
                             (unsigned long long)e->addr, (unsigned long long)e->value2, (unsigned long long)e->value,
                             e->snap_split, e->snap_stream, e->snap_time);
            }
            if (ok) {
                const tdec_xtrace_record *e = &r.rec[k].u.rec;
                ok = TL_TRUE(&c, r.rec[k].offset == base && e->type == TDEC_XTRACE_REC_SNAPSHOT && e->index == 0 &&
                                     e->addr == 3 && e->value == 7 && e->value2 == 7000000 && e->value3 == 7123456 &&
                                     e->data_len == 0,
                             "SNAPSHOT at %llu: type %u ordinal %llu file %llu index %llu user %llu total %llu",
                             (unsigned long long)r.rec[k].offset, e->type, (unsigned long long)e->index,
                             (unsigned long long)e->addr, (unsigned long long)e->value, (unsigned long long)e->value2,
                             (unsigned long long)e->value3);
                k++;
            }
            for (i = 0; ok && i < 32; i++, k++) {
                const tdec_xtrace_record *e = &r.rec[k].u.rec;
                ok = TL_TRUE(&c, r.rec[k].offset == base + 32 + 8 * i && e->type == TDEC_XTRACE_REC_REG && e->reg == i &&
                                     e->value == lit_x(i) && e->data_len == 0 && e->index == 0,
                             "X%u: offset %llu type %u reg %u value %llx", i, (unsigned long long)r.rec[k].offset,
                             e->type, e->reg, (unsigned long long)e->value);
            }
            for (i = 0; ok && i < 32 + 16 + 2; i++, k++) {
                const tdec_xtrace_record *e = &r.rec[k].u.rec;
                size_t off = i < 32 ? L->z + L->zslot * i : i < 48 ? L->p + L->pslot * (i - 32) : i == 48 ? L->ffr : L->za;
                size_t size = i < 32 ? L->zslot : i < 49 ? L->pslot : L->zaslot;
                reg = i < 32 ? 64 + i : i < 48 ? 96 + (i - 32) : i == 48 ? 112u : 113u;
                ok = TL_TRUE(&c, r.rec[k].offset == base + off && e->type == TDEC_XTRACE_REC_VREG && e->reg == reg &&
                                     e->data_len == size,
                             "vector register %u: offset %llu (expected %zu) type %u reg %u data_len %llu (expected %zu)",
                             i, (unsigned long long)r.rec[k].offset, base + off, e->type, e->reg,
                             (unsigned long long)e->data_len, size);
                for (j = 0; ok && j < size; j++)
                    ok = TL_TRUE(&c, vb + j < r.blob_n && r.blob[vb + j] == lit_vbyte(L, fill, reg, j),
                                 "register %u byte %zu", reg, j);
                vb += size;
            }
            for (i = 0; ok && i < 12; i++, k++) {
                const tdec_xtrace_record *e = &r.rec[k].u.rec;
                uint64_t want = i < 11 ? lit_sys(i) : L->vl;
                ok = TL_TRUE(&c, r.rec[k].offset == base + L->sys + 8 * i && e->type == TDEC_XTRACE_REC_REG &&
                                     e->reg == 32 + i && e->value == want,
                             "system register %u: offset %llu reg %u value %llx (expected %llx)", i,
                             (unsigned long long)r.rec[k].offset, e->reg, (unsigned long long)e->value,
                             (unsigned long long)want);
            }
            if (ok) ok = TL_EQU(&c, r.blob_n, vb) && TL_EQU(&c, vb, L->sys - L->z);
            run_free(&r);
            /* snap_view over the same bytes */
            if (ok) {
                ok = TL_EQI(&c, tdec_xtrace_snap_view(s, L->total, L->vl, 0, &v), TDEC_OK) &&
                     TL_TRUE(&c, v.file_no == 3 && v.snap_index == 7 && v.user_insns == 7000000 &&
                                     v.total_insns == 7123456 && v.vl_field == L->vl,
                             "snap_view counters") &&
                     TL_TRUE(&c, v.zreg_size == L->zslot && v.preg_size == L->pslot && v.za_size == L->zaslot,
                             "snap_view sizes z %u p %u za %u", v.zreg_size, v.preg_size, v.za_size) &&
                     TL_TRUE(&c, v.ffr == s + L->ffr && v.za == s + L->za, "snap_view FFR/ZA views");
                for (i = 0; ok && i < 32; i++)
                    ok = TL_TRUE(&c, v.x[i] == lit_x(i) && v.z[i] == s + L->z + L->zslot * i, "snap_view X%u/Z%u", i, i);
                for (i = 0; ok && i < 16; i++) ok = TL_TRUE(&c, v.p[i] == s + L->p + L->pslot * i, "snap_view P%u", i);
                for (i = 0; ok && i < 11; i++) ok = TL_TRUE(&c, v.sysreg[i] == lit_sys(i), "snap_view sysreg %u", i);
            }
            /* the encoder writes the same bytes */
            memset(&es, 0, sizeof es);
            es.file_no = 3, es.index = 7, es.user_insns = 7000000, es.total_insns = 7123456, es.fill = fill;
            for (i = 0; i < 32; i++) es.x[i] = lit_x(i);
            for (i = 0; i < 11; i++) es.sysreg[i] = lit_sys(i);
            xe_init(&b, 0);
            if (hdr) xe_snap_header(&b, 0x58534e50, 12, 2, 1, 0, 1);
            xe_snapshot(&b, L->vl, &es, L->vl);
            if (ok) same_bytes(&c, &b, buf, len, "encoder");
            xe_free(&b);
            tl_end(&c);
        }
}

/* ------------------------------------------------------------------ */
/* 2. PC reconstruction and ownership                                  */

static const tdec_xtrace_item *find_rec(const run *r, uint64_t off)
{
    size_t i;
    for (i = 0; i < r->n; i++)
        if (r->rec[i].offset == off) return &r->rec[i];
    return NULL;
}

static void test_pc(void)
{
    tl_case c;
    model m;
    run r;
    uint64_t x[32], o_val, o_i0, o_i1, o_pc, o_i2, o_mem, o_i3, o_pc2, o_ag, o_i4;
    const tdec_xtrace_item *it;
    uint8_t v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned i;

    tl_begin(&c, "xtrace PC: unknown (PC_KNOWN clear, pc 0) before the first PCINST, set by PCINST, +4 per INST, "
                 "EL from bits 6-7; later tokens carry the owning instruction, earlier ones have HAS_INSN clear");
    m_init(&m, 0);
    for (i = 0; i < 32; i++) x[i] = i;
    o_val = m.b.len;
    m_val(&m, TDEC_XTRACE_VAL_MRS, 7);
    o_i0 = m.b.len;
    m_inst(&m, 0, 0x11111111);
    o_i1 = m.b.len;
    m_inst(&m, 1, 0x22222222);
    o_pc = m.b.len;
    m_pcinst(&m, 2, 0xffff000000001000ull, 0x33333333);
    o_i2 = m.b.len;
    m_inst(&m, 3, 0x44444444);
    o_mem = m.b.len;
    m_mem(&m, 1, 3, 0x9000, v);
    o_i3 = m.b.len;
    m_inst(&m, 0, 0x55555555);
    o_pc2 = m.b.len;
    m_pcinst(&m, 1, 0x2000, 0x66666666);
    o_ag = m.b.len;
    m_allgpr(&m, x);
    o_i4 = m.b.len;
    m_inst(&m, 1, 0x77777777);
    check_model(&c, &m, 0, "model");
    memset(&r, 0, sizeof r);
    run_decode(&r, m.b.p, m.b.len, NULL);
    /* the same facts, spelled out without the model */
    it = find_rec(&r, o_val);
    TL_TRUE(&c, it && it->u.rec.flags == 0 && it->u.rec.index == 0 && it->u.rec.pc == 0, "VAL before any instruction");
    it = find_rec(&r, o_i0);
    TL_TRUE(&c, it && it->u.rec.flags == TDEC_XTRACE_HAS_INSN && it->u.rec.pc == 0 && it->u.rec.index == 0 &&
                    it->u.rec.el == 0,
            "first INST: PC unknown");
    it = find_rec(&r, o_i1);
    TL_TRUE(&c, it && it->u.rec.flags == TDEC_XTRACE_HAS_INSN && it->u.rec.pc == 0 && it->u.rec.index == 1 &&
                    it->u.rec.el == 1,
            "second INST: PC still unknown, EL1");
    it = find_rec(&r, o_pc);
    TL_TRUE(&c, it && it->u.rec.flags == HP && it->u.rec.pc == 0xffff000000001000ull && it->u.rec.index == 2 &&
                    it->u.rec.el == 2,
            "PCINST sets the PC, EL2");
    it = find_rec(&r, o_i2);
    TL_TRUE(&c, it && it->u.rec.pc == 0xffff000000001004ull && it->u.rec.index == 3 && it->u.rec.el == 3,
            "INST after PCINST: PC + 4, EL3");
    it = find_rec(&r, o_mem);
    TL_TRUE(&c, it && it->u.rec.flags == HP && it->u.rec.pc == 0xffff000000001004ull && it->u.rec.index == 3 &&
                    it->u.rec.el == 3,
            "STORE carries its instruction");
    it = find_rec(&r, o_i3);
    TL_TRUE(&c, it && it->u.rec.pc == 0xffff000000001008ull && it->u.rec.index == 4 && it->u.rec.el == 0,
            "next INST: PC + 8");
    it = find_rec(&r, o_pc2);
    TL_TRUE(&c, it && it->u.rec.pc == 0x2000 && it->u.rec.index == 5 && it->u.rec.el == 1, "second PCINST");
    it = find_rec(&r, o_ag + 1 + 8 * 31);
    TL_TRUE(&c, it && it->u.rec.type == TDEC_XTRACE_REC_REG && it->u.rec.reg == 31 && it->u.rec.pc == 0x2000 &&
                    it->u.rec.index == 5 && it->u.rec.flags == HP,
            "X31 of ALLGPR carries its instruction");
    it = find_rec(&r, o_i4);
    TL_TRUE(&c, it && it->u.rec.pc == 0x2004 && it->u.rec.index == 6, "INST after ALLGPR");
    run_free(&r);
    m_free(&m);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 3. round trips through the encoder                                  */

static uint32_t tsz_table[256]; /* sizes for the tokens SPEC leaves unsized (classes 5, 6) */

static void init_tsz(void)
{
    unsigned t;
    for (t = 0; t < 256; t++) tsz_table[t] = ((t & 7u) == 5 || (t & 7u) == 6) ? 1 + t % 13u : 0;
}

/* Appends ntok random tokens; `unknown`: also class 5/6 tokens (needs
   m->token_size = tsz_table). Big MEM values are rare. */
static void gen_random(model *m, uint64_t seed, size_t ntok, int unknown)
{
    static uint8_t val[4096];
    uint64_t s = seed, x[32], base[4], len[4];
    const uint8_t *data[4];
    size_t t;
    unsigned i, k, n, p;
    for (t = 0; t < ntok; t++) {
        p = rng32(&s) % 100u;
        if (p < 40) {
            m_inst(m, rng32(&s) % 8u == 0 ? 1u : 0u, rng32(&s));
        } else if (p < 48) {
            m_pcinst(m, rng32(&s) % 4u, rng64(&s) & ~(uint64_t)3, rng32(&s));
        } else if (p < 68) {
            i = rng32(&s) % 100u;
            k = i < 70 ? i % 4u : i < 96 ? 4 + i % 3u : i < 99 ? 7 + i % 4u : 11 + i % 2u;
            for (i = 0; i < (1u << k); i += 4) put_le(val + i, rng32(&s), 4);
            m_mem(m, (int)(rng32(&s) & 1u), k, rng64(&s), val);
        } else if (p < 80) {
            m_val(m, rng32(&s) % 6u, rng64(&s));
        } else if (p < 84) {
            m_flags(m, (uint64_t)(rng32(&s) & 0xF0000000u));
        } else if (p < 86) {
            for (i = 0; i < 32; i++) x[i] = rng64(&s);
            m_allgpr(m, x);
        } else if (p < 90) {
            n = rng32(&s) % 4u;
            for (i = 0; i < n; i++) {
                base[i] = rng64(&s);
                len[i] = m->iovec_data ? rng32(&s) % 41u : rng64(&s);
                data[i] = val + 64 * i;
            }
            for (i = 0; i < 256; i += 4) put_le(val + i, rng32(&s), 4);
            m_svec(m, n, base, len, data);
        } else if (p < 97 || !unknown) {
            m_time(m, rng64(&s));
        } else {
            uint8_t tok = (uint8_t)((rng32(&s) % 2u ? 5u : 6u) | (rng32(&s) % 32u) << 3);
            for (i = 0; i < 16; i += 4) put_le(val + i, rng32(&s), 4);
            m_unknown(m, tok, val, m->token_size[tok]);
        }
    }
}

static void test_roundtrip_kinds(void)
{
    tl_case c;
    model m;
    int be, iod;
    unsigned k, i;
    uint8_t val[(1 << 12) + 16];
    uint64_t x[32], base[3] = {0x1000, 0x2000, 0xffffffffffffffffull}, len[3] = {0, 7, 33};
    const uint8_t *data[3];
    for (i = 0; i < sizeof val; i++) val[i] = (uint8_t)(i * 13 + 1);
    for (i = 0; i < 32; i++) x[i] = 0x0101010101010101ull * i + 0x8000000000000000ull;
    data[0] = val, data[1] = val + 100, data[2] = val + 200;
    for (be = 0; be < 2; be++)
        for (iod = 0; iod < 2; iod++) {
            tl_begin(&c, "xtrace round trip: every token kind and sub-kind (%s, %s iovecs)", be ? "big-endian" : "little-endian",
                     iod ? "IOVEC_DATA" : "plain");
            m_init(&m, be);
            m.iovec_data = iod;
            m.token_size = tsz_table;
            m_val(&m, 5, 1);
            m_unknown(&m, 0x05, val, tsz_table[0x05]);
            for (k = 0; k < 4; k++) m_inst(&m, k, 0xd503201f + k);
            for (k = 0; k < 4; k++) m_pcinst(&m, k, 0x400000 + 0x100 * k, 0xaa0003e0 + k);
            for (k = 0; k <= 12; k++) {
                m_mem(&m, 0, k, 0x1000 + k, val);
                m_mem(&m, 1, k, 0x2000 + k, val + 1);
            }
            for (k = 0; k < 6; k++) m_val(&m, k, 0x1122334455667788ull + k);
            m_allgpr(&m, x);
            m_flags(&m, 0x90000000);
            m_svec(&m, 0, base, len, data);
            m_svec(&m, 3, base, len, data);
            m_time(&m, 0xfedcba9876543210ull);
            m_unknown(&m, 0xfe, val, tsz_table[0xfe]);
            m_inst(&m, 0, 1);
            check_model(&c, &m, 0, "default");
            check_model(&c, &m, TDEC_XTRACE_F_SKIP_PAYLOADS, "skip payloads");
            m_free(&m);
            tl_end(&c);
        }
}

static void test_roundtrip_random(void)
{
    static const unsigned tsizes[] = {8, 1, 2, 3, 4, 5, 6, 7};
    tl_case c;
    model m;
    unsigned seed, nseeds = 8;
    size_t ntok = 10000 / quick + 100;
    for (seed = 1; seed <= nseeds; seed++) {
        int be = (int)(seed & 1u), iod = (int)((seed >> 1) & 1u);
        unsigned ts = tsizes[seed % 8u];
        tl_begin(&c, "xtrace round trip: %zu random tokens, seed %u (%s, %s iovecs, time_size %u, unknown tokens sized)",
                 ntok, seed, be ? "big-endian" : "little-endian", iod ? "IOVEC_DATA" : "plain", ts);
        m_init(&m, be);
        m.iovec_data = iod;
        m.time_size = ts;
        m.token_size = tsz_table;
        gen_random(&m, seed * 0x1234567ull, ntok, 1);
        check_model(&c, &m, 0, "default");
        check_model(&c, &m, TDEC_XTRACE_F_SKIP_PAYLOADS, "skip payloads");
        snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), ": %zu bytes, %zu records", m.b.len, m.n);
        m_free(&m);
        tl_end(&c);
    }
}

static void test_roundtrip_million(void)
{
    tl_case c;
    model m;
    run r;
    cc_sched s;
    size_t ntok = 1000000 / quick;
    tl_begin(&c, "xtrace round trip: one stream of %zu tokens (record and payload hashes, whole and random chunks)", ntok);
    m_init(&m, 0);
    m.hash_only = 1;
    m.iovec_data = 1;
    gen_random(&m, 0xC0FFEEull, ntok, 0);
    memset(&r, 0, sizeof r);
    r.cfg = m_cfg(&m);
    r.hash_only = 1;
    run_decode(&r, m.b.p, m.b.len, NULL);
    if (same_as_model(&c, &m, &r, "whole", 0)) {
        memset(&s, 0, sizeof s);
        s.seed = 77;
        run_decode(&r, m.b.p, m.b.len, &s);
        same_as_model(&c, &m, &r, "random chunks", 0);
    }
    snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), ": %zu bytes, %zu records", m.b.len, m.n);
    run_free(&r);
    m_free(&m);
    tl_end(&c);
}

/* Snapshot size from SPEC's table, computed here once more. */
static uint64_t spec_snap_size(uint32_t vl)
{
    uint64_t B = vl / 8u, zs = (B + 15) / 16 * 16, ps = (B / 8 + 15) / 16 * 16, zas = (B * B + 15) / 16 * 16;
    return 4 * 8 + 32 * 8 + 32 * zs + 16 * ps + ps + zas + 11 * 8 + 8;
}

static void test_roundtrip_snapshots(void)
{
    tl_case c;
    model m;
    uint32_t vl, dvl;
    int hdr, be, hh;
    unsigned i, j, nsnap = 3;
    xe_snap s[3];
    tdec_xtrace_snapshot v;
    uint64_t size, B;
    size_t base;

    tl_begin(&c, "xtrace snap_size: 1424 at VL 128, 2704 at VL 256, SPEC's sum at every VL, 0 for bad VLs");
    TL_EQU(&c, tdec_xtrace_snap_size(128), 1424);
    TL_EQU(&c, tdec_xtrace_snap_size(256), 2704);
    for (vl = 128; vl <= 2048; vl += 128) {
        TL_TRUE(&c, tdec_xtrace_snap_size(vl) == spec_snap_size(vl), "VL %u: %llu, SPEC %llu", vl,
                (unsigned long long)tdec_xtrace_snap_size(vl), (unsigned long long)spec_snap_size(vl));
        TL_TRUE(&c, xe_snap_size(vl) == spec_snap_size(vl), "encoder VL %u", vl);
    }
    TL_EQU(&c, tdec_xtrace_snap_size(0), 0);
    TL_EQU(&c, tdec_xtrace_snap_size(64), 0);
    TL_EQU(&c, tdec_xtrace_snap_size(100), 0);
    TL_EQU(&c, tdec_xtrace_snap_size(2176), 0);
    TL_EQU(&c, tdec_xtrace_snap_size(0xFFFFFF80u), 0);
    tl_end(&c);

    for (hdr = 0; hdr < 2; hdr++) {
        tl_begin(&c, "xtrace round trip: snapshot files at every VL 128..2048 %s header (3 snapshots): streaming "
                     "(HDR_AUTO from the file size), snap_detect, snap_view agree",
                 hdr ? "with" : "without");
        for (vl = 128; vl <= 2048 && !c.bad; vl += 128) {
            be = vl % 512u == 0;
            m_init_snapshot(&m, be, vl);
            if (hdr) m_snap_header(&m, 0xA1B2C3D4u, vl, 1, 0, 1, 1);
            for (i = 0; i < nsnap; i++) {
                snap_fill(&s[i], vl * 10u + i);
                m_snapshot(&m, &s[i], vl);
            }
            size = tdec_xtrace_snap_size(vl);
            B = vl / 8u;
            TL_TRUE(&c, m.b.len == (hdr ? 24u : 0u) + nsnap * size, "VL %u: file %zu bytes", vl, m.b.len);
            check_model(&c, &m, 0, be ? "big-endian" : "little-endian");
            /* detect from the file size and the first bytes */
            dvl = 0;
            hh = -1;
            TL_TRUE(&c, tdec_xtrace_snap_detect(m.b.p, (size_t)((hdr ? 24u : 0u) + size), m.b.len, TDEC_XTRACE_HDR_AUTO,
                                                be, &dvl, &hh) == TDEC_OK &&
                            dvl == vl && hh == hdr,
                    "VL %u: snap_detect gave VL %u header %d", vl, dvl, hh);
            dvl = 0;
            TL_TRUE(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len,
                                                hdr ? TDEC_XTRACE_HDR_PRESENT : TDEC_XTRACE_HDR_ABSENT, be, &dvl,
                                                &hh) == TDEC_OK &&
                            dvl == vl && hh == hdr,
                    "VL %u: snap_detect with the header choice given", vl);
            /* view each snapshot */
            for (i = 0; i < nsnap && !c.bad; i++) {
                const uint8_t *p = m.b.p + (hdr ? 24u : 0u) + i * size;
                if (!TL_EQI(&c, tdec_xtrace_snap_view(p, (size_t)size, vl, be, &v), TDEC_OK)) break;
                TL_TRUE(&c, v.file_no == s[i].file_no && v.snap_index == s[i].index &&
                                v.user_insns == s[i].user_insns && v.total_insns == s[i].total_insns && v.vl_field == vl,
                        "VL %u snapshot %u: counters", vl, i);
                for (j = 0; j < 32; j++) TL_TRUE(&c, v.x[j] == s[i].x[j], "VL %u snapshot %u: X%u", vl, i, j);
                for (j = 0; j < 11; j++) TL_TRUE(&c, v.sysreg[j] == s[i].sysreg[j], "VL %u: sysreg %u", vl, j);
                TL_TRUE(&c, v.zreg_size == xe_pad16((size_t)B) && v.preg_size == xe_pad16((size_t)(B / 8)) &&
                                v.za_size == xe_pad16((size_t)(B * B)),
                        "VL %u: view sizes %u %u %u", vl, v.zreg_size, v.preg_size, v.za_size);
                base = 32 + 256;
                for (j = 0; j < 32; j++, base += v.zreg_size)
                    TL_TRUE(&c, v.z[j] == p + base && v.z[j][0] == xe_vreg_byte(s[i].fill, 64 + j, 0) &&
                                    v.z[j][B - 1] == xe_vreg_byte(s[i].fill, 64 + j, (size_t)B - 1),
                            "VL %u: Z%u view", vl, j);
                for (j = 0; j < 16; j++, base += v.preg_size)
                    TL_TRUE(&c, v.p[j] == p + base && v.p[j][0] == xe_vreg_byte(s[i].fill, 96 + j, 0),
                            "VL %u: P%u view", vl, j);
                TL_TRUE(&c, v.ffr == p + base && v.ffr[B / 8 - 1] == xe_vreg_byte(s[i].fill, 112, (size_t)(B / 8 - 1)),
                        "VL %u: FFR view", vl);
                base += v.preg_size;
                TL_TRUE(&c, v.za == p + base && v.za[B * B - 1] == xe_vreg_byte(s[i].fill, 113, (size_t)(B * B - 1)),
                        "VL %u: ZA view", vl);
                TL_TRUE(&c, base + v.za_size + 96 == size, "VL %u: views end 96 bytes before the snapshot's end", vl);
            }
            m_free(&m);
        }
        tl_end(&c);
    }
}

/* ------------------------------------------------------------------ */
/* 4. chunk invariance                                                 */

static const tl_cfg_row cfgs[] = {
    {"default", 0, 0},
    {"skip-payloads", TDEC_XTRACE_F_SKIP_PAYLOADS, 0},
    {"max_fragment=7", 0, 7},
};

#define LOG_CAP (4u << 20)

static char log_a[LOG_CAP], log_b[LOG_CAP];

/* An oracle run of cfg, logging into log. */
static void oracle_run(xtc_run *o, const tdec_xtrace_config *cfg, char *log)
{
    memset(o, 0, sizeof *o);
    o->cfg = *cfg;
    o->cc.log = log;
    o->cc.log_cap = LOG_CAP;
}

/* One input under one config row: whole vs one byte at a time, 2-way
   splits (at every offset up to 4 KiB, stride quick; else 400 spread over
   the input), seeded random schedules (the oracle's logs); the records
   must also equal the base config's and (max_fragment) the payload bytes
   too. */
static void test_invariance(const char *label, const uint8_t *in, size_t len, const tdec_xtrace_config *base,
                            const tl_cfg_row *cfg, size_t nseeds)
{
    static xtc_run w, r;
    tl_case c;
    run ref, dflt;
    cc_plan plan;
    size_t runs = 0;
    const char *bad;
    int ok;

    tl_begin(&c, "xtrace chunk invariance %s [%s]", label, cfg->tag);
    memset(&ref, 0, sizeof ref);
    memset(&dflt, 0, sizeof dflt);
    ref.cfg = *base;
    ref.cfg.flags |= cfg->flags;
    ref.cfg.max_fragment = cfg->max_fragment;
    dflt.cfg = *base;
    run_decode(&ref, in, len, NULL);
    ok = TL_TRUE(&c, !ref.bad, "whole: %s", ref.why);
    if (ok && (cfg->flags || cfg->max_fragment)) {
        run_decode(&dflt, in, len, NULL);
        ok = same_run(&c, &dflt, &ref, "against the base config", cfg->flags != 0);
    }
    if (ok) {
        oracle_run(&w, &ref.cfg, log_a);
        oracle_run(&r, &ref.cfg, log_b);
        memset(&plan, 0, sizeof plan);
        plan.bytewise = 1;
        plan.split_stride = len <= 4096 ? quick : len / (400 / quick + 1) + 1;
        plan.nseeds = nseeds;
        if ((bad = xtc_decode(in, len, &w.cc)) == NULL)
            bad = cc_schedules(xtc_decode, &w.cc, &r.cc, in, len, &plan, stdout, &runs);
        ok = TL_TRUE(&c, bad == NULL, "%s", bad ? bad : "");
    }
    if (ok)
        snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name),
                 " (%zu bytes, %zu schedules, %zu records, %zu payload bytes, status %d)", len, runs, ref.n, ref.blob_n,
                 ref.st);
    run_free(&ref);
    run_free(&dflt);
    tl_end(&c);
}

static void test_invariance_all(void)
{
    model m;
    xe_snap s;
    tdec_xtrace_config cfg;
    size_t ci, nseeds = 40 / quick + 2;
    unsigned i;
    uint8_t *mem = (uint8_t *)xrealloc(NULL, sizeof vec_mem_head + 1024);
    uint8_t bad[64];

    memcpy(mem, vec_mem_head, sizeof vec_mem_head);
    for (i = 0; i < 1024; i++) mem[sizeof vec_mem_head + i] = (uint8_t)(i * 7 + 3);
    for (ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
        const tl_cfg_row *row = &cfgs[ci];
        cfg = cfg_of(0, 0);
        test_invariance("vector insn", vec_insn, sizeof vec_insn, &cfg, row, nseeds);
        test_invariance("vector mem", mem, sizeof vec_mem_head + 1024, &cfg, row, nseeds);
        test_invariance("vector vals+allgpr", vec_vals, sizeof vec_vals, &cfg, row, nseeds);
        test_invariance("vector syscall_vec", vec_svec, sizeof vec_svec, &cfg, row, nseeds);
        cfg = cfg_of(TDEC_XTRACE_F_IOVEC_DATA, 0);
        test_invariance("vector syscall_vec iovec_data", vec_svec_data, sizeof vec_svec_data, &cfg, row, nseeds);
        cfg = cfg_of(TDEC_XTRACE_F_BIG_ENDIAN, 0);
        test_invariance("vector big-endian", vec_be, sizeof vec_be, &cfg, row, nseeds);

        m_init(&m, 1);
        m.iovec_data = 1;
        m.time_size = 3;
        m.token_size = tsz_table;
        gen_random(&m, 4242, 300, 1);
        cfg = m_cfg(&m);
        test_invariance("random mix (big-endian, iovec_data, time_size 3, sized unknown tokens)", m.b.p, m.b.len, &cfg,
                        row, nseeds);
        m_free(&m);

        m_init_snapshot(&m, 0, 128);
        m_snap_header(&m, 1, 2, 3, 4, 5, 6);
        snap_fill(&s, 1);
        m_snapshot(&m, &s, 128);
        snap_fill(&s, 2);
        m_snapshot(&m, &s, 128);
        cfg = m_cfg(&m);
        test_invariance("snapshot file VL 128, header, 2 snapshots", m.b.p, m.b.len, &cfg, row, nseeds);
        /* the same file with the second VL field wrong: E_CORRUPT at the same place for every split */
        put_le(m.b.p + m.b.len - 8, 256, 8);
        test_invariance("snapshot file, bad VL field in snapshot 2", m.b.p, m.b.len, &cfg, row, nseeds);
        m_free(&m);

        /* errors: an unknown token after a few records; a SYSCALL_VEC count over the limit */
        cfg = cfg_of(0, 0);
        memcpy(bad, vec_insn, 40);
        bad[40] = 0x14; /* MISC sub-kind 2 */
        memset(bad + 41, 0xEE, 23);
        test_invariance("unknown token at 40", bad, sizeof bad, &cfg, row, nseeds);
        memcpy(bad, vec_insn, 14);
        bad[14] = 0x24;
        put_le(bad + 15, 1025, 8);
        memset(bad + 23, 0, 41);
        test_invariance("SYSCALL_VEC count 1025", bad, sizeof bad, &cfg, row, nseeds);
    }
    free(mem);
}

/* ------------------------------------------------------------------ */
/* 5. every prefix                                                     */

typedef struct verdict {
    tdec_status st;
    uint64_t    tok, part;       /* start of the cut token, of the cut part */
    uint32_t    reason, reason2; /* allowed reasons (equal unless the cut is at a payload's first byte) */
    size_t      recs_lo, recs_hi;
    uint64_t    fbytes;
} verdict;

/* What finish() must say after l bytes of m's stream: END at a clean end
   point (m->bound), else E_TRUNCATED at the cut token (instruction
   stream) or part (snapshot), R_PAYLOAD inside fragment data, else R_TOKEN
   or R_SNAPSHOT. Records out: every one whose fixed part is in. */
static void prefix_verdict(const model *m, uint64_t l, verdict *v)
{
    size_t i;
    uint32_t fixed = m->kind == TDEC_XTRACE_KIND_SNAPSHOT ? (uint32_t)TDEC_XTRACE_R_SNAPSHOT : (uint32_t)TDEC_XTRACE_R_TOKEN;
    memset(v, 0, sizeof *v);
    v->st = TDEC_E_TRUNCATED;
    for (i = 0; i < m->nbound; i++)
        if (m->bound[i] == l) v->st = TDEC_END;
    for (i = 0; i < m->nseg && v->st != TDEC_END; i++) {
        const seg *g = &m->segs[i];
        if (g->s <= l && l < g->e) {
            v->tok = g->tok;
            v->part = g->part;
            v->reason = g->payload && l > g->s ? (uint32_t)TDEC_XTRACE_R_PAYLOAD : fixed;
            /* at a payload's first byte either reason; in a snapshot's vector
               register R_SNAPSHOT ("inside a snapshot") fits as well */
            v->reason2 = g->payload ? (l > g->s && m->kind == TDEC_XTRACE_KIND_SNAPSHOT ? fixed
                                                                                        : (uint32_t)TDEC_XTRACE_R_PAYLOAD)
                                    : v->reason;
            break;
        }
    }
    for (i = 0; i < m->nseg; i++) {
        const seg *g = &m->segs[i];
        if (g->payload && l > g->s) v->fbytes += (l < g->e ? l : g->e) - g->s;
    }
    for (i = 0; i < m->n; i++) {
        v->recs_lo += m->rec[i].ready_hi <= l;
        v->recs_hi += m->rec[i].ready_lo <= l;
    }
}

/* What finish() says after l bytes of the model's stream, and the records
   and payload bytes out by then, as prefix_verdict() says. */
static const char *prefix_judge(const void *ctx, size_t l, const cc_verdict *v)
{
    static char why[300];
    const model *m = (const model *)ctx;
    verdict pv;
    uint64_t want;
    prefix_verdict(m, l, &pv);
    want = m->kind ? pv.part : pv.tok;
    if (v->st != pv.st ||
        (v->st != TDEC_END && (v->err_offset != want || (v->err_reason != pv.reason && v->err_reason != pv.reason2))))
        snprintf(why, sizeof why, "finish gave %d at %llu reason %u, expected %d at %llu (part %llu) reason %u", v->st,
                 (unsigned long long)v->err_offset, (unsigned)v->err_reason, pv.st, (unsigned long long)want,
                 (unsigned long long)pv.part, (unsigned)pv.reason);
    else if (v->records < pv.recs_lo || v->records > pv.recs_hi || v->frag_bytes != pv.fbytes)
        snprintf(why, sizeof why, "%zu records and %llu payload bytes out, expected %zu..%zu and %llu", v->records,
                 (unsigned long long)v->frag_bytes, pv.recs_lo, pv.recs_hi, (unsigned long long)pv.fbytes);
    else
        return NULL;
    return why;
}

/* Every prefix of m's stream (cc_prefixes: byte by byte, finishing a copy
   of the decoder at each length, and decoded whole at a stride). The error
   offset must be the cut token's start, its ALLGPR registers, iovec
   entries and data included (snapshots: the cut part's). */
static void test_prefixes(const char *label, const model *m)
{
    static xtc_run w, r;
    tl_case c;
    run whole;
    tdec_xtrace_config cfg = m_cfg(m);
    size_t direct = 0, len = m->b.len;
    const char *bad;

    tl_begin(&c, "xtrace every prefix of %s: END at %s ends, else E_TRUNCATED at the cut %s with its reason", label,
             m->kind ? "snapshot" : "token", m->kind ? "part" : "token");
    if (m->kind == TDEC_XTRACE_KIND_SNAPSHOT) { /* a prefix is no file of m's size: say the header choice */
        cfg.snap_header = m->hdr ? TDEC_XTRACE_HDR_PRESENT : TDEC_XTRACE_HDR_ABSENT;
        cfg.file_size = 0;
    }
    memset(&whole, 0, sizeof whole);
    whole.cfg = cfg;
    run_decode(&whole, m->b.p, len, NULL);
    if (same_as_model(&c, m, &whole, "whole", 0)) {
        oracle_run(&w, &cfg, log_a);
        oracle_run(&r, &cfg, log_b);
        if ((bad = xtc_decode(m->b.p, len, &w.cc)) == NULL)
            bad = cc_prefixes(xtc_decode, &w.cc, &r.cc, m->b.p, len, quick * (len > 4096 ? 37 : 3), prefix_judge,
                              m, &direct);
        TL_TRUE(&c, bad == NULL, "%s", bad ? bad : "");
    }
    snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), " (%zu prefixes, %zu decoded whole)", len + 1,
             direct);
    run_free(&whole);
    tl_end(&c);
}

static void every_kind(model *m)
{
    static uint8_t val[64];
    uint64_t x[32], base[2] = {0x1000, 0x2000}, len[2] = {5, 0};
    const uint8_t *data[2];
    unsigned i;
    for (i = 0; i < 64; i++) val[i] = (uint8_t)(0x40 + i);
    for (i = 0; i < 32; i++) x[i] = i * 3u;
    data[0] = val, data[1] = val;
    m_val(m, 1, 2);
    m_inst(m, 0, 0x11);
    m_pcinst(m, 1, 0x400000, 0x22);
    m_mem(m, 0, 2, 0x10, val);
    m_mem(m, 1, 5, 0x20, val);
    m_allgpr(m, x);
    m_svec(m, 0, base, len, data);
    m_svec(m, 2, base, len, data);
    m_flags(m, 0x40000000);
    m_time(m, 99);
    m_unknown(m, 0x0d, val, tsz_table[0x0d]);
    m_inst(m, 0, 0x33);
}

static void test_prefixes_all(void)
{
    model m;
    xe_snap s;
    int iod;
    for (iod = 0; iod < 2; iod++) {
        m_init(&m, iod);
        m_bound(&m); /* an empty stream ends cleanly */
        m.iovec_data = iod;
        m.token_size = tsz_table;
        m.time_size = iod ? 5 : 8;
        every_kind(&m);
        test_prefixes(iod ? "a stream of every kind (big-endian, IOVEC_DATA, time_size 5)" : "a stream of every kind",
                      &m);
        m_free(&m);
    }
    m_init(&m, 0);
    m_bound(&m);
    m.iovec_data = 1;
    gen_random(&m, 99, 60, 0);
    test_prefixes("60 random tokens", &m);
    m_free(&m);

    m_init_snapshot(&m, 0, 128);
    m_snap_header(&m, 9, 8, 7, 6, 5, 4);
    snap_fill(&s, 5);
    m_snapshot(&m, &s, 128);
    snap_fill(&s, 6);
    m_snapshot(&m, &s, 128);
    test_prefixes("a snapshot file (VL 128, header, 2 snapshots)", &m);
    m_free(&m);

    m_init_snapshot(&m, 1, 256);
    m_bound(&m);
    snap_fill(&s, 7);
    m_snapshot(&m, &s, 256);
    test_prefixes("a snapshot file (VL 256, big-endian, no header)", &m);
    m_free(&m);
}

/* ------------------------------------------------------------------ */
/* 6. hostile and edge inputs                                          */

/* Decodes in[0..len) whole with cfg (records kept). */
static void decode(run *r, const uint8_t *in, size_t len, const tdec_xtrace_config *cfg)
{
    r->cfg = *cfg;
    run_decode(r, in, len, NULL);
}

static void test_mem15(void)
{
    tl_case c;
    model m;
    tdec_xtrace_decoder d;
    tdec_xtrace_item it;
    tdec_xtrace_config cfg;
    tdec_status st;
    uint8_t *val = (uint8_t *)xrealloc(NULL, 32768);
    size_t i, fed = 0, nfrag = 0, maxlen = 0, got = 0, carry_max = 0;
    int ok = 1;

    for (i = 0; i < 32768; i++) val[i] = (uint8_t)(i ^ (i >> 8));
    tl_begin(&c, "xtrace MEM k = 15: a 32 KiB value streamed as fragments with constant state (1000-byte "
                 "chunks, max_fragment 4096, SKIP_PAYLOADS)");
    m_init(&m, 0);
    m_pcinst(&m, 0, 0x1000, 1);
    m_mem(&m, 1, 15, 0xdead0000, val);
    m_inst(&m, 0, 2);
    m_mem(&m, 0, 15, 0xbeef0000, val + 1 - 1);
    m_inst(&m, 0, 3);
    check_model(&c, &m, 0, "default");
    check_model(&c, &m, TDEC_XTRACE_F_SKIP_PAYLOADS, "skip payloads");
    /* 1000-byte chunks: fragments never larger than the window, nothing carried but token headers */
    tdec_xtrace_init(&d, NULL);
    st = TDEC_NEED_INPUT;
    while (st >= 0 && ok) {
        st = tdec_xtrace_next(&d, &it);
        if (d.st.carry_len > carry_max) carry_max = d.st.carry_len;
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_FRAGMENT) {
                nfrag++;
                got += it.u.frag.len;
                if (it.u.frag.len > maxlen) maxlen = it.u.frag.len;
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        if (fed == m.b.len) {
            st = tdec_xtrace_finish(&d);
            continue;
        }
        i = m.b.len - fed < 1000 ? m.b.len - fed : 1000;
        ok = TL_EQI(&c, tdec_xtrace_feed(&d, m.b.p + fed, i), TDEC_NEED_INPUT);
        fed += i;
    }
    TL_EQI(&c, st, TDEC_END);
    TL_TRUE(&c, got == 65536 && maxlen <= 1000 && nfrag >= 66, "1000-byte chunks: %zu fragments, %zu bytes, largest %zu",
            nfrag, got, maxlen);
    TL_TRUE(&c, carry_max <= 13, "carried %zu bytes at most, expected no more than a PCINST", carry_max);
    /* whole, max_fragment 4096: 8 fragments per value */
    memset(&cfg, 0, sizeof cfg);
    cfg.max_fragment = 4096;
    tdec_xtrace_init(&d, &cfg);
    tdec_xtrace_feed(&d, m.b.p, m.b.len);
    nfrag = maxlen = 0;
    while ((st = tdec_xtrace_next(&d, &it)) == TDEC_OK)
        if (it.kind == TDEC_ITEM_FRAGMENT) {
            nfrag++;
            if (it.u.frag.len != 4096) maxlen = it.u.frag.len;
        }
    TL_TRUE(&c, st == TDEC_NEED_INPUT && nfrag == 16 && maxlen == 0, "max_fragment 4096: %zu fragments (status %d)",
            nfrag, st);
    m_free(&m);
    free(val);
    tl_end(&c);
}

/* INST at 0, then a SYSCALL_VEC token at 5 with count n (and entries as given). */
static size_t svec_stream(uint8_t *p, uint64_t n)
{
    p[0] = 0x01;
    put_le(p + 1, 0xd4000001, 4);
    p[5] = 0x24;
    put_le(p + 6, n, 8);
    return 14;
}

static void test_limits(void)
{
    tl_case c;
    tdec_xtrace_decoder d;
    tdec_xtrace_item it;
    tdec_xtrace_config cfg;
    tdec_status st;
    uint8_t buf[64];
    size_t n;
    model m;
    run r;
    uint64_t *base = (uint64_t *)xrealloc(NULL, 2048 * sizeof *base), *len = (uint64_t *)xrealloc(NULL, 2048 * sizeof *len);
    unsigned i;

    for (i = 0; i < 2048; i++) base[i] = 0x1000u * i, len[i] = i % 7u;
    memset(&r, 0, sizeof r);

    tl_begin(&c, "xtrace SYSCALL_VEC count 2^63: E_LIMIT R_IOVECS as soon as the count is in, at the token");
    n = svec_stream(buf, (uint64_t)1 << 63);
    tdec_xtrace_init(&d, NULL);
    TL_EQI(&c, tdec_xtrace_feed(&d, buf, n), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xtrace_next(&d, &it), TDEC_OK);
    TL_EQU(&c, it.u.rec.type, TDEC_XTRACE_REC_INST);
    while ((st = tdec_xtrace_next(&d, &it)) == TDEC_OK && it.u.rec.type == TDEC_XTRACE_REC_SYSCALL_VEC) {}
    TL_EQI(&c, st, TDEC_E_LIMIT);
    TL_EQU(&c, d.st.err_reason, TDEC_XTRACE_R_IOVECS);
    TL_EQU(&c, d.st.err_offset, 5);
    TL_EQI(&c, tdec_xtrace_next(&d, &it), TDEC_E_LIMIT);
    tl_end(&c);

    tl_begin(&c, "xtrace SYSCALL_VEC count 1025: E_LIMIT with the default max_iovecs (1024 passes); max_iovecs "
                 "raises the limit; a count within a huge limit waits for its entries");
    memset(&cfg, 0, sizeof cfg);
    n = svec_stream(buf, 1025);
    decode(&r, buf, n, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_LIMIT && r.err_reason == TDEC_XTRACE_R_IOVECS && r.err_offset == 5 && r.n == 1,
            "1025 entries, default: %d reason %u at %llu, %zu records", r.st, r.err_reason,
            (unsigned long long)r.err_offset, r.n);
    m_init(&m, 0);
    m_inst(&m, 0, 1);
    m_svec(&m, 1024, base, len, NULL);
    check_model(&c, &m, 0, "1024 entries, default limit");
    m_free(&m);
    m_init(&m, 0);
    m_inst(&m, 0, 1);
    m_svec(&m, 1025, base, len, NULL);
    m_svec(&m, 2000, base, len, NULL);
    cfg = m_cfg(&m);
    cfg.max_iovecs = 2000;
    r.cfg = cfg;
    run_decode(&r, m.b.p, m.b.len, NULL);
    same_as_model(&c, &m, &r, "1025 and 2000 entries, max_iovecs 2000", 0);
    n = m.n;
    {
        uint64_t at = m.b.len;
        m_svec(&m, 2001, base, len, NULL);
        decode(&r, m.b.p, m.b.len, &cfg);
        TL_TRUE(&c, r.st == TDEC_E_LIMIT && r.err_reason == TDEC_XTRACE_R_IOVECS && r.n == n && r.err_offset == at,
                "2001 entries, max_iovecs 2000: %d reason %u at %llu, %zu records (expected %zu)", r.st, r.err_reason,
                (unsigned long long)r.err_offset, r.n, n);
    }
    m_free(&m);
    cfg.max_iovecs = UINT64_MAX;
    n = svec_stream(buf, (uint64_t)1 << 59); /* 2^63 bytes of entries: representable */
    decode(&r, buf, n, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_TRUNCATED && r.n == 2 && r.rec[1].u.rec.value == (uint64_t)1 << 59 &&
                    r.err_reason == TDEC_XTRACE_R_TOKEN && r.err_offset == 5,
            "2^59 entries within max_iovecs 2^64-1, none present: %d at %llu reason %u, %zu records", r.st,
            (unsigned long long)r.err_offset, r.err_reason, r.n);
    tl_end(&c);

    tl_begin(&c, "xtrace IOVEC_DATA: lengths above max_iov_len (default 2^31-1) are E_LIMIT R_IOV_LEN; at the "
                 "limit they stream; the plain reading does not check lengths");
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = TDEC_XTRACE_F_IOVEC_DATA;
    n = svec_stream(buf, 1);
    put_le(buf + n, 0x1000, 8);
    put_le(buf + n + 8, 0x80000000u, 8);
    decode(&r, buf, n + 16, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_LIMIT && r.err_reason == TDEC_XTRACE_R_IOV_LEN && r.n == 2 && r.err_offset == 5,
            "length 2^31: %d reason %u at %llu, %zu records", r.st, r.err_reason, (unsigned long long)r.err_offset, r.n);
    put_le(buf + n + 8, UINT64_MAX, 8);
    decode(&r, buf, n + 16, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_LIMIT && r.err_reason == TDEC_XTRACE_R_IOV_LEN, "length 2^64-1: %d reason %u", r.st,
            r.err_reason);
    put_le(buf + n + 8, 0x7fffffffu, 8);
    memset(buf + n + 16, 0x5a, 10);
    decode(&r, buf, n + 26, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_TRUNCATED && r.err_reason == TDEC_XTRACE_R_PAYLOAD && r.n == 3 &&
                    r.rec[2].u.rec.data_len == 0x7fffffffu && r.blob_n == 10,
            "length 2^31-1 with 10 bytes present: %d reason %u, %zu records, %zu bytes", r.st, r.err_reason, r.n,
            r.blob_n);
    cfg.max_iov_len = 10;
    put_le(buf + n + 8, 11, 8);
    decode(&r, buf, n + 16 + 11, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_LIMIT && r.err_reason == TDEC_XTRACE_R_IOV_LEN, "length 11, max_iov_len 10: %d", r.st);
    put_le(buf + n + 8, 10, 8);
    decode(&r, buf, n + 16 + 10, &cfg);
    TL_TRUE(&c, r.st == TDEC_END && r.n == 3 && r.blob_n == 10, "length 10, max_iov_len 10: %d", r.st);
    cfg.flags = 0;
    put_le(buf + n + 8, (uint64_t)1 << 63, 8);
    decode(&r, buf, n + 16, &cfg);
    TL_TRUE(&c, r.st == TDEC_END && r.n == 3 && r.rec[2].u.rec.value == (uint64_t)1 << 63 && r.rec[2].u.rec.data_len == 0,
            "plain reading, length 2^63: %d", r.st);
    tl_end(&c);

    run_free(&r);
    free(base);
    free(len);
}

/* The data size SPEC gives token t (time_size for TIME; a SYSCALL_VEC with
   count 0), or -1 when SPEC leaves it unsized. */
static long spec_size(unsigned t, unsigned time_size)
{
    unsigned cls = t & 7u, sub = t >> 3;
    switch (cls) {
    case 1: return (sub & 7u) == 0 ? 4 : (sub & 7u) == 1 ? 12 : -1;
    case 2: return 8 + (1L << (t >> 4));
    case 3: return sub <= 5 ? 8 : -1;
    case 4: return sub == 1 ? 256 : sub == 3 ? 8 : sub == 4 ? 8 : -1;
    case 7: return sub == 0 ? (long)time_size : -1;
    default: return -1;
    }
}

static uint32_t spec_type(unsigned t)
{
    unsigned cls = t & 7u, sub = t >> 3;
    switch (cls) {
    case 1: return (sub & 7u) == 0 ? TDEC_XTRACE_REC_INST : TDEC_XTRACE_REC_PCINST;
    case 2: return (t & 8u) ? TDEC_XTRACE_REC_STORE : TDEC_XTRACE_REC_LOAD;
    case 3: return TDEC_XTRACE_REC_VAL;
    case 4: return sub == 1 ? TDEC_XTRACE_REC_ALLGPR : sub == 3 ? TDEC_XTRACE_REC_MISC_FLAGS : TDEC_XTRACE_REC_SYSCALL_VEC;
    default: return TDEC_XTRACE_REC_TIME;
    }
}

static void test_unknown_tokens(void)
{
    static const uint8_t named[] = {0x00, 0xf8, 0x05, 0xfd, 0x06, 0xfe, 0x04, 0x14, 0x2c, 0xfc, 0x33, 0xfb,
                                    0x11, 0x39, 0x51, 0xf9, 0x0f, 0xff};
    tl_case c;
    uint8_t buf[64 + 40000];
    uint32_t sizes[256];
    tdec_xtrace_config cfg;
    run r, r2;
    unsigned t, nunk = 0, nknown = 0, pass;
    long sz;
    size_t n, i;

    memset(&r, 0, sizeof r);
    memset(&r2, 0, sizeof r2);
    tl_begin(&c, "xtrace SPEC's unsized tokens (classes 0, 5, 6; MISC 0, 2, 5..31; VAL 6..31; INST 2..7; TIME "
                 "sub-kind != 0) are the ones this test's table calls unknown");
    for (i = 0; i < sizeof named; i++) TL_TRUE(&c, spec_size(named[i], 8) < 0, "token %02x", named[i]);
    for (t = 0; t < 256; t++) nunk += spec_size(t, 8) < 0;
    TL_EQU(&c, nunk, 206);
    tl_end(&c);

    for (pass = 0; pass < 2; pass++) {
        tl_begin(&c, "xtrace all 256 token bytes%s: known ones decode with SPEC's size; unknown ones %s",
                 pass ? " with cfg.token_size = 3 for every byte" : "",
                 pass ? "come out as UNKNOWN records with 3 data bytes as fragments, known ones ignore the table"
                      : "are E_CORRUPT R_UNKNOWN at the token, d.bad_token = the byte, at once");
        memset(&cfg, 0, sizeof cfg);
        for (t = 0; t < 256; t++) sizes[t] = 3;
        if (pass) cfg.token_size = sizes;
        nunk = nknown = 0;
        for (t = 0; t < 256 && !c.bad; t++) {
            sz = spec_size(t, 8);
            buf[0] = 0x01;
            put_le(buf + 1, 0xd503201f, 4);
            buf[5] = (uint8_t)t;
            n = (size_t)(sz < 0 ? (pass ? 3 : 8) : sz);
            for (i = 0; i < n; i++) buf[6 + i] = (uint8_t)(sz < 0 ? 0xA0 + i : 0);
            buf[6 + n] = 0x01;
            put_le(buf + 7 + n, 0xd65f03c0, 4);
            decode(&r, buf, 11 + n, &cfg);
            if (sz < 0 && !pass) {
                nunk++;
                TL_TRUE(&c, !r.bad && r.st == TDEC_E_CORRUPT && r.err_reason == TDEC_XTRACE_R_UNKNOWN &&
                                r.err_offset == 5 && r.bad_token == t && r.n == 1,
                        "token %02x: %s; status %d reason %u at %llu, bad_token %02x, %zu records", t, r.why, r.st,
                        r.err_reason, (unsigned long long)r.err_offset, r.bad_token, r.n);
                /* at once: no finish() needed */
                {
                    tdec_xtrace_decoder d;
                    tdec_xtrace_item it;
                    tdec_xtrace_init(&d, &cfg);
                    tdec_xtrace_feed(&d, buf, 6);
                    TL_TRUE(&c, tdec_xtrace_next(&d, &it) == TDEC_OK && tdec_xtrace_next(&d, &it) == TDEC_E_CORRUPT,
                            "token %02x: no error before finish()", t);
                }
            } else if (sz < 0) {
                nunk++;
                TL_TRUE(&c, !r.bad && r.st == TDEC_END && r.n == 3 && r.rec[1].offset == 5 &&
                                r.rec[1].u.rec.type == TDEC_XTRACE_REC_UNKNOWN && r.rec[1].u.rec.token == t &&
                                r.rec[1].u.rec.data_len == 3 && r.rec[1].u.rec.flags == TDEC_XTRACE_HAS_INSN &&
                                r.blob_n == 3 && memcmp(r.blob, buf + 6, 3) == 0 && r.rec[2].offset == 9 &&
                                r.rec[2].u.rec.insn == 0xd65f03c0,
                        "token %02x: %s; status %d, %zu records", t, r.why, r.st, r.n);
            } else {
                nknown++;
                TL_TRUE(&c, !r.bad && r.st == TDEC_END && r.n >= 3 && r.rec[1].offset == 5 &&
                                r.rec[1].u.rec.type == spec_type(t) && r.rec[1].u.rec.token == t &&
                                r.rec[r.n - 1].offset == 6 + n && r.rec[r.n - 1].u.rec.insn == 0xd65f03c0 &&
                                r.rec[r.n - 1].u.rec.index == ((t & 7u) == 1 ? 2u : 1u),
                        "token %02x (SPEC: %ld data bytes): %s; status %d reason %u at %llu, %zu records", t, sz, r.why,
                        r.st, r.err_reason, (unsigned long long)r.err_offset, r.n);
            }
        }
        if (!c.bad)
            snprintf(c.name + strlen(c.name), sizeof c.name - strlen(c.name), " (%u known, %u unknown)", nknown, nunk);
        tl_end(&c);
    }

    tl_begin(&c, "xtrace cfg.token_size: an entry of 0 leaves the token unknown; sizes up to 32 KiB stream as fragments");
    memset(&cfg, 0, sizeof cfg);
    memset(sizes, 0, sizeof sizes);
    sizes[0x06] = 40000;
    cfg.token_size = sizes;
    buf[0] = 0x06;
    for (i = 0; i < 40000; i++) buf[1 + i] = (uint8_t)(i * 31);
    buf[40001] = 0x0e; /* class 6, size 0 in the table */
    buf[40002] = 0;
    decode(&r, buf, 40003, &cfg);
    TL_TRUE(&c, !r.bad && r.st == TDEC_E_CORRUPT && r.err_offset == 40001 && r.bad_token == 0x0e && r.n == 1 &&
                    r.rec[0].u.rec.data_len == 40000 && r.rec[0].u.rec.flags == 0 && r.blob_n == 40000 &&
                    memcmp(r.blob, buf + 1, 40000) == 0,
            "%s; status %d at %llu, %zu records, %zu bytes", r.why, r.st, (unsigned long long)r.err_offset, r.n, r.blob_n);
    tl_end(&c);
    run_free(&r);
    run_free(&r2);
}

static void test_snapshot_hostile(void)
{
    tl_case c;
    model m;
    run r;
    xe_snap s;
    tdec_xtrace_config cfg;
    tdec_xtrace_decoder d;
    tdec_xtrace_item it;
    tdec_xtrace_snapshot v;
    tdec_status st;
    uint32_t vl;
    int hh;
    unsigned i;
    static const uint64_t bad_sizes[] = {1, 23, 25, 100, 1423, 1425, 24 + 1423, 24 + 1425, 2 * 1424 + 1};
    uint8_t *big;
    size_t bl;

    memset(&r, 0, sizeof r);
    snap_fill(&s, 11);

    tl_begin(&c, "xtrace snapshot: a VL field that disagrees with the layout is E_CORRUPT R_VL at the VL field's "
                 "offset, after every record before it");
    {
        static const uint64_t bad_vl[] = {256, 0, 127, UINT64_MAX};
        for (i = 0; i < 4; i++) {
            m_init_snapshot(&m, 0, 128);
            if (i & 1u) m_snap_header(&m, 1, 1, 1, 1, 1, 1);
            if (i >= 2) m_snapshot(&m, &s, 128);
            m_snapshot(&m, &s, bad_vl[i]);
            cfg = m_cfg(&m);
            decode(&r, m.b.p, m.b.len, &cfg);
            TL_TRUE(&c, !r.bad && r.st == TDEC_E_CORRUPT && r.err_reason == TDEC_XTRACE_R_VL &&
                            r.err_offset == m.b.len - 8 && r.n == m.n && r.blob_n == m.blob_n,
                    "VL field %llu in snapshot %u: %s; status %d reason %u at %llu (expected %zu), %zu records (model %zu)",
                    (unsigned long long)bad_vl[i], i >= 2 ? 2u : 1u, r.why, r.st, r.err_reason,
                    (unsigned long long)r.err_offset, m.b.len - 8, r.n, m.n);
            if (i == 0) {
                TL_EQI(&c, tdec_xtrace_snap_view(m.b.p, m.b.len, 128, 0, &v), TDEC_E_CORRUPT);
                TL_TRUE(&c, v.vl_field == 256 && v.file_no == s.file_no && v.x[31] == s.x[31],
                        "snap_view fills *out on E_CORRUPT");
            }
            m_free(&m);
        }
    }
    tl_end(&c);

    tl_begin(&c, "xtrace snapshot: finish inside a snapshot is E_TRUNCATED at the cut part (R_SNAPSHOT; in a "
                 "vector register's bytes R_PAYLOAD or R_SNAPSHOT)");
    m_init_snapshot(&m, 0, 128);
    m_snapshot(&m, &s, 128);
    cfg = snapshot_cfg(128);
    cfg.snap_header = TDEC_XTRACE_HDR_ABSENT;
    decode(&r, m.b.p, 1424 - 4, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_TRUNCATED && r.err_reason == TDEC_XTRACE_R_SNAPSHOT && r.err_offset == 1416,
            "cut in the VL field: %d reason %u at %llu", r.st, r.err_reason, (unsigned long long)r.err_offset);
    decode(&r, m.b.p, 1100, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_TRUNCATED &&
                    (r.err_reason == TDEC_XTRACE_R_PAYLOAD || r.err_reason == TDEC_XTRACE_R_SNAPSHOT) &&
                    r.err_offset == 1072,
            "cut in ZA: %d reason %u at %llu", r.st, r.err_reason, (unsigned long long)r.err_offset);
    decode(&r, m.b.p, 10, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_TRUNCATED && r.err_reason == TDEC_XTRACE_R_SNAPSHOT && r.err_offset == 0 && r.n == 0,
            "cut in the counters: %d reason %u at %llu", r.st, r.err_reason, (unsigned long long)r.err_offset);
    cfg.snap_header = TDEC_XTRACE_HDR_PRESENT;
    decode(&r, m.b.p, 10, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_TRUNCATED && r.err_reason == TDEC_XTRACE_R_SNAPSHOT && r.err_offset == 0 && r.n == 0,
            "cut in the header: %d reason %u at %llu", r.st, r.err_reason, (unsigned long long)r.err_offset);
    TL_EQI(&c, tdec_xtrace_snap_view(m.b.p, 1423, 128, 0, &v), TDEC_E_TRUNCATED);
    tl_end(&c);

    tl_begin(&c, "xtrace snapshot HDR_AUTO: a file size that fits neither reading is E_FORMAT R_SNAP_SIZE; 0 and "
                 "24 bytes are an empty file and a header alone");
    for (i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        cfg = snapshot_cfg(128);
        cfg.file_size = bad_sizes[i];
        st = tdec_xtrace_init(&d, &cfg);
        if (st == TDEC_NEED_INPUT) {
            big = (uint8_t *)xrealloc(NULL, (size_t)bad_sizes[i]);
            memset(big, 0, (size_t)bad_sizes[i]);
            st = tdec_xtrace_feed(&d, big, (size_t)bad_sizes[i]);
            if (st == TDEC_NEED_INPUT) st = tdec_xtrace_next(&d, &it);
            free(big);
        }
        TL_TRUE(&c, st == TDEC_E_FORMAT && d.st.err_reason == TDEC_XTRACE_R_SNAP_SIZE && d.st.err_offset == 0,
                "file size %llu: status %d reason %u", (unsigned long long)bad_sizes[i], st, d.st.err_reason);
        TL_TRUE(&c, tdec_xtrace_next(&d, &it) == TDEC_E_FORMAT, "file size %llu: sticky", (unsigned long long)bad_sizes[i]);
    }
    cfg = snapshot_cfg(128);
    decode(&r, m.b.p, 0, &cfg);
    TL_TRUE(&c, r.st == TDEC_END && r.n == 0, "file size 0: %d, %zu records", r.st, r.n);
    cfg.file_size = 24;
    {
        uint8_t h[24];
        lit_header(h);
        decode(&r, h, 24, &cfg);
        TL_TRUE(&c, r.st == TDEC_END && r.n == 1 && r.rec[0].u.rec.type == TDEC_XTRACE_REC_SNAP_HEADER,
                "file size 24: %d, %zu records", r.st, r.n);
    }
    m_free(&m);
    tl_end(&c);

    tl_begin(&c, "xtrace snap_detect: E_FORMAT when no VL fits (size, VL field, short head, empty file), E_CORRUPT "
                 "when two do, E_ARG for NULL");
    m_init_snapshot(&m, 0, 128);
    m_snapshot(&m, &s, 128);
    m_snapshot(&m, &s, 128);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh), TDEC_OK);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len + 1, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh), TDEC_E_FORMAT);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len, TDEC_XTRACE_HDR_PRESENT, 0, &vl, &hh), TDEC_E_FORMAT);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, 1423, m.b.len, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh), TDEC_E_FORMAT);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len, TDEC_XTRACE_HDR_AUTO, 1, &vl, &hh), TDEC_E_FORMAT);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, 0, 0, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh), TDEC_E_FORMAT);
    put_le(m.b.p + 1416, 256, 8);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh), TDEC_E_FORMAT);
    TL_EQI(&c, tdec_xtrace_snap_detect(NULL, 10, m.b.len, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len, TDEC_XTRACE_HDR_AUTO, 0, NULL, &hh), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_snap_detect(m.b.p, m.b.len, m.b.len, TDEC_XTRACE_HDR_AUTO, 0, &vl, NULL), TDEC_E_ARG);
    m_free(&m);
    /* 240656 = lcm(1424, 2704): 169 snapshots at VL 128 or 89 at VL 256, both VL fields right */
    bl = 240656;
    big = (uint8_t *)xrealloc(NULL, bl);
    memset(big, 0, bl);
    put_le(big + 1416, 128, 8);
    put_le(big + 2696, 256, 8);
    TL_EQI(&c, tdec_xtrace_snap_detect(big, bl, bl, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh), TDEC_E_CORRUPT);
    put_le(big + 2696, 0, 8);
    vl = 0;
    TL_TRUE(&c, tdec_xtrace_snap_detect(big, bl, bl, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh) == TDEC_OK && vl == 128 && hh == 0,
            "one VL field right: VL %u", vl);
    free(big);
    tl_end(&c);

    tl_begin(&c, "xtrace snap_view: E_ARG for NULL or a bad VL, E_TRUNCATED below the snapshot size");
    {
        uint8_t b1[1424];
        memset(b1, 0, sizeof b1);
        put_le(b1 + 1416, 128, 8);
        TL_EQI(&c, tdec_xtrace_snap_view(b1, sizeof b1, 128, 0, &v), TDEC_OK);
        TL_EQI(&c, tdec_xtrace_snap_view(NULL, sizeof b1, 128, 0, &v), TDEC_E_ARG);
        TL_EQI(&c, tdec_xtrace_snap_view(b1, sizeof b1, 128, 0, NULL), TDEC_E_ARG);
        TL_EQI(&c, tdec_xtrace_snap_view(b1, sizeof b1, 100, 0, &v), TDEC_E_ARG);
        TL_EQI(&c, tdec_xtrace_snap_view(b1, sizeof b1, 0, 0, &v), TDEC_E_ARG);
        TL_EQI(&c, tdec_xtrace_snap_view(b1, sizeof b1, 256, 0, &v), TDEC_E_TRUNCATED);
        TL_EQI(&c, tdec_xtrace_snap_view(b1, sizeof b1, 128, 1, &v), TDEC_E_CORRUPT);
    }
    tl_end(&c);
    run_free(&r);
}

/* ------------------------------------------------------------------ */
/* errors are sticky; API misuse; reset; sizeof; names of things        */

static void test_api(void)
{
    tl_case c;
    tdec_xtrace_decoder d;
    tdec_xtrace_item it;
    tdec_xtrace_config cfg;
    tdec_status st;
    uint8_t bad[] = {0x01, 1, 2, 3, 4, 0x05, 9, 9, 9};
    unsigned i;
    size_t n;

    tl_begin(&c, "xtrace errors are sticky: next, finish and feed repeat the error, the offset stays");
    tdec_xtrace_init(&d, NULL);
    tdec_xtrace_feed(&d, bad, sizeof bad);
    TL_EQI(&c, tdec_xtrace_next(&d, &it), TDEC_OK);
    TL_EQI(&c, tdec_xtrace_next(&d, &it), TDEC_E_CORRUPT);
    for (i = 0; i < 3; i++) {
        TL_EQI(&c, tdec_xtrace_next(&d, &it), TDEC_E_CORRUPT);
        TL_EQI(&c, tdec_xtrace_finish(&d), TDEC_E_CORRUPT);
        TL_EQI(&c, tdec_xtrace_feed(&d, bad, sizeof bad), TDEC_E_CORRUPT);
    }
    TL_EQU(&c, d.st.err_offset, 5);
    TL_EQU(&c, d.st.err_reason, TDEC_XTRACE_R_UNKNOWN);
    TL_EQU(&c, d.bad_token, 5);
    tl_end(&c);

    tl_begin(&c, "xtrace reset(): forgets the stream and its error, keeps the config (time_size 4)");
    memset(&cfg, 0, sizeof cfg);
    cfg.time_size = 4;
    tdec_xtrace_init(&d, &cfg);
    tdec_xtrace_feed(&d, bad, sizeof bad);
    while ((st = tdec_xtrace_next(&d, &it)) == TDEC_OK) {}
    TL_EQI(&c, st, TDEC_E_CORRUPT);
    tdec_xtrace_reset(&d);
    TL_TRUE(&c, d.st.err == TDEC_OK && d.st.pos == 0 && d.insn_count == 0 && d.bad_token == 0, "state after reset");
    TL_EQI(&c, tdec_xtrace_feed(&d, vec_time4, 12), TDEC_NEED_INPUT); /* ends inside the INST at 10 */
    n = 0;
    while ((st = tdec_xtrace_next(&d, &it)) == TDEC_OK) n++;
    TL_TRUE(&c, st == TDEC_NEED_INPUT && n == 2 && it.u.rec.value == 0xffffffff && it.offset == 5,
            "after reset: %d, %zu records", st, n);
    tdec_xtrace_reset(&d); /* with a token carried */
    TL_EQI(&c, tdec_xtrace_feed(&d, vec_time4, sizeof vec_time4), TDEC_NEED_INPUT);
    n = 0;
    while ((st = tdec_xtrace_next(&d, &it)) == TDEC_OK) n++;
    TL_TRUE(&c, st == TDEC_NEED_INPUT && n == 4 && it.offset == 15 && it.u.rec.index == 0 && d.insn_count == 1,
            "after a reset mid-token: %d, %zu records, last at %llu", st, n, (unsigned long long)it.offset);
    TL_EQI(&c, tdec_xtrace_finish(&d), TDEC_END);
    tl_end(&c);

    tl_begin(&c, "xtrace API misuse: NULL arguments and bad configs are E_ARG; feed before the window is used, "
                 "after finish, or finish with bytes left are E_SEQUENCE (not sticky); next after END is END");
    TL_EQI(&c, tdec_xtrace_init(NULL, NULL), TDEC_E_ARG);
    memset(&cfg, 0, sizeof cfg);
    cfg.time_size = 9;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_E_ARG);
    cfg.time_size = 8;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_NEED_INPUT);
    cfg.time_size = 0;
    cfg.kind = 2;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_E_ARG);
    cfg.kind = TDEC_XTRACE_KIND_SNAPSHOT;
    cfg.snap_header = TDEC_XTRACE_HDR_ABSENT;
    cfg.vl = 100;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_E_ARG);
    cfg.vl = 0;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_E_ARG);
    cfg.vl = 2176;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_E_ARG);
    cfg.vl = 2048;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_NEED_INPUT);
    cfg.snap_header = 3;
    TL_EQI(&c, tdec_xtrace_init(&d, &cfg), TDEC_E_ARG);
    tdec_xtrace_init(&d, NULL);
    TL_EQI(&c, tdec_xtrace_feed(NULL, bad, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_feed(&d, NULL, 5), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_next(NULL, &it), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_next(&d, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_finish(NULL), TDEC_E_ARG);
    tdec_xtrace_reset(NULL);
    TL_EQI(&c, tdec_xtrace_feed(&d, NULL, 0), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xtrace_feed(&d, vec_insn, sizeof vec_insn), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_xtrace_feed(&d, vec_insn, sizeof vec_insn), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_xtrace_finish(&d), TDEC_E_SEQUENCE);
    n = 0;
    while ((st = tdec_xtrace_next(&d, &it)) == TDEC_OK) n++;
    TL_TRUE(&c, st == TDEC_NEED_INPUT && n == NX(xv_insn) && d.insn_count == 7,
            "the decoder goes on after E_SEQUENCE: %d, %zu records, insn_count %llu", st, n,
            (unsigned long long)d.insn_count);
    TL_EQI(&c, tdec_xtrace_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_xtrace_feed(&d, vec_insn, 1), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_xtrace_next(&d, &it), TDEC_END);
    TL_EQI(&c, tdec_xtrace_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_xtrace_next(&d, &it), TDEC_END);
    tl_end(&c);

    tl_begin(&c, "xtrace the decoder is memcpy-able (header MEMORY)");
    {
        tdec_xtrace_decoder a, b;
        tdec_xtrace_init(&a, NULL);
        tdec_xtrace_feed(&a, vec_insn, 20); /* ends inside the PCINST at 19 */
        while (tdec_xtrace_next(&a, &it) == TDEC_OK) {}
        memcpy(&b, &a, sizeof a);
        memset(&a, 0xEE, sizeof a);
        tdec_xtrace_feed(&b, vec_insn + 20, sizeof vec_insn - 20);
        TL_TRUE(&c, tdec_xtrace_next(&b, &it) == TDEC_OK && it.offset == 19 && it.u.rec.pc == 0x401000,
                "a copy goes on: record at %llu", (unsigned long long)it.offset);
    }
    tl_end(&c);

    tl_begin(&c, "xtrace names: reg_str, type_str, val_str, reason_str");
    {
        static const struct { uint32_t id; const char *name; } regs[] = {
            {0, "X0"}, {31, "X31"}, {32, "FPCR"}, {34, "NZCV"}, {42, "DAIF"}, {43, "VL"},
            {64, "Z0"}, {95, "Z31"}, {96, "P0"}, {111, "P15"}, {112, "FFR"}, {113, "ZA"},
        };
        static const uint32_t none[] = {44, 63, 114, 255, 1000};
        for (i = 0; i < sizeof regs / sizeof regs[0]; i++) {
            const char *s = tdec_xtrace_reg_str(regs[i].id);
            TL_TRUE(&c, s && strcmp(s, regs[i].name) == 0, "reg_str(%u) = %s", regs[i].id, s ? s : "NULL");
        }
        for (i = 0; i < sizeof none / sizeof none[0]; i++)
            TL_TRUE(&c, tdec_xtrace_reg_str(none[i]) == NULL, "reg_str(%u) not NULL", none[i]);
        TL_TRUE(&c, strcmp(tdec_xtrace_type_str(TDEC_XTRACE_REC_INST), "INST") == 0 &&
                        strcmp(tdec_xtrace_type_str(TDEC_XTRACE_REC_SYSCALL_VEC), "SYSCALL_VEC") == 0,
                "type_name");
        TL_TRUE(&c, strcmp(tdec_xtrace_val_str(TDEC_XTRACE_VAL_STXR), "STXR") == 0 &&
                        strcmp(tdec_xtrace_val_str(TDEC_XTRACE_VAL_TARGET_B), "TARGET_B") == 0,
                "val_str");
        for (i = 0; i <= TDEC_XTRACE_R_SNAP_SIZE; i++)
            TL_TRUE(&c, tdec_xtrace_reason_str(i) != NULL && (i == 0 || tdec_xtrace_reason_str(i)[0] != 0),
                    "reason_str(%u)", i);
        TL_TRUE(&c, strcmp(tdec_xtrace_reason_str(TDEC_XTRACE_R_UNKNOWN), tdec_xtrace_reason_str(TDEC_XTRACE_R_VL)) != 0,
                "reason strings differ");
    }
    tl_end(&c);
}

/* The header CONTRACT says err_offset is "the offset of the token that
   failed" and, for finish(), "the start of the cut token (snapshot: of the
   cut part)". ALLGPR and SYSCALL_VEC tokens come out as several records:
   this check holds the decoder to the token's start for errors inside them
   (truncation in any of their parts, an iovec length over the limit). */
static void test_subpart_offsets(void)
{
    tl_case c;
    model m;
    run r;
    tdec_xtrace_config cfg;
    uint64_t tok_ag, tok_sv, l, first_l = 0, first_got = 0, first_want = 0;
    size_t bad = 0, cuts = 0;
    uint8_t buf[64];
    size_t n;
    verdict v;
    uint64_t x[32] = {0}, base[2] = {1, 2}, len[2] = {3, 4};
    const uint8_t *data[2] = {(const uint8_t *)"abc", (const uint8_t *)"defg"};

    tl_begin(&c, "xtrace err_offset inside ALLGPR and SYSCALL_VEC is the token's start (header CONTRACT)");
    memset(&r, 0, sizeof r);
    m_init(&m, 0);
    m.iovec_data = 1;
    m_inst(&m, 0, 1);
    tok_ag = m.b.len;
    m_allgpr(&m, x);
    tok_sv = m.b.len;
    m_svec(&m, 2, base, len, data);
    cfg = m_cfg(&m);
    for (l = tok_ag + 1; l < m.b.len; l++) {
        if (l == tok_sv) continue;
        decode(&r, m.b.p, (size_t)l, &cfg);
        prefix_verdict(&m, l, &v);
        cuts++;
        if (r.st != TDEC_E_TRUNCATED || r.err_offset != v.tok) {
            if (!bad++) first_l = l, first_got = r.err_offset, first_want = v.tok;
        }
    }
    TL_TRUE(&c, bad == 0, "%zu of %zu cuts report another offset; first: input cut after %llu bytes, err_offset %llu, "
                          "the token starts at %llu",
            bad, cuts, (unsigned long long)first_l, (unsigned long long)first_got, (unsigned long long)first_want);
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = TDEC_XTRACE_F_IOVEC_DATA;
    n = svec_stream(buf, 1);
    put_le(buf + n, 0x1000, 8);
    put_le(buf + n + 8, 0x80000000u, 8);
    decode(&r, buf, n + 16, &cfg);
    TL_TRUE(&c, r.st == TDEC_E_LIMIT && r.err_offset == 5,
            "iovec length 2^31 in the SYSCALL_VEC at 5 (entry at 14): E_LIMIT at %llu", (unsigned long long)r.err_offset);
    m_free(&m);
    run_free(&r);
    tl_end(&c);
}

/* finish() declares the end of input; with the window used up at a token
   (snapshot) boundary it must say END (header: "TDEC_END at a token (or
   snapshot) boundary"), also when called right after the item that ends
   the input, before next() said NEED_INPUT. */
static void test_finish_after_last_item(void)
{
    tl_case c;
    model m;
    xe_snap s;
    tdec_xtrace_decoder d, e;
    tdec_xtrace_item it;
    tdec_xtrace_config cfg;
    tdec_status st;
    uint8_t val[16] = {0};
    uint64_t x[32] = {0}, base[1] = {0x1000}, len[1] = {2};
    const uint8_t *data[1] = {val};
    char bad[400];
    size_t nbad = 0;
    int kind, have;

    bad[0] = 0;
    tl_begin(&c, "xtrace finish() right after the last item (window used up, before NEED_INPUT) is END at a token "
                 "boundary (header: finish)");
    for (kind = 0; kind < 9; kind++) {
        const char *what = "";
        m_init(&m, 0);
        m.token_size = tsz_table;
        m_inst(&m, 0, 1);
        switch (kind) {
        case 0: what = "INST"; break;
        case 1: what = "STORE k=4 (payload)"; m_mem(&m, 1, 4, 0x10, val); break;
        case 2: what = "SYSCALL_VEC count 0"; m_svec(&m, 0, base, len, data); break;
        case 3: what = "SYSCALL_VEC count 1"; m_svec(&m, 1, base, len, data); break;
        case 4: what = "SYSCALL_VEC count 1, IOVEC_DATA"; m.iovec_data = 1; m_svec(&m, 1, base, len, data); break;
        case 5: what = "ALLGPR"; m_allgpr(&m, x); break;
        case 6: what = "UNKNOWN sized by token_size"; m_unknown(&m, 0x05, val, tsz_table[0x05]); break;
        case 7: what = "TIME"; m_time(&m, 5); break;
        default:
            what = "snapshot file";
            m.kind = TDEC_XTRACE_KIND_SNAPSHOT;
            m.vl = 128;
            m.b.len = 0;
            snap_fill(&s, 3);
            xe_snapshot(&m.b, 128, &s, 128);
            break;
        }
        cfg = m_cfg(&m);
        tdec_xtrace_init(&d, &cfg);
        tdec_xtrace_feed(&d, m.b.p, m.b.len);
        have = 0;
        while ((st = tdec_xtrace_next(&d, &it)) == TDEC_OK) {
            memcpy(&e, &d, sizeof d);
            have = 1;
        }
        TL_TRUE(&c, st == TDEC_NEED_INPUT && have && tdec_xtrace_finish(&d) == TDEC_END, "%s: canonical loop", what);
        if (have) {
            st = tdec_xtrace_finish(&e);
            if (st != TDEC_END && nbad++ < 3)
                snprintf(bad + strlen(bad), sizeof bad - strlen(bad), "%s%s (%zu bytes): %d at %llu reason %u",
                         nbad > 1 ? "; " : "", what, m.b.len, st, (unsigned long long)e.st.err_offset,
                         (unsigned)e.st.err_reason);
        }
        m_free(&m);
    }
    TL_TRUE(&c, nbad == 0, "%zu of 9 streams end in an error: %s", nbad, bad);
    tl_end(&c);
}

TL_DEFINE_SIZEOF_TEST(tdec_xtrace_decoder, "single/tdec_xtrace.h")
TL_DEFINE_SIZEOF_TEST(tdec_xtrace_item, "single/tdec_xtrace.h")
TL_DEFINE_SIZEOF_TEST(tdec_xtrace_snapshot, "single/tdec_xtrace.h")

/* The CONTRACT's Ending rule, through the oracle (which checks it), over
   every prefix of a stream of every kind and of a snapshot file, in 1-, 7-
   and 4096-byte chunks (1-byte ones at every 13th prefix): each decode
   ends as the model's verdict says (END at a clean end point, else
   TDEC_E_TRUNCATED from finish()). */
static void test_ending(void)
{
    static const size_t chunks[] = { 4096, 7, 1 };
    static xtc_run o;
    tl_case c;
    model m[2];
    xe_snap s;
    verdict v;
    size_t i, k, l;
    m_init(&m[0], 0);
    m_bound(&m[0]);
    m[0].token_size = tsz_table;
    every_kind(&m[0]);
    m_init(&m[1], 0);
    m[1].kind = TDEC_XTRACE_KIND_SNAPSHOT;
    m[1].vl = 128;
    m_snap_header(&m[1], 9, 8, 7, 6, 5, 4);
    snap_fill(&s, 5);
    m_snapshot(&m[1], &s, 128);
    tl_begin(&c, "xtrace Ending: the oracle's decodes in 1-, 7- and 4096-byte chunks end as the model's verdict");
    for (i = 0; i < 2; i++) {
        memset(&o, 0, sizeof o);
        o.cfg = m_cfg(&m[i]);
        if (m[i].kind == TDEC_XTRACE_KIND_SNAPSHOT) { /* a prefix is no file of m's size: say the header choice */
            o.cfg.snap_header = TDEC_XTRACE_HDR_PRESENT;
            o.cfg.file_size = 0;
        }
        for (l = 0; l <= m[i].b.len; l += quick) {
            prefix_verdict(&m[i], l, &v);
            for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
                if (chunks[k] > 1 || l % 13 == 0 || l == m[i].b.len)
                    TL_TRUE(&c, cc_ending(xtc_decode, &o.cc, m[i].b.p, l, chunks[k], v.st) == NULL, "%s", o.cc.msg);
        }
        m_free(&m[i]);
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 7. file names                                                       */

static void test_names(void)
{
    static const struct {
        const char *name;
        uint64_t    ts, id;
        uint32_t    hint, kind;
    } good[] = {
        {"xtrace.1700000000.1234.hint9.xinsndata.bin", 1700000000, 1234, 9, TDEC_XTRACE_KIND_INSN},
        {"xtrace.1700000000.3.hint13.xsnapshot.bin", 1700000000, 3, 13, TDEC_XTRACE_KIND_SNAPSHOT},
        {"/data/run1/xtrace.1.0.hint9.xsnapshot.bin", 1, 0, 9, TDEC_XTRACE_KIND_SNAPSHOT},
        {"rel/xtrace.0.7.hint13.xinsndata.bin", 0, 7, 13, TDEC_XTRACE_KIND_INSN},
        {"xtrace.18446744073709551615.18446744073709551615.hint13.xinsndata.bin", UINT64_MAX, UINT64_MAX, 13,
         TDEC_XTRACE_KIND_INSN},
    };
    static const char *const bad[] = {
        "xtrace.1.2.hint10.xinsndata.bin",
        "xtrace.1.2.hint1.xinsndata.bin",
        "xtrace.1.2.hint.xinsndata.bin",
        "xtrace.1.2.hint99.xsnapshot.bin",
        "xtrace.1.2.hint9.xinsndata",
        "xtrace.1.hint9.xinsndata.bin",
        "xtrace..2.hint9.xinsndata.bin",
        "xtrace.1..hint9.xinsndata.bin",
        "xtrace.1.2.hint9..bin",
        "xtrace.1.2.hint9.xinsndata.bin.gz",
        "xtrace.1.2.hint9.xinsndata.binx",
        "xtrace.1.2.hint9.xinsndata.bin ",
        "xtrace.18446744073709551616.2.hint9.xinsndata.bin",
        "xtrace.1.99999999999999999999.hint9.xsnapshot.bin",
        "xtrace.1.2.hint9.xother.bin",
        "xtrace.1a.2.hint9.xinsndata.bin",
        "xtrace.-1.2.hint9.xinsndata.bin",
        "xtrace.+1.2.hint9.xinsndata.bin",
        "prefix.xtrace.1.2.hint9.xinsndata.bin",
        "dir/xtrace.1.2.hint9.xinsndata.bin/",
        "xtrace.1.2.hint9.xinsndata.bin/x",
        "",
        "xtrace",
    };
    tl_case c;
    tdec_xtrace_name nm, a, b;
    tdec_status st;
    size_t i;
    char buf[128];
    const char *src;

    tl_begin(&c, "xtrace parse_name: valid names (both kinds, hint9/hint13, directories, 20-digit numbers at the "
                 "uint64 limit, a name not NUL-terminated)");
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        memset(&nm, 0xAB, sizeof nm);
        TL_TRUE(&c, tdec_xtrace_parse_name(good[i].name, strlen(good[i].name), &nm) == TDEC_OK && nm.timestamp == good[i].ts &&
                        nm.id == good[i].id && nm.hint == good[i].hint && nm.kind == good[i].kind,
                "%s: ts %llu id %llu hint %u kind %u", good[i].name, (unsigned long long)nm.timestamp,
                (unsigned long long)nm.id, nm.hint, nm.kind);
    }
    src = "xtrace.5.6.hint9.xinsndata.binXYZ";
    TL_TRUE(&c, tdec_xtrace_parse_name(src, strlen(src) - 3, &nm) == TDEC_OK && nm.timestamp == 5 && nm.id == 6,
            "length excludes trailing bytes");
    TL_EQI(&c, tdec_xtrace_parse_name(NULL, 3, &nm), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_parse_name(good[0].name, strlen(good[0].name), NULL), TDEC_E_ARG);
    tl_end(&c);

    tl_begin(&c, "xtrace parse_name: invalid names are E_FORMAT (hint10, missing parts, trailing junk, overflow "
                 "18446744073709551616, empty numbers, signs, a cut length)");
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
        TL_TRUE(&c, tdec_xtrace_parse_name(bad[i], strlen(bad[i]), &nm) == TDEC_E_FORMAT, "'%s' accepted or not E_FORMAT",
                bad[i]);
    TL_EQI(&c, tdec_xtrace_parse_name(good[0].name, strlen(good[0].name) - 1, &nm), TDEC_E_FORMAT);
    tl_end(&c);

    tl_begin(&c, "xtrace is_pair and pair_name: both ways, directories kept, E_LIMIT for a buffer one byte short");
    tdec_xtrace_parse_name(good[0].name, strlen(good[0].name), &a);
    src = "xtrace.1700000000.1234.hint9.xsnapshot.bin";
    tdec_xtrace_parse_name(src, strlen(src), &b);
    TL_EQI(&c, tdec_xtrace_is_pair(&a, &b), 1);
    TL_EQI(&c, tdec_xtrace_is_pair(&b, &a), 1);
    TL_EQI(&c, tdec_xtrace_is_pair(&a, &a), 0);
    nm = b, nm.timestamp++;
    TL_EQI(&c, tdec_xtrace_is_pair(&a, &nm), 0);
    nm = b, nm.id++;
    TL_EQI(&c, tdec_xtrace_is_pair(&a, &nm), 0);
    nm = b, nm.hint = 13;
    TL_EQI(&c, tdec_xtrace_is_pair(&a, &nm), 0);
    memset(buf, 'Z', sizeof buf);
    TL_TRUE(&c, tdec_xtrace_pair_name(good[0].name, strlen(good[0].name), buf, sizeof buf) == TDEC_OK &&
                    strcmp(buf, src) == 0,
            "insn -> snapshot: %s", buf);
    TL_TRUE(&c, tdec_xtrace_pair_name(src, strlen(src), buf, sizeof buf) == TDEC_OK && strcmp(buf, good[0].name) == 0,
            "snapshot -> insn: %s", buf);
    src = "/d/e/xtrace.1.2.hint13.xsnapshot.bin";
    TL_TRUE(&c, tdec_xtrace_pair_name(src, strlen(src), buf, sizeof buf) == TDEC_OK &&
                    strcmp(buf, "/d/e/xtrace.1.2.hint13.xinsndata.bin") == 0,
            "with a directory: %s", buf);
    TL_EQI(&c, tdec_xtrace_pair_name(src, strlen(src), buf, strlen(src)), TDEC_E_LIMIT);
    TL_EQI(&c, tdec_xtrace_pair_name(src, strlen(src), buf, strlen(src) + 1), TDEC_OK);
    st = tdec_xtrace_pair_name(src, strlen(src), buf, 0);
    TL_TRUE(&c, st == TDEC_E_LIMIT || st == TDEC_E_ARG, "cap 0: %d", st);
    TL_EQI(&c, tdec_xtrace_pair_name(bad[0], strlen(bad[0]), buf, sizeof buf), TDEC_E_FORMAT);
    TL_EQI(&c, tdec_xtrace_pair_name(NULL, 5, buf, sizeof buf), TDEC_E_ARG);
    TL_EQI(&c, tdec_xtrace_pair_name(src, strlen(src), NULL, sizeof buf), TDEC_E_ARG);
    src = "xtrace.5.6.hint9.xinsndata.binXYZ";
    TL_TRUE(&c, tdec_xtrace_pair_name(src, strlen(src) - 3, buf, sizeof buf) == TDEC_OK &&
                    strcmp(buf, "xtrace.5.6.hint9.xsnapshot.bin") == 0,
            "name not NUL-terminated: %s", buf);
    tl_end(&c);

    /* No producer's number format is published: zero-padded numbers are
       read by value (the documented choice). */
    tl_begin(&c, "xtrace parse_name: leading zeros accepted by value (xtrace.000123.007.hint09, hint013); is_pair "
                 "compares values, pair_name keeps the text");
    src = "xtrace.000123.007.hint09.xinsndata.bin";
    TL_TRUE(&c, tdec_xtrace_parse_name(src, strlen(src), &a) == TDEC_OK && a.timestamp == 123 && a.id == 7 &&
                    a.hint == 9 && a.kind == TDEC_XTRACE_KIND_INSN,
            "%s: ts %llu id %llu hint %u", src, (unsigned long long)a.timestamp, (unsigned long long)a.id, a.hint);
    src = "xtrace.0.00.hint013.xsnapshot.bin";
    TL_TRUE(&c, tdec_xtrace_parse_name(src, strlen(src), &nm) == TDEC_OK && nm.timestamp == 0 && nm.id == 0 &&
                    nm.hint == 13,
            "%s: ts %llu id %llu hint %u", src, (unsigned long long)nm.timestamp, (unsigned long long)nm.id, nm.hint);
    src = "xtrace.00000000000000000000018446744073709551615.1.hint9.xinsndata.bin";
    TL_TRUE(&c, tdec_xtrace_parse_name(src, strlen(src), &nm) == TDEC_OK && nm.timestamp == UINT64_MAX,
            "zeros before UINT64_MAX");
    src = "xtrace.123.7.hint9.xsnapshot.bin";
    TL_TRUE(&c, tdec_xtrace_parse_name(src, strlen(src), &b) == TDEC_OK && tdec_xtrace_is_pair(&a, &b) == 1,
            "is_pair by value");
    src = "xtrace.000123.007.hint09.xinsndata.bin";
    TL_TRUE(&c, tdec_xtrace_pair_name(src, strlen(src), buf, sizeof buf) == TDEC_OK &&
                    strcmp(buf, "xtrace.000123.007.hint09.xsnapshot.bin") == 0,
            "pair_name: %s", buf);
    tl_end(&c);
}

int main(void)
{
    quick = tl_quick();
    init_tsz();
    test_api();
    test_vectors();
    test_snapshot_vectors();
    test_pc();
    test_roundtrip_kinds();
    test_roundtrip_random();
    test_roundtrip_million();
    test_roundtrip_snapshots();
    test_invariance_all();
    test_prefixes_all();
    test_mem15();
    test_limits();
    test_unknown_tokens();
    test_snapshot_hostile();
    test_subpart_offsets();
    test_finish_after_last_item();
    test_ending();
    tl_sizeof_tdec_xtrace_decoder();
    tl_sizeof_tdec_xtrace_item();
    tl_sizeof_tdec_xtrace_snapshot();
    test_names();
    /* No timing here: the big-endian run's output is compared with this one. */
    printf("%d passed, %d failed\n", tl_passed, tl_failed);
    return tl_exit_code();
}
