/* replay.c - `tracedec replay DIR`: the call trees of a uftrace
   data directory exactly as `uftrace replay` (v0.13, default fields
   duration,tid) prints them: a consumer of the record stream (stream.h),
   as uftrace's cmds/replay.c is of its fstack. A function whose next
   shown record is its own exit is printed on one line, events outside
   user functions are dropped (the golden and live tests compare the
   output with uftrace itself).

   Speed: traces are mostly tight loops of small functions, so the path of
   a record is kept short. The text of a line without values after its
   duration is kept by (task, symbol, indentation, shape) (rp_fline_print),
   durations come from tables, and rare paths stay out of line (UFT_COLD). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/stream.h"
#include "tools/cli/uftrace/uftrace.h"
#include "tools/cli/uftrace/values.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    const uft_frame *frame; /* the function's frame, NULL if none */
    int             timed;  /* its duration is shown (not an open "{")  */
    const uft_sym  *sym;  /* NULL if unknown */
    uint64_t        addr;
    const uft_text  *args; /* "(a, b)", or NULL                  */
    const uft_text  *ret;  /* " = v" (";" too for RP_CLOSE), or NULL */
    int             comment; /* RP_CLOSE: the name in a comment (not --no-comment) */
    const char     *loc;     /* RP_OPEN, RP_LEAF: --srcline's "FILE:LINE", or NULL */
} rp_fline;


/* The fields of -f, in the order uftrace prints them. */
enum { RF_DURATION, RF_TID, RF_ADDR, RF_TIME, RF_DELTA, RF_ELAPSED, RF_TASK, RF_MODULE, RF_COUNT };
static const struct {
    const char *name, *header;
} rp_fields[RF_COUNT] = {
    {"duration", " DURATION "},      {"tid", "   TID  "},       {"addr", "   ADDRESS  "},
    {"time", "     TIMESTAMP    "}, {"delta", " TIMEDELTA"},   {"elapsed", "  ELAPSED "},
    {"task", "      TASK NAME"},    {"module", "     MODULE NAME"},
};
#define RF_DEFAULT ((1u << RF_DURATION) | (1u << RF_TID))

/* What the printer keeps per task. */
typedef struct rp_task {
    char     tid_col[24]; /* " [   TID] | " */
    size_t   tid_col_len;
    uint64_t time, last;  /* of the latest two records printed (time, delta) */
    long     column;      /* --column-view: its column, -1 before its first line */
} rp_task;

typedef struct rp {
    uft_stream      s;
    const uft_opts *o;
    rp_task        *tasks;    /* per task of s.tasks */
    unsigned        fields;   /* 1 << RF_* */
    int             fast;     /* the default fields: lines from kept texts (tails) */
    int32_t         prev_tid; /* --task-newline: the task of the latest line, -1 */
    long            columns;  /* --column-view: columns given out */
    long            flat_lines; /* --flat: lines printed */
    uft_text         args, ret; /* pieces of the line being printed */
    uft_kept        tails[UFT_KEPT_SLOTS]; /* rp_fline_print()'s kept texts */
} rp;

/* ---- text -------------------------------------------------------------------------- */

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
static void rp_tid_column(rp_task *c, int32_t tid)
{
    char *p = fmt_lit(c->tid_col, " [");
    p = fmt_lit(fmt_i64w(p, tid, 6), "] | ");
    c->tid_col_len = (size_t)(p - c->tid_col);
}

/* The module field of a frame: the basename of the session's map holding
   its address (16 characters at most, right-aligned). */
static char *rp_module_field(rp *e, uft_stask *t, const uft_frame *f, char *p)
{
    char name[64];
    const char *mod = "[unknown]", *slash;
    const uft_session *sess;
    size_t i;
    if (f == NULL) return p + snprintf(p, 17, "%16s", "");
    sess = uft_stream_session(&e->s, t, e->tasks[t->index].time);
    for (i = 0; sess != NULL && i < sess->nmaps; i++) {
        if (f->addr < sess->maps[i].start || f->addr >= sess->maps[i].end) continue;
        slash = strrchr(sess->maps[i].mod->path, '/');
        mod = slash ? slash + 1 : sess->maps[i].mod->path;
        break;
    }
    if (sess != NULL && i == sess->nmaps &&
        (f->addr == UFT_EV_SCHED_IN || f->addr == UFT_EV_SCHED_OUT || f->addr == UFT_EV_SCHED_OUT_PRE ||
         f->addr == UFT_EV_SCHEDULE || f->addr == UFT_EV_SCHEDULE_PRE))
        mod = "[event]";
    snprintf(name, sizeof name, "%16.16s", mod);
    return fmt_mem(p, name, strlen(name));
}

/* The fields (-f) of a line and " | ": f is the function's frame (NULL:
   none), its duration shown if timed, or "backtrace" in its place. */
static UFT_COLD void rp_fields_print(rp *e, uft_stask *t, const uft_frame *f, int timed, int backtrace)
{
    const rp_task *c = &e->tasks[t->index];
    char *p = out_reserve(e->s.out, 256 + sizeof t->comm);
    char buf[64];
    unsigned k;
    for (k = 0; k < RF_COUNT; k++) {
        if (!(e->fields & (1u << k))) continue;
        *p++ = ' ';
        switch (k) {
        case RF_DURATION:
            p = backtrace ? fmt_lit(p, " backtrace") : rp_fmt_duration(p, f != NULL && timed ? f->time : 0);
            break;
        case RF_TID: p = fmt_mem(p, c->tid_col + 1, c->tid_col_len - 4); break; /* "[   TID]" */
        case RF_ADDR:
            if (f == NULL) snprintf(buf, sizeof buf, "%12s", "");
            else snprintf(buf, sizeof buf, "%12llx", (unsigned long long)(f->addr & 0xffffffffffffull));
            p = fmt_mem(p, buf, strlen(buf));
            break;
        case RF_TIME:
            snprintf(buf, sizeof buf, "%8llu.%09llu", (unsigned long long)(c->time / 1000000000u),
                     (unsigned long long)(c->time % 1000000000u));
            p = fmt_mem(p, buf, strlen(buf));
            break;
        case RF_DELTA: p = rp_fmt_duration(p, c->last ? c->time - c->last : 0); break;
        case RF_ELAPSED: p = rp_fmt_duration(p, c->time - e->s.first_time); break;
        case RF_TASK:
            snprintf(buf, sizeof buf, "%15s", t->comm);
            p = fmt_mem(p, buf, strlen(buf));
            break;
        default: p = rp_module_field(e, t, f, p); break;
        }
    }
    if (e->fields) p = fmt_lit(p, " | ");
    out_commit(e->s.out, p);
}

/* The columns of a line: " DURATION [   TID] | " by default. */
static void rp_columns(rp *e, uft_stask *t, const uft_frame *f, int timed)
{
    char *p;
    if (!e->fast) {
        rp_fields_print(e, t, f, timed, 0);
        return;
    }
    p = out_reserve(e->s.out, 64);
    *p++ = ' ';
    p = rp_fmt_duration(p, f != NULL && timed ? f->time : 0);
    p = fmt_mem(p, e->tasks[t->index].tid_col, e->tasks[t->index].tid_col_len);
    out_commit(e->s.out, p);
}

static void rp_indent(rp *e, long n)
{
    static const char spaces[] = "                                                                ";
    while (n > 0) {
        long k = n < 64 ? n : 64;
        out_mem(e->s.out, spaces, (size_t)k);
        n -= k;
    }
}

/* The columns of a line without function, blank (uftrace's
   print_empty_field()). */
static void rp_blank_columns(rp *e)
{
    unsigned k;
    for (k = 0; k < RF_COUNT; k++)
        if (e->fields & (1u << k)) rp_indent(e, (long)strlen(rp_fields[k].header) + 1);
    if (e->fields) out_lit(e->s.out, " | ");
}

/* The pieces of the line after its indentation (at most RP_PIECES) into
   p and their lengths into n; their number. buf: room for "<addr>". */
#define RP_PIECES 8
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
        if (l->comment) {
            p[k] = " /* ", n[k++] = 4;
            p[k] = name, n[k++] = name_len;
            p[k] = " */", n[k++] = 3;
        }
        p[k] = "\n", n[k++] = 1;
        return k;
    }
    p[k] = name, n[k++] = name_len;
    if (l->args) p[k] = l->args->buf, n[k++] = l->args->len;
    else if (name_len == 0 || name[name_len - 1] != ')') p[k] = "()", n[k++] = 2;
    if (l->shape == RP_OPEN) {
        p[k] = " {", n[k++] = 2;
    } else {
        if (l->ret) p[k] = l->ret->buf, n[k++] = l->ret->len;
        p[k] = ";", n[k++] = 1;
    }
    if (l->loc) {
        p[k] = " /* ", n[k++] = 4;
        p[k] = l->loc, n[k++] = strlen(l->loc);
        p[k] = " */", n[k++] = 3;
    }
    p[k] = "\n", n[k++] = 1;
    return k;
}

/* The key of l's text in e->tails: its indentation and shape. */
static long rp_tail_key(const rp_fline *l)
{
    return l->indent * 4 + l->shape;
}

/* " DURATION" of the line at p. */
static char *rp_fline_duration(char *p, const rp_fline *l)
{
    *p++ = ' ';
    return rp_fmt_duration(p, l->frame != NULL && l->timed ? l->frame->time : 0);
}

/* rp_fline_print() of a text not kept: composed, then kept in c (the slot
   of l in e->tails) if not NULL. */
static UFT_COLD void rp_fline_compose(rp *e, uft_stask *t, const rp_fline *l, uft_kept *c)
{
    char buf[64];
    const char *piece[RP_PIECES];
    size_t len[RP_PIECES], n = rp_fline_pieces(l, buf, sizeof buf, piece, len), i;
    size_t need = 64 + (l->indent > 0 ? (size_t)l->indent : 0);
    char *p, *tail;
    for (i = 0; i < n; i++) need += len[i];
    if (need > OUT_BUF_SIZE || !e->fast) {
        rp_columns(e, t, l->frame, l->timed);
        rp_indent(e, l->indent);
        for (i = 0; i < n; i++) out_mem(e->s.out, piece[i], len[i]);
        return;
    }
    p = tail = rp_fline_duration(out_reserve(e->s.out, need), l);
    p = fmt_mem(p, e->tasks[t->index].tid_col, e->tasks[t->index].tid_col_len);
    if (l->indent > 0) {
        memset(p, ' ', (size_t)l->indent);
        p += l->indent;
    }
    for (i = 0; i < n; i++) p = fmt_mem(p, piece[i], len[i]);
    out_commit(e->s.out, p);
    if (c != NULL) uft_kept_store(c, t, l->sym, rp_tail_key(l), tail, (size_t)(p - tail));
}

/* Prints a function line. */
static inline void rp_fline_print(rp *e, uft_stask *t, const rp_fline *l)
{
    long key = rp_tail_key(l);
    uft_kept *c = NULL;
    char *p;
    /* (lines with values, or of an unknown function, are not kept) */
    if (l->sym != NULL && l->args == NULL && l->ret == NULL) c = uft_kept_slot(e->tails, l->sym, key);
    if (c == NULL || !uft_kept_holds(c, t, l->sym, key) || !e->fast) {
        rp_fline_compose(e, t, l, c);
        return;
    }
    p = rp_fline_duration(out_reserve(e->s.out, 16 + UFT_KEPT_ROOM), l);
    out_commit(e->s.out, uft_kept_put(p, c));
}

static const char *rp_event_name(rp *e, uint32_t id, char *buf, size_t len)
{
    if (id >= 1000000u && id != 2000000u && !(e->s.dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_EVENT)) {
        snprintf(buf, len, "user_event:%u", (unsigned)id);
        return buf;
    }
    if (id < 100000u) { /* kernel events: no kernel data here */
        snprintf(buf, len, "(null)");
        return buf;
    }
    return uft_event_name(e->s.dir, id, buf, len);
}

/* The text between the comment marks of an event line: name (data). */
static void rp_event_text(rp *e, const uft_view *r, uft_text *s)
{
    uint32_t id = (uint32_t)r->addr;
    char name[256], data[256];
    uft_text_puts(s, rp_event_name(e, id, name, sizeof name));
    if (id == UFT_EV_EXTERN_DATA) {
        uft_text_puts(s, ": ");
        uft_text_puts(s, e->s.ext.msg);
        return;
    }
    if (id >= 1000000u) return; /* user events: the name only */
    data[0] = '\0';
    if (id == UFT_EV_TASK_NAME) {
        snprintf(data, sizeof data, "comm=\"%s\"", r->comm);
    } else if (id >= 100001u && id <= 100011u) {
        uft_event_data_text(e->s.dir, id, r->rec ? r->rec->bytes : NULL, r->rec ? r->rec->nbytes : 0, 1, data,
                            sizeof data);
    } else if (id < 100000u && r->rec && r->rec->nbytes > 0) {
        snprintf(data, sizeof data, "%.*s", (int)r->rec->nbytes, (const char *)r->rec->bytes);
    }
    if (data[0]) uft_text_printf(s, " (%s)", data);
}

/* ---- one record ----------------------------------------------------------------------- */

/* --task-newline: an empty line (blank columns) when the task changes. */
static void rp_task_newline(rp *e, const uft_stask *t)
{
    if (!e->o->task_newline) return;
    if (e->prev_tid != -1 && t->tid != e->prev_tid) {
        rp_blank_columns(e);
        out_char(e->s.out, '\n');
    }
    e->prev_tid = t->tid;
}

/* The display depth of the task's next line: --column-view shifts each
   task (in the order they first print) by --column-offset more. */
static inline long rp_depth(rp *e, const uft_stask *t)
{
    rp_task *c = &e->tasks[t->index];
    if (!e->o->column_view) return t->disp;
    if (c->column < 0) c->column = e->columns++;
    return t->disp + c->column * e->o->column_offset;
}

/* The name of a function in a line: the symbol's, or "<addr>". */
static const char *rp_name(const uft_sym *sym, uint64_t addr, char *buf, size_t len)
{
    if (sym != NULL) return sym->name;
    snprintf(buf, len, "<%llx>", (unsigned long long)addr);
    return buf;
}

/* A @backtrace trigger: the frames below the entry, outermost first. */
static UFT_COLD void rp_backtrace(rp *e, uft_stask *t)
{
    char buf[64];
    long i;
    for (i = 0; i < t->nstack - 1; i++) {
        uft_frame *f = uft_stream_frame(&e->s, t, i);
        if (f == NULL) continue;
        rp_fields_print(e, t, f, 0, 1);
        out_lit(e->s.out, "/* [");
        snprintf(buf, sizeof buf, "%2ld", i);
        out_str(e->s.out, buf);
        out_lit(e->s.out, "] ");
        out_str(e->s.out, rp_name(uft_find_sym(e->s.dir, t->t, f->time, f->addr), f->addr, buf, sizeof buf));
        out_lit(e->s.out, " */\n");
    }
}

/* --srcline: "FILE:LINE" of the entry's function, NULL if none (or
   --no-comment). */
static UFT_COLD const char *rp_srcline(rp *e, uft_stask *t, const uft_view *r)
{
    static char loc[4200];
    if (e->o->no_comment || !uft_srcline(e->s.dir, t->t, r->time, r->addr, loc, sizeof loc)) return NULL;
    return loc;
}

static void rp_show_entry(rp *e, uft_stask *t, const uft_view *r, const uft_sym *sym, const uft_map *map)
{
    uft_text *args = &e->args, *ret = &e->ret;
    rp_fline l;
    uft_stask *next;
    long fi;
    uint32_t rdepth = r->depth;

    l.sym = sym;
    l.addr = r->addr;
    if (uft_stream_enter(&e->s, t, r, uft_stream_special(&e->s, sym, map)) < 0) return;
    l.loc = e->o->srcline ? rp_srcline(e, t, r) : NULL;
    rp_task_newline(e, t);
    if (t->entry_tr.flags & UFT_TR_BACKTRACE) rp_backtrace(e, t);
    l.indent = rp_depth(e, t) * 2;
    l.args = l.ret = NULL;
    l.comment = 0;
    if (r->more) {
        args->len = 0;
        if (e->o->no_args) uft_text_puts(args, "()");
        else uft_values_text(&e->s, t, r, 0, 0, args);
        l.args = args;
    }
    fi = t->nstack - 1;
    l.frame = uft_stream_frame(&e->s, t, fi);
    next = e->o->no_merge ? NULL : uft_stream_peek_shown(&e->s, t, rdepth); /* t->cur (*r) moves on */
    if (e->s.failed) return;
    if (next == t && next->cur.depth == rdepth && next->cur.type == TDEC_UFTRACE_REC_EXIT) {
        /* a leaf: its exit is the next record, one line for both */
        uft_stream_take(&e->s, next);
        if (next->cur.more && !e->o->no_args) {
            ret->len = 0;
            uft_text_puts(ret, " = ");
            uft_values_text(&e->s, t, &next->cur, 1, 0, ret);
            l.ret = ret;
        }
        l.shape = RP_LEAF;
        l.frame = uft_stream_frame(&e->s, t, fi);
        l.timed = 1;
        rp_fline_print(e, t, &l);
        uft_stream_exited(&e->s, t);
    } else {
        l.shape = RP_OPEN;
        l.timed = 0;
        rp_fline_print(e, t, &l);
        uft_stream_entered(&e->s, t, uft_stream_frame(&e->s, t, fi));
    }
}

static void rp_show_exit(rp *e, uft_stask *t, const uft_view *r, const uft_sym *sym)
{
    uft_frame *f = uft_stream_frame(&e->s, t, t->nstack);
    uft_text *ret = &e->ret;
    rp_fline l;
    if (e->s.enabled && f != NULL && !(f->flags & UFT_FL_NORECORD)) {
        l.shape = RP_CLOSE;
        uft_stream_exiting(t);
        l.indent = rp_depth(e, t) * 2;
        l.frame = f;
        l.timed = 1;
        l.sym = sym;
        l.addr = r->addr;
        l.args = l.ret = NULL;
        l.comment = !e->o->no_comment;
        l.loc = NULL;
        if (r->more && !e->o->no_args) {
            ret->len = 0;
            uft_text_puts(ret, " = ");
            uft_values_text(&e->s, t, r, 1, 0, ret);
            uft_text_puts(ret, ";");
            l.ret = ret;
        }
        rp_task_newline(e, t);
        rp_fline_print(e, t, &l);
    }
    uft_stream_exited(&e->s, t);
}

static void rp_show_event(rp *e, uft_stask *t, const uft_view *r)
{
    long depth;
    uft_view ev = *r;
    uint64_t id = r->addr;
    uft_frame *f;
    uft_text *s;
    if (!uft_stream_check_filter(&e->s, t)) return;
    rp_task_newline(e, t);
    depth = rp_depth(e, t);
    if ((id == UFT_EV_SCHED_OUT || id == UFT_EV_SCHED_OUT_PRE) && !e->o->no_merge) {
        /* a sched-out directly followed by its sched-in: one line */
        uft_stask *next = uft_stream_peek_shown(&e->s, t, 0);
        if (e->s.failed) return;
        if (next == t && next->cur.addr == UFT_EV_SCHED_IN) {
            uft_stream_take(&e->s, next);
            ev.addr = id == UFT_EV_SCHED_OUT ? UFT_EV_SCHEDULE : UFT_EV_SCHEDULE_PRE;
            id = UFT_EV_SCHED_IN;
        }
    }
    if (id == UFT_EV_EXTERN_DATA) depth = 0; /* external data: at any display depth */
    f = uft_stream_frame(&e->s, t, t->nstack);
    if (!e->s.enabled || f == NULL || (f->flags & UFT_FL_NORECORD)) return;
    if (id == UFT_EV_SCHED_IN && f->time) rp_columns(e, t, f, 1);
    else rp_columns(e, t, NULL, 0);
    rp_indent(e, depth * 2);
    s = &e->args;
    s->len = 0;
    rp_event_text(e, &ev, s);
    out_lit(e->s.out, "/* ");
    out_mem(e->s.out, s->buf, s->len);
    out_lit(e->s.out, " */\n");
}

static void rp_show_lost(rp *e, uft_stask *t, const uft_view *r)
{
    char buf[64];
    int n = (int)r->addr;
    long depth = t->disp + 1;
    if (t->user_nstack == 0) return; /* outside user functions */
    rp_task_newline(e, t);
    rp_columns(e, t, NULL, 0);
    rp_indent(e, depth * 2);
    if (n > 0) snprintf(buf, sizeof buf, "/* LOST %d records!! */\n", n);
    else snprintf(buf, sizeof buf, "/* LOST some records!! */\n");
    out_str(e->s.out, buf);
}

/* uftrace's print_graph_rstack(): a record of the call trees. */
static void rp_show(rp *e, uft_stask *t, const uft_view *r)
{
    const uft_map *map = NULL;
    const uft_sym *sym = NULL;
    rp_task *c;
    if (r->type == TDEC_UFTRACE_REC_LOST) {
        rp_show_lost(e, t, r);
        return;
    }
    if (r->type != TDEC_UFTRACE_REC_EVENT) {
        sym = uft_find_sym_map(e->s.dir, t->t, r->time, r->addr, &map);
        if (e->o->no_libcall && sym != NULL && sym->type == 'P') return;
    }
    if (!e->fast) { /* the times of the time, delta and elapsed fields */
        c = &e->tasks[t->index];
        c->last = c->time;
        c->time = r->time;
    }
    switch (r->type) {
    case TDEC_UFTRACE_REC_ENTRY: rp_show_entry(e, t, r, sym, map); break;
    case TDEC_UFTRACE_REC_EXIT:  rp_show_exit(e, t, r, sym); break;
    default:                     rp_show_event(e, t, r); break;
    }
}

/* uftrace's print_flat_rstack(): --flat, a line per record. */
static void rp_show_flat(rp *e, uft_stask *t, const uft_view *r)
{
    char line[512], name[64];
    const uft_sym *sym = uft_find_sym(e->s.dir, t->t, r->time, r->addr);
    const char *nm = rp_name(sym, r->addr, name, sizeof name);
    uft_frame *f = uft_stream_frame(&e->s, t, (long)r->depth);
    uft_text *s = &e->args;
    long n;
    if (f == NULL || (e->o->no_libcall && sym != NULL && sym->type == 'P')) return;
    n = e->flat_lines++;
    switch (r->type) {
    case TDEC_UFTRACE_REC_ENTRY:
        snprintf(line, sizeof line, "[%ld] ==> %d/%u: ip (", n, (int)t->tid, (unsigned)r->depth);
        out_str(e->s.out, line);
        out_str(e->s.out, nm);
        snprintf(line, sizeof line, "), time (%llu)\n", (unsigned long long)r->time);
        break;
    case TDEC_UFTRACE_REC_EXIT:
        snprintf(line, sizeof line, "[%ld] <== %d/%u: ip (", n, (int)t->tid, (unsigned)r->depth);
        out_str(e->s.out, line);
        out_str(e->s.out, nm);
        snprintf(line, sizeof line, "), time (%llu:%llu)\n", (unsigned long long)r->time,
                 (unsigned long long)f->time);
        break;
    case TDEC_UFTRACE_REC_LOST:
        snprintf(line, sizeof line, "[%ld] XXX %d: lost %d records\n", n, (int)t->tid, (int)r->addr);
        break;
    default:
        snprintf(line, sizeof line, "[%ld] !!! %d: ", n, (int)t->tid);
        out_str(e->s.out, line);
        s->len = 0;
        rp_event_text(e, r, s);
        out_mem(e->s.out, s->buf, s->len);
        snprintf(line, sizeof line, " time (%llu)\n", (unsigned long long)r->time);
        break;
    }
    out_str(e->s.out, line);
}

/* What was still open at the end, as uftrace lists it. */
static void rp_show_remaining(rp *e)
{
    long total = 0, k, zero;
    size_t i;
    char name[1024], buf[64];
    for (i = 0; i < e->s.ntasks; i++) {
        uft_stask *t = &e->s.tasks[i];
        uft_frame *f = uft_stream_frame(&e->s, t, 0);
        if (f == NULL) continue;
        if (t->nstack == 1 && (f->addr == UFT_EV_SCHED_OUT || f->addr == UFT_EV_SCHED_OUT_PRE)) continue;
        for (zero = 0; zero < t->nstack; zero++)
            if ((f = uft_stream_frame(&e->s, t, zero)) != NULL && f->addr != 0) break;
        total += t->nstack - zero;
    }
    if (total == 0) return;
    out_lit(e->s.out, "\nuftrace stopped tracing with remaining functions");
    out_lit(e->s.out, "\n================================================\n");
    for (i = 0; i < e->s.ntasks; i++) {
        uft_stask *t = &e->s.tasks[i];
        uft_frame *f = uft_stream_frame(&e->s, t, 0);
        if (t->nstack == 0) continue;
        if (t->nstack == 1 && f && (f->addr == UFT_EV_SCHED_OUT || f->addr == UFT_EV_SCHED_OUT_PRE)) continue;
        for (zero = 0; zero < t->nstack; zero++)
            if ((f = uft_stream_frame(&e->s, t, zero)) != NULL && f->addr != 0) break;
        if (zero == t->nstack || uft_stream_frame(&e->s, t, 0) == NULL) continue;
        snprintf(buf, sizeof buf, "task: %d\n", (int)t->tid);
        out_str(e->s.out, buf);
        for (k = t->nstack - 1; k >= 0; k--) {
            const char *nm;
            if ((f = uft_stream_frame(&e->s, t, k)) == NULL) continue;
            nm = uft_ptr_name(&e->s, t, f->time, f->addr);
            if (nm) snprintf(name, sizeof name, "%s", nm);
            else snprintf(name, sizeof name, "<%llx>", (unsigned long long)f->addr);
            snprintf(buf, sizeof buf, "[%ld] ", k - zero);
            out_str(e->s.out, buf);
            out_str(e->s.out, name);
            out_char(e->s.out, '\n');
            if (k == zero) break;
        }
        out_char(e->s.out, '\n');
    }
}


/* The fields of -f (uftrace's setup_field()): 0, or 1 after printing
   uftrace's message for an unknown one. */
static int rp_setup_fields(rp *e)
{
    const char *f = e->o->fields, *end;
    unsigned k, set = 0;
    size_t n;
    if (f == NULL) {
        e->fields = RF_DEFAULT;
        return 0;
    }
    if (strcmp(f, "none") == 0) {
        e->fields = 0;
        return 0;
    }
    if (*f == '+') {
        set = RF_DEFAULT;
        f++;
    }
    for (; *f; f = *end ? end + 1 : end) {
        end = strchr(f, ',');
        if (end == NULL) end = f + strlen(f);
        n = (size_t)(end - f);
        if (n == 0) continue;
        if (n == 3 && memcmp(f, "all", 3) == 0) {
            set = (1u << RF_COUNT) - 1;
            break;
        }
        for (k = 0; k < RF_COUNT && !(strlen(rp_fields[k].name) == n && memcmp(rp_fields[k].name, f, n) == 0); k++)
            continue;
        if (k == RF_COUNT) {
            out_lit(e->s.out, "uftrace: Unknown field name '");
            out_mem(e->s.out, f, n);
            out_lit(e->s.out, "'\nuftrace:   Possible fields are:");
            for (k = 0; k < RF_COUNT; k++) {
                out_char(e->s.out, ' ');
                out_str(e->s.out, rp_fields[k].name);
            }
            out_char(e->s.out, '\n');
            return 1;
        }
        set |= 1u << k;
    }
    e->fields = set;
    return 0;
}

/* "# DURATION     TID     FUNCTION" for the fields. */
static void rp_header(rp *e)
{
    unsigned k;
    int first = 1;
    for (k = 0; k < RF_COUNT; k++) {
        if (!(e->fields & (1u << k))) continue;
        out_str(e->s.out, first ? "#" : " ");
        out_str(e->s.out, rp_fields[k].header);
        first = 0;
    }
    if (e->fields) out_lit(e->s.out, "   FUNCTION");
}

int uft_replay(const char *path, const uft_opts *o, out_buf *out, out_buf *err)
{
    static uft_dir dir;
    static rp e;
    uft_stask *t;
    uint64_t prev_time = 0;
    size_t i;

    if (o->usage) out_str(out, o->usage);
    if (uft_open_dir(&dir, path, err)) return 1;
    dir.demangle = o->demangle;
    uft_spec_usage(&dir, out);
    memset(&e, 0, sizeof e);
    rp_duration_tables();
    e.o = o;
    e.prev_tid = -1;
    if (uft_stream_open_opts(&e.s, &dir, o, out, err)) return 1;
    if (e.s.usage) out_str(out, e.s.usage);
    if (rp_setup_fields(&e)) return 1;
    e.fast = e.fields == RF_DEFAULT && !o->srcline;
    e.tasks = (rp_task *)uft_xrealloc(NULL, e.s.ntasks * sizeof *e.tasks);
    for (i = 0; i < e.s.ntasks; i++) {
        rp_tid_column(&e.tasks[i], e.s.tasks[i].tid);
        e.tasks[i].time = e.tasks[i].last = 0;
        e.tasks[i].column = -1;
    }

    /* the header only when there is a record at all */
    if (!o->flat && uft_stream_next(&e.s, 0) != NULL) rp_header(&e);
    if (!e.s.failed && e.fields) {
        if (o->srcline) out_lit(out, " [SOURCE]");
        out_char(out, '\n');
    }
    while ((t = uft_stream_next(&e.s, 1)) != NULL) {
        const uft_view *r = &t->cur; /* the rp_show*() copy what they need before reading ahead */
        if (!uft_stream_check_opts(&e.s, t)) continue;
        if (r->time) {
            if (prev_time > r->time) {
                rp_blank_columns(&e);
                out_char(out, ' ');
                rp_indent(&e, (t->disp + 1) * 2);
                out_lit(out, "/* inverted time: broken data? */\n");
            }
            prev_time = r->time;
        }
        if (o->flat) rp_show_flat(&e, t, r);
        else rp_show(&e, t, r);
        if (e.s.failed) break;
    }
    if (e.s.failed) return 1;
    rp_show_remaining(&e);
    uft_stream_close(&e.s);
    free(e.tasks);
    out_flush(out);
    return 0;
}
