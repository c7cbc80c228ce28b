/* ipt_flow.c - Intel PT instruction flow throughput beside libipt's block
   and instruction decoders (a program, not a test; link with -lipt).

   On one trace and its code image (the files `tracedec flow` takes), in one
   process, round-robin, medians of RUNS rounds, instructions per second of:

     tdec block warm     tdec_ipt_flow_next_block with a 3 MiB cache kept
                         from round to round
     tdec block cold     the same, the cache invalidated before each round
     tdec block nocache  no cache at all
     tdec insn warm      tdec_ipt_flow_next, one instruction at a time, with
                         the warm cache (blocks read again, decoded
                         instructions remembered)
     tdec insn nocache   the same without a cache (decoded one by one)
     libipt blk warm     pt_blk_next (+ pt_blk_event), one image whose
                         sections keep libipt's block cache between rounds
     libipt blk cold     the same on a new image each round
     libipt insn         pt_insn_next (+ pt_insn_event)

   Every decoder must see the same number of instructions (libipt 2.0.5's
   decoders and master's agree with ours on traces without errors); the
   counts are printed and a difference is an error (exit 1).

     build/bench/ipt_flow [-n RUNS] --pt TRACE --raw FILE[:FROM-TO]:BASE [--raw ...] */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tools/bench/common.h"

#include <intel-pt.h>
#include <string.h>

#define BF_MAX_RAW 256

typedef struct bf_raw {
    const char *path;
    uint64_t    base, from; /* bytes [from, from + size) of the file at base */
    size_t      size;
    uint8_t    *bytes;
} bf_raw;

static bf_raw           bf_raws[BF_MAX_RAW];
static tdec_ipt_section bf_secs[BF_MAX_RAW];
static size_t           bf_nraw;
static uint64_t         bf_cache[65536u * TDEC_IPT_CACHE_ENTRY / 8u];
static tdec_ipt_flow_decoder bf_dec;

/* Our decoder over the whole trace: the instructions it saw. */
static uint64_t bf_tdec(const uint8_t *buf, size_t len, int blocks, int cache)
{
    tdec_ipt_image image = {bf_secs, bf_nraw};
    tdec_ipt_flow_decoder *f = &bf_dec;
    tdec_ipt_flow_item it;
    tdec_status st;
    uint64_t insns = 0;
    int fed = 0;
    tdec_ipt_flow_init(f, NULL, tdec_ipt_image_read, &image, 0);
    if (cache) tdec_ipt_flow_set_cache(f, bf_cache, sizeof bf_cache); /* warm from the last round */
    for (;;) {
        st = blocks ? tdec_ipt_flow_next_block(f, &it, 0) : tdec_ipt_flow_next(f, &it);
        if (st == TDEC_OK) {
            if (it.kind != TDEC_IPT_FLOW_EVENT) insns += it.ninsn;
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            st = fed ? tdec_ipt_flow_finish(f) : tdec_ipt_flow_feed(f, buf, len);
            fed = 1;
            if (st == TDEC_NEED_INPUT || st == TDEC_END) continue;
        }
        if (st == TDEC_E_CORRUPT && tdec_ipt_flow_resync(f) == TDEC_NEED_INPUT) continue;
        return insns;
    }
}

static struct pt_image *bf_image(void)
{
    struct pt_image *img = pt_image_alloc(NULL);
    size_t k;
    for (k = 0; k < bf_nraw; k++)
        if (pt_image_add_file(img, bf_raws[k].path, bf_raws[k].from, bf_raws[k].size, NULL, bf_raws[k].base) < 0) {
            fprintf(stderr, "libipt cannot map %s\n", bf_raws[k].path);
            exit(2);
        }
    return img;
}

static struct pt_config bf_config(const uint8_t *buf, size_t len)
{
    struct pt_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.size = sizeof cfg;
    cfg.begin = (uint8_t *)buf;
    cfg.end = (uint8_t *)buf + len;
    return cfg;
}

/* libipt's block decoder as ptxed drives it: the instructions it saw. */
static uint64_t bf_libipt_blk(const uint8_t *buf, size_t len, struct pt_image *img)
{
    struct pt_config cfg = bf_config(buf, len);
    struct pt_block_decoder *d = pt_blk_alloc_decoder(&cfg);
    struct pt_block b;
    struct pt_event ev;
    uint64_t insns = 0;
    int st;
    pt_blk_set_image(d, img);
    for (;;) {
        st = pt_blk_sync_forward(d);
        if (st < 0) break;
        for (;;) {
            while (st >= 0 && (st & pts_event_pending)) st = pt_blk_event(d, &ev, sizeof ev);
            if (st < 0 || (st & pts_eos)) break;
            st = pt_blk_next(d, &b, sizeof b);
            insns += b.ninsn;
            if (st < 0) break;
        }
    }
    pt_blk_free_decoder(d);
    return insns;
}

/* libipt's instruction decoder as ptxed drives it. */
static uint64_t bf_libipt_insn(const uint8_t *buf, size_t len, struct pt_image *img)
{
    struct pt_config cfg = bf_config(buf, len);
    struct pt_insn_decoder *d = pt_insn_alloc_decoder(&cfg);
    struct pt_insn in;
    struct pt_event ev;
    uint64_t insns = 0;
    int st;
    pt_insn_set_image(d, img);
    for (;;) {
        st = pt_insn_sync_forward(d);
        if (st < 0) break;
        for (;;) {
            while (st >= 0 && (st & pts_event_pending)) st = pt_insn_event(d, &ev, sizeof ev);
            if (st < 0 || (st & pts_eos)) break;
            st = pt_insn_next(d, &in, sizeof in);
            if (st < 0) break;
            insns++;
        }
    }
    pt_insn_free_decoder(d);
    return insns;
}

enum {
    BF_BLOCK_WARM,
    BF_BLOCK_COLD,
    BF_BLOCK_NOCACHE,
    BF_INSN_WARM,
    BF_INSN_NOCACHE,
    BF_LIB_BLK_WARM,
    BF_LIB_BLK_COLD,
    BF_LIB_INSN,
    BF_N
};

static const char *const bf_names[BF_N] = {"tdec block warm", "tdec block cold", "tdec block nocache",
                                           "tdec insn warm",  "tdec insn nocache", "libipt blk warm",
                                           "libipt blk cold", "libipt insn"};

int main(int argc, char **argv)
{
    const char *pt = NULL;
    double t[BF_N][64], t0, med[BF_N];
    uint64_t count[BF_N];
    struct pt_image *warm_img, *img;
    struct pt_version v = pt_library_version();
    uint8_t *buf;
    size_t len;
    int runs = 5, r, k, bad = 0;
    char *colon;
    for (k = 1; k < argc; k++) {
        if (strcmp(argv[k], "-n") == 0 && k + 1 < argc) {
            runs = atoi(argv[++k]);
        } else if (strcmp(argv[k], "--pt") == 0 && k + 1 < argc) {
            pt = argv[++k];
        } else if (strcmp(argv[k], "--raw") == 0 && k + 1 < argc && bf_nraw < BF_MAX_RAW) {
            bf_raw *raw = &bf_raws[bf_nraw];
            char *range;
            uint64_t to;
            raw->path = argv[++k];
            colon = strrchr(argv[k], ':');
            if (!colon) break;
            *colon = '\0';
            raw->base = strtoull(colon + 1, NULL, 0);
            range = strrchr(argv[k], ':'); /* FILE:FROM-TO:BASE */
            raw->from = 0;
            to = UINT64_MAX;
            if (range && strchr(range, '-')) {
                *range = '\0';
                raw->from = strtoull(range + 1, &range, 0);
                to = strtoull(range + 1, NULL, 0);
            }
            raw->bytes = bench_read(raw->path, &raw->size);
            if (!raw->bytes) {
                fprintf(stderr, "cannot read %s\n", raw->path);
                return 2;
            }
            if (to == UINT64_MAX) to = raw->size;
            if (to < raw->from || to > raw->size) break;
            raw->size = (size_t)(to - raw->from);
            bf_secs[bf_nraw].vaddr = raw->base;
            bf_secs[bf_nraw].size = raw->size;
            bf_secs[bf_nraw].bytes = raw->bytes + raw->from;
            bf_secs[bf_nraw].asid = TDEC_IPT_ASID_ANY;
            bf_nraw++;
        } else {
            break;
        }
    }
    if (k < argc || !pt || runs < 1 || runs > 64) {
        fprintf(stderr, "usage: %s [-n RUNS] --pt TRACE --raw FILE[:FROM-TO]:BASE [--raw ...]\n", argv[0]);
        return 2;
    }
    buf = bench_read(pt, &len);
    if (!buf) {
        fprintf(stderr, "cannot read %s\n", pt);
        return 2;
    }
    printf("trace %s: %zu bytes, %zu image files; libipt %u.%u.%u; %d rounds\n", pt, len, bf_nraw, v.major,
           v.minor, v.patch, runs);
    warm_img = bf_image();
    (void)bf_tdec(buf, len, 1, 1); /* warm both caches once */
    (void)bf_libipt_blk(buf, len, warm_img);
    for (r = 0; r < runs; r++)
        for (k = 0; k < BF_N; k++) {
            img = k == BF_LIB_BLK_COLD || k == BF_LIB_INSN ? bf_image() : warm_img;
            if (k == BF_BLOCK_COLD) memset(bf_cache, 0, sizeof bf_cache); /* zeroed: empty */
            t0 = bench_now();
            switch (k) {
            case BF_BLOCK_WARM: count[k] = bf_tdec(buf, len, 1, 1); break;
            case BF_BLOCK_COLD: count[k] = bf_tdec(buf, len, 1, 1); break;
            case BF_BLOCK_NOCACHE: count[k] = bf_tdec(buf, len, 1, 0); break;
            case BF_INSN_WARM: count[k] = bf_tdec(buf, len, 0, 1); break;
            case BF_INSN_NOCACHE: count[k] = bf_tdec(buf, len, 0, 0); break;
            case BF_LIB_BLK_WARM:
            case BF_LIB_BLK_COLD: count[k] = bf_libipt_blk(buf, len, img); break;
            default: count[k] = bf_libipt_insn(buf, len, img); break;
            }
            t[k][r] = bench_now() - t0;
            if (img != warm_img) pt_image_free(img);
        }
    for (k = 0; k < BF_N; k++) {
        med[k] = bench_median(t[k], runs);
        printf("%-20s %12llu insns %9.3f s %8.1f M insn/s\n", bf_names[k], (unsigned long long)count[k], med[k],
               (double)count[k] / med[k] / 1e6);
        if (count[k] != count[0]) bad = 1;
    }
    printf("block warm / libipt blk warm: %.2fx; block cold / libipt blk cold: %.2fx; insn / libipt insn: %.2fx\n",
           med[BF_LIB_BLK_WARM] / med[BF_BLOCK_WARM], med[BF_LIB_BLK_COLD] / med[BF_BLOCK_COLD],
           med[BF_LIB_INSN] / med[BF_INSN_WARM]);
    if (bad) printf("instruction counts differ\n");
    return bad;
}
