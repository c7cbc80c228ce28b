/* uftrace.c - uftrace <tid>.dat decoder throughput (a program, not a
   test).

   Reads one <tid>.dat file (made by `uftrace record`, see
   tools/bench/uftrace.sh) into memory, then times, best of N runs:

     memscan   a plain pass over the same memory (a 64-bit word sum)
     64 KiB    tdec_uftrace_* fed in 64 KiB chunks (records straddle no
               chunk here, since 65536 is a multiple of 16, but the loop is
               the one every caller writes)
     13 KiB    the same with 13000-byte chunks: records straddle chunks

   Every run must decode the whole file cleanly (TDEC_END) and give the same
   record counts. The file must hold no argument blocks (record without
   -A/-R/-a): the bench has no spec to give. MB = 10^6 bytes.

     build/bench/uftrace [-n RUNS] FILE.dat */
#define _POSIX_C_SOURCE 199309L
#define TDEC_UFTRACE_IMPLEMENTATION
#include "single/tdec_uftrace.h"
#include "tools/bench/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bu_counts {
    uint64_t records, entries, exits, other, frags, checksum;
} bu_counts;

/* Decodes buf in chunks of `chunk` bytes; 0 on a clean end. */
static int bu_decode(const uint8_t *buf, size_t len, size_t chunk, bu_counts *c)
{
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    tdec_status st;
    size_t off = 0;
    memset(c, 0, sizeof *c);
    st = tdec_uftrace_init(&d, NULL);
    while (st >= 0) {
        st = tdec_uftrace_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_RECORD) {
                if (tdec_uftrace_needs_spec(&d)) {
                    fprintf(stderr, "bench/uftrace: argument block at offset %llu: record without -A/-R/-a\n",
                            (unsigned long long)it.offset);
                    return 1;
                }
                c->records++;
                if (it.u.rec.type == TDEC_UFTRACE_REC_ENTRY) c->entries++;
                else if (it.u.rec.type == TDEC_UFTRACE_REC_EXIT) c->exits++;
                else c->other++;
                c->checksum += it.u.rec.time ^ it.u.rec.addr;
            } else {
                c->frags++;
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        if (off < len) {
            size_t n = len - off < chunk ? len - off : chunk;
            st = tdec_uftrace_feed(&d, buf + off, n);
            off += n;
        } else {
            st = tdec_uftrace_finish(&d);
        }
    }
    if (st != TDEC_END) {
        fprintf(stderr, "bench/uftrace: %s at offset %llu (%s)\n", tdec_status_str(st),
                (unsigned long long)d.st.err_offset, tdec_uftrace_reason_str(d.st.err_reason));
        return 1;
    }
    return 0;
}

static uint64_t bu_scan(const uint8_t *buf, size_t len)
{
    uint64_t s = 0, w;
    size_t i;
    for (i = 0; i + 8 <= len; i += 8) {
        memcpy(&w, buf + i, 8);
        s += w;
    }
    for (; i < len; i++) s += buf[i];
    return s;
}

static void bu_row(const char *name, double secs, size_t len, uint64_t records)
{
    printf("%-10s %9.4f s %10.1f MB/s %12.1f M records/s\n", name, secs, (double)len / 1e6 / secs,
           (double)records / 1e6 / secs);
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int runs = 3, i, k;
    size_t len;
    uint8_t *buf;
    bu_counts ref, c;
    static const size_t chunks[2] = {65536, 13000};
    static const char *const names[2] = {"64 KiB", "13 KiB"};
    volatile uint64_t sink;
    double best, t0, t1;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else path = argv[i];
    }
    if (!path || runs < 1) {
        fprintf(stderr, "usage: build/bench/uftrace [-n RUNS] FILE.dat\n");
        return 2;
    }
    buf = bench_read(path, &len);
    if (!buf) {
        fprintf(stderr, "bench/uftrace: cannot read %s\n", path);
        return 1;
    }
    if (bu_decode(buf, len, chunks[0], &ref) != 0) return 1;
    printf("%s: %zu bytes, %llu records (%llu entry, %llu exit, %llu other), %llu fragments\n", path, len,
           (unsigned long long)ref.records, (unsigned long long)ref.entries, (unsigned long long)ref.exits,
           (unsigned long long)ref.other, (unsigned long long)ref.frags);

    best = 1e30;
    for (i = 0; i < runs; i++) {
        t0 = bench_now();
        sink = bu_scan(buf, len);
        t1 = bench_now();
        if (t1 - t0 < best) best = t1 - t0;
    }
    (void)sink;
    printf("best of %d runs:\n", runs);
    bu_row("memscan", best, len, ref.records);

    for (k = 0; k < 2; k++) {
        best = 1e30;
        for (i = 0; i < runs; i++) {
            t0 = bench_now();
            if (bu_decode(buf, len, chunks[k], &c) != 0) return 1;
            t1 = bench_now();
            if (memcmp(&c, &ref, sizeof c) != 0) {
                fprintf(stderr, "bench/uftrace: %s chunks give other counts\n", names[k]);
                return 1;
            }
            if (t1 - t0 < best) best = t1 - t0;
        }
        bu_row(names[k], best, len, ref.records);
    }
    free(buf);
    return 0;
}
