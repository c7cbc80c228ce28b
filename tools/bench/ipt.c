/* ipt.c - Intel PT packet decoder throughput beside libipt's (a
   program, not a test; link with -lipt).

   Generates the anchor report's synthetic stream in memory
   (tests/gen/ipt_gen.h with IPT_GEN_MIX_BENCH, libipt's encoder; TNT-8 45 %, PAD 22 %, TIP 10 %, CYC
   10 %, MTC 6 %, TNT-64 3 %, ..., PSB+ every 4 KiB, ~1.8 bytes a packet),
   then times on that one buffer, in one process, round-robin, RUNS rounds:

     memscan            a byte sum over the same memory (bench_memsum)
     tdec_ipt next      tdec_ipt_init, one feed() of the whole buffer,
                        tdec_ipt_next() until NEED_INPUT, finish()
     tdec_ipt next_n    the same through tdec_ipt_next_n (256 items a call)
     tdec_ipt 64 KiB    next() with the buffer fed in 64 KiB chunks
     libipt             pt_pkt_alloc_decoder, pt_pkt_sync_forward, pt_pkt_next
                        until -pte_eos (the library this process links:
                        Debian's 2.0.5 by default, or a build of master
                        through tools/bench/ipt.sh's LIBIPT_DIR)

   Every decode must count the generator's packets and bytes (the sum of the
   packet sizes is the buffer length). Prints the median and the best of the
   rounds in MB/s (10^6 bytes) and M packets/s, the ratios against libipt
   and against the memory scan, the faster of next and next_n against the
   issue's targets (10x 2.0.5 or 5x master side by side, 5x the reference figures'
   master figure), and the peak RSS.

     build/bench/ipt [-m MiB] [-n RUNS] [-o FILE]
   MiB: stream size (default 256); FILE: also write the stream there. */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/gen/ipt_gen.h"
#include "tools/bench/common.h"

#include <string.h>
#include <sys/resource.h>

typedef struct bi_count {
    uint64_t packets, bytes;
} bi_count;

/* Ours, one next() per packet, the input in `chunk`-byte pieces (0: whole). */
static int bi_ours(const uint8_t *buf, size_t len, size_t chunk, bi_count *c)
{
    tdec_ipt_decoder d;
    tdec_ipt_item it;
    tdec_status st;
    size_t fed = 0, n;
    uint64_t packets = 0, bytes = 0;
    st = tdec_ipt_init(&d, NULL);
    while (st >= 0) {
        st = tdec_ipt_next(&d, &it);
        if (st == TDEC_OK) {
            packets++;
            bytes += it.u.pkt.size;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = len - fed;
        if (chunk && n > chunk) n = chunk;
        st = n ? tdec_ipt_feed(&d, buf + fed, n) : tdec_ipt_finish(&d);
        fed += n;
    }
    c->packets = packets;
    c->bytes = bytes;
    if (st != TDEC_END) {
        fprintf(stderr, "bench/ipt: tdec_ipt: %s at %llu\n", tdec_status_str(st), (unsigned long long)d.st.err_offset);
        return -1;
    }
    return 0;
}

/* Ours through next_n. */
static int bi_ours_n(const uint8_t *buf, size_t len, bi_count *c)
{
    static tdec_ipt_item items[256];
    tdec_ipt_decoder d;
    tdec_status st;
    size_t n, i;
    int fed = 0;
    uint64_t packets = 0, bytes = 0;
    st = tdec_ipt_init(&d, NULL);
    while (st >= 0) {
        st = tdec_ipt_next_n(&d, items, sizeof items / sizeof items[0], &n);
        packets += n;
        for (i = 0; i < n; i++) bytes += items[i].u.pkt.size;
        if (st == TDEC_OK) continue;
        if (st != TDEC_NEED_INPUT) break;
        st = fed ? tdec_ipt_finish(&d) : tdec_ipt_feed(&d, buf, len);
        fed = 1;
    }
    c->packets = packets;
    c->bytes = bytes;
    if (st != TDEC_END) {
        fprintf(stderr, "bench/ipt: tdec_ipt_next_n: %s at %llu\n", tdec_status_str(st),
                (unsigned long long)d.st.err_offset);
        return -1;
    }
    return 0;
}

/* libipt's packet decoder, the way ptdump drives it. */
static int bi_libipt(uint8_t *buf, size_t len, bi_count *c)
{
    struct pt_config cfg;
    struct pt_packet_decoder *d;
    struct pt_packet p;
    uint64_t packets = 0, bytes = 0, off = 0;
    int r;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + len;
    d = pt_pkt_alloc_decoder(&cfg);
    if (!d) return -1;
    r = pt_pkt_sync_forward(d);
    while (r >= 0) {
        r = pt_pkt_next(d, &p, sizeof p);
        if (r < 0) break;
        packets++;
        bytes += p.size;
    }
    pt_pkt_get_offset(d, &off);
    pt_pkt_free_decoder(d);
    c->packets = packets;
    c->bytes = bytes;
    if (r != -pte_eos || off != len) {
        fprintf(stderr, "bench/ipt: libipt: %s at %llu\n", pt_errstr(pt_errcode(r)), (unsigned long long)off);
        return -1;
    }
    return 0;
}

enum { BI_SCAN, BI_NEXT, BI_NEXT_N, BI_CHUNK, BI_LIBIPT, BI_CASES };

int main(int argc, char **argv)
{
    static const char *names[BI_CASES] = {"memscan: byte sum", "tdec_ipt next, one chunk", "tdec_ipt next_n, one chunk",
                                          "tdec_ipt next, 64 KiB", "libipt pt_pkt_next"};
    double mib = 256, t, *secs[BI_CASES], med[BI_CASES], best[BI_CASES];
    int runs = 5, i, r, k;
    const char *out = NULL;
    ipt_gen g;
    uint8_t *buf;
    size_t cap, len;
    bi_count c;
    volatile uint64_t sink = 0;
    struct rusage ru;
    struct pt_version v = pt_library_version();

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) mib = atof(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else runs = 0;
    }
    if (runs < 1 || mib <= 0) {
        fprintf(stderr, "usage: build/bench/ipt [-m MiB] [-n RUNS] [-o FILE]\n");
        return 2;
    }
    cap = (size_t)(mib * 1048576.0) + 4096;
    buf = (uint8_t *)malloc(cap);
    for (k = 0; k < BI_CASES; k++) secs[k] = (double *)malloc((size_t)runs * sizeof(double));
    if (!buf || !secs[BI_CASES - 1]) {
        fprintf(stderr, "bench/ipt: out of memory\n");
        return 1;
    }
    t = bench_now();
    ipt_gen_init(&g, 0x1234567ull, IPT_GEN_MIX_BENCH);
    len = ipt_gen_fill(&g, buf, cap, 0);
    t = bench_now() - t;
    if (out) {
        FILE *f = fopen(out, "wb");
        if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
            fprintf(stderr, "bench/ipt: cannot write %s\n", out);
            return 1;
        }
    }
    printf("stream: %zu bytes (%.1f MB), %llu packets, %.2f bytes a packet, generated with libipt's encoder in %.1f s%s%s\n",
           len, (double)len / 1e6, (unsigned long long)g.packets, (double)len / (double)g.packets, t,
           out ? ", written to " : "", out ? out : "");
    printf("  psb %llu, tnt.8 %llu, tnt.64 %llu, tip %llu, pad %llu, cyc %llu, mtc %llu, fup %llu, tip.pge %llu, "
           "tip.pgd %llu, pip %llu, cbr %llu, tsc %llu, tma %llu, mode %llu, ovf %llu\n",
           (unsigned long long)g.count[ppt_psb], (unsigned long long)g.count[ppt_tnt_8],
           (unsigned long long)g.count[ppt_tnt_64], (unsigned long long)g.count[ppt_tip],
           (unsigned long long)g.count[ppt_pad], (unsigned long long)g.count[ppt_cyc],
           (unsigned long long)g.count[ppt_mtc], (unsigned long long)g.count[ppt_fup],
           (unsigned long long)g.count[ppt_tip_pge], (unsigned long long)g.count[ppt_tip_pgd],
           (unsigned long long)g.count[ppt_pip], (unsigned long long)g.count[ppt_cbr],
           (unsigned long long)g.count[ppt_tsc], (unsigned long long)g.count[ppt_tma],
           (unsigned long long)g.count[ppt_mode], (unsigned long long)g.count[ppt_ovf]);
    printf("libipt %d.%d.%d; %d rounds, each case once a round in turn\n", v.major, v.minor, v.patch, runs);

    for (r = 0; r < runs; r++) {
        for (k = 0; k < BI_CASES; k++) {
            int rc = 0;
            memset(&c, 0, sizeof c);
            t = bench_now();
            switch (k) {
            case BI_SCAN:
                sink += bench_memsum(buf, len);
                c.packets = g.packets, c.bytes = len;
                break;
            case BI_NEXT: rc = bi_ours(buf, len, 0, &c); break;
            case BI_NEXT_N: rc = bi_ours_n(buf, len, &c); break;
            case BI_CHUNK: rc = bi_ours(buf, len, 65536, &c); break;
            default: rc = bi_libipt(buf, len, &c); break;
            }
            t = bench_now() - t;
            if (rc != 0 || c.packets != g.packets || c.bytes != len) {
                fprintf(stderr, "bench/ipt: %s counted %llu packets, %llu bytes (want %llu, %zu)\n", names[k],
                        (unsigned long long)c.packets, (unsigned long long)c.bytes, (unsigned long long)g.packets,
                        len);
                return 1;
            }
            secs[k][r] = t;
        }
    }
    printf("every decode counted the generator's %llu packets and %zu bytes (sink %llx)\n",
           (unsigned long long)g.packets, len, (unsigned long long)(sink & 0xff));
    printf("%-28s %9s %9s %9s %11s %9s %9s\n", "case", "median s", "MB/s", "best MB/s", "M packets/s", "x libipt",
           "x scan");
    for (k = 0; k < BI_CASES; k++) {
        best[k] = 1e30;
        for (r = 0; r < runs; r++)
            if (secs[k][r] < best[k]) best[k] = secs[k][r];
        med[k] = bench_median(secs[k], runs);
    }
    for (k = 0; k < BI_CASES; k++) {
        if (k == BI_SCAN)
            printf("%-28s %9.4f %9.0f %9.0f %11s %9.2f %9.2f\n", names[k], med[k], (double)len / 1e6 / med[k],
                   (double)len / 1e6 / best[k], "-", med[BI_LIBIPT] / med[k], 1.0);
        else
            printf("%-28s %9.4f %9.0f %9.0f %11.1f %9.2f %9.2f\n", names[k], med[k], (double)len / 1e6 / med[k],
                   (double)len / 1e6 / best[k], (double)g.packets / 1e6 / med[k], med[BI_LIBIPT] / med[k],
                   med[BI_SCAN] / med[k]);
    }
    {
        /* The targets: >= 10x Debian's 2.0.5 side by side, >= 5x
           master (115 MB/s in docs/ipt.md, or side by side with a master build). */
        int fast = med[BI_NEXT_N] < med[BI_NEXT] ? BI_NEXT_N : BI_NEXT;
        double x = med[BI_LIBIPT] / med[fast], want = v.minor == 0 ? 10.0 : 5.0;
        double mbs = (double)len / 1e6 / med[fast];
        printf("tdec_ipt (%s, the faster API) / libipt %d.%d.%d side by side: %.1fx on medians (target >= %.0fx: %s); "
               "/ libipt master's 115 MB/s (docs/ipt.md): %.1fx (target >= 5x: %s)\n",
               fast == BI_NEXT_N ? "next_n" : "next", v.major, v.minor, v.patch, x, want, x >= want ? "met" : "NOT met",
               mbs / 115.0, mbs / 115.0 >= 5 ? "met" : "NOT met");
    }
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        printf("peak RSS %ld KiB (the stream buffer is %zu KiB; neither decoder allocates per packet)\n", ru.ru_maxrss,
               len / 1024);
    for (k = 0; k < BI_CASES; k++) free(secs[k]);
    free(buf);
    return 0;
}
