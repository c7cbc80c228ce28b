/* xray_check.h - decode a buffer through the public XRay API with a chosen
   chunk schedule, write a canonical log of the items, and check the
   decoder's contract on the way. Shared by fuzz/fuzz_xray.c and
   tests/unit/xray.c so the invariants exist once. Include-only (static
   functions); the includer defines TDEC_XRAY_IMPLEMENTATION first (or links
   the implementation) and builds with -I<repo root>.

   The log has one line per item and does not depend on chunking:
     H off=.. v=.. type=.. flags=.. freq=.. bufsz=..      the header record
     R off=.. t=NAME act=.. fid=.. ...                    any other record
     P off=.. total=.. :HEX...                            a payload, reassembled
                                                          (" cut" if it never ended)
     G off=.. len=.. reason=..                            a gap
     S err=.. off=.. reason=..  /  S resync=..           an error, resync()'s result
     E st=.. off=.. reason=.. pos=..                      the final status
   Long logs are cut at the caller's capacity; length and FNV-1a hash always
   cover the whole log, so two runs compare exactly.

   Invariants checked (the first violation ends the run with a message):
   every item starts where the previous one ended (records, fragments, gaps
   and skipped payloads account for every byte) and within the input; the
   header record comes first; fragments tile [0,total) of the payload of the
   record just before them with correct FIRST/LAST flags, point into the
   chunk just fed and hold the input's bytes; NEED_INPUT leaves nothing
   unread (pos + carry == bytes fed) and the next feed() is accepted; feed()
   while the window is not used up is E_SEQUENCE and changes nothing;
   errors are sticky in next/feed/finish; a second finish() agrees; after
   END the stream is fully accounted for; a resync() is followed by a
   RESYNC gap before any record. */
#ifndef XRAY_CHECK_H
#define XRAY_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "single/tdec_xray.h"
#include "tests/lib/check_common.h"

#define XC_MAX_RESYNC 8

typedef struct xc_run {
    /* in: config and chunk schedule. Chunks end at each cut (ascending
       stream offsets), then every `step` bytes (0: the rest of the input),
       or, with a non-zero seed, at random lengths (some of them 0). */
    tdec_xray_config cfg;
    const size_t    *cuts;
    size_t           ncuts;
    size_t           step;
    uint32_t         seed;
    int              resync; /* call resync() after errors from next()   */
    void (*on_item)(void *ctx, const tdec_xray_item *it, const tdec_xray_decoder *d);
    void            *ctx;
    char            *log;    /* may be NULL (hash only)                    */
    size_t           log_cap;
    /* out */
    size_t           log_len;  /* whole log, even past log_cap            */
    uint64_t         log_hash;
    tdec_status      status;   /* final status of the loop                */
    size_t           items;
    char             msg[200]; /* the violation, if any                   */
    /* private */
    int              pay_line; /* a payload line is open in the log       */
} xc_run;

static cc_log xc__sink(xc_run *r)
{
    cc_log l;
    l.log = r->log;
    l.cap = r->log_cap;
    l.len = &r->log_len;
    l.hash = &r->log_hash;
    l.pay_line = &r->pay_line;
    return l;
}

static void xc__put(xc_run *r, const char *s, size_t n)
{
    cc_log l = xc__sink(r);
    cc_put(&l, s, n);
}

static void xc__line(xc_run *r, const char *fmt, ...)
{
    cc_log l = xc__sink(r);
    va_list ap;
    va_start(ap, fmt);
    cc_vline(&l, fmt, ap);
    va_end(ap);
}

static const char *xc_rec_name(uint32_t t)
{
    static const char *const names[] = {"?",       "HEADER", "FUNCTION", "CALL_ARG", "NEW_BUFFER",
                                        "END_OF_BUFFER", "NEW_CPU", "TSC_WRAP", "WALLTIME",
                                        "CUSTOM", "EXTENTS", "TYPED", "PID", "PADDING", "UNKNOWN"};
    return t < sizeof names / sizeof names[0] ? names[t] : "?";
}

#define xc__kv cc_kv
#define xc__str cc_str

static void xc__log_item(xc_run *r, const tdec_xray_item *it, const tdec_xray_decoder *d)
{
    static const char hex[] = "0123456789abcdef";
    const tdec_xray_record *c = &it->u.rec;
    unsigned long long off = (unsigned long long)it->offset;
    char h[2];
    size_t i;
    if (it->kind == TDEC_ITEM_GAP) {
        xc__line(r, "G off=%llu len=%llu reason=%u\n", off, (unsigned long long)it->u.gap.len,
                 (unsigned)it->u.gap.reason);
    } else if (it->kind == TDEC_ITEM_FRAGMENT) {
        if (it->u.frag.flags & TDEC_FRAG_FIRST)
            xc__line(r, "P off=%llu total=%llu :", off, (unsigned long long)it->u.frag.total);
        for (i = 0; i < it->u.frag.len; i++) {
            h[0] = hex[it->u.frag.data[i] >> 4];
            h[1] = hex[it->u.frag.data[i] & 15];
            xc__put(r, h, 2);
        }
        r->pay_line = 1;
        if (it->u.frag.flags & TDEC_FRAG_LAST) {
            xc__put(r, "\n", 1);
            r->pay_line = 0;
        }
    } else if (c->type == TDEC_XRAY_REC_HEADER) {
        xc__line(r, "H off=%llu v=%u type=%u flags=%u freq=%llu bufsz=%llu\n", off, d->hdr.version,
                 d->hdr.file_type, (unsigned)d->hdr.flags, (unsigned long long)d->hdr.cycle_frequency,
                 (unsigned long long)d->hdr.buffer_size);
    } else {
        /* the common line, formatted by hand: vsnprintf would dominate */
        char line[320], *p = line;
        if (r->pay_line) xc__put(r, " cut\n", 5);
        r->pay_line = 0;
        p = xc__kv(p, "R off=", off, 0);
        p = xc__str(p, " t=", xc_rec_name(c->type));
        p = xc__kv(p, " act=", c->action, 0);
        p = xc__kv(p, " fid=", c->fid, 0);
        p = xc__kv(p, " tid=", c->tid, 0);
        p = xc__kv(p, " pid=", c->pid, 0);
        p = xc__kv(p, " cpu=", c->cpu, 0);
        p = xc__kv(p, " delta=", (unsigned long long)c->delta, c->delta < 0);
        p = xc__kv(p, " tsc=", c->tsc, 0);
        p = xc__kv(p, " val=", c->value, 0);
        p = xc__kv(p, " wall=", (unsigned long long)c->wall_sec, c->wall_sec < 0);
        p = xc__kv(p, " usec=", c->wall_usec, 0);
        p = xc__kv(p, " evt=", c->event_type, 0);
        p = xc__kv(p, " mk=", c->meta_kind, 0);
        p = xc__kv(p, " psz=", c->payload_size, 0);
        xc__put(r, line, (size_t)(p - line));
        if (c->raw_len > 0) xc__put(r, " raw=", 5);
        for (i = 0; i < c->raw_len && i < sizeof c->raw; i++) {
            h[0] = hex[c->raw[i] >> 4];
            h[1] = hex[c->raw[i] & 15];
            xc__put(r, h, 2);
        }
        xc__put(r, "\n", 1);
    }
}

static const char *xc__fail(xc_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_vfail(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return r->msg;
}

static size_t xc__chunk(xc_run *r, size_t fed, size_t len, uint32_t *rng, size_t *cut_i)
{
    cc_sched sc;
    sc.cuts = r->cuts;
    sc.ncuts = r->ncuts;
    sc.step = r->step;
    sc.seed = r->seed;
    return cc_chunk(&sc, fed, len, rng, cut_i);
}

/* Bytes an item of this kind occupies in the stream (payloads aside). */
static uint64_t xc__rec_size(const tdec_xray_item *it, const tdec_xray_decoder *d)
{
    const tdec_xray_record *c = &it->u.rec;
    if (c->type == TDEC_XRAY_REC_HEADER) return 32;
    if (c->type == TDEC_XRAY_REC_PADDING) return 0;
    if (d->hdr.file_type == TDEC_XRAY_BASIC) return 32;
    if (c->type == TDEC_XRAY_REC_UNKNOWN) return c->raw_len;
    return c->type == TDEC_XRAY_REC_FUNCTION ? 8 : 16;
}

/* Checks that every call after the final status agrees with it. */
static const char *xc__check_final(xc_run *r, tdec_xray_decoder *d)
{
    static const uint8_t one = 0;
    tdec_xray_item it;
    tdec_status st = r->status, s;
    uint64_t eo = d->st.err_offset;
    if (st == TDEC_END) {
        if ((s = tdec_xray_next(d, &it)) != TDEC_END) return xc__fail(r, "next after END gave %d", s);
        if ((s = tdec_xray_finish(d)) != TDEC_END) return xc__fail(r, "second finish gave %d", s);
        if ((s = tdec_xray_feed(d, &one, 1)) != TDEC_E_SEQUENCE)
            return xc__fail(r, "feed after END gave %d", s);
        if ((s = tdec_xray_next(d, &it)) != TDEC_END) return xc__fail(r, "next after END (2) gave %d", s);
        return NULL;
    }
    if (st == TDEC_E_ARG || st == TDEC_E_SEQUENCE) return xc__fail(r, "loop ended in misuse status %d", st);
    if (d->st.err != st) return xc__fail(r, "status %d but d.st.err %d", st, d->st.err);
    if ((s = tdec_xray_next(d, &it)) != st) return xc__fail(r, "error %d not sticky in next: %d", st, s);
    if ((s = tdec_xray_feed(d, &one, 1)) != st) return xc__fail(r, "error %d not sticky in feed: %d", st, s);
    if ((s = tdec_xray_finish(d)) != st) return xc__fail(r, "error %d not sticky in finish: %d", st, s);
    if ((s = tdec_xray_next(d, &it)) != st) return xc__fail(r, "error %d not sticky in next (2): %d", st, s);
    if (d->st.err_offset != eo) return xc__fail(r, "err_offset moved after the error");
    return NULL;
}

/* Decodes in[0..len) with r's config and schedule; fills r's outputs.
   Returns NULL, or a description of the first broken invariant. */
static const char *xc_decode(const uint8_t *in, size_t len, xc_run *r)
{
    static const uint8_t dummy = 0x0F;
    tdec_xray_decoder d, saved;
    tdec_xray_item it;
    tdec_status st, s;
    uint8_t *chunk = NULL;
    size_t chunk_len = 0, fed = 0, cut_i = 0, n;
    uint64_t expect = 0, pay_total = 0, pay_got = 0, max_pay;
    uint32_t rng = r->seed;
    int pay_open = 0, skip = (r->cfg.flags & TDEC_XRAY_F_SKIP_PAYLOADS) != 0;
    int resyncs = 0, want_resync_gap = 0, finishing = 0;
    const char *bad = NULL;

    r->log_len = 0;
    r->log_hash = 1469598103934665603ull;
    r->items = 0;
    r->msg[0] = 0;
    r->pay_line = 0;
    if (r->log && r->log_cap) r->log[0] = 0;
    max_pay = r->cfg.max_payload == 0 || r->cfg.max_payload > 0x7FFFFFFFu ? 0x7FFFFFFFu : r->cfg.max_payload;

    st = tdec_xray_init(&d, &r->cfg);
    if (st != TDEC_NEED_INPUT) return xc__fail(r, "init gave %d", st);
    while (st >= 0 && bad == NULL) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            r->items++;
            if (r->items > len + 8) { bad = xc__fail(r, "more items than input bytes"); break; }
            if (it.offset != expect)
                bad = xc__fail(r, "item %zu at offset %llu, expected %llu", r->items,
                               (unsigned long long)it.offset, (unsigned long long)expect);
            else if (it.offset > len)
                bad = xc__fail(r, "item offset %llu beyond input", (unsigned long long)it.offset);
            else if (want_resync_gap && (it.kind != TDEC_ITEM_GAP || it.u.gap.reason != TDEC_XRAY_R_RESYNC))
                bad = xc__fail(r, "resync not followed by a RESYNC gap");
            else if (pay_open && it.kind != TDEC_ITEM_FRAGMENT)
                bad = xc__fail(r, "payload at %llu interrupted by another item", (unsigned long long)it.offset);
            if (bad) break;
            want_resync_gap = 0;
            if (it.kind == TDEC_ITEM_GAP) {
                if (it.u.gap.len == 0) { bad = xc__fail(r, "empty gap"); break; }
                expect += it.u.gap.len;
            } else if (it.kind == TDEC_ITEM_FRAGMENT) {
                const tdec_frag *f = &it.u.frag;
                if (cc_frag_bad(r->msg, sizeof r->msg, f, it.offset, pay_open, pay_total, pay_got,
                                r->cfg.max_fragment, chunk, chunk_len, in, len))
                    bad = r->msg;
                if (bad) break;
                pay_got += f->len;
                expect += f->len;
                if (f->flags & TDEC_FRAG_LAST) pay_open = 0;
            } else if (it.kind == TDEC_ITEM_RECORD) {
                const tdec_xray_record *c = &it.u.rec;
                int has_pay = c->type == TDEC_XRAY_REC_CUSTOM_EVENT || c->type == TDEC_XRAY_REC_TYPED_EVENT ||
                              c->type == TDEC_XRAY_REC_PADDING;
                if (c->type < TDEC_XRAY_REC_HEADER || c->type > TDEC_XRAY_REC_UNKNOWN)
                    bad = xc__fail(r, "record type %u", (unsigned)c->type);
                else if ((c->type == TDEC_XRAY_REC_HEADER) != (it.offset == 0))
                    bad = xc__fail(r, "header record not first (offset %llu)", (unsigned long long)it.offset);
                else if (it.offset + xc__rec_size(&it, &d) > len)
                    bad = xc__fail(r, "record at %llu runs past the input", (unsigned long long)it.offset);
                else if (c->payload_size != 0 && !has_pay)
                    bad = xc__fail(r, "payload on a record of type %s", xc_rec_name(c->type));
                else if (c->payload_size > max_pay && c->type != TDEC_XRAY_REC_PADDING)
                    bad = xc__fail(r, "payload size above max_payload");
                if (bad) break;
                expect += xc__rec_size(&it, &d);
                if (c->payload_size > 0 && skip) expect += c->payload_size;
                else if (c->payload_size > 0) {
                    pay_open = 1;
                    pay_total = c->payload_size;
                    pay_got = 0;
                }
            } else {
                bad = xc__fail(r, "item kind %u", (unsigned)it.kind);
                break;
            }
            xc__log_item(r, &it, &d);
            if (r->on_item) r->on_item(r->ctx, &it, &d);
            if (d.st.win_len > 0) { /* feed() now is a caller bug and must change nothing */
                memcpy(&saved, &d, sizeof d);
                s = tdec_xray_feed(&d, &dummy, 1);
                if (s != TDEC_E_SEQUENCE || memcmp(&saved, &d, sizeof d) != 0)
                    bad = xc__fail(r, "feed with unread window gave %d or changed the decoder", s);
            }
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            if (d.st.win_len != 0 || d.st.pos + d.st.carry_len != fed || d.st.carry_len > TDEC_CARRY_CAP) {
                bad = xc__fail(r, "NEED_INPUT with bytes unaccounted (pos %llu carry %u fed %zu)",
                               (unsigned long long)d.st.pos, (unsigned)d.st.carry_len, fed);
                break;
            }
            if (chunk) { /* the caller may reuse its buffer now: scribble, free */
                memset(chunk, 0xA5, chunk_len);
                free(chunk);
                chunk = NULL;
            }
            if (fed < len) {
                n = xc__chunk(r, fed, len, &rng, &cut_i);
                chunk = (uint8_t *)malloc(n ? n : 1);
                if (chunk == NULL) { bad = xc__fail(r, "out of memory"); break; }
                memcpy(chunk, in + fed, n);
                chunk_len = n;
                st = tdec_xray_feed(&d, chunk, n);
                if (st != TDEC_NEED_INPUT) { bad = xc__fail(r, "feed after NEED_INPUT gave %d", st); break; }
                fed += n;
            } else {
                finishing = 1;
                st = tdec_xray_finish(&d);
                if (st == TDEC_NEED_INPUT || st == TDEC_OK) { bad = xc__fail(r, "finish gave %d", st); break; }
            }
            continue;
        }
        if (st < 0 && r->resync && !finishing && resyncs < XC_MAX_RESYNC && st != TDEC_E_ARG &&
            st != TDEC_E_SEQUENCE) {
            uint64_t eo = d.st.err_offset;
            resyncs++;
            xc__line(r, "S err=%d off=%llu reason=%u\n", st, (unsigned long long)eo, (unsigned)d.st.err_reason);
            s = tdec_xray_resync(&d);
            xc__line(r, "S resync=%d\n", s);
            if (s == TDEC_NEED_INPUT) {
                if (eo != expect) { bad = xc__fail(r, "error offset %llu is not the item boundary", (unsigned long long)eo); break; }
                want_resync_gap = 1;
                pay_open = 0;
                st = TDEC_NEED_INPUT;
                continue;
            }
            if (s != TDEC_E_NOSYNC) { bad = xc__fail(r, "resync gave %d", s); break; }
        }
        break; /* END or an error */
    }
    if (chunk) free(chunk);
    r->status = st;
    if (bad) return bad;
    xc__line(r, "E st=%d off=%llu reason=%u pos=%llu\n", st, (unsigned long long)d.st.err_offset,
             (unsigned)d.st.err_reason, (unsigned long long)d.st.pos);
    if (st == TDEC_END && (expect != len || pay_open))
        return xc__fail(r, "END with %llu of %zu bytes accounted for", (unsigned long long)expect, len);
    if (st < 0 && d.st.err_offset > len) return xc__fail(r, "err_offset beyond the input");
    return xc__check_final(r, &d);
}

/* 1 if two runs produced the same log (compared by length, hash and text). */
static int xc_same_log(const xc_run *a, const xc_run *b)
{
    return cc_same_log(a->log, a->log_len, a->log_cap, a->log_hash, b->log, b->log_len, b->log_cap, b->log_hash);
}

/* Prints the first differing line of two logs to f (for failure reports). */
static void xc_print_diff(FILE *f, const xc_run *a, const xc_run *b)
{
    cc_print_diff(f, a->log, a->log_len, b->log, b->log_len);
}

#endif /* XRAY_CHECK_H */
