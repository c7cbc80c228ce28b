/* ipt_flow.c - the Intel PT instruction flow of a real run (the corpus of
   tests/data/ipt/exec/, or a recording made by tests/live/ipt_exec.sh)
   decoded six ways, each compared with the instructions that really ran:
   tracedec's instruction decoder fed the whole trace and fed 1 byte at a
   time, tracedec's block decoder (its blocks walked with
   tdec_ipt_block_walk) fed whole with a cache and fed 1 byte at a time
   without, libipt's instruction decoder (pt_insn_next) and libipt's block
   decoder (pt_blk_next, its blocks walked with the image), over one image;
   and their events (PSB+ status updates left out): type, IP, resumed or
   mode, and after how many instructions: tracedec's instruction decoder's
   against its 1-byte fed run, tracedec's block decoder's and
   pt_insn_next's; pt_insn_next's against pt_blk_next's.

       ipt_flow NAME TRACE IMAGE SECTIONS EXPECTED

   SECTIONS: lines "OFFSET-END:VADDR" (hex): IMAGE's bytes [OFFSET, END) at
   VADDR. EXPECTED: the executed IPs, one "%016x" a line, or for a run too
   long to keep their digest, "digest COUNT HASH" (writer -d: the
   instructions are then compared by count and hash). Prints one line a
   decoder, "PASS NAME: DECODER (N instructions)" or "FAIL NAME: DECODER:"
   with the first difference (instruction index, how far the trace was
   read, expected and decoded IP); a decoder error is a difference. Exit
   status 1 on FAIL. */
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/exec/digest.h"

#include <intel-pt.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECTIONS 256

static const char *name;
static uint8_t *image, *trace;
static size_t image_size, trace_size;
static tdec_ipt_section sections[MAX_SECTIONS];
static size_t nsections;
static uint64_t *expected;
static size_t nexpected;
static int digest_only;          /* EXPECTED is a digest: nexpected, digest */
static uint64_t digest;
static int failed;

/* An event a decoder reported (PSB+ status updates left out): after how
   many instructions, its type, IP, and for enabled whether resumed, for
   exec mode the mode. */
typedef struct {
    size_t   at;
    uint32_t type, suppressed, detail;
    uint64_t ip;
} event;

/* One decoder's run against EXPECTED: what it decoded so far. */
typedef struct {
    const char *decoder;
    size_t      n;        /* instructions matched (digest_only: decoded) */
    uint64_t    hash;     /* digest_only: their digest */
    int         bad;      /* a difference was reported */
    event      *events;
    size_t      nevents, cap;
    uint32_t    mode;     /* libipt: the last exec mode an event gave */
} run;

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;
    if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0 ||
        (buf = malloc((size_t)n + 1)) == NULL || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        fprintf(stderr, "ipt_flow: cannot read %s\n", path);
        exit(2);
    }
    fclose(fp);
    *size = (size_t)n;
    return buf;
}

static void differ(run *r, uint64_t offset, const char *what, uint64_t got)
{
    if (r->bad)
        return;
    r->bad = 1;
    failed = 1;
    printf("FAIL %s: %s: instruction %zu (trace read to %#" PRIx64 "): expected %016" PRIx64 ", got %s %016" PRIx64
           "\n",
           name, r->decoder, r->n, offset, r->n < nexpected ? expected[r->n] : 0, what, got);
}

static void insn_ran(run *r, uint64_t ip, uint64_t offset)
{
    if (digest_only) {
        r->hash = exec_digest(r->hash, ip);
        r->n++;
    } else if (r->n >= nexpected || expected[r->n] != ip)
        differ(r, offset, "ip", ip);
    else if (!r->bad)
        r->n++;
}

static void event_seen(run *r, uint32_t type, int suppressed, uint64_t ip, uint32_t detail)
{
    event *e;
    if (r->nevents == r->cap) {
        r->cap = r->cap * 2 + 256;
        r->events = realloc(r->events, r->cap * sizeof *r->events);
        if (r->events == NULL)
            exit(2);
    }
    e = &r->events[r->nevents++];
    e->at = r->n;
    e->type = type;
    e->suppressed = suppressed != 0;
    e->ip = suppressed ? 0 : ip;
    e->detail = detail;
}

/* libipt's event: the fields compared. libipt 2.0.5 reports an exec mode
   event at every MODE.Exec (here: every TIP.PGE and PSB+); master's event
   decoder, which tracedec follows, only when the mode changes: an exec
   mode event that repeats the last mode is left out. */
static void libipt_event(run *r, const struct pt_event *ev)
{
    uint64_t ip = 0;
    uint32_t detail = 0;
    if (ev->type == ptev_exec_mode) {
        uint32_t mode = (uint32_t)ev->variant.exec_mode.mode;
        int same = mode == r->mode;
        r->mode = mode;
        if (same)
            return;
    }
    if (ev->status_update)
        return;
    switch (ev->type) {
    case ptev_enabled: ip = ev->variant.enabled.ip; detail = ev->variant.enabled.resumed; break;
    case ptev_disabled: ip = ev->variant.disabled.ip; break;
    case ptev_exec_mode: ip = ev->variant.exec_mode.ip; detail = (uint32_t)ev->variant.exec_mode.mode; break;
    default: break;
    }
    event_seen(r, (uint32_t)ev->type, ev->ip_suppressed, ip, detail);
}

/* The events of two decoders that decoded the same instructions: the same,
   at the same places. */
static void same_events(const run *a, const run *b)
{
    size_t i, n = a->nevents < b->nevents ? a->nevents : b->nevents;
    if (a->bad || b->bad)
        return;
    for (i = 0; i < n; i++) {
        const event *x = &a->events[i], *y = &b->events[i];
        if (x->at != y->at || x->type != y->type || x->suppressed != y->suppressed || x->ip != y->ip ||
            x->detail != y->detail)
            break;
    }
    if (i == n && a->nevents == b->nevents) {
        printf("PASS %s: events of %s == %s (%zu)\n", name, a->decoder, b->decoder, a->nevents);
        return;
    }
    failed = 1;
    printf("FAIL %s: events of %s != %s: event %zu of %zu/%zu", name, a->decoder, b->decoder, i, a->nevents,
           b->nevents);
    if (i < n)
        printf(": after instruction %zu type %u ip %016" PRIx64 "%s detail %u, after instruction %zu type %u ip %016" PRIx64
               "%s detail %u",
               a->events[i].at, a->events[i].type, a->events[i].ip, a->events[i].suppressed ? " (suppressed)" : "",
               a->events[i].detail, b->events[i].at, b->events[i].type, b->events[i].ip,
               b->events[i].suppressed ? " (suppressed)" : "", b->events[i].detail);
    printf("\n");
}

static void verdict(run *r)
{
    if (!r->bad && digest_only && (r->n != nexpected || r->hash != digest)) {
        r->bad = failed = 1;
        printf("FAIL %s: %s: %zu instructions, digest %016" PRIx64 "; expected %zu, %016" PRIx64 "\n", name,
               r->decoder, r->n, r->hash, nexpected, digest);
    }
    if (!r->bad && r->n != nexpected)
        differ(r, trace_size, "the end after", r->n);
    if (!r->bad)
        printf("PASS %s: %s (%zu instructions)\n", name, r->decoder, r->n);
}

/* ---- tracedec --------------------------------------------------------------- */
static tdec_ipt_flow_decoder flow;
static uint64_t cache[(1u << 20) / sizeof(uint64_t)]; /* the block decoder's */

/* tracedec's decoder fed `chunk` bytes at a time (0: the whole trace), as
   the instruction decoder, or as the block decoder (blocks: its blocks'
   instructions walked with tdec_ipt_block_walk; cache: with a 1 MiB cache). */
static void run_tracedec(run *out, const char *decoder, size_t chunk, int blocks, int with_cache)
{
    tdec_ipt_config cfg;
    tdec_ipt_image img;
    tdec_ipt_flow_item it;
    tdec_status st;
    size_t fed = 0;
    run r = {decoder, 0, EXEC_DIGEST_START, 0, NULL, 0, 0, 0};
    memset(&cfg, 0, sizeof cfg);
    img.sections = sections;
    img.count = nsections;
    tdec_ipt_flow_init(&flow, &cfg, tdec_ipt_image_read, &img, 0);
    if (with_cache) {
        memset(cache, 0, sizeof cache);
        tdec_ipt_flow_set_cache(&flow, cache, sizeof cache);
    }
    for (;;) {
        st = blocks ? tdec_ipt_flow_next_block(&flow, &it, 0) : tdec_ipt_flow_next(&flow, &it);
        if (st == TDEC_OK && it.kind == TDEC_IPT_FLOW_INSN) {
            insn_ran(&r, it.ip, fed);
        } else if (st == TDEC_OK && it.kind == TDEC_IPT_FLOW_BLOCK) {
            uint64_t ip = it.ip, last = it.ip;
            uint32_t k, reason = 0;
            for (k = 0; k < it.ninsn; k++) {
                tdec_ipt_insn_info insn;
                uint8_t raw[16];
                last = ip;
                if (tdec_ipt_block_walk(&flow, &it, &ip, &insn, raw, &reason) != TDEC_OK)
                    differ(&r, fed, "block walk error at", ip);
                insn_ran(&r, last, fed);
            }
            if (last != it.end_ip)
                differ(&r, fed, "block end", it.end_ip);
        } else if (st == TDEC_OK) {
            event_seen(&r, it.ev.type, it.ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED, it.ev.ip,
                       it.ev.type == TDEC_IPT_EV_ENABLED    ? (it.ev.flags & TDEC_IPT_EVF_RESUMED) != 0
                       : it.ev.type == TDEC_IPT_EV_EXEC_MODE ? it.ev.a
                                                             : 0);
        } else if (st == TDEC_NEED_INPUT) {
            size_t n = chunk == 0 ? trace_size - fed : (trace_size - fed < chunk ? trace_size - fed : chunk);
            st = n > 0 ? tdec_ipt_flow_feed(&flow, trace + fed, n) : tdec_ipt_flow_finish(&flow);
            fed += n;
            if (st < 0 && st != TDEC_E_CORRUPT)
                break;
        } else if (st == TDEC_END) {
            break;
        } else if (st == TDEC_E_CORRUPT) {
            differ(&r, flow.st.err_offset, "error", flow.err_ip);
            if (tdec_ipt_flow_resync(&flow) != TDEC_NEED_INPUT)
                break;
        } else if (st != TDEC_OK) {
            differ(&r, fed, "misuse", (uint64_t)(int64_t)st);
            break;
        }
    }
    verdict(&r);
    *out = r;
}

/* ---- libipt ------------------------------------------------------------------- */
static int add_sections(struct pt_image *img, const char *path)
{
    size_t i;
    for (i = 0; i < nsections; i++)
        if (pt_image_add_file(img, path, (uint64_t)(sections[i].bytes - image), sections[i].size, NULL,
                              sections[i].vaddr) < 0)
            return -1;
    return 0;
}

static void libipt_config(struct pt_config *cfg)
{
    pt_config_init(cfg);
    cfg->begin = trace;
    cfg->end = trace + trace_size;
}

static void run_insn(run *out, const char *image_path)
{
    struct pt_config cfg;
    struct pt_insn_decoder *d;
    run r = {"libipt pt_insn_next", 0, EXEC_DIGEST_START, 0, NULL, 0, 0, 0};
    int status;
    uint64_t offset = 0;
    libipt_config(&cfg);
    d = pt_insn_alloc_decoder(&cfg);
    if (d == NULL || add_sections(pt_insn_get_image(d), image_path) < 0) {
        differ(&r, 0, "setup failure", 0);
        *out = r;
        return;
    }
    for (;;) {
        status = pt_insn_sync_forward(d);
        if (status < 0)
            break;
        for (;;) {
            struct pt_insn insn;
            while (status & pts_event_pending) {
                struct pt_event ev;
                status = pt_insn_event(d, &ev, sizeof ev);
                if (status < 0)
                    break;
                libipt_event(&r, &ev);
            }
            if (status < 0)
                break;
            status = pt_insn_next(d, &insn, sizeof insn);
            pt_insn_get_offset(d, &offset);
            if (status < 0)
                break;
            insn_ran(&r, insn.ip, offset);
        }
        if (status == -pte_eos)
            break;
        differ(&r, offset, pt_errstr(pt_errcode(status)), 0);
    }
    pt_insn_free_decoder(d);
    verdict(&r);
    *out = r;
}

/* The instruction after the one at ip in a block, which goes on across
   direct jumps and calls (a block's instructions are walked with
   tracedec's length decoder, as ptxed walks them with XED). */
static uint64_t next_in_block(uint64_t ip, enum pt_exec_mode mode)
{
    tdec_ipt_image img = {sections, nsections};
    tdec_ipt_insn_info info;
    uint8_t buf[TDEC_IPT_INSN_MAX];
    uint32_t reason = 0;
    size_t n = tdec_ipt_image_read(&img, TDEC_IPT_ASID_ANY, ip, buf, sizeof buf);
    uint32_t m = mode == ptem_64bit ? TDEC_IPT_MODE_64 : mode == ptem_32bit ? TDEC_IPT_MODE_32 : TDEC_IPT_MODE_16;
    uint64_t next = 0;
    if (tdec_ipt_insn_decode(buf, n, m, &info, &reason) != TDEC_OK ||
        tdec_ipt_insn_next_ip(&info, ip, &next, &reason) != TDEC_OK)
        return 0;
    return next;
}

static void run_blk(run *out, const char *image_path)
{
    struct pt_config cfg;
    struct pt_block_decoder *d;
    run r = {"libipt pt_blk_next", 0, EXEC_DIGEST_START, 0, NULL, 0, 0, 0};
    int status;
    uint64_t offset = 0;
    libipt_config(&cfg);
    d = pt_blk_alloc_decoder(&cfg);
    if (d == NULL || add_sections(pt_blk_get_image(d), image_path) < 0) {
        differ(&r, 0, "setup failure", 0);
        *out = r;
        return;
    }
    for (;;) {
        status = pt_blk_sync_forward(d);
        if (status < 0)
            break;
        for (;;) {
            struct pt_block block;
            uint64_t ip;
            uint16_t i;
            while (status & pts_event_pending) {
                struct pt_event ev;
                status = pt_blk_event(d, &ev, sizeof ev);
                if (status < 0)
                    break;
                libipt_event(&r, &ev);
            }
            if (status < 0)
                break;
            status = pt_blk_next(d, &block, sizeof block);
            pt_blk_get_offset(d, &offset);
            for (i = 0, ip = block.ip; i < block.ninsn; i++) {
                insn_ran(&r, ip, offset);
                if (i + 1 < block.ninsn)
                    ip = next_in_block(ip, block.mode);
            }
            if (block.ninsn > 0 && ip != block.end_ip)
                differ(&r, offset, "block end", block.end_ip);
            if (status < 0)
                break;
        }
        if (status == -pte_eos)
            break;
        differ(&r, offset, pt_errstr(pt_errcode(status)), 0);
    }
    pt_blk_free_decoder(d);
    verdict(&r);
    *out = r;
}

int main(int argc, char **argv)
{
    FILE *fp;
    char line[256];
    size_t cap = 0;
    run whole, bytes, tblocks, tblocks_bytes, insn, blk;
    if (argc != 6) {
        fprintf(stderr, "usage: ipt_flow NAME TRACE IMAGE SECTIONS EXPECTED\n");
        return 2;
    }
    name = argv[1];
    trace = slurp(argv[2], &trace_size);
    image = slurp(argv[3], &image_size);
    fp = fopen(argv[4], "r");
    while (fp != NULL && fgets(line, sizeof line, fp) != NULL) {
        unsigned long long from, to, vaddr;
        if (nsections == MAX_SECTIONS || sscanf(line, "%llx-%llx:%llx", &from, &to, &vaddr) != 3 || from > to ||
            to > image_size) {
            fprintf(stderr, "ipt_flow: %s: bad section line %s", argv[4], line);
            return 2;
        }
        sections[nsections].vaddr = vaddr;
        sections[nsections].size = to - from;
        sections[nsections].bytes = image + from;
        sections[nsections].asid = TDEC_IPT_ASID_ANY;
        nsections++;
    }
    if (fp == NULL || (fclose(fp), fp = fopen(argv[5], "r")) == NULL) {
        fprintf(stderr, "ipt_flow: cannot read %s or %s\n", argv[4], argv[5]);
        return 2;
    }
    while (fgets(line, sizeof line, fp) != NULL) {
        unsigned long long count, hash;
        if (nexpected == 0 && sscanf(line, "digest %llu %llx", &count, &hash) == 2) {
            digest_only = 1;
            nexpected = (size_t)count;
            digest = hash;
            break;
        }
        if (nexpected == cap) {
            cap = cap * 2 + 4096;
            expected = realloc(expected, cap * sizeof *expected);
            if (expected == NULL)
                return 2;
        }
        expected[nexpected++] = strtoull(line, NULL, 16);
    }
    fclose(fp);
    run_tracedec(&whole, "tracedec flow_next (whole trace)", 0, 0, 0);
    run_tracedec(&bytes, "tracedec flow_next (1-byte feeds)", 1, 0, 0);
    run_tracedec(&tblocks, "tracedec flow_next_block (whole trace, cache)", 0, 1, 1);
    run_tracedec(&tblocks_bytes, "tracedec flow_next_block (1-byte feeds, no cache)", 1, 1, 0);
    run_insn(&insn, argv[3]);
    run_blk(&blk, argv[3]);
    same_events(&whole, &bytes);
    same_events(&whole, &tblocks);
    same_events(&whole, &tblocks_bytes);
    same_events(&whole, &insn);
    same_events(&insn, &blk);
    return failed;
}
