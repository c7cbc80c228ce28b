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

   Layer 2: the event decoder and the query drain (sync; an event query
   while one is pending, else cond_branch, indirect_branch when that is
   TDEC_E_SEQUENCE; qry_time and core_bus_ratio after each answer; feed or
   finish at NEED_INPUT and ask again; resync, and sync again, after
   TDEC_E_CORRUPT) run with the config of bytes 0 (flags, SKD007, SKZ84,
   the unknown hook), 6 and 7 (every erratum layer 2 uses: BDM70, SKD010,
   APL11, APL12), three times each: fed whole, in 1-byte chunks and in
   byte 1's schedule (seeded random lengths, some 0, when that is 1-byte
   too; byte 1 bit 3: reset() after a few calls and start over), each chunk
   its own exact allocation, scribbled over and freed at the next
   NEED_INPUT. Their transcripts (every SYNC, event, answer, status, time,
   error with err_reason, err_offset and in_sync, and the resyncs) must be
   equal. Also: at most 64 * (length + 16) API calls (no loop); errors are
   sticky until resync and END stays END; sync points are PSBs
   pt_sync_forward finds, each after the last, events inside their
   segment; known event types and flags, ip 0 when suppressed; statuses
   within TDEC_IPT_QS_*; a TDEC_E_SEQUENCE cond_branch is not sticky and
   says the same again, and then indirect_branch answers (no event
   pending: a TNT or a TIP is next); a query that returns TDEC_NEED_INPUT
   leaves qry_time as it was. Time: libipt's (pt_time.c) may go back (a
   TSC sets it, a TMA moves the base back before the next MTC, a CYC
   estimate can overshoot the next MTC, CYC payload * fcr wraps), so no
   monotonicity is asserted; what holds is asserted instead, over the
   packets a decode from every PSB reads: without CYCs, and without TMAs or
   MTCs, every valid time is the payload of a TSC of the input; lost_mtc
   stays 0 without MTCs, lost_cyc without CYCs. -DIPC_MASK_CUT_UNKNOWN
   (for fuzzing past the open bug below) leaves out the whole / chunked
   comparison of layer 2 when the hook sized an UNKNOWN past the end.

   Every violation abort()s; nothing is tolerated. Both runs feed their
   chunks from one buffer that is scribbled over at each NEED_INPUT, and
   the chunked one calls finish() before NEED_INPUT when byte 1 has bit 4:
   the inputs in fuzz/regressions/ipt guard the decoder bugs this found
   (feed() read a reused chunk; finish() gave E_TRUNCATED on
   carried bytes it could decode knowing the end; a cut UNKNOWN's
   err_offset was the end of the input, not the packet: fixed; l2-*: the
   event decoder resyncs inside an UNKNOWN the hook sized past the end
   when fed in chunks, not when fed whole: open). With
   -DIPC_PRINT_HASH each input prints one line of hashes (tests/matrix/matrix.sh
   compares them across hosts). */
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
static iptc_ev evs[EV_CAP];

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
    if (dec == NULL) lib_cc_abort("fuzz_ipt", "pt_pkt_alloc_decoder failed", 0, 0);
    if (!searching && pt_pkt_sync_set(dec, 0) < 0) lib_cc_abort("fuzz_ipt", "sync_set(0)", 0, 0);
    for (i = 0; i < r->nev; i++) {
        const iptc_ev *e = &evs[i];
        if (e->what == IPTC_EV_GAP) continue;
        if (e->what == IPTC_EV_PACKET && searching) { /* a PSB the decoder searched for */
            if ((code = pt_pkt_sync_set(dec, e->offset)) < 0) lib_cc_abort("fuzz_ipt", "pt_pkt_sync_set on the decoder's PSB", e->offset, code);
            searching = 0;
        }
        if (searching) continue; /* END of a search: nothing to compare */
        if (pt_pkt_get_offset(dec, &off) < 0) lib_cc_abort("fuzz_ipt", "pt_pkt_get_offset", 0, 0);
        memset(&pkt, 0, sizeof pkt);
        code = pt_pkt_next(dec, &pkt, sizeof pkt);
#ifdef IPTC_DIFF_STATS
        fprintf(stderr, "diff %llu %d\n", (unsigned long long)e->offset, code);
#endif
        if (e->what == IPTC_EV_PACKET) {
            /* an UNKNOWN cut by the end: libipt says -pte_eos, no packet */
            if (e->pkt.kind == TDEC_IPT_UNKNOWN && i + 1 < r->nev && evs[i + 1].what == IPTC_EV_ERROR &&
                evs[i + 1].st == TDEC_E_TRUNCATED && e->offset + e->pkt.size > len) {
                if (code != -pte_eos || off != e->offset) lib_cc_abort("fuzz_ipt", "cut UNKNOWN", e->offset, code);
                break;
            }
            if (code < 0 || off != e->offset || !lib_same(&pkt, &e->pkt)) lib_cc_abort("fuzz_ipt", "packet", e->offset, code);
            continue;
        }
        if (e->what == IPTC_EV_END) {
            if (code != -pte_eos || off != len) lib_cc_abort("fuzz_ipt", "end of the trace", off, code);
            break;
        }
        /* an error */
        if (e->st == TDEC_E_TRUNCATED) {
            if (code == -pte_eos && off == e->offset) break;
            /* SKZ84: libipt reports the 8-byte INVALID without its 8th byte */
            if (code == 8 && pkt.type == ppt_invalid && off == e->offset && off + 8 > len) break;
            lib_cc_abort("fuzz_ipt", "truncated packet", e->offset, code);
        }
        if (code != -(int)e->reason || off != e->offset) lib_cc_abort("fuzz_ipt", "error", e->offset, code);
        if (i + 1 < r->nev) searching = 1; /* resync(): the next PSB comes from a search */
    }
    pt_pkt_free_decoder(dec);
    free(copy);
}
#endif

/* ---- layer 2 ---------------------------------------------------------------- */

#define L2_KEEP 4096u /* transcript entries kept to show a difference */
#define L2_EVF_ALL 0x3fff7u /* every TDEC_IPT_EVF_* bit */
#define L2_QS (TDEC_IPT_QS_EVENT_PENDING | TDEC_IPT_QS_IP_SUPPRESSED | TDEC_IPT_QS_EOS)

/* What the input allows. The time checks: a decode from each PSB-looking
   offset (until an error, or another such offset it lands on, whose own
   decode goes on) reads a superset of the packets layer 2 reads, and tells
   the TSC payloads and whether any TMA, MTC or CYC is there. */
typedef struct l2_facts {
    const uint8_t *in;
    size_t         len;
    unsigned       hook;    /* IPTC_HOOK_*                                 */
    int            no_mtc, no_cyc, no_tma;
    int            time_on; /* HAS_TSC times must be TSC payloads          */
    int            cut_unknown; /* an UNKNOWN the hook sized past the end   */
    uint64_t      *tsc;     /* the TSC payloads, sorted                    */
    size_t         ntsc;
} l2_facts;

/* One run of the event decoder or of the query drain: how it is fed, and
   its transcript (each item, answer, status, error and offset as a tagged
   number; nothing that depends on the chunks) as a hash and a count, with
   the first L2_KEEP entries kept. */
typedef struct l2_run {
    const char    *how;
    const cc_sched *sched;  /* NULL: the whole input at once           */
    uint64_t       reset_at; /* reset() at that call (0: never)         */
    uint64_t       hash, items, calls, last_sync, seg;
    size_t         fed, ci, n;
    uint32_t       rng;
    iptc_hook      hook;
    uint64_t       val[L2_KEEP];
    char           tag[L2_KEEP];
} l2_run;

static tdec_ipt_evt_decoder l2_evt;
static tdec_ipt_qry_decoder l2_qry;
static tdec_ipt_decoder l2_pkt;
static l2_run l2_runs[2]; /* the whole run, a chunked one */
static uint64_t l2_evt_hash, l2_evt_items, l2_qry_hash, l2_qry_items; /* whole runs, for the hash line */

static void l2_fail(const char *what, uint64_t a, uint64_t b)
{
    fprintf(stderr, "fuzz_ipt: layer 2: %s (%llu, %llu)\n", what, (unsigned long long)a, (unsigned long long)b);
    abort();
}

static void l2_mix(l2_run *r, char tag, uint64_t v)
{
    int i;
    if (r->items < L2_KEEP) {
        r->val[r->items] = v;
        r->tag[r->items] = tag;
    }
    r->hash = (r->hash ^ (uint8_t)tag) * 1099511628211ull;
    for (i = 0; i < 8; i++, v >>= 8) r->hash = (r->hash ^ (v & 0xffu)) * 1099511628211ull;
    r->items++;
}

/* Every API call counts: no input makes layer 2 loop. */
static void l2_call(l2_run *r, const l2_facts *f)
{
    r->calls++;
    if (r->calls > 64u * ((uint64_t)f->len + 16u)) l2_fail("more calls than 64 * (length + 16): a loop", r->calls, f->len);
}

static int l2_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void l2_hook_cfg(iptc_hook *h, tdec_ipt_config *cfg, unsigned mode, const uint8_t *in, size_t len)
{
    memset(h, 0, sizeof *h);
    h->mode = mode;
    h->in = in;
    h->len = len;
    cfg->unknown = mode != IPTC_HOOK_NONE ? iptc_hook_fn : NULL;
    cfg->unknown_ctx = mode != IPTC_HOOK_NONE ? h : NULL;
}

/* libipt's time (pt_time.c) changes only at a TSC (tsc = its payload), a
   TMA (base -= fc), an MTC (tsc = base + CTC delta) and a CYC (tsc = base +
   fc): without CYCs, and without TMAs or MTCs, it is the last TSC's
   payload. lost_mtc grows only at an MTC, lost_cyc only at a CYC. */
static void l2_scan(l2_facts *f, const tdec_ipt_config *l2cfg)
{
    tdec_ipt_config cfg = *l2cfg;
    tdec_ipt_item it;
    iptc_hook hook;
    size_t p, cap = 0, starts = 0;
    uint64_t o;
    int finished;
    f->no_mtc = f->no_cyc = f->no_tma = 1;
    f->time_on = f->cut_unknown = 0;
    f->tsc = NULL;
    f->ntsc = 0;
    cfg.flags = (l2cfg->flags & TDEC_IPT_F_PEBS) | TDEC_IPT_F_NO_SYNC;
    for (p = 0; p + 16 <= f->len; p++) {
        if (!iptc__pairs(f->in, f->len, p, 8)) continue;
        if (++starts > 512) goto off; /* that many PSBs: no time check */
        l2_hook_cfg(&hook, &cfg, f->hook, f->in + p, f->len - p);
        if (tdec_ipt_init(&l2_pkt, &cfg) != TDEC_NEED_INPUT) l2_fail("tdec_ipt_init", 0, 0);
        tdec_ipt_feed(&l2_pkt, f->in + p, f->len - p);
        for (finished = 0;;) {
            tdec_status st = tdec_ipt_next(&l2_pkt, &it);
            /* finish() only once the window is used up (else E_SEQUENCE, and
               the packets in the last 15 bytes were never seen) */
            if (st == TDEC_NEED_INPUT && !finished) {
                finished = 1;
                if (tdec_ipt_finish(&l2_pkt) == TDEC_NEED_INPUT) continue;
            }
            if (st != TDEC_OK) break;
            if (it.kind != TDEC_ITEM_RECORD) continue;
            o = p + it.offset;
            if (o != p && iptc__pairs(f->in, f->len, o, 8)) break;
            switch (it.u.pkt.kind) {
            case TDEC_IPT_MTC: f->no_mtc = 0; break;
            case TDEC_IPT_CYC: f->no_cyc = 0; break;
            case TDEC_IPT_TMA: f->no_tma = 0; break;
            case TDEC_IPT_UNKNOWN:
                if (o + it.u.pkt.size > f->len) f->cut_unknown = 1;
                break;
            case TDEC_IPT_TSC:
                if (f->ntsc == cap) {
                    uint64_t *t;
                    cap = cap ? 2 * cap : 16;
                    t = (uint64_t *)realloc(f->tsc, cap * sizeof *t);
                    if (t == NULL) goto off;
                    f->tsc = t;
                }
                f->tsc[f->ntsc++] = it.u.pkt.payload;
                break;
            default: break;
            }
        }
    }
    if (f->ntsc) qsort(f->tsc, f->ntsc, sizeof *f->tsc, l2_cmp_u64);
    f->time_on = f->no_cyc && (f->no_tma || f->no_mtc);
    return;
off:
    f->no_mtc = f->no_cyc = f->no_tma = 0;
    f->cut_unknown = 1;
    free(f->tsc);
    f->tsc = NULL;
    f->ntsc = 0;
}

/* A time as events and qry_time report it (when it is valid). */
static void l2_time(const l2_facts *f, uint64_t tsc, uint32_t lost_mtc, uint32_t lost_cyc)
{
    if (f->no_mtc && lost_mtc != 0) l2_fail("lost MTCs without an MTC", lost_mtc, tsc);
    if (f->no_cyc && lost_cyc != 0) l2_fail("lost CYCs without a CYC", lost_cyc, tsc);
    if (f->time_on && (f->ntsc == 0 || bsearch(&tsc, f->tsc, f->ntsc, sizeof tsc, l2_cmp_u64) == NULL))
        l2_fail("a time that is no TSC's payload (no CYC, no TMA+MTC to move it)", tsc, f->ntsc);
}

static void l2_event(l2_run *r, const l2_facts *f, const tdec_ipt_event *ev)
{
    if (ev->type >= TDEC_IPT_EV_COUNT) l2_fail("event type", ev->type, 0);
    if (ev->flags & ~L2_EVF_ALL) l2_fail("event flags", ev->type, ev->flags);
    if ((ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) && ev->ip != 0) l2_fail("suppressed ip is not 0", ev->type, ev->ip);
    if (ev->flags & TDEC_IPT_EVF_HAS_TSC) l2_time(f, ev->tsc, ev->lost_mtc, ev->lost_cyc);
    l2_mix(r, 'T', ev->type);
    l2_mix(r, 'F', ev->flags);
    l2_mix(r, 'I', ev->ip);
    l2_mix(r, 'A', ev->arg);
    l2_mix(r, 'B', ev->arg2);
    l2_mix(r, 'C', ev->tsc);
    l2_mix(r, 'L', (uint64_t)ev->lost_mtc << 32 | ev->lost_cyc);
    l2_mix(r, 'X', (uint64_t)ev->aux << 24 | (uint64_t)ev->a << 16 | (uint64_t)ev->b << 8 | ev->reserved);
}

/* A sync point: one pt_sync_forward can return (8 pairs, no whole pair
   right after), after the last one. */
static void l2_sync(l2_run *r, const l2_facts *f, uint64_t off)
{
    if (!iptc__pairs(f->in, f->len, off, 8) || iptc__pairs(f->in, f->len, off + 16, 1))
        l2_fail("sync point not on a PSB pt_sync_forward finds", off, f->len);
    if (r->last_sync != UINT64_MAX && off <= r->last_sync) l2_fail("sync point not after the last", off, r->last_sync);
    r->last_sync = r->seg = off;
}

/* An error (sticky until resync): why and where, in the transcript. */
static void l2_error(l2_run *r, const l2_facts *f, tdec_status st, const tdec_stream *s, uint8_t in_sync)
{
    if (s->err != st) l2_fail("the stream's err is not the status", (uint64_t)(int64_t)s->err, (uint64_t)(int64_t)st);
    if (s->err_offset > f->len) l2_fail("err_offset past the end", s->err_offset, f->len);
    if (s->err_reason == 0) l2_fail("TDEC_E_CORRUPT without err_reason", s->err_offset, 0);
    l2_mix(r, 'E', s->err_reason);
    l2_mix(r, 'P', s->err_offset);
    l2_mix(r, 'Y', in_sync);
}

static uint8_t *l2_copy; /* the current chunk: its own allocation, freed at
                            the next NEED_INPUT so ASan sees stale reads */

static void l2_drop_chunk(l2_run *r)
{
    if (l2_copy) memset(l2_copy, 0xa5, r->n); /* stale reads differ without ASan too */
    free(l2_copy);
    l2_copy = NULL;
}

/* The next chunk (possibly empty; the rest without a schedule), or NULL at
   the end. The previous chunk is scribbled over and freed first. */
static const uint8_t *l2_chunk(l2_run *r, const l2_facts *f)
{
    l2_drop_chunk(r);
    if (r->fed >= f->len) return NULL;
    r->n = r->sched ? cc_chunk(r->sched, r->fed, f->len, &r->rng, &r->ci) : f->len - r->fed;
    l2_copy = (uint8_t *)malloc(r->n ? r->n : 1u);
    if (l2_copy == NULL) abort();
    memcpy(l2_copy, f->in + r->fed, r->n);
    r->fed += r->n;
    return l2_copy;
}

static void l2_start(l2_run *r)
{
    r->hash = CC_FNV_BASIS;
    r->items = 0;
    r->last_sync = UINT64_MAX;
    r->seg = 0;
    r->fed = r->ci = r->n = 0;
    r->rng = r->sched ? r->sched->seed : 0;
}

/* The event decoder, pulled until TDEC_END; resync() after each error. */
static void l2_events(const l2_facts *f, const tdec_ipt_config *cfg, l2_run *r)
{
    tdec_ipt_evt_decoder *e = &l2_evt;
    tdec_ipt_evt_item it;
    tdec_status st;
    const uint8_t *c;
    uint32_t reason;
    r->calls = 0;
    l2_start(r);
    if (tdec_ipt_evt_init(e, cfg) != TDEC_NEED_INPUT) l2_fail("evt_init", 0, 0);
    for (;;) {
        l2_call(r, f);
        if (r->calls == r->reset_at) { /* back to the state after init() */
            tdec_ipt_evt_reset(e);
            l2_drop_chunk(r);
            l2_start(r);
            continue;
        }
        memset(&it, 0xa5, sizeof it);
        st = tdec_ipt_evt_next(e, &it);
        if (st == TDEC_OK) {
            l2_mix(r, 'K', it.kind);
            l2_mix(r, 'O', it.offset);
            if (it.kind == TDEC_IPT_EVT_SYNC) {
                l2_sync(r, f, it.offset);
            } else if (it.kind == TDEC_IPT_EVT_EVENT) {
                if (r->last_sync == UINT64_MAX || it.offset < r->seg || it.offset > f->len)
                    l2_fail("event outside its segment", it.offset, r->seg);
                l2_event(r, f, &it.ev);
            } else {
                l2_fail("item kind", it.kind, it.offset);
            }
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            c = l2_chunk(r, f);
            l2_call(r, f);
            st = c ? tdec_ipt_evt_feed(e, c, r->n) : tdec_ipt_evt_finish(e);
            if (st != TDEC_NEED_INPUT) l2_fail(c ? "evt_feed" : "evt_finish", (uint64_t)(int64_t)st, r->fed);
            continue;
        }
        l2_mix(r, 'R', (uint64_t)(int64_t)st);
        if (st != TDEC_E_CORRUPT) break;
        l2_error(r, f, st, &e->st, e->in_sync);
        reason = e->st.err_reason;
        l2_call(r, f);
        if (tdec_ipt_evt_next(e, &it) != st || e->st.err_reason != reason) l2_fail("an event error is not sticky", reason, 0);
        l2_call(r, f);
        if (tdec_ipt_evt_resync(e) != TDEC_NEED_INPUT) l2_fail("evt_resync after TDEC_E_CORRUPT", e->st.err_offset, 0);
    }
    if (st != TDEC_END) l2_fail("the events end with neither TDEC_END nor TDEC_E_CORRUPT", (uint64_t)(int64_t)st, 0);
    if (tdec_ipt_evt_next(e, &it) != TDEC_END) l2_fail("evt_next after TDEC_END", 0, 0);
    if (tdec_ipt_evt_resync(e) != TDEC_E_SEQUENCE) l2_fail("evt_resync after TDEC_END is not TDEC_E_SEQUENCE", 0, 0);
    l2_drop_chunk(r);
}

typedef struct l2_when {
    int      r;
    uint64_t tsc;
    uint32_t mtc, cyc;
} l2_when;

static l2_when l2_now(const tdec_ipt_qry_decoder *q)
{
    l2_when w;
    w.tsc = 0;
    w.mtc = w.cyc = 0;
    w.r = tdec_ipt_qry_time(q, &w.tsc, &w.mtc, &w.cyc);
    return w;
}

/* The drain: sync; an event query while one is pending, else cond_branch,
   and indirect_branch when that is TDEC_E_SEQUENCE; qry_time and
   core_bus_ratio after every answer; at TDEC_NEED_INPUT feed or finish and
   ask again; resync and sync again after TDEC_E_CORRUPT. */
static void l2_queries(const l2_facts *f, const tdec_ipt_config *cfg, l2_run *r)
{
    tdec_ipt_qry_decoder *q = &l2_qry;
    tdec_ipt_event ev;
    tdec_status st;
    const uint8_t *c;
    uint64_t ip = 0, off = 0;
    uint32_t cbr, reason;
    int status = 0, s = 0, taken = 0, synced = 0, cr;
    l2_when before, after;
    r->calls = 0;
    l2_start(r);
    if (tdec_ipt_qry_init(q, cfg) != TDEC_NEED_INPUT) l2_fail("qry_init", 0, 0);
    for (;;) {
        l2_call(r, f);
        if (r->calls == r->reset_at) {
            tdec_ipt_qry_reset(q);
            l2_drop_chunk(r);
            l2_start(r);
            synced = 0;
            continue;
        }
        before = l2_now(q);
        if (!synced) {
            ip = 0x5a5a5a5a5a5a5a5aull;
            st = tdec_ipt_qry_sync(q, &ip, &s, &off);
            if (st == TDEC_OK) {
                l2_sync(r, f, off);
                l2_mix(r, 'S', off);
                if ((s & TDEC_IPT_QS_IP_SUPPRESSED) == 0) l2_mix(r, 'I', ip);
                else if (ip != 0x5a5a5a5a5a5a5a5aull) l2_fail("sync wrote a suppressed ip", ip, 0);
                synced = 1;
            }
        } else if (status & TDEC_IPT_QS_EVENT_PENDING) {
            memset(&ev, 0xa5, sizeof ev);
            st = tdec_ipt_qry_event(q, &ev, &s);
            if (st == TDEC_OK) l2_event(r, f, &ev);
        } else {
            st = tdec_ipt_qry_cond_branch(q, &taken, &s);
            if (st == TDEC_E_SEQUENCE) {
                /* not sticky, the same answer again */
                if (q->st.err != TDEC_OK) l2_fail("cond_branch's TDEC_E_SEQUENCE is sticky", 0, 0);
                l2_call(r, f);
                if (tdec_ipt_qry_cond_branch(q, &taken, &s) != TDEC_E_SEQUENCE)
                    l2_fail("cond_branch's TDEC_E_SEQUENCE changed its next answer", 0, 0);
                l2_call(r, f);
                before = l2_now(q); /* cond_branch set it, as libipt's does before it looks */
                ip = 0x5a5a5a5a5a5a5a5aull;
                st = tdec_ipt_qry_indirect_branch(q, &ip, &s);
                /* no event pending: a TNT or a TIP is next (libipt's pt_qry_status_flags) */
                if (st == TDEC_E_SEQUENCE) l2_fail("neither cond_branch nor indirect_branch, no event pending", 0, 0);
                if (st == TDEC_OK) {
                    l2_mix(r, 'J', (s & TDEC_IPT_QS_IP_SUPPRESSED) ? 0 : 1);
                    if ((s & TDEC_IPT_QS_IP_SUPPRESSED) == 0) l2_mix(r, 'I', ip);
                    else if (ip != 0x5a5a5a5a5a5a5a5aull) l2_fail("indirect_branch wrote a suppressed ip", ip, 0);
                }
            } else if (st == TDEC_OK) {
                if (taken != 0 && taken != 1) l2_fail("taken is neither 0 nor 1", (uint64_t)(int64_t)taken, 0);
                l2_mix(r, 'N', (uint64_t)taken);
            }
        }
        if (st == TDEC_OK) {
            if (s & ~L2_QS) l2_fail("query status", (uint64_t)s, 0);
            status = s;
            l2_mix(r, 'Q', (uint64_t)status);
            after = l2_now(q);
            cbr = 0;
            cr = tdec_ipt_qry_core_bus_ratio(q, &cbr);
            l2_call(r, f);
            l2_call(r, f);
            if (after.r != 0 && after.r != -TDEC_IPT_ERR_NO_TIME) l2_fail("qry_time", (uint64_t)(int64_t)after.r, 0);
            if (cr != 0 && cr != -TDEC_IPT_ERR_NO_CBR) l2_fail("qry_core_bus_ratio", (uint64_t)(int64_t)cr, 0);
            if (after.r == 0) {
                l2_time(f, after.tsc, after.mtc, after.cyc);
                l2_mix(r, 'M', after.tsc);
                l2_mix(r, 'L', (uint64_t)after.mtc << 32 | after.cyc);
            }
            l2_mix(r, 'Z', cr == 0 ? cbr : 0x100u);
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            after = l2_now(q); /* a query that needs input changes nothing */
            if (after.r != before.r || after.tsc != before.tsc || after.mtc != before.mtc || after.cyc != before.cyc) {
                fprintf(stderr, "fuzz_ipt: layer 2: %s returned TDEC_NEED_INPUT and changed qry_time: %d %llu %u %u -> "
                        "%d %llu %u %u (fed %zu of %zu)\n", !synced ? "sync" : (status & TDEC_IPT_QS_EVENT_PENDING) ?
                        "event" : "indirect_branch", before.r, (unsigned long long)before.tsc, before.mtc,
                        before.cyc, after.r, (unsigned long long)after.tsc, after.mtc, after.cyc, r->fed, f->len);
                abort();
            }
            c = l2_chunk(r, f);
            l2_call(r, f);
            st = c ? tdec_ipt_qry_feed(q, c, r->n) : tdec_ipt_qry_finish(q);
            if (st != TDEC_NEED_INPUT) l2_fail(c ? "qry_feed" : "qry_finish", (uint64_t)(int64_t)st, r->fed);
            continue;
        }
        l2_mix(r, 'R', (uint64_t)(int64_t)st);
        if (st != TDEC_E_CORRUPT) break;
        l2_error(r, f, st, &q->st, q->in_sync);
        reason = q->st.err_reason;
        l2_call(r, f);
        if (tdec_ipt_qry_cond_branch(q, &taken, &s) != st || q->st.err_reason != reason)
            l2_fail("a query error is not sticky", reason, 0);
        synced = 0;
        l2_call(r, f);
        if (tdec_ipt_qry_resync(q) != TDEC_NEED_INPUT) l2_fail("qry_resync after TDEC_E_CORRUPT", q->st.err_offset, 0);
    }
    if (st != TDEC_END) l2_fail("the drain ends with neither TDEC_END nor TDEC_E_CORRUPT", (uint64_t)(int64_t)st, 0);
    if (tdec_ipt_qry_cond_branch(q, &taken, &s) != TDEC_END || tdec_ipt_qry_sync(q, &ip, &s, &off) != TDEC_END)
        l2_fail("a query after TDEC_END", 0, 0);
    if (tdec_ipt_qry_resync(q) != TDEC_E_SEQUENCE) l2_fail("qry_resync after TDEC_END is not TDEC_E_SEQUENCE", 0, 0);
    l2_drop_chunk(r);
}

/* A run's transcript against the whole run's. */
static void l2_same(const char *layer, const l2_run *a, const l2_run *b)
{
    uint64_t i, n = a->items < b->items ? a->items : b->items;
    if (a->hash == b->hash && a->items == b->items) return;
    if (n > L2_KEEP) n = L2_KEEP;
    for (i = 0; i < n && a->tag[i] == b->tag[i] && a->val[i] == b->val[i]; i++) continue;
    fprintf(stderr, "fuzz_ipt: %s differ whole / %s (%llu / %llu entries)", layer, b->how,
            (unsigned long long)a->items, (unsigned long long)b->items);
    if (i < n)
        fprintf(stderr, ": entry %llu is %c %llx / %c %llx\n", (unsigned long long)i, a->tag[i],
                (unsigned long long)a->val[i], b->tag[i], (unsigned long long)b->val[i]);
    else
        fprintf(stderr, " after entry %llu\n", (unsigned long long)i);
    abort();
}

/* One layer: whole, in 1-byte chunks, in byte 1's schedule. */
static void l2_layer(int queries, const l2_facts *f, tdec_ipt_config *cfg, const cc_sched *sched, uint64_t reset_at)
{
    static const cc_sched bytes = {NULL, 0, 1, 0};
    const char *layer = queries ? "query answers" : "events";
    l2_run *w = &l2_runs[0], *b = &l2_runs[1];
    int k;
    for (k = 0; k < 3; k++) {
        l2_run *r = k == 0 ? w : b;
        r->how = k == 0 ? "whole" : k == 1 ? "1-byte chunks" : "byte 1's chunks";
        r->sched = k == 0 ? NULL : k == 1 ? &bytes : sched;
        r->reset_at = k == 2 ? reset_at : 0;
        l2_hook_cfg(&r->hook, cfg, f->hook, f->in, f->len);
        if (queries) l2_queries(f, cfg, r);
        else l2_events(f, cfg, r);
        if (r->hook.bad) l2_fail(r->hook.bad, r->hook.calls, 0);
#ifdef IPC_MASK_CUT_UNKNOWN
        if (f->cut_unknown) continue; /* the open bug of fuzz/regressions/ipt/l2-*: fuzz past it */
#endif
        if (k > 0) l2_same(layer, w, r);
    }
    if (queries) {
        l2_qry_hash = w->hash;
        l2_qry_items = w->items;
    } else {
        l2_evt_hash = w->hash;
        l2_evt_items = w->items;
    }
}

static void check_layer2(const uint8_t *data, const uint8_t *in, size_t len, unsigned hook, const cc_sched *sched,
                         uint32_t seed)
{
    static const uint8_t mtc[4] = {0, 3, 8, 9};
    tdec_ipt_config cfg;
    cc_sched own = *sched;
    l2_facts f;
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
    f.in = in;
    f.len = len;
    f.hook = hook;
    l2_scan(&f, &cfg);
    l2_layer(0, &f, &cfg, &own, (data[1] & 8u) ? 1u + seed % 29u : 0u);
    l2_layer(1, &f, &cfg, &own, (data[1] & 8u) ? 1u + seed % 31u : 0u);
    free(f.tsc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned caps[4] = {0, 1, 7, 64};
    static iptc_run whole, chunked;
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
