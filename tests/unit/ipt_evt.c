/* ipt_evt.c - unit tests of the Intel PT event and query decoders
   (layer 2 of single/tdec_ipt.h: tdec_ipt_evt_*, tdec_ipt_qry_*). The
   reference is libipt master's pt_evt_* / pt_qry_* (pt_event_decoder.c,
   pt_query_decoder.c, and doc/man/pt_qry_cond_branch.3.md for the query
   contract).

   Sections:
     1. transcripts: every ptt vector (INDEX.tsv; decoder options from
        column 9, errata of the first CPU of column 5) decoded by the event
        decoder and drained through the query decoder, rendered in the
        format of the vectors' evt.txt / qry.txt (vectors/README.md) and
        compared with them: evt.txt ignoring the 8-hex-digit offset column
        of event lines, qry.txt byte for byte. Like the tool that made
        them, a transcript stops after a failed sync;
    1a. libipt's offsets: tdec_ipt_evt_offset() after each item equals
        evt.txt's offset column of the next event line (pt_evt_get_offset
        before that event's pt_evt_next call), whole and in 1-byte chunks;
     2. chunk invariance: every vector in 1-byte chunks, at every 2-way
        split, and in seeded random chunks gives the same records (items,
        offsets, every field, errors, answers) as the whole buffer; the
        chunks come from one reused buffer scribbled over at each
        TDEC_NEED_INPUT, or (splits, alternately) from an exact-size copy
        that is scribbled and freed (ASan sees stale reads). Every run goes
        through the oracle, tests/lib/ipt_check.h (iptc_events,
        iptc_queries), shared with fuzz/fuzz_ipt.c, which checks the rules
        listed there on the way (a next() or a query that returned
        TDEC_NEED_INPUT returns it again when asked again before feeding,
        and neither changes the query time, among them);
     3. every prefix of every vector: the run ends with TDEC_END (after
        resync() past errors) within 64*(len+16) API calls, and
          events:  the records up to and including the prefix run's last
                   SYNC item are the first records of the whole run;
          queries: the records before the prefix run's last SYNC answer
                   are the first records of the whole run.
        Why this must hold: a SYNC item / sync answer after the first one
        only comes after an error and resync(); the error was reported
        inside the prefix, so everything before it was decided by bytes
        of the prefix (a look-ahead that runs into the cut ends the
        segment with the end, never with a later SYNC). What follows the
        last SYNC may legitimately differ (finish() decides look-aheads
        that later bytes decide otherwise: an OVF becomes a standalone
        overflow, BDM70 status events change), and so may the last sync
        answer of the query decoder (its IP and status come from status
        events a BDM70 look-ahead decides). Beyond that, the first record
        where a prefix run differs from the whole run must be one the cut
        decides (prefix_cut_rule: the end, but not before an event whose
        packet is inside the prefix; an overflow or PSB+ status event; for
        queries also the last answer saying TDEC_IPT_QF_EOS, or a sync).
        Also, on every prefix where neither layer met an error, the layers
        agree: the query drain's event answers are the event items other
        than TNT and TIP, its cond answers the TNT bits, its indirect
        answers the TIPs' IPs;
     3a. the Ending rule (the oracle checks it) on every prefix of every
        vector in 1-, 7- and 4096-byte chunks (test_ending);
     3b. time: within a segment the events' time and the query time after
        each answer never go back, except at an overflow or across a TSC;
     4. hand-made streams with libipt's results. Each expectation was
        worked out from pt_event_decoder.c / pt_query_decoder.c (comments
        say which rule) and checked against libipt master 8978561f built
        from source (the vectors' reference commit). Item offsets are not
        compared with libipt's (tracedec's are the completing packet,
        libipt's its read position, tdec_ipt_evt_offset: 1a and the
        sync-forward test); error and sync offsets are;
     5. the API: NULL arguments, calls out of sequence.

   Usage: build/unit/ipt_evt [vector-dir]; default tests/data/ipt (or
   tests/data/ipt/ptt) if it has INDEX.tsv, else
   ../shared/formats/ipt/vectors/ptt (run from the repository root);
   evt.txt and qry.txt are read from the vector's directory, else from
   ../shared/formats/ipt/vectors/ptt/<name>/. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#define TDEC_IPT_IMPLEMENTATION
#include "tests/lib/ipt_check.h"
#include "tests/lib/testlib.h"

#include <stdarg.h>
#include <stdint.h>

#define LOG_CAP (4u << 20)

/* ---- text buffers ------------------------------------------------------------ */

typedef struct txt {
    char  *s;
    size_t n, cap;
} txt;

static void tx_printf(txt *t, const char *fmt, ...)
{
    va_list ap;
    int k;
    for (;;) {
        size_t room = t->cap - t->n;
        va_start(ap, fmt);
        k = t->cap ? vsnprintf(t->s + t->n, room, fmt, ap) : -2;
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            t->n += (size_t)k;
            return;
        }
        t->cap = t->cap ? 2 * t->cap : 4096;
        if (k >= 0 && t->cap < t->n + (size_t)k + 1) t->cap = t->n + (size_t)k + 1;
        t->s = (char *)realloc(t->s, t->cap);
        if (t->s == NULL) abort();
        if (t->n == 0) t->s[0] = 0;
    }
}

static void tx_free(txt *t)
{
    free(t->s);
    memset(t, 0, sizeof *t);
}

static const char *tx_str(const txt *t)
{
    return t->s ? t->s : "";
}

/* The first line where a and b differ, for a failure message. */
static void first_diff(const char *a, const char *b, char *out, size_t cap)
{
    unsigned line = 1;
    const char *la = a, *lb = b;
    while (*a && *a == *b) {
        if (*a == '\n') {
            line++;
            la = a + 1;
            lb = b + 1;
        }
        a++;
        b++;
    }
    snprintf(out, cap, "line %u: got '%.*s', expected '%.*s'", line, (int)strcspn(la, "\n"), la,
             (int)strcspn(lb, "\n"), lb);
}

/* ---- recording runs ------------------------------------------------------------ */

/* A layer-2 run of tests/lib/ipt_check.h (iptc_events, iptc_queries): its
   records, and the rule it broke, if any. */
typedef struct run {
    iptc_rec *r;
    size_t    n, cap;
    size_t    need_input_answers;
    char      why[CC_MSG]; /* empty, or the broken rule */
} run;

static const run run0;

static void run_add(run *w, iptc_rec x)
{
    if (w->n == w->cap) {        w->cap = w->cap ? 2 * w->cap : 256;
        w->r = (iptc_rec *)realloc(w->r, w->cap * sizeof *w->r);
        if (w->r == NULL) abort();
    }
    w->r[w->n++] = x;
}

/* Index of the first difference, or (size_t)-1. */
static size_t run_diff_n(const run *a, const run *b, size_t n)
{
    size_t i;
    for (i = 0; i < n && i < a->n && i < b->n; i++)
        if (memcmp(&a->r[i], &b->r[i], sizeof a->r[i]) != 0) return i;
    if (i == n) return (size_t)-1;
    return a->n == b->n ? (size_t)-1 : i;
}

static size_t run_diff(const run *a, const run *b)
{
    return run_diff_n(a, b, (size_t)-1);
}

static void run_free(run *w)
{
    free(w->r);
    memset(w, 0, sizeof *w);
}

/* ---- running a layer ---------------------------------------------------------------- */

static tdec_ipt_evt_decoder g_evt; /* for the hand-made calls below (big: not on the stack) */
static tdec_ipt_qry_decoder g_qry;

static void collect(void *ctx, const iptc_rec *x, const iptc_clock *after)
{
    run *w = (run *)ctx;
    (void)after;
    if (x->what == IPTC_L2_RESTART) w->n = 0;
    else run_add(w, *x);
}

/* A run of cfg (NULL: defaults), its time checked against the facts f
   (may be NULL), its records to w, its log (may be NULL) into log. */
static void layer_setup(iptc_l2 *r, const tdec_ipt_config *cfg, const iptc_facts *f, run *w, char *log)
{
    memset(r, 0, sizeof *r);
    if (cfg) r->cfg = *cfg;
    r->facts = f;
    r->on_rec = w ? collect : NULL;
    r->ctx = w;
    r->cc.log = log;
    r->cc.log_cap = log ? LOG_CAP : 0;
}

/* Runs a layer (queries: the query drain, else the event decoder) over
   p[0..len) with cfg (NULL: defaults), fed as s says (how: CC_FEED_*),
   its time checked against the facts f (may be NULL); w gets the records
   and the rule the run broke, if any. */
static void run_layer(run *w, int queries, const uint8_t *p, size_t len, const tdec_ipt_config *cfg,
                      const iptc_facts *f, const cc_sched *s, int how)
{
    static iptc_l2 r;
    const char *bad;
    layer_setup(&r, cfg, f, w, NULL);
    r.cc.sched = *s;
    r.cc.feed_how = how;
    bad = (queries ? iptc_queries : iptc_events)(p, len, &r.cc);
    w->need_input_answers = r.need_input_answers;
    snprintf(w->why, sizeof w->why, "%s", bad ? bad : "");
}

static char log_a[LOG_CAP], log_b[LOG_CAP];

/* A layer over p[0..len) whole (its records into w), in 1-byte chunks
   from a reused buffer (its TDEC_NEED_INPUT answers added to *needs),
   split in two at 1, 1 + stride ..., and in nseeds random schedules, the
   splits and seeds alternately in fresh and in reused chunks (counted in
   *runs): every log must be the whole run's. NULL, or what went wrong. */
static const char *layer_chunks(run *w, int queries, const uint8_t *p, size_t len, const tdec_ipt_config *cfg,
                                const iptc_facts *f, size_t stride, size_t nseeds, size_t *needs, size_t *runs)
{
    static iptc_l2 a, b;
    cc_decode_fn fn = queries ? iptc_queries : iptc_events;
    cc_plan plan;
    const char *bad;
    layer_setup(&a, cfg, f, w, log_a);
    if ((bad = fn(p, len, &a.cc)) != NULL) return bad;
    layer_setup(&b, cfg, f, NULL, log_b);
    b.cc.sched.step = 1;
    b.cc.feed_how = CC_FEED_REUSED;
    bad = cc_same_as(fn, &a.cc, &b.cc, p, len, "1-byte chunks", stdout);
    *needs += b.need_input_answers;
    memset(&plan, 0, sizeof plan);
    plan.split_stride = stride;
    plan.nseeds = nseeds;
    plan.alternate = 1;
    return bad ? bad : cc_schedules(fn, &a.cc, &b.cc, p, len, &plan, stdout, runs);
}

/* ---- rendering in the vectors' transcript format ------------------------------------ */

static void render_ip(txt *t, const iptc_rec *r, const char *name)
{
    if (r->flags & TDEC_IPT_EVF_IP_SUPPRESSED) tx_printf(t, " %s=<suppressed>", name);
    else tx_printf(t, " %s=%016llx", name, (unsigned long long)r->ip);
}

/* One event as evt.txt / qry.txt print it (no offset, no newline). */
static void render_event(txt *t, const iptc_rec *r)
{
    unsigned i;
    tx_printf(t, "%s", tdec_ipt_event_str(r->type));
    if (r->flags & TDEC_IPT_EVF_STATUS) tx_printf(t, " [status]");
    switch (r->type) {
    case TDEC_IPT_EV_ENABLED: case TDEC_IPT_EV_DISABLED: case TDEC_IPT_EV_OVERFLOW: case TDEC_IPT_EV_TIP:
    case TDEC_IPT_EV_EXSTOP: case TDEC_IPT_EV_IRET: case TDEC_IPT_EV_SMI: case TDEC_IPT_EV_RSM:
    case TDEC_IPT_EV_INIT: case TDEC_IPT_EV_VMENTRY: case TDEC_IPT_EV_SHUTDOWN: case TDEC_IPT_EV_UIRET:
    case TDEC_IPT_EV_SYSCALL:
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_ASYNC_DISABLED:
        tx_printf(t, " at=%016llx", (unsigned long long)r->arg);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_ASYNC_BRANCH:
        tx_printf(t, " from=%016llx", (unsigned long long)r->arg);
        render_ip(t, r, "to");
        break;
    case TDEC_IPT_EV_PAGING:
        tx_printf(t, " cr3=%016llx nr=%d", (unsigned long long)r->arg, !!(r->flags & TDEC_IPT_EVF_NR));
        break;
    case TDEC_IPT_EV_ASYNC_PAGING:
        tx_printf(t, " cr3=%016llx nr=%d", (unsigned long long)r->arg, !!(r->flags & TDEC_IPT_EVF_NR));
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_EXEC_MODE:
        tx_printf(t, " mode=%u", r->a);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_TSX:
        tx_printf(t, " spec=%d abrt=%d", !!(r->flags & TDEC_IPT_EVF_SPECULATIVE), !!(r->flags & TDEC_IPT_EVF_ABORTED));
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_VMCS:
        tx_printf(t, " base=%016llx", (unsigned long long)r->arg);
        break;
    case TDEC_IPT_EV_ASYNC_VMCS:
        tx_printf(t, " base=%016llx", (unsigned long long)r->arg);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_MWAIT:
        tx_printf(t, " hints=%llx ext=%x", (unsigned long long)r->arg, r->aux);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_PWRE:
        tx_printf(t, " state=%u sub=%u hw=%d", r->a, r->b, !!(r->flags & TDEC_IPT_EVF_HW));
        break;
    case TDEC_IPT_EV_PWRX:
        tx_printf(t, " last=%u deepest=%u int=%d store=%d auto=%d", r->a, r->b, !!(r->flags & TDEC_IPT_EVF_INTERRUPT),
                  !!(r->flags & TDEC_IPT_EVF_STORE), !!(r->flags & TDEC_IPT_EVF_AUTONOMOUS));
        break;
    case TDEC_IPT_EV_PTWRITE:
        tx_printf(t, " size=%u payload=%llx", r->a, (unsigned long long)r->arg);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_CBR:
        tx_printf(t, " ratio=%u", r->a);
        break;
    case TDEC_IPT_EV_MNT:
        tx_printf(t, " payload=%llx", (unsigned long long)r->arg);
        break;
    case TDEC_IPT_EV_TNT:
        tx_printf(t, " size=%u bits=", r->a);
        for (i = r->a; i > 0 && i <= 64; i--) tx_printf(t, "%c", (r->arg >> (i - 1)) & 1 ? '!' : '.');
        break;
    case TDEC_IPT_EV_IFLAGS:
        tx_printf(t, " if=%d", !!(r->flags & TDEC_IPT_EVF_IFLAG));
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_INTERRUPT:
        tx_printf(t, " vector=%u", r->a);
        if (r->flags & TDEC_IPT_EVF_HAS_CR2) tx_printf(t, " cr2=%llx", (unsigned long long)r->arg);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_SIPI:
        tx_printf(t, " vector=%u", r->a);
        break;
    case TDEC_IPT_EV_VMEXIT:
        if (r->flags & TDEC_IPT_EVF_HAS_VECTOR) tx_printf(t, " vector=%u", r->a);
        if (r->flags & TDEC_IPT_EVF_HAS_VMXR) tx_printf(t, " vmxr=%llx", (unsigned long long)r->arg2);
        if (r->flags & TDEC_IPT_EVF_HAS_VMXQ) tx_printf(t, " vmxq=%llx", (unsigned long long)r->arg);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_UINTR: case TDEC_IPT_EV_SWINTR:
        tx_printf(t, " vector=%u", r->a);
        render_ip(t, r, "ip");
        break;
    case TDEC_IPT_EV_TRIG:
        tx_printf(t, " trbv=%x mult=%d icnt=%u", r->a, !!(r->flags & TDEC_IPT_EVF_MULT), r->aux);
        render_ip(t, r, "ip");
        break;
    default:
        break;
    }
    if (r->flags & TDEC_IPT_EVF_HAS_TSC)
        tx_printf(t, " tsc=%llx lost=%u/%u", (unsigned long long)r->tsc, r->lost_mtc, r->lost_cyc);
}

static void render_qstatus(txt *t, uint32_t s)
{
    tx_printf(t, " [st:%s%s%s]", s & TDEC_IPT_QF_IP_SUPPRESSED ? " ips" : "", s & TDEC_IPT_QF_EVENT_PENDING ? " evp" : "",
              s & TDEC_IPT_QF_EOS ? " eos" : "");
}

static void render_qtime(txt *t, const iptc_rec *r)
{
    if (r->where) tx_printf(t, " tsc=%llx lost=%u/%u", (unsigned long long)r->tsc, r->lost_mtc, r->lost_cyc);
}

/* A run as evt.txt (events: offsets left out) or qry.txt print it. With
   stop_at_sync_error the text ends after a failed sync, as the vectors'
   tool does; a broken rule is printed at the end so that it shows in a
   comparison. */
static void render(txt *t, const run *w, int queries, int stop_at_sync_error)
{
    size_t i;
    int synced = 0;
    for (i = 0; i < w->n; i++) {
        const iptc_rec *r = &w->r[i];
        switch (r->what) {
        case IPTC_L2_SYNC:
            tx_printf(t, "SYNC @%llx", (unsigned long long)r->offset);
            if (queries) {
                if (!((uint32_t)r->status & TDEC_IPT_QF_IP_SUPPRESSED)) tx_printf(t, " ip=%016llx", (unsigned long long)r->ip);
                render_qstatus(t, (uint32_t)r->status);
            }
            tx_printf(t, "\n");
            synced = 1;
            break;
        case IPTC_L2_EVENT:
            render_event(t, r);
            tx_printf(t, "\n");
            break;
        case IPTC_L2_QEVENT:
            tx_printf(t, "event ");
            render_event(t, r);
            tx_printf(t, "\n");
            break;
        case IPTC_L2_COND:
            tx_printf(t, "cond %s", r->a ? "taken" : "not-taken");
            render_qtime(t, r);
            render_qstatus(t, (uint32_t)r->status);
            tx_printf(t, "\n");
            break;
        case IPTC_L2_INDIRECT:
            tx_printf(t, "indirect ");
            if ((uint32_t)r->status & TDEC_IPT_QF_IP_SUPPRESSED) tx_printf(t, "<suppressed>");
            else tx_printf(t, "%016llx", (unsigned long long)r->ip);
            render_qtime(t, r);
            render_qstatus(t, (uint32_t)r->status);
            tx_printf(t, "\n");
            break;
        case IPTC_L2_ERROR:
            tx_printf(t, "ERROR %s @%llx: %s\n", r->where ? "sync" : queries ? "query" : "evt_next",
                      (unsigned long long)r->offset, tdec_ipt_reason_str((uint32_t)r->status));
            synced = 0;
            if (r->where && stop_at_sync_error) return;
            break;
        case IPTC_L2_END:
            if (r->status != TDEC_END) tx_printf(t, "(run ended with status %d)\n", r->status);
            else if (queries ? r->where != 0 : synced) tx_printf(t, "EOS\n");
            break;
        default:
            tx_printf(t, "(record %u)\n", r->what);
            break;
        }
    }
    if (w->why[0]) tx_printf(t, "(broken: %s)\n", w->why);
}

/* ---- the vectors ------------------------------------------------------------------- */

typedef struct vec {
    char            name[128];
    uint8_t        *pt;
    size_t          len;
    tdec_ipt_config cfg;
    iptc_facts      facts;     /* what its time may be (tests/lib/ipt_check.h)      */
    char           *evt, *qry; /* the reference transcripts (evt: offsets removed) */
    uint64_t       *evt_at;    /* evt.txt's offset column: libipt's offset before  */
    size_t          n_evt_at;  /* each event's pt_evt_next call                    */
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
        if (strcmp(t, "--iflags") == 0) {
            cfg->flags |= TDEC_IPT_F_IFLAGS;
            continue;
        }
        if (strcmp(t, "--keep-tcal-on-ovf") == 0) {
            cfg->flags |= TDEC_IPT_F_KEEP_TCAL_OVF;
            continue;
        }
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
        if (*end != '/') return 0;
        if (tdec_ipt_cpu_errata((uint32_t)fam, (uint32_t)mod, 0, &cfg->errata) != TDEC_OK) return 0;
    }
    return 1;
}

/* A transcript from the vector's directory, else from the shared copy. */
static char *read_transcript(const char *dir, const char *name, const char *file)
{
    char path[700];
    size_t n;
    char *s;
    snprintf(path, sizeof path, "%s/%s/%s", dir, name, file);
    s = (char *)tl_read_file(path, &n);
    if (s == NULL) {
        snprintf(path, sizeof path, "../shared/formats/ipt/vectors/ptt/%s/%s", name, file);
        s = (char *)tl_read_file(path, &n);
    }
    return s;
}

/* The "%08x " offsets of evt.txt's event lines, into v->evt_at. */
static void keep_offsets(vec *v, const char *s)
{
    size_t n = 0;
    const char *l;
    for (l = s; *l; l++) n += *l == '\n';
    v->evt_at = (uint64_t *)malloc((n + 1) * sizeof *v->evt_at);
    if (v->evt_at == NULL) abort();
    v->n_evt_at = 0;
    for (l = s; *l; l = l[strcspn(l, "\n")] ? l + strcspn(l, "\n") + 1 : l + strcspn(l, "\n")) {
        size_t k = strspn(l, "0123456789abcdef");
        if (k == 8 && l[8] == ' ') v->evt_at[v->n_evt_at++] = strtoull(l, NULL, 16);
    }
}

/* evt.txt without the "%08x " offset column of event lines. */
static void strip_offsets(char *s)
{
    char *in = s, *out = s;
    while (*in) {
        int k = 0;
        while (k < 8 && ((in[k] >= '0' && in[k] <= '9') || (in[k] >= 'a' && in[k] <= 'f'))) k++;
        if (k == 8 && in[8] == ' ') in += 9;
        while (*in && *in != '\n') *out++ = *in++;
        if (*in) *out++ = *in++;
    }
    *out = 0;
}

static void load_vectors(const char *dir)
{
    char path[600], line[4096];
    FILE *f;
    tl_case c;
    unsigned with_text = 0;
    tl_begin(&c, "vectors: INDEX.tsv, traces, decoder options and evt.txt/qry.txt load");
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
                         col[4])) {
                free(v->pt);
                continue;
            }
            v->evt = read_transcript(dir, v->name, "evt.txt");
            v->qry = read_transcript(dir, v->name, "qry.txt");
            TL_TRUE(&c, v->evt != NULL && v->qry != NULL, "%s: no evt.txt or qry.txt", v->name);
            if (v->evt) {
                keep_offsets(v, v->evt);
                strip_offsets(v->evt);
            }
            with_text += v->evt != NULL && v->qry != NULL;
            iptc_facts_scan(&v->facts, v->pt, v->len, IPTC_HOOK_NONE, &v->cfg);
            nvecs++;
        }
        fclose(f);
    }
    TL_TRUE(&c, nvecs >= 170, "only %u vectors", nvecs);
    TL_EQU(&c, with_text, nvecs);
    tl_end(&c);
}

/* ---- 1: transcripts ------------------------------------------------------------------ */

static void test_transcripts(void)
{
    unsigned i, same_evt = 0, same_qry = 0;
    size_t lines = 0;
    for (i = 0; i < nvecs; i++) {
        const vec *v = &vecs[i];
        cc_sched whole = {NULL, 0, 0, 0};
        int layer;
        for (layer = 0; layer < 2; layer++) {
            tl_case c;
            run w = run0;
            txt t = {NULL, 0, 0};
            const char *want = layer ? v->qry : v->evt;
            char why[300];
            tl_begin(&c, "vector %s: %s", v->name, layer ? "queries == qry.txt" : "events == evt.txt (offsets aside)");
            run_layer(&w, layer, v->pt, v->len, &v->cfg, &v->facts, &whole, CC_FEED_FRESH);
            render(&t, &w, layer, 1);
            if (want != NULL && strcmp(tx_str(&t), want) != 0) {
                first_diff(tx_str(&t), want, why, sizeof why);
                TL_TRUE(&c, 0, "%s", why);
            }
            TL_TRUE(&c, want != NULL, "no reference transcript");
            if (!c.bad) {
                const char *s;
                if (layer) same_qry++;
                else same_evt++;
                for (s = tx_str(&t); *s; s++) lines += *s == '\n';
            }
            tl_end(&c);
            tx_free(&t);
            run_free(&w);
        }
    }
    printf("# transcripts: %u/%u evt.txt, %u/%u qry.txt equal, %zu lines\n", same_evt, nvecs, same_qry, nvecs, lines);
}

/* ---- 1a: libipt's offsets (tdec_ipt_evt_offset) --------------------------------------- */

/* Feeds the next piece of v (chunk bytes at most), or finishes. */
static void feed_more(tdec_ipt_evt_decoder *e, const vec *v, size_t chunk, size_t *fed)
{
    size_t n = v->len - *fed < chunk ? v->len - *fed : chunk;
    if (n == 0) {
        tdec_ipt_evt_finish(e);
        return;
    }
    tdec_ipt_evt_feed(e, v->pt + *fed, n);
    *fed += n;
}

/* Decodes v in chunk-byte pieces as evt.txt was made (an error: sync forward);
   out[k]: tdec_ipt_evt_offset() after the item before the k-th event. */
static size_t offsets_before_events(const vec *v, size_t chunk, uint64_t *out, size_t cap)
{
    tdec_ipt_evt_decoder *e = &g_evt;
    tdec_ipt_evt_item it;
    size_t fed = 0, n = 0, spins = 0;
    uint64_t after = 0;
    tdec_status st;
    tdec_ipt_evt_init(e, &v->cfg);
    while (spins++ < 4 * v->len + 1000) {
        st = tdec_ipt_evt_next(e, &it);
        if (st == TDEC_NEED_INPUT) {
            feed_more(e, v, chunk, &fed);
        } else if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_RECORD && n < cap) out[n++] = after;
            while (tdec_ipt_evt_offset(e, &after) == TDEC_NEED_INPUT && spins++ < 4 * v->len + 1000)
                feed_more(e, v, chunk, &fed);
        } else if (st == TDEC_E_CORRUPT && !e->in_sync) {
            tdec_ipt_evt_resync(e);
        } else {
            break; /* the end, or a sync error (the reference tool stops there) */
        }
    }
    return n;
}

static void test_offsets(void)
{
    static const size_t chunks[2] = {(size_t)-1, 1};
    uint64_t got[4096];
    unsigned i, k, same = 0;
    for (i = 0; i < nvecs; i++) {
        const vec *v = &vecs[i];
        tl_case c;
        tl_begin(&c, "vector %s: tdec_ipt_evt_offset() before each event == evt.txt's offset column (whole, 1-byte chunks)",
                 v->name);
        for (k = 0; k < 2; k++) {
            size_t n = offsets_before_events(v, chunks[k], got, 4096), j;
            if (!TL_EQU(&c, n, v->n_evt_at)) continue;
            for (j = 0; j < n; j++)
                if (!TL_TRUE(&c, got[j] == v->evt_at[j], "chunk %zu, event %zu: %llx, evt.txt %llx", chunks[k], j,
                             (unsigned long long)got[j], (unsigned long long)v->evt_at[j]))
                    break;
        }
        same += !c.bad;
        tl_end(&c);
    }
    printf("# offsets: %u/%u vectors as libipt's pt_evt_get_offset\n", same, nvecs);
}

/* ---- 2: chunk invariance ------------------------------------------------------------- */

static void test_chunks(const char *what, int queries)
{
    tl_case c;
    unsigned i;
    size_t items = 0, splits = 0, stride = tl_quick(), needs = 0;
    tl_begin(&c,
             "%s: whole == 1-byte chunks == every 2-way split == 8 random chunkings, reused/freed scribbled buffers, every "
             "vector",
             what);
    for (i = 0; i < nvecs && !c.bad; i++) {
        const vec *v = &vecs[i];
        run a = run0;
        size_t runs = 0;
        const char *bad = layer_chunks(&a, queries, v->pt, v->len, &v->cfg, &v->facts, stride, 8, &needs, &runs);
        TL_TRUE(&c, bad == NULL, "%s: %s", v->name, bad);
        items += a.n;
        splits += runs > 8 ? runs - 8 : 0;
        TL_TRUE(&c, a.n > 0 && a.r[a.n - 1].what == IPTC_L2_END && a.r[a.n - 1].status == TDEC_END,
                "%s: the whole run does not end with TDEC_END", v->name);
        run_free(&a);
    }
    /* The 1-byte query drains must really have asked again after
       TDEC_NEED_INPUT (the path this checks). */
    if (queries) TL_TRUE(&c, needs > 10u * nvecs, "only %zu queries answered TDEC_NEED_INPUT", needs);
    tl_end(&c);
    printf("# %s: %zu records over %u vectors, %zu split runs", what, items, nvecs, splits);
    if (queries) printf(", %zu query answers TDEC_NEED_INPUT in 1-byte runs (asked again: same)", needs);
    printf("\n");
}


/* The two layers agree (a run without errors): the query drain's event
   answers are the event items that are not TNT or TIP, the same events
   (time aside: a query's event has the time the event decoder had); its
   cond answers are the TNT items' bits, oldest first; its indirect
   answers the TIP items' IPs. Returns "" or what differs. */
static const char *layers_agree(const run *ev, const run *qr)
{
    size_t i, j = 0;
    for (i = 0; i < ev->n; i++)
        if (ev->r[i].what == IPTC_L2_ERROR) return "";
    for (i = 0; i < qr->n; i++)
        if (qr->r[i].what == IPTC_L2_ERROR) return "";
    for (i = 0; i < ev->n; i++) {
        const iptc_rec *r = &ev->r[i];
        if (r->what != IPTC_L2_EVENT) continue;
        if (r->type == TDEC_IPT_EV_TNT) {
            unsigned b;
            for (b = r->a; b > 0; b--) {
                while (j < qr->n && qr->r[j].what == IPTC_L2_SYNC) j++;
                if (j >= qr->n || qr->r[j].what != IPTC_L2_COND) return "a TNT bit is not a cond answer";
                if (qr->r[j].a != ((r->arg >> (b - 1)) & 1)) return "a cond answer is not the TNT bit";
                j++;
            }
            continue;
        }
        while (j < qr->n && qr->r[j].what == IPTC_L2_SYNC) j++;
        if (j >= qr->n) return "the queries end early";
        if (r->type == TDEC_IPT_EV_TIP) {
            if (qr->r[j].what != IPTC_L2_INDIRECT) return "a TIP is not an indirect answer";
            if (!((uint32_t)qr->r[j].status & TDEC_IPT_QF_IP_SUPPRESSED) != !(r->flags & TDEC_IPT_EVF_IP_SUPPRESSED) ||
                qr->r[j].ip != r->ip)
                return "an indirect answer is not the TIP's IP";
        } else if (qr->r[j].what != IPTC_L2_QEVENT || qr->r[j].type != r->type || qr->r[j].flags != r->flags ||
                   qr->r[j].ip != r->ip || qr->r[j].arg != r->arg || qr->r[j].arg2 != r->arg2 || qr->r[j].a != r->a ||
                   qr->r[j].b != r->b || qr->r[j].aux != r->aux || qr->r[j].tsc != r->tsc) {
            return "an event answer is not the event item";
        }
        j++;
    }
    for (; j < qr->n; j++)
        if (qr->r[j].what != IPTC_L2_SYNC && qr->r[j].what != IPTC_L2_END) return "the queries have more answers";
    return NULL;
}

/* ---- 3: prefixes ------------------------------------------------------------------------- */

/* Where a prefix run p may first differ from the whole run f (c: the
   index of the first differing record). Until the decoder needs a byte at
   or after the cut, both runs are the same calls on the same bytes; only
   what the end decides can differ. libipt decides at the end of its
   buffer:
     - a packet cut by the end: -pte_eos, the prefix run just ends
       (IPTC_L2_END, after which the whole run goes on). It may not end before
       an event whose packet lies inside the prefix: events carry the
       offset of the packet that completed them, and a packet is at most
       16 bytes, so the whole run's next event must be at k - 15 or later
       (at most 10 on the vectors: a cut MNT);
     - a pending look-ahead: the OVF scan (the end counts as "tracing off":
       a standalone overflow without IP where the whole trace may give the
       overflow at a FUP, or an error), the BDM70 / SKD010 / APL11 / APL12
       scans of a PSB+ (its status events: enabled vs disabled, IPs
       suppressed or not);
     - the query decoder's one event of read-ahead: the last answer before
       the cut says TDEC_IPT_QF_EOS where the whole run says event pending
       or nothing (same answer otherwise, and nothing after it), and a
       sync's IP and status come from the sync point's status events.
   So the first difference must be one of those records; anything else
   (another event, another error, another answer) is a decision the cut
   should not have changed. Returns NULL or what is wrong. (libipt master
   itself, run on every prefix of every vector, gives exactly our
   transcripts, so this is libipt's rule too.) */
static const char *prefix_cut_rule(const run *p, const run *f, size_t c, int queries, size_t k)
{
    const iptc_rec *x, *y;
    iptc_rec a, b;
    if (c >= p->n) return NULL; /* equal */
    x = &p->r[c];
    y = c < f->n ? &f->r[c] : NULL;
    if (x->what == IPTC_L2_END) {
        if (x->status != TDEC_END) return "the prefix run ends with an error status";
        if (y && y->what == IPTC_L2_EVENT && y->offset + 16 <= k)
            return "it ends before an event completed inside the prefix";
        return NULL;
    }
    if ((x->what == IPTC_L2_EVENT || x->what == IPTC_L2_QEVENT) &&
        (x->type == TDEC_IPT_EV_OVERFLOW || (x->flags & TDEC_IPT_EVF_STATUS)))
        return NULL;
    if (!queries) return "an event or error no look-ahead decides";
    if (x->what == IPTC_L2_SYNC)
        return y && ((y->what == IPTC_L2_SYNC && y->offset == x->offset) || (y->what == IPTC_L2_ERROR && y->where == 1))
                   ? NULL
                   : "a sync the whole run does not have";
    if (y == NULL || x->what != y->what ||
        (x->what != IPTC_L2_COND && x->what != IPTC_L2_INDIRECT && x->what != IPTC_L2_QEVENT))
        return "another record";
    a = *x;
    b = *y;
    a.status = b.status = 0;
    if (memcmp(&a, &b, sizeof a) != 0) return "another answer";
    if (!((uint32_t)x->status & TDEC_IPT_QF_EOS) || ((uint32_t)y->status & TDEC_IPT_QF_EOS)) return "another status, not the end";
    if (c + 1 >= p->n || p->r[c + 1].what != IPTC_L2_END) return "more answers after TDEC_IPT_QF_EOS";
    return NULL;
}

/* The prefix length after k of a len-byte trace, stride bytes on, the
   whole trace last: 0, stride, 2 * stride, ..., len. */
static size_t next_prefix(size_t k, size_t len, size_t stride)
{
    return k + stride > len && k < len ? len : k + stride;
}

static void test_prefixes(const char *what, int queries)
{
    tl_case c;
    unsigned i;
    size_t k, runs = 0, stride = tl_quick(), related = 0, exact = 0;
    tl_begin(&c, "%s: every prefix ends with TDEC_END within the call bound; %s; first difference: one the cut decides",
             what,
             queries ? "records before its last sync == the whole run's"
                     : "records through its last SYNC == the whole run's");
    for (i = 0; i < nvecs && !c.bad; i++) {
        const vec *v = &vecs[i];
        cc_sched whole = {NULL, 0, 0, 0};
        run full = run0;
        run_layer(&full, queries, v->pt, v->len, &v->cfg, &v->facts, &whole, CC_FEED_FRESH);
        for (k = 0; k <= v->len && !c.bad; k = next_prefix(k, v->len, stride)) {
            run w = run0;
            size_t j, last_sync = (size_t)-1, upto;
            run_layer(&w, queries, v->pt, k, &v->cfg, &v->facts, &whole, CC_FEED_REUSED);
            runs++;
            TL_TRUE(&c, w.why[0] == 0 && w.n > 0 && w.r[w.n - 1].what == IPTC_L2_END, "%s: prefix %zu does not end (%s)",
                    v->name, k, w.why[0] ? w.why : "no end");
            if (w.n && w.r[w.n - 1].what == IPTC_L2_END)
                TL_TRUE(&c, w.r[w.n - 1].status == TDEC_END, "%s: prefix %zu ends with status %d", v->name, k,
                        w.r[w.n - 1].status);
            for (j = 0; j < w.n; j++)
                if (w.r[j].what == IPTC_L2_SYNC) last_sync = j;
            if (last_sync != (size_t)-1) {
                upto = queries ? last_sync : last_sync + 1;
                TL_TRUE(&c, run_diff_n(&w, &full, upto) == (size_t)-1 && full.n >= upto,
                        "%s: prefix %zu: record %zu (before the last SYNC, %zu) differs from the whole run", v->name,
                        k, run_diff_n(&w, &full, upto), last_sync);
                related += upto;
            }
            {
                size_t d = run_diff(&w, &full);
                const char *why = prefix_cut_rule(&w, &full, d == (size_t)-1 ? w.n : d, queries, k);
                TL_TRUE(&c, why == NULL, "%s: prefix %zu, first difference at record %zu: %s", v->name, k, d, why);
                exact += d == (size_t)-1 || d + 1 >= w.n; /* only the end differs */
            }
            if (k == v->len) TL_TRUE(&c, run_diff(&w, &full) == (size_t)-1, "%s: the whole prefix differs", v->name);
            run_free(&w);
        }
        run_free(&full);
    }
    tl_end(&c);
    printf("# %s: %zu prefix runs, %zu records matched the whole run, %zu runs a prefix of the whole run\n", what,
           runs, related, exact);
}

/* The Ending rule (the oracle checks it: tests/lib/ipt_check.h), on every
   prefix of every vector, for the events and the query drain, in 1-, 7-
   and 4096-byte chunks: no broken rule, and the run ends in TDEC_END. */
static void test_ending(void)
{
    static const size_t chunks[] = { 1, 7, 4096 };
    static iptc_l2 r;
    tl_case c;
    unsigned i;
    size_t j, k, runs = 0, stride = tl_quick();
    int queries;
    tl_begin(&c, "Ending: events and queries of every prefix of every vector in 1-, 7- and 4096-byte chunks end in END");
    for (i = 0; i < nvecs && !c.bad; i++) {
        const vec *v = &vecs[i];
        for (k = 0; k <= v->len && !c.bad; k = next_prefix(k, v->len, stride), runs++)
            for (queries = 0; queries < 2; queries++)
                for (j = 0; j < sizeof chunks / sizeof chunks[0]; j++) {
                    layer_setup(&r, &v->cfg, NULL, NULL, NULL);
                    TL_TRUE(&c,
                            cc_ending(queries ? iptc_queries : iptc_events, &r.cc, v->pt, k, chunks[j], TDEC_END) ==
                                NULL,
                            "%s: prefix %zu, %s: %s", v->name, k, queries ? "queries" : "events", r.cc.msg);
                }
    }
    tl_end(&c);
    printf("# ending: %zu prefixes, events and queries\n", runs);
}

/* Every prefix of every vector (and the whole): where neither layer met an
   error, they agree (layers_agree). */
static void test_layers_agree(void)
{
    tl_case c;
    unsigned i;
    size_t k, checked = 0, stride = tl_quick();
    tl_begin(&c, "layers: event items == the query drain's answers (events, TNT bits, TIP IPs), every prefix without errors");
    for (i = 0; i < nvecs && !c.bad; i++) {
        const vec *v = &vecs[i];
        cc_sched whole = {NULL, 0, 0, 0};
        for (k = 0; k <= v->len && !c.bad; k = next_prefix(k, v->len, stride)) {
            run e = run0, q = run0;
            const char *why;
            run_layer(&e, 0, v->pt, k, &v->cfg, &v->facts, &whole, CC_FEED_FRESH);
            run_layer(&q, 1, v->pt, k, &v->cfg, &v->facts, &whole, CC_FEED_FRESH);
            TL_TRUE(&c, e.why[0] == 0 && q.why[0] == 0, "%s, prefix %zu: %s%s", v->name, k, e.why, q.why);
            why = layers_agree(&e, &q);
            TL_TRUE(&c, why == NULL || *why == 0, "%s, prefix %zu: %s", v->name, k, why);
            checked += why == NULL;
            run_free(&e);
            run_free(&q);
        }
    }
    tl_end(&c);
    printf("# layers: %zu prefix runs without errors compared\n", checked);
}

/* ---- 3b: time ---------------------------------------------------------------------------- */

/* Offsets of the TSC packets of a trace (layer 1, resyncing after errors);
   returns how many, up to cap. */
static size_t tsc_offsets(const vec *v, uint64_t *at, size_t cap)
{
    tdec_ipt_decoder d;
    tdec_ipt_item it;
    tdec_status st;
    size_t n = 0;
    int fed = 0;
    tdec_ipt_init(&d, &v->cfg);
    for (;;) {
        st = tdec_ipt_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_RECORD && it.u.pkt.kind == TDEC_IPT_TSC && n < cap) at[n++] = it.offset;
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            st = fed ? tdec_ipt_finish(&d) : tdec_ipt_feed(&d, v->pt, v->len);
            fed = 1;
            if (st == TDEC_NEED_INPUT) continue;
        }
        if (st == TDEC_E_CORRUPT && tdec_ipt_resync(&d) == TDEC_NEED_INPUT) continue;
        return n;
    }
}

/* Time never goes back within a segment (between a sync and the next
   error), except where the trace says so: at an overflow event (libipt
   stamps it with the time at the OVF, after the packets its look-ahead
   read over were processed), or with a TSC packet in between (a TSC sets
   the estimate, which MTC/CYC may have run ahead of). Events: their own
   tsc, the TSC between the two events' offsets. Queries: pt_qry_time
   after each cond/indirect answer and the events' tsc; answers carry no
   offset, so a second TSC packet anywhere in the trace excuses a step
   back there. */
static void test_time(void)
{
    tl_case c;
    unsigned i, timed = 0;
    size_t j, checked = 0, back = 0;
    static uint64_t tscs[4096];
    tl_begin(&c, "time: events' and answers' time never goes back within a segment except at an overflow or a TSC");
    for (i = 0; i < nvecs; i++) {
        const vec *v = &vecs[i];
        cc_sched whole = {NULL, 0, 0, 0};
        run e = run0, q = run0;
        size_t ntsc = tsc_offsets(v, tscs, sizeof tscs / sizeof tscs[0]), t;
        uint64_t last = 0, last_off = 0;
        int have = 0, any = 0;
        run_layer(&e, 0, v->pt, v->len, &v->cfg, &v->facts, &whole, CC_FEED_FRESH);
        TL_TRUE(&c, e.why[0] == 0, "%s: %s", v->name, e.why);
        for (j = 0; j < e.n; j++) {
            const iptc_rec *r = &e.r[j];
            if (r->what != IPTC_L2_EVENT) {
                have = 0;
                continue;
            }
            if (!(r->flags & TDEC_IPT_EVF_HAS_TSC)) continue;
            any = 1;
            checked++;
            if (have && r->tsc < last) {
                int tsc_between = 0;
                back++;
                for (t = 0; t < ntsc; t++)
                    tsc_between |= (tscs[t] > last_off && tscs[t] <= r->offset) ||
                                   (tscs[t] > r->offset && tscs[t] <= last_off);
                TL_TRUE(&c, r->type == TDEC_IPT_EV_OVERFLOW || tsc_between,
                        "%s: event %zu (%s, packet at %llx) has tsc %llx after %llx", v->name, j,
                        tdec_ipt_event_str(r->type), (unsigned long long)r->offset, (unsigned long long)r->tsc,
                        (unsigned long long)last);
            }
            have = 1;
            last = r->tsc;
            last_off = r->offset;
        }
        run_layer(&q, 1, v->pt, v->len, &v->cfg, &v->facts, &whole, CC_FEED_FRESH);
        TL_TRUE(&c, q.why[0] == 0, "%s: %s", v->name, q.why);
        have = 0;
        for (j = 0; j < q.n; j++) {
            const iptc_rec *r = &q.r[j];
            int has = r->what == IPTC_L2_QEVENT ? (r->flags & TDEC_IPT_EVF_HAS_TSC) != 0
                                          : (r->what == IPTC_L2_COND || r->what == IPTC_L2_INDIRECT) && r->where == 1;
            if (r->what == IPTC_L2_SYNC || r->what == IPTC_L2_ERROR) {
                have = 0;
                continue;
            }
            if (!has) continue;
            checked++;
            if (have && r->tsc < last) {
                back++;
                TL_TRUE(&c, (r->what == IPTC_L2_QEVENT && r->type == TDEC_IPT_EV_OVERFLOW) || ntsc > 1,
                        "%s: answer %zu has tsc %llx after %llx", v->name, j, (unsigned long long)r->tsc,
                        (unsigned long long)last);
            }
            have = 1;
            last = r->tsc;
        }
        timed += (unsigned)any;
        run_free(&e);
        run_free(&q);
    }
    TL_TRUE(&c, timed >= 13, "only %u vectors with timed events", timed); /* 13 of the ptt vectors have timing */
    tl_end(&c);
    printf("# time: %zu timed events and answers over %u vectors, %zu steps back (at an overflow or TSC)\n",
           checked, timed, back);
}

/* ---- 4: hand-made streams ------------------------------------------------------------- */

typedef struct sb {
    uint8_t b[1 << 17];
    size_t  n;
} sb;

static void put(sb *s, const uint8_t *p, size_t n)
{
    if (s->n + n > sizeof s->b) abort();
    memcpy(s->b + s->n, p, n);
    s->n += n;
}

#define PUT(s, ...)                                                                       \
    do {                                                                                  \
        static const uint8_t b_[] = {__VA_ARGS__};                                        \
        put((s), b_, sizeof b_);                                                          \
    } while (0)

/* Packets, as the SDM encodes them (libipt's pt_opcodes.h). */
static void psb(sb *s) { PUT(s, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82); }
static void psbend(sb *s) { PUT(s, 0x02, 0x23); }
static void ovf(sb *s) { PUT(s, 0x02, 0xf3); }
static void fup_1000(sb *s) { PUT(s, 0x7d, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00); } /* IPBytes 3: sext-48 0x1000 */
static void mode64(sb *s) { PUT(s, 0x99, 0x01); }                               /* MODE.Exec CS.L: 64-bit */
static void mode32(sb *s) { PUT(s, 0x99, 0x02); }                               /* MODE.Exec CS.D: 32-bit */
static void tnt_t(sb *s) { PUT(s, 0x06); }                                       /* TNT-8 "!" */
static void tnt_tn(sb *s) { PUT(s, 0x0c); }                                      /* TNT-8 "!." */
static void cbr(sb *s) { PUT(s, 0x02, 0x03, 0x20, 0x00); }                       /* CBR ratio 32 */
static void pge_2000(sb *s) { PUT(s, 0x31, 0x00, 0x20); }                        /* TIP.PGE update-16 */
static void tip_3000(sb *s) { PUT(s, 0x2d, 0x00, 0x30); }                        /* TIP update-16 */
static void pad(sb *s) { PUT(s, 0x00); }
static void mtc(sb *s) { PUT(s, 0x59, 0x07); }
static void tsc0(sb *s) { PUT(s, 0x19, 0, 0, 0, 0, 0, 0, 0); }
/* PSB+ with a FUP at 0x1000 and 64-bit mode: tracing on (27 bytes, PSBEND
   at +0x19). */
static void psb_on(sb *s)
{
    psb(s);
    fup_1000(s);
    mode64(s);
    psbend(s);
}

#define ON_EVENTS "enabled [status] ip=0000000000001000\nexec_mode [status] mode=3 ip=0000000000001000\n"
#define ON_QUERIES                                                                        \
    "event enabled [status] ip=0000000000001000\nevent exec_mode [status] mode=3 ip=0000000000001000\n"

static void rep(txt *t, const char *line, unsigned n)
{
    while (n-- > 0) tx_printf(t, "%s", line);
}

/* Runs a layer over s: whole, 1-byte chunks from a reused buffer, 2-way
   splits (every one for short streams, ~64 for long ones) and random
   chunks must give the same records; *out gets the transcript (not
   stopped at a sync error). */
static void layer_text(tl_case *c, const sb *s, const tdec_ipt_config *cfg, int queries, txt *out)
{
    iptc_facts f;
    run a = run0;
    size_t needs = 0, runs = 0;
    const char *bad;
    iptc_facts_scan(&f, s->b, s->n, IPTC_HOOK_NONE, cfg);
    bad = layer_chunks(&a, queries, s->b, s->n, cfg, &f, s->n <= 512 ? 1 : s->n / 64, 4, &needs, &runs);
    TL_TRUE(c, bad == NULL, "%s: %s", queries ? "queries" : "events", bad);
    render(out, &a, queries, 0);
    run_free(&a);
    free(f.tsc);
}

/* The stream's events and queries must be exactly these transcripts. */
static void expect_layers(tl_case *c, const sb *s, const tdec_ipt_config *cfg, const char *want_evt, const char *want_qry)
{
    txt t = {NULL, 0, 0};
    char why[300];
    if (want_evt) {
        layer_text(c, s, cfg, 0, &t);
        if (strcmp(tx_str(&t), want_evt) != 0) {
            first_diff(tx_str(&t), want_evt, why, sizeof why);
            TL_TRUE(c, 0, "events: %s", why);
        }
        tx_free(&t);
    }
    if (want_qry) {
        layer_text(c, s, cfg, 1, &t);
        if (strcmp(tx_str(&t), want_qry) != 0) {
            first_diff(tx_str(&t), want_qry, why, sizeof why);
            TL_TRUE(c, 0, "queries: %s", why);
        }
        tx_free(&t);
    }
}

static sb s;

static void test_endless_ovf(void)
{
    tl_case c;
    txt we = {NULL, 0, 0}, wq = {NULL, 0, 0};
    unsigned i;
    tdec_ipt_config cfg;
    memset(&cfg, 0, sizeof cfg);

    /* pt_evt_decode_ovf: tracing was on, so nothing pending is flushed; the
       state is reset; pt_evt_find_ovf_fup meets the next OVF first ("not a
       PacketEn packet": 0), so each OVF is a standalone overflow without
       IP; the last one meets the end (-pte_eos: the same). */
    tl_begin(&c, "hostile: PSB+ then 5000 OVFs: 5000 overflow events without IP (events, queries)");
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 5000; i++) ovf(&s);
    tx_printf(&we, "SYNC @0\n" ON_EVENTS);
    rep(&we, "overflow ip=<suppressed>\n", 5000);
    tx_printf(&we, "EOS\n");
    tx_printf(&wq, "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES);
    rep(&wq, "event overflow ip=<suppressed>\n", 5000);
    tx_printf(&wq, "EOS\n");
    expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
    tl_end(&c);
    tx_free(&we);
    tx_free(&wq);

    /* No PSB at all: pt_evt_sync_forward finds none (-pte_eos at the end):
       no item, no answer. A PSB+ after them is the first sync point. */
    tl_begin(&c, "hostile: 6000 OVFs without a PSB: nothing, TDEC_END; a PSB+ after them syncs at 0x2ee0");
    s.n = 0;
    for (i = 0; i < 6000; i++) ovf(&s);
    expect_layers(&c, &s, &cfg, "", "");
    psb_on(&s);
    expect_layers(&c, &s, &cfg, "SYNC @2ee0\n" ON_EVENTS "EOS\n",
                  "SYNC @2ee0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "EOS\n");
    tl_end(&c);

    /* OVF then a PSB+: find_ovf_fup stops at the PSB (0): a standalone
       overflow; the PSB+ is read by pt_evt_next (no new sync point), its
       status events follow (mode known again after the reset). */
    tl_begin(&c, "hostile: (OVF, PSB+) 2000 times: overflow, enabled, exec_mode each time, one SYNC");
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 2000; i++) {
        ovf(&s);
        psb_on(&s);
    }
    tx_printf(&we, "SYNC @0\n" ON_EVENTS);
    rep(&we, "overflow ip=<suppressed>\n" ON_EVENTS, 2000);
    tx_printf(&we, "EOS\n");
    tx_printf(&wq, "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES);
    rep(&wq, "event overflow ip=<suppressed>\n" ON_QUERIES, 2000);
    tx_printf(&wq, "EOS\n");
    expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
    tl_end(&c);
    tx_free(&we);
    tx_free(&wq);

    /* An OVF ends a PSB+ like PSBEND (pt_evt_decode_psb, case ppt_ovf):
       status events first, then the overflow; the next PSB is its
       look-ahead's stop. */
    tl_begin(&c, "hostile: (PSB, FUP, MODE.Exec, OVF) 1500 times: OVF ends each PSB+: status events, overflow");
    s.n = 0;
    for (i = 0; i < 1500; i++) {
        psb(&s);
        fup_1000(&s);
        mode64(&s);
        ovf(&s);
    }
    tx_printf(&we, "SYNC @0\n");
    rep(&we, ON_EVENTS "overflow ip=<suppressed>\n", 1500);
    tx_printf(&we, "EOS\n");
    tx_printf(&wq, "SYNC @0 ip=0000000000001000 [st: evp]\n");
    rep(&wq, ON_QUERIES "event overflow ip=<suppressed>\n", 1500);
    tx_printf(&wq, "EOS\n");
    expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
    tl_end(&c);
    tx_free(&we);
    tx_free(&wq);

    /* PSB+ without FUP (tracing off), then an OVF: the disabled status
       event, then find_ovf_fup stops at the next PSB: a standalone
       overflow; nothing was pending to flush. */
    tl_begin(&c, "hostile: (PSB, PSBEND, OVF) 1500 times, tracing off: disabled, overflow each time");
    s.n = 0;
    for (i = 0; i < 1500; i++) {
        psb(&s);
        psbend(&s);
        ovf(&s);
    }
    tx_printf(&we, "SYNC @0\n");
    rep(&we, "disabled [status] ip=<suppressed>\noverflow ip=<suppressed>\n", 1500);
    tx_printf(&we, "EOS\n");
    tx_printf(&wq, "SYNC @0 [st: ips evp]\n");
    rep(&wq, "event disabled [status] ip=<suppressed>\nevent overflow ip=<suppressed>\n", 1500);
    tx_printf(&wq, "EOS\n");
    expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
    tl_end(&c);
    tx_free(&we);
    tx_free(&wq);
}

/* The event decoder's next item (feeding the rest of s and finishing when
   it needs input): its status, the item in *it. */
static tdec_status next_of(tdec_ipt_evt_decoder *e, size_t *fed, tdec_ipt_evt_item *it)
{
    tdec_status st;
    while ((st = tdec_ipt_evt_next(e, it)) == TDEC_NEED_INPUT) {
        if (*fed < s.n) tdec_ipt_evt_feed(e, s.b + *fed, s.n - *fed);
        else tdec_ipt_evt_finish(e);
        *fed = s.n;
    }
    return st;
}

static void test_sync_forward_and_offset(void)
{
    tdec_ipt_evt_decoder *e = &g_evt;
    tdec_ipt_evt_item it;
    tl_case c;
    size_t fed = 0, k;
    uint64_t at = 0;
    s.n = 0;
    psb_on(&s); /* 0x00, PSBEND at 0x19 */
    tnt_t(&s);  /* 0x1b */
    pad(&s);    /* 0x1c */
    pad(&s);    /* 0x1d */
    psb_on(&s); /* 0x1e */
    tnt_t(&s);  /* 0x39 */
    psb_on(&s); /* 0x3a */

    /* libipt's pt_evt_get_offset: the PSBEND while its status events come,
       then after a TNT the next packet, PADs skipped. */
    tl_begin(&c, "evt_offset: the PSBEND during its status events, the packet after a TNT (PADs skipped)");
    tdec_ipt_evt_init(e, NULL);
    TL_EQI(&c, next_of(e, &fed, &it), TDEC_OK);
    TL_EQI(&c, tdec_ipt_evt_offset(e, &at), TDEC_OK);
    TL_EQU(&c, at, 0x19);
    for (k = 0; k < 3; k++) TL_EQI(&c, next_of(e, &fed, &it), TDEC_OK);
    TL_EQU(&c, it.ev.type, TDEC_IPT_EV_TNT);
    TL_EQI(&c, tdec_ipt_evt_offset(e, &at), TDEC_OK);
    TL_EQU(&c, at, 0x1e);
    TL_EQI(&c, tdec_ipt_evt_offset(NULL, &at), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_offset(e, NULL), TDEC_E_ARG);
    tl_end(&c);

    /* Fed a byte at a time, the offset after the TNT waits for the byte
       after the PADs; the events that follow are the same. */
    tl_begin(&c, "evt_offset: in 1-byte feeds it needs input until the byte after the PADs, and changes no event");
    tdec_ipt_evt_init(e, NULL);
    for (fed = 0; fed < 0x1c; fed++) {
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b + fed, 1), TDEC_NEED_INPUT);
        while (tdec_ipt_evt_next(e, &it) == TDEC_OK) continue;
    }
    TL_EQU(&c, it.ev.type, TDEC_IPT_EV_TNT);
    for (; fed < 0x1e; fed++) {
        TL_EQI(&c, tdec_ipt_evt_offset(e, &at), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b + fed, 1), TDEC_NEED_INPUT);
    }
    TL_EQI(&c, tdec_ipt_evt_offset(e, &at), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_evt_feed(e, s.b + fed, 1), TDEC_NEED_INPUT);
    fed++;
    TL_EQI(&c, tdec_ipt_evt_offset(e, &at), TDEC_OK);
    TL_EQU(&c, at, 0x1e);
    TL_EQI(&c, next_of(e, &fed, &it), TDEC_OK);
    TL_TRUE(&c, it.ev.type == TDEC_IPT_EV_ENABLED && (it.ev.flags & TDEC_IPT_EVF_STATUS), "type %u", it.ev.type);
    tl_end(&c);

    /* pt_evt_sync_forward without an error: after the TNT, on to the PSB
       at 0x1e; right after that sync point (its status events not read
       yet), on to the one at 0x3a; after the end, the end again. */
    tl_begin(&c, "evt_sync_forward: from a TNT to the next PSB, from a sync point to the next, the end stays");
    tdec_ipt_evt_init(e, NULL);
    fed = 0;
    for (k = 0; k < 4; k++) next_of(e, &fed, &it);
    TL_EQU(&c, it.ev.type, TDEC_IPT_EV_TNT);
    TL_EQI(&c, tdec_ipt_evt_sync_forward(e), TDEC_NEED_INPUT);
    TL_EQI(&c, next_of(e, &fed, &it), TDEC_OK);
    TL_TRUE(&c, it.kind == TDEC_IPT_ITEM_SYNC && it.offset == 0x1e, "kind %u offset %llx", it.kind,
            (unsigned long long)it.offset);
    TL_EQI(&c, tdec_ipt_evt_sync_forward(e), TDEC_NEED_INPUT);
    TL_EQI(&c, next_of(e, &fed, &it), TDEC_OK);
    TL_TRUE(&c, it.kind == TDEC_IPT_ITEM_SYNC && it.offset == 0x3a, "kind %u offset %llx", it.kind,
            (unsigned long long)it.offset);
    for (k = 0; k < 2; k++) TL_EQI(&c, next_of(e, &fed, &it), TDEC_OK);
    TL_EQI(&c, next_of(e, &fed, &it), TDEC_END);
    TL_EQI(&c, tdec_ipt_evt_sync_forward(e), TDEC_NEED_INPUT);
    TL_EQI(&c, next_of(e, &fed, &it), TDEC_END);
    TL_EQI(&c, tdec_ipt_evt_sync_forward(NULL), TDEC_E_ARG);
    tl_end(&c);
}

static void test_bad_context(void)
{
    tl_case c;
    txt we = {NULL, 0, 0}, wq = {NULL, 0, 0};
    unsigned i;
    tdec_ipt_config cfg;
    memset(&cfg, 0, sizeof cfg);

    /* A MODE.Exec that changes the mode waits for its TIP (evb_tip); a PSB
       with it pending is -pte_bad_context (pt_evt_decode_psb: "no partial
       events across PSB"). pt_evt_next reports it for the call that started
       at the PSBEND (0x19; the MODE.Exec and PSB were read in that call);
       the query decoder, reading one event ahead, reports the offset of its
       event decoder, 0x1d (the PSB). resync() finds the PSB at 0x38. */
    tl_begin(&c, "hostile: a MODE.Exec pending at a PSB: bad context (events @19, queries @1d), resync to 0x38");
    s.n = 0;
    psb_on(&s);  /* 0x00 */
    mode32(&s);  /* 0x1b */
    psb_on(&s);  /* 0x1d */
    psb_on(&s);  /* 0x38 */
    expect_layers(&c, &s, &cfg,
                  "SYNC @0\n" ON_EVENTS "ERROR evt_next @19: unexpected packet context\nSYNC @38\n" ON_EVENTS "EOS\n",
                  "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "ERROR query @1d: unexpected packet context\nSYNC @38 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "EOS\n");
    tl_end(&c);

    /* The same at every PSB: a MODE.Exec before each of 10 more PSB+.
       PSB j is at 0x1d * j. The error at PSB 2i+1 (events: for the call
       that started at the PSBEND before it; queries: at that PSB) makes
       resync skip that PSB; the next sync point is PSB 2i+2. */
    tl_begin(&c, "hostile: a MODE.Exec before each of 10 PSBs: bad context at every other PSB, a sync at the rest");
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 10; i++) {
        mode32(&s);
        psb_on(&s);
    }
    for (i = 0; i <= 10; i += 2) {
        tx_printf(&we, "SYNC @%x\n" ON_EVENTS, 0x1d * i);
        tx_printf(&wq, "SYNC @%x ip=0000000000001000 [st: evp]\n" ON_QUERIES, 0x1d * i);
        if (i < 10) {
            tx_printf(&we, "ERROR evt_next @%x: unexpected packet context\n", 0x1d * i + 0x19);
            tx_printf(&wq, "ERROR query @%x: unexpected packet context\n", 0x1d * (i + 1));
        }
    }
    tx_printf(&we, "EOS\n");
    tx_printf(&wq, "EOS\n");
    expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
    tl_end(&c);
    tx_free(&we);
    tx_free(&wq);

    /* Timing errors other than a bad configuration stop the events
       (libipt's pt_evt_apply_mtc, as pt_qry_apply_mtc in 2.0.5): with
       mtc_freq 17 and a CTC:TSC ratio of 0xffffffff, an MTC 0x81 periods
       after the last, with cycles counted in between, gives the calibration
       an fc too big to shift (pt_tcal_update_mtc: -pte_internal). The
       same MTC without a CYC before it calibrates nothing: no error. */
    tl_begin(&c, "hostile: a calibration error that is not the config's stops the events and queries");
    {
        tdec_ipt_evt_decoder *e = &g_evt;
        tdec_ipt_qry_decoder *q = &g_qry;
        tdec_ipt_evt_item it;
        tdec_ipt_config big;
        tdec_ipt_event ev;
        tdec_status st;
        uint64_t ip;
        uint32_t flags;
        int k, taken;
        memset(&big, 0, sizeof big);
        big.mtc_freq = 17;
        big.cpuid_0x15_eax = 1;
        big.cpuid_0x15_ebx = 0xffffffffu;
        for (k = 0; k < 2; k++) {
            s.n = 0;
            psb_on(&s);
            PUT(&s, 0x59, 0x00); /* MTC 0 */
            if (k == 0) PUT(&s, 0x0b); /* CYC 1 */
            PUT(&s, 0x59, 0x81); /* MTC 0x81 */
            TL_EQI(&c, tdec_ipt_evt_init(e, &big), TDEC_NEED_INPUT);
            TL_EQI(&c, tdec_ipt_evt_feed(e, s.b, s.n), TDEC_NEED_INPUT);
            while ((st = tdec_ipt_evt_next(e, &it)) == TDEC_OK) continue;
            if (st == TDEC_NEED_INPUT && tdec_ipt_evt_finish(e) >= 0)
                while ((st = tdec_ipt_evt_next(e, &it)) == TDEC_OK) continue;
            TL_EQI(&c, st, k == 0 ? TDEC_E_CORRUPT : TDEC_END);
            if (k == 0) TL_EQU(&c, e->st.err_reason, TDEC_IPT_ERR_INTERNAL);
            TL_EQI(&c, tdec_ipt_qry_init(q, &big), TDEC_NEED_INPUT);
            TL_EQI(&c, tdec_ipt_qry_feed(q, s.b, s.n), TDEC_NEED_INPUT);
            TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &flags, NULL), TDEC_OK);
            TL_EQU(&c, ip, 0x1000);
            for (;;) { /* the status events, then the end or the error */
                st = (flags & TDEC_IPT_QF_EVENT_PENDING) ? tdec_ipt_qry_event(q, &ev, &flags)
                                                         : tdec_ipt_qry_cond_branch(q, &taken, &flags);
                if (st == TDEC_NEED_INPUT) st = tdec_ipt_qry_finish(q);
                if (st != TDEC_OK && st != TDEC_NEED_INPUT) break;
            }
            TL_EQI(&c, st, k == 0 ? TDEC_E_CORRUPT : TDEC_END);
            if (k == 0) TL_EQU(&c, q->st.err_reason, TDEC_IPT_ERR_INTERNAL);
        }
    }
    tl_end(&c);

    /* TNT while tracing is off (a PSB+ without FUP: disabled):
       pt_evt_decode_tnt is -pte_bad_context. The query decoder's sync reads
       past the status events (pt_qry_start) and fails: a sync error. */
    tl_begin(&c, "hostile: TNT with tracing off after 200 PSB+: disabled then bad context each time");
    s.n = 0;
    for (i = 0; i < 200; i++) {
        psb(&s);
        psbend(&s);
        tnt_t(&s);
    }
    for (i = 0; i < 200; i++) {
        tx_printf(&we, "SYNC @%x\ndisabled [status] ip=<suppressed>\nERROR evt_next @%x: unexpected packet context\n",
                  i * 19, i * 19 + 16);
        tx_printf(&wq, "ERROR sync @%x: unexpected packet context\n", i * 19 + 16);
    }
    expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
    tl_end(&c);
    tx_free(&we);
    tx_free(&wq);

    /* Errors and resync: after each, sync forward to the next PSB. An
       unknown opcode (02 ff) mid-segment; a TNT inside a mid-stream PSB+
       (pt_evt_decode_psb: default: bad context); a mid-stream PSB+ whose
       MODE.Exec contradicts the running mode (bad status update); a bad
       packet inside the first PSB+ (a sync error). */
    tl_begin(&c, "hostile: resync after errors finds the next PSB (bad opcode, TNT in PSB+, bad status, sync error)");
    s.n = 0;
    psb_on(&s);
    PUT(&s, 0x02, 0xff);
    for (i = 0x40; i < 0x60; i++) { /* bytes 40..5f: whatever they decode to, resync skips them */
        uint8_t byte = (uint8_t)i;
        put(&s, &byte, 1);
    }
    psb_on(&s); /* 0x3d */
    tip_3000(&s);
    expect_layers(&c, &s, &cfg,
                  "SYNC @0\n" ON_EVENTS "ERROR evt_next @19: unknown opcode\nSYNC @3d\n" ON_EVENTS
                  "tip ip=0000000000003000\nEOS\n",
                  "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "ERROR query @1b: unknown opcode\nSYNC @3d ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "indirect 0000000000003000 [st: eos]\nEOS\n");
    s.n = 0;
    psb_on(&s);
    psb(&s);
    tnt_t(&s);
    psbend(&s);
    for (i = 0; i < 5; i++) pad(&s);
    psb_on(&s); /* 0x33 */
    tip_3000(&s);
    expect_layers(&c, &s, &cfg,
                  "SYNC @0\n" ON_EVENTS "ERROR evt_next @19: unexpected packet context\nSYNC @33\n" ON_EVENTS
                  "tip ip=0000000000003000\nEOS\n",
                  "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "ERROR query @2b: unexpected packet context\nSYNC @33 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "indirect 0000000000003000 [st: eos]\nEOS\n");
    s.n = 0;
    psb_on(&s);
    psb(&s);
    fup_1000(&s);
    mode32(&s);
    psbend(&s);
    psb_on(&s); /* 0x36 */
    tip_3000(&s);
    expect_layers(&c, &s, &cfg,
                  "SYNC @0\n" ON_EVENTS "ERROR evt_next @19: bad status update\nSYNC @36\n" ON_EVENTS
                  "tip ip=0000000000003000\nEOS\n",
                  "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "ERROR query @32: bad status update\nSYNC @36 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "indirect 0000000000003000 [st: eos]\nEOS\n");
    s.n = 0;
    psb(&s);
    tnt_t(&s);
    psbend(&s);
    psb_on(&s); /* 0x13 */
    tip_3000(&s);
    expect_layers(&c, &s, &cfg,
                  "ERROR sync @10: unexpected packet context\nSYNC @13\n" ON_EVENTS "tip ip=0000000000003000\nEOS\n",
                  "ERROR sync @10: unexpected packet context\nSYNC @13 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "indirect 0000000000003000 [st: eos]\nEOS\n");
    tl_end(&c);
}

static void test_limits(void)
{
    tl_case c;
    txt we = {NULL, 0, 0}, wq = {NULL, 0, 0};
    unsigned i, n;
    tdec_ipt_config cfg;
    memset(&cfg, 0, sizeof cfg);

    /* libipt's event queue is a ring of 16 with one gap (pt_evq_enqueue):
       14 pending events. Each MODE.Exec queues one (an exec_mode when the
       mode changes, else an internal placeholder; pt_evt_decode_mode_exec)
       bound to the TIP. 14 then a TIP: tip, then the 14 exec_mode events
       at the TIP's IP (placeholders dropped); the 15th is -pte_nomem for
       the call that started at the PSBEND (0x19). */
    tl_begin(&c, "hostile: 14 MODE.Exec then TIP: tip + 14 exec_mode (or none when unchanged); 15 or 20: NOMEM");
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 14; i++) (i % 2 ? mode64 : mode32)(&s);
    tip_3000(&s);
    tx_printf(&we, "SYNC @0\n" ON_EVENTS "tip ip=0000000000003000\n");
    tx_printf(&wq, "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "indirect 0000000000003000 [st: evp]\n");
    for (i = 0; i < 14; i++) {
        tx_printf(&we, "exec_mode mode=%u ip=0000000000003000\n", i % 2 ? 3u : 2u);
        tx_printf(&wq, "event exec_mode mode=%u ip=0000000000003000\n", i % 2 ? 3u : 2u);
    }
    tx_printf(&we, "EOS\n");
    tx_printf(&wq, "EOS\n");
    expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
    tx_free(&we);
    tx_free(&wq);
    s.n = 0;
    psb_on(&s);
    for (i = 0; i < 14; i++) mode64(&s);
    tip_3000(&s);
    expect_layers(&c, &s, &cfg, "SYNC @0\n" ON_EVENTS "tip ip=0000000000003000\nEOS\n",
                  "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "indirect 0000000000003000 [st: eos]\nEOS\n");
    for (n = 15; n <= 20; n += 5) {
        int same;
        for (same = 0; same < 2; same++) {
            s.n = 0;
            psb_on(&s);
            for (i = 0; i < n; i++) (same || i % 2 ? mode64 : mode32)(&s);
            tip_3000(&s);
            expect_layers(&c, &s, &cfg, "SYNC @0\n" ON_EVENTS "ERROR evt_next @19: out of memory\n",
                          "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "ERROR query @37: out of memory\n");
        }
    }
    tl_end(&c);

    /* OVF, CBRs, then what decides the look-ahead. libipt
       (pt_evt_decode_ovf): a FUP first (CBR is skipped by
       find_ovf_fup): the overflow waits for the FUP (evb_fup_bound), the
       CBRs come first as events; a TIP.PGE: a standalone overflow without
       IP first, then the CBRs, then enabled; the end: the same without
       enabled. The decoder keeps the CBRs and the deciding packet (or the
       end) during the look-ahead: 15 CBRs fit in TDEC_IPT_EVT_HOLD (16). */
    tl_begin(&c, "look-ahead: OVF, 15 CBRs, then FUP / TIP.PGE / the end: libipt's events");
    for (n = 0; n < 3; n++) {
        s.n = 0;
        psb_on(&s);
        ovf(&s);
        for (i = 0; i < 15; i++) cbr(&s);
        if (n == 0) fup_1000(&s);
        if (n == 1) pge_2000(&s);
        tx_printf(&we, "SYNC @0\n" ON_EVENTS "%s", n ? "overflow ip=<suppressed>\n" : "");
        tx_printf(&wq, "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "%s",
                  n ? "event overflow ip=<suppressed>\n" : "");
        rep(&we, "cbr ratio=32\n", 15);
        rep(&wq, "event cbr ratio=32\n", 15);
        if (n == 0) {
            tx_printf(&we, "overflow ip=0000000000001000\n");
            tx_printf(&wq, "event overflow ip=0000000000001000\n");
        }
        if (n == 1) {
            tx_printf(&we, "enabled ip=0000000000002000\n");
            tx_printf(&wq, "event enabled ip=0000000000002000\n");
        }
        tx_printf(&we, "EOS\n");
        tx_printf(&wq, "EOS\n");
        expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
        tx_free(&we);
        tx_free(&wq);
    }
    tl_end(&c);

    /* Timing packets and PADs are applied as they come, not kept: 15 CBRs
       among 765 PADs, 150 MTCs and 15 TSCs still fit; the CBR events carry
       the time (tsc 0: the TSCs are 0). */
    tl_begin(&c, "look-ahead: PAD, MTC, TSC are not kept: OVF, 15 x (CBR, 50 PAD, 10 MTC, TSC), 1000 PAD, FUP");
    s.n = 0;
    psb_on(&s);
    ovf(&s);
    for (i = 0; i < 15; i++) {
        unsigned j;
        cbr(&s);
        for (j = 0; j < 50; j++) pad(&s);
        for (j = 0; j < 10; j++) mtc(&s);
        tsc0(&s);
    }
    for (i = 0; i < 1000; i++) pad(&s);
    fup_1000(&s);
    tx_printf(&we, "SYNC @0\n" ON_EVENTS "cbr ratio=32\n");
    rep(&we, "cbr ratio=32 tsc=0 lost=0/0\n", 14);
    tx_printf(&we, "overflow ip=0000000000001000\nEOS\n");
    expect_layers(&c, &s, &cfg, tx_str(&we), NULL);
    tl_end(&c);
    tx_free(&we);

    /* The decoder's own limit (docs/ipt.md "Limits": "more than 16 kept
       packets in one look-ahead (say 16 CBRs between an OVF and its FUP,
       which is kept too) is TDEC_IPT_ERR_NOMEM"; libipt has none and would
       decode these): 16 CBRs plus the deciding packet are 17 kept packets:
       TDEC_IPT_ERR_NOMEM, reported for the call that started at the
       PSBEND. resync() then searches from the last packet read (docs/ipt.md:
       libipt would search from the OVF): with 16 CBRs that is the PSB that
       did not fit, so there is no further sync point; with 17 or 20, the
       17th CBR, and the PSB after the CBRs follows. 16 CBRs and then the
       end are only 16 packets: see the next check. The query decoder
       reports the error at the OVF (0x1b). */
    tl_begin(&c, "look-ahead limit: OVF then 16 CBRs before FUP / TIP.PGE / PSB, or 17 or 20 before anything: "
                 "TDEC_IPT_ERR_NOMEM (events, queries)");
    for (n = 16; n <= 20; n += n == 17 ? 3 : 1) { /* 16, 17, 20 */
        unsigned k;
        for (k = 0; k < 4; k++) {
            size_t psb_at;
            if (n == 16 && k == 3) continue;
            s.n = 0;
            psb_on(&s);
            ovf(&s);
            for (i = 0; i < n; i++) cbr(&s);
            psb_at = s.n;
            if (k == 0) fup_1000(&s);
            if (k == 1) pge_2000(&s);
            if (k == 2) psb_on(&s);
            tx_printf(&we, "SYNC @0\n" ON_EVENTS "ERROR evt_next @19: out of memory\n");
            tx_printf(&wq, "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "ERROR query @1b: out of memory\n");
            if (k == 2 && n > 16) { /* 0x61 for 17 */
                tx_printf(&we, "SYNC @%zx\n" ON_EVENTS "EOS\n", psb_at);
                tx_printf(&wq, "SYNC @%zx ip=0000000000001000 [st: evp]\n" ON_QUERIES "EOS\n", psb_at);
            }
            expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
            tx_free(&we);
            tx_free(&wq);
        }
    }
    tl_end(&c);

    /* OVF, 16 CBRs, then the end of the trace (or a packet cut by it): the
       look-ahead keeps the 16 CBRs, and the end is not a packet, so this is
       not "more than 16 kept packets" (docs/ipt.md) and must decode as
       libipt does: the end is "tracing off", a standalone overflow without
       IP, then the 16 cbr events. The same with a decode error (an unknown
       opcode) after the 16 CBRs: libipt's find_ovf_fup fails with it, the
       call that started at the PSBEND reports it (the query decoder: at
       the OVF), and resync finds the PSB after it. (libipt master's
       transcripts for these bytes.) */
    tl_begin(&c,
             "look-ahead limit: OVF, 16 CBRs, then the end, a cut packet or a decode error: fits, libipt's results");
    for (n = 0; n < 2; n++) {
        s.n = 0;
        psb_on(&s);
        ovf(&s);
        for (i = 0; i < 16; i++) cbr(&s);
        if (n == 1) PUT(&s, 0x02, 0x03); /* a CBR cut by the end */
        tx_printf(&we, "SYNC @0\n" ON_EVENTS "overflow ip=<suppressed>\n");
        rep(&we, "cbr ratio=32\n", 16);
        tx_printf(&we, "EOS\n");
        tx_printf(&wq, "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "event overflow ip=<suppressed>\n");
        rep(&wq, "event cbr ratio=32\n", 16);
        tx_printf(&wq, "EOS\n");
        expect_layers(&c, &s, &cfg, tx_str(&we), tx_str(&wq));
        tx_free(&we);
        tx_free(&wq);
    }
    s.n = 0;
    psb_on(&s);
    ovf(&s);
    for (i = 0; i < 16; i++) cbr(&s);
    PUT(&s, 0x02, 0xff); /* 0x5d */
    psb_on(&s);          /* 0x5f */
    expect_layers(&c, &s, &cfg,
                  "SYNC @0\n" ON_EVENTS "ERROR evt_next @19: unknown opcode\nSYNC @5f\n" ON_EVENTS "EOS\n",
                  "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES
                  "ERROR query @1b: unknown opcode\nSYNC @5f ip=0000000000001000 [st: evp]\n" ON_QUERIES "EOS\n");
    tl_end(&c);
}

static void test_lookahead_api(void)
{
    tl_case c;
    tdec_ipt_config cfg;
    size_t k;
    memset(&cfg, 0, sizeof cfg);

    /* An OVF at the end of the input: find_ovf_fup needs the next packet.
       Fed whole, next() gives the status events and then waits
       (TDEC_NEED_INPUT, and again when asked again); finish() decides it
       (libipt: -pte_eos, a standalone overflow without IP). Fed a FUP
       instead, the same overflow is at the FUP's IP. */
    tl_begin(&c, "look-ahead: an OVF at the end waits (NEED_INPUT) until finish() or the next chunk decides");
    {
        tdec_ipt_evt_decoder *e = &g_evt;
        tdec_ipt_evt_item it;
        int got = 0, ended;
        for (ended = 0; ended < 2; ended++) {
            s.n = 0;
            psb_on(&s);
            ovf(&s);
            TL_EQI(&c, tdec_ipt_evt_init(e, NULL), TDEC_NEED_INPUT);
            TL_EQI(&c, tdec_ipt_evt_feed(e, s.b, s.n), TDEC_NEED_INPUT);
            got = 0;
            while (tdec_ipt_evt_next(e, &it) == TDEC_OK) got++;
            TL_EQI(&c, got, 3); /* SYNC, enabled, exec_mode */
            TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
            if (ended) {
                TL_EQI(&c, tdec_ipt_evt_finish(e), TDEC_NEED_INPUT);
            } else {
                static const uint8_t fup[] = {0x7d, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00};
                TL_EQI(&c, tdec_ipt_evt_feed(e, fup, 1), TDEC_NEED_INPUT);
                TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT); /* the FUP is not complete */
                TL_EQI(&c, tdec_ipt_evt_feed(e, fup + 1, sizeof fup - 1), TDEC_NEED_INPUT);
            }
            TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK);
            TL_EQU(&c, it.kind, TDEC_ITEM_RECORD);
            TL_EQI(&c, it.ev.type, TDEC_IPT_EV_OVERFLOW);
            if (ended) {
                TL_TRUE(&c, it.ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED, "overflow at the end has an IP");
            } else {
                TL_EQU(&c, it.ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED, 0);
                TL_EQU(&c, it.ev.ip, 0x1000);
                TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
                TL_EQI(&c, tdec_ipt_evt_finish(e), TDEC_END); /* nothing is left for the end to decide */
            }
            TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_END);
            TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_END);
        }
    }
    tl_end(&c);

    /* BDM70 (pt_evt_check_bdm70): a PSB+ with a FUP and the next relevant
       packet a TIP.PGE means tracing was off: disabled (status), exec_mode
       without IP, then enabled at the PGE. Without the erratum: enabled
       (status) at the FUP's IP. The look-ahead runs from the header FUP
       past PSBEND: at every split point (every chunk boundary inside it)
       the result is the same (expect_layers checks every split). */
    tl_begin(&c, "errata: BDM70 look-ahead across chunk boundaries (every split, 1-byte, random), with and without");
    s.n = 0;
    psb_on(&s);
    pge_2000(&s);
    tip_3000(&s);
    expect_layers(&c, &s, &cfg, "SYNC @0\n" ON_EVENTS "enabled ip=0000000000002000\ntip ip=0000000000003000\nEOS\n", NULL);
    cfg.errata |= TDEC_IPT_ERRATUM_BDM70;
    expect_layers(&c, &s, &cfg,
                  "SYNC @0\ndisabled [status] ip=<suppressed>\nexec_mode [status] mode=3 ip=<suppressed>\n"
                  "enabled ip=0000000000002000\ntip ip=0000000000003000\nEOS\n",
                  "SYNC @0 [st: ips evp]\nevent disabled [status] ip=<suppressed>\n"
                  "event exec_mode [status] mode=3 ip=<suppressed>\nevent enabled ip=0000000000002000\n"
                  "indirect 0000000000003000 [st: eos]\nEOS\n");
    /* Fed up to the PSBEND, the sync point and its status events wait for
       the look-ahead (the sync is pt_evt_sync_forward, which runs the BDM70
       check); the PGE's first byte is not enough either; with the PGE the
       SYNC item and "disabled" come out. */
    {
        tdec_ipt_evt_decoder *e = &g_evt;
        tdec_ipt_evt_item it;
        TL_EQI(&c, tdec_ipt_evt_init(e, &cfg), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b, 0x1b), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b + 0x1b, 1), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b + 0x1c, s.n - 0x1c), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK);
        TL_EQU(&c, it.kind, TDEC_IPT_ITEM_SYNC);
        TL_EQU(&c, it.offset, 0);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK);
        TL_EQI(&c, it.ev.type, TDEC_IPT_EV_DISABLED);
        TL_TRUE(&c, (it.ev.flags & (TDEC_IPT_EVF_STATUS | TDEC_IPT_EVF_IP_SUPPRESSED)) ==
                        (TDEC_IPT_EVF_STATUS | TDEC_IPT_EVF_IP_SUPPRESSED),
                "disabled: flags %x", it.ev.flags);
    }
    /* With the erratum but no PGE (the look-ahead meets a TIP, or the
       end): tracing was on. */
    s.n = 0;
    psb_on(&s);
    tip_3000(&s);
    expect_layers(&c, &s, &cfg, "SYNC @0\n" ON_EVENTS "tip ip=0000000000003000\nEOS\n", NULL);
    s.n = 0;
    psb_on(&s);
    expect_layers(&c, &s, &cfg, "SYNC @0\n" ON_EVENTS "EOS\n",
                  "SYNC @0 ip=0000000000001000 [st: evp]\n" ON_QUERIES "EOS\n");
    (void)k;
    tl_end(&c);
}

/* ---- 4 (cont.): queries asked in any order ------------------------------------------------ */

/* Runs a script of queries over s fed whole (s: sync, c: cond_branch, i:
   indirect_branch, e: event); a TDEC_NEED_INPUT is answered with finish()
   and the same query is asked again. One line per query: "c ok taken
   st=..", "i ok 3000 st=..", "e ok <type> st=..", or "c SEQ" (libipt's
   -pte_bad_query), "c END" (-pte_eos), "c ERR <reason>". */
static void qscript(const sb *st_in, const tdec_ipt_config *cfg, const char *script, txt *out)
{
    tdec_ipt_qry_decoder *q = &g_qry;
    const char *p;
    int finished = 0;
    tdec_ipt_qry_init(q, cfg);
    tdec_ipt_qry_feed(q, st_in->b, st_in->n);
    for (p = script; *p; p++) {
        uint64_t ip = 0;
        int taken = 0;
        uint32_t flags = 0;
        tdec_ipt_event ev;
        tdec_status r;
        memset(&ev, 0, sizeof ev);
        for (;;) {
            switch (*p) {
            case 's': r = tdec_ipt_qry_sync(q, &ip, &flags, NULL); break;
            case 'c': r = tdec_ipt_qry_cond_branch(q, &taken, &flags); break;
            case 'i': r = tdec_ipt_qry_indirect_branch(q, &ip, &flags); break;
            default: r = tdec_ipt_qry_event(q, &ev, &flags); break;
            }
            if (r != TDEC_NEED_INPUT || finished) break;
            finished = 1;
            tdec_ipt_qry_finish(q);
        }
        if (r == TDEC_E_SEQUENCE) tx_printf(out, "%c SEQ\n", *p);
        else if (r == TDEC_END) tx_printf(out, "%c END\n", *p);
        else if (r == TDEC_E_CORRUPT) tx_printf(out, "%c ERR %s\n", *p, tdec_ipt_reason_str(q->st.err_reason));
        else if (r != TDEC_OK) tx_printf(out, "%c status %d\n", *p, r);
        else {
            tx_printf(out, "%c ok", *p);
            if (*p == 'c') tx_printf(out, " %s", taken ? "taken" : "not-taken");
            if ((*p == 'i' || *p == 's') && !(flags & TDEC_IPT_QF_IP_SUPPRESSED)) tx_printf(out, " %llx", (unsigned long long)ip);
            if (*p == 'e') tx_printf(out, " %s", tdec_ipt_event_str(ev.type));
            render_qstatus(out, flags);
            tx_printf(out, "\n");
        }
        /* -pte_bad_query is not an error of the decoder */
        if (r == TDEC_E_SEQUENCE && (q->st.err != TDEC_OK || q->st.err_reason != 0))
            tx_printf(out, "(sticky: err %d reason %u)\n", q->st.err, q->st.err_reason);
    }
}

static void expect_script(tl_case *c, const sb *st_in, const char *script, const char *want)
{
    txt t = {NULL, 0, 0};
    char why[300];
    qscript(st_in, NULL, script, &t);
    if (strcmp(tx_str(&t), want) != 0) {
        first_diff(tx_str(&t), want, why, sizeof why);
        TL_TRUE(c, 0, "script %s: %s", script, why);
    }
    tx_free(&t);
}

static void test_query_order(void)
{
    tl_case c;
    static sb q2;
    cc_sched whole = {NULL, 0, 0, 0}, ones = {NULL, 0, 1, 0};
    run a = run0, b = run0;

    /* PSB+ (tracing on), TNT "!.", TIP 0x3000. libipt (pt_qry_cond_branch,
       _indirect_branch, _event): a branch query while an event is pending,
       an event query while the next item is a TNT or TIP or TNT bits are
       cached, cond_branch with the TIP next, are -pte_bad_query; nothing
       changes, the right query then works. Every answer below is libipt
       master's for the same calls. */
    s.n = 0;
    psb_on(&s);
    tnt_tn(&s);
    tip_3000(&s);
    tl_begin(&c, "queries: wrong questions are TDEC_E_SEQUENCE (libipt's -pte_bad_query), change nothing, not sticky");
    expect_script(&c, &s, "ceisceiceecciccc",
                  "c SEQ\ne SEQ\ni SEQ\n" /* before sync (libipt: -pte_nosync) */
                  "s ok 1000 [st: evp]\n"
                  "c SEQ\n"
                  "e ok enabled [st: evp]\n"
                  "i SEQ\nc SEQ\n"
                  "e ok exec_mode [st:]\n"
                  "e SEQ\n" /* a TNT is next */
                  "c ok taken [st:]\n"
                  "c ok not-taken [st:]\n"
                  "i ok 3000 [st: eos]\n"
                  "c END\nc END\nc END\n");
    expect_script(&c, &s, "seecececcei",
                  "s ok 1000 [st: evp]\ne ok enabled [st: evp]\ne ok exec_mode [st:]\n"
                  "c ok taken [st:]\n"
                  "e SEQ\n" /* a TNT bit is cached */
                  "c ok not-taken [st:]\n"
                  "e SEQ\n" /* the TIP is next */
                  "c SEQ\nc SEQ\ne SEQ\n"
                  "i ok 3000 [st: eos]\n");
    /* The TIP right after the events: indirect_branch caches the TNT first
       (pt_qry_cache_tnt) and answers; the TNT bits follow. */
    expect_script(&c, &s, "seeicccc",
                  "s ok 1000 [st: evp]\ne ok enabled [st: evp]\ne ok exec_mode [st:]\n"
                  "i ok 3000 [st:]\n"
                  "c ok taken [st:]\nc ok not-taken [st: eos]\nc END\nc END\n");
    tl_end(&c);

    /* libipt's pt_qry_indirect_branch reports the deferred -pte_eos (the
       end after the TIP) but does not touch the TNT cache: the cached bit
       is still answered by pt_qry_cond_branch, with pts_eos. */
    tl_begin(&c, "queries: indirect_branch at the end with a TNT bit cached: END, then the bit (libipt)");
    expect_script(&c, &s, "seeicicc",
                  "s ok 1000 [st: evp]\ne ok enabled [st: evp]\ne ok exec_mode [st:]\n"
                  "i ok 3000 [st:]\nc ok taken [st:]\n"
                  "i END\n"
                  "c ok not-taken [st: eos]\n"
                  "c END\n");
    expect_script(&c, &s, "seeiciec",
                  "s ok 1000 [st: evp]\ne ok enabled [st: evp]\ne ok exec_mode [st:]\n"
                  "i ok 3000 [st:]\nc ok taken [st:]\n"
                  "i END\n"
                  "e SEQ\n" /* pt_qry_event: TNT bits left, -pte_bad_query before the deferred end */
                  "c ok not-taken [st: eos]\n");
    tl_end(&c);

    /* Two TNT packets, then the TIP. libipt's TNT cache appends a TNT event
       to bits still cached (pt_tnt_cache_add): after one bit of the first
       TNT, indirect_branch caches the second TNT and answers the TIP; the
       remaining bits come in order, the last with pts_eos. */
    q2.n = 0;
    psb_on(&q2);
    tnt_tn(&q2);
    tnt_t(&q2);
    tip_3000(&q2);
    tl_begin(&c, "queries: indirect_branch with TNT bits cached and another TNT before the TIP (libipt appends it)");
    expect_script(&c, &q2, "seeciccc",
                  "s ok 1000 [st: evp]\ne ok enabled [st: evp]\ne ok exec_mode [st:]\n"
                  "c ok taken [st:]\n"
                  "i ok 3000 [st:]\n"
                  "c ok not-taken [st:]\nc ok taken [st: eos]\nc END\n");
    /* With an empty cache and two TNTs before the TIP, libipt's
       indirect_branch caches the first TNT, sees another TNT and returns
       -pte_bad_query: not an error, but the first TNT is now cached (its
       bits are the next cond answers); the next indirect_branch caches the
       second... here the third TNT and answers the TIP. */
    q2.n = 0;
    psb_on(&q2);
    tnt_tn(&q2);
    tnt_t(&q2);
    tnt_tn(&q2);
    tip_3000(&q2);
    expect_script(&c, &q2, "seeicccicci",
                  "s ok 1000 [st: evp]\ne ok enabled [st: evp]\ne ok exec_mode [st:]\n"
                  "i SEQ\n"
                  "c ok taken [st:]\nc ok not-taken [st:]\n" /* the first TNT, cached by the failed query */
                  "c ok taken [st:]\n"                       /* the second */
                  "i ok 3000 [st:]\n"                        /* caches the third, answers the TIP */
                  "c ok taken [st:]\nc ok not-taken [st: eos]\ni END\n");
    q2.n = 0;
    psb_on(&q2);
    tnt_tn(&q2);
    tnt_t(&q2);
    tip_3000(&q2);
    /* The drain order (all bits first) is answered by both. */
    expect_script(&c, &q2, "seeccci", "s ok 1000 [st: evp]\ne ok enabled [st: evp]\ne ok exec_mode [st:]\n"
                                      "c ok taken [st:]\nc ok not-taken [st:]\nc ok taken [st:]\ni ok 3000 [st: eos]\n");
    tl_end(&c);

    /* A query that needs input it does not have says TDEC_NEED_INPUT and
       changes nothing: the TIP's status needs what follows it (only the
       end tells), asked twice it says so twice; after finish() the answer
       is the whole-buffer one. Fed 1 byte at a time, asking again after
       each feed gives the whole-buffer drain. */
    tl_begin(&c, "queries: TDEC_NEED_INPUT changes nothing (asked again; 1-byte feeds == whole)");
    {
        tdec_ipt_qry_decoder *q = &g_qry;
        uint64_t ip = 0;
        uint32_t st = 0;
        int taken = -1;
        tdec_ipt_event ev;
        TL_EQI(&c, tdec_ipt_qry_init(q, NULL), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &st, NULL), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &st, NULL), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_feed(q, s.b, s.n), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_finish(q), TDEC_E_SEQUENCE); /* the fed bytes are not used up yet */
        TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &st, NULL), TDEC_OK);
        TL_EQU(&c, ip, 0x1000);
        TL_EQU(&c, st, TDEC_IPT_QF_EVENT_PENDING);
        TL_EQI(&c, tdec_ipt_qry_event(q, &ev, &st), TDEC_OK);
        TL_EQI(&c, tdec_ipt_qry_event(q, &ev, &st), TDEC_OK);
        TL_EQI(&c, ev.type, TDEC_IPT_EV_EXEC_MODE);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_OK);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_OK);
        TL_EQI(&c, taken, 0);
        ip = 0;
        TL_EQI(&c, tdec_ipt_qry_indirect_branch(q, &ip, &st), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_indirect_branch(q, &ip, &st), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_E_SEQUENCE);
        TL_EQU(&c, ip, 0);
        TL_EQI(&c, tdec_ipt_qry_finish(q), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_indirect_branch(q, &ip, &st), TDEC_OK);
        TL_EQU(&c, ip, 0x3000);
        TL_EQU(&c, st, TDEC_IPT_QF_EOS);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_END);
        TL_EQI(&c, q->st.err, TDEC_OK);
    }
    run_layer(&a, 1, s.b, s.n, NULL, NULL, &whole, CC_FEED_FRESH);
    run_layer(&b, 1, s.b, s.n, NULL, NULL, &ones, CC_FEED_REUSED);
    TL_TRUE(&c, a.why[0] == 0 && b.why[0] == 0, "%s%s", a.why, b.why);
    TL_TRUE(&c, run_diff(&a, &b) == (size_t)-1, "1-byte drain differs at %zu", run_diff(&a, &b));
    TL_EQU(&c, a.n, 1 + 2 + 2 + 1 + 1);
    TL_TRUE(&c, b.need_input_answers >= s.n, "only %zu NEED_INPUT answers over %zu bytes", b.need_input_answers, s.n);
    run_free(&a);
    run_free(&b);
    tl_end(&c);
}

/* ---- 5: the API ----------------------------------------------------------------------- */

static void test_api(void)
{
    tl_case c;
    tdec_ipt_evt_item it;
    tdec_ipt_event ev;
    uint64_t ip = 0, tsc;
    uint32_t cbr, st, why;
    int taken;
    tl_begin(&c, "api: NULL arguments are TDEC_E_ARG; calls before sync and resync without an error are TDEC_E_SEQUENCE");
    TL_EQI(&c, tdec_ipt_evt_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_next(NULL, &it), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_feed(NULL, "", 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_finish(NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_resync(NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_init(&g_evt, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_evt_next(&g_evt, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_feed(&g_evt, NULL, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_evt_resync(&g_evt), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_qry_init(NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_feed(NULL, "", 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_finish(NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_resync(NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_sync(NULL, &ip, &st, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_cond_branch(NULL, &taken, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_indirect_branch(NULL, &ip, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_event(NULL, &ev, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_init(&g_qry, NULL), TDEC_NEED_INPUT);
    TL_EQI(&c, tdec_ipt_qry_feed(&g_qry, NULL, 1), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_sync(&g_qry, NULL, &st, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_sync(&g_qry, &ip, NULL, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_cond_branch(&g_qry, NULL, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_cond_branch(&g_qry, &taken, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_indirect_branch(&g_qry, NULL, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_indirect_branch(&g_qry, &ip, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_event(&g_qry, NULL, &st), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_event(&g_qry, &ev, NULL), TDEC_E_ARG);
    TL_EQI(&c, tdec_ipt_qry_time(NULL, &tsc, NULL, NULL, &why), TDEC_E_ARG);
    TL_EQU(&c, why, TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, tdec_ipt_qry_time(&g_qry, NULL, NULL, NULL, &why), TDEC_E_ARG);
    TL_EQU(&c, why, TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, tdec_ipt_qry_time(&g_qry, &tsc, NULL, NULL, &why), TDEC_E_SEQUENCE);
    TL_EQU(&c, why, TDEC_IPT_ERR_NO_TIME);
    TL_EQI(&c, tdec_ipt_qry_cbr(NULL, &cbr, &why), TDEC_E_ARG);
    TL_EQU(&c, why, TDEC_IPT_ERR_INVALID);
    TL_EQI(&c, tdec_ipt_qry_cbr(&g_qry, NULL, NULL), TDEC_E_ARG);
    tdec_ipt_evt_reset(NULL); /* no effect, no crash */
    tdec_ipt_qry_reset(NULL);
    TL_EQI(&c, tdec_ipt_qry_cbr(&g_qry, &cbr, &why), TDEC_E_SEQUENCE);
    TL_EQU(&c, why, TDEC_IPT_ERR_NO_CBR);
    TL_EQI(&c, tdec_ipt_qry_resync(&g_qry), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_qry_event(&g_qry, &ev, &st), TDEC_E_SEQUENCE); /* before sync */
    TL_EQI(&c, tdec_ipt_qry_cond_branch(&g_qry, &taken, &st), TDEC_E_SEQUENCE);
    TL_EQI(&c, tdec_ipt_qry_indirect_branch(&g_qry, &ip, &st), TDEC_E_SEQUENCE);
    TL_TRUE(&c, strcmp(tdec_ipt_event_str(TDEC_IPT_EV_ENABLED), "enabled") == 0 &&
                    strcmp(tdec_ipt_event_str(TDEC_IPT_EV_ASYNC_BRANCH), "async_branch") == 0 &&
                    strcmp(tdec_ipt_event_str(TDEC_IPT_EV_SYSCALL), "syscall") == 0,
            "event names");
    tl_end(&c);

    /* The input contract (as tdec_ipt_feed / tdec_ipt_finish): feed() and
       finish() while fed bytes are unread, and feed() after finish(), are
       TDEC_E_SEQUENCE; finish() again is harmless; after the end every
       call says TDEC_END. */
    tl_begin(&c, "api: feed/finish with bytes unread, feed after finish: TDEC_E_SEQUENCE; after the end: TDEC_END");
    {
        static const uint8_t half_psb[4] = {0x02, 0x82, 0x02, 0x82};
        tdec_ipt_evt_decoder *e = &g_evt;
        tdec_ipt_qry_decoder *q = &g_qry;
        TL_EQI(&c, tdec_ipt_evt_init(e, NULL), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, half_psb, 2), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, half_psb, 2), TDEC_E_SEQUENCE); /* unread */
        TL_EQI(&c, tdec_ipt_evt_finish(e), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, half_psb + 2, 0), TDEC_NEED_INPUT); /* nothing */
        TL_EQI(&c, tdec_ipt_evt_feed(e, half_psb + 2, 2), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_finish(e), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_finish(e), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, half_psb, 2), TDEC_E_SEQUENCE); /* after finish() */
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_END); /* a cut PSB: no sync point */
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_END);
        TL_EQI(&c, tdec_ipt_evt_resync(e), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_qry_init(q, NULL), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_feed(q, half_psb, 4), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_feed(q, half_psb, 4), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_qry_finish(q), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &st, NULL), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_finish(q), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_qry_feed(q, half_psb, 4), TDEC_E_SEQUENCE);
        TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &st, NULL), TDEC_END); /* no PSB */
        TL_EQI(&c, tdec_ipt_qry_sync(q, &ip, &st, NULL), TDEC_END);
        TL_EQI(&c, tdec_ipt_qry_cond_branch(q, &taken, &st), TDEC_END);
        TL_EQI(&c, tdec_ipt_qry_indirect_branch(q, &ip, &st), TDEC_END);
        TL_EQI(&c, tdec_ipt_qry_event(q, &ev, &st), TDEC_END);
        TL_EQI(&c, tdec_ipt_qry_resync(q), TDEC_E_SEQUENCE);
        TL_EQI(&c, q->st.err, TDEC_OK);
    }
    tl_end(&c);

    /* Errors are sticky until resync (evt), reset() gives the state after
       init(). */
    tl_begin(&c, "api: an event-decoder error is sticky until resync(); reset() restarts");
    {
        tdec_ipt_evt_decoder *e = &g_evt;
        s.n = 0;
        psb(&s);
        psbend(&s);
        tnt_t(&s); /* bad context */
        psb_on(&s);
        TL_EQI(&c, tdec_ipt_evt_init(e, NULL), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b, s.n), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK); /* SYNC */
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK); /* disabled */
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_E_CORRUPT);
        TL_EQU(&c, e->st.err_reason, TDEC_IPT_ERR_BAD_CONTEXT);
        TL_EQU(&c, e->st.err_offset, 0x10);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_E_CORRUPT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_E_CORRUPT);
        TL_EQI(&c, tdec_ipt_evt_resync(e), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK);
        TL_EQU(&c, it.kind, TDEC_IPT_ITEM_SYNC);
        TL_EQU(&c, it.offset, 0x13);
        tdec_ipt_evt_reset(e);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_feed(e, s.b, s.n), TDEC_NEED_INPUT);
        TL_EQI(&c, tdec_ipt_evt_next(e, &it), TDEC_OK);
        TL_EQU(&c, it.kind, TDEC_IPT_ITEM_SYNC);
        TL_EQU(&c, it.offset, 0);
    }
    tl_end(&c);
    printf("# sizeof: tdec_ipt_evt_decoder %zu, tdec_ipt_qry_decoder %zu, tdec_ipt_event %zu, tdec_ipt_evt_item %zu\n",
           sizeof(tdec_ipt_evt_decoder), sizeof(tdec_ipt_qry_decoder), sizeof(tdec_ipt_event),
           sizeof(tdec_ipt_evt_item));
}

/* As in tests/unit/ipt.c: the repository's copy of the ptt vectors if it
   has INDEX.tsv, else the shared set. */
static const char *const vector_dirs[3] = {"tests/data/ipt", "tests/data/ipt/ptt",
                                           "../shared/formats/ipt/vectors/ptt"};

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    unsigned i;
    if (dir == NULL) dir = tl_find_dir(vector_dirs, 3, "INDEX.tsv");
    test_api();
    load_vectors(dir);
    test_transcripts();
    test_offsets();
    test_chunks("events", 0);
    test_chunks("queries", 1);
    test_prefixes("events", 0);
    test_prefixes("queries", 1);
    test_ending();
    test_layers_agree();
    test_time();
    test_endless_ovf();
    test_sync_forward_and_offset();
    test_bad_context();
    test_limits();
    test_lookahead_api();
    test_query_order();
    for (i = 0; i < nvecs; i++) {
        free(vecs[i].pt);
        free(vecs[i].evt);
        free(vecs[i].qry);
        free(vecs[i].evt_at);
    }
    printf("%d passed, %d failed\n", tl_passed, tl_failed);
    return tl_exit_code();
}
