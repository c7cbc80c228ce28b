/* test_ipt_evt.c - tests of the Intel PT event and query decoders (layer 2
   of single/tdec_ipt.h). The transcripts themselves (evt.txt, qry.txt of
   every vector) are compared through the CLI by tests/golden_ipt_evq.sh;
   this program checks the library's contract on the same vectors and on
   hand-made streams:

     1. chunk invariance: on every vector the event items and the query
        drain's answers are the same for the whole buffer, 1-byte chunks,
        every 2-way split, seeded random chunkings and a chunk buffer that
        is overwritten after every TDEC_NEED_INPUT;
     2. every prefix of every vector decodes to an end or an error in a
        bounded number of calls (events and queries), and the prefix that
        is the whole trace gives the whole run;
     3. hostile and corner streams with the result libipt's event and query
        decoders give (libipt/src/pt_event_decoder.c, pt_query_decoder.c),
        worked out in the comment of each case;
     4. the API: NULL arguments, calls out of sequence.

   Usage: test_ipt_evt [vector-dir]; default tests/data/ipt (run from the
   repository root). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/testlib.h"

#include <stdint.h>

/* ---- recording runs ------------------------------------------------------- */

/* One observation of a run: an item, an answer or a status, as numbers. */
typedef struct rec {
    uint32_t what; /* R_* */
    uint32_t type, flags, a, b, aux;
    uint64_t offset, ip, arg, arg2, tsc;
    uint32_t lost_mtc, lost_cyc;
    int32_t  status; /* query status bits, or the error code */
} rec;

enum { R_SYNC = 1, R_EVENT, R_ERROR, R_END, R_COND, R_INDIRECT, R_QEVENT, R_LIMIT };

typedef struct run {
    rec   *r;
    size_t n, cap;
    size_t calls;
} run;

static void run_add(run *w, rec x)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 256;
        w->r = (rec *)realloc(w->r, w->cap * sizeof *w->r);
        if (w->r == NULL) abort();
    }
    w->r[w->n++] = x;
}

static rec rec_event(uint32_t what, uint64_t offset, const tdec_ipt_event *ev)
{
    rec x;
    memset(&x, 0, sizeof x);
    x.what = what;
    x.offset = offset;
    x.type = ev->type;
    x.flags = ev->flags;
    x.a = ev->a;
    x.b = ev->b;
    x.aux = ev->aux;
    x.ip = ev->ip;
    x.arg = ev->arg;
    x.arg2 = ev->arg2;
    x.tsc = ev->tsc;
    x.lost_mtc = ev->lost_mtc;
    x.lost_cyc = ev->lost_cyc;
    return x;
}

static rec rec_simple(uint32_t what, uint64_t offset, int32_t status)
{
    rec x;
    memset(&x, 0, sizeof x);
    x.what = what;
    x.offset = offset;
    x.status = status;
    return x;
}

/* The input side of a run: chunks by a schedule, copied into a buffer that
   is overwritten (0xa5) after each TDEC_NEED_INPUT when `scribble`. */
typedef struct feeder {
    const uint8_t *p;
    size_t         len, fed, ci;
    unsigned       rng;
    const tl_sched *s;
    uint8_t       *copy;
    size_t         copy_len;
    int            scribble, ended;
} feeder;

/* The next chunk for feed(), or NULL at the end (then call finish()). */
static const uint8_t *feeder_next(feeder *f, size_t *n)
{
    const uint8_t *chunk;
    if (f->scribble && f->copy) memset(f->copy, 0xa5, f->copy_len);
    if (f->fed >= f->len) return NULL;
    *n = tl_next_chunk(f->s, f->fed, f->len, &f->rng, &f->ci);
    if (*n == 0) *n = 1; /* an empty feed says nothing new */
    chunk = f->p + f->fed;
    if (f->scribble) {
        free(f->copy);
        f->copy = (uint8_t *)malloc(*n);
        if (!f->copy) abort();
        memcpy(f->copy, chunk, *n);
        f->copy_len = *n;
        chunk = f->copy;
    }
    f->fed += *n;
    return chunk;
}

static void feeder_init(feeder *f, const uint8_t *p, size_t len, const tl_sched *s, int scribble)
{
    memset(f, 0, sizeof *f);
    f->p = p;
    f->len = len;
    f->s = s;
    f->rng = s->seed;
    f->scribble = scribble;
}

#define MAX_CALLS(len) (64u * ((len) + 16u) + 1000u)

static tdec_ipt_evt_decoder g_evt;
static tdec_ipt_qry_decoder g_qry;

/* Events: every item, every error (then resync), the end. */
static void run_events(run *w, const uint8_t *p, size_t len, const tdec_ipt_config *cfg, const tl_sched *s,
                       int scribble)
{
    tdec_ipt_evt_decoder *e = &g_evt;
    tdec_ipt_evt_item it;
    tdec_status st;
    feeder f;
    const uint8_t *chunk;
    size_t n = 0;
    feeder_init(&f, p, len, s, scribble);
    tdec_ipt_evt_init(e, cfg);
    for (;;) {
        if (++w->calls > MAX_CALLS(len)) {
            run_add(w, rec_simple(R_LIMIT, 0, 0));
            break;
        }
        st = tdec_ipt_evt_next(e, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_IPT_EVT_SYNC) run_add(w, rec_simple(R_SYNC, it.offset, 0));
            else run_add(w, rec_event(R_EVENT, it.offset, &it.ev));
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            chunk = feeder_next(&f, &n);
            st = chunk ? tdec_ipt_evt_feed(e, chunk, n) : tdec_ipt_evt_finish(e);
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_E_CORRUPT) {
            run_add(w, rec_simple(R_ERROR, e->st.err_offset, (int32_t)e->st.err_reason * (e->in_sync ? -1 : 1)));
            if (tdec_ipt_evt_resync(e) == TDEC_NEED_INPUT) continue;
        }
        run_add(w, rec_simple(R_END, 0, st));
        break;
    }
    free(f.copy);
}

/* Queries: the image-less drain (vectors/README.md). */
static void run_queries(run *w, const uint8_t *p, size_t len, const tdec_ipt_config *cfg, const tl_sched *s,
                        int scribble)
{
    tdec_ipt_qry_decoder *q = &g_qry;
    tdec_ipt_event ev;
    tdec_status st;
    feeder f;
    const uint8_t *chunk;
    size_t n = 0;
    uint64_t ip = 0, off = 0, tsc = 0;
    uint32_t mtc = 0, cyc = 0;
    int synced = 0, status = 0, taken = 0;
    rec x;
    feeder_init(&f, p, len, s, scribble);
    tdec_ipt_qry_init(q, cfg);
    for (;;) {
        if (++w->calls > MAX_CALLS(len)) {
            run_add(w, rec_simple(R_LIMIT, 0, 0));
            break;
        }
        if (!synced) {
            st = tdec_ipt_qry_sync(q, &ip, &status, &off);
            if (st == TDEC_OK) {
                synced = 1;
                x = rec_simple(R_SYNC, off, status);
                x.ip = (status & TDEC_IPT_QS_IP_SUPPRESSED) ? 0 : ip;
                run_add(w, x);
                continue;
            }
        } else if (status & TDEC_IPT_QS_EVENT_PENDING) {
            st = tdec_ipt_qry_event(q, &ev, &status);
            if (st == TDEC_OK) {
                x = rec_event(R_QEVENT, 0, &ev);
                x.status = status;
                run_add(w, x);
                continue;
            }
        } else {
            st = tdec_ipt_qry_cond_branch(q, &taken, &status);
            x = rec_simple(R_COND, 0, status);
            x.a = (uint32_t)taken;
            if (st == TDEC_E_SEQUENCE) {
                st = tdec_ipt_qry_indirect_branch(q, &ip, &status);
                x = rec_simple(R_INDIRECT, 0, status);
                x.ip = (status & TDEC_IPT_QS_IP_SUPPRESSED) ? 0 : ip;
            }
            if (st == TDEC_OK) {
                if (tdec_ipt_qry_time(q, &tsc, &mtc, &cyc) == 0) {
                    x.tsc = tsc;
                    x.lost_mtc = mtc;
                    x.lost_cyc = cyc;
                    x.flags = 1;
                }
                run_add(w, x);
                continue;
            }
        }
        if (st == TDEC_NEED_INPUT) {
            chunk = feeder_next(&f, &n);
            st = chunk ? tdec_ipt_qry_feed(q, chunk, n) : tdec_ipt_qry_finish(q);
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_E_CORRUPT) {
            run_add(w, rec_simple(R_ERROR, q->st.err_offset, (int32_t)q->st.err_reason * (q->in_sync ? -1 : 1)));
            synced = 0;
            if (tdec_ipt_qry_resync(q) == TDEC_NEED_INPUT) continue;
        }
        run_add(w, rec_simple(R_END, 0, st));
        break;
    }
    free(f.copy);
}

/* Index of the first difference, or (size_t)-1. */
static size_t run_diff(const run *a, const run *b)
{
    size_t i;
    for (i = 0; i < a->n && i < b->n; i++)
        if (memcmp(&a->r[i], &b->r[i], sizeof a->r[i]) != 0) return i;
    return a->n == b->n ? (size_t)-1 : i;
}

static void run_free(run *w)
{
    free(w->r);
    memset(w, 0, sizeof *w);
}

/* ---- the vectors ------------------------------------------------------------ */

typedef struct vec {
    char            name[128];
    uint8_t        *pt;
    size_t          len;
    tdec_ipt_config cfg;
} vec;

static vec vecs[256];
static unsigned nvecs;

/* INDEX.tsv column 9 (the decoder options) and the first CPU of column 5. */
static int vec_config(tdec_ipt_config *cfg, const char *opts, const char *cpus)
{
    char buf[512], *t, *save = NULL;
    memset(cfg, 0, sizeof *cfg);
    snprintf(buf, sizeof buf, "%s", opts);
    for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char *v;
        if (strcmp(t, "-") == 0) continue;
        if (strcmp(t, "--iflags") == 0) { cfg->flags |= TDEC_IPT_F_IFLAGS; continue; }
        if (strcmp(t, "--keep-tcal-on-ovf") == 0) { cfg->flags |= TDEC_IPT_F_KEEP_TCAL_OVF; continue; }
        v = strtok_r(NULL, " ", &save);
        if (v == NULL) return 0;
        if (strcmp(t, "--mtc-freq") == 0) cfg->mtc_freq = (uint8_t)strtoul(v, NULL, 0);
        else if (strcmp(t, "--nom-freq") == 0) cfg->nom_freq = (uint8_t)strtoul(v, NULL, 0);
        else if (strcmp(t, "--cpuid-0x15.eax") == 0) cfg->cpuid_0x15_eax = (uint32_t)strtoul(v, NULL, 0);
        else if (strcmp(t, "--cpuid-0x15.ebx") == 0) cfg->cpuid_0x15_ebx = (uint32_t)strtoul(v, NULL, 0);
        else return 0;
    }
    if (strcmp(cpus, "-") != 0) {
        char *end;
        unsigned long fam = strtoul(cpus, &end, 10), mod = strtoul(end + 1, NULL, 10);
        if (tdec_ipt_cpu_errata((uint32_t)fam, (uint32_t)mod, 0, &cfg->errata) != TDEC_OK) return 0;
    }
    return 1;
}

static void load_vectors(const char *dir)
{
    char path[600], line[4096];
    FILE *f;
    tl_case c;
    tl_begin(&c, "vectors: INDEX.tsv, traces and decoder options load");
    snprintf(path, sizeof path, "%s/INDEX.tsv", dir);
    f = fopen(path, "r");
    if (TL_TRUE(&c, f != NULL, "cannot open %s", path)) {
        while (fgets(line, sizeof line, f) && nvecs < 256) {
            char *col[10], *p = line;
            unsigned n = 0;
            vec *v = &vecs[nvecs];
            line[strcspn(line, "\r\n")] = 0;
            while (n < 10) {
                col[n++] = p;
                p = strchr(p, '\t');
                if (p == NULL) break;
                *p++ = 0;
            }
            if (n < 9 || strcmp(col[0], "name") == 0) continue;
            snprintf(v->name, sizeof v->name, "%s", col[0]);
            snprintf(path, sizeof path, "%s/%s/%s.pt", dir, v->name, v->name);
            v->pt = tl_read_file(path, &v->len);
            if (!TL_TRUE(&c, v->pt != NULL, "cannot read %s", path)) continue;
            if (!TL_TRUE(&c, vec_config(&v->cfg, col[8], col[4]), "%s: options '%s' cpus '%s'", v->name, col[8],
                         col[4]))
                continue;
            nvecs++;
        }
        fclose(f);
    }
    TL_TRUE(&c, nvecs >= 170, "only %u vectors", nvecs);
    tl_end(&c);
}

/* ---- 1, 2: chunk invariance and prefixes ---------------------------------------- */

typedef void (*runner)(run *, const uint8_t *, size_t, const tdec_ipt_config *, const tl_sched *, int);

static void test_chunks(const char *what, runner fn)
{
    tl_case c;
    unsigned i, seed;
    size_t k, items = 0, splits = 0, stride = tl_quick();
    tl_begin(&c, "%s: whole == 1-byte chunks == every 2-way split == random chunks == a scribbled buffer, every vector",
             what);
    for (i = 0; i < nvecs && !c.bad; i++) {
        const vec *v = &vecs[i];
        tl_sched whole = {NULL, 0, 0, 0}, ones = {NULL, 0, 1, 0};
        run a = {NULL, 0, 0, 0}, b = {NULL, 0, 0, 0};
        size_t d;
        fn(&a, v->pt, v->len, &v->cfg, &whole, 0);
        items += a.n;
        TL_TRUE(&c, a.n > 0 && a.r[a.n - 1].what == R_END && a.r[a.n - 1].status == TDEC_END,
                "%s: the whole run does not end with TDEC_END", v->name);
        fn(&b, v->pt, v->len, &v->cfg, &ones, 1);
        d = run_diff(&a, &b);
        TL_TRUE(&c, d == (size_t)-1, "%s: 1-byte chunks differ at record %zu", v->name, d);
        for (k = 1; k < v->len && !c.bad; k += stride) {
            tl_sched cut = {&k, 1, 0, 0};
            run_free(&b);
            fn(&b, v->pt, v->len, &v->cfg, &cut, k % 2);
            d = run_diff(&a, &b);
            TL_TRUE(&c, d == (size_t)-1, "%s: split at %zu differs at record %zu", v->name, k, d);
            splits++;
        }
        for (seed = 1; seed <= 4 && !c.bad; seed++) {
            tl_sched rnd = {NULL, 0, 0, seed * 2654435761u};
            run_free(&b);
            fn(&b, v->pt, v->len, &v->cfg, &rnd, 1);
            d = run_diff(&a, &b);
            TL_TRUE(&c, d == (size_t)-1, "%s: random chunks (seed %u) differ at record %zu", v->name, seed, d);
        }
        run_free(&a);
        run_free(&b);
    }
    tl_end(&c);
    printf("# %s: %zu records over %u vectors, %zu split runs\n", what, items, nvecs, splits);
}

static void test_prefixes(const char *what, runner fn)
{
    tl_case c;
    unsigned i;
    size_t k, runs = 0, stride = tl_quick();
    tl_begin(&c, "%s: every prefix of every vector ends (TDEC_END or an error) within the call bound", what);
    for (i = 0; i < nvecs && !c.bad; i++) {
        const vec *v = &vecs[i];
        tl_sched whole = {NULL, 0, 0, 0};
        run full = {NULL, 0, 0, 0};
        fn(&full, v->pt, v->len, &v->cfg, &whole, 0);
        for (k = 0; k <= v->len && !c.bad; k += k + stride > v->len && k < v->len ? v->len - k : stride) {
            run w = {NULL, 0, 0, 0};
            fn(&w, v->pt, k, &v->cfg, &whole, 0);
            runs++;
            TL_TRUE(&c, w.n > 0 && w.r[w.n - 1].what == R_END, "%s: prefix %zu does not end (%s)", v->name, k,
                    w.n && w.r[w.n - 1].what == R_LIMIT ? "call bound hit" : "no end");
            if (w.n && w.r[w.n - 1].what == R_END)
                TL_TRUE(&c, w.r[w.n - 1].status == TDEC_END, "%s: prefix %zu ends with status %d", v->name, k,
                        w.r[w.n - 1].status);
            if (k == v->len) TL_TRUE(&c, run_diff(&w, &full) == (size_t)-1, "%s: the whole prefix differs", v->name);
            run_free(&w);
        }
        run_free(&full);
    }
    tl_end(&c);
    printf("# %s: %zu prefix runs\n", what, runs);
}

/* ---- 3: hand-made streams ---------------------------------------------------------- */

typedef struct sb {
    uint8_t b[1 << 16];
    size_t  n;
} sb;

static void put(sb *s, const uint8_t *p, size_t n)
{
    if (s->n + n > sizeof s->b) abort();
    memcpy(s->b + s->n, p, n);
    s->n += n;
}
#define PUT(s, ...)                                                  \
    do {                                                             \
        static const uint8_t put_bytes_[] = {__VA_ARGS__};           \
        put((s), put_bytes_, sizeof put_bytes_);                     \
    } while (0)

static void psb(sb *s)
{
    PUT(s, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82);
}
static void psbend(sb *s) { PUT(s, 0x02, 0x23); }
static void ovf(sb *s) { PUT(s, 0x02, 0xf3); }
static void fup_1000(sb *s) { PUT(s, 0x7d, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00); } /* sext-48 0x1000 */
static void mode64(sb *s) { PUT(s, 0x99, 0x01); }                              /* MODE.Exec CS.L */
static void mode32(sb *s) { PUT(s, 0x99, 0x02); }                              /* MODE.Exec CS.D */
static void tnt1(sb *s) { PUT(s, 0x06); }                                       /* TNT-8: one taken */
static void cbr(sb *s) { PUT(s, 0x02, 0x03, 0x20, 0x00); }                      /* CBR 0x20 */
static void pge_2000(sb *s) { PUT(s, 0x31, 0x00, 0x20); }                       /* TIP.PGE update-16 */
static void tip_3000(sb *s) { PUT(s, 0x2d, 0x00, 0x30); }                       /* TIP update-16 */
/* PSB+ with a FUP at 0x1000 and 64-bit mode: tracing on. */
static void psb_on(sb *s)
{
    psb(s);
    fup_1000(s);
    mode64(s);
    psbend(s);
}

/* Runs events over s whole (and in 1-byte chunks, which must agree). */
static void events_of(tl_case *c, const sb *s, const tdec_ipt_config *cfg, run *w)
{
    tl_sched whole = {NULL, 0, 0, 0}, ones = {NULL, 0, 1, 0};
    run o = {NULL, 0, 0, 0};
    run_events(w, s->b, s->n, cfg, &whole, 0);
    run_events(&o, s->b, s->n, cfg, &ones, 1);
    TL_TRUE(c, run_diff(w, &o) == (size_t)-1, "1-byte chunks differ at record %zu", run_diff(w, &o));
    run_free(&o);
}

/* Event types of the records, as a string of letters for short asserts:
   S sync, E error, . end, and the first letters below for events. */
static const char *shape(const run *w, char *buf, size_t cap)
{
    static const char ev[] = "edDbpPoxtsvVEmrRwkcnTNiISMrsIVXhuUgWy";
    size_t i, n = 0;
    for (i = 0; i < w->n && n + 1 < cap; i++) {
        const rec *r = &w->r[i];
        buf[n++] = r->what == R_SYNC ? 'S' : r->what == R_ERROR ? '!' : r->what == R_END ? '.'
                   : r->what == R_EVENT && r->type < sizeof ev - 1 ? ev[r->type] : '?';
    }
    buf[n] = 0;
    return buf;
}

static void test_hostile(void)
{
    static sb s;
    tl_case c;
    run w = {NULL, 0, 0, 0};
    tdec_ipt_config cfg;
    char sh[8192];
    size_t i, k;
    memset(&cfg, 0, sizeof cfg);

    /* 5000 OVFs after a PSB+ with tracing on: each OVF's look-ahead meets the
       next OVF (find_ovf_fup: "tracing off") and gives a standalone overflow
       without IP; the last meets the end (-pte_eos: the same). */
    tl_begin(&c, "hostile: 5000 OVFs in a row: 5000 overflow events without IP, then the end");
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 5000; i++) ovf(&s);
    events_of(&c, &s, &cfg, &w);
    TL_EQU(&c, w.n, 1 + 2 + 5000 + 1);
    for (i = 3, k = 0; i + 1 < w.n; i++)
        k += w.r[i].type == TDEC_IPT_EV_OVERFLOW && (w.r[i].flags & TDEC_IPT_EVF_IP_SUPPRESSED);
    TL_EQU(&c, k, 5000);
    TL_EQI(&c, w.r[w.n - 1].status, TDEC_END);
    tl_end(&c);
    run_free(&w);

    /* OVFs with a PSB+ (tracing on) between each: the OVF's look-ahead meets
       the PSB (stop: tracing off), so: overflow, then the PSB+'s status
       events, 2000 times. */
    tl_begin(&c, "hostile: OVF and PSB+ alternating 2000 times: overflow, enabled, exec_mode each time");
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 2000; i++) {
        ovf(&s);
        psb_on(&s);
    }
    events_of(&c, &s, &cfg, &w);
    TL_EQU(&c, w.n, 1 + 2 + 2000 * 3 + 1);
    for (i = 3, k = 0; i + 3 < w.n; i += 3)
        k += w.r[i].type == TDEC_IPT_EV_OVERFLOW && w.r[i + 1].type == TDEC_IPT_EV_ENABLED &&
             (w.r[i + 1].flags & TDEC_IPT_EVF_STATUS) && w.r[i + 1].ip == 0x1000 &&
             w.r[i + 2].type == TDEC_IPT_EV_EXEC_MODE;
    TL_EQU(&c, k, 2000);
    tl_end(&c);
    run_free(&w);

    /* A MODE.Exec waits for its TIP; a PSB with it pending is
       -pte_bad_context ("no partial events across PSB"), reported at the
       packet the failing call started at (PSBEND, whose events were all
       out). resync() then finds the next PSB. */
    tl_begin(&c, "hostile: an event pending at a PSB: bad context at the PSBEND, then the next PSB");
    s.n = 0;
    psb_on(&s);           /* 0..0x1b: PSBEND at 0x19 */
    mode32(&s);           /* 0x1b */
    psb_on(&s);           /* 0x1d */
    psb_on(&s);           /* 0x38 */
    events_of(&c, &s, &cfg, &w);
    TL_TRUE(&c, strcmp(shape(&w, sh, sizeof sh), "Sex!Sex.") == 0, "records %s", sh);
    if (w.n == 8) {
        TL_EQU(&c, w.r[3].offset, 0x19);
        TL_EQI(&c, w.r[3].status, TDEC_IPT_ERR_BAD_CONTEXT);
        TL_EQU(&c, w.r[4].offset, 0x38);
    }
    tl_end(&c);
    run_free(&w);

    /* TNT while tracing is off: a PSB+ without FUP says disabled; the TNT is
       -pte_bad_context. Events at every PSB of this shape repeat that. */
    tl_begin(&c, "hostile: TNT with tracing off at 100 PSBs: disabled, then bad context, 100 times");
    s.n = 0;
    for (i = 0; i < 100; i++) {
        psb(&s);
        psbend(&s);
        tnt1(&s);
    }
    events_of(&c, &s, &cfg, &w);
    TL_EQU(&c, w.n, 100 * 3 + 1);
    for (i = 0, k = 0; i + 2 < w.n; i += 3)
        k += w.r[i].what == R_SYNC && w.r[i + 1].type == TDEC_IPT_EV_DISABLED &&
             w.r[i + 2].what == R_ERROR && w.r[i + 2].status == TDEC_IPT_ERR_BAD_CONTEXT;
    TL_EQU(&c, k, 100);
    tl_end(&c);
    run_free(&w);

    /* libipt's event queue holds 14 events: the 15th MODE.Exec without a
       TIP is -pte_nomem (each alternate mode makes an exec_mode event). */
    tl_begin(&c, "hostile: 15 MODE.Exec without a TIP: the 15th is out of queue space (TDEC_IPT_ERR_NOMEM)");
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 20; i++) (i % 2 ? mode64 : mode32)(&s);
    events_of(&c, &s, &cfg, &w);
    TL_TRUE(&c, strcmp(shape(&w, sh, sizeof sh), "Sex!.") == 0, "records %s", sh);
    if (w.n == 5) TL_EQI(&c, w.r[3].status, TDEC_IPT_ERR_NOMEM);
    tl_end(&c);
    run_free(&w);

    /* An OVF then CBRs then a FUP: libipt reads over the CBRs to the FUP
       (tracing on), queues the overflow for the FUP, then processes the
       CBRs: 15 cbr events, then the overflow at the FUP's IP. The decoder
       keeps the CBRs and the FUP during that look-ahead: 16 CBRs and the
       FUP are more than TDEC_IPT_EVT_HOLD, TDEC_IPT_ERR_NOMEM. */
    tl_begin(&c, "hostile: OVF, 15 CBRs, FUP: 15 cbr events then overflow at the FUP; 16 CBRs: NOMEM");
    s.n = 0;
    psb_on(&s);
    ovf(&s);
    for (i = 0; i < 15; i++) cbr(&s);
    fup_1000(&s);
    events_of(&c, &s, &cfg, &w);
    TL_TRUE(&c, strcmp(shape(&w, sh, sizeof sh), "Sexccccccccccccccco.") == 0, "records %s", sh);
    if (w.n == 20) {
        TL_EQU(&c, w.r[18].ip, 0x1000);
        TL_EQU(&c, w.r[18].flags & TDEC_IPT_EVF_IP_SUPPRESSED, 0);
    }
    run_free(&w);
    s.n = 0;
    psb_on(&s);
    ovf(&s);
    for (i = 0; i < 16; i++) cbr(&s);
    fup_1000(&s);
    events_of(&c, &s, &cfg, &w);
    TL_TRUE(&c, strcmp(shape(&w, sh, sizeof sh), "Sex!.") == 0, "records %s", sh);
    if (w.n == 5) TL_EQI(&c, w.r[3].status, TDEC_IPT_ERR_NOMEM);
    tl_end(&c);
    run_free(&w);

    /* The OVF look-ahead that only the end decides: fed whole, next() waits
       (TDEC_NEED_INPUT) after the status events; finish() makes it a
       standalone overflow (find_ovf_fup: -pte_eos). */
    tl_begin(&c, "look-ahead: an OVF at the end waits for finish(), then overflow without IP");
    {
        tdec_ipt_evt_decoder *e = &g_evt;
        tdec_ipt_evt_item it;
        int got = 0;
        s.n = 0;
        psb_on(&s);
        ovf(&s);
        tdec_ipt_evt_init(e, NULL);
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b, s.n), TDEC_NEED_INPUT);
        while (tdec_ipt_evt_next(e, &it) == TDEC_OK) got++;
        TL_EQI(&c, got, 3); /* SYNC, enabled, exec_mode */
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_finish(e), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK);
        TL_EQI(&c, it.ev.type, TDEC_IPT_EV_OVERFLOW);
        TL_TRUE(&c, it.ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED, "overflow has an IP");
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_END);
    }
    tl_end(&c);

    /* BDM70: a PSB+ with a FUP right before a TIP.PGE means tracing was
       off. Without the erratum: enabled (status), exec_mode, enabled; with
       it: disabled (status), exec_mode without IP, enabled. Every split
       (the look-ahead crosses the chunk end) gives the same. */
    tl_begin(&c, "errata: BDM70 look-ahead at every split point");
    s.n = 0;
    psb_on(&s);
    pge_2000(&s);
    tip_3000(&s);
    events_of(&c, &s, &cfg, &w);
    TL_TRUE(&c, strcmp(shape(&w, sh, sizeof sh), "SexeT.") == 0, "no erratum: records %s", sh);
    run_free(&w);
    cfg.errata = TDEC_IPT_ERRATUM_BDM70;
    events_of(&c, &s, &cfg, &w);
    TL_TRUE(&c, strcmp(shape(&w, sh, sizeof sh), "SdxeT.") == 0, "BDM70: records %s", sh);
    if (w.n == 6) {
        TL_TRUE(&c, w.r[2].flags & TDEC_IPT_EVF_IP_SUPPRESSED, "exec_mode has an IP under BDM70");
        TL_EQU(&c, w.r[3].ip, 0x2000);
    }
    for (k = 1; k < s.n && !c.bad; k++) {
        tl_sched cut = {&k, 1, 0, 0};
        run o = {NULL, 0, 0, 0};
        run_events(&o, s.b, s.n, &cfg, &cut, 1);
        TL_TRUE(&c, run_diff(&w, &o) == (size_t)-1, "split at %zu differs", k);
        run_free(&o);
    }
    cfg.errata = 0;
    tl_end(&c);
    run_free(&w);

    /* Queries in the wrong order are -pte_bad_query (TDEC_E_SEQUENCE):
       nothing changes and the decoder goes on. After sync two status events
       are pending: a branch query is wrong; then the events; then a TNT bit
       is cached: an event query is wrong; then the TIP. */
    tl_begin(&c, "queries: wrong questions are TDEC_E_SEQUENCE, change nothing and are not sticky");
    {
        tdec_ipt_qry_decoder *q = &g_qry;
        tdec_ipt_event ev;
        uint64_t ip = 0;
        int st = 0, taken = 0;
        s.n = 0;
        psb_on(&s);
        PUT(&s, 0x0c); /* TNT-8: taken, not taken */
        tip_3000(&s);
        tdec_ipt_qry_init(q, NULL);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_E_SEQUENCE); /* not synchronised yet */
        TL_EQI(&c, tdec_ipt_qry_feed(q, s.b, s.n), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_finish(q), TDEC_E_SEQUENCE); /* the window is not used up */
        TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &st, NULL), TDEC_OK);
        TL_EQU(&c, ip, 0x1000);
        TL_EQI(&c, st, TDEC_IPT_QS_EVENT_PENDING);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_qry_indirect_branch(q, &ip, &st), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_qry_event(q, &ev, &st), TDEC_OK);
        TL_EQI(&c, ev.type, TDEC_IPT_EV_ENABLED);
        TL_EQI(&c, tdec_ipt_qry_event(q, &ev, &st), TDEC_OK);
        TL_EQI(&c, ev.type, TDEC_IPT_EV_EXEC_MODE);
        TL_EQI(&c, st, 0);
        TL_EQI(&c, tdec_ipt_qry_event(q, &ev, &st), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_OK);
        TL_EQI(&c, taken, 1);
        TL_EQI(&c, tdec_ipt_qry_event(q, &ev, &st), TDEC_E_SEQUENCE); /* a TNT bit is cached */
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_OK);
        TL_EQI(&c, taken, 0);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_E_SEQUENCE);
        /* what follows the TIP decides its status: only the end tells */
        TL_EQI(&c, tdec_ipt_qry_indirect_branch(q, &ip, &st), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_finish(q), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_indirect_branch(q, &ip, &st), TDEC_OK);
        TL_EQU(&c, ip, 0x3000);
        TL_EQI(&c, st, TDEC_IPT_QS_EOS);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_END);
        TL_EQI(&c, q->st.err, TDEC_OK);
    }
    tl_end(&c);

    /* A query that needs input it does not have returns TDEC_NEED_INPUT and
       changes nothing: fed 1 byte at a time, asking the same query again
       after each feed gives the whole-buffer answers (the drain of section
       1 does this on every vector; here with a TIP that the end decides). */
    tl_begin(&c, "queries: TDEC_NEED_INPUT changes nothing (1-byte feeds, same answers as whole)");
    {
        tl_sched whole = {NULL, 0, 0, 0}, ones = {NULL, 0, 1, 0};
        run a = {NULL, 0, 0, 0};
        run_queries(&a, s.b, s.n, NULL, &whole, 0);
        run_queries(&w, s.b, s.n, NULL, &ones, 1);
        TL_TRUE(&c, run_diff(&a, &w) == (size_t)-1, "differs at %zu", run_diff(&a, &w));
        TL_EQU(&c, a.n, 1 + 2 + 2 + 1 + 1);
        run_free(&a);
    }
    tl_end(&c);
    run_free(&w);
}

/* ---- 4: the API ------------------------------------------------------------------ */

static void test_api(void)
{
    tl_case c;
    tdec_ipt_evt_item it;
    tdec_ipt_event ev;
    uint64_t ip, tsc;
    uint32_t cbr;
    int st, taken;
    tl_begin(&c, "api: NULL arguments are TDEC_E_ARG; resync without an error is TDEC_E_SEQUENCE");
    TL_EQI(&c, tdec_ipt_evt_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_next(NULL, &it), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_init(&g_evt, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_evt_next(&g_evt, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_feed(NULL, "", 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_resync(&g_evt), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_qry_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_init(&g_qry, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_qry_sync(&g_qry, NULL, &st, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_cond_branch(&g_qry, NULL, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_indirect_branch(&g_qry, &ip, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_event(&g_qry, NULL, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_time(&g_qry, NULL, NULL, NULL), -TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, tdec_ipt_qry_time(&g_qry, &tsc, NULL, NULL), -TDEC_IPT_ERR_NO_TIME);
    TL_EQI(&c, tdec_ipt_qry_core_bus_ratio(&g_qry, &cbr), -TDEC_IPT_ERR_NO_CBR);
    TL_EQI(&c, tdec_ipt_qry_resync(&g_qry), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_qry_event(&g_qry, &ev, &st), TDEC_E_SEQUENCE); /* before sync */
    TL_EQI(&c, tdec_ipt_qry_cond_branch(&g_qry, &taken, &st), TDEC_E_SEQUENCE);
    TL_TRUE(&c, strcmp(tdec_ipt_event_str(TDEC_IPT_EV_ASYNC_BRANCH), "async_branch") == 0 &&
                    strcmp(tdec_ipt_event_str(TDEC_IPT_EV_SYSCALL), "syscall") == 0,
            "event names");
    tl_end(&c);
    printf("# sizeof: tdec_ipt_evt_decoder %zu, tdec_ipt_qry_decoder %zu, tdec_ipt_event %zu, tdec_ipt_evt_item %zu\n",
           sizeof(tdec_ipt_evt_decoder), sizeof(tdec_ipt_qry_decoder), sizeof(tdec_ipt_event),
           sizeof(tdec_ipt_evt_item));
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/data/ipt";
    unsigned i;
    load_vectors(dir);
    test_chunks("events", run_events);
    test_chunks("queries", run_queries);
    test_prefixes("events", run_events);
    test_prefixes("queries", run_queries);
    test_hostile();
    test_api();
    for (i = 0; i < nvecs; i++) free(vecs[i].pt);
    return tl_exit_code();
}
