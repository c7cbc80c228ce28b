/* graph.c - `tracedec graph DIR [FUNC]`: the call graphs `uftrace graph`
   (v0.13, cmds/graph.c and utils/graph.c) prints, a consumer of the
   record stream (stream.h).

   One graph per session. Without FUNC every task starts at its
   session's root (named after the program) with its first record; with
   FUNC a task's calls are added while it is inside FUNC (the root is
   FUNC, entered again at each call), and each distinct stack FUNC was
   called from is a backtrace with its hit count and time. A node is a
   function called from its parent node (children are told apart by
   name), with its call count and the total time of its calls; the
   scheduler's sched-out/sched-in pairs are "linux:schedule" nodes. As in
   uftrace: a fork child's first exit (of fork) goes to the fork node of
   its parent's graph, an exit that does not match the current node still
   leaves it, exec moves a task to its new session's root, and calls
   still open at the end count up to the task's last record.

   Memory: the nodes (one per distinct call path) and backtraces; nothing
   per record. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/stream.h"
#include "tools/cli/uftrace/uftrace.h"
#include "tools/cli/uftrace/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gr_node {
    const char     *name;
    uint64_t        addr, time, child_time;
    uint32_t        nr_calls, nr_edges;
    struct gr_node *parent, *first, *last, *next; /* children in call order */
} gr_node;

/* a stack FUNC was called from (graph FUNC) */
typedef struct gr_trace {
    struct gr_trace *next;
    long             len;
    uint32_t         hit;
    uint64_t         time;
    uint64_t        *addr;
} gr_trace;

/* a fork / vfork / daemon node: where a child's first exit goes */
typedef struct gr_special {
    struct gr_special *next;
    gr_node           *node;
    int32_t            pid;
} gr_special;

typedef struct gr_graph {
    const uft_session *sess;
    const char        *func; /* the root's name */
    gr_node            root;
    gr_trace          *traces;   /* the latest first */
    gr_special        *specials; /* the latest first */
} gr_graph;

/* a task's place in the graphs (uftrace's task_graph) */
typedef struct gr_task {
    gr_graph *graph;
    gr_node  *node;
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

static char *gr_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return (char *)memcpy(uft_view_zalloc(n), s, n);
}

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
        bt = (gr_trace *)uft_view_zalloc(sizeof *bt);
        bt->len = len;
        bt->addr = (uint64_t *)uft_view_zalloc((size_t)len * sizeof *bt->addr);
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
    tg->node = &tg->graph->root;
    tg->node->addr = t->cur.addr;
    tg->node->nr_calls++;
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
    gr_task *tg = &e->tasks[t - e->s.tasks];
    gr_graph *g = gr_graph_of(e, t, time, tg->graph);
    if (tg->graph != NULL && tg->graph != g) tg->new_sess = 1;
    tg->graph = g;
    if (e->func == NULL && tg->node == NULL) gr_start(e, t, tg);
    return tg;
}

/* add_graph_entry(): a call of name from the task's current node. */
static void gr_enter(gr *e, uft_stask *t, gr_task *tg, const char *name)
{
    gr_node *curr = tg->node, *node;
    uft_frame *f;
    if (tg->new_sess) {
        curr = &tg->graph->root;
        tg->new_sess = 0;
    }
    f = uft_stream_frame(&e->s, t, t->nstack - 1);
    if (curr == NULL || f == NULL) return;
    for (node = curr->first; node != NULL; node = node->next)
        if (node->name == name || strcmp(node->name, name) == 0) break;
    if (node == NULL) {
        const uft_map *map;
        const uft_sym *sym;
        node = (gr_node *)uft_view_zalloc(sizeof *node);
        node->addr = f->addr;
        node->name = name[0] == '<' ? gr_strdup(name) : name; /* (symbol names stay) */
        node->parent = curr;
        if (curr->last) curr->last->next = node;
        else curr->first = node;
        curr->last = node;
        curr->nr_edges++;
        sym = uft_find_sym_map(e->s.dir, t->t, t->cur.time, f->addr, &map);
        if (uft_stream_special(&e->s, sym, map) == 'f') {
            gr_special *sp = (gr_special *)uft_view_zalloc(sizeof *sp);
            sp->node = node;
            sp->pid = t->t ? t->t->pid : 0;
            sp->next = tg->graph->specials;
            tg->graph->specials = sp;
        }
    }
    node->nr_calls++;
    tg->node = node;
}

/* add_graph_exit(): the task's current call ends; addr: the exit record's. */
static void gr_exit(gr *e, uft_stask *t, gr_task *tg, uint64_t addr)
{
    uft_frame *f = uft_stream_frame(&e->s, t, t->nstack);
    gr_node *node = tg->node;
    gr_special **sp, *found;
    if (node == NULL || f == NULL) return;
    if (node->addr != f->addr) { /* a fork child's first exit: its parent's fork node */
        for (sp = &tg->graph->specials; *sp != NULL; sp = &(*sp)->next) {
            if ((*sp)->node->addr == addr && t->t != NULL && (*sp)->pid == t->t->ppid) {
                found = *sp;
                node = found->node;
                *sp = found->next;
                free(found);
                break;
            }
        }
    }
    node->time += f->time;
    node->child_time += f->child;
    tg->node = node->parent;
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
            gr_enter(e, t, tg, name);
        } else if (type == TDEC_UFTRACE_REC_EXIT) {
            gr_exit(e, t, tg, rec_addr);
        } else if (addr == UFT_EV_SCHED_OUT || addr == UFT_EV_SCHED_OUT_PRE) {
            gr_enter(e, t, tg, addr == UFT_EV_SCHED_OUT ? "linux:schedule" : "linux:schedule (pre-empted)");
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
        /* (uftrace keeps the perf records in one static record) */
        end = t->cur_src == UFT_SRC_PERF && !e->s.time_filter ? e->s.perf_cur.time : t->cur.time;
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
        gr_node *n;
        for (n = e->graphs[k].root.first; n != NULL; n = n->next) {
            e->graphs[k].root.time += n->time;
            e->graphs[k].root.child_time += n->time;
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
    out_buf *out;
    int      shown[UFT_MAX_FIELDS], nshown;
    char    *mask; /* uftrace's indent_mask */
    int      full; /* the whole graph: its root shows (1) */
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

static void gr_columns(const gr_print *p, const gr_node *n)
{
    char buf[32];
    int i;
    if (p->nshown == 0) return;
    for (i = 0; i < p->nshown; i++) {
        out_lit(p->out, "  ");
        if (n == NULL) { /* print_empty_field() */
            snprintf(buf, sizeof buf, "%*s", gr_fields[p->shown[i]].width, "");
            out_str(p->out, buf);
        } else if (p->shown[i] == GF_TOTAL) {
            uft_view_time(p->out, n->time);
        } else if (p->shown[i] == GF_SELF) {
            uft_view_time(p->out, n->time - n->child_time);
        } else {
            snprintf(buf, sizeof buf, "%12llx", (unsigned long long)(n->addr & ((1ull << 48) - 1)));
            out_str(p->out, buf);
        }
    }
    out_lit(p->out, " : ");
}

/* print_graph_node() */
static void gr_print_node(gr_print *p, const gr_graph *g, const gr_node *n, int indent, int line)
{
    const gr_node *parent = n->parent, *c;
    int orig = indent;
    char buf[32];
    gr_columns(p, n);
    gr_indent(p, indent, line);
    snprintf(buf, sizeof buf, "(%u) ", p->full && n == &g->root ? 1u : n->nr_calls);
    out_str(p->out, buf);
    out_str(p->out, n->name);
    out_char(p->out, '\n');
    if (n->nr_edges > 1) p->mask[indent++] = 1;
    if (parent && parent->nr_edges > 1 && orig > 0 && parent->last == n) p->mask[orig - 1] = 0;
    for (c = n->first; c != NULL; c = c->next) {
        gr_print_node(p, g, c, indent, n->nr_edges > 1);
        if (c->next != NULL) { /* a blank line between siblings */
            gr_columns(p, NULL);
            gr_indent(p, indent, 0);
            out_char(p->out, '\n');
        }
    }
    p->mask[orig] = 0;
}

static int gr_depth(const gr_node *n)
{
    int d = 0, k;
    const gr_node *c;
    for (c = n->first; c != NULL; c = c->next)
        if ((k = gr_depth(c)) > d) d = k;
    return d + 1;
}

/* print_graph(): 1 if the graph was printed, 0 if empty, -1 for an
   unknown -f field (after its title, as uftrace fails). */
static int gr_print_graph(gr *e, const gr_graph *g, const char *fields, out_buf *out)
{
    static const int defaults[] = {GF_TOTAL, -1};
    gr_print p;
    const gr_trace *bt;
    char buf[64];
    int i;
    long k;
    if (g->traces == NULL && g->root.time == 0 && g->root.nr_edges == 0) return 0;
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
            uft_view_time(out, bt->time);
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
    if ((p.nshown = uft_view_fields(fields, gr_fields, 3, defaults, p.shown, out)) < 0) return -1;
    if (g->root.time == 0 && g->root.nr_edges == 0) return 1;
    out_lit(out, "========== FUNCTION CALL GRAPH ==========\n");
    for (i = 0; i < p.nshown; i++) {
        out_str(out, i == 0 ? "# " : "  ");
        out_str(out, gr_fields[p.shown[i]].header);
    }
    if (p.nshown > 0) out_lit(out, "   FUNCTION\n");
    p.out = out;
    p.full = e->func == NULL;
    p.mask = (char *)uft_view_zalloc((size_t)gr_depth(&g->root) + 1);
    gr_print_node(&p, g, &g->root, 0, g->root.nr_edges > 1);
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
    e->graphs = (gr_graph *)uft_view_zalloc(d->nsess * sizeof *e->graphs);
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
    for (k = 0; k < e->ngraphs; k++) e->graphs[k].root.name = e->graphs[k].func;
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
    if (uft_stream_open_opts(&e.s, &dir, o, out, err)) return 1;
    if (e.s.usage) out_str(out, e.s.usage);
    e.func = o->func;
    e.no_libcall = o->no_libcall;
    e.tasks = (gr_task *)uft_view_zalloc(e.s.ntasks * sizeof *e.tasks);
    gr_setup(&e);
    gr_build(&e);
    if (e.s.failed) return 1;
    for (k = e.ngraphs; k > 0; k--) { /* uftrace prepends each graph to its list */
        if ((rc = gr_print_graph(&e, &e.graphs[k - 1], o->fields, out)) < 0) return 1;
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
