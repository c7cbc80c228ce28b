/* fuzz_uftrace.c - libFuzzer / AFL++ harness for single/tdec_uftrace.h
   (the <tid>.dat decoder and the perf-cpuN.dat decoder).

   Input: 8 control bytes, a 24-byte spec table, then the data.
     byte 0    bit 0 TDEC_UFTRACE_F_BIG_ENDIAN, bit 1 TDEC_UFTRACE_F_SKIP_PAYLOADS,
               bit 2 use max_fragment, bits 3-4 unused, bits 5-7 chunk
               schedule (0: one byte at a time, 1: one 2-way split,
               2: fixed steps, 3-7: seeded random lengths)
     byte 1    max_fragment - 1 (1..256)
     byte 2    bits 0-2 spec table size - 1 (1..8); bit 3: no table (every
               awaited spec is NULL)
     byte 3    selector: bit 0 set = perf-cpuN.dat decoder, else <tid>.dat
     bytes 4-7 seed (u32 LE) for the schedule
     bytes 8-31  spec k from bytes 8+3k .. 10+3k (s0 s1 s2):
               s0 bits 0-2 count, bits 3-4 mode: 0 as is, 1 count + 8,
               2 count + 16, 3 broken: bit 5 NULL, else bit 6 count 65,
               else an item of unknown kind or size; items i take 4-bit
               codes from s1 (i % 4 < 2) or s2, low nibble first (see
               item_of(), every code a valid item)
   A .dat record that needs a spec gets spec (addr % table size). The data
   is decoded whole (one chunk, no max_fragment) and chunked (with
   max_fragment), both with the same flags and specs; the logs must be
   identical and every invariant of tests/lib/uftrace_check.h must hold;
   when the whole decode ends cleanly, so must every prefix
   (cc_fuzz_prefixes). Anything else abort()s. */
#define TDEC_UFTRACE_IMPLEMENTATION
#include "tests/lib/uftrace_check.h"

#define LOG_CAP   (1024 * 1024)
#define PREFIX    32u
#define MAX_SPECS 8

static char log_whole[LOG_CAP], log_chunked[LOG_CAP];
static tdec_uftrace_argspec spec_tab[MAX_SPECS];

static tdec_uftrace_arg item_of(unsigned code)
{
    static const uint8_t tab[16][3] = {
        {TDEC_UFTRACE_V_INT, 'd', 1},        {TDEC_UFTRACE_V_INT, 'x', 2},
        {TDEC_UFTRACE_V_INT, 'd', 4},        {TDEC_UFTRACE_V_INT, 'd', 8},
        {TDEC_UFTRACE_V_INT, 'p', 8},        {TDEC_UFTRACE_V_CHAR, 'c', 1},
        {TDEC_UFTRACE_V_FLOAT, 'f', 4},      {TDEC_UFTRACE_V_FLOAT, 'f', 8},
        {TDEC_UFTRACE_V_FLOAT, 'f', 10},     {TDEC_UFTRACE_V_STRING, 's', 0},
        {TDEC_UFTRACE_V_STDSTRING, 'S', 0},  {TDEC_UFTRACE_V_STRUCT, 't', 0},
        {TDEC_UFTRACE_V_STRUCT, 't', 3},     {TDEC_UFTRACE_V_STRUCT, 't', 16},
        {TDEC_UFTRACE_V_STRING, 's', 0},     {TDEC_UFTRACE_V_STRUCT, 't', 255},
    };
    tdec_uftrace_arg a;
    a.kind = tab[code & 15u][0];
    a.format = tab[code & 15u][1];
    a.size = tab[code & 15u][2];
    if ((code & 15u) == 15u) a.size = TDEC_UFTRACE_MAX_BLOCK; /* the limit itself */
    return a;
}

/* Spec k of the table from its 3 bytes, in s; mode 3 makes it broken
   (invalid, or NULL). */
static uc_spec make_spec(tdec_uftrace_argspec *s, const uint8_t *b)
{
    unsigned mode = (b[0] >> 3) & 3u, i, v;
    uc_spec u;
    u.spec = s;
    u.valid = mode != 3u;
    s->count = b[0] & 7u;
    if (mode == 3u) {
        if (b[0] & 0x20u) {
            u.spec = NULL;
            return u;
        }
        if (b[0] & 0x40u) {
            s->count = TDEC_UFTRACE_MAX_ARGS + 1u;
            for (i = 0; i < TDEC_UFTRACE_MAX_ARGS; i++) s->args[i] = item_of(3);
            return u;
        }
        s->count = 1u + (b[0] & 7u) % 4u;
        for (i = 0; i < s->count; i++) s->args[i] = item_of(b[1] >> (4 * (i & 1)));
        s->args[b[2] % s->count].kind = (uint8_t)(b[2] & 0x80u ? 7u : TDEC_UFTRACE_V_INT);
        s->args[b[2] % s->count].size = 3; /* bad either way */
        return u;
    }
    s->count += 8u * mode;
    for (i = 0; i < s->count; i++) {
        v = (i % 4u < 2u) ? b[1] : b[2];
        s->args[i] = item_of(v >> (4 * (i & 1)));
    }
    return u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uc_run whole, chunked;
    static uc_spec specs[MAX_SPECS];
    size_t cut, k;
    const char *bad;
    if (size < PREFIX) return 0;

    memset(&whole, 0, sizeof whole);
    whole.perf = data[3] & 1u;
    whole.cfg.flags = data[0] & (TDEC_UFTRACE_F_BIG_ENDIAN | TDEC_UFTRACE_F_SKIP_PAYLOADS);
    whole.cc.log = log_whole;
    whole.cc.log_cap = LOG_CAP;
    if (!(data[2] & 8u)) {
        whole.nspecs = 1u + (data[2] & 7u);
        for (k = 0; k < whole.nspecs; k++) specs[k] = make_spec(&spec_tab[k], data + 8 + 3 * k);
        whole.specs = specs;
    }

    chunked = whole;
    chunked.cc.log = log_chunked;
    if (data[0] & 4u) chunked.cfg.max_fragment = (uint32_t)data[1] + 1u;
    chunked.cc.sched = cc_sched_pick(data[0] >> 5, cc_u32le(data + 4), size - PREFIX, &cut);

    if ((bad = uc_decode(data + PREFIX, size - PREFIX, &whole.cc)) != NULL) cc_abort("fuzz_uftrace", bad);
#ifdef UC_PRINT_LOG /* debugging aid: -DUC_PRINT_LOG prints the whole decode's log */
    fputs(log_whole, stderr);
#endif
    if ((bad = cc_same_as(uc_decode, &whole.cc, &chunked.cc, data + PREFIX, size - PREFIX, "chunked", stderr)) != NULL ||
        (bad = cc_fuzz_prefixes(uc_decode, &whole.cc, &chunked.cc, data + PREFIX, size - PREFIX)) != NULL)
        cc_abort("fuzz_uftrace", bad);
#ifdef UC_PRINT_HASH /* one line of hashes per input: tests/matrix/matrix.sh compares them across hosts */
    printf("log %zu %016llx status %d\n", whole.cc.log_len, (unsigned long long)cc_log_hash(&whole.cc),
           (int)whole.cc.status);
#endif
    return 0;
}
