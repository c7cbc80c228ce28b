/* ipt_flow_run.h - the one loop the unit tests of Intel PT's instruction
   flow (single/tdec_ipt.h, layer 3) decode with: a trace fed in a chosen
   schedule to the instruction or the block decoder (with or without a
   cache, an IP filter, a read callback of the test's), and everything it
   gives collected in order. Used by tests/unit/ipt_flow.c and
   tests/unit/ipt_flow_image.c. Include-only; the includer defines
   TDEC_IPT_IMPLEMENTATION first. Prefix iptf_.

       iptf_how h = iptf_default();       the defaults: instructions, the
       h.read_ctx = &image;               whole trace in one feed, stop at
       iptf_run(&h, trace, n, &f, &out); the first error
   out.items[0, out.n) are the decoder's items; out.steps[0, out.nsteps)
   the instructions (a block's read again with tdec_ipt_block_walk), the
   events, the errors and resyncs, as ptxed would print them, in order;
   out.last the status that ended the run (TDEC_END, an error, or what a
   feed answered when it was no TDEC_NEED_INPUT). */
#ifndef IPT_FLOW_RUN_H
#define IPT_FLOW_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What to do after an error: stop, synchronise on the next PSB
   (tdec_ipt_flow_resync), or go on at the current event first
   (tdec_ipt_flow_resync_event, then the next PSB if that fails too: ptxed
   --resync-on-error). */
#define IPTF_STOP         0
#define IPTF_RESYNC_PSB   1
#define IPTF_RESYNC_EVENT 2

typedef struct iptf_how {
    const tdec_ipt_config      *cfg;        /* NULL: the defaults                     */
    const tdec_ipt_addr_filter *filter;     /* NULL: none                             */
    tdec_ipt_read_fn            read;       /* NULL: tdec_ipt_image_read              */
    void                       *read_ctx;   /* its context (the tdec_ipt_image)       */
    uint32_t                    limit;      /* walk limit (0: the default)            */
    int                         blocks;     /* the block decoder, else instructions   */
    unsigned                    ends;       /* blocks: TDEC_IPT_BLOCK_END_ON_*        */
    void                       *cache;      /* the decoder's cache (NULL: none)       */
    size_t                      cache_size;
    size_t                      chunk;      /* bytes a feed (0: the whole trace)      */
    int                         on_error;   /* IPTF_STOP, IPTF_RESYNC_*               */
    int                         offsets;    /* steps get tdec_ipt_flow_offset's answer */
                                            /* before their item (ptxed --offset)      */
    /* called before every decoder call and once after the last (NULL: not) */
    void                      (*between)(void *ctx);
    /* called after each item the decoder gives, before a block is read
       again (item: its index; NULL: not) */
    void                      (*after)(size_t item, tdec_ipt_flow_decoder *f, void *ctx);
    void                       *ctx;        /* for between and after                  */
} iptf_how;

#define IPTF_INSN   TDEC_IPT_FLOW_INSN  /* an instruction ran at ip                   */
#define IPTF_EVENT  TDEC_IPT_FLOW_EVENT /* an event: what = its type, ip = ev.ip      */
#define IPTF_ERROR  10u /* the decoder failed: what = reason, ip, offset as reported   */
#define IPTF_FETCH  11u /* a block's instruction at ip was no longer in the image:    */
                        /* what = block_walk's reason                                  */
#define IPTF_RESYNC 12u /* resync_event placed the decoder: what = enabled there       */

typedef struct iptf_step {
    uint32_t kind;      /* IPTF_*                                         */
    uint32_t what;
    uint64_t ip;
    uint64_t offset;    /* ERROR: err_offset; else with how.offsets: the  */
                        /* trace offset before the item (0 without)       */
    int      resyncing; /* ERROR: resync_event's own ("resync error")     */
} iptf_step;

typedef struct iptf_out {
    tdec_ipt_flow_item *items;  /* items[0, cap): the decoder's items (NULL: not  */
    size_t              cap;    /* kept); the run stops when they are full         */
    size_t              n;
    iptf_step          *steps;  /* steps[0, steps_cap): the first ones (NULL: not */
    size_t              steps_cap; /* kept)                                        */
    size_t              nsteps;
    tdec_status         last;
} iptf_out;

/* A how with every field 0: the defaults. */
static iptf_how iptf_default(void)
{
    iptf_how h;
    memset(&h, 0, sizeof h);
    return h;
}

static void iptf_step_add(iptf_out *o, uint32_t kind, uint32_t what, uint64_t ip, uint64_t offset, int resyncing)
{
    iptf_step *s;
    if (!o->steps || o->nsteps == o->steps_cap) return;
    s = &o->steps[o->nsteps++];
    s->kind = kind;
    s->what = what;
    s->ip = ip;
    s->offset = offset;
    s->resyncing = resyncing;
}

/* The steps of an item: a block's instructions read again, each one until
   one is no longer in the image. */
static void iptf_item_steps(const tdec_ipt_flow_decoder *f, const tdec_ipt_flow_item *it, uint64_t offset,
                            iptf_out *o)
{
    tdec_ipt_insn_info insn;
    uint8_t raw[16];
    uint32_t k, reason;
    uint64_t ip = it->ip, at;
    if (it->kind == TDEC_IPT_FLOW_EVENT) {
        iptf_step_add(o, IPTF_EVENT, it->ev.type, it->ev.ip, offset, 0);
        return;
    }
    if (it->kind == TDEC_IPT_FLOW_INSN) {
        iptf_step_add(o, IPTF_INSN, 0, it->ip, offset, 0);
        return;
    }
    for (k = 0; k < it->ninsn && o->steps && o->nsteps < o->steps_cap; k++) {
        at = ip;
        if (tdec_ipt_block_walk(f, it, &ip, &insn, raw, &reason) != TDEC_OK) {
            iptf_step_add(o, IPTF_FETCH, reason, at, offset, 0);
            return;
        }
        iptf_step_add(o, IPTF_INSN, 0, at, offset, 0);
    }
}

/* Feeds the next piece of trace[0, n) from *at, or finishes after the last. */
static tdec_status iptf_feed(const iptf_how *h, tdec_ipt_flow_decoder *f, const uint8_t *trace, size_t n, size_t *at,
                             int *finished)
{
    size_t m = n - *at;
    if (*at == n) {
        if (*finished) return TDEC_E_SEQUENCE;
        *finished = 1;
        return tdec_ipt_flow_finish(f);
    }
    if (h->chunk && h->chunk < m) m = h->chunk;
    *at += m;
    return tdec_ipt_flow_feed(f, trace + *at - m, m);
}

static void iptf_between(const iptf_how *h)
{
    if (h->between) h->between(h->ctx);
}

/* With h->offsets, the decoder's offset now into *offset, fed as it asks
   (else 0): TDEC_OK or what a feed answered. */
static tdec_status iptf_offset(const iptf_how *h, tdec_ipt_flow_decoder *f, const uint8_t *trace, size_t n,
                               size_t *at, int *finished, uint64_t *offset)
{
    tdec_status st;
    *offset = 0;
    if (!h->offsets) return TDEC_OK;
    while ((st = tdec_ipt_flow_offset(f, offset)) == TDEC_NEED_INPUT) {
        st = iptf_feed(h, f, trace, n, at, finished);
        if (st != TDEC_NEED_INPUT && st != TDEC_END) return st;
    }
    return st;
}

/* After an error, resync_event until the decoder is placed (TDEC_OK), the
   input runs out, or it fails too (then the next PSB: TDEC_NEED_INPUT). */
static tdec_status iptf_resync_event(const iptf_how *h, tdec_ipt_flow_decoder *f, const uint8_t *trace, size_t n,
                                     size_t *at, int *finished, iptf_out *o)
{
    tdec_ipt_flow_item it;
    tdec_status st;
    uint64_t offset;
    for (;;) {
        iptf_between(h);
        st = tdec_ipt_flow_resync_event(f, &it);
        if (st == TDEC_NEED_INPUT) {
            st = iptf_feed(h, f, trace, n, at, finished);
            if (st != TDEC_NEED_INPUT && st != TDEC_END) return st;
        } else if (st == TDEC_OK && it.kind == TDEC_IPT_FLOW_EVENT) {
            /* ptxed asks for the offset once the event is there */
            st = iptf_offset(h, f, trace, n, at, finished, &offset);
            if (st != TDEC_OK) return st;
            iptf_step_add(o, IPTF_EVENT, it.ev.type, it.ev.ip, offset, 0);
        } else if (st == TDEC_OK) {
            iptf_step_add(o, IPTF_RESYNC, f->enabled, 0, 0, 0);
            return TDEC_OK;
        } else if (st == TDEC_E_CORRUPT) {
            iptf_step_add(o, IPTF_ERROR, f->st.err_reason, f->err_ip, f->st.err_offset, 1);
            return tdec_ipt_flow_resync(f);
        } else {
            return st;
        }
    }
}

/* Decodes trace[0, n) with a fresh decoder f as h says, into o. */
static void iptf_run(const iptf_how *h, const uint8_t *trace, size_t n, tdec_ipt_flow_decoder *f, iptf_out *o)
{
    tdec_ipt_flow_item it;
    size_t at = 0;
    uint64_t offset = 0;
    int finished = 0, fresh = 1;
    tdec_status st = tdec_ipt_flow_init(f, h->cfg, h->read ? h->read : tdec_ipt_image_read, h->read_ctx, h->limit);
    if (h->filter) tdec_ipt_flow_set_filter(f, h->filter);
    tdec_ipt_flow_set_cache(f, h->cache, h->cache_size);
    o->n = 0;
    o->nsteps = 0;
    while (!o->items || o->n < o->cap) {
        /* the offset before an item, not again after a feed in its middle */
        if (fresh && (st = iptf_offset(h, f, trace, n, &at, &finished, &offset)) != TDEC_OK) break;
        fresh = 1;
        iptf_between(h);
        st = h->blocks ? tdec_ipt_flow_next_block(f, &it, h->ends) : tdec_ipt_flow_next(f, &it);
        if (st == TDEC_OK) {
            if (o->items) o->items[o->n] = it;
            o->n++;
            if (h->after) h->after(o->n - 1, f, h->ctx);
            iptf_item_steps(f, &it, offset, o);
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            fresh = 0;
            st = iptf_feed(h, f, trace, n, &at, &finished);
            if (st != TDEC_NEED_INPUT && st != TDEC_END) break;
            continue;
        }
        if (st != TDEC_E_CORRUPT || h->on_error == IPTF_STOP) break;
        iptf_step_add(o, IPTF_ERROR, f->st.err_reason, f->err_ip, f->st.err_offset, 0);
        st = h->on_error == IPTF_RESYNC_EVENT ? iptf_resync_event(h, f, trace, n, &at, &finished, o)
                                              : tdec_ipt_flow_resync(f);
        if (st != TDEC_OK && st != TDEC_NEED_INPUT) break;
    }
    iptf_between(h);
    o->last = st;
}

#endif
