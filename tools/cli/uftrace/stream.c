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

static UFT_COLD void st_out_of_memory(void)
{
    fputs("tracedec: out of memory\n", stderr);
    exit(2);
}

static void *st_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (p == NULL) st_out_of_memory();
    return p;
}

static void *st_realloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (p == NULL) st_out_of_memory();
    return p;
}

uft_frame *uft_stream_frame_grow(const uft_stream *e, uft_stask *t, long idx)
{
    long n, i;
    if (idx < 0 || idx >= e->max_stack) return NULL;
    if (idx >= t->nframes) {
        n = t->nframes * 2 > idx + 1 ? t->nframes * 2 : idx + 1 + 64;
        if (n > e->max_stack) n = e->max_stack;
        t->frames = (uft_frame *)st_realloc(t->frames, (size_t)n * sizeof *t->frames);
        for (i = t->nframes; i < n; i++) {
            memset(&t->frames[i], 0, sizeof t->frames[i]);
            t->frames[i].orig_depth = UFT_DEPTH_DEFAULT;
        }
        t->nframes = n;
    }
    return &t->frames[idx];
}

/* uft_task_session() of the task, remembered while it holds. */
const uft_session *uft_stream_session(uft_stream *e, uft_stask *t, uint64_t time)
{
    uint64_t from, to;
    const uft_session *s;
    if (time >= t->sess_from && time < t->sess_to) return t->sess;
    s = uft_task_session_win(e->dir, t->t, time, &from, &to);
    if (from < to) {
        t->sess = s;
        t->sess_from = from;
        t->sess_to = to;
    }
    return s;
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

static UFT_COLD void st_task_error(uft_stream *e, uft_stask *t)
{
    if (!e->failed) uft_fail(e->out, e->err, t->rd.path, t->rd.err.offset, t->rd.err.what, t->rd.err.detail);
    e->failed = 1;
}

/* The next complete record of the task's file into *out: 1, 0 at its end,
   -1 after an error (reported). */
static int st_task_read(uft_stream *e, uft_stask *t, uft_rec *out)
{
    int rc = uft_task_next(&t->rd, out);
    if (rc > 0 && out->incomplete) rc = uft_task_next(&t->rd, out);
    if (rc < 0) st_task_error(e, t);
    return rc;
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

/* st_task_ahead() under a time filter, as uftrace 0.13's get_task_ustack()
   reads a task: records are held until the exit of the innermost held
   entry decides. An exit shorter than the filter drops itself and
   everything held from its entry on; one that is not (or an exit with no
   held entry) releases all that is held, as do user events (id 1000000
   and up) and LOST records. Held records come out one by one; the file is
   read again only when none is left. */
static int st_task_ahead_filtered(uft_stream *e, uft_stask *t)
{
    uft_rec *r, *old;
    size_t i;
    int rc, release = 0;
    /* read only when nothing held is left to pass on (then nheld is 0) */
    if (t->nheld == 0 && !t->ended && !e->failed) {
        do {
            if (t->nheld == t->held_cap) {
                t->held_cap = t->held_cap * 2 + 16;
                t->held = (uft_rec **)st_realloc(t->held, t->held_cap * sizeof *t->held);
                t->spare = (uft_rec **)st_realloc(t->spare, t->held_cap * sizeof *t->spare);
            }
            r = st_spare_rec(t);
            rc = st_task_read(e, t, r);
            if (rc <= 0) {
                t->spare[t->nspare++] = r;
                if (rc == 0) t->ended = 1; /* entries still held come out at the end */
                break;
            }
            t->held[t->nheld++] = r;
            if (r->rec.type == TDEC_UFTRACE_REC_EVENT) {
                release = r->rec.addr >= 1000000u;
            } else if (r->rec.type == TDEC_UFTRACE_REC_EXIT) {
                for (i = t->nheld - 1; i > 0 && t->held[i - 1]->rec.type != TDEC_UFTRACE_REC_ENTRY; i--) {}
                if (i == 0 || r->rec.time - t->held[i - 1]->rec.time >= e->time_filter) release = 1;
                else st_held_drop(t, i - 1);
            } else if (r->rec.type != TDEC_UFTRACE_REC_ENTRY) {
                release = 1;
            }
        } while (!release);
    }
    if (t->held_from == t->nheld || e->failed) return 0;
    old = t->slot[0];
    t->slot[0] = t->held[t->held_from];
    t->held[t->held_from++] = old; /* slot[0]'s old buffer, reused once all are out */
    if (t->held_from == t->nheld) {
        for (i = 0; i < t->nheld; i++) t->spare[t->nspare++] = t->held[i];
        t->held_from = t->nheld = 0;
    }
    t->ahead = 1;
    return 1;
}

/* Makes sure the task has its next record in slot[0]; 0 when it has none. */
static int st_task_ahead(uft_stream *e, uft_stask *t)
{
    int rc;
    if (t->ahead) return 1;
    if (e->time_filter) return st_task_ahead_filtered(e, t);
    if (t->ended || e->failed) return 0;
    rc = st_task_read(e, t, t->slot[0]);
    if (rc == 0) t->ended = 1;
    if (rc <= 0) return 0;
    t->ahead = 1;
    return 1;
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
        } else if (uft_tid_recorded(e->dir, (int32_t)p->head.tid)) {
            p->valid = 1; /* records of untraced tasks are passed over */
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

/* A perf scheduler event seen as a pseudo function: sched-out enters it,
   sched-in leaves it. Returns the record type to use, or -1 for events
   that do not touch the stack. */
static int st_stack_type(const uft_view *r)
{
    if (r->type != TDEC_UFTRACE_REC_EVENT) return (int)r->type;
    if (r->addr == UFT_EV_SCHED_OUT || r->addr == UFT_EV_SCHED_OUT_PRE) return TDEC_UFTRACE_REC_ENTRY;
    if (r->addr == UFT_EV_SCHED_IN) return TDEC_UFTRACE_REC_EXIT;
    return -1;
}

/* The task's first record (type: st_stack_type()) sizes the stack: a
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
    t->budget = UFT_DEPTH_DEFAULT;
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

/* A frame's time becomes its duration delta, which counts in its parent
   (frame idx - 1) as time spent in children. */
static void st_account(uft_stream *e, uft_stask *t, uft_frame *f, long idx, uint64_t delta)
{
    uft_frame *parent;
    f->time = delta;
    if (f->child > delta) f->child = delta;
    if (idx > 0 && (parent = uft_stream_frame(e, t, idx - 1)) != NULL) parent->child += delta;
}

/* A LOST record: what is still open counts as ending right after it
   started. */
static UFT_COLD void st_stack_lost(uft_stream *e, uft_stask *t)
{
    uint64_t lost_time = 0;
    uft_frame *f;
    long i;
    t->lost_seen = 1;
    t->disp_set = 0;
    for (i = t->nstack; i >= t->user_nstack; i--) {
        if ((f = uft_stream_frame(e, t, i)) == NULL) continue;
        if (lost_time == 0) lost_time = f->time + 1;
        st_account(e, t, f, i, lost_time - f->time);
    }
}

/* Before a stack record (type: st_stack_type()) of a task whose stack is
   not sized yet or was broken by LOST records; 1: the record changes
   nothing. */
static UFT_COLD int st_stack_unsettled(uft_stream *e, uft_stask *t, const uft_view *r, int type)
{
    uint32_t depth = r->type == TDEC_UFTRACE_REC_EVENT ? 0 : r->depth;
    if (!t->stack_set) st_stack_start(e, t, r, type, depth);
    if (t->lost_seen) {
        if (type == TDEC_UFTRACE_REC_LOST) return 1;
        st_stack_after_lost(e, t, r, type, depth);
    }
    return 0;
}

/* A function entry or a sched-out: a frame opens. */
static void st_push(uft_stream *e, uft_stask *t, const uft_view *r)
{
    uint64_t addr = r->addr, time = r->time;
    uft_frame *f;
    UFT_OPAQUE(addr); /* st_view_user() may have just stored them */
    UFT_OPAQUE(time);
    if ((f = uft_stream_frame(e, t, t->nstack)) != NULL) {
        f->addr = addr;
        f->time = time;
        f->child = 0;
        f->valid = 1;
    }
    t->nstack++;
    if (r->type != TDEC_UFTRACE_REC_EVENT) t->user_nstack++;
}

/* A function exit or a sched-in: the top frame closes, its time becomes
   its duration. */
static void st_pop(uft_stream *e, uft_stask *t, const uft_view *r)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack - 1);
    if (f != NULL) {
        st_account(e, t, f, t->nstack - 1, f->valid ? r->time - f->time : 0);
        f->valid = 0;
    }
    if (t->nstack > 0) t->nstack--;
    if (r->type != TDEC_UFTRACE_REC_EVENT && t->user_nstack > 0) t->user_nstack--;
}

/* uft_stream_take() of a perf record: the file moves on. */
static UFT_COLD void st_take_perf(uft_stream *e)
{
    if (e->last_perf < 0) return;
    e->perf[e->last_perf].valid = 0;
    e->perf_picked = 0;
}

/* Takes the task's current record (the one uft_stream_next() just chose). */
void uft_stream_take(uft_stream *e, uft_stask *t)
{
    const uft_view *r = &t->cur;
    int type = st_stack_type(r);
    if (t->cur_src == UFT_SRC_USER) {
        uft_rec *s = t->slot[0];
        t->slot[0] = t->slot[1];
        t->slot[1] = s;
        t->ahead = 0;
    } else if (t->cur_src == UFT_SRC_PERF) {
        st_take_perf(e);
    } else {
        e->ext.valid = 0;
    }
    e->peeked = NULL;
    if (type < 0) return; /* events other than sched-in/out */
    if ((!t->stack_set || t->lost_seen) && st_stack_unsettled(e, t, r, type)) return;
    if (type == TDEC_UFTRACE_REC_ENTRY) st_push(e, t, r);
    else if (type == TDEC_UFTRACE_REC_EXIT) st_pop(e, t, r);
    else if (type == TDEC_UFTRACE_REC_LOST) st_stack_lost(e, t);
}

/* The user record ahead becomes the task's current record. */
static inline void st_view_user(uft_stream *e, uft_stask *t)
{
    const uft_rec *u = t->slot[0];
    uint32_t type = u->rec.type, more = u->rec.more, depth = u->rec.depth;
    uint64_t time = u->rec.time, addr = u->rec.addr;
    UFT_OPAQUE(type); /* uft_task_next() may have just stored them */
    UFT_OPAQUE(more);
    UFT_OPAQUE(depth);
    UFT_OPAQUE(time);
    UFT_OPAQUE(addr);
    t->cur.type = type;
    t->cur.more = more;
    t->cur.depth = depth;
    t->cur.time = time;
    t->cur.addr = addr;
    t->cur.rec = u;
    t->cur.comm[0] = '\0';
    t->cur_src = UFT_SRC_USER;
    if (e->estimate && t->est != 0) {
        /* estimated exits stay after an estimate made at a sched-in */
        if (t->cur.type == TDEC_UFTRACE_REC_EXIT && t->cur.time <= t->est) t->cur.time = ++t->est;
        else t->est = t->est_next = 0;
    }
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

/* st_earliest() by looking at every task, perf file and extern.dat. */
static uft_stask *st_earliest_of_all(uft_stream *e)
{
    uft_stask *best = NULL, *t;
    uint64_t min = UINT64_MAX, until = UINT64_MAX;
    long p;
    size_t i;
    e->lead = NULL;
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        if (!st_task_ahead(e, t)) {
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
    st_view_user(e, best);
    if (!e->estimate) { /* (-e changes the times of records ahead) */
        e->lead = best;
        e->lead_until = until;
    }
    return best;
}

/* The task with the earliest next record, which becomes its current
   record; NULL at the end (or after an error). Ties go to the first task
   in taskinfo order, then to the first perf file; a task's record wins
   over a perf record of the same time, both over external data. */
static uft_stask *st_earliest(uft_stream *e)
{
    uft_stask *t = e->lead;
    /* The records ahead of the other sources do not change until one of
       them is taken: while the lead task's next record is strictly before
       all of them, it is the next. */
    if (t != NULL && st_task_ahead(e, t) && t->slot[0]->rec.time < e->lead_until) {
        st_view_user(e, t);
        return t;
    }
    return st_earliest_of_all(e);
}

/* The task with the earliest next record, which becomes its current
   record; taken too if `take`. NULL at the end (or after an error). */
uft_stask *uft_stream_next(uft_stream *e, int take)
{
    uft_stask *t;
    if (e->failed) return NULL;
    t = e->peeked;
    if (t == NULL) {
        if ((t = st_earliest(e)) == NULL) return NULL;
        if (!take && !e->estimate) e->peeked = t; /* -e estimates are redone on every call */
    }
    if (take) {
        e->last_read = t;
        uft_stream_take(e, t);
    }
    return t;
}

/* uft_stream_special() of a symbol not in its cache: by name. */
static UFT_COLD int st_special_by_name(const uft_sym *sym)
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

/* Is the symbol (found in map) one of the calls replay treats specially?
   Returns 'e' exec*, 's' setjmp, 'l' longjmp, 'f' fork/vfork/daemon, 0 none. */
int uft_stream_special(uft_stream *e, const uft_sym *sym, const uft_map *map)
{
    size_t slot = ((uintptr_t)sym >> 3) % UFT_SPECIALS;
    if (sym == NULL || map == NULL) return 0; /* only symbols of the session's maps */
    if (e->special_sym[slot] != sym) {
        e->special_sym[slot] = sym;
        e->special_kind[slot] = (char)st_special_by_name(sym);
    }
    return e->special_kind[slot];
}

/* uft_stream_special() of the record's function. */
static int st_special_at(uft_stream *e, uft_stask *t, const uft_view *r)
{
    const uft_map *map;
    const uft_sym *sym = uft_find_sym_map(e->dir, t->t, r->time, r->addr, &map);
    return uft_stream_special(e, sym, map);
}

/* A function entry (already taken; special: its uft_stream_special()): sets up
   its frame. -1: not shown. */
int uft_stream_enter(uft_stream *e, uft_stask *t, const uft_view *r, int special)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack - 1);
    if (f == NULL) return -1;
    f->orig_depth = t->budget;
    f->flags = 0;
    if (uft_stream_session(e, t, r->time) != NULL) {
        switch (special) {
        case 'e': f->flags |= UFT_FL_EXEC; break;
        case 's':
            e->setjmp_disp = t->disp + 1;
            e->setjmp_nstack = t->nstack;
            break;
        case 'l': f->flags |= UFT_FL_LONGJMP; break;
        case 'f': t->fork_disp = t->disp + 1; break;
        default: break;
        }
    }
    if (t->budget <= 0) {
        f->flags |= UFT_FL_NORECORD;
        return -1;
    }
    t->budget--;
    if (!t->disp_set) {
        t->disp = t->nstack - 1 < 0 ? 0 : t->nstack - 1;
        t->disp_set = 1;
    }
    return 0;
}

/* After an entry line "f() {": the next lines are one deeper (or the
   stack restarts for exec / longjmp). */
void uft_stream_entered(uft_stream *e, uft_stask *t, uft_frame *f)
{
    if (f == NULL) return;
    if (f->flags & UFT_FL_EXEC) {
        t->disp = 0;
        t->nstack = 0;
        t->user_nstack = 0;
    } else if (f->flags & UFT_FL_LONGJMP) {
        t->disp = e->setjmp_disp;
        t->nstack = e->setjmp_nstack;
        t->user_nstack = e->setjmp_nstack;
    } else {
        t->disp++;
    }
    f->flags &= (uint8_t)~(UFT_FL_EXEC | UFT_FL_LONGJMP);
}

/* Display depth of an exit line. */
long uft_stream_exiting(uft_stask *t)
{
    if (!t->disp_set) { /* a fork child starts with an exit */
        t->disp = t->nstack + 1;
        t->disp_set = 1;
    }
    t->disp = t->disp > 0 ? t->disp - 1 : 0;
    return t->disp;
}

/* A function exit (already taken): its frame is done. */
void uft_stream_exited(uft_stream *e, uft_stask *t)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack);
    if (f == NULL) return;
    f->flags = 0;
    t->budget = f->orig_depth;
}

/* Would the record be hidden? -1 yes (no session, or beyond the depth
   limit; for an exit: its entry was hidden), 0 no. */
int uft_stream_hidden(uft_stream *e, uft_stask *t, const uft_view *r)
{
    uft_frame *f;
    if (r->type == TDEC_UFTRACE_REC_EXIT) {
        if (t->nstack < 1) return 0;
        f = uft_stream_frame(e, t, t->nstack - 1);
        if (f == NULL || (f->flags & UFT_FL_NORECORD)) return -1;
        return 0;
    }
    if (uft_stream_session(e, t, r->time) == NULL) return -1;
    return t->budget <= 0 ? -1 : 0;
}

/* Looks at what comes after the current record of t (depth: its record
   depth), taking hidden records on the way. Returns the task of the next
   record that will be shown, NULL if none or if it must not be merged. */
uft_stask *uft_stream_peek_shown(uft_stream *e, uft_stask *t, uint32_t depth)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack - 1);
    int src = t->cur_src;
    uft_stask *next;
    if (f == NULL || (f->flags & (UFT_FL_EXEC | UFT_FL_LONGJMP))) return NULL;
    if ((next = uft_stream_next(e, 0)) == NULL) return NULL;
    for (;;) {
        const uft_view *r = &next->cur; /* until the next uft_stream_next() */
        if (next == t && next->cur_src == src && depth >= r->depth) break;
        if (!(r->type == TDEC_UFTRACE_REC_EVENT && next->user_nstack == 0)) {
            if (r->type == TDEC_UFTRACE_REC_LOST) return NULL;
            if (uft_stream_hidden(e, next, r) >= 0) break;
        }
        uft_stream_take(e, next);
        if (r->type == TDEC_UFTRACE_REC_ENTRY) uft_stream_enter(e, next, r, st_special_at(e, next, r));
        else if (r->type == TDEC_UFTRACE_REC_EXIT) uft_stream_exited(e, next);
        if ((next = uft_stream_next(e, 0)) == NULL) return NULL;
    }
    return next;
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

/* The recording's default.opts, which uftrace 0.13 applies to replay: its
   time filter (-t, the one option `uftrace record` writes there) is
   honoured; anything else is reported on stderr as not applied. */
static void st_default_opts(uft_stream *e)
{
    char path[4096], msg[8192], rest[4096] = "", *text, *tok, *save = NULL;
    const char *val;
    size_t len;
    int unknown_unit;
    snprintf(path, sizeof path, "%s/default.opts", e->dir->path);
    if ((text = uft_read_file(path, &len)) == NULL) return;
    for (tok = strtok_r(text, " \t\r\n", &save); tok != NULL; tok = strtok_r(NULL, " \t\r\n", &save)) {
        val = NULL;
        if (strcmp(tok, "-t") == 0 || strcmp(tok, "--time-filter") == 0) val = strtok_r(NULL, " \t\r\n", &save);
        else if (strncmp(tok, "-t", 2) == 0) val = tok + 2;
        else if (strncmp(tok, "--time-filter=", 14) == 0) val = tok + 14;
        if (val == NULL) {
            snprintf(rest + strlen(rest), sizeof rest - strlen(rest), "%s%s", rest[0] ? " " : "", tok);
        } else if (e->time_filter != 0) {
            continue; /* as in uftrace, the first time filter holds */
        } else if (!uft_parse_time(val, &e->time_filter, &unknown_unit)) {
            snprintf(msg, sizeof msg, "%s: time filter '%s' not applied", path, val);
            cli_diag(e->err, "note", -1, msg, "uftrace 0.13 refuses it (3 digits at most before the point)");
        } else if (unknown_unit) {
            snprintf(msg, sizeof msg, "%s: time filter '%s': unknown unit read as ns, as uftrace 0.13 does", path, val);
            cli_diag(e->err, "note", -1, msg, NULL);
        }
    }
    if (rest[0]) {
        snprintf(msg, sizeof msg, "%s: options not applied (uftrace replay applies them, tracedec does not yet)", path);
        cli_diag(e->err, "note", -1, msg, rest);
    }
    free(text);
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
        st_take_perf(e);
        if (n == cap) {
            cap = cap * 2 + 256;
            e->perf_kept = (tdec_uftrace_perf_record *)st_realloc(e->perf_kept, cap * sizeof *e->perf_kept);
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
            held[k] = (size_t *)st_realloc(held[k], capheld[k] * sizeof **held);
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


int uft_stream_open(uft_stream *e, uft_dir *dir, out_buf *out, out_buf *err)
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
    e->last_perf = -1;
    e->max_stack = (dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_MAX_STACK) ? (long)dir->hdr.max_stack : 1024;
    e->estimate = (dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_ESTIMATE_RETURN) != 0;
    e->ntasks = dir->ntids;
    e->tasks = (uft_stask *)st_alloc(e->ntasks * sizeof *e->tasks);
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        t->tid = dir->tids[i];
        t->t = uft_find_task(dir, t->tid);
        t->rd.fd = -1;
        t->slot[0] = (uft_rec *)st_alloc(sizeof(uft_rec));
        t->slot[1] = (uft_rec *)st_alloc(sizeof(uft_rec));
        t->budget = UFT_DEPTH_DEFAULT;
        t->disp_set = 1;
    }
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        if (uft_task_open(&t->rd, dir, t->tid) < 0)
            return uft_fail(out, err, t->rd.path, t->rd.err.offset, t->rd.err.what, t->rd.err.detail);
    }
    st_default_opts(e);
    if ((dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_PERF_EVENT) && st_open_perf(e) < 0) return 1;
    if (e->time_filter && e->nperf > 0) st_perf_preload(e);
    snprintf(file, sizeof file, "%s/extern.dat", dir->path);
    e->ext.text = uft_read_file(file, &e->ext.len); /* none: no external data */
    return 0;
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
    }
    for (i = 0; i < e->nperf; i++) uft_perf_close(&e->perf[i].rd);
    free(e->tasks);
    free(e->perf);
    free(e->perf_kept);
    free(e->ext.text);
    memset(e, 0, sizeof *e);
}

int uft_stream_check_filter(uft_stream *e, uft_stask *t)
{
    const uft_view *r = &t->cur;
    uft_frame *f;
    const uft_map *map;
    const uft_sym *sym;
    if (r->type == TDEC_UFTRACE_REC_ENTRY) {
        if (uft_stream_frame(e, t, t->nstack - 1) == NULL) return 0;
        sym = uft_find_sym_map(e->dir, t->t, r->time, r->addr, &map);
        return uft_stream_enter(e, t, r, uft_stream_special(e, sym, map)) == 0;
    }
    if (r->type == TDEC_UFTRACE_REC_EXIT) {
        if ((f = uft_stream_frame(e, t, t->nstack)) == NULL) return 0;
        if (f->flags & UFT_FL_NORECORD) {
            uft_stream_exited(e, t);
            return 0;
        }
        uft_stream_exiting(t);
        return 1;
    }
    if (r->type == TDEC_UFTRACE_REC_EVENT) {
        if (t->budget <= 0) return 0;
        if (r->addr == UFT_EV_SCHED_IN) return uft_stream_frame(e, t, t->nstack) != NULL;
        if (r->addr == UFT_EV_SCHED_OUT) return uft_stream_frame(e, t, t->nstack - 1) != NULL;
    }
    return 1;
}

void uft_stream_filter_done(uft_stream *e, uft_stask *t)
{
    if (t->cur.type == TDEC_UFTRACE_REC_ENTRY) uft_stream_entered(e, t, uft_stream_frame(e, t, t->nstack - 1));
    else if (t->cur.type == TDEC_UFTRACE_REC_EXIT) uft_stream_exited(e, t);
}
