/* uftrace_check.h - the uftrace oracle: decodes a buffer through the public
   APIs of single/tdec_uftrace.h (the <tid>.dat decoder tdec_uftrace_* or
   the perf-cpuN.dat decoder tdec_uftrace_perf_*) in a chosen chunk
   schedule, writes a canonical log of the items and checks the decoders'
   contract on the way. Used by tests/unit/uftrace.c and
   fuzz/fuzz_uftrace.c; the parts every format shares (the canonical loop
   and its checks, chunk invariance, every prefix) are in
   tests/lib/check_common.h. Include-only; the includer defines
   TDEC_UFTRACE_IMPLEMENTATION first (or links the implementation) and
   builds with -I<repo root>.

   The log has one line per item and does not depend on chunking:
     R off=.. t=.. more=.. depth=.. magic=.. time=.. addr=..   a .dat record
       (ARG adds idx= kind= fmt= size= val= raw= psz=, ARGS_END blk=,
        EVENT psz=)
     A spec=.. st=..                                           set_spec()
     Q off=.. type=.. misc=.. size=.. pid=.. ...               a perf record
     P off=.. total=.. :HEX...                                 a payload
     E st=.. off=.. reason=.. pos=..                           final status

   Argument specs: a .dat record that needs its spec gets one from the
   caller's table (uc_run.specs): the next one in order, or the one its
   address picks modulo the table size. An entry's spec may be NULL
   (set_args(NULL) must say E_CORRUPT); one its maker calls invalid must be
   refused with E_LIMIT (the oracle takes that from the maker, and does not
   judge a spec by a copy of the decoder's rule). Both decodes of one input
   use the same table, so the same specs.

   Invariants checked besides check_common.h's (the first violation ends
   the run with a message): every item starts where the layout of the
   previous ones says (records, argument values, payloads and their padding
   account for every byte) and within the input; record fields are in
   range; ARG items follow the spec given, in order, and ARGS_END closes
   the block with the right length; fragments tile their payload;
   needs_args() is set exactly after an ENTRY/EXIT with `more`; next() then
   is E_SEQUENCE and changes nothing; set_args() when no spec is awaited is
   E_SEQUENCE and changes nothing; set_args() failures are sticky and name
   the record; after END the stream is fully accounted for. */
#ifndef UFTRACE_CHECK_H
#define UFTRACE_CHECK_H

#include "single/tdec_uftrace.h"
#include "tests/lib/check_common.h"

/* An argument spec for set_args() and whether its maker made it valid. */
typedef struct uc_spec {
    const tdec_uftrace_argspec *spec; /* may be NULL */
    int                         valid;
} uc_spec;

/* The layout of a .dat stream, as the oracle expects it. */
typedef struct uc_lay {
    uint64_t                    expect;   /* where the next item starts   */
    uint64_t                    pay_pad;  /* padding after the payload    */
    cc_pay                      pay;
    int                         in_block; /* ARG / ARGS_END expected      */
    uint32_t                    arg_next, blk;
    uint64_t                    blk_time;
    const tdec_uftrace_argspec *spec;
} uc_lay;

typedef struct uc_run {
    cc_run              cc;             /* schedule, log and outcome (check_common.h) */
    /* in */
    int                 perf;           /* perf-cpuN.dat decoder, else <tid>.dat      */
    tdec_uftrace_config cfg;
    const uc_spec      *specs;          /* may be NULL: every spec NULL               */
    size_t              nspecs;
    int                 specs_in_order; /* the k-th spec asked for is specs[k] (NULL  */
                                        /* past the end); else specs[addr % nspecs]   */
    void (*on_item)(void *ctx, const tdec_uftrace_item *it, const tdec_uftrace_perf_item *pit);
    void               *ctx;
    /* private */
    uc_lay              lay;
    size_t              asked;          /* specs asked for so far                     */
} uc_run;

CC_FN void uc__log_rec(cc_run *r, const tdec_uftrace_record *c, uint64_t off)
{
    char line[400], *p = line;
    if (r->log == NULL) return;
    cc_close_pay(r);
    p = cc_kv(p, "R off=", off, 0);
    p = cc_kv(p, " t=", c->type, 0);
    p = cc_kv(p, " more=", c->more, 0);
    p = cc_kv(p, " depth=", c->depth, 0);
    p = cc_kv(p, " magic=", c->magic, 0);
    p = cc_kv(p, " time=", c->time, 0);
    p = cc_kv(p, " addr=", c->addr, 0);
    if (c->type == TDEC_UFTRACE_REC_ARG) {
        p = cc_kv(p, " idx=", c->arg_index, 0);
        p = cc_kv(p, " kind=", c->arg.kind, 0);
        p = cc_kv(p, " fmt=", c->arg.format, 0);
        p = cc_kv(p, " size=", c->arg.size, 0);
        p = cc_kv(p, " val=", c->value, 0);
    }
    if (c->type == TDEC_UFTRACE_REC_ARG || c->type == TDEC_UFTRACE_REC_EVENT) p = cc_kv(p, " psz=", c->payload_size, 0);
    if (c->type == TDEC_UFTRACE_REC_ARGS_END) p = cc_kv(p, " blk=", c->block_len, 0);
    cc_put(r, line, (size_t)(p - line));
    if (c->type == TDEC_UFTRACE_REC_ARG && c->arg.kind == TDEC_UFTRACE_V_FLOAT && c->arg.size <= sizeof c->raw) {
        cc_put(r, " raw=", 5);
        cc_hex(r, c->raw, c->arg.size);
    }
    cc_put(r, "\n", 1);
}

CC_FN void uc__log_perf(cc_run *r, const tdec_uftrace_perf_record *c, uint64_t off)
{
    char line[400], *p = line;
    if (r->log == NULL) return;
    cc_close_pay(r);
    p = cc_kv(p, "Q off=", off, 0);
    p = cc_kv(p, " type=", c->type, 0);
    p = cc_kv(p, " misc=", c->misc, 0);
    p = cc_kv(p, " size=", c->size, 0);
    p = cc_kv(p, " pid=", c->pid, 0);
    p = cc_kv(p, " tid=", c->tid, 0);
    p = cc_kv(p, " ppid=", c->ppid, 0);
    p = cc_kv(p, " ptid=", c->ptid, 0);
    p = cc_kv(p, " time=", c->time, 0);
    p = cc_kv(p, " spid=", c->sample_pid, 0);
    p = cc_kv(p, " stid=", c->sample_tid, 0);
    p = cc_kv(p, " stime=", c->sample_time, 0);
    p = cc_kv(p, " psz=", c->payload_size, 0);
    cc_put(r, line, (size_t)(p - line));
    if (c->comm[0]) {
        cc_put(r, " comm=", 6);
        cc_hex(r, (const uint8_t *)c->comm, strlen(c->comm));
    }
    cc_put(r, "\n", 1);
}

CC_FN uint64_t uc__round(uint64_t n, uint64_t to)
{
    return (n + to - 1) / to * to;
}

/* A payload of n bytes followed by pad bytes starts at l->expect. */
CC_FN void uc__payload(uc_lay *l, uint64_t n, uint64_t pad, int skip)
{
    if (n == 0 || skip) {
        l->expect += n + pad;
        return;
    }
    cc_pay_open(&l->pay, n);
    l->pay_pad = pad;
}

/* Checks one .dat record item against the layout; advances it. */
CC_FN const char *uc__dat_record(uc_run *r, uc_lay *l, const tdec_uftrace_record *c, uint64_t off, size_t len)
{
    int skip = (r->cfg.flags & TDEC_UFTRACE_F_SKIP_PAYLOADS) != 0;
    if (c->type > TDEC_UFTRACE_REC_ARGS_END) return cc_fail(&r->cc, "record type %u", (unsigned)c->type);
    if (l->in_block != (c->type >= TDEC_UFTRACE_REC_ARG))
        return cc_fail(&r->cc, "record type %u at %llu %s an argument block", (unsigned)c->type,
                        (unsigned long long)off, l->in_block ? "inside" : "outside");
    if (c->type == TDEC_UFTRACE_REC_ARGS_END) {
        l->expect += (8u - l->blk % 8u) % 8u; /* the block is padded to 8 */
        if (off != l->expect) return cc_fail(&r->cc, "ARGS_END at %llu, expected %llu", (unsigned long long)off,
                                              (unsigned long long)l->expect);
        if (l->arg_next != l->spec->count) return cc_fail(&r->cc, "ARGS_END after %u of %u values", l->arg_next,
                                                          l->spec->count);
        if (c->block_len != l->blk) return cc_fail(&r->cc, "block_len %u, expected %u", c->block_len, l->blk);
        if (c->time != l->blk_time) return cc_fail(&r->cc, "ARGS_END time differs from its record's");
        l->in_block = 0;
        return NULL;
    }
    if (off != l->expect)
        return cc_fail(&r->cc, "item at offset %llu, expected %llu",
                       (unsigned long long)off, (unsigned long long)l->expect);
    if (c->type == TDEC_UFTRACE_REC_ARG) {
        const tdec_uftrace_arg *a;
        uint64_t fixed, n;
        if (l->arg_next >= l->spec->count) return cc_fail(&r->cc, "ARG beyond the spec's %u values", l->spec->count);
        a = &l->spec->args[l->arg_next];
        if (c->arg_index != l->arg_next || c->arg.kind != a->kind || c->arg.size != a->size ||
            c->arg.format != a->format)
            return cc_fail(&r->cc, "ARG %u does not match spec item %u", c->arg_index, l->arg_next);
        if (c->time != l->blk_time) return cc_fail(&r->cc, "ARG time differs from its record's");
        if (a->kind == TDEC_UFTRACE_V_STRING || a->kind == TDEC_UFTRACE_V_STDSTRING) fixed = 2;
        else if (a->kind == TDEC_UFTRACE_V_STRUCT) fixed = 0;
        else fixed = uc__round(a->size, 4);
        n = a->kind >= TDEC_UFTRACE_V_STRING ? c->payload_size : 0;
        if (a->kind < TDEC_UFTRACE_V_STRING && c->payload_size != 0) return cc_fail(&r->cc, "payload on a fixed value");
        if (a->kind == TDEC_UFTRACE_V_STRUCT && n != a->size) return cc_fail(&r->cc, "struct payload is not its size");
        if (a->kind == TDEC_UFTRACE_V_INT && a->size < 8 && (c->value >> (8u * a->size)) != 0)
            return cc_fail(&r->cc, "ARG value wider than its size");
        if (l->blk + uc__round(fixed + n, 4) > TDEC_UFTRACE_MAX_BLOCK) return cc_fail(&r->cc, "block past its limit");
        if (off + fixed > len) return cc_fail(&r->cc, "value at %llu runs past the input", (unsigned long long)off);
        l->blk += (uint32_t)uc__round(fixed + n, 4);
        l->arg_next++;
        l->expect += fixed;
        uc__payload(l, n, uc__round(fixed + n, 4) - fixed - n, skip);
        return NULL;
    }
    if (c->magic != 5) return cc_fail(&r->cc, "record magic %u", (unsigned)c->magic);
    if (c->depth > 0x3FFu || c->addr >> 48 || c->more > 1) return cc_fail(&r->cc, "record fields out of range");
    if (c->type == TDEC_UFTRACE_REC_LOST && c->more) return cc_fail(&r->cc, "LOST with more");
    if (c->type == TDEC_UFTRACE_REC_EVENT && c->more) {
        if (c->payload_size > 0xFFFFu) return cc_fail(&r->cc, "event payload over 64K");
        if (off + 18u > len) return cc_fail(&r->cc, "record at %llu runs past the input", (unsigned long long)off);
        l->expect += 18u;
        uc__payload(l, c->payload_size, (8u - (2u + c->payload_size) % 8u) % 8u, skip);
        return NULL;
    }
    if (c->payload_size != 0) return cc_fail(&r->cc, "payload on a record of type %u", (unsigned)c->type);
    if (off + 16u > len) return cc_fail(&r->cc, "record at %llu runs past the input", (unsigned long long)off);
    l->expect += 16u;
    l->blk_time = c->time;
    return NULL;
}

/* Checks one perf record item against the layout; advances it. */
CC_FN const char *uc__perf_record(uc_run *r, uc_lay *l, const tdec_uftrace_perf_record *c, uint64_t off, size_t len)
{
    uint32_t min;
    int skip = (r->cfg.flags & TDEC_UFTRACE_F_SKIP_PAYLOADS) != 0;
    if (off != l->expect)
        return cc_fail(&r->cc, "item at offset %llu, expected %llu",
                       (unsigned long long)off, (unsigned long long)l->expect);
    if (c->size < 8u) return cc_fail(&r->cc, "perf record size %u", c->size);
    if (off + (c->payload_size ? 8u : c->size) > len) return cc_fail(&r->cc, "perf record runs past the input");
    if (c->comm[16] != 0) return cc_fail(&r->cc, "comm not terminated");
    switch (c->type) {
    case TDEC_UFTRACE_PERF_COMM:   min = 32; break;
    case TDEC_UFTRACE_PERF_EXIT:
    case TDEC_UFTRACE_PERF_FORK:   min = 48; break;
    case TDEC_UFTRACE_PERF_SWITCH: min = 24; break;
    default:                       min = 0; break;
    }
    if (min) {
        if (c->size < min || c->size > TDEC_UFTRACE_PERF_MAX_KNOWN || c->payload_size != 0)
            return cc_fail(&r->cc, "known perf record of size %u with payload %llu", c->size,
                            (unsigned long long)c->payload_size);
        l->expect += c->size;
        return NULL;
    }
    if (c->payload_size != c->size - 8u || c->pid || c->tid || c->ppid || c->ptid || c->time || c->comm[0] ||
        c->sample_pid || c->sample_tid || c->sample_time)
        return cc_fail(&r->cc, "other perf record with fields set or payload %llu",
                       (unsigned long long)c->payload_size);
    l->expect += 8u;
    uc__payload(l, c->payload_size, 0, skip);
    return NULL;
}

/* What a record item that is no fragment must satisfy first. */
CC_FN const char *uc__item_start(uc_run *r, uint32_t kind, uint64_t off, size_t len)
{
    if (off > len) return cc_fail(&r->cc, "item offset %llu beyond input", (unsigned long long)off);
    if (r->lay.pay.open && kind != TDEC_ITEM_FRAGMENT)
        return cc_fail(&r->cc, "payload at %llu interrupted by another item", (unsigned long long)off);
    if (kind != TDEC_ITEM_FRAGMENT && kind != TDEC_ITEM_RECORD) return cc_fail(&r->cc, "item kind %u", (unsigned)kind);
    return NULL;
}

/* A fragment: at the layout's offset, tiling its payload. */
CC_FN const char *uc__frag(uc_run *r, const tdec_frag *f, uint64_t off, const cc_feed *fd)
{
    uc_lay *l = &r->lay;
    const char *bad;
    if (off != l->expect)
        return cc_fail(&r->cc, "fragment at %llu, expected %llu",
                       (unsigned long long)off, (unsigned long long)l->expect);
    if ((bad = cc_frag(&r->cc, &l->pay, f, off, r->cfg.max_fragment, fd)) != NULL) return bad;
    l->expect += f->len;
    if (!l->pay.open) l->expect += l->pay_pad;
    cc_log_frag(&r->cc, f, off);
    return NULL;
}

/* After an ENTRY/EXIT with `more`: next() is E_SEQUENCE and changes
   nothing, then set_args() takes the spec the table gives: a valid one
   opens the argument block, a NULL or invalid one is a sticky error that
   names the record. Without `more`, set_args() is E_SEQUENCE and changes
   nothing. */
CC_FN const char *uc__args(uc_run *r, tdec_uftrace_decoder *d, const tdec_uftrace_record *c, uint64_t off, int want)
{
    static const tdec_uftrace_argspec empty = {0, {{0, 0, 0}}};
    static tdec_uftrace_decoder saved; /* big: not on the stack */
    const uc_spec *sp = NULL;
    tdec_uftrace_item scratch;
    tdec_status s, expect;
    size_t k;
    memcpy(&saved, d, sizeof *d);
    if (!want) { /* set_args now is a caller bug and must change nothing */
        s = tdec_uftrace_set_spec(d, &empty);
        if (s != TDEC_E_SEQUENCE || memcmp(&saved, d, sizeof *d) != 0)
            return cc_fail(&r->cc, "set_args with no spec awaited gave %d or changed the decoder", s);
        return NULL;
    }
    s = tdec_uftrace_next(d, &scratch);
    if (s != TDEC_E_SEQUENCE || memcmp(&saved, d, sizeof *d) != 0)
        return cc_fail(&r->cc, "next while a spec is awaited gave %d or changed the decoder", s);
    k = r->specs_in_order ? r->asked : r->nspecs ? (size_t)(c->addr % r->nspecs) : 0;
    r->asked++;
    if (k < r->nspecs && r->specs) sp = &r->specs[k];
    s = tdec_uftrace_set_spec(d, sp ? sp->spec : NULL);
    cc_line(&r->cc, "A spec=%u st=%d\n", (unsigned)k, s);
    expect = sp == NULL || sp->spec == NULL ? TDEC_E_CORRUPT : sp->valid ? TDEC_NEED_INPUT : TDEC_E_LIMIT;
    if (s != expect || (s < 0 && (d->st.err != s || d->st.err_offset != off)))
        return cc_fail(&r->cc, "set_args(%s) gave %d at %llu, expected %d", sp && sp->spec ? "a spec" : "NULL", s,
                       (unsigned long long)d->st.err_offset, expect);
    if (s < 0) return NULL; /* next() says it again */
    r->lay.in_block = 1;
    r->lay.arg_next = 0;
    r->lay.blk = 0;
    r->lay.spec = sp->spec;
    r->lay.blk_time = c->time;
    return NULL;
}

CC_FN const char *uc__dat_item(cc_run *cr, void *dv, const void *iv, const cc_feed *f)
{
    uc_run *r = (uc_run *)cr;
    tdec_uftrace_decoder *d = (tdec_uftrace_decoder *)dv;
    const tdec_uftrace_item *it = (const tdec_uftrace_item *)iv;
    const tdec_uftrace_record *c = &it->u.rec;
    const char *bad;
    int want;
    if ((bad = uc__item_start(r, it->kind, it->offset, f->len)) != NULL) return bad;
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        bad = uc__frag(r, &it->u.frag, it->offset, f);
    } else {
        want = (c->type == TDEC_UFTRACE_REC_ENTRY || c->type == TDEC_UFTRACE_REC_EXIT) && c->more;
        if ((bad = uc__dat_record(r, &r->lay, c, it->offset, f->len)) != NULL) return bad;
        cr->records++;
        uc__log_rec(cr, c, it->offset);
        if (tdec_uftrace_needs_spec(d) != want)
            return cc_fail(cr, "needs_args %d after record type %u more %u", tdec_uftrace_needs_spec(d),
                           (unsigned)c->type, (unsigned)c->more);
        bad = uc__args(r, d, c, it->offset, want);
    }
    if (bad == NULL && r->on_item) r->on_item(r->ctx, it, NULL);
    return bad;
}

CC_FN const char *uc__perf_item(cc_run *cr, void *dv, const void *iv, const cc_feed *f)
{
    uc_run *r = (uc_run *)cr;
    const tdec_uftrace_perf_item *it = (const tdec_uftrace_perf_item *)iv;
    const char *bad;
    (void)dv;
    if ((bad = uc__item_start(r, it->kind, it->offset, f->len)) != NULL) return bad;
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        bad = uc__frag(r, &it->u.frag, it->offset, f);
    } else if ((bad = uc__perf_record(r, &r->lay, &it->u.rec, it->offset, f->len)) == NULL) {
        cr->records++;
        uc__log_perf(cr, &it->u.rec, it->offset);
    }
    if (bad == NULL && r->on_item) r->on_item(r->ctx, NULL, it);
    return bad;
}

CC_STREAM_CALLS(uc__dat_, tdec_uftrace_)
CC_STREAM_CALLS(uc__perf_, tdec_uftrace_perf_)

static const cc_format uc__dat_format = {sizeof(tdec_uftrace_decoder), sizeof(tdec_uftrace_item), 2, uc__dat_next,
                                         uc__dat_feed, uc__dat_finish, uc__dat_reset, uc__dat_stream, uc__dat_item,
                                         NULL, NULL};
static const cc_format uc__perf_format = {sizeof(tdec_uftrace_perf_decoder), sizeof(tdec_uftrace_perf_item), 2,
                                          uc__perf_next, uc__perf_feed, uc__perf_finish, uc__perf_reset,
                                          uc__perf_stream, uc__perf_item, NULL, NULL};

/* Decodes in[0..len) with the decoder, config, specs and schedule of the
   uc_run that c starts; fills its outputs. Returns NULL, or a description
   of the first broken invariant. */
CC_FN const char *uc_decode(const uint8_t *in, size_t len, cc_run *c)
{
    static tdec_uftrace_decoder dat[2]; /* big: not on the stack */
    static tdec_uftrace_perf_decoder perf[2];
    uc_run *r = (uc_run *)c;
    const cc_format *F = r->perf ? &uc__perf_format : &uc__dat_format;
    void *d;
    tdec_stream *ss;
    tdec_status st;
    const char *bad;

    memset(&r->lay, 0, sizeof r->lay);
    r->asked = 0;
    st = r->perf ? tdec_uftrace_perf_init(&perf[0], &r->cfg) : tdec_uftrace_init(&dat[0], &r->cfg);
    if ((bad = cc_loop(c, F, st, r->perf ? (void *)perf : (void *)dat, &d, in, len)) != NULL) return bad;
    ss = F->stream(d);
    st = c->status;
    cc_line(c, "E st=%d off=%llu reason=%u pos=%llu\n", st, (unsigned long long)ss->err_offset,
            (unsigned)ss->err_reason, (unsigned long long)ss->pos);
    if (st == TDEC_END && (r->lay.expect != len || r->lay.pay.open || r->lay.in_block))
        return cc_fail(c, "END with %llu of %zu bytes accounted for", (unsigned long long)r->lay.expect, len);
    if ((st == TDEC_E_CORRUPT || st == TDEC_E_LIMIT) && ss->err_offset != r->lay.expect &&
        !(ss->err_reason == TDEC_UFTRACE_R_NO_SPEC || ss->err_reason == TDEC_UFTRACE_R_BAD_SPEC))
        return cc_fail(c, "error offset %llu is not the item boundary %llu", (unsigned long long)ss->err_offset,
                       (unsigned long long)r->lay.expect);
    if (st < 0 && !r->perf) {
        if ((st = tdec_uftrace_set_spec((tdec_uftrace_decoder *)d, NULL)) != c->status)
            return cc_fail(c, "error %d not sticky in set_args: %d", c->status, st);
        if (tdec_uftrace_needs_spec((tdec_uftrace_decoder *)d)) return cc_fail(c, "needs_args after an error");
    }
    return cc_final(c, F, d);
}

#endif /* UFTRACE_CHECK_H */
