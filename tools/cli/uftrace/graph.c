/* graph.c - `tracedec graph DIR [FUNC]`: the call graphs `uftrace graph`
   (v0.13, cmds/graph.c and utils/graph.c) prints, a consumer of the
   record stream (stream.h).

   One graph per session. Without FUNC every task starts at its
   session's root (named after the program) with its first record; with
   FUNC a task's calls are added while it is inside FUNC (the root is
   FUNC, entered again at each call), and each distinct stack FUNC was
   called from is a backtrace with its hit count and time. A graph is
   uftrace's call tree (calltree.h, with its fork rule: a fork child's
   first exit goes to the fork node of its parent's graph); the
   scheduler's sched-out/sched-in pairs are "linux:schedule" nodes. As in
   uftrace: an exit that does not match the current node still leaves
   it, exec moves a task to its new session's root, and calls still open
   at the end count up to the task's last record.

   graph --task: uftrace's task graph, the tasks of task.txt as a tree
   with their run and self times.

   Memory: the nodes (one per distinct call path) and backtraces, or a
   node per task; nothing per record. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/calltree.h"
#include "tools/cli/uftrace/columns.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/stream.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a stack FUNC was called from (graph FUNC) */
typedef struct gr_trace {
    struct gr_trace *next;
    long             len;
    uint32_t         hit;
    uint64_t         time;
    uint64_t        *addr;
} gr_trace;

typedef struct gr_graph {
    const uft_session *sess;
    const char        *func; /* the root's name */
    calltree           tree;
    gr_trace          *traces; /* the latest first */
} gr_graph;

/* a task's place in the graphs (uftrace's task_graph) */
typedef struct gr_task {
    gr_graph *graph;
    uint32_t  node;      /* in node_graph's tree, CT_NONE: none */
    gr_graph *node_graph; /* graph, or the one before an exec until the node is left */
    int       enabled, new_sess;
    gr_trace *trace;
} gr_task;

typedef struct gr {
    uft_stream  s;
    const char *func;   /* FUNC, or NULL: the full graph */
    gr_graph   *graphs; /* in uftrace's order of sessions: by pid, then start */
    size_t      ngraphs;
    gr_task    *tasks;  /* per stream task */
    uint64_t    prev_time;
    int         no_libcall; /* --no-libcall: PLT functions left out */
} gr;

/* The graph of the session of t at time (uftrace's get_graph()), or NULL;
   last: the task's graph so far. */
static gr_graph *gr_graph_of(gr *e, uft_stask *t, uint64_t time, gr_graph *last)
{
    const uft_session *s;
    size_t i;
    /* (the stream remembers the task's session while it holds) */
    if (last != NULL && last->sess == t->sess && time >= t->sess_from && time < t->sess_to) return last;
    s = uft_stream_session(&e->s, t, time);
    for (i = 0; s != NULL && i < e->ngraphs; i++)
        if (e->graphs[i].sess == s) return &e->graphs[i];
    return NULL;
}

/* save_backtrace_addr(): the stack FUNC was just entered from. */
static void gr_trace_start(gr *e, uft_stask *t, gr_task *tg)
{
    gr_graph *g = tg->graph;
    gr_trace *bt;
    uft_frame *f;
    long i, len = t->nstack;
    if (len <= 0) return;
    for (bt = g->traces; bt != NULL; bt = bt->next) {
        if (bt->len != len) continue;
        for (i = 0; i < len; i++) {
            f = uft_stream_frame(&e->s, t, i);
            if (bt->addr[i] != (f ? f->addr : 0)) break;
        }
        if (i == len) break;
    }
    if (bt == NULL) {
        bt = (gr_trace *)uft_zalloc(sizeof *bt);
        bt->len = len;
        bt->addr = (uint64_t *)uft_zalloc((size_t)len * sizeof *bt->addr);
        for (i = 0; i < len; i++) {
            f = uft_stream_frame(&e->s, t, i);
            bt->addr[i] = f ? f->addr : 0;
        }
        bt->next = g->traces;
        g->traces = bt;
    }
    bt->hit++;
    tg->trace = bt;
}

/* start_graph(): the task enters its graph's root. */
static void gr_start(gr *e, uft_stask *t, gr_task *tg)
{
    if (tg->graph == NULL || tg->enabled++) return;
    gr_trace_start(e, t, tg);
    tg->node = CT_ROOT;
    tg->node_graph = tg->graph;
    tg->graph->tree.nodes[CT_ROOT].addr = t->cur.addr;
    tg->graph->tree.nodes[CT_ROOT].calls++;
}

/* end_graph(): the task leaves FUNC. */
static void gr_end(gr *e, uft_stask *t, gr_task *tg)
{
    uft_frame *f;
    if (!tg->enabled || --tg->enabled) return;
    f = uft_stream_frame(&e->s, t, t->nstack);
    if (tg->trace != NULL && f != NULL) tg->trace->time += f->time;
    tg->trace = NULL;
}

/* get_task_graph(): the task's graph state, its graph updated for time. */
static gr_task *gr_task_at(gr *e, uft_stask *t, uint64_t time)
{
    gr_task *tg = &e->tasks[t->index];
    gr_graph *g = gr_graph_of(e, t, time, tg->graph);
    if (tg->graph != NULL && tg->graph != g) tg->new_sess = 1;
    tg->graph = g;
    if (e->func == NULL && tg->node == CT_NONE) gr_start(e, t, tg);
    return tg;
}

/* add_graph_entry(): a call from the task's current node of the function
   sym at addr (NULL: "<addr>"), or of name when name != CT_NONE. */
static void gr_enter(gr *e, uft_stask *t, gr_task *tg, const uft_sym *sym, uint64_t addr, uint32_t name)
{
    calltree *g = &tg->graph->tree;
    uint32_t curr = tg->node, node;
    const uft_frame *f;
    int made;
    if (tg->new_sess) {
        curr = CT_ROOT;
        tg->new_sess = 0;
    }
    f = uft_stream_frame(&e->s, t, t->nstack - 1);
    if (curr == CT_NONE || f == NULL) return;
    if (name != CT_NONE) node = ct_call(g, curr, name, f->addr, &made);
    else node = ct_call_sym(g, curr, sym, addr, f->addr, &made);
    if (made) {
        const uft_map *map;
        const uft_sym *fsym = uft_find_sym_map(e->s.dir, t->t, t->cur.time, f->addr, &map);
        if (uft_stream_special(&e->s, fsym, map) == 'f') ct_fork_add(g, node, t->t ? t->t->pid : 0);
    }
    tg->node = node;
    tg->node_graph = tg->graph;
}

/* add_graph_exit(): the task's current call ends; addr: the exit record's. */
static void gr_exit(gr *e, uft_stask *t, gr_task *tg, uint64_t addr)
{
    const uft_frame *f = uft_stream_frame(&e->s, t, t->nstack);
    calltree *g;
    if (tg->node == CT_NONE || f == NULL) return;
    g = &tg->node_graph->tree; /* (a call made before an exec ends in its graph) */
    tg->node = g->nodes[ct_exit(g, tg->node, f, addr, t->t)].parent;
}

/* build_graph_node(): a record (type) of the function at addr. */
static void gr_record(gr *e, uft_stask *t, uint64_t time, uint64_t addr, uint32_t type, uint64_t rec_addr)
{
    gr_task *tg = gr_task_at(e, t, time);
    const uft_sym *sym = NULL;
    char buf[32];
    const char *name = buf;
    if (tg->graph == NULL) return;
    /* (the name only where it is used: entries, exits with FUNC or --no-libcall) */
    if (type == TDEC_UFTRACE_REC_ENTRY || (type == TDEC_UFTRACE_REC_EXIT && (e->func != NULL || e->no_libcall))) {
        if ((sym = uft_find_sym(e->s.dir, t->t, time, addr)) != NULL) name = sym->name;
        else snprintf(buf, sizeof buf, "<%llx>", (unsigned long long)addr);
        if (e->no_libcall && sym != NULL && sym->type == 'P') return;
    }
    if (tg->enabled) {
        if (type == TDEC_UFTRACE_REC_ENTRY) {
            gr_enter(e, t, tg, sym, addr, CT_NONE);
        } else if (type == TDEC_UFTRACE_REC_EXIT) {
            gr_exit(e, t, tg, rec_addr);
        } else if (addr == UFT_EV_SCHED_OUT || addr == UFT_EV_SCHED_OUT_PRE) {
            const char *sched = addr == UFT_EV_SCHED_OUT ? "linux:schedule" : "linux:schedule (pre-empted)";
            gr_enter(e, t, tg, NULL, addr, ct_name_id(&tg->graph->tree, sched));
        } else if (addr == UFT_EV_SCHED_IN) {
            gr_exit(e, t, tg, UFT_EV_SCHED_IN);
        }
    }
    if (type == TDEC_UFTRACE_REC_EVENT || e->func == NULL || strcmp(name, e->func) != 0) return;
    if (type == TDEC_UFTRACE_REC_ENTRY) gr_start(e, t, tg);
    else if (type == TDEC_UFTRACE_REC_EXIT) gr_end(e, t, tg);
}

/* build_graph(). */
static void gr_build(gr *e)
{
    uft_stask *t;
    uft_frame *f, *parent;
    uint64_t end;
    size_t i, k;
    while ((t = uft_stream_next(&e->s, 1)) != NULL) {
        const uft_view *r = &t->cur;
        if (!uft_stream_check_opts(&e->s, t) || !uft_stream_check_filter(&e->s, t)) continue;
        if (r->type == TDEC_UFTRACE_REC_EVENT && r->addr != UFT_EV_SCHED_IN && r->addr != UFT_EV_SCHED_OUT &&
            r->addr != UFT_EV_SCHED_OUT_PRE)
            continue;
        if (r->type == TDEC_UFTRACE_REC_LOST) continue;
        if (e->prev_time > r->time) {
            cli_diag(e->s.err, "warning", -1, "inverted time: broken data?", "the graph ends here, as uftrace's");
            return;
        }
        e->prev_time = r->time;
        gr_record(e, t, r->time, r->addr, r->type, r->addr);
        uft_stream_filter_done(&e->s, t);
    }
    if (e->s.failed) return;
    for (i = 0; i < e->s.ntasks; i++) { /* calls still open */
        t = &e->s.tasks[i];
        if (t->nstack == 0) continue;
        end = uft_stream_end_time(&e->s, t);
        while (--t->nstack >= 0) {
            if ((f = uft_stream_frame(&e->s, t, t->nstack)) == NULL || f->addr == 0 || f->time > end) continue;
            f->time = end - f->time;
            if (f->child > f->time) f->time = f->child;
            if (t->nstack > 0 && (parent = uft_stream_frame(&e->s, t, t->nstack - 1)) != NULL) parent->child += f->time;
            gr_record(e, t, end, f->addr, TDEC_UFTRACE_REC_EXIT, t->cur.addr);
        }
        t->nstack = 0;
    }
    if (e->func != NULL) return;
    for (k = 0; k < e->ngraphs; k++) { /* the root: the time of its children */
        ct_node *nodes = e->graphs[k].tree.nodes;
        uint32_t n;
        for (n = nodes[CT_ROOT].first; n != CT_NONE; n = nodes[n].next) {
            nodes[CT_ROOT].time += nodes[n].time;
            nodes[CT_ROOT].child += nodes[n].time;
        }
    }
}

/* ---- printing ------------------------------------------------------------------ */

enum { GF_TOTAL, GF_SELF, GF_ADDR };
static const uft_field gr_fields[] = {
    {"total-time", "total", "TOTAL TIME", 10},
    {"self-time", "self", " SELF TIME", 10},
    {"address", "addr", "   ADDRESS  ", 12},
};

typedef struct gr_print {
    out_buf           *out;
    int                shown[UFT_MAX_FIELDS], nshown;
    char              *mask; /* uftrace's indent_mask */
    int                full; /* the whole graph: its root shows (1) */
    const uft_dir     *dir;  /* --srcline: where the nodes' functions are, else NULL */
    const uft_session *sess;
} gr_print;

/* pr_indent() */
static void gr_indent(const gr_print *p, int indent, int line)
{
    int i, last = -1;
    for (i = 0; line && i < indent; i++)
        if (p->mask[i]) last = i;
    for (i = 0; i < indent; i++) {
        if (!line || i < last) out_str(p->out, p->mask[i] ? " | " : "   ");
        else out_str(p->out, i == last ? " +-" : "---");
    }
}

/* The field columns of a graph line (uftrace's print_field()s): for each
   shown field of `fields` (total time, self time, then a third column),
   blanks of its width when the line has no node (has_node 0), else the
   times or `third`. */
static void gr_field_columns(out_buf *out, const uft_field *fields, const int *shown, int nshown, int has_node,
                             uint64_t total, uint64_t self, const char *third)
{
    char buf[32];
    int i;
    if (nshown == 0) return;
    for (i = 0; i < nshown; i++) {
        out_lit(out, "  ");
        if (!has_node) { /* print_empty_field() */
            snprintf(buf, sizeof buf, "%*s", fields[shown[i]].width, "");
            out_str(out, buf);
        } else if (shown[i] == GF_TOTAL) {
            uft_col_time(out, total);
        } else if (shown[i] == GF_SELF) {
            uft_col_time(out, self);
        } else {
            out_str(out, third);
        }
    }
    out_lit(out, " : ");
}

static void gr_columns(const gr_print *p, const ct_node *n)
{
    char addr[32] = "";
    if (n != NULL) snprintf(addr, sizeof addr, "%12llx", (unsigned long long)(n->addr & ((1ull << 48) - 1)));
    gr_field_columns(p->out, gr_fields, p->shown, p->nshown, n != NULL, n ? n->time : 0,
                     n ? n->time - n->child : 0, addr);
}

/* print_graph_node() */
static void gr_print_node(gr_print *p, const calltree *g, uint32_t node, int indent, int line)
{
    const ct_node *n = &g->nodes[node];
    const ct_node *parent = n->parent == CT_NONE ? NULL : &g->nodes[n->parent];
    uint32_t c;
    int orig = indent;
    char buf[32];
    gr_columns(p, n);
    gr_indent(p, indent, line);
    snprintf(buf, sizeof buf, "(%u) ", p->full && node == CT_ROOT ? 1u : (unsigned)n->calls);
    out_str(p->out, buf);
    out_str(p->out, ct_name(g, node));
    if (p->dir != NULL && node != CT_ROOT) { /* (the node's first call's source, as uftrace's node->loc) */
        char src[4200];
        if (uft_session_srcline(p->dir, p->sess, 0, n->addr, src, sizeof src)) {
            out_lit(p->out, " [");
            out_str(p->out, src);
            out_char(p->out, ']');
        }
    }
    out_char(p->out, '\n');
    if (n->nchildren > 1) p->mask[indent++] = 1;
    if (parent && parent->nchildren > 1 && orig > 0 && parent->last == node) p->mask[orig - 1] = 0;
    for (c = n->first; c != CT_NONE; c = g->nodes[c].next) {
        gr_print_node(p, g, c, indent, n->nchildren > 1);
        if (g->nodes[c].next != CT_NONE) { /* a blank line between siblings */
            gr_columns(p, NULL);
            gr_indent(p, indent, 0);
            out_char(p->out, '\n');
        }
    }
    p->mask[orig] = 0;
}

static int gr_depth(const calltree *g, uint32_t node)
{
    int d = 0, k;
    uint32_t c;
    for (c = g->nodes[node].first; c != CT_NONE; c = g->nodes[c].next)
        if ((k = gr_depth(g, c)) > d) d = k;
    return d + 1;
}

/* print_graph(): 1 if the graph was printed, 0 if empty, -1 for an
   unknown -f field (after its title, as uftrace fails). */
static int gr_print_graph(gr *e, const gr_graph *g, const uft_opts *o, out_buf *out)
{
    static const int defaults[] = {GF_TOTAL, -1};
    const ct_node *root = &g->tree.nodes[CT_ROOT];
    gr_print p;
    const gr_trace *bt;
    char buf[64];
    int i;
    long k;
    if (g->traces == NULL && root->time == 0 && root->nchildren == 0) return 0;
    out_lit(out, "# Function Call Graph for '");
    out_str(out, g->func);
    out_lit(out, "' (session: ");
    out_mem(out, g->sess->sid, strnlen(g->sess->sid, 16));
    out_lit(out, ")\n");
    if (e->func != NULL && g->traces != NULL) {
        out_lit(out, "=============== BACKTRACE ===============\n");
        for (i = 0, bt = g->traces; bt != NULL; bt = bt->next, i++) {
            snprintf(buf, sizeof buf, " backtrace #%d: hit %u, time ", i, bt->hit);
            out_str(out, buf);
            uft_col_time(out, bt->time);
            out_char(out, '\n');
            for (k = 0; k < bt->len; k++) {
                /* (uftrace looks dlopen()ed symbols up at the trace's time, a duration) */
                const uft_sym *sym = uft_session_sym(e->s.dir, g->sess, bt->time, bt->addr[k]);
                snprintf(buf, sizeof buf, "   [%ld] ", k);
                out_str(out, buf);
                if (sym != NULL) {
                    out_str(out, sym->name);
                } else {
                    snprintf(buf, sizeof buf, "<%llx>", (unsigned long long)bt->addr[k]);
                    out_str(out, buf);
                }
                snprintf(buf, sizeof buf, bt->addr[k] ? " (%#llx)\n" : " (%llu)\n", (unsigned long long)bt->addr[k]);
                out_str(out, buf);
            }
            out_char(out, '\n');
        }
    }
    if ((p.nshown = uft_col_fields(o->fields, gr_fields, 3, defaults, p.shown, out)) < 0) return -1;
    if (root->time == 0 && root->nchildren == 0) return 1;
    out_lit(out, "========== FUNCTION CALL GRAPH ==========\n");
    for (i = 0; i < p.nshown; i++) {
        out_str(out, i == 0 ? "# " : "  ");
        out_str(out, gr_fields[p.shown[i]].header);
    }
    if (p.nshown > 0) out_str(out, o->srcline ? "   FUNCTION [SOURCE]\n" : "   FUNCTION\n");
    p.out = out;
    p.full = e->func == NULL;
    p.dir = o->srcline ? e->s.dir : NULL;
    p.sess = g->sess;
    p.mask = (char *)uft_zalloc((size_t)gr_depth(&g->tree, CT_ROOT) + 1);
    gr_print_node(&p, &g->tree, CT_ROOT, 0, root->nchildren > 1);
    free(p.mask);
    out_char(out, '\n');
    return 1;
}

/* The graphs, one per session in uftrace's order (walk_sessions(): by pid,
   then start time, then task.txt order). */
static void gr_setup(gr *e)
{
    uft_dir *d = e->s.dir;
    size_t i, k;
    e->graphs = (gr_graph *)uft_zalloc(d->nsess * sizeof *e->graphs);
    for (i = 0; i < d->nsess; i++) {
        const uft_session *s = d->sess[i];
        for (k = e->ngraphs; k > 0; k--) {
            const uft_session *o = e->graphs[k - 1].sess;
            if (o->pid < s->pid || (o->pid == s->pid && o->start <= s->start)) break;
            e->graphs[k] = e->graphs[k - 1];
        }
        memset(&e->graphs[k], 0, sizeof e->graphs[k]);
        e->graphs[k].sess = s;
        if (e->func != NULL) {
            e->graphs[k].func = e->func;
        } else {
            const char *slash = strrchr(s->exename, '/');
            e->graphs[k].func = slash ? slash + 1 : s->exename;
        }
        e->ngraphs++;
    }
    for (k = 0; k < e->ngraphs; k++) ct_init(&e->graphs[k].tree, e->graphs[k].func);
}

/* Is there a symbol named name in a module of a session? (uftrace's
   find_func()) */
static int gr_func_known(const uft_dir *d, const char *name)
{
    size_t i, k, j;
    for (i = 0; i < d->nsess; i++) {
        for (k = 0; k < d->sess[i]->nmaps; k++) {
            const uft_module *m = uft_module_symbols(d, d->sess[i]->maps[k].mod);
            for (j = 0; m != NULL && j < m->nsyms; j++)
                if (strcmp(m->syms[j].name, name) == 0) return 1;
        }
    }
    return 0;
}

/* ---- graph --task: the task graph (graph_build_task() and graph_print_task()) ---- */

/* the same order as gr_fields: total, self, then the third column */
enum { GT_TOTAL = GF_TOTAL, GT_SELF = GF_SELF, GT_TID };
static const uft_field gr_task_fields[] = {
    {"total-time", "total", "TOTAL TIME", 10},
    {"self-time", "self", " SELF TIME", 10},
    {"tid", NULL, "   TID  ", 8},
};

/* a task of task.txt, in the order uftrace creates them */
typedef struct gt_node {
    const uft_task *t;
    uint64_t        first, last;   /* its first and last record read (0: none) */
    uint64_t        out_since;     /* when it was scheduled out (0: running)   */
    uint64_t        run, idle;
    char            comm[16];
    size_t          child, next;   /* first child, next sibling (SIZE_MAX: none) */
} gt_node;

typedef struct gt_print {
    out_buf       *out;
    const gt_node *nodes;
    int            shown[UFT_MAX_FIELDS], nshown;
    char          *mask;
    uint64_t       threshold;
} gt_print;

static void gt_columns(const gt_print *p, const gt_node *n)
{
    char tid[32] = "";
    if (n != NULL) snprintf(tid, sizeof tid, "[%6d]", (int)n->t->tid);
    gr_field_columns(p->out, gr_task_fields, p->shown, p->nshown, n != NULL, n ? n->run : 0,
                     n ? n->run - n->idle : 0, tid);
}

/* pr_indent() over the task graph's mask */
static void gt_indent(const gt_print *p, int indent, int line)
{
    gr_print g;
    g.out = p->out;
    g.mask = p->mask;
    gr_indent(&g, indent, line);
}

/* check_time_filter(): a task below n ran at least the threshold */
static int gt_time_below(const gt_print *p, size_t n)
{
    size_t c;
    for (c = p->nodes[n].child; c != SIZE_MAX; c = p->nodes[c].next)
        if (p->nodes[c].run >= p->threshold || gt_time_below(p, c)) return 1;
    return 0;
}

/* is_last_child() */
static int gt_last_child(const gt_print *p, size_t n)
{
    size_t c;
    if (p->nodes[n].next == SIZE_MAX) return 1;
    for (c = p->nodes[n].next; c != SIZE_MAX; c = p->nodes[c].next)
        if (p->nodes[c].run >= p->threshold || gt_time_below(p, c)) return 0;
    return 1;
}

/* print_task_node(): 1 if a blank line is due after it */
static int gt_print_node(gt_print *p, size_t n, size_t parent, int indent)
{
    const gt_node *node = &p->nodes[n];
    int orig = indent, blank = 0;
    size_t c;
    gt_columns(p, node);
    gt_indent(p, indent, 1);
    out_str(p->out, node->comm);
    out_char(p->out, '\n');
    if (node->child == SIZE_MAX || !gt_time_below(p, n)) return 0;
    if (parent != SIZE_MAX && gt_last_child(p, n)) /* clear the parent's mask at its last child */
        p->mask[orig - 1 - (node->t->pid != p->nodes[parent].t->pid)] = 0;
    for (c = node->child; c != SIZE_MAX; c = p->nodes[c].next) {
        int fork = p->nodes[c].t->pid != node->t->pid;
        if (p->threshold > p->nodes[c].run && !gt_time_below(p, c)) continue;
        indent = orig;
        p->mask[indent++] = 1;
        if (fork) { /* a blank line before a forked child */
            blank = 1;
            indent++;
        }
        if (blank) {
            gt_columns(p, NULL);
            gt_indent(p, indent, 0);
            out_char(p->out, '\n');
            blank = 0;
        }
        blank |= gt_print_node(p, c, n, indent);
        if (p->nodes[c].next != SIZE_MAX && fork) blank = 1; /* and after it */
    }
    p->mask[orig] = 0;
    return blank;
}

/* The tasks' run and idle times from their records (the time filter
   applies only when printing), then the tree from the first task. */
static int gr_task_graph(gr *e, const char *fields, uint64_t threshold, out_buf *out)
{
    static const int defaults[] = {GT_TOTAL, GT_SELF, GT_TID, -1};
    const uft_dir *d = e->s.dir;
    gt_node *nodes = (gt_node *)uft_zalloc((d->ntasks ? d->ntasks : 1) * sizeof *nodes);
    size_t *of_stream = (size_t *)uft_zalloc((e->s.ntasks ? e->s.ntasks : 1) * sizeof *of_stream);
    size_t i, j, *last_child = (size_t *)uft_zalloc((d->ntasks ? d->ntasks : 1) * sizeof *last_child);
    uft_stask *t;
    gt_print p;
    for (i = 0; i < d->ntasks; i++) {
        const uft_task *tk = &d->tasks[i];
        int32_t parent = tk->ppid ? tk->ppid : tk->pid;
        nodes[i].t = tk;
        memcpy(nodes[i].comm, tk->comm, sizeof nodes[i].comm);
        nodes[i].child = nodes[i].next = last_child[i] = SIZE_MAX;
        for (j = 0; j < i && d->tasks[j].tid != parent; j++) continue;
        if (j == i) continue; /* (uftrace links a task to a parent created before it) */
        if (last_child[j] == SIZE_MAX) nodes[j].child = i;
        else nodes[last_child[j]].next = i;
        last_child[j] = i;
    }
    for (i = 0; i < e->s.ntasks; i++) {
        for (j = 0; j < d->ntasks && d->tasks[j].tid != e->s.tasks[i].tid; j++) continue;
        of_stream[i] = j;
    }
    while ((t = uft_stream_next(&e->s, 1)) != NULL) {
        const uft_view *r = &t->cur;
        gt_node *n = of_stream[t - e->s.tasks] < d->ntasks ? &nodes[of_stream[t - e->s.tasks]] : NULL;
        if (n != NULL && r->type == TDEC_UFTRACE_REC_EVENT && r->addr == UFT_EV_TASK_NAME) memcpy(n->comm, r->comm, 15);
        if (!uft_stream_check_opts(&e->s, t) || !uft_stream_check_filter(&e->s, t)) continue;
        if (n != NULL) {
            if (n->first == 0) n->first = r->time;
            n->last = r->time;
            if (r->type == TDEC_UFTRACE_REC_EVENT && (r->addr == UFT_EV_SCHED_OUT || r->addr == UFT_EV_SCHED_OUT_PRE)) {
                n->out_since = r->time;
            } else if (r->type == TDEC_UFTRACE_REC_EVENT && r->addr == UFT_EV_SCHED_IN) {
                if (n->out_since) n->idle += r->time - n->out_since;
                n->out_since = 0;
            }
        }
        uft_stream_filter_done(&e->s, t);
    }
    if (e->s.failed) return 1;
    for (i = 0; i < e->s.ntasks; i++) {
        gt_node *n = of_stream[i] < d->ntasks ? &nodes[of_stream[i]] : NULL;
        if (n == NULL) continue;
        if (n->out_since) n->idle += n->last - n->out_since; /* its last sched-in is missing */
        n->run = n->last - n->first;
    }
    if (d->ntasks == 0) return 0;
    if ((p.nshown = uft_col_fields(fields, gr_task_fields, 3, defaults, p.shown, out)) < 0) return 1;
    out_lit(out, "========== TASK GRAPH ==========\n");
    for (i = 0; i < (size_t)p.nshown; i++) {
        out_str(out, i == 0 ? "# " : "  ");
        out_str(out, gr_task_fields[p.shown[i]].header);
    }
    if (p.nshown > 0) out_lit(out, "   TASK NAME\n");
    p.out = out;
    p.nodes = nodes;
    p.threshold = threshold;
    p.mask = (char *)uft_zalloc(2 * d->ntasks + 2);
    if (p.threshold <= nodes[0].run) gt_print_node(&p, 0, SIZE_MAX, 0);
    out_char(out, '\n');
    free(p.mask);
    free(nodes);
    free(of_stream);
    free(last_child);
    return 0;
}

int uft_graph(const char *path, const uft_opts *o, out_buf *out, out_buf *err)
{
    static uft_opts depth_opts; /* o with uftrace's synthesized depth trigger */
    static uft_dir dir; /* reachable to the end (the CLI frees nothing of it) */
    static gr e;
    size_t k;
    int printed = 0, rc;
    if (o->usage) out_str(out, o->usage);
    if (uft_open_dir(&dir, path, err)) return 1;
    dir.demangle = o->demangle;
    if (o->depth != UFT_DEPTH_DEFAULT) {
        /* as uftrace: "FUNC@depth=N" (FUNC: _start for the whole graph) so
           that the depth counts from FUNC; "FUNC@kernel,depth=N" when no
           module has FUNC (it sets nothing, but may bring uftrace's
           "failed to set filter or trigger" line) */
        char term[4096];
        const char *func = o->func ? o->func : "_start";
        depth_opts = *o;
        depth_opts.trigger = NULL;
        if (o->trigger) {
            uft_append(&depth_opts.trigger, o->trigger);
            uft_append(&depth_opts.trigger, ";");
        }
        snprintf(term, sizeof term, "%s@%sdepth=%ld", func, gr_func_known(&dir, func) ? "" : "kernel,", o->depth);
        uft_append(&depth_opts.trigger, term);
        o = &depth_opts;
    }
    uft_spec_usage(&dir, out); /* (uftrace's fstack_setup_filters()) */
    if (o->task) { /* the task graph reads every record: -t applies when printing */
        uint64_t threshold = o->threshold;
        if (o != &depth_opts) depth_opts = *o;
        depth_opts.threshold = 0;
        if (uft_stream_open_opts(&e.s, &dir, &depth_opts, out, err)) return 1;
        if (e.s.usage) out_str(out, e.s.usage);
        rc = gr_task_graph(&e, o->fields, threshold, out);
        uft_stream_close(&e.s);
        return rc;
    }
    if (uft_stream_open_opts(&e.s, &dir, o, out, err)) return 1;
    if (e.s.usage) out_str(out, e.s.usage);
    e.func = o->func;
    e.no_libcall = o->no_libcall;
    e.tasks = (gr_task *)uft_zalloc(e.s.ntasks * sizeof *e.tasks);
    for (k = 0; k < e.s.ntasks; k++) e.tasks[k].node = CT_NONE;
    gr_setup(&e);
    gr_build(&e);
    if (e.s.failed) return 1;
    for (k = e.ngraphs; k > 0; k--) { /* uftrace prepends each graph to its list */
        if ((rc = gr_print_graph(&e, &e.graphs[k - 1], o, out)) < 0) return 1;
        printed += rc;
    }
    if (!printed) {
        out_lit(out, "uftrace: cannot find graph for '");
        out_str(out, e.func ? e.func : "_start");
        out_lit(out, "'\n");
        if (o->filter || o->trigger || o->threshold || o->depth != UFT_DEPTH_DEFAULT) /* opts_has_filter() */
            out_lit(out, "\t please check your filter settings.\n");
    }
    uft_stream_close(&e.s);
    return 0;
}
