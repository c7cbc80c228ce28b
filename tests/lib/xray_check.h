/* xray_check.h - the XRay oracle: decodes a buffer through the public API
   of single/tdec_xray.h in a chosen chunk schedule, writes a canonical log
   of the items and checks the decoder's contract on the way. Used by
   tests/unit/xray.c and fuzz/fuzz_xray.c; the parts every format shares
   (the canonical loop and its checks, chunk invariance, every prefix) are
   in tests/lib/check_common.h. Include-only; the includer defines
   TDEC_XRAY_IMPLEMENTATION first (or links the implementation) and builds
   with -I<repo root>.

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

   Invariants checked besides check_common.h's (the first violation ends the
   run with a message): every item starts where the previous one ended
   (records, fragments, gaps and skipped payloads account for every byte)
   and within the input; the header record comes first; record types are
   known and payloads only on the records that have one, within
   max_payload; fragments tile the payload of the record just before them;
   after END the stream is fully accounted for; with xc_run.resync, an
   error of next() is at the item boundary and resync() is followed by a
   RESYNC gap before any record. */
#ifndef XRAY_CHECK_H
#define XRAY_CHECK_H

#include "single/tdec_xray.h"
#include "tests/lib/check_common.h"

#define XC_MAX_RESYNC 8

typedef struct xc_run {
    cc_run           cc;     /* schedule, log and outcome (check_common.h) */
    /* in */
    tdec_xray_config cfg;
    int              resync; /* call resync() after errors from next()     */
    void (*on_item)(void *ctx, const tdec_xray_item *it, const tdec_xray_decoder *d);
    void            *ctx;
    /* private: the layout expected */
    uint64_t         expect;  /* where the next item starts                */
    uint64_t         max_pay;
    cc_pay           pay;
    int              resyncs, want_resync_gap;
} xc_run;

CC_FN const char *xc_rec_name(uint32_t t)
{
    static const char *const names[] = {"?",       "HEADER", "FUNCTION", "CALL_ARG", "NEW_BUFFER",
                                        "END_OF_BUFFER", "NEW_CPU", "TSC_WRAP", "WALLTIME",
                                        "CUSTOM", "EXTENTS", "TYPED", "PID", "PADDING", "UNKNOWN"};
    return t < sizeof names / sizeof names[0] ? names[t] : "?";
}

CC_FN void xc__log_record(cc_run *r, const tdec_xray_item *it, const tdec_xray_decoder *d)
{
    const tdec_xray_record *c = &it->u.rec;
    unsigned long long off = (unsigned long long)it->offset;
    char line[320], *p = line;
    if (r->log == NULL) return;
    if (c->type == TDEC_XRAY_REC_HEADER) {
        cc_line(r, "H off=%llu v=%u type=%u flags=%u freq=%llu bufsz=%llu\n", off, d->hdr.version, d->hdr.file_type,
                (unsigned)d->hdr.flags, (unsigned long long)d->hdr.cycle_frequency,
                (unsigned long long)d->hdr.buffer_size);
        return;
    }
    cc_close_pay(r);
    p = cc_kv(p, "R off=", off, 0);
    p = cc_str(p, " t=", xc_rec_name(c->type));
    p = cc_kv(p, " act=", c->action, 0);
    p = cc_kv(p, " fid=", c->fid, 0);
    p = cc_kv(p, " tid=", c->tid, 0);
    p = cc_kv(p, " pid=", c->pid, 0);
    p = cc_kv(p, " cpu=", c->cpu, 0);
    p = cc_kv(p, " delta=", (unsigned long long)c->delta, c->delta < 0);
    p = cc_kv(p, " tsc=", c->tsc, 0);
    p = cc_kv(p, " val=", c->value, 0);
    p = cc_kv(p, " wall=", (unsigned long long)c->wall_sec, c->wall_sec < 0);
    p = cc_kv(p, " usec=", c->wall_usec, 0);
    p = cc_kv(p, " evt=", c->event_type, 0);
    p = cc_kv(p, " mk=", c->meta_kind, 0);
    p = cc_kv(p, " psz=", c->payload_size, 0);
    cc_put(r, line, (size_t)(p - line));
    if (c->raw_len > 0) {
        cc_put(r, " raw=", 5);
        cc_hex(r, c->raw, c->raw_len < sizeof c->raw ? c->raw_len : sizeof c->raw);
    }
    cc_put(r, "\n", 1);
}

/* Bytes a record of this type occupies in the stream (payloads aside). */
CC_FN uint64_t xc__rec_size(const tdec_xray_item *it, const tdec_xray_decoder *d)
{
    const tdec_xray_record *c = &it->u.rec;
    if (c->type == TDEC_XRAY_REC_HEADER) return 32;
    if (c->type == TDEC_XRAY_REC_PADDING) return 0;
    if (d->hdr.file_type == TDEC_XRAY_BASIC) return 32;
    if (c->type == TDEC_XRAY_REC_UNKNOWN) return c->raw_len;
    return c->type == TDEC_XRAY_REC_FUNCTION ? 8 : 16;
}

CC_FN const char *xc__record(xc_run *r, const tdec_xray_item *it, const tdec_xray_decoder *d, size_t len)
{
    cc_run *c = &r->cc;
    const tdec_xray_record *rec = &it->u.rec;
    int has_pay = rec->type == TDEC_XRAY_REC_CUSTOM_EVENT || rec->type == TDEC_XRAY_REC_TYPED_EVENT ||
                  rec->type == TDEC_XRAY_REC_PADDING;
    if (rec->type < TDEC_XRAY_REC_HEADER || rec->type > TDEC_XRAY_REC_UNKNOWN)
        return cc_fail(c, "record type %u", (unsigned)rec->type);
    if ((rec->type == TDEC_XRAY_REC_HEADER) != (it->offset == 0))
        return cc_fail(c, "header record not first (offset %llu)", (unsigned long long)it->offset);
    /* BufferExtents comes out once its size is in: tag and u64, 9 bytes */
    if (it->offset + (rec->type == TDEC_XRAY_REC_BUFFER_EXTENTS ? 9 : xc__rec_size(it, d)) > len)
        return cc_fail(c, "record at %llu runs past the input", (unsigned long long)it->offset);
    if (rec->payload_size != 0 && !has_pay) return cc_fail(c, "payload on a record of type %s", xc_rec_name(rec->type));
    if (rec->payload_size > r->max_pay && rec->type != TDEC_XRAY_REC_PADDING)
        return cc_fail(c, "payload size above max_payload");
    c->records++;
    r->expect += xc__rec_size(it, d);
    if (rec->payload_size > 0 && (r->cfg.flags & TDEC_XRAY_F_SKIP_PAYLOADS)) r->expect += rec->payload_size;
    else if (rec->payload_size > 0) cc_pay_open(&r->pay, rec->payload_size);
    return NULL;
}

/* Every item starts where the previous one ended (records, fragments, gaps
   and skipped payloads account for every byte) and within the input; the
   header record comes first; fragments tile the payload of the record just
   before them; a resync() is followed by a RESYNC gap before any record. */
CC_FN const char *xc__item(cc_run *c, void *dv, const void *iv, const cc_feed *f)
{
    xc_run *r = (xc_run *)c;
    const tdec_xray_decoder *d = (const tdec_xray_decoder *)dv;
    const tdec_xray_item *it = (const tdec_xray_item *)iv;
    const char *bad = NULL;
    if (it->offset != r->expect)
        return cc_fail(c, "item %zu at offset %llu, expected %llu", c->items, (unsigned long long)it->offset,
                       (unsigned long long)r->expect);
    if (it->offset > f->len) return cc_fail(c, "item offset %llu beyond input", (unsigned long long)it->offset);
    if (r->want_resync_gap && (it->kind != TDEC_ITEM_GAP || it->u.gap.reason != TDEC_XRAY_R_RESYNC))
        return cc_fail(c, "resync not followed by a RESYNC gap");
    if (r->pay.open && it->kind != TDEC_ITEM_FRAGMENT)
        return cc_fail(c, "payload at %llu interrupted by another item", (unsigned long long)it->offset);
    r->want_resync_gap = 0;
    if (it->kind == TDEC_ITEM_GAP) {
        if (it->u.gap.len == 0) return cc_fail(c, "empty gap");
        r->expect += it->u.gap.len;
        cc_line(c, "G off=%llu len=%llu reason=%u\n", (unsigned long long)it->offset,
                (unsigned long long)it->u.gap.len, (unsigned)it->u.gap.reason);
    } else if (it->kind == TDEC_ITEM_FRAGMENT) {
        if ((bad = cc_frag(c, &r->pay, &it->u.frag, it->offset, r->cfg.max_fragment, f)) != NULL) return bad;
        r->expect += it->u.frag.len;
        cc_log_frag(c, &it->u.frag, it->offset);
    } else if (it->kind == TDEC_ITEM_RECORD) {
        if ((bad = xc__record(r, it, d, f->len)) != NULL) return bad;
        xc__log_record(c, it, d);
    } else {
        return cc_fail(c, "item kind %u", (unsigned)it->kind);
    }
    if (r->on_item) r->on_item(r->ctx, it, d);
    return NULL;
}

/* With r->resync: resync() after an error of next() (not after finish()),
   at most XC_MAX_RESYNC times; the error was at the item boundary. */
CC_FN const char *xc__error(cc_run *c, void *dv, tdec_status st, const cc_feed *f, int *again)
{
    xc_run *r = (xc_run *)c;
    tdec_xray_decoder *d = (tdec_xray_decoder *)dv;
    uint64_t eo = d->st.err_offset;
    tdec_status s;
    if (!r->resync || f->finishing || r->resyncs >= XC_MAX_RESYNC || st == TDEC_E_ARG || st == TDEC_E_SEQUENCE)
        return NULL;
    r->resyncs++;
    cc_line(c, "S err=%d off=%llu reason=%u\n", st, (unsigned long long)eo, (unsigned)d->st.err_reason);
    s = tdec_xray_resync(d);
    cc_line(c, "S resync=%d\n", s);
    if (s == TDEC_NEED_INPUT) {
        if (eo != r->expect) return cc_fail(c, "error offset %llu is not the item boundary", (unsigned long long)eo);
        r->want_resync_gap = 1;
        r->pay.open = 0;
        *again = 1;
        return NULL;
    }
    return s == TDEC_E_NOSYNC ? NULL : cc_fail(c, "resync gave %d", s);
}

CC_STREAM_CALLS(xc__, tdec_xray_)

static const cc_format xc__format = {sizeof(tdec_xray_decoder), sizeof(tdec_xray_item), 1, xc__next, xc__feed,
                                     xc__finish, xc__reset, xc__stream, xc__item, xc__error, NULL};

/* Decodes in[0..len) with the config and schedule of the xc_run that c
   starts; fills its outputs. Returns NULL, or a description of the first
   broken invariant. */
CC_FN const char *xc_decode(const uint8_t *in, size_t len, cc_run *c)
{
    static tdec_xray_decoder slots[2];
    xc_run *r = (xc_run *)c;
    void *d;
    tdec_status st;
    const char *bad;

    r->expect = 0;
    memset(&r->pay, 0, sizeof r->pay);
    r->resyncs = r->want_resync_gap = 0;
    r->max_pay = r->cfg.max_payload == 0 || r->cfg.max_payload > 0x7FFFFFFFu ? 0x7FFFFFFFu : r->cfg.max_payload;
    if ((bad = cc_loop(c, &xc__format, tdec_xray_init(&slots[0], &r->cfg), slots, &d, in, len)) != NULL) return bad;
    st = c->status;
    cc_line(c, "E st=%d off=%llu reason=%u pos=%llu\n", st, (unsigned long long)((tdec_xray_decoder *)d)->st.err_offset,
            (unsigned)((tdec_xray_decoder *)d)->st.err_reason, (unsigned long long)((tdec_xray_decoder *)d)->st.pos);
    if (st == TDEC_END && (r->expect != len || r->pay.open))
        return cc_fail(c, "END with %llu of %zu bytes accounted for", (unsigned long long)r->expect, len);
    return cc_final(c, &xc__format, d);
}

#endif /* XRAY_CHECK_H */
