/* ovni_check.h - decode a buffer through the public ovni API with a chosen
   chunk schedule, write a canonical log of the items, and check the
   decoder's contract on the way; check the JSON reader and the description
   formatter on arbitrary text. The sibling of tests/lib/xray_check.h (generic
   parts in tests/lib/check_common.h), for fuzz/fuzz_ovni.c and the unit tests.
   Include-only; the includer defines TDEC_OVNI_IMPLEMENTATION first (or
   links the implementation) and builds with -I<repo root>.

   The log has one line per item and does not depend on chunking:
     H off=0 v=.. be=..                                    the stream header
     R off=.. mcv=HEX fl=.. code=.. j=.. clk=.. sz=.. jl=.. back=.. pl=.. :HEX
                                                           an event (payload[])
     P off=.. total=.. :HEX...                             a jumbo blob,
                                                           reassembled (" cut"
                                                           if it never ended)
     E st=.. off=.. reason=.. pos=..                       the final status
   Long logs are cut at the caller's capacity; length and FNV-1a hash always
   cover the whole log, so two runs compare exactly.

   Invariants checked by oc_decode() (the first violation ends the run with
   a message): the header record comes first, at 0, and says the byte order
   its version field has; every event's fields are the input's bytes at its
   offset (flags, size code, MCV, clock in the stream's byte order, payload,
   jumbo length), its size is 12 + payload_len or 16 + jumbo_len, payload
   bytes past payload_len are zero, clock_backwards follows ovni's signed
   rule and never shows under STRICT_CLOCK; items start where the previous
   one ended (the next record is at offset + size, blob included) and lie
   within the input; fragments tile [0,jumbo_len) of the event just before
   them with correct FIRST/LAST flags, respect max_fragment, point into the
   chunk just fed and hold the input's bytes; SKIP_PAYLOADS gives no
   fragments; NEED_INPUT leaves nothing unread (pos + carry == bytes fed);
   feed() while the window is not used up is E_SEQUENCE and changes
   nothing; errors are sticky in next/feed/finish with err_offset fixed; a
   second finish() agrees; the final status, err_offset, err_reason and the
   number of events equal those of a plain reference walk of the input
   (oc_model_walk).

   oc_describe_check(): describe() at caps 1, 16 and 1024 never writes past
   cap, always NUL-terminates, returns a documented status, and the small
   caps give the large cap's result or stop early (E_LIMIT) on a prefix.
   oc_json_check(): json_parse() with 8 and 4096 tokens agrees (or says
   E_LIMIT); on success every token lies in the text, strings sit in their
   quotes and containers in their brackets, next > index, children lie
   inside their parent and walking `count` children via `next` lands on the
   parent's `next`; child()/key()/find() agree with that walk; json_int()
   matches plain integers; json_string() at caps 1, 8, 256 and meta_read()
   keep their contracts. Both fold their results into a host-independent
   hash (tests/matrix/matrix.sh compares it across hosts). */
#ifndef OVNI_CHECK_H
#define OVNI_CHECK_H

#include "single/tdec_ovni.h"
#include "tests/lib/check_common.h"

typedef struct oc_run {
    /* in: config and chunk schedule (see cc_sched) */
    tdec_ovni_config cfg;
    const size_t    *cuts;
    size_t           ncuts;
    size_t           step;
    uint32_t         seed;
    void (*on_item)(void *ctx, const tdec_ovni_item *it, const tdec_ovni_decoder *d);
    void            *ctx;
    char            *log; /* may be NULL (hash only) */
    size_t           log_cap;
    /* out */
    size_t           log_len; /* whole log, even past log_cap */
    uint64_t         log_hash;
    tdec_status      status;  /* final status of the loop     */
    size_t           items, events;
    char             msg[200]; /* the violation, if any       */
    /* private */
    int              pay_line;
} oc_run;

static cc_log oc__sink(oc_run *r)
{
    cc_log l;
    l.log = r->log;
    l.cap = r->log_cap;
    l.len = &r->log_len;
    l.hash = &r->log_hash;
    l.pay_line = &r->pay_line;
    return l;
}

static void oc__line(oc_run *r, const char *fmt, ...)
{
    cc_log l = oc__sink(r);
    va_list ap;
    va_start(ap, fmt);
    cc_vline(&l, fmt, ap);
    va_end(ap);
}

static const char *oc__fail(oc_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_vfail(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return r->msg;
}

static uint64_t oc__rd(const uint8_t *p, unsigned n, int be)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++) v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

/* ---- the reference walk ------------------------------------------------ */

/* What a decode of the whole input must end in. */
typedef struct oc_model {
    tdec_status st;
    uint64_t    err_offset;
    uint32_t    reason;
    size_t      events;
} oc_model;

static void oc__model_end(oc_model *m, tdec_status st, uint64_t off, uint32_t reason)
{
    m->st = st;
    m->err_offset = off;
    m->reason = reason;
}

/* The stream layout (ovni's trace specification), walked directly over the
   whole input. Returns the final status, also in m->st. */
static tdec_status oc_model_walk(const uint8_t *in, size_t len, const tdec_ovni_config *cfg, oc_model *m)
{
    size_t pos = 8, need;
    uint64_t clock, last = 0, blob, max = cfg && cfg->max_jumbo ? cfg->max_jumbo : UINT32_MAX;
    int be, strict = cfg && (cfg->flags & TDEC_OVNI_F_STRICT_CLOCK);
    m->events = 0;
    oc__model_end(m, TDEC_END, 0, TDEC_OVNI_R_NONE);
    if (len < 8) oc__model_end(m, TDEC_E_TRUNCATED, 0, TDEC_OVNI_R_HEADER);
    else if (memcmp(in, "ovni", 4) != 0) oc__model_end(m, TDEC_E_FORMAT, 0, TDEC_OVNI_R_MAGIC);
    else if (oc__rd(in + 4, 4, 0) != 1 && oc__rd(in + 4, 4, 1) != 1)
        oc__model_end(m, TDEC_E_VERSION, 0, TDEC_OVNI_R_VERSION);
    if (m->st != TDEC_END) return m->st;
    be = oc__rd(in + 4, 4, 0) != 1;
    while (pos < len) {
        const uint8_t *p = in + pos;
        int jumbo = (p[0] & 0x10) != 0;
        need = jumbo ? 16u : 12u + ((p[0] & 15u) ? (p[0] & 15u) + 1u : 0u);
        if (len - pos < need) {
            oc__model_end(m, TDEC_E_TRUNCATED, pos, TDEC_OVNI_R_EVENT);
            break;
        }
        clock = oc__rd(p + 4, 8, be);
        blob = jumbo ? oc__rd(p + 12, 4, be) : 0;
        if (strict && (int64_t)clock < (int64_t)last) {
            oc__model_end(m, TDEC_E_CORRUPT, pos, TDEC_OVNI_R_CLOCK);
            break;
        }
        if (blob > max) {
            oc__model_end(m, TDEC_E_LIMIT, pos, TDEC_OVNI_R_LIMIT);
            break;
        }
        m->events++;
        last = clock;
        if (len - pos - need < blob) {
            oc__model_end(m, TDEC_E_TRUNCATED, pos, TDEC_OVNI_R_JUMBO);
            break;
        }
        pos += need + (size_t)blob;
    }
    return m->st;
}

/* ---- the log ------------------------------------------------------------ */

static void oc__log_frag(oc_run *r, const tdec_frag *f, uint64_t off)
{
    cc_log l = oc__sink(r);
    if (f->flags & TDEC_FRAG_FIRST)
        oc__line(r, "P off=%llu total=%llu :", (unsigned long long)off, (unsigned long long)f->total);
    cc_hex(&l, f->data, f->len);
    r->pay_line = 1;
    if (f->flags & TDEC_FRAG_LAST) {
        cc_put(&l, "\n", 1);
        r->pay_line = 0;
    }
}

static void oc__log_rec(oc_run *r, const tdec_ovni_record *e, uint64_t off)
{
    cc_log l = oc__sink(r);
    char line[300], *p = line;
    cc_close_pay(&l);
    if (e->type == TDEC_OVNI_REC_HEADER) {
        p = cc_kv(p, "H off=", off, 0);
        p = cc_kv(p, " v=", e->version, 0);
        p = cc_kv(p, " be=", e->big_endian, 0);
        cc_put(&l, line, (size_t)(p - line));
        cc_put(&l, "\n", 1);
        return;
    }
    p = cc_kv(p, "R off=", off, 0);
    cc_put(&l, line, (size_t)(p - line));
    cc_put(&l, " mcv=", 5);
    cc_hex(&l, e->mcv, 3);
    p = line;
    p = cc_kv(p, " fl=", e->flags, 0);
    p = cc_kv(p, " code=", e->size_code, 0);
    p = cc_kv(p, " j=", e->jumbo, 0);
    p = cc_kv(p, " clk=", e->clock, 0);
    p = cc_kv(p, " sz=", e->size, 0);
    p = cc_kv(p, " jl=", e->jumbo_len, 0);
    p = cc_kv(p, " back=", e->clock_backwards, 0);
    p = cc_kv(p, " v=", e->version, 0);
    p = cc_kv(p, " be=", e->big_endian, 0);
    p = cc_kv(p, " pl=", e->payload_len, 0);
    cc_put(&l, line, (size_t)(p - line));
    cc_put(&l, " :", 2);
    cc_hex(&l, e->payload, sizeof e->payload);
    cc_put(&l, "\n", 1);
}

/* ---- the stream decoder ----------------------------------------------- */

/* The layout the checker expects. */
typedef struct oc_lay {
    uint64_t expect;   /* where the next item starts             */
    uint64_t last;     /* previous event's clock                 */
    uint64_t pay_total, pay_got;
    int      pay_open; /* fragments of a blob expected           */
    int      header;   /* header record seen                     */
    int      be;
} oc_lay;

static const char *oc__header(oc_run *r, oc_lay *l, const tdec_ovni_record *e, uint64_t off, const uint8_t *in,
                              size_t len)
{
    static const uint8_t zero[16] = {0};
    if (l->header || off != 0) return oc__fail(r, "header record at %llu", (unsigned long long)off);
    if (len < 8 || memcmp(in, "ovni", 4) != 0) return oc__fail(r, "header record for a bad header");
    l->header = 1;
    l->be = oc__rd(in + 4, 4, 0) != 1;
    if (oc__rd(in + 4, 4, l->be) != 1 || e->big_endian != l->be || e->version != 1)
        return oc__fail(r, "header record: version %u big_endian %u", e->version, e->big_endian);
    if (e->clock || e->size || e->jumbo_len || e->mcv[0] || e->mcv[1] || e->mcv[2] || e->flags || e->size_code ||
        e->jumbo || e->payload_len || e->clock_backwards || memcmp(e->payload, zero, 16) != 0)
        return oc__fail(r, "header record with event fields set");
    l->expect = 8;
    return NULL;
}

/* Checks one event record against the input bytes; advances the layout. */
static const char *oc__event(oc_run *r, oc_lay *l, const tdec_ovni_record *e, uint64_t off, const uint8_t *in,
                             size_t len)
{
    const uint8_t *p = in + off;
    unsigned code, pl, i;
    uint64_t max = r->cfg.max_jumbo ? r->cfg.max_jumbo : UINT32_MAX, jl;
    int jumbo, back;
    if (!l->header) return oc__fail(r, "event before the header record");
    if (off != l->expect)
        return oc__fail(r, "event at %llu, expected %llu", (unsigned long long)off, (unsigned long long)l->expect);
    if (off + 12 > len) return oc__fail(r, "event at %llu runs past the input", (unsigned long long)off);
    jumbo = (p[0] & 0x10) != 0;
    code = p[0] & 15u;
    pl = jumbo ? 4u : code ? code + 1u : 0u;
    if (off + 12 + pl > len) return oc__fail(r, "event at %llu runs past the input", (unsigned long long)off);
    jl = jumbo ? oc__rd(p + 12, 4, l->be) : 0;
    back = (int64_t)e->clock < (int64_t)l->last;
    if (e->flags != (p[0] & 0xF0u) || e->size_code != code || e->jumbo != jumbo)
        return oc__fail(r, "event at %llu: flags/size code/jumbo differ from byte 0", (unsigned long long)off);
    if (memcmp(e->mcv, p + 1, 3) != 0 || e->clock != oc__rd(p + 4, 8, l->be))
        return oc__fail(r, "event at %llu: MCV or clock differ from the input", (unsigned long long)off);
    if (e->payload_len != pl || memcmp(e->payload, p + 12, pl) != 0)
        return oc__fail(r, "event at %llu: payload differs from the input", (unsigned long long)off);
    for (i = pl; i < sizeof e->payload; i++)
        if (e->payload[i] != 0)
            return oc__fail(r, "event at %llu: payload byte %u past payload_len", (unsigned long long)off, i);
    if (e->jumbo_len != jl || e->size != 12u + pl + jl || jl > max)
        return oc__fail(r, "event at %llu: size %llu jumbo_len %u", (unsigned long long)off,
                        (unsigned long long)e->size, e->jumbo_len);
    if (e->clock_backwards != back || (back && (r->cfg.flags & TDEC_OVNI_F_STRICT_CLOCK)))
        return oc__fail(r, "event at %llu: clock_backwards %u", (unsigned long long)off, e->clock_backwards);
    if (e->version != 1 || e->big_endian != l->be)
        return oc__fail(r, "event at %llu: version or byte order", (unsigned long long)off);
    l->last = e->clock;
    l->expect = off + 12 + pl;
    if (jl == 0) return NULL;
    if (r->cfg.flags & TDEC_OVNI_F_SKIP_PAYLOADS) {
        l->expect += jl;
    } else {
        l->pay_open = 1;
        l->pay_total = jl;
        l->pay_got = 0;
    }
    return NULL;
}

/* Checks that every call after the final status agrees with it. */
static const char *oc__check_final(oc_run *r, tdec_ovni_decoder *d)
{
    static const uint8_t one = 0;
    tdec_ovni_item it;
    tdec_status st = r->status, s;
    uint64_t eo = d->st.err_offset;
    if (st == TDEC_END) {
        if ((s = tdec_ovni_next(d, &it)) != TDEC_END) return oc__fail(r, "next after END gave %d", s);
        if ((s = tdec_ovni_finish(d)) != TDEC_END) return oc__fail(r, "second finish gave %d", s);
        if ((s = tdec_ovni_feed(d, &one, 1)) != TDEC_E_SEQUENCE) return oc__fail(r, "feed after END gave %d", s);
        if ((s = tdec_ovni_next(d, &it)) != TDEC_END) return oc__fail(r, "next after END (2) gave %d", s);
        return NULL;
    }
    if (st == TDEC_E_ARG || st == TDEC_E_SEQUENCE) return oc__fail(r, "loop ended in misuse status %d", st);
    if (d->st.err != st) return oc__fail(r, "status %d but st.err %d", st, d->st.err);
    if ((s = tdec_ovni_next(d, &it)) != st) return oc__fail(r, "error %d not sticky in next: %d", st, s);
    if ((s = tdec_ovni_feed(d, &one, 1)) != st) return oc__fail(r, "error %d not sticky in feed: %d", st, s);
    if ((s = tdec_ovni_finish(d)) != st) return oc__fail(r, "error %d not sticky in finish: %d", st, s);
    if ((s = tdec_ovni_next(d, &it)) != st) return oc__fail(r, "error %d not sticky in next (2): %d", st, s);
    if (d->st.err_offset != eo) return oc__fail(r, "err_offset moved after the error");
    return NULL;
}

/* Checks one item against the layout and logs it. */
static const char *oc__item(oc_run *r, oc_lay *l, const tdec_ovni_item *it, const uint8_t *chunk, size_t chunk_len,
                            const uint8_t *in, size_t len)
{
    const char *bad;
    if (it->offset > len) return oc__fail(r, "item offset %llu beyond input", (unsigned long long)it->offset);
    if (l->pay_open && it->kind != TDEC_ITEM_FRAGMENT)
        return oc__fail(r, "blob at %llu interrupted by another item", (unsigned long long)it->offset);
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        const tdec_frag *f = &it->u.frag;
        if (it->offset != l->expect)
            return oc__fail(r, "fragment at %llu, expected %llu", (unsigned long long)it->offset,
                            (unsigned long long)l->expect);
        if (cc_frag_bad(r->msg, sizeof r->msg, f, it->offset, l->pay_open, l->pay_total, l->pay_got,
                        r->cfg.max_fragment, chunk, chunk_len, in, len))
            return r->msg;
        l->pay_got += f->len;
        l->expect += f->len;
        if (f->flags & TDEC_FRAG_LAST) l->pay_open = 0;
        oc__log_frag(r, f, it->offset);
        return NULL;
    }
    if (it->kind != TDEC_ITEM_RECORD) return oc__fail(r, "item kind %u", (unsigned)it->kind);
    if (it->u.rec.type == TDEC_OVNI_REC_HEADER) bad = oc__header(r, l, &it->u.rec, it->offset, in, len);
    else if (it->u.rec.type == TDEC_OVNI_REC_EVENT) bad = oc__event(r, l, &it->u.rec, it->offset, in, len);
    else bad = oc__fail(r, "record type %u", (unsigned)it->u.rec.type);
    if (bad) return bad;
    if (it->u.rec.type == TDEC_OVNI_REC_EVENT) r->events++;
    oc__log_rec(r, &it->u.rec, it->offset);
    return NULL;
}

/* Compares the end of a decode with the reference walk. */
static const char *oc__check_model(oc_run *r, const tdec_ovni_decoder *d, const oc_lay *l, const uint8_t *in,
                                   size_t len)
{
    oc_model m;
    (void)oc_model_walk(in, len, &r->cfg, &m);
    if (r->status != m.st || r->events != m.events)
        return oc__fail(r, "ended in %d after %zu events; the reference walk in %d after %zu", r->status, r->events,
                        m.st, m.events);
    if (m.st == TDEC_END && (l->expect != len || l->pay_open))
        return oc__fail(r, "END with %llu of %zu bytes accounted for", (unsigned long long)l->expect, len);
    if (m.st < 0 && (d->st.err_offset != m.err_offset || d->st.err_reason != m.reason))
        return oc__fail(r, "error at %llu reason %u; the reference walk at %llu reason %u",
                        (unsigned long long)d->st.err_offset, (unsigned)d->st.err_reason,
                        (unsigned long long)m.err_offset, (unsigned)m.reason);
    return NULL;
}

/* Decodes in[0..len) with r's config and schedule; fills r's outputs.
   Returns NULL, or a description of the first broken invariant. */
static const char *oc_decode(const uint8_t *in, size_t len, oc_run *r)
{
    static const uint8_t dummy = 0x10;
    tdec_ovni_decoder d, saved;
    tdec_ovni_item it;
    tdec_status st, s;
    uint8_t *chunk = NULL;
    size_t chunk_len = 0, fed = 0, cut_i = 0, n;
    uint32_t rng = r->seed;
    cc_sched sc;
    oc_lay l;
    const char *bad = NULL;

    sc.cuts = r->cuts;
    sc.ncuts = r->ncuts;
    sc.step = r->step;
    sc.seed = r->seed;
    memset(&l, 0, sizeof l);
    r->log_len = 0;
    r->log_hash = CC_FNV_BASIS;
    r->items = 0;
    r->events = 0;
    r->msg[0] = 0;
    r->pay_line = 0;
    if (r->log && r->log_cap) r->log[0] = 0;

    st = tdec_ovni_init(&d, &r->cfg);
    if (st != TDEC_NEED_INPUT) return oc__fail(r, "init gave %d", st);
    while (st >= 0 && bad == NULL) {
        st = tdec_ovni_next(&d, &it);
        if (st == TDEC_OK) {
            if (++r->items > len + 2) { bad = oc__fail(r, "more items than input bytes"); break; }
            if ((bad = oc__item(r, &l, &it, chunk, chunk_len, in, len)) != NULL) break;
            if (r->on_item) r->on_item(r->ctx, &it, &d);
            if (d.st.win_len > 0) { /* feed() now is a caller bug and must change nothing */
                memcpy(&saved, &d, sizeof d);
                s = tdec_ovni_feed(&d, &dummy, 1);
                if (s != TDEC_E_SEQUENCE || memcmp(&saved, &d, sizeof d) != 0)
                    bad = oc__fail(r, "feed with unread window gave %d or changed the decoder", s);
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break; /* END or an error */
        if (d.st.win_len != 0 || d.st.pos + d.st.carry_len != fed || d.st.carry_len > TDEC_CARRY_CAP) {
            bad = oc__fail(r, "NEED_INPUT with bytes unaccounted (pos %llu carry %u fed %zu)",
                           (unsigned long long)d.st.pos, (unsigned)d.st.carry_len, fed);
            break;
        }
        if (chunk) { /* the caller may reuse its buffer now: scribble, free */
            memset(chunk, 0xA5, chunk_len);
            free(chunk);
            chunk = NULL;
        }
        if (fed < len) {
            n = cc_chunk(&sc, fed, len, &rng, &cut_i);
            chunk = (uint8_t *)malloc(n ? n : 1);
            if (chunk == NULL) { bad = oc__fail(r, "out of memory"); break; }
            memcpy(chunk, in + fed, n);
            chunk_len = n;
            st = tdec_ovni_feed(&d, chunk, n);
            if (st != TDEC_NEED_INPUT) { bad = oc__fail(r, "feed after NEED_INPUT gave %d", st); break; }
            fed += n;
        } else {
            st = tdec_ovni_finish(&d);
            if (st == TDEC_NEED_INPUT || st == TDEC_OK) { bad = oc__fail(r, "finish gave %d", st); break; }
        }
    }
    if (chunk) free(chunk);
    r->status = st;
    if (bad) return bad;
    oc__line(r, "E st=%d off=%llu reason=%u pos=%llu\n", st, (unsigned long long)d.st.err_offset,
             (unsigned)d.st.err_reason, (unsigned long long)d.st.pos);
    if ((bad = oc__check_model(r, &d, &l, in, len)) != NULL) return bad;
    return oc__check_final(r, &d);
}

/* 1 if two runs produced the same log (compared by length, hash and text). */
static int oc_same_log(const oc_run *a, const oc_run *b)
{
    return cc_same_log(a->log, a->log_len, a->log_cap, a->log_hash, b->log, b->log_len, b->log_cap, b->log_hash);
}

/* Prints the first differing line of two logs to f (for failure reports). */
static void oc_print_diff(FILE *f, const oc_run *a, const oc_run *b)
{
    cc_print_diff(f, a->log, a->log_len, b->log, b->log_len);
}

/* ---- the description formatter ---------------------------------------- */

#define OC_CANARY 16

/* FNV-1a over n bytes into *h (callers fold outputs into one hash). */
static void oc__mix(uint64_t *h, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i;
    for (i = 0; i < n; i++) *h = (*h ^ b[i]) * 1099511628211ull;
}

/* An integer into *h, least significant byte first (host independent). */
static void oc__mix_u64(uint64_t *h, uint64_t v)
{
    uint8_t b[8];
    unsigned i;
    for (i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    oc__mix(h, b, 8);
}

/* One describe() call into a buffer of `cap` bytes followed by a canary.
   Returns NULL or the broken rule; *st and out[0..*len] are the result. */
static const char *oc__describe1(const tdec_ovni_sig *sig, const tdec_ovni_record *ev, const uint8_t *blob,
                                 size_t blob_len, char *out, size_t cap, tdec_status *st, size_t *len)
{
    size_t k;
    memset(out, 0x5A, cap + OC_CANARY);
    *len = (size_t)-1;
    *st = tdec_ovni_describe(sig, ev, blob, blob_len, out, cap, len);
    for (k = cap; k < cap + OC_CANARY; k++)
        if ((uint8_t)out[k] != 0x5A) return "describe wrote past cap";
    if (*st != TDEC_OK && *st != TDEC_E_CORRUPT && *st != TDEC_E_TRUNCATED && *st != TDEC_E_LIMIT &&
        *st != TDEC_E_FORMAT)
        return "describe gave an unexpected status";
    if (*len >= cap || out[*len] != 0) return "describe output not NUL-terminated within cap";
    if (strlen(out) != *len) return "describe length differs from the text";
    if (*st == TDEC_E_TRUNCATED && (!ev->jumbo || blob_len >= ev->jumbo_len))
        return "describe said TRUNCATED with the whole blob given";
    return NULL;
}

/* describe() with caps 1, 16 and 1024: each result must be the 1024 one's
   or stop earlier on E_LIMIT, its text a prefix of the 1024 one's. Folds
   the texts into *h. Returns NULL or the broken rule. */
static const char *oc_describe_check(const tdec_ovni_sig *sig, const tdec_ovni_record *ev, const uint8_t *blob,
                                     size_t blob_len, uint64_t *h)
{
    static char big[1024 + OC_CANARY], small[1024 + OC_CANARY];
    static const size_t caps[2] = {1, 16};
    tdec_status st, sst;
    size_t len, slen, k;
    const char *bad;
    if ((bad = oc__describe1(sig, ev, blob, blob_len, big, 1024, &st, &len)) != NULL) return bad;
    oc__mix_u64(h, (uint64_t)(int64_t)st);
    oc__mix(h, big, len);
    for (k = 0; k < 2; k++) {
        if ((bad = oc__describe1(sig, ev, blob, blob_len, small, caps[k], &sst, &slen)) != NULL) return bad;
        if (sst != st && sst != TDEC_E_LIMIT) return "describe status depends on cap";
        if (st == TDEC_E_LIMIT && sst != TDEC_E_LIMIT) return "describe fits a small cap but not a large one";
        if (slen > len || memcmp(small, big, slen) != 0) return "describe text at a small cap is not a prefix";
        if (sst == st && st != TDEC_E_LIMIT && slen != len) return "describe text depends on cap";
    }
    if (tdec_ovni_describe(NULL, ev, blob, blob_len, small, 16, &len) != TDEC_E_ARG ||
        tdec_ovni_describe(sig, ev, blob, blob_len, small, 0, &len) != TDEC_E_ARG)
        return "describe accepted a NULL sig or cap 0";
    return NULL;
}

/* ---- the JSON reader ---------------------------------------------------- */

#define OC_JSON_SMALL 8
#define OC_JSON_BIG   4096

/* Token i's text range [s, e) including quotes for strings. */
static void oc__tok_range(const tdec_ovni_json_token *t, uint64_t *s, uint64_t *e)
{
    *s = t->start - (t->type == TDEC_OVNI_JSON_STRING ? 1u : 0u);
    *e = (uint64_t)t->start + t->len + (t->type == TDEC_OVNI_JSON_STRING ? 1u : 0u);
}

/* Token invariants of a parsed document. */
static const char *oc__json_tokens(const tdec_ovni_json *j, const char *text, size_t len)
{
    uint32_t i, k, m;
    uint64_t s, e, cs, ce;
    if (j->ntok == 0 || j->ntok > j->cap || j->tok[0].next != j->ntok) return "json: root does not span the tokens";
    for (i = 0; i < j->ntok; i++) {
        const tdec_ovni_json_token *t = &j->tok[i];
        int cont = t->type == TDEC_OVNI_JSON_OBJECT || t->type == TDEC_OVNI_JSON_ARRAY;
        if (t->type < TDEC_OVNI_JSON_OBJECT || t->type > TDEC_OVNI_JSON_NULL) return "json: token type";
        if (t->type == TDEC_OVNI_JSON_STRING && t->start == 0) return "json: string without its quote";
        oc__tok_range(t, &s, &e);
        if (e > len || t->next <= i || t->next > j->ntok) return "json: token range or next";
        if (t->type == TDEC_OVNI_JSON_STRING && (text[s] != '"' || text[e - 1] != '"')) return "json: string quotes";
        if (cont && (t->len < 2 || text[s] != (t->type == TDEC_OVNI_JSON_OBJECT ? '{' : '[') ||
                     text[e - 1] != (t->type == TDEC_OVNI_JSON_OBJECT ? '}' : ']')))
            return "json: container brackets";
        if (!cont && (t->count != 0 || t->next != i + 1)) return "json: scalar with children";
        if (!cont) continue;
        /* Walk the children: keys are strings, all inside the parent. */
        k = i + 1;
        for (m = 0; m < t->count; m++) {
            if (k >= t->next) return "json: children past the parent";
            if (t->type == TDEC_OVNI_JSON_OBJECT) {
                if (j->tok[k].type != TDEC_OVNI_JSON_STRING || k + 1 >= t->next) return "json: object key";
                if (tdec_ovni_json_key(j, i, m) != (int32_t)k || tdec_ovni_json_child(j, i, m) != (int32_t)k + 1)
                    return "json: key()/child() disagree with the walk";
                oc__tok_range(&j->tok[k], &cs, &ce);
                if (cs <= s || ce >= e) return "json: key outside its object";
                k++;
            } else if (tdec_ovni_json_child(j, i, m) != (int32_t)k) {
                return "json: child() disagrees with the walk";
            }
            oc__tok_range(&j->tok[k], &cs, &ce);
            if (cs <= s || ce >= e) return "json: child outside its parent";
            k = j->tok[k].next;
        }
        if (k != t->next) return "json: count disagrees with next";
        if (tdec_ovni_json_child(j, i, t->count) != -1 || tdec_ovni_json_key(j, i, t->count) != -1)
            return "json: child()/key() past count";
    }
    return NULL;
}

/* json_string() of token t at caps 256, 1 and 8: whatever the status
   (but E_ARG), a NUL-terminated text within cap and *len set, never a byte
   past cap, the small-cap texts prefixes of the large one. */
static const char *oc__json_strings(const tdec_ovni_json *j, int32_t t, uint64_t *h)
{
    static char big[256 + OC_CANARY], small[256 + OC_CANARY];
    static const size_t caps[3] = {256, 1, 8};
    tdec_status st = TDEC_OK, s;
    size_t len = 0, l, k, c;
    for (c = 0; c < 3; c++) {
        char *out = c ? small : big;
        memset(out, 0x5A, caps[c] + OC_CANARY);
        l = (size_t)-1;
        s = tdec_ovni_json_string(j, t, out, caps[c], &l);
        for (k = caps[c]; k < caps[c] + OC_CANARY; k++)
            if ((uint8_t)out[k] != 0x5A) return "json_string wrote past cap";
        if (s != TDEC_OK && s != TDEC_E_LIMIT && s != TDEC_E_FORMAT) return "json_string status";
        if (l >= caps[c] || out[l] != 0) return "json_string output not NUL-terminated within cap";
        if (j->tok[t].type != TDEC_OVNI_JSON_STRING && (s != TDEC_E_FORMAT || l != 0))
            return "json_string on a non-string";
        if (l > j->tok[t].len) return "json_string longer than the escaped text";
        if (c == 0) {
            st = s;
            len = l;
            oc__mix_u64(h, (uint64_t)(int64_t)s);
            oc__mix(h, big, len);
            continue;
        }
        if (s == TDEC_OK && st != TDEC_OK) return "json_string fits a small cap but not a large one";
        if (s == TDEC_E_FORMAT && st != TDEC_E_FORMAT) return "json_string: bad escape found only at a small cap";
        if (l > len || memcmp(small, big, l) != 0) return "json_string at a small cap is not a prefix";
        if (s == st && s != TDEC_E_LIMIT && l != len) return "json_string text depends on cap";
    }
    return NULL;
}

/* json_int() of token t: a plain integer's value is checked. */
static const char *oc__json_int(const tdec_ovni_json *j, int32_t t, uint64_t *h)
{
    const tdec_ovni_json_token *tk = &j->tok[t];
    const char *p = j->text + tk->start;
    int64_t v = 0;
    uint64_t mag = 0;
    uint32_t k = (uint32_t)(p[0] == '-');
    int plain = 1;
    tdec_status s = tdec_ovni_json_int(j, t, &v);
    if (tk->type != TDEC_OVNI_JSON_NUMBER) return s == TDEC_E_FORMAT ? NULL : "json_int on a non-number";
    if (s != TDEC_OK && s != TDEC_E_FORMAT && s != TDEC_E_LIMIT) return "json_int status";
    if (s != TDEC_OK) return NULL;
    oc__mix_u64(h, (uint64_t)v);
    for (; k < tk->len && plain; k++) {
        if (p[k] < '0' || p[k] > '9' || mag > UINT64_MAX / 20) plain = 0;
        else mag = mag * 10 + (uint64_t)(p[k] - '0');
    }
    if (plain && (p[0] == '-' ? (uint64_t)0 - (uint64_t)v != mag : (uint64_t)v != mag)) return "json_int value";
    return NULL;
}

/* json_find() on the first key paths of the document and a few fixed ones. */
static const char *oc__json_find(const tdec_ovni_json *j)
{
    static const char *const fixed[] = {"version", "ovni", "ovni.lib.version", "ovni.loom_cpus", "", "a..b"};
    char path[130];
    size_t k, n;
    int32_t v, w;
    for (k = 0; k < sizeof fixed / sizeof fixed[0]; k++) {
        v = tdec_ovni_json_find(j, 0, fixed[k]);
        if (v < -1 || v >= (int32_t)j->ntok) return "json_find out of range";
        if (j->tok[0].type != TDEC_OVNI_JSON_OBJECT && v != -1) return "json_find below a non-object";
    }
    if (j->tok[0].type != TDEC_OVNI_JSON_OBJECT || j->tok[0].count == 0 || j->tok[1].len > 60) return NULL;
    /* The first key finds the first value (when no '.' and no NUL in it). */
    n = j->tok[1].len;
    memcpy(path, j->text + j->tok[1].start, n);
    path[n] = 0;
    if (memchr(path, '.', n) || strlen(path) != n) return NULL;
    if (tdec_ovni_json_find(j, 0, path) != 2) return "json_find misses the first key";
    v = 2;
    if (j->tok[v].type != TDEC_OVNI_JSON_OBJECT || j->tok[v].count == 0 || j->tok[v + 1].len > 60) return NULL;
    path[n] = '.';
    memcpy(path + n + 1, j->text + j->tok[v + 1].start, j->tok[v + 1].len);
    path[n + 1 + j->tok[v + 1].len] = 0;
    if (memchr(path + n + 1, '.', j->tok[v + 1].len) || strlen(path) != n + 1 + j->tok[v + 1].len) return NULL;
    w = tdec_ovni_json_find(j, 0, path);
    if (w != v + 2) return "json_find misses the first nested key";
    return NULL;
}

/* meta_read(): indexes valid and of their type, presence bits agree. */
static const char *oc__json_meta(const tdec_ovni_json *j)
{
    tdec_ovni_meta m;
    int64_t v;
    const int32_t *tk[7];
    static const uint32_t type[7] = {TDEC_OVNI_JSON_STRING, TDEC_OVNI_JSON_STRING, TDEC_OVNI_JSON_ARRAY,
                                     TDEC_OVNI_JSON_OBJECT, TDEC_OVNI_JSON_STRING, TDEC_OVNI_JSON_STRING,
                                     TDEC_OVNI_JSON_STRING};
    static const uint32_t bit[7] = {TDEC_OVNI_META_LOOM,    TDEC_OVNI_META_PART,        TDEC_OVNI_META_CPUS,
                                    TDEC_OVNI_META_REQUIRE, TDEC_OVNI_META_LIB_VERSION, TDEC_OVNI_META_LIB_COMMIT,
                                    TDEC_OVNI_META_MODEL_VERSION};
    size_t k;
    tdec_status s = tdec_ovni_meta_read(j, &m);
    if (j->tok[0].type != TDEC_OVNI_JSON_OBJECT) return s == TDEC_E_FORMAT ? NULL : "meta_read on a non-object";
    if (s != TDEC_OK) return "meta_read failed on an object";
    tk[0] = &m.loom, tk[1] = &m.part, tk[2] = &m.cpus, tk[3] = &m.require;
    tk[4] = &m.lib_version, tk[5] = &m.lib_commit, tk[6] = &m.model_version;
    for (k = 0; k < 7; k++) {
        int32_t t = *tk[k];
        if ((t >= 0) != ((m.present & bit[k]) != 0)) return "meta_read presence bit disagrees with its index";
        if (t < -1 || t >= (int32_t)j->ntok || (t >= 0 && j->tok[t].type != type[k])) return "meta_read index";
    }
    if (m.present & TDEC_OVNI_META_VERSION) {
        if (tdec_ovni_json_int(j, tdec_ovni_json_find(j, 0, "version"), &v) != TDEC_OK || v != m.version)
            return "meta_read version differs from json_int";
    }
    return NULL;
}

/* Parses text with a small and a large token array; checks the tokens,
   the lookups and meta_read() on success. Folds results into *h. */
static const char *oc_json_check(const char *text, size_t len, uint64_t *h)
{
    static tdec_ovni_json_token big[OC_JSON_BIG], small[OC_JSON_SMALL];
    tdec_ovni_json jb, js;
    tdec_status sb, ss;
    uint32_t i;
    const char *bad;
    sb = tdec_ovni_json_parse(&jb, text, len, big, OC_JSON_BIG);
    ss = tdec_ovni_json_parse(&js, text, len, small, OC_JSON_SMALL);
    oc__mix_u64(h, (uint64_t)(int64_t)sb);
    if (sb != TDEC_OK && sb != TDEC_E_FORMAT && sb != TDEC_E_LIMIT) return "json_parse status";
    if ((sb != TDEC_OK && (jb.ntok != 0 || jb.err_offset > len)) ||
        (ss != TDEC_OK && (js.ntok != 0 || js.err_offset > len)))
        return "json_parse failure with tokens or bad err_offset";
    if (ss == TDEC_OK && (sb != TDEC_OK || jb.ntok != js.ntok || memcmp(big, small, js.ntok * sizeof *small) != 0))
        return "json_parse: small and large token arrays disagree";
    if (sb == TDEC_OK && ss != (jb.ntok > OC_JSON_SMALL ? TDEC_E_LIMIT : TDEC_OK))
        return "json_parse: token limit not reported as E_LIMIT";
    if (sb == TDEC_E_FORMAT && ss != TDEC_E_FORMAT && ss != TDEC_E_LIMIT)
        return "json_parse: small array parses bad text";
    if (sb == TDEC_E_LIMIT && ss != TDEC_E_LIMIT) return "json_parse: small array avoids the token limit";
    if (sb == TDEC_E_FORMAT && ss == TDEC_E_FORMAT && jb.err_offset != js.err_offset)
        return "json_parse: error offset depends on the token array";
    if (sb != TDEC_OK) return NULL;
    if ((bad = oc__json_tokens(&jb, text, len)) != NULL) return bad;
    for (i = 0; i < jb.ntok; i++) {
        oc__mix_u64(h, big[i].type);
        oc__mix_u64(h, big[i].start);
        oc__mix_u64(h, big[i].len);
        oc__mix_u64(h, big[i].count);
        oc__mix_u64(h, big[i].next);
    }
    if ((bad = oc__json_find(&jb)) != NULL || (bad = oc__json_meta(&jb)) != NULL) return bad;
    for (i = 0; i < jb.ntok && i < 512; i++) {
        if ((bad = oc__json_int(&jb, (int32_t)i, h)) != NULL) return bad;
        if ((bad = oc__json_strings(&jb, (int32_t)i, h)) != NULL) return bad;
    }
    if (tdec_ovni_json_child(&jb, jb.ntok, 0) != -1 || tdec_ovni_json_find(&jb, jb.ntok, "a") != -1)
        return "json lookups accept a token index past ntok";
    return NULL;
}

#endif /* OVNI_CHECK_H */
