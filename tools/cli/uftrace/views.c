/* views.c - `tracedec dump --chrome | --flame-graph | --graphviz DIR`:
   the views of uftrace 0.13's `uftrace dump` (cmds/dump.c), byte for
   byte. They are consumers of the record stream (stream.h) walked as its
   do_dump_replay() walks read_rstack(): every record the fstack filter
   passes (events only inside user functions), then an exit for each
   function still open at the end, at the last time its task read.

   --chrome: Chrome trace-event JSON, printed as the records come. An
   entry is a "B" event, an exit an "E" event, a perf sched-out and
   sched-in a "linux:schedule" pair (a pre-empting sched-out is left out,
   as uftrace does), a perf COMM the task's new name ("M" events).
   Arguments and return values are the event's "args" (values.h, JSON
   escapes). Where uftrace's own output is not valid JSON (a LOST record
   leaves an empty element, a recording without records a trailing comma,
   text copied raw holds a '"') the elements are only separated by commas
   and such text is escaped (vw_json_text()); a reading error is reported
   on stderr and the JSON still closed (a directory that cannot be read at
   all, where uftrace prints nothing, gives an empty trace).

   --flame-graph and --graphviz: uftrace's call tree (calltree.h), one
   for the whole recording, each task at its current node (the root
   when it has none). Flame graph lines are "caller;...;function SAMPLES"
   with uftrace's sampling of times (its sample time from the recording's
   elapsed time), graphviz lines "caller" -> "function" [xlabel = calls]. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/calltree.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/stream.h"
#include "tools/cli/uftrace/uftrace.h"
#include "tools/cli/uftrace/values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The version the references were made by (Debian 12's uftrace package):
   uftrace prints its own build's. */
#define VW_UFTRACE_VERSION "uftrace v0.13 ( x86_64 dwarf python3 luajit tui perf sched dynamic )"

/* "%03u." of 0..999 (filled by vw_chrome_header()) */
static char vw_digits[1000][4];

typedef struct vw {
    uft_stream s;
    int        view;     /* UFT_VIEW_* */
    uint64_t  *last;     /* per task: the time of the last record it read */
    char     (*comm)[17]; /* per task: its name in the Chrome header */
    int        elements; /* Chrome: elements written since "[" */
    unsigned   lost;     /* Chrome: LOST records seen */
    uint64_t   sample;   /* flame graph: sample time (ns), 0 for call counts */
    calltree   tree;     /* flame graph, graphviz */
    uint32_t  *cur;      /* per task: its current node in the tree */
    uft_text   text;     /* argument text */
    uft_text   tail;     /* vw_chrome_tail() */
    uint64_t   ts_from;  /* vw_chrome_ts(): the start of the ms whose text is kept */
    char       ts_text[24];
    size_t     ts_len;   /* (0: none kept) */
    uft_kept   tails[UFT_KEPT_SLOTS]; /* the text after the time of a "B"/"E" event
                                        (vw_chrome_tail()), by (task, symbol, phase) */
} vw;

/* ---- the recording's info ------------------------------------------------------------- */

/* The value of info line `key:` into buf ("" if none). */
static void vw_info(const vw *v, const char *key, char *buf, size_t len)
{
    char path[4096];
    size_t n, klen = strlen(key);
    char *text, *line, *end;
    buf[0] = '\0';
    snprintf(path, sizeof path, "%s/info", v->s.dir->path);
    if ((text = uft_read_file(path, &n)) == NULL || n < 40) {
        free(text);
        return;
    }
    for (line = text + 40; line < text + n; line = end + 1) {
        end = memchr(line, '\n', (size_t)(text + n - line));
        if (end == NULL) end = text + n;
        if ((size_t)(end - line) > klen && memcmp(line, key, klen) == 0 && line[klen] == ':') {
            snprintf(buf, len, "%.*s", (int)(end - line - (long)klen - 1), line + klen + 1);
            break;
        }
    }
    free(text);
}

static const char *vw_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The tasks' names as uftrace's Chrome header shows them: the program of
   the task's latest session, then the latest perf COMM of each task in
   the perf files' order (update_perf_task_comm()). */
static void vw_task_names(vw *v)
{
    uft_dir *d = v->s.dir;
    size_t i;
    v->comm = uft_zalloc(v->s.ntasks * sizeof *v->comm);
    for (i = 0; i < v->s.ntasks; i++) {
        const uft_task *t = v->s.tasks[i].t;
        if (t != NULL && t->nrefs > 0)
            snprintf(v->comm[i], sizeof v->comm[i], "%.15s", vw_basename(t->refs[t->nrefs - 1].sess->exename));
    }
    if (!(d->hdr.feat_mask & TDEC_UFTRACE_FEAT_PERF_EVENT)) return;
    for (i = 0; i < d->nperf_files; i++) {
        uft_perf_reader rd;
        tdec_uftrace_perf_record r;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", d->path, d->perf_files[i]);
        if (uft_perf_open(&rd, d, path) < 0) continue; /* the stream reports it */
        while (uft_perf_next(&rd, &r) > 0) {
            uft_stask *t;
            /* (records of tasks without a <tid>.dat are skipped) */
            if (uft_perf_event_id(&r) != UFT_EV_TASK_NAME || !uft_tid_recorded(d, (int32_t)r.tid)) continue;
            if ((t = uft_stream_task(&v->s, (int32_t)r.tid)) != NULL)
                snprintf(v->comm[t->index], sizeof v->comm[0], "%s", r.comm);
        }
        uft_perf_close(&rd);
    }
}

/* ---- Chrome trace ------------------------------------------------------------------------ */

/* Is s (n bytes) valid inside a JSON string: no '"' or control byte
   unescaped, every '\\' starting an escape JSON knows? */
static int vw_json_valid(const char *s, size_t n)
{
    size_t i, k;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"') return 0;
        if (c != '\\') continue;
        if (++i == n) return 0;
        if (s[i] == 'u') {
            for (k = 1; k <= 4; k++)
                if (i + k >= n || !strchr("0123456789abcdefABCDEF", s[i + k]) || s[i + k] == '\0') return 0;
            i += 4;
        } else if (!strchr("\"\\/bfnrt", s[i]) || s[i] == '\0') {
            return 0;
        }
    }
    return 1;
}

/* Text uftrace prints raw inside a JSON string (task names, the command
   line, argument text): as it is when that is valid JSON, else with '"',
   '\\' and control bytes escaped, so that the output stays JSON. */
static void vw_json_text(out_buf *o, const char *s, size_t n)
{
    size_t i;
    char esc[8];
    if (vw_json_valid(s, n)) {
        out_mem(o, s, n);
        return;
    }
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            out_char(o, '\\');
            out_char(o, (char)c);
        } else if (c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            out_str(o, esc);
        } else {
            out_char(o, (char)c);
        }
    }
}

/* Starts an element of "traceEvents". */
static void vw_element(vw *v)
{
    if (v->elements++ > 0) out_lit(v->s.out, ",\n");
}

static void vw_chrome_header(vw *v)
{
    size_t i;
    for (i = 0; i < 1000; i++) *fmt_u64w(vw_digits[i], i, 3, '0') = '.';
    vw_task_names(v);
    out_lit(v->s.out, "{\"traceEvents\":[\n");
    for (i = 0; i < v->s.ntasks; i++) {
        int32_t tid = v->s.tasks[i].tid;
        int k;
        for (k = 0; k < 2; k++) {
            vw_element(v);
            out_lit_u64(v->s.out, "{\"ts\":0,\"ph\":\"M\",\"pid\":", (uint64_t)tid); /* tids are positive */
            out_str(v->s.out, k == 0 ? ",\"name\":\"process_name\"" : ",\"name\":\"thread_name\"");
            out_lit_u64(v->s.out, ",\"args\":{\"name\":\"[", (uint64_t)tid);
            out_lit(v->s.out, "] ");
            vw_json_text(v->s.out, v->comm[i], strlen(v->comm[i]));
            out_lit(v->s.out, "\"}}");
        }
    }
}

/* A perf COMM: the task's new name. */
static void vw_chrome_comm(vw *v, uft_stask *t, const char *comm)
{
    int32_t pid = t->t ? t->t->pid : t->tid;
    out_buf *o = v->s.out;
    if (pid == t->tid) {
        vw_element(v);
        out_lit_u64(o, "{\"ts\":0,\"ph\":\"M\",\"pid\":", (uint64_t)t->tid);
        out_lit(o, ",\"name\":\"process_name\",\"args\":{\"name\":\"");
        vw_json_text(o, comm, strlen(comm));
        out_lit(o, "\"}}");
        vw_element(v);
        out_lit_u64(o, "{\"ts\":0,\"ph\":\"M\",\"pid\":", (uint64_t)t->tid);
        out_lit(o, ",\"name\":\"thread_name\",\"args\":{\"name\":\"");
    } else {
        vw_element(v);
        out_lit_u64(o, "{\"ts\":0,\"ph\":\"M\",\"pid\":", (uint64_t)pid);
        out_lit_u64(o, ",\"tid\":", (uint64_t)t->tid);
        out_lit_u64(o, ",\"name\":\"thread_name\",\"args\":{\"name\":\"[", (uint64_t)t->tid);
        out_lit(o, "] ");
    }
    vw_json_text(o, comm, strlen(comm));
    out_lit(o, "\"}}");
}

/* Does name need uft_json_escaped()? */
static int vw_needs_escapes(const char *name, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (name[i] < 0x20 || name[i] >= 0x7f || name[i] == '"' || name[i] == '\\') return 1;
    return 0;
}

/* The text of a "B" or "E" event of task t after its time, up to the
   name's closing quote (`,"ph":"B","pid":P,"tid":T,"name":"NAME"`), into
   v->tail. */
static void vw_chrome_tail(vw *v, const uft_stask *t, char ph, const char *name, size_t name_len)
{
    int32_t pid = t->t ? t->t->pid : t->tid;
    uft_text *s = &v->tail;
    size_t i;
    s->len = 0;
    uft_text_printf(s, ",\"ph\":\"%c\",\"pid\":%d", ph, (int)pid);
    if (pid != t->tid) uft_text_printf(s, ",\"tid\":%d", (int)t->tid);
    uft_text_puts(s, ",\"name\":\"");
    if (vw_needs_escapes(name, name_len))
        for (i = 0; i < name_len; i++) uft_json_escaped(s, name[i]);
    else
        uft_text_put(s, name, name_len);
    uft_text_puts(s, "\""); /* (a name cut by uft_text, beyond 8 KB, loses this quote) */
}

/* An event's time in us ("%llu.%03u" of time in ns) at p, which has room
   for 32 bytes, when time is in the ms whose text is kept (times of a
   trace are close: the ms changes seldom). */
static inline char *vw_chrome_ts_kept(const vw *v, char *p, uint64_t time)
{
    uint32_t sub = (uint32_t)(time - v->ts_from);
    memcpy(p, v->ts_text, sizeof v->ts_text); /* (fixed sizes: faster; the rest is overwritten) */
    p += v->ts_len;
    memcpy(p, vw_digits[sub / 1000], 4);
    memcpy(p + 4, vw_digits[sub % 1000], 4);
    return p + 7;
}

/* vw_chrome_ts() in another ms: its text is kept from now on (a time
   under 1 ms, without leading zeros, is written as it is). */
static UFT_COLD char *vw_chrome_ts_new(vw *v, char *p, uint64_t time)
{
    uint64_t ms = time / 1000000u;
    if (ms == 0) {
        p = fmt_u64(p, time / 1000);
        *p++ = '.';
        return fmt_u64w(p, time % 1000, 3, '0');
    }
    v->ts_from = ms * 1000000u;
    v->ts_len = (size_t)(fmt_u64(v->ts_text, ms) - v->ts_text);
    return vw_chrome_ts_kept(v, p, time);
}

/* An event's time in us at p, which has room for 32 bytes. */
static inline char *vw_chrome_ts(vw *v, char *p, uint64_t time)
{
    if (time - v->ts_from >= 1000000u || v->ts_len == 0) return vw_chrome_ts_new(v, p, time);
    return vw_chrome_ts_kept(v, p, time);
}

/* The start of an event at time, at p (out_reserve()d for 48 bytes
   more than what follows): `{"ts":TIME` after the comma of a later
   element. */
static inline char *vw_chrome_start(vw *v, char *p, uint64_t time)
{
    if (v->elements++ > 0) p = fmt_lit(p, ",\n");
    return vw_chrome_ts(v, fmt_lit(p, "{\"ts\":"), time);
}

/* The "args" of the record r of task t and the end of its event. */
static UFT_COLD void vw_chrome_args(vw *v, uft_stask *t, char ph, const uft_view *r)
{
    out_buf *o = v->s.out;
    v->text.len = 0;
    uft_values_text(&v->s, t, r, ph == 'E', 1, &v->text);
    out_str(o, ph == 'E' ? ",\"args\":{\"retval\":\"" : ",\"args\":{\"arguments\":\"");
    vw_json_text(o, v->text.buf, v->text.len);
    out_lit(o, "\"}}");
}

/* The end of an event written up to p: its "args" from the record r
   (NULL: none), the closing brace. */
static inline void vw_chrome_end(vw *v, uft_stask *t, char ph, const uft_view *r, char *p)
{
    if (r != NULL && r->more) {
        out_commit(v->s.out, p);
        vw_chrome_args(v, t, ph, r);
        return;
    }
    *p++ = '}';
    out_commit(v->s.out, p);
}

/* A "B" (ph 'B') or "E" event of task t at time, of the function sym
   (NULL for another name) whose text is not kept: composed, and kept for
   the next time; r: the record whose values go into "args" (NULL: none). */
static UFT_COLD void vw_chrome_event(vw *v, uft_stask *t, char ph, uint64_t time, const uft_sym *sym,
                                     const char *name, size_t name_len, const uft_view *r)
{
    char *p;
    vw_chrome_tail(v, t, ph, name, name_len);
    if (sym != NULL) uft_kept_store(uft_kept_slot(v->tails, sym, ph), t, sym, ph, v->tail.buf, v->tail.len);
    p = vw_chrome_start(v, out_reserve(v->s.out, 48 + v->tail.len), time);
    vw_chrome_end(v, t, ph, r, fmt_mem(p, v->tail.buf, v->tail.len));
}

/* vw_chrome_event() of the function of record r of task t (no symbol:
   its address as the name). */
static UFT_COLD void vw_chrome_func_event(vw *v, uft_stask *t, char ph, const uft_sym *sym, const uft_view *r)
{
    char buf[32];
    if (sym != NULL) {
        vw_chrome_event(v, t, ph, r->time, sym, sym->name, sym->name_len, r);
        return;
    }
    vw_chrome_event(v, t, ph, r->time, NULL, buf,
                    (size_t)snprintf(buf, sizeof buf, "<%llx>", (unsigned long long)r->addr), r);
}

/* dump_replay_func() of --chrome: a function record (or LOST) of task t,
   as an event: its text after the time comes kept (vw->tails) but the
   first time. */
static inline void vw_chrome_func(vw *v, uft_stask *t, const uft_view *r)
{
    char ph = r->type == TDEC_UFTRACE_REC_ENTRY ? 'B' : 'E';
    const uft_sym *sym;
    uft_kept *c;
    if (r->type == TDEC_UFTRACE_REC_LOST) {
        v->lost++;
        return;
    }
    /* (an entry's symbol was looked up by uft_stream_check_filter()) */
    sym = ph == 'B' ? t->entry_sym : uft_find_sym(v->s.dir, t->t, r->time, r->addr);
    c = uft_kept_slot(v->tails, sym, ph);
    if (sym == NULL || !uft_kept_holds(c, t, sym, ph)) {
        vw_chrome_func_event(v, t, ph, sym, r);
        return;
    }
    vw_chrome_end(v, t, ph, r, uft_kept_put(vw_chrome_start(v, out_reserve(v->s.out, 48 + UFT_KEPT_ROOM), r->time), c));
}

static void vw_chrome_footer(vw *v)
{
    char path[4096], date[64], cmdline[8192];
    struct stat sb;
    struct tm tm;
    out_buf *o = v->s.out;
    out_lit(o, "\n], \"displayTimeUnit\": \"ns\", \"metadata\": {\n");
    out_lit(o, "\"version\":\"" VW_UFTRACE_VERSION "\",\n");
    /* the recording's date: its info file's mtime, in local time */
    snprintf(path, sizeof path, "%s/info", v->s.dir->path);
    if (stat(path, &sb) == 0 && localtime_r(&sb.st_mtime, &tm) != NULL &&
        strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", &tm) > 0) {
        out_lit(o, "\"recorded_time\":\"");
        out_str(o, date);
        out_lit(o, "\",\n");
    }
    if (v->s.dir->hdr.info_mask & TDEC_UFTRACE_INFO_CMDLINE) {
        vw_info(v, "cmdline", cmdline, sizeof cmdline); /* stored JSON-quoted */
        out_lit(o, "\"command_line\":\"");
        vw_json_text(o, cmdline, strlen(cmdline));
        out_lit(o, "\"\n");
    }
    out_lit(o, "} }\n");
    if (v->lost) {
        char msg[128];
        snprintf(msg, sizeof msg, "Some of function trace records are lost. (%u times shown)", v->lost);
        cli_diag(v->s.err, "warning", -1, v->s.dir->path, msg);
    }
}

/* ---- the call tree ------------------------------------------------------------------------ */

/* graph_add_node(): a sched-out of task t calls "linux:schedule". */
static void vw_tree_sched_out(vw *v, uft_stask *t)
{
    size_t ti = t->index;
    const uft_frame *f = uft_stream_frame(&v->s, t, t->nstack - 1);
    int made;
    if (f != NULL) v->cur[ti] = ct_call(&v->tree, v->cur[ti], ct_name_id(&v->tree, "linux:schedule"), f->addr, &made);
}

/* graph_add_node(): an exit (or sched-in) of task t returns from its
   current node. */
static void vw_tree_exit(vw *v, uft_stask *t)
{
    calltree *g = &v->tree;
    size_t ti = t->index;
    const uft_frame *f = uft_stream_frame(&v->s, t, t->nstack);
    uint32_t node;
    if (f == NULL) return;
    node = ct_exit(g, v->cur[ti], f, t->cur.addr, t->t);
    if (v->sample && g->nodes[v->cur[ti]].parent != CT_NONE) {
        /* only the sampled part of a child's time counts as the parent's
           children's (adjust_fg_time(); it adjusts the parent of the
           current node, which a fork child's first exit has not left) */
        ct_node *p = &g->nodes[g->nodes[v->cur[ti]].parent];
        p->child = p->child - f->time + f->time / v->sample * v->sample;
    }
    v->cur[ti] = g->nodes[node].parent;
}

/* The index of task t, whose current node becomes the root if it has none
   (as the dump_*_task_rstack() of uftrace set it). */
static size_t vw_tree_task(vw *v, const uft_stask *t)
{
    size_t ti = t->index;
    if (v->cur[ti] == CT_NONE) v->cur[ti] = CT_ROOT;
    return ti;
}

/* graph_add_node(): a function record of task t for the tree. */
static void vw_tree_func(vw *v, uft_stask *t, const uft_view *r)
{
    size_t ti = vw_tree_task(v, t);
    const uft_frame *f;
    const uft_map *map;
    const uft_sym *sym;
    uint32_t node;
    int made;
    if (r->type == TDEC_UFTRACE_REC_EXIT) vw_tree_exit(v, t);
    if (r->type != TDEC_UFTRACE_REC_ENTRY) return;
    sym = uft_find_sym_map(v->s.dir, t->t, r->time, r->addr, &map);
    if ((f = uft_stream_frame(&v->s, t, t->nstack - 1)) == NULL) return;
    node = ct_call_sym(&v->tree, v->cur[ti], sym, r->addr, f->addr, &made);
    if (made && uft_stream_special(&v->s, sym, map) == 'f' && uft_stream_session(&v->s, t, t->cur.time) != NULL)
        ct_fork_add(&v->tree, node, t->t ? t->t->pid : t->tid);
    v->cur[ti] = node;
}

/* print_flame_graph(): "a;b;c SAMPLES" for each node with samples. */
static void vw_flame_print(vw *v)
{
    const calltree *g = &v->tree;
    uft_text *path = &v->text;
    uint32_t node, k;
    char num[24];
    for (node = CT_ROOT; node != CT_NONE; node = ct_next(g, node)) {
        const ct_node *n = &g->nodes[node];
        uint64_t samples = n->calls;
        size_t len = 0, digits;
        if (samples && v->sample) samples = (n->time - n->child) / v->sample;
        if (samples == 0) continue;
        /* the names from the root's child down, joined by ';' */
        path->len = 0;
        for (k = node; g->nodes[k].parent != CT_NONE; k = g->nodes[k].parent) len += strlen(ct_name(g, k)) + 1;
        if (len + 1 > sizeof path->buf) continue; /* deeper than the text holds */
        path->len = len;
        for (k = node; g->nodes[k].parent != CT_NONE; k = g->nodes[k].parent) {
            const char *name = ct_name(g, k);
            size_t nl = strlen(name);
            len -= nl + 1;
            memcpy(path->buf + len, name, nl);
            path->buf[len + nl] = k == node ? ' ' : ';';
        }
        out_mem(v->s.out, path->buf, path->len);
        /* uftrace writes the number with snprintf() bounded by the length
           of the names: a short path cuts it */
        digits = (size_t)(fmt_u64(num, samples) - num);
        out_mem(v->s.out, num, digits < path->len ? digits : path->len - 1);
        out_char(v->s.out, '\n');
    }
}

/* print_graph_to_graphviz(): an edge per node with calls. */
static void vw_graphviz_print(vw *v, const char *root)
{
    const calltree *g = &v->tree;
    out_buf *o = v->s.out;
    uint32_t node;
    for (node = CT_ROOT; node != CT_NONE; node = ct_next(g, node)) {
        const ct_node *n = &g->nodes[node];
        if (n->calls == 0) continue;
        out_lit(o, "    \"");
        out_str(o, n->parent == CT_ROOT ? root : ct_name(g, n->parent));
        out_lit(o, "\" -> \"");
        out_str(o, ct_name(g, node));
        out_lit_u64(o, "\" [xlabel = \"", n->calls);
        out_lit(o, "\"]\n");
    }
}

/* ---- the walk ------------------------------------------------------------------------------ */

/* dump_replay_func(): a function record (or LOST) of task t. */
static inline void vw_func(vw *v, uft_stask *t, const uft_view *r)
{
    if (v->view == UFT_VIEW_CHROME) vw_chrome_func(v, t, r);
    else vw_tree_func(v, t, r);
}

/* dump_replay_event(): sched-out and sched-in are "linux:schedule"
   entries and exits; a COMM renames the task (Chrome). */
static void vw_event(vw *v, uft_stask *t, const uft_view *r)
{
    static const char sched[] = "linux:schedule";
    size_t ti = t->index;
    if (r->addr == UFT_EV_SCHED_IN || r->addr == UFT_EV_SCHED_OUT) {
        int type = r->addr == UFT_EV_SCHED_OUT ? (int)TDEC_UFTRACE_REC_ENTRY : (int)TDEC_UFTRACE_REC_EXIT;
        if (v->view != UFT_VIEW_CHROME) {
            vw_tree_task(v, t);
            if (type == (int)TDEC_UFTRACE_REC_ENTRY) vw_tree_sched_out(v, t);
            else vw_tree_exit(v, t);
        } else if (v->last[ti] != 0 || type == (int)TDEC_UFTRACE_REC_ENTRY) {
            /* (uftrace leaves out a sched-in when the task's last time is 0) */
            vw_chrome_event(v, t, type == (int)TDEC_UFTRACE_REC_ENTRY ? 'B' : 'E', r->time, NULL, sched, sizeof sched - 1, NULL);
        }
        return;
    }
    if (r->addr == UFT_EV_TASK_NAME && v->view == UFT_VIEW_CHROME)
        vw_chrome_comm(v, t, r->comm);
}

/* The functions still open at the end: an exit each, at the last time
   its task read, innermost first (as do_dump_replay() ends). */
static void vw_remaining(vw *v)
{
    size_t i;
    for (i = 0; i < v->s.ntasks; i++) {
        uft_stask *t = &v->s.tasks[i];
        uint64_t last = v->last[i];
        while (t->nstack > 0) {
            uft_frame *f, *up;
            uint64_t total;
            /* uftrace's `--task->stack_count`: the frame leaves the stack */
            t->nstack--;
            if ((f = uft_stream_frame(&v->s, t, t->nstack)) == NULL || f->addr == 0 || f->time > last) continue;
            total = last - f->time;
            f->time = total < f->child ? f->child : total;
            if (t->nstack > 0 && (up = uft_stream_frame(&v->s, t, t->nstack - 1)) != NULL) up->child += f->time;
            t->cur.type = TDEC_UFTRACE_REC_EXIT;
            t->cur.time = last;
            t->cur.addr = f->addr;
            t->cur.more = 0;
            t->cur.rec = NULL;
            if (!uft_stream_check_filter(&v->s, t)) continue;
            vw_func(v, t, &t->cur);
            uft_stream_filter_done(&v->s, t);
        }
    }
}

/* The flame graph's sample time, from the recording's elapsed time: the
   power of ten from 1 us up to 1 s giving about a million samples. */
static uint64_t vw_sample_time(const vw *v)
{
    char elapsed[64];
    double sec;
    uint64_t total, sample;
    if (!(v->s.dir->hdr.info_mask & TDEC_UFTRACE_INFO_RECORD_DATE)) return 0;
    vw_info(v, "elapsed_time", elapsed, sizeof elapsed);
    sec = strtod(elapsed, NULL) * 1e9;
    total = sec >= 18e18 ? UINT64_MAX : sec > 0 ? (uint64_t)sec : 0;
    for (sample = 1000; sample * 1000000u < total && sample < 1000000000u; sample *= 10) continue;
    return sample;
}

int uft_dump_view(const char *path, int view, out_buf *out, out_buf *err)
{
    static uft_dir dir;
    static vw v;
    uft_stask *t;
    int failed, opened = 0;

    memset(&v, 0, sizeof v);
    v.view = view;
    if (uft_open_dir(&dir, path, err) == 0) {
        uft_spec_usage(&dir, out);
        opened = uft_stream_open(&v.s, &dir, out, err) == 0;
    }
    if (!opened) {
        /* (uftrace prints nothing) */
        if (view == UFT_VIEW_CHROME) out_lit(out, "{\"traceEvents\":[\n\n], \"displayTimeUnit\": \"ns\"}\n");
        out_flush(out);
        return 1;
    }
    v.last = uft_zalloc(v.s.ntasks * sizeof *v.last);
    if (view == UFT_VIEW_CHROME) {
        vw_chrome_header(&v);
    } else {
        size_t i;
        ct_init(&v.tree, NULL);
        v.cur = uft_xrealloc(NULL, v.s.ntasks * sizeof *v.cur);
        for (i = 0; i < v.s.ntasks; i++) v.cur[i] = CT_NONE;
        if (view == UFT_VIEW_FLAME) v.sample = vw_sample_time(&v);
    }
    if (view == UFT_VIEW_GRAPHVIZ) {
        char cmdline[8192];
        out_lit(out, "# version\":\"" VW_UFTRACE_VERSION "\"\n");
        if (dir.hdr.info_mask & TDEC_UFTRACE_INFO_CMDLINE) {
            vw_info(&v, "cmdline", cmdline, sizeof cmdline);
            out_lit(out, "# command_line \"");
            out_str(out, cmdline);
            out_lit(out, "\"\n");
        }
        out_lit(out, "\ndigraph \"");
        out_str(out, vw_basename(dir.exename ? dir.exename : ""));
        out_lit(out, "\" { \n");
    }

    while ((t = uft_stream_next(&v.s, 1)) != NULL) {
        const uft_view *r = &t->cur;
        v.last[t->index] = r->time;
        /* events outside user functions are left out (uftrace's default
           event_skip_out) */
        if (r->type == TDEC_UFTRACE_REC_EVENT && t->user_nstack == 0) continue;
        if (!uft_stream_check_filter(&v.s, t)) continue;
        if (r->type == TDEC_UFTRACE_REC_EVENT) vw_event(&v, t, r);
        else vw_func(&v, t, r);
        uft_stream_filter_done(&v.s, t);
    }
    failed = v.s.failed;
    if (!failed) vw_remaining(&v);

    if (view == UFT_VIEW_CHROME) {
        vw_chrome_footer(&v); /* closes the JSON after an error too */
    } else if (!failed) {
        if (view == UFT_VIEW_FLAME) vw_flame_print(&v);
        else vw_graphviz_print(&v, vw_basename(dir.exename ? dir.exename : ""));
        if (view == UFT_VIEW_GRAPHVIZ) out_lit(out, "}\n");
    }
    uft_stream_close(&v.s);
    free(v.last);
    free(v.comm);
    ct_free(&v.tree);
    free(v.cur);
    out_flush(out);
    return failed ? 1 : 0;
}
