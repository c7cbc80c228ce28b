/* diff_ipt_qry.c - differential test of the Intel PT query decoder of
   single/tdec_ipt.h (tdec_ipt_qry_*, libipt master's pt_qry_* on top of the
   event decoder) against the query decoder of the system's libipt (Debian's
   libipt 2.0.5: an older, standalone implementation of the same API). Link
   with -lipt; run by tests/diff/ipt_qry.sh. One line per check: "PASS ..."
   or "FAIL ...", then a "# ipt-qry diff:" summary line.

   STREAMS
     A trace grammar (the generator below) writes each stream with libipt's
     encoder (pt_enc_next), group of packets by group, so that it is valid
     at the query layer. A PSB+ (PSB; TSC+TMA, CBR, MODE.Exec, MODE.TSX,
     PIP, VMCS, MNT, PAD, MTC, CYC in a random order, a FUP when tracing is
     on; PSBEND, sometimes OVF) every 256 B..8 KiB, saying the current
     state. Between them, while tracing is on: TNT-8, TNT-64, TIP (every IP
     compression, suppressed too), MODE.Exec + TIP, FUP [PIP] [VMCS]
     [MODE.Exec] + TIP (asynchronous branch; PIP/VMCS in either order), the
     same ending in TIP.PGD (asynchronous disable), TIP.PGD [+ STOP],
     MODE.TSX + FUP (+ TIP for an abort), PIP, VMCS, CBR, MNT, PTW (with
     IP + FUP, or without), EXSTOP (IP + FUP, or without), MWAIT + EXSTOP.IP
     + FUP, power sessions (MWAIT, PWRE, EXSTOP.IP, FUP, PWRX as hardware
     sends them; PWRE, EXSTOP, PWRX; PWRE [PWRE] PWRX), PWRX, STOP, OVF +
     FUP; while it is off: [MODE.Exec +] TIP.PGE, PIP, VMCS, CBR, MNT,
     MODE.TSX, EXSTOP, PTW, PWRE..PWRX, PWRX, STOP, OVF (an OVF resolves
     with a FUP, or with tracing off: the next group says so); TSC+TMA, MTC
     (the CTC counts as a clock would, sometimes skipping), CYC and PAD
     anywhere between groups. In half of the streams ("inner timing") MTC,
     CYC, TSC+TMA, PAD and now and then CBR or MNT also go inside the groups
     (between a FUP or MODE and its TIP, an OVF and its FUP, a PWRE and its
     PWRX, ...). Streams are 0.2..128 KiB; some are one PSB+ only, some
     start with junk before the first PSB, some end right after a PSB+;
     each has its own timing configuration (mtc_freq, nom_freq, CPUID 0x15
     ratio; zeros too). A stream is named by its seed and index: the same
     pair gives the same bytes.

   DRAIN
     Both decoders the same way: sync forward; then, while the last status
     says event pending, an event query, else a conditional-branch query
     and, when that is a bad query, an indirect-branch query; after every
     answer the time (pt_qry_time: its result, tsc, lost_mtc, lost_cyc) and
     the core:bus ratio. -pte_eos (TDEC_END) ends; any other error is
     recorded (libipt's code; ours: TDEC_E_SEQUENCE is -pte_bad_query,
     TDEC_E_CORRUPT its err_reason) and both resynchronise
     (pt_qry_sync_forward; tdec_ipt_qry_resync + sync). Ours is fed the
     stream whole, in random chunks (1..4096 bytes, often 1..16) and, every
     4th stream, one byte at a time: the three answer lists must be
     identical.

   COMPARISON
     Answer by answer: kind, status bits, taken, IP (or suppressed), the
     sync offset, event type, every event field 2.0.5 has, status_update,
     has_tsc, tsc, lost_mtc, lost_cyc, and the time and CBR after the
     answer; error codes (not their offsets: 2.0.5's position is its own).
     Only documented 2.0.5-vs-master differences are removed, each counted.
     From libipt's sources (2.0.5 and master: pt_query_decoder.c,
     pt_event_decoder.c) and master's doc/man/pt_qry_cond_branch.3.md:
       F1 master reports the tracing state at every PSB+ as an enabled or
          disabled status event (pt_evt_decode_psb); 2.0.5 only returns it
          through the sync status and IP: ours' enabled/disabled status
          events are dropped (and the event-pending bit they alone put on
          the answer before them).
       F2 master delivers a MODE.Exec bound to a TIP after the indirect
          branch answer (pt_evt_decode_tip sends the tip event first);
          2.0.5 before it (pt_qry_decode_tip publishes the queued exec_mode
          and keeps the TIP): such an exec_mode of 2.0.5 (followed by the
          indirect answer, not published with other events of an earlier
          TIP or TIP.PGE) is moved after the answer, with the event-pending
          bits master sets.
       F3 master drops a MODE.Exec that does not change CS.L/CS.D
          (pt_evt_decode_mode_exec queues an internal ignore event); 2.0.5
          reports it: 2.0.5's non-status exec_mode events that repeat
          master's current mode are dropped (master's mode: the last
          exec_mode, forgotten at sync and at an overflow as pt_evt_reset
          does).
       F4 master's tip, tnt, iflags, CFE, EVD and TRIG events: nothing to
          filter: tip and tnt events are answered by the branch queries,
          iflags events need TDEC_IPT_F_IFLAGS (off), CFE/EVD/TRIG are not
          generated. Such an event would fail.
       F5 a trace that ends right after a PSB+ (nothing after it that 2.0.5
          would report): master syncs and reports the state, 2.0.5's
          pt_qry_sync_forward returns -pte_eos (its read-ahead hits the
          end): ours' sync answer with nothing but F1 events after it before
          the end is dropped.
     Found by this test, documented libipt changes since 2.0.5 (libipt's
     own source: tag v2.0.5 and master, /work/.mirror/intel+libipt):
       D1 2.0.5 stamps no time on pwre, pwrx, exstop, mwait, ptwrite and
          non-status async_vmcs events (its pt_qry_decode_pwre/_pwrx/
          _exstop/_mwait/_ptw and the in-flight paths of _vmcs never call
          pt_qry_event_time); master stamps every event ("libipt: qry on
          evt", 2d9903a8, v2.1): their event time is compared only when
          2.0.5 has one.
       D2 an event bound to a later packet takes its time at that packet in
          master (pt_evt_decode_tip/_tip_pge/_tip_pgd/_fup stamp the
          dequeued event; async_branch at the TIP, pt_evt_decode_tip_event;
          2d9903a8), while 2.0.5 stamps it at the packet that queued it
          (pt_qry_decode_fup: async_branch, async_disabled at the FUP;
          _mode_exec, _mode_tsx, _pip at the MODE or PIP). The two differ
          only when timing packets lie between, so only in inner-timing
          streams may the event time of async_branch, async_disabled and
          non-status async_paging, async_vmcs, exec_mode and tsx differ; the
          same for the time and CBR after a pwre answer (2.0.5 publishes it
          at the PWRE, master at its PWRX, D3).
       D3 master binds a PWRE to its PWRX ("libipt: bind pwre to pwrx",
          fd3546a5, v2.2: pt_evt_decode_pwre queues it on evb_pwrx), 2.0.5
          reports it at once: 2.0.5's pwre events are moved to right before
          the next pwrx event when only events lie between.
     Not generated by default, as libipt master itself differs from 2.0.5
     there (in the extra grammar, -x, they fail; see tests/diff/ipt_qry.sh):
     a MODE.Exec right before a TIP.PGD (master: exec_mode + disabled, or
     -pte_bad_context when the mode is unchanged; 2.0.5: exec_mode only);
     an unchanged MODE.Exec inside FUP..TIP.PGD (master: -pte_bad_context);
     a MODE.Exec left pending at an OVF while tracing is off (master
     reports it, "libipt: publish pending events on overflow", 5cfc88b4;
     2.0.5 drops it); an MWAIT before an EXSTOP without IP ("libipt: fix
     MWAIT binding", cd2d4eef). Nor, as master differs by design: MODE.Exec
     IF bit, a MODE.Exec right before a FUP (master binds it to the FUP),
     events pending across a PSB, TNT while tracing is off, TIP.PGE without
     IP.

   Any other difference fails: the seed, stream, configuration, the answer
   index, both sides around it, the fields that differ and a hex window of
   the stream are printed, and the stream is written to DIR/fail-S-I.pt.

     diff_ipt_qry [-s SEEDS] [-m MiB] [-o DIR] [-x] [-v]
     diff_ipt_qry -r SEED:INDEX [-x] [-d] [-p]    one generated stream
     diff_ipt_qry -f FILE [-c MTCFREQ,NOMFREQ,EAX,EBX] [-i] [-d] [-p]
   SEEDS: comma-separated (default 1,2,3,4); MiB: stream bytes per seed
   (default 5); DIR: where failing streams go (default build/diff-qry); -x:
   the extra grammar; -v: counts of the generated groups; -d: both answer
   lists; -p: the packets; -f: a stream from a file, -c its timing
   configuration, -i: compare it as an inner-timing stream. */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/gen/ipt_gen.h"

#include <intel-pt.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Linked against libipt 2.2 or later (a master build: its intel-pt.h and
   libipt.so) the program compares with master itself: no filter at all.
   main() sets it from pt_library_version(); a tool to tell our bugs from
   2.0.5-vs-master differences. */
static int diff_vs_master;

/* ---- random numbers: splitmix64 ----------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static uint32_t below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(((rnd(s) >> 32) * (uint64_t)n) >> 32);
}

/* 1 with probability pct/100. */
static int pct(uint64_t *s, uint32_t p)
{
    return below(s, 100) < p;
}

/* ---- the stream configuration ------------------------------------------------- */

typedef struct tcfg {
    uint8_t  mtc_freq, nom_freq;
    uint32_t eax, ebx;
} tcfg;

static void to_libipt(const tcfg *t, struct pt_config *c, uint8_t *buf, size_t len)
{
    pt_config_init(c);
    c->begin = buf;
    c->end = buf + len;
    c->mtc_freq = t->mtc_freq;
    c->nom_freq = t->nom_freq;
    c->cpuid_0x15_eax = t->eax;
    c->cpuid_0x15_ebx = t->ebx;
}

static void to_ours(const tcfg *t, tdec_ipt_config *c)
{
    memset(c, 0, sizeof *c);
    c->mtc_freq = t->mtc_freq;
    c->nom_freq = t->nom_freq;
    c->cpuid_0x15_eax = t->eax;
    c->cpuid_0x15_ebx = t->ebx;
}

/* ---- the generator: a trace grammar on libipt's encoder ----------------------- */

/* Group kinds, for the counts in the summary (-v). */
enum {
    G_PSB, G_PSB_OVF, G_TNT8, G_TNT64, G_TIP, G_MODE_TIP, G_ASYNC, G_ASYNC_PGD, G_PGD, G_TSX, G_TSX_ABORT,
    G_PIP, G_VMCS, G_CBR, G_MNT, G_PTW, G_PTW_IP, G_EXSTOP, G_EXSTOP_IP, G_MWAIT, G_PWRE, G_PWRX, G_STOP,
    G_OVF_FUP, G_OVF_OFF, G_PGE, G_MODE_PGE, G_TIMING, G_MODE_PGD, G_MODE_OVF, G_MWAIT_NOIP, G_MWAIT_PWRE,
    G_PWRE_EXSTOP, G_NGROUPS
};

static const char *const group_name[G_NGROUPS] = {
    "psb+", "psb+ovf", "tnt8", "tnt64", "tip", "mode+tip", "fup..tip", "fup..pgd", "pgd", "tsx+fup",
    "tsx-abort", "pip", "vmcs", "cbr", "mnt", "ptw", "ptw.ip+fup", "exstop", "exstop.ip+fup", "mwait+exstop+fup",
    "pwre+pwrx", "pwrx", "stop", "ovf+fup", "ovf(off)", "pge", "mode+pge", "timing", "mode+pgd", "mode+ovf(-x)",
    "mwait+exstop(-x)", "mwait+pwre+exstop.ip+fup+pwrx", "pwre+exstop+pwrx"};

typedef struct gen {
    uint64_t           rng;
    struct pt_encoder *enc;
    int                extra;     /* -x grammar                               */
    int                inner;     /* timing packets inside groups (percent)   */
    int                enabled;   /* tracing is on after what was written     */
    int                mode;      /* last MODE.Exec (csl | csd << 1), -1 none */
    int                tsx;       /* in a transaction                         */
    uint8_t            mtc_freq;
    uint64_t           tsc;
    uint64_t           ctc;       /* the crystal clock, in CTC units          */
    uint64_t           groups[G_NGROUPS];
} gen;

static size_t gen_len(gen *g)
{
    uint64_t off = 0;
    pt_enc_get_offset(g->enc, &off);
    return (size_t)off;
}

static void put(gen *g, const struct pt_packet *p)
{
    int n = pt_enc_next(g->enc, p);
    if (n <= 0) {
        fprintf(stderr, "diff_ipt_qry: pt_enc_next(type %d) failed: %s\n", (int)p->type, pt_errstr(pt_errcode(n)));
        abort();
    }
}

static void put_type(gen *g, enum pt_packet_type t)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = t;
    put(g, &p);
}

/* An IP packet; ipc < 0: a random compression (never suppressed when
   ipc == -2). */
static void put_ip(gen *g, enum pt_packet_type t, int ipc)
{
    static const enum pt_ip_compression all[6] = {pt_ipc_suppressed, pt_ipc_update_16, pt_ipc_update_32,
                                                  pt_ipc_sext_48,    pt_ipc_update_48, pt_ipc_full};
    struct pt_packet p;
    uint64_t ip = rnd(&g->rng);
    enum pt_ip_compression c;
    if (ipc >= 0) c = (enum pt_ip_compression)ipc;
    else c = ipc == -2 ? all[1 + below(&g->rng, 5)] : all[below(&g->rng, 6)];
    memset(&p, 0, sizeof p);
    p.type = t;
    p.payload.ip.ipc = c;
    p.payload.ip.ip = ipt_gen_ip_bits(c, ip);
    put(g, &p);
}

static void put_mode_exec(gen *g, int bits)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_mode;
    p.payload.mode.leaf = pt_mol_exec;
    p.payload.mode.bits.exec.csl = (uint32_t)bits & 1u;
    p.payload.mode.bits.exec.csd = ((uint32_t)bits >> 1) & 1u;
    put(g, &p);
    g->mode = bits;
}

/* A new mode: half the time the current one (master drops it, F3); the
   reserved CS.L+CS.D combination rarely. */
static int next_mode(gen *g)
{
    static const int modes[3] = {1, 2, 0}; /* 64-bit, 32-bit, 16-bit */
    if (g->mode >= 0 && pct(&g->rng, 50)) return g->mode;
    if (pct(&g->rng, 3)) return 3;
    return modes[below(&g->rng, 3)];
}

static void put_mode_tsx(gen *g, int intx, int abrt)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_mode;
    p.payload.mode.leaf = pt_mol_tsx;
    p.payload.mode.bits.tsx.intx = (uint32_t)intx & 1u;
    p.payload.mode.bits.tsx.abrt = (uint32_t)abrt & 1u;
    put(g, &p);
    g->tsx = intx;
}

static void put_pip(gen *g)
{
    struct pt_packet p;
    uint64_t r = rnd(&g->rng);
    memset(&p, 0, sizeof p);
    p.type = ppt_pip;
    p.payload.pip.cr3 = r & 0xfffffffffffe0ull;
    if (r >> 63) p.payload.pip.nr = 1;
    put(g, &p);
}

static void put_vmcs(gen *g)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_vmcs;
    p.payload.vmcs.base = (rnd(&g->rng) & 0xffffffffffull) << 12;
    put(g, &p);
}

static void put_cbr(gen *g)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_cbr;
    p.payload.cbr.ratio = (uint8_t)(1 + below(&g->rng, 60)); /* 0 is a bad packet for the timing code */
    put(g, &p);
}

static void put_mnt(gen *g)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_mnt;
    p.payload.mnt.payload = rnd(&g->rng);
    put(g, &p);
}

static void put_tsc_tma(gen *g)
{
    struct pt_packet p;
    g->tsc += 1 + (rnd(&g->rng) & 0xfffff);
    memset(&p, 0, sizeof p);
    p.type = ppt_tsc;
    p.payload.tsc.tsc = g->tsc & 0xffffffffffffffull;
    put(g, &p);
    if (pct(&g->rng, 90)) { /* TMA: CTC[15:0] and the fast counter */
        memset(&p, 0, sizeof p);
        p.type = ppt_tma;
        p.payload.tma.ctc = (uint16_t)g->ctc;
        p.payload.tma.fc = (uint16_t)below(&g->rng, 512);
        put(g, &p);
    }
}

static void put_mtc(gen *g)
{
    struct pt_packet p;
    uint32_t r = below(&g->rng, 100);
    uint64_t step = r < 80 ? 1 : r < 95 ? 2 + below(&g->rng, 3) : 1 + below(&g->rng, 600);
    g->ctc += step << g->mtc_freq;
    memset(&p, 0, sizeof p);
    p.type = ppt_mtc;
    p.payload.mtc.ctc = (uint8_t)(g->ctc >> g->mtc_freq);
    put(g, &p);
}

static void put_cyc(gen *g)
{
    struct pt_packet p;
    uint32_t r = below(&g->rng, 100);
    memset(&p, 0, sizeof p);
    p.type = ppt_cyc;
    p.payload.cyc.value = r < 70 ? 1 + below(&g->rng, 31) : r < 97 ? 1 + below(&g->rng, 4095)
                                                               : rnd(&g->rng) >> (3 + below(&g->rng, 50));
    put(g, &p);
}

/* One timing packet (or PAD). */
static void put_timing(gen *g)
{
    uint32_t r = below(&g->rng, 100);
    if (r < 35) put_cyc(g);
    else if (r < 70) put_mtc(g);
    else if (r < 80) put_tsc_tma(g);
    else put_type(g, ppt_pad);
}

/* Timing packets inside a group, in inner-timing streams. */
static void inner(gen *g)
{
    if (g->inner && pct(&g->rng, (uint32_t)g->inner)) {
        uint32_t r = below(&g->rng, 100);
        if (r < 4) put_cbr(g); /* events of their own, anywhere */
        else if (r < 6) put_mnt(g);
        else put_timing(g);
        if (pct(&g->rng, 30)) put_timing(g);
    }
}

static void put_tnt(gen *g, int wide)
{
    struct pt_packet p;
    uint8_t n = (uint8_t)(wide ? 1 + below(&g->rng, 47) : 1 + below(&g->rng, 6));
    memset(&p, 0, sizeof p);
    p.type = wide ? ppt_tnt_64 : ppt_tnt_8;
    p.payload.tnt.bit_size = n;
    p.payload.tnt.payload = rnd(&g->rng) & (((uint64_t)1 << n) - 1);
    put(g, &p);
}

static void put_ptw(gen *g, int ip)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_ptw;
    p.payload.ptw.plc = (uint8_t)below(&g->rng, 2);
    p.payload.ptw.ip = (uint32_t)ip & 1u;
    p.payload.ptw.payload = rnd(&g->rng);
    if (p.payload.ptw.plc == 0) p.payload.ptw.payload &= 0xffffffffull;
    put(g, &p);
}

static void put_exstop(gen *g, int ip)
{
    struct pt_packet p;
    memset(&p, 0, sizeof p);
    p.type = ppt_exstop;
    p.payload.exstop.ip = (uint32_t)ip & 1u;
    put(g, &p);
}

static void put_mwait(gen *g)
{
    struct pt_packet p;
    uint64_t r = rnd(&g->rng);
    memset(&p, 0, sizeof p);
    p.type = ppt_mwait;
    p.payload.mwait.hints = (uint32_t)r;
    p.payload.mwait.ext = (uint32_t)(r >> 32);
    put(g, &p);
}

static void put_pwre(gen *g)
{
    struct pt_packet p;
    uint64_t r = rnd(&g->rng);
    memset(&p, 0, sizeof p);
    p.type = ppt_pwre;
    p.payload.pwre.state = (uint8_t)(r & 0xfu);
    p.payload.pwre.sub_state = (uint8_t)((r >> 4) & 0xfu);
    p.payload.pwre.hw = (uint32_t)(r >> 8) & 1u;
    put(g, &p);
}

static void put_pwrx(gen *g)
{
    struct pt_packet p;
    uint64_t r = rnd(&g->rng);
    memset(&p, 0, sizeof p);
    p.type = ppt_pwrx;
    p.payload.pwrx.last = (uint8_t)(r & 0xfu);
    p.payload.pwrx.deepest = (uint8_t)((r >> 4) & 0xfu);
    p.payload.pwrx.interrupt = (uint32_t)(r >> 8) & 1u;
    p.payload.pwrx.store = (uint32_t)(r >> 9) & 1u;
    p.payload.pwrx.autonomous = (uint32_t)(r >> 10) & 1u;
    put(g, &p);
}

/* After an OVF: timing packets, then either a FUP (the overflow resolved
   with tracing on) or nothing here (off: the next group starts with a
   packet that tells so, or the stream ends). */
static void ovf_resolve(gen *g)
{
    uint32_t n = below(&g->rng, 3), i;
    if (!g->inner) n = 0;
    for (i = 0; i < n; i++) put_timing(g);
    if (pct(&g->rng, 55)) {
        put_ip(g, ppt_fup, -2);
        g->enabled = 1;
        g->groups[G_OVF_FUP]++;
    } else {
        g->enabled = 0;
        g->groups[G_OVF_OFF]++;
    }
}

/* A PSB+ that says the current state; bare: no packet that makes a status
   event (only TSC/TMA, PAD, MTC, CYC and the FUP). */
static void psb_plus(gen *g, int allow_ovf, int bare)
{
    enum { S_TSC, S_CBR, S_MODE, S_TSX, S_PIP, S_VMCS, S_FUP, S_MNT, S_PAD, S_MTC, S_CYC, S_N };
    static const uint32_t chance[S_N] = {80, 60, 80, 25, 40, 15, 0, 8, 20, 25, 10};
    int order[S_N], i, j, t;
    put_type(g, ppt_psb);
    for (i = 0; i < S_N; i++) order[i] = i;
    for (i = S_N - 1; i > 0; i--) {
        j = (int)below(&g->rng, (uint32_t)i + 1u);
        t = order[i], order[i] = order[j], order[j] = t;
    }
    for (i = 0; i < S_N; i++) {
        int s = order[i];
        if (s == S_FUP ? !g->enabled : !pct(&g->rng, chance[s])) continue;
        if (bare && (s == S_CBR || s == S_MODE || s == S_TSX || s == S_PIP || s == S_VMCS || s == S_MNT)) continue;
        switch (s) {
        case S_TSC: put_tsc_tma(g); break;
        case S_CBR: put_cbr(g); break;
        case S_MODE: put_mode_exec(g, g->mode >= 0 ? g->mode : next_mode(g)); break;
        case S_TSX: put_mode_tsx(g, g->tsx, 0); break;
        case S_PIP: put_pip(g); break;
        case S_VMCS: put_vmcs(g); break;
        case S_FUP: put_ip(g, ppt_fup, -2); break;
        case S_MNT: put_mnt(g); break;
        case S_PAD: put_type(g, ppt_pad); break;
        case S_MTC: put_mtc(g); break;
        case S_CYC: put_cyc(g); break;
        default: break;
        }
    }
    if (allow_ovf && pct(&g->rng, 4)) {
        put_type(g, ppt_ovf);
        g->groups[G_PSB_OVF]++;
        ovf_resolve(g);
        return;
    }
    put_type(g, ppt_psbend);
    g->groups[G_PSB]++;
}

/* A power session: PWRE, or several (deeper C-states), and its PWRX; while
   tracing is on, as hardware sends them for MWAIT: MWAIT, PWRE, EXSTOP.IP,
   FUP, PWRX; or PWRE, EXSTOP, PWRX. */
static void power(gen *g, int on)
{
    uint32_t r = below(&g->rng, 100);
    if (on && r < 35) {
        put_mwait(g);
        inner(g);
        put_pwre(g);
        inner(g);
        put_exstop(g, 1);
        inner(g);
        put_ip(g, ppt_fup, -2);
        g->groups[G_MWAIT_PWRE]++;
    } else if (r < 50) {
        put_pwre(g);
        inner(g);
        if (on && pct(&g->rng, 50)) {
            put_exstop(g, 1);
            inner(g);
            put_ip(g, ppt_fup, -2);
        } else {
            put_exstop(g, 0);
        }
        g->groups[G_PWRE_EXSTOP]++;
    } else {
        put_pwre(g);
        g->groups[G_PWRE]++;
    }
    inner(g);
    if (pct(&g->rng, 15)) {
        put_pwre(g);
        inner(g);
    }
    put_pwrx(g);
}

/* A group while tracing is on. */
static void group_on(gen *g)
{
    uint32_t r = below(&g->rng, 1000);
    if (r < 300) { /* TNT-8 */
        put_tnt(g, 0);
        g->groups[G_TNT8]++;
    } else if (r < 340) {
        put_tnt(g, 1);
        g->groups[G_TNT64]++;
    } else if (r < 460) {
        put_ip(g, ppt_tip, -1);
        g->groups[G_TIP]++;
    } else if (r < 485) { /* MODE.Exec bound to a TIP (F2, F3) */
        put_mode_exec(g, next_mode(g));
        inner(g);
        put_ip(g, ppt_tip, -1);
        g->groups[G_MODE_TIP]++;
    } else if (r < 535) { /* asynchronous branch, or disable */
        int pgd = r >= 525;
        put_ip(g, ppt_fup, -2);
        inner(g);
        if (pct(&g->rng, 50)) {
            if (pct(&g->rng, 25)) put_pip(g), inner(g);
            if (pct(&g->rng, 10)) put_vmcs(g), inner(g);
        } else {
            if (pct(&g->rng, 10)) put_vmcs(g), inner(g);
            if (pct(&g->rng, 25)) put_pip(g), inner(g);
        }
        if (pct(&g->rng, 20)) {
            int m = next_mode(g);
            /* an unchanged MODE.Exec before a TIP.PGD: -x only (master
               fails on it with -pte_bad_context, 2.0.5 does not) */
            if (pgd && m == g->mode && !g->extra) m = (m + 1 + (int)below(&g->rng, 3)) & 3;
            put_mode_exec(g, m);
            inner(g);
        }
        if (pgd) {
            put_ip(g, ppt_tip_pgd, pct(&g->rng, 70) ? (int)pt_ipc_suppressed : -1);
            g->enabled = 0;
            g->groups[G_ASYNC_PGD]++;
        } else {
            put_ip(g, ppt_tip, -1);
            g->groups[G_ASYNC]++;
        }
    } else if (r < 550) { /* disable */
        if (g->extra && pct(&g->rng, 40)) {
            put_mode_exec(g, next_mode(g));
            inner(g);
            g->groups[G_MODE_PGD]++;
        } else {
            g->groups[G_PGD]++;
        }
        put_ip(g, ppt_tip_pgd, pct(&g->rng, 70) ? (int)pt_ipc_suppressed : -1);
        g->enabled = 0;
        if (pct(&g->rng, 15)) put_type(g, ppt_stop);
    } else if (r < 565) { /* TSX: begin/commit bound to a FUP, abort to FUP + TIP */
        if (pct(&g->rng, 30)) {
            put_mode_tsx(g, 0, 1);
            inner(g);
            put_ip(g, ppt_fup, -2);
            inner(g);
            put_ip(g, ppt_tip, -1);
            g->groups[G_TSX_ABORT]++;
        } else {
            put_mode_tsx(g, !g->tsx, 0);
            inner(g);
            put_ip(g, ppt_fup, -2);
            g->groups[G_TSX]++;
        }
    } else if (r < 575) {
        put_pip(g);
        g->groups[G_PIP]++;
    } else if (r < 580) {
        put_vmcs(g);
        g->groups[G_VMCS]++;
    } else if (r < 588) {
        put_cbr(g);
        g->groups[G_CBR]++;
    } else if (r < 591) {
        put_mnt(g);
        g->groups[G_MNT]++;
    } else if (r < 601) {
        if (pct(&g->rng, 60)) {
            put_ptw(g, 1);
            inner(g);
            put_ip(g, ppt_fup, -2);
            g->groups[G_PTW_IP]++;
        } else {
            put_ptw(g, 0);
            g->groups[G_PTW]++;
        }
    } else if (r < 607) {
        if (pct(&g->rng, 60)) {
            put_exstop(g, 1);
            inner(g);
            put_ip(g, ppt_fup, -2);
            g->groups[G_EXSTOP_IP]++;
        } else {
            put_exstop(g, 0);
            g->groups[G_EXSTOP]++;
        }
    } else if (r < 611) {
        put_mwait(g);
        inner(g);
        put_exstop(g, 1);
        inner(g);
        put_ip(g, ppt_fup, -2);
        g->groups[G_MWAIT]++;
    } else if (r < 617) {
        power(g, 1);
    } else if (r < 619) {
        put_pwrx(g);
        g->groups[G_PWRX]++;
    } else if (r < 620) {
        put_type(g, ppt_stop);
        g->groups[G_STOP]++;
    } else if (r < 623) {
        put_type(g, ppt_ovf);
        ovf_resolve(g);
    } else {
        put_timing(g);
        g->groups[G_TIMING]++;
    }
}

/* A group while tracing is off. */
static void group_off(gen *g)
{
    uint32_t r = below(&g->rng, 1000);
    if (r < 250) { /* enable */
        if (pct(&g->rng, 35)) {
            put_mode_exec(g, next_mode(g));
            inner(g);
            g->groups[G_MODE_PGE]++;
        } else {
            g->groups[G_PGE]++;
        }
        put_ip(g, ppt_tip_pge, -2);
        g->enabled = 1;
    } else if (r < 300) {
        put_pip(g);
        g->groups[G_PIP]++;
    } else if (r < 320) {
        put_vmcs(g);
        g->groups[G_VMCS]++;
    } else if (r < 350) {
        put_cbr(g);
        g->groups[G_CBR]++;
    } else if (r < 360) {
        put_mnt(g);
        g->groups[G_MNT]++;
    } else if (r < 380) {
        power(g, 0);
    } else if (r < 390) {
        put_pwrx(g);
        g->groups[G_PWRX]++;
    } else if (r < 400) {
        put_type(g, ppt_stop);
        g->groups[G_STOP]++;
    } else if (r < 415) {
        put_mode_tsx(g, !g->tsx, 0);
        g->groups[G_TSX]++;
    } else if (r < 425) {
        put_exstop(g, 0);
        g->groups[G_EXSTOP]++;
    } else if (r < 432) {
        put_ptw(g, 0);
        g->groups[G_PTW]++;
    } else if (r < 437) {
        if (g->extra && pct(&g->rng, 30)) { /* -x: a MODE.Exec left pending at the OVF */
            put_mode_exec(g, next_mode(g));
            g->groups[G_MODE_OVF]++;
        }
        put_type(g, ppt_ovf);
        ovf_resolve(g);
    } else if (g->extra && r < 445) { /* -x: MWAIT before an EXSTOP without IP */
        put_mwait(g);
        put_exstop(g, 0);
        g->groups[G_MWAIT_NOIP]++;
    } else {
        put_timing(g);
        g->groups[G_TIMING]++;
    }
}

/* Writes stream (seed, index) into buf[0, cap) (cap >= 200 KiB) and picks
   its timing configuration. Returns the length. */
static size_t gen_stream(gen *g, uint64_t seed, uint64_t index, int extra, uint8_t *buf, size_t cap, tcfg *t,
                         int *inner_timing)
{
    struct pt_config cfg;
    size_t target, psb_next, skip = 0, len;
    uint32_t psb_every, r;
    uint64_t keep[G_NGROUPS];
    memcpy(keep, g->groups, sizeof keep);
    memset(g, 0, sizeof *g);
    memcpy(g->groups, keep, sizeof keep);
    g->rng = seed * 0x100000001B3ull ^ (index + 1) * 0xC2B2AE3D27D4EB4Full;
    rnd(&g->rng);
    g->extra = extra;

    /* the configuration */
    t->mtc_freq = (uint8_t)below(&g->rng, 10);
    t->nom_freq = (uint8_t)(pct(&g->rng, 35) ? 0 : 1 + below(&g->rng, 60));
    if (pct(&g->rng, 20)) {
        t->eax = t->ebx = 0;
    } else {
        t->eax = 1 + below(&g->rng, 4);
        t->ebx = t->eax * (1 + below(&g->rng, 200));
    }
    g->mtc_freq = t->mtc_freq;
    g->inner = pct(&g->rng, 50) ? 20 + (int)below(&g->rng, 50) : 0;
    *inner_timing = g->inner != 0;
    g->mode = -1;
    g->tsc = 0x100000000ull + (rnd(&g->rng) & 0xffffffffull);
    g->ctc = rnd(&g->rng) & 0xffffffull;
    g->enabled = pct(&g->rng, 75);

    r = below(&g->rng, 100);
    target = r < 4 ? 0 : r < 12 ? 200 + below(&g->rng, 800) : r < 70 ? 1024 + below(&g->rng, 16384)
                                                                     : 16384 + below(&g->rng, 114688);
    psb_every = 256u << below(&g->rng, 6);

    /* junk before the first PSB: no 0x02, so no PSB in it */
    if (pct(&g->rng, 15)) {
        size_t i;
        skip = 1 + below(&g->rng, 40);
        for (i = 0; i < skip; i++) {
            buf[i] = (uint8_t)rnd(&g->rng);
            if (buf[i] == 0x02) buf[i] = 0x00;
        }
    }
    pt_config_init(&cfg);
    cfg.begin = buf + skip;
    cfg.end = buf + cap;
    g->enc = pt_alloc_encoder(&cfg);
    if (!g->enc) abort();

    psb_plus(g, 1, target == 0 && pct(&g->rng, 50));
    psb_next = psb_every;
    for (;;) {
        len = gen_len(g);
        if (len >= target || cap - skip - len < 512) break;
        if (len >= psb_next) {
            psb_plus(g, 1, 0);
            psb_next = len + psb_every / 2 + below(&g->rng, psb_every);
        } else if (g->enabled) {
            group_on(g);
        } else {
            group_off(g);
        }
    }
    if (target && pct(&g->rng, 10)) psb_plus(g, 0, pct(&g->rng, 50)); /* end right after a PSB+ */
    len = gen_len(g);
    pt_free_encoder(g->enc);
    g->enc = NULL;
    return skip + len;
}

/* ---- answers -------------------------------------------------------------------- */

enum { R_SYNC = 1, R_COND, R_IND, R_EVENT, R_ERROR, R_END };

/* Event flags compared (tdec_ipt's TDEC_IPT_EVF_* values on both sides). */
#define EVF_CMP                                                                                               \
    (TDEC_IPT_EVF_IP_SUPPRESSED | TDEC_IPT_EVF_STATUS | TDEC_IPT_EVF_HAS_TSC | TDEC_IPT_EVF_RESUMED |        \
     TDEC_IPT_EVF_NR | TDEC_IPT_EVF_SPECULATIVE | TDEC_IPT_EVF_ABORTED | TDEC_IPT_EVF_HW |                   \
     TDEC_IPT_EVF_INTERRUPT | TDEC_IPT_EVF_STORE | TDEC_IPT_EVF_AUTONOMOUS)

typedef struct rec {
    uint8_t  kind;
    uint8_t  type;      /* event type (tdec_ipt's numbering = libipt's)         */
    uint8_t  taken;
    uint8_t  a, b;      /* event: mode, ratio, state, last, size, ...          */
    uint8_t  t_ok;      /* pt_qry_time returned 0                               */
    uint8_t  c_ok, cbr; /* pt_qry_core_bus_ratio                                */
    int32_t  status;    /* query status bits; error: the libipt code           */
    uint32_t flags;     /* event: TDEC_IPT_EVF_* (EVF_CMP)                      */
    uint32_t aux;       /* event: mwait ext                                     */
    uint32_t lost_mtc, lost_cyc;   /* event time                                */
    uint32_t t_mtc, t_cyc;         /* pt_qry_time after the answer              */
    uint64_t ip;        /* sync, indirect, event: the IP (0 if suppressed)     */
    uint64_t arg;       /* event: from, at, cr3, base, hints, payload           */
    uint64_t tsc;       /* event time                                           */
    uint64_t t_tsc;     /* pt_qry_time                                          */
    uint64_t sync_off;  /* sync: the PSB                                        */
    uint64_t off;       /* not compared: libipt's position after the answer     */
} rec;

typedef struct list {
    rec   *r;
    size_t n, cap;
} list;

static rec *push(list *l, uint8_t kind)
{
    rec *x;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->r = (rec *)realloc(l->r, l->cap * sizeof *l->r);
        if (!l->r) {
            fprintf(stderr, "diff_ipt_qry: out of memory\n");
            exit(2);
        }
    }
    x = &l->r[l->n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    return x;
}

/* The fields of one event, from libipt's struct pt_event. */
static void lib_event(rec *x, const struct pt_event *ev)
{
    x->type = (uint8_t)ev->type;
    switch (ev->type) {
    case ptev_enabled:
        x->ip = ev->variant.enabled.ip;
        if (ev->variant.enabled.resumed) x->flags |= TDEC_IPT_EVF_RESUMED;
        break;
    case ptev_disabled: x->ip = ev->variant.disabled.ip; break;
    case ptev_async_disabled:
        x->ip = ev->variant.async_disabled.ip;
        x->arg = ev->variant.async_disabled.at;
        break;
    case ptev_async_branch:
        x->ip = ev->variant.async_branch.to;
        x->arg = ev->variant.async_branch.from;
        break;
    case ptev_paging:
        x->arg = ev->variant.paging.cr3;
        if (ev->variant.paging.non_root) x->flags |= TDEC_IPT_EVF_NR;
        break;
    case ptev_async_paging:
        x->ip = ev->variant.async_paging.ip;
        x->arg = ev->variant.async_paging.cr3;
        if (ev->variant.async_paging.non_root) x->flags |= TDEC_IPT_EVF_NR;
        break;
    case ptev_overflow: x->ip = ev->variant.overflow.ip; break;
    case ptev_exec_mode:
        x->ip = ev->variant.exec_mode.ip;
        x->a = (uint8_t)ev->variant.exec_mode.mode;
        break;
    case ptev_tsx:
        x->ip = ev->variant.tsx.ip;
        if (ev->variant.tsx.speculative) x->flags |= TDEC_IPT_EVF_SPECULATIVE;
        if (ev->variant.tsx.aborted) x->flags |= TDEC_IPT_EVF_ABORTED;
        break;
    case ptev_stop: break;
    case ptev_vmcs: x->arg = ev->variant.vmcs.base; break;
    case ptev_async_vmcs:
        x->ip = ev->variant.async_vmcs.ip;
        x->arg = ev->variant.async_vmcs.base;
        break;
    case ptev_exstop: x->ip = ev->variant.exstop.ip; break;
    case ptev_mwait:
        x->ip = ev->variant.mwait.ip;
        x->arg = ev->variant.mwait.hints;
        x->aux = ev->variant.mwait.ext;
        break;
    case ptev_pwre:
        x->a = ev->variant.pwre.state;
        x->b = ev->variant.pwre.sub_state;
        if (ev->variant.pwre.hw) x->flags |= TDEC_IPT_EVF_HW;
        break;
    case ptev_pwrx:
        x->a = ev->variant.pwrx.last;
        x->b = ev->variant.pwrx.deepest;
        if (ev->variant.pwrx.interrupt) x->flags |= TDEC_IPT_EVF_INTERRUPT;
        if (ev->variant.pwrx.store) x->flags |= TDEC_IPT_EVF_STORE;
        if (ev->variant.pwrx.autonomous) x->flags |= TDEC_IPT_EVF_AUTONOMOUS;
        break;
    case ptev_ptwrite:
        x->ip = ev->variant.ptwrite.ip;
        x->arg = ev->variant.ptwrite.payload;
        x->a = ev->variant.ptwrite.size;
        break;
    case ptev_tick: x->ip = ev->variant.tick.ip; break;
    case ptev_cbr: x->a = (uint8_t)ev->variant.cbr.ratio; break;
    case ptev_mnt: x->arg = ev->variant.mnt.payload; break;
    default: break;
    }
    if (ev->ip_suppressed) {
        x->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
        x->ip = 0;
    }
    if (ev->status_update) x->flags |= TDEC_IPT_EVF_STATUS;
    if (ev->has_tsc) {
        x->flags |= TDEC_IPT_EVF_HAS_TSC;
        x->tsc = ev->tsc;
        x->lost_mtc = ev->lost_mtc;
        x->lost_cyc = ev->lost_cyc;
    }
}

/* The same fields from tdec_ipt's event (its table in single/tdec_ipt.h). */
static void our_event(rec *x, const tdec_ipt_event *ev)
{
    int has_ip = 1;
    x->type = ev->type;
    x->flags = ev->flags & EVF_CMP;
    switch (ev->type) {
    case TDEC_IPT_EV_ASYNC_DISABLED:
    case TDEC_IPT_EV_ASYNC_BRANCH:
    case TDEC_IPT_EV_ASYNC_PAGING:
    case TDEC_IPT_EV_ASYNC_VMCS:
    case TDEC_IPT_EV_MNT: x->arg = ev->arg; break;
    case TDEC_IPT_EV_PAGING:
    case TDEC_IPT_EV_VMCS:
        x->arg = ev->arg;
        has_ip = 0;
        break;
    case TDEC_IPT_EV_EXEC_MODE:
    case TDEC_IPT_EV_CBR: x->a = ev->a; break;
    case TDEC_IPT_EV_MWAIT:
        x->arg = ev->arg;
        x->aux = ev->aux;
        break;
    case TDEC_IPT_EV_PWRE:
    case TDEC_IPT_EV_PWRX:
        x->a = ev->a;
        x->b = ev->b;
        has_ip = 0;
        break;
    case TDEC_IPT_EV_PTWRITE:
        x->arg = ev->arg;
        x->a = ev->a;
        break;
    case TDEC_IPT_EV_STOP: has_ip = 0; break;
    default: break;
    }
    if (ev->type == TDEC_IPT_EV_CBR || ev->type == TDEC_IPT_EV_MNT) has_ip = 0;
    if (has_ip && !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED)) x->ip = ev->ip;
    if (ev->flags & TDEC_IPT_EVF_HAS_TSC) {
        x->tsc = ev->tsc;
        x->lost_mtc = ev->lost_mtc;
        x->lost_cyc = ev->lost_cyc;
    }
}

/* ---- libipt's drain ------------------------------------------------------------ */

#define MAX_ERRORS 64 /* per stream: then the drain stops (a valid stream has none) */

static void lib_time(struct pt_query_decoder *q, rec *x)
{
    uint32_t cbr = 0;
    x->t_ok = pt_qry_time(q, &x->t_tsc, &x->t_mtc, &x->t_cyc) == 0;
    x->c_ok = pt_qry_core_bus_ratio(q, &cbr) == 0;
    x->cbr = x->c_ok ? (uint8_t)cbr : 0;
    pt_qry_get_offset(q, &x->off);
}

static void lib_drain(uint8_t *buf, size_t len, const tcfg *t, list *out)
{
    struct pt_config cfg;
    struct pt_query_decoder *q;
    struct pt_event ev;
    uint64_t ip = 0;
    int st, taken = 0, errors = 0;
    rec *x;
    to_libipt(t, &cfg, buf, len);
    q = pt_qry_alloc_decoder(&cfg);
    if (!q) abort();
    out->n = 0;
    st = pt_qry_sync_forward(q, &ip);
    for (;;) {
        if (st < 0) {
            if (st == -pte_eos || ++errors > MAX_ERRORS) {
                push(out, R_END);
                break;
            }
            x = push(out, R_ERROR);
            x->status = -st;
            pt_qry_get_offset(q, &x->off);
            st = pt_qry_sync_forward(q, &ip);
            continue;
        }
        x = push(out, R_SYNC);
        x->status = st;
        x->ip = (st & pts_ip_suppressed) ? 0 : ip;
        pt_qry_get_sync_offset(q, &x->sync_off);
        lib_time(q, x);
        for (;;) {
            uint8_t kind;
            if (st & pts_event_pending) {
                memset(&ev, 0, sizeof ev);
                st = pt_qry_event(q, &ev, sizeof ev);
                kind = R_EVENT;
            } else {
                st = pt_qry_cond_branch(q, &taken);
                kind = R_COND;
                if (st == -pte_bad_query) {
                    st = pt_qry_indirect_branch(q, &ip);
                    kind = R_IND;
                }
            }
            if (st < 0) break;
            x = push(out, kind);
            x->status = st;
            if (kind == R_EVENT) lib_event(x, &ev);
            else if (kind == R_COND) x->taken = (uint8_t)(taken != 0);
            else x->ip = (st & pts_ip_suppressed) ? 0 : ip;
            lib_time(q, x);
        }
    }
    pt_qry_free_decoder(q);
}

/* ---- our drain ------------------------------------------------------------------ */

static tdec_ipt_qry_decoder dq; /* ~4 KiB: not on the stack */

static void our_time(const tdec_ipt_qry_decoder *q, rec *x)
{
    uint32_t cbr = 0;
    x->t_ok = tdec_ipt_qry_time(q, &x->t_tsc, &x->t_mtc, &x->t_cyc, NULL) == TDEC_OK;
    x->c_ok = tdec_ipt_qry_cbr(q, &cbr, NULL) == TDEC_OK;
    x->cbr = x->c_ok ? (uint8_t)cbr : 0;
}

enum { CH_WHOLE = 0, CH_RANDOM, CH_ONE };

/* Returns 0, or -1 when the decoder broke its contract (why in *out's last
   error record, status = 1000 + what). */
static int our_drain(const uint8_t *buf, size_t len, const tcfg *t, int chunking, uint64_t seed, list *out)
{
    tdec_ipt_qry_decoder *q = &dq;
    tdec_ipt_config cfg;
    tdec_ipt_event ev;
    tdec_status st;
    uint64_t ip = 0, off = 0, rng = seed ^ 0x5DEECE66Dull;
    size_t fed = 0;
    uint32_t flags = 0;
    int taken = 0, synced = 0, finished = 0, errors = 0;
    rec *x;
    to_ours(t, &cfg);
    out->n = 0;
    if (tdec_ipt_qry_init(q, &cfg) != TDEC_NEED_INPUT) return -1;
    for (;;) {
        uint8_t kind = R_SYNC;
        if (!synced) {
            st = tdec_ipt_qry_sync(q, &ip, &flags, &off);
        } else if (flags & TDEC_IPT_QF_EVENT_PENDING) {
            memset(&ev, 0, sizeof ev);
            st = tdec_ipt_qry_event(q, &ev, &flags);
            kind = R_EVENT;
        } else {
            st = tdec_ipt_qry_cond_branch(q, &taken, &flags);
            kind = R_COND;
            if (st == TDEC_E_SEQUENCE) {
                st = tdec_ipt_qry_indirect_branch(q, &ip, &flags);
                kind = R_IND;
            }
        }
        if (st == TDEC_NEED_INPUT) {
            tdec_status f;
            if (finished) {
                x = push(out, R_ERROR);
                x->status = 1001; /* NEED_INPUT after finish() */
                push(out, R_END);
                return -1;
            }
            if (fed < len) {
                size_t n = len - fed;
                if (chunking == CH_ONE) n = 1;
                else if (chunking == CH_RANDOM) {
                    size_t c = (rnd(&rng) & 3) == 0 ? 1 + (size_t)(rnd(&rng) % 16) : 1 + (size_t)(rnd(&rng) % 4096);
                    if (c < n) n = c;
                }
                f = tdec_ipt_qry_feed(q, buf + fed, n);
                fed += n;
            } else {
                f = tdec_ipt_qry_finish(q);
                finished = 1;
            }
            if (f < 0) {
                x = push(out, R_ERROR);
                x->status = 1002; /* feed/finish failed */
                push(out, R_END);
                return -1;
            }
            continue;
        }
        if (st == TDEC_OK) {
            x = push(out, kind);
            x->status = (int32_t)flags;
            if (kind == R_SYNC) {
                synced = 1;
                x->ip = (flags & TDEC_IPT_QF_IP_SUPPRESSED) ? 0 : ip;
                x->sync_off = off;
            } else if (kind == R_EVENT) {
                our_event(x, &ev);
            } else if (kind == R_COND) {
                x->taken = (uint8_t)(taken != 0);
            } else {
                x->ip = (flags & TDEC_IPT_QF_IP_SUPPRESSED) ? 0 : ip;
            }
            our_time(q, x);
            continue;
        }
        if (st == TDEC_END || ++errors > MAX_ERRORS) {
            push(out, R_END);
            return 0;
        }
        x = push(out, R_ERROR);
        synced = 0;
        if (st == TDEC_E_SEQUENCE) {
            x->status = pte_bad_query;
        } else if (st == TDEC_E_CORRUPT) {
            x->status = (int32_t)q->st.err_reason;
            if (tdec_ipt_qry_resync(q) < 0) {
                x = push(out, R_ERROR);
                x->status = 1003; /* resync failed */
                push(out, R_END);
                return -1;
            }
        } else {
            x->status = 1000 - (int32_t)st; /* an unexpected status */
            push(out, R_END);
            return -1;
        }
    }
}

/* ---- the documented differences -------------------------------------------------- */

enum { F1 = 1, F2, F3, F5, D1, D2, D3, NF };
static uint64_t filtered[NF];

/* The answer before a removed event (kept at k - 1) said "event pending"
   because of that event alone when the next kept item is no event; then
   its status is what the removed event's was (end of stream, or not). */
static void unpend(list *l, size_t k, size_t next, int32_t removed)
{
    if (k == 0) return;
    if (next < l->n && l->r[next].kind == R_EVENT) return;
    l->r[k - 1].status = (l->r[k - 1].status & ~(pts_event_pending | pts_eos)) | (removed & pts_eos);
}

/* F1 and F5 on ours. */
static void filter_ours(list *l)
{
    size_t i, k = 0;
    for (i = 0; i < l->n; i++) {
        const rec *x = &l->r[i];
        if (x->kind == R_EVENT && (x->type == TDEC_IPT_EV_ENABLED || x->type == TDEC_IPT_EV_DISABLED) &&
            (x->flags & TDEC_IPT_EVF_STATUS)) {
            filtered[F1]++;
            unpend(l, k, i + 1, x->status);
            continue;
        }
        l->r[k++] = *x;
    }
    l->n = k;
    for (i = 0, k = 0; i < l->n; i++) {
        if (l->r[i].kind == R_SYNC && i + 1 < l->n && l->r[i + 1].kind == R_END) {
            filtered[F5]++;
            continue;
        }
        l->r[k++] = l->r[i];
    }
    l->n = k;
}

/* Whether 2.0.5 published event x while it kept the TIP or TIP.PGE at its
   position (x->off) for more events of the same packet. */
static int kept_tip(const rec *x, const uint8_t *buf, size_t len)
{
    if (x->kind != R_EVENT || x->off >= len) return 0;
    if (x->type != ptev_enabled && x->type != ptev_async_branch && x->type != ptev_async_paging &&
        x->type != ptev_async_vmcs)
        return 0;
    return (buf[x->off] & 0x1f) == 0x0d || (buf[x->off] & 0x1f) == 0x11;
}

/* F3 and F2 on libipt's. */
static void filter_lib(list *l, const uint8_t *buf, size_t len)
{
    size_t i, k = 0;
    int mode = -1; /* master's mode: -1 unknown */
    rec before;    /* the answer before x in 2.0.5's own list */
    memset(&before, 0, sizeof before);
    for (i = 0; i < l->n; before = l->r[i], i++) {
        rec x = l->r[i];
        if (x.kind == R_SYNC) mode = -1;
        if (x.kind == R_EVENT && x.type == ptev_overflow) mode = -1;
        if (x.kind == R_EVENT && x.type == ptev_exec_mode && !(x.flags & TDEC_IPT_EVF_STATUS)) {
            int same = mode == (int)x.a;
            mode = x.a;
            if (same) { /* F3: a MODE.Exec that changes nothing */
                filtered[F3]++;
                unpend(l, k, i + 1, x.status);
                continue;
            }
            /* F2: bound to the TIP of the indirect answer that follows (and
               not published with other events of an earlier TIP/TIP.PGE) */
            if (i + 1 < l->n && l->r[i + 1].kind == R_IND && !(i > 0 && kept_tip(&before, buf, len))) {
                rec ind = l->r[i + 1];
                int32_t after = ind.status & ~pts_ip_suppressed;
                unpend(l, k, i + 1, 0);
                ind.status = (ind.status & pts_ip_suppressed) | pts_event_pending;
                x.status = after;
                before = ind;
                l->r[k++] = ind;
                l->r[k++] = x;
                filtered[F2]++;
                i++;
                continue;
            }
        } else if (x.kind == R_EVENT && x.type == ptev_exec_mode) {
            mode = x.a;
        }
        l->r[k++] = x;
    }
    l->n = k;
}

/* D3 on libipt's: 2.0.5 reports a PWRE when it sees it; master binds it to
   its PWRX (pt_evt_decode_pwre queues it on evb_pwrx since "libipt: bind
   pwre to pwrx", fd3546a5, v2.2): 2.0.5's pwre events are moved to right
   before the next pwrx event when only events lie between (the status
   bits stay: every answer in such a run says "event pending"). */
static void filter_pwre(list *l)
{
    rec held[16];
    size_t i, j, k = 0, h = 0;
    for (i = 0; i < l->n; i++) {
        rec x = l->r[i];
        if (x.kind == R_EVENT && x.type == ptev_pwre && h < 16) {
            int others = 0;
            for (j = i + 1; j < l->n && l->r[j].kind == R_EVENT && l->r[j].type != ptev_pwrx; j++)
                others |= l->r[j].type != ptev_pwre;
            if (j < l->n && l->r[j].kind == R_EVENT) { /* its pwrx */
                held[h++] = x;
                filtered[D3] += (uint64_t)others;
                continue;
            }
        }
        if (x.kind == R_EVENT && x.type == ptev_pwrx)
            for (j = 0; j < h; j++) l->r[k++] = held[j];
        if (x.kind != R_EVENT || x.type == ptev_pwrx) h = 0;
        l->r[k++] = x;
    }
    l->n = k;
}

/* D1 and D2: whether the event time of ours' x may differ from libipt's y. */
static int time_exempt(const rec *x, const rec *y, int inner_timing)
{
    int status = (x->flags & TDEC_IPT_EVF_STATUS) != 0;
    if (diff_vs_master) return 0;
    switch (x->type) {
    case TDEC_IPT_EV_PWRE:
    case TDEC_IPT_EV_PWRX:
    case TDEC_IPT_EV_EXSTOP:
    case TDEC_IPT_EV_MWAIT:
    case TDEC_IPT_EV_PTWRITE:
        if (!(y->flags & TDEC_IPT_EVF_HAS_TSC)) return D1;
        break;
    case TDEC_IPT_EV_ASYNC_BRANCH:
    case TDEC_IPT_EV_ASYNC_DISABLED: return inner_timing ? D2 : 0;
    case TDEC_IPT_EV_ASYNC_VMCS:
        if (!status && !(y->flags & TDEC_IPT_EVF_HAS_TSC)) return D1;
        return inner_timing && !status ? D2 : 0;
    case TDEC_IPT_EV_ASYNC_PAGING:
    case TDEC_IPT_EV_EXEC_MODE:
    case TDEC_IPT_EV_TSX: return inner_timing && !status ? D2 : 0;
    default: break;
    }
    return 0;
}

/* ---- comparing ------------------------------------------------------------------- */

#define TIMEF (TDEC_IPT_EVF_HAS_TSC)

/* Names the fields where x and y differ into why; 0 when none. */
static int rec_diff(const rec *x, const rec *y, int inner_timing, char *why, size_t cap)
{
    size_t n = 0;
    int tx = 0, qx = 0;
    why[0] = 0;
#define DIFF(cond, name)                                                                   \
    do {                                                                                   \
        if ((cond) && n + 24 < cap) n += (size_t)snprintf(why + n, cap - n, "%s ", name);    \
    } while (0)
    if (x->kind != y->kind) {
        snprintf(why, cap, "kind ");
        return 1;
    }
    if (x->kind == R_EVENT && x->type == y->type) {
        int e = time_exempt(x, y, inner_timing);
        int d = ((x->flags ^ y->flags) & TIMEF) || x->tsc != y->tsc || x->lost_mtc != y->lost_mtc ||
                x->lost_cyc != y->lost_cyc;
        if (d && e) tx = e;
    }
    if (x->kind == R_EVENT && x->type == TDEC_IPT_EV_PWRE && inner_timing && !diff_vs_master) qx = D2;
    DIFF(x->type != y->type, "type");
    DIFF(x->status != y->status, "status");
    DIFF(x->taken != y->taken, "taken");
    DIFF(x->ip != y->ip, "ip");
    DIFF(x->arg != y->arg, "arg");
    DIFF(x->a != y->a || x->b != y->b || x->aux != y->aux, "fields");
    DIFF(((x->flags ^ y->flags) & ~(uint32_t)TIMEF) != 0, "flags");
    DIFF(x->sync_off != y->sync_off, "sync-offset");
    if (!tx) {
        DIFF(((x->flags ^ y->flags) & TIMEF) != 0, "has_tsc");
        DIFF(x->tsc != y->tsc, "tsc");
        DIFF(x->lost_mtc != y->lost_mtc || x->lost_cyc != y->lost_cyc, "lost");
    }
    if (!qx || (x->t_ok == y->t_ok && x->t_tsc == y->t_tsc && x->t_mtc == y->t_mtc && x->t_cyc == y->t_cyc &&
                x->c_ok == y->c_ok && x->cbr == y->cbr)) {
        qx = 0;
        DIFF(x->t_ok != y->t_ok || x->t_tsc != y->t_tsc || x->t_mtc != y->t_mtc || x->t_cyc != y->t_cyc,
             "query-time");
        DIFF(x->c_ok != y->c_ok || x->cbr != y->cbr, "cbr");
    }
#undef DIFF
    if (n) return 1;
    if (tx) filtered[tx]++;
    if (qx) filtered[qx]++;
    return 0;
}

static void rec_str(const rec *x, char *s, size_t cap)
{
    int n;
    switch (x->kind) {
    case R_SYNC:
        n = snprintf(s, cap, "sync   st %d ip %" PRIx64 " psb @%" PRIx64, x->status, x->ip, x->sync_off);
        break;
    case R_COND: n = snprintf(s, cap, "cond   st %d taken %u", x->status, x->taken); break;
    case R_IND: n = snprintf(s, cap, "ind    st %d ip %" PRIx64, x->status, x->ip); break;
    case R_EVENT:
        n = snprintf(s, cap,
                     "event  st %d %s ip %" PRIx64 " arg %" PRIx64 " a %u b %u aux %" PRIx32 " flags %" PRIx32
                     " tsc %" PRIx64 " lost %" PRIu32 "/%" PRIu32,
                     x->status, tdec_ipt_event_str(x->type), x->ip, x->arg, x->a, x->b, x->aux, x->flags, x->tsc,
                     x->lost_mtc, x->lost_cyc);
        break;
    case R_ERROR: n = snprintf(s, cap, "error  %s (%d)", tdec_ipt_reason_str((uint32_t)x->status), x->status); break;
    case R_END: n = snprintf(s, cap, "end"); break;
    default: n = snprintf(s, cap, "kind %u", x->kind); break;
    }
    if (n > 0 && (size_t)n < cap && x->kind != R_END && x->kind != R_ERROR)
        snprintf(s + n, cap - (size_t)n, " | time %s %" PRIx64 " %" PRIu32 "/%" PRIu32 " cbr %s%u",
                 x->t_ok ? "ok" : "none", x->t_tsc, x->t_mtc, x->t_cyc, x->c_ok ? "" : "none ", x->cbr);
}

static void hex_window(const uint8_t *buf, size_t len, uint64_t at)
{
    size_t from = at > 48 ? (size_t)at - 48 : 0, to, i;
    from &= ~(size_t)15;
    to = from + 112 < len ? from + 112 : len;
    for (i = from; i < to; i++) {
        if ((i - from) % 16 == 0) printf("    %08zx:", i);
        printf(" %02x", buf[i]);
        if ((i - from) % 16 == 15 || i + 1 == to) printf("\n");
    }
}

static void dump(const char *who, const list *l)
{
    char s[400];
    size_t i;
    for (i = 0; i < l->n; i++) {
        rec_str(&l->r[i], s, sizeof s);
        printf("%s %5zu  %s   [@%" PRIx64 "]\n", who, i, s, l->r[i].off);
    }
}

/* The packets of buf (libipt's packet decoder), for -p. */
static void dump_packets(uint8_t *buf, size_t len)
{
    static const char *const names[] = {"invalid", "unknown", "pad", "psb", "psbend", "fup", "tip", "tip.pge",
                                        "tip.pgd", "tnt8", "tnt64", "mode", "pip", "vmcs", "cbr", "tsc", "tma",
                                        "mtc", "cyc", "stop", "ovf", "mnt", "exstop", "mwait", "pwre", "pwrx",
                                        "ptw"};
    struct pt_config cfg;
    struct pt_packet_decoder *d;
    struct pt_packet pk;
    uint64_t off;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + len;
    d = pt_pkt_alloc_decoder(&cfg);
    if (!d) return;
    if (pt_pkt_sync_forward(d) >= 0) {
        while (pt_pkt_get_offset(d, &off) >= 0 && pt_pkt_next(d, &pk, sizeof pk) > 0) {
            unsigned t = (unsigned)pk.type;
            printf("pkt %6" PRIx64 " %-8s", off, t < sizeof names / sizeof names[0] ? names[t] : "?");
            switch (pk.type) {
            case ppt_fup:
            case ppt_tip:
            case ppt_tip_pge:
            case ppt_tip_pgd:
                printf(" ipc %d %" PRIx64, (int)pk.payload.ip.ipc, pk.payload.ip.ip);
                break;
            case ppt_tnt_8:
            case ppt_tnt_64: printf(" %u bits %" PRIx64, pk.payload.tnt.bit_size, pk.payload.tnt.payload); break;
            case ppt_mode:
                if (pk.payload.mode.leaf == pt_mol_exec)
                    printf(" exec csl %u csd %u", pk.payload.mode.bits.exec.csl, pk.payload.mode.bits.exec.csd);
                else
                    printf(" tsx intx %u abrt %u", pk.payload.mode.bits.tsx.intx, pk.payload.mode.bits.tsx.abrt);
                break;
            case ppt_tsc: printf(" %" PRIx64, pk.payload.tsc.tsc); break;
            case ppt_tma: printf(" ctc %x fc %x", pk.payload.tma.ctc, pk.payload.tma.fc); break;
            case ppt_mtc: printf(" %x", pk.payload.mtc.ctc); break;
            case ppt_cyc: printf(" %" PRIx64, pk.payload.cyc.value); break;
            case ppt_cbr: printf(" %u", pk.payload.cbr.ratio); break;
            case ppt_exstop: printf(" ip %u", pk.payload.exstop.ip); break;
            case ppt_ptw: printf(" ip %u", pk.payload.ptw.ip); break;
            default: break;
            }
            printf("\n");
        }
    }
    pt_pkt_free_decoder(d);
}

static int lists_equal(const list *a, const list *b, size_t *at)
{
    size_t i;
    for (i = 0; i < a->n && i < b->n; i++)
        if (memcmp(&a->r[i], &b->r[i], sizeof a->r[i]) != 0) break;
    *at = i;
    return i == a->n && i == b->n;
}

/* ---- one stream ------------------------------------------------------------------ */

typedef struct totals {
    uint64_t streams, bytes, items, lib_items, one_byte, inner_streams, failures;
} totals;

static list L_ours, L_chunk, L_lib;
static const char *out_dir = "build/diff-qry";
static int verbose_dump, packet_dump, extra_grammar;
static const char *file_name; /* -f */

static void save(const uint8_t *buf, size_t len, uint64_t seed, uint64_t index)
{
    char path[512];
    FILE *f;
    if (file_name) return; /* it is in a file already */
    snprintf(path, sizeof path, "%s/fail-%" PRIu64 "-%" PRIu64 ".pt", out_dir, seed, index);
    f = fopen(path, "wb");
    if (!f) return;
    if (fwrite(buf, 1, len, f) != len) fprintf(stderr, "diff_ipt_qry: cannot write %s\n", path);
    fclose(f);
    printf("    stream written to %s\n", path);
}

/* Compares one stream; prints a FAIL report (at most `loud` of them) and
   returns 0 or -1. */
static int run_stream(uint8_t *buf, size_t len, const tcfg *t, int inner_timing, uint64_t seed, uint64_t index,
                      int one_byte, totals *tot, int loud)
{
    char why[256], s1[400], s2[400];
    size_t at, j;
    int bad = 0;
    tot->streams++;
    tot->bytes += len;
    tot->inner_streams += (uint64_t)inner_timing;

    bad |= our_drain(buf, len, t, CH_WHOLE, 0, &L_ours);
    bad |= our_drain(buf, len, t, CH_RANDOM, seed * 7919u + index, &L_chunk);
    if (!lists_equal(&L_ours, &L_chunk, &at)) {
        if (loud) {
            printf("FAIL ipt-qry diff: seed %" PRIu64 " stream %" PRIu64
                   ": our answers depend on the chunks (random chunks differ at answer %zu)\n",
                   seed, index, at);
            if (at < L_ours.n) rec_str(&L_ours.r[at], s1, sizeof s1), printf("    whole : %s\n", s1);
            if (at < L_chunk.n) rec_str(&L_chunk.r[at], s1, sizeof s1), printf("    chunks: %s\n", s1);
            save(buf, len, seed, index);
        }
        return -1;
    }
    if (one_byte) {
        tot->one_byte++;
        bad |= our_drain(buf, len, t, CH_ONE, 0, &L_chunk);
        if (!lists_equal(&L_ours, &L_chunk, &at)) {
            if (loud) {
                printf("FAIL ipt-qry diff: seed %" PRIu64 " stream %" PRIu64
                       ": our answers depend on the chunks (1-byte chunks differ at answer %zu)\n",
                       seed, index, at);
                save(buf, len, seed, index);
            }
            return -1;
        }
    }
    lib_drain(buf, len, t, &L_lib);
    if (packet_dump) dump_packets(buf, len);
    if (verbose_dump) {
        dump("ours", &L_ours);
        dump("lib ", &L_lib);
    }
    tot->lib_items += L_lib.n;
    if (!diff_vs_master) {
        filter_ours(&L_ours);
        filter_lib(&L_lib, buf, len);
        filter_pwre(&L_lib);
    }
    tot->items += L_ours.n;
    for (at = 0; at < L_ours.n && at < L_lib.n; at++)
        if (rec_diff(&L_ours.r[at], &L_lib.r[at], inner_timing, why, sizeof why)) break;
    if (!bad && at == L_ours.n && at == L_lib.n) return 0;
    if (at == L_ours.n || at == L_lib.n) snprintf(why, sizeof why, "%s", bad ? "contract " : "count ");
    if (loud) {
        printf("FAIL ipt-qry diff: seed %" PRIu64 " stream %" PRIu64 " (%zu bytes, mtc_freq %u nom_freq %u cpuid "
               "0x15 %" PRIu32 "/%" PRIu32 "%s): answer %zu differs (ours %zu answers, libipt %zu): %s\n",
               seed, index, len, t->mtc_freq, t->nom_freq, t->eax, t->ebx, inner_timing ? ", inner timing" : "", at,
               L_ours.n, L_lib.n, why);
        for (j = at >= 4 ? at - 4 : 0; j <= at + 2; j++) {
            if (j < L_ours.n) rec_str(&L_ours.r[j], s1, sizeof s1);
            else snprintf(s1, sizeof s1, "-");
            if (j < L_lib.n) rec_str(&L_lib.r[j], s2, sizeof s2);
            else snprintf(s2, sizeof s2, "-");
            printf("  %c %5zu ours  : %s\n", j == at ? '>' : ' ', j, s1);
            printf("  %c %5zu libipt: %s   [libipt @%" PRIx64 "]\n", j == at ? '>' : ' ', j, s2,
                   j < L_lib.n ? L_lib.r[j].off : 0);
        }
        if (at < L_lib.n) {
            uint64_t o = L_lib.r[at].kind == R_SYNC ? L_lib.r[at].sync_off : L_lib.r[at].off;
            printf("    stream bytes around libipt's position @%" PRIx64 ":\n", o);
            hex_window(buf, len, o);
        }
        if (file_name) {
            printf("    rerun: diff_ipt_qry -f %s -c %u,%u,%" PRIu32 ",%" PRIu32 "%s -d -p\n", file_name, t->mtc_freq,
                   t->nom_freq, t->eax, t->ebx, inner_timing ? " -i" : "");
        } else {
            printf("    rerun: diff_ipt_qry -r %" PRIu64 ":%" PRIu64 "%s -d -p\n", seed, index,
                   extra_grammar ? " -x" : "");
            save(buf, len, seed, index);
        }
    }
    return -1;
}

/* ---- main --------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(void)
{
    fprintf(stderr, "usage: diff_ipt_qry [-s SEEDS] [-m MiB] [-o DIR] [-x] [-v]\n"
                    "       diff_ipt_qry -r SEED:INDEX [-x] [-d]\n"
                    "       diff_ipt_qry -f FILE [-c mtc_freq,nom_freq,eax,ebx] [-i] [-d]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *seeds = "1,2,3,4", *file = NULL, *one = NULL, *conf = NULL;
    double mib = 5, t0 = now_s();
    int extra = 0, verbose = 0, inner_flag = 0, i, fails = 0;
    size_t cap = 256 * 1024;
    uint8_t *buf;
    totals tot;
    gen g;
    struct pt_version ver = pt_library_version();
    memset(&tot, 0, sizeof tot);
    memset(&g, 0, sizeof g);
    if (ver.major == 2 && ver.minor == 1) {
        printf("SKIP ipt-qry diff: libipt %d.%d: neither 2.0.x (filtered) nor 2.2+ (master behaviour)\n",
               ver.major, ver.minor);
        return 0;
    }
    diff_vs_master = ver.major > 2 || ver.minor >= 2;
    printf("libipt %d.%d.%d (query decoder and encoder)%s\n", ver.major, ver.minor, ver.patch,
           diff_vs_master ? ", compared as master: no filters" : "");
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) seeds = argv[++i];
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) mib = atof(argv[++i]);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_dir = argv[++i];
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) one = argv[++i];
        else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc) file = argv[++i];
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) conf = argv[++i];
        else if (strcmp(argv[i], "-x") == 0) extra = extra_grammar = 1;
        else if (strcmp(argv[i], "-i") == 0) inner_flag = 1;
        else if (strcmp(argv[i], "-v") == 0) verbose = 1;
        else if (strcmp(argv[i], "-d") == 0) verbose_dump = 1;
        else if (strcmp(argv[i], "-p") == 0) packet_dump = 1;
        else return usage();
    }
    buf = (uint8_t *)malloc(cap);
    if (!buf) return 2;

    if (file || one) { /* one stream */
        tcfg t;
        size_t len;
        int inner_timing = inner_flag;
        uint64_t seed = 0, index = 0;
        memset(&t, 0, sizeof t);
        if (file) {
            FILE *f = fopen(file, "rb");
            file_name = file;
            if (!f) {
                perror(file);
                return 2;
            }
            len = fread(buf, 1, cap, f);
            fclose(f);
            if (conf) {
                unsigned a = 0, b = 0;
                if (sscanf(conf, "%u,%u,%" SCNu32 ",%" SCNu32, &a, &b, &t.eax, &t.ebx) != 4) return usage();
                t.mtc_freq = (uint8_t)a;
                t.nom_freq = (uint8_t)b;
            }
        } else {
            if (sscanf(one, "%" SCNu64 ":%" SCNu64, &seed, &index) != 2) return usage();
            len = gen_stream(&g, seed, index, extra, buf, cap, &t, &inner_timing);
        }
        if (run_stream(buf, len, &t, inner_timing, seed, index, 1, &tot, 1) == 0)
            printf("PASS ipt-qry diff: %zu bytes, %" PRIu64 " answers equal libipt's\n", len, tot.items);
        else
            fails++;
        free(buf);
        return fails ? 1 : 0;
    }

    {
        const char *p = seeds;
        while (*p) {
            char *end;
            uint64_t seed = strtoull(p, &end, 10), index;
            uint64_t bytes = 0, streams = 0, items = 0, sfail = 0, budget = (uint64_t)(mib * 1048576.0);
            if (end == p) return usage();
            for (index = 0; bytes < budget; index++) {
                tcfg t;
                int inner_timing = 0;
                size_t len = gen_stream(&g, seed, index, extra, buf, cap, &t, &inner_timing);
                uint64_t before = tot.items;
                if (run_stream(buf, len, &t, inner_timing, seed, index, index % 4 == 0, &tot, sfail < 3) < 0) {
                    sfail++;
                    tot.failures++;
                }
                bytes += len;
                streams++;
                items += tot.items - before;
            }
            if (sfail) {
                printf("FAIL ipt-qry diff: seed %" PRIu64 ": %" PRIu64 " of %" PRIu64 " streams differ\n", seed, sfail,
                       streams);
                fails++;
            } else {
                printf("PASS ipt-qry diff: seed %" PRIu64 ": %" PRIu64 " streams, %" PRIu64 " bytes, %" PRIu64
                       " answers equal libipt's (whole == random chunks == 1-byte chunks)\n",
                       seed, streams, bytes, items);
            }
            p = *end == ',' ? end + 1 : end;
        }
    }
    if (verbose) {
        int k;
        printf("# groups:");
        for (k = 0; k < G_NGROUPS; k++) printf(" %s %" PRIu64, group_name[k], g.groups[k]);
        printf("\n");
    }
    printf("# ipt-qry diff: seeds %s%s: %" PRIu64 " streams (%" PRIu64 " inner timing, %" PRIu64
           " also fed 1 byte at a time), %" PRIu64 " bytes, %" PRIu64 " answers compared (libipt's %" PRIu64
           " before filtering); filtered: F1 status enabled/disabled %" PRIu64 ", F2 exec_mode after its TIP %" PRIu64
           ", F3 unchanged MODE.Exec %" PRIu64 ", F5 end after PSB+ %" PRIu64 ", D1 untimed in 2.0.5 %" PRIu64
           ", D2 time at the binding packet %" PRIu64 ", D3 pwre bound to pwrx %" PRIu64 "; %.1f s\n",
           seeds, extra ? " (-x)" : "", tot.streams, tot.inner_streams, tot.one_byte, tot.bytes, tot.items,
           tot.lib_items, filtered[F1], filtered[F2], filtered[F3], filtered[F5], filtered[D1], filtered[D2],
           filtered[D3], now_s() - t0);
    free(buf);
    free(L_ours.r);
    free(L_chunk.r);
    free(L_lib.r);
    return fails ? 1 : 0;
}
