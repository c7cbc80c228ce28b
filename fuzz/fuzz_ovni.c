/* fuzz_ovni.c - libFuzzer / AFL++ harness for single/tdec_ovni.h.

   Input: 8 control bytes, then the data.
     byte 0    bit 0 TDEC_OVNI_F_STRICT_CLOCK, bit 1 TDEC_OVNI_F_SKIP_PAYLOADS,
               bit 2 use max_fragment, bit 3 use max_jumbo, bit 4 the
               synthetic event (below) is a jumbo event, bits 5-7 chunk
               schedule (0: one byte at a time, 1: one 2-way split,
               2: fixed steps, 3-7: seeded random lengths)
     byte 1    max_fragment - 1 (1..256)
     bytes 2-3 max_jumbo (u16 LE; 0 = default)
     bytes 4-7 seed (u32 LE) for the schedule; bit 0 also makes the
               synthetic event big-endian
   The data is used three ways:
   1. as a stream.obs: decoded whole (one chunk, no max_fragment) and
      chunked (with max_fragment), both with the same flags; the logs must
      be identical and every invariant of tests/lib/ovni_check.h must hold;
      when the whole decode ends cleanly, so must every prefix
      (cc_fuzz_prefixes);
   2. as JSON text: tdec_ovni_json_parse with a small and a large token
      array, lookups and meta_read (oc_json_check);
   3. as a signature and template: the text up to the first '\n' is the
      signature, the next line the description. Every decoded event (the
      first OV_MAX_DESCRIBE) is described with its own signature
      (tdec_ovni_sig_find) and with that one; so is a synthetic event
      whose payload is the data's last bytes and whose blob is the data.
   Anything else abort()s. With -DOC_PRINT_HASH each input prints one line
   of hashes (tests/matrix/matrix.sh compares them across hosts). */
#define TDEC_OVNI_IMPLEMENTATION
#include "tests/lib/ovni_check.h"

#define LOG_CAP         (1024 * 1024)
#define OV_MAX_DESCRIBE 64
#define OV_SIG_MAX      256
#define OV_DESC_MAX     512

static char log_whole[LOG_CAP], log_chunked[LOG_CAP];

/* What the describe pass needs: the input, the signature made of it. */
typedef struct ov_ctx {
    const uint8_t *in;
    size_t         len;
    tdec_ovni_sig  sig; /* from the input */
    size_t         described;
    uint64_t       hash;
    const char    *bad;
} ov_ctx;

/* Describes ev with its table signature and with the input's; blob is
   what the input holds of its jumbo blob. */
static void describe_event(ov_ctx *c, const tdec_ovni_record *ev, const uint8_t *blob, size_t blob_len)
{
    const tdec_ovni_sig *sig = tdec_ovni_sig_find(ev->mcv);
    const char *name = tdec_ovni_model_str(ev->mcv[0]);
    if (sig && name == NULL) c->bad = "a signature for a model without a name";
    if (c->bad == NULL && sig) c->bad = oc_describe_check(sig, ev, blob, blob_len, &c->hash);
    if (c->bad == NULL && sig && ev->jumbo && blob_len > 0) c->bad = oc_describe_check(sig, ev, blob, 0, &c->hash);
    if (c->bad == NULL) c->bad = oc_describe_check(&c->sig, ev, blob, blob_len, &c->hash);
}

static void on_item(void *ctx, const tdec_ovni_item *it, const tdec_ovni_decoder *d)
{
    ov_ctx *c = (ov_ctx *)ctx;
    const tdec_ovni_record *ev = &it->u.rec;
    size_t blob_len = 0, at;
    (void)d;
    if (it->kind != TDEC_ITEM_RECORD || ev->type != TDEC_OVNI_REC_EVENT || c->bad) return;
    if (c->described++ >= OV_MAX_DESCRIBE) return;
    at = (size_t)it->offset + 16;
    if (ev->jumbo && at < c->len) blob_len = c->len - at < ev->jumbo_len ? c->len - at : ev->jumbo_len;
    describe_event(c, ev, blob_len ? c->in + at : NULL, blob_len);
}

/* The input's first line as signature, its second as description, both
   NUL-terminated copies (a NUL byte inside ends them early). */
static void input_sig(ov_ctx *c, char *sig, char *desc)
{
    const uint8_t *nl = (const uint8_t *)memchr(c->in, '\n', c->len), *d2, *end = c->in + c->len;
    size_t n = nl ? (size_t)(nl - c->in) : c->len;
    if (n >= OV_SIG_MAX) n = OV_SIG_MAX - 1;
    memcpy(sig, c->in, n);
    sig[n] = 0;
    d2 = nl ? nl + 1 : end;
    nl = (const uint8_t *)memchr(d2, '\n', (size_t)(end - d2));
    n = (size_t)((nl ? nl : end) - d2);
    if (n >= OV_DESC_MAX) n = OV_DESC_MAX - 1;
    memcpy(desc, d2, n);
    desc[n] = 0;
    c->sig.signature = sig;
    c->sig.description = desc;
}

/* An event made of the input: payload from its last bytes, blob = input. */
static void synthetic_event(ov_ctx *c, int jumbo, int be)
{
    tdec_ovni_record ev;
    size_t n = c->len < 16 ? c->len : 16;
    memset(&ev, 0, sizeof ev);
    ev.type = TDEC_OVNI_REC_EVENT;
    ev.version = 1;
    ev.big_endian = (uint8_t)be;
    if (c->len >= 3) memcpy(ev.mcv, c->in, 3);
    if (jumbo) {
        ev.jumbo = 1;
        ev.flags = TDEC_OVNI_FLAG_JUMBO;
        ev.jumbo_len = (uint32_t)(c->len < 300 ? c->len : 300);
        ev.payload_len = 4;
        ev.payload[be ? 3 : 0] = (uint8_t)ev.jumbo_len;
        ev.payload[be ? 2 : 1] = (uint8_t)(ev.jumbo_len >> 8);
        ev.size = 16u + ev.jumbo_len;
        describe_event(c, &ev, c->in, ev.jumbo_len);
        return;
    }
    if (n == 1) n = 0; /* a 1-byte payload cannot be said */
    ev.payload_len = (uint8_t)n;
    ev.size_code = (uint8_t)(n ? n - 1 : 0);
    ev.size = 12u + n;
    memcpy(ev.payload, c->in + c->len - n, n);
    describe_event(c, &ev, NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char sig[OV_SIG_MAX], desc[OV_DESC_MAX];
    oc_run whole, chunked;
    ov_ctx c;
    size_t cut;
    uint32_t seed;
    const char *bad;
    if (size < 8) return 0;

    memset(&whole, 0, sizeof whole);
    whole.cfg.flags = data[0] & (TDEC_OVNI_F_STRICT_CLOCK | TDEC_OVNI_F_SKIP_PAYLOADS);
    if (data[0] & 8u) whole.cfg.max_jumbo = (uint32_t)data[2] | ((uint32_t)data[3] << 8);
    whole.cc.log = log_whole;
    whole.cc.log_cap = LOG_CAP;
    seed = cc_u32le(data + 4);

    chunked = whole;
    chunked.cc.log = log_chunked;
    if (data[0] & 4u) chunked.cfg.max_fragment = (uint32_t)data[1] + 1u;
    chunked.cc.sched = cc_sched_pick(data[0] >> 5, seed, size - 8, &cut);

    memset(&c, 0, sizeof c);
    c.in = data + 8;
    c.len = size - 8;
    c.hash = CC_FNV_BASIS;
    input_sig(&c, sig, desc);
    whole.on_item = on_item;
    whole.ctx = &c;

    if ((bad = oc_decode(c.in, c.len, &whole.cc)) != NULL) cc_abort("fuzz_ovni", bad);
    if (c.bad) cc_abort("fuzz_ovni", c.bad);
    if ((bad = cc_same_as(oc_decode, &whole.cc, &chunked.cc, c.in, c.len, "chunked", stderr)) != NULL ||
        (bad = cc_fuzz_prefixes(oc_decode, &whole.cc, &chunked.cc, c.in, c.len)) != NULL)
        cc_abort("fuzz_ovni", bad);

    synthetic_event(&c, (data[0] & 16u) != 0, (int)(seed & 1u));
    if (c.bad) cc_abort("fuzz_ovni", c.bad);
    if ((bad = oc_json_check((const char *)c.in, c.len, &c.hash)) != NULL) cc_abort("fuzz_ovni", bad);
#ifdef OC_PRINT_HASH
    printf("log %zu %016llx status %d events %zu extra %016llx\n", whole.cc.log_len,
           (unsigned long long)cc_log_hash(&whole.cc), (int)whole.cc.status, whole.events, (unsigned long long)c.hash);
#endif
    return 0;
}
