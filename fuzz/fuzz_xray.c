/* fuzz_xray.c - libFuzzer / AFL++ harness for single/tdec_xray.h.

   Input: 8 control bytes, then the trace.
     byte 0    bit 0 TDEC_XRAY_F_STRICT, bit 1 TDEC_XRAY_F_SKIP_PAYLOADS,
               bit 2 use max_fragment, bit 3 use max_payload,
               bit 4 resync() after errors, bits 5-7 chunk schedule
               (0: one byte at a time, 1: one 2-way split, 2: fixed steps,
               3-7: seeded random lengths)
     byte 1    max_fragment - 1 (1..256)
     bytes 2-3 max_payload (u16 LE; 0 = default)
     bytes 4-7 seed (u32 LE) for the schedule
   The trace is decoded whole (one chunk, no max_fragment) and chunked (with
   max_fragment), both with the same flags; the logs must be identical and
   every invariant of tests/lib/xray_check.h must hold; when the whole
   decode ends cleanly, so must every prefix (cc_fuzz_prefixes). Anything
   else abort()s. With -DXC_PRINT_HASH each input prints one line of hashes
   (tests/matrix/matrix.sh compares them across hosts). */
#define TDEC_XRAY_IMPLEMENTATION
#include "tests/lib/xray_check.h"

#define LOG_CAP (1024 * 1024)

static char log_whole[LOG_CAP], log_chunked[LOG_CAP];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xc_run whole, chunked;
    size_t cut;
    const char *bad;
    if (size < 8) return 0;

    memset(&whole, 0, sizeof whole);
    whole.cfg.flags = data[0] & (TDEC_XRAY_F_STRICT | TDEC_XRAY_F_SKIP_PAYLOADS);
    if (data[0] & 8u) whole.cfg.max_payload = (uint64_t)data[2] | ((uint64_t)data[3] << 8);
    whole.resync = (data[0] & 16u) != 0;
    whole.cc.log = log_whole;
    whole.cc.log_cap = LOG_CAP;

    chunked = whole;
    chunked.cc.log = log_chunked;
    if (data[0] & 4u) chunked.cfg.max_fragment = (uint32_t)data[1] + 1u;
    chunked.cc.sched = cc_sched_pick(data[0] >> 5, cc_u32le(data + 4), size - 8, &cut);

    if ((bad = xc_decode(data + 8, size - 8, &whole.cc)) != NULL) cc_abort("fuzz_xray", bad);
    if ((bad = cc_same_as(xc_decode, &whole.cc, &chunked.cc, data + 8, size - 8, "chunked", stderr)) != NULL ||
        (bad = cc_fuzz_prefixes(xc_decode, &whole.cc, &chunked.cc, data + 8, size - 8)) != NULL)
        cc_abort("fuzz_xray", bad);
#ifdef XC_PRINT_HASH
    printf("log %zu %016llx status %d\n", whole.cc.log_len, (unsigned long long)cc_log_hash(&whole.cc),
           (int)whole.cc.status);
#endif
    return 0;
}
