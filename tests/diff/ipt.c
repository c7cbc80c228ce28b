/* diff_ipt.c - differential test of single/tdec_ipt.h against libipt's packet
   decoder (Debian's libipt-dev 2.0.5 or later: link with -lipt). Run by
   tests/diff/ipt.sh; one line per check: "PASS name" or "FAIL name: why".

   1. Valid streams (tests/gen/ipt_gen.h, libipt's encoder, every packet 2.0.5
      knows): libipt decodes each (pt_pkt_sync_forward, pt_pkt_next until
      -pte_eos), our decoder decodes it fed as one chunk, in random chunks of
      1..4096 bytes, through tdec_ipt_next_n, with erratum SKZ84 on both
      sides, and (a smaller stream) one byte at a time. Every packet is
      compared: offset, kind, size and every field of tdec_ipt_packet (as
      mapped from libipt's struct pt_packet; the fields 2.0.5 does not read,
      MODE bits 4:2, from the raw byte), and the count.
   2. Hostile streams: generated streams with random corruption (bit flips,
      byte overwrites, inserts, deletes, PSB fragments, truncation), decoded
      by both with resync on error: libipt's pt_pkt_sync_forward after
      -pte_bad_opc/-pte_bad_packet, our tdec_ipt_resync after
      TDEC_E_CORRUPT. Compared: every packet up to the first error, the
      error (offset; BAD_OPC / BAD_PACKET; -pte_eos inside a packet ==
      TDEC_E_TRUNCATED, at the end == TDEC_END), the gap and the PSB that
      resync finds, and everything after it. Variants: default config,
      SKZ84, an unknown-packet hook on both sides. Opcodes 2.0.5 does not
      know but tdec_ipt (like libipt master) does - CFE 02 13, EVD 02 53,
      TRIG D9 - are expected differences: counted, then both sides restart
      at the PSB libipt finds.
   3. Sync over buffers rich in 02 82 runs of every length and phase:
      tdec_ipt_psb_list vs pt_pkt_sync_forward walked to the end,
      tdec_ipt_sync_forward from random offsets, tdec_ipt_sync_backward
      walked down vs pt_pkt_sync_backward, tdec_ipt_sync_at vs
      pt_pkt_sync_set + pt_pkt_next, and the whole hostile comparison (our
      streaming PSB search in random chunks) on the same buffers. Where
      2.0.5 differs from ours, the difference must be 2.0.5's pt_find_psb
      starting from the window after the match (fixed in libipt 2.1): two
      independent models (master's rule, 2.0.5's rule) decide; anything
      else fails.

     diff_ipt [-s SEEDS] [-p PACKETS] [-h HOSTILE] [-b BUFFERS] [-o DIR]
   SEEDS: comma-separated seeds (default 1,2,3,4); PACKETS: per seed for the
   valid streams (default 1500000); HOSTILE: corrupted streams per seed
   (default 1500); BUFFERS: pattern buffers per seed (default 20000); DIR:
   where a failing hostile or pattern stream is written (fail-*.pt). A
   mismatch prints the seed, the event number, both decodings, the event
   before and the bytes around the offset. */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/gen/ipt_gen.h"

#include <inttypes.h>
#include <stdarg.h>
#include <time.h>

/* ---- events: what a decoder run produced, in tdec_ipt's terms ------------ */

enum { EV_PKT = 1, EV_GAP, EV_ERR, EV_TRUNC, EV_END };

typedef struct ev {
    uint8_t         type;
    uint32_t        code; /* ERR: TDEC_IPT_ERR_*; GAP: TDEC_IPT_GAP_*           */
    uint64_t        off;
    uint64_t        len;  /* GAP                                               */
    tdec_ipt_packet pk;   /* PKT                                               */
} ev;

typedef struct evlist {
    ev    *v;
    size_t n, cap;
} evlist;

static void ev_push(evlist *l, const ev *e)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->v = (ev *)realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v) {
            fprintf(stderr, "diff_ipt: out of memory\n");
            exit(2);
        }
    }
    l->v[l->n++] = *e;
}

static const char *ev_name(unsigned t)
{
    switch (t) {
    case EV_PKT: return "packet";
    case EV_GAP: return "gap";
    case EV_ERR: return "error";
    case EV_TRUNC: return "truncated";
    case EV_END: return "end";
    }
    return "?";
}

static void ev_str(const ev *e, char *s, size_t cap)
{
    switch (e->type) {
    case EV_PKT:
        snprintf(s, cap, "@%" PRIu64 " %s size %u payload 0x%" PRIx64 " aux 0x%" PRIx32 " sub %u flags 0x%x", e->off,
                 tdec_ipt_kind_str(e->pk.kind), e->pk.size, e->pk.payload, e->pk.aux, e->pk.sub, e->pk.flags);
        break;
    case EV_GAP:
        snprintf(s, cap, "@%" PRIu64 " gap of %" PRIu64 " (reason %u)", e->off, e->len, e->code);
        break;
    case EV_ERR:
        snprintf(s, cap, "@%" PRIu64 " error %s (%u)", e->off, tdec_ipt_reason_str(e->code), e->code);
        break;
    case EV_TRUNC: snprintf(s, cap, "@%" PRIu64 " truncated (end of stream inside the packet)", e->off); break;
    case EV_END: snprintf(s, cap, "@%" PRIu64 " end", e->off); break;
    default: snprintf(s, cap, "@%" PRIu64 " event type %u", e->off, e->type); break;
    }
}

static int ev_equal(const ev *a, const ev *b)
{
    if (a->type != b->type || a->off != b->off) return 0;
    switch (a->type) {
    case EV_PKT:
        return a->pk.kind == b->pk.kind && a->pk.size == b->pk.size && a->pk.payload == b->pk.payload &&
               a->pk.aux == b->pk.aux && a->pk.sub == b->pk.sub && a->pk.flags == b->pk.flags;
    case EV_GAP: return a->len == b->len && a->code == b->code;
    case EV_ERR: return a->code == b->code;
    default: return 1;
    }
}

/* ---- libipt's packet, as tdec_ipt's field table says it --------------------- */

/* Fills *o from libipt's packet p whose bytes are at raw; 0, or -1 for a
   type this test does not expect. */
static int map_libipt(const struct pt_packet *p, const uint8_t *raw, tdec_ipt_packet *o)
{
    memset(o, 0, sizeof *o);
    o->size = p->size;
    switch (p->type) {
    case ppt_pad: o->kind = TDEC_IPT_PAD; break;
    case ppt_psb: o->kind = TDEC_IPT_PSB; break;
    case ppt_psbend: o->kind = TDEC_IPT_PSBEND; break;
    case ppt_ovf: o->kind = TDEC_IPT_OVF; break;
    case ppt_stop: o->kind = TDEC_IPT_STOP; break;
    case ppt_tnt_8:
    case ppt_tnt_64:
        o->kind = p->type == ppt_tnt_8 ? TDEC_IPT_TNT_8 : TDEC_IPT_TNT_64;
        o->payload = p->payload.tnt.payload;
        o->sub = p->payload.tnt.bit_size;
        break;
    case ppt_tip:
    case ppt_tip_pge:
    case ppt_tip_pgd:
    case ppt_fup:
        o->kind = p->type == ppt_tip       ? TDEC_IPT_TIP
                  : p->type == ppt_tip_pge ? TDEC_IPT_TIP_PGE
                  : p->type == ppt_tip_pgd ? TDEC_IPT_TIP_PGD
                                           : TDEC_IPT_FUP;
        o->payload = p->payload.ip.ip;
        o->sub = (uint8_t)p->payload.ip.ipc;
        break;
    case ppt_mode:
        /* 2.0.5 reads bits 1:0 only; bits 4:2 (IF, reserved) from the byte. */
        if (p->payload.mode.leaf == pt_mol_exec) {
            o->kind = TDEC_IPT_MODE_EXEC;
            o->sub = (uint8_t)(p->payload.mode.bits.exec.csl | (p->payload.mode.bits.exec.csd << 1));
        } else if (p->payload.mode.leaf == pt_mol_tsx) {
            o->kind = TDEC_IPT_MODE_TSX;
            o->sub = (uint8_t)(p->payload.mode.bits.tsx.intx | (p->payload.mode.bits.tsx.abrt << 1));
        } else {
            return -1;
        }
        o->sub = (uint8_t)(o->sub | (raw[1] & 0x1cu));
        break;
    case ppt_pip:
        o->kind = TDEC_IPT_PIP;
        o->payload = p->payload.pip.cr3;
        if (p->payload.pip.nr) o->flags = TDEC_IPT_PF_NR;
        break;
    case ppt_tsc:
        o->kind = TDEC_IPT_TSC;
        o->payload = p->payload.tsc.tsc;
        break;
    case ppt_cbr:
        o->kind = TDEC_IPT_CBR;
        o->payload = p->payload.cbr.ratio;
        break;
    case ppt_tma:
        o->kind = TDEC_IPT_TMA;
        o->payload = p->payload.tma.ctc;
        o->aux = p->payload.tma.fc;
        break;
    case ppt_mtc:
        o->kind = TDEC_IPT_MTC;
        o->payload = p->payload.mtc.ctc;
        break;
    case ppt_cyc:
        o->kind = TDEC_IPT_CYC;
        o->payload = p->payload.cyc.value;
        break;
    case ppt_vmcs:
        o->kind = TDEC_IPT_VMCS;
        o->payload = p->payload.vmcs.base;
        break;
    case ppt_mnt:
        o->kind = TDEC_IPT_MNT;
        o->payload = p->payload.mnt.payload;
        break;
    case ppt_exstop:
        o->kind = TDEC_IPT_EXSTOP;
        if (p->payload.exstop.ip) o->flags = TDEC_IPT_PF_IP;
        break;
    case ppt_mwait:
        o->kind = TDEC_IPT_MWAIT;
        o->payload = p->payload.mwait.hints;
        o->aux = p->payload.mwait.ext;
        break;
    case ppt_pwre:
        o->kind = TDEC_IPT_PWRE;
        o->payload = p->payload.pwre.state;
        o->aux = p->payload.pwre.sub_state;
        if (p->payload.pwre.hw) o->flags = TDEC_IPT_PF_HW;
        break;
    case ppt_pwrx:
        o->kind = TDEC_IPT_PWRX;
        o->payload = p->payload.pwrx.last;
        o->aux = p->payload.pwrx.deepest;
        o->sub = (uint8_t)((p->payload.pwrx.interrupt ? TDEC_IPT_PWRX_INT : 0u) |
                           (p->payload.pwrx.store ? TDEC_IPT_PWRX_STORE : 0u) |
                           (p->payload.pwrx.autonomous ? TDEC_IPT_PWRX_HW : 0u));
        break;
    case ppt_ptw:
        o->kind = TDEC_IPT_PTW;
        o->payload = p->payload.ptw.payload;
        o->sub = p->payload.ptw.plc;
        if (p->payload.ptw.ip) o->flags = TDEC_IPT_PF_IP;
        break;
    case ppt_invalid: o->kind = TDEC_IPT_INVALID; break;
    case ppt_unknown: o->kind = TDEC_IPT_UNKNOWN; break;
    default: return -1;
    }
    return 0;
}

/* ---- the unknown-packet hook, the same rule on both sides ------------------ */

/* Size of an unknown packet at p (avail bytes readable), or -1 to reject it.
   Rejects libipt's free opcode C9 and the opcodes 2.0.5 does not know but
   tdec_ipt does (they stay expected differences). */
static int hook_rule(const uint8_t *p, size_t avail)
{
    uint8_t b0 = p[0], b1;
    if (b0 == 0xc9 || b0 == 0xd9) return -1;
    if (b0 == 0x02) {
        if (avail < 2) return -1;
        b1 = p[1];
        if (b1 == 0x13 || b1 == 0x53) return -1;
        return 2 + (b1 >> 6);
    }
    return 1 + 5 * (b0 >> 5); /* up to 36 bytes: crosses chunks */
}

static int hook_libipt(struct pt_packet_unknown *u, const struct pt_config *c, const uint8_t *pos, void *ctx)
{
    int r = hook_rule(pos, (size_t)(c->end - pos));
    (void)u;
    (void)ctx;
    return r < 0 ? -pte_bad_opc : r;
}

static int hook_ours(void *ctx, const uint8_t *bytes, size_t avail, uint64_t offset)
{
    int r = hook_rule(bytes, avail);
    (void)ctx;
    (void)offset;
    return r < 0 ? 0 : r;
}

/* ---- decoder variants --------------------------------------------------------- */

enum { CH_WHOLE = 0, CH_RANDOM, CH_ONE, CH_NEXT_N };

typedef struct variant {
    const char *name;
    int         chunking;
    int         skz84;
    int         hook;
} variant;

/* ---- libipt's run ------------------------------------------------------------ */

typedef struct stats {
    uint64_t packets, errors[TDEC_IPT_ERR_BAD_CPU + 1], truncs, resyncs, gaps, expected, skz84_overrun,
        unknown, cut_unknown;
} stats;

/* Decodes buf[0, len) with libipt (resync after an error, as ptdump) into
   the events tdec_ipt must produce. Returns 0, or -1 with *why. */
static int run_libipt(uint8_t *buf, size_t len, const variant *va, evlist *out, stats *s, char *why, size_t wcap)
{
    struct pt_config cfg;
    struct pt_packet_decoder *d;
    struct pt_packet pkt;
    uint64_t off, sync, gap_from = 0;
    uint32_t gap_reason = TDEC_IPT_GAP_SYNC;
    ev e;
    int r;

    out->n = 0;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + len;
    if (va->skz84) cfg.errata.skz84 = 1;
    if (va->hook) cfg.decode.callback = hook_libipt;
    d = pt_pkt_alloc_decoder(&cfg);
    if (!d) {
        snprintf(why, wcap, "pt_pkt_alloc_decoder failed");
        return -1;
    }
    memset(&e, 0, sizeof e);
    for (;;) {
        /* Synchronise: the initial search, or a resync after an error. */
        r = pt_pkt_sync_forward(d);
        if (r < 0) {
            if (r != -pte_eos) {
                snprintf(why, wcap, "pt_pkt_sync_forward: %s", pt_errstr(pt_errcode(r)));
                pt_pkt_free_decoder(d);
                return -1;
            }
            if (len > gap_from) {
                e.type = EV_GAP, e.off = gap_from, e.len = len - gap_from, e.code = gap_reason;
                ev_push(out, &e);
            }
            e.type = EV_END, e.off = len;
            ev_push(out, &e);
            break;
        }
        pt_pkt_get_sync_offset(d, &sync);
        if (sync > gap_from) {
            e.type = EV_GAP, e.off = gap_from, e.len = sync - gap_from, e.code = gap_reason;
            ev_push(out, &e);
        }
        for (;;) {
            if (pt_pkt_get_offset(d, &off) < 0) off = UINT64_MAX;
            r = pt_pkt_next(d, &pkt, sizeof pkt);
            if (r > 0) {
                e.type = EV_PKT, e.off = off;
                if (map_libipt(&pkt, buf + off, &e.pk) < 0) {
                    snprintf(why, wcap, "libipt packet type %d at %" PRIu64 " not expected", (int)pkt.type, off);
                    pt_pkt_free_decoder(d);
                    return -1;
                }
                if (pkt.type == ppt_invalid && off + 8 > len) {
                    /* SKZ84 at the very end: libipt steps past the end of
                       the buffer (no check for the 8th byte); tdec_ipt
                       says the stream ends inside the packet. */
                    s->skz84_overrun++;
                    e.type = EV_TRUNC;
                    ev_push(out, &e);
                    goto done;
                }
                ev_push(out, &e);
                continue;
            }
            if (r == -pte_eos) {
                e.type = off == len ? EV_END : EV_TRUNC, e.off = off;
                ev_push(out, &e);
                goto done;
            }
            if (r != -pte_bad_opc && r != -pte_bad_packet) {
                snprintf(why, wcap, "pt_pkt_next at %" PRIu64 ": unexpected %s", off, pt_errstr(pt_errcode(r)));
                pt_pkt_free_decoder(d);
                return -1;
            }
            e.type = EV_ERR, e.off = off, e.code = (uint32_t)-r;
            ev_push(out, &e);
            gap_from = off;
            gap_reason = TDEC_IPT_GAP_RESYNC;
            break;
        }
    }
done:
    pt_pkt_free_decoder(d);
    return 0;
}

/* ---- our run ---------------------------------------------------------------- */

typedef struct cmp_ctx {
    const uint8_t *buf;
    size_t         len;
    const evlist  *ref;
    size_t         i;          /* next reference event                              */
    int            skip_gap;   /* a restarted decoder's first gap is not compared   */
    int            cut_unknown; /* an UNKNOWN packet cut by the end was emitted      */
    uint64_t       restart_at; /* set when the comparer asks for a restart          */
    stats         *s;
    char          *why;
    size_t         wcap;
} cmp_ctx;

enum { SINK_GO = 0, SINK_STOP, SINK_RESTART, SINK_FAIL };

/* Opcodes 2.0.5 does not know and tdec_ipt decodes (libipt 2.1/2.2). */
static int new_opcode_at(const uint8_t *buf, size_t len, uint64_t off)
{
    if (off >= len) return 0;
    if (buf[off] == 0xd9) return 1;
    return buf[off] == 0x02 && off + 1 < len && (buf[off + 1] == 0x13 || buf[off + 1] == 0x53);
}

static void hexdump(char *s, size_t cap, const uint8_t *buf, size_t len, uint64_t off)
{
    uint64_t from = off > 16 ? off - 16 : 0, to = off + 24 < len ? off + 24 : len, i;
    size_t n = (size_t)snprintf(s, cap, "bytes [%" PRIu64 ", %" PRIu64 "):", from, to);
    for (i = from; i < to && n + 5 < cap; i++) n += (size_t)snprintf(s + n, cap - n, i == off ? " [%02x" : i == off + 1 ? "] %02x" : " %02x", buf[i]);
}

static int cmp_fail(cmp_ctx *c, const ev *got)
{
    char a[200], b[200], h[400], p[200];
    const ev *want = c->i < c->ref->n ? &c->ref->v[c->i] : NULL;
    ev none;
    memset(&none, 0, sizeof none);
    if (!want) want = &none;
    ev_str(want, a, sizeof a);
    ev_str(got, b, sizeof b);
    if (c->i > 0) ev_str(&c->ref->v[c->i - 1], p, sizeof p);
    else snprintf(p, sizeof p, "(none)");
    hexdump(h, sizeof h, c->buf, c->len, got->off < want->off ? got->off : want->off);
    snprintf(c->why, c->wcap, "event %zu: libipt %s %s | tdec_ipt %s %s | previous: %s | %s", c->i,
             ev_name(want->type), a, ev_name(got->type), b, p, h);
    return SINK_FAIL;
}

static int sink(cmp_ctx *c, const ev *got)
{
    const ev *want;
    if (c->skip_gap) {
        c->skip_gap = 0;
        if (got->type == EV_GAP) return SINK_GO;
    }
    if (c->i >= c->ref->n) return cmp_fail(c, got);
    want = &c->ref->v[c->i];
    /* A hook-sized UNKNOWN packet longer than what is left: libipt says
       -pte_eos at the packet; tdec_ipt streams over unknown packets, so it
       emits the item and then fails with E_TRUNCATED - at the packet. */
    if (want->type == EV_TRUNC && got->type == EV_PKT && got->pk.kind == TDEC_IPT_UNKNOWN &&
        got->off == want->off && got->off + got->pk.size > c->len && !c->cut_unknown) {
        c->cut_unknown = 1;
        return SINK_GO;
    }
    if (c->cut_unknown && want->type == EV_TRUNC && got->type == EV_TRUNC && got->off != want->off) {
        char w[200];
        snprintf(w, sizeof w, "UNKNOWN packet at %" PRIu64 " cut by the end: E_TRUNCATED err_offset %" PRIu64
                 " (libipt: -pte_eos at the packet)", want->off, got->off);
        c->cut_unknown = 0;
        cmp_fail(c, got);
        snprintf(c->why + strlen(c->why), c->wcap - strlen(c->why), " | %s", w);
        return SINK_FAIL;
    }
    if (ev_equal(want, got)) {
        if (c->cut_unknown) c->s->cut_unknown++;
        c->i++;
        switch (got->type) {
        case EV_PKT: c->s->packets++; if (got->pk.kind == TDEC_IPT_UNKNOWN) c->s->unknown++; break;
        case EV_ERR: c->s->errors[got->code < TDEC_IPT_ERR_BAD_CPU ? got->code : 0]++; break;
        case EV_TRUNC: c->s->truncs++; break;
        case EV_GAP: c->s->gaps++; break;
        default: break;
        }
        if (got->type == EV_ERR) c->s->resyncs++;
        return got->type == EV_END || got->type == EV_TRUNC ? SINK_STOP : SINK_GO;
    }
    /* CFE, EVD, TRIG: 2.0.5 stops with -pte_bad_opc where we decode a packet
       (or, cut by the end, report truncation). Restart both at libipt's
       resync point. */
    if (want->type == EV_ERR && want->code == TDEC_IPT_ERR_BAD_OPC && got->off == want->off &&
        new_opcode_at(c->buf, c->len, want->off) &&
        ((got->type == EV_PKT && (got->pk.kind == TDEC_IPT_CFE || got->pk.kind == TDEC_IPT_EVD ||
                                  got->pk.kind == TDEC_IPT_TRIG)) ||
         got->type == EV_TRUNC)) {
        c->s->expected++;
        c->i++;
        if (c->i < c->ref->n && c->ref->v[c->i].type == EV_GAP && c->ref->v[c->i].off == want->off) c->i++;
        c->restart_at = want->off > 15 ? want->off - 15 : 0; /* pt_pkt_sync_forward's look-back */
        c->skip_gap = 1;
        return SINK_RESTART;
    }
    return cmp_fail(c, got);
}

/* Chunk sizes: splitmix64 of their own. */
static uint64_t chunk_rng(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Decodes buf[base, len) with tdec_ipt, resync after TDEC_E_CORRUPT, and
   hands every event to the comparer. Returns SINK_STOP (all compared),
   SINK_RESTART or SINK_FAIL. */
static int run_ours_from(cmp_ctx *c, uint64_t base, const variant *va, uint64_t *crng)
{
    static tdec_ipt_item items[64];
    tdec_ipt_decoder d;
    tdec_ipt_config cfg;
    tdec_status st;
    size_t fed = (size_t)base, n, k, cnt;
    int fin = 0, r;
    ev e;

    memset(&cfg, 0, sizeof cfg);
    if (va->skz84) cfg.errata = TDEC_IPT_ERRATUM_SKZ84;
    if (va->hook) cfg.unknown = hook_ours;
    st = tdec_ipt_init(&d, &cfg);
    memset(&e, 0, sizeof e);
    for (;;) {
        if (va->chunking == CH_NEXT_N) {
            st = tdec_ipt_next_n(&d, items, 1 + (size_t)(chunk_rng(crng) % 64), &cnt);
        } else {
            cnt = 0;
            st = tdec_ipt_next(&d, &items[0]);
            if (st == TDEC_OK) cnt = 1;
        }
        for (k = 0; k < cnt; k++) {
            const tdec_ipt_item *it = &items[k];
            if (it->kind == TDEC_ITEM_RECORD) {
                e.type = EV_PKT, e.off = it->offset + base, e.pk = it->u.pkt;
            } else if (it->kind == TDEC_ITEM_GAP) {
                memset(&e.pk, 0, sizeof e.pk);
                e.type = EV_GAP, e.off = it->offset + base, e.len = it->u.gap.len, e.code = it->u.gap.reason;
            } else {
                snprintf(c->why, c->wcap, "item kind %u", it->kind);
                return SINK_FAIL;
            }
            r = sink(c, &e);
            if (r != SINK_GO) return r;
        }
        if (st == TDEC_OK) continue;
        memset(&e.pk, 0, sizeof e.pk);
        if (st == TDEC_NEED_INPUT) {
            if (fin) {
                snprintf(c->why, c->wcap, "next() returned NEED_INPUT after finish() at %" PRIu64, d.st.pos + base);
                return SINK_FAIL;
            }
            n = c->len - fed;
            if (va->chunking == CH_ONE) {
                if (n > 1) n = 1;
            } else if (va->chunking == CH_RANDOM || va->chunking == CH_NEXT_N) {
                k = 1 + (size_t)(chunk_rng(crng) % 4096);
                if (n > k) n = k;
            }
            if (n) {
                st = tdec_ipt_feed(&d, c->buf + fed, n);
                fed += n;
            } else {
                st = tdec_ipt_finish(&d);
                fin = 1;
                if (st == TDEC_NEED_INPUT) continue;
            }
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_END) {
            e.type = EV_END, e.off = c->len;
            return sink(c, &e) == SINK_STOP ? SINK_STOP : SINK_FAIL;
        }
        if (st == TDEC_E_TRUNCATED) {
            e.type = EV_TRUNC, e.off = d.st.err_offset + base;
            if (d.st.err_reason != TDEC_IPT_ERR_EOS) {
                snprintf(c->why, c->wcap, "E_TRUNCATED at %" PRIu64 " with reason %u", e.off, d.st.err_reason);
                return SINK_FAIL;
            }
            r = sink(c, &e);
            return r == SINK_STOP ? SINK_STOP : r == SINK_GO ? SINK_FAIL : r;
        }
        if (st == TDEC_E_CORRUPT) {
            e.type = EV_ERR, e.off = d.st.err_offset + base, e.code = d.st.err_reason;
            r = sink(c, &e);
            if (r != SINK_GO) return r;
            st = tdec_ipt_resync(&d);
            if (st != TDEC_NEED_INPUT) {
                snprintf(c->why, c->wcap, "resync() after the error at %" PRIu64 " returned %s", e.off,
                         tdec_status_str(st));
                return SINK_FAIL;
            }
            continue;
        }
        snprintf(c->why, c->wcap, "tdec_ipt returned %s at %" PRIu64, tdec_status_str(st), d.st.pos + base);
        return SINK_FAIL;
    }
}

/* Our whole run against the reference events; 0 when equal. */
static int run_ours(const uint8_t *buf, size_t len, const evlist *ref, const variant *va, uint64_t chunk_seed,
                    stats *s, char *why, size_t wcap)
{
    cmp_ctx c;
    uint64_t base = 0, crng = chunk_seed;
    int r;
    memset(&c, 0, sizeof c);
    c.buf = buf, c.len = len, c.ref = ref, c.s = s, c.why = why, c.wcap = wcap;
    for (;;) {
        r = run_ours_from(&c, base, va, &crng);
        if (r == SINK_RESTART) {
            base = c.restart_at;
            continue;
        }
        if (r != SINK_STOP) return -1;
        if (c.i != ref->n) {
            snprintf(why, wcap, "tdec_ipt stopped after %zu of %zu events", c.i, ref->n);
            return -1;
        }
        return 0;
    }
}

/* ---- output ----------------------------------------------------------------- */

static int failures;
static const char *save_dir; /* -o DIR: failing hostile streams are written there */

static void save_stream(const char *what, uint64_t seed, uint32_t i, const uint8_t *buf, size_t len)
{
    char path[512];
    FILE *f;
    if (!save_dir) return;
    snprintf(path, sizeof path, "%s/fail-%s-seed%" PRIu64 "-%u.pt", save_dir, what, seed, i);
    f = fopen(path, "wb");
    if (!f) return;
    if (fwrite(buf, 1, len, f) == len) printf("    (the stream is in %s)\n", path);
    fclose(f);
}

static void pass(const char *fmt, ...)
{
    va_list ap;
    printf("PASS ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

static void fail(const char *why, const char *fmt, ...)
{
    va_list ap;
    printf("FAIL ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf(": %s\n", why);
    fflush(stdout);
    failures++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- 1. valid streams ---------------------------------------------------------- */

static uint8_t *alloc_buf(size_t len)
{
    /* 8-aligned (libipt aligns its PSB search on addresses) with a zeroed
       tail: 2.0.5's PSB search may read one byte past the end. */
    uint8_t *b = (uint8_t *)calloc(len + 64, 1);
    if (!b) {
        fprintf(stderr, "diff_ipt: out of memory\n");
        exit(2);
    }
    return b;
}

static const char *type_names[IPT_GEN_NTYPES] = {
    "invalid", "unknown", "pad",  "psb", "psbend", "fup",    "tip",   "tip.pge", "tip.pgd",
    "tnt.8",   "tnt.64",  "mode", "pip", "vmcs",   "cbr",    "tsc",   "tma",     "mtc",
    "cyc",     "stop",    "ovf",  "mnt", "exstop", "mwait",  "pwre",  "pwrx",    "ptw"};

static void valid_streams(uint64_t seed, uint64_t npk, uint64_t *total)
{
    static const variant vars[] = {
        {"whole buffer", CH_WHOLE, 0, 0},
        {"random chunks 1..4096", CH_RANDOM, 0, 0},
        {"next_n, random chunks", CH_NEXT_N, 0, 0},
        {"SKZ84 on both, random chunks", CH_RANDOM, 1, 0},
    };
    static const variant one = {"1-byte chunks", CH_ONE, 0, 0};
    ipt_gen g;
    evlist ref = {NULL, 0, 0};
    stats s;
    char why[1200], kinds[1000];
    size_t cap = (size_t)(npk * 5 + 4096), len, v, k, n;
    uint8_t *buf = alloc_buf(cap);
    int missing = 0;

    /* The big stream: every chunking but one byte at a time. */
    ipt_gen_init(&g, seed, IPT_GEN_MIX_ALL);
    len = ipt_gen_fill(&g, buf, cap, npk);
    memset(&s, 0, sizeof s);
    if (run_libipt(buf, len, &vars[0], &ref, &s, why, sizeof why) < 0) {
        fail(why, "ipt diff seed %" PRIu64 ": libipt decodes the generated stream", seed);
        free(buf);
        return;
    }
    if (ref.n != g.packets + 1 || ref.v[ref.n - 1].type != EV_END) {
        snprintf(why, sizeof why, "libipt: %zu events for %" PRIu64 " packets, last %s", ref.n, g.packets,
                 ev_name(ref.v[ref.n - 1].type));
        fail(why, "ipt diff seed %" PRIu64 ": libipt decodes the generated stream", seed);
    } else {
        n = 0;
        for (k = ppt_pad; k <= ppt_ptw; k++) {
            n += (size_t)snprintf(kinds + n, sizeof kinds - n, " %s %" PRIu64, type_names[k], g.count[k]);
            if (g.count[k] == 0) missing = 1;
        }
        if (missing) fail(kinds, "ipt diff seed %" PRIu64 ": the stream has every packet kind", seed);
        else pass("ipt diff seed %" PRIu64 ": generated %" PRIu64 " packets, %zu bytes, every kind 2.0.5 knows:%s",
                  seed, g.packets, len, kinds);
    }
    for (v = 0; v < sizeof vars / sizeof vars[0]; v++) {
        memset(&s, 0, sizeof s);
        if (v > 0 && vars[v].skz84 != vars[v - 1].skz84 &&
            run_libipt(buf, len, &vars[v], &ref, &s, why, sizeof why) < 0) {
            fail(why, "ipt diff seed %" PRIu64 " %s", seed, vars[v].name);
            continue;
        }
        if (run_ours(buf, len, &ref, &vars[v], seed ^ 0xC0FFEEull ^ v, &s, why, sizeof why) < 0)
            fail(why, "ipt diff seed %" PRIu64 " %s: every packet == libipt 2.0.5", seed, vars[v].name);
        else
            pass("ipt diff seed %" PRIu64 " %s: %" PRIu64 " packets == libipt 2.0.5 (offset, kind, size, fields)",
                 seed, vars[v].name, s.packets);
        *total += s.packets;
    }

    /* The benchmark's mix (tools/bench/ipt.c), whole and through next_n. */
    ipt_gen_init(&g, seed ^ 0xBE4C4ull, IPT_GEN_MIX_BENCH);
    len = ipt_gen_fill(&g, buf, cap, npk / 2);
    memset(&s, 0, sizeof s);
    if (run_libipt(buf, len, &vars[0], &ref, &s, why, sizeof why) < 0 ||
        run_ours(buf, len, &ref, &vars[0], seed, &s, why, sizeof why) < 0 ||
        run_ours(buf, len, &ref, &vars[2], seed, &s, why, sizeof why) < 0)
        fail(why, "ipt diff seed %" PRIu64 " benchmark mix: every packet == libipt 2.0.5", seed);
    else
        pass("ipt diff seed %" PRIu64 " benchmark mix (IPT_GEN_MIX_BENCH), whole and next_n: %" PRIu64
             " packets (%.2f bytes a packet) == libipt 2.0.5", seed, s.packets, (double)len / (double)g.packets);
    *total += s.packets;

    /* A smaller stream, one byte at a time (and whole, for its count). */
    ipt_gen_init(&g, seed ^ 0x5A5A5A5Aull, IPT_GEN_MIX_ALL);
    len = ipt_gen_fill(&g, buf, cap < 300000 ? cap : 300000, 0);
    memset(&s, 0, sizeof s);
    if (run_libipt(buf, len, &one, &ref, &s, why, sizeof why) < 0 ||
        run_ours(buf, len, &ref, &one, seed, &s, why, sizeof why) < 0)
        fail(why, "ipt diff seed %" PRIu64 " %s: every packet == libipt 2.0.5", seed, one.name);
    else
        pass("ipt diff seed %" PRIu64 " %s: %" PRIu64 " packets (%zu bytes) == libipt 2.0.5", seed, one.name,
             s.packets, len);
    *total += s.packets;
    free(ref.v);
    free(buf);
}

/* ---- 2. hostile streams ---------------------------------------------------------- */

/* Applies 1..6 random corruptions to buf[0, *len) (capacity cap). */
static void corrupt(ipt_gen *g, uint8_t *buf, size_t *len, size_t cap)
{
    static const uint8_t hot[] = {0x00, 0x02, 0x82, 0xd9, 0x13, 0x53, 0xc9, 0x03, 0x07, 0xff, 0x99,
                                  0x73, 0x23, 0xf3, 0xa3, 0x43, 0xc3, 0x88, 0x12, 0x32, 0x52, 0x72};
    uint32_t n = 1 + ipt_gen_below(g, 6), i, k, j;
    size_t at;
    for (i = 0; i < n && *len > 0; i++) {
        at = ipt_gen_below(g, (uint32_t)*len);
        switch (ipt_gen_below(g, 8)) {
        case 0: buf[at] ^= (uint8_t)(1u << ipt_gen_below(g, 8)); break;
        case 1: buf[at] = (uint8_t)ipt_gen_rand(g); break;
        case 2: buf[at] = hot[ipt_gen_below(g, sizeof hot)]; break;
        case 3: /* insert 1..3 bytes */
            k = 1 + ipt_gen_below(g, 3);
            if (*len + k > cap) break;
            memmove(buf + at + k, buf + at, *len - at);
            for (j = 0; j < k; j++) buf[at + j] = (uint8_t)(j & 1 ? ipt_gen_rand(g) : hot[ipt_gen_below(g, sizeof hot)]);
            *len += k;
            break;
        case 4: /* delete 1..3 bytes */
            k = 1 + ipt_gen_below(g, 3);
            if (at + k > *len) k = (uint32_t)(*len - at);
            memmove(buf + at, buf + at + k, *len - at - k);
            *len -= k;
            break;
        case 5: /* a PSB fragment: 1..9 pairs, either phase */
            k = 2 * (1 + ipt_gen_below(g, 9)) + ipt_gen_below(g, 2);
            if (*len + k > cap) break;
            memmove(buf + at + k, buf + at, *len - at);
            for (j = 0; j < k; j++) buf[at + j] = (uint8_t)(((j + (k & 1)) & 1) ? 0x82 : 0x02);
            *len += k;
            break;
        case 6: /* truncate (rarely) */
            if (ipt_gen_below(g, 4) == 0) *len = at;
            break;
        default: /* flip the byte after a 02 */
            buf[at] = 0x02;
            if (at + 1 < *len) buf[at + 1] = (uint8_t)ipt_gen_rand(g);
            break;
        }
    }
}

static void print_stats(char *s, size_t cap, const stats *st)
{
    snprintf(s, cap,
             "%" PRIu64 " packets, %" PRIu64 " bad_opc + %" PRIu64 " bad_packet errors, %" PRIu64
             " resyncs, %" PRIu64 " gaps, %" PRIu64 " truncated ends, %" PRIu64 " unknown (hook)",
             st->packets, st->errors[TDEC_IPT_ERR_BAD_OPC], st->errors[TDEC_IPT_ERR_BAD_PACKET], st->resyncs,
             st->gaps, st->truncs, st->unknown);
}

static void hostile_streams(uint64_t seed, uint32_t count, uint64_t *total, uint64_t *expected)
{
    static const variant vars[] = {
        {"default", CH_RANDOM, 0, 0},
        {"SKZ84", CH_NEXT_N, 1, 0},
        {"unknown hook", CH_RANDOM, 0, 1},
    };
    ipt_gen g, m;
    evlist ref = {NULL, 0, 0};
    stats s[3];
    char why[1400], st[400];
    size_t cap = 40000, len, v;
    uint8_t *buf = alloc_buf(cap);
    uint32_t i, bad[3] = {0, 0, 0};

    memset(s, 0, sizeof s);
    ipt_gen_init(&m, seed ^ 0xBADBADull, IPT_GEN_MIX_ALL);
    for (i = 0; i < count; i++) {
        ipt_gen_init(&g, seed * 1000003u + i, IPT_GEN_MIX_ALL);
        len = ipt_gen_fill(&g, buf, 1024 + ipt_gen_below(&m, 12000), 0);
        memset(buf + len, 0, cap + 64 - len);
        corrupt(&m, buf, &len, cap);
        memset(buf + len, 0, cap + 64 - len);
        for (v = 0; v < 3; v++) {
            if (bad[v] >= 3) continue; /* report the first three failures of a variant */
            if (run_libipt(buf, len, &vars[v], &ref, &s[v], why, sizeof why) < 0 ||
                run_ours(buf, len, &ref, &vars[v], seed + i, &s[v], why, sizeof why) < 0) {
                bad[v]++;
                fail(why, "ipt hostile seed %" PRIu64 " stream %u (%zu bytes) %s", seed, i, len, vars[v].name);
                save_stream("hostile", seed, i, buf, len);
            }
        }
    }
    for (v = 0; v < 3; v++) {
        print_stats(st, sizeof st, &s[v]);
        if (bad[v] == 0)
            pass("ipt hostile seed %" PRIu64 " %s: %u corrupted streams == libipt 2.0.5 up to and after every error: "
                 "%s; %" PRIu64 " expected differences (CFE/EVD/TRIG), %" PRIu64 " SKZ84 packets cut by the end "
                 "(libipt steps past the end), %" PRIu64 " UNKNOWN packets cut by the end (emitted, then E_TRUNCATED)",
                 seed, vars[v].name, count, st, s[v].expected, s[v].skz84_overrun, s[v].cut_unknown);
        *total += s[v].packets;
        *expected += s[v].expected;
    }
    free(ref.v);
    free(buf);
}

/* ---- 3. sync over buffers --------------------------------------------------------- */

/* Whether a whole PSB starts at p in buf[0, len). */
static int psb_at(const uint8_t *buf, size_t len, size_t p)
{
    size_t i;
    if (p + 16 > len) return 0;
    for (i = 0; i < 16; i += 2)
        if (buf[p + i] != 0x02 || buf[p + i + 1] != 0x82) return 0;
    return 1;
}

/* libipt master's (and tdec_ipt's) forward rule, stated without windows:
   the first PSB at or after `from` that ends its run of 02 82 pairs. */
static long model_master_fwd(const uint8_t *buf, size_t len, size_t from)
{
    size_t p;
    for (p = from; p + 16 <= len; p++) {
        if (!psb_at(buf, len, p)) continue;
        if (p + 18 <= len && buf[p + 16] == 0x02 && buf[p + 17] == 0x82) continue;
        return (long)p;
    }
    return -1;
}

/* The run end (first byte after the complete 02 82 pairs) walking from q. */
static size_t run_end(const uint8_t *buf, size_t len, size_t q)
{
    while (q + 1 < len && buf[q] == 0x02 && buf[q + 1] == 0x82) q += 2;
    return q;
}

static int pattern8(const uint8_t *p)
{
    int i;
    for (i = 0; i < 8; i++)
        if (p[i] != ((i & 1) ? p[1] : p[0])) return 0;
    return (p[0] == 0x02 && p[1] == 0x82) || (p[0] == 0x82 && p[1] == 0x02);
}

/* The PSB a matching 8-byte window at w leads to: master walks from the
   window, 2.0.5 from the byte after it (reading buf[len] when the window
   ends the buffer: the buffers here have a zeroed tail). -1: none. */
static long psb_from_window(const uint8_t *buf, size_t len, size_t w, int v205)
{
    size_t q = v205 ? w + 8 : w, e;
    if (buf[q] != 0x02) q++;
    e = run_end(buf, len, q);
    if (e < 16 || !psb_at(buf, len, e - 16)) return -1;
    return (long)(e - 16);
}

static long model_fwd(const uint8_t *buf, size_t len, size_t from, int v205)
{
    size_t w;
    long p;
    for (w = (from + 7) & ~(size_t)7; w + 8 <= len; w += 8) {
        if (!pattern8(buf + w)) continue;
        p = psb_from_window(buf, len, w, v205);
        if (p >= 0 && (size_t)p >= from) return p;
    }
    return -1;
}

static long model_bwd(const uint8_t *buf, size_t len, size_t from, int v205)
{
    size_t w = from & ~(size_t)7;
    long p;
    while (w >= 8) {
        w -= 8;
        if (!pattern8(buf + w)) continue;
        p = psb_from_window(buf, len, w, v205);
        if (p >= 0) return p;
    }
    return -1;
}

/* libipt: the first PSB pt_pkt_sync_forward finds in [from, len). */
static long libipt_fwd(uint8_t *buf, size_t len, size_t from)
{
    struct pt_config cfg;
    struct pt_packet_decoder *d;
    uint64_t off;
    long r = -1;
    pt_config_init(&cfg);
    cfg.begin = buf + from;
    cfg.end = buf + len;
    d = pt_pkt_alloc_decoder(&cfg);
    if (pt_pkt_sync_forward(d) >= 0 && pt_pkt_get_sync_offset(d, &off) >= 0) r = (long)(off + from);
    pt_pkt_free_decoder(d);
    return r;
}

/* libipt: pt_pkt_sync_backward from `from` (len: from the end). */
static long libipt_bwd(uint8_t *buf, size_t len, size_t from)
{
    struct pt_config cfg;
    struct pt_packet_decoder *d;
    uint64_t off;
    long r = -1;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + len;
    d = pt_pkt_alloc_decoder(&cfg);
    if (from < len) pt_pkt_sync_set(d, from);
    if (pt_pkt_sync_backward(d) >= 0 && pt_pkt_get_sync_offset(d, &off) >= 0) r = (long)off;
    pt_pkt_free_decoder(d);
    return r;
}

typedef struct sync_stats {
    uint64_t buffers, bytes, fwd, bwd, at, list_psbs, walk_fwd, walk_bwd, bug205_fwd, bug205_bwd, stream;
} sync_stats;

/* A buffer rich in 02 82 runs of every length and phase. */
static size_t pattern_buffer(ipt_gen *g, uint8_t *buf, size_t cap)
{
    size_t len = ipt_gen_below(g, 8) == 0 ? 64 + ipt_gen_below(g, (uint32_t)cap - 64) : ipt_gen_below(g, 200);
    size_t n = 0, k, j;
    while (n < len) {
        switch (ipt_gen_below(g, 7)) {
        case 0:
        case 1: /* a run of 1..12 pairs, sometimes in the other phase */
            k = 2 * (1 + ipt_gen_below(g, 12));
            if (ipt_gen_below(g, 3) == 0) buf[n++] = 0x82;
            for (j = 0; j < k && n < len; j++) buf[n++] = (uint8_t)(j & 1 ? 0x82 : 0x02);
            if (n < len && ipt_gen_below(g, 3) == 0) buf[n++] = 0x02;
            break;
        case 2: /* exactly a PSB, maybe followed by a packet */
            for (j = 0; j < 16 && n < len; j++) buf[n++] = (uint8_t)(j & 1 ? 0x82 : 0x02);
            if (n + 2 <= len && ipt_gen_below(g, 2)) {
                buf[n++] = 0x02;
                buf[n++] = 0x23;
            }
            break;
        case 3: buf[n++] = 0x02; break;
        case 4: buf[n++] = 0x82; break;
        case 5: buf[n++] = 0x00; break;
        default:
            k = 1 + ipt_gen_below(g, 12);
            for (j = 0; j < k && n < len; j++) buf[n++] = (uint8_t)ipt_gen_rand(g);
            break;
        }
    }
    return len;
}

/* ours vs 2.0.5: equal, or the 2.0.5 rule explains it (and ours is
   master's). Returns 0, 1 (explained difference), -1 (fail). */
static int judge(long ours, long lib, long m, long o)
{
    if (ours != m) return -1; /* ours must be master's rule */
    if (lib != o) return -1;  /* the 2.0.5 model must be right */
    return ours == lib ? 0 : 1;
}

static void sync_buffers(uint64_t seed, uint32_t count)
{
    static const variant var = {"sync", CH_RANDOM, 0, 0};
    ipt_gen g;
    sync_stats ss;
    stats s;
    evlist ref = {NULL, 0, 0};
    size_t cap = 4096, len, from, list[600], cnt, k, psb;
    uint8_t *buf = alloc_buf(cap);
    char why[1400], ctx[300];
    uint32_t i, t, bad = 0, bad_stream = 0;
    long ours, lib, prev;
    tdec_status st;
    int r;
    struct pt_config cfg;
    struct pt_packet_decoder *d;
    struct pt_packet pkt;
    uint64_t off;

    memset(&ss, 0, sizeof ss);
    memset(&s, 0, sizeof s);
    ipt_gen_init(&g, seed ^ 0x5F5F5F5Full, IPT_GEN_MIX_ALL);
    for (i = 0; i < count && bad < 5; i++) {
        len = pattern_buffer(&g, buf, cap);
        memset(buf + len, 0, 64);
        ss.buffers++;
        ss.bytes += len;
        snprintf(ctx, sizeof ctx, "buffer %u (%zu bytes)", i, len);

        /* psb_list == pt_pkt_sync_forward walked to the end. */
        st = tdec_ipt_psb_list(buf, len, list, sizeof list / sizeof list[0], &cnt);
        pt_config_init(&cfg);
        cfg.begin = buf;
        cfg.end = buf + len;
        d = pt_pkt_alloc_decoder(&cfg);
        for (k = 0, prev = 0;; k++) {
            lib = pt_pkt_sync_forward(d) >= 0 && pt_pkt_get_sync_offset(d, &off) >= 0 ? (long)off : -1;
            ours = k < cnt ? (long)list[k] : -1;
            r = judge(ours, lib, model_fwd(buf, len, (size_t)prev, 0), model_fwd(buf, len, (size_t)prev, 1));
            if (r == 0 && ours != model_master_fwd(buf, len, (size_t)prev)) r = -1;
            if (r < 0 || st != TDEC_OK) {
                snprintf(why, sizeof why, "%s: PSB %zu from %ld: tdec_ipt_psb_list %ld, pt_pkt_sync_forward %ld, "
                         "master rule %ld, 2.0.5 rule %ld", ctx, k, prev, ours, lib,
                         model_master_fwd(buf, len, (size_t)prev), model_fwd(buf, len, (size_t)prev, 1));
                fail(why, "ipt sync seed %" PRIu64 ": psb_list == pt_pkt_sync_forward walk", seed);
                bad++;
                break;
            }
            if (r == 1) {
                ss.bug205_fwd++;
                break; /* the walks diverge from here */
            }
            if (ours < 0) break;
            ss.list_psbs++;
            ss.walk_fwd++;
            prev = ours + 1;
        }
        pt_pkt_free_decoder(d);

        /* sync_forward / sync_backward / sync_at from random offsets. */
        for (t = 0; t < 4; t++) {
            from = ipt_gen_below(&g, (uint32_t)len + 1);
            st = tdec_ipt_sync_forward(buf, len, from, &psb);
            ours = st == TDEC_OK ? (long)psb : -1;
            lib = libipt_fwd(buf, len, from);
            r = judge(ours, lib, model_fwd(buf, len, from, 0), model_fwd(buf, len, from, 1));
            if (ours != model_master_fwd(buf, len, from)) r = -1;
            if (r < 0 || (st != TDEC_OK && st != TDEC_E_NOSYNC)) {
                snprintf(why, sizeof why, "%s from %zu: tdec_ipt_sync_forward %ld, libipt %ld, master rule %ld, 2.0.5 rule %ld",
                         ctx, from, ours, lib, model_fwd(buf, len, from, 0), model_fwd(buf, len, from, 1));
                fail(why, "ipt sync seed %" PRIu64 ": sync_forward == pt_pkt_sync_forward", seed);
                bad++;
            }
            ss.fwd++;
            ss.bug205_fwd += r == 1;

            st = tdec_ipt_sync_backward(buf, len, from, &psb);
            ours = st == TDEC_OK ? (long)psb : -1;
            lib = libipt_bwd(buf, len, from);
            r = judge(ours, lib, model_bwd(buf, len, from, 0), model_bwd(buf, len, from, 1));
            if (r < 0 || (st != TDEC_OK && st != TDEC_E_NOSYNC)) {
                snprintf(why, sizeof why, "%s from %zu: tdec_ipt_sync_backward %ld, libipt %ld, master rule %ld, 2.0.5 rule %ld",
                         ctx, from, ours, lib, model_bwd(buf, len, from, 0), model_bwd(buf, len, from, 1));
                fail(why, "ipt sync seed %" PRIu64 ": sync_backward == pt_pkt_sync_backward", seed);
                bad++;
            }
            ss.bwd++;
            ss.bug205_bwd += r == 1;

            /* sync_at: OK <=> libipt decodes a PSB there; TRUNCATED <=> eos. */
            st = tdec_ipt_sync_at(buf, len, from);
            d = pt_pkt_alloc_decoder(&cfg);
            pt_pkt_sync_set(d, from);
            r = pt_pkt_next(d, &pkt, sizeof pkt);
            pt_pkt_free_decoder(d);
            /* pt_sync_set()'s rule: fewer than 2 bytes is the end; 02 82
               cut before 16 bytes too; 02 82 with a broken pattern or
               anything else is no PSB. */
            k = len - from >= 2 && buf[from] == 0x02 && buf[from + 1] == 0x82;
            if (!((st == TDEC_OK && r > 0 && pkt.type == ppt_psb) ||
                  (st == TDEC_E_TRUNCATED && (len - from < 2 || (k && r == -pte_eos))) ||
                  (st == TDEC_E_NOSYNC && len - from >= 2 && !(r > 0 && pkt.type == ppt_psb) &&
                   (!k || r == -pte_bad_packet)))) {
                snprintf(why, sizeof why, "%s at %zu: tdec_ipt_sync_at %s, libipt pt_pkt_next %d (type %d)", ctx, from,
                         tdec_status_str(st), r, r > 0 ? (int)pkt.type : -1);
                fail(why, "ipt sync seed %" PRIu64 ": sync_at == pt_pkt_sync_set + pt_pkt_next", seed);
                bad++;
            }
            ss.at++;
        }

        /* Walking backward from the end. */
        from = len;
        d = pt_pkt_alloc_decoder(&cfg);
        for (prev = (long)len + 1;;) {
            st = tdec_ipt_sync_backward(buf, len, from, &psb);
            ours = st == TDEC_OK ? (long)psb : -1;
            lib = pt_pkt_sync_backward(d) >= 0 && pt_pkt_get_sync_offset(d, &off) >= 0 ? (long)off : -1;
            r = judge(ours, lib, model_bwd(buf, len, from, 0), model_bwd(buf, len, from, 1));
            if (r < 0) {
                snprintf(why, sizeof why, "%s from %zu: tdec_ipt_sync_backward %ld, pt_pkt_sync_backward %ld, "
                         "master rule %ld, 2.0.5 rule %ld", ctx, from, ours, lib, model_bwd(buf, len, from, 0),
                         model_bwd(buf, len, from, 1));
                fail(why, "ipt sync seed %" PRIu64 ": sync_backward walk == pt_pkt_sync_backward walk", seed);
                bad++;
                break;
            }
            ss.bug205_bwd += r == 1;
            if (r == 1 || ours < 0 || ours >= prev) break; /* diverged, done, or stuck on a long run */
            ss.walk_bwd++;
            prev = ours;
            from = (size_t)ours;
        }
        pt_pkt_free_decoder(d);

        /* The streaming decoder on the same buffer: PSB search in random
           chunks, then packets, errors and resyncs, from a random start. */
        from = ipt_gen_below(&g, 4) == 0 ? ipt_gen_below(&g, (uint32_t)len + 1) : 0;
        if (bad_stream < 3) {
            /* An 8-aligned copy: libipt aligns its search on addresses. */
            uint8_t *cp = alloc_buf(len - from);
            memcpy(cp, buf + from, len - from);
            if (run_libipt(cp, len - from, &var, &ref, &s, why, sizeof why) < 0 ||
                run_ours(cp, len - from, &ref, &var, seed + i, &s, why, sizeof why) < 0) {
                char w2[1800];
                snprintf(w2, sizeof w2, "%s from %zu: %s", ctx, from, why);
                fail(w2, "ipt sync seed %" PRIu64 ": streaming decoder == libipt on pattern buffers", seed);
                save_stream("pattern", seed, i, cp, len - from);
                bad_stream++;
            }
            free(cp);
            ss.stream++;
        }
    }
    if (bad == 0)
        pass("ipt sync seed %" PRIu64 ": %" PRIu64 " pattern buffers (%" PRIu64 " bytes): psb_list/sync_forward/"
             "sync_backward/sync_at == libipt 2.0.5 (%" PRIu64 " forward-walk PSBs, %" PRIu64 " backward-walk PSBs, %"
             PRIu64 " + %" PRIu64 " + %" PRIu64 " random-offset checks), master's rule everywhere; differences "
             "(forward %" PRIu64 ", backward %" PRIu64 ") all 2.0.5's pt_find_psb starting after the window (fixed in 2.1)",
             seed, ss.buffers, ss.bytes, ss.walk_fwd, ss.walk_bwd, ss.fwd, ss.bwd, ss.at, ss.bug205_fwd, ss.bug205_bwd);
    if (bad_stream == 0) {
        print_stats(why, sizeof why, &s);
        pass("ipt sync seed %" PRIu64 ": streaming decoder == libipt 2.0.5 on %" PRIu64
             " pattern buffers (random chunks, random start): %s; %" PRIu64 " expected differences (CFE/EVD/TRIG)",
             seed, ss.stream, why, s.expected);
    }
    free(ref.v);
    free(buf);
}

int main(int argc, char **argv)
{
    static const uint64_t dflt[] = {1, 2, 3, 4};
    uint64_t seeds[64], npk = 1500000, total = 0, expected = 0;
    uint32_t hostile = 1500, buffers = 20000;
    size_t nseeds = 4, i;
    double t0 = now();
    char *p;

    memcpy(seeds, dflt, sizeof dflt);
    for (i = 1; i < (size_t)argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < (size_t)argc) {
            nseeds = 0;
            for (p = argv[++i]; *p && nseeds < 64;) {
                seeds[nseeds++] = strtoull(p, &p, 0);
                if (*p == ',') p++;
                else break;
            }
        } else if (strcmp(argv[i], "-p") == 0 && i + 1 < (size_t)argc) {
            npk = strtoull(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "-h") == 0 && i + 1 < (size_t)argc) {
            hostile = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < (size_t)argc) {
            save_dir = argv[++i];
        } else if (strcmp(argv[i], "-b") == 0 && i + 1 < (size_t)argc) {
            buffers = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "usage: diff_ipt [-s SEEDS] [-p PACKETS] [-h HOSTILE] [-b BUFFERS] [-o DIR]\n");
            return 2;
        }
    }
    for (i = 0; i < nseeds; i++) {
        valid_streams(seeds[i], npk, &total);
        hostile_streams(seeds[i], hostile, &total, &expected);
        sync_buffers(seeds[i], buffers);
    }
    printf("ipt diff: %" PRIu64 " packets compared with libipt 2.0.5, %" PRIu64
           " expected differences (opcodes 2.0.5 does not know), %d failures, %.1f s\n",
           total, expected, failures, now() - t0);
    return failures ? 1 : 0;
}
