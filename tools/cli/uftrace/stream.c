/* stream.c - the merged record stream of a uftrace data directory and
   uftrace 0.13's per-task stack state machine (stream.h describes both). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/stream.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void *st_alloc(size_t n)
{
    void *p = uft_xrealloc(NULL, n);
    memset(p, 0, n);
    return p;
}

uft_frame *uft_stream_frame_grow(const uft_stream *e, uft_stask *t, long idx)
{
    long n, i;
    if (idx < 0 || idx >= e->max_stack || t->excluded) return NULL;
    if (idx >= t->nframes) {
        n = t->nframes * 2 > idx + 1 ? t->nframes * 2 : idx + 1 + 64;
        if (n > e->max_stack) n = e->max_stack;
        t->frames = (uft_frame *)uft_xrealloc(t->frames, (size_t)n * sizeof *t->frames);
        for (i = t->nframes; i < n; i++) {
            memset(&t->frames[i], 0, sizeof t->frames[i]);
            t->frames[i].orig_depth = e->depth;
        }
        t->nframes = n;
    }
    return &t->frames[idx];
}

uft_stask *uft_stream_task(uft_stream *e, int32_t tid)
{
    size_t i;
    for (i = 0; i < e->ntasks; i++)
        if (e->tasks[i].tid == tid) return &e->tasks[i];
    return NULL;
}

static int st_is_sched(uint64_t id)
{
    return id == UFT_EV_SCHED_IN || id == UFT_EV_SCHED_OUT || id == UFT_EV_SCHED_OUT_PRE;
}

/* ---- reading ahead ------------------------------------------------------------ */

UFT_COLD void uft_st_task_error(uft_stream *e, uft_stask *t)
{
    if (!e->failed) uft_fail(e->out, e->err, t->rd.path, t->rd.err.offset, t->rd.err.what, t->rd.err.detail);
    e->failed = 1;
}

static uft_rec *st_spare_rec(uft_stask *t)
{
    return t->nspare > 0 ? t->spare[--t->nspare] : (uft_rec *)st_alloc(sizeof(uft_rec));
}

/* Drops the held records from index `from` on (their buffers are reused). */
static void st_held_drop(uft_stask *t, size_t from)
{
    while (t->nheld > from) t->spare[t->nspare++] = t->held[--t->nheld];
}

/* The time filter of record r of task t read under a time filter
   (*threshold) and its trigger (NULL if none), as uftrace 0.13's
   get_task_ustack(): a @time trigger on an entry sets the filter of what
   it calls until its exit is read. */
static const uft_trigger *st_time_trigger(uft_stream *e, uft_stask *t, const uft_rec *r, uint64_t *threshold)
{
    const uft_trigger *tr = NULL;
    const uft_session *sess;
    *threshold = e->time_filter;
    if (e->filters.count == 0) return NULL;
    if ((r->rec.type == TDEC_UFTRACE_REC_ENTRY || r->rec.type == TDEC_UFTRACE_REC_EXIT) &&
        (sess = uft_task_session(e->dir, t->t, r->rec.time)) != NULL)
        tr = uft_filters_match(&e->filters, sess, r->rec.addr);
    if (t->ntt > 0) *threshold = t->tt[t->ntt - 1].threshold;
    if (tr != NULL && (tr->flags & UFT_TR_TIME)) *threshold = tr->time;
    if (r->rec.type == TDEC_UFTRACE_REC_ENTRY && tr != NULL && (tr->flags & UFT_TR_TIME)) {
        if (t->ntt == t->tt_cap) {
            t->tt_cap = t->tt_cap * 2 + 8;
            t->tt = (uft_time_trigger *)uft_xrealloc(t->tt, t->tt_cap * sizeof *t->tt);
        }
        t->tt[t->ntt].depth = r->rec.depth;
        t->tt[t->ntt++].threshold = *threshold;
    } else if (r->rec.type == TDEC_UFTRACE_REC_EXIT && t->ntt > 0 && t->tt[t->ntt - 1].depth == r->rec.depth) {
        t->ntt--; /* (its filter still applies to this exit) */
    }
    return tr;
}

/* uft_st_task_ahead() under a time filter, as uftrace 0.13's get_task_ustack()
   reads a task: records are held until the exit of the innermost held
   entry decides. An exit shorter than the filter drops itself and
   everything held from its entry on; one that is not (or an exit with no
   held entry) releases all that is held, as do user events (id 1000000
   and up) and LOST records. Held records come out one by one; the file is
   read again only when none is left. */
int uft_st_task_ahead_filtered(uft_stream *e, uft_stask *t)
{
    uft_rec *r, *old;
    size_t i;
    int rc, release = 0;
    uint64_t threshold;
    const uft_trigger *tr;
    /* read only when nothing held is left to pass on (then nheld is 0) */
    if (t->nheld == 0 && !t->ended && !e->failed) {
        do {
            if (t->nheld == t->held_cap) {
                t->held_cap = t->held_cap * 2 + 16;
                t->held = (uft_rec **)uft_xrealloc(t->held, t->held_cap * sizeof *t->held);
                t->spare = (uft_rec **)uft_xrealloc(t->spare, t->held_cap * sizeof *t->spare);
            }
            r = st_spare_rec(t);
            rc = uft_st_task_read(e, t, r);
            if (rc <= 0) {
                t->spare[t->nspare++] = r;
                if (rc == 0) t->ended = 1; /* entries still held come out at the end */
                break;
            }
            t->held[t->nheld++] = r;
            t->ustack_time = r->rec.time;
            tr = st_time_trigger(e, t, r, &threshold);
            if (r->rec.type == TDEC_UFTRACE_REC_EVENT) {
                release = r->rec.addr >= 1000000u;
            } else if (r->rec.type == TDEC_UFTRACE_REC_EXIT) {
                for (i = t->nheld - 1; i > 0 && t->held[i - 1]->rec.type != TDEC_UFTRACE_REC_ENTRY; i--) {}
                if (i == 0 || r->rec.time - t->held[i - 1]->rec.time >= threshold) release = 1;
                else if (tr != NULL && (tr->flags & UFT_TR_TRACE)) release = 1; /* shown all the same */
                else st_held_drop(t, i - 1);
            } else if (r->rec.type != TDEC_UFTRACE_REC_ENTRY) {
                release = 1;
            }
        } while (!release);
    }
    if (t->held_from == t->nheld || e->failed) return 0;
    old = t->slot[0];
    t->slot[0] = t->held[t->held_from];
    t->ustack_time = t->slot[0]->rec.time;
    t->held[t->held_from++] = old; /* slot[0]'s old buffer, reused once all are out */
    if (t->held_from == t->nheld) {
        for (i = 0; i < t->nheld; i++) t->spare[t->nspare++] = t->held[i];
        t->held_from = t->nheld = 0;
    }
    t->ahead = 1;
    return 1;
}

/* Is tid a task --tid leaves out? */
static int st_excluded(uft_stream *e, int32_t tid)
{
    const uft_stask *t = e->opts->tid != NULL ? uft_stream_task(e, tid) : NULL;
    return t != NULL && t->excluded;
}

static int st_perf_ahead(uft_stream *e, uft_sperf *p)
{
    int rc;
    if (e->perf_preloaded) { /* one source: what st_perf_preload() kept */
        if (!p->valid && e->perf_next < e->nperf_kept) {
            p->head = e->perf_kept[e->perf_next++];
            p->valid = 1;
        }
        p->done = !p->valid;
        return p->valid;
    }
    while (!p->valid && !p->done && !e->failed) {
        rc = uft_perf_next(&p->rd, &p->head);
        if (rc == 0) {
            p->done = 1;
        } else if (rc < 0) {
            uft_fail(e->out, e->err, p->rd.path, p->rd.err.offset, p->rd.err.what, p->rd.err.detail);
            e->failed = 1;
            p->done = 1;
        } else if (uft_tid_recorded(e->dir, (int32_t)p->head.tid) && !st_excluded(e, (int32_t)p->head.tid)) {
            p->valid = 1; /* records of untraced tasks are passed over */
            if (e->first_time == 0) e->first_time = p->head.time;
        }
    }
    return p->valid;
}

/* st_perf_pick() when a perf record was taken since the last pick. */
static UFT_COLD long st_perf_repick(uft_stream *e)
{
    uint64_t min = UINT64_MAX;
    long best = -1;
    size_t i;
    for (i = 0; i < e->nperf; i++) {
        uft_sperf *p = &e->perf[i];
        if (p->done && !p->valid) continue;
        if (!st_perf_ahead(e, p)) continue;
        if (p->head.time < min) {
            min = p->head.time;
            best = (long)i;
        }
    }
    e->last_perf = best;
    e->perf_picked = !e->failed;
    return best;
}

/* The perf file whose next record is the earliest, -1 if none. */
static long st_perf_pick(uft_stream *e)
{
    return e->perf_picked ? e->last_perf : st_perf_repick(e);
}

/* uftrace's parse_timestamp(): "SEC[.FRACTION]" in nanoseconds, the
   fraction scaled to 9 digits. */
static uint64_t st_parse_timestamp(const char *s)
{
    char *end;
    const char *frac;
    uint64_t ns = (uint64_t)strtoull(s, &end, 10) * 1000000000u, f;
    int digits = 0;
    if (*end != '.') return ns;
    frac = end + 1;
    f = (uint64_t)strtoull(frac, NULL, 10);
    while (isdigit((unsigned char)frac[digits])) digits++;
    for (; digits < 9; digits++) f *= 10;
    for (; digits > 9; digits--) f /= 10;
    return ns + f;
}

/* Makes sure the next external-data line is in e->ext; 0 when there is
   none. As uftrace reads extern.dat: by fgets() into UFT_EXTERN_MAX + 64
   bytes (a longer line comes in pieces), leading blanks skipped, blank and
   '#' lines passed over, the time up to the first space or tab, then the
   message after the blanks that follow (none: passed over), without its
   newline, cut to UFT_EXTERN_MAX - 1 bytes. */
static int st_extern_ahead(uft_stream *e)
{
    uft_sextern *x = &e->ext;
    char line[UFT_EXTERN_MAX + 64], *p;
    size_t n, len;
    while (!x->valid) {
        if (x->pos >= x->len) return 0;
        for (n = 0; n < sizeof line - 1 && x->pos < x->len;)
            if ((line[n++] = x->text[x->pos++]) == '\n') break;
        line[n] = '\0';
        for (p = line; isspace((unsigned char)*p); p++) continue;
        if (*p == '#' || *p == '\0') continue;
        x->time = st_parse_timestamp(p);
        if ((p = strpbrk(p, " \t")) == NULL) continue;
        while (isspace((unsigned char)*p)) p++;
        if ((len = strlen(p)) == 0) continue;
        if (p[len - 1] == '\n') p[len - 1] = '\0';
        if (len >= sizeof x->msg) len = sizeof x->msg - 1;
        memcpy(x->msg, p, len);
        x->msg[len] = '\0';
        x->valid = 1;
        if (e->first_time == 0) e->first_time = x->time;
    }
    return 1;
}

/* ---- the stack model ------------------------------------------------------------ */

/* -e data: delays the exit that follows a sched-out until the sched-in,
   then estimates its time between the sched-in and the next entry. */
static void st_estimate_after_sched(uft_stream *e, uft_stask *t)
{
    uft_rec *next;
    uft_frame *prev;
    if (!t->ahead) return;
    next = t->slot[0];
    if (next->rec.type == TDEC_UFTRACE_REC_ENTRY) {
        t->est_next = 0;
        return;
    }
    if (t->cur.addr == UFT_EV_SCHED_IN && t->nstack >= 2) prev = uft_stream_frame(e, t, t->nstack - 2);
    else prev = uft_stream_frame(e, t, t->nstack - 1);
    if (prev == NULL || prev->addr != next->rec.addr) return;
    if (t->cur.addr == UFT_EV_SCHED_OUT || t->cur.addr == UFT_EV_SCHED_OUT_PRE) {
        if (t->est_next == 0) t->est_next = next->rec.time * 2 - prev->time;
        next->rec.time = UINT64_MAX;
        return;
    }
    if (t->est > t->cur.time) {
        next->rec.time = t->est;
        return;
    }
    next->rec.time = (t->cur.time + t->est_next) / 2;
    t->est = next->rec.time;
}

/* The task's first record (type: uft_st_stack_type()) sizes the stack: a
   fork child starts inside its parent's frames. */
static UFT_COLD void st_stack_start(uft_stream *e, uft_stask *t, const uft_view *r, int type, uint32_t depth)
{
    uft_frame *f;
    long i;
    t->nstack = (long)depth + (type == TDEC_UFTRACE_REC_EXIT);
    t->stack_set = 1;
    if (!t->fork_done) {
        uft_stask *parent = t->t ? uft_stream_task(e, t->t->ppid) : NULL;
        if (parent && parent->fork_disp) {
            t->disp = parent->fork_disp;
            t->disp_set = 1;
        }
        t->fork_done = 1;
    }
    for (i = 0; i < t->nstack; i++) {
        if ((f = uft_stream_frame(e, t, i)) != NULL) {
            f->time = r->time;
            f->child = 0;
            f->valid = 1;
        }
    }
    t->budget = e->depth;
}

/* The first record after LOST ones: the stack restarts. */
static UFT_COLD void st_stack_after_lost(uft_stream *e, uft_stask *t, const uft_view *r, int type, uint32_t depth)
{
    uft_frame *f;
    long i;
    t->nstack = (long)depth + (type == TDEC_UFTRACE_REC_EXIT);
    t->lost_seen = 0;
    for (i = 0; i <= (long)depth; i++) {
        if ((f = uft_stream_frame(e, t, i + t->user_nstack)) != NULL) {
            f->time = r->time - 1;
            f->child = 0;
        }
    }
}

/* A LOST record: what is still open counts as ending right after it
   started. */
UFT_COLD void uft_st_stack_lost(uft_stream *e, uft_stask *t)
{
    uint64_t lost_time = 0;
    uft_frame *f;
    long i;
    t->lost_seen = 1;
    t->disp_set = 0;
    for (i = t->nstack; i >= t->user_nstack; i--) {
        if ((f = uft_stream_frame(e, t, i)) == NULL) continue;
        if (lost_time == 0) lost_time = f->time + 1;
        uft_st_account(e, t, f, i, lost_time - f->time);
    }
}

/* Before a stack record (type: uft_st_stack_type()) of a task whose stack is
   not sized yet or was broken by LOST records; 1: the record changes
   nothing. */
UFT_COLD int uft_st_stack_unsettled(uft_stream *e, uft_stask *t, const uft_view *r, int type)
{
    uint32_t depth = r->type == TDEC_UFTRACE_REC_EVENT ? 0 : r->depth;
    if (!t->stack_set) st_stack_start(e, t, r, type, depth);
    if (t->lost_seen) {
        if (type == TDEC_UFTRACE_REC_LOST) return 1;
        st_stack_after_lost(e, t, r, type, depth);
    }
    return 0;
}

/* uft_stream_take() of a perf record: the file moves on. */
UFT_COLD void uft_st_take_perf(uft_stream *e)
{
    if (e->last_perf < 0) return;
    e->perf[e->last_perf].valid = 0;
    e->perf_picked = 0;
}

/* The record ahead in perf file p becomes its task's current record;
   returns the task. */
static UFT_COLD uft_stask *st_view_perf(uft_stream *e, long p)
{
    const tdec_uftrace_perf_record *h = &e->perf[p].head;
    uft_view *v = &e->perf_cur;
    uft_stask *t = uft_stream_task(e, (int32_t)h->tid);
    v->type = TDEC_UFTRACE_REC_EVENT;
    v->addr = uft_perf_event_id(h);
    v->more = v->addr == UFT_EV_TASK_NAME;
    v->depth = 0;
    v->time = h->time;
    v->rec = NULL;
    memcpy(v->comm, h->comm, sizeof v->comm);
    v->comm[sizeof v->comm - 1] = '\0';
    t->cur = *v;
    t->cur_src = UFT_SRC_PERF;
    /* (with a time filter, uftrace reads perf records as task events and
       does not estimate after them) */
    if (st_is_sched(v->addr) && e->estimate && !e->time_filter && t->nstack > 0) st_estimate_after_sched(e, t);
    return t;
}

/* The external-data line ahead becomes the current record of the task
   read last (the first task before any record), as in uftrace; returns
   the task. */
static UFT_COLD uft_stask *st_view_extern(uft_stream *e)
{
    uft_stask *t = e->last_read != NULL ? e->last_read : &e->tasks[0];
    memset(&t->cur, 0, sizeof t->cur);
    t->cur.type = TDEC_UFTRACE_REC_EVENT;
    t->cur.addr = UFT_EV_EXTERN_DATA;
    t->cur.more = 1;
    t->cur.time = e->ext.time;
    t->cur_src = UFT_SRC_EXTERN;
    return t;
}

/* uft_st_earliest() by looking at every task, perf file and extern.dat. */
uft_stask *uft_st_earliest_of_all(uft_stream *e)
{
    uft_stask *best = NULL, *t;
    uint64_t min = UINT64_MAX, until = UINT64_MAX;
    long p;
    size_t i;
    e->lead = NULL;
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        if (!uft_st_task_ahead(e, t)) {
            if (e->failed) return NULL;
            continue;
        }
        if (best == NULL || t->slot[0]->rec.time < min) {
            until = min;
            best = t;
            min = t->slot[0]->rec.time;
        } else if (t->slot[0]->rec.time < until) {
            until = t->slot[0]->rec.time;
        }
    }
    if (e->nperf > 0) {
        p = st_perf_pick(e);
        if (e->failed) return NULL;
        if (p >= 0 && e->perf[p].head.time < min) {
            if (st_extern_ahead(e) && e->ext.time < e->perf[p].head.time) return st_view_extern(e);
            return st_view_perf(e, p);
        }
        if (p >= 0 && e->perf[p].head.time < until) until = e->perf[p].head.time;
    }
    if (st_extern_ahead(e)) {
        if (e->ext.time < min) return st_view_extern(e);
        if (e->ext.time < until) until = e->ext.time;
    }
    if (best == NULL) return NULL;
    uft_st_view_user(e, best);
    if (!e->estimate) { /* (-e changes the times of records ahead) */
        e->lead = best;
        e->lead_until = until;
    }
    return best;
}

/* uft_stream_special() of a symbol not in its cache: by name. */
UFT_COLD int uft_st_special_by_name(const uft_sym *sym)
{
    static const char *const names[] = {
        "execl", "execlp", "execle", "execv", "execve", "execvp", "execvpe", "setjmp", "_setjmp",
        "sigsetjmp", "__sigsetjmp", "longjmp", "siglongjmp", "__longjmp_chk", "fork", "vfork", "daemon",
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        if (strcmp(sym->name, names[i]) != 0) continue;
        if (strncmp(names[i], "exec", 4) == 0) return 'e';
        if (strstr(names[i], "setjmp")) return 's';
        if (strstr(names[i], "longjmp")) return 'l';
        return 'f';
    }
    return 0;
}

/* ---- setup -------------------------------------------------------------------------- */

/* One reader per perf-cpu*.dat, in the directory's (glob) order. */
static int st_open_perf(uft_stream *e)
{
    char path[4096];
    size_t i, n = e->dir->nperf_files;
    e->perf = (uft_sperf *)st_alloc(n * sizeof *e->perf);
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", e->dir->path, e->dir->perf_files[i]);
        if (uft_perf_open(&e->perf[i].rd, e->dir, path) < 0) {
            uft_fail(e->out, e->err, path, 0, e->perf[i].rd.err.what, e->perf[i].rd.err.detail);
            return -1;
        }
        e->nperf = i + 1;
    }
    return 0;
}

/* uftrace 0.13's parse_time(arg, 3) of a -t value, in ns: NUMBER[.DIGITS]
   [UNIT], the unit ns (also without one), us, ms, s or m (and nsec ...
   min), any case, the fraction added as uftrace adds it; an unknown unit
   counts as ns (*unknown_unit set; uftrace warns). 0 when uftrace refuses
   the value (3 digits at most before the point). */
int uft_parse_time(const char *arg, uint64_t *ns, int *unknown_unit)
{
    static const struct { const char *name, *alt; int exp; } units[] = {
        {"ns", "nsec", 0}, {"us", "usec", 3}, {"ms", "msec", 6}, {"s", "sec", 9}, {"m", "min", -1},
    };
    char *unit;
    const char *pos;
    unsigned long long val = strtoull(arg, &unit, 10), decimal = 0, digits;
    int i, places = 0, exp = 0;
    pos = strchr(arg, '.');
    if (pos != NULL) {
        while (*++pos == '0') places++;
        decimal = strtoull(pos, &unit, 10);
    }
    if (val >= 1000) return 0;
    while (decimal >= 1000) decimal /= 10;
    *unknown_unit = 0;
    if (*unit == '\0') {
        *ns = val;
        return 1;
    }
    for (i = 0; i < (int)(sizeof units / sizeof units[0]); i++)
        if (strcasecmp(unit, units[i].name) == 0 || strcasecmp(unit, units[i].alt) == 0) break;
    if (i < (int)(sizeof units / sizeof units[0])) exp = units[i].exp;
    else *unknown_unit = 1;
    for (digits = decimal; digits > 0; digits /= 10) places++;
    if (exp < 0) { /* minutes: the fraction in seconds or ms by its places */
        *ns = val * 60u * 1000000000u;
        if (decimal && places == 1) *ns += decimal * 6u * 1000000000u;
        if (decimal && (places == 2 || places == 3)) *ns += decimal * 6u * (places == 2 ? 100u : 10u) * 1000000u;
        return 1;
    }
    for (i = 0; i < exp; i++) val *= 10u;
    if (decimal) {
        for (i = places; i < exp; i++) decimal *= 10u;
        val += decimal;
    }
    *ns = val;
    return 1;
}

/* With a time filter uftrace 0.13 reads all perf records first
   (process_perf_event()): per task, a sched-in less than the filter after
   the task's latest sched-out kept drops that sched-out and every record
   of the task since, and itself. */
static void st_perf_preload(uft_stream *e)
{
    size_t n = 0, cap = 0, i, k, m, **held, *nheld, *capheld, *next;
    tdec_uftrace_perf_record *merged;
    long p;
    uft_stask *t;
    held = (size_t **)st_alloc(e->ntasks * sizeof *held);
    nheld = (size_t *)st_alloc(e->ntasks * sizeof *nheld);
    capheld = (size_t *)st_alloc(e->ntasks * sizeof *capheld);
    while ((p = st_perf_pick(e)) >= 0) {
        const tdec_uftrace_perf_record *h = &e->perf[p].head;
        uint32_t id = uft_perf_event_id(h);
        uft_st_take_perf(e);
        if (n == cap) {
            cap = cap * 2 + 256;
            e->perf_kept = (tdec_uftrace_perf_record *)uft_xrealloc(e->perf_kept, cap * sizeof *e->perf_kept);
        }
        t = uft_stream_task(e, (int32_t)h->tid);
        k = (size_t)(t - e->tasks);
        e->perf_kept[n] = *h;
        if (id == UFT_EV_SCHED_IN) {
            for (i = nheld[k]; i > 0; i--) {
                uint32_t was = uft_perf_event_id(&e->perf_kept[held[k][i - 1]]);
                if (was == UFT_EV_SCHED_OUT || was == UFT_EV_SCHED_OUT_PRE) break;
            }
            if (i > 0 && h->time - e->perf_kept[held[k][i - 1]].time < e->time_filter) {
                nheld[k] = i - 1;
                continue;
            }
        }
        if (nheld[k] == capheld[k]) {
            capheld[k] = capheld[k] * 2 + 64;
            held[k] = (size_t *)uft_xrealloc(held[k], capheld[k] * sizeof **held);
        }
        held[k][nheld[k]++] = n++;
    }
    /* uftrace then takes them from per-task lists: the earliest first, a
       tie to the first task in taskinfo order (not to the first file) */
    merged = (tdec_uftrace_perf_record *)st_alloc((n + 1) * sizeof *merged);
    next = (size_t *)st_alloc(e->ntasks * sizeof *next);
    for (m = 0;; m++) {
        size_t best = e->ntasks;
        for (k = 0; k < e->ntasks; k++)
            if (next[k] < nheld[k] && (best == e->ntasks || e->perf_kept[held[k][next[k]]].time <
                                                                 e->perf_kept[held[best][next[best]]].time))
                best = k;
        if (best == e->ntasks) break;
        merged[m] = e->perf_kept[held[best][next[best]++]];
    }
    free(e->perf_kept);
    e->perf_kept = merged;
    e->nperf_kept = m;
    for (i = 0; i < e->nperf; i++) {
        uft_perf_close(&e->perf[i].rd);
        e->perf[i].valid = 0;
        e->perf[i].done = 1;
    }
    e->nperf = 1;
    e->perf[0].done = 0;
    e->perf_picked = 0;
    e->perf_preloaded = 1;
    for (i = 0; i < e->ntasks; i++) free(held[i]);
    free(held);
    free(next);
    free(nheld);
    free(capheld);
}

/* Is tid one of the --tid list (TID[,TID...] joined by ';')? */
static int st_tid_listed(const char *list, int32_t tid)
{
    const char *p = list;
    char *end;
    while (*p) {
        if (*p == ',' || *p == ';') p++;
        if (strtol(p, &end, 10) == tid) return 1;
        if (end == p) break;
        p = end;
    }
    return 0;
}

int uft_stream_open_opts(uft_stream *e, uft_dir *dir, const uft_opts *o, out_buf *out, out_buf *err)
{
    uft_stask *t;
    size_t i;
    char file[4096];

    memset(e, 0, sizeof *e);
    if (dir->ntids == 0) {
        cli_diag(err, "error", -1, dir->path, "no task in info (taskinfo:tids)");
        return 1;
    }
    e->dir = dir;
    e->out = out;
    e->err = err;
    e->opts = o;
    e->depth = o->depth;
    e->enabled = 1;
    e->time_filter = o->threshold;
    e->last_perf = -1;
    e->max_stack = (dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_MAX_STACK) ? (long)dir->hdr.max_stack : 1024;
    e->estimate = (dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_ESTIMATE_RETURN) != 0;
    if (o->filter != NULL || o->trigger != NULL) uft_filters_setup(&e->filters, dir, o->filter, o->trigger, o->match, &e->usage);
    e->ntasks = dir->ntids;
    e->tasks = (uft_stask *)st_alloc(e->ntasks * sizeof *e->tasks);
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        t->tid = dir->tids[i];
        t->index = i;
        t->t = uft_find_task(dir, t->tid);
        t->rd.fd = -1;
        t->slot[0] = (uft_rec *)st_alloc(sizeof(uft_rec));
        t->slot[1] = (uft_rec *)st_alloc(sizeof(uft_rec));
        t->budget = e->depth;
        t->disp_set = 1;
        t->excluded = o->tid != NULL && !st_tid_listed(o->tid, t->tid);
        if (t->t != NULL && t->t->nrefs > 0 && t->t->refs[t->t->nrefs - 1].sess->exename != NULL) {
            const char *exe = t->t->refs[t->t->nrefs - 1].sess->exename, *slash = strrchr(exe, '/');
            snprintf(t->comm, 16, "%s", slash ? slash + 1 : exe); /* uftrace's TASK_COMM_LEN */
        }
    }
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        if (uft_task_open(&t->rd, dir, t->tid) < 0)
            return uft_fail(out, err, t->rd.path, t->rd.err.offset, t->rd.err.what, t->rd.err.detail);
        if (t->excluded) { /* its first record still counts for elapsed times (uftrace's setup) */
            uint64_t first = e->first_time;
            const uft_rec *r = t->slot[0];
            int rc = uft_st_task_read(e, t, t->slot[0]);
            e->first_time = first;
            if (rc > 0 && r->rec.type != TDEC_UFTRACE_REC_EVENT && (first == 0 || r->rec.time < first))
                e->first_time = r->rec.time;
            t->ended = 1;
        }
    }
    if ((dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_PERF_EVENT) && st_open_perf(e) < 0) return 1;
    if (e->time_filter && e->nperf > 0) st_perf_preload(e);
    snprintf(file, sizeof file, "%s/extern.dat", dir->path);
    e->ext.text = uft_read_file(file, &e->ext.len); /* none: no external data */
    return 0;
}

int uft_stream_open(uft_stream *e, uft_dir *dir, out_buf *out, out_buf *err)
{
    static uft_opts o;
    uft_opts_init(&o);
    if (uft_opts_default(&o, dir->path, err)) return 1;
    return uft_stream_open_opts(e, dir, &o, out, err);
}

void uft_stream_close(uft_stream *e)
{
    size_t i;
    for (i = 0; i < e->ntasks; i++) {
        uft_stask *t = &e->tasks[i];
        uft_task_close(&t->rd);
        st_held_drop(t, 0);
        while (t->nspare > 0) free(t->spare[--t->nspare]);
        free(t->held);
        free(t->spare);
        free(t->slot[0]);
        free(t->slot[1]);
        free(t->frames);
        free(t->tt);
    }
    uft_filters_free(&e->filters);
    free(e->usage);
    for (i = 0; i < e->nperf; i++) uft_perf_close(&e->perf[i].rd);
    free(e->tasks);
    free(e->perf);
    free(e->perf_kept);
    free(e->ext.text);
    memset(e, 0, sizeof *e);
}

/* uft_stream_enter() with filters or triggers: uftrace's fstack_entry(). */
int uft_st_enter_filtered(uft_stream *e, uft_stask *t, const uft_view *r, int special)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack - 1);
    const uft_session *sess;
    const uft_trigger *tr = NULL;
    unsigned flags;
    if (f == NULL) return -1;
    f->orig_depth = t->budget;
    f->flags = 0;
    t->entry_tr.flags = 0;
    if (t->out_count > 0) {
        f->flags |= UFT_FL_NORECORD;
        return -1;
    }
    if ((sess = uft_stream_session(e, t, r->time)) != NULL) {
        uft_st_enter_special(e, t, f, special);
        if (e->filters.count > 0 && (tr = uft_filters_match(&e->filters, sess, r->addr)) != NULL) t->entry_tr = *tr;
    }
    flags = t->entry_tr.flags;
    if (flags & UFT_TR_FILTER) {
        if (tr->fmode == 'i') {
            t->in_count++;
            f->flags |= UFT_FL_FILTERED;
        } else {
            t->out_count++;
            f->flags |= UFT_FL_NOTRACE | UFT_FL_NORECORD;
            return -1;
        }
        t->budget = e->depth;
    } else if (e->filters.mode == 'i' && t->in_count == 0) {
        f->flags |= UFT_FL_NORECORD;
        return -1;
    }
    if (flags & UFT_TR_DEPTH) t->budget = tr->depth;
    if (flags & UFT_TR_TRACE_ON) e->enabled = 1;
    if (flags & UFT_TR_TRACE_OFF) {
        e->enabled = 0;
        t->disp_set = 0;
    }
    if (!e->enabled) return -1; /* not NORECORD: shown when tracing is on again */
    return uft_st_enter_budget(t, f, (flags & UFT_TR_HIDE) != 0);
}

