/* xray.c - the device program for single/tdec_xray.h: FDR logs (v1..v5,
   with custom and typed event payloads) and a basic-mode log, the largest
   bundled sample among them. */
#include "single/tdec_xray.h"
#include "tests/device/device.h"

DEV_TRACE(basic, "tests/data/xray/basic-mode/basic-mode.xray");
DEV_TRACE(threads, "tests/data/xray/fdr-threads/fdr-threads.xray");
DEV_TRACE(custom, "tests/data/xray/fdr-custom-events/fdr-custom-events.xray");
DEV_TRACE(typed, "tests/data/xray/fdr-typed-events/fdr-typed-events.xray");
DEV_TRACE(v1, "tests/data/xray/fdr-v1-synthetic/fdr-v1-synthetic.xray");

DEV_CALLS(tdec_xray_, tdec_xray_decoder, tdec_xray_item)

static void digest(const void *dv, const void *iv)
{
    const tdec_xray_item *it = (const tdec_xray_item *)iv;
    const tdec_xray_record *r = &it->u.rec;
    (void)dv;
    dev_item_begin();
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        dev_h_frag(&it->u.frag);
    } else if (it->kind == TDEC_ITEM_GAP) {
        dev_h_gap(&it->u.gap);
    } else {
        dev_h(r->type);
        dev_h(r->action);
        dev_h(r->fid);
        dev_h(r->tid);
        dev_h(r->pid);
        dev_h(r->cpu);
        dev_h((uint64_t)r->delta);
        dev_h(r->tsc);
        dev_h(r->value);
        dev_h((uint64_t)r->wall_sec);
        dev_h(r->wall_usec);
        dev_h(r->event_type);
        dev_h(r->meta_kind);
        dev_h(r->payload_size);
        dev_h(r->flags);
        dev_h_bytes(r->raw, r->raw_len);
    }
    dev_item_end(it->kind, it->offset);
}

static uint64_t stream_pos(const void *d)
{
    return ((const tdec_xray_decoder *)d)->st.pos;
}

static int decode(const char *name, const uint8_t *trace, size_t len)
{
    static tdec_xray_decoder d;
    static tdec_xray_item item;
    static const dev_stream s = {&d, &item, dev_tdec_xray_feed, dev_tdec_xray_finish, dev_tdec_xray_next,
                                 digest, NULL, stream_pos};
    tdec_xray_init(&d, NULL);
    return dev_run(name, &s, trace, len) == TDEC_END ? 0 : 1;
}

int main(void)
{
    int bad = decode("basic", basic, DEV_LEN(basic));
    bad |= decode("threads", threads, DEV_LEN(threads));
    bad |= decode("custom", custom, DEV_LEN(custom));
    bad |= decode("typed", typed, DEV_LEN(typed));
    bad |= decode("v1", v1, DEV_LEN(v1));
    return dev_done(bad);
}
