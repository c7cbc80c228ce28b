/* fe_uftrace_replay.c - `tracedec replay DIR`: the call trees of a uftrace
   data directory exactly as `uftrace replay` (v0.13, default fields
   duration,tid) prints them.

   Reading: one uft_task_reader per <tid>.dat (taskinfo order) and one
   uft_perf_reader per perf-cpuN.dat, each streaming its file through its
   own CLI_CHUNK buffer; every reader holds one record ahead. The next
   record is always the earliest one: among the tasks the first in
   taskinfo order wins a tie, among the perf files the first by name, and
   a task record wins over a perf record of the same time.

   Replaying: uftrace's output is the product of a small state machine per
   task (a stack of frames with start times and durations, the display
   depth, counters of user frames) driven by records in that merged order,
   including its quirks: perf sched-out/sched-in pairs are pseudo frames
   (a fork child inherits the parent's frames that way), a function whose
   next record is its own exit is printed on one line, events outside
   user functions are dropped, exec and longjmp rewind the stack, LOST
   records reset it. The model below reproduces that machine; see
   ../shared/formats/uftrace/FACTS.md sections 8-13 for the data. */
#define _POSIX_C_SOURCE 200809L
#include "frontends.h"
#include "uft_dir.h"
#include "uft_read.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* event ids of the perf scheduler records */
#define EV_SCHED_IN        200001u
#define EV_SCHED_OUT       200002u
#define EV_SCHEDULE        200003u
#define EV_TASK_NAME       200006u
#define EV_SCHED_OUT_PRE   200007u
#define EV_SCHEDULE_PRE    200008u

/* uftrace's default depth limit (replay -D): deeper frames are hidden */
#define RP_DEPTH_DEFAULT 1024

/* frame flags */
#define RP_FL_EXEC     1u /* an exec*() call: the image restarts at depth 0   */
#define RP_FL_LONGJMP  2u /* a longjmp(): back to the setjmp() depth           */
#define RP_FL_NORECORD 4u /* entered beyond the depth limit: never printed     */

enum { RP_NONE, RP_USER, RP_PERF };

typedef struct rp_frame {
    uint64_t addr;
    uint64_t time;       /* start time while open; its duration once exited */
    long     orig_depth; /* depth budget to restore at its exit             */
    uint8_t  valid;      /* time is a start time                            */
    uint8_t  flags;
} rp_frame;

/* A record as a task sees it. */
typedef struct rp_view {
    uint32_t       type, more, depth;
    uint64_t       time, addr;
    const uft_rec *rec;      /* a <tid>.dat record with its payload; NULL for perf */
    char           comm[17]; /* perf COMM: the new task name */
} rp_view;

typedef struct rp_task {
    int32_t         tid;
    const uft_task *t;
    uft_task_reader rd;
    uft_rec        *slot[2]; /* [0] the record ahead, [1] the last one taken     */
    int             ahead;   /* slot[0] holds a record not taken yet            */
    int             ended;
    rp_view         cur;     /* the task's current record (uftrace's rstack)    */
    int             cur_src; /* RP_USER or RP_PERF                              */
    rp_frame       *frames;      /* grown on use, up to max_stack              */
    long            nframes;
    long            nstack;      /* frames in use                               */
    long            user_nstack; /* of them, function frames                    */
    long            disp;        /* indentation of the next line                */
    int             disp_set;
    int             stack_set;   /* the stack was sized from the first record   */
    int             fork_done;
    long            fork_disp;   /* display depth a forked child starts with     */
    long            budget;      /* depth budget (uftrace's filter depth)        */
    int             lost_seen;
    uint64_t        est, est_next; /* -e/--estimate-return bookkeeping           */
    const uft_session *sess;       /* rp_session(): the answer in [sess_from, sess_to) */
    uint64_t        sess_from, sess_to;
    char            tid_col[24];   /* " [   TID] | "                             */
    size_t          tid_col_len;
} rp_task;

typedef struct rp_perf {
    uft_perf_reader          rd;
    tdec_uftrace_perf_record head;
    int                      valid, done;
} rp_perf;

/* A line being built (argument lists can be long). */
typedef struct rp_text {
    char   buf[8192];
    size_t len;
} rp_text;

typedef struct rp {
    uft_dir *dir;
    out_buf *out, *err;
    rp_task *tasks;
    size_t   ntasks;
    rp_perf *perf;
    size_t   nperf;
    long     last_perf; /* the perf file the latest pick chose, -1 if none */
    int      perf_picked; /* last_perf holds until a perf record is taken */
    rp_task *peeked;      /* rp_next() without take chose it; holds until a take */
    rp_view  perf_cur;  /* the latest perf record picked, shared by all tasks */
    long     max_stack;
    long     setjmp_disp, setjmp_nstack;
    int      estimate;
    int      failed;    /* a file could not be read: error reported, output stops */
    rp_text  args, ret; /* pieces of the line being printed */
    const uft_sym *special_sym[256]; /* rp_special() answers by symbol */
    char           special_kind[256];
} rp;

static void *rp_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (p == NULL) {
        fputs("tracedec: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

/* rp_frame_at() beyond the frames allocated so far */
static rp_frame *rp_frame_grow(const rp *e, rp_task *t, long idx)
{
    long n, i;
    if (idx < 0 || idx >= e->max_stack) return NULL;
    if (idx >= t->nframes) {
        n = t->nframes * 2 > idx + 1 ? t->nframes * 2 : idx + 1 + 64;
        if (n > e->max_stack) n = e->max_stack;
        t->frames = (rp_frame *)realloc(t->frames, (size_t)n * sizeof *t->frames);
        if (t->frames == NULL) {
            fputs("tracedec: out of memory\n", stderr);
            exit(2);
        }
        for (i = t->nframes; i < n; i++) {
            memset(&t->frames[i], 0, sizeof t->frames[i]);
            t->frames[i].orig_depth = RP_DEPTH_DEFAULT;
        }
        t->nframes = n;
    }
    return &t->frames[idx];
}

/* Frame idx of the task (uftrace keeps max_stack of them), NULL out of
   range. May move the frames: hold indexes, not pointers, across calls. */
static inline rp_frame *rp_frame_at(const rp *e, rp_task *t, long idx)
{
    if (idx >= 0 && idx < t->nframes) return &t->frames[idx]; /* nframes <= max_stack */
    return rp_frame_grow(e, t, idx);
}

/* uft_task_session() of the task, remembered while it holds. */
static const uft_session *rp_session(rp *e, rp_task *t, uint64_t time)
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

static rp_task *rp_task_by_tid(rp *e, int32_t tid)
{
    size_t i;
    for (i = 0; i < e->ntasks; i++)
        if (e->tasks[i].tid == tid) return &e->tasks[i];
    return NULL;
}

static int rp_is_sched(uint64_t id)
{
    return id == EV_SCHED_IN || id == EV_SCHED_OUT || id == EV_SCHED_OUT_PRE;
}

/* ---- reading ahead ------------------------------------------------------------ */

static void rp_task_error(rp *e, rp_task *t)
{
    if (!e->failed) uft_fail(e->out, e->err, t->rd.path, t->rd.err.offset, t->rd.err.what, t->rd.err.detail);
    e->failed = 1;
}

/* Makes sure the task has its next record in slot[0]; 0 when it has none. */
static int rp_task_ahead(rp *e, rp_task *t)
{
    int rc;
    if (t->ahead) return 1;
    if (t->ended || e->failed) return 0;
    rc = uft_task_next(&t->rd, t->slot[0]);
    if (rc > 0 && t->slot[0]->incomplete) rc = uft_task_next(&t->rd, t->slot[0]);
    if (rc == 0) {
        t->ended = 1;
        return 0;
    }
    if (rc < 0) {
        rp_task_error(e, t);
        return 0;
    }
    t->ahead = 1;
    return 1;
}

static int rp_perf_ahead(rp *e, rp_perf *p)
{
    int rc;
    while (!p->valid && !p->done && !e->failed) {
        rc = uft_perf_next(&p->rd, &p->head);
        if (rc == 0) {
            p->done = 1;
        } else if (rc < 0) {
            uft_fail(e->out, e->err, p->rd.path, p->rd.err.offset, p->rd.err.what, p->rd.err.detail);
            e->failed = 1;
            p->done = 1;
        } else if (rp_task_by_tid(e, (int32_t)p->head.tid) != NULL) {
            p->valid = 1; /* records of untraced tasks are passed over */
        }
    }
    return p->valid;
}

/* The perf file whose next record is the earliest, -1 if none. */
static long rp_perf_pick(rp *e)
{
    uint64_t min = UINT64_MAX;
    long best = -1;
    size_t i;
    if (e->perf_picked) return e->last_perf;
    for (i = 0; i < e->nperf; i++) {
        rp_perf *p = &e->perf[i];
        if (p->done && !p->valid) continue;
        if (!rp_perf_ahead(e, p)) continue;
        if (p->head.time < min) {
            min = p->head.time;
            best = (long)i;
        }
    }
    e->last_perf = best;
    e->perf_picked = !e->failed;
    return best;
}

/* ---- the stack model ------------------------------------------------------------ */

/* -e data: delays the exit that follows a sched-out until the sched-in,
   then estimates its time between the sched-in and the next entry. */
static void rp_estimate_after_sched(rp *e, rp_task *t)
{
    uft_rec *next;
    rp_frame *prev;
    if (!t->ahead) return;
    next = t->slot[0];
    if (next->rec.type == TDEC_UFTRACE_ENTRY) {
        t->est_next = 0;
        return;
    }
    if (t->cur.addr == EV_SCHED_IN && t->nstack >= 2) prev = rp_frame_at(e, t, t->nstack - 2);
    else prev = rp_frame_at(e, t, t->nstack - 1);
    if (prev == NULL || prev->addr != next->rec.addr) return;
    if (t->cur.addr == EV_SCHED_OUT || t->cur.addr == EV_SCHED_OUT_PRE) {
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
static int rp_stack_type(const rp_view *r)
{
    if (r->type != TDEC_UFTRACE_EVENT) return (int)r->type;
    if (r->addr == EV_SCHED_OUT || r->addr == EV_SCHED_OUT_PRE) return TDEC_UFTRACE_ENTRY;
    if (r->addr == EV_SCHED_IN) return TDEC_UFTRACE_EXIT;
    return -1;
}

/* Frame times and stack size for a record just taken. */
static void rp_account(rp *e, rp_task *t, const rp_view *r)
{
    int type = rp_stack_type(r);
    uint32_t depth = r->type == TDEC_UFTRACE_EVENT ? 0 : r->depth;
    rp_frame *f;
    long i;
    uint64_t d;
    if (type < 0) return;
    if (!t->stack_set) {
        /* the first record sizes the stack: a fork child starts inside */
        t->nstack = (long)depth + (type == TDEC_UFTRACE_EXIT);
        t->stack_set = 1;
        if (!t->fork_done) {
            rp_task *parent = t->t ? rp_task_by_tid(e, t->t->ppid) : NULL;
            if (parent && parent->fork_disp) {
                t->disp = parent->fork_disp;
                t->disp_set = 1;
            }
            t->fork_done = 1;
        }
        for (i = 0; i < t->nstack; i++) {
            if ((f = rp_frame_at(e, t, i)) != NULL) {
                f->time = r->time;
                f->valid = 1;
            }
        }
        t->budget = RP_DEPTH_DEFAULT;
    }
    if (t->lost_seen) {
        if (type == TDEC_UFTRACE_LOST) return;
        t->nstack = (long)depth + (type == TDEC_UFTRACE_EXIT);
        t->lost_seen = 0;
        for (i = 0; i <= (long)depth; i++)
            if ((f = rp_frame_at(e, t, i + t->user_nstack)) != NULL) f->time = r->time - 1;
    }
    switch (type) {
    case TDEC_UFTRACE_ENTRY:
        if ((f = rp_frame_at(e, t, t->nstack)) == NULL) return;
        f->addr = r->addr;
        f->time = r->time;
        f->valid = 1;
        break;
    case TDEC_UFTRACE_EXIT:
        if ((f = rp_frame_at(e, t, t->nstack - 1)) == NULL) return;
        d = f->valid ? r->time - f->time : 0;
        f->valid = 0;
        f->time = d;
        break;
    case TDEC_UFTRACE_LOST: {
        uint64_t lost_time = 0;
        t->lost_seen = 1;
        t->disp_set = 0;
        /* what is still open counts as ending right after it started */
        for (i = t->nstack; i >= t->user_nstack; i--) {
            if ((f = rp_frame_at(e, t, i)) == NULL) continue;
            if (lost_time == 0) lost_time = f->time + 1;
            f->time = lost_time - f->time;
        }
        break;
    }
    default:
        break;
    }
}

static void rp_count(rp_task *t, const rp_view *r)
{
    int type = rp_stack_type(r);
    int user = r->type != TDEC_UFTRACE_EVENT;
    if (type == TDEC_UFTRACE_ENTRY) {
        t->nstack++;
        if (user) t->user_nstack++;
    } else if (type == TDEC_UFTRACE_EXIT) {
        if (t->nstack > 0) t->nstack--;
        if (user && t->user_nstack > 0) t->user_nstack--;
    }
}

/* Takes the task's current record (the one rp_next() just chose). */
static void rp_take(rp *e, rp_task *t)
{
    const rp_view *r = &t->cur;
    if (t->cur_src == RP_USER) {
        uft_rec *s = t->slot[0];
        t->slot[0] = t->slot[1];
        t->slot[1] = s;
        t->ahead = 0;
    } else if (e->last_perf >= 0) {
        e->perf[e->last_perf].valid = 0;
        e->perf_picked = 0;
    }
    e->peeked = NULL;
    rp_account(e, t, r);
    rp_count(t, r);
}

/* The task with the earliest next record, which becomes its current
   record; taken too if `take`. NULL at the end (or after an error). */
static rp_task *rp_next(rp *e, int take)
{
    rp_task *best = NULL, *t;
    uint64_t min = UINT64_MAX;
    int src = RP_NONE;
    long p = -1;
    size_t i;
    if (e->failed) return NULL;
    if (e->peeked != NULL) {
        t = e->peeked;
        if (take) rp_take(e, t);
        return t;
    }
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        if (!rp_task_ahead(e, t)) {
            if (e->failed) return NULL;
            continue;
        }
        if (best == NULL || t->slot[0]->rec.time < min) {
            best = t;
            min = t->slot[0]->rec.time;
        }
    }
    if (best) src = RP_USER;
    if (e->nperf > 0) {
        p = rp_perf_pick(e);
        if (e->failed) return NULL;
        if (p >= 0 && e->perf[p].head.time < min) src = RP_PERF;
    }
    if (src == RP_USER) {
        const uft_rec *u = best->slot[0];
        t = best;
        t->cur.type = u->rec.type;
        t->cur.more = u->rec.more;
        t->cur.depth = u->rec.depth;
        t->cur.time = u->rec.time;
        t->cur.addr = u->rec.addr;
        t->cur.rec = u;
        t->cur.comm[0] = '\0';
        t->cur_src = RP_USER;
        if (e->estimate && t->est != 0) {
            /* estimated exits stay after an estimate made at a sched-in */
            if (t->cur.type == TDEC_UFTRACE_EXIT && t->cur.time <= t->est) t->cur.time = ++t->est;
            else t->est = t->est_next = 0;
        }
    } else if (src == RP_PERF) {
        const tdec_uftrace_perf_record *h = &e->perf[p].head;
        rp_view *v = &e->perf_cur;
        t = rp_task_by_tid(e, (int32_t)h->tid);
        v->type = TDEC_UFTRACE_EVENT;
        v->addr = uft_perf_event_id(h);
        v->more = v->addr == EV_TASK_NAME;
        v->depth = 0;
        v->time = h->time;
        v->rec = NULL;
        memcpy(v->comm, h->comm, sizeof v->comm);
        v->comm[sizeof v->comm - 1] = '\0';
        t->cur = *v;
        t->cur_src = RP_PERF;
        if (rp_is_sched(v->addr) && e->estimate && t->nstack > 0) rp_estimate_after_sched(e, t);
    } else {
        return NULL;
    }
    if (take) rp_take(e, t);
    else if (!e->estimate) e->peeked = t; /* -e estimates are redone on every call */
    return t;
}

/* Is the symbol at addr one of the calls replay treats specially? Returns
   'e' exec*, 's' setjmp, 'l' longjmp, 'f' fork/vfork/daemon, 0 none. */
static int rp_special(rp *e, rp_task *t, uint64_t time, uint64_t addr)
{
    static const char *const names[] = {
        "execl", "execlp", "execle", "execv", "execve", "execvp", "execvpe", "setjmp", "_setjmp",
        "sigsetjmp", "__sigsetjmp", "longjmp", "siglongjmp", "__longjmp_chk", "fork", "vfork", "daemon",
    };
    const uft_map *map;
    const uft_sym *sym = uft_find_sym_map(e->dir, t->t, time, addr, &map);
    size_t i;
    size_t slot = ((uintptr_t)sym / sizeof *sym) & 255u;
    int kind = 0;
    if (sym == NULL || map == NULL) return 0; /* only symbols of the session's maps */
    if (e->special_sym[slot] == sym) return e->special_kind[slot];
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        if (strcmp(sym->name, names[i]) != 0) continue;
        if (strncmp(names[i], "exec", 4) == 0) kind = 'e';
        else if (strstr(names[i], "setjmp")) kind = 's';
        else if (strstr(names[i], "longjmp")) kind = 'l';
        else kind = 'f';
        break;
    }
    e->special_sym[slot] = sym;
    e->special_kind[slot] = (char)kind;
    return kind;
}

/* A function entry (already taken): sets up its frame. -1: not shown. */
static int rp_enter(rp *e, rp_task *t, const rp_view *r)
{
    rp_frame *f = rp_frame_at(e, t, t->nstack - 1);
    if (f == NULL) return -1;
    f->orig_depth = t->budget;
    f->flags = 0;
    if (rp_session(e, t, r->time) != NULL) {
        switch (rp_special(e, t, r->time, r->addr)) {
        case 'e': f->flags |= RP_FL_EXEC; break;
        case 's':
            e->setjmp_disp = t->disp + 1;
            e->setjmp_nstack = t->nstack;
            break;
        case 'l': f->flags |= RP_FL_LONGJMP; break;
        case 'f': t->fork_disp = t->disp + 1; break;
        default: break;
        }
    }
    if (t->budget <= 0) {
        f->flags |= RP_FL_NORECORD;
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
static void rp_entered(rp *e, rp_task *t, rp_frame *f)
{
    if (f == NULL) return;
    if (f->flags & RP_FL_EXEC) {
        t->disp = 0;
        t->nstack = 0;
        t->user_nstack = 0;
    } else if (f->flags & RP_FL_LONGJMP) {
        t->disp = e->setjmp_disp;
        t->nstack = e->setjmp_nstack;
        t->user_nstack = e->setjmp_nstack;
    } else {
        t->disp++;
    }
    f->flags &= (uint8_t)~(RP_FL_EXEC | RP_FL_LONGJMP);
}

/* Display depth of an exit line. */
static long rp_exiting(rp_task *t)
{
    if (!t->disp_set) { /* a fork child starts with an exit */
        t->disp = t->nstack + 1;
        t->disp_set = 1;
    }
    t->disp = t->disp > 0 ? t->disp - 1 : 0;
    return t->disp;
}

/* A function exit (already taken): its frame is done. */
static void rp_exited(rp *e, rp_task *t)
{
    rp_frame *f = rp_frame_at(e, t, t->nstack);
    if (f == NULL) return;
    f->flags = 0;
    t->budget = f->orig_depth;
}

/* Would the record be hidden? -1 yes (no session, or beyond the depth
   limit; for an exit: its entry was hidden), 0 no. */
static int rp_hidden(rp *e, rp_task *t, const rp_view *r)
{
    rp_frame *f;
    if (r->type == TDEC_UFTRACE_EXIT) {
        if (t->nstack < 1) return 0;
        f = rp_frame_at(e, t, t->nstack - 1);
        if (f == NULL || (f->flags & RP_FL_NORECORD)) return -1;
        return 0;
    }
    if (rp_session(e, t, r->time) == NULL) return -1;
    return t->budget <= 0 ? -1 : 0;
}

/* Looks at what comes after the current record of t (depth: its record
   depth), taking hidden records on the way. Returns the task of the next
   record that will be shown, NULL if none or if it must not be merged. */
static rp_task *rp_peek_shown(rp *e, rp_task *t, uint32_t depth)
{
    rp_frame *f = rp_frame_at(e, t, t->nstack - 1);
    int src = t->cur_src;
    rp_task *next;
    if (f == NULL || (f->flags & (RP_FL_EXEC | RP_FL_LONGJMP))) return NULL;
    if ((next = rp_next(e, 0)) == NULL) return NULL;
    for (;;) {
        rp_view r = next->cur;
        if (next == t && next->cur_src == src && depth >= r.depth) break;
        if (!(r.type == TDEC_UFTRACE_EVENT && next->user_nstack == 0)) {
            if (r.type == TDEC_UFTRACE_LOST) return NULL;
            if (rp_hidden(e, next, &r) >= 0) break;
        }
        rp_take(e, next);
        if (r.type == TDEC_UFTRACE_ENTRY) rp_enter(e, next, &r);
        else if (r.type == TDEC_UFTRACE_EXIT) rp_exited(e, next);
        if ((next = rp_next(e, 0)) == NULL) return NULL;
    }
    return next;
}

/* ---- text -------------------------------------------------------------------------- */

static void rp_put(rp_text *s, const char *p, size_t n)
{
    if (n > sizeof s->buf - 1 - s->len) n = sizeof s->buf - 1 - s->len;
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    s->buf[s->len] = '\0';
}

static void rp_puts(rp_text *s, const char *p)
{
    rp_put(s, p, strlen(p));
}

#if defined(__GNUC__) || defined(__clang__)
static void rp_printf(rp_text *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
static void rp_printf(rp_text *s, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(s->buf + s->len, sizeof s->buf - s->len, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    s->len += (size_t)n < sizeof s->buf - s->len ? (size_t)n : sizeof s->buf - 1 - s->len;
}

/* The escapes replay uses for strings and chars. */
static void rp_put_escaped(rp_text *s, char c)
{
    if (c == '\0') rp_puts(s, "\\0");
    else if (c == '\b') rp_puts(s, "\\b");
    else if (c == '\n') rp_puts(s, "\\n");
    else rp_put(s, &c, 1);
}

/* Symbol of a pointer value, as replay resolves it (scheduler pseudo
   functions included). */
static const char *rp_ptr_name(rp *e, rp_task *t, uint64_t time, uint64_t v)
{
    const uft_sym *sym;
    if (rp_session(e, t, time) == NULL) return NULL;
    sym = uft_find_sym(e->dir, t->t, time, v);
    if (sym) return sym->name;
    if (v == EV_SCHED_IN || v == EV_SCHED_OUT || v == EV_SCHEDULE) return "linux:schedule";
    if (v == EV_SCHED_OUT_PRE || v == EV_SCHEDULE_PRE) return "linux:schedule (pre-empted)";
    return NULL;
}

/* An integer as printf("%#<len><conv>") prints the value uftrace passes:
   `width` bits of it (8, 16, 32 or 64). */
static void rp_put_int(rp_text *s, uint64_t v, unsigned width, char conv)
{
    uint64_t mask = width >= 64 ? UINT64_MAX : (((uint64_t)1 << width) - 1);
    uint64_t u = v & mask;
    int64_t i = (int64_t)u;
    if (width < 64 && (u >> (width - 1)) & 1u) i = (int64_t)(u | ~mask);
    switch (conv) {
    case 'd': case 'i': rp_printf(s, "%lld", (long long)i); break;
    case 'u': rp_printf(s, "%llu", (unsigned long long)u); break;
    case 'o': rp_printf(s, u ? "0%llo" : "0", (unsigned long long)u); break;
    default:  rp_printf(s, u ? "%#llx" : "0", (unsigned long long)u); break;
    }
}

static unsigned rp_width_of(unsigned size)
{
    return size >= 8 ? 64u : size >= 4 ? 32u : size >= 2 ? 16u : 8u;
}

/* One value of a block, in replay's syntax. */
static void rp_value(rp *e, rp_task *t, const rp_view *r, const uft_val *v, rp_text *s)
{
    const uft_rec *u = r->rec;
    const tdec_uftrace_arg *a = &v->arg;
    uint64_t x = v->value;
    char name[64];
    size_t i, n;

    switch (a->kind) {
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING: {
        const uint8_t *p = u->bytes + v->off;
        if (v->len == 4 && p[0] == 0xff && p[1] == 0xff && p[2] == 0xff && p[3] == 0xff) {
            rp_puts(s, "NULL");
        } else {
            /* text up to its first NUL; printed raw when a byte with the
               high bit set is followed by more text, else escaped */
            n = strnlen((const char *)p, v->len);
            for (i = 0; i < n && !(p[i] & 0x80); i++) continue;
            rp_puts(s, "\"");
            if (i + 1 < n) rp_put(s, (const char *)p, n);
            else
                for (i = 0; i < n; i++) rp_put_escaped(s, (char)p[i]);
            rp_puts(s, "\"");
        }
        if (a->kind == TDEC_UFTRACE_V_STDSTRING) rp_puts(s, "s");
        return;
    }
    case TDEC_UFTRACE_V_CHAR:
        rp_puts(s, "'");
        rp_put_escaped(s, (char)(x & 0xff));
        rp_puts(s, "'");
        return;
    case TDEC_UFTRACE_V_FLOAT:
        if (a->size == 4) {
            float f;
            memcpy(&f, v->raw, 4);
            rp_printf(s, "%#f", (double)f);
        } else if (a->size == 8) {
            double d;
            memcpy(&d, v->raw, 8);
            rp_printf(s, "%#f", d);
        } else if (a->size == 10) {
            /* x87 extended precision: what uftrace's host (x86) reads */
            long double ld = 0;
            memcpy(&ld, v->raw, sizeof ld < 10 ? sizeof ld : 10);
            rp_printf(s, "%#Lf", ld);
        }
        return;
    case TDEC_UFTRACE_V_STRUCT:
        uft_val_type_name(u, v, name, sizeof name);
        if (strcmp(name, "<lambda") != 0) rp_puts(s, name);
        rp_puts(s, a->size ? "{...}" : "{}");
        return;
    default:
        break;
    }
    if (a->format == 'p') {
        const char *sym = rp_ptr_name(e, t, r->time, x);
        if (sym) rp_printf(s, "&%s", sym);
        else if (x) rp_printf(s, "%#llx", (unsigned long long)x);
        else rp_puts(s, "0");
        return;
    }
    if (a->format == 'e') {
        const uft_map *map = NULL;
        char text[1024];
        if (rp_session(e, t, r->time) != NULL) uft_find_sym_map(e->dir, t->t, r->time, r->addr, &map);
        if (map == NULL) {
            rp_printf(s, "<ENUM?> %x", (unsigned)(int32_t)x);
            return;
        }
        uft_val_type_name(u, v, name, sizeof name);
        uft_enum_text(e->dir, map->mod, name, (int32_t)x, text, sizeof text);
        rp_puts(s, text);
        return;
    }
    if (a->format == 'd') {
        /* automatic: decimal, hex beyond +-100000, but a 32-bit negative
           number stays decimal */
        int64_t sv = (int64_t)x;
        if (sv > 100000 || sv < -100000) {
            if (x > 0xffff0000u && x <= 0xffffffffu) rp_put_int(s, x, 32, 'd');
            else rp_put_int(s, x, rp_width_of(a->size), 'x');
            return;
        }
        rp_put_int(s, x, rp_width_of(a->size), 'd');
        return;
    }
    if (a->format == 'u' && x > 100000) {
        rp_put_int(s, x, rp_width_of(a->size), 'x');
        return;
    }
    rp_put_int(s, x, rp_width_of(a->size), (char)a->format);
}

/* "(a, b)" after a function name, or " = v" after a return. */
static void rp_values(rp *e, rp_task *t, const rp_view *r, int is_exit, rp_text *s)
{
    uint32_t k, n = r->rec ? r->rec->nvals : 0;
    rp_puts(s, is_exit ? " = " : "(");
    for (k = 0; k < n; k++) {
        if (k > 0) rp_puts(s, ", ");
        rp_value(e, t, r, &r->rec->vals[k], s);
        if (is_exit) break; /* only the first return value */
    }
    if (!is_exit) rp_puts(s, ")");
}

/* The duration column (10 characters, blank for 0) at p: "%3u.%03u us". */
static char *rp_fmt_duration(char *p, uint64_t ns)
{
    static const char units[] = "usms s m h";
    static const uint64_t limit[] = {1000, 1000, 1000, 60, 24, 0x7fffffff};
    int64_t sv = (int64_t)ns;
    uint64_t d = sv < 0 ? (uint64_t)0 - (uint64_t)sv : (uint64_t)sv, small = 0;
    unsigned idx = 0;
    if (ns == 0) return fmt_lit(p, "          ");
    if (ns < 1000000u) { /* the common case, in 32-bit arithmetic */
        d = (uint32_t)ns / 1000u;
        small = (uint32_t)ns % 1000u;
    } else {
        for (idx = 0; idx < 5; idx++) {
            small = d % limit[idx];
            d /= limit[idx];
            if (d < limit[idx + 1]) break;
        }
    }
    if (idx == 5) idx = 4;
    if (d > 999) d = small = 999;
    *p++ = d >= 100 ? (char)('0' + d / 100) : ' ';
    *p++ = d >= 10 ? (char)('0' + d / 10 % 10) : ' ';
    *p++ = (char)('0' + d % 10);
    *p++ = '.';
    *p++ = (char)('0' + small / 100);
    *p++ = (char)('0' + small / 10 % 10);
    *p++ = (char)('0' + small % 10);
    *p++ = ' ';
    *p++ = units[idx * 2];
    *p++ = units[idx * 2 + 1];
    return p;
}

/* " [   TID] | " of the task, kept in it */
static void rp_tid_column(rp_task *t)
{
    char *p = fmt_lit(t->tid_col, " [");
    p = fmt_lit(fmt_i64w(p, t->tid, 6), "] | ");
    t->tid_col_len = (size_t)(p - t->tid_col);
}

/* " DURATION [   TID] | " */
static void rp_columns(rp *e, const rp_task *t, const rp_frame *f)
{
    char *p = out_reserve(e->out, 64);
    *p++ = ' ';
    p = rp_fmt_duration(p, f ? f->time : 0);
    p = fmt_mem(p, t->tid_col, t->tid_col_len);
    out_commit(e->out, p);
}

static void rp_indent(rp *e, long n)
{
    static const char spaces[] = "                                                                ";
    while (n > 0) {
        long k = n < 64 ? n : 64;
        out_mem(e->out, spaces, (size_t)k);
        n -= k;
    }
}

/* The function's name, or "<addr>" in buf; its length in *n. */
static const char *rp_func_name(rp *e, rp_task *t, const rp_view *r, char *buf, size_t len, size_t *n)
{
    const uft_sym *sym = uft_find_sym(e->dir, t->t, r->time, r->addr);
    if (sym) {
        *n = sym->name_len;
        return sym->name;
    }
    snprintf(buf, len, "<%llx>", (unsigned long long)r->addr);
    *n = strlen(buf);
    return buf;
}

/* A function line: the columns, `indent` spaces, then the n pieces. */
static void rp_line(rp *e, const rp_task *t, const rp_frame *f, long indent, const char *const *piece,
                    const size_t *len, size_t n)
{
    size_t need = 64 + (indent > 0 ? (size_t)indent : 0), i;
    char *p;
    for (i = 0; i < n; i++) need += len[i];
    if (need > OUT_BUF_SIZE) {
        rp_columns(e, t, f);
        rp_indent(e, indent);
        for (i = 0; i < n; i++) out_mem(e->out, piece[i], len[i]);
        return;
    }
    p = out_reserve(e->out, need);
    *p++ = ' ';
    p = rp_fmt_duration(p, f ? f->time : 0);
    p = fmt_mem(p, t->tid_col, t->tid_col_len);
    if (indent > 0) {
        memset(p, ' ', (size_t)indent);
        p += indent;
    }
    for (i = 0; i < n; i++) p = fmt_mem(p, piece[i], len[i]);
    out_commit(e->out, p);
}

static const char *rp_event_name(rp *e, uint32_t id, char *buf, size_t len)
{
    if (id >= 1000000u && id != 2000000u && !(e->dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_EVENT)) {
        snprintf(buf, len, "user_event:%u", (unsigned)id);
        return buf;
    }
    if (id < 100000u) { /* kernel events: no kernel data here */
        snprintf(buf, len, "(null)");
        return buf;
    }
    return uft_event_name(e->dir, id, buf, len);
}

/* The text between the comment marks of an event line: name (data). */
static void rp_event_text(rp *e, const rp_view *r, rp_text *s)
{
    uint32_t id = (uint32_t)r->addr;
    char name[256], data[256];
    rp_puts(s, rp_event_name(e, id, name, sizeof name));
    if (id >= 1000000u) return; /* user events: the name only */
    data[0] = '\0';
    if (id == EV_TASK_NAME) {
        snprintf(data, sizeof data, "comm=\"%s\"", r->comm);
    } else if (id >= 100001u && id <= 100011u) {
        uft_event_data_text(e->dir, id, r->rec ? r->rec->bytes : NULL, r->rec ? r->rec->nbytes : 0, 1, data,
                            sizeof data);
    } else if (id < 100000u && r->rec && r->rec->nbytes > 0) {
        snprintf(data, sizeof data, "%.*s", (int)r->rec->nbytes, (const char *)r->rec->bytes);
    }
    if (data[0]) rp_printf(s, " (%s)", data);
}

/* ---- one record ----------------------------------------------------------------------- */

static void rp_show_entry(rp *e, rp_task *t, const rp_view *r)
{
    char buf[64];
    const char *name;
    rp_text *args = &e->args, *ret = &e->ret;
    const char *arg_text = "";
    size_t arg_len = 0;
    rp_frame *f;
    rp_task *next;
    long depth, fi;
    int paren;
    size_t nl;
    uint32_t rdepth = r->depth;

    args->len = ret->len = 0;
    name = rp_func_name(e, t, r, buf, sizeof buf, &nl);
    paren = nl == 0 || name[nl - 1] != ')' || r->more;
    if (rp_enter(e, t, r) < 0) goto out;
    depth = t->disp;
    if (r->more) {
        rp_values(e, t, r, 0, args);
        arg_text = args->buf;
        arg_len = args->len;
    } else if (paren) {
        arg_text = "()";
        arg_len = 2;
    }
    fi = t->nstack - 1;
    next = rp_peek_shown(e, t, rdepth); /* t->cur (*r) moves on */
    if (e->failed) goto out;
    f = rp_frame_at(e, t, fi);
    if (next == t && next->cur.depth == rdepth && next->cur.type == TDEC_UFTRACE_EXIT) {
        /* a leaf: its exit is the next record, one line for both */
        rp_take(e, next);
        if (next->cur.more) rp_values(e, t, &next->cur, 1, ret);
        {
            const char *piece[] = {name, arg_text, ret->buf, ";\n"};
            size_t len[] = {nl, arg_len, ret->len, 2};
            rp_line(e, t, f, depth * 2, piece, len, 4);
        }
        rp_exited(e, t);
    } else {
        const char *piece[] = {name, arg_text, " {\n"};
        size_t len[] = {nl, arg_len, 3};
        rp_line(e, t, NULL, depth * 2, piece, len, 3);
        rp_entered(e, t, f);
    }
out:
    return;
}

static void rp_show_exit(rp *e, rp_task *t, const rp_view *r)
{
    rp_frame *f = rp_frame_at(e, t, t->nstack);
    char buf[64];
    const char *name;
    rp_text *ret;
    long depth;
    size_t nl;
    if (f != NULL && !(f->flags & RP_FL_NORECORD)) {
        ret = &e->ret;
        ret->len = 0;
        depth = rp_exiting(t);
        if (r->more) {
            rp_values(e, t, r, 1, ret);
            rp_puts(ret, ";");
        }
        name = rp_func_name(e, t, r, buf, sizeof buf, &nl);
        {
            const char *piece[] = {"}", ret->buf, " /* ", name, " */\n"};
            size_t len[] = {1, ret->len, 4, nl, 4};
            rp_line(e, t, f, depth * 2, piece, len, 5);
        }
    }
    rp_exited(e, t);
}

static void rp_show_event(rp *e, rp_task *t, const rp_view *r)
{
    long depth = t->disp;
    rp_view ev = *r;
    uint64_t id = r->addr;
    rp_frame *f;
    rp_text *s;
    if (t->budget <= 0) return;
    if (id == EV_SCHED_IN && rp_frame_at(e, t, t->nstack) == NULL) return;
    if (id == EV_SCHED_OUT && rp_frame_at(e, t, t->nstack - 1) == NULL) return;
    if (id == EV_SCHED_OUT || id == EV_SCHED_OUT_PRE) {
        /* a sched-out directly followed by its sched-in: one line */
        rp_task *next = rp_peek_shown(e, t, 0);
        if (e->failed) return;
        if (next == t && next->cur.addr == EV_SCHED_IN) {
            rp_take(e, next);
            ev.addr = id == EV_SCHED_OUT ? EV_SCHEDULE : EV_SCHEDULE_PRE;
            id = EV_SCHED_IN;
        }
    }
    f = rp_frame_at(e, t, t->nstack);
    if (f == NULL || (f->flags & RP_FL_NORECORD)) return;
    rp_columns(e, t, id == EV_SCHED_IN && f->time ? f : NULL);
    rp_indent(e, depth * 2);
    s = &e->args;
    s->len = 0;
    rp_event_text(e, &ev, s);
    out_lit(e->out, "/* ");
    out_mem(e->out, s->buf, s->len);
    out_lit(e->out, " */\n");
}

static void rp_show_lost(rp *e, rp_task *t, const rp_view *r)
{
    char buf[64];
    int n = (int)r->addr;
    if (t->user_nstack == 0) return; /* outside user functions */
    rp_columns(e, t, NULL);
    rp_indent(e, (t->disp + 1) * 2);
    if (n > 0) snprintf(buf, sizeof buf, "/* LOST %d records!! */\n", n);
    else snprintf(buf, sizeof buf, "/* LOST some records!! */\n");
    out_str(e->out, buf);
}

static void rp_show(rp *e, rp_task *t, const rp_view *r)
{
    switch (r->type) {
    case TDEC_UFTRACE_ENTRY: rp_show_entry(e, t, r); break;
    case TDEC_UFTRACE_EXIT:  rp_show_exit(e, t, r); break;
    case TDEC_UFTRACE_LOST:  rp_show_lost(e, t, r); break;
    default:                 rp_show_event(e, t, r); break;
    }
}

/* What was still open at the end, as uftrace lists it. */
static void rp_show_remaining(rp *e)
{
    long total = 0, k, zero;
    size_t i;
    char name[1024], buf[64];
    for (i = 0; i < e->ntasks; i++) {
        rp_task *t = &e->tasks[i];
        rp_frame *f = rp_frame_at(e, t, 0);
        if (f == NULL) continue;
        if (t->nstack == 1 && (f->addr == EV_SCHED_OUT || f->addr == EV_SCHED_OUT_PRE)) continue;
        for (zero = 0; zero < t->nstack; zero++)
            if ((f = rp_frame_at(e, t, zero)) != NULL && f->addr != 0) break;
        total += t->nstack - zero;
    }
    if (total == 0) return;
    out_lit(e->out, "\nuftrace stopped tracing with remaining functions");
    out_lit(e->out, "\n================================================\n");
    for (i = 0; i < e->ntasks; i++) {
        rp_task *t = &e->tasks[i];
        rp_frame *f = rp_frame_at(e, t, 0);
        if (t->nstack == 0) continue;
        if (t->nstack == 1 && f && (f->addr == EV_SCHED_OUT || f->addr == EV_SCHED_OUT_PRE)) continue;
        for (zero = 0; zero < t->nstack; zero++)
            if ((f = rp_frame_at(e, t, zero)) != NULL && f->addr != 0) break;
        if (zero == t->nstack || rp_frame_at(e, t, 0) == NULL) continue;
        snprintf(buf, sizeof buf, "task: %d\n", (int)t->tid);
        out_str(e->out, buf);
        for (k = t->nstack - 1; k >= 0; k--) {
            const char *nm;
            if ((f = rp_frame_at(e, t, k)) == NULL) continue;
            nm = rp_ptr_name(e, t, f->time, f->addr);
            if (nm) snprintf(name, sizeof name, "%s", nm);
            else snprintf(name, sizeof name, "<%llx>", (unsigned long long)f->addr);
            snprintf(buf, sizeof buf, "[%ld] ", k - zero);
            out_str(e->out, buf);
            out_str(e->out, name);
            out_char(e->out, '\n');
            if (k == zero) break;
        }
        out_char(e->out, '\n');
    }
}

/* ---- setup -------------------------------------------------------------------------- */

/* One reader per perf-cpu*.dat, in the directory's (glob) order. */
static int rp_open_perf(rp *e)
{
    char path[4096];
    size_t i, n = e->dir->nperf_files;
    e->perf = (rp_perf *)rp_alloc(n * sizeof *e->perf);
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

int fe_uftrace_replay(const cli_opts *opt, out_buf *out, out_buf *err)
{
    static uft_dir dir;
    static rp e;
    rp_task *t;
    uint64_t prev_time = 0;
    size_t i;

    if (uft_open_dir(&dir, opt->path, err)) return 1;
    if (dir.ntids == 0) {
        cli_diag(err, "error", -1, opt->path, "no task in info (taskinfo:tids)");
        return 1;
    }
    memset(&e, 0, sizeof e);
    e.dir = &dir;
    e.out = out;
    e.err = err;
    e.last_perf = -1;
    e.max_stack = (dir.hdr.feat_mask & TDEC_UFTRACE_FEAT_MAX_STACK) ? (long)dir.hdr.max_stack : 1024;
    e.estimate = (dir.hdr.feat_mask & TDEC_UFTRACE_FEAT_ESTIMATE_RETURN) != 0;
    e.ntasks = dir.ntids;
    e.tasks = (rp_task *)rp_alloc(e.ntasks * sizeof *e.tasks);
    for (i = 0; i < e.ntasks; i++) {
        t = &e.tasks[i];
        t->tid = dir.tids[i];
        t->t = uft_find_task(&dir, t->tid);
        rp_tid_column(t);
        if (uft_task_open(&t->rd, &dir, t->tid) < 0)
            return uft_fail(out, err, t->rd.path, t->rd.err.offset, t->rd.err.what, t->rd.err.detail);
        t->slot[0] = (uft_rec *)rp_alloc(sizeof(uft_rec));
        t->slot[1] = (uft_rec *)rp_alloc(sizeof(uft_rec));
        t->budget = RP_DEPTH_DEFAULT;
        t->disp_set = 1;
    }
    if ((dir.hdr.feat_mask & TDEC_UFTRACE_FEAT_PERF_EVENT) && rp_open_perf(&e) < 0) return 1;

    /* the header only when there is a record at all */
    if (rp_next(&e, 0) != NULL) out_lit(out, "# DURATION     TID     FUNCTION");
    if (!e.failed) out_char(out, '\n');
    while ((t = rp_next(&e, 1)) != NULL) {
        const rp_view *r = &t->cur; /* the rp_show*() copy what they need before reading ahead */
        /* events outside user functions are not shown */
        if (r->type == TDEC_UFTRACE_EVENT && t->user_nstack == 0) continue;
        if (r->time) {
            if (prev_time > r->time) {
                out_lit(out, "                     | ");
                rp_indent(&e, (t->disp + 1) * 2 + 1);
                out_lit(out, "/* inverted time: broken data? */\n");
            }
            prev_time = r->time;
        }
        rp_show(&e, t, r);
        if (e.failed) break;
    }
    if (e.failed) return 1;
    rp_show_remaining(&e);
    for (i = 0; i < e.ntasks; i++) uft_task_close(&e.tasks[i].rd);
    for (i = 0; i < e.nperf; i++) uft_perf_close(&e.perf[i].rd);
    out_flush(out);
    return 0;
}
