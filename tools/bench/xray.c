/* xray.c - XRay decoder throughput (a program, not a test).

   Builds a big FDR v5 log in memory from the real blocks of sample traces,
   repeated with their TSCs moved forward each round (NewCPUId and TSCWrap
   bases shifted, so time keeps increasing; BufferExtents untouched) and
   their WallTime records one second and one microsecond later each round
   (llvm-xray orders a thread's blocks by both: with equal wall times it
   shuffles them, and `account` then refuses most records), checks
   that it decodes cleanly (END, no gaps, every TSC in its round's window),
   writes it to a file for the CLI comparison in tools/bench/bench.sh, and times:

     memscan   a plain pass over the same memory: a byte sum, and libc's
               memchr counting 0x0F bytes
     whole     tdec_xray_* over the buffer fed as one chunk
     64 KiB    the same, fed in 64 KiB chunks (records straddle chunks)

   Best of N runs each; MB = 10^6 bytes.

     build/bench/xray [-o OUT.xray] [-m MB] [-n RUNS] [SAMPLE.xray...]

   Defaults: -o build/bench/out/big.xray -m 100 -n 5 and the v5 samples under
   tests/data/xray that hold function records, arguments and events. */
#define _POSIX_C_SOURCE 199309L
#define TDEC_XRAY_IMPLEMENTATION
#include "single/tdec_xray.h"
#include "tools/bench/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *bx_default_samples[] = {
    "tests/data/xray/fdr-recursion/fdr-recursion.xray",
    "tests/data/xray/fdr-threads/fdr-threads.xray",
    "tests/data/xray/fdr-flight-ring/fdr-flight-ring.xray",
    "tests/data/xray/fdr-many-blocks/fdr-many-blocks.xray",
    "tests/data/xray/fdr-calls/fdr-calls.xray",
    "tests/data/xray/fdr-args/fdr-args.xray",
    "tests/data/xray/fdr-llvm19-runtime/fdr-llvm19-runtime.xray",
    "tests/data/xray/fdr-custom-events/fdr-custom-events.xray",
};

#define BX_MAX_PATCH 4096

/* One sample: its blocks (everything after the header) and where the
   absolute TSCs sit in them. */
typedef struct bx_sample {
    const char *path;
    uint8_t *data;
    size_t len;
    size_t npatch;
    size_t patch[BX_MAX_PATCH]; /* offsets (in data) of 8-byte TSC fields */
    size_t nwall;
    size_t wall[BX_MAX_PATCH];  /* offsets of WallTime records             */
    uint64_t items;             /* items after the header                  */
    uint64_t records;           /* of which records                        */
} bx_sample;

static void bx_put64(uint8_t *p, uint64_t v)
{
    int i;
    for (i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Decodes a sample: finds its TSC fields, its TSC range and item count. */
static int bx_scan(bx_sample *s, uint64_t *tmin, uint64_t *tmax)
{
    tdec_xray_decoder d;
    tdec_xray_item it;
    tdec_status st = tdec_xray_init(&d, NULL);
    int fed = 0;
    s->npatch = 0;
    s->nwall = 0;
    s->items = 0;
    s->records = 0;
    while (st >= 0) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            const tdec_xray_record *r = &it.u.rec;
            if (it.kind == TDEC_ITEM_GAP) {
                fprintf(stderr, "%s: gap at %llu: not a clean sample\n", s->path, (unsigned long long)it.offset);
                return -1;
            }
            if (it.kind != TDEC_ITEM_RECORD) {
                s->items++;
                continue;
            }
            if (r->type == TDEC_XRAY_REC_HEADER) {
                if (d.hdr.file_type != TDEC_XRAY_FDR || d.hdr.version != 5) {
                    fprintf(stderr, "%s: not an FDR v5 log\n", s->path);
                    return -1;
                }
                continue;
            }
            s->items++;
            s->records++;
            if (r->type == TDEC_XRAY_REC_NEW_CPU || r->type == TDEC_XRAY_REC_TSC_WRAP) {
                if (s->npatch == BX_MAX_PATCH) {
                    fprintf(stderr, "%s: too many TSC records\n", s->path);
                    return -1;
                }
                s->patch[s->npatch++] = (size_t)it.offset + (r->type == TDEC_XRAY_REC_NEW_CPU ? 3u : 1u);
            }
            if (r->type == TDEC_XRAY_REC_WALLTIME) {
                if (s->nwall == BX_MAX_PATCH) {
                    fprintf(stderr, "%s: too many WallTime records\n", s->path);
                    return -1;
                }
                s->wall[s->nwall++] = (size_t)it.offset;
            }
            if (r->tsc != 0) {
                if (r->tsc < *tmin) *tmin = r->tsc;
                if (r->tsc > *tmax) *tmax = r->tsc;
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        st = fed ? tdec_xray_finish(&d) : tdec_xray_feed(&d, s->data, s->len);
        fed = 1;
    }
    if (st != TDEC_END) {
        fprintf(stderr, "%s: %s at %llu\n", s->path, tdec_status_str(st), (unsigned long long)d.st.err_offset);
        return -1;
    }
    return 0;
}

/* One decode of buf in `chunk`-byte pieces (0 = whole). Returns the count
   of record items (fragment counts depend on the chunking), or 0 on any
   error or gap; *items gets every item; *sink folds in every TSC. */
static uint64_t bx_decode(const uint8_t *buf, size_t len, size_t chunk, uint64_t *items_out, uint64_t *sink)
{
    tdec_xray_decoder d;
    tdec_xray_item it;
    tdec_status st = tdec_xray_init(&d, NULL);
    size_t fed = 0, n;
    uint64_t items = 0, records = 0, acc = 0;
    while (st >= 0) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            items++;
            if (it.kind == TDEC_ITEM_RECORD) {
                records++;
                acc += it.u.rec.tsc;
            } else if (it.kind == TDEC_ITEM_GAP) {
                return 0;
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = len - fed;
        if (chunk && n > chunk) n = chunk;
        st = n ? tdec_xray_feed(&d, buf + fed, n) : tdec_xray_finish(&d);
        fed += n;
    }
    *sink += acc;
    *items_out = items;
    return st == TDEC_END ? records : 0;
}

/* The second memory-scan baseline (the first is bench_memsum): libc's
   memchr counting 0x0F bytes (the BufferExtents tag). */
static uint64_t bx_memchr(const uint8_t *buf, size_t len)
{
    const uint8_t *p = buf, *end = buf + len;
    uint64_t n = 0;
    while (p < end && (p = (const uint8_t *)memchr(p, 0x0F, (size_t)(end - p))) != NULL) {
        n++;
        p++;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *out = "build/bench/out/big.xray";
    double target_mb = 100.0;
    int runs = 5, i, r;
    const char **paths = bx_default_samples;
    int npaths = (int)(sizeof bx_default_samples / sizeof bx_default_samples[0]);
    bx_sample *smp;
    uint64_t tmin = UINT64_MAX, tmax = 0, span, items_per_round = 0, records_per_round = 0, sink = 0;
    size_t round_bytes = 0, rounds, total, pos, k;
    uint8_t *big, *hdr0 = NULL;
    FILE *f;
    double t, best_scan = 1e30, best_chr = 1e30, best_whole = 1e30, best_chunk = 1e30;
    uint64_t expect_items, expect_records, got, items_whole = 0, items_chunk = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) target_mb = atof(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: build/bench/xray [-o OUT.xray] [-m MB] [-n RUNS] [SAMPLE.xray...]\n");
            return 2;
        } else {
            paths = (const char **)&argv[i];
            npaths = argc - i;
            break;
        }
    }
    if (runs < 1) runs = 1;

    /* ---- the samples ---- */
    smp = (bx_sample *)calloc((size_t)npaths, sizeof *smp);
    if (!smp) return 1;
    for (i = 0; i < npaths; i++) {
        smp[i].path = paths[i];
        smp[i].data = bench_read(paths[i], &smp[i].len);
        if (!smp[i].data || smp[i].len < 32) {
            fprintf(stderr, "bench/xray: cannot read %s\n", paths[i]);
            return 1;
        }
        if (bx_scan(&smp[i], &tmin, &tmax) != 0) return 1;
        if (!hdr0) hdr0 = smp[i].data;
        round_bytes += smp[i].len - 32;
        items_per_round += smp[i].items;
        records_per_round += smp[i].records;
    }
    span = tmax - tmin + 1;

    /* ---- the big log: header + rounds of every sample's blocks ---- */
    rounds = (size_t)(target_mb * 1e6 / (double)round_bytes) + 1;
    total = 32 + rounds * round_bytes;
    big = (uint8_t *)malloc(total);
    if (!big) {
        fprintf(stderr, "bench/xray: out of memory for %lu bytes\n", (unsigned long)total);
        return 1;
    }
    memcpy(big, hdr0, 32);
    pos = 32;
    for (r = 0; (size_t)r < rounds; r++) {
        uint64_t shift = (uint64_t)r * span;
        for (i = 0; i < npaths; i++) {
            uint8_t *dst = big + pos;
            memcpy(dst, smp[i].data + 32, smp[i].len - 32);
            for (k = 0; k < smp[i].npatch; k++) {
                uint8_t *p = dst + (smp[i].patch[k] - 32);
                bx_put64(p, tdec__rd_u64le(p) + shift);
            }
            for (k = 0; k < smp[i].nwall; k++) {
                uint8_t *p = dst + (smp[i].wall[k] - 32);
                uint32_t usec = tdec__rd_u32le(p + 9) + (uint32_t)r;
                bx_put64(p + 1, tdec__rd_u64le(p + 1) + (uint64_t)r);
                p[9] = (uint8_t)usec;
                p[10] = (uint8_t)(usec >> 8);
                p[11] = (uint8_t)(usec >> 16);
                p[12] = (uint8_t)(usec >> 24);
            }
            pos += smp[i].len - 32;
        }
    }
    expect_items = 1 + (uint64_t)rounds * items_per_round;
    expect_records = 1 + (uint64_t)rounds * records_per_round;

    /* ---- check it: clean end, no gaps, TSCs inside their round ---- */
    {
        tdec_xray_decoder d;
        tdec_xray_item it;
        tdec_status st = tdec_xray_init(&d, NULL);
        uint64_t n = 0, bad_tsc = 0, gaps = 0;
        int fed = 0;
        while (st >= 0) {
            st = tdec_xray_next(&d, &it);
            if (st == TDEC_OK) {
                n++;
                if (it.kind == TDEC_ITEM_GAP) gaps++;
                if (it.kind == TDEC_ITEM_RECORD && it.u.rec.tsc != 0) {
                    uint64_t round = (it.offset - 32) / round_bytes;
                    uint64_t lo = tmin + round * span, hi = tmax + round * span;
                    if (it.u.rec.tsc < lo || it.u.rec.tsc > hi) bad_tsc++;
                }
                continue;
            }
            if (st != TDEC_NEED_INPUT) break;
            st = fed ? tdec_xray_finish(&d) : tdec_xray_feed(&d, big, total);
            fed = 1;
        }
        if (st != TDEC_END || gaps || bad_tsc || n != expect_items) {
            fprintf(stderr, "bench/xray: generated log does not decode cleanly: %s at %llu, %llu gaps, "
                    "%llu TSCs out of their round, %llu items (expected %llu)\n",
                    tdec_status_str(st), (unsigned long long)d.st.err_offset, (unsigned long long)gaps,
                    (unsigned long long)bad_tsc, (unsigned long long)n, (unsigned long long)expect_items);
            return 1;
        }
    }
    f = fopen(out, "wb");
    if (!f || fwrite(big, 1, total, f) != total || fclose(f) != 0) {
        fprintf(stderr, "bench/xray: cannot write %s\n", out);
        return 1;
    }

    printf("log: %s, %.1f MB, %d samples x %lu rounds, %llu items (%llu records), decodes cleanly (END, no gaps)\n",
           out, (double)total / 1e6, npaths, (unsigned long)rounds, (unsigned long long)expect_items,
           (unsigned long long)expect_records);

    /* ---- timings ---- */
    for (r = 0; r < runs; r++) {
        t = bench_now();
        sink += bench_memsum(big, total);
        t = bench_now() - t;
        if (t < best_scan) best_scan = t;

        t = bench_now();
        sink += bx_memchr(big, total);
        t = bench_now() - t;
        if (t < best_chr) best_chr = t;

        t = bench_now();
        got = bx_decode(big, total, 0, &items_whole, &sink);
        t = bench_now() - t;
        if (got != expect_records || items_whole != expect_items) {
            fprintf(stderr, "bench/xray: whole-buffer decode gave %llu items\n", (unsigned long long)got);
            return 1;
        }
        if (t < best_whole) best_whole = t;

        t = bench_now();
        got = bx_decode(big, total, 65536, &items_chunk, &sink);
        t = bench_now() - t;
        if (got != expect_records) {
            fprintf(stderr, "bench/xray: chunked decode gave %llu items\n", (unsigned long long)got);
            return 1;
        }
        if (t < best_chunk) best_chunk = t;
    }

    printf("best of %d runs (sink %llx)\n", runs, (unsigned long long)(sink & 0xff));
    printf("%-28s %10s %10s %14s\n", "case", "best s", "MB/s", "M items/s");
    printf("%-28s %10.4f %10.0f %14s\n", "memscan: byte sum", best_scan, (double)total / 1e6 / best_scan, "-");
    printf("%-28s %10.4f %10.0f %14s\n", "memscan: memchr 0x0F count", best_chr, (double)total / 1e6 / best_chr,
           "-");
    printf("%-28s %10.4f %10.0f %14.1f\n", "tdec_xray, one chunk", best_whole, (double)total / 1e6 / best_whole,
           (double)expect_items / 1e6 / best_whole);
    printf("%-28s %10.4f %10.0f %14.1f\n", "tdec_xray, 64 KiB chunks", best_chunk,
           (double)total / 1e6 / best_chunk, (double)items_chunk / 1e6 / best_chunk);
    printf("decoder (one chunk) takes %.1fx the time of the byte sum, %.1fx that of the memchr count\n",
           best_whole / best_scan, best_whole / best_chr);

    for (i = 0; i < npaths; i++) free(smp[i].data);
    free(smp);
    free(big);
    return 0;
}
