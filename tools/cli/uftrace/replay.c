/* replay.c - `tracedec replay DIR`: the call trees of a uftrace
   data directory exactly as `uftrace replay` (v0.13, default fields
   duration,tid) prints them.

   Reading: one uft_task_reader per <tid>.dat (taskinfo order) and one
   uft_perf_reader per perf-cpuN.dat, each streaming its file through its
   own CLI_CHUNK buffer; every reader holds one record ahead. The next
   record is always the earliest one: among the tasks the first in
   taskinfo order wins a tie, among the perf files the first by name, and
   a task record wins over a perf record of the same time. The lines of
   DIR/extern.dat (external data) come in by time too, after everything of
   the same time (rp_extern_ahead()).

   Replaying: uftrace's output is the product of a small state machine per
   task (a stack of frames with start times and durations, the display
   depth, counters of user frames) driven by records in that merged order,
   including its quirks: perf sched-out/sched-in pairs are pseudo frames
   (a fork child inherits the parent's frames that way), a function whose
   next record is its own exit is printed on one line, events outside
   user functions are dropped, exec and longjmp rewind the stack, LOST
   records reset it. The model below reproduces that machine (the golden
   and live tests compare it with uftrace itself).

   Speed: traces are mostly tight loops of small functions, so the path of
   a record is kept short. The merge remembers which task leads and until
   when (rp_earliest), the text of a line without values after its
   duration is kept by (task, symbol, indentation, shape) (rp_fline_print),
   durations come from tables, and rare paths stay out of line (UFT_COLD). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/uftrace.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* event ids of the perf scheduler records */
#define EV_SCHED_IN        200001u
#define EV_SCHED_OUT       200002u
#define EV_SCHEDULE        200003u
#define EV_TASK_NAME       200006u
#define EV_SCHED_OUT_PRE   200007u
#define EV_SCHEDULE_PRE    200008u
#define EV_EXTERN_DATA     2000000u

/* uftrace's EXTERN_DATA_MAX: room for an external-data message and its NUL */
#define RP_EXTERN_MAX 1024

/* rp_special() answers kept */
#define RP_SPECIALS 256

/* uftrace's default depth limit (replay -D): deeper frames are hidden */
#define RP_DEPTH_DEFAULT 1024

/* frame flags */
#define RP_FL_EXEC     1u /* an exec*() call: the image restarts at depth 0   */
#define RP_FL_LONGJMP  2u /* a longjmp(): back to the setjmp() depth           */
#define RP_FL_NORECORD 4u /* entered beyond the depth limit: never printed     */

enum { RP_NONE, RP_USER, RP_PERF, RP_EXTERN };

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
    uft_rec       **held;    /* time filter: records read, not yet passed on     */
    size_t          nheld, held_from, held_cap;
    uft_rec       **spare;   /* time filter: record buffers free for reuse       */
    size_t          nspare;
    int             ended;
    rp_view         cur;     /* the task's current record (uftrace's rstack)    */
    int             cur_src; /* RP_USER, RP_PERF or RP_EXTERN                   */
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

/* DIR/extern.dat: lines "SEC.NSEC message", read one ahead. */
typedef struct rp_extern {
    char    *text; /* the whole file; NULL without one */
    size_t   len, pos;
    int      valid; /* time and msg hold the next line   */
    uint64_t time;
    char     msg[RP_EXTERN_MAX];
} rp_extern;

/* A line being built (argument lists can be long). */
typedef struct rp_text {
    char   buf[8192];
    size_t len;
} rp_text;

/* The shapes of a function line: "f() {" (RP_OPEN), "f();" (RP_LEAF, an
   entry and its exit) and "}" followed by the name in a comment (RP_CLOSE). */
enum { RP_OPEN, RP_LEAF, RP_CLOSE };

/* A function line to print: " DURATION [   TID] | " (the duration blank
   without a frame), the indentation, then by shape
     RP_OPEN   name args " {"
     RP_LEAF   name args ret ";"
     RP_CLOSE  "}" ret, then the name in a comment
   The name is the symbol's, or "<addr>". Without values (args and ret
   NULL) args is "()", or nothing after a name that ends with ')'; the
   text after the duration then only depends on (task, sym, indent, shape). */
typedef struct rp_fline {
    int             shape;
    long            indent;
    const rp_frame *frame;
    const uft_sym  *sym;  /* NULL if unknown */
    uint64_t        addr;
    const rp_text  *args; /* "(a, b)", or NULL                  */
    const rp_text  *ret;  /* " = v" (";" too for RP_CLOSE), or NULL */
} rp_fline;

/* Such a text, kept: lines without values repeat it (a loop calls the
   same functions at the same depths). */
#define RP_TAILS     64
#define RP_TAIL_ROOM 128
typedef struct rp_tail {
    const rp_task *task;
    const uft_sym *sym; /* NULL: unused */
    long           indent;
    int            shape;
    size_t         len;
    char           text[RP_TAIL_ROOM];
} rp_tail;

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
    rp_task *lead;        /* the task of the latest full pick, NULL if none:     */
    uint64_t lead_until;  /* its records before this time come next (see rp_earliest) */
    rp_view  perf_cur;  /* the latest perf record picked, shared by all tasks */
    rp_extern ext;
    rp_task *last_read; /* the task of the latest record read: external data goes there */
    long     max_stack;
    long     setjmp_disp, setjmp_nstack;
    int      estimate;
    uint64_t time_filter; /* default.opts -t: shorter calls are hidden (ns), 0 if none */
    tdec_uftrace_perf_record *perf_kept; /* with a time filter: the perf records */
    size_t   nperf_kept, perf_next;      /* left by rp_perf_preload(), in order */
    int      perf_preloaded;
    int      failed;    /* a file could not be read: error reported, output stops */
    rp_text  args, ret; /* pieces of the line being printed */
    rp_tail  tails[RP_TAILS]; /* rp_fline_print()'s kept texts */
    const uft_sym *special_sym[RP_SPECIALS]; /* rp_special() answers by symbol */
    char           special_kind[RP_SPECIALS];
} rp;

static UFT_COLD void rp_out_of_memory(void)
{
    fputs("tracedec: out of memory\n", stderr);
    exit(2);
}

static void *rp_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (p == NULL) rp_out_of_memory();
    return p;
}

static void *rp_realloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (p == NULL) rp_out_of_memory();
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
        t->frames = (rp_frame *)rp_realloc(t->frames, (size_t)n * sizeof *t->frames);
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

static UFT_COLD void rp_task_error(rp *e, rp_task *t)
{
    if (!e->failed) uft_fail(e->out, e->err, t->rd.path, t->rd.err.offset, t->rd.err.what, t->rd.err.detail);
    e->failed = 1;
}

/* The next complete record of the task's file into *out: 1, 0 at its end,
   -1 after an error (reported). */
static int rp_task_read(rp *e, rp_task *t, uft_rec *out)
{
    int rc = uft_task_next(&t->rd, out);
    if (rc > 0 && out->incomplete) rc = uft_task_next(&t->rd, out);
    if (rc < 0) rp_task_error(e, t);
    return rc;
}

static uft_rec *rp_spare_rec(rp_task *t)
{
    return t->nspare > 0 ? t->spare[--t->nspare] : (uft_rec *)rp_alloc(sizeof(uft_rec));
}

/* Drops the held records from index `from` on (their buffers are reused). */
static void rp_held_drop(rp_task *t, size_t from)
{
    while (t->nheld > from) t->spare[t->nspare++] = t->held[--t->nheld];
}

/* rp_task_ahead() under a time filter, as uftrace 0.13's get_task_ustack()
   reads a task: records are held until the exit of the innermost held
   entry decides. An exit shorter than the filter drops itself and
   everything held from its entry on; one that is not (or an exit with no
   held entry) releases all that is held, as do user events (id 1000000
   and up) and LOST records. Held records come out one by one; the file is
   read again only when none is left. */
static int rp_task_ahead_filtered(rp *e, rp_task *t)
{
    uft_rec *r, *old;
    size_t i;
    int rc, release = 0;
    /* read only when nothing held is left to pass on (then nheld is 0) */
    if (t->nheld == 0 && !t->ended && !e->failed) {
        do {
            if (t->nheld == t->held_cap) {
                t->held_cap = t->held_cap * 2 + 16;
                t->held = (uft_rec **)rp_realloc(t->held, t->held_cap * sizeof *t->held);
                t->spare = (uft_rec **)rp_realloc(t->spare, t->held_cap * sizeof *t->spare);
            }
            r = rp_spare_rec(t);
            rc = rp_task_read(e, t, r);
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
                else rp_held_drop(t, i - 1);
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
static int rp_task_ahead(rp *e, rp_task *t)
{
    int rc;
    if (t->ahead) return 1;
    if (e->time_filter) return rp_task_ahead_filtered(e, t);
    if (t->ended || e->failed) return 0;
    rc = rp_task_read(e, t, t->slot[0]);
    if (rc == 0) t->ended = 1;
    if (rc <= 0) return 0;
    t->ahead = 1;
    return 1;
}

static int rp_perf_ahead(rp *e, rp_perf *p)
{
    int rc;
    if (e->perf_preloaded) { /* one source: what rp_perf_preload() kept */
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

/* rp_perf_pick() when a perf record was taken since the last pick. */
static UFT_COLD long rp_perf_repick(rp *e)
{
    uint64_t min = UINT64_MAX;
    long best = -1;
    size_t i;
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

/* The perf file whose next record is the earliest, -1 if none. */
static long rp_perf_pick(rp *e)
{
    return e->perf_picked ? e->last_perf : rp_perf_repick(e);
}

/* uftrace's parse_timestamp(): "SEC[.FRACTION]" in nanoseconds, the
   fraction scaled to 9 digits. */
static uint64_t rp_parse_timestamp(const char *s)
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
   none. As uftrace reads extern.dat: by fgets() into RP_EXTERN_MAX + 64
   bytes (a longer line comes in pieces), leading blanks skipped, blank and
   '#' lines passed over, the time up to the first space or tab, then the
   message after the blanks that follow (none: passed over), without its
   newline, cut to RP_EXTERN_MAX - 1 bytes. */
static int rp_extern_ahead(rp *e)
{
    rp_extern *x = &e->ext;
    char line[RP_EXTERN_MAX + 64], *p;
    size_t n, len;
    while (!x->valid) {
        if (x->pos >= x->len) return 0;
        for (n = 0; n < sizeof line - 1 && x->pos < x->len;)
            if ((line[n++] = x->text[x->pos++]) == '\n') break;
        line[n] = '\0';
        for (p = line; isspace((unsigned char)*p); p++) continue;
        if (*p == '#' || *p == '\0') continue;
        x->time = rp_parse_timestamp(p);
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
static void rp_estimate_after_sched(rp *e, rp_task *t)
{
    uft_rec *next;
    rp_frame *prev;
    if (!t->ahead) return;
    next = t->slot[0];
    if (next->rec.type == TDEC_UFTRACE_REC_ENTRY) {
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
    if (r->type != TDEC_UFTRACE_REC_EVENT) return (int)r->type;
    if (r->addr == EV_SCHED_OUT || r->addr == EV_SCHED_OUT_PRE) return TDEC_UFTRACE_REC_ENTRY;
    if (r->addr == EV_SCHED_IN) return TDEC_UFTRACE_REC_EXIT;
    return -1;
}

/* The task's first record (type: rp_stack_type()) sizes the stack: a
   fork child starts inside its parent's frames. */
static UFT_COLD void rp_stack_start(rp *e, rp_task *t, const rp_view *r, int type, uint32_t depth)
{
    rp_frame *f;
    long i;
    t->nstack = (long)depth + (type == TDEC_UFTRACE_REC_EXIT);
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

/* The first record after LOST ones: the stack restarts. */
static UFT_COLD void rp_stack_after_lost(rp *e, rp_task *t, const rp_view *r, int type, uint32_t depth)
{
    rp_frame *f;
    long i;
    t->nstack = (long)depth + (type == TDEC_UFTRACE_REC_EXIT);
    t->lost_seen = 0;
    for (i = 0; i <= (long)depth; i++)
        if ((f = rp_frame_at(e, t, i + t->user_nstack)) != NULL) f->time = r->time - 1;
}

/* A LOST record: what is still open counts as ending right after it
   started. */
static UFT_COLD void rp_stack_lost(rp *e, rp_task *t)
{
    uint64_t lost_time = 0;
    rp_frame *f;
    long i;
    t->lost_seen = 1;
    t->disp_set = 0;
    for (i = t->nstack; i >= t->user_nstack; i--) {
        if ((f = rp_frame_at(e, t, i)) == NULL) continue;
        if (lost_time == 0) lost_time = f->time + 1;
        f->time = lost_time - f->time;
    }
}

/* Before a stack record (type: rp_stack_type()) of a task whose stack is
   not sized yet or was broken by LOST records; 1: the record changes
   nothing. */
static UFT_COLD int rp_stack_unsettled(rp *e, rp_task *t, const rp_view *r, int type)
{
    uint32_t depth = r->type == TDEC_UFTRACE_REC_EVENT ? 0 : r->depth;
    if (!t->stack_set) rp_stack_start(e, t, r, type, depth);
    if (t->lost_seen) {
        if (type == TDEC_UFTRACE_REC_LOST) return 1;
        rp_stack_after_lost(e, t, r, type, depth);
    }
    return 0;
}

/* A function entry or a sched-out: a frame opens. */
static void rp_push(rp *e, rp_task *t, const rp_view *r)
{
    uint64_t addr = r->addr, time = r->time;
    rp_frame *f;
    UFT_OPAQUE(addr); /* rp_view_user() may have just stored them */
    UFT_OPAQUE(time);
    if ((f = rp_frame_at(e, t, t->nstack)) != NULL) {
        f->addr = addr;
        f->time = time;
        f->valid = 1;
    }
    t->nstack++;
    if (r->type != TDEC_UFTRACE_REC_EVENT) t->user_nstack++;
}

/* A function exit or a sched-in: the top frame closes, its time becomes
   its duration. */
static void rp_pop(rp *e, rp_task *t, const rp_view *r)
{
    rp_frame *f = rp_frame_at(e, t, t->nstack - 1);
    if (f != NULL) {
        f->time = f->valid ? r->time - f->time : 0;
        f->valid = 0;
    }
    if (t->nstack > 0) t->nstack--;
    if (r->type != TDEC_UFTRACE_REC_EVENT && t->user_nstack > 0) t->user_nstack--;
}

/* rp_take() of a perf record: the file moves on. */
static UFT_COLD void rp_take_perf(rp *e)
{
    if (e->last_perf < 0) return;
    e->perf[e->last_perf].valid = 0;
    e->perf_picked = 0;
}

/* Takes the task's current record (the one rp_next() just chose). */
static void rp_take(rp *e, rp_task *t)
{
    const rp_view *r = &t->cur;
    int type = rp_stack_type(r);
    if (t->cur_src == RP_USER) {
        uft_rec *s = t->slot[0];
        t->slot[0] = t->slot[1];
        t->slot[1] = s;
        t->ahead = 0;
    } else if (t->cur_src == RP_PERF) {
        rp_take_perf(e);
    } else {
        e->ext.valid = 0;
    }
    e->peeked = NULL;
    if (type < 0) return; /* events other than sched-in/out */
    if ((!t->stack_set || t->lost_seen) && rp_stack_unsettled(e, t, r, type)) return;
    if (type == TDEC_UFTRACE_REC_ENTRY) rp_push(e, t, r);
    else if (type == TDEC_UFTRACE_REC_EXIT) rp_pop(e, t, r);
    else if (type == TDEC_UFTRACE_REC_LOST) rp_stack_lost(e, t);
}

/* The user record ahead becomes the task's current record. */
static inline void rp_view_user(rp *e, rp_task *t)
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
    t->cur_src = RP_USER;
    if (e->estimate && t->est != 0) {
        /* estimated exits stay after an estimate made at a sched-in */
        if (t->cur.type == TDEC_UFTRACE_REC_EXIT && t->cur.time <= t->est) t->cur.time = ++t->est;
        else t->est = t->est_next = 0;
    }
}

/* The record ahead in perf file p becomes its task's current record;
   returns the task. */
static UFT_COLD rp_task *rp_view_perf(rp *e, long p)
{
    const tdec_uftrace_perf_record *h = &e->perf[p].head;
    rp_view *v = &e->perf_cur;
    rp_task *t = rp_task_by_tid(e, (int32_t)h->tid);
    v->type = TDEC_UFTRACE_REC_EVENT;
    v->addr = uft_perf_event_id(h);
    v->more = v->addr == EV_TASK_NAME;
    v->depth = 0;
    v->time = h->time;
    v->rec = NULL;
    memcpy(v->comm, h->comm, sizeof v->comm);
    v->comm[sizeof v->comm - 1] = '\0';
    t->cur = *v;
    t->cur_src = RP_PERF;
    /* (with a time filter, uftrace reads perf records as task events and
       does not estimate after them) */
    if (rp_is_sched(v->addr) && e->estimate && !e->time_filter && t->nstack > 0) rp_estimate_after_sched(e, t);
    return t;
}

/* The external-data line ahead becomes the current record of the task
   read last (the first task before any record), as in uftrace; returns
   the task. */
static UFT_COLD rp_task *rp_view_extern(rp *e)
{
    rp_task *t = e->last_read != NULL ? e->last_read : &e->tasks[0];
    memset(&t->cur, 0, sizeof t->cur);
    t->cur.type = TDEC_UFTRACE_REC_EVENT;
    t->cur.addr = EV_EXTERN_DATA;
    t->cur.more = 1;
    t->cur.time = e->ext.time;
    t->cur_src = RP_EXTERN;
    return t;
}

/* rp_earliest() by looking at every task, perf file and extern.dat. */
static rp_task *rp_earliest_of_all(rp *e)
{
    rp_task *best = NULL, *t;
    uint64_t min = UINT64_MAX, until = UINT64_MAX;
    long p;
    size_t i;
    e->lead = NULL;
    for (i = 0; i < e->ntasks; i++) {
        t = &e->tasks[i];
        if (!rp_task_ahead(e, t)) {
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
        p = rp_perf_pick(e);
        if (e->failed) return NULL;
        if (p >= 0 && e->perf[p].head.time < min) {
            if (rp_extern_ahead(e) && e->ext.time < e->perf[p].head.time) return rp_view_extern(e);
            return rp_view_perf(e, p);
        }
        if (p >= 0 && e->perf[p].head.time < until) until = e->perf[p].head.time;
    }
    if (rp_extern_ahead(e)) {
        if (e->ext.time < min) return rp_view_extern(e);
        if (e->ext.time < until) until = e->ext.time;
    }
    if (best == NULL) return NULL;
    rp_view_user(e, best);
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
static rp_task *rp_earliest(rp *e)
{
    rp_task *t = e->lead;
    /* The records ahead of the other sources do not change until one of
       them is taken: while the lead task's next record is strictly before
       all of them, it is the next. */
    if (t != NULL && rp_task_ahead(e, t) && t->slot[0]->rec.time < e->lead_until) {
        rp_view_user(e, t);
        return t;
    }
    return rp_earliest_of_all(e);
}

/* The task with the earliest next record, which becomes its current
   record; taken too if `take`. NULL at the end (or after an error). */
static rp_task *rp_next(rp *e, int take)
{
    rp_task *t;
    if (e->failed) return NULL;
    t = e->peeked;
    if (t == NULL) {
        if ((t = rp_earliest(e)) == NULL) return NULL;
        if (!take && !e->estimate) e->peeked = t; /* -e estimates are redone on every call */
    }
    if (take) {
        e->last_read = t;
        rp_take(e, t);
    }
    return t;
}

/* rp_special() of a symbol not in its cache: by name. */
static UFT_COLD int rp_special_by_name(const uft_sym *sym)
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
static int rp_special(rp *e, const uft_sym *sym, const uft_map *map)
{
    size_t slot = ((uintptr_t)sym >> 3) % RP_SPECIALS;
    if (sym == NULL || map == NULL) return 0; /* only symbols of the session's maps */
    if (e->special_sym[slot] != sym) {
        e->special_sym[slot] = sym;
        e->special_kind[slot] = (char)rp_special_by_name(sym);
    }
    return e->special_kind[slot];
}

/* rp_special() of the record's function. */
static int rp_special_at(rp *e, rp_task *t, const rp_view *r)
{
    const uft_map *map;
    const uft_sym *sym = uft_find_sym_map(e->dir, t->t, r->time, r->addr, &map);
    return rp_special(e, sym, map);
}

/* A function entry (already taken; special: its rp_special()): sets up
   its frame. -1: not shown. */
static int rp_enter(rp *e, rp_task *t, const rp_view *r, int special)
{
    rp_frame *f = rp_frame_at(e, t, t->nstack - 1);
    if (f == NULL) return -1;
    f->orig_depth = t->budget;
    f->flags = 0;
    if (rp_session(e, t, r->time) != NULL) {
        switch (special) {
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
    if (r->type == TDEC_UFTRACE_REC_EXIT) {
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
        const rp_view *r = &next->cur; /* until the next rp_next() */
        if (next == t && next->cur_src == src && depth >= r->depth) break;
        if (!(r->type == TDEC_UFTRACE_REC_EVENT && next->user_nstack == 0)) {
            if (r->type == TDEC_UFTRACE_REC_LOST) return NULL;
            if (rp_hidden(e, next, r) >= 0) break;
        }
        rp_take(e, next);
        if (r->type == TDEC_UFTRACE_REC_ENTRY) rp_enter(e, next, r, rp_special_at(e, next, r));
        else if (r->type == TDEC_UFTRACE_REC_EXIT) rp_exited(e, next);
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
        char text[1024];
        uft_val_type_name(u, v, name, sizeof name);
        if (uft_func_enum_text(e->dir, t->t, r->time, r->addr, name, (int32_t)x, text, sizeof text)) rp_puts(s, text);
        else rp_printf(s, "<ENUM?> %x", (unsigned)(int32_t)x);
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

static uint32_t rp_round4(uint32_t n)
{
    return (n + 3u) & ~3u;
}

/* uftrace 0.13's replay steps over a char value by 4 bytes whatever its
   size, so after a "c64" it reads the rest of an argument block 4 bytes
   early. The block's values as it reads them: the block rebuilt as stored
   (string padding, which is not kept, taken as zeros) and read with its
   steps. u itself when no c64 comes before another value. */
static const uft_rec *rp_as_uftrace_reads(const rp *e, const uft_rec *u)
{
    static uft_rec w;
    const uint32_t room = TDEC_UFTRACE_MAX_BLOCK + 12u; /* the block at w.bytes, zeros after it */
    int big = e->dir->hdr.endian == 2;
    uint32_t k, off = 0, pos = 0, step, names = (uint32_t)room;
    uint8_t *img = w.bytes;
    for (k = 0; k + 1 < u->nvals; k++)
        if (u->vals[k].arg.kind == TDEC_UFTRACE_V_CHAR && u->vals[k].arg.size == 8) break;
    if (k + 1 >= u->nvals) return u;
    w = *u;
    memset(img, 0, room);
    for (k = 0; k < u->nvals; k++) {
        const uft_val *v = &u->vals[k];
        if (v->name_len > 0) { /* type names after the block */
            memcpy(w.bytes + names, u->bytes + v->name_off, v->name_len);
            w.vals[k].name_off = (uint16_t)names;
            names += v->name_len;
        }
        if (v->arg.kind == TDEC_UFTRACE_V_STRING || v->arg.kind == TDEC_UFTRACE_V_STDSTRING) {
            img[off + (big ? 1u : 0u)] = (uint8_t)v->len;
            img[off + (big ? 0u : 1u)] = (uint8_t)(v->len >> 8);
            memcpy(img + off + 2, u->bytes + v->off, v->len);
            off += rp_round4(2u + v->len);
        } else if (v->arg.kind == TDEC_UFTRACE_V_STRUCT) {
            memcpy(img + off, u->bytes + v->off, v->len);
            off += rp_round4(v->len);
        } else {
            memcpy(img + off, v->raw, rp_round4(v->arg.size));
            off += rp_round4(v->arg.size);
        }
    }
    for (k = 0; k < w.nvals; k++) {
        uft_val *v = &w.vals[k];
        switch (v->arg.kind) {
        case TDEC_UFTRACE_V_STRING:
        case TDEC_UFTRACE_V_STDSTRING:
            v->off = (uint16_t)(pos + 2);
            v->len = (uint16_t)cli_get_uint(img + pos, 2, big);
            if (v->len > room - pos - 2) v->len = (uint16_t)(room - pos - 2);
            step = 2u + v->len;
            break;
        case TDEC_UFTRACE_V_STRUCT:
            v->off = (uint16_t)pos;
            v->len = 0; /* (replay prints only the name) */
            step = v->arg.size;
            break;
        default:
            memcpy(v->raw, img + pos, sizeof v->raw);
            v->value = cli_get_uint(img + pos, v->arg.kind == TDEC_UFTRACE_V_FLOAT ? 0u : v->arg.size, big);
            step = v->arg.kind == TDEC_UFTRACE_V_CHAR ? 1u : v->arg.size;
            break;
        }
        pos += rp_round4(step);
        if (pos > TDEC_UFTRACE_MAX_BLOCK) pos = TDEC_UFTRACE_MAX_BLOCK;
    }
    return &w;
}

/* "(a, b)" after a function name, or " = v" after a return. */
static void rp_values(rp *e, rp_task *t, const rp_view *r, int is_exit, rp_text *s)
{
    uint32_t k, n = r->rec ? r->rec->nvals : 0;
    rp_view shown = *r;
    rp_puts(s, is_exit ? " = " : "(");
    if (n > 0) shown.rec = rp_as_uftrace_reads(e, r->rec);
    for (k = 0; k < n; k++) {
        if (k > 0) rp_puts(s, ", ");
        rp_value(e, t, &shown, &shown.rec->vals[k], s);
        if (is_exit) break; /* only the first return value */
    }
    if (!is_exit) rp_puts(s, ")");
}

/* The two halves of the duration column for 0..999: "%3u." and "%03u ". */
static char rp_whole[1000][4], rp_frac[1000][4];

static void rp_duration_tables(void)
{
    unsigned v;
    for (v = 0; v < 1000; v++) {
        rp_whole[v][0] = v >= 100 ? (char)('0' + v / 100) : ' ';
        rp_whole[v][1] = v >= 10 ? (char)('0' + v / 10 % 10) : ' ';
        rp_whole[v][2] = (char)('0' + v % 10);
        rp_whole[v][3] = '.';
        rp_frac[v][0] = (char)('0' + v / 100);
        rp_frac[v][1] = (char)('0' + v / 10 % 10);
        rp_frac[v][2] = (char)('0' + v % 10);
        rp_frac[v][3] = ' ';
    }
}

/* rp_fmt_duration() from 1 ms on (and of a negative duration). */
static UFT_COLD char *rp_fmt_duration_long(char *p, uint64_t ns)
{
    static const char units[] = "usms s m h";
    static const uint64_t limit[] = {1000, 1000, 1000, 60, 24, 0x7fffffff};
    int64_t sv = (int64_t)ns;
    uint64_t d = sv < 0 ? (uint64_t)0 - (uint64_t)sv : (uint64_t)sv, small = 0;
    unsigned idx;
    for (idx = 0; idx < 5; idx++) {
        small = d % limit[idx];
        d /= limit[idx];
        if (d < limit[idx + 1]) break;
    }
    if (idx == 5) idx = 4;
    if (d > 999) d = small = 999;
    memcpy(p, rp_whole[d], 4);
    memcpy(p + 4, rp_frac[small], 4);
    p[8] = units[idx * 2];
    p[9] = units[idx * 2 + 1];
    return p + 10;
}

/* The duration column (10 characters, blank for 0) at p: "%3u.%03u us". */
static char *rp_fmt_duration(char *p, uint64_t ns)
{
    uint32_t us;
    if (ns == 0) return fmt_lit(p, "          ");
    if (ns >= 1000000u) return rp_fmt_duration_long(p, ns);
    us = (uint32_t)ns / 1000u; /* the common case, in 32-bit arithmetic */
    memcpy(p, rp_whole[us], 4);
    memcpy(p + 4, rp_frac[(uint32_t)ns - us * 1000u], 4);
    p[8] = 'u';
    p[9] = 's';
    return p + 10;
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

/* The pieces of the line after its indentation (at most 5) into p and
   their lengths into n; their number. buf: room for "<addr>". */
static size_t rp_fline_pieces(const rp_fline *l, char *buf, size_t len, const char **p, size_t *n)
{
    const char *name = buf;
    size_t name_len, k = 0;
    if (l->sym) {
        name = l->sym->name;
        name_len = l->sym->name_len;
    } else {
        snprintf(buf, len, "<%llx>", (unsigned long long)l->addr);
        name_len = strlen(buf);
    }
    if (l->shape == RP_CLOSE) {
        p[k] = "}", n[k++] = 1;
        if (l->ret) p[k] = l->ret->buf, n[k++] = l->ret->len;
        p[k] = " /* ", n[k++] = 4;
        p[k] = name, n[k++] = name_len;
        p[k] = " */\n", n[k++] = 4;
        return k;
    }
    p[k] = name, n[k++] = name_len;
    if (l->args) p[k] = l->args->buf, n[k++] = l->args->len;
    else if (name_len == 0 || name[name_len - 1] != ')') p[k] = "()", n[k++] = 2;
    if (l->shape == RP_OPEN) {
        p[k] = " {\n", n[k++] = 3;
        return k;
    }
    if (l->ret) p[k] = l->ret->buf, n[k++] = l->ret->len;
    p[k] = ";\n", n[k++] = 2;
    return k;
}

/* Where the text of l after the duration is kept, or NULL if it is not
   kept (it has values, or an unknown function). */
static rp_tail *rp_tail_slot(rp *e, const rp_fline *l)
{
    uintptr_t h = ((uintptr_t)l->sym >> 3) + (uintptr_t)l->indent * 4u + (uintptr_t)l->shape;
    if (l->sym == NULL || l->args != NULL || l->ret != NULL) return NULL;
    return &e->tails[h % RP_TAILS];
}

/* " DURATION" of the line at p. */
static char *rp_fline_duration(char *p, const rp_fline *l)
{
    *p++ = ' ';
    return rp_fmt_duration(p, l->frame ? l->frame->time : 0);
}

/* rp_fline_print() of a text not kept: composed, then kept in c if not NULL. */
static UFT_COLD void rp_fline_compose(rp *e, const rp_task *t, const rp_fline *l, rp_tail *c)
{
    char buf[64];
    const char *piece[5];
    size_t len[5], n = rp_fline_pieces(l, buf, sizeof buf, piece, len), i;
    size_t need = 64 + (l->indent > 0 ? (size_t)l->indent : 0);
    char *p, *tail;
    for (i = 0; i < n; i++) need += len[i];
    if (need > OUT_BUF_SIZE) {
        rp_columns(e, t, l->frame);
        rp_indent(e, l->indent);
        for (i = 0; i < n; i++) out_mem(e->out, piece[i], len[i]);
        return;
    }
    p = tail = rp_fline_duration(out_reserve(e->out, need), l);
    p = fmt_mem(p, t->tid_col, t->tid_col_len);
    if (l->indent > 0) {
        memset(p, ' ', (size_t)l->indent);
        p += l->indent;
    }
    for (i = 0; i < n; i++) p = fmt_mem(p, piece[i], len[i]);
    out_commit(e->out, p);
    if (c != NULL && (size_t)(p - tail) <= RP_TAIL_ROOM) {
        c->task = t;
        c->sym = l->sym;
        c->indent = l->indent;
        c->shape = l->shape;
        c->len = (size_t)(p - tail);
        memcpy(c->text, tail, c->len);
    }
}

/* Prints a function line. */
static inline void rp_fline_print(rp *e, const rp_task *t, const rp_fline *l)
{
    rp_tail *c = rp_tail_slot(e, l);
    char *p;
    if (c == NULL || c->sym != l->sym || c->task != t || c->indent != l->indent || c->shape != l->shape) {
        rp_fline_compose(e, t, l, c);
        return;
    }
    /* copies fixed sizes (faster): the bytes beyond c->len are
       overwritten by what comes next */
    p = rp_fline_duration(out_reserve(e->out, 16 + RP_TAIL_ROOM), l);
    memcpy(p, c->text, RP_TAIL_ROOM / 2);
    if (c->len > RP_TAIL_ROOM / 2) memcpy(p + RP_TAIL_ROOM / 2, c->text + RP_TAIL_ROOM / 2, RP_TAIL_ROOM / 2);
    out_commit(e->out, p + c->len);
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
    if (id == EV_EXTERN_DATA) {
        rp_puts(s, ": ");
        rp_puts(s, e->ext.msg);
        return;
    }
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
    rp_text *args = &e->args, *ret = &e->ret;
    rp_fline l;
    const uft_map *map;
    rp_task *next;
    long fi;
    uint32_t rdepth = r->depth;

    l.sym = uft_find_sym_map(e->dir, t->t, r->time, r->addr, &map);
    l.addr = r->addr;
    if (rp_enter(e, t, r, rp_special(e, l.sym, map)) < 0) return;
    l.indent = t->disp * 2;
    l.args = l.ret = NULL;
    if (r->more) {
        args->len = 0;
        rp_values(e, t, r, 0, args);
        l.args = args;
    }
    fi = t->nstack - 1;
    next = rp_peek_shown(e, t, rdepth); /* t->cur (*r) moves on */
    if (e->failed) return;
    if (next == t && next->cur.depth == rdepth && next->cur.type == TDEC_UFTRACE_REC_EXIT) {
        /* a leaf: its exit is the next record, one line for both */
        rp_take(e, next);
        if (next->cur.more) {
            ret->len = 0;
            rp_values(e, t, &next->cur, 1, ret);
            l.ret = ret;
        }
        l.shape = RP_LEAF;
        l.frame = rp_frame_at(e, t, fi);
        rp_fline_print(e, t, &l);
        rp_exited(e, t);
    } else {
        l.shape = RP_OPEN;
        l.frame = NULL;
        rp_fline_print(e, t, &l);
        rp_entered(e, t, rp_frame_at(e, t, fi));
    }
}

static void rp_show_exit(rp *e, rp_task *t, const rp_view *r)
{
    rp_frame *f = rp_frame_at(e, t, t->nstack);
    rp_text *ret = &e->ret;
    rp_fline l;
    if (f != NULL && !(f->flags & RP_FL_NORECORD)) {
        l.shape = RP_CLOSE;
        l.indent = rp_exiting(t) * 2;
        l.frame = f;
        l.sym = uft_find_sym(e->dir, t->t, r->time, r->addr);
        l.addr = r->addr;
        l.args = l.ret = NULL;
        if (r->more) {
            ret->len = 0;
            rp_values(e, t, r, 1, ret);
            rp_puts(ret, ";");
            l.ret = ret;
        }
        rp_fline_print(e, t, &l);
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
    if (id == EV_EXTERN_DATA) depth = 0; /* external data: at any display depth */
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
    case TDEC_UFTRACE_REC_ENTRY: rp_show_entry(e, t, r); break;
    case TDEC_UFTRACE_REC_EXIT:  rp_show_exit(e, t, r); break;
    case TDEC_UFTRACE_REC_LOST:  rp_show_lost(e, t, r); break;
    default:                     rp_show_event(e, t, r); break;
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

/* uftrace 0.13's parse_time(arg, 3) of a -t value, in ns: NUMBER[.DIGITS]
   [UNIT], the unit ns (also without one), us, ms, s or m (and nsec ...
   min), any case, the fraction added as uftrace adds it; an unknown unit
   counts as ns (*unknown_unit set; uftrace warns). 0 when uftrace refuses
   the value (3 digits at most before the point). */
static int rp_parse_time(const char *arg, uint64_t *ns, int *unknown_unit)
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
static void rp_default_opts(rp *e)
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
        } else if (!rp_parse_time(val, &e->time_filter, &unknown_unit)) {
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
static void rp_perf_preload(rp *e)
{
    size_t n = 0, cap = 0, i, k, m, **held, *nheld, *capheld, *next;
    tdec_uftrace_perf_record *merged;
    long p;
    rp_task *t;
    held = (size_t **)rp_alloc(e->ntasks * sizeof *held);
    nheld = (size_t *)rp_alloc(e->ntasks * sizeof *nheld);
    capheld = (size_t *)rp_alloc(e->ntasks * sizeof *capheld);
    while ((p = rp_perf_pick(e)) >= 0) {
        const tdec_uftrace_perf_record *h = &e->perf[p].head;
        uint32_t id = uft_perf_event_id(h);
        rp_take_perf(e);
        if (n == cap) {
            cap = cap * 2 + 256;
            e->perf_kept = (tdec_uftrace_perf_record *)rp_realloc(e->perf_kept, cap * sizeof *e->perf_kept);
        }
        t = rp_task_by_tid(e, (int32_t)h->tid);
        k = (size_t)(t - e->tasks);
        e->perf_kept[n] = *h;
        if (id == EV_SCHED_IN) {
            for (i = nheld[k]; i > 0; i--) {
                uint32_t was = uft_perf_event_id(&e->perf_kept[held[k][i - 1]]);
                if (was == EV_SCHED_OUT || was == EV_SCHED_OUT_PRE) break;
            }
            if (i > 0 && h->time - e->perf_kept[held[k][i - 1]].time < e->time_filter) {
                nheld[k] = i - 1;
                continue;
            }
        }
        if (nheld[k] == capheld[k]) {
            capheld[k] = capheld[k] * 2 + 64;
            held[k] = (size_t *)rp_realloc(held[k], capheld[k] * sizeof **held);
        }
        held[k][nheld[k]++] = n++;
    }
    /* uftrace then takes them from per-task lists: the earliest first, a
       tie to the first task in taskinfo order (not to the first file) */
    merged = (tdec_uftrace_perf_record *)rp_alloc((n + 1) * sizeof *merged);
    next = (size_t *)rp_alloc(e->ntasks * sizeof *next);
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

int uft_replay(const char *path, out_buf *out, out_buf *err)
{
    static uft_dir dir;
    static rp e;
    rp_task *t;
    uint64_t prev_time = 0;
    size_t i;
    char file[4096];

    if (uft_open_dir(&dir, path, err)) return 1;
    if (dir.ntids == 0) {
        cli_diag(err, "error", -1, path, "no task in info (taskinfo:tids)");
        return 1;
    }
    uft_spec_usage(&dir, out);
    memset(&e, 0, sizeof e);
    rp_duration_tables();
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
    rp_default_opts(&e);
    if ((dir.hdr.feat_mask & TDEC_UFTRACE_FEAT_PERF_EVENT) && rp_open_perf(&e) < 0) return 1;
    if (e.time_filter && e.nperf > 0) rp_perf_preload(&e);
    snprintf(file, sizeof file, "%s/extern.dat", path);
    e.ext.text = uft_read_file(file, &e.ext.len); /* none: no external data */

    /* the header only when there is a record at all */
    if (rp_next(&e, 0) != NULL) out_lit(out, "# DURATION     TID     FUNCTION");
    if (!e.failed) out_char(out, '\n');
    while ((t = rp_next(&e, 1)) != NULL) {
        const rp_view *r = &t->cur; /* the rp_show*() copy what they need before reading ahead */
        /* events outside user functions are not shown */
        if (r->type == TDEC_UFTRACE_REC_EVENT && t->user_nstack == 0) continue;
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
    free(e.ext.text);
    out_flush(out);
    return 0;
}
