/* xtrace.c - xtrace instruction-stream decoder throughput (a program,
   not a test).

   No public xtrace sample exists, so the stream is generated in memory,
   deterministically, with tests/gen/xtrace_encoder.h: a basic block of 1..9
   instructions (5 on average) starts with a PCINST and goes on with INSTs;
   30% of the instructions access memory (LOAD or STORE, 1..8 bytes, 2% of
   them 16..64-byte vector accesses), each access followed by a TIME token;
   3% carry a VAL (MRS, TARGET_B, STXR, DC), 1% a MISC_FLAGS; every 20000th
   instruction is a syscall (7 SVCARG, a SYSCALL_VEC of 1..4 entries,
   SVCRET) and every 100000th an exception-level switch with ALLGPR. Checks
   that the stream decodes cleanly (END, the expected token, record,
   instruction and data-byte counts, the sum of the memory addresses) in
   every case below, then times, best of N runs:

     memscan        a byte sum over the same memory (bench_memsum)
     one chunk      tdec_xtrace_* over the stream fed as one chunk
     64 KiB         the same fed in 64 KiB chunks (tokens straddle chunks)
     64 KiB, skip   the same with TDEC_XTRACE_F_SKIP_PAYLOADS

   MB = 10^6 bytes. The target: the decoder at >= 1/4 of the scan's speed.

     build/bench/xtrace [-m MB] [-n RUNS] [-o FILE]
   FILE: also write the stream there (xtrace.*.xinsndata.bin for the CLI). */
#define _POSIX_C_SOURCE 200809L
#define TDEC_XTRACE_IMPLEMENTATION
#include "single/tdec_xtrace.h"
#include "tests/gen/xtrace_encoder.h"
#include "tools/bench/common.h"

#include <string.h>

/* What a decode must find. */
typedef struct bx_counts {
    uint64_t tokens, records, insns, data_bytes, addr_sum;
} bx_counts;

/* The generator: xorshift64* from a fixed seed, the stream's state. */
typedef struct bx_gen {
    uint64_t  rng, pc, time;
    unsigned  block_left;
    uint8_t   pool[4096]; /* memory values are slices of it */
    xe_buf    b;
    bx_counts want;
} bx_gen;

static uint64_t bx_rand(bx_gen *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * 2685821657736338717ull;
}

/* An instruction: a PCINST at a block start, else an INST. */
static void bx_insn(bx_gen *g, unsigned el, uint32_t word)
{
    if (g->block_left == 0) {
        g->pc = 0x400000u + (bx_rand(g) % 0x100000u) * 4u;
        g->block_left = 1u + (unsigned)(bx_rand(g) % 9u);
        xe_pcinst(&g->b, el, g->pc, word);
    } else {
        g->pc += 4;
        xe_inst(&g->b, el, word);
    }
    g->block_left--;
    g->want.tokens++;
    g->want.records++;
    g->want.insns++;
}

/* A LOAD or STORE of 2^k bytes, then its TIME token. */
static void bx_mem(bx_gen *g)
{
    uint64_t r = bx_rand(g), addr;
    unsigned k = (r & 0xFFu) < 5u ? 4u + (unsigned)((r >> 8) % 3u) : (unsigned)((r >> 8) & 3u);
    addr = ((r >> 16) & 1u ? 0x7ffc0000u : 0xaaaa0000u) + ((r >> 20) & 0xFFF8u);
    xe_mem(&g->b, (r >> 11) % 3u == 0, k, addr, g->pool + ((r >> 32) & 0x7FFu));
    xe_time(&g->b, 8, ++g->time);
    g->want.tokens += 2;
    g->want.records += 2;
    g->want.addr_sum += addr;
    if (k > 3) g->want.data_bytes += (uint64_t)1 << k;
}

static void bx_val(bx_gen *g, unsigned kind, uint64_t v)
{
    xe_val(&g->b, kind, v);
    g->want.tokens++;
    g->want.records++;
}

/* SVC: its 7 arguments, a SYSCALL_VEC of 1..4 iovecs, the return value. */
static void bx_syscall(bx_gen *g)
{
    uint64_t base[4], len[4], n = 1u + bx_rand(g) % 4u, i;
    g->block_left = 0;
    bx_insn(g, 0, 0xd4000001u);
    for (i = 0; i < 7; i++) bx_val(g, TDEC_XTRACE_VAL_SVCARG, bx_rand(g) & 0xFFFFu);
    for (i = 0; i < n; i++) {
        base[i] = 0x7ffc0000u + 64u * i;
        len[i] = 1u + bx_rand(g) % 4096u;
    }
    xe_syscall_vec(&g->b, n, base, len, NULL);
    g->want.tokens++;
    g->want.records += 1u + n;
    bx_val(g, TDEC_XTRACE_VAL_SVCRET, n);
}

/* An exception-level switch: a kernel block and the registers. */
static void bx_el_switch(bx_gen *g)
{
    uint64_t x[32];
    unsigned i;
    for (i = 0; i < 32; i++) x[i] = bx_rand(g);
    g->block_left = 0;
    bx_insn(g, 1, 0xd69f03e0u); /* ERET */
    xe_allgpr(&g->b, x);
    g->want.tokens++;
    g->want.records += 33;
}

/* One user instruction with what follows it. */
static void bx_step(bx_gen *g, uint64_t n)
{
    static const unsigned vals[4] = {TDEC_XTRACE_VAL_MRS, TDEC_XTRACE_VAL_TARGET_B, TDEC_XTRACE_VAL_STXR,
                                     TDEC_XTRACE_VAL_DC};
    uint64_t r;
    if (n % 20000u == 10000u) {
        bx_syscall(g);
        return;
    }
    if (n % 100000u == 99999u) {
        bx_el_switch(g);
        return;
    }
    r = bx_rand(g);
    bx_insn(g, 0, (uint32_t)(r >> 32));
    r %= 1000u;
    if (r < 300) bx_mem(g);
    else if (r < 330) bx_val(g, vals[r % 4u], bx_rand(g));
    else if (r < 340) {
        xe_misc_flags(&g->b, (bx_rand(g) & 0xFu) << 28);
        g->want.tokens++;
        g->want.records++;
    }
}

/* The stream of >= bytes bytes. */
static void bx_generate(bx_gen *g, size_t bytes)
{
    uint64_t n = 0;
    size_t i;
    memset(g, 0, sizeof *g);
    g->rng = 0x9E3779B97F4A7C15ull;
    for (i = 0; i < sizeof g->pool; i++) g->pool[i] = (uint8_t)bx_rand(g);
    xe_init(&g->b, 0);
    while (g->b.len < bytes) bx_step(g, n++);
}

/* One decode in `chunk`-byte pieces (0 = whole) with `flags`. Returns 0 on
   a clean end with *c filled. */
static int bx_decode(const uint8_t *buf, size_t len, size_t chunk, uint32_t flags, bx_counts *c)
{
    tdec_xtrace_decoder d;
    tdec_xtrace_config cfg;
    tdec_xtrace_item it;
    tdec_status st;
    size_t fed = 0, n;
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = flags;
    memset(c, 0, sizeof *c);
    st = tdec_xtrace_init(&d, &cfg);
    while (st >= 0) {
        st = tdec_xtrace_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_FRAGMENT) {
                c->data_bytes += it.u.frag.len;
                continue;
            }
            c->records++;
            c->tokens += it.u.rec.token != 0;
            if (it.u.rec.type == TDEC_XTRACE_REC_LOAD || it.u.rec.type == TDEC_XTRACE_REC_STORE)
                c->addr_sum += it.u.rec.addr;
            if (flags & TDEC_XTRACE_F_SKIP_PAYLOADS) c->data_bytes += it.u.rec.data_len;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = len - fed;
        if (chunk && n > chunk) n = chunk;
        st = n ? tdec_xtrace_feed(&d, buf + fed, n) : tdec_xtrace_finish(&d);
        fed += n;
    }
    c->insns = d.insn_count;
    if (st != TDEC_END) {
        fprintf(stderr, "bench/xtrace: %s at %llu (%s)\n", tdec_status_str(st), (unsigned long long)d.st.err_offset,
                tdec_xtrace_reason_str(d.st.err_reason));
        return -1;
    }
    return 0;
}

static void bx_row(const char *name, double secs, size_t len, uint64_t tokens, double scan)
{
    double mbs = (double)len / 1e6 / secs;
    if (tokens)
        printf("%-26s %9.4f %9.0f %12.1f %9.2f\n", name, secs, mbs, (double)tokens / 1e6 / secs, scan / secs);
    else
        printf("%-26s %9.4f %9.0f %12s %9.2f\n", name, secs, mbs, "-", 1.0);
}

static int bx_write(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len) {
        if (f) fclose(f);
        return -1;
    }
    return fclose(f);
}

int main(int argc, char **argv)
{
    static const struct { const char *name; size_t chunk; uint32_t flags; } cases[] = {
        {"tdec_xtrace, one chunk", 0, 0},
        {"tdec_xtrace, 64 KiB", 65536, 0},
        {"tdec_xtrace, 64 KiB, skip", 65536, TDEC_XTRACE_F_SKIP_PAYLOADS},
    };
    static bx_gen g;
    double mb = 200.0, t, best[4] = {1e30, 1e30, 1e30, 1e30};
    int runs = 5, i, r;
    size_t k;
    const char *out = NULL;
    bx_counts c;
    volatile uint64_t sink = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) mb = atof(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else runs = 0; /* unknown argument: usage */
    }
    if (runs < 1 || mb <= 0) {
        fprintf(stderr, "usage: build/bench/xtrace [-m MB] [-n RUNS] [-o FILE]\n");
        return 2;
    }
    t = bench_now();
    bx_generate(&g, (size_t)(mb * 1e6));
    t = bench_now() - t;
    for (k = 0; k < 3; k++) {
        if (bx_decode(g.b.p, g.b.len, cases[k].chunk, cases[k].flags, &c) != 0) return 1;
        if (memcmp(&c, &g.want, sizeof c) != 0) {
            fprintf(stderr, "bench/xtrace: %s decodes to other counts than were written\n", cases[k].name);
            return 1;
        }
    }
    if (out && bx_write(out, g.b.p, g.b.len) != 0) {
        fprintf(stderr, "bench/xtrace: cannot write %s\n", out);
        return 1;
    }
    printf("stream: generated in %.1f s%s%s:\n"
           "  %.1f MB, %llu tokens (%llu records, %llu instructions, %.1f MB of 16..64-byte values as fragments),\n"
           "  %.1f bytes/token; decodes cleanly with the counts written in every case\n",
           t, out ? ", written to " : "", out ? out : "", (double)g.b.len / 1e6, (unsigned long long)g.want.tokens,
           (unsigned long long)g.want.records, (unsigned long long)g.want.insns, (double)g.want.data_bytes / 1e6,
           (double)g.b.len / (double)g.want.tokens);

    for (r = 0; r < runs; r++) {
        t = bench_now();
        sink += bench_memsum(g.b.p, g.b.len);
        t = bench_now() - t;
        if (t < best[0]) best[0] = t;
        for (k = 0; k < 3; k++) {
            t = bench_now();
            if (bx_decode(g.b.p, g.b.len, cases[k].chunk, cases[k].flags, &c) != 0) return 1;
            t = bench_now() - t;
            sink += c.addr_sum;
            if (t < best[k + 1]) best[k + 1] = t;
        }
    }
    printf("best of %d runs (sink %llx)\n", runs, (unsigned long long)(sink & 0xff));
    printf("%-26s %9s %9s %12s %9s\n", "case", "best s", "MB/s", "M tokens/s", "x scan");
    bx_row("memscan: byte sum", best[0], g.b.len, 0, best[0]);
    for (k = 0; k < 3; k++) bx_row(cases[k].name, best[k + 1], g.b.len, g.want.tokens, best[0]);
    printf("decoder (64 KiB chunks) at %.2f of the byte sum's speed (target >= 0.25): %s\n", best[0] / best[2],
           best[0] / best[2] >= 0.25 ? "met" : "NOT met");
    xe_free(&g.b);
    return 0;
}
