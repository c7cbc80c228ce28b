/* ipt.c - the device program for single/tdec_ipt.h: libipt's test vectors
   (tests/data/ipt/) through the packet decoder, the event decoder, the
   query decoder (the image-less drain of docs/ipt.md) and the instruction
   flow decoder over the vector's code image in flash. */
#include "single/tdec_ipt.h"
#include "tests/device/device.h"

DEV_TRACE(all_pt, "tests/data/ipt/dump-all-packets/dump-all-packets.pt");
DEV_TRACE(loop_pt, "tests/data/ipt/loop-tnt/loop-tnt.pt");
DEV_TRACE(loop_bin, "tests/data/ipt/loop-tnt/loop-tnt.bin");
DEV_TRACE(call_pt, "tests/data/ipt/call_direct-ret_compressed/call_direct-ret_compressed.pt");
DEV_TRACE(call_bin, "tests/data/ipt/call_direct-ret_compressed/call_direct-ret_compressed.bin");
DEV_TRACE(iret_pt, "tests/data/ipt/int-iret/int-iret.pt");
DEV_TRACE(iret_bin, "tests/data/ipt/int-iret/int-iret.bin");
DEV_TRACE(fup_pt, "tests/data/ipt/fup-tip/fup-tip.pt");
DEV_TRACE(fup_bin, "tests/data/ipt/fup-tip/fup-tip.bin");
DEV_TRACE(mode_pt, "tests/data/ipt/mode_exec-tip/mode_exec-tip.pt");
DEV_TRACE(mode_bin, "tests/data/ipt/mode_exec-tip/mode_exec-tip.bin");
DEV_TRACE(tsx_pt, "tests/data/ipt/psb-tsx/psb-tsx.pt");
DEV_TRACE(tsx_bin, "tests/data/ipt/psb-tsx/psb-tsx.bin");

static tdec_ipt_config cfg; /* zero: search for a PSB, no errata */

static void h_event(const tdec_ipt_event *ev)
{
    dev_h(ev->ip);
    dev_h(ev->arg);
    dev_h(ev->arg2);
    dev_h(ev->tsc);
    dev_h(ev->lost_mtc);
    dev_h(ev->lost_cyc);
    dev_h(ev->flags);
    dev_h(ev->aux);
    dev_h(ev->type);
    dev_h(ev->a);
    dev_h(ev->b);
}

/* ---- packets --------------------------------------------------------------- */

DEV_CALLS(tdec_ipt_, tdec_ipt_decoder, tdec_ipt_item)

static void pkt_digest(const void *dv, const void *iv)
{
    const tdec_ipt_item *it = (const tdec_ipt_item *)iv;
    (void)dv;
    dev_item_begin();
    if (it->kind == TDEC_ITEM_GAP) {
        dev_h_gap(&it->u.gap);
    } else {
        dev_h(it->u.pkt.payload);
        dev_h(it->u.pkt.aux);
        dev_h(it->u.pkt.kind);
        dev_h(it->u.pkt.size);
        dev_h(it->u.pkt.sub);
        dev_h(it->u.pkt.flags);
    }
    dev_item_end(it->kind, it->offset);
}

static uint64_t pkt_pos(const void *d)
{
    return ((const tdec_ipt_decoder *)d)->st.pos;
}

static int packets(const char *name, const tdec_ipt_config *c, const uint8_t *pt, size_t len)
{
    static tdec_ipt_decoder d;
    static tdec_ipt_item item;
    static const dev_stream s = {&d, &item, dev_tdec_ipt_feed, dev_tdec_ipt_finish, dev_tdec_ipt_next,
                                 pkt_digest, NULL, pkt_pos};
    tdec_ipt_init(&d, c);
    return dev_run(name, &s, pt, len) == TDEC_END ? 0 : 1;
}

/* ---- events ------------------------------------------------------------------ */

DEV_CALLS(tdec_ipt_evt_, tdec_ipt_evt_decoder, tdec_ipt_evt_item)

static void evt_digest(const void *dv, const void *iv)
{
    const tdec_ipt_evt_item *it = (const tdec_ipt_evt_item *)iv;
    (void)dv;
    dev_item_begin();
    h_event(&it->ev);
    dev_item_end(it->kind, it->offset);
}

static uint64_t evt_pos(const void *d)
{
    return ((const tdec_ipt_evt_decoder *)d)->st.err_offset;
}

static int events(const char *name, const uint8_t *pt, size_t len)
{
    static tdec_ipt_evt_decoder d;
    static tdec_ipt_evt_item item;
    static const dev_stream s = {&d, &item, dev_tdec_ipt_evt_feed, dev_tdec_ipt_evt_finish, dev_tdec_ipt_evt_next,
                                 evt_digest, NULL, evt_pos};
    tdec_ipt_evt_init(&d, &cfg);
    return dev_run(name, &s, pt, len) == TDEC_END ? 0 : 1;
}

/* ---- queries: one query per item -------------------------------------------------- */

enum { Q_SYNC = 1, Q_EVENT, Q_COND, Q_INDIRECT };

typedef struct qry_run {
    tdec_ipt_qry_decoder q;
    int                  synced;
    uint32_t             flags; /* of the last query */
} qry_run;

typedef struct qry_item {
    uint32_t       kind; /* Q_* */
    uint64_t       offset; /* Q_SYNC: the PSB */
    uint64_t       ip;
    int            taken;
    tdec_ipt_event ev;
} qry_item;

static tdec_status qry_feed(void *r, const void *p, size_t n)
{
    return tdec_ipt_qry_feed(&((qry_run *)r)->q, p, n);
}

static tdec_status qry_finish(void *r)
{
    return tdec_ipt_qry_finish(&((qry_run *)r)->q);
}

/* The drain: sync; an event query while one is pending, else a
   conditional-branch query, and an indirect-branch query when no TNT bit
   is next. */
static tdec_status qry_next(void *rv, void *iv)
{
    qry_run *r = (qry_run *)rv;
    qry_item *it = (qry_item *)iv;
    tdec_status st;
    memset(it, 0, sizeof *it);
    if (!r->synced) {
        it->kind = Q_SYNC;
        st = tdec_ipt_qry_sync(&r->q, &it->ip, &r->flags, &it->offset);
        r->synced = st == TDEC_OK;
        return st;
    }
    if (r->flags & TDEC_IPT_QF_EVENT_PENDING) {
        it->kind = Q_EVENT;
        return tdec_ipt_qry_event(&r->q, &it->ev, &r->flags);
    }
    it->kind = Q_COND;
    st = tdec_ipt_qry_cond_branch(&r->q, &it->taken, &r->flags);
    if (st != TDEC_E_SEQUENCE) return st;
    it->kind = Q_INDIRECT;
    return tdec_ipt_qry_indirect_branch(&r->q, &it->ip, &r->flags);
}

static void qry_digest(const void *rv, const void *iv)
{
    const qry_item *it = (const qry_item *)iv;
    dev_item_begin();
    dev_h(((const qry_run *)rv)->flags);
    dev_h(it->ip);
    dev_h((uint64_t)(int64_t)it->taken);
    h_event(&it->ev);
    dev_item_end(it->kind, it->offset);
}

static uint64_t qry_pos(const void *r)
{
    return ((const qry_run *)r)->q.st.err_offset;
}

static int queries(const char *name, const uint8_t *pt, size_t len)
{
    static qry_run r;
    static qry_item item;
    static const dev_stream s = {&r, &item, qry_feed, qry_finish, qry_next, qry_digest, NULL, qry_pos};
    tdec_ipt_qry_init(&r.q, &cfg);
    r.synced = 0;
    r.flags = 0;
    return dev_run(name, &s, pt, len) == TDEC_END ? 0 : 1;
}

/* ---- instruction flow ------------------------------------------------------------- */

DEV_CALLS(tdec_ipt_flow_, tdec_ipt_flow_decoder, tdec_ipt_flow_item)

static void flow_digest(const void *dv, const void *iv)
{
    const tdec_ipt_flow_item *it = (const tdec_ipt_flow_item *)iv;
    (void)dv;
    dev_item_begin();
    dev_h(it->size);
    dev_h(it->iclass);
    dev_h(it->mode);
    dev_h(it->speculative);
    if (it->kind == TDEC_IPT_FLOW_EVENT) h_event(&it->ev);
    else dev_h_bytes(it->raw, it->size);
    dev_item_end(it->kind, it->ip);
}

static uint64_t flow_pos(const void *d)
{
    return ((const tdec_ipt_flow_decoder *)d)->st.err_offset;
}

static int flow(const char *name, const uint8_t *pt, size_t len, const uint8_t *code, size_t code_len,
                uint64_t org)
{
    static tdec_ipt_flow_decoder d;
    static tdec_ipt_flow_item item;
    static const dev_stream s = {&d, &item, dev_tdec_ipt_flow_feed, dev_tdec_ipt_flow_finish,
                                 dev_tdec_ipt_flow_next, flow_digest, NULL, flow_pos};
    static tdec_ipt_section section;
    static tdec_ipt_image image = {&section, 1};
    section.vaddr = org;
    section.size = code_len;
    section.bytes = code;
    section.asid = TDEC_IPT_ASID_ANY;
    tdec_ipt_flow_init(&d, &cfg, tdec_ipt_image_read, &image, 0);
    return dev_run(name, &s, pt, len) == TDEC_END ? 0 : 1;
}

/* A vector through every layer (name: the layers' names). */
static int vector(const char *const name[4], const uint8_t *pt, size_t len, const uint8_t *code, size_t code_len,
                  uint64_t org)
{
    int bad = packets(name[0], &cfg, pt, len);
    bad |= events(name[1], pt, len);
    bad |= queries(name[2], pt, len);
    return bad | flow(name[3], pt, len, code, code_len, org);
}

#define VECTOR(v, org)                                                                                   \
    do {                                                                                                  \
        static const char *const name[4] = {#v " packets", #v " events", #v " queries", #v " flow"};     \
        bad |= vector(name, v##_pt, DEV_LEN(v##_pt), v##_bin, DEV_LEN(v##_bin), org);                    \
    } while (0)

int main(void)
{
    static tdec_ipt_config no_sync; /* every packet kind, from the first byte */
    int bad;
    no_sync.flags = TDEC_IPT_F_NO_SYNC;
    bad = packets("all packets", &no_sync, all_pt, DEV_LEN(all_pt));
    VECTOR(loop, 0x100000u);
    VECTOR(call, 0x100000u);
    VECTOR(iret, 0x100000u);
    VECTOR(fup, 0x1000u);
    VECTOR(mode, 0x1000u);
    VECTOR(tsx, 0x100000u);
    return dev_done(bad);
}
