/* uftrace_check.h - decode a buffer through the public uftrace APIs (the
   <tid>.dat decoder tdec_uftrace_* or the perf-cpuN.dat decoder
   tdec_uftrace_perf_*) with a chosen chunk schedule, write a canonical log
   of the items, and check the decoders' contract on the way. The sibling
   of tests/lib/xray_check.h (generic parts in tests/lib/check_common.h).
   Include-only; the includer defines TDEC_UFTRACE_IMPLEMENTATION first (or
   links the implementation) and builds with -I<repo root>.

   The log has one line per item and does not depend on chunking:
     R off=.. t=.. more=.. depth=.. magic=.. time=.. addr=..   a .dat record
       (ARG adds idx= kind= fmt= size= val= raw= psz=, ARGS_END blk=,
        EVENT psz=)
     A spec=.. st=..                                           set_spec()
     Q off=.. type=.. misc=.. size=.. pid=.. ...               a perf record
     P off=.. total=.. :HEX...                                 a payload
     E st=.. off=.. reason=.. pos=..                           final status

   Argument specs: a .dat record that needs its spec gets one from the
   caller's table (uc_run.specs, uc_run.nspecs), chosen by its address
   modulo the table size; a table entry may be NULL (set_spec(NULL)) or
   invalid. Both decodes of one input use the same table, so the same
   specs.

   Invariants checked (the first violation ends the run with a message):
   every item starts where the layout of the previous ones says (records,
   argument values, payloads and their padding account for every byte) and
   within the input; record fields are in range; ARG items follow the spec
   given, in order, and ARGS_END closes the block with the right length;
   fragments tile their payload with FIRST/LAST, point into the chunk just
   fed and hold the input's bytes; needs_spec() is set exactly after an
   ENTRY/EXIT with `more`; next() then is E_SEQUENCE and changes nothing;
   set_spec() when no spec is awaited is E_SEQUENCE and changes nothing;
   set_spec() failures are sticky and name the record; NEED_INPUT leaves
   nothing unread; feed() while the window is not used up is E_SEQUENCE and
   changes nothing; errors are sticky in next/feed/finish; a second
   finish() agrees; after END the stream is fully accounted for. */
#ifndef UFTRACE_CHECK_H
#define UFTRACE_CHECK_H

#include "single/tdec_uftrace.h"
#include "tests/lib/check_common.h"

#define UC_MAX_SPECS 8

typedef struct uc_run {
    /* in */
    int                         perf;  /* perf-cpuN.dat decoder, else <tid>.dat */
    tdec_uftrace_config         cfg;
    const size_t               *cuts;
    size_t                      ncuts;
    size_t                      step;
    uint32_t                    seed;
    const tdec_uftrace_argspec *specs[UC_MAX_SPECS]; /* entries may be NULL */
    size_t                      nspecs;               /* 0: every spec NULL  */
    char                       *log;   /* may be NULL (hash only)            */
    size_t                      log_cap;
    /* out */
    size_t                      log_len;
    uint64_t                    log_hash;
    tdec_status                 status;
    size_t                      items;
    char                        msg[200];
    /* private */
    int                         pay_line;
} uc_run;

static cc_log uc__sink(uc_run *r)
{
    cc_log l;
    l.log = r->log;
    l.cap = r->log_cap;
    l.len = &r->log_len;
    l.hash = &r->log_hash;
    l.pay_line = &r->pay_line;
    return l;
}

static void uc__line(uc_run *r, const char *fmt, ...)
{
    cc_log l = uc__sink(r);
    va_list ap;
    va_start(ap, fmt);
    cc_vline(&l, fmt, ap);
    va_end(ap);
}

static const char *uc__fail(uc_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_vfail(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    return r->msg;
}

static void uc__log_frag(uc_run *r, const tdec_frag *f, uint64_t off)
{
    cc_log l = uc__sink(r);
    if (f->flags & TDEC_FRAG_FIRST) uc__line(r, "P off=%llu total=%llu :", (unsigned long long)off,
                                             (unsigned long long)f->total);
    cc_hex(&l, f->data, f->len);
    r->pay_line = 1;
    if (f->flags & TDEC_FRAG_LAST) {
        cc_put(&l, "\n", 1);
        r->pay_line = 0;
    }
}

static void uc__log_rec(uc_run *r, const tdec_uftrace_record *c, uint64_t off)
{
    cc_log l = uc__sink(r);
    char line[400], *p = line;
    cc_close_pay(&l);
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
    cc_put(&l, line, (size_t)(p - line));
    if (c->type == TDEC_UFTRACE_REC_ARG && c->arg.kind == TDEC_UFTRACE_V_FLOAT && c->arg.size <= sizeof c->raw) {
        cc_put(&l, " raw=", 5);
        cc_hex(&l, c->raw, c->arg.size);
    }
    cc_put(&l, "\n", 1);
}

static void uc__log_perf(uc_run *r, const tdec_uftrace_perf_record *c, uint64_t off)
{
    cc_log l = uc__sink(r);
    char line[400], *p = line;
    cc_close_pay(&l);
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
    cc_put(&l, line, (size_t)(p - line));
    if (c->comm[0]) {
        cc_put(&l, " comm=", 6);
        cc_hex(&l, (const uint8_t *)c->comm, strlen(c->comm));
    }
    cc_put(&l, "\n", 1);
}

static uint64_t uc__round(uint64_t n, uint64_t to)
{
    return (n + to - 1) / to * to;
}

/* The stream calls of either decoder. */
typedef struct uc_dec {
    int                       perf;
    tdec_uftrace_decoder      d;
    tdec_uftrace_perf_decoder p;
} uc_dec;

static tdec_stream *uc__st(uc_dec *u)
{
    return u->perf ? &u->p.st : &u->d.st;
}

static tdec_status uc__feed(uc_dec *u, const void *data, size_t n)
{
    return u->perf ? tdec_uftrace_perf_feed(&u->p, data, n) : tdec_uftrace_feed(&u->d, data, n);
}

static tdec_status uc__finish(uc_dec *u)
{
    return u->perf ? tdec_uftrace_perf_finish(&u->p) : tdec_uftrace_finish(&u->d);
}

static tdec_status uc__next(uc_dec *u, tdec_uftrace_item *it, tdec_uftrace_perf_item *pit)
{
    return u->perf ? tdec_uftrace_perf_next(&u->p, pit) : tdec_uftrace_next(&u->d, it);
}

/* 1 if a copy of the decoder state differs from the current one. */
static int uc__changed(uc_dec *u, const uc_dec *saved)
{
    return u->perf ? memcmp(&u->p, &saved->p, sizeof u->p) != 0 : memcmp(&u->d, &saved->d, sizeof u->d) != 0;
}

/* Checks that every call after the final status agrees with it. */
static const char *uc__check_final(uc_run *r, uc_dec *u)
{
    static const uint8_t one = 0;
    tdec_uftrace_item it;
    tdec_uftrace_perf_item pit;
    tdec_status st = r->status, s;
    tdec_stream *ss = uc__st(u);
    uint64_t eo = ss->err_offset;
    if (st == TDEC_END) {
        if ((s = uc__next(u, &it, &pit)) != TDEC_END) return uc__fail(r, "next after END gave %d", s);
        if ((s = uc__finish(u)) != TDEC_END) return uc__fail(r, "second finish gave %d", s);
        if ((s = uc__feed(u, &one, 1)) != TDEC_E_SEQUENCE) return uc__fail(r, "feed after END gave %d", s);
        if ((s = uc__next(u, &it, &pit)) != TDEC_END) return uc__fail(r, "next after END (2) gave %d", s);
        return NULL;
    }
    if (st == TDEC_E_ARG || st == TDEC_E_SEQUENCE) return uc__fail(r, "loop ended in misuse status %d", st);
    if (ss->err != st) return uc__fail(r, "status %d but st.err %d", st, ss->err);
    if ((s = uc__next(u, &it, &pit)) != st) return uc__fail(r, "error %d not sticky in next: %d", st, s);
    if ((s = uc__feed(u, &one, 1)) != st) return uc__fail(r, "error %d not sticky in feed: %d", st, s);
    if ((s = uc__finish(u)) != st) return uc__fail(r, "error %d not sticky in finish: %d", st, s);
    if (!u->perf) {
        if ((s = tdec_uftrace_set_spec(&u->d, NULL)) != st)
            return uc__fail(r, "error %d not sticky in set_spec: %d", st, s);
        if (tdec_uftrace_needs_spec(&u->d)) return uc__fail(r, "needs_spec after an error");
    }
    if ((s = uc__next(u, &it, &pit)) != st) return uc__fail(r, "error %d not sticky in next (2): %d", st, s);
    if (ss->err_offset != eo) return uc__fail(r, "err_offset moved after the error");
    return NULL;
}

/* The layout state of a .dat stream, as the checker expects it. */
typedef struct uc_lay {
    uint64_t                    expect;    /* where the next item starts        */
    uint64_t                    pay_total, pay_got, pay_pad;
    int                         pay_open;  /* fragments expected                */
    int                         in_block;  /* ARG / ARGS_END expected           */
    uint32_t                    arg_next, blk;
    uint64_t                    blk_time;
    const tdec_uftrace_argspec *spec;
} uc_lay;

/* A payload of n bytes followed by pad bytes starts at l->expect. */
static void uc__payload(uc_lay *l, uint64_t n, uint64_t pad, int skip)
{
    if (n == 0 || skip) {
        l->expect += n + pad;
        return;
    }
    l->pay_open = 1;
    l->pay_total = n;
    l->pay_got = 0;
    l->pay_pad = pad;
}

static int uc__arg_valid(const tdec_uftrace_arg *a)
{
    switch (a->kind) {
    case TDEC_UFTRACE_V_INT:       return a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8;
    case TDEC_UFTRACE_V_CHAR:      return a->size == 1;
    case TDEC_UFTRACE_V_FLOAT:     return a->size == 4 || a->size == 8 || a->size == 10;
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING: return 1;
    case TDEC_UFTRACE_V_STRUCT:    return a->size <= TDEC_UFTRACE_MAX_BLOCK;
    default:                       return 0;
    }
}

static int uc__spec_valid(const tdec_uftrace_argspec *s)
{
    uint32_t i;
    if (s->count > TDEC_UFTRACE_MAX_ARGS) return 0;
    for (i = 0; i < s->count; i++)
        if (!uc__arg_valid(&s->args[i])) return 0;
    return 1;
}

/* Checks one .dat record item against the layout; advances it. */
static const char *uc__dat_record(uc_run *r, uc_lay *l, const tdec_uftrace_record *c, uint64_t off, size_t len)
{
    int skip = (r->cfg.flags & TDEC_UFTRACE_F_SKIP_PAYLOADS) != 0;
    if (c->type > TDEC_UFTRACE_REC_ARGS_END) return uc__fail(r, "record type %u", (unsigned)c->type);
    if (l->in_block != (c->type >= TDEC_UFTRACE_REC_ARG))
        return uc__fail(r, "record type %u at %llu %s an argument block", (unsigned)c->type,
                        (unsigned long long)off, l->in_block ? "inside" : "outside");
    if (c->type == TDEC_UFTRACE_REC_ARGS_END) {
        l->expect += (8u - l->blk % 8u) % 8u; /* the block is padded to 8 */
        if (off != l->expect) return uc__fail(r, "ARGS_END at %llu, expected %llu", (unsigned long long)off,
                                              (unsigned long long)l->expect);
        if (l->arg_next != l->spec->count) return uc__fail(r, "ARGS_END after %u of %u values", l->arg_next,
                                                          l->spec->count);
        if (c->block_len != l->blk) return uc__fail(r, "block_len %u, expected %u", c->block_len, l->blk);
        if (c->time != l->blk_time) return uc__fail(r, "ARGS_END time differs from its record's");
        l->in_block = 0;
        return NULL;
    }
    if (off != l->expect)
        return uc__fail(r, "item at offset %llu, expected %llu", (unsigned long long)off, (unsigned long long)l->expect);
    if (c->type == TDEC_UFTRACE_REC_ARG) {
        const tdec_uftrace_arg *a;
        uint64_t fixed, n;
        if (l->arg_next >= l->spec->count) return uc__fail(r, "ARG beyond the spec's %u values", l->spec->count);
        a = &l->spec->args[l->arg_next];
        if (c->arg_index != l->arg_next || c->arg.kind != a->kind || c->arg.size != a->size ||
            c->arg.format != a->format)
            return uc__fail(r, "ARG %u does not match spec item %u", c->arg_index, l->arg_next);
        if (c->time != l->blk_time) return uc__fail(r, "ARG time differs from its record's");
        if (a->kind == TDEC_UFTRACE_V_STRING || a->kind == TDEC_UFTRACE_V_STDSTRING) fixed = 2;
        else if (a->kind == TDEC_UFTRACE_V_STRUCT) fixed = 0;
        else fixed = uc__round(a->size, 4);
        n = a->kind >= TDEC_UFTRACE_V_STRING ? c->payload_size : 0;
        if (a->kind < TDEC_UFTRACE_V_STRING && c->payload_size != 0) return uc__fail(r, "payload on a fixed value");
        if (a->kind == TDEC_UFTRACE_V_STRUCT && n != a->size) return uc__fail(r, "struct payload is not its size");
        if (a->kind == TDEC_UFTRACE_V_INT && a->size < 8 && (c->value >> (8u * a->size)) != 0)
            return uc__fail(r, "ARG value wider than its size");
        if (l->blk + uc__round(fixed + n, 4) > TDEC_UFTRACE_MAX_BLOCK) return uc__fail(r, "block past its limit");
        if (off + fixed > len) return uc__fail(r, "value at %llu runs past the input", (unsigned long long)off);
        l->blk += (uint32_t)uc__round(fixed + n, 4);
        l->arg_next++;
        l->expect += fixed;
        uc__payload(l, n, uc__round(fixed + n, 4) - fixed - n, skip);
        return NULL;
    }
    if (c->magic != 5) return uc__fail(r, "record magic %u", (unsigned)c->magic);
    if (c->depth > 0x3FFu || c->addr >> 48 || c->more > 1) return uc__fail(r, "record fields out of range");
    if (c->type == TDEC_UFTRACE_REC_LOST && c->more) return uc__fail(r, "LOST with more");
    if (c->type == TDEC_UFTRACE_REC_EVENT && c->more) {
        if (c->payload_size > 0xFFFFu) return uc__fail(r, "event payload over 64K");
        if (off + 18u > len) return uc__fail(r, "record at %llu runs past the input", (unsigned long long)off);
        l->expect += 18u;
        uc__payload(l, c->payload_size, (8u - (2u + c->payload_size) % 8u) % 8u, skip);
        return NULL;
    }
    if (c->payload_size != 0) return uc__fail(r, "payload on a record of type %u", (unsigned)c->type);
    if (off + 16u > len) return uc__fail(r, "record at %llu runs past the input", (unsigned long long)off);
    l->expect += 16u;
    l->blk_time = c->time;
    return NULL;
}

/* Checks one perf record item against the layout; advances it. */
static const char *uc__perf_record(uc_run *r, uc_lay *l, const tdec_uftrace_perf_record *c, uint64_t off, size_t len)
{
    uint32_t min;
    int skip = (r->cfg.flags & TDEC_UFTRACE_F_SKIP_PAYLOADS) != 0;
    if (off != l->expect)
        return uc__fail(r, "item at offset %llu, expected %llu", (unsigned long long)off, (unsigned long long)l->expect);
    if (c->size < 8u) return uc__fail(r, "perf record size %u", c->size);
    if (off + (c->payload_size ? 8u : c->size) > len) return uc__fail(r, "perf record runs past the input");
    if (c->comm[16] != 0) return uc__fail(r, "comm not terminated");
    switch (c->type) {
    case TDEC_UFTRACE_PERF_COMM:   min = 32; break;
    case TDEC_UFTRACE_PERF_EXIT:
    case TDEC_UFTRACE_PERF_FORK:   min = 48; break;
    case TDEC_UFTRACE_PERF_SWITCH: min = 24; break;
    default:                       min = 0; break;
    }
    if (min) {
        if (c->size < min || c->size > TDEC_UFTRACE_PERF_MAX_KNOWN || c->payload_size != 0)
            return uc__fail(r, "known perf record of size %u with payload %llu", c->size,
                            (unsigned long long)c->payload_size);
        l->expect += c->size;
        return NULL;
    }
    if (c->payload_size != c->size - 8u || c->pid || c->tid || c->ppid || c->ptid || c->time || c->comm[0] ||
        c->sample_pid || c->sample_tid || c->sample_time)
        return uc__fail(r, "other perf record with fields set or payload %llu", (unsigned long long)c->payload_size);
    l->expect += 8u;
    uc__payload(l, c->payload_size, 0, skip);
    return NULL;
}

/* Decodes in[0..len) with r's decoder, config, specs and schedule; fills
   r's outputs. Returns NULL, or a description of the first broken
   invariant. */
static const char *uc_decode(const uint8_t *in, size_t len, uc_run *r)
{
    static const uint8_t dummy = 0x2C;
    static const tdec_uftrace_argspec empty = {0, {{0, 0, 0}}};
    static uc_dec u, saved; /* big (two decoders): not on the stack */
    tdec_uftrace_item it;
    tdec_uftrace_perf_item pit;
    const tdec_frag *f;
    const tdec_stream *ss;
    tdec_status st, s;
    uint8_t *chunk = NULL;
    size_t chunk_len = 0, fed = 0, cut_i = 0, n;
    uint64_t off;
    uint32_t rng = r->seed;
    cc_sched sc;
    uc_lay l;
    int finishing = 0;
    const char *bad = NULL;

    sc.cuts = r->cuts;
    sc.ncuts = r->ncuts;
    sc.step = r->step;
    sc.seed = r->seed;
    memset(&l, 0, sizeof l);
    r->log_len = 0;
    r->log_hash = CC_FNV_BASIS;
    r->items = 0;
    r->msg[0] = 0;
    r->pay_line = 0;
    if (r->log && r->log_cap) r->log[0] = 0;

    memset(&u, 0, sizeof u);
    u.perf = r->perf;
    st = u.perf ? tdec_uftrace_perf_init(&u.p, &r->cfg) : tdec_uftrace_init(&u.d, &r->cfg);
    if (st != TDEC_NEED_INPUT) return uc__fail(r, "init gave %d", st);
    ss = uc__st(&u);
    while (st >= 0 && bad == NULL) {
        st = uc__next(&u, &it, &pit);
        if (st == TDEC_OK) {
            uint32_t kind = u.perf ? pit.kind : it.kind;
            off = u.perf ? pit.offset : it.offset;
            r->items++;
            if (r->items > 2 * len + 8) { bad = uc__fail(r, "more items than input bytes"); break; }
            if (off > len) { bad = uc__fail(r, "item offset %llu beyond input", (unsigned long long)off); break; }
            if (l.pay_open && kind != TDEC_ITEM_FRAGMENT) {
                bad = uc__fail(r, "payload at %llu interrupted by another item", (unsigned long long)off);
                break;
            }
            if (kind == TDEC_ITEM_FRAGMENT) {
                f = u.perf ? &pit.u.frag : &it.u.frag;
                if (off != l.expect) {
                    bad = uc__fail(r, "fragment at %llu, expected %llu", (unsigned long long)off,
                                   (unsigned long long)l.expect);
                    break;
                }
                if (cc_frag_bad(r->msg, sizeof r->msg, f, off, l.pay_open, l.pay_total, l.pay_got,
                                r->cfg.max_fragment, chunk, chunk_len, in, len)) {
                    bad = r->msg;
                    break;
                }
                l.pay_got += f->len;
                l.expect += f->len;
                if (f->flags & TDEC_FRAG_LAST) {
                    l.pay_open = 0;
                    l.expect += l.pay_pad;
                }
                uc__log_frag(r, f, off);
            } else if (kind != TDEC_ITEM_RECORD) {
                bad = uc__fail(r, "item kind %u", (unsigned)kind);
                break;
            } else if (u.perf) {
                if ((bad = uc__perf_record(r, &l, &pit.u.rec, off, len)) != NULL) break;
                uc__log_perf(r, &pit.u.rec, off);
            } else {
                const tdec_uftrace_record *c = &it.u.rec;
                int want = (c->type == TDEC_UFTRACE_REC_ENTRY || c->type == TDEC_UFTRACE_REC_EXIT) && c->more;
                if ((bad = uc__dat_record(r, &l, c, off, len)) != NULL) break;
                uc__log_rec(r, c, off);
                if (tdec_uftrace_needs_spec(&u.d) != want) {
                    bad = uc__fail(r, "needs_spec %d after record type %u more %u", tdec_uftrace_needs_spec(&u.d),
                                   (unsigned)c->type, (unsigned)c->more);
                    break;
                }
                memcpy(&saved, &u, sizeof u);
                if (!want) { /* set_spec now is a caller bug and must change nothing */
                    s = tdec_uftrace_set_spec(&u.d, &empty);
                    if (s != TDEC_E_SEQUENCE || uc__changed(&u, &saved)) {
                        bad = uc__fail(r, "set_spec with no spec awaited gave %d or changed the decoder", s);
                        break;
                    }
                } else {
                    const tdec_uftrace_argspec *sp = NULL;
                    size_t k = r->nspecs ? (size_t)(c->addr % r->nspecs) : 0;
                    tdec_uftrace_item scratch;
                    s = tdec_uftrace_next(&u.d, &scratch);
                    if (s != TDEC_E_SEQUENCE || uc__changed(&u, &saved)) {
                        bad = uc__fail(r, "next while a spec is awaited gave %d or changed the decoder", s);
                        break;
                    }
                    if (r->nspecs) sp = r->specs[k];
                    s = tdec_uftrace_set_spec(&u.d, sp);
                    uc__line(r, "A spec=%u st=%d\n", (unsigned)k, s);
                    if (sp != NULL && uc__spec_valid(sp)) {
                        if (s != TDEC_NEED_INPUT) { bad = uc__fail(r, "set_spec(valid) gave %d", s); break; }
                        l.in_block = 1;
                        l.arg_next = 0;
                        l.blk = 0;
                        l.spec = sp;
                        l.blk_time = c->time;
                    } else {
                        if (s != (sp == NULL ? TDEC_E_CORRUPT : TDEC_E_LIMIT) || ss->err != s ||
                            ss->err_offset != off) {
                            bad = uc__fail(r, "set_spec(%s) gave %d at %llu", sp ? "invalid" : "NULL", s,
                                           (unsigned long long)ss->err_offset);
                            break;
                        }
                        st = s;
                        break;
                    }
                }
            }
            if (ss->win_len > 0) { /* feed() now is a caller bug and must change nothing */
                memcpy(&saved, &u, sizeof u);
                s = uc__feed(&u, &dummy, 1);
                if (s != TDEC_E_SEQUENCE || uc__changed(&u, &saved))
                    bad = uc__fail(r, "feed with unread window gave %d or changed the decoder", s);
            }
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            if (ss->win_len != 0 || ss->pos + ss->carry_len != fed || ss->carry_len > TDEC_CARRY_CAP) {
                bad = uc__fail(r, "NEED_INPUT with bytes unaccounted (pos %llu carry %u fed %zu)",
                               (unsigned long long)ss->pos, (unsigned)ss->carry_len, fed);
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
                if (chunk == NULL) { bad = uc__fail(r, "out of memory"); break; }
                memcpy(chunk, in + fed, n);
                chunk_len = n;
                st = uc__feed(&u, chunk, n);
                if (st != TDEC_NEED_INPUT) { bad = uc__fail(r, "feed after NEED_INPUT gave %d", st); break; }
                fed += n;
            } else {
                finishing = 1;
                st = uc__finish(&u);
                if (st == TDEC_NEED_INPUT || st == TDEC_OK) { bad = uc__fail(r, "finish gave %d", st); break; }
            }
            continue;
        }
        break; /* END or an error */
    }
    (void)finishing;
    if (chunk) free(chunk);
    r->status = st;
    if (bad) return bad;
    uc__line(r, "E st=%d off=%llu reason=%u pos=%llu\n", st, (unsigned long long)ss->err_offset,
             (unsigned)ss->err_reason, (unsigned long long)ss->pos);
    if (st == TDEC_END && (l.expect != len || l.pay_open || l.in_block))
        return uc__fail(r, "END with %llu of %zu bytes accounted for", (unsigned long long)l.expect, len);
    if (st < 0 && ss->err_offset > len) return uc__fail(r, "err_offset beyond the input");
    if ((st == TDEC_E_CORRUPT || st == TDEC_E_LIMIT) && ss->err_offset != l.expect &&
        !(ss->err_reason == TDEC_UFTRACE_R_NO_SPEC || ss->err_reason == TDEC_UFTRACE_R_BAD_SPEC))
        return uc__fail(r, "error offset %llu is not the item boundary %llu", (unsigned long long)ss->err_offset,
                        (unsigned long long)l.expect);
    return uc__check_final(r, &u);
}

/* 1 if two runs produced the same log (compared by length, hash and text). */
static int uc_same_log(const uc_run *a, const uc_run *b)
{
    return cc_same_log(a->log, a->log_len, a->log_cap, a->log_hash, b->log, b->log_len, b->log_cap, b->log_hash);
}

/* Prints the first differing line of two logs to f (for failure reports). */
static void uc_print_diff(FILE *f, const uc_run *a, const uc_run *b)
{
    cc_print_diff(f, a->log, a->log_len, b->log, b->log_len);
}

#endif /* UFTRACE_CHECK_H */
