/* ipt_evq.c - Intel PT event and query decoder throughput beside
   libipt's query decoder (a program, not a test; link with -lipt).

   Generates the anchor report's synthetic mix as a trace the layers above
   packets take without an error (tests/gen/ipt_gen.h, IPT_GEN_MIX_FLOW: the
   benchmark mix's proportions, packets that need a partner come with
   it), then times on that one buffer, in one process, round-robin:

     tdec_ipt_evt       every event (tdec_ipt_evt_next), the buffer fed whole
     tdec_ipt_evt 64K   the same, fed in 64 KiB chunks
     tdec_ipt_qry       the query drain of the reference figures: sync, then an
                        event query while one is pending, else cond_branch,
                        indirect_branch when no TNT bit is next, and
                        tdec_ipt_qry_time after every query
     libipt pt_qry      the same drain through pt_qry_* (the library this
                        process links: Debian's 2.0.5 by default)
     libipt pt_evt      every event through pt_evt_next, when the linked
                        libipt has it (2.1 and later: a local build of
                        master, tools/bench/ipt.sh's LIBIPT_DIR)

   Both drains must end without a decoding error. Their item counts differ
   by design (libipt master reports the tracing state after each sync as an
   event and drops MODE.Exec packets that change nothing; 2.0.5 does
   neither): both are printed.

     build/bench/ipt_evq [-m MiB] [-n RUNS] */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/gen/ipt_gen.h"
#include "tools/bench/common.h"

#include <string.h>

typedef struct be_count {
    uint64_t items, errors;
} be_count;

static tdec_ipt_evt_decoder be_evt;
static tdec_ipt_qry_decoder be_qry;

static void be_events(const uint8_t *buf, size_t len, size_t chunk, be_count *c)
{
    tdec_ipt_evt_decoder *e = &be_evt;
    tdec_ipt_evt_item it;
    tdec_status st;
    size_t fed = 0, n;
    tdec_ipt_evt_init(e, NULL);
    for (;;) {
        st = tdec_ipt_evt_next(e, &it);
        if (st == TDEC_OK) {
            c->items++;
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            n = len - fed;
            if (chunk && n > chunk) n = chunk;
            st = n ? tdec_ipt_evt_feed(e, buf + fed, n) : tdec_ipt_evt_finish(e);
            fed += n;
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_E_CORRUPT) {
            c->errors++;
            if (tdec_ipt_evt_resync(e) == TDEC_NEED_INPUT) continue;
        }
        return;
    }
}

static void be_queries(const uint8_t *buf, size_t len, be_count *c)
{
    tdec_ipt_qry_decoder *q = &be_qry;
    tdec_ipt_event ev;
    tdec_status st;
    uint64_t ip, tsc;
    uint32_t flags = 0;
    int taken, synced = 0, fed = 0;
    tdec_ipt_qry_init(q, NULL);
    for (;;) {
        if (!synced) {
            st = tdec_ipt_qry_sync(q, &ip, &flags, NULL);
            synced = st == TDEC_OK;
        } else if (flags & TDEC_IPT_QF_EVENT_PENDING) {
            st = tdec_ipt_qry_event(q, &ev, &flags);
        } else {
            st = tdec_ipt_qry_cond_branch(q, &taken, &flags);
            if (st == TDEC_E_SEQUENCE) st = tdec_ipt_qry_indirect_branch(q, &ip, &flags);
        }
        if (st == TDEC_OK) {
            tdec_ipt_qry_time(q, &tsc, NULL, NULL, NULL);
            c->items++;
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            st = fed ? tdec_ipt_qry_finish(q) : tdec_ipt_qry_feed(q, buf, len);
            fed = 1;
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_E_CORRUPT) {
            c->errors++;
            synced = 0;
            if (tdec_ipt_qry_resync(q) == TDEC_NEED_INPUT) continue;
        }
        return;
    }
}

static void be_libipt(uint8_t *buf, size_t len, be_count *c)
{
    struct pt_config cfg;
    struct pt_query_decoder *q;
    struct pt_event ev;
    uint64_t ip, tsc;
    int status, taken;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + len;
    q = pt_qry_alloc_decoder(&cfg);
    if (q == NULL) {
        c->errors++;
        return;
    }
    status = pt_qry_sync_forward(q, &ip);
    while (status != -pte_eos) {
        if (status < 0) {
            c->errors++;
            status = pt_qry_sync_forward(q, &ip);
            continue;
        }
        c->items++;
        if (status & pts_eos) break;
        if (status & pts_event_pending) {
            status = pt_qry_event(q, &ev, sizeof ev);
        } else {
            status = pt_qry_cond_branch(q, &taken);
            if (status == -pte_bad_query) status = pt_qry_indirect_branch(q, &ip);
        }
        pt_qry_time(q, &tsc, NULL, NULL);
    }
    pt_qry_free_decoder(q);
}

#if defined(LIBIPT_VERSION) && LIBIPT_VERSION >= 0x201
/* libipt's event decoder (2.1 and later: a local build of master through
   tools/bench/ipt.sh's LIBIPT_DIR; Debian's 2.0.5 has none). */
#define BE_HAVE_LIBIPT_EVT 1
static void be_libipt_evt(uint8_t *buf, size_t len, be_count *c)
{
    struct pt_config cfg;
    struct pt_event_decoder *d;
    struct pt_event ev;
    int st;
    pt_config_init(&cfg);
    cfg.begin = buf;
    cfg.end = buf + len;
    d = pt_evt_alloc_decoder(&cfg);
    if (d == NULL) {
        c->errors++;
        return;
    }
    for (st = pt_evt_sync_forward(d); st != -pte_eos;) {
        if (st < 0) {
            c->errors++;
            st = pt_evt_sync_forward(d);
            continue;
        }
        st = pt_evt_next(d, &ev, sizeof ev);
        if (st >= 0) c->items++;
    }
    pt_evt_free_decoder(d);
}
#else
#define BE_HAVE_LIBIPT_EVT 0
#endif

enum { BE_EVT, BE_EVT_CHUNK, BE_QRY, BE_LIBIPT, BE_LIBIPT_EVT, BE_ALL };

int main(int argc, char **argv)
{
    static const char *names[BE_ALL] = {"tdec_ipt_evt, one chunk", "tdec_ipt_evt, 64 KiB", "tdec_ipt_qry drain",
                                        "libipt pt_qry drain", "libipt pt_evt_next"};
    const int ncases = BE_LIBIPT_EVT + BE_HAVE_LIBIPT_EVT;
    double mib = 256, t, *secs[BE_ALL], med[BE_ALL];
    int runs = 3, i, r, k;
    ipt_gen g;
    uint8_t *buf;
    size_t cap, len;
    be_count c[BE_ALL];
    struct pt_version v = pt_library_version();

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) mib = atof(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else runs = 0;
    }
    if (runs < 1 || mib <= 0) {
        fprintf(stderr, "usage: build/bench/ipt_evq [-m MiB] [-n RUNS]\n");
        return 2;
    }
    cap = (size_t)(mib * 1048576.0) + 4096;
    buf = (uint8_t *)malloc(cap);
    for (k = 0; k < ncases; k++) secs[k] = (double *)malloc((size_t)runs * sizeof(double));
    if (!buf || !secs[ncases - 1]) {
        fprintf(stderr, "bench/ipt_evq: out of memory\n");
        return 1;
    }
    t = bench_now();
    ipt_gen_init(&g, 0x7654321ull, IPT_GEN_MIX_FLOW);
    len = ipt_gen_fill(&g, buf, cap, 0);
    t = bench_now() - t;
    printf("stream: %zu bytes (%.1f MB), %llu packets, %.2f bytes a packet, valid for events and queries "
           "(libipt's encoder, %.1f s)\n",
           len, (double)len / 1e6, (unsigned long long)g.packets, (double)len / (double)g.packets, t);
    printf("libipt %d.%d.%d; %d rounds, each case once a round in turn\n", v.major, v.minor, v.patch, runs);
    for (r = 0; r < runs; r++) {
        for (k = 0; k < ncases; k++) {
            memset(&c[k], 0, sizeof c[k]);
            t = bench_now();
            switch (k) {
            case BE_EVT: be_events(buf, len, 0, &c[k]); break;
            case BE_EVT_CHUNK: be_events(buf, len, 65536, &c[k]); break;
            case BE_QRY: be_queries(buf, len, &c[k]); break;
#if BE_HAVE_LIBIPT_EVT
            case BE_LIBIPT_EVT: be_libipt_evt(buf, len, &c[k]); break;
#endif
            default: be_libipt(buf, len, &c[k]); break;
            }
            secs[k][r] = bench_now() - t;
            if (c[k].errors != 0) {
                fprintf(stderr, "bench/ipt_evq: %s: %llu decoding errors on a valid stream\n", names[k],
                        (unsigned long long)c[k].errors);
                return 1;
            }
        }
    }
    if (c[BE_EVT].items != c[BE_EVT_CHUNK].items) {
        fprintf(stderr, "bench/ipt_evq: events depend on the chunks (%llu, %llu)\n",
                (unsigned long long)c[BE_EVT].items, (unsigned long long)c[BE_EVT_CHUNK].items);
        return 1;
    }
    printf("%-26s %9s %9s %12s\n", "case", "median s", "MB/s", "M items/s");
    for (k = 0; k < ncases; k++) {
        med[k] = bench_median(secs[k], runs);
        printf("%-26s %9.4f %9.1f %12.1f   (%llu items)\n", names[k], med[k], (double)len / 1e6 / med[k],
               (double)c[k].items / 1e6 / med[k], (unsigned long long)c[k].items);
    }
    printf("queries: %.1fx libipt %d.%d.%d side by side; %.1fx libipt master's 27.5 MB/s (docs/ipt.md; target >= 3x: %s)\n",
           med[BE_LIBIPT] / med[BE_QRY], v.major, v.minor, v.patch, (double)len / 1e6 / med[BE_QRY] / 27.5,
           (double)len / 1e6 / med[BE_QRY] / 27.5 >= 3 ? "met" : "NOT met");
    printf("events: %.1fx libipt master's 57.8 MB/s (docs/ipt.md; target >= 3x: %s)\n",
           (double)len / 1e6 / med[BE_EVT] / 57.8, (double)len / 1e6 / med[BE_EVT] / 57.8 >= 3 ? "met" : "NOT met");
    if (BE_HAVE_LIBIPT_EVT)
        printf("events: %.1fx libipt %d.%d.%d's pt_evt_next side by side\n", med[BE_LIBIPT_EVT] / med[BE_EVT],
               v.major, v.minor, v.patch);
    for (k = 0; k < ncases; k++) free(secs[k]);
    free(buf);
    return 0;
}
