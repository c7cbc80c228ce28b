/* fuzz_ipt.c - libFuzzer / AFL++ harness for single/tdec_ipt.h (the Intel
   PT packet layer).

   Input: 8 control bytes, then the trace.
     byte 0     bit 0 TDEC_IPT_F_NO_SYNC, bit 1 TDEC_IPT_F_PEBS, bit 2
                erratum SKD007, bit 3 erratum SKZ84; bits 4-6 the unknown
                hook (fuzz/ipt_check.h IPTC_HOOK_*: 0 none, 1 size from the
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
   same config; both runs are checked against fuzz/ipt_check.h's reference
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

   Layer 2: the event decoder and the query drain (sync; event query while
   one is pending, else cond_branch, indirect_branch when that is
   TDEC_E_SEQUENCE; resync after errors) run with the config of bytes 0, 6
   and 7, fed whole and in the chunks of byte 1's schedule, from a buffer
   scribbled over at each NEED_INPUT: every item, answer, status and error
   (with its offset) must be the same, and the calls stay under
   64 * (length + 16) + 1000 (no loop). No time invariant is asserted:
   libipt's time may go back (a TSC resets it, a TMA moves the base back).

   Every violation abort()s; nothing is tolerated. Both runs feed their
   chunks from one buffer that is scribbled over at each NEED_INPUT, and
   the chunked one calls finish() before NEED_INPUT when byte 1 has bit 4:
   the inputs in fuzz/regressions/ipt guard the decoder bugs this found,
   all fixed (feed() read a reused chunk; finish() gave E_TRUNCATED on
   carried bytes it could decode knowing the end; a cut UNKNOWN's
   err_offset was the end of the input, not the packet). With
   -DIPC_PRINT_HASH each input prints one line of hashes (tests/matrix.sh
   compares them across hosts). */
#define TDEC_IPT_IMPLEMENTATION
#include "fuzz/ipt_check.h"
#include <stdio.h>

#ifdef TDEC_FUZZ_LIBIPT
#include <intel-pt.h>
#endif

#define LOG_CAP (1024 * 1024)
#define CONTROL 8u
#define EV_CAP 65536u

static char log_whole[LOG_CAP], log_chunked[LOG_CAP];
static iptc_ev evs[EV_CAP];

static void die(const char *what, const iptc_run *a, const iptc_run *b)
{
    fprintf(stderr, "fuzz_ipt: %s\n", what);
    if (b) iptc_print_diff(stderr, a, b);
    abort();
}

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
        die("sync_forward differs from the reference search", NULL, NULL);
    st = tdec_ipt_sync_at(in, len, from);
    if (from + 2 > len ? st != TDEC_E_TRUNCATED
        : (in[from] != 0x02 || in[from + 1] != 0x82) ? st != TDEC_E_NOSYNC
        : from + 16 > len ? st != TDEC_E_TRUNCATED
        : st != (iptc__pairs(in, len, from, 8) ? TDEC_OK : TDEC_E_NOSYNC))
        die("sync_at differs from pt_sync_set's rule", NULL, NULL);
    want = iptc_ref_backward(in, len, from);
    st = tdec_ipt_sync_backward(in, len, from, &psb);
    if (want == IPTC_NONE ? st != TDEC_E_NOSYNC : (st != TDEC_OK || psb != want))
        die("sync_backward differs from pt_sync_backward's rule", NULL, NULL);
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
        die("psb_list count differs", NULL, NULL);
    for (k = 0; k < nall && k < 256; k++)
        if (list[k] != all[k]) die("psb_list differs", NULL, NULL);
    free(all);
    if (tdec_ipt_sync_forward(NULL, 1, 0, &p) != TDEC_E_ARG || tdec_ipt_sync_forward(in, len, len + 1, &p) != TDEC_E_ARG ||
        tdec_ipt_sync_backward(in, len, 0, NULL) != TDEC_E_ARG || tdec_ipt_sync_at(in, len, len + 1) != TDEC_E_ARG ||
        tdec_ipt_psb_list(in, len, NULL, 1, &k) != TDEC_E_ARG || tdec_ipt_psb_list(in, len, list, 0, NULL) != TDEC_E_ARG)
        die("a buffer helper accepts bad arguments", NULL, NULL);
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

/* ---- layer 2 ---- */

typedef struct l2_run {
    uint64_t hash, items, calls;
} l2_run;

static tdec_ipt_evt_decoder l2_evt;
static tdec_ipt_qry_decoder l2_qry;
static void l2_mix(l2_run *r, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++, v >>= 8) r->hash = (r->hash ^ (v & 0xffu)) * 1099511628211ull;
    r->items++;
}

static void l2_event(l2_run *r, const tdec_ipt_event *ev)
{
    l2_mix(r, ev->type);
    l2_mix(r, ev->flags);
    l2_mix(r, ev->ip);
    l2_mix(r, ev->arg);
    l2_mix(r, ev->arg2);
    l2_mix(r, ev->tsc);
    l2_mix(r, (uint64_t)ev->lost_mtc << 32 | ev->lost_cyc);
    l2_mix(r, (uint64_t)ev->aux << 16 | (uint64_t)ev->a << 8 | ev->b);
}

static uint8_t *l2_copy; /* the current chunk: its own allocation, freed at
                            the next NEED_INPUT so ASan sees stale reads */

/* The next chunk (the rest when sched is NULL), or NULL at the end. */
static const uint8_t *l2_chunk(const uint8_t *in, size_t len, size_t *fed, const cc_sched *sched, uint32_t *rng,
                               size_t *ci, size_t *n)
{
    free(l2_copy);
    l2_copy = NULL;
    if (*fed >= len) return NULL;
    *n = sched ? cc_chunk(sched, *fed, len, rng, ci) : len - *fed;
    if (*n == 0) *n = 1;
    l2_copy = (uint8_t *)malloc(*n);
    if (l2_copy == NULL) abort();
    memcpy(l2_copy, in + *fed, *n);
    *fed += *n;
    return l2_copy;
}

static void l2_bound(const l2_run *r, size_t len)
{
    if (r->calls > 64u * (len + 16u) + 1000u) {
        fprintf(stderr, "fuzz_ipt: layer 2 takes %llu calls for %zu bytes\n", (unsigned long long)r->calls, len);
        abort();
    }
}

static void l2_events(const uint8_t *in, size_t len, const tdec_ipt_config *cfg, const cc_sched *sched, l2_run *r)
{
    tdec_ipt_evt_decoder *e = &l2_evt;
    tdec_ipt_evt_item it;
    tdec_status st;
    const uint8_t *c;
    size_t fed = 0, ci = 0, n = 0;
    uint32_t rng = sched ? sched->seed : 0;
    r->hash = CC_FNV_BASIS;
    tdec_ipt_evt_init(e, cfg);
    for (;;) {
        r->calls++;
        l2_bound(r, len);
        st = tdec_ipt_evt_next(e, &it);
        if (st == TDEC_OK) {
            l2_mix(r, it.kind);
            l2_mix(r, it.offset);
            if (it.kind == TDEC_IPT_EVT_EVENT) l2_event(r, &it.ev);
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            c = l2_chunk(in, len, &fed, sched, &rng, &ci, &n);
            st = c ? tdec_ipt_evt_feed(e, c, n) : tdec_ipt_evt_finish(e);
            if (st == TDEC_NEED_INPUT) continue;
        }
        l2_mix(r, (uint64_t)(int64_t)st);
        if (st != TDEC_E_CORRUPT) break;
        l2_mix(r, e->st.err_reason);
        l2_mix(r, e->st.err_offset);
        l2_mix(r, e->in_sync);
        if (tdec_ipt_evt_resync(e) != TDEC_NEED_INPUT) abort();
    }
    free(l2_copy);
    l2_copy = NULL;
}

static void l2_queries(const uint8_t *in, size_t len, const tdec_ipt_config *cfg, const cc_sched *sched, l2_run *r)
{
    tdec_ipt_qry_decoder *q = &l2_qry;
    tdec_ipt_event ev;
    tdec_status st;
    const uint8_t *c;
    size_t fed = 0, ci = 0, n = 0;
    uint32_t rng = sched ? sched->seed : 0, mtc = 0, cyc = 0;
    uint64_t ip = 0, off = 0, tsc = 0;
    int status = 0, taken = 0, synced = 0;
    r->hash = CC_FNV_BASIS;
    tdec_ipt_qry_init(q, cfg);
    for (;;) {
        r->calls++;
        l2_bound(r, len);
        if (!synced) {
            st = tdec_ipt_qry_sync(q, &ip, &status, &off);
            if (st == TDEC_OK) {
                synced = 1;
                l2_mix(r, off);
                l2_mix(r, (uint64_t)status << 32 | ((status & TDEC_IPT_QS_IP_SUPPRESSED) ? 0 : ip));
                continue;
            }
        } else if (status & TDEC_IPT_QS_EVENT_PENDING) {
            st = tdec_ipt_qry_event(q, &ev, &status);
            if (st == TDEC_OK) {
                l2_event(r, &ev);
                l2_mix(r, (uint64_t)status);
                continue;
            }
        } else {
            st = tdec_ipt_qry_cond_branch(q, &taken, &status);
            if (st == TDEC_E_SEQUENCE) {
                st = tdec_ipt_qry_indirect_branch(q, &ip, &status);
                taken = 2 + ((status & TDEC_IPT_QS_IP_SUPPRESSED) ? 0 : 1);
                if (st == TDEC_OK && (status & TDEC_IPT_QS_IP_SUPPRESSED) == 0) l2_mix(r, ip);
            }
            if (st == TDEC_OK) {
                l2_mix(r, (uint64_t)status << 8 | (uint64_t)taken);
                if (tdec_ipt_qry_time(q, &tsc, &mtc, &cyc) == 0) l2_mix(r, tsc ^ ((uint64_t)mtc << 32 | cyc));
                continue;
            }
        }
        if (st == TDEC_NEED_INPUT) {
            c = l2_chunk(in, len, &fed, sched, &rng, &ci, &n);
            st = c ? tdec_ipt_qry_feed(q, c, n) : tdec_ipt_qry_finish(q);
            if (st == TDEC_NEED_INPUT) continue;
        }
        l2_mix(r, (uint64_t)(int64_t)st);
        if (st != TDEC_E_CORRUPT) break;
        l2_mix(r, q->st.err_reason);
        l2_mix(r, q->st.err_offset);
        l2_mix(r, q->in_sync);
        synced = 0;
        if (tdec_ipt_qry_resync(q) != TDEC_NEED_INPUT) abort();
    }
    free(l2_copy);
    l2_copy = NULL;
}

static l2_run l2_evt_whole, l2_qry_whole;

static void check_layer2(const uint8_t *data, const uint8_t *in, size_t len, const cc_sched *sched)
{
    static const uint8_t mtc[4] = {0, 3, 8, 9};
    tdec_ipt_config cfg;
    l2_run b;
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = (data[0] & 2u) ? TDEC_IPT_F_PEBS : 0u;
    cfg.errata = ((data[0] & 4u) ? TDEC_IPT_ERRATUM_SKD007 : 0u) | ((data[0] & 8u) ? TDEC_IPT_ERRATUM_SKZ84 : 0u) |
                 ((data[6] & 1u) ? TDEC_IPT_ERRATUM_BDM70 : 0u) | ((data[6] & 2u) ? TDEC_IPT_ERRATUM_SKD010 : 0u) |
                 ((data[6] & 4u) ? TDEC_IPT_ERRATUM_APL11 : 0u) | ((data[6] & 8u) ? TDEC_IPT_ERRATUM_APL12 : 0u);
    if (data[6] & 0x10u) cfg.flags |= TDEC_IPT_F_IFLAGS;
    if (data[6] & 0x20u) cfg.flags |= TDEC_IPT_F_KEEP_TCAL_OVF;
    cfg.mtc_freq = mtc[data[6] >> 6];
    cfg.nom_freq = (uint8_t)(data[7] & 15u);
    cfg.cpuid_0x15_eax = 1u + ((data[7] >> 4) & 3u);
    cfg.cpuid_0x15_ebx = (uint32_t)(data[7] >> 6);
    memset(&l2_evt_whole, 0, sizeof l2_evt_whole);
    memset(&b, 0, sizeof b);
    l2_events(in, len, &cfg, NULL, &l2_evt_whole);
    l2_events(in, len, &cfg, sched, &b);
    if (b.hash != l2_evt_whole.hash || b.items != l2_evt_whole.items) {
        fprintf(stderr, "fuzz_ipt: events differ whole / chunked (%llu / %llu items)\n",
                (unsigned long long)l2_evt_whole.items, (unsigned long long)b.items);
        abort();
    }
    memset(&l2_qry_whole, 0, sizeof l2_qry_whole);
    memset(&b, 0, sizeof b);
    l2_queries(in, len, &cfg, NULL, &l2_qry_whole);
    l2_queries(in, len, &cfg, sched, &b);
    if (b.hash != l2_qry_whole.hash || b.items != l2_qry_whole.items) {
        fprintf(stderr, "fuzz_ipt: query answers differ whole / chunked (%llu / %llu items)\n",
                (unsigned long long)l2_qry_whole.items, (unsigned long long)b.items);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned caps[4] = {0, 1, 7, 64};
    iptc_run whole, chunked;
    const uint8_t *in = data + CONTROL;
    size_t len, cut[1];
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
    whole.log = log_whole;
    whole.log_cap = LOG_CAP;
    whole.evs = evs;
    whole.ev_cap = EV_CAP;
    seed = (uint32_t)data[2] | ((uint32_t)data[3] << 8) | ((uint32_t)data[4] << 16) | ((uint32_t)data[5] << 24);

    chunked = whole;
    chunked.log = log_chunked;
    chunked.evs = NULL;
    chunked.ev_cap = 0;
    chunked.reset_first = (data[1] & 8u) != 0;
    chunked.finish_early = (data[1] & 0x10u) != 0;
    chunked.next_n = caps[data[1] >> 6];
    switch (data[1] & 7u) {
    case 0: chunked.step = 1; break;
    case 1:
        cut[0] = seed % (len + 1);
        chunked.cuts = cut;
        chunked.ncuts = 1;
        break;
    case 2: chunked.step = 1 + seed % 97u; break;
    default: chunked.seed = seed ? seed : 1u; break;
    }

    if ((bad = iptc_decode(in, len, &whole)) != NULL) die(bad, &whole, NULL);
    if ((bad = iptc_decode(in, len, &chunked)) != NULL) die(bad, &chunked, NULL);
    if (!iptc_same_log(&whole, &chunked)) die("whole and chunked decodes differ", &whole, &chunked);
    check_helpers(in, len);
    {
        cc_sched l2 = {chunked.cuts, chunked.ncuts, chunked.step, chunked.seed};
        check_layer2(data, in, len, &l2);
    }
#ifdef TDEC_FUZZ_LIBIPT
    compare_libipt(in, len, &whole);
#endif
#ifdef IPC_PRINT_HASH
    printf("log %zu %016llx status %d packets %zu gaps %zu errors %zu events %016llx %llu queries %016llx %llu\n",
           whole.log_len, (unsigned long long)whole.log_hash, (int)whole.status, whole.packets, whole.gaps,
           whole.errors, (unsigned long long)l2_evt_whole.hash, (unsigned long long)l2_evt_whole.items,
           (unsigned long long)l2_qry_whole.hash, (unsigned long long)l2_qry_whole.items);
#endif
    return 0;
}
