/* ovni.c - the ovni front end: finds every stream of a trace directory in
   each layout ovni has used, merges the streams by clock with one small
   cursor per stream, and prints as ovnidump (descriptions, or -x hex),
   ovnitop, JSON lines (docs/ovni.md) or a per-stream summary.

   Layouts (docs/ovni.md, "Directory layouts and the merge"):
     v3  any directory holding stream.json (+ stream.obs); path printed: that
         directory relative to DIR
     v2  loom.L/proc.P/thread.T.obs + thread.T.json (+ proc metadata.json)
     v1  loom.L/proc.P/thread.T.obs, or thread.T (1.0.0), + metadata.json
         old layouts: path printed is the stream file relative to DIR, as
         ovnidump 1.10 printed it
   Streams are sorted by that path (strcmp); equal clocks across streams
   come out in that order (or in ovnidump's, --ovnidump-ties), and within a
   stream in file order. */
#define _XOPEN_SOURCE 700
#include "tools/cli/formats.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TDEC_OVNI_IMPLEMENTATION
#include "single/tdec_ovni.h"

/* Longest description ovnidump prints: its buffer is 1024 bytes. */
#define OVNI_DESC_CAP 1024u
/* Blob bytes kept for a description: a field never needs more. */
#define OVNI_BLOB_PREFIX (OVNI_DESC_CAP + 32u)
/* dump --chrome: spans open at once in one thread; an opening event beyond
   it is shown as an instant (docs/ovni.md). */
#define CHROME_MAX_DEPTH 256u
/* Slots of the MCV -> span row table (a power of two, > 2 x its MCVs). */
#define CHROME_SLOTS 1024u

typedef struct ovni_stream {
    char             *relpath;  /* printed path                               */
    size_t            relpath_len;
    char             *obs_path; /* the binary stream file                     */
    char             *json_path; /* stream.json / thread.T.json / NULL         */
    char             *meta_path; /* v1/v2: proc.P/metadata.json, or NULL       */
    int               layout;   /* 3, 2 or 1                                  */
    tdec_ovni_meta    meta;     /* from json_path (v3) or meta_path           */
    char              loom[256]; /* v3: ovni.loom; v1/v2: from loom.L         */
    tdec_ovni_decoder dec;
    uint8_t          *buf;      /* CLI_CHUNK bytes of the file                 */
    uint64_t          file_pos; /* next byte to read                          */
    int               eof;
    int               active;   /* head() is the stream's next event          */
    tdec_ovni_item    item;     /* the decoder's last item: that event (read in
                                   place: a copy would wait on its stores)     */
    uint64_t          file_size; /* at load: an event past it is incomplete  */
    /* per-stream counts, for `info` */
    uint64_t          events, jumbos, payload_bytes, backwards, first_clock, last_clock;
    /* dump --chrome: this thread's Chrome ids, time and open spans */
    uint32_t          chrome_pid, chrome_tid;
    int64_t           chrome_clock;  /* time of its last Chrome event (ns)     */
    uint32_t          chrome_depth;  /* open spans                             */
    uint64_t          chrome_dropped; /* opens beyond CHROME_MAX_DEPTH not closed */
    uint16_t          chrome_open[CHROME_MAX_DEPTH]; /* their chrome_spans rows */
} ovni_stream;

/* The stream's next event (when s->active). */
static const tdec_ovni_record *head(const ovni_stream *s)
{
    return &s->item.u.rec;
}

typedef struct ovni_trace {
    const char  *root;
    ovni_stream *s;
    size_t       n, cap;
    char        *orphan;   /* the first stream.obs without stream.json      */
    size_t       norphans; /* how many (skipped, as ovni's tools skip them) */
    size_t       nlooms;   /* loom.L directories (ovni_proc_init makes them) */
} ovni_trace;

/* A stream in the merge heap: its next clock kept beside its index, so that
   sifting reads only the heap. */
typedef struct ovni_merge_key {
    int64_t clock;
    size_t  stream;
} ovni_merge_key;

typedef struct ovni_run {
    const cli_args *args;
    int             json;       /* dump --json                                  */
    int             chrome;     /* dump --chrome                                */
    int             chrome_first; /* no Chrome event printed yet                */
    /* MCV -> the span row it opens or closes (open addressing) */
    struct {
        uint32_t key;  /* MCV + 1; 0: empty                                    */
        uint16_t row;  /* in chrome_spans                                       */
        uint8_t  opens; /* 1: opens the span, 0: closes it                      */
    } chrome_mcv[CHROME_SLOTS];
    out_buf        *out, *err;
    ovni_trace      t;
    ovni_merge_key *heap; /* min-heap by clock (heap_less)                 */
    size_t          nheap;
    int64_t         last_clock; /* of the previous event printed (merge order) */
    uint64_t        unknown;    /* events printed as UNKNOWN (no definition)   */
    /* Signatures by MCV, direct-mapped: the same few events repeat. */
    struct {
        uint32_t             key;   /* MCV + 1; 0: empty                        */
        const tdec_ovni_sig *sig;
        int                  fixed; /* the description has no fields: as is   */
        size_t               fixed_len;
        tdec_status          prepared; /* of desc                              */
        tdec_ovni_desc       desc;
    } sig_cache[256];
    /* The first blob bytes of the event being printed: whole fragments
       (each at most OVNI_BLOB_PREFIX bytes) until OVNI_BLOB_PREFIX is reached. */
    uint8_t         blob[2 * OVNI_BLOB_PREFIX];
    size_t          blob_len;
} ovni_run;

/* ---- discovery ------------------------------------------------------------ */

static ovni_trace *walk_trace; /* nftw() has no user pointer */

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = malloc(na + nb + 2);
    if (p == NULL) return NULL;
    memcpy(p, a, na);
    p[na] = '/';
    memcpy(p + na + 1, b, nb + 1);
    return p;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* "thread.<digits>": a libovni 1.0.0 stream file. */
static int is_bare_thread_name(const char *name)
{
    const char *p = name + 7;
    if (strncmp(name, "thread.", 7) != 0 || *p == '\0') return 0;
    while (*p >= '0' && *p <= '9') p++;
    return *p == '\0';
}

/* The path of `path` relative to the trace root ("" for the root). */
static const char *relative(const char *root, const char *path)
{
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/') n--;
    if (strncmp(path, root, n) != 0) return path;
    path += n;
    while (*path == '/') path++;
    return path;
}

static int add_stream(ovni_trace *t, const char *relpath, char *obs, char *json, char *meta, int layout)
{
    ovni_stream *s;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        ovni_stream *p = realloc(t->s, cap * sizeof *p);
        if (p == NULL) return -1;
        t->s = p;
        t->cap = cap;
    }
    s = &t->s[t->n];
    memset(s, 0, sizeof *s);
    s->relpath = strdup(relpath);
    s->obs_path = obs;
    s->json_path = json;
    s->meta_path = meta;
    s->layout = layout;
    if (s->relpath == NULL || obs == NULL) return -1;
    s->relpath_len = strlen(s->relpath);
    t->n++;
    return 0;
}

static int walk_visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    ovni_trace *t = walk_trace;
    const char *name = path + ftw->base;
    char *dir, *json = NULL, *meta = NULL, *obs;
    size_t dlen;
    struct stat mb;
    int rc = 0;
    (void)sb;
    if (type == FTW_D && strncmp(name, "loom.", 5) == 0) t->nlooms++;
    if (type != FTW_F) return 0;
    dlen = (size_t)ftw->base > 0 ? (size_t)ftw->base - 1 : 0;
    dir = strndup(path, dlen);
    if (dir == NULL) return -1;
    if (strcmp(name, "stream.obs") == 0) {
        json = join(dir, "stream.json");
        if (json && stat(json, &mb) != 0) {
            if (t->norphans++ == 0) t->orphan = strdup(path);
        }
        free(json);
    } else if (strcmp(name, "stream.json") == 0) {
        /* v3: the directory is the stream. */
        rc = add_stream(t, relative(t->root, dir), join(dir, "stream.obs"), strdup(path), NULL, 3);
    } else if ((has_suffix(name, ".obs") && strcmp(name, "stream.obs") != 0) || is_bare_thread_name(name)) {
        /* v1/v2: thread.T.obs, its thread.T.json (v2) and proc metadata. */
        obs = strdup(path);
        if (has_suffix(name, ".obs")) {
            size_t stem = strlen(path) - 4;
            json = malloc(stem + sizeof ".json");
            if (json) {
                memcpy(json, path, stem);
                memcpy(json + stem, ".json", sizeof ".json");
            }
            if (json && stat(json, &mb) != 0) {
                free(json);
                json = NULL;
            }
        }
        meta = join(dir, "metadata.json");
        if (meta && stat(meta, &mb) != 0) {
            free(meta);
            meta = NULL;
        }
        rc = add_stream(t, relative(t->root, path), obs, json, meta, json ? 2 : 1);
    }
    free(dir);
    return rc;
}

static int by_relpath(const void *a, const void *b)
{
    return strcmp(((const ovni_stream *)a)->relpath, ((const ovni_stream *)b)->relpath);
}

/* Finds the streams under root (following symbolic links, as ovni does). */
static int discover(ovni_trace *t, const char *root)
{
    memset(t, 0, sizeof *t);
    t->root = root;
    walk_trace = t;
    if (nftw(root, walk_visit, 32, 0) != 0) return -1;
    if (t->n > 1) qsort(t->s, t->n, sizeof t->s[0], by_relpath);
    return 0;
}

/* ovnidump's -x and the merge order: the options of ovni. */
static struct {
    int hex;           /* dump --hex: payload bytes instead of descriptions */
    int ovnidump_ties; /* equal clocks in ovnidump's heap order             */
} ovni_opts;

static int ovni_parse_opt(cli_args *a, int argc, char **argv, int *i, out_buf *err)
{
    const char *arg = argv[*i];
    (void)argc;
    (void)err;
    if ((strcmp(arg, "--hex") == 0 || strcmp(arg, "-x") == 0) && a->command == CLI_DUMP) {
        ovni_opts.hex = 1;
        return CLI_OPT_TAKEN;
    }
    if (strcmp(arg, "--ovnidump-ties") == 0) {
        ovni_opts.ovnidump_ties = 1;
        return CLI_OPT_TAKEN;
    }
    return CLI_OPT_NONE;
}

static void trace_free(ovni_trace *t)
{
    size_t i;
    for (i = 0; i < t->n; i++) {
        free(t->s[i].relpath);
        free(t->s[i].obs_path);
        free(t->s[i].json_path);
        free(t->s[i].meta_path);
        free(t->s[i].buf);
    }
    free(t->s);
    free(t->orphan);
}

/* A directory holding at least one stream of any layout, or a loom.L
   directory (a trace whose processes ended before their first stream). */
static cli_match ovni_detect(const cli_args *a, const cli_probe *p)
{
    ovni_trace t;
    int found = discover(&t, a->path) == 0 && (t.n > 0 || t.norphans > 0 || t.nlooms > 0);
    (void)p;
    trace_free(&t);
    return found ? CLI_YES : CLI_NO;
}

/* ---- loading ---------------------------------------------------------------- */

static void diag(ovni_run *r, const char *level, int64_t offset, const char *path, const char *msg)
{
    cli_diag(r->err, level, offset, path, msg);
}

/* Reads a whole (small) JSON file and checks its version; fills *m. */
static int load_json(ovni_run *r, const char *path, int want_min, int want_max, tdec_ovni_meta *m,
                     char *loom, size_t loom_cap)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    tdec_ovni_json_token *tok = NULL;
    tdec_ovni_json j;
    long size;
    size_t got;
    uint32_t cap;
    tdec_status st;
    int rc = -1;
    char msg[160];

    if (f == NULL) {
        diag(r, "error", -1, path, strerror(errno));
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        size >= (long)UINT32_MAX / 2) {
        diag(r, "error", -1, path, "cannot size the file");
        goto done;
    }
    text = malloc((size_t)size + 1);
    cap = (uint32_t)size / 2 + 2; /* a token needs at least 2 bytes of text */
    tok = malloc(cap * sizeof *tok);
    if (text == NULL || tok == NULL) {
        diag(r, "error", -1, path, "out of memory");
        goto done;
    }
    got = fread(text, 1, (size_t)size, f);
    st = tdec_ovni_json_parse(&j, text, got, tok, cap);
    if (st != TDEC_OK) {
        snprintf(msg, sizeof msg, "JSON %s", st == TDEC_E_FORMAT ? "syntax error" : tdec_status_str(st));
        diag(r, "error", (int64_t)j.err_offset, path, msg);
        goto done;
    }
    if (tdec_ovni_meta_read(&j, m) != TDEC_OK) {
        diag(r, "error", -1, path, "metadata is not a JSON object");
        goto done;
    }
    if (!(m->present & TDEC_OVNI_META_VERSION) || m->version < want_min || m->version > want_max) {
        if (m->present & TDEC_OVNI_META_VERSION)
            snprintf(msg, sizeof msg, "metadata version %lld (expected %d%s)", (long long)m->version, want_min,
                     want_max > want_min ? " or 2" : "");
        else
            snprintf(msg, sizeof msg, "metadata has no numeric \"version\" (expected %d%s)", want_min,
                     want_max > want_min ? " or 2" : "");
        diag(r, "error", -1, path, msg);
        goto done;
    }
    if (loom && (m->present & TDEC_OVNI_META_LOOM)) tdec_ovni_json_string(&j, m->loom, loom, loom_cap, NULL);
    rc = 0;
done:
    free(text);
    free(tok);
    fclose(f);
    return rc;
}

/* Old layouts keep loom, pid and tid in the names: loom.L/proc.P/thread.T. */
static void ids_from_path(ovni_stream *s)
{
    const char *p = s->relpath, *q;
    size_t n;
    for (; *p; p = *q ? q + 1 : q) {
        q = strchr(p, '/');
        if (q == NULL) q = p + strlen(p);
        n = (size_t)(q - p);
        if (strncmp(p, "loom.", 5) == 0 && n - 5 < sizeof s->loom) {
            memcpy(s->loom, p + 5, n - 5);
            s->loom[n - 5] = '\0';
        } else if (strncmp(p, "proc.", 5) == 0) {
            s->meta.pid = strtoll(p + 5, NULL, 10);
            s->meta.present |= TDEC_OVNI_META_PID;
        } else if (strncmp(p, "thread.", 7) == 0) {
            s->meta.tid = strtoll(p + 7, NULL, 10);
            s->meta.present |= TDEC_OVNI_META_TID;
        }
    }
}

/* Refills and pulls the stream's next item: TDEC_OK, TDEC_END or an error. */
static tdec_status pull(ovni_run *r, ovni_stream *s, tdec_ovni_item *it)
{
    tdec_status st;
    ssize_t k;
    int fd;
    for (;;) {
        st = tdec_ovni_next(&s->dec, it);
        if (st != TDEC_NEED_INPUT) return st;
        if (s->eof) { /* next() gives what only the end decides, then END */
            st = tdec_ovni_finish(&s->dec);
            if (st < 0) return st;
            continue;
        }
        /* One open per refill: any number of streams, no descriptor limit. */
        fd = open(s->obs_path, O_RDONLY);
        k = fd < 0 ? -1 : pread(fd, s->buf, CLI_CHUNK, (off_t)s->file_pos);
        if (fd >= 0) close(fd);
        if (k < 0) {
            diag(r, "error", (int64_t)s->file_pos, s->obs_path, strerror(errno));
            return TDEC_E_ARG;
        }
        if (k == 0) {
            s->eof = 1;
            continue;
        }
        s->file_pos += (uint64_t)k;
        st = tdec_ovni_feed(&s->dec, s->buf, (size_t)k);
        if (st < 0) return st;
    }
}

/* Reports a decoding error of stream s. */
static void stream_error(ovni_run *r, ovni_stream *s)
{
    const char *why = tdec_ovni_reason_str(s->dec.st.err_reason);
    char msg[200];
    if (s->dec.st.err_reason == TDEC_OVNI_R_EVENT || s->dec.st.err_reason == TDEC_OVNI_R_JUMBO) {
        snprintf(msg, sizeof msg, "stream ends with an incomplete event (%s)", why);
        why = msg;
    }
    diag(r, "error", (int64_t)s->dec.st.err_offset, s->obs_path, why);
}

/* Moves s to its next event, passing the blob of the current one (if any)
   to `blob_sink`. Returns 0 (s->active says whether an event is there) or
   -1 after an error (reported). */
typedef void (*blob_sink)(ovni_run *r, const tdec_frag *f);

static int advance(ovni_run *r, ovni_stream *s, blob_sink sink)
{
    tdec_ovni_item *it = &s->item;
    tdec_status st;
    for (;;) {
        st = pull(r, s, it);
        if (st == TDEC_END) {
            s->active = 0;
            return 0;
        }
        if (st != TDEC_OK) {
            s->active = 0;
            if (st != TDEC_E_ARG) stream_error(r, s); /* E_ARG: read error, reported */
            return -1;
        }
        if (it->kind == TDEC_ITEM_FRAGMENT) {
            if (sink) sink(r, &it->u.frag);
            continue;
        }
        if (it->u.rec.type != TDEC_OVNI_REC_EVENT) continue; /* the header */
        /* As ovni: an event that the file cannot hold whole is an error
           before it is printed (the decoder would find out only at its end). */
        if (it->offset + it->u.rec.size > s->file_size) {
            s->active = 0;
            diag(r, "error", (int64_t)it->offset, s->obs_path,
                 it->u.rec.jumbo ? "stream ends with an incomplete event (input ends inside a jumbo event's blob)"
                               : "stream ends with an incomplete event (input ends inside an event)");
            return -1;
        }
        s->active = 1;
        return 0;
    }
}

/* Loads every stream: metadata checked, header and first event read. As
   ovni's tools, any failure here rejects the whole trace. */
static int load(ovni_run *r)
{
    tdec_ovni_config cfg;
    size_t i;
    struct stat sb;
    memset(&cfg, 0, sizeof cfg);
    cfg.max_fragment = OVNI_BLOB_PREFIX;
    if (r->args->strict) cfg.flags |= TDEC_OVNI_F_STRICT_CLOCK;
    for (i = 0; i < r->t.n; i++) {
        ovni_stream *s = &r->t.s[i];
        tdec_ovni_meta pm;
        s->buf = malloc(CLI_CHUNK);
        if (s->buf == NULL) {
            diag(r, "error", -1, s->obs_path, "out of memory");
            return -1;
        }
        if (s->layout == 3) {
            if (load_json(r, s->json_path, 3, 3, &s->meta, s->loom, sizeof s->loom) != 0) return -1;
        } else {
            if (s->json_path && load_json(r, s->json_path, 2, 2, &s->meta, NULL, 0) != 0) return -1;
            if (s->meta_path && load_json(r, s->meta_path, 1, 2, &pm, NULL, 0) != 0) return -1;
            ids_from_path(s);
        }
        if (stat(s->obs_path, &sb) != 0) {
            diag(r, "error", -1, s->obs_path, strerror(errno));
            return -1;
        }
        s->file_size = (uint64_t)sb.st_size;
        tdec_ovni_init(&s->dec, &cfg);
        if (advance(r, s, NULL) != 0) return -1;
        if (!s->active && s->dec.st.pos == 8) /* the header alone: valid, as in ovni */
            diag(r, "warning", -1, s->obs_path, "stream has zero events");
        if (s->dec.big_endian)
            diag(r, "note", -1, s->obs_path,
                 "stream written big-endian (ovni's tools reject it): decoded in that byte order");
    }
    return 0;
}

/* ---- the merge ------------------------------------------------------------ */

/* The merge order. Clocks compare as signed numbers, as in ovni. Equal
   clocks: by stream index (= path order), or, with --ovnidump-ties, not at
   all: this heap then makes exactly the moves of ovni 1.14's (the same
   sift rules, the streams inserted in the same order, one pop and one push
   per event), so ties come out in ovnidump's order. */
static int heap_less(ovni_merge_key a, ovni_merge_key b)
{
    return a.clock < b.clock || (a.clock == b.clock && !ovni_opts.ovnidump_ties && a.stream < b.stream);
}

/* Stream idx's key: its next event's clock. */
static ovni_merge_key merge_key(const ovni_run *r, size_t idx)
{
    ovni_merge_key key;
    key.clock = (int64_t)head(&r->t.s[idx])->clock;
    key.stream = idx;
    return key;
}

static void heap_push(ovni_run *r, ovni_merge_key key)
{
    size_t k = r->nheap++, parent;
    while (k > 0) {
        parent = (k - 1) / 2;
        if (!heap_less(key, r->heap[parent])) break;
        r->heap[k] = r->heap[parent];
        k = parent;
    }
    r->heap[k] = key;
}

/* Puts key at the top and sifts it down (r->nheap > 0). */
static void heap_sift_down(ovni_run *r, ovni_merge_key key)
{
    size_t k = 0, c;
    while ((c = 2 * k + 1) < r->nheap) {
        if (c + 1 < r->nheap && heap_less(r->heap[c + 1], r->heap[c])) c++;
        if (!heap_less(r->heap[c], key)) break;
        r->heap[k] = r->heap[c];
        k = c;
    }
    r->heap[k] = key;
}

static void heap_pop(ovni_run *r)
{
    ovni_merge_key last = r->heap[--r->nheap];
    if (r->nheap > 0) heap_sift_down(r, last);
}

/* ---- printing ------------------------------------------------------------- */

/* An MCV as a nonzero number: M << 16 | C << 8 | V, plus 1. */
static uint32_t mcv_key(const uint8_t *mcv)
{
    return ((uint32_t)mcv[0] << 16 | (uint32_t)mcv[1] << 8 | mcv[2]) + 1u;
}

static void sink_hex(ovni_run *r, const tdec_frag *f)
{
    const uint8_t *p = f->data, *end = p + f->len;
    size_t n;
    char *w;
    while (p < end) { /* ":xx" per byte, up to 1024 bytes per reserve */
        n = (size_t)(end - p) < 1024 ? (size_t)(end - p) : 1024;
        w = out_reserve(r->out, 3 * n);
        for (; n > 0; n--, p++) {
            *w++ = ':';
            w = fmt_mem(w, fmt__hexpairs + 2 * *p, 2);
        }
        out_commit(r->out, w);
    }
}

static void sink_json_hex(ovni_run *r, const tdec_frag *f)
{
    out_hex_bytes(r->out, f->data, f->len);
}

/* Pulls the first blob bytes of head(s) into r->blob. Returns 0, or -1
   after an error (reported). */
static int collect_blob_prefix(ovni_run *r, ovni_stream *s)
{
    tdec_ovni_item it;
    tdec_status st;
    uint64_t want = head(s)->jumbo ? head(s)->jumbo_len : 0;
    r->blob_len = 0;
    if (want > OVNI_BLOB_PREFIX) want = OVNI_BLOB_PREFIX;
    while (r->blob_len < want) {
        st = pull(r, s, &it);
        if (st != TDEC_OK) {
            s->active = 0;
            if (st != TDEC_E_ARG) stream_error(r, s);
            return -1;
        }
        /* Fragments are at most OVNI_BLOB_PREFIX bytes (max_fragment). */
        memcpy(r->blob + r->blob_len, it.u.frag.data, it.u.frag.len);
        r->blob_len += it.u.frag.len;
    }
    return 0;
}

/* The description of ev (in buf, or the signature's own text when it has
   no fields), or NULL where ovnidump prints UNKNOWN. */
static const char *describe(ovni_run *r, const ovni_stream *s, const tdec_ovni_record *ev, uint64_t offset,
                            char *buf, size_t *len)
{
    uint32_t key = mcv_key(ev->mcv);
    unsigned slot = (ev->mcv[1] * 31u + ev->mcv[2]) & 255u;
    const tdec_ovni_sig *sig;
    tdec_status st;
    char msg[160];
    if (r->sig_cache[slot].key != key) {
        r->sig_cache[slot].key = key;
        r->sig_cache[slot].sig = sig = tdec_ovni_sig_find(ev->mcv);
        r->sig_cache[slot].fixed = sig && strchr(sig->description, '%') == NULL;
        r->sig_cache[slot].fixed_len = sig ? strlen(sig->description) : 0;
        r->sig_cache[slot].prepared = sig ? tdec_ovni_desc_prepare(&r->sig_cache[slot].desc, sig) : TDEC_E_ARG;
    }
    sig = r->sig_cache[slot].sig;
    if (sig == NULL) {
        r->unknown++;
        return NULL;
    }
    if (r->sig_cache[slot].fixed) { /* short: ovni's room rule cannot bite */
        *len = r->sig_cache[slot].fixed_len;
        return sig->description;
    }
    st = r->sig_cache[slot].prepared;
    if (st == TDEC_OK) st = tdec_ovni_desc_render(&r->sig_cache[slot].desc, ev, r->blob, r->blob_len, buf, OVNI_DESC_CAP, len);
    if (st == TDEC_OK) return buf;
    if (st == TDEC_E_LIMIT) { /* too long for ovnidump's buffer too */
        r->unknown++;
        return NULL;
    }
    r->unknown++;
    snprintf(msg, sizeof msg, "%.3s: %s for the signature %s (printed UNKNOWN)", (const char *)ev->mcv,
             st == TDEC_E_CORRUPT ? "payload too short" : tdec_status_str(st), sig->signature);
    diag(r, "warning", (int64_t)offset, s->obs_path, msg);
    return NULL;
}

/* Writes "%10lld  MCV  path  " and returns where the line goes on, with
   `room` bytes reserved there (room <= OUT_BUF_SIZE / 2). */
static char *print_line_head(ovni_run *r, const ovni_stream *s, const tdec_ovni_record *ev, size_t room)
{
    int whole = s->relpath_len + room < OUT_BUF_SIZE / 2; /* the usual case: one reserve */
    char *w = out_reserve(r->out, whole ? 40 + s->relpath_len + room : 40);
    w = fmt_i64w(w, (int64_t)ev->clock, 10);
    w = fmt_lit(w, "  ");
    w = fmt_mem(w, (const char *)ev->mcv, 3);
    w = fmt_lit(w, "  ");
    if (whole) {
        w = fmt_mem(w, s->relpath, s->relpath_len);
        return fmt_lit(w, "  ");
    }
    out_commit(r->out, w);
    out_mem(r->out, s->relpath, s->relpath_len);
    out_lit(r->out, "  ");
    return out_reserve(r->out, room);
}

static void json_mcv(out_buf *o, const uint8_t *mcv)
{
    char esc[8];
    int k;
    for (k = 0; k < 3; k++) {
        if (mcv[k] < 0x80) {
            out_json_chars(o, (const char *)mcv + k, 1);
        } else { /* as the Latin-1 character: the output stays UTF-8 */
            snprintf(esc, sizeof esc, "\\u%04x", mcv[k]);
            out_str(o, esc);
        }
    }
}

/* ---- Chrome trace (dump --chrome) ------------------------------------------ */

/* The spans: an event with the `open` MCV begins one in its thread, the next
   `close` event of the same row ends it (docs/ovni.md, "Chrome trace", has
   this table). Category: the model of the MCV. From the emulator models of
   ovni 1.14: its subsystem push/pop pairs and thread, task and CPU states. */
static const struct chrome_span {
    char        open[4], close[4];
    const char *name;
} chrome_spans[] = {
    {"OHx", "OHe", "thread"},
    {"OHp", "OHr", "paused"},
    {"OM[", "OM]", "mark"},
    {"OF[", "OF]", "flushing events to disk"},
    {"OU[", "OU]", "unordered event region"},
    {"6Tx", "6Te", "task"},
    {"6Tp", "6Tr", "task paused"},
    {"6Bb", "6BB", "blocking the current task"},
    {"6Bf", "6BF", "a wait for"},
    {"6Bu", "6BU", "unblocking a task"},
    {"6Bw", "6BW", "a task wait"},
    {"6C[", "6C]", "creating a new task"},
    {"6Dr", "6DR", "registration of task dependencies"},
    {"6Du", "6DU", "unregistration of task dependencies"},
    {"6F[", "6F]", "spawning a function via spawnFunction()"},
    {"6He", "6HE", "execution as external thread"},
    {"6Hl", "6HL", "execution as leader"},
    {"6Hm", "6HM", "execution as main thread"},
    {"6Hw", "6HW", "execution as worker"},
    {"6Ma", "6MA", "allocating memory"},
    {"6Mf", "6MF", "freeing memory"},
    {"6O[", "6O]", "running the task body as taskfor collaborator"},
    {"6S[", "6S]", "scheduler serving mode"},
    {"6Sa", "6SA", "submitting a ready task via addReadyTask()"},
    {"6Sp", "6SP", "processing ready tasks via processReadyTasks()"},
    {"6U[", "6U]", "submitting a task via submitTask()"},
    {"6W[", "6W]", "worker main loop, looking for tasks"},
    {"6Wg", "6WG", "sponge mode (absorbing system noise)"},
    {"6Wm", "6WM", "migrating the current worker to another CPU"},
    {"6Wr", "6WR", "resuming another worker via resume()"},
    {"6Ws", "6WS", "suspending the worker via suspend()"},
    {"6Wt", "6WT", "handling a task via handleTask()"},
    {"6Ww", "6WW", "switching to another worker via switchTo()"},
    {"6t[", "6t]", "the task body"},
    {"VHa", "VHA", "attached"},
    {"VSh", "VSf", "hungry"},
    {"VTx", "VTe", "task"},
    {"VTp", "VTr", "task paused"},
    {"VAa", "VAA", "nosv_attach()"},
    {"VAb", "VAB", "nosv_barrier_wait()"},
    {"VAc", "VAC", "nosv_schedpoint()"},
    {"VAd", "VAD", "nosv_destroy()"},
    {"VAe", "VAE", "nosv_detach()"},
    {"VAg", "VAG", "nosv_cond_signal()"},
    {"VAi", "VAI", "nosv_wait()"},
    {"VAj", "VAJ", "nosv_join()"},
    {"VAk", "VAK", "nosv_cond_broadcast()"},
    {"VAl", "VAL", "nosv_mutex_lock()"},
    {"VAm", "VAM", "nosv_join_all()"},
    {"VAn", "VAN", "nosv_wait_all()"},
    {"VAo", "VAO", "nosv_cond_wait()"},
    {"VAp", "VAP", "nosv_pause()"},
    {"VAr", "VAR", "nosv_create()"},
    {"VAs", "VAS", "nosv_submit()"},
    {"VAt", "VAT", "nosv_mutex_trylock()"},
    {"VAu", "VAU", "nosv_mutex_unlock()"},
    {"VAw", "VAW", "nosv_waitfor()"},
    {"VAy", "VAY", "nosv_yield()"},
    {"VHd", "VHD", "execution as delegate"},
    {"VHw", "VHW", "execution as worker"},
    {"VMa", "VMA", "allocating memory"},
    {"VMf", "VMF", "freeing memory"},
    {"VSN", "VSn", "scheduler server non-blocking mode"},
    {"VS[", "VS]", "scheduler server blocking mode"},
    {"VU[", "VU]", "submitting a task"},
    {"DC[", "DC]", "creating a task"},
    {"DI[", "DI]", "the inline execution of an If0 task"},
    {"DP[", "DP]", "spawning a function"},
    {"DR[", "DR]", "registering task accesses"},
    {"DS[", "DS]", "submitting a task"},
    {"DT[", "DT]", "a taskwait"},
    {"DU[", "DU]", "unregistering task accesses"},
    {"DW[", "DW]", "a blocking condition (waiting for an If0 task)"},
    {"TCi", "TCI", "issuing a non-blocking communication operation"},
    {"TGc", "TGC", "checking pending requests from the global array"},
    {"TLi", "TLI", "the library code at an API function"},
    {"TLp", "TLP", "the library code at a polling function"},
    {"TQa", "TQA", "adding a ticket/requests to a queue"},
    {"TQt", "TQT", "transferring tickets/requests from queues to global array"},
    {"TRa", "TRA", "testing several requests with MPI_Testall"},
    {"TRc", "TRC", "processsing a completed request"},
    {"TRs", "TRS", "testing several requests with MPI_Testsome"},
    {"TRt", "TRT", "testing a single request with MPI_Test"},
    {"TTc", "TTC", "creating a ticket linked to a set of requests and a task"},
    {"TTw", "TTW", "waiting for a ticket completion"},
    {"MAa", "MAA", "MPI_Alltoall()"},
    {"MAg", "MAG", "MPI_Allgather()"},
    {"MAr", "MAR", "MPI_Allreduce()"},
    {"MCb", "MCB", "MPI_Barrier()"},
    {"MCe", "MCE", "MPI_Exscan()"},
    {"MCs", "MCS", "MPI_Scan()"},
    {"MDb", "MDB", "MPI_Bcast()"},
    {"MDg", "MDG", "MPI_Gather()"},
    {"MDs", "MDS", "MPI_Scatter()"},
    {"ME[", "ME]", "MPI_Reduce()"},
    {"MEb", "MEB", "MPI_Reduce_scatter_block()"},
    {"MEs", "MES", "MPI_Reduce_scatter()"},
    {"MR[", "MR]", "MPI_Recv()"},
    {"MRo", "MRO", "MPI_Sendrecv_replace()"},
    {"MRs", "MRS", "MPI_Sendrecv()"},
    {"MS[", "MS]", "MPI_Send()"},
    {"MSb", "MSB", "MPI_Bsend()"},
    {"MSr", "MSR", "MPI_Rsend()"},
    {"MSs", "MSS", "MPI_Ssend()"},
    {"MT[", "MT]", "MPI_Test()"},
    {"MTa", "MTA", "MPI_Testall()"},
    {"MTs", "MTS", "MPI_Testsome()"},
    {"MTy", "MTY", "MPI_Testany()"},
    {"MUf", "MUF", "MPI_Finalize()"},
    {"MUi", "MUI", "MPI_Init()"},
    {"MUt", "MUT", "MPI_Init_thread()"},
    {"MW[", "MW]", "MPI_Wait()"},
    {"MWa", "MWA", "MPI_Waitall()"},
    {"MWs", "MWS", "MPI_Waitsome()"},
    {"MWy", "MWY", "MPI_Waitany()"},
    {"Maa", "MaA", "MPI_Ialltoall()"},
    {"Mag", "MaG", "MPI_Iallgather()"},
    {"Mar", "MaR", "MPI_Iallreduce()"},
    {"Mcb", "McB", "MPI_Ibarrier()"},
    {"Mce", "McE", "MPI_Iexscan()"},
    {"Mcs", "McS", "MPI_Iscan()"},
    {"Mdb", "MdB", "MPI_Ibcast()"},
    {"Mdg", "MdG", "MPI_Igather()"},
    {"Mds", "MdS", "MPI_Iscatter()"},
    {"Me[", "Me]", "MPI_Ireduce()"},
    {"Meb", "MeB", "MPI_Ireduce_scatter_block()"},
    {"Mes", "MeS", "MPI_Ireduce_scatter()"},
    {"Mr[", "Mr]", "MPI_Irecv()"},
    {"Mro", "MrO", "MPI_Isendrecv_replace()"},
    {"Mrs", "MrS", "MPI_Isendrecv()"},
    {"Ms[", "Ms]", "MPI_Isend()"},
    {"Msb", "MsB", "MPI_Ibsend()"},
    {"Msr", "MsR", "MPI_Irsend()"},
    {"Mss", "MsS", "MPI_Issend()"},
    {"PPx", "PPe", "task"},
    {"PQx", "PQe", "worksharing"},
    {"PA[", "PA]", "the attached state"},
    {"PBb", "PBB", "plain barrier"},
    {"PBf", "PBF", "fork barrier"},
    {"PBj", "PBJ", "join barrier"},
    {"PBs", "PBS", "spin wait"},
    {"PBt", "PBT", "tasking barrier"},
    {"PCf", "PCF", "fork call"},
    {"PCi", "PCI", "initialization"},
    {"PH[", "PH]", "worker loop"},
    {"PI[", "PI]", "critical section"},
    {"PIa", "PIA", "critical acquiring"},
    {"PIr", "PIR", "critical releasing"},
    {"PMi", "PMI", "microtask internal"},
    {"PMu", "PMU", "microtask user code"},
    {"PT[", "PT]", "running a task"},
    {"PTa", "PTA", "task allocation"},
    {"PTc", "PTC", "checking task dependencies"},
    {"PTd", "PTD", "duplicating a task"},
    {"PTg", "PTG", "a taskgroup"},
    {"PTi", "PTI", "running an if0 task"},
    {"PTr", "PTR", "releasing task dependencies"},
    {"PTs", "PTS", "scheduling a task"},
    {"PTt", "PTT", "a taskwait"},
    {"PTw", "PTW", "waiting for taskwait dependencies"},
    {"PTy", "PTY", "a taskyield"},
    {"PWc", "PWC", "dynamic for chunk"},
    {"PWd", "PWD", "distribute"},
    {"PWe", "PWE", "section"},
    {"PWi", "PWI", "single"},
    {"PWs", "PWS", "static for"},
    {"PWy", "PWY", "dynamic for init"},
    {"KCO", "KCI", "off CPU"},
};

static const char *model_name(uint8_t model)
{
    const char *m = tdec_ovni_model_str(model);
    return m ? m : "unknown";
}

static unsigned chrome_slot(uint32_t key)
{
    return (key * 2654435761u) >> 22 & (CHROME_SLOTS - 1);
}

/* Fills r->chrome_mcv from chrome_spans. */
static void chrome_index(ovni_run *r)
{
    size_t i;
    int k;
    for (i = 0; i < sizeof chrome_spans / sizeof chrome_spans[0]; i++) {
        for (k = 0; k < 2; k++) {
            uint32_t key = mcv_key((const uint8_t *)(k ? chrome_spans[i].close : chrome_spans[i].open));
            unsigned slot = chrome_slot(key);
            while (r->chrome_mcv[slot].key) slot = (slot + 1) & (CHROME_SLOTS - 1);
            r->chrome_mcv[slot].key = key;
            r->chrome_mcv[slot].row = (uint16_t)i;
            r->chrome_mcv[slot].opens = (uint8_t)!k;
        }
    }
}

/* The span row mcv opens or closes (*opens says which), or -1. */
static int chrome_row(const ovni_run *r, const uint8_t *mcv, int *opens)
{
    uint32_t key = mcv_key(mcv);
    unsigned slot = chrome_slot(key);
    for (; r->chrome_mcv[slot].key; slot = (slot + 1) & (CHROME_SLOTS - 1)) {
        if (r->chrome_mcv[slot].key == key) {
            *opens = r->chrome_mcv[slot].opens;
            return r->chrome_mcv[slot].row;
        }
    }
    return -1;
}

/* Between the array's elements: a comma, and a line per event. */
static void chrome_sep(ovni_run *r)
{
    if (!r->chrome_first) out_char(r->out, ',');
    r->chrome_first = 0;
    out_char(r->out, '\n');
}

/* `{"ph":"PH","name":"`: the start of every Chrome event but metadata. */
static void chrome_open_event(ovni_run *r, const char *ph)
{
    chrome_sep(r);
    out_lit(r->out, "{\"ph\":\"");
    out_str(r->out, ph);
    out_lit(r->out, "\",\"name\":\"");
}

/* `","cat":"CAT","ts":US,"pid":P,"tid":T,"args":{`: ts is s->chrome_clock
   in microseconds, exactly (three decimals). */
static void chrome_where(ovni_run *r, const char *cat, const ovni_stream *s)
{
    int64_t ns = s->chrome_clock;
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    char *w;
    out_lit(r->out, "\",\"cat\":\"");
    out_str(r->out, cat);
    w = out_reserve(r->out, 96);
    w = fmt_lit(w, "\",\"ts\":");
    if (ns < 0) *w++ = '-';
    w = fmt_u64(w, mag / 1000);
    *w++ = '.';
    w = fmt_u64w(w, mag % 1000, 3, '0');
    w = fmt_lit(w, ",\"pid\":");
    w = fmt_u64(w, s->chrome_pid);
    w = fmt_lit(w, ",\"tid\":");
    w = fmt_u64(w, s->chrome_tid);
    w = fmt_lit(w, ",\"args\":{");
    out_commit(r->out, w);
}

/* Ends span `row` of s at s->chrome_clock before its own end: at the end of
   an enclosing span (closer: that event's MCV), or of the trace (NULL). */
static void chrome_cut_span(ovni_run *r, const ovni_stream *s, unsigned row, const uint8_t *closer)
{
    chrome_open_event(r, "E");
    out_str(r->out, chrome_spans[row].name);
    chrome_where(r, model_name((uint8_t)chrome_spans[row].open[0]), s);
    if (closer) {
        out_lit(r->out, "\"closed_by\":\"");
        json_mcv(r->out, closer);
        out_lit(r->out, "\"}}");
    } else {
        out_lit(r->out, "\"end_of_trace\":true}}");
    }
}

/* An event's description as a JSON value: the string, or null where dump
   prints UNKNOWN (text NULL). */
static void json_desc(out_buf *o, const char *text, size_t len)
{
    if (text) {
        out_char(o, '"');
        out_json_chars(o, text, len);
        out_char(o, '"');
    } else {
        out_lit(o, "null");
    }
}

/* `"mcv":"MCV","desc":DESC` for event ev of s. */
static void chrome_event_args(ovni_run *r, const ovni_stream *s, const tdec_ovni_record *ev, uint64_t offset)
{
    char desc[OVNI_DESC_CAP];
    size_t dlen = 0;
    const char *text = describe(r, s, ev, offset, desc, &dlen);
    out_lit(r->out, "\"mcv\":\"");
    json_mcv(r->out, ev->mcv);
    out_lit(r->out, "\",\"desc\":");
    json_desc(r->out, text, dlen);
}

/* Event ev of s as Chrome events: a span's begin, its end (after the ends
   of the spans opened inside it and still open), or an instant. */
static void chrome_event(ovni_run *r, ovni_stream *s, const tdec_ovni_record *ev, uint64_t offset)
{
    int opens = 0, row = chrome_row(r, ev->mcv, &opens), paired;
    uint32_t at = s->chrome_depth;
    if ((int64_t)ev->clock > s->chrome_clock) s->chrome_clock = (int64_t)ev->clock;
    if (row >= 0 && !opens) /* past the innermost open span of its row */
        while (at > 0 && s->chrome_open[at - 1] != row) at--;
    paired = row >= 0 && (opens ? s->chrome_depth < CHROME_MAX_DEPTH : at > 0 && s->chrome_dropped == 0);
    if (row >= 0 && !paired) { /* the closes of dropped opens come first */
        if (opens) s->chrome_dropped++;
        else if (s->chrome_dropped > 0) s->chrome_dropped--;
    }
    if (paired && opens) {
        s->chrome_open[s->chrome_depth++] = (uint16_t)row;
        chrome_open_event(r, "B");
        out_str(r->out, chrome_spans[row].name);
    } else if (paired) {
        while (s->chrome_depth > at) chrome_cut_span(r, s, s->chrome_open[--s->chrome_depth], ev->mcv);
        s->chrome_depth--;
        chrome_open_event(r, "E");
        out_str(r->out, chrome_spans[row].name);
    } else {
        chrome_open_event(r, "i");
        json_mcv(r->out, ev->mcv);
    }
    chrome_where(r, model_name(ev->mcv[0]), s);
    chrome_event_args(r, s, ev, offset);
    if (row >= 0 && !paired) out_lit(r->out, ",\"unpaired\":true");
    if (paired) out_lit(r->out, "}}");
    else out_lit(r->out, "},\"s\":\"t\"}");
}

/* Streams of one process: the same loom and pid (or both without). */
static int same_process(const ovni_stream *a, const ovni_stream *b)
{
    unsigned ha = a->meta.present & TDEC_OVNI_META_PID, hb = b->meta.present & TDEC_OVNI_META_PID;
    return strcmp(a->loom, b->loom) == 0 && ha == hb && (!ha || a->meta.pid == b->meta.pid);
}

/* The Chrome ids: a process per (loom, pid), numbered from 1 in path
   order, and a thread per stream, numbered from 1; metadata events name
   them. */
static void chrome_threads(ovni_run *r)
{
    uint32_t procs = 0;
    size_t i, j;
    for (i = 0; i < r->t.n; i++) {
        ovni_stream *s = &r->t.s[i], *p = NULL;
        for (j = 0; j < i && p == NULL; j++)
            if (same_process(&r->t.s[j], s)) p = &r->t.s[j];
        s->chrome_pid = p ? p->chrome_pid : ++procs;
        s->chrome_tid = (uint32_t)i + 1;
        s->chrome_clock = INT64_MIN;
        if (p == NULL) {
            chrome_sep(r);
            out_lit_u64(r->out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":", s->chrome_pid);
            out_lit(r->out, ",\"tid\":0,\"args\":{\"name\":\"");
            if (s->loom[0]) {
                out_json_chars(r->out, s->loom, strlen(s->loom));
                out_char(r->out, ' ');
            }
            if (s->meta.present & TDEC_OVNI_META_PID) {
                out_lit(r->out, "pid ");
                out_i64(r->out, s->meta.pid);
            }
            out_lit(r->out, "\"}}");
        }
        chrome_sep(r);
        out_lit_u64(r->out, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":", s->chrome_pid);
        out_lit_u64(r->out, ",\"tid\":", s->chrome_tid);
        out_lit(r->out, ",\"args\":{\"name\":\"");
        if (s->meta.present & TDEC_OVNI_META_TID) {
            out_lit(r->out, "tid ");
            out_i64(r->out, s->meta.tid);
            out_char(r->out, ' ');
        }
        out_json_chars(r->out, s->relpath, s->relpath_len);
        out_lit(r->out, "\"}}");
    }
}

/* Closes the spans still open (at their thread's last time) and the JSON. */
static void chrome_finish(ovni_run *r)
{
    size_t i;
    for (i = 0; i < r->t.n; i++) {
        ovni_stream *s = &r->t.s[i];
        while (s->chrome_depth > 0) chrome_cut_span(r, s, s->chrome_open[--s->chrome_depth], NULL);
    }
    out_lit(r->out, "\n],\"displayTimeUnit\":\"ns\"}\n");
}

/* Prints head(s) (consuming its blob) and moves s to its next event.
   Returns 0, or -1 after an error in s (reported). */
static int emit(ovni_run *r, ovni_stream *s)
{
    const tdec_ovni_record *ev = head(s); /* valid until advance() */
    uint64_t offset = s->item.offset;
    char desc[OVNI_DESC_CAP];
    size_t dlen = 0;
    const char *text;
    int rc;
    blob_sink rest = NULL;

    if (collect_blob_prefix(r, s) != 0) return -1;
    if (r->chrome) {
        chrome_event(r, s, ev, offset);
        return advance(r, s, NULL);
    }
    if (r->json) {
        out_json_open(r->out);
        out_json_str(r->out, "type", "event");
        out_json_i64(r->out, "clock", (int64_t)ev->clock);
        out_json_key(r->out, "mcv");
        out_char(r->out, '"');
        json_mcv(r->out, ev->mcv);
        out_char(r->out, '"');
        out_json_str(r->out, "stream", s->relpath);
        out_json_u64(r->out, "offset", offset);
        out_json_u64(r->out, "size", ev->size);
        if (ev->jumbo) out_json_bool(r->out, "jumbo", 1);
        if (ev->clock_backwards) out_json_bool(r->out, "clock_backwards", 1);
        text = describe(r, s, ev, offset, desc, &dlen);
        out_json_key(r->out, "desc");
        json_desc(r->out, text, dlen);
        out_json_key(r->out, "payload");
        out_char(r->out, '"');
        out_hex_bytes(r->out, ev->payload, ev->payload_len);
        out_hex_bytes(r->out, r->blob, r->blob_len);
        rest = sink_json_hex;
    } else {
        if (ovni_opts.hex) {
            out_commit(r->out, print_line_head(r, s, ev, 0));
            tdec_frag f;
            f.data = ev->payload;
            f.len = ev->payload_len;
            sink_hex(r, &f);
            f.data = r->blob;
            f.len = r->blob_len;
            sink_hex(r, &f);
            rest = sink_hex;
        } else { /* the description goes straight into the output buffer */
            char *w = print_line_head(r, s, ev, OVNI_DESC_CAP);
            text = describe(r, s, ev, offset, w, &dlen);
            if (text == NULL) {
                text = "UNKNOWN";
                dlen = 7;
            }
            if (text != w) memcpy(w, text, dlen);
            out_commit(r->out, w + dlen);
        }
    }
    rc = advance(r, s, rest);
    if (r->json) out_lit(r->out, "\"}\n");
    else out_char(r->out, '\n');
    return rc;
}

/* ---- commands -------------------------------------------------------------- */

/* ovnitop: count per MCV, most frequent first, then by MCV bytes. */
typedef struct mcv_count {
    uint32_t key; /* M << 16 | C << 8 | V, + 1 (0: empty slot) */
    uint64_t count;
} mcv_count;

static int by_count(const void *a, const void *b)
{
    const mcv_count *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return x->key < y->key ? -1 : x->key > y->key;
}

static void print_top(ovni_run *r, mcv_count *tab, size_t cap)
{
    size_t i, n = 0;
    char *w;
    for (i = 0; i < cap; i++)
        if (tab[i].key) tab[n++] = tab[i];
    if (n > 1) qsort(tab, n, sizeof tab[0], by_count); /* none: tab may be NULL */
    for (i = 0; i < n; i++) {
        uint32_t k = tab[i].key - 1;
        w = out_reserve(r->out, 40);
        *w++ = (char)(k >> 16);
        *w++ = (char)(k >> 8);
        *w++ = (char)k;
        *w++ = ' ';
        w = fmt_u64w(w, tab[i].count, 10, ' ');
        *w++ = '\n';
        out_commit(r->out, w);
    }
}

/* Open addressing over a power-of-two table; grows at half load. */
static int count_mcv(mcv_count **tab, size_t *cap, size_t *used, const uint8_t *mcv)
{
    uint32_t key = mcv_key(mcv);
    size_t i, mask;
    if (2 * (*used + 1) > *cap) {
        size_t ncap = *cap ? 2 * *cap : 256, k;
        mcv_count *nt = calloc(ncap, sizeof *nt);
        if (nt == NULL) return -1;
        for (k = 0; k < *cap; k++) {
            if (!(*tab)[k].key) continue;
            i = ((*tab)[k].key * 2654435761u) & (ncap - 1);
            while (nt[i].key) i = (i + 1) & (ncap - 1);
            nt[i] = (*tab)[k];
        }
        free(*tab);
        *tab = nt;
        *cap = ncap;
    }
    mask = *cap - 1;
    i = (key * 2654435761u) & mask;
    while ((*tab)[i].key && (*tab)[i].key != key) i = (i + 1) & mask;
    if (!(*tab)[i].key) {
        (*tab)[i].key = key;
        (*used)++;
    }
    (*tab)[i].count++;
    return 0;
}

static void json_stream(ovni_run *r, const ovni_stream *s)
{
    out_json_open(r->out);
    out_json_str(r->out, "type", "stream");
    out_json_str(r->out, "stream", s->relpath);
    out_json_str(r->out, "file", s->obs_path);
    out_json_u64(r->out, "layout", (uint64_t)s->layout);
    if (s->loom[0]) out_json_str(r->out, "loom", s->loom);
    if (s->meta.present & TDEC_OVNI_META_PID) out_json_i64(r->out, "pid", s->meta.pid);
    if (s->meta.present & TDEC_OVNI_META_TID) out_json_i64(r->out, "tid", s->meta.tid);
    out_json_bool(r->out, "big_endian", s->dec.big_endian);
    out_json_close(r->out);
}

/* `tracedec info DIR`: per stream, what MANIFEST.txt files list. */
static int run_info(ovni_run *r)
{
    size_t i;
    int rc = 0;
    for (i = 0; i < r->t.n; i++) {
        ovni_stream *s = &r->t.s[i];
        while (s->active) {
            const tdec_ovni_record *ev = head(s);
            if (s->events == 0) s->first_clock = ev->clock;
            s->backwards += ev->clock_backwards; /* a first clock below 0 too, as ovni */
            s->last_clock = ev->clock;
            s->events++;
            s->jumbos += ev->jumbo;
            s->payload_bytes += ev->payload_len + (uint64_t)ev->jumbo_len;
            if (advance(r, s, NULL) != 0) {
                rc = 1;
                break;
            }
        }
        out_str(r->out, s->relpath);
        out_lit_u64(r->out, ": layout=v", (uint64_t)s->layout);
        out_lit_u64(r->out, " events=", s->events);
        out_lit_u64(r->out, " jumbo=", s->jumbos);
        out_lit_u64(r->out, " payload_bytes=", s->payload_bytes);
        if (s->events) {
            out_lit(r->out, " first="); /* signed, as ovni prints clocks */
            out_i64(r->out, (int64_t)s->first_clock);
            out_lit(r->out, " last=");
            out_i64(r->out, (int64_t)s->last_clock);
        } else {
            out_lit(r->out, " first=- last=-");
        }
        out_lit_u64(r->out, " backward_steps=", s->backwards);
        if (s->dec.big_endian) out_lit(r->out, " big_endian");
        out_char(r->out, '\n');
    }
    return rc;
}

/* The merge: the stream with the smallest clock goes next. */
static int run_merge(ovni_run *r)
{
    mcv_count *tab = NULL;
    size_t cap = 0, used = 0, i, idx;
    int rc = 0, top = r->args->command == CLI_TOP, first = 1;
    char msg[200];

    r->heap = malloc((r->t.n + 1) * sizeof *r->heap);
    if (r->heap == NULL) return 2;
    if (r->chrome) chrome_threads(r);
    for (i = 0; i < r->t.n; i++) {
        if (r->json) json_stream(r, &r->t.s[i]);
        if (r->t.s[i].active) heap_push(r, merge_key(r, i));
    }
    while (r->nheap > 0) {
        ovni_stream *s;
        idx = r->heap[0].stream;
        s = &r->t.s[idx];
        if (!first && (int64_t)head(s)->clock < r->last_clock) {
            snprintf(msg, sizeof msg, "backwards jump in time %lld -> %lld in stream '%s'",
                     (long long)r->last_clock, (long long)(int64_t)head(s)->clock, s->relpath);
            diag(r, "warning", (int64_t)s->item.offset, s->obs_path, msg);
        }
        r->last_clock = (int64_t)head(s)->clock;
        first = 0;
        if (top) {
            if (count_mcv(&tab, &cap, &used, head(s)->mcv) != 0) {
                rc = 2;
                break;
            }
            if (advance(r, s, NULL) != 0) rc = 1;
        } else if (emit(r, s) != 0) {
            rc = 1;
        }
        if (rc) break;
        if (!s->active) {
            heap_pop(r);
        } else if (ovni_opts.ovnidump_ties) { /* ovnidump's moves: a pop, a push */
            heap_pop(r);
            heap_push(r, merge_key(r, idx));
        } else { /* the order is total: the same sequence, half the work */
            heap_sift_down(r, merge_key(r, idx));
        }
    }
    if (top) print_top(r, tab, cap); /* ovnitop reports even after an error */
    free(tab);
    free(r->heap);
    return rc;
}

static int ovni_command(const cli_args *a, cli_reader *in, out_buf *out, out_buf *err)
{
    ovni_run *r = calloc(1, sizeof *r);
    int rc;
    char msg[120];
    (void)in;
    if (r == NULL) return 2;
    r->args = a;
    r->json = a->command == CLI_DUMP && a->output == CLI_OUT_JSON;
    r->chrome = a->command == CLI_DUMP && a->output == CLI_OUT_CHROME;
    r->chrome_first = 1;
    if (r->chrome) { /* valid JSON whatever happens next */
        out_lit(out, "{\"traceEvents\":[");
        chrome_index(r);
    }
    r->out = out;
    r->err = err;
    if (discover(&r->t, a->path) != 0) {
        diag(r, "error", -1, a->path, "cannot walk the directory");
        rc = 2;
    } else {
        if (r->t.norphans > 0) {
            snprintf(msg, sizeof msg, "%zu stream.obs file(s) without stream.json beside skipped, as ovni's tools do",
                     r->t.norphans);
            diag(r, "warning", -1, r->t.orphan, msg);
        } else if (r->t.n == 0) {
            diag(r, "warning", -1, a->path,
                 "no stream, only loom.* directories (a process ended before ovni_thread_init?): nothing to print, "
                 "as ovni's tools load 0 streams");
        }
        rc = load(r) != 0 ? 1 : a->command == CLI_INFO ? run_info(r) : run_merge(r);
    }
    if (r->chrome) chrome_finish(r);
    if (r->unknown > 0) {
        snprintf(msg, sizeof msg, "%llu events printed as UNKNOWN (no definition in ovni 1.14's models, or see the warnings)",
                 (unsigned long long)r->unknown);
        diag(r, "note", -1, a->path, msg);
    }
    trace_free(&r->t);
    free(r);
    return rc;
}

static const char ovni_help[] =
    "  dump           ovnidump's text\n"
    "  dump --hex     payload bytes instead of descriptions, as ovnidump -x\n"
    "  dump --chrome  the models' enter/exit pairs as Chrome trace spans\n"
    "  info           per stream: header fields and event counts\n"
    "  top            events per MCV, as ovnitop\n"
    "  --ovnidump-ties  order equal clocks of different streams as ovnidump's\n"
    "                 heap does (default: by stream path)\n";

const cli_format cli_ovni = {
    .name = "ovni",
    .inputs = "ovni trace directories",
    .dir = 1,
    .commands = CLI_CMD(CLI_DUMP) | CLI_CMD(CLI_INFO) | CLI_CMD(CLI_TOP),
    .chrome = 1,
    .help = ovni_help,
    .format_names = NULL, /* its streams tell it */
    .detect = ovni_detect,
    .parse_opt = ovni_parse_opt,
    .run = ovni_command,
};
