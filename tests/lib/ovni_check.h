/* ovni_check.h - the ovni oracle: decodes a buffer through the public API
   of single/tdec_ovni.h in a chosen chunk schedule, writes a canonical log
   of the items and checks the decoder's contract on the way; checks the
   JSON reader and the description formatter on arbitrary text. Used by
   tests/unit/ovni.c and fuzz/fuzz_ovni.c; the parts every format shares
   (the canonical loop and its checks, chunk invariance, every prefix) are
   in tests/lib/check_common.h. Include-only; the includer defines
   TDEC_OVNI_IMPLEMENTATION first (or links the implementation) and builds
   with -I<repo root>.

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

   Invariants checked by oc_decode() besides check_common.h's (the first
   violation ends the run with a message): the header record comes first,
   at 0, and says the byte order its version field has; every event's
   fields are the input's bytes at its offset (flags, size code, MCV, clock
   in the stream's byte order, payload, jumbo length), its size is
   12 + payload_len or 16 + jumbo_len, payload bytes past payload_len are
   zero, clock_backwards follows ovni's signed rule and never shows under
   STRICT_CLOCK; items start where the previous one ended (the next record
   is at offset + size, blob included) and lie within the input; fragments
   tile [0,jumbo_len) of the event just before them; SKIP_PAYLOADS gives no
   fragments; the final status, err_offset, err_reason and the number of
   events equal those of a plain reference walk of the input
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

/* The layout the oracle expects. */
typedef struct oc_lay {
    uint64_t expect; /* where the next item starts             */
    uint64_t last;   /* previous event's clock                 */
    cc_pay   pay;    /* a jumbo blob                           */
    int      header; /* header record seen                     */
    int      be;
} oc_lay;

typedef struct oc_run {
    cc_run           cc; /* schedule, log and outcome (check_common.h) */
    /* in */
    tdec_ovni_config cfg;
    void (*on_item)(void *ctx, const tdec_ovni_item *it, const tdec_ovni_decoder *d);
    void            *ctx;
    /* out */
    size_t           events;
    /* private */
    oc_lay           lay;
} oc_run;

CC_FN uint64_t oc__rd(const uint8_t *p, unsigned n, int be)
{
    uint64_t v = 0;
    unsigned i;
    if (be)
        for (i = 0; i < n; i++) v = v << 8 | p[i];
    else
        for (i = n; i-- > 0;) v = v << 8 | p[i];
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

CC_FN void oc__model_end(oc_model *m, tdec_status st, uint64_t off, uint32_t reason)
{
    m->st = st;
    m->err_offset = off;
    m->reason = reason;
}

/* The stream as ../shared/formats/ovni/FACTS.md section 3 describes it,
   walked directly over the whole input. Returns the final status, also in
   m->st. */
CC_FN tdec_status oc_model_walk(const uint8_t *in, size_t len, const tdec_ovni_config *cfg, oc_model *m)
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

CC_FN void oc__log_rec(cc_run *r, const tdec_ovni_record *e, uint64_t off)
{
    char line[300], *p = line;
    if (r->log == NULL) return;
    cc_close_pay(r);
    if (e->type == TDEC_OVNI_REC_HEADER) {
        p = cc_kv(p, "H off=", off, 0);
        p = cc_kv(p, " v=", e->version, 0);
        p = cc_kv(p, " be=", e->big_endian, 0);
    } else {
        p = cc_kv(p, "R off=", off, 0);
        p = cc_str(p, " mcv=", "");
        p = cc_hexs(p, e->mcv, 3);
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
        p = cc_str(p, " :", "");
        p = cc_hexs(p, e->payload, sizeof e->payload);
    }
    *p++ = '\n';
    cc_put(r, line, (size_t)(p - line));
}

/* ---- the stream decoder ----------------------------------------------- */

CC_FN const char *oc__header(oc_run *r, oc_lay *l, const tdec_ovni_record *e, uint64_t off, const uint8_t *in,
                              size_t len)
{
    static const uint8_t zero[16] = {0};
    if (l->header || off != 0) return cc_fail(&r->cc, "header record at %llu", (unsigned long long)off);
    if (len < 8 || memcmp(in, "ovni", 4) != 0) return cc_fail(&r->cc, "header record for a bad header");
    l->header = 1;
    l->be = oc__rd(in + 4, 4, 0) != 1;
    if (oc__rd(in + 4, 4, l->be) != 1 || e->big_endian != l->be || e->version != 1)
        return cc_fail(&r->cc, "header record: version %u big_endian %u", e->version, e->big_endian);
    if (e->clock || e->size || e->jumbo_len || e->mcv[0] || e->mcv[1] || e->mcv[2] || e->flags || e->size_code ||
        e->jumbo || e->payload_len || e->clock_backwards || memcmp(e->payload, zero, 16) != 0)
        return cc_fail(&r->cc, "header record with event fields set");
    l->expect = 8;
    return NULL;
}

/* Checks one event record against the input bytes; advances the layout. */
CC_FN const char *oc__event(oc_run *r, oc_lay *l, const tdec_ovni_record *e, uint64_t off, const uint8_t *in,
                             size_t len)
{
    const uint8_t *p = in + off;
    unsigned code, pl, i;
    uint64_t max = r->cfg.max_jumbo ? r->cfg.max_jumbo : UINT32_MAX, jl;
    int jumbo, back;
    if (!l->header) return cc_fail(&r->cc, "event before the header record");
    if (off != l->expect)
        return cc_fail(&r->cc, "event at %llu, expected %llu", (unsigned long long)off, (unsigned long long)l->expect);
    if (off + 12 > len) return cc_fail(&r->cc, "event at %llu runs past the input", (unsigned long long)off);
    jumbo = (p[0] & 0x10) != 0;
    code = p[0] & 15u;
    pl = jumbo ? 4u : code ? code + 1u : 0u;
    if (off + 12 + pl > len) return cc_fail(&r->cc, "event at %llu runs past the input", (unsigned long long)off);
    jl = jumbo ? oc__rd(p + 12, 4, l->be) : 0;
    back = (int64_t)e->clock < (int64_t)l->last;
    if (e->flags != (p[0] & 0xF0u) || e->size_code != code || e->jumbo != jumbo)
        return cc_fail(&r->cc, "event at %llu: flags/size code/jumbo differ from byte 0", (unsigned long long)off);
    if (memcmp(e->mcv, p + 1, 3) != 0 || e->clock != oc__rd(p + 4, 8, l->be))
        return cc_fail(&r->cc, "event at %llu: MCV or clock differ from the input", (unsigned long long)off);
    if (e->payload_len != pl || memcmp(e->payload, p + 12, pl) != 0)
        return cc_fail(&r->cc, "event at %llu: payload differs from the input", (unsigned long long)off);
    for (i = pl; i < sizeof e->payload; i++)
        if (e->payload[i] != 0)
            return cc_fail(&r->cc, "event at %llu: payload byte %u past payload_len", (unsigned long long)off, i);
    if (e->jumbo_len != jl || e->size != 12u + pl + jl || jl > max)
        return cc_fail(&r->cc, "event at %llu: size %llu jumbo_len %u", (unsigned long long)off,
                        (unsigned long long)e->size, e->jumbo_len);
    if (e->clock_backwards != back || (back && (r->cfg.flags & TDEC_OVNI_F_STRICT_CLOCK)))
        return cc_fail(&r->cc, "event at %llu: clock_backwards %u", (unsigned long long)off, e->clock_backwards);
    if (e->version != 1 || e->big_endian != l->be)
        return cc_fail(&r->cc, "event at %llu: version or byte order", (unsigned long long)off);
    l->last = e->clock;
    l->expect = off + 12 + pl;
    if (jl == 0) return NULL;
    if (r->cfg.flags & TDEC_OVNI_F_SKIP_PAYLOADS) l->expect += jl;
    else cc_pay_open(&l->pay, jl);
    return NULL;
}

/* Checks one item against the layout and logs it. */
CC_FN const char *oc__item(cc_run *c, void *dv, const void *iv, const cc_feed *f)
{
    oc_run *r = (oc_run *)c;
    oc_lay *l = &r->lay;
    const tdec_ovni_item *it = (const tdec_ovni_item *)iv;
    const char *bad;
    if (it->offset > f->len) return cc_fail(c, "item offset %llu beyond input", (unsigned long long)it->offset);
    if (l->pay.open && it->kind != TDEC_ITEM_FRAGMENT)
        return cc_fail(c, "blob at %llu interrupted by another item", (unsigned long long)it->offset);
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        const tdec_frag *fr = &it->u.frag;
        if (it->offset != l->expect)
            return cc_fail(c, "fragment at %llu, expected %llu", (unsigned long long)it->offset,
                           (unsigned long long)l->expect);
        if ((bad = cc_frag(c, &l->pay, fr, it->offset, r->cfg.max_fragment, f)) != NULL) return bad;
        l->expect += fr->len;
        cc_log_frag(c, fr, it->offset);
    } else if (it->kind != TDEC_ITEM_RECORD) {
        return cc_fail(c, "item kind %u", (unsigned)it->kind);
    } else {
        if (it->u.rec.type == TDEC_OVNI_REC_HEADER) bad = oc__header(r, l, &it->u.rec, it->offset, f->in, f->len);
        else if (it->u.rec.type == TDEC_OVNI_REC_EVENT) bad = oc__event(r, l, &it->u.rec, it->offset, f->in, f->len);
        else bad = cc_fail(c, "record type %u", (unsigned)it->u.rec.type);
        if (bad) return bad;
        if (it->u.rec.type == TDEC_OVNI_REC_EVENT) r->events++;
        c->records++;
        oc__log_rec(c, &it->u.rec, it->offset);
    }
    if (r->on_item) r->on_item(r->ctx, it, (const tdec_ovni_decoder *)dv);
    return NULL;
}

/* Compares the end of a decode with the reference walk. */
CC_FN const char *oc__check_model(oc_run *r, const uint8_t *in, size_t len)
{
    oc_model m;
    (void)oc_model_walk(in, len, &r->cfg, &m);
    if (r->cc.status != m.st || r->events != m.events)
        return cc_fail(&r->cc, "ended in %d after %zu events; the reference walk in %d after %zu", r->cc.status,
                       r->events, m.st, m.events);
    if (m.st == TDEC_END && (r->lay.expect != len || r->lay.pay.open))
        return cc_fail(&r->cc, "END with %llu of %zu bytes accounted for", (unsigned long long)r->lay.expect, len);
    if (m.st < 0 && (r->cc.err_offset != m.err_offset || r->cc.err_reason != m.reason))
        return cc_fail(&r->cc, "error at %llu reason %u; the reference walk at %llu reason %u",
                       (unsigned long long)r->cc.err_offset, (unsigned)r->cc.err_reason,
                       (unsigned long long)m.err_offset, (unsigned)m.reason);
    return NULL;
}

CC_STREAM_CALLS(oc__, tdec_ovni_)

static const cc_format oc__format = {sizeof(tdec_ovni_decoder), sizeof(tdec_ovni_item), 1, oc__next, oc__feed,
                                     oc__finish, oc__reset, oc__stream, oc__item, NULL, NULL};

/* Decodes in[0..len) with the config and schedule of the oc_run that c
   starts; fills its outputs. Returns NULL, or a description of the first
   broken invariant. */
CC_FN const char *oc_decode(const uint8_t *in, size_t len, cc_run *c)
{
    static tdec_ovni_decoder slots[2];
    oc_run *r = (oc_run *)c;
    void *d;
    tdec_stream *ss;
    const char *bad;

    memset(&r->lay, 0, sizeof r->lay);
    r->events = 0;
    if ((bad = cc_loop(c, &oc__format, tdec_ovni_init(&slots[0], &r->cfg), slots, &d, in, len)) != NULL) return bad;
    ss = oc__stream(d);
    cc_line(c, "E st=%d off=%llu reason=%u pos=%llu\n", c->status, (unsigned long long)ss->err_offset,
            (unsigned)ss->err_reason, (unsigned long long)ss->pos);
    if ((bad = oc__check_model(r, in, len)) != NULL) return bad;
    return cc_final(c, &oc__format, d);
}

/* ---- the description formatter ---------------------------------------- */

#define OC_CANARY 16

/* One describe() call into a buffer of `cap` bytes followed by a canary.
   Returns NULL or the broken rule; *st and out[0..*len] are the result. */
CC_FN const char *oc__describe1(const tdec_ovni_sig *sig, const tdec_ovni_record *ev, const uint8_t *blob,
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
CC_FN const char *oc_describe_check(const tdec_ovni_sig *sig, const tdec_ovni_record *ev, const uint8_t *blob,
                                     size_t blob_len, uint64_t *h)
{
    static char big[1024 + OC_CANARY], small[1024 + OC_CANARY];
    static const size_t caps[2] = {1, 16};
    tdec_status st, sst;
    size_t len, slen, k;
    const char *bad;
    if ((bad = oc__describe1(sig, ev, blob, blob_len, big, 1024, &st, &len)) != NULL) return bad;
    cc_mix_u64(h, (uint64_t)(int64_t)st);
    cc_mix(h, big, len);
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
CC_FN void oc__tok_range(const tdec_ovni_json_token *t, uint64_t *s, uint64_t *e)
{
    *s = t->start - (t->type == TDEC_OVNI_JSON_STRING ? 1u : 0u);
    *e = (uint64_t)t->start + t->len + (t->type == TDEC_OVNI_JSON_STRING ? 1u : 0u);
}

/* Token invariants of a parsed document. */
CC_FN const char *oc__json_tokens(const tdec_ovni_json *j, const char *text, size_t len)
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
CC_FN const char *oc__json_strings(const tdec_ovni_json *j, int32_t t, uint64_t *h)
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
            cc_mix_u64(h, (uint64_t)(int64_t)s);
            cc_mix(h, big, len);
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
CC_FN const char *oc__json_int(const tdec_ovni_json *j, int32_t t, uint64_t *h)
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
    cc_mix_u64(h, (uint64_t)v);
    for (; k < tk->len && plain; k++) {
        if (p[k] < '0' || p[k] > '9' || mag > UINT64_MAX / 20) plain = 0;
        else mag = mag * 10 + (uint64_t)(p[k] - '0');
    }
    if (plain && (p[0] == '-' ? (uint64_t)0 - (uint64_t)v != mag : (uint64_t)v != mag)) return "json_int value";
    return NULL;
}

/* json_find() on the first key paths of the document and a few fixed ones. */
CC_FN const char *oc__json_find(const tdec_ovni_json *j)
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
CC_FN const char *oc__json_meta(const tdec_ovni_json *j)
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
CC_FN const char *oc_json_check(const char *text, size_t len, uint64_t *h)
{
    static tdec_ovni_json_token big[OC_JSON_BIG], small[OC_JSON_SMALL];
    tdec_ovni_json jb, js;
    tdec_status sb, ss;
    uint32_t i;
    const char *bad;
    sb = tdec_ovni_json_parse(&jb, text, len, big, OC_JSON_BIG);
    ss = tdec_ovni_json_parse(&js, text, len, small, OC_JSON_SMALL);
    cc_mix_u64(h, (uint64_t)(int64_t)sb);
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
        cc_mix_u64(h, big[i].type);
        cc_mix_u64(h, big[i].start);
        cc_mix_u64(h, big[i].len);
        cc_mix_u64(h, big[i].count);
        cc_mix_u64(h, big[i].next);
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
