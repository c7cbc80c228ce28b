/* ovni.c - the device program for single/tdec_ovni.h: three streams (the
   start of the largest bundled sample, one of jumbo events, one of a
   multithreaded program), each event described with ovni's signature
   table, and a stream's JSON metadata through the JSON parser and
   tdec_ovni_meta_read. */
#include "single/tdec_ovni.h"
#include "tests/device/device.h"

/* The largest bundled sample (500 KB), cut to its events before 96 KB. */
DEV_TRACE_CUT(many, "tests/data/ovni/s06-many-events/ovni/loom.node0/proc.6313/thread.6314/stream.obs", ", 0, 98296");
DEV_TRACE(jumbo, "tests/data/ovni/s03-jumbo/ovni/loom.node0/proc.4357/thread.4357/stream.obs");
DEV_TRACE(multi, "tests/data/ovni/s04-multithread/ovni/loom.node0/proc.9555/thread.9555/stream.obs");
DEV_TRACE(meta, "tests/data/ovni/s04-multithread/ovni/loom.node0/proc.9555/thread.9555/stream.json");

DEV_CALLS(tdec_ovni_, tdec_ovni_decoder, tdec_ovni_item)

/* The event's description as ovni's tools print it (without a jumbo
   event's blob): status, length and text. */
static void h_describe(const tdec_ovni_record *r)
{
    static char text[256];
    const tdec_ovni_sig *sig = tdec_ovni_sig_find(r->mcv);
    size_t len = 0;
    if (sig == NULL) return;
    dev_h((uint64_t)(int64_t)tdec_ovni_describe(sig, r, NULL, 0, text, sizeof text, &len));
    dev_h(len);
    dev_h_bytes((const uint8_t *)text, len);
}

static void digest(const void *dv, const void *iv)
{
    const tdec_ovni_item *it = (const tdec_ovni_item *)iv;
    const tdec_ovni_record *r = &it->u.rec;
    (void)dv;
    dev_item_begin();
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        dev_h_frag(&it->u.frag);
    } else {
        dev_h(r->type);
        dev_h(r->version);
        dev_h(r->clock);
        dev_h(r->size);
        dev_h(r->jumbo_len);
        dev_h_bytes(r->mcv, sizeof r->mcv);
        dev_h(r->flags);
        dev_h(r->size_code);
        dev_h(r->jumbo);
        dev_h(r->payload_len);
        dev_h(r->clock_backwards);
        dev_h(r->big_endian);
        dev_h_bytes(r->payload, sizeof r->payload);
        h_describe(r);
    }
    dev_item_end(it->kind, it->offset);
}

static uint64_t stream_pos(const void *d)
{
    return ((const tdec_ovni_decoder *)d)->st.pos;
}

static int decode(const char *name, const uint8_t *trace, size_t len)
{
    static tdec_ovni_decoder d;
    static tdec_ovni_item item;
    static const dev_stream s = {&d, &item, dev_tdec_ovni_feed, dev_tdec_ovni_finish, dev_tdec_ovni_next,
                                 digest, NULL, stream_pos};
    tdec_ovni_init(&d, NULL);
    return dev_run(name, &s, trace, len) == TDEC_END ? 0 : 1;
}

/* The metadata: one item per token, then one for tdec_ovni_meta_read's
   fields with the loom string. */
static int metadata(const uint8_t *text, size_t len)
{
    static tdec_ovni_json_token tok[256];
    static char loom[64];
    tdec_ovni_json j;
    tdec_ovni_meta m;
    size_t n = 0;
    uint32_t i;
    dev_str("T json");
    dev_hex(len);
    dev_end_line();
    dev_items = 0;
    if (tdec_ovni_json_parse(&j, (const char *)text, len, tok, 256) != TDEC_OK) return 1;
    for (i = 0; i < j.ntok; i++) {
        dev_item_begin();
        dev_h(tok[i].len);
        dev_h(tok[i].count);
        dev_h(tok[i].next);
        dev_item_end(tok[i].type, tok[i].start);
    }
    dev_item_begin();
    if (tdec_ovni_meta_read(&j, &m) != TDEC_OK) return 1;
    dev_h(m.present);
    dev_h((uint64_t)m.version);
    dev_h((uint64_t)m.app_id);
    dev_h((uint64_t)m.rank);
    dev_h((uint64_t)m.nranks);
    dev_h((uint64_t)m.pid);
    dev_h((uint64_t)m.tid);
    dev_h((uint64_t)m.finished);
    dev_h((uint64_t)(int64_t)tdec_ovni_json_string(&j, m.loom, loom, sizeof loom, &n));
    dev_h_bytes((const uint8_t *)loom, n);
    dev_item_end(m.present, 0);
    return 0;
}

int main(void)
{
    int bad = decode("many", many, DEV_LEN(many));
    bad |= decode("jumbo", jumbo, DEV_LEN(jumbo));
    bad |= decode("multi", multi, DEV_LEN(multi));
    bad |= metadata(meta, DEV_LEN(meta));
    return dev_done(bad);
}
