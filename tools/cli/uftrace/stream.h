/* stream.h - the records of a uftrace data directory in uftrace 0.13's
   merged order, with the per-task stack state machine of its fstack
   (utils/fstack.c): the engine under `tracedec replay` (replay.c) and the
   other commands that walk a recording as uftrace's cmds/ do (report,
   graph, dump --chrome / --flame-graph / --graphviz).

   Reading: one uft_task_reader per <tid>.dat (taskinfo order) and one
   uft_perf_reader per perf-cpuN.dat, each streaming its file through its
   own CLI_CHUNK buffer; every reader holds one record ahead. The next
   record is always the earliest one: among the tasks the first in
   taskinfo order wins a tie, among the perf files the first by name, and
   a task record wins over a perf record of the same time. The lines of
   DIR/extern.dat (external data) come in by time too, after everything of
   the same time. A time filter (default.opts -t) holds a task's records
   until the exit of the innermost held entry decides (uftrace's
   get_task_ustack()) and preloads the perf records (process_perf_event()).

   The stack: per task a stack of frames (uft_frame: address, start time
   and, once exited, duration and time spent in children), the display
   depth and counters of user frames, driven by records in that merged
   order with uftrace's quirks: perf sched-out/sched-in pairs are pseudo
   frames (a fork child inherits the parent's frames that way), exec and
   longjmp rewind the stack, LOST records reset it, frames beyond the
   depth limit are NORECORD.

   The API mirrors uftrace's fstack.h, so a command is written as its
   uftrace counterpart (cmds/report.c, graph.c, dump.c, replay.c):

       uftrace                          here
       read_rstack(h, &task)            t = uft_stream_next(s, 1)
       peek_rstack(h, &task)            t = uft_stream_next(s, 0)
       fstack_consume(h, task)          uft_stream_take(s, t)
       task->rstack                     &t->cur (a uft_view)
       fstack_get(task, idx)            uft_stream_frame(s, t, idx)
       task->stack_count                t->nstack
       task->user_stack_count           t->user_nstack
       task->display_depth              t->disp
       fstack_check_opts(task, opts)    uft_stream_check_opts(s, t)
       fstack_check_filter(task)        uft_stream_check_filter(s, t)
       fstack_check_filter_done(task)   uft_stream_filter_done(s, t)
       fstack_entry(task, rstack, &tr)  uft_stream_enter(s, t, &t->cur, special)
       fstack_update(ENTRY, task, fs)   uft_stream_entered(s, t, f)
       fstack_update(EXIT, task, fs)    uft_stream_exiting(t)
       fstack_exit(task)                uft_stream_exited(s, t)
       fstack_skip(h, task, depth, o)   uft_stream_peek_shown(s, t, depth)
       find_task_session(...)           uft_stream_session(s, t, time)

   A consumer's loop (report's build_function_tree()):

       uft_stream s;
       if (uft_stream_open_opts(&s, &dir, opts, out, err)) return 1;
       while ((t = uft_stream_next(&s, 1)) != NULL) {
           const uft_view *r = &t->cur;
           if (!uft_stream_check_opts(&s, t)) continue;
           if (!uft_stream_check_filter(&s, t)) continue;
           if (r->type == TDEC_UFTRACE_REC_EXIT) {
               f = uft_stream_frame(&s, t, t->nstack);  (the frame just left:
               f->time is its total time, f->child its children's)
           }
           uft_stream_filter_done(&s, t);
       }
       if (s.failed) return 1;      (the error is on err already)
       ... frames still open: t->nstack of them, f->time their start ...
       uft_stream_close(&s);

   Options (opts.h): the uftrace row parses the command line into a
   uft_opts and applies default.opts (uft_opts_default) before it runs a
   command; the command sets dir.demangle = o->demangle right after
   uft_open_dir(), prints o->usage, then uft_spec_usage(), then (after
   opening the stream) s.usage on stdout, as uftrace orders its "Usage:"
   lines, and hands o to uft_stream_open_opts(): -F/-N/-T/-D/-t/--tid apply
   inside the stream, --no-libcall and the printing options are the
   command's (replay.c shows both).

   Records: t->cur is valid until the next uft_stream_next(). Its rec (the
   <tid>.dat record with arguments / event data) is NULL for perf and
   external-data records; the message of an external-data record
   (UFT_EV_EXTERN_DATA) is s->ext.msg, the new name of a perf COMM
   (UFT_EV_TASK_NAME) is cur.comm.

   Frames: while open, f->time is the start time (f->valid 1); at the exit
   (uft_stream_take of the EXIT record or sched-in) it becomes the duration
   and f->child the time of the frames it enclosed (uftrace's total_time,
   child_time: self time is time - child). The frame of an exit is at
   index t->nstack once taken. uft_stream_frame() may move the frames:
   hold indexes across calls, not pointers.

   Errors: a file that cannot be read is reported on err (out flushed
   first, "tracedec: error: FILE: offset N: ..."), s->failed is set and
   uft_stream_next() answers NULL from then on.

   Memory: per task one frame array (up to max_stack), two record buffers
   and its reader's chunk; with a time filter the records held until an
   exit decides (one call's subtree) and the perf records (uftrace holds
   them all too). */
#ifndef TDEC_TOOLS_UFT_STREAM_H
#define TDEC_TOOLS_UFT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "tools/cli/out.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/filter.h"
#include "tools/cli/uftrace/opts.h"
#include "tools/cli/uftrace/read.h"

/* event ids of the perf scheduler records and external data */
#define UFT_EV_SCHED_IN      200001u
#define UFT_EV_SCHED_OUT     200002u
#define UFT_EV_SCHEDULE      200003u /* a sched-out and its sched-in, one line */
#define UFT_EV_TASK_NAME     200006u
#define UFT_EV_SCHED_OUT_PRE 200007u
#define UFT_EV_SCHEDULE_PRE  200008u
#define UFT_EV_EXTERN_DATA   2000000u

/* uftrace's EXTERN_DATA_MAX: room for an external-data message and its NUL */
#define UFT_EXTERN_MAX 1024

/* uft_stream_special() answers kept */
#define UFT_SPECIALS 256

/* frame flags */
#define UFT_FL_EXEC     1u /* an exec*() call: the image restarts at depth 0   */
#define UFT_FL_LONGJMP  2u /* a longjmp(): back to the setjmp() depth           */
#define UFT_FL_NORECORD 4u /* hidden (filters, depth limit): never shown       */
#define UFT_FL_FILTERED 8u /* matched by a -F filter                           */
#define UFT_FL_NOTRACE 16u /* matched by a -N filter                           */

/* where a task's current record came from */
enum { UFT_SRC_NONE, UFT_SRC_USER, UFT_SRC_PERF, UFT_SRC_EXTERN };

typedef struct uft_frame {
    uint64_t addr;       /* the function, or UFT_EV_SCHED_OUT(_PRE) for a sched pseudo frame */
    uint64_t time;       /* start time while open; its duration once exited */
    uint64_t child;      /* time of the frames it enclosed (exited ones)    */
    long     orig_depth; /* depth budget to restore at its exit             */
    uint8_t  valid;      /* time is a start time                            */
    uint8_t  flags;      /* UFT_FL_*                                        */
} uft_frame;

/* A record as a task sees it (uftrace's task->rstack): a <tid>.dat
   record, or a perf or external-data record as an EVENT. */
typedef struct uft_view {
    uint32_t       type, more, depth; /* TDEC_UFTRACE_REC_*; more: it has values */
    uint64_t       time, addr;        /* addr: the function, or the event id     */
    const uft_rec *rec;      /* a <tid>.dat record with its payload; NULL otherwise */
    char           comm[17]; /* perf COMM: the new task name */
} uft_view;

/* A function entry with a @time trigger whose exit is not read yet: the
   time filter of what it calls (uftrace's task->filter.stack). */
typedef struct uft_time_trigger {
    uint32_t depth;
    uint64_t threshold;
} uft_time_trigger;

/* A task of taskinfo:tids. The fields after `cur` are its stack state
   (read them; change them only through the functions below). */
typedef struct uft_stask {
    int32_t         tid;
    size_t          index;   /* its place in the stream's tasks[]               */
    const uft_task *t;       /* its task.txt entry, or NULL                     */
    uft_task_reader rd;
    uft_rec        *slot[2]; /* [0] the record ahead, [1] the last one taken     */
    int             ahead;   /* slot[0] holds a record not taken yet            */
    uft_rec       **held;    /* time filter: records read, not yet passed on     */
    size_t          nheld, held_from, held_cap;
    uft_rec       **spare;   /* time filter: record buffers free for reuse       */
    size_t          nspare;
    int             ended;
    uft_view        cur;     /* the task's current record (uftrace's rstack)    */
    int             cur_src; /* UFT_SRC_USER, UFT_SRC_PERF or UFT_SRC_EXTERN    */
    uft_frame      *frames;      /* grown on use, up to max_stack              */
    long            nframes;
    long            nstack;      /* frames in use                               */
    long            user_nstack; /* of them, function frames                    */
    long            disp;        /* display depth of the next line              */
    int             disp_set;
    int             stack_set;   /* the stack was sized from the first record   */
    int             fork_done;
    long            fork_disp;   /* display depth a forked child starts with     */
    long            budget;      /* depth budget (uftrace's filter depth)        */
    int             lost_seen;
    uint64_t        est, est_next; /* -e/--estimate-return bookkeeping           */
    long            in_count, out_count; /* open frames a -F / -N filter matched */
    uft_trigger     entry_tr;    /* the trigger of the latest entry (uft_stream_enter) */
    const uft_sym  *entry_sym;   /* the symbol of the latest entry uft_stream_check_filter()
                                    looked at (NULL: none) */
    int             excluded;    /* not among --tid's tasks: no records, no frames */
    char            comm[17];    /* its name: its (last) program's, then perf COMM's */
    uft_time_trigger *tt;        /* open frames with a @time trigger (reading) */
    size_t          ntt, tt_cap;
    const uft_session *sess;       /* uft_stream_session(): the answer in [sess_from, sess_to) */
    uint64_t        sess_from, sess_to;
    uint64_t        ustack_time; /* time filter: of the latest record read from its
                                    file or passed on (uftrace's task->ustack) */
} uft_stask;

typedef struct uft_sperf {
    uft_perf_reader          rd;
    tdec_uftrace_perf_record head;
    int                      valid, done;
} uft_sperf;

/* DIR/extern.dat: lines "SEC.NSEC message", read one ahead. */
typedef struct uft_sextern {
    char    *text; /* the whole file; NULL without one */
    size_t   len, pos;
    int      valid; /* time and msg hold the next line   */
    uint64_t time;
    char     msg[UFT_EXTERN_MAX];
} uft_sextern;

typedef struct uft_stream {
    uft_dir   *dir;
    out_buf   *out, *err;
    uft_stask *tasks;     /* taskinfo:tids order */
    size_t     ntasks;
    uft_sperf *perf;
    size_t     nperf;
    long       last_perf;   /* the perf file the latest pick chose, -1 if none */
    int        perf_picked; /* last_perf holds until a perf record is taken */
    uft_stask *peeked;      /* uft_stream_next() without take chose it; holds until a take */
    uft_stask *lead;        /* the task of the latest full pick, NULL if none:     */
    uint64_t   lead_until;  /* its records before this time come next (st_earliest) */
    uft_view   perf_cur;    /* the latest perf record picked, shared by all tasks */
    uft_sextern ext;
    uft_stask *last_read;   /* the task of the latest record read: external data goes there */
    long       max_stack;
    long       setjmp_disp, setjmp_nstack;
    int        estimate;
    uint64_t   time_filter; /* default.opts -t: shorter calls are hidden (ns), 0 if none */
    tdec_uftrace_perf_record *perf_kept; /* with a time filter: the perf records */
    size_t     nperf_kept, perf_next;    /* left by st_perf_preload(), in order */
    int        perf_preloaded;
    int        failed;      /* a file could not be read: error reported, the stream ends */
    const uft_opts *opts;   /* the options it was opened with */
    uft_filters filters;    /* -F, -N, -T */
    long       depth;       /* -D */
    int        enabled;     /* uftrace's fstack_enabled: off after a trace_off trigger */
    uint64_t   first_time;  /* uftrace's time_range.first: the earliest record taken
                               (events outside functions aside), for elapsed times */
    char      *usage;       /* "Usage: ..." lines of the filter setup, for stdout */
    const uft_sym *special_sym[UFT_SPECIALS]; /* uft_stream_special() answers by symbol */
    char           special_kind[UFT_SPECIALS];
} uft_stream;

/* Opens the stream of the directory dir (uft_open_dir() done, at least one
   task) with options o (uft_opts_default() applied; kept by reference):
   the readers of every task (--tid's only), perf file and extern.dat, the
   filters and triggers (s->usage: uftrace's "Usage:" lines about them,
   which a command prints first). Errors go to err (out flushed first).
   Returns 0, or the exit status (1). */
int uft_stream_open_opts(uft_stream *s, uft_dir *dir, const uft_opts *o, out_buf *out, out_buf *err);
/* uft_stream_open_opts() with uftrace's default options and the
   recording's default.opts. */
int uft_stream_open(uft_stream *s, uft_dir *dir, out_buf *out, out_buf *err);
void uft_stream_close(uft_stream *s);

/* The task with the earliest next record, which becomes its current record
   (t->cur); taken too (uft_stream_take) if `take`. NULL at the end (or
   after an error: s->failed). Without take, the same task and record
   come back until one is taken. */
static inline uft_stask *uft_stream_next(uft_stream *s, int take);
/* Takes the task's current record (the one uft_stream_next() just chose):
   the stack moves (an entry or sched-out pushes a frame, an exit or
   sched-in pops one and accounts its time, LOST resets). */
static inline void uft_stream_take(uft_stream *s, uft_stask *t);

/* Frame idx of the task (uftrace keeps max_stack of them), NULL out of
   range. */
static inline uft_frame *uft_stream_frame(const uft_stream *s, uft_stask *t, long idx);
/* The session of the task at time, or NULL (remembered while it holds). */
static inline const uft_session *uft_stream_session(uft_stream *s, uft_stask *t, uint64_t time);
/* The task of tid, or NULL. */
uft_stask *uft_stream_task(uft_stream *s, int32_t tid);

/* Is the symbol (found in map, as uft_find_sym_map() answers) one of the
   calls uftrace treats specially? 'e' exec*, 's' setjmp, 'l' longjmp,
   'f' fork/vfork/daemon, 0 none. */
static inline int uft_stream_special(uft_stream *s, const uft_sym *sym, const uft_map *map);

/* fstack_entry(): a function entry, already taken (special: its
   uft_stream_special()). Sets up its frame; -1 when it is not shown. */
static inline int uft_stream_enter(uft_stream *s, uft_stask *t, const uft_view *r, int special);
/* fstack_update(ENTRY): after an entry was shown, the next lines are one
   deeper (or the stack restarts for exec / longjmp). f: the entry's frame. */
static inline void uft_stream_entered(uft_stream *s, uft_stask *t, uft_frame *f);
/* fstack_update(EXIT): the display depth of an exit being shown. */
static inline long uft_stream_exiting(uft_stask *t);
/* fstack_exit(): a function exit, already taken, is done with. */
static inline void uft_stream_exited(uft_stream *s, uft_stask *t);

/* fstack_check_skip(): would the current record r of t be hidden? -1
   yes, 0 no. */
static inline int uft_stream_hidden(uft_stream *s, uft_stask *t, const uft_view *r);
/* fstack_skip(): looks at what comes after the current record of t
   (depth: its record depth), taking hidden records on the way. Returns
   the task of the next record that will be shown, NULL if none or if it
   must not be merged with t's (a LOST record, exec / longjmp). */
static inline uft_stask *uft_stream_peek_shown(uft_stream *s, uft_stask *t, uint32_t depth);

/* fstack_check_opts(): is t's current record (taken) of interest under
   the options: events outside user functions are not (unless
   --event-full), no event is under --no-event. */
static inline int uft_stream_check_opts(const uft_stream *s, const uft_stask *t);

/* fstack_check_filter(): after taking t's current record, is it to be
   processed? An entry gets its frame set up (uft_stream_enter), an exit
   of a hidden entry is done with (uft_stream_exited), an exit to process
   gets its display depth (uft_stream_exiting). */
static UFT_INLINE int uft_stream_check_filter(uft_stream *s, uft_stask *t);
/* fstack_check_filter_done(): after processing a record that
   uft_stream_check_filter() passed (entry: uft_stream_entered, exit:
   uft_stream_exited). */
static inline void uft_stream_filter_done(uft_stream *s, uft_stask *t);

/* uftrace 0.13's parse_time(arg, 3) of a -t value, in ns: NUMBER[.DIGITS]
   [UNIT], the unit ns (also without one), us, ms, s or m (and nsec ...
   min), any case, the fraction added as uftrace adds it; an unknown unit
   counts as ns (*unknown_unit set; uftrace warns). 0 when uftrace refuses
   the value (3 digits at most before the point). */
int uft_parse_time(const char *arg, uint64_t *ns, int *unknown_unit);

/* uft_stream_frame() beyond the frames allocated so far */
uft_frame *uft_stream_frame_grow(const uft_stream *s, uft_stask *t, long idx);

/* The time of the task's last record as uftrace reads it at the end
   (task->rstack->time), where the calls still open end: for a perf
   record, that of the last perf record read of any task (uftrace keeps
   them in one static record); under a time filter, for a record of its
   file, the latest one read from the file (passed on or not) or passed on. */
static inline uint64_t uft_stream_end_time(const uft_stream *s, const uft_stask *t)
{
    if (s->time_filter) return t->cur_src == UFT_SRC_USER ? t->ustack_time : t->cur.time;
    return t->cur_src == UFT_SRC_PERF ? s->perf_cur.time : t->cur.time;
}

static inline int uft_stream_check_opts(const uft_stream *s, const uft_stask *t)
{
    if (t->cur.type != TDEC_UFTRACE_REC_EVENT) return 1;
    return !s->opts->no_event && (t->user_nstack > 0 || s->opts->event_full);
}

static inline uft_frame *uft_stream_frame(const uft_stream *s, uft_stask *t, long idx)
{
    if ((unsigned long)idx < (unsigned long)t->nframes) return &t->frames[idx]; /* 0 <= nframes <= max_stack */
    return uft_stream_frame_grow(s, t, idx);
}

/* ---- the path of a record, inline ------------------------------------------------
   Consumers call the functions above once or more per record: their
   definitions follow, with the helpers they share, so that they inline
   into the consumers' loops; the rare cases are in stream.c (uft_st_*). */

UFT_COLD void uft_st_task_error(uft_stream *e, uft_stask *t);
int uft_st_task_ahead_filtered(uft_stream *e, uft_stask *t);
UFT_COLD void uft_st_take_perf(uft_stream *e);
UFT_COLD int uft_st_stack_unsettled(uft_stream *e, uft_stask *t, const uft_view *r, int type);
UFT_COLD void uft_st_stack_lost(uft_stream *e, uft_stask *t);
uft_stask *uft_st_earliest_of_all(uft_stream *e);
int uft_st_enter_filtered(uft_stream *e, uft_stask *t, const uft_view *r, int special);
UFT_COLD int uft_st_special_by_name(const uft_sym *sym);

/* uft_task_session() of the task, remembered while it holds. */
static inline const uft_session *uft_stream_session(uft_stream *e, uft_stask *t, uint64_t time)
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

/* The next complete record of the task's file into *out: 1, 0 at its end,
   -1 after an error (reported). */
static inline int uft_st_task_read(uft_stream *e, uft_stask *t, uft_rec *out)
{
    int rc = uft_task_next(&t->rd, out);
    if (rc > 0 && out->incomplete) rc = uft_task_next(&t->rd, out);
    if (rc < 0) uft_st_task_error(e, t);
    if (rc > 0 && e->first_time == 0) e->first_time = out->rec.time;
    return rc;
}

/* Makes sure the task has its next record in slot[0]; 0 when it has none. */
static inline int uft_st_task_ahead(uft_stream *e, uft_stask *t)
{
    int rc;
    if (t->ahead) return 1;
    if (e->time_filter || e->filters.time) return uft_st_task_ahead_filtered(e, t);
    if (t->ended || e->failed) return 0;
    rc = uft_st_task_read(e, t, t->slot[0]);
    if (rc == 0) t->ended = 1;
    if (rc <= 0) return 0;
    t->ahead = 1;
    return 1;
}

/* A perf scheduler event seen as a pseudo function: sched-out enters it,
   sched-in leaves it. Returns the record type to use, or -1 for events
   that do not touch the stack. */
static inline int uft_st_stack_type(const uft_view *r)
{
    if (r->type != TDEC_UFTRACE_REC_EVENT) return (int)r->type;
    if (r->addr == UFT_EV_SCHED_OUT || r->addr == UFT_EV_SCHED_OUT_PRE) return TDEC_UFTRACE_REC_ENTRY;
    if (r->addr == UFT_EV_SCHED_IN) return TDEC_UFTRACE_REC_EXIT;
    return -1;
}

/* A frame's time becomes its duration delta, which counts in its parent
   (frame idx - 1) as time spent in children. */
static inline void uft_st_account(uft_stream *e, uft_stask *t, uft_frame *f, long idx, uint64_t delta)
{
    uft_frame *parent;
    f->time = delta;
    if (f->child > delta) f->child = delta;
    if (idx > 0 && (parent = uft_stream_frame(e, t, idx - 1)) != NULL) parent->child += delta;
}

/* A function entry or a sched-out: a frame opens. */
static inline void uft_st_push(uft_stream *e, uft_stask *t, const uft_view *r)
{
    uint64_t addr = r->addr, time = r->time;
    uft_frame *f;
    UFT_OPAQUE(addr); /* uft_st_view_user() may have just stored them */
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
static inline void uft_st_pop(uft_stream *e, uft_stask *t, const uft_view *r)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack - 1);
    if (f != NULL) {
        uft_st_account(e, t, f, t->nstack - 1, f->valid ? r->time - f->time : 0);
        f->valid = 0;
    }
    if (t->nstack > 0) t->nstack--;
    if (r->type != TDEC_UFTRACE_REC_EVENT && t->user_nstack > 0) t->user_nstack--;
}

/* Takes the task's current record (the one uft_stream_next() just chose). */
static inline void uft_stream_take(uft_stream *e, uft_stask *t)
{
    const uft_view *r = &t->cur;
    int type = uft_st_stack_type(r);
    if (t->cur_src == UFT_SRC_USER) {
        uft_rec *s = t->slot[0];
        t->slot[0] = t->slot[1];
        t->slot[1] = s;
        t->ahead = 0;
    } else if (t->cur_src == UFT_SRC_PERF) {
        uft_st_take_perf(e);
        if (r->addr == UFT_EV_TASK_NAME) memcpy(t->comm, r->comm, sizeof t->comm);
    } else {
        e->ext.valid = 0;
    }
    e->peeked = NULL;
    if ((e->first_time == 0 || r->time < e->first_time) && !(r->type == TDEC_UFTRACE_REC_EVENT && t->nstack == 0))
        e->first_time = r->time;
    if (type < 0) return; /* events other than sched-in/out */
    if ((!t->stack_set || t->lost_seen) && uft_st_stack_unsettled(e, t, r, type)) return;
    if (type == TDEC_UFTRACE_REC_ENTRY) uft_st_push(e, t, r);
    else if (type == TDEC_UFTRACE_REC_EXIT) uft_st_pop(e, t, r);
    else if (type == TDEC_UFTRACE_REC_LOST) uft_st_stack_lost(e, t);
}

/* The user record ahead becomes the task's current record. */
static inline void uft_st_view_user(uft_stream *e, uft_stask *t)
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

/* The task with the earliest next record, which becomes its current
   record; NULL at the end (or after an error). Ties go to the first task
   in taskinfo order, then to the first perf file; a task's record wins
   over a perf record of the same time, both over external data. */
static inline uft_stask *uft_st_earliest(uft_stream *e)
{
    uft_stask *t = e->lead;
    /* The records ahead of the other sources do not change until one of
       them is taken: while the lead task's next record is strictly before
       all of them, it is the next. */
    if (t != NULL && uft_st_task_ahead(e, t) && t->slot[0]->rec.time < e->lead_until) {
        uft_st_view_user(e, t);
        return t;
    }
    return uft_st_earliest_of_all(e);
}

/* The task with the earliest next record, which becomes its current
   record; taken too if `take`. NULL at the end (or after an error). */
static inline uft_stask *uft_stream_next(uft_stream *e, int take)
{
    uft_stask *t;
    if (e->failed) return NULL;
    t = e->peeked;
    if (t == NULL) {
        if ((t = uft_st_earliest(e)) == NULL) return NULL;
        if (!take && !e->estimate) e->peeked = t; /* -e estimates are redone on every call */
    }
    if (take) {
        e->last_read = t;
        uft_stream_take(e, t);
    }
    return t;
}

/* Is the symbol (found in map) one of the calls replay treats specially?
   Returns 'e' exec*, 's' setjmp, 'l' longjmp, 'f' fork/vfork/daemon, 0 none. */
static inline int uft_stream_special(uft_stream *e, const uft_sym *sym, const uft_map *map)
{
    size_t slot = ((uintptr_t)sym >> 3) % UFT_SPECIALS;
    if (sym == NULL || map == NULL) return 0; /* only symbols of the session's maps */
    if (e->special_sym[slot] != sym) {
        e->special_sym[slot] = sym;
        e->special_kind[slot] = (char)uft_st_special_by_name(sym);
    }
    return e->special_kind[slot];
}

/* Is the record's function a PLT entry (looked up for task t)? */
static inline int uft_st_is_plt(uft_stream *e, uft_stask *t, const uft_view *r)
{
    const uft_sym *sym = uft_find_sym(e->dir, t->t, r->time, r->addr);
    return sym != NULL && sym->type == 'P';
}

/* uft_stream_special() of the record's function. */
static inline int uft_st_special_at(uft_stream *e, uft_stask *t, const uft_view *r)
{
    const uft_map *map;
    const uft_sym *sym = uft_find_sym_map(e->dir, t->t, r->time, r->addr, &map);
    return uft_stream_special(e, sym, map);
}

/* The end of an entry (frame f): hidden beyond the depth budget (or if
   hide), else it takes a level of the budget. -1 hidden, 0 shown. */
static inline int uft_st_enter_budget(uft_stask *t, uft_frame *f, int hide)
{
    if (t->budget <= 0 || hide) {
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

/* The frame of an entry of a special function (uft_stream_special()). */
static inline void uft_st_enter_special(uft_stream *e, uft_stask *t, uft_frame *f, int special)
{
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

/* A function entry (already taken; special: its uft_stream_special()): sets up
   its frame. -1: not shown. */
static inline int uft_stream_enter(uft_stream *e, uft_stask *t, const uft_view *r, int special)
{
    uft_frame *f;
    if (e->filters.count > 0) return uft_st_enter_filtered(e, t, r, special);
    if ((f = uft_stream_frame(e, t, t->nstack - 1)) == NULL) return -1;
    f->orig_depth = t->budget;
    f->flags = 0;
    t->entry_tr.flags = 0;
    if (special && uft_stream_session(e, t, r->time) != NULL) uft_st_enter_special(e, t, f, special);
    return uft_st_enter_budget(t, f, 0);
}

/* After an entry line "f() {": the next lines are one deeper (or the
   stack restarts for exec / longjmp). */
static inline void uft_stream_entered(uft_stream *e, uft_stask *t, uft_frame *f)
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
static inline long uft_stream_exiting(uft_stask *t)
{
    if (!t->disp_set) { /* a fork child starts with an exit */
        t->disp = t->nstack + 1;
        t->disp_set = 1;
    }
    t->disp = t->disp > 0 ? t->disp - 1 : 0;
    return t->disp;
}

/* A function exit (already taken): its frame is done. */
static inline void uft_stream_exited(uft_stream *e, uft_stask *t)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack);
    if (f == NULL) return;
    if (f->flags & UFT_FL_FILTERED) t->in_count--;
    else if (f->flags & UFT_FL_NOTRACE) t->out_count--;
    f->flags = 0;
    t->budget = f->orig_depth;
}

/* fstack_check_skip(): would the record be hidden? -1 yes (a -N filter
   or none of the -F ones, beyond the depth limit, no session; for an
   exit: its entry was hidden), 0 no. */
static inline int uft_stream_hidden(uft_stream *e, uft_stask *t, const uft_view *r)
{
    const uft_session *sess;
    const uft_trigger *tr = NULL;
    uft_frame *f;
    long depth = t->budget;
    if (t->out_count > 0) return -1;
    if (r->type == TDEC_UFTRACE_REC_EXIT) {
        if (t->nstack < 1) return 0;
        f = uft_stream_frame(e, t, t->nstack - 1);
        if (f == NULL || (f->flags & UFT_FL_NORECORD)) return -1;
        return 0;
    }
    if ((sess = uft_stream_session(e, t, r->time)) == NULL) return -1;
    if (e->filters.count > 0) tr = uft_filters_match(&e->filters, sess, r->addr);
    if (tr != NULL && (tr->flags & UFT_TR_FILTER)) {
        if (tr->fmode == 'o') return -1;
        depth = e->depth;
    } else if (e->filters.mode == 'i' && t->in_count == 0) {
        return -1;
    }
    if (tr != NULL && (tr->flags & (UFT_TR_DEPTH | UFT_TR_TRACE_ON))) return 0;
    if ((tr != NULL && (tr->flags & (UFT_TR_TRACE_OFF | UFT_TR_HIDE))) || depth <= 0) return -1;
    return 0;
}

/* Looks at what comes after the current record of t (depth: its record
   depth), taking hidden records on the way. Returns the task of the next
   record that will be shown, NULL if none or if it must not be merged. */
static inline uft_stask *uft_stream_peek_shown(uft_stream *e, uft_stask *t, uint32_t depth)
{
    uft_frame *f = uft_stream_frame(e, t, t->nstack - 1);
    int src = t->cur_src;
    uft_stask *next;
    if (f == NULL || (f->flags & (UFT_FL_EXEC | UFT_FL_LONGJMP))) return NULL;
    if ((next = uft_stream_next(e, 0)) == NULL) return NULL;
    for (;;) {
        const uft_view *r = &next->cur; /* until the next uft_stream_next() */
        if (next == t && next->cur_src == src && depth >= r->depth) break;
        if (!(r->type == TDEC_UFTRACE_REC_EVENT && next->user_nstack == 0 && !e->opts->event_full)) {
            if (r->type == TDEC_UFTRACE_REC_LOST) return NULL;
            /* --no-libcall: PLT functions (looked up, as uftrace, in t's session) */
            if (!(e->opts->no_libcall && uft_st_is_plt(e, t, r)) && uft_stream_hidden(e, next, r) >= 0) break;
        }
        uft_stream_take(e, next);
        if (r->type == TDEC_UFTRACE_REC_ENTRY) uft_stream_enter(e, next, r, uft_st_special_at(e, next, r));
        else if (r->type == TDEC_UFTRACE_REC_EXIT) uft_stream_exited(e, next);
        if (!e->enabled) return NULL;
        if ((next = uft_stream_next(e, 0)) == NULL) return NULL;
    }
    return next;
}

/* fstack_check_filter(): an entry gets its frame set up, an exit of a
   hidden entry is done with, an exit to process gets its display depth. */
static UFT_INLINE int uft_stream_check_filter(uft_stream *e, uft_stask *t)
{
    const uft_view *r = &t->cur;
    uft_frame *f;
    const uft_map *map;
    const uft_sym *sym;
    if (r->type == TDEC_UFTRACE_REC_ENTRY) {
        if (uft_stream_frame(e, t, t->nstack - 1) == NULL) return 0;
        sym = uft_find_sym_map(e->dir, t->t, r->time, r->addr, &map);
        t->entry_sym = sym;
        return uft_stream_enter(e, t, r, uft_stream_special(e, sym, map)) == 0;
    }
    if (r->type == TDEC_UFTRACE_REC_EXIT) {
        if ((f = uft_stream_frame(e, t, t->nstack)) == NULL) return 0;
        if ((f->flags & UFT_FL_NORECORD) || !e->enabled) {
            uft_stream_exited(e, t);
            return 0;
        }
        uft_stream_exiting(t);
        return 1;
    }
    if (r->type == TDEC_UFTRACE_REC_EVENT) {
        if (t->out_count > 0 || t->budget <= 0 || (e->filters.mode == 'i' && t->in_count == 0)) return 0;
        if (r->addr == UFT_EV_SCHED_IN) return uft_stream_frame(e, t, t->nstack) != NULL;
        if (r->addr == UFT_EV_SCHED_OUT) return uft_stream_frame(e, t, t->nstack - 1) != NULL;
    }
    return 1;
}

/* fstack_check_filter_done(). */
static inline void uft_stream_filter_done(uft_stream *e, uft_stask *t)
{
    if (t->cur.type == TDEC_UFTRACE_REC_ENTRY) uft_stream_entered(e, t, uft_stream_frame(e, t, t->nstack - 1));
    else if (t->cur.type == TDEC_UFTRACE_REC_EXIT) uft_stream_exited(e, t);
}

#endif
