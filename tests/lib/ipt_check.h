/* ipt_check.h - the Intel PT oracle, for both layers of single/tdec_ipt.h.
   The packet layer (iptc_decode): decodes a buffer in a chosen chunk
   schedule, writes a canonical log of the items and checks the decoder's
   contract on the way against a small, slow reference walk of the input.
   Layer 2 (iptc_events, iptc_queries): runs the event decoder or the query
   drain over a buffer in a chosen schedule, hands every item, answer,
   error and end to the caller as a record, and checks their rules on the
   way (listed at those functions). Used by tests/unit/ipt.c,
   tests/unit/ipt_evt.c and fuzz/fuzz_ipt.c; the parts every format shares
   are in tests/lib/check_common.h. Include-only; the includer defines
   TDEC_IPT_IMPLEMENTATION first (or links the implementation) and builds
   with -I<repo root>. Prefix iptc_.

   The log has one line per event and does not depend on chunking:
     P off=.. k=<kind> sz=.. pl=<hex> aux=.. sub=.. fl=..    a packet
     G off=.. len=.. why=..                                   a gap item
     X st=.. off=.. why=..                                    an error (the
                                                              run resyncs)
     E st=.. off=.. why=.. pos=..                             the final status
   Long logs are cut at the caller's capacity; length and FNV-1a hash always
   cover the whole log, so two runs compare exactly.

   The reference walk (iptc_ref_*) is written from
   ../shared/formats/ipt/FACTS.md and libipt's
   sources (pt_packet.c, pt_packet_decoder.c, pt_sync.c), not from the
   decoder: at each packet offset it decides kind and size, or the error
   libipt returns there (-pte_eos, -pte_bad_opc, -pte_bad_packet,
   -pte_invalid), in libipt's check order; errata SKD007 and SKZ84; Linux
   perf's PEBS block context for BIP; the unknown-packet hook. Its PSB
   search is the plain definition of pt_sync_forward: the first offset p >=
   from where 8 pairs 02 82 start and no further whole pair 02 82 follows
   (pt_find_psb walks to the end of a run and steps back 16). Its resync is
   pt_pkt_sync_forward: from the failed packet (16 further if that is the
   PSB it last synchronised on), up to 15 bytes back.

   Invariants checked by iptc_decode() (the first violation ends the run
   with a message): every item is the reference's next event (offset, kind,
   size; gaps with their exact extent and reason), so offsets only go back
   right after a resync and by at most 15 bytes, gaps tile the bytes no
   packet covers, and the decoder's errors (status, err_offset, err_reason)
   are the reference's; sync_offset follows the PSBs; the hook sees at least
   min(16, bytes left) bytes equal to the input at the offset it is given;
   as in check_common.h's loop (whose helpers it uses): NEED_INPUT leaves
   nothing unread, feed() with an unread window is E_SEQUENCE and changes
   nothing, the decoder survives a memcpy to another address at every
   NEED_INPUT, reset() after a partial decode leaves no state behind (the
   sync offset as after init()); errors are sticky in next/next_n/feed/finish (err_offset fixed)
   until resync(), which is E_SEQUENCE without an error; END stays END and
   a second finish() agrees; next() never spins (items and calls bounded by
   the input's length); the carry never holds more than TDEC_CARRY_CAP
   bytes (after every item and every resync); resync() after E_TRUNCATED
   (run option) is refused with E_SEQUENCE and leaves the error as it was.

   Every run feeds its chunks from one reused buffer (the canonical loop)
   that is scribbled over at each NEED_INPUT, so a decoder that reads a
   chunk after NEED_INPUT gave the buffer back is caught; a run may also
   call finish() right after the item that used up the input (before
   NEED_INPUT), which must give the same events. The decoder bugs these
   checks found (a reused chunk read by feed(), finish() ending with
   E_TRUNCATED on carried bytes, a cut UNKNOWN's err_offset at the end of
   the input) are fixed; their inputs are in fuzz/regressions/ipt and
   tests/unit/ipt.c's regression section. */
#ifndef IPT_CHECK_H
#define IPT_CHECK_H

#include "single/tdec_ipt.h"
#include "tests/lib/check_common.h"

#define IPTC_NONE UINT64_MAX

/* ---- the deterministic unknown-packet hook -------------------------------- */

/* Hook modes. Each size depends only on the first byte, and on the second
   when the stream has one more byte: those the decoder must always show. */
enum {
    IPTC_HOOK_NONE = 0,
    IPTC_HOOK_FIRST,   /* 1 + (b0 >> 5): 1..8 bytes                             */
    IPTC_HOOK_SECOND,  /* b1: 0 rejects (0), 1 rejects (-1), 2 is too big (300),  */
                       /* 3..255 that size; 1 when b0 is the stream's last byte  */
    IPTC_HOOK_REJECT,  /* always a negative number                               */
    IPTC_HOOK_BIG,     /* 200 bytes                                              */
    IPTC_HOOK_COUNT
};

/* The size the hook returns for bytes b[0..left) (left > 0). */
CC_FN int iptc_hook_size(unsigned mode, const uint8_t *b, uint64_t left)
{
    switch (mode) {
    case IPTC_HOOK_FIRST: return 1 + (b[0] >> 5);
    case IPTC_HOOK_SECOND:
        if (left < 2) return 1;
        return b[1] == 0 ? 0 : b[1] == 1 ? -1 : b[1] == 2 ? 300 : (int)b[1];
    case IPTC_HOOK_REJECT: return -1 - (int)(b[0] & 7u);
    case IPTC_HOOK_BIG: return 200;
    default: return 0;
    }
}

typedef struct iptc_hook {
    unsigned       mode;
    const uint8_t *in;    /* the whole stream, to check what the hook is shown */
    uint64_t       len;
    unsigned long  calls;
    const char    *bad;   /* the first contract violation the hook saw         */
} iptc_hook;

CC_FN int iptc_hook_fn(void *ctx, const uint8_t *bytes, size_t avail, uint64_t offset)
{
    iptc_hook *h = (iptc_hook *)ctx;
    uint64_t left, want;
    h->calls++;
    if (offset >= h->len) {
        if (!h->bad) h->bad = "hook called at an offset beyond the input";
        return -1;
    }
    left = h->len - offset;
    want = left < 16 ? left : 16;
    if (bytes == NULL || avail < want || avail > left) {
        if (!h->bad) h->bad = "hook shown fewer than min(16, bytes left) bytes, or more than exist";
        return -1;
    }
    if (memcmp(bytes, h->in + offset, avail) != 0) {
        if (!h->bad) h->bad = "hook shown bytes that differ from the input at its offset";
        return -1;
    }
    return iptc_hook_size(h->mode, bytes, left);
}

/* ---- the reference walk ------------------------------------------------------ */

/* One packet decision at an offset. */
typedef struct iptc_rpkt {
    uint32_t err;      /* 0, or the TDEC_IPT_ERR_* libipt returns there       */
    uint8_t  kind;
    uint8_t  size;     /* the packet's size as reported                       */
    uint32_t consumed; /* bytes the decoder steps over (SKD007: 3)            */
    uint64_t item_off; /* where the item is reported (SKD007: one later)      */
    int      cut;      /* an UNKNOWN longer than the bytes left               */
    int      skd007;   /* an OVF that erratum SKD007 moved one byte on        */
} iptc_rpkt;

CC_FN int iptc__pairs(const uint8_t *in, uint64_t len, uint64_t p, unsigned n)
{
    unsigned i;
    if (len < p || len - p < 2u * n) return 0;
    for (i = 0; i < n; i++)
        if (in[p + 2 * i] != 0x02 || in[p + 2 * i + 1] != 0x82) return 0;
    return 1;
}

/* pt_sync_forward(): the first PSB at or after `from`, or IPTC_NONE. */
CC_FN uint64_t iptc_ref_sync(const uint8_t *in, uint64_t len, uint64_t from)
{
    uint64_t p;
    for (p = from; p + 16 <= len; p++)
        if (iptc__pairs(in, len, p, 8) && !iptc__pairs(in, len, p + 16, 1)) return p;
    return IPTC_NONE;
}

/* pt_sync_backward(): windows of 8 bytes below `from` aligned down to 8,
   highest first; the first that is PSB pattern in either phase leads, as
   pt_find_psb walks, to the end of its run of whole 02 82 pairs and 16
   back. IPTC_NONE if none. */
CC_FN uint64_t iptc_ref_backward(const uint8_t *in, uint64_t len, uint64_t from)
{
    uint64_t w = from & ~(uint64_t)7, q;
    while (w >= 8) {
        w -= 8;
        if (!iptc__pairs(in, len, w, 4) && !(in[w] == 0x82 && iptc__pairs(in, len, w + 1, 3) && in[w + 7] == 0x02))
            continue;
        q = in[w] == 0x02 ? w : w + 1;
        while (iptc__pairs(in, len, q, 1)) q += 2;
        if (q >= 16 && iptc__pairs(in, len, q - 16, 8)) return q - 16;
    }
    return IPTC_NONE;
}

CC_FN uint64_t iptc__le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* The packet at in[off] (off < len). pebs_ctx: 0, or 4/8 inside a PEBS
   block. Written as a table walk over FACTS.md section 1 and 2. */
CC_FN iptc_rpkt iptc_ref_packet(const uint8_t *in, uint64_t len, uint64_t off, uint32_t flags,
                                 uint32_t errata, unsigned hook, unsigned pebs_ctx)
{
    iptc_rpkt r;
    const uint8_t *p = in + off;
    uint64_t left = len - off;
    unsigned need = 0, kind = 0, b0 = p[0], b1;
    memset(&r, 0, sizeof r);
    r.item_off = off;

#define IPTC__SIZE(k, n) do { kind = (k); need = (n); goto sized; } while (0)
#define IPTC__BAD(e) do { r.err = (e); return r; } while (0)
#define IPTC__HAVE(n) do { if (left < (n)) IPTC__BAD(TDEC_IPT_ERR_EOS); } while (0)
    /* Linux perf: inside a block xxxxx100 is a BIP with the block's size. */
    if ((flags & TDEC_IPT_F_PEBS) && pebs_ctx && (b0 & 7u) == 4u) IPTC__SIZE(TDEC_IPT_BIP, 1 + pebs_ctx);
    if (b0 == 0x00) IPTC__SIZE(TDEC_IPT_PAD, 1);
    if (b0 == 0x19) IPTC__SIZE(TDEC_IPT_TSC, 8);
    if (b0 == 0x59) IPTC__SIZE(TDEC_IPT_MTC, 2);
    if (b0 == 0x99) { /* pt_pkt_read_mode: size first, then the leaf */
        IPTC__HAVE(2);
        if ((p[1] >> 5) > 1) IPTC__BAD(TDEC_IPT_ERR_BAD_PACKET);
        IPTC__SIZE((p[1] >> 5) ? TDEC_IPT_MODE_TSX : TDEC_IPT_MODE_EXEC, 2);
    }
    if (b0 == 0xd9) { /* pt_pkt_read_trig: 3 bytes, 5 with ICNTV */
        IPTC__HAVE(3);
        IPTC__SIZE(TDEC_IPT_TRIG, (p[1] & 0x40) ? 5 : 3);
    }
    if (b0 == 0x02) {
        IPTC__HAVE(2);
        b1 = p[1];
        switch (b1) {
        case 0x82: /* pt_pkt_read_psb: the size, then every pair */
            IPTC__HAVE(16);
            if (!iptc__pairs(in, len, off, 8)) IPTC__BAD(TDEC_IPT_ERR_BAD_PACKET);
            IPTC__SIZE(TDEC_IPT_PSB, 16);
        case 0xf3: IPTC__SIZE(TDEC_IPT_OVF, 2);
        case 0x23: IPTC__SIZE(TDEC_IPT_PSBEND, 2);
        case 0x83: IPTC__SIZE(TDEC_IPT_STOP, 2);
        case 0x62: case 0xe2: IPTC__SIZE(TDEC_IPT_EXSTOP, 2);
        case 0xa3: /* pt_pkt_read_tnt_64: no stop bit above bit 0 -> bad */
            IPTC__HAVE(8);
            if (iptc__le(p + 2, 6) < 2) IPTC__BAD(TDEC_IPT_ERR_BAD_PACKET);
            IPTC__SIZE(TDEC_IPT_TNT_64, 8);
        case 0x43: IPTC__SIZE(TDEC_IPT_PIP, 8);
        case 0x03: IPTC__SIZE(TDEC_IPT_CBR, 4);
        case 0x73: /* pt_pkt_read_tma; pt_pkt_decode_tma for SKZ84 */
            IPTC__HAVE(7);
            if (p[4] != 0 || (p[6] & 0xfe) != 0) {
                if (!(errata & TDEC_IPT_ERRATUM_SKZ84)) IPTC__BAD(TDEC_IPT_ERR_BAD_PACKET);
                /* libipt returns the 8 bytes without looking for the 8th;
                   a stream decoder cannot report bytes it does not have */
                IPTC__SIZE(TDEC_IPT_INVALID, 8);
            }
            IPTC__SIZE(TDEC_IPT_TMA, 7);
        case 0xc8: IPTC__SIZE(TDEC_IPT_VMCS, 7);
        case 0xc3:
            IPTC__HAVE(3);
            if (p[2] == 0x88) IPTC__SIZE(TDEC_IPT_MNT, 11);
            goto unknown;
        case 0xc2: IPTC__SIZE(TDEC_IPT_MWAIT, 10);
        case 0x22: IPTC__SIZE(TDEC_IPT_PWRE, 4);
        case 0xa2: IPTC__SIZE(TDEC_IPT_PWRX, 7);
        case 0x13: IPTC__SIZE(TDEC_IPT_CFE, 4);
        case 0x53: IPTC__SIZE(TDEC_IPT_EVD, 11);
        case 0x63:
            if (flags & TDEC_IPT_F_PEBS) IPTC__SIZE(TDEC_IPT_BBP, 3);
            goto unknown;
        case 0x33: case 0xb3:
            if (flags & TDEC_IPT_F_PEBS) IPTC__SIZE(TDEC_IPT_BEP, 2);
            goto unknown;
        default:
            if ((b1 & 0x1f) == 0x12) { /* PTW: the payload code before the size */
                if (b1 & 0x40) IPTC__BAD(TDEC_IPT_ERR_BAD_PACKET);
                IPTC__SIZE(TDEC_IPT_PTW, (b1 & 0x20) ? 10 : 6);
            }
            goto unknown;
        }
    }
    if ((b0 & 3u) == 3u) { /* CYC: pt_pkt_read_cyc */
        unsigned n = 1, more = b0 & 4u;
        while (more) {
            IPTC__HAVE(n + 1u);
            more = p[n] & 1u;
            n++;
            if (n > 9) IPTC__BAD(TDEC_IPT_ERR_BAD_PACKET); /* shl > 64 */
        }
        /* pt_pkt_handle_skd007: a 2-byte CYC with payload 0x20..0x3f (second
           byte 0x02) followed by 0xf3 is an OVF one byte on; at the end of
           the buffer it stays a CYC. */
        if ((errata & TDEC_IPT_ERRATUM_SKD007) && n == 2 && p[1] == 0x02 && left > 2 && p[2] == 0xf3) {
            r.kind = TDEC_IPT_OVF;
            r.size = 2;
            r.skd007 = 1;
            r.consumed = 3;
            r.item_off = off + 1;
            return r;
        }
        IPTC__SIZE(TDEC_IPT_CYC, n);
    }
    if ((b0 & 1u) == 0) IPTC__SIZE(TDEC_IPT_TNT_8, 1); /* b0 >> 1 >= 2: a stop bit and a branch */
    {
        static const int ipb[8] = {0, 2, 4, 6, 6, -1, 8, -1};
        unsigned low = b0 & 0x1fu;
        if (low == 0x1d || low == 0x0d || low == 0x11 || low == 0x01) {
            int n = ipb[b0 >> 5];
            if (n < 0) IPTC__BAD(TDEC_IPT_ERR_BAD_PACKET); /* pt_pkt_ip_size before the size check */
            IPTC__SIZE(low == 0x1d ? TDEC_IPT_FUP : low == 0x0d ? TDEC_IPT_TIP
                       : low == 0x11 ? TDEC_IPT_TIP_PGE : TDEC_IPT_TIP_PGD, 1u + (unsigned)n);
        }
    }
unknown: /* pt_pkt_read_unknown */
    if (hook == IPTC_HOOK_NONE) IPTC__BAD(TDEC_IPT_ERR_BAD_OPC);
    {
        int n = iptc_hook_size(hook, p, left);
        if (n <= 0) IPTC__BAD(TDEC_IPT_ERR_BAD_OPC);
        if (n > 255) IPTC__BAD(TDEC_IPT_ERR_INVALID);
        r.kind = TDEC_IPT_UNKNOWN;
        r.size = (uint8_t)n;
        r.consumed = (uint32_t)n;
        r.cut = (uint64_t)n > left;
        return r;
    }
sized:
    IPTC__HAVE(need);
    r.kind = (uint8_t)kind;
    r.size = (uint8_t)need;
    r.consumed = need;
    return r;
#undef IPTC__SIZE
#undef IPTC__BAD
#undef IPTC__HAVE
}

/* Packets after which a PEBS block is over (Linux perf's
   intel_pt_upd_pkt_ctx: everything but PAD, TSC, TMA, MTC, FUP, CYC, CBR,
   MNT, EXSTOP, PWRE, PWRX, BIP; TRIG, UNKNOWN and INVALID keep it too). */
CC_FN int iptc_ends_block(unsigned k)
{
    switch (k) {
    case TDEC_IPT_PAD: case TDEC_IPT_TSC: case TDEC_IPT_TMA: case TDEC_IPT_MTC: case TDEC_IPT_FUP:
    case TDEC_IPT_CYC: case TDEC_IPT_CBR: case TDEC_IPT_MNT: case TDEC_IPT_EXSTOP: case TDEC_IPT_PWRE:
    case TDEC_IPT_PWRX: case TDEC_IPT_BIP: case TDEC_IPT_BBP: case TDEC_IPT_TRIG: case TDEC_IPT_UNKNOWN:
    case TDEC_IPT_INVALID:
        return 0;
    default:
        return 1;
    }
}

/* An event: what a decode produces, in order. */
enum { IPTC_EV_PACKET = 1, IPTC_EV_GAP, IPTC_EV_ERROR, IPTC_EV_END };

typedef struct iptc_ev {
    uint32_t        what;   /* IPTC_EV_*                                   */
    int             st;     /* ERROR, END: the status                      */
    uint64_t        offset; /* item offset, or err_offset                  */
    uint64_t        len;    /* GAP                                         */
    uint32_t        reason; /* GAP reason, or err_reason                   */
    tdec_ipt_packet pkt;    /* PACKET                                      */
} iptc_ev;

enum { IPTC_R_SYNC, IPTC_R_PACKETS, IPTC_R_CUT, IPTC_R_DONE };

typedef struct iptc_ref {
    const uint8_t *in;
    uint64_t       len;
    uint32_t       flags, errata;
    unsigned       hook;
    int            phase;
    uint64_t       at;            /* PACKETS: the next packet's offset       */
    uint64_t       mark, psb;     /* SYNC: where the gap starts, the PSB     */
    uint32_t       gap_reason;
    int            gap_done;
    uint64_t       last_sync;     /* offset of the last PSB, or IPTC_NONE    */
    uint64_t       cut_off;       /* CUT: err_offset of the E_TRUNCATED      */
    unsigned       pebs_ctx;
} iptc_ref;

CC_FN void iptc__ref_search(iptc_ref *R, uint64_t from, uint64_t mark, uint32_t reason)
{
    R->phase = IPTC_R_SYNC;
    R->psb = iptc_ref_sync(R->in, R->len, from);
    R->mark = mark;
    R->gap_reason = reason;
    R->gap_done = 0;
    R->pebs_ctx = 0;
}

CC_FN void iptc_ref_init(iptc_ref *R, const uint8_t *in, size_t len, const tdec_ipt_config *cfg,
                          unsigned hook)
{
    memset(R, 0, sizeof *R);
    R->in = in;
    R->len = len;
    R->flags = cfg->flags;
    R->errata = cfg->errata;
    R->hook = hook;
    if (cfg->flags & TDEC_IPT_F_NO_SYNC) {
        R->phase = IPTC_R_PACKETS;
        R->at = 0;
        R->last_sync = 0; /* ptdump --no-sync: pt_pkt_sync_set(0) */
    } else {
        R->last_sync = IPTC_NONE;
        iptc__ref_search(R, 0, 0, TDEC_IPT_GAP_SYNC);
    }
}

/* The next event the decoder must produce. */
CC_FN iptc_ev iptc_ref_next(iptc_ref *R)
{
    iptc_ev e;
    iptc_rpkt k;
    memset(&e, 0, sizeof e);
    switch (R->phase) {
    case IPTC_R_SYNC:
        if (!R->gap_done) {
            uint64_t end = R->psb == IPTC_NONE ? R->len : R->psb;
            R->gap_done = 1;
            if (end > R->mark) {
                e.what = IPTC_EV_GAP;
                e.offset = R->mark;
                e.len = end - R->mark;
                e.reason = R->gap_reason;
                return e;
            }
        }
        if (R->psb == IPTC_NONE) {
            R->phase = IPTC_R_DONE;
            e.what = IPTC_EV_END;
            e.st = TDEC_END;
            return e;
        }
        e.what = IPTC_EV_PACKET;
        e.offset = R->psb;
        e.pkt.kind = TDEC_IPT_PSB;
        e.pkt.size = 16;
        R->last_sync = R->psb;
        R->at = R->psb + 16;
        R->phase = IPTC_R_PACKETS;
        return e;
    case IPTC_R_PACKETS:
        if (R->at >= R->len) {
            R->phase = IPTC_R_DONE;
            e.what = IPTC_EV_END;
            e.st = TDEC_END;
            return e;
        }
        k = iptc_ref_packet(R->in, R->len, R->at, R->flags, R->errata, R->hook, R->pebs_ctx);
        if (k.err != 0) {
            e.what = IPTC_EV_ERROR;
            e.st = k.err == TDEC_IPT_ERR_EOS ? TDEC_E_TRUNCATED : TDEC_E_CORRUPT;
            e.offset = R->at;
            e.reason = k.err;
            R->phase = IPTC_R_DONE;
            return e;
        }
        e.what = IPTC_EV_PACKET;
        e.offset = k.item_off;
        e.pkt.kind = k.kind;
        e.pkt.size = k.size;
        e.pkt.flags = k.skd007 ? (uint8_t)TDEC_IPT_PF_SKD007 : 0u;
        if (k.kind == TDEC_IPT_PSB) R->last_sync = R->at;
        if (k.kind == TDEC_IPT_BBP) R->pebs_ctx = (R->in[R->at + 2] & 0x80) ? 4u : 8u;
        else if (iptc_ends_block(k.kind)) R->pebs_ctx = 0;
        if (k.cut) {
            R->phase = IPTC_R_CUT;
            R->cut_off = R->at;
        }
        R->at += k.consumed;
        return e;
    case IPTC_R_CUT:
        R->phase = IPTC_R_DONE;
        e.what = IPTC_EV_ERROR;
        e.st = TDEC_E_TRUNCATED;
        e.offset = R->cut_off; /* the cut packet, not the end of the input */
        e.reason = TDEC_IPT_ERR_EOS;
        return e;
    default:
        e.what = IPTC_EV_END;
        e.st = TDEC_END;
        return e;
    }
}

/* resync() after the error at err_off: pt_pkt_sync_forward. */
CC_FN void iptc_ref_resync(iptc_ref *R, uint64_t err_off)
{
    uint64_t from = err_off;
    if (from == R->last_sync) from += 16;
    from -= from < 15 ? from : 15;
    iptc__ref_search(R, from, err_off, TDEC_IPT_GAP_RESYNC);
}

/* ---- the run --------------------------------------------------------------- */

typedef struct iptc_run {
    cc_run          cc;           /* schedule, log and outcome (check_common.h);   */
                                  /* its chunks come from one reused buffer         */
    /* in: config (cfg.unknown and unknown_ctx are set from `hook`) */
    tdec_ipt_config cfg;
    unsigned        hook;         /* IPTC_HOOK_*                                 */
    int             resync;       /* resync() after E_CORRUPT (else stop there)   */
    int             resync_trunc; /* ... and try it after E_TRUNCATED (refused)   */
    unsigned        next_n;       /* 0: next(); else next_n() with this cap       */
    iptc_ev        *evs;          /* may be NULL: the events, in order             */
    size_t          ev_cap;
    /* out */
    size_t          nev;          /* events (even past ev_cap)                     */
    size_t          packets, gaps, errors;
    unsigned long   hook_calls;
} iptc_run;

/* One event as text (also the log line). */
CC_FN void iptc_ev_str(char *s, size_t cap, const iptc_ev *e)
{
    switch (e->what) {
    case IPTC_EV_PACKET:
        snprintf(s, cap, "P off=%llu k=%s sz=%u pl=%llx aux=%lu sub=%u fl=%u\n", (unsigned long long)e->offset,
                 tdec_ipt_kind_str(e->pkt.kind), (unsigned)e->pkt.size, (unsigned long long)e->pkt.payload,
                 (unsigned long)e->pkt.aux, (unsigned)e->pkt.sub, (unsigned)e->pkt.flags);
        break;
    case IPTC_EV_GAP:
        snprintf(s, cap, "G off=%llu len=%llu why=%u\n", (unsigned long long)e->offset, (unsigned long long)e->len,
                 (unsigned)e->reason);
        break;
    case IPTC_EV_ERROR:
        snprintf(s, cap, "X st=%d off=%llu why=%u\n", e->st, (unsigned long long)e->offset, (unsigned)e->reason);
        break;
    default:
        snprintf(s, cap, "E st=%d\n", e->st);
        break;
    }
}

CC_FN void iptc__push(iptc_run *r, const iptc_ev *e)
{
    if (r->evs && r->nev < r->ev_cap) r->evs[r->nev] = *e;
    r->nev++;
}

/* Checks an item against the reference's next event; logs it. */
CC_FN const char *iptc__item(iptc_run *r, iptc_ref *R, const tdec_ipt_decoder *d, const tdec_ipt_item *it,
                              uint64_t *last_off, int *after_resync, int settled)
{
    iptc_ev e, want;
    char got_s[200], want_s[200];
    memset(&e, 0, sizeof e);
    e.offset = it->offset;
    if (it->kind == TDEC_ITEM_RECORD) {
        e.what = IPTC_EV_PACKET;
        e.pkt = it->u.pkt;
        r->packets++;
    } else if (it->kind == TDEC_ITEM_GAP) {
        e.what = IPTC_EV_GAP;
        e.len = it->u.gap.len;
        e.reason = it->u.gap.reason;
        r->gaps++;
    } else {
        return cc_fail(&r->cc, "item of kind %u at %llu", (unsigned)it->kind, (unsigned long long)it->offset);
    }
    /* offsets: in stream order, except a PSB found behind a failed packet */
    if (it->offset < *last_off && !(*after_resync && *last_off - it->offset <= 15 && e.what == IPTC_EV_PACKET &&
                                    e.pkt.kind == TDEC_IPT_PSB))
        return cc_fail(&r->cc, "item at %llu after one at %llu", (unsigned long long)it->offset,
                          (unsigned long long)*last_off);
    *after_resync = 0;
    iptc_ev_str(got_s, sizeof got_s, &e);
    want = iptc_ref_next(R);
    if (want.what == IPTC_EV_PACKET && e.what == IPTC_EV_PACKET) {
        if (want.offset != e.offset || want.pkt.kind != e.pkt.kind || want.pkt.size != e.pkt.size) {
            iptc_ev_str(want_s, sizeof want_s, &want);
            return cc_fail(&r->cc, "packet differs from the reference walk:\n  decoder   %s  reference %s", got_s,
                              want_s);
        }
        if (e.pkt.kind == TDEC_IPT_OVF && (e.pkt.flags & TDEC_IPT_PF_SKD007) != (want.pkt.flags & TDEC_IPT_PF_SKD007))
            return cc_fail(&r->cc, "OVF at %llu: SKD007 flag %u, the reference says %u", (unsigned long long)e.offset,
                              (unsigned)(e.pkt.flags & TDEC_IPT_PF_SKD007),
                              (unsigned)(want.pkt.flags & TDEC_IPT_PF_SKD007));
        if (e.pkt.kind == TDEC_IPT_PSB && settled && d->sync_offset != e.offset)
            return cc_fail(&r->cc, "sync_offset %llu after the PSB at %llu", (unsigned long long)d->sync_offset,
                              (unsigned long long)e.offset);
        if (e.pkt.kind >= TDEC_IPT_KIND_COUNT || tdec_ipt_kind_str(e.pkt.kind)[0] == 0)
            return cc_fail(&r->cc, "packet kind %u has no name", (unsigned)e.pkt.kind);
    } else if (want.what != e.what || want.offset != e.offset || want.len != e.len || want.reason != e.reason) {
        iptc_ev_str(want_s, sizeof want_s, &want);
        return cc_fail(&r->cc, "item differs from the reference walk:\n  decoder   %s  reference %s", got_s, want_s);
    }
    if (e.what == IPTC_EV_PACKET) *last_off = e.offset;
    else *last_off = e.offset + e.len;
    iptc__push(r, &e);
    cc_close_pay(&r->cc);
    cc_put(&r->cc, got_s, strlen(got_s));
    return NULL;
}

/* An error (or the final status) against the reference. */
CC_FN const char *iptc__status(iptc_run *r, iptc_ref *R, const tdec_ipt_decoder *d, tdec_status st, int final)
{
    iptc_ev e, want;
    char got_s[200], want_s[200];
    memset(&e, 0, sizeof e);
    e.what = st == TDEC_END ? IPTC_EV_END : IPTC_EV_ERROR;
    e.st = st;
    if (st != TDEC_END) {
        e.offset = d->st.err_offset;
        e.reason = d->st.err_reason;
    }
    want = iptc_ref_next(R);
    iptc_ev_str(got_s, sizeof got_s, &e);
    iptc_ev_str(want_s, sizeof want_s, &want);
    if (want.what != e.what || want.st != e.st || want.offset != e.offset || want.reason != e.reason)
        return cc_fail(&r->cc, "%s differs from the reference walk:\n  decoder   %s  reference %s",
                          st == TDEC_END ? "the end" : "an error", got_s, want_s);
    if (st != TDEC_END && d->st.err != st) return cc_fail(&r->cc, "status %d but st.err %d", st, d->st.err);
    if (st != TDEC_END && d->st.err_offset > R->len) return cc_fail(&r->cc, "err_offset beyond the input");
    if (st != TDEC_END && tdec_ipt_reason_str((uint32_t)e.reason)[0] == 0)
        return cc_fail(&r->cc, "err_reason %u has no text", (unsigned)e.reason);
    iptc__push(r, &e);
    if (!final) {
        r->errors++;
        cc_line(&r->cc, "X st=%d off=%llu why=%u\n", st, (unsigned long long)e.offset, (unsigned)e.reason);
    }
    return NULL;
}

/* The error must be sticky in every call but resync(). */
CC_FN const char *iptc__sticky(iptc_run *r, tdec_ipt_decoder *d, tdec_status st)
{
    static const uint8_t one = 0;
    tdec_ipt_item it, many[2];
    tdec_status s;
    size_t n = 7;
    uint64_t eo = d->st.err_offset;
    uint32_t why = d->st.err_reason;
    if ((s = tdec_ipt_next(d, &it)) != st) return cc_fail(&r->cc, "error %d not sticky in next: %d", st, s);
    if ((s = tdec_ipt_next_n(d, many, 2, &n)) != st || n != 0)
        return cc_fail(&r->cc, "error %d not sticky in next_n: %d (%zu items)", st, s, n);
    if ((s = tdec_ipt_feed(d, &one, 1)) != st) return cc_fail(&r->cc, "error %d not sticky in feed: %d", st, s);
    if ((s = tdec_ipt_finish(d)) != st) return cc_fail(&r->cc, "error %d not sticky in finish: %d", st, s);
    if ((s = tdec_ipt_next(d, &it)) != st) return cc_fail(&r->cc, "error %d not sticky in next (2): %d", st, s);
    if (d->st.err_offset != eo || d->st.err_reason != why) return cc_fail(&r->cc, "err_offset moved after the error");
    return NULL;
}

/* After reset(): the sync offset as after init(). */
CC_FN int iptc__fresh(const cc_run *c, const void *dv)
{
    const iptc_run *r = (const iptc_run *)c;
    return ((const tdec_ipt_decoder *)dv)->sync_offset == ((r->cfg.flags & TDEC_IPT_F_NO_SYNC) ? 0 : UINT64_MAX);
}

CC_STREAM_CALLS(iptc__, tdec_ipt_)

/* The stream calls, for check_common.h's warm reset, moves and refused
   feed(); the loop below is the packet layer's own (next_n() batches,
   resync(), the reference walk at every error). */
static const cc_format iptc__format = {sizeof(tdec_ipt_decoder), sizeof(tdec_ipt_item), 2, iptc__next, iptc__feed,
                                       iptc__finish, iptc__reset, iptc__stream, NULL, NULL, iptc__fresh};

/* Decodes in[0..len) with the config and schedule of the iptc_run that c
   starts; fills its outputs. Returns NULL, or a description of the first
   broken invariant. */
CC_FN const char *iptc_decode(const uint8_t *in, size_t len, cc_run *c)
{
    static const uint8_t dummy = 0x00;
    static tdec_ipt_decoder slots[2], saved;
    static tdec_ipt_item batch[64];
    iptc_run *r = (iptc_run *)c;
    tdec_ipt_decoder *d = &slots[0];
    tdec_ipt_item it;
    tdec_status st, s, pending = TDEC_OK;
    size_t nb = 0, bi = 0, chunks = 0;
    uint64_t last_off = 0, calls = 0, err_off;
    int after_resync = 0, finished = 0, final_checked = 0;
    cc_feed f;
    iptc_ref R;
    iptc_hook hk;
    const char *bad = NULL;

    cc_begin(c);
    r->packets = r->gaps = r->errors = 0;
    r->nev = 0;
    r->hook_calls = 0;
    memset(&hk, 0, sizeof hk);
    hk.mode = r->hook;
    hk.in = in;
    hk.len = len;
    r->cfg.unknown = r->hook != IPTC_HOOK_NONE ? iptc_hook_fn : NULL;
    r->cfg.unknown_ctx = &hk;
    /* the canonical loop: every chunk from one reused buffer */
    if (!cc_feed_init(&f, in, len, &c->sched, CC_FEED_REUSED)) return cc_fail(c, "out of memory");

    st = tdec_ipt_init(d, &r->cfg);
    if (st != TDEC_NEED_INPUT) bad = cc_fail(c, "init gave %d", st);
    if (!bad && c->reset_first) bad = cc__warm_reset(c, &iptc__format, d, &it, in, len);
    if (!bad && hk.bad) bad = cc_fail(c, "%s", hk.bad);
    iptc_ref_init(&R, in, len, &r->cfg, r->hook);
    hk.calls = 0;
    while (bad == NULL) {
        int settled; /* the decoder's state is the one after `it` */
        if (++calls > 4u * (uint64_t)len + 8u * chunks + 32u * r->errors + 64u) {
            bad = cc_fail(c, "next() spins: %llu calls for %zu bytes", (unsigned long long)calls, len);
            break;
        }
        /* the next item or status: from next(), or from next_n()'s batch */
        if (bi < nb) {
            it = batch[bi++];
            st = TDEC_OK;
        } else if (pending != TDEC_OK) {
            st = pending;
            pending = TDEC_OK;
        } else if (r->next_n) {
            size_t cap = r->next_n < 64 ? r->next_n : 64;
            nb = 7777;
            bi = 0;
            s = tdec_ipt_next_n(d, batch, cap, &nb);
            if (nb > cap) { bad = cc_fail(c, "next_n gave %zu items for cap %zu", nb, cap); break; }
            if (s == TDEC_OK && nb != cap) { bad = cc_fail(c, "next_n gave OK with %zu of %zu", nb, cap); break; }
            pending = s;
            if (nb > 0) {
                it = batch[bi++];
                st = TDEC_OK;
            } else {
                st = pending;
                pending = TDEC_OK;
            }
        } else {
            st = tdec_ipt_next(d, &it);
        }
        settled = bi == nb && pending == TDEC_OK;
        if (hk.bad) { bad = cc_fail(c, "%s", hk.bad); break; }
        if (st == TDEC_OK) {
            if (++c->items > 2u * (uint64_t)len + 2u * r->errors + 4u) {
                bad = cc_fail(c, "more items than input bytes");
                break;
            }
            if ((bad = iptc__item(r, &R, d, &it, &last_off, &after_resync, settled)) != NULL) break;
            if (d->st.carry_len > TDEC_CARRY_CAP) {
                bad = cc_fail(c, "carry of %u bytes", (unsigned)d->st.carry_len);
                break;
            }
            if (settled && d->st.win_len > 0 && (bad = cc__feed_refused(c, &iptc__format, d, &saved)) != NULL) break;
            if (c->finish_early && settled && !finished && f.fed == len && d->st.win_len == 0) {
                st = tdec_ipt_finish(d); /* allowed: the window is used up */
                if (st != TDEC_NEED_INPUT) goto status;
                finished = 1;
            }
            continue;
        }
        nb = bi = 0;
    status:
        /* NEED_INPUT: feed the next chunk, or finish() */
        while (st == TDEC_NEED_INPUT && bad == NULL) {
            if ((bad = cc__need_input(c, &d->st, f.fed)) != NULL) break;
            if (finished) { bad = cc_fail(c, "NEED_INPUT after finish()"); break; }
            d = (tdec_ipt_decoder *)cc__move(&iptc__format, slots, d); /* memcpy-able: no pointer into itself */
            if (cc_feed_next(&f) == NULL) {
                st = tdec_ipt_finish(d);
                if (st == TDEC_OK) { bad = cc_fail(c, "finish gave OK"); break; }
                if (st != TDEC_NEED_INPUT) break;
                /* a search ends here: next() drains it */
                finished = 1;
                if ((s = tdec_ipt_finish(d)) != TDEC_NEED_INPUT) {
                    bad = cc_fail(c, "second finish while draining gave %d", s);
                    break;
                }
                if ((s = tdec_ipt_feed(d, &dummy, 1)) != TDEC_E_SEQUENCE) {
                    bad = cc_fail(c, "feed after finish gave %d", s);
                    break;
                }
                st = TDEC_OK; /* back to next() */
                break;
            }
            st = tdec_ipt_feed(d, f.chunk_len ? f.chunk : NULL, f.chunk_len);
            if (st != TDEC_NEED_INPUT) { bad = cc_fail(c, "feed after NEED_INPUT gave %d", st); break; }
            chunks++;
            st = TDEC_OK; /* back to next() */
            break;
        }
        if (bad) break;
        if (st == TDEC_OK) continue;
        if (st == TDEC_E_CORRUPT || st == TDEC_E_TRUNCATED) {
            if ((bad = iptc__status(r, &R, d, st, 0)) != NULL) break;
            final_checked = 1;
            if ((bad = iptc__sticky(r, d, st)) != NULL) break;
            if (!r->resync || (st == TDEC_E_TRUNCATED && !r->resync_trunc)) break;
            if (st == TDEC_E_TRUNCATED) { /* nothing to resync after the end: refused, nothing changed */
                memcpy(&saved, d, sizeof *d);
                s = tdec_ipt_resync(d);
                if (s != TDEC_E_SEQUENCE || memcmp(&saved, d, sizeof *d) != 0)
                    bad = cc_fail(c, "resync after E_TRUNCATED gave %d or changed the decoder", s);
                break;
            }
            err_off = d->st.err_offset;
            st = tdec_ipt_resync(d);
            if (st != TDEC_NEED_INPUT) { bad = cc_fail(c, "resync gave %d", st); break; }
            if (d->st.carry_len > TDEC_CARRY_CAP) {
                bad = cc_fail(c, "resync overflowed the carry: %u bytes", (unsigned)d->st.carry_len);
                break;
            }
            iptc_ref_resync(&R, err_off);
            if (d->st.err != TDEC_OK) { bad = cc_fail(c, "resync left the error"); break; }
            if ((s = tdec_ipt_resync(d)) != TDEC_E_SEQUENCE) {
                bad = cc_fail(c, "resync without an error gave %d", s);
                break;
            }
            final_checked = 0;
            after_resync = 1;
            last_off = err_off; /* a PSB up to 15 bytes before it may come */
            continue;
        }
        break; /* END, or a misuse status */
    }
    r->hook_calls = hk.calls;
    c->status = st;
    c->err_offset = st < 0 ? d->st.err_offset : 0;
    c->err_reason = st < 0 ? d->st.err_reason : 0;
    cc_feed_free(&f);
    if (bad) return bad;
    if (st == TDEC_E_ARG || st == TDEC_E_SEQUENCE) return cc_fail(c, "loop ended in misuse status %d", st);
    if (!final_checked && (bad = iptc__status(r, &R, d, st, 1)) != NULL) return bad;
    cc_line(c, "E st=%d off=%llu why=%u pos=%llu\n", st, (unsigned long long)(st == TDEC_END ? 0 : d->st.err_offset),
            (unsigned)(st == TDEC_END ? 0 : d->st.err_reason), (unsigned long long)d->st.pos);
    if (st == TDEC_END) {
        if (d->st.pos != len) return cc_fail(c, "END at pos %llu of %zu", (unsigned long long)d->st.pos, len);
        if ((bad = cc_final(c, &iptc__format, d)) != NULL) return bad;
        if ((s = tdec_ipt_resync(d)) != TDEC_E_SEQUENCE) return cc_fail(c, "resync after END gave %d", s);
        if ((s = tdec_ipt_next(d, &it)) != TDEC_END) return cc_fail(c, "next after END (2) gave %d", s);
    }
    return NULL;
}

/* ---- every prefix ---------------------------------------------------------------- */

/* Checks a prefix decode P (its events, of the first L bytes) against the
   full decode F: every packet of P is F's packet at that offset (same
   fields), except a PSB whose run of 02 82 pairs the cut shortened (the
   PSB is the run's last 16 bytes: pt_find_psb) and, under SKD007, a 2-byte
   CYC cut right before the 0xf3 that makes it an OVF in F
   (pt_pkt_handle_skd007 needs the byte); every error of P is F's; P ends
   in END, or in E_TRUNCATED at the start of a packet (or error) of F that
   the cut splits, or at the cut pair right after such a shortened PSB.
   NULL, or what is wrong. */
CC_FN const char *iptc_prefix_rule(const iptc_ev *F, size_t nf, const iptc_ev *P, size_t np, uint64_t L,
                                   const uint8_t *in)
{
    static char msg[300];
    size_t i, j;
    for (i = 0; i < np; i++) {
        const iptc_ev *p = &P[i];
        int ok = 0;
        if (p->what == IPTC_EV_GAP) continue;
        if (p->what == IPTC_EV_END) {
            if (i + 1 == np) continue;
            return "END before the last event";
        }
        for (j = 0; j < nf && !ok; j++) {
            const iptc_ev *f = &F[j];
            if (p->what == IPTC_EV_PACKET && f->what == IPTC_EV_PACKET && f->offset == p->offset)
                ok = memcmp(&f->pkt, &p->pkt, sizeof f->pkt) == 0 ||
                     (f->pkt.kind == TDEC_IPT_PSB && p->pkt.kind == TDEC_IPT_PSB);
            if (p->what == IPTC_EV_ERROR && p->st == TDEC_E_CORRUPT && f->what == IPTC_EV_ERROR && f->st == p->st &&
                f->offset == p->offset && f->reason == p->reason)
                ok = 1;
            if (p->what == IPTC_EV_ERROR && p->st == TDEC_E_TRUNCATED && i + 1 == np &&
                (f->what == IPTC_EV_PACKET || f->what == IPTC_EV_ERROR)) {
                uint64_t start = f->offset - ((f->what == IPTC_EV_PACKET && (f->pkt.flags & TDEC_IPT_PF_SKD007)) ? 1u : 0u);
                ok = start == p->offset && p->offset < L;
            }
        }
        if (!ok && p->what == IPTC_EV_PACKET && p->pkt.kind == TDEC_IPT_PSB) {
            /* a run cut by L: no whole pair after the PSB in P, but in F */
            ok = p->offset + 16 <= L && p->offset + 18 > L && iptc__pairs(in, L + 2, p->offset + 16, 1);
        }
        if (!ok && p->what == IPTC_EV_ERROR && p->st == TDEC_E_TRUNCATED && i + 1 == np && i > 0) {
            /* right after a PSB of a run the cut shortened: the run's cut pair */
            const iptc_ev *q = &P[i - 1];
            ok = q->what == IPTC_EV_PACKET && q->pkt.kind == TDEC_IPT_PSB && q->offset + 16 == p->offset &&
                 p->offset + 1 == L && in[p->offset] == 0x02;
        }
        if (!ok && p->what == IPTC_EV_PACKET && p->pkt.kind == TDEC_IPT_CYC && p->pkt.size == 2 && p->offset + 2 == L) {
            for (j = 0; j < nf && !ok; j++)
                ok = F[j].what == IPTC_EV_PACKET && F[j].offset == p->offset + 1 && (F[j].pkt.flags & TDEC_IPT_PF_SKD007);
        }
        if (!ok) {
            char s[200];
            iptc_ev_str(s, sizeof s, p);
            s[strcspn(s, "\n")] = 0;
            snprintf(msg, sizeof msg, "%s is not in the full decode", s);
            return msg;
        }
    }
    return NULL;
}

/* Every prefix of in at lengths 0, stride, 2 * stride ... (counted in
   *runs), decoded with p (F's config, a random schedule of seed L + 1, its
   events kept): it ends in END or E_TRUNCATED (without resync, also in
   E_CORRUPT), its events as iptc_prefix_rule says against F's (the whole
   decode, its events kept). NULL, or the first failure (in p). */
CC_FN const char *iptc_prefixes(const iptc_run *F, iptc_run *p, const uint8_t *in, size_t len, size_t stride,
                                size_t *runs)
{
    size_t L, nf = F->nev < F->ev_cap ? F->nev : F->ev_cap;
    const char *bad;
    for (L = 0; L <= len; L += stride) {
        memset(&p->cc.sched, 0, sizeof p->cc.sched);
        p->cc.sched.seed = (uint32_t)L + 1u;
        bad = iptc_decode(in, L, &p->cc);
        (*runs)++;
        if (!bad) bad = iptc_prefix_rule(F->evs, nf, p->evs, p->nev < p->ev_cap ? p->nev : p->ev_cap, L, in);
        if (!bad && p->cc.status != TDEC_END && p->cc.status != TDEC_E_TRUNCATED &&
            (p->resync || p->cc.status != TDEC_E_CORRUPT))
            bad = "ends in neither END nor E_TRUNCATED (nor, without resync, in an error)";
        if (bad) return cc_fail(&p->cc, "cut at %zu: %s", L, bad);
    }
    return NULL;
}

/* ---- layer 2: the event decoder and the query drain ------------------------------ */

#define IPTC_EVF_ALL 0x3fff7u /* every TDEC_IPT_EVF_* bit */
#define IPTC_QS_ALL  (TDEC_IPT_QF_EVENT_PENDING | TDEC_IPT_QF_IP_SUPPRESSED | TDEC_IPT_QF_EOS)
#define IPTC_NO_IP   0x5a5a5a5a5a5a5a5aull /* what a query must not overwrite */

/* What the input allows the time to be. libipt's time (pt_time.c) may go
   back (a TSC sets it, a TMA moves the base back before the next MTC, a CYC
   estimate can overshoot the next MTC, CYC payload * fcr wraps), so no
   order is asserted; what holds is asserted instead, over the packets a
   decode from every PSB reads: without CYCs, and without TMAs or MTCs,
   every valid time is the payload of a TSC of the input; lost_mtc stays 0
   without MTCs, lost_cyc without CYCs. */
typedef struct iptc_facts {
    int       no_mtc, no_cyc, no_tma;
    int       time_on; /* HAS_TSC times must be TSC payloads */
    uint64_t *tsc;     /* the TSC payloads, sorted           */
    size_t    ntsc;
} iptc_facts;

CC_FN int iptc__cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Points hook h (mode, the input) at cfg's unknown-packet fields. */
CC_FN void iptc_hook_cfg(iptc_hook *h, tdec_ipt_config *cfg, unsigned mode, const uint8_t *in, size_t len)
{
    memset(h, 0, sizeof *h);
    h->mode = mode;
    h->in = in;
    h->len = len;
    cfg->unknown = mode != IPTC_HOOK_NONE ? iptc_hook_fn : NULL;
    cfg->unknown_ctx = mode != IPTC_HOOK_NONE ? h : NULL;
}

/* The facts of in[0..len) under cfg and the hook (free f->tsc after). A
   decode from each PSB-looking offset (until an error, or another such
   offset it lands on, whose own decode goes on) reads a superset of the
   packets layer 2 reads. libipt's time changes only at a TSC (tsc = its
   payload), a TMA (base -= fc), an MTC (tsc = base + CTC delta) and a CYC
   (tsc = base + fc); lost_mtc grows only at an MTC, lost_cyc only at a CYC. */
CC_FN void iptc_facts_scan(iptc_facts *f, const uint8_t *in, size_t len, unsigned hook, const tdec_ipt_config *l2cfg)
{
    static tdec_ipt_decoder d;
    tdec_ipt_config cfg = *l2cfg;
    tdec_ipt_item it;
    iptc_hook hk;
    size_t p, cap = 0, starts = 0;
    uint64_t o;
    int finished;
    f->no_mtc = f->no_cyc = f->no_tma = 1;
    f->time_on = 0;
    f->tsc = NULL;
    f->ntsc = 0;
    cfg.flags = (l2cfg->flags & TDEC_IPT_F_PEBS) | TDEC_IPT_F_NO_SYNC;
    for (p = 0; p + 16 <= len; p++) {
        if (!iptc__pairs(in, len, p, 8)) continue;
        if (++starts > 512) goto off; /* that many PSBs: no time check */
        iptc_hook_cfg(&hk, &cfg, hook, in + p, len - p);
        if (tdec_ipt_init(&d, &cfg) != TDEC_NEED_INPUT) goto off;
        tdec_ipt_feed(&d, in + p, len - p);
        for (finished = 0;;) {
            tdec_status st = tdec_ipt_next(&d, &it);
            /* finish() only once the window is used up (else E_SEQUENCE, and
               the packets in the last 15 bytes were never seen) */
            if (st == TDEC_NEED_INPUT && !finished) {
                finished = 1;
                if (tdec_ipt_finish(&d) == TDEC_NEED_INPUT) continue;
            }
            if (st != TDEC_OK) break;
            if (it.kind != TDEC_ITEM_RECORD) continue;
            o = p + it.offset;
            if (o != p && iptc__pairs(in, len, o, 8)) break;
            switch (it.u.pkt.kind) {
            case TDEC_IPT_MTC: f->no_mtc = 0; break;
            case TDEC_IPT_CYC: f->no_cyc = 0; break;
            case TDEC_IPT_TMA: f->no_tma = 0; break;
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
    if (f->ntsc) qsort(f->tsc, f->ntsc, sizeof *f->tsc, iptc__cmp_u64);
    f->time_on = f->no_cyc && (f->no_tma || f->no_mtc);
    return;
off:
    f->no_mtc = f->no_cyc = f->no_tma = 0;
    free(f->tsc);
    f->tsc = NULL;
    f->ntsc = 0;
}

/* One thing a layer-2 run saw: an item, an answer, an error or the end. */
enum { IPTC_L2_SYNC = 1, IPTC_L2_EVENT, IPTC_L2_ERROR, IPTC_L2_END, IPTC_L2_COND, IPTC_L2_INDIRECT, IPTC_L2_QEVENT,
       IPTC_L2_RESTART };

/* No padding: records compare with memcmp. */
typedef struct iptc_rec {
    uint32_t what; /* IPTC_L2_* (RESTART: reset() was called, the run starts over) */
    uint32_t type, flags, a, b, aux, reserved;
    uint32_t in_sync; /* ERROR: the decoder's                                */
    uint64_t offset, ip, arg, arg2, tsc;
    uint32_t lost_mtc, lost_cyc;
    int32_t  status;  /* query status bits, or the error reason / end status */
    uint32_t where;   /* ERROR: events: in_sync, queries: 1 = a sync error;  */
                      /* END: 1 = from a query; COND, INDIRECT: 1 = qry_time */
                      /* gave a time                                         */
} iptc_rec;

/* What a query decoder says about time after an answer. */
typedef struct iptc_clock {
    tdec_status tq, rq;     /* qry_time's and qry_cbr's results */
    uint32_t    twhy, rwhy; /* and their reasons                */
    uint64_t    tsc;
    uint32_t    mtc, cyc, cbr;
} iptc_clock;

/* A run of the event decoder (iptc_events) or the query drain
   (iptc_queries) over an input: how it is fed, what it reports. Every
   record goes to the log as a line ("R what= type= ..." with every field,
   after a query's answer its clock: "tq= tsc= ... cbr="), and to on_rec
   with the clock. */
typedef struct iptc_l2 {
    cc_run            cc;       /* schedule, feeding, log in; the log and the  */
                                /* violation out                               */
    /* in */
    tdec_ipt_config   cfg;      /* the unknown-packet fields are set from hook */
    unsigned          hook;     /* IPTC_HOOK_*                                 */
    uint64_t          reset_at; /* reset() at that call (0: never)             */
    const iptc_facts *facts;    /* may be NULL: no time checks                 */
    void (*on_rec)(void *ctx, const iptc_rec *r, const iptc_clock *after);
    void             *ctx;
    /* out */
    uint64_t          calls, need_input_answers;
    /* private */
    const uint8_t    *in;
    size_t            len;
    uint64_t          last_sync, seg;
    iptc_hook         hk;
    cc_feed           feed;     /* feed.finishing: finish() was called          */
    tdec_status       fin;      /* what finish() said last (TDEC_OK: not yet)   */
} iptc_l2;

/* Every API call counts: no input makes layer 2 loop. */
CC_FN const char *iptc__call(iptc_l2 *r)
{
    if (++r->calls <= 64u * ((uint64_t)r->len + 16u)) return NULL;
    return cc_fail(&r->cc, "more calls than 64 * (length + 16): a loop (%llu calls)", (unsigned long long)r->calls);
}

/* (Re)starts the run: the feeding from the first byte, no sync yet. */
CC_FN void iptc__l2_start(iptc_l2 *r)
{
    cc_feed_free(&r->feed);
    if (!cc_feed_init(&r->feed, r->in, r->len, &r->cc.sched, r->cc.feed_how)) abort();
    r->last_sync = UINT64_MAX;
    r->seg = 0;
    r->fin = TDEC_OK;
}

CC_FN void iptc__emit(iptc_l2 *r, const iptc_rec *x, const iptc_clock *after)
{
    char line[512], *p = line;
    if (x->what == IPTC_L2_RESTART) {
        cc_begin(&r->cc); /* the log starts over too */
    } else if (r->cc.log) {
        p = cc_kv(p, "R what=", x->what, 0);
        p = cc_kv(p, " type=", x->type, 0);
        p = cc_kv(p, " fl=", x->flags, 0);
        p = cc_kv(p, " a=", x->a, 0);
        p = cc_kv(p, " b=", x->b, 0);
        p = cc_kv(p, " aux=", x->aux, 0);
        p = cc_kv(p, " res=", x->reserved, 0);
        p = cc_kv(p, " sync=", x->in_sync, 0);
        p = cc_kv(p, " off=", x->offset, 0);
        p = cc_kv(p, " ip=", x->ip, 0);
        p = cc_kv(p, " arg=", x->arg, 0);
        p = cc_kv(p, " arg2=", x->arg2, 0);
        p = cc_kv(p, " tsc=", x->tsc, 0);
        p = cc_kv(p, " lost=", x->lost_mtc, 0);
        p = cc_kv(p, "/", x->lost_cyc, 0);
        p = cc_kv(p, " st=", (unsigned long long)(long long)x->status, x->status < 0);
        p = cc_kv(p, " where=", x->where, 0);
        if (after) {
            p = cc_kv(p, " tq=", (unsigned long long)(long long)after->tq, after->tq < 0);
            p = cc_kv(p, " tsc=", after->tsc, 0);
            p = cc_kv(p, " mtc=", after->mtc, 0);
            p = cc_kv(p, " cyc=", after->cyc, 0);
            p = cc_kv(p, " rq=", (unsigned long long)(long long)after->rq, after->rq < 0);
            p = cc_kv(p, " cbr=", after->cbr, 0);
        }
        *p++ = '\n';
        cc_put(&r->cc, line, (size_t)(p - line));
    }
    if (r->on_rec) r->on_rec(r->ctx, x, after);
}

CC_FN iptc_rec iptc__rec(uint32_t what, uint64_t offset, int32_t status, uint32_t where)
{
    iptc_rec x;
    memset(&x, 0, sizeof x);
    x.what = what;
    x.offset = offset;
    x.status = status;
    x.where = where;
    return x;
}

/* An event's fields, checked: known type and flags, ip 0 when suppressed,
   a time the facts allow. */
CC_FN const char *iptc__event(iptc_l2 *r, iptc_rec *x, const tdec_ipt_event *ev)
{
    const iptc_facts *f = r->facts;
    x->type = ev->type;
    x->flags = ev->flags;
    x->a = ev->a;
    x->b = ev->b;
    x->aux = ev->aux;
    x->reserved = ev->reserved;
    x->ip = ev->ip;
    x->arg = ev->arg;
    x->arg2 = ev->arg2;
    x->tsc = ev->tsc;
    x->lost_mtc = ev->lost_mtc;
    x->lost_cyc = ev->lost_cyc;
    if (ev->type >= TDEC_IPT_EV_COUNT) return cc_fail(&r->cc, "event type %u", ev->type);
    if (ev->flags & ~IPTC_EVF_ALL) return cc_fail(&r->cc, "event flags %x", (unsigned)ev->flags);
    if ((ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) && ev->ip != 0) return cc_fail(&r->cc, "suppressed ip is not 0");
    if (f == NULL || !(ev->flags & TDEC_IPT_EVF_HAS_TSC)) return NULL;
    if (f->no_mtc && ev->lost_mtc != 0) return cc_fail(&r->cc, "lost MTCs without an MTC");
    if (f->no_cyc && ev->lost_cyc != 0) return cc_fail(&r->cc, "lost CYCs without a CYC");
    if (f->time_on && (f->ntsc == 0 || bsearch(&ev->tsc, f->tsc, f->ntsc, sizeof ev->tsc, iptc__cmp_u64) == NULL))
        return cc_fail(&r->cc, "a time that is no TSC's payload (no CYC, no TMA+MTC to move it): %llx",
                       (unsigned long long)ev->tsc);
    return NULL;
}

/* A sync point: one pt_sync_forward can return (8 pairs, no whole pair
   right after), after the last one. */
CC_FN const char *iptc__sync(iptc_l2 *r, uint64_t off)
{
    if (!iptc__pairs(r->in, r->len, off, 8) || iptc__pairs(r->in, r->len, off + 16, 1))
        return cc_fail(&r->cc, "sync point %llu not on a PSB pt_sync_forward finds", (unsigned long long)off);
    if (r->last_sync != UINT64_MAX && off <= r->last_sync)
        return cc_fail(&r->cc, "sync point %llu not after the last", (unsigned long long)off);
    r->last_sync = r->seg = off;
    return NULL;
}

/* An error (sticky until resync): its record (where: see iptc_rec); the
   stream says it, where, and why. */
CC_FN const char *iptc__l2_error(iptc_l2 *r, tdec_status st, const tdec_ipt_err_state *s, uint8_t in_sync, uint32_t where)
{
    iptc_rec x = iptc__rec(IPTC_L2_ERROR, s->err_offset, (int32_t)s->err_reason, where);
    x.in_sync = in_sync;
    iptc__emit(r, &x, NULL);
    if (s->err != st) return cc_fail(&r->cc, "the stream's err %d is not the status %d", s->err, st);
    if (s->err_offset > r->len) return cc_fail(&r->cc, "err_offset past the end");
    if (s->err_reason == 0) return cc_fail(&r->cc, "TDEC_E_CORRUPT without err_reason");
    return iptc__call(r);
}

/* After a TDEC_NEED_INPUT (said twice): the next chunk's feed(), or
   finish() at the end, of the event decoder e or the query decoder q; it
   must say TDEC_NEED_INPUT (finish() may say TDEC_END: the Ending rule). */
CC_FN const char *iptc__l2_more(iptc_l2 *r, tdec_ipt_evt_decoder *e, tdec_ipt_qry_decoder *q)
{
    const uint8_t *c;
    size_t n;
    tdec_status st;
    const char *bad = iptc__call(r);
    if (bad) return bad;
    c = cc_feed_next(&r->feed);
    n = r->feed.chunk_len;
    if (e) st = c ? tdec_ipt_evt_feed(e, c, n) : tdec_ipt_evt_finish(e);
    else st = c ? tdec_ipt_qry_feed(q, c, n) : tdec_ipt_qry_finish(q);
    if (c == NULL) {
        r->feed.finishing = 1;
        r->fin = st;
    }
    /* finish() says TDEC_END when nothing is left: the next call says it again */
    if (st == TDEC_NEED_INPUT || (c == NULL && st == TDEC_END)) return NULL;
    return cc_fail(&r->cc, "%s gave %d after %zu bytes", c ? "feed" : "finish", st, r->feed.fed);
}

/* The Ending rule on an answer of the layer: TDEC_END only after finish(),
   then nothing else; no TDEC_NEED_INPUT after finish(). */
CC_FN const char *iptc__l2_ending(iptc_l2 *r, tdec_status st)
{
    if (r->fin == TDEC_END && st != TDEC_END) return cc_fail(&r->cc, "%d after finish() said TDEC_END", st);
    if (st == TDEC_NEED_INPUT && r->feed.finishing) return cc_fail(&r->cc, "TDEC_NEED_INPUT after finish()");
    if (st == TDEC_END && !r->feed.finishing) return cc_fail(&r->cc, "TDEC_END before finish()");
    return NULL;
}

CC_FN const char *iptc__l2_begin(iptc_l2 *r, const uint8_t *in, size_t len)
{
    cc_begin(&r->cc);
    r->calls = r->need_input_answers = 0;
    r->in = in;
    r->len = len;
    memset(&r->feed, 0, sizeof r->feed);
    iptc_hook_cfg(&r->hk, &r->cfg, r->hook, in, len);
    iptc__l2_start(r);
    return NULL;
}

/* The event decoder over in[0..len), pulled until TDEC_END; resync() after
   each error. Items: SYNCs on PSBs pt_sync_forward finds, each after the
   last; events within their segment. A next() that says TDEC_NEED_INPUT
   says it again when asked again before feeding; feed() and finish() then
   say TDEC_NEED_INPUT. An error is sticky (next(), feed(), and finish()
   once called: the same, offset and reason fixed) until resync(). The
   Ending rule: TDEC_END only after finish(); after finish() no
   TDEC_NEED_INPUT, and nothing but TDEC_END once it said TDEC_END; at the
   end next() and finish() say TDEC_END again, feed() and resync()
   TDEC_E_SEQUENCE. c: the cc_run an iptc_l2 starts with (its status: how
   the run ended). Returns NULL, or the first broken rule. */
CC_FN const char *iptc_events(const uint8_t *in, size_t len, cc_run *c)
{
    static tdec_ipt_evt_decoder dec; /* big: not on the stack */
    iptc_l2 *r = (iptc_l2 *)c;
    tdec_ipt_evt_decoder *e = &dec;
    tdec_ipt_evt_item it;
    tdec_status st = TDEC_OK;
    iptc_rec x;
    static const uint8_t one = 0;
    uint32_t reason;
    uint64_t err_off;
    const char *bad = iptc__l2_begin(r, in, len);
    if (tdec_ipt_evt_init(e, &r->cfg) != TDEC_NEED_INPUT) bad = cc_fail(&r->cc, "evt_init refused the config");
    while (bad == NULL) {
        if ((bad = iptc__call(r)) != NULL) break;
        if (r->calls == r->reset_at) { /* back to the state after init() */
            tdec_ipt_evt_reset(e);
            iptc__l2_start(r);
            x = iptc__rec(IPTC_L2_RESTART, 0, 0, 0);
            iptc__emit(r, &x, NULL);
            continue;
        }
        memset(&it, 0xa5, sizeof it);
        st = tdec_ipt_evt_next(e, &it);
        if ((bad = iptc__l2_ending(r, st)) != NULL) break;
        if (st == TDEC_OK) {
            if (it.kind == TDEC_IPT_ITEM_SYNC) {
                x = iptc__rec(IPTC_L2_SYNC, it.offset, 0, 0);
                bad = iptc__sync(r, it.offset);
            } else if (it.kind == TDEC_ITEM_RECORD) {
                x = iptc__rec(IPTC_L2_EVENT, it.offset, 0, 0);
                if (r->last_sync == UINT64_MAX || it.offset < r->seg || it.offset > len)
                    bad = cc_fail(&r->cc, "event at %llu outside its segment", (unsigned long long)it.offset);
                else
                    bad = iptc__event(r, &x, &it.ev);
            } else {
                bad = cc_fail(&r->cc, "item kind %u", (unsigned)it.kind);
            }
            if (bad == NULL) iptc__emit(r, &x, NULL);
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            if ((st = tdec_ipt_evt_next(e, &it)) != TDEC_NEED_INPUT) {
                bad = cc_fail(&r->cc, "next() asked again before feeding gave %d", st);
                break;
            }
            bad = iptc__l2_more(r, e, NULL);
            continue;
        }
        if (st != TDEC_E_CORRUPT) {
            x = iptc__rec(IPTC_L2_END, 0, st, 0);
            iptc__emit(r, &x, NULL);
            break;
        }
        if ((bad = iptc__l2_error(r, st, &e->st, e->in_sync, e->in_sync ? 1u : 0u)) != NULL) break;
        reason = e->st.err_reason;
        err_off = e->st.err_offset;
        if (tdec_ipt_evt_next(e, &it) != st || tdec_ipt_evt_feed(e, &one, 1) != st ||
            (r->feed.finishing && tdec_ipt_evt_finish(e) != st) || tdec_ipt_evt_next(e, &it) != st ||
            e->st.err_reason != reason || e->st.err_offset != err_off) {
            bad = cc_fail(&r->cc, "an event error is not sticky (next, feed, finish; its offset and reason)");
            break;
        }
        if ((bad = iptc__call(r)) != NULL) break;
        if (tdec_ipt_evt_resync(e) != TDEC_NEED_INPUT) bad = cc_fail(&r->cc, "evt_resync after TDEC_E_CORRUPT refused");
    }
    if (bad == NULL && r->hk.bad) bad = cc_fail(&r->cc, "%s", r->hk.bad);
    if (bad == NULL && st != TDEC_END)
        bad = cc_fail(&r->cc, "the events end with neither TDEC_END nor TDEC_E_CORRUPT: %d", st);
    if (bad == NULL && (tdec_ipt_evt_next(e, &it) != TDEC_END || tdec_ipt_evt_finish(e) != TDEC_END))
        bad = cc_fail(&r->cc, "evt_next or evt_finish after TDEC_END");
    if (bad == NULL && tdec_ipt_evt_feed(e, &one, 1) != TDEC_E_SEQUENCE)
        bad = cc_fail(&r->cc, "evt_feed after TDEC_END is not TDEC_E_SEQUENCE");
    if (bad == NULL && tdec_ipt_evt_resync(e) != TDEC_E_SEQUENCE)
        bad = cc_fail(&r->cc, "evt_resync after TDEC_END is not TDEC_E_SEQUENCE");
    r->cc.status = st;
    cc_feed_free(&r->feed);
    return bad;
}

CC_FN iptc_clock iptc__clock(const tdec_ipt_qry_decoder *q)
{
    iptc_clock k;
    memset(&k, 0, sizeof k);
    k.tq = tdec_ipt_qry_time(q, &k.tsc, &k.mtc, &k.cyc, &k.twhy);
    k.rq = tdec_ipt_qry_cbr(q, &k.cbr, &k.rwhy);
    return k;
}

CC_FN int iptc__clock_same(const iptc_clock *a, const iptc_clock *b)
{
    return a->tq == b->tq && a->rq == b->rq && a->twhy == b->twhy && a->rwhy == b->rwhy && a->tsc == b->tsc && a->mtc == b->mtc && a->cyc == b->cyc &&
           a->cbr == b->cbr;
}

/* One question: 's' sync, 'e' the pending event (into *ev), 'c'
   cond_branch, 'i' indirect_branch; *x gets the answer's record (an
   event's fields: iptc__event()). */
CC_FN tdec_status iptc__ask(tdec_ipt_qry_decoder *q, int question, iptc_rec *x, uint32_t *flags, tdec_ipt_event *ev)
{
    uint64_t ip = IPTC_NO_IP, off = 0;
    int taken = 0;
    tdec_status st;
    switch (question) {
    case 's':
        st = tdec_ipt_qry_sync(q, &ip, flags, &off);
        *x = iptc__rec(IPTC_L2_SYNC, off, (int32_t)*flags, 0);
        x->ip = ip;
        return st;
    case 'e':
        memset(ev, 0xa5, sizeof *ev);
        st = tdec_ipt_qry_event(q, ev, flags);
        *x = iptc__rec(IPTC_L2_QEVENT, 0, (int32_t)*flags, 0);
        return st;
    case 'c':
        st = tdec_ipt_qry_cond_branch(q, &taken, flags);
        *x = iptc__rec(IPTC_L2_COND, 0, (int32_t)*flags, 0);
        x->a = (uint32_t)taken;
        return st;
    default:
        st = tdec_ipt_qry_indirect_branch(q, &ip, flags);
        *x = iptc__rec(IPTC_L2_INDIRECT, 0, (int32_t)*flags, 0);
        x->ip = ip;
        return st;
    }
}

/* The query drain over in[0..len) (vectors/README.md): sync; an event
   query while one is pending, else cond_branch, and indirect_branch when
   that is TDEC_E_SEQUENCE (not sticky: it says the same again; no event
   pending: a TNT or a TIP is next, one of the two answers); qry_time and
   qry_cbr after every answer; at TDEC_NEED_INPUT the same question
   again says TDEC_NEED_INPUT and neither call changes what qry_time and
   qry_cbr say, then feed or finish and ask again; resync and sync
   again after TDEC_E_CORRUPT (sticky before: the query, feed(), and
   finish() once called, offset and reason fixed). Sync points and the
   Ending rule as for the events; statuses within TDEC_IPT_QF_*; a
   suppressed IP is neither reported nor written. At the end every query
   and finish() say TDEC_END, feed() and resync() TDEC_E_SEQUENCE. c: the
   cc_run an iptc_l2 starts with (its status: how the run ended). Returns
   NULL, or the first broken rule. */
CC_FN const char *iptc_queries(const uint8_t *in, size_t len, cc_run *c)
{
    static tdec_ipt_qry_decoder dec; /* big: not on the stack */
    iptc_l2 *r = (iptc_l2 *)c;
    tdec_ipt_qry_decoder *q = &dec;
    tdec_ipt_event ev;
    tdec_status st = TDEC_OK;
    iptc_clock before, after;
    iptc_rec x, again;
    static const uint8_t one = 0;
    uint64_t ip = 0, off = 0, err_off;
    uint32_t reason;
    uint32_t status = 0, s = 0, s2 = 0;
    int taken = 0, synced = 0, question;
    const char *bad = iptc__l2_begin(r, in, len);
    if (tdec_ipt_qry_init(q, &r->cfg) != TDEC_NEED_INPUT) bad = cc_fail(&r->cc, "qry_init refused the config");
    while (bad == NULL) {
        if ((bad = iptc__call(r)) != NULL) break;
        if (r->calls == r->reset_at) {
            tdec_ipt_qry_reset(q);
            iptc__l2_start(r);
            synced = 0;
            x = iptc__rec(IPTC_L2_RESTART, 0, 0, 0);
            iptc__emit(r, &x, NULL);
            continue;
        }
        before = iptc__clock(q);
        question = !synced ? 's' : (status & TDEC_IPT_QF_EVENT_PENDING) ? 'e' : 'c';
        st = iptc__ask(q, question, &x, &s, &ev);
        if ((bad = iptc__l2_ending(r, st)) != NULL) break;
        if (st == TDEC_OK && question == 'e') bad = iptc__event(r, &x, &ev);
        if (st == TDEC_E_SEQUENCE && question == 'c') {
            /* not sticky, the same answer again */
            if (q->st.err != TDEC_OK) bad = cc_fail(&r->cc, "cond_branch's TDEC_E_SEQUENCE is sticky");
            else if ((bad = iptc__call(r)) == NULL && tdec_ipt_qry_cond_branch(q, &taken, &s2) != TDEC_E_SEQUENCE)
                bad = cc_fail(&r->cc, "cond_branch's TDEC_E_SEQUENCE changed its next answer");
            if (bad == NULL) bad = iptc__call(r);
            if (bad) break;
            before = iptc__clock(q); /* cond_branch set it, as libipt's does before it looks */
            question = 'i';
            st = iptc__ask(q, question, &x, &s, &ev);
            if ((bad = iptc__l2_ending(r, st)) != NULL) break;
            /* no event pending: a TNT or a TIP is next (libipt's pt_qry_status_flags) */
            if (st == TDEC_E_SEQUENCE)
                bad = cc_fail(&r->cc, "neither cond_branch nor indirect_branch, no event pending");
        }
        if (bad) break;
        if (st == TDEC_OK) {
            if (s & ~IPTC_QS_ALL) {
                bad = cc_fail(&r->cc, "query flags %x", (unsigned)s);
                break;
            }
            if (question == 's' && (bad = iptc__sync(r, x.offset)) != NULL) break;
            if (question == 'c' && x.a != 0 && x.a != 1) {
                bad = cc_fail(&r->cc, "taken is %u, neither 0 nor 1", x.a);
                break;
            }
            if ((question == 's' || question == 'i') && (s & TDEC_IPT_QF_IP_SUPPRESSED)) {
                if (x.ip != IPTC_NO_IP) {
                    bad = cc_fail(&r->cc, "a query wrote a suppressed ip");
                    break;
                }
                x.ip = 0;
            }
            synced = 1;
            status = s;
            after = iptc__clock(q);
            if ((bad = iptc__call(r)) != NULL || (bad = iptc__call(r)) != NULL) break;
            if (after.tq != TDEC_OK && !(after.tq == TDEC_E_SEQUENCE && after.twhy == TDEC_IPT_ERR_NO_TIME))
                bad = cc_fail(&r->cc, "qry_time gave %d (reason %u)", (int)after.tq, (unsigned)after.twhy);
            else if (after.rq != TDEC_OK && !(after.rq == TDEC_E_SEQUENCE && after.rwhy == TDEC_IPT_ERR_NO_CBR))
                bad = cc_fail(&r->cc, "qry_cbr gave %d (reason %u)", (int)after.rq, (unsigned)after.rwhy);
            else if (after.tq == TDEC_OK && r->facts) {
                tdec_ipt_event t;
                iptc_rec tx;
                memset(&t, 0, sizeof t);
                t.flags = TDEC_IPT_EVF_HAS_TSC;
                t.tsc = after.tsc;
                t.lost_mtc = after.mtc;
                t.lost_cyc = after.cyc;
                bad = iptc__event(r, &tx, &t);
            }
            if (bad) break;
            if ((question == 'c' || question == 'i') && after.tq == TDEC_OK) {
                x.tsc = after.tsc;
                x.lost_mtc = after.mtc;
                x.lost_cyc = after.cyc;
                x.where = 1;
            }
            iptc__emit(r, &x, &after);
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            r->need_input_answers++;
            after = iptc__clock(q); /* a query that needs input changes nothing */
            if (!iptc__clock_same(&before, &after)) {
                bad = cc_fail(&r->cc, "query '%c' gave TDEC_NEED_INPUT and changed qry_time or qry_cbr: "
                                      "%d %llu %u %u -> %d %llu %u %u (fed %zu of %zu)",
                              question, (int)before.tq, (unsigned long long)before.tsc, before.mtc, before.cyc, (int)after.tq,
                              (unsigned long long)after.tsc, after.mtc, after.cyc, r->feed.fed, len);
                break;
            }
            if ((st = iptc__ask(q, question, &again, &s2, &ev)) != TDEC_NEED_INPUT) {
                bad = cc_fail(&r->cc, "query '%c' asked again before feeding gave %d", question, st);
                break;
            }
            after = iptc__clock(q);
            if (!iptc__clock_same(&before, &after)) {
                bad = cc_fail(&r->cc, "query '%c' asked again changed qry_time or qry_cbr", question);
                break;
            }
            bad = iptc__l2_more(r, NULL, q);
            continue;
        }
        if (st != TDEC_E_CORRUPT) {
            x = iptc__rec(IPTC_L2_END, 0, st, synced ? 1u : 0u);
            iptc__emit(r, &x, NULL);
            break;
        }
        if ((bad = iptc__l2_error(r, st, &q->st, q->in_sync, synced ? 0u : 1u)) != NULL) break;
        reason = q->st.err_reason;
        err_off = q->st.err_offset;
        if (tdec_ipt_qry_cond_branch(q, &taken, &s) != st || tdec_ipt_qry_feed(q, &one, 1) != st ||
            (r->feed.finishing && tdec_ipt_qry_finish(q) != st) || tdec_ipt_qry_cond_branch(q, &taken, &s) != st ||
            q->st.err_reason != reason || q->st.err_offset != err_off) {
            bad = cc_fail(&r->cc, "a query error is not sticky (query, feed, finish; its offset and reason)");
            break;
        }
        synced = 0;
        if ((bad = iptc__call(r)) != NULL) break;
        if (tdec_ipt_qry_resync(q) != TDEC_NEED_INPUT) bad = cc_fail(&r->cc, "qry_resync after TDEC_E_CORRUPT refused");
    }
    if (bad == NULL && r->hk.bad) bad = cc_fail(&r->cc, "%s", r->hk.bad);
    if (bad == NULL && st != TDEC_END)
        bad = cc_fail(&r->cc, "the drain ends with neither TDEC_END nor TDEC_E_CORRUPT: %d", st);
    if (bad == NULL &&
        (tdec_ipt_qry_cond_branch(q, &taken, &s) != TDEC_END || tdec_ipt_qry_sync(q, &ip, &s, &off) != TDEC_END ||
         tdec_ipt_qry_indirect_branch(q, &ip, &s) != TDEC_END || tdec_ipt_qry_event(q, &ev, &s) != TDEC_END ||
         tdec_ipt_qry_finish(q) != TDEC_END))
        bad = cc_fail(&r->cc, "a query or qry_finish after TDEC_END");
    if (bad == NULL && tdec_ipt_qry_feed(q, &one, 1) != TDEC_E_SEQUENCE)
        bad = cc_fail(&r->cc, "qry_feed after TDEC_END is not TDEC_E_SEQUENCE");
    if (bad == NULL && tdec_ipt_qry_resync(q) != TDEC_E_SEQUENCE)
        bad = cc_fail(&r->cc, "qry_resync after TDEC_END is not TDEC_E_SEQUENCE");
    r->cc.status = st;
    cc_feed_free(&r->feed);
    return bad;
}

#endif /* IPT_CHECK_H */
