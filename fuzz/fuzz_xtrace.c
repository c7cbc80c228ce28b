/* fuzz_xtrace.c - libFuzzer / AFL++ harness for single/tdec_xtrace.h.

   Input: 12 control bytes, then the data.
     byte 0     bits 0-1 file kind: 0 instruction stream, 1 snapshots with
                HDR_AUTO (file_size = the data's length), 2 HDR_PRESENT,
                3 HDR_ABSENT; bit 2 TDEC_XTRACE_F_BIG_ENDIAN, bit 3
                TDEC_XTRACE_F_IOVEC_DATA, bit 4 TDEC_XTRACE_F_SKIP_PAYLOADS;
                bits 5-7 chunk schedule (0: one byte at a time, 1: one
                2-way split, 2: fixed steps, 3-7: seeded random lengths)
     byte 1     bits 0-3 time_size (0..8; 9..15 mean 1..7), bits 4-7 the
                vector length: 128 * (1 + value)
     byte 2     max_fragment of the chunked decode (0 = none)
     byte 3     max_iovecs (0 = default)
     byte 4     max_iov_len: value squared (0 = default)
     byte 5     token sizes: 0 no cfg.token_size table, else entry t of the
                table is (t + byte 6) % (value + 1) (0 = still unknown)
     byte 6     see byte 5
     byte 7     chunked decode: bit 0 first take a few items and reset() the
                decoder; bit 1 call finish() right after the item that uses
                up the input (without waiting for NEED_INPUT)
     bytes 8-11 seed (u32 LE) for the schedule and the snapshot helpers
   The data is used three ways:
   1. as the file: decoded whole (one chunk, no max_fragment) and chunked
      (with max_fragment), both with the same config; the logs must be
      identical and every invariant of tests/lib/xtrace_check.h must hold (each
      record as a reference walk of the data reads it); when the whole
      decode ends cleanly, so must every prefix (cc_fuzz_prefixes);
   2. as a snapshot file for tdec_xtrace_snap_detect (with the kind's
      header mode) and tdec_xtrace_snap_view (at offsets 0 and 24, with the
      VL of byte 1);
   3. its first line as a file name for tdec_xtrace_parse_name,
      tdec_xtrace_is_pair and tdec_xtrace_pair_name.
   Anything else abort()s. With -DXTC_PRINT_HASH each input prints one line
   of hashes (tests/matrix/matrix.sh compares them across hosts). */
#define TDEC_XTRACE_IMPLEMENTATION
#include "tests/lib/xtrace_check.h"

#define LOG_CAP (1024 * 1024)
#define CONTROL 12u

static char log_whole[LOG_CAP], log_chunked[LOG_CAP];
static uint32_t token_size[256];

/* The config both decodes share, from control bytes 0..6. */
static void control_config(const uint8_t *c, size_t len, tdec_xtrace_config *cfg)
{
    static const uint32_t hdr[4] = {0, TDEC_XTRACE_HDR_AUTO, TDEC_XTRACE_HDR_PRESENT, TDEC_XTRACE_HDR_ABSENT};
    unsigned ts = c[1] & 15u, t;
    memset(cfg, 0, sizeof *cfg);
    cfg->kind = (c[0] & 3u) ? TDEC_XTRACE_KIND_SNAPSHOT : TDEC_XTRACE_KIND_INSN;
    cfg->snap_header = hdr[c[0] & 3u];
    cfg->file_size = len;
    cfg->vl = 128u * (1u + (c[1] >> 4));
    cfg->flags = (uint32_t)(c[0] >> 2) & 7u; /* BIG_ENDIAN, IOVEC_DATA, SKIP_PAYLOADS */
    cfg->time_size = ts <= 8 ? ts : ts - 8;
    cfg->max_iovecs = c[3];
    cfg->max_iov_len = (uint64_t)c[4] * c[4];
    if (c[5] == 0) return;
    for (t = 0; t < 256; t++) token_size[t] = (t + c[6]) % (c[5] + 1u);
    cfg->token_size = token_size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static xtc_run whole, chunked; /* big: not on the stack */
    const uint8_t *in = data + CONTROL;
    size_t len, cut;
    uint32_t seed;
    uint64_t extra = CC_FNV_BASIS;
    const char *bad;
    if (size < CONTROL) return 0;
    len = size - CONTROL;

    memset(&whole, 0, sizeof whole);
    control_config(data, len, &whole.cfg);
    whole.cc.log = log_whole;
    whole.cc.log_cap = LOG_CAP;
    seed = cc_u32le(data + 8);

    chunked = whole;
    chunked.cc.log = log_chunked;
    chunked.cfg.max_fragment = data[2];
    chunked.cc.reset_first = data[7] & 1u;
    chunked.cc.finish_early = (data[7] & 2u) != 0;
    chunked.cc.sched = cc_sched_pick(data[0] >> 5, seed, len, &cut);

    if ((bad = xtc_decode(in, len, &whole.cc)) != NULL) cc_abort("fuzz_xtrace", bad);
    if ((bad = cc_same_as(xtc_decode, &whole.cc, &chunked.cc, in, len, "chunked", stderr)) != NULL ||
        (bad = cc_fuzz_prefixes(xtc_decode, &whole.cc, &chunked.cc, in, len)) != NULL)
        cc_abort("fuzz_xtrace", bad);

    bad = xtc_snap_check(in, len, whole.cfg.snap_header, (data[0] & 4u) != 0, whole.cfg.vl, seed, &extra);
    if (bad) cc_abort("fuzz_xtrace", bad);
    if ((bad = xtc_name_check(in, len, &extra)) != NULL) cc_abort("fuzz_xtrace", bad);
#ifdef XTC_PRINT_HASH
    printf("log %zu %016llx status %d records %zu extra %016llx\n", whole.cc.log_len,
           (unsigned long long)cc_log_hash(&whole.cc), (int)whole.cc.status, whole.cc.records,
           (unsigned long long)extra);
#endif
    return 0;
}
