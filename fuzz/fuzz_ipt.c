/* fuzz_ipt.c - libFuzzer / AFL++ harness for single/tdec_ipt.h (the Intel
   PT packet layer, and the event and query decoders above it).

   Input: 8 control bytes, then the trace.
     byte 0     bit 0 TDEC_IPT_F_NO_SYNC, bit 1 TDEC_IPT_F_PEBS, bit 2
                erratum SKD007, bit 3 erratum SKZ84; bits 4-6 the unknown
                hook (tests/lib/ipt_check.h IPTC_HOOK_*: 0 none, 1 size from the
                first byte, 2 from the second, 3 always rejects, 4 200
                bytes; 5-7 none); bit 7 resync() after E_TRUNCATED too
                (it must be refused with E_SEQUENCE)
     byte 1     bits 0-2 chunk schedule of the chunked decode (0 one byte
                at a time, 1 one 2-way split, 2 fixed steps, 3-7 seeded
                random lengths); bit 3 first take a few items and reset();
                bit 4 finish() right after the item that uses up the input;
                bit 5 no resync(): stop at the first error; bits 6-7 pull
                with next() (0) or next_n() with cap 1, 7 or 64
     bytes 2-5  seed (u32 LE) of the schedule
     byte 6     layer 2: bit 0 erratum BDM70, 1 SKD010, 2 APL11, 3 APL12,
                4 TDEC_IPT_F_IFLAGS, 5 TDEC_IPT_F_KEEP_TCAL_OVF, 6-7 mtc_freq
                (0, 3, 8, 9)
     byte 7     layer 2: bits 0-3 nom_freq, bits 4-5 cpuid 0x15 eax - 1,
                bits 6-7 cpuid 0x15 ebx (0: none)
   The trace is decoded whole (one chunk, next()) and chunked, with the
   same config; both runs are checked against tests/lib/ipt_check.h's reference
   walk (every item, error and the end) and their logs must be identical.
   Without the hook, 17 prefixes decoded in random chunks must keep to
   iptc_prefixes()'s rule.
   The buffer helpers run on the trace too: sync_forward from every offset
   of the trace (up to 4 KiB) against the reference search, psb_list against
   repeated sync_forward, sync_at at every offset, sync_backward against a
   plain scan.

   Built with -DTDEC_FUZZ_LIBIPT and linked with -lipt (libipt 2.0.5,
   Debian's), the whole-buffer decode is also compared with libipt's
   pt_pkt_next: packets (offset, type, size, payload fields) and errors
   (offset, code), libipt being positioned with pt_pkt_sync_set() on every
   PSB the decoder found by searching (libipt 2.0.5's own pt_sync_forward
   has since-fixed bugs). Skipped for inputs libipt 2.0.5 cannot know:
   TDEC_IPT_F_PEBS, erratum SKD007 (2.0.5 has no workaround), and bytes
   02 13 (CFE), 02 53 (EVD) or D9 (TRIG) anywhere.

   Layer 2: the event decoder and the query drain of tests/lib/ipt_check.h
   (iptc_events, iptc_queries: every rule they check is listed there, the
   time against the facts iptc_facts_scan finds in the input) run with the
   config of bytes 0 (flags, SKD007, SKZ84, the unknown hook), 6 and 7
   (every erratum layer 2 uses: BDM70, SKD010, APL11, APL12), three times
   each: fed whole, in 1-byte chunks and in byte 1's schedule (seeded
   random lengths, some 0, when that is 1-byte too; byte 1 bit 3: reset()
   after a few calls and start over), each chunk its own exact allocation,
   scribbled over and freed at the next NEED_INPUT. Their transcripts
   (every SYNC, event, answer, status, time, error with err_reason,
   err_offset and in_sync, and the resyncs) must be equal.

   Every violation abort()s; nothing is tolerated. Both runs of the packet
   layer feed their chunks from one buffer that is scribbled over at each
   NEED_INPUT, and the chunked one calls finish() before NEED_INPUT when
   byte 1 has bit 4: the inputs in fuzz/regressions/ipt guard the decoder
   bugs this found, all fixed (feed() read a reused chunk; finish() gave
   E_TRUNCATED on carried bytes it could decode knowing the end; a cut
   UNKNOWN's err_offset was the end of the input, not the packet; l2-*: the
   event decoder resynced inside an UNKNOWN the hook sized past the end
   when fed in chunks, not when fed whole). With -DIPC_PRINT_HASH each
   input prints one line of hashes (tests/matrix/matrix.sh compares them
   across hosts). */
#define TDEC_IPT_IMPLEMENTATION
#include "tests/lib/ipt_check.h"
#include <stdio.h>

#ifdef TDEC_FUZZ_LIBIPT
#include <intel-pt.h>
#endif

#define LOG_CAP (1024 * 1024)
#define CONTROL 8u
#define EV_CAP 65536u

static char log_whole[LOG_CAP], log_chunked[LOG_CAP];
static iptc_ev evs[EV_CAP], prefix_evs[EV_CAP];

/* ---- the buffer helpers ---------------------------------------------------- */

static void check_one_from(const uint8_t *in, size_t len, size_t from, const size_t *all, size_t nall)
{
    size_t psb, lo = 0, hi = nall;
    uint64_t want = IPTC_NONE;
    tdec_status st;
    while (lo < hi) { /* the first reference PSB >= from */
        size_t mid = lo + (hi - lo) / 2;
        if (all[mid] < from) lo = mid + 1;
        else hi = mid;
    }
    if (lo < nall) want = all[lo];
    st = tdec_ipt_sync_forward(in, len, from, &psb);
    if (want == IPTC_NONE ? st != TDEC_E_NOSYNC : (st != TDEC_OK || psb != want))
        cc_abort("fuzz_ipt", "sync_forward differs from the reference search");
    st = tdec_ipt_sync_at(in, len, from);
    if (from + 2 > len ? st != TDEC_E_TRUNCATED
        : (in[from] != 0x02 || in[from + 1] != 0x82) ? st != TDEC_E_NOSYNC
        : from + 16 > len ? st != TDEC_E_TRUNCATED
        : st != (iptc__pairs(in, len, from, 8) ? TDEC_OK : TDEC_E_NOSYNC))
        cc_abort("fuzz_ipt", "sync_at differs from pt_sync_set's rule");
    want = iptc_ref_backward(in, len, from);
    st = tdec_ipt_sync_backward(in, len, from, &psb);
    if (want == IPTC_NONE ? st != TDEC_E_NOSYNC : (st != TDEC_OK || psb != want))
        cc_abort("fuzz_ipt", "sync_backward differs from pt_sync_backward's rule");
}

static void check_helpers(const uint8_t *in, size_t len)
{
    static size_t list[256];
    size_t *all, nall = 0, p, from, count = 0, k;
    all = (size_t *)malloc((len / 2 + 1) * sizeof *all);
    if (all == NULL) return;
    /* every PSB pt_sync_forward can return: 8 pairs, no whole pair after */
    for (p = 0; p + 16 <= len; p++)
        if (iptc__pairs(in, len, p, 8) && !iptc__pairs(in, len, p + 16, 1)) all[nall++] = p;
    for (from = 0; from <= len; from++) {
        if (len > 600 && from >= 256 && from + 256 < len && from % 7 != 0) continue;
        check_one_from(in, len, from, all, nall);
    }
    /* psb_list: sync_forward from 0, then from each PSB + 1: every PSB */
    if (tdec_ipt_psb_list(in, len, list, 256, &count) != TDEC_OK || count != nall)
        cc_abort("fuzz_ipt", "psb_list count differs");
    for (k = 0; k < nall && k < 256; k++)
        if (list[k] != all[k]) cc_abort("fuzz_ipt", "psb_list differs");
    free(all);
    if (tdec_ipt_sync_forward(NULL, 1, 0, &p) != TDEC_E_ARG || tdec_ipt_sync_forward(in, len, len + 1, &p) != TDEC_E_ARG ||
        tdec_ipt_sync_backward(in, len, 0, NULL) != TDEC_E_ARG || tdec_ipt_sync_at(in, len, len + 1) != TDEC_E_ARG ||
        tdec_ipt_psb_list(in, len, NULL, 1, &k) != TDEC_E_ARG || tdec_ipt_psb_list(in, len, list, 0, NULL) != TDEC_E_ARG)
        cc_abort("fuzz_ipt", "a buffer helper accepts bad arguments");
}

/* ---- libipt 2.0.5 ------------------------------------------------------------ */

#ifdef TDEC_FUZZ_LIBIPT
static unsigned lib_hook_mode;

static int lib_hook(struct pt_packet_unknown *u, const struct pt_config *c, const uint8_t *pos, void *ctx)
{
    int n = iptc_hook_size(lib_hook_mode, pos, (uint64_t)(c->end - pos));
    (void)u;
    (void)ctx;
    return n <= 0 ? -pte_bad_opc : n; /* tdec rejects 0; libipt would loop on it */
}

static const unsigned lib_kind[] = {
    /* ppt_invalid.. */ TDEC_IPT_INVALID, TDEC_IPT_UNKNOWN, TDEC_IPT_PAD, TDEC_IPT_PSB, TDEC_IPT_PSBEND,
    TDEC_IPT_FUP, TDEC_IPT_TIP, TDEC_IPT_TIP_PGE, TDEC_IPT_TIP_PGD, TDEC_IPT_TNT_8, TDEC_IPT_TNT_64,
    0 /* mode */, TDEC_IPT_PIP, TDEC_IPT_VMCS, TDEC_IPT_CBR, TDEC_IPT_TSC, TDEC_IPT_TMA, TDEC_IPT_MTC,
    TDEC_IPT_CYC, TDEC_IPT_STOP, TDEC_IPT_OVF, TDEC_IPT_MNT, TDEC_IPT_EXSTOP, TDEC_IPT_MWAIT, TDEC_IPT_PWRE,
    TDEC_IPT_PWRX, TDEC_IPT_PTW};

/* 1 if libipt's packet is the decoder's, field by field. */
static int lib_same(const struct pt_packet *q, const tdec_ipt_packet *p)
{
    unsigned k = (unsigned)q->type < sizeof lib_kind / sizeof lib_kind[0] ? lib_kind[q->type] : 99u;
    if (q->type == ppt_mode) k = q->payload.mode.leaf == pt_mol_exec ? TDEC_IPT_MODE_EXEC : TDEC_IPT_MODE_TSX;
    if (k != p->kind || q->size != p->size) return 0;
    switch (q->type) {
    case ppt_tnt_8: case ppt_tnt_64:
        return q->payload.tnt.bit_size == p->sub && q->payload.tnt.payload == p->payload;
    case ppt_tip: case ppt_tip_pge: case ppt_tip_pgd: case ppt_fup:
        return (unsigned)q->payload.ip.ipc == p->sub && q->payload.ip.ip == p->payload;
    case ppt_mode:
        if (q->payload.mode.leaf == pt_mol_exec)
            return q->payload.mode.bits.exec.csl == (p->sub & 1u) && q->payload.mode.bits.exec.csd == ((p->sub >> 1) & 1u);
        return q->payload.mode.bits.tsx.intx == (p->sub & 1u) && q->payload.mode.bits.tsx.abrt == ((p->sub >> 1) & 1u);
    case ppt_pip: return q->payload.pip.cr3 == p->payload && q->payload.pip.nr == ((p->flags & TDEC_IPT_PF_NR) != 0);
    case ppt_tsc: return q->payload.tsc.tsc == p->payload;
    case ppt_cbr: return q->payload.cbr.ratio == p->payload;
    case ppt_tma: return q->payload.tma.ctc == p->payload && q->payload.tma.fc == p->aux;
    case ppt_mtc: return q->payload.mtc.ctc == p->payload;
    case ppt_cyc: return q->payload.cyc.value == p->payload;
    case ppt_vmcs: return q->payload.vmcs.base == p->payload;
    case ppt_mnt: return q->payload.mnt.payload == p->payload;
    case ppt_exstop: return q->payload.exstop.ip == ((p->flags & TDEC_IPT_PF_IP) != 0);
    case ppt_mwait: return q->payload.mwait.hints == p->payload && q->payload.mwait.ext == p->aux;
    case ppt_pwre:
        return q->payload.pwre.state == p->payload && q->payload.pwre.sub_state == p->aux &&
               q->payload.pwre.hw == ((p->flags & TDEC_IPT_PF_HW) != 0);
    case ppt_pwrx:
        return q->payload.pwrx.last == p->payload && q->payload.pwrx.deepest == p->aux &&
               q->payload.pwrx.interrupt == ((p->sub & TDEC_IPT_PWRX_INT) != 0) &&
               q->payload.pwrx.store == ((p->sub & TDEC_IPT_PWRX_STORE) != 0) &&
               q->payload.pwrx.autonomous == ((p->sub & TDEC_IPT_PWRX_HW) != 0);
    case ppt_ptw:
        return q->payload.ptw.payload == p->payload && q->payload.ptw.plc == p->sub &&
               q->payload.ptw.ip == ((p->flags & TDEC_IPT_PF_IP) != 0);
    default: return p->payload == 0 && p->aux == 0;
    }
}

static void lib_die(const char *what, uint64_t off, int code)
{
    fprintf(stderr, "fuzz_ipt: libipt differs at %llu (libipt %d, %s): %s\n", (unsigned long long)off, code,
            code < 0 ? pt_errstr((enum pt_error_code)-code) : "ok", what);
    abort();
}

static void compare_libipt(const uint8_t *in, size_t len, const iptc_run *r)
{
    struct pt_config cfg;
    struct pt_packet_decoder *dec;
    struct pt_packet pkt;
    uint8_t *copy;
    size_t i;
    int searching = !(r->cfg.flags & TDEC_IPT_F_NO_SYNC), code;
    uint64_t off;
    if ((r->cfg.flags & TDEC_IPT_F_PEBS) || (r->cfg.errata & TDEC_IPT_ERRATUM_SKD007) || r->nev > EV_CAP || len == 0)
        return;
    for (i = 0; i < len; i++)
        if (in[i] == 0xd9 || (in[i] == 0x02 && i + 1 < len && (in[i + 1] == 0x13 || in[i + 1] == 0x53))) return;
    copy = (uint8_t *)malloc(len ? len : 1);
    if (copy == NULL) return;
    memcpy(copy, in, len);
    pt_config_init(&cfg);
    cfg.begin = copy;
    cfg.end = copy + len;
    cfg.errata.skz84 = (r->cfg.errata & TDEC_IPT_ERRATUM_SKZ84) != 0;
    lib_hook_mode = r->hook;
    if (r->hook != IPTC_HOOK_NONE) cfg.decode.callback = lib_hook;
    dec = pt_pkt_alloc_decoder(&cfg);
    if (dec == NULL) lib_die("pt_pkt_alloc_decoder failed", 0, 0);
    if (!searching && pt_pkt_sync_set(dec, 0) < 0) lib_die("sync_set(0)", 0, 0);
    for (i = 0; i < r->nev; i++) {
        const iptc_ev *e = &evs[i];
        if (e->what == IPTC_EV_GAP) continue;
        if (e->what == IPTC_EV_PACKET && searching) { /* a PSB the decoder searched for */
            if ((code = pt_pkt_sync_set(dec, e->offset)) < 0) lib_die("pt_pkt_sync_set on the decoder's PSB", e->offset, code);
            searching = 0;
        }
        if (searching) continue; /* END of a search: nothing to compare */
        if (pt_pkt_get_offset(dec, &off) < 0) lib_die("pt_pkt_get_offset", 0, 0);
        memset(&pkt, 0, sizeof pkt);
        code = pt_pkt_next(dec, &pkt, sizeof pkt);
#ifdef IPTC_DIFF_STATS
        fprintf(stderr, "diff %llu %d\n", (unsigned long long)e->offset, code);
#endif
        if (e->what == IPTC_EV_PACKET) {
            /* an UNKNOWN cut by the end: libipt says -pte_eos, no packet */
            if (e->pkt.kind == TDEC_IPT_UNKNOWN && i + 1 < r->nev && evs[i + 1].what == IPTC_EV_ERROR &&
                evs[i + 1].st == TDEC_E_TRUNCATED && e->offset + e->pkt.size > len) {
                if (code != -pte_eos || off != e->offset) lib_die("cut UNKNOWN", e->offset, code);
                break;
            }
            if (code < 0 || off != e->offset || !lib_same(&pkt, &e->pkt)) lib_die("packet", e->offset, code);
            continue;
        }
        if (e->what == IPTC_EV_END) {
            if (code != -pte_eos || off != len) lib_die("end of the trace", off, code);
            break;
        }
        /* an error */
        if (e->st == TDEC_E_TRUNCATED) {
            if (code == -pte_eos && off == e->offset) break;
            /* SKZ84: libipt reports the 8-byte INVALID without its 8th byte */
            if (code == 8 && pkt.type == ppt_invalid && off == e->offset && off + 8 > len) break;
            lib_die("truncated packet", e->offset, code);
        }
        if (code != -(int)e->reason || off != e->offset) lib_die("error", e->offset, code);
        if (i + 1 < r->nev) searching = 1; /* resync(): the next PSB comes from a search */
    }
    pt_pkt_free_decoder(dec);
    free(copy);
}
#endif

/* ---- layer 2 ---------------------------------------------------------------- */

/* The transcript hash of the whole run of the event decoder or the query
   drain, for the hash line: each item, answer, status, error and offset as
   a tagged number, folded into a hash, and their count. */
typedef struct l2_log {
    uint64_t hash, items;
} l2_log;

static uint64_t l2_evt_hash, l2_evt_items, l2_qry_hash, l2_qry_items; /* whole runs, for the hash line */
static char l2_log_whole[LOG_CAP], l2_log_chunked[LOG_CAP];

static void l2_mix(l2_log *t, char tag, uint64_t v)
{
    t->hash = (t->hash ^ (uint8_t)tag) * CC_FNV_PRIME;
    cc_mix_u64(&t->hash, v);
    t->items++;
}

static void l2_mix_event(l2_log *t, const iptc_rec *x)
{
    l2_mix(t, 'T', x->type);
    l2_mix(t, 'F', x->flags);
    l2_mix(t, 'I', x->ip);
    l2_mix(t, 'A', x->arg);
    l2_mix(t, 'B', x->arg2);
    l2_mix(t, 'C', x->tsc);
    l2_mix(t, 'L', (uint64_t)x->lost_mtc << 32 | x->lost_cyc);
    l2_mix(t, 'X', (uint64_t)x->aux << 24 | (uint64_t)x->a << 16 | (uint64_t)x->b << 8 | x->reserved);
}

/* A record of a whole layer-2 run (tests/lib/ipt_check.h) into the
   transcript hash, as ever (after: the clock after a query's answer, NULL
   for the events). */
static void l2_record(void *ctx, const iptc_rec *x, const iptc_clock *after)
{
    l2_log *t = (l2_log *)ctx;
    int ips = ((uint32_t)x->status & TDEC_IPT_QF_IP_SUPPRESSED) != 0;
    switch (x->what) {
    case IPTC_L2_EVENT:
        l2_mix(t, 'K', TDEC_ITEM_RECORD);
        l2_mix(t, 'O', x->offset);
        l2_mix_event(t, x);
        return;
    case IPTC_L2_SYNC:
        if (after == NULL) {
            l2_mix(t, 'K', TDEC_IPT_ITEM_SYNC);
            l2_mix(t, 'O', x->offset);
            return;
        }
        l2_mix(t, 'S', x->offset);
        if (!ips) l2_mix(t, 'I', x->ip);
        break;
    case IPTC_L2_QEVENT: l2_mix_event(t, x); break;
    case IPTC_L2_COND: l2_mix(t, 'N', x->a); break;
    case IPTC_L2_INDIRECT:
        l2_mix(t, 'J', ips ? 0 : 1);
        if (!ips) l2_mix(t, 'I', x->ip);
        break;
    case IPTC_L2_ERROR:
        l2_mix(t, 'R', (uint64_t)(int64_t)TDEC_E_CORRUPT);
        l2_mix(t, 'E', (uint32_t)x->status);
        l2_mix(t, 'P', x->offset);
        l2_mix(t, 'Y', x->in_sync);
        return;
    default: /* the end */
        l2_mix(t, 'R', (uint64_t)(int64_t)x->status);
        return;
    }
    l2_mix(t, 'Q', (uint64_t)x->status);
    if (after->tq == TDEC_OK) {
        l2_mix(t, 'M', after->tsc);
        l2_mix(t, 'L', (uint64_t)after->mtc << 32 | after->cyc);
    }
    l2_mix(t, 'Z', after->rq == TDEC_OK ? after->cbr : 0x100u);
}

/* One layer: whole, in 1-byte chunks, in byte 1's schedule (with a reset()
   at call reset_at); the chunked runs' logs must be the whole run's. */
static void l2_layer(int queries, const uint8_t *in, size_t len, unsigned hook, const iptc_facts *f,
                     const tdec_ipt_config *cfg, const cc_sched *sched, uint64_t reset_at)
{
    static iptc_l2 whole, chunked;
    cc_decode_fn fn = queries ? iptc_queries : iptc_events;
    const char *bad;
    l2_log t;
    t.hash = CC_FNV_BASIS;
    t.items = 0;
    memset(&whole, 0, sizeof whole);
    whole.cfg = *cfg;
    whole.hook = hook;
    whole.facts = f;
    whole.cc.log = l2_log_whole;
    whole.cc.log_cap = LOG_CAP;
    chunked = whole;
    chunked.cc.log = l2_log_chunked;
    whole.on_rec = l2_record;
    whole.ctx = &t;
    if ((bad = fn(in, len, &whole.cc)) != NULL) cc_abort("fuzz_ipt: layer 2, whole", bad);
    chunked.cc.sched.step = 1;
    if ((bad = cc_same_as(fn, &whole.cc, &chunked.cc, in, len, "layer 2, 1-byte chunks", stderr)) != NULL)
        cc_abort("fuzz_ipt", bad);
    chunked.cc.sched = *sched;
    chunked.reset_at = reset_at;
    if ((bad = cc_same_as(fn, &whole.cc, &chunked.cc, in, len, "layer 2, byte 1's chunks", stderr)) != NULL)
        cc_abort("fuzz_ipt", bad);
    if (queries) {
        l2_qry_hash = t.hash;
        l2_qry_items = t.items;
    } else {
        l2_evt_hash = t.hash;
        l2_evt_items = t.items;
    }
}

static void check_layer2(const uint8_t *data, const uint8_t *in, size_t len, unsigned hook, const cc_sched *sched,
                         uint32_t seed)
{
    static const uint8_t mtc[4] = {0, 3, 8, 9};
    tdec_ipt_config cfg;
    cc_sched own = *sched;
    iptc_facts f;
    if (own.ncuts == 0 && own.step == 1) { /* the 1-byte run does that: random lengths instead */
        own.step = 0;
        own.seed = seed ? seed : 1u;
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = data[0] & 3u; /* TDEC_IPT_F_NO_SYNC is ignored: events start at a PSB */
    cfg.errata = ((data[0] & 4u) ? TDEC_IPT_ERRATUM_SKD007 : 0u) | ((data[0] & 8u) ? TDEC_IPT_ERRATUM_SKZ84 : 0u) |
                 ((data[6] & 1u) ? TDEC_IPT_ERRATUM_BDM70 : 0u) | ((data[6] & 2u) ? TDEC_IPT_ERRATUM_SKD010 : 0u) |
                 ((data[6] & 4u) ? TDEC_IPT_ERRATUM_APL11 : 0u) | ((data[6] & 8u) ? TDEC_IPT_ERRATUM_APL12 : 0u);
    if (data[6] & 0x10u) cfg.flags |= TDEC_IPT_F_IFLAGS;
    if (data[6] & 0x20u) cfg.flags |= TDEC_IPT_F_KEEP_TCAL_OVF;
    cfg.mtc_freq = mtc[data[6] >> 6];
    cfg.nom_freq = (uint8_t)(data[7] & 15u);
    cfg.cpuid_0x15_eax = 1u + ((data[7] >> 4) & 3u);
    cfg.cpuid_0x15_ebx = (uint32_t)(data[7] >> 6);
    iptc_facts_scan(&f, in, len, hook, &cfg);
    l2_layer(0, in, len, hook, &f, &cfg, &own, (data[1] & 8u) ? 1u + seed % 29u : 0u);
    l2_layer(1, in, len, hook, &f, &cfg, &own, (data[1] & 8u) ? 1u + seed % 31u : 0u);
    free(f.tsc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned caps[4] = {0, 1, 7, 64};
    static iptc_run whole, chunked, prefix;
    const uint8_t *in = data + CONTROL;
    size_t len, cut;
    uint32_t seed;
    unsigned hook;
    const char *bad;
    if (size < CONTROL) return 0;
    len = size - CONTROL;

    memset(&whole, 0, sizeof whole);
    whole.cfg.flags = data[0] & 3u;
    whole.cfg.errata = ((data[0] & 4u) ? TDEC_IPT_ERRATUM_SKD007 : 0u) | ((data[0] & 8u) ? TDEC_IPT_ERRATUM_SKZ84 : 0u);
    hook = (data[0] >> 4) & 7u;
    whole.hook = hook < IPTC_HOOK_COUNT ? hook : IPTC_HOOK_NONE;
    whole.resync = (data[1] & 0x20u) == 0;
    whole.resync_trunc = (data[0] & 0x80u) != 0;
    whole.cc.log = log_whole;
    whole.cc.log_cap = LOG_CAP;
    whole.evs = evs;
    whole.ev_cap = EV_CAP;
    seed = cc_u32le(data + 2);

    chunked = whole;
    chunked.cc.log = log_chunked;
    chunked.evs = NULL;
    chunked.ev_cap = 0;
    chunked.cc.reset_first = (data[1] & 8u) != 0;
    chunked.cc.finish_early = (data[1] & 0x10u) != 0;
    chunked.next_n = caps[data[1] >> 6];
    chunked.cc.sched = cc_sched_pick(data[1] & 7u, seed, len, &cut);

    if ((bad = iptc_decode(in, len, &whole.cc)) != NULL) cc_abort("fuzz_ipt", bad);
    if ((bad = cc_same_as(iptc_decode, &whole.cc, &chunked.cc, in, len, "chunked", stderr)) != NULL)
        cc_abort("fuzz_ipt", bad);
    if (whole.hook == IPTC_HOOK_NONE) { /* a hook sees less near a cut: its sizes may change */
        size_t runs = 0;
        prefix = whole;
        prefix.cc.log = NULL;
        prefix.evs = prefix_evs;
        if ((bad = iptc_prefixes(&whole, &prefix, in, len, 1 + len / 16, &runs)) != NULL) cc_abort("fuzz_ipt", bad);
    }
    check_helpers(in, len);
    check_layer2(data, in, len, whole.hook, &chunked.cc.sched, seed);
#ifdef TDEC_FUZZ_LIBIPT
    compare_libipt(in, len, &whole);
#endif
#ifdef IPC_PRINT_HASH
    printf("log %zu %016llx status %d packets %zu gaps %zu errors %zu events %016llx %llu queries %016llx %llu\n",
           whole.cc.log_len, (unsigned long long)cc_log_hash(&whole.cc), (int)whole.cc.status, whole.packets,
           whole.gaps, whole.errors, (unsigned long long)l2_evt_hash, (unsigned long long)l2_evt_items,
           (unsigned long long)l2_qry_hash, (unsigned long long)l2_qry_items);
#endif
    return 0;
}
