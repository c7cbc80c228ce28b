/* xtrace.c - the device program for single/tdec_xtrace.h: both files of a
   capture, the instruction stream (xinsndata) and the register snapshots
   (xsnapshot, VL 512, with header), as tests/gen/xtrace_gen writes them
   (no producer of real xtrace files exists); the Makefile runs it. */
#include "single/tdec_xtrace.h"
#include "tests/device/device.h"

DEV_TRACE(insn, "build/device/data/xtrace.1700000000.4242.hint9.xinsndata.bin");
DEV_TRACE(snap, "build/device/data/xtrace.1700000000.4242.hint9.xsnapshot.bin");

DEV_CALLS(tdec_xtrace_, tdec_xtrace_decoder, tdec_xtrace_item)

static void digest(const void *dv, const void *iv)
{
    const tdec_xtrace_item *it = (const tdec_xtrace_item *)iv;
    const tdec_xtrace_record *r = &it->u.rec;
    (void)dv;
    dev_item_begin();
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        dev_h_frag(&it->u.frag);
    } else {
        dev_h(r->type);
        dev_h(r->insn);
        dev_h(r->token);
        dev_h(r->flags);
        dev_h(r->el);
        dev_h(r->size_log2);
        dev_h(r->val_kind);
        dev_h(r->reg);
        dev_h(r->snap_split);
        dev_h(r->snap_stream);
        dev_h(r->snap_time);
        dev_h(r->index);
        dev_h(r->pc);
        dev_h(r->addr);
        dev_h(r->value);
        dev_h(r->value2);
        dev_h(r->value3);
        dev_h(r->data_len);
    }
    dev_item_end(it->kind, it->offset);
}

static uint64_t stream_pos(const void *d)
{
    return ((const tdec_xtrace_decoder *)d)->st.pos;
}

static int decode(const char *name, const tdec_xtrace_config *cfg, const uint8_t *trace, size_t len)
{
    static tdec_xtrace_decoder d;
    static tdec_xtrace_item item;
    static const dev_stream s = {&d, &item, dev_tdec_xtrace_feed, dev_tdec_xtrace_finish, dev_tdec_xtrace_next,
                                 digest, NULL, stream_pos};
    tdec_xtrace_init(&d, cfg);
    return dev_run(name, &s, trace, len) == TDEC_END ? 0 : 1;
}

int main(void)
{
    static tdec_xtrace_config cfg; /* zero: an instruction stream */
    int bad = decode("xinsndata", &cfg, insn, DEV_LEN(insn));
    cfg.kind = TDEC_XTRACE_KIND_SNAPSHOT;
    cfg.vl = 512;
    cfg.snap_header = TDEC_XTRACE_HDR_AUTO;
    cfg.file_size = DEV_LEN(snap);
    bad |= decode("xsnapshot", &cfg, snap, DEV_LEN(snap));
    return dev_done(bad);
}
