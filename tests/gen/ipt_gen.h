/* ipt_gen.h - seeded random Intel PT packet streams, written with libipt's
   own encoder (pt_enc_next; Debian's libipt-dev 2.0.5 or later), for the
   differential test (tests/diff/ipt.c) and the benchmark (tools/bench/ipt.c).
   Include-only (static functions); link with -lipt.

   A stream is whole, valid packets that libipt 2.0.5 decodes: it starts with
   a PSB+ and has one every few KiB (PSB, then status packets, PSBEND), and
   between them random packets of one of two mixes:

     IPT_GEN_MIX_ALL    every packet 2.0.5 knows, evenly, with every field
                        value class: all IP compressions (suppressed,
                        update-16/32/48, sext-48, full), MODE.Exec with all
                        CS.L/CS.D combinations, MODE.TSX, PIP (NR 0/1), TSC,
                        CBR, TMA (FC up to 0x1ff), MTC, CYC of every length
                        (1..9 bytes: values up to the 61-bit maximum), STOP,
                        VMCS, MNT, EXSTOP (IP 0/1), MWAIT, PWRE, PWRX (any
                        wake-reason bits), PTW (4 and 8 bytes, IP 0/1), OVF,
                        stray PSBENDs; PSB+ every 1..4 KiB with a random set
                        of status packets.
     IPT_GEN_MIX_BENCH  the synthetic stream libipt's speed was first
                        measured on here (docs/ipt.md, Speed: 1.78
                        bytes a packet; TNT-8 45 %, PAD 22 %, TIP 10 %, CYC
                        10 %, MTC 6 %, TNT-64 3 %, FUP, TIP.PGE/PGD, PIP,
                        CBR/TSC/TMA, MODE, OVF), PSB+ every 4 KiB.

     IPT_GEN_MIX_FLOW   the same mix, but as a trace the event and query
                        decoders take without an error: packets that need a
                        partner come with it (FUP then TIP or TIP.PGD+TIP.PGE,
                        TIP.PGD then TIP.PGE, MODE.Exec then TIP, TSC then
                        TMA, OVF then FUP), so tracing is on and nothing is
                        pending between groups and at every PSB.

   The generator is splitmix64 from the seed: the same seed, mix and size
   give the same bytes. Counts per libipt packet type are kept in g->count.

       ipt_gen g;
       ipt_gen_init(&g, seed, IPT_GEN_MIX_ALL);
       len = ipt_gen_fill(&g, buf, cap, max_packets);   whole packets only
*/
#ifndef IPT_GEN_H
#define IPT_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <intel-pt.h>

#if defined(__GNUC__) || defined(__clang__)
#define IPT_GEN_FN static __attribute__((unused))
#else
#define IPT_GEN_FN static
#endif

enum { IPT_GEN_MIX_ALL = 0, IPT_GEN_MIX_BENCH = 1, IPT_GEN_MIX_FLOW = 2 };

#define IPT_GEN_NTYPES 32 /* > every enum pt_packet_type value */

typedef struct ipt_gen {
    uint64_t rng;
    int      mix;
    uint64_t tsc;                    /* rising TSC for PSB+ and TSC packets  */
    size_t   psb_at;                 /* offset of the next PSB+              */
    uint64_t packets;                /* packets written so far               */
    uint64_t bytes;                  /* bytes written so far (all fills)     */
    uint64_t count[IPT_GEN_NTYPES];  /* packets per enum pt_packet_type      */
} ipt_gen;

/* splitmix64 */
IPT_GEN_FN uint64_t ipt_gen_rand(ipt_gen *g)
{
    uint64_t z = (g->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
IPT_GEN_FN uint32_t ipt_gen_below(ipt_gen *g, uint32_t n)
{
    return (uint32_t)(((ipt_gen_rand(g) >> 32) * (uint64_t)n) >> 32);
}

IPT_GEN_FN void ipt_gen_init(ipt_gen *g, uint64_t seed, int mix)
{
    memset(g, 0, sizeof *g);
    g->rng = seed;
    g->mix = mix;
    g->tsc = 0x100000000ull + (ipt_gen_rand(g) & 0xffffffffull);
}

/* ---- one packet --------------------------------------------------------- */

/* A random IP compression: every value in MIX_ALL; in MIX_BENCH mostly the
   short forms (the report's mix averages ~4 bytes an IP packet). */
IPT_GEN_FN enum pt_ip_compression ipt_gen_ipc(ipt_gen *g, int pgd)
{
    static const enum pt_ip_compression all[6] = {pt_ipc_suppressed, pt_ipc_update_16, pt_ipc_update_32,
                                                  pt_ipc_sext_48,    pt_ipc_update_48, pt_ipc_full};
    uint32_t r;
    if (g->mix == IPT_GEN_MIX_ALL) return all[ipt_gen_below(g, 6)];
    r = ipt_gen_below(g, 100);
    if (pgd) return r < 80 ? pt_ipc_suppressed : r < 95 ? pt_ipc_update_16 : pt_ipc_update_32;
    if (r < 7) return pt_ipc_suppressed;
    if (r < 52) return pt_ipc_update_16;
    if (r < 82) return pt_ipc_update_32;
    if (r < 92) return pt_ipc_sext_48;
    if (r < 97) return pt_ipc_update_48;
    return pt_ipc_full;
}

/* The bytes of ip that a packet with compression ipc carries: the encoder
   writes only those, so the rest is kept zero and the packet says exactly
   what was asked for. */
IPT_GEN_FN uint64_t ipt_gen_ip_bits(enum pt_ip_compression ipc, uint64_t ip)
{
    switch (ipc) {
    case pt_ipc_suppressed: return 0;
    case pt_ipc_update_16: return ip & 0xffffull;
    case pt_ipc_update_32: return ip & 0xffffffffull;
    case pt_ipc_sext_48:
    case pt_ipc_update_48: return ip & 0xffffffffffffull;
    case pt_ipc_full: break;
    }
    return ip;
}

IPT_GEN_FN void ipt_gen_ip(ipt_gen *g, struct pt_packet *p, enum pt_packet_type type, enum pt_ip_compression ipc)
{
    p->type = type;
    p->payload.ip.ipc = ipc;
    p->payload.ip.ip = ipt_gen_ip_bits(ipc, ipt_gen_rand(g));
}

/* A CYC value: MIX_ALL spreads the bit length 0..61 (every packet size);
   MIX_BENCH is mostly one or two bytes. */
IPT_GEN_FN uint64_t ipt_gen_cyc(ipt_gen *g)
{
    uint32_t bits, r;
    if (g->mix == IPT_GEN_MIX_ALL) {
        bits = ipt_gen_below(g, 62);
    } else {
        r = ipt_gen_below(g, 100);
        bits = r < 70 ? 5 : r < 95 ? 12 : 19;
    }
    if (bits == 0) return 0;
    return ipt_gen_rand(g) & (((uint64_t)1 << bits) - 1);
}

IPT_GEN_FN void ipt_gen_tnt(ipt_gen *g, struct pt_packet *p, int wide)
{
    uint8_t n = (uint8_t)(wide ? 1 + ipt_gen_below(g, 47) : 1 + ipt_gen_below(g, 6));
    p->type = wide ? ppt_tnt_64 : ppt_tnt_8;
    p->payload.tnt.bit_size = n;
    p->payload.tnt.payload = ipt_gen_rand(g) & (((uint64_t)1 << n) - 1);
}

/* Fills *p with a random packet of libipt type t (not PSB). */
IPT_GEN_FN void ipt_gen_packet(ipt_gen *g, struct pt_packet *p, enum pt_packet_type t)
{
    uint64_t r;
    memset(p, 0, sizeof *p);
    p->type = t;
    switch (t) {
    case ppt_tnt_8: ipt_gen_tnt(g, p, 0); break;
    case ppt_tnt_64: ipt_gen_tnt(g, p, 1); break;
    case ppt_tip:
    case ppt_tip_pge:
    case ppt_fup: ipt_gen_ip(g, p, t, ipt_gen_ipc(g, 0)); break;
    case ppt_tip_pgd: ipt_gen_ip(g, p, t, ipt_gen_ipc(g, 1)); break;
    case ppt_mode:
        r = ipt_gen_rand(g);
        if (g->mix == IPT_GEN_MIX_ALL && (r & 1u)) {
            p->payload.mode.leaf = pt_mol_tsx;
            p->payload.mode.bits.tsx.intx = (r >> 1) & 1u;
            p->payload.mode.bits.tsx.abrt = (r >> 2) & 1u;
        } else {
            p->payload.mode.leaf = pt_mol_exec;
            if (g->mix == IPT_GEN_MIX_ALL) {
                p->payload.mode.bits.exec.csl = (r >> 1) & 1u;
                p->payload.mode.bits.exec.csd = (r >> 2) & 1u;
            } else {
                p->payload.mode.bits.exec.csl = 1; /* 64-bit */
            }
        }
        break;
    case ppt_pip:
        r = ipt_gen_rand(g);
        p->payload.pip.cr3 = r & 0xfffffffffffe0ull; /* CR3[51:5] */
        p->payload.pip.nr = (r >> 63) != 0;
        break;
    case ppt_tsc:
        g->tsc += 1 + (ipt_gen_rand(g) & 0xfffff);
        p->payload.tsc.tsc = g->tsc & 0xffffffffffffffull;
        break;
    case ppt_cbr: p->payload.cbr.ratio = (uint8_t)(g->mix == IPT_GEN_MIX_ALL ? ipt_gen_rand(g) : 20 + ipt_gen_below(g, 20)); break;
    case ppt_tma:
        r = ipt_gen_rand(g);
        p->payload.tma.ctc = (uint16_t)r;
        p->payload.tma.fc = (uint16_t)((r >> 16) & 0x1ffu);
        break;
    case ppt_mtc: p->payload.mtc.ctc = (uint8_t)ipt_gen_rand(g); break;
    case ppt_cyc: p->payload.cyc.value = ipt_gen_cyc(g); break;
    case ppt_vmcs: p->payload.vmcs.base = (ipt_gen_rand(g) & 0xffffffffffull) << 12; break;
    case ppt_mnt: p->payload.mnt.payload = ipt_gen_rand(g); break;
    case ppt_exstop: p->payload.exstop.ip = ipt_gen_rand(g) & 1u; break;
    case ppt_mwait:
        r = ipt_gen_rand(g);
        p->payload.mwait.hints = (uint32_t)r;
        p->payload.mwait.ext = (uint32_t)(r >> 32);
        break;
    case ppt_pwre:
        r = ipt_gen_rand(g);
        p->payload.pwre.state = (uint8_t)(r & 0xfu);
        p->payload.pwre.sub_state = (uint8_t)((r >> 4) & 0xfu);
        p->payload.pwre.hw = (r >> 8) & 1u;
        break;
    case ppt_pwrx:
        r = ipt_gen_rand(g);
        p->payload.pwrx.last = (uint8_t)(r & 0xfu);
        p->payload.pwrx.deepest = (uint8_t)((r >> 4) & 0xfu);
        p->payload.pwrx.interrupt = (r >> 8) & 1u;
        p->payload.pwrx.store = (r >> 9) & 1u;
        p->payload.pwrx.autonomous = (r >> 10) & 1u;
        break;
    case ppt_ptw:
        r = ipt_gen_rand(g);
        p->payload.ptw.plc = (uint8_t)(r & 1u);
        p->payload.ptw.ip = (r >> 1) & 1u;
        p->payload.ptw.payload = ipt_gen_rand(g);
        if (p->payload.ptw.plc == 0) p->payload.ptw.payload &= 0xffffffffull;
        break;
    default: break; /* pad, psbend, ovf, stop: nothing */
    }
}

/* ---- the mixes ------------------------------------------------------------ */

typedef struct ipt_gen_weight {
    enum pt_packet_type type;
    uint32_t            weight;
} ipt_gen_weight;

/* Every packet 2.0.5 knows, except PSB (only in PSB+). */
static const ipt_gen_weight ipt_gen_mix_all[] = {
    {ppt_pad, 6},   {ppt_tnt_8, 16}, {ppt_tnt_64, 6}, {ppt_tip, 8},    {ppt_tip_pge, 3}, {ppt_tip_pgd, 3},
    {ppt_fup, 5},   {ppt_mode, 5},   {ppt_pip, 2},    {ppt_tsc, 2},    {ppt_cbr, 2},     {ppt_tma, 2},
    {ppt_mtc, 4},   {ppt_cyc, 12},   {ppt_stop, 1},   {ppt_vmcs, 1},   {ppt_mnt, 1},     {ppt_exstop, 2},
    {ppt_mwait, 1}, {ppt_pwre, 1},   {ppt_pwrx, 1},   {ppt_ptw, 3},    {ppt_ovf, 1},     {ppt_psbend, 1},
};

/* The benchmark mix, packets per million outside PSB+. */
static const ipt_gen_weight ipt_gen_mix_bench[] = {
    {ppt_tnt_8, 446000}, {ppt_pad, 223500},  {ppt_tip, 100500},   {ppt_cyc, 97900}, {ppt_mtc, 56200},
    {ppt_tnt_64, 33700}, {ppt_fup, 9500},    {ppt_tip_pge, 8400}, {ppt_tip_pgd, 8400}, {ppt_pip, 6100},
    {ppt_cbr, 1900},     {ppt_tsc, 1900},    {ppt_tma, 1900},     {ppt_mode, 1000},  {ppt_ovf, 66},
};

/* MIX_FLOW: the bench mix, plus the packets that make events (each comes
   with its partner, see ipt_gen_flow_group). */
static const ipt_gen_weight ipt_gen_mix_flow[] = {
    {ppt_tnt_8, 446000}, {ppt_pad, 223500},  {ppt_tip, 100500},   {ppt_cyc, 97900}, {ppt_mtc, 56200},
    {ppt_tnt_64, 33700}, {ppt_fup, 9500},    {ppt_tip_pge, 8400}, {ppt_tip_pgd, 8400}, {ppt_pip, 6100},
    {ppt_cbr, 1900},     {ppt_tsc, 1900},    {ppt_tma, 1900},     {ppt_mode, 1000},  {ppt_ovf, 66},
    {ppt_ptw, 500},      {ppt_exstop, 300},  {ppt_mwait, 200},    {ppt_pwre, 200},   {ppt_vmcs, 200},
    {ppt_mnt, 100},      {ppt_stop, 50},
};

IPT_GEN_FN enum pt_packet_type ipt_gen_pick(ipt_gen *g)
{
    const ipt_gen_weight *w = g->mix == IPT_GEN_MIX_ALL   ? ipt_gen_mix_all
                              : g->mix == IPT_GEN_MIX_FLOW ? ipt_gen_mix_flow
                                                           : ipt_gen_mix_bench;
    size_t n = g->mix == IPT_GEN_MIX_ALL    ? sizeof ipt_gen_mix_all / sizeof ipt_gen_mix_all[0]
               : g->mix == IPT_GEN_MIX_FLOW ? sizeof ipt_gen_mix_flow / sizeof ipt_gen_mix_flow[0]
                                            : sizeof ipt_gen_mix_bench / sizeof ipt_gen_mix_bench[0];
    uint32_t total = 0, r;
    size_t i;
    for (i = 0; i < n; i++) total += w[i].weight;
    r = ipt_gen_below(g, total);
    for (i = 0; i + 1 < n; i++) {
        if (r < w[i].weight) break;
        r -= w[i].weight;
    }
    return w[i].type;
}

/* ---- writing -------------------------------------------------------------- */

IPT_GEN_FN void ipt_gen_put(ipt_gen *g, struct pt_encoder *e, const struct pt_packet *p);
IPT_GEN_FN void ipt_gen_put_type(ipt_gen *g, struct pt_encoder *e, enum pt_packet_type t);

/* MIX_FLOW: an IP packet that carries an IP (an asynchronous branch needs
   its FUP's; libipt 2.0.5 rejects a TIP.PGE without one). */
IPT_GEN_FN void ipt_gen_put_ip(ipt_gen *g, struct pt_encoder *e, enum pt_packet_type t)
{
    struct pt_packet p;
    enum pt_ip_compression ipc = ipt_gen_ipc(g, 0);
    if (ipc == pt_ipc_suppressed) ipc = pt_ipc_update_16;
    memset(&p, 0, sizeof p);
    ipt_gen_ip(g, &p, t, ipc);
    ipt_gen_put(g, e, &p);
}

/* MIX_FLOW: one group of packets for a picked type, complete at the layers
   above (tracing on before and after). */
IPT_GEN_FN void ipt_gen_flow_group(ipt_gen *g, struct pt_encoder *e, enum pt_packet_type t)
{
    struct pt_packet p;
    switch (t) {
    case ppt_fup: /* an asynchronous branch, or tracing stopped there */
        ipt_gen_put_ip(g, e, ppt_fup);
        if (ipt_gen_below(g, 4) != 0) {
            ipt_gen_put_type(g, e, ppt_tip);
            break;
        }
        ipt_gen_put_type(g, e, ppt_tip_pgd);
        ipt_gen_put_ip(g, e, ppt_tip_pge);
        break;
    case ppt_tip_pge:
    case ppt_tip_pgd:
        ipt_gen_put_type(g, e, ppt_tip_pgd);
        ipt_gen_put_ip(g, e, ppt_tip_pge);
        break;
    case ppt_mode:
        ipt_gen_put_type(g, e, ppt_mode);
        ipt_gen_put_type(g, e, ppt_tip);
        break;
    case ppt_tsc:
        ipt_gen_put_type(g, e, ppt_tsc);
        ipt_gen_put_type(g, e, ppt_tma);
        break;
    case ppt_tma: /* comes with its TSC */
        break;
    case ppt_ovf:
        ipt_gen_put_type(g, e, ppt_ovf);
        ipt_gen_put_ip(g, e, ppt_fup);
        break;
    case ppt_ptw: /* PTW.IP and EXSTOP.IP are bound to the next FUP */
    case ppt_exstop:
        ipt_gen_packet(g, &p, t);
        ipt_gen_put(g, e, &p);
        if (t == ppt_ptw ? p.payload.ptw.ip : p.payload.exstop.ip) ipt_gen_put_ip(g, e, ppt_fup);
        break;
    case ppt_mwait: /* MWAIT waits for an EXSTOP, here with IP and its FUP
                       (2.0.5 drops an MWAIT whose EXSTOP has no IP) */
        ipt_gen_put_type(g, e, ppt_mwait);
        ipt_gen_packet(g, &p, ppt_exstop);
        p.payload.exstop.ip = 1;
        ipt_gen_put(g, e, &p);
        ipt_gen_put_ip(g, e, ppt_fup);
        break;
    case ppt_pwre: /* PWRE waits for a PWRX */
        ipt_gen_put_type(g, e, ppt_pwre);
        ipt_gen_put_type(g, e, ppt_pwrx);
        break;
    default:
        ipt_gen_put_type(g, e, t);
        break;
    }
}


/* Encodes one packet; a failure is a generator bug (the buffer has room). */
IPT_GEN_FN void ipt_gen_put(ipt_gen *g, struct pt_encoder *e, const struct pt_packet *p)
{
    int n = pt_enc_next(e, p);
    if (n <= 0) {
        fprintf(stderr, "ipt_gen: pt_enc_next(type %d) failed: %s\n", (int)p->type, pt_errstr(pt_errcode(n)));
        abort();
    }
    g->packets++;
    g->bytes += (uint64_t)n;
    if ((unsigned)p->type < IPT_GEN_NTYPES) g->count[p->type]++;
}

IPT_GEN_FN void ipt_gen_put_type(ipt_gen *g, struct pt_encoder *e, enum pt_packet_type t)
{
    struct pt_packet p;
    ipt_gen_packet(g, &p, t);
    ipt_gen_put(g, e, &p);
}

/* A PSB+: PSB, status packets, PSBEND (at most ~80 bytes). MIX_BENCH:
   TSC, TMA, CBR, MODE.Exec, FUP (as hardware sends them); MIX_ALL: a random
   subset of TSC, TMA, CBR, MODE, PIP, VMCS, MNT, FUP, PAD, MTC, CYC in a
   random order, and sometimes an OVF instead of the PSBEND. */
IPT_GEN_FN void ipt_gen_psb_plus(ipt_gen *g, struct pt_encoder *e)
{
    static const enum pt_packet_type status[] = {ppt_tsc, ppt_tma, ppt_cbr, ppt_mode, ppt_pip, ppt_vmcs,
                                                 ppt_mnt, ppt_fup, ppt_pad, ppt_mtc, ppt_cyc};
    struct pt_packet p;
    uint32_t n, i;
    memset(&p, 0, sizeof p);
    p.type = ppt_psb;
    ipt_gen_put(g, e, &p);
    if (g->mix != IPT_GEN_MIX_ALL) {
        ipt_gen_put_type(g, e, ppt_tsc);
        ipt_gen_put_type(g, e, ppt_tma);
        ipt_gen_put_type(g, e, ppt_cbr);
        ipt_gen_put_type(g, e, ppt_mode);
        ipt_gen_packet(g, &p, ppt_fup);
        p.payload.ip.ipc = pt_ipc_sext_48;
        p.payload.ip.ip = ipt_gen_rand(g) & 0xffffffffffffull;
        ipt_gen_put(g, e, &p);
        ipt_gen_put_type(g, e, ppt_psbend);
        return;
    }
    n = ipt_gen_below(g, 7);
    for (i = 0; i < n; i++)
        ipt_gen_put_type(g, e, status[ipt_gen_below(g, (uint32_t)(sizeof status / sizeof status[0]))]);
    ipt_gen_put_type(g, e, ipt_gen_below(g, 16) == 0 ? ppt_ovf : ppt_psbend);
}

/* Appends whole packets to buf[0, cap) until fewer than 128 bytes are left
   or max_packets (0: no limit) packets were written in this call. The
   stream starts with a PSB+ when g is fresh. Returns the bytes written. */
IPT_GEN_FN size_t ipt_gen_fill(ipt_gen *g, uint8_t *buf, size_t cap, uint64_t max_packets)
{
    struct pt_config cfg;
    struct pt_encoder *e;
    uint64_t off = 0, start = g->packets, base = g->bytes;
    if (cap < 128) return 0;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + cap;
    e = pt_alloc_encoder(&cfg);
    if (e == NULL) {
        fprintf(stderr, "ipt_gen: pt_alloc_encoder failed\n");
        abort();
    }
    while (cap - (size_t)off >= 128 && (max_packets == 0 || g->packets - start < max_packets)) {
        if (g->bytes >= (uint64_t)g->psb_at) {
            ipt_gen_psb_plus(g, e);
            g->psb_at = (size_t)g->bytes +
                        (g->mix == IPT_GEN_MIX_ALL ? 1024u + ipt_gen_below(g, 3072) : 4096u);
        } else if (g->mix == IPT_GEN_MIX_FLOW) {
            ipt_gen_flow_group(g, e, ipt_gen_pick(g));
        } else {
            ipt_gen_put_type(g, e, ipt_gen_pick(g));
        }
        off = g->bytes - base;
    }
    pt_free_encoder(e);
    return (size_t)off;
}

#endif /* IPT_GEN_H */
