/* ovni.c - ovni stream decoder throughput (a program, not a test).

   Builds a multi-stream trace of >= MB megabytes from real sample streams:
   each given stream's events are repeated, byte for byte, with their clocks
   moved up by one span per repetition (the span of all given streams, so
   streams interleave as in the sample). The streams are written as a v3
   trace under OUT (for `tracedec dump` in tools/bench/bench.sh) and kept in
   memory. Checks that every stream decodes cleanly (END, the expected event,
   jumbo and blob byte counts and clock sum), then times, best of N runs,
   over all streams:

     memscan        a byte sum over the same memory (bench_memsum)
     one chunk      tdec_ovni_* over each stream fed as one chunk
     64 KiB         the same fed in 64 KiB chunks (events straddle chunks)
     64 KiB, skip   the same with TDEC_OVNI_F_SKIP_PAYLOADS (no fragments)

   MB = 10^6 bytes.

     build/bench/ovni [-m MB] [-n RUNS] -o OUT STREAMDIR...
   STREAMDIR: a v3 stream directory (stream.obs + stream.json) whose path
   contains loom.L/proc.P/thread.T; it is written to OUT/loom.L/proc.P/thread.T. */
#define _POSIX_C_SOURCE 200809L
#define TDEC_OVNI_IMPLEMENTATION
#include "single/tdec_ovni.h"
#include "tools/bench/common.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* What a decode must find. */
typedef struct bo_counts {
    uint64_t events, jumbos, blob_bytes, clock_sum;
} bo_counts;

/* One sample stream: its events (offset and clock each) and the output. */
typedef struct bo_stream {
    const char *dir;
    uint8_t    *in;
    size_t      in_len;
    uint64_t   *ev_off, *ev_clock; /* per event of the sample              */
    size_t      nev;
    uint8_t    *out;               /* the repeated stream                  */
    size_t      out_len;
    bo_counts   want;
} bo_stream;

/* Lists the sample's events (one decode of the whole buffer). */
static int bo_index(bo_stream *s)
{
    tdec_ovni_decoder d;
    tdec_ovni_item it;
    tdec_status st = tdec_ovni_init(&d, NULL);
    size_t cap = 1024;
    s->nev = 0;
    s->ev_off = (uint64_t *)malloc(cap * sizeof *s->ev_off);
    s->ev_clock = (uint64_t *)malloc(cap * sizeof *s->ev_clock);
    if (!s->ev_off || !s->ev_clock) return -1;
    st = tdec_ovni_feed(&d, s->in, s->in_len);
    while (st >= 0) {
        st = tdec_ovni_next(&d, &it);
        if (st == TDEC_NEED_INPUT) {
            st = tdec_ovni_finish(&d); /* then next() says END */
            continue;
        }
        if (st != TDEC_OK) break;
        if (it.kind != TDEC_ITEM_RECORD || it.u.rec.type != TDEC_OVNI_REC_EVENT) continue;
        if (it.u.rec.big_endian) return -1; /* the clock patch below is little-endian */
        if (s->nev == cap) {
            cap *= 2;
            s->ev_off = (uint64_t *)realloc(s->ev_off, cap * sizeof *s->ev_off);
            s->ev_clock = (uint64_t *)realloc(s->ev_clock, cap * sizeof *s->ev_clock);
            if (!s->ev_off || !s->ev_clock) return -1;
        }
        s->ev_off[s->nev] = it.offset;
        s->ev_clock[s->nev] = it.u.rec.clock;
        s->nev++;
    }
    return st == TDEC_END && s->nev > 0 ? 0 : -1;
}

/* The sample's events `reps` times, clocks + rep * span. */
static int bo_repeat(bo_stream *s, uint64_t reps, uint64_t span)
{
    size_t body = s->in_len - 8, i, n;
    uint64_t r, clock;
    uint8_t *p;
    int k;
    s->out_len = 8 + (size_t)reps * body;
    s->out = (uint8_t *)malloc(s->out_len);
    if (!s->out) return -1;
    memcpy(s->out, s->in, 8);
    p = s->out + 8;
    memset(&s->want, 0, sizeof s->want);
    for (r = 0; r < reps; r++) {
        for (i = 0; i < s->nev; i++) {
            n = (size_t)((i + 1 < s->nev ? s->ev_off[i + 1] : s->in_len) - s->ev_off[i]);
            memcpy(p, s->in + s->ev_off[i], n);
            clock = s->ev_clock[i] + r * span;
            for (k = 0; k < 8; k++) p[4 + k] = (uint8_t)(clock >> (8 * k));
            s->want.events++;
            s->want.clock_sum += clock;
            if (p[0] & TDEC_OVNI_FLAG_JUMBO) {
                s->want.jumbos++;
                s->want.blob_bytes += n - 16;
            }
            p += n;
        }
    }
    return 0;
}

/* Writes `len` bytes to dir/name. */
static int bo_write(const char *dir, const char *name, const uint8_t *buf, size_t len)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len) {
        if (f) fclose(f);
        return -1;
    }
    return fclose(f);
}

/* mkdir -p */
static int bo_mkdirs(char *path)
{
    char *p;
    for (p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Writes stream s (and its sample's stream.json) under out, at the path
   from its loom.* component. */
static int bo_save(const bo_stream *s, const char *out)
{
    const char *rel = strstr(s->dir, "loom.");
    char dir[4096], json_path[4200];
    uint8_t *json;
    size_t jlen;
    int rc;
    if (!rel) return -1;
    snprintf(dir, sizeof dir, "%s/%s", out, rel);
    snprintf(json_path, sizeof json_path, "%s/stream.json", s->dir);
    json = bench_read(json_path, &jlen);
    if (!json) return -1;
    rc = bo_mkdirs(dir) == 0 && bo_write(dir, "stream.obs", s->out, s->out_len) == 0 &&
                 bo_write(dir, "stream.json", json, jlen) == 0
             ? 0
             : -1;
    free(json);
    return rc;
}

/* One decode in `chunk`-byte pieces (0 = whole) with `flags`. Returns 0 on
   a clean end with *c filled. */
static int bo_decode(const uint8_t *buf, size_t len, size_t chunk, uint32_t flags, bo_counts *c)
{
    tdec_ovni_decoder d;
    tdec_ovni_config cfg;
    tdec_ovni_item it;
    tdec_status st;
    size_t fed = 0, n;
    memset(&cfg, 0, sizeof cfg);
    cfg.flags = flags;
    memset(c, 0, sizeof *c);
    st = tdec_ovni_init(&d, &cfg);
    while (st >= 0) {
        st = tdec_ovni_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_FRAGMENT) {
                c->blob_bytes += it.u.frag.len;
            } else if (it.u.rec.type == TDEC_OVNI_REC_EVENT) {
                c->events++;
                c->jumbos += it.u.rec.jumbo;
                c->clock_sum += it.u.rec.clock;
                if (flags & TDEC_OVNI_F_SKIP_PAYLOADS) c->blob_bytes += it.u.rec.jumbo_len;
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = len - fed;
        if (chunk && n > chunk) n = chunk;
        st = n ? tdec_ovni_feed(&d, buf + fed, n) : tdec_ovni_finish(&d);
        fed += n;
    }
    if (st != TDEC_END) {
        fprintf(stderr, "bench/ovni: %s at %llu (%s)\n", tdec_status_str(st), (unsigned long long)d.st.err_offset,
                tdec_ovni_reason_str(d.st.err_reason));
        return -1;
    }
    return 0;
}

static void bo_row(const char *name, double secs, size_t len, uint64_t events)
{
    if (events) printf("%-24s %9.4f %9.0f %12.1f\n", name, secs, (double)len / 1e6 / secs, (double)events / 1e6 / secs);
    else printf("%-24s %9.4f %9.0f %12s\n", name, secs, (double)len / 1e6 / secs, "-");
}

int main(int argc, char **argv)
{
    static const struct { const char *name; size_t chunk; uint32_t flags; } cases[] = {
        {"tdec_ovni, one chunk", 0, 0},
        {"tdec_ovni, 64 KiB", 65536, 0},
        {"tdec_ovni, 64 KiB, skip", 65536, TDEC_OVNI_F_SKIP_PAYLOADS},
    };
    double mb = 200.0, t, best[4] = {1e30, 1e30, 1e30, 1e30};
    int runs = 5, i, r;
    size_t k, n = 0, j, in_total = 0, total = 0;
    uint64_t lo = UINT64_MAX, hi = 0, reps;
    const char *out = NULL;
    bo_stream *st;
    bo_counts c, want;
    volatile uint64_t sink = 0;

    st = (bo_stream *)calloc((size_t)argc, sizeof *st);
    if (!st) return 1;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) mb = atof(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (argv[i][0] != '-') st[n++].dir = argv[i];
        else runs = 0; /* unknown option: usage */
    }
    if (runs < 1 || mb <= 0 || out == NULL || n == 0) {
        fprintf(stderr, "usage: build/bench/ovni [-m MB] [-n RUNS] -o OUT STREAMDIR...\n");
        return 2;
    }
    for (j = 0; j < n; j++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/stream.obs", st[j].dir);
        st[j].in = bench_read(path, &st[j].in_len);
        if (!st[j].in || bo_index(&st[j]) != 0) {
            fprintf(stderr, "bench/ovni: %s: unreadable, empty or big-endian stream\n", path);
            return 1;
        }
        in_total += st[j].in_len - 8;
        for (k = 0; k < st[j].nev; k++) {
            if (st[j].ev_clock[k] < lo) lo = st[j].ev_clock[k];
            if (st[j].ev_clock[k] > hi) hi = st[j].ev_clock[k];
        }
    }
    reps = (uint64_t)(mb * 1e6 / (double)in_total) + 1;
    memset(&want, 0, sizeof want);
    for (j = 0; j < n; j++) {
        if (bo_repeat(&st[j], reps, hi - lo + 1) != 0 || bo_save(&st[j], out) != 0) {
            fprintf(stderr, "bench/ovni: cannot build or write %s under %s\n", st[j].dir, out);
            return 1;
        }
        total += st[j].out_len;
        want.events += st[j].want.events;
        want.jumbos += st[j].want.jumbos;
        want.blob_bytes += st[j].want.blob_bytes;
        want.clock_sum += st[j].want.clock_sum;
        for (k = 0; k < 3; k++) {
            if (bo_decode(st[j].out, st[j].out_len, cases[k].chunk, cases[k].flags, &c) != 0) return 1;
            if (memcmp(&c, &st[j].want, sizeof c) != 0) {
                fprintf(stderr, "bench/ovni: %s: %s decodes to other counts than were written\n", st[j].dir,
                        cases[k].name);
                return 1;
            }
        }
    }
    printf("trace: %zu streams of real sample events repeated %llu times with rising clocks, written to %s:\n"
           "  %.1f MB, %llu events (%llu jumbo, %.1f MB of blobs), %.1f bytes/event; every stream decodes cleanly\n",
           n, (unsigned long long)reps, out, (double)total / 1e6, (unsigned long long)want.events,
           (unsigned long long)want.jumbos, (double)want.blob_bytes / 1e6, (double)total / (double)want.events);

    for (r = 0; r < runs; r++) {
        t = bench_now();
        for (j = 0; j < n; j++) sink += bench_memsum(st[j].out, st[j].out_len);
        t = bench_now() - t;
        if (t < best[0]) best[0] = t;
        for (k = 0; k < 3; k++) {
            t = bench_now();
            for (j = 0; j < n; j++) {
                if (bo_decode(st[j].out, st[j].out_len, cases[k].chunk, cases[k].flags, &c) != 0) return 1;
                sink += c.clock_sum;
            }
            t = bench_now() - t;
            if (t < best[k + 1]) best[k + 1] = t;
        }
    }
    printf("best of %d runs (sink %llx)\n", runs, (unsigned long long)(sink & 0xff));
    printf("%-24s %9s %9s %12s\n", "case", "best s", "MB/s", "M events/s");
    bo_row("memscan: byte sum", best[0], total, 0);
    for (k = 0; k < 3; k++) bo_row(cases[k].name, best[k + 1], total, want.events);
    printf("decoder (64 KiB chunks) takes %.1fx the time of the byte sum\n", best[2] / best[0]);
    for (j = 0; j < n; j++) {
        free(st[j].in);
        free(st[j].out);
        free(st[j].ev_off);
        free(st[j].ev_clock);
    }
    free(st);
    return 0;
}
