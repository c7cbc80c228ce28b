/* ipt.c - unit tests of the Intel PT packet layer (single/tdec_ipt.h:
   packets, PSB search, resync, the sync helpers over a buffer, last-IP).
   The reference is libipt master (libipt/src/pt_packet.c,
   pt_packet_decoder.c, pt_sync.c, ptdump.c) and the Intel SDM's packet
   chapter (Vol. 3C, "Intel Processor Trace"); the
   API contract is the header's top comment and declarations.

   Sections:
     1. the decoder's size, names, API misuse;
     2. golden: every ptt vector (INDEX.tsv) decoded with its options (the
        errata its CPUs enable - column 6, for SKD007 and SKZ84 - and
        TDEC_IPT_F_NO_SYNC for --no-sync) and compared with ptdump-raw.txt
        line by line: offset, size (raw bytes), kind (name), the raw bytes
        against the file, the payload column as ptdump prints it, the
        tracking columns (last-IP, cr3, vmcs, exec mode, cfe/evd type), and
        the "[off: error decoding packet: ...]" lines, after which the
        decoder resyncs as ptdump does;
     3. chunk invariance of every vector: whole buffer, one byte at a time,
        every 2-way split, seeded random splits, next_n() batches, a reset()
        first, finish() before NEED_INPUT (every run feeds its chunks from
        one reused buffer, scribbled over at NEED_INPUT: the canonical
        loop);
     4. every prefix of every vector;
     5. hostile and edge inputs, each with the exact result derived from
        libipt's rules (the comments cite them), and the regressions of
        fixed decoder bugs;
     6. the buffer helpers and the streaming PSB search against them;
     7. last-IP.

   Every decode goes through tests/lib/ipt_check.h's iptc_decode(), which checks
   each item against a slow reference walk written from libipt's sources
   (kind, size, offsets, gaps, errors, resync), the accounting at
   NEED_INPUT, sticky errors, that feed() with an unread window is refused
   and that resync() after E_TRUNCATED is.

   Usage: build/unit/ipt [vector-dir]; default tests/data/ipt (or tests/data/ipt/ptt)
   if it has INDEX.tsv, else ../shared/formats/ipt/vectors/ptt (run from the
   repository root). */
#define TDEC_IPT_IMPLEMENTATION
#include "tests/lib/ipt_check.h"
#include "tests/lib/testlib.h"

#include <stdint.h>
#include <time.h>

static size_t quick = 1; /* TDEC_TEST_QUICK: stride multiplier (testlib.h) */

/* The decoders' sizes on LP64 targets, as the header's MEMORY section
   documents them. */
#define IPT_DECODER_SIZE_LP64 256u
#define IPT_EVT_DECODER_SIZE_LP64 2576u
#define IPT_QRY_DECODER_SIZE_LP64 4192u

#define LOGCAP (1u << 20)
#define EVCAP  (1u << 16)
static char log_a[LOGCAP], log_b[LOGCAP];
static iptc_ev ev_a[EVCAP], ev_b[EVCAP];

/* ------------------------------------------------------------------ */
/* small helpers                                                       */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static uint32_t rng32(uint64_t *s) /* splitmix64, top half */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static tdec_ipt_config mkcfg(uint32_t flags, uint32_t errata)
{
    tdec_ipt_config c;
    memset(&c, 0, sizeof c);
    c.flags = flags;
    c.errata = errata;
    return c;
}

/* A run with the given config, logging into `log` and `ev` (may be NULL). */
static void run_init(iptc_run *r, uint32_t flags, uint32_t errata, unsigned hook, char *log, iptc_ev *ev)
{
    memset(r, 0, sizeof *r);
    r->cfg = mkcfg(flags, errata);
    r->hook = hook;
    r->resync = 1;
    r->resync_trunc = 1; /* tried after E_TRUNCATED too: must be refused */
    r->cc.log = log;
    r->cc.log_cap = log ? LOGCAP : 0;
    r->evs = ev;
    r->ev_cap = ev ? EVCAP : 0;
}

/* An event in the compact notation of the expectations below:
     <kind>@<off>/<size>[ pl=<hex>][ aux=<hex>][ sub=<n>][ fl=<hex>]
     gap@<off>+<len> (before the first PSB) / rgap@<off>+<len> (resync)
     CORRUPT@<off>:<reason>  TRUNC@<off>  END */
static void ev_compact(char *s, size_t cap, const iptc_ev *e)
{
    size_t n;
    switch (e->what) {
    case IPTC_EV_PACKET:
        n = (size_t)snprintf(s, cap, "%s@%llu/%u", tdec_ipt_kind_str(e->pkt.kind), (unsigned long long)e->offset,
                             (unsigned)e->pkt.size);
        if (e->pkt.payload && n < cap) n += (size_t)snprintf(s + n, cap - n, " pl=%llx", (unsigned long long)e->pkt.payload);
        if (e->pkt.aux && n < cap) n += (size_t)snprintf(s + n, cap - n, " aux=%lx", (unsigned long)e->pkt.aux);
        if (e->pkt.sub && n < cap) n += (size_t)snprintf(s + n, cap - n, " sub=%u", (unsigned)e->pkt.sub);
        if (e->pkt.flags && n < cap) snprintf(s + n, cap - n, " fl=%x", (unsigned)e->pkt.flags);
        break;
    case IPTC_EV_GAP:
        snprintf(s, cap, "%s@%llu+%llu", e->reason == TDEC_IPT_GAP_RESYNC ? "rgap" : "gap",
                 (unsigned long long)e->offset, (unsigned long long)e->len);
        break;
    case IPTC_EV_ERROR:
        if (e->st == TDEC_E_TRUNCATED && e->reason == TDEC_IPT_ERR_EOS)
            snprintf(s, cap, "TRUNC@%llu", (unsigned long long)e->offset);
        else
            snprintf(s, cap, "%s@%llu:%s", e->st == TDEC_E_CORRUPT ? "CORRUPT" : tdec_status_str((tdec_status)e->st),
                     (unsigned long long)e->offset, tdec_ipt_reason_str(e->reason));
        break;
    default:
        snprintf(s, cap, "%s", e->st == TDEC_END ? "END" : tdec_status_str((tdec_status)e->st));
        break;
    }
}

static void evs_compact(char *s, size_t cap, const iptc_ev *ev, size_t n)
{
    size_t i, k = 0;
    s[0] = 0;
    for (i = 0; i < n && k + 1 < cap; i++) {
        if (i) s[k++] = ' ';
        ev_compact(s + k, cap - k, &ev[i]);
        k += strlen(s + k);
    }
}

/* Decodes `in` with the config under several chunkings (whole, one byte at
   a time, every 2-way split for short inputs, random splits, next_n, a
   reset() first, finish() before NEED_INPUT; each through one reused
   buffer) and checks that each gives the same log and that the events, in
   compact notation, are `want`. */
static int expect(tl_case *c, const uint8_t *in, size_t len, uint32_t flags, uint32_t errata, unsigned hook,
                  const char *want)
{
    static char got[1 << 14];
    iptc_run w, r;
    size_t k, cut[1];
    const char *bad;
    run_init(&w, flags, errata, hook, log_a, ev_a);
    bad = iptc_decode(in, len, &w.cc);
    if (!TL_TRUE(c, bad == NULL, "whole buffer: %s", bad)) return 0;
    evs_compact(got, sizeof got, ev_a, w.nev < EVCAP ? w.nev : EVCAP);
    if (!TL_TRUE(c, strcmp(got, want) == 0, "got\n    %s\n  expected\n    %s", got, want)) return 0;
    for (k = 0; k < 12 + len; k++) {
        char what[64];
        run_init(&r, flags, errata, hook, log_b, NULL);
        if (k == 0) r.cc.sched.step = 1;
        else if (k == 1) { r.cc.sched.step = 1; r.next_n = 3; }
        else if (k == 2) { r.cc.sched.seed = 7; r.next_n = 64; r.cc.reset_first = 1; }
        else if (k < 12) { r.cc.sched.seed = (uint32_t)k * 2654435761u; r.cc.finish_early = (int)(k & 1); }
        else if (len <= 80) { cut[0] = k - 12; r.cc.sched.cuts = cut; r.cc.sched.ncuts = 1; }
        else break;
        snprintf(what, sizeof what, "chunking %zu", k);
        bad = cc_same_as(iptc_decode, &w.cc, &r.cc, in, len, what, stderr);
        if (!TL_TRUE(c, bad == NULL, "%s", bad)) return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* 1. size, names, API misuse                                          */

static void test_basics(void)
{
    tl_case c;
    uint32_t k, j;

    tl_begin(&c, "sizeof on LP64: tdec_ipt_decoder %u, tdec_ipt_evt_decoder %u, tdec_ipt_qry_decoder %u",
             IPT_DECODER_SIZE_LP64, IPT_EVT_DECODER_SIZE_LP64, IPT_QRY_DECODER_SIZE_LP64);
    if (sizeof(void *) == 8 && sizeof(long) == 8) {
        TL_EQU(&c, sizeof(tdec_ipt_decoder), IPT_DECODER_SIZE_LP64);
        TL_EQU(&c, sizeof(tdec_ipt_evt_decoder), IPT_EVT_DECODER_SIZE_LP64);
        TL_EQU(&c, sizeof(tdec_ipt_qry_decoder), IPT_QRY_DECODER_SIZE_LP64);
    }
    TL_TRUE(&c, sizeof(tdec_ipt_packet) <= 16, "sizeof(tdec_ipt_packet) = %zu", sizeof(tdec_ipt_packet));
    tl_end(&c);

    /* ptdump's names (ptdump/src/ptdump.c print_packet), distinct */
    tl_begin(&c, "kind names: ptdump's, one per kind");
    {
        static const char *const want[TDEC_IPT_KIND_COUNT] = {
            "", "pad", "psb", "psbend", "ovf", "tnt.8", "tnt.64", "tip", "tip.pge", "tip.pgd", "fup",
            "mode.exec", "mode.tsx", "pip", "tsc", "cbr", "tma", "mtc", "cyc", "vmcs", "mnt", "stop",
            "exstop", "mwait", "pwre", "pwrx", "ptw", "cfe", "evd", "trig", "bbp", "bep", "bip",
            "<unknown>", "<invalid>"};
        for (k = 1; k < TDEC_IPT_KIND_COUNT; k++) {
            TL_TRUE(&c, strcmp(tdec_ipt_kind_str(k), want[k]) == 0, "kind %u is \"%s\"", k, tdec_ipt_kind_str(k));
            for (j = 1; j < k; j++)
                TL_TRUE(&c, strcmp(tdec_ipt_kind_str(k), tdec_ipt_kind_str(j)) != 0, "kinds %u and %u share a name", j, k);
        }
        TL_TRUE(&c, tdec_ipt_kind_str(0)[0] == 0 && tdec_ipt_kind_str(TDEC_IPT_KIND_COUNT)[0] == 0 &&
                        tdec_ipt_kind_str(0xffffffffu)[0] == 0,
                "out-of-range kinds have a name");
    }
    tl_end(&c);

    /* libipt's pt_errstr() texts (libipt/src/pt_error.c), and the gaps' */
    tl_begin(&c, "reason texts: libipt's pt_errstr, and the gap reasons'");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_ERR_BAD_OPC), "unknown opcode") == 0, "bad_opc");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_ERR_BAD_PACKET), "unknown packet") == 0, "bad_packet");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_ERR_EOS), "reached end of trace stream") == 0, "eos");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_ERR_INVALID), "invalid argument") == 0, "invalid");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_ERR_NOSYNC), "decoder out of sync") == 0, "nosync");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(0), "OK") == 0, "ok");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_ERR_BAD_CPU), "unknown cpu") == 0, "bad_cpu");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_GAP_SYNC), "bytes before the first PSB") == 0, "gap sync");
    TL_TRUE(&c, strcmp(tdec_ipt_reason_str(TDEC_IPT_GAP_RESYNC), "bytes skipped by resync") == 0, "gap resync");
    TL_TRUE(&c, tdec_ipt_reason_str(1000)[0] != 0 && tdec_ipt_reason_str(0xffffffffu)[0] != 0, "out of range");
    tl_end(&c);
}

static void test_misuse(void)
{
    static const uint8_t psb_c9[] = {2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82, 2, 0x82,
                                     0x00, 0xc9, 0x00, 2, 0x23};
    static const uint8_t pads[4] = {0, 0, 0, 0};
    tdec_ipt_decoder d, saved;
    tdec_ipt_item it, many[4];
    tdec_ipt_config cfg = mkcfg(TDEC_IPT_F_NO_SYNC, 0);
    size_t n;
    tl_case c;

    tl_begin(&c, "misuse: NULL arguments are E_ARG");
    TL_EQI(&c, tdec_ipt_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_init(&d, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_feed(NULL, pads, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_feed(&d, NULL, 3), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_next(NULL, &it), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_next(&d, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_next_n(NULL, many, 4, &n), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_next_n(&d, NULL, 4, &n), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_next_n(&d, many, 4, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_finish(NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_resync(NULL), TDEC_E_ARG);
    tdec_ipt_reset(NULL); /* ignored */
    TL_EQI(&c, tdec_ipt_feed(&d, NULL, 0), TDEC_NEED_INPUT); /* len 0 does nothing */
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT);
    tl_end(&c);

    tl_begin(&c, "misuse: feed() before the window is used up is E_SEQUENCE and changes nothing");
    TL_EQI(&c, tdec_ipt_init(&d, &cfg), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_feed(&d, pads, 4), TDEC_NEED_INPUT);
    memcpy(&saved, &d, sizeof d);
    TL_EQI(&c, tdec_ipt_feed(&d, pads, 2), TDEC_E_SEQUENCE);
    TL_TRUE(&c, memcmp(&saved, &d, sizeof d) == 0, "the decoder changed");
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
    TL_EQI(&c, tdec_ipt_feed(&d, pads, 2), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_finish(&d), TDEC_E_SEQUENCE); /* window not used up */
    TL_EQI(&c, tdec_ipt_next_n(&d, many, 4, &n), TDEC_NEED_INPUT);
    TL_EQU(&c, n, 3);
    TL_EQI(&c, tdec_ipt_next_n(&d, many, 0, &n), TDEC_OK); /* cap 0: nothing, OK */
    TL_EQU(&c, n, 0);
    tl_end(&c);

    tl_begin(&c, "misuse: after finish, feed is E_SEQUENCE; finish twice and next after END stay END");
    TL_EQI(&c, tdec_ipt_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_ipt_finish(&d), TDEC_END);
    TL_EQI(&c, tdec_ipt_feed(&d, pads, 1), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
    TL_EQI(&c, tdec_ipt_resync(&d), TDEC_E_SEQUENCE); /* nothing to recover from */
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
    tl_end(&c);

    /* The Ending rule: finish() says TDEC_END when nothing is left, an error
       the end decides at once, or TDEC_NEED_INPUT when next() still owes
       items; next() then gives them and that TDEC_END or error again. */
    tl_begin(&c, "Ending: finish() is END, NEED_INPUT (next() drains) or the error, and next() agrees");
    {
        static const uint8_t junk[2] = {0x55, 0x55};
        static const uint8_t tsc_cut[3] = {0x19, 1, 2};
        TL_EQI(&c, tdec_ipt_init(&d, NULL), TDEC_NEED_INPUT); /* nothing fed: no search left */
        TL_EQI(&c, tdec_ipt_finish(&d), TDEC_END);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
        TL_EQI(&c, tdec_ipt_init(&d, NULL), TDEC_NEED_INPUT); /* no PSB: the bytes are a last gap */
        TL_EQI(&c, tdec_ipt_feed(&d, junk, sizeof junk), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_finish(&d), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.kind == TDEC_ITEM_GAP && it.offset == 0 && it.u.gap.len == 2, "the last gap");
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
        TL_EQI(&c, tdec_ipt_finish(&d), TDEC_END);
        TL_EQI(&c, tdec_ipt_init(&d, NULL), TDEC_NEED_INPUT); /* a run of pairs: the PSB at its end */
        TL_EQI(&c, tdec_ipt_feed(&d, psb_c9, 16), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_finish(&d), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.kind == TDEC_ITEM_RECORD && it.u.pkt.kind == TDEC_IPT_PSB && it.offset == 0, "the PSB");
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
        TL_EQI(&c, tdec_ipt_init(&d, &cfg), TDEC_NEED_INPUT); /* whole packets: nothing left */
        TL_EQI(&c, tdec_ipt_feed(&d, pads, 1), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_finish(&d), TDEC_END);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
        TL_EQI(&c, tdec_ipt_init(&d, &cfg), TDEC_NEED_INPUT); /* a carried packet the end cuts */
        TL_EQI(&c, tdec_ipt_feed(&d, tsc_cut, sizeof tsc_cut), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_finish(&d), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_E_TRUNCATED);
        TL_EQU(&c, d.st.err_reason, TDEC_IPT_ERR_EOS);
        TL_EQU(&c, d.st.err_offset, 0);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_E_TRUNCATED);
        TL_EQI(&c, tdec_ipt_finish(&d), TDEC_E_TRUNCATED);
    }
    tl_end(&c);

    tl_begin(&c, "misuse: resync without an error is E_SEQUENCE (fresh, mid-stream)");
    TL_EQI(&c, tdec_ipt_init(&d, &cfg), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_resync(&d), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_feed(&d, pads, 4), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
    TL_EQI(&c, tdec_ipt_resync(&d), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK); /* and nothing changed */
    TL_EQU(&c, it.offset, 1);
    tl_end(&c);

    /* The error is sticky in next/next_n/feed/finish, err_offset fixed,
       until resync() or reset(); the config survives reset(). */
    tl_begin(&c, "misuse: errors are sticky until resync() or reset()");
    TL_EQI(&c, tdec_ipt_init(&d, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_feed(&d, psb_c9, sizeof psb_c9), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK); /* the PSB */
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK); /* the PAD */
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_E_CORRUPT);
    TL_EQU(&c, d.st.err_offset, 17);
    TL_EQU(&c, d.st.err_reason, TDEC_IPT_ERR_BAD_OPC);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_ipt_next_n(&d, many, 4, &n), TDEC_E_CORRUPT);
    TL_EQU(&c, n, 0);
    TL_EQI(&c, tdec_ipt_feed(&d, pads, 1), TDEC_E_CORRUPT);
    TL_EQI(&c, tdec_ipt_finish(&d), TDEC_E_CORRUPT);
    TL_EQU(&c, d.st.err_offset, 17);
    memcpy(&saved, &d, sizeof d);
    TL_EQI(&c, tdec_ipt_resync(&d), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_resync(&d), TDEC_E_SEQUENCE);
    /* bytes 2.. have no PSB: the search needs the end of the stream */
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_finish(&d), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
    TL_TRUE(&c, it.kind == TDEC_ITEM_GAP && it.offset == 17 && it.u.gap.len == 4 &&
                    it.u.gap.reason == TDEC_IPT_GAP_RESYNC,
            "gap %u at %llu len %llu", (unsigned)it.kind, (unsigned long long)it.offset,
            (unsigned long long)it.u.gap.len);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
    tl_end(&c);

    tl_begin(&c, "misuse: reset() after an error gives the state after init(), same config");
    memcpy(&d, &saved, sizeof d);
    tdec_ipt_reset(&d);
    TL_TRUE(&c, d.st.err == TDEC_OK && d.st.pos == 0 && d.st.err_offset == 0 && d.st.carry_len == 0 &&
                    d.st.win_len == 0 && d.sync_offset == UINT64_MAX,
            "state left after reset");
    TL_EQI(&c, tdec_ipt_feed(&d, psb_c9, 16), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT); /* the PSB's run may go on */
    TL_EQI(&c, tdec_ipt_finish(&d), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
    TL_TRUE(&c, it.kind == TDEC_ITEM_RECORD && it.u.pkt.kind == TDEC_IPT_PSB && it.offset == 0, "not the PSB");
    TL_EQU(&c, d.sync_offset, 0);
    TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
    tl_end(&c);

    tl_begin(&c, "misuse: the config is copied at init");
    {
        tdec_ipt_config cf = mkcfg(TDEC_IPT_F_NO_SYNC, 0);
        TL_EQI(&c, tdec_ipt_init(&d, &cf), TDEC_NEED_INPUT);
        cf.flags = 0;
        TL_EQI(&c, tdec_ipt_feed(&d, pads, 1), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.kind == TDEC_ITEM_RECORD && it.u.pkt.kind == TDEC_IPT_PAD, "not a PAD");
    }
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 2. the vectors                                                      */

typedef struct vec {
    char     name[96];
    uint8_t *pt;
    size_t   len;
    char    *raw;        /* ptdump-raw.txt                                    */
    uint32_t flags;      /* TDEC_IPT_F_NO_SYNC                                */
    int      no_offset;  /* --no-offset                                       */
    uint32_t errata[8];  /* the distinct errata sets of the vector's CPUs    */
    unsigned nerrata;
} vec;

static vec vecs[256];
static unsigned nvecs;

static uint32_t erratum_bit(const char *s, size_t n)
{
    static const struct { const char *name; uint32_t bit; } t[] = {
        {"bdm70", TDEC_IPT_ERRATUM_BDM70}, {"bdm64", TDEC_IPT_ERRATUM_BDM64}, {"skd007", TDEC_IPT_ERRATUM_SKD007},
        {"skd022", TDEC_IPT_ERRATUM_SKD022}, {"skd010", TDEC_IPT_ERRATUM_SKD010}, {"skl014", TDEC_IPT_ERRATUM_SKL014},
        {"apl12", TDEC_IPT_ERRATUM_APL12}, {"apl11", TDEC_IPT_ERRATUM_APL11}, {"skl168", TDEC_IPT_ERRATUM_SKL168},
        {"skz84", TDEC_IPT_ERRATUM_SKZ84}};
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strlen(t[i].name) == n && memcmp(t[i].name, s, n) == 0) return t[i].bit;
    return 0x80000000u; /* unknown: makes the vector's load fail */
}

/* Loads INDEX.tsv and every vector's .pt and ptdump-raw.txt. */
static int load_vectors(tl_case *c, const char *dir)
{
    char path[512], line[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/INDEX.tsv", dir);
    f = fopen(path, "r");
    if (!TL_TRUE(c, f != NULL, "cannot open %s", path)) return 0;
    while (fgets(line, sizeof line, f)) {
        char *col[10], *p = line;
        unsigned n = 0;
        vec *v;
        size_t rl;
        line[strcspn(line, "\r\n")] = 0;
        while (n < 10) {
            col[n++] = p;
            p = strchr(p, '\t');
            if (p == NULL) break;
            *p++ = 0;
        }
        if (n < 8 || strcmp(col[0], "name") == 0) continue;
        if (!TL_TRUE(c, nvecs < 256, "too many vectors")) break;
        v = &vecs[nvecs];
        memset(v, 0, sizeof *v);
        snprintf(v->name, sizeof v->name, "%s", col[0]);
        snprintf(path, sizeof path, "%s/%s/%s.pt", dir, v->name, v->name);
        v->pt = tl_read_file(path, &v->len);
        if (!TL_TRUE(c, v->pt != NULL, "cannot read %s", path)) continue;
        snprintf(path, sizeof path, "%s/%s/ptdump-raw.txt", dir, v->name);
        v->raw = (char *)tl_read_file(path, &rl);
        if (!TL_TRUE(c, v->raw != NULL, "cannot read %s", path)) continue;
        if (strstr(col[6], "--no-sync")) v->flags |= TDEC_IPT_F_NO_SYNC;
        if (strstr(col[6], "--no-offset")) v->no_offset = 1;
        /* column 6: errata sets of the CPUs, "|"-separated; pttc ran the
           test once per CPU with --cpu and every CPU gave the same output */
        if (strcmp(col[5], "-") == 0) {
            v->errata[v->nerrata++] = 0;
        } else {
            char *s = col[5];
            while (*s && v->nerrata < 8) {
                size_t k = strcspn(s, "|");
                uint32_t bits = 0;
                char *q = s, *e = s + k;
                while (q < e) {
                    size_t w = strcspn(q, ",|");
                    if (q + w > e) w = (size_t)(e - q);
                    bits |= erratum_bit(q, w);
                    q += w + (q + w < e);
                }
                TL_TRUE(c, !(bits & 0x80000000u), "%s: unknown erratum in \"%s\"", v->name, col[5]);
                v->errata[v->nerrata++] = bits;
                s = e + (*e == '|');
            }
        }
        nvecs++;
    }
    fclose(f);
    return !c->bad;
}

static uint32_t kind_of_name(const char *s)
{
    uint32_t k;
    for (k = 1; k < TDEC_IPT_KIND_COUNT; k++)
        if (strcmp(tdec_ipt_kind_str(k), s) == 0) return k;
    return 0;
}

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* The payload column as ptdump's print_packet() prints it. */
static void ptdump_payload(char *s, size_t cap, const tdec_ipt_packet *p)
{
    static const char *const cfe_name[16] = {"unknown", "intr", "iret", "smi", "rsm", "sipi", "init", "vmentry",
                                             "vmexit", "vmexit_intr", "shutdown", "unknown", "uintr", "uiret",
                                             "swintr", "syscall"};
    unsigned i;
    s[0] = 0;
    (void)cfe_name;
    switch (p->kind) {
    case TDEC_IPT_TIP: case TDEC_IPT_TIP_PGE: case TDEC_IPT_TIP_PGD: case TDEC_IPT_FUP:
        switch (p->sub) {
        case 0: snprintf(s, cap, "0: ????????????????"); break;
        case 1: snprintf(s, cap, "1: ????????????%04llx", (unsigned long long)p->payload); break;
        case 2: snprintf(s, cap, "2: ????????%08llx", (unsigned long long)p->payload); break;
        case 4: snprintf(s, cap, "4: ????%012llx", (unsigned long long)p->payload); break;
        default: snprintf(s, cap, "%u: %016llx", (unsigned)p->sub, (unsigned long long)tdec_ipt_ip_payload(p)); break;
        }
        break;
    case TDEC_IPT_TNT_8: case TDEC_IPT_TNT_64: /* oldest first, ! taken */
        for (i = 0; i < p->sub && i + 1 < cap; i++) s[i] = (p->payload >> (p->sub - 1 - i)) & 1u ? '!' : '.';
        s[i] = 0;
        break;
    case TDEC_IPT_PIP: snprintf(s, cap, "%llx%s", (unsigned long long)p->payload, (p->flags & TDEC_IPT_PF_NR) ? ", nr" : ""); break;
    case TDEC_IPT_VMCS: case TDEC_IPT_TSC: case TDEC_IPT_CYC: case TDEC_IPT_MNT:
        snprintf(s, cap, "%llx", (unsigned long long)p->payload);
        break;
    case TDEC_IPT_MODE_EXEC: /* csd, csl, if */
        snprintf(s, cap, "%s%s%s%s%s", (p->sub & 2) ? "cs.d" : "", (p->sub & 3) == 3 ? ", " : "",
                 (p->sub & 1) ? "cs.l" : "", (p->sub & 4) && (p->sub & 3) ? ", " : "", (p->sub & 4) ? "if" : "");
        break;
    case TDEC_IPT_MODE_TSX:
        snprintf(s, cap, "%s%s%s", (p->sub & 1) ? "intx" : "", (p->sub & 3) == 3 ? ", " : "", (p->sub & 2) ? "abrt" : "");
        break;
    case TDEC_IPT_CBR: case TDEC_IPT_MTC: snprintf(s, cap, "%llx", (unsigned long long)p->payload); break;
    case TDEC_IPT_TMA: snprintf(s, cap, "%llx, %lx", (unsigned long long)p->payload, (unsigned long)p->aux); break;
    case TDEC_IPT_EXSTOP: snprintf(s, cap, "%s", (p->flags & TDEC_IPT_PF_IP) ? "ip" : ""); break;
    case TDEC_IPT_MWAIT: snprintf(s, cap, "%08llx, %08lx", (unsigned long long)p->payload, (unsigned long)p->aux); break;
    case TDEC_IPT_PWRE:
        snprintf(s, cap, "c%u.%u%s", (unsigned)((p->payload + 1) & 15u), (unsigned)((p->aux + 1) & 15u),
                 (p->flags & TDEC_IPT_PF_HW) ? ", hw" : "");
        break;
    case TDEC_IPT_PWRX: {
        const char *wr = p->sub == TDEC_IPT_PWRX_INT ? "int" : p->sub == TDEC_IPT_PWRX_STORE ? " st"
                         : p->sub == TDEC_IPT_PWRX_HW ? " hw" : "bad";
        snprintf(s, cap, "%s: c%u, c%u", wr, (unsigned)((p->payload + 1) & 15u), (unsigned)((p->aux + 1) & 15u));
        break;
    }
    case TDEC_IPT_PTW:
        snprintf(s, cap, "%u: %llx%s", (unsigned)p->sub, (unsigned long long)p->payload, (p->flags & TDEC_IPT_PF_IP) ? ", ip" : "");
        break;
    case TDEC_IPT_CFE:
        if (p->sub == 1 || p->sub == 9 || p->sub == 12 || p->sub == 14)
            snprintf(s, cap, "%u: %u%s", (unsigned)p->sub, (unsigned)p->payload, (p->flags & TDEC_IPT_PF_IP) ? ", ip" : "");
        else if (p->sub == 5)
            snprintf(s, cap, "%u: %x%s", (unsigned)p->sub, (unsigned)p->payload, (p->flags & TDEC_IPT_PF_IP) ? ", ip" : "");
        else
            snprintf(s, cap, "%u%s", (unsigned)p->sub, (p->flags & TDEC_IPT_PF_IP) ? ", ip" : "");
        break;
    case TDEC_IPT_EVD: snprintf(s, cap, "%u: %llx", (unsigned)p->sub, (unsigned long long)p->payload); break;
    case TDEC_IPT_TRIG:
        if (p->flags & TDEC_IPT_PF_ICNTV)
            snprintf(s, cap, "%02llx%s%s, icnt: %lu", (unsigned long long)p->payload, (p->flags & TDEC_IPT_PF_IP) ? ", ip" : "",
                     (p->flags & TDEC_IPT_PF_MULT) ? ", mult" : "", (unsigned long)p->aux);
        else
            snprintf(s, cap, "%02llx%s%s", (unsigned long long)p->payload, (p->flags & TDEC_IPT_PF_IP) ? ", ip" : "",
                     (p->flags & TDEC_IPT_PF_MULT) ? ", mult" : "");
        break;
    default: break;
    }
}

/* The tracking column ptdump adds for a packet (--lastip, --exec-mode, and
   the cr3/vmcs/type columns it always prints): id and value, or id "". */
static void ptdump_tracking(char *id, char *val, size_t cap, const tdec_ipt_packet *p, tdec_ipt_last_ip *lip)
{
    static const char *const cfe_name[16] = {"unknown", "intr", "iret", "smi", "rsm", "sipi", "init", "vmentry",
                                             "vmexit", "vmexit_intr", "shutdown", "unknown", "uintr", "uiret",
                                             "swintr", "syscall"};
    static const char *const evd_name[3] = {"cr2", "vmxq", "vmxr"};
    uint64_t ip;
    uint32_t why;
    id[0] = val[0] = 0;
    switch (p->kind) {
    case TDEC_IPT_TIP: case TDEC_IPT_TIP_PGE: case TDEC_IPT_TIP_PGD: case TDEC_IPT_FUP:
        strcpy(id, "ip");
        if (tdec_ipt_last_ip_update(lip, p, NULL) != TDEC_OK) snprintf(val, cap, "<unavailable>");
        else if (tdec_ipt_last_ip_query(lip, &ip, &why) != TDEC_OK && why == TDEC_IPT_ERR_IP_SUPPRESSED)
            snprintf(val, cap, "<suppressed>");
        else snprintf(val, cap, "%016llx", (unsigned long long)ip);
        break;
    case TDEC_IPT_PIP: strcpy(id, "cr3"); snprintf(val, cap, "%016llx", (unsigned long long)p->payload); break;
    case TDEC_IPT_VMCS: strcpy(id, "vmcs"); snprintf(val, cap, "%016llx", (unsigned long long)p->payload); break;
    case TDEC_IPT_MODE_EXEC:
        strcpy(id, "em");
        snprintf(val, cap, "%s", (p->sub & 3) == 1 ? "64-bit" : (p->sub & 3) == 2 ? "32-bit" : (p->sub & 3) == 0 ? "16-bit" : "unknown");
        break;
    case TDEC_IPT_CFE: strcpy(id, "type"); snprintf(val, cap, "%s", p->sub < 16 ? cfe_name[p->sub] : "unknown"); break;
    case TDEC_IPT_EVD: strcpy(id, "type"); snprintf(val, cap, "%s", p->sub < 3 ? evd_name[p->sub] : "unknown"); break;
    default: break;
    }
}

/* Compares a vector's decode (events ev[0..n)) with its ptdump-raw.txt. */
static int check_ptdump(tl_case *c, const vec *v, const iptc_ev *ev, size_t n)
{
    char *text, *line, *next;
    size_t i = 0, lines = 0;
    uint64_t expect_off = 0, last_end = IPTC_NONE;
    int know_off = 0;
    tdec_ipt_last_ip lip;
    tdec_ipt_last_ip_init(&lip);
    text = (char *)xmalloc(strlen(v->raw) + 1);
    strcpy(text, v->raw);
    for (line = text; *line && !c->bad; line = next) {
        char *tok[4], *p = line, *rest;
        unsigned nt = 0, k;
        uint64_t off = 0;
        next = line + strcspn(line, "\n");
        if (*next) *next++ = 0;
        lines++;
        while (i < n && ev[i].what == IPTC_EV_GAP) i++;
        if (line[0] == '[') { /* "[<hex off>: error decoding packet: <text>]" or other diagnostics */
            const char *m = strstr(line, ": error decoding packet: ");
            char text_want[128];
            if (m == NULL) continue;
            off = strtoull(line + 1, NULL, 16);
            snprintf(text_want, sizeof text_want, "%.*s", (int)(strlen(m + 25) - 1), m + 25);
            if (!TL_TRUE(c, i < n && ev[i].what == IPTC_EV_ERROR && ev[i].st == TDEC_E_CORRUPT,
                         "line %zu (%s): the decoder has no error here", lines, line))
                break;
            TL_EQU(c, ev[i].offset, off);
            TL_TRUE(c, strcmp(tdec_ipt_reason_str(ev[i].reason), text_want) == 0, "line %zu: reason \"%s\" for \"%s\"",
                    lines, tdec_ipt_reason_str(ev[i].reason), text_want);
            i++;
            know_off = 0;
            last_end = IPTC_NONE;
            tdec_ipt_last_ip_init(&lip); /* ptdump_tracking_reset() after the resync */
            continue;
        }
        while (nt < 4 && *p) {
            while (*p == ' ') p++;
            if (!*p) break;
            tok[nt++] = p;
            p += strcspn(p, " ");
            if (*p) *p++ = 0;
            if (nt == (v->no_offset ? 2u : 3u)) break;
        }
        rest = p;
        while (*rest == ' ') rest++;
        if (!TL_TRUE(c, nt == (v->no_offset ? 2u : 3u), "line %zu: cannot parse", lines)) break;
        if (!v->no_offset) {
            off = strtoull(tok[0], NULL, 16);
        } else {
            off = know_off ? expect_off : (i < n ? ev[i].offset : 0);
        }
        {
            const char *raw = tok[v->no_offset ? 0 : 1], *name = tok[v->no_offset ? 1 : 2];
            size_t size = strlen(raw) / 2;
            uint32_t kind = kind_of_name(name);
            const iptc_ev *e;
            char pay[160], id[16], val[64];
            if (!TL_TRUE(c, kind != 0, "line %zu: unknown packet name %s", lines, name)) break;
            if (!TL_TRUE(c, i < n && ev[i].what == IPTC_EV_PACKET, "line %zu (%s at %llx): the decoder has %s", lines,
                         name, (unsigned long long)off,
                         i >= n ? "nothing more" : ev[i].what == IPTC_EV_ERROR ? "an error" : "the end"))
                break;
            e = &ev[i++];
            /* SKD007: ptdump prints the OVF at the dropped CYC byte (the
               offset before pt_pkt_next), with the CYC byte as raw bytes */
            if (e->pkt.flags & TDEC_IPT_PF_SKD007) {
                TL_TRUE(c, e->offset == off + 1, "line %zu: SKD007 OVF at %llu, ptdump %llu", lines,
                        (unsigned long long)e->offset, (unsigned long long)off);
            } else {
                TL_TRUE(c, e->offset == off, "line %zu (%s): offset %llu, ptdump %llu", lines, name,
                        (unsigned long long)e->offset, (unsigned long long)off);
            }
            TL_TRUE(c, e->pkt.kind == kind, "line %zu: kind %s, ptdump %s", lines, tdec_ipt_kind_str(e->pkt.kind), name);
            TL_TRUE(c, e->pkt.size == size, "line %zu (%s): size %u, ptdump %zu", lines, name, (unsigned)e->pkt.size, size);
            for (k = 0; k < size; k++)
                if (!TL_TRUE(c, off + k < v->len && hexval(raw[2 * k]) * 16 + hexval(raw[2 * k + 1]) == v->pt[off + k],
                             "line %zu: raw byte %u differs from the file", lines, k))
                    break;
            ptdump_payload(pay, sizeof pay, &e->pkt);
            {
                const char *q = pay; /* ptdump's column: leading blanks merge */
                while (*q == ' ') q++;
                if (*q)
                    TL_TRUE(c, strncmp(rest, q, strlen(q)) == 0 && (rest[strlen(q)] == 0 || rest[strlen(q)] == ' '),
                            "line %zu (%s): payload \"%s\", ptdump \"%s\"", lines, name, q, rest);
                rest += strlen(q);
            }
            ptdump_tracking(id, val, sizeof val, &e->pkt, &lip);
            if (id[0]) {
                char *q = rest;
                while (*q == ' ') q++;
                TL_TRUE(c, strncmp(q, id, strlen(id)) == 0, "line %zu (%s): no \"%s\" column in \"%s\"", lines, name, id, rest);
                q += strlen(id);
                while (*q == ' ') q++;
                TL_TRUE(c, strncmp(q, val, strlen(val)) == 0, "line %zu (%s): %s %s, ptdump \"%s\"", lines, name, id, val, q);
            }
            expect_off = off + size + ((e->pkt.flags & TDEC_IPT_PF_SKD007) ? 1u : 0u);
            last_end = expect_off;
            know_off = 1;
        }
    }
    free(text);
    if (c->bad) return 0;
    while (i < n && ev[i].what == IPTC_EV_GAP) i++;
    /* ptdump stops silently at -pte_eos: the end, or a packet cut there */
    if (!TL_TRUE(c, i + 1 == n && (ev[i].what == IPTC_EV_END || (ev[i].what == IPTC_EV_ERROR && ev[i].st == TDEC_E_TRUNCATED)),
                 "the decoder has %zu more events after ptdump's last line", n - i))
        return 0;
    if (ev[i].what == IPTC_EV_ERROR && last_end != IPTC_NONE)
        TL_TRUE(c, ev[i].offset == last_end, "truncated at %llu, ptdump's last packet ends at %llu",
                (unsigned long long)ev[i].offset, (unsigned long long)last_end);
    return 1;
}

static void test_vectors(void)
{
    tl_case c;
    unsigned i, k;
    size_t total = 0;
    for (i = 0; i < nvecs; i++) {
        vec *v = &vecs[i];
        tl_begin(&c, "vector %s: packets and errors as ptdump-raw.txt", v->name);
        for (k = 0; k < v->nerrata && !c.bad; k++) {
            iptc_run r;
            const char *bad;
            run_init(&r, v->flags, v->errata[k], IPTC_HOOK_NONE, NULL, ev_a);
            bad = iptc_decode(v->pt, v->len, &r.cc);
            if (!TL_TRUE(&c, bad == NULL, "errata %x: %s", v->errata[k], bad)) break;
            if (!TL_TRUE(&c, r.nev <= EVCAP, "too many events")) break;
            check_ptdump(&c, v, ev_a, r.nev);
            if (c.bad) snprintf(c.why + strlen(c.why), sizeof c.why - strlen(c.why), " (errata %x)", v->errata[k]);
            total += r.packets;
        }
        tl_end(&c);
    }
    tl_begin(&c, "vectors: at least 150 with 1500 packets");
    TL_TRUE(&c, nvecs >= 150 && total >= 1500, "%u vectors, %zu packets", nvecs, total);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 3. chunk invariance of every vector                                 */

/* Decodes vector v whole, then with each chunking that `mode` selects;
   every log must equal the whole one. Every run (iptc_decode) feeds its
   chunks from one reused buffer, scribbled over at NEED_INPUT. Returns
   the number of runs. */
static size_t invariance(tl_case *c, const vec *v, int mode)
{
    iptc_run w, r;
    size_t runs = 0, k, cut[2], n = v->len;
    const char *bad;
    uint32_t errata = v->errata[0];
    run_init(&w, v->flags, errata, IPTC_HOOK_NONE, log_a, NULL);
    if ((bad = iptc_decode(v->pt, n, &w.cc)) != NULL) {
        TL_TRUE(c, 0, "%s whole: %s", v->name, bad);
        return 0;
    }
    for (k = 0;; k++) {
        cc_sched *s = &r.cc.sched;
        char what[160];
        run_init(&r, v->flags, errata, IPTC_HOOK_NONE, log_b, NULL);
        switch (mode) {
        case 0: if (k) return runs; s->step = 1; break;                       /* one byte at a time */
        case 1: if (k > n) return runs; cut[0] = k; s->cuts = cut; s->ncuts = 1; /* every 2-way split */
            k += quick - 1;
            break;
        case 2: if (k >= 16) return runs; s->seed = 0x1234567u + (uint32_t)k * 7919u; break; /* seeded random */
        case 3: /* next_n batches, reset() first, three-way splits */
            if (k >= 6) return runs;
            r.next_n = k < 2 ? 1 : k < 4 ? 7 : 64;
            r.cc.reset_first = (int)(k & 1);
            cut[0] = n / 3 + k;
            cut[1] = 2 * n / 3;
            s->cuts = cut;
            s->ncuts = cut[0] < cut[1] ? 2 : 1;
            break;
        case 4: /* finish() right after the item that used up the input */
            if (k >= 3) return runs;
            r.cc.finish_early = 1;
            if (k == 0) s->step = 1;
            else if (k == 1) s->seed = 99;
            break;
        default: /* the canonical loop over one reused buffer: 1- and 7-byte steps, seeded */
            if (k >= 4) return runs;
            if (k == 0) s->step = 1;
            else if (k == 1) s->step = 7;
            else s->seed = 31u * (uint32_t)k;
            break;
        }
        snprintf(what, sizeof what, "%.120s, chunking %zu", v->name, k);
        bad = cc_same_as(iptc_decode, &w.cc, &r.cc, v->pt, n, what, stderr);
        runs++;
        if (bad) {
            TL_TRUE(c, 0, "%s", bad);
            return runs;
        }
    }
}

static void test_invariance(void)
{
    static const char *const what[6] = {
        "one byte at a time", "every 2-way split", "16 seeded random splits",
        "next_n() batches, reset() first, 3-way splits",
        "finish() right after the item that uses up the input",
        "the canonical loop reusing one buffer (scribbled at NEED_INPUT)"};
    tl_case c;
    unsigned i;
    int mode;
    for (mode = 0; mode < 6; mode++) {
        size_t runs = 0, failed = 0;
        char first[400] = "";
        tl_begin(&c, "chunk invariance, every vector: %s", what[mode]);
        for (i = 0; i < nvecs; i++) {
            tl_case one;
            tl_begin(&one, "%s", vecs[i].name);
            runs += invariance(&one, &vecs[i], mode);
            if (one.bad) {
                if (!failed++) snprintf(first, sizeof first, "%s", one.why);
            }
        }
        TL_TRUE(&c, failed == 0, "%zu of %u vectors fail; first: %s", failed, nvecs, first);
        TL_TRUE(&c, runs >= nvecs, "only %zu runs", runs);
        tl_end(&c);
    }
}

/* ------------------------------------------------------------------ */
/* 4. every prefix                                                     */

/* Every prefix of every vector under each of its errata (iptc_prefixes:
   END or E_TRUNCATED at the cut packet, no packet that is not in the full
   decode). */
static void test_prefixes(void)
{
    tl_case c;
    unsigned i, k;
    size_t runs = 0, failed = 0;
    char first[600] = "";
    tl_begin(&c, "every prefix of every vector: END or E_TRUNCATED at the cut packet, no packet not in the full decode");
    for (i = 0; i < nvecs; i++) {
        const vec *v = &vecs[i];
        for (k = 0; k < v->nerrata; k++) {
            iptc_run F, P;
            const char *bad;
            run_init(&F, v->flags, v->errata[k], IPTC_HOOK_NONE, NULL, ev_a);
            run_init(&P, v->flags, v->errata[k], IPTC_HOOK_NONE, NULL, ev_b);
            if ((bad = iptc_decode(v->pt, v->len, &F.cc)) == NULL) bad = iptc_prefixes(&F, &P, v->pt, v->len, quick, &runs);
            if (bad && !failed++) snprintf(first, sizeof first, "%.90s (errata %x): %.400s", v->name, v->errata[k], bad);
        }
    }
    TL_TRUE(&c, failed == 0, "%zu vectors fail; first: %s", failed, first);
    TL_TRUE(&c, runs > 8000 / quick, "only %zu prefixes", runs);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 5. hostile and edge inputs                                          */

/* Hex text ("02 82 ...", blanks ignored; "PSB" stands for the 16 bytes
   02 82 x 8) into buf; returns the length. */
static size_t hexin(uint8_t *buf, size_t cap, const char *hex)
{
    size_t n = 0;
    while (*hex && n < cap) {
        if (*hex == ' ') { hex++; continue; }
        if (strncmp(hex, "PSB", 3) == 0) {
            unsigned i;
            for (i = 0; i < 8 && n + 2 <= cap; i++) {
                buf[n++] = 0x02;
                buf[n++] = 0x82;
            }
            hex += 3;
            continue;
        }
        buf[n++] = (uint8_t)(hexval(hex[0]) * 16 + hexval(hex[1]));
        hex += 2;
    }
    return n;
}

/* One hostile case: name, input (hex), config, hook, expected events. */
typedef struct hcase {
    const char *name;
    const char *hex;
    uint32_t    flags, errata;
    unsigned    hook;
    const char *want;
} hcase;

#define NS TDEC_IPT_F_NO_SYNC
#define PB (TDEC_IPT_F_NO_SYNC | TDEC_IPT_F_PEBS)
#define SKD TDEC_IPT_ERRATUM_SKD007
#define SKZ TDEC_IPT_ERRATUM_SKZ84
#define BAD_PKT ":unknown packet"
#define BAD_OPC ":unknown opcode"

static const hcase hostile[] = {
    /* --- PSB fragments (pt_sync_forward needs 8 whole pairs; pt_pkt_read_psb
       checks the size first, then each pair) --- */
    {"PSB fragment: 7 pairs then 00, search", "0282 0282 0282 0282 0282 0282 0282 00", 0, 0, 0, "gap@0+15 END"},
    {"PSB fragment: 7 pairs then 00, no sync", "0282 0282 0282 0282 0282 0282 0282 00", NS, 0, 0, "TRUNC@0"},
    {"PSB fragment: 15 bytes then EOF, search", "0282 0282 0282 0282 0282 0282 0282 02", 0, 0, 0, "gap@0+15 END"},
    {"PSB fragment: 15 bytes then EOF, no sync", "0282 0282 0282 0282 0282 0282 0282 02", NS, 0, 0, "TRUNC@0"},
    /* the decoder synchronised at 0 (--no-sync): resync skips that PSB
       position, 16 on and 15 back (pt_pkt_sync_forward) */
    {"PSB with a wrong last pair, no sync", "0282 0282 0282 0282 0282 0282 0282 0283", NS, 0, 0,
     "CORRUPT@0" BAD_PKT " rgap@0+16 END"},
    {"PSB with a wrong last pair, search", "0282 0282 0282 0282 0282 0282 0282 0283", 0, 0, 0, "gap@0+16 END"},
    {"PSB with a wrong third pair, no sync", "0282 0282 0082 0282 0282 0282 0282 0282 00", NS, 0, 0,
     "CORRUPT@0" BAD_PKT " rgap@0+17 END"},
    {"PSB after junk, every split", "00 00 00 00 00 PSB 02 23", 0, 0, 0, "gap@0+5 psb@5/16 psbend@21/2 END"},
    {"PSB at 0, nothing else", "PSB", 0, 0, 0, "psb@0/16 END"},
    {"empty stream, search", "", 0, 0, 0, "END"},
    {"empty stream, no sync", "", NS, 0, 0, "END"},
    /* --- runs of 02 82 longer than a PSB: the PSB is the run's last 16
       bytes (pt_find_psb), the bytes before it a gap --- */
    {"run of 10 pairs after junk", "00 00 00 0282 0282 PSB 02 23", 0, 0, 0, "gap@0+7 psb@7/16 psbend@23/2 END"},
    {"run of 9 pairs in the 82 phase", "82 0282 PSB 00", 0, 0, 0, "gap@0+3 psb@3/16 pad@19/1 END"},
    {"run of 9 pairs and a lone 02 at EOF", "0282 PSB 02", 0, 0, 0, "gap@0+2 psb@2/16 TRUNC@18"},
    {"run of 50 pairs", "0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 "
                        "0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 0282 "
                        "0282 0282 0282 0282 0282 0282 PSB 02 23",
     0, 0, 0, "gap@0+84 psb@84/16 psbend@100/2 END"},
    {"PSB then 82", "PSB 82", 0, 0, 0, "psb@0/16 tnt.8@16/1 pl=1 sub=6 END"},
    {"02 then a PSB", "02 PSB 23", 0, 0, 0, "gap@0+1 psb@1/16 cyc@17/1 pl=4 END"},
    /* --- CYC (pt_pkt_read_cyc: 5 bits, then 7 per byte while bit 0 says
       so; shl > 64 after the 9th continuation byte is a bad packet, the
       end of the buffer before a needed byte is -pte_eos) --- */
    {"CYC with 8 continuation bytes, all ones", "ff ff ff ff ff ff ff ff fe", NS, 0, 0, "cyc@0/9 pl=1fffffffffffffff END"},
    /* 1 + 1<<5 + 2<<12 + 3<<19 + 4<<26 + 5<<33 + 6<<40 + 7<<47 + 8<<54 */
    {"CYC with 8 continuation bytes, each group its own value", "0f 03 05 07 09 0b 0d 0f 10", NS, 0, 0,
     "cyc@0/9 pl=203860a10182021 END"},
    {"CYC with a 9th continuation byte", "ff ff ff ff ff ff ff ff ff 00", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+10 END"},
    {"CYC cut before its 9th continuation byte", "ff ff ff ff ff ff ff ff ff", NS, 0, 0, "TRUNC@0"},
    {"CYC cut after 5 bytes", "ff ff ff ff ff", NS, 0, 0, "TRUNC@0"},
    {"CYC one byte each", "03 fb", NS, 0, 0, "cyc@0/1 cyc@1/1 pl=1f END"},
    {"CYC two bytes", "07 02", NS, 0, 0, "cyc@0/2 pl=20 END"},
    /* --- reserved IP compression 5 and 7 (pt_pkt_ip_size before the size
       check): bad packet even with no byte after the opcode --- */
    {"TIP ipc 5", "ad", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+1 END"},
    {"TIP ipc 7", "ed 00 00 00 00 00 00 00 00", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+9 END"},
    {"TIP.PGE ipc 5", "b1", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+1 END"},
    {"TIP.PGE ipc 7", "f1", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+1 END"},
    {"TIP.PGD ipc 5", "a1", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+1 END"},
    {"TIP.PGD ipc 7", "e1", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+1 END"},
    {"FUP ipc 5", "bd 00 00", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+3 END"},
    {"FUP ipc 7", "fd", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+1 END"},
    {"TIP ipc 3 cut", "6d 00 10", NS, 0, 0, "TRUNC@0"},
    {"every IP size", "0d 2d 3412 4d 78563412 6d 0000 0000 0080 8d 0000 0000 0080 cd 0100000000000080", NS, 0, 0,
     "tip@0/1 tip@1/3 pl=1234 sub=1 tip@4/5 pl=12345678 sub=2 tip@9/7 pl=800000000000 sub=3 "
     "tip@16/7 pl=800000000000 sub=4 tip@23/9 pl=8000000000000001 sub=6 END"},
    /* --- TNT-64 (pt_pkt_read_tnt: the stop bit must be above bit 0) --- */
    {"TNT-64 payload 0", "02 a3 00 00 00 00 00 00", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+8 END"},
    {"TNT-64 payload 1", "02 a3 01 00 00 00 00 00", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+8 END"},
    {"TNT-64 payload 2: one branch", "02 a3 02 00 00 00 00 00", NS, 0, 0, "tnt.64@0/8 sub=1 END"},
    {"TNT-64 stop bit 47", "02 a3 00 00 00 00 00 80", NS, 0, 0, "tnt.64@0/8 sub=47 END"},
    {"TNT-64 all ones", "02 a3 ff ff ff ff ff ff", NS, 0, 0, "tnt.64@0/8 pl=7fffffffffff sub=47 END"},
    {"TNT-64 cut", "02 a3 00", NS, 0, 0, "TRUNC@0"},
    /* --- MODE leaves (pt_pkt_read_mode: leaf 0 exec, 1 tsx, else bad: test_hostile) --- */
    {"MODE leaves 0 and 1, all bits", "99 1f 99 3f", NS, 0, 0, "mode.exec@0/2 sub=31 mode.tsx@2/2 sub=31 END"},
    {"MODE cut", "99", NS, 0, 0, "TRUNC@0"},
    /* --- TMA (pt_pkt_read_tma: byte 4 and bits 15:9 of the FC reserved;
       pt_pkt_decode_tma: SKZ84 makes it an 8-byte ppt_invalid) --- */
    {"TMA byte 4 set", "02 73 cc cc 01 00 00", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+7 END"},
    {"TMA FC bit 9 set", "02 73 cc cc 00 00 02", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+7 END"},
    {"TMA FC 0x1ff", "02 73 cc cc 00 ff 01", NS, 0, 0, "tma@0/7 pl=cccc aux=1ff END"},
    {"TMA reserved bits, SKZ84", "02 73 cc cc 01 00 00 ff 00", NS, SKZ, 0, "<invalid>@0/8 pad@8/1 END"},
    {"TMA FC bit 15, SKZ84", "02 73 cc cc 00 00 80 00", NS, SKZ, 0, "<invalid>@0/8 END"},
    {"TMA valid, SKZ84", "02 73 cc cc 00 ff 01", NS, SKZ, 0, "tma@0/7 pl=cccc aux=1ff END"},
    /* libipt returns the 8 bytes without the 8th; a stream cannot */
    {"TMA reserved bits, SKZ84, cut at 7", "02 73 cc cc 01 00 00", NS, SKZ, 0, "TRUNC@0"},
    {"TMA cut", "02 73 cc cc 01 00", NS, 0, 0, "TRUNC@0"},
    /* --- PTW (pt_pkt_read_ptw: the payload code before the size) --- */
    {"PTW payload code 2", "02 52", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+2 END"},
    {"PTW payload code 3", "02 72", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+2 END"},
    {"PTW payload code 2, IP", "02 d2 00 00 00 00", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+6 END"},
    {"PTW payload code 3, IP", "02 f2", NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+2 END"},
    {"PTW 4 and 8 bytes", "02 12 01 02 03 04 02 b2 01 02 03 04 05 06 07 08", NS, 0, 0,
     "ptw@0/6 pl=4030201 ptw@6/10 pl=807060504030201 sub=1 fl=1 END"},
    {"PTW cut", "02 32 01 02 03 04 05 06 07", NS, 0, 0, "TRUNC@0"},
    /* --- unknown opcodes without a hook (pt_pkt_read_unknown: -pte_bad_opc; one-byte
       ones: test_hostile) --- */
    {"unknown 02 c9", "02 c9", NS, 0, 0, "CORRUPT@0" BAD_OPC " rgap@0+2 END"},
    {"unknown ext2 02 c3 00", "02 c3 00", NS, 0, 0, "CORRUPT@0" BAD_OPC " rgap@0+3 END"},
    {"ext2 cut", "02 c3", NS, 0, 0, "TRUNC@0"},
    {"02 alone", "02", NS, 0, 0, "TRUNC@0"},
    {"BBP without PEBS", "02 63 80", NS, 0, 0, "CORRUPT@0" BAD_OPC " rgap@0+3 END"},
    {"BEP without PEBS", "02 33", NS, 0, 0, "CORRUPT@0" BAD_OPC " rgap@0+2 END"},
    /* --- the unknown hook, 16 bytes or more left (pt_pkt_read_unknown:
       negative passed through, > 255 -pte_invalid; tdec rejects 0) --- */
    {"hook returns 0", "c9 00 00000000000000000000000000000000", NS, 0, IPTC_HOOK_SECOND,
     "CORRUPT@0" BAD_OPC " rgap@0+18 END"},
    {"hook returns -1", "c9 01 00000000000000000000000000000000", NS, 0, IPTC_HOOK_SECOND,
     "CORRUPT@0" BAD_OPC " rgap@0+18 END"},
    {"hook returns negative", "c9 00000000000000000000000000000000", NS, 0, IPTC_HOOK_REJECT,
     "CORRUPT@0" BAD_OPC " rgap@0+17 END"},
    {"hook returns 300", "c9 02 00000000000000000000000000000000", NS, 0, IPTC_HOOK_SECOND,
     "CORRUPT@0:invalid argument rgap@0+18 END"},
    {"hook returns 5", "00 c9 05 00 00 00 0000000000000000000000000000", NS, 0, IPTC_HOOK_SECOND,
     "pad@0/1 <unknown>@1/5 pad@6/1 pad@7/1 pad@8/1 pad@9/1 pad@10/1 pad@11/1 pad@12/1 pad@13/1 pad@14/1 pad@15/1 "
     "pad@16/1 pad@17/1 pad@18/1 pad@19/1 END"},
    /* 1 + (b0 >> 5) bytes: 05 09 15 -> 1, 39 -> 2, 79 -> 4, b9 -> 6, c9 -> 7,
       f9 -> 8, 02 (02 c9 is no packet either) -> 1 */
    {"hook sizes from the first byte, every unknown opcode",
     "05 09 15 39 00 79 000000 b9 0000000000 c9 000000000000 f9 00000000000000 02 c9 00000000000000000000000000000000",
     NS, 0, IPTC_HOOK_FIRST,
     "<unknown>@0/1 <unknown>@1/1 <unknown>@2/1 <unknown>@3/2 <unknown>@5/4 <unknown>@9/6 <unknown>@15/7 "
     "<unknown>@22/8 <unknown>@30/1 <unknown>@31/7 pad@38/1 pad@39/1 pad@40/1 pad@41/1 pad@42/1 pad@43/1 pad@44/1 "
     "pad@45/1 pad@46/1 pad@47/1 END"},
    /* --- SKD007 (pt_pkt_handle_skd007: a 2-byte CYC with payload 0x20..0x3f
       followed by 0xf3 is dropped and the OVF reported; at the end of the
       buffer the CYC stays) --- */
    {"SKD007: f7 02 f3", "f7 02 f3", NS, SKD, 0, "ovf@1/2 fl=40 END"},
    {"SKD007: f7 02 f3 without the erratum", "f7 02 f3", NS, 0, 0, "cyc@0/2 pl=3e cyc@2/1 pl=1e END"},
    {"SKD007: 07 02 f3", "07 02 f3", NS, SKD, 0, "ovf@1/2 fl=40 END"},
    {"SKD007: 07 02 f3 without the erratum", "07 02 f3", NS, 0, 0, "cyc@0/2 pl=20 cyc@2/1 pl=1e END"},
    {"SKD007: 07 02 00", "07 02 00", NS, SKD, 0, "cyc@0/2 pl=20 pad@2/1 END"},
    {"SKD007: payload 0x40 is no erratum", "07 04 f3", NS, SKD, 0, "cyc@0/2 pl=40 cyc@2/1 pl=1e END"},
    {"SKD007: a 3-byte CYC is no erratum", "07 03 02 f3", NS, SKD, 0, "cyc@0/3 pl=1020 cyc@3/1 pl=1e END"},
    {"SKD007: 07 02 02 f3", "07 02 02 f3", NS, SKD, 0, "cyc@0/2 pl=20 ovf@2/2 END"},
    {"SKD007: in a PSB+", "PSB 07 02 f3 02 23", 0, SKD, 0, "psb@0/16 ovf@17/2 fl=40 psbend@19/2 END"},
    {"SKD007: 07 cut", "07", NS, SKD, 0, "TRUNC@0"},
    /* --- PEBS via PT (Linux perf: BBP opens a block, xxxxx100 is a BIP of
       the block's item size inside it; TNT, TIP, MODE, PIP, OVF, VMCS,
       STOP, PSB, PSBEND, PTW, MWAIT, BEP, CFE, EVD end it) --- */
    {"PEBS: 4-byte block", "02 63 80 04 11 22 33 44 0c 01 00 00 00 02 33 04", PB, 0, 0,
     "bbp@0/3 fl=20 bip@3/5 pl=44332211 bip@8/5 pl=1 sub=1 bep@13/2 tnt.8@15/1 sub=1 END"},
    {"PEBS: 8-byte block", "02 63 01 fc 01 02 03 04 05 06 07 08 02 b3", PB, 0, 0,
     "bbp@0/3 sub=1 bip@3/9 pl=807060504030201 sub=31 bep@12/2 fl=1 END"},
    {"PEBS: a TNT-8 ends the block", "02 63 80 06 04", PB, 0, 0, "bbp@0/3 fl=20 tnt.8@3/1 pl=1 sub=1 tnt.8@4/1 sub=1 END"},
    {"PEBS: PAD, FUP, CYC, MTC keep the block", "02 63 80 00 1d 03 59 00 04 aa bb cc dd", PB, 0, 0,
     "bbp@0/3 fl=20 pad@3/1 fup@4/1 cyc@5/1 mtc@6/2 bip@8/5 pl=ddccbbaa END"},
    {"PEBS: no BIP outside a block", "04", PB, 0, 0, "tnt.8@0/1 sub=1 END"},
    {"PEBS: BIP cut", "02 63 80 04 11", PB, 0, 0, "bbp@0/3 fl=20 TRUNC@3"},
    {"PEBS: a PSB ends the block", "PSB 02 63 80 PSB 04", TDEC_IPT_F_PEBS, 0, 0,
     "psb@0/16 bbp@16/3 fl=20 psb@19/16 tnt.8@35/1 sub=1 END"},
    {"PEBS: resync ends the block", "02 63 00 c9 PSB 0c", PB, 0, 0,
     "bbp@0/3 CORRUPT@3" BAD_OPC " rgap@3+1 psb@4/16 tnt.8@20/1 pl=2 sub=2 END"},
    /* --- resync (pt_pkt_sync_forward: from the failed packet, 16 on if the
       decoder is synchronised there, up to 15 back; then pt_sync_forward) --- */
    /* the MNT swallows 4 pairs of the run 3..23; at 11 the PSB's pairs run
       out (02 23): bad packet; the PSB is the run's last 16 bytes, at 7,
       before err_offset: no gap */
    {"resync: a PSB a mis-decoded packet partly swallowed", "02 c3 88 0282 0282 PSB 02 23 00 00 00 00", NS, 0, 0,
     "mnt@0/11 pl=8202820282028202 CORRUPT@11" BAD_PKT " psb@7/16 psbend@23/2 pad@25/1 pad@26/1 pad@27/1 pad@28/1 END"},
    {"resync: the same after a PSB", "PSB 02 c3 88 0282 0282 PSB 02 23 00 00 00 00", 0, 0, 0,
     "psb@0/16 mnt@16/11 pl=8202820282028202 CORRUPT@27" BAD_PKT " psb@23/16 psbend@39/2 pad@41/1 pad@42/1 pad@43/1 "
     "pad@44/1 END"},
    {"resync: an error right after a PSB", "PSB c9 PSB 02 23", 0, 0, 0,
     "psb@0/16 CORRUPT@16" BAD_OPC " rgap@16+1 psb@17/16 psbend@33/2 END"},
    {"resync: no PSB follows", "PSB c9 00 00", 0, 0, 0, "psb@0/16 CORRUPT@16" BAD_OPC " rgap@16+3 END"},
    {"resync: no sync, an error at 0, a PSB at 1", "c9 PSB", NS, 0, 0, "CORRUPT@0" BAD_OPC " rgap@0+1 psb@1/16 END"},
    {"resync: twice", "PSB c9 PSB c9 00", 0, 0, 0,
     "psb@0/16 CORRUPT@16" BAD_OPC " rgap@16+1 psb@17/16 CORRUPT@33" BAD_OPC " rgap@33+2 END"},
    /* a run of 9 pairs at 17: the decoder takes the PSB at 17, fails at 33
       (02 82 c9: pt_pkt_read_psb), and the search from 18 finds the run's
       last 16 bytes at 19, before the error; the next error at 35 skips
       nothing back (from 20: no run of 16) */
    {"resync: a run of 9 pairs decoded as a PSB, then failing", "PSB 00 0282 PSB c9 0282 0282 PSB 00", 0, 0, 0,
     "psb@0/16 pad@16/1 psb@17/16 CORRUPT@33" BAD_PKT " psb@19/16 CORRUPT@35" BAD_OPC " rgap@35+5 psb@40/16 pad@56/1 END"},
    /* every other packet once, as libipt's tables say */
    {"every other packet", "00 02f3 0223 0283 0262 02e2 0243 0300000000 00 0243 0100000000 00 0203 2a00 59 ff "
                           "19 01020304050607 02c8 0102030405 02c3 88 0102030405060708 02c2 01000000 02000000 "
                           "0222 0812 02a2 5104 000000 0213 8e0e 0253 02 0102030405060708 d9 e0 a1 1700 d9 00 05",
     NS, 0, 0,
     "pad@0/1 ovf@1/2 psbend@3/2 stop@5/2 exstop@7/2 exstop@9/2 fl=1 pip@11/8 pl=20 fl=2 pip@19/8 fl=2 "
     "cbr@27/4 pl=2a mtc@31/2 pl=ff tsc@33/8 pl=7060504030201 vmcs@41/7 pl=504030201000 "
     "mnt@48/11 pl=807060504030201 mwait@59/10 pl=1 aux=2 pwre@69/4 pl=1 aux=2 fl=4 pwrx@73/7 pl=5 aux=1 sub=4 "
     "cfe@80/4 pl=e sub=14 fl=1 evd@84/11 pl=807060504030201 sub=2 trig@95/5 pl=a1 aux=17 fl=19 trig@100/3 pl=5 END"},
};

/* One-byte opcodes no packet has (0xc9 is libipt's pt_opc_bad). */
static const uint8_t unknown_opcodes[] = {0x05, 0x09, 0x15, 0x39, 0x79, 0xb9, 0xc9, 0xf9};

static void test_hostile(void)
{
    static uint8_t buf[4096];
    tl_case c;
    size_t i, n;
    for (i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        const hcase *h = &hostile[i];
        n = hexin(buf, sizeof buf, h->hex);
        tl_begin(&c, "hostile: %s", h->name);
        expect(&c, buf, n, h->flags, h->errata, h->hook, h->want);
        tl_end(&c);
    }
    /* MODE leaves 2..7 are bad packets, with the low bits clear or all set */
    for (i = 2; i < 8; i++) {
        tl_begin(&c, "hostile: MODE leaf %zu", i);
        buf[0] = 0x99;
        buf[1] = (uint8_t)(i << 5);
        expect(&c, buf, 2, NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+2 END");
        buf[1] = (uint8_t)(i << 5 | 0x1f);
        expect(&c, buf, 2, NS, 0, 0, "CORRUPT@0" BAD_PKT " rgap@0+2 END");
        tl_end(&c);
    }
    for (i = 0; i < sizeof unknown_opcodes; i++) {
        tl_begin(&c, "hostile: unknown %02x", unknown_opcodes[i]);
        expect(&c, &unknown_opcodes[i], 1, NS, 0, 0, "CORRUPT@0" BAD_OPC " rgap@0+1 END");
        tl_end(&c);
    }
}

/* An UNKNOWN packet of 200 bytes (the hook's size) over many chunks: the
   decoder steps over it without buffering, the next packet lines up. */
static void test_big_unknown(void)
{
    static uint8_t buf[512];
    tl_case c;
    size_t i;
    for (i = 0; i < 200; i++) buf[i] = (uint8_t)(i & 1 ? 0xc9 : 0x02); /* would be errors if decoded */
    buf[200] = 0x02;
    buf[201] = 0x23;
    tl_begin(&c, "hostile: an UNKNOWN packet of 200 bytes split across many chunks");
    expect(&c, buf, 202, NS, 0, IPTC_HOOK_BIG, "<unknown>@0/200 psbend@200/2 END");
    tl_end(&c);
    tl_begin(&c, "hostile: UNKNOWN packets of 1..255 bytes from the hook, back to back");
    {
        static uint8_t big[70000];
        size_t n = 0, k = 0;
        char *want = (char *)xmalloc(1 << 16), *w = want;
        for (k = 3; k <= 255; k += 4) { /* opcode c9, the size in byte 1 */
            big[n] = 0xc9;
            big[n + 1] = (uint8_t)k;
            memset(big + n + 2, 0x02, k - 2);
            w += sprintf(w, "<unknown>@%zu/%zu ", n, k);
            n += k;
        }
        memcpy(big + n, "\x02\x23", 2);
        w += sprintf(w, "psbend@%zu/2 ", n);
        n += 2;
        memset(big + n, 0, 16);
        for (k = 0; k < 16; k++) w += sprintf(w, "pad@%zu/1 ", n + k);
        n += 16;
        sprintf(w, "END");
        expect(&c, big, n, NS, 0, IPTC_HOOK_SECOND, want);
        free(want);
    }
    tl_end(&c);
}

/* Regressions of fixed decoder bugs, each with its smallest input (their
   fuzz inputs are in fuzz/regressions/ipt): finish() gave E_TRUNCATED on
   carried bytes instead of decoding them knowing the end (SKD007's CYC at
   the end, the hook in the last 15 bytes, finish() right after an item;
   fixed in 37a41a9); feed() read a chunk the caller had been told it may
   reuse (fixed in b293fd1); a cut UNKNOWN's err_offset was the end of the
   input (fixed in 37a41a9). */
static void test_regressions(void)
{
    static uint8_t buf[256];
    tl_case c;
    size_t n;

    /* libipt's pt_pkt_handle_skd007: "if (decoder->config.end <= pos)
       return 0;" - at the end of the buffer the 2-byte CYC is reported. */
    tl_begin(&c, "SKD007: a 2-byte CYC 07 02 at the very end is a CYC (libipt), not E_TRUNCATED");
    n = hexin(buf, sizeof buf, "07 02");
    expect(&c, buf, n, NS, SKD, 0, "cyc@0/2 pl=20 END");
    tl_end(&c);
    tl_begin(&c, "SKD007: the same after a PSB+");
    n = hexin(buf, sizeof buf, "PSB 02 23 f7 02");
    expect(&c, buf, n, 0, SKD, 0, "psb@0/16 psbend@16/2 cyc@18/2 pl=3e END");
    tl_end(&c);

    /* The contract: the hook sees "at least min(16, bytes left in the
       stream)" bytes; libipt's pt_pkt_read_unknown calls it at any
       position. */
    tl_begin(&c, "hook: an unknown opcode in the last 15 bytes is given to the hook");
    n = hexin(buf, sizeof buf, "00 c9 03 00 00");
    expect(&c, buf, n, NS, 0, IPTC_HOOK_SECOND, "pad@0/1 <unknown>@1/3 pad@4/1 END");
    tl_end(&c);
    tl_begin(&c, "hook: an unknown opcode as the last byte is given to the hook");
    n = hexin(buf, sizeof buf, "PSB 0223 c9");
    expect(&c, buf, n, 0, 0, IPTC_HOOK_FIRST, "psb@0/16 psbend@16/2 <unknown>@18/7 TRUNC@18");
    tl_end(&c);
    tl_begin(&c, "hook: a hook that rejects the last byte gives E_CORRUPT, not E_TRUNCATED");
    n = hexin(buf, sizeof buf, "00 c9");
    expect(&c, buf, n, NS, 0, IPTC_HOOK_REJECT, "pad@0/1 CORRUPT@1" BAD_OPC " rgap@1+1 END");
    tl_end(&c);

    /* finish() is allowed once the window is used up; a complete PAD in
       the carry (the CYC looked one byte ahead for SKD007) must come out. */
    tl_begin(&c, "finish() right after an item: carried complete packets still come out");
    n = hexin(buf, sizeof buf, "07 02 00");
    {
        tdec_ipt_decoder d;
        tdec_ipt_item it;
        tdec_ipt_config cfg = mkcfg(NS, SKD);
        size_t k;
        TL_EQI(&c, tdec_ipt_init(&d, &cfg), TDEC_NEED_INPUT);
        for (k = 0; k < 3; k++) {
            TL_EQI(&c, tdec_ipt_feed(&d, buf + k, 1), TDEC_NEED_INPUT);
            if (k < 2) TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_NEED_INPUT);
        }
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK); /* the CYC; the PAD is carried */
        TL_TRUE(&c, it.u.pkt.kind == TDEC_IPT_CYC && d.st.win_len == 0, "not the CYC");
        {
            /* the contract: NEED_INPUT, next() decodes the carry knowing the end */
            tdec_status st = tdec_ipt_finish(&d);
            TL_TRUE(&c, st == TDEC_NEED_INPUT, "finish() gave %s at %llu", tdec_status_str(st),
                    (unsigned long long)d.st.err_offset);
        }
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_OK);
        TL_TRUE(&c, it.u.pkt.kind == TDEC_IPT_PAD && it.offset == 2, "not the PAD");
        TL_EQI(&c, tdec_ipt_next(&d, &it), TDEC_END);
    }
    tl_end(&c);

    /* The contract: "TDEC_NEED_INPUT means every byte fed so far was
       consumed or copied: the caller may reuse its buffer" - feed() used to
       copy the previous chunk's tail into the resync history only when the
       next chunk came (fixed in b293fd1: kept when the window runs out).
       The canonical loop, one reused buffer: */
    tl_begin(&c, "resync after the caller reused its buffer (the canonical loop) looks back at the right bytes");
    n = hexin(buf, sizeof buf, "PSB 02 c3 88 0282 0282 PSB 02 23 00 00 00 00");
    {
        tdec_ipt_decoder d;
        tdec_ipt_item it;
        tdec_status st;
        uint8_t chunk[8];
        size_t fed = 0, k;
        char got[512] = "";
        st = tdec_ipt_init(&d, NULL);
        while (st >= 0) {
            st = tdec_ipt_next(&d, &it);
            if (st == TDEC_OK) {
                if (it.kind == TDEC_ITEM_RECORD)
                    sprintf(got + strlen(got), "%s@%llu ", tdec_ipt_kind_str(it.u.pkt.kind), (unsigned long long)it.offset);
                else
                    sprintf(got + strlen(got), "gap@%llu+%llu ", (unsigned long long)it.offset, (unsigned long long)it.u.gap.len);
                continue;
            }
            if (st == TDEC_E_CORRUPT) {
                sprintf(got + strlen(got), "CORRUPT@%llu ", (unsigned long long)d.st.err_offset);
                st = tdec_ipt_resync(&d);
                continue;
            }
            if (st != TDEC_NEED_INPUT) break;
            k = n - fed < sizeof chunk ? n - fed : sizeof chunk;
            memset(chunk, 0xee, sizeof chunk); /* read_some() into the same buffer */
            memcpy(chunk, buf + fed, k);
            fed += k;
            st = k ? tdec_ipt_feed(&d, chunk, k) : tdec_ipt_finish(&d);
        }
        strcat(got, st == TDEC_END ? "END" : tdec_status_str(st));
        TL_TRUE(&c, strcmp(got, "psb@0 mnt@16 CORRUPT@27 psb@23 psbend@39 pad@41 pad@42 pad@43 pad@44 END") == 0,
                "got %s", got);
    }
    tl_end(&c);

    /* err_offset of a packet the end of the stream cuts is the packet's
       start (libipt: -pte_eos at the packet; the brief: "E_TRUNCATED with
       err_offset at the start of the cut packet") - also for UNKNOWN. */
    tl_begin(&c, "an UNKNOWN packet cut by the end: err_offset at the packet, not at the end of the input");
    memset(buf, 0, 40);
    buf[3] = 0xc9;
    expect(&c, buf, 40, NS, 0, IPTC_HOOK_BIG, "pad@0/1 pad@1/1 pad@2/1 <unknown>@3/200 TRUNC@3");
    tl_end(&c);
}

/* Every first byte, then 16 bytes of several kinds: the fast path (whole
   window) and the slow path (one byte at a time, the carry) agree with each
   other and with the reference walk, under every option. */
static void test_first_bytes(void)
{
    static const uint32_t flags[4] = {NS, PB, NS, PB};
    static const uint32_t errata[4] = {0, 0, SKD | SKZ, SKD | SKZ};
    uint8_t buf[40];
    tl_case c;
    unsigned b, t, o, hook;
    uint64_t s = 42;
    tl_begin(&c, "every first byte: fast path == slow path == reference, every option");
    for (b = 0; b < 256 && !c.bad; b++) {
        for (t = 0; t < 6 && !c.bad; t++) {
            unsigned k;
            buf[0] = (uint8_t)b;
            for (k = 1; k < sizeof buf; k++)
                buf[k] = t == 0 ? 0x00 : t == 1 ? 0xff : t == 2 ? (uint8_t)(k & 1 ? 0x02 : 0x82)
                         : t == 3 ? (uint8_t)(k == 1 ? 0x02 : 0xf3) : (uint8_t)rng32(&s);
            for (o = 0; o < 4 && !c.bad; o++)
                for (hook = 0; hook < IPTC_HOOK_COUNT && !c.bad; hook += 2) {
                    iptc_run w, r;
                    const char *bad;
                    run_init(&w, flags[o], errata[o], hook, log_a, NULL);
                    run_init(&r, flags[o], errata[o], hook, log_b, NULL);
                    r.cc.sched.step = 1;
                    if ((bad = iptc_decode(buf, sizeof buf, &w.cc)) == NULL)
                        bad = cc_same_as(iptc_decode, &w.cc, &r.cc, buf, sizeof buf, "one byte at a time", stderr);
                    TL_TRUE(&c, bad == NULL, "byte %02x tail %u option %u hook %u: %s", b, t, o, hook, bad);
                }
        }
    }
    tl_end(&c);
}

/* 1 MiB of PAD (00): one byte at a time and in 64 KiB chunks, with and
   without the PSB search: constant state, bounded time. */
static void test_endless_pad(void)
{
    static uint8_t mib[1u << 20];
    size_t steps[2] = {1, 65536}, si;
    int sync;
    for (sync = 0; sync < 2; sync++)
        for (si = 0; si < 2; si++) {
            tl_case c;
            tdec_ipt_decoder d;
            tdec_ipt_item it;
            tdec_ipt_config cfg = mkcfg(sync ? 0 : NS, 0);
            tdec_status st;
            size_t fed = 0, items = 0, bad_items = 0, max_carry = 0;
            clock_t t0 = clock();
            double secs;
            tl_begin(&c, "hostile: 1 MiB of PAD, %s, %zu-byte chunks: %s", sync ? "search" : "no sync", steps[si],
                     sync ? "one gap, then END" : "1048576 PADs");
            st = tdec_ipt_init(&d, &cfg);
            while (st >= 0) {
                st = tdec_ipt_next(&d, &it);
                if (st == TDEC_OK) {
                    if (sync ? !(it.kind == TDEC_ITEM_GAP && it.offset == 0 && it.u.gap.len == sizeof mib)
                             : !(it.kind == TDEC_ITEM_RECORD && it.u.pkt.kind == TDEC_IPT_PAD && it.offset == items &&
                                 it.u.pkt.size == 1))
                        bad_items++;
                    items++;
                    continue;
                }
                if (st != TDEC_NEED_INPUT) break;
                if (d.st.carry_len > max_carry) max_carry = d.st.carry_len;
                if (fed < sizeof mib) {
                    size_t k = sizeof mib - fed < steps[si] ? sizeof mib - fed : steps[si];
                    st = tdec_ipt_feed(&d, mib + fed, k);
                    fed += k;
                } else {
                    st = tdec_ipt_finish(&d);
                }
            }
            secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
            TL_EQI(&c, st, TDEC_END);
            TL_EQU(&c, items, sync ? 1u : sizeof mib);
            TL_EQU(&c, bad_items, 0);
            TL_EQU(&c, max_carry, 0);
            TL_EQU(&c, d.st.pos, sizeof mib);
            TL_TRUE(&c, secs < 10.0 * (double)quick, "took %.2f s", secs);
            tl_end(&c);
        }
}

/* ------------------------------------------------------------------ */
/* 6. the buffer helpers                                               */

static void test_helpers(void)
{
    static uint8_t b[100];
    size_t p, list[8], count, i;
    tl_case c;
    /* 00 x3, PSB at 3, 00 to 40, PSB at 40, 00 to 70, a run of 10 pairs at
       70 (its PSB: 74), 00 to 100 */
    memset(b, 0, sizeof b);
    hexin(b + 3, 16, "PSB");
    hexin(b + 40, 16, "PSB");
    hexin(b + 70, 20, "0282 0282 PSB");

    tl_begin(&c, "sync_forward: pt_sync_forward's PSB from each start");
    {
        static const size_t from[] = {0, 3, 4, 40, 41, 74, 75, 100};
        static const size_t want[] = {3, 3, 40, 40, 74, 74, 0, 0};
        for (i = 0; i < sizeof from / sizeof from[0]; i++) {
            tdec_status st = tdec_ipt_sync_forward(b, sizeof b, from[i], &p);
            if (i < 6) TL_TRUE(&c, st == TDEC_OK && p == want[i], "from %zu: %d, %zu", from[i], st, p);
            else TL_TRUE(&c, st == TDEC_E_NOSYNC, "from %zu: %d", from[i], st);
        }
        TL_EQI(&c, tdec_ipt_sync_forward(b, sizeof b, 101, &p), TDEC_E_ARG);
        TL_EQI(&c, tdec_ipt_sync_forward(NULL, 5, 0, &p), TDEC_E_ARG);
        TL_EQI(&c, tdec_ipt_sync_forward(b, sizeof b, 0, NULL), TDEC_E_ARG);
        TL_EQI(&c, tdec_ipt_sync_forward(NULL, 0, 0, &p), TDEC_E_NOSYNC);
    }
    tl_end(&c);

    /* windows below from & ~7, highest first; each walks to its run's end */
    tl_begin(&c, "sync_backward: pt_sync_backward's PSB from each start");
    {
        static const size_t from[] = {100, 96, 88, 74, 56, 40, 24, 23, 16, 7};
        static const size_t want[] = {74, 74, 74, 40, 40, 3, 3, 3, 3, 0};
        for (i = 0; i < sizeof from / sizeof from[0]; i++) {
            tdec_status st = tdec_ipt_sync_backward(b, sizeof b, from[i], &p);
            if (want[i] || from[i] > 16)
                TL_TRUE(&c, st == TDEC_OK && p == want[i], "from %zu: %d, %zu (want %zu)", from[i], st, p, want[i]);
            else
                TL_TRUE(&c, st == TDEC_E_NOSYNC, "from %zu: %d %zu", from[i], st, p);
        }
        TL_EQI(&c, tdec_ipt_sync_backward(b, sizeof b, 101, &p), TDEC_E_ARG);
        TL_EQI(&c, tdec_ipt_sync_backward(NULL, 1, 0, &p), TDEC_E_ARG);
    }
    tl_end(&c);

    /* pt_sync_set: the size first (2 bytes), the opcode, the size (16), each pair */
    tl_begin(&c, "sync_at: pt_sync_set's verdict at each offset");
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 3), TDEC_OK);
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 4), TDEC_E_NOSYNC);
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 0), TDEC_E_NOSYNC);
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 72), TDEC_OK); /* inside a longer run: 16 bytes of pairs */
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 74), TDEC_OK);
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 76), TDEC_E_NOSYNC); /* 14 bytes of pairs, then 00 */
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 99), TDEC_E_TRUNCATED);
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 100), TDEC_E_TRUNCATED);
    TL_EQI(&c, tdec_ipt_sync_at(b, sizeof b, 101), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_sync_at(b, 50, 40), TDEC_E_TRUNCATED); /* 02 82, then cut */
    TL_EQI(&c, tdec_ipt_sync_at(b, 50, 41), TDEC_E_NOSYNC);
    TL_EQI(&c, tdec_ipt_sync_at(NULL, 3, 0), TDEC_E_ARG);
    tl_end(&c);

    tl_begin(&c, "psb_list: every PSB in order, count beyond cap");
    TL_EQI(&c, tdec_ipt_psb_list(b, sizeof b, list, 8, &count), TDEC_OK);
    TL_TRUE(&c, count == 3 && list[0] == 3 && list[1] == 40 && list[2] == 74, "count %zu: %zu %zu %zu", count, list[0],
            list[1], list[2]);
    list[1] = 777;
    TL_EQI(&c, tdec_ipt_psb_list(b, sizeof b, list, 1, &count), TDEC_OK);
    TL_TRUE(&c, count == 3 && list[0] == 3 && list[1] == 777, "cap 1: count %zu, wrote past cap", count);
    TL_EQI(&c, tdec_ipt_psb_list(b, sizeof b, NULL, 0, &count), TDEC_OK);
    TL_EQU(&c, count, 3);
    TL_EQI(&c, tdec_ipt_psb_list(b, sizeof b, NULL, 1, &count), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_psb_list(b, sizeof b, list, 8, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_psb_list(NULL, 0, list, 8, &count), TDEC_OK);
    TL_EQU(&c, count, 0);
    tl_end(&c);
}

/* Random buffers rich in 02 and 82, with runs of pairs of every length and
   phase: the helpers agree with the reference, and the streaming search's
   first PSB item (and its gap) is sync_forward(buf, len, 0), for every
   chunking. */
static void gen_pattern(uint8_t *b, size_t len, uint64_t *s)
{
    size_t n = 0;
    while (n < len) {
        uint32_t v = rng32(s);
        switch (v & 7u) {
        case 0: case 1: case 2: { /* a run of pairs, maybe odd-phased or with a lone 02 */
            size_t pairs = (v >> 3) % 13u, k;
            if ((v >> 8) & 1u && n < len) b[n++] = 0x82;
            for (k = 0; k < pairs && n + 1 < len; k++) {
                b[n++] = 0x02;
                b[n++] = 0x82;
            }
            if ((v >> 9) & 1u && n < len) b[n++] = 0x02;
            break;
        }
        case 3: b[n++] = 0x02; break;
        case 4: b[n++] = 0x82; break;
        case 5: b[n++] = 0x00; break;
        default: b[n++] = (uint8_t)(v >> 16); break;
        }
    }
}

static void test_search_random(void)
{
    static uint8_t b[600];
    tl_case c;
    uint64_t s = 0x5eed;
    unsigned iter, k, n_iter = 3000u / (unsigned)quick;
    size_t found = 0;
    tl_begin(&c, "streaming PSB search == sync_forward == reference, %u pattern-rich buffers, every chunking", n_iter);
    for (iter = 0; iter < n_iter && !c.bad; iter++) {
        size_t len = 1 + rng32(&s) % (iter < 100 ? 40u : sizeof b), from, p, list[64], count, m = 0;
        uint64_t want, want0;
        gen_pattern(b, len, &s);
        for (from = 0; from <= len && !c.bad; from++) {
            tdec_status st = tdec_ipt_sync_forward(b, len, from, &p);
            want = iptc_ref_sync(b, len, from);
            TL_TRUE(&c, want == IPTC_NONE ? st == TDEC_E_NOSYNC : (st == TDEC_OK && p == want),
                    "iter %u: sync_forward(%zu) %d %zu, reference %lld", iter, from, st, p, (long long)want);
            st = tdec_ipt_sync_backward(b, len, from, &p);
            want = iptc_ref_backward(b, len, from);
            TL_TRUE(&c, want == IPTC_NONE ? st == TDEC_E_NOSYNC : (st == TDEC_OK && p == want),
                    "iter %u: sync_backward(%zu) %d %zu, reference %lld", iter, from, st, p, (long long)want);
        }
        TL_EQI(&c, tdec_ipt_psb_list(b, len, list, 64, &count), TDEC_OK);
        for (from = 0; (want = iptc_ref_sync(b, len, from)) != IPTC_NONE; from = (size_t)want + 1, m++)
            TL_TRUE(&c, m >= 64 || list[m] == want, "iter %u: psb_list[%zu]", iter, m);
        TL_EQU(&c, count, m);
        want0 = iptc_ref_sync(b, len, 0);
        found += want0 != IPTC_NONE;
        for (k = 0; k < 4 && !c.bad; k++) {
            iptc_run r;
            const char *bad;
            run_init(&r, 0, 0, IPTC_HOOK_NONE, NULL, ev_a);
            r.resync = (int)(k & 1);
            if (k == 1) r.cc.sched.step = 1;
            else if (k) r.cc.sched.seed = (uint32_t)iter * 31u + k;
            bad = iptc_decode(b, len, &r.cc);
            if (!TL_TRUE(&c, bad == NULL, "iter %u chunking %u: %s", iter, k, bad)) break;
            if (want0 == IPTC_NONE)
                TL_TRUE(&c, r.nev == 2 && ev_a[0].what == IPTC_EV_GAP && ev_a[0].offset == 0 && ev_a[0].len == len &&
                                ev_a[1].what == IPTC_EV_END,
                        "iter %u: no PSB, but not one gap and END", iter);
            else if (want0 == 0)
                TL_TRUE(&c, ev_a[0].what == IPTC_EV_PACKET && ev_a[0].pkt.kind == TDEC_IPT_PSB && ev_a[0].offset == 0,
                        "iter %u: PSB at 0 not first", iter);
            else
                TL_TRUE(&c, r.nev >= 2 && ev_a[0].what == IPTC_EV_GAP && ev_a[0].offset == 0 && ev_a[0].len == want0 &&
                                ev_a[1].what == IPTC_EV_PACKET && ev_a[1].pkt.kind == TDEC_IPT_PSB && ev_a[1].offset == want0,
                        "iter %u: the first PSB is not at %llu after a gap", iter, (unsigned long long)want0);
        }
    }
    TL_TRUE(&c, found > n_iter / 4, "only %zu buffers with a PSB", found);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */
/* 7. last-IP                                                          */

static tdec_ipt_packet ipk(unsigned kind, unsigned ipc, uint64_t payload)
{
    tdec_ipt_packet p;
    memset(&p, 0, sizeof p);
    p.kind = (uint8_t)kind;
    p.sub = (uint8_t)ipc;
    p.payload = payload;
    return p;
}

static void test_last_ip(void)
{
    tdec_ipt_last_ip l;
    tdec_ipt_packet p;
    uint64_t ip = 77;
    uint32_t why;
    tl_case c;

    tl_begin(&c, "last-IP: no IP after init (-pte_noip)");
    tdec_ipt_last_ip_init(&l);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, &why), TDEC_E_SEQUENCE);
    TL_EQU(&c, why, TDEC_IPT_ERR_NOIP);
    TL_EQU(&c, ip, 0);
    tl_end(&c);

    /* pt_last_ip_update_ip: 16/32/48-bit updates keep the upper bits,
       sext-48 and full replace them */
    tl_begin(&c, "last-IP: every compression against hand-computed values");
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_FULL, 0x1122334455667788ull);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x1122334455667788ull);
    p = ipk(TDEC_IPT_TIP, TDEC_IPT_IPC_UPDATE_16, 0xaaaa);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x112233445566aaaaull);
    p = ipk(TDEC_IPT_TIP_PGE, TDEC_IPT_IPC_UPDATE_32, 0xbbbbcccc);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x11223344bbbbccccull);
    p = ipk(TDEC_IPT_TIP_PGD, TDEC_IPT_IPC_UPDATE_48, 0x0000dddd0000ull);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x11220000dddd0000ull);
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_SEXT_48, 0x800000000000ull);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0xffff800000000000ull);
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_SEXT_48, 0x7fffffffffffull);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x00007fffffffffffull);
    p = ipk(TDEC_IPT_TIP, TDEC_IPT_IPC_UPDATE_48, 0x800000001234ull); /* no sign extension */
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x0000800000001234ull);
    tl_end(&c);

    tl_begin(&c, "last-IP: a suppressed update keeps the IP, marks it (-pte_ip_suppressed), the next clears it");
    p = ipk(TDEC_IPT_TIP_PGD, TDEC_IPT_IPC_SUPPRESSED, 0);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    ip = 5;
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, &why), TDEC_E_SEQUENCE);
    TL_EQU(&c, why, TDEC_IPT_ERR_IP_SUPPRESSED);
    TL_EQU(&c, ip, 0);
    p = ipk(TDEC_IPT_TIP, TDEC_IPT_IPC_UPDATE_16, 0x5678);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x0000800000005678ull);
    tl_end(&c);

    tl_begin(&c, "last-IP: a 16-bit update right after init merges with 0 (libipt does not reject it)");
    tdec_ipt_last_ip_init(&l);
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_UPDATE_16, 0xbeef);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0xbeef);
    tdec_ipt_last_ip_init(&l);
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_SUPPRESSED, 0);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, NULL), TDEC_OK);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, &why), TDEC_E_SEQUENCE); /* still none */
    TL_EQU(&c, why, TDEC_IPT_ERR_NOIP);
    tl_end(&c);

    tl_begin(&c, "last-IP: reserved compressions and non-IP packets are refused, nothing changed");
    tdec_ipt_last_ip_init(&l);
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_FULL, 0x1234);
    tdec_ipt_last_ip_update(&l, &p, NULL);
    p = ipk(TDEC_IPT_TIP, 5, 0x9999);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, &why), TDEC_E_CORRUPT);
    TL_EQU(&c, why, TDEC_IPT_ERR_BAD_PACKET);
    p = ipk(TDEC_IPT_TIP, 7, 0x9999);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, &why), TDEC_E_CORRUPT);
    TL_EQU(&c, why, TDEC_IPT_ERR_BAD_PACKET);
    p = ipk(TDEC_IPT_TNT_8, TDEC_IPT_IPC_FULL, 0x9999);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, &why), TDEC_E_ARG);
    TL_EQU(&c, why, TDEC_IPT_ERR_INVALID);
    p = ipk(TDEC_IPT_PIP, TDEC_IPT_IPC_SUPPRESSED, 0x9999);
    TL_EQI(&c, tdec_ipt_last_ip_update(&l, &p, &why), TDEC_E_ARG);
    TL_EQU(&c, why, TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, tdec_ipt_last_ip_query(&l, &ip, NULL), TDEC_OK);
    TL_EQU(&c, ip, 0x1234);
    tl_end(&c);

    /* ptdump's print_ip_payload: sext(ip, 48) for sext-48 only */
    tl_begin(&c, "last-IP: tdec_ipt_ip_payload sign-extends sext-48 only");
    p = ipk(TDEC_IPT_TIP, TDEC_IPT_IPC_SEXT_48, 0xffffffff1000ull);
    TL_EQU(&c, tdec_ipt_ip_payload(&p), 0xffffffffffff1000ull);
    p = ipk(TDEC_IPT_TIP, TDEC_IPT_IPC_SEXT_48, 0x7fffffff1000ull);
    TL_EQU(&c, tdec_ipt_ip_payload(&p), 0x7fffffff1000ull);
    p = ipk(TDEC_IPT_TIP, TDEC_IPT_IPC_UPDATE_48, 0xffffffff1000ull);
    TL_EQU(&c, tdec_ipt_ip_payload(&p), 0xffffffff1000ull);
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_UPDATE_16, 0x8000);
    TL_EQU(&c, tdec_ipt_ip_payload(&p), 0x8000);
    p = ipk(TDEC_IPT_FUP, TDEC_IPT_IPC_FULL, 0x8000000000000000ull);
    TL_EQU(&c, tdec_ipt_ip_payload(&p), 0x8000000000000000ull);
    tl_end(&c);
}

/* ------------------------------------------------------------------ */

/* The repository's copy of the ptt vectors if it has INDEX.tsv, else the
   shared set. */
static const char *const vector_dirs[3] = {"tests/data/ipt", "tests/data/ipt/ptt",
                                           "../shared/formats/ipt/vectors/ptt"};

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    tl_case c;
    unsigned i;
    quick = tl_quick();
    if (dir == NULL) dir = tl_find_dir(vector_dirs, 3, "INDEX.tsv");
    test_basics();
    test_misuse();
    tl_begin(&c, "vectors: load %s", dir);
    load_vectors(&c, dir);
    tl_end(&c);
    test_vectors();
    test_invariance();
    test_prefixes();
    test_hostile();
    test_big_unknown();
    test_regressions();
    test_first_bytes();
    test_endless_pad();
    test_helpers();
    test_search_random();
    test_last_ip();
    for (i = 0; i < nvecs; i++) {
        free(vecs[i].pt);
        free(vecs[i].raw);
    }
    return tl_exit_code();
}
