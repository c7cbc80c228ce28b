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
       if (uft_stream_open(&s, &dir, out, err)) return 1;
       while ((t = uft_stream_next(&s, 1)) != NULL) {
           const uft_view *r = &t->cur;
           if (r->type == TDEC_UFTRACE_REC_EVENT && t->user_nstack == 0) continue;
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

/* uftrace's default depth limit (-D): deeper frames are hidden */
#define UFT_DEPTH_DEFAULT 1024

/* frame flags */
#define UFT_FL_EXEC     1u /* an exec*() call: the image restarts at depth 0   */
#define UFT_FL_LONGJMP  2u /* a longjmp(): back to the setjmp() depth           */
#define UFT_FL_NORECORD 4u /* entered beyond the depth limit: never shown       */

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

/* A task of taskinfo:tids. The fields after `cur` are its stack state
   (read them; change them only through the functions below). */
typedef struct uft_stask {
    int32_t         tid;
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
    const uft_session *sess;       /* uft_stream_session(): the answer in [sess_from, sess_to) */
    uint64_t        sess_from, sess_to;
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
    const uft_sym *special_sym[UFT_SPECIALS]; /* uft_stream_special() answers by symbol */
    char           special_kind[UFT_SPECIALS];
} uft_stream;

/* Opens the stream of the directory dir (uft_open_dir() done, at least one
   task): the readers of every task, perf file and extern.dat, and the
   recording's default.opts. Errors go to err (out flushed first). Returns
   0, or the exit status (1). */
int uft_stream_open(uft_stream *s, uft_dir *dir, out_buf *out, out_buf *err);
void uft_stream_close(uft_stream *s);

/* The task with the earliest next record, which becomes its current record
   (t->cur); taken too (uft_stream_take) if `take`. NULL at the end (or
   after an error: s->failed). Without take, the same task and record
   come back until one is taken. */
uft_stask *uft_stream_next(uft_stream *s, int take);
/* Takes the task's current record (the one uft_stream_next() just chose):
   the stack moves (an entry or sched-out pushes a frame, an exit or
   sched-in pops one and accounts its time, LOST resets). */
void uft_stream_take(uft_stream *s, uft_stask *t);

/* Frame idx of the task (uftrace keeps max_stack of them), NULL out of
   range. */
static inline uft_frame *uft_stream_frame(const uft_stream *s, uft_stask *t, long idx);
/* The session of the task at time, or NULL (remembered while it holds). */
const uft_session *uft_stream_session(uft_stream *s, uft_stask *t, uint64_t time);
/* The task of tid, or NULL. */
uft_stask *uft_stream_task(uft_stream *s, int32_t tid);

/* Is the symbol (found in map, as uft_find_sym_map() answers) one of the
   calls uftrace treats specially? 'e' exec*, 's' setjmp, 'l' longjmp,
   'f' fork/vfork/daemon, 0 none. */
int uft_stream_special(uft_stream *s, const uft_sym *sym, const uft_map *map);

/* fstack_entry(): a function entry, already taken (special: its
   uft_stream_special()). Sets up its frame; -1 when it is not shown. */
int uft_stream_enter(uft_stream *s, uft_stask *t, const uft_view *r, int special);
/* fstack_update(ENTRY): after an entry was shown, the next lines are one
   deeper (or the stack restarts for exec / longjmp). f: the entry's frame. */
void uft_stream_entered(uft_stream *s, uft_stask *t, uft_frame *f);
/* fstack_update(EXIT): the display depth of an exit being shown. */
long uft_stream_exiting(uft_stask *t);
/* fstack_exit(): a function exit, already taken, is done with. */
void uft_stream_exited(uft_stream *s, uft_stask *t);

/* fstack_check_skip(): would the current record r of t be hidden? -1
   yes, 0 no. */
int uft_stream_hidden(uft_stream *s, uft_stask *t, const uft_view *r);
/* fstack_skip(): looks at what comes after the current record of t
   (depth: its record depth), taking hidden records on the way. Returns
   the task of the next record that will be shown, NULL if none or if it
   must not be merged with t's (a LOST record, exec / longjmp). */
uft_stask *uft_stream_peek_shown(uft_stream *s, uft_stask *t, uint32_t depth);

/* fstack_check_filter(): after taking t's current record, is it to be
   processed? An entry gets its frame set up (uft_stream_enter), an exit
   of a hidden entry is done with (uft_stream_exited), an exit to process
   gets its display depth (uft_stream_exiting). */
int uft_stream_check_filter(uft_stream *s, uft_stask *t);
/* fstack_check_filter_done(): after processing a record that
   uft_stream_check_filter() passed (entry: uft_stream_entered, exit:
   uft_stream_exited). */
void uft_stream_filter_done(uft_stream *s, uft_stask *t);

/* uftrace 0.13's parse_time(arg, 3) of a -t value, in ns: NUMBER[.DIGITS]
   [UNIT], the unit ns (also without one), us, ms, s or m (and nsec ...
   min), any case, the fraction added as uftrace adds it; an unknown unit
   counts as ns (*unknown_unit set; uftrace warns). 0 when uftrace refuses
   the value (3 digits at most before the point). */
int uft_parse_time(const char *arg, uint64_t *ns, int *unknown_unit);

/* uft_stream_frame() beyond the frames allocated so far */
uft_frame *uft_stream_frame_grow(const uft_stream *s, uft_stask *t, long idx);

static inline uft_frame *uft_stream_frame(const uft_stream *s, uft_stask *t, long idx)
{
    if (idx >= 0 && idx < t->nframes) return &t->frames[idx]; /* nframes <= max_stack */
    return uft_stream_frame_grow(s, t, idx);
}

#endif
