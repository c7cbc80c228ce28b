/* stack.c - `tracedec stack` as llvm-xray 14's stack (xray-stacks.cpp):
   call stacks per thread built from the records in llvm-xray's unsorted
   order, each stack's time and calls, printed as the top 10 stacks by leaf
   time and by leaf count (per thread with --per-thread-stacks, threads
   merged with --aggregate-threads) or every stack in the flame graph
   tool's format (--all-stacks --stack-format=flame, --aggregation-type=
   time|count).

   A node keeps two sums and two counts where llvm-xray keeps every
   duration: the outputs only use those. The tries grow with the number of
   distinct stacks, the thread stacks with the call depth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli/xray/convert.h"
#include "tools/cli/xray/densemap.h"
#include "tools/cli/xray/xray.h"

/* A trie node: a function on a call path of one thread (or, made by
   --aggregate-threads, of several). */
typedef struct st_node {
    int32_t  fid;
    uint32_t parent;                 /* node + 1; 0: a root              */
    uint32_t first_edge, last_edge;  /* its callees, in order (edge + 1) */
    uint64_t term_count, term_sum;   /* durations as the deepest frame   */
    uint64_t inter_count, inter_sum; /* durations as a caller            */
} st_node;

typedef struct st_edge {
    uint32_t node;
    uint32_t next; /* edge + 1 */
} st_edge;

/* A frame of a thread's call stack. */
typedef struct st_frame {
    uint32_t node;
    uint64_t tsc;
} st_frame;

typedef struct st_thread {
    uint32_t  roots;    /* a node holding its roots as callees + 1; 0: none yet */
    st_frame *frames;
    size_t    depth, cap;
} st_thread;

/* The callees looked up last, by a hash of (owner node, fid): most calls
   repeat one of them, and the keymap's probing is the slow way. */
#define ST_CACHE 4096

typedef struct st_cached {
    uint64_t key;  /* owner << 32 | fid */
    uint32_t node; /* 0: empty          */
} st_cached;

typedef struct st_trie {
    st_node      *nodes;
    size_t        nnodes, nodes_cap;
    st_edge      *edges;
    size_t        nedges, edges_cap;
    xray_keymap   children; /* (owner node, fid) -> child_node[]: the callee of
                               a node (for roots: of their thread's holder) */
    uint32_t     *child_node;
    size_t        child_cap;
    st_thread    *threads;
    size_t        threads_cap;
    xray_keymap   by_tid;   /* tid -> threads[]                            */
    xray_keymap   roots;    /* llvm-xray's Roots: the tids, in its order   */
    uint32_t      last_tid, last_thread; /* st_thread_of's last answer + 1 */
    st_cached     cache[ST_CACHE];
    int           last_was_exit;
    int           failed;   /* out of memory                              */
} st_trie;

/* A new node (its id + 1), or 0 when out of memory. */
static uint32_t st_new_node(st_trie *s, int32_t fid, uint32_t parent)
{
    st_node *n;
    if (!xray_grow((void **)&s->nodes, s->nnodes, &s->nodes_cap, sizeof *s->nodes)) return 0;
    n = &s->nodes[s->nnodes++];
    memset(n, 0, sizeof *n);
    n->fid = fid;
    n->parent = parent;
    return (uint32_t)s->nnodes;
}

/* Appends node (id + 1) to the callees of parent (id + 1). */
static int st_add_callee(st_trie *s, uint32_t parent, uint32_t node)
{
    st_node *p;
    if (!xray_grow((void **)&s->edges, s->nedges, &s->edges_cap, sizeof *s->edges)) return 0;
    s->edges[s->nedges].node = node;
    s->edges[s->nedges].next = 0;
    s->nedges++;
    p = &s->nodes[parent - 1];
    if (p->last_edge) s->edges[p->last_edge - 1].next = (uint32_t)s->nedges;
    else p->first_edge = (uint32_t)s->nedges;
    p->last_edge = (uint32_t)s->nedges;
    return 1;
}

/* ---- lookups ---------------------------------------------------------------- */

/* The callee fid of parent (id + 1), made and appended when new. Roots
   hang under their thread's holder node, whose callees are the thread's
   root vector; their parent stays 0 as in llvm-xray. */
static uint32_t st_callee(st_trie *s, uint32_t holder, uint32_t parent, int32_t fid)
{
    uint32_t owner = parent ? parent : holder, i, n;
    uint64_t key = (uint64_t)owner << 32 | (uint32_t)fid;
    st_cached *c = &s->cache[(owner * 0x9E3779B1u ^ (uint32_t)fid) & (ST_CACHE - 1)];
    if (c->node && c->key == key) return c->node;
    i = xray_keymap_find(&s->children, key);
    if (i != UINT32_MAX) {
        n = s->child_node[i];
    } else {
        if (!(n = st_new_node(s, fid, parent)) || !st_add_callee(s, owner, n) ||
            !xray_grow((void **)&s->child_node, s->children.nkeys, &s->child_cap, sizeof *s->child_node) ||
            (i = xray_keymap_add(&s->children, key)) == UINT32_MAX)
            return 0;
        s->child_node[i] = n;
    }
    c->key = key;
    c->node = n;
    return n;
}

static st_thread *st_thread_of(st_trie *s, uint32_t tid)
{
    uint32_t i;
    if (s->last_thread && s->last_tid == tid) return &s->threads[s->last_thread - 1];
    i = xray_keymap_find(&s->by_tid, tid);
    if (i == UINT32_MAX) {
        if (!xray_grow((void **)&s->threads, s->by_tid.nkeys, &s->threads_cap, sizeof *s->threads) ||
            (i = xray_keymap_add(&s->by_tid, tid)) == UINT32_MAX)
            return NULL;
        memset(&s->threads[i], 0, sizeof s->threads[i]);
    }
    s->last_tid = tid;
    s->last_thread = i + 1;
    return &s->threads[i];
}

/* Roots[tid]: the thread joins llvm-xray's map of roots at its first call
   from an empty stack. */
static int st_thread_roots(st_trie *s, st_thread *t, uint32_t tid)
{
    if (t->roots) return 1;
    return (t->roots = st_new_node(s, 0, 0)) != 0 && xray_keymap_add(&s->roots, tid) != UINT32_MAX;
}

/* The holder of the roots of the thread the Roots map's entry i is. */
static uint32_t st_roots_of(const st_trie *s, uint32_t i)
{
    return s->threads[xray_keymap_find(&s->by_tid, s->roots.keys[i])].roots;
}

/* ---- accounting: StackTrie::accountRecord ------------------------------- */

static uint64_t st_span(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

/* One record: 1, or 0 when an exit has no matching entry. */
static int st_account(st_trie *s, const xray_trace_record *r)
{
    st_thread *t = st_thread_of(s, r->tid);
    st_frame *f;
    uint32_t node;
    size_t i, from;
    int last_was_exit, matched;
    if (!t) goto oom;
    switch (r->kind) {
    case XRAY_ENTER:
    case XRAY_ENTER_ARG:
        s->last_was_exit = 0;
        if (t->depth == 0) {
            if (!st_thread_roots(s, t, r->tid)) goto oom;
            node = st_callee(s, t->roots, 0, r->fid);
        } else {
            node = st_callee(s, 0, t->frames[t->depth - 1].node, r->fid);
        }
        if (!node || !xray_grow((void **)&t->frames, t->depth, &t->cap, sizeof *t->frames)) goto oom;
        t->frames[t->depth].node = node;
        t->frames[t->depth].tsc = r->tsc;
        t->depth++;
        return 1;
    case XRAY_EXIT:
    case XRAY_TAIL_EXIT:
        last_was_exit = s->last_was_exit;
        s->last_was_exit = 1;
        if (t->depth == 0) return 0;
        for (i = t->depth; i > 0 && s->nodes[t->frames[i - 1].node - 1].fid != r->fid; i--) continue;
        matched = i > 0;
        from = matched ? i - 1 : 0; /* no match: the whole stack goes */
        for (i = from; i + 1 < t->depth; i++) {
            st_node *n = &s->nodes[t->frames[i].node - 1];
            n->inter_count++;
            n->inter_sum += st_span(t->frames[i].tsc, r->tsc);
        }
        f = &t->frames[t->depth - 1];
        if (last_was_exit) {
            s->nodes[f->node - 1].inter_count++;
            s->nodes[f->node - 1].inter_sum += st_span(f->tsc, r->tsc);
        } else {
            s->nodes[f->node - 1].term_count++;
            s->nodes[f->node - 1].term_sum += st_span(f->tsc, r->tsc);
        }
        t->depth = from;
        return matched;
    default:
        return 1;
    }
oom:
    s->failed = 1;
    return 1;
}

/* ---- --aggregate-threads: mergeTrieNodes and mergeAcrossThreads --------- */

/* A list of nodes (ids + 1). */
typedef struct st_list {
    uint32_t *v;
    size_t    n, cap;
} st_list;

static int st_push(st_list *l, uint32_t node)
{
    if (!xray_grow((void **)&l->v, l->n, &l->cap, sizeof *l->v)) return 0;
    l->v[l->n++] = node;
    return 1;
}

static void st_callees(const st_trie *s, uint32_t node, st_list *out, int *ok)
{
    uint32_t e;
    for (e = s->nodes[node - 1].first_edge; e && *ok; e = s->edges[e - 1].next)
        *ok = st_push(out, s->edges[e - 1].node);
}

/* mergeTrieNodes: a new node for l and r (same function) under parent,
   whose callees are r's (merged with l's of the same function) in r's
   order, then l's others in the order of LLVM's DenseMap of them.
   Returns the node + 1, 0 when out of memory. */
static uint32_t st_merge(st_trie *s, uint32_t l, uint32_t r, uint32_t parent)
{
    xray_keymap left = XRAY_KEYMAP(xray_hash_int); /* DenseMap<int32_t, ...>: fid -> lc[] */
    st_list lc = {NULL, 0, 0}, rc = {NULL, 0, 0};
    uint32_t n, i, j, pos = 0, m;
    int ok = 1;
    if (!(n = st_new_node(s, s->nodes[l - 1].fid, parent))) return 0;
    s->nodes[n - 1].term_count = s->nodes[l - 1].term_count + s->nodes[r - 1].term_count;
    s->nodes[n - 1].term_sum = s->nodes[l - 1].term_sum + s->nodes[r - 1].term_sum;
    s->nodes[n - 1].inter_count = s->nodes[l - 1].inter_count + s->nodes[r - 1].inter_count;
    s->nodes[n - 1].inter_sum = s->nodes[l - 1].inter_sum + s->nodes[r - 1].inter_sum;
    st_callees(s, l, &lc, &ok);
    st_callees(s, r, &rc, &ok);
    for (i = 0; ok && i < lc.n; i++) ok = xray_keymap_add(&left, (uint32_t)s->nodes[lc.v[i] - 1].fid) != UINT32_MAX;
    for (i = 0; ok && i < rc.n; i++) {
        uint32_t fid = (uint32_t)s->nodes[rc.v[i] - 1].fid;
        j = xray_keymap_find(&left, fid);
        if (j == UINT32_MAX) {
            ok = st_add_callee(s, n, rc.v[i]);
            continue;
        }
        ok = (m = st_merge(s, lc.v[j], rc.v[i], n)) != 0 && st_add_callee(s, n, m);
        xray_keymap_erase(&left, fid);
    }
    while (ok && (j = xray_keymap_next(&left, &pos)) != UINT32_MAX) ok = st_add_callee(s, n, lc.v[j]);
    xray_keymap_free(&left);
    free(lc.v);
    free(rc.v);
    return ok ? n : 0;
}

/* mergeAcrossThreads: the threads' roots in the map's order; a root of a
   function seen before replaces that one by their merge, at the end. */
static int st_merge_threads(st_trie *s, st_list *out)
{
    st_list roots = {NULL, 0, 0};
    uint32_t pos = 0, t, m;
    size_t i, j;
    int ok = 1;
    while (ok && (t = xray_keymap_next(&s->roots, &pos)) != UINT32_MAX) {
        roots.n = 0;
        st_callees(s, st_roots_of(s, t), &roots, &ok);
        for (i = 0; ok && i < roots.n; i++) {
            for (j = 0; j < out->n && s->nodes[out->v[j] - 1].fid != s->nodes[roots.v[i] - 1].fid; j++) continue;
            if (j == out->n) {
                ok = st_push(out, roots.v[i]);
                continue;
            }
            ok = (m = st_merge(s, out->v[j], roots.v[i], 0)) != 0 && st_push(out, m);
            memmove(out->v + j, out->v + j + 1, (out->n - j - 1) * sizeof *out->v);
            out->n--;
        }
    }
    free(roots.v);
    return ok;
}

/* ---- output ------------------------------------------------------------------ */

/* formatv's "{N,-W}" / "{N,+W}": s left- or right-aligned in w bytes. */
static void st_pad(out_buf *o, const char *s, size_t n, size_t w, int right)
{
    size_t k;
    if (!right) out_mem(o, s, n);
    for (k = n; k < w; k++) out_char(o, ' ');
    if (right) out_mem(o, s, n);
}

static void st_pad_u64(out_buf *o, uint64_t v, size_t w)
{
    char b[24];
    st_pad(o, b, (size_t)(fmt_u64(b, v) - b), w, 1);
}

static void st_pad_i64(out_buf *o, int64_t v, size_t w)
{
    char b[24];
    st_pad(o, b, (size_t)(fmt_i64(b, v) - b), w, 1);
}

/* One line of printStack: level, name (cut to 57 bytes and "..." past 60),
   count, sum. */
static void st_stack_line(out_buf *o, xray_names *names, unsigned level, int32_t fid, uint64_t count, uint64_t sum)
{
    char b[24];
    size_t len;
    const char *name = xray_names_get(names, fid, &len);
    out_char(o, '#');
    st_pad(o, b, (size_t)(fmt_u64(b, level) - b), 4, 0);
    out_char(o, ' ');
    if (len > 60) {
        out_mem(o, name, 57);
        out_lit(o, "...");
    } else {
        st_pad(o, name, len, 60, 0);
    }
    out_char(o, ' ');
    st_pad_u64(o, count, 12);
    out_char(o, ' ');
    st_pad_i64(o, (int64_t)sum, 16);
    out_char(o, '\n');
}

/* printStack: the path from the root to top, callers with their
   intermediate durations, top with its terminal ones. */
static int st_print_stack(out_buf *o, const st_trie *s, xray_names *names, uint32_t top, st_list *path)
{
    uint32_t n;
    unsigned level = 0;
    size_t i;
    path->n = 0;
    for (n = top; n; n = s->nodes[n - 1].parent)
        if (!st_push(path, n)) return 0;
    out_lit(o, "lvl   function                                                            count              sum\n");
    for (i = path->n; i-- > 1;) {
        const st_node *f = &s->nodes[path->v[i] - 1];
        st_stack_line(o, names, level++, f->fid, f->inter_count, f->inter_sum);
    }
    st_stack_line(o, names, level, s->nodes[top - 1].fid, s->nodes[top - 1].term_count, s->nodes[top - 1].term_sum);
    out_char(o, '\n');
    return 1;
}

/* A top-10 list: (node, value) by value, largest first; an entry goes
   before the equal ones already there (llvm::lower_bound, greater). */
typedef struct st_top {
    uint32_t node[11];
    uint64_t value[11];
    size_t   n;
} st_top;

static void st_top_add(st_top *t, uint32_t node, uint64_t value)
{
    size_t p = 0;
    while (p < t->n && t->value[p] > value) p++;
    memmove(t->node + p + 1, t->node + p, (t->n - p) * sizeof *t->node);
    memmove(t->value + p + 1, t->value + p, (t->n - p) * sizeof *t->value);
    t->node[p] = node;
    t->value[p] = value;
    if (++t->n == 11) t->n--;
}

/* StackTrie::print over the given roots. */
static int st_print(out_buf *o, const st_trie *s, xray_names *names, const st_list *roots)
{
    st_list stack = {NULL, 0, 0}, path = {NULL, 0, 0};
    st_top by_sum, by_count;
    uint64_t unique = 0;
    size_t i;
    int ok = 1;
    by_sum.n = by_count.n = 0;
    for (i = 0; ok && i < roots->n; i++) {
        stack.n = 0;
        ok = st_push(&stack, roots->v[i]);
        while (ok && stack.n > 0) {
            uint32_t top = stack.v[--stack.n];
            const st_node *n = &s->nodes[top - 1];
            if (n->term_count > 0) {
                unique++;
                st_top_add(&by_sum, top, n->term_sum);
                st_top_add(&by_count, top, n->term_count);
            }
            st_callees(s, top, &stack, &ok);
        }
    }
    out_lit_u64(o, "\nUnique Stacks: ", unique);
    out_lit(o, "\nTop 10 Stacks by leaf sum:\n\n");
    for (i = 0; ok && i < by_sum.n; i++) {
        out_lit_u64(o, "Sum: ", by_sum.value[i]);
        out_char(o, '\n');
        ok = st_print_stack(o, s, names, by_sum.node[i], &path);
    }
    out_lit(o, "\nTop 10 Stacks by leaf count:\n\n");
    for (i = 0; ok && i < by_count.n; i++) {
        out_lit_u64(o, "Count: ", by_count.value[i]);
        out_char(o, '\n');
        ok = st_print_stack(o, s, names, by_count.node[i], &path);
    }
    out_char(o, '\n');
    free(stack.v);
    free(path.v);
    return ok;
}

/* printAll: every stack under the roots, depth first (callees pushed in
   order, so visited last first), as "[thread_T;]f;g; VALUE". */
static int st_print_all(out_buf *o, const st_trie *s, xray_names *names, const st_list *roots, int report,
                        uint32_t tid)
{
    st_list stack = {NULL, 0, 0}, path = {NULL, 0, 0};
    size_t i, k, len;
    uint32_t n;
    int ok = 1;
    for (i = 0; ok && i < roots->n; i++) {
        stack.n = 0;
        ok = st_push(&stack, roots->v[i]);
        while (ok && stack.n > 0) {
            uint32_t top = stack.v[--stack.n];
            const st_node *t = &s->nodes[top - 1];
            if (report) {
                out_lit_u64(o, "thread_", tid);
                out_char(o, ';');
            }
            path.n = 0;
            for (n = top; ok && n; n = s->nodes[n - 1].parent) ok = st_push(&path, n);
            for (k = path.n; ok && k-- > 0;) {
                const char *name = xray_names_get(names, s->nodes[path.v[k] - 1].fid, &len);
                out_mem(o, name, len);
                out_char(o, ';');
            }
            out_lit_u64(o, " ", xray_opt.aggregation == XRAY_AGGREGATE_COUNT ? t->term_count + t->inter_count
                                                                               : t->term_sum + t->inter_sum);
            out_char(o, '\n');
            st_callees(s, top, &stack, &ok);
        }
    }
    free(stack.v);
    free(path.v);
    return ok;
}

/* The report the options ask for, once every record is in. */
static int st_report(out_buf *o, st_trie *s, xray_names *names)
{
    st_list roots = {NULL, 0, 0};
    uint32_t pos = 0, t;
    int ok = 1;
    if (xray_opt.aggregate_threads) {
        ok = st_merge_threads(s, &roots);
        if (ok) ok = xray_opt.all_stacks ? st_print_all(o, s, names, &roots, 0, 0) : st_print(o, s, names, &roots);
    } else if (xray_opt.all_stacks || xray_opt.per_thread_stacks) {
        while (ok && (t = xray_keymap_next(&s->roots, &pos)) != UINT32_MAX) {
            roots.n = 0;
            st_callees(s, st_roots_of(s, t), &roots, &ok);
            if (!ok) break;
            if (xray_opt.all_stacks) {
                ok = st_print_all(o, s, names, &roots, 1, (uint32_t)s->roots.keys[t]);
                continue;
            }
            out_lit_u64(o, "Thread ", s->roots.keys[t]);
            out_lit(o, ":\n");
            ok = st_print(o, s, names, &roots);
            out_char(o, '\n');
        }
    } else {
        while (ok && (t = xray_keymap_next(&s->roots, &pos)) != UINT32_MAX)
            st_callees(s, st_roots_of(s, t), &roots, &ok);
        if (ok) ok = st_print(o, s, names, &roots);
    }
    free(roots.v);
    return ok;
}

/* "Found record {FuncId: "f", ThreadId: "1", RecordType: "Fn Entry"} with
   no matching function entry": llvm-xray names the record's sub-type (0
   for every function record) where it means its kind. */
static void st_unmatched(out_buf *err, xray_names *names, const xray_trace_record *r)
{
    size_t len;
    const char *name = xray_names_get(names, r->fid, &len);
    out_lit(err, "Found record {FuncId: \"");
    out_mem(err, name, len);
    out_lit_u64(err, "\", ThreadId: \"", r->tid);
    out_lit(err, "\", RecordType: \"");
    out_str(err, r->record_type == 0 ? "Fn Entry" : r->record_type == 1 ? "Fn Exit" : "Unknown");
    out_lit(err, "\"} with no matching function entry\n");
}

/* An error llvm-xray reports and stops at, in its words. */
static int st_fail(out_buf *err, const char *msg)
{
    out_lit(err, "tracedec: ");
    out_str(err, msg);
    out_char(err, '\n');
    out_flush(err);
    return 1;
}

static void st_free(st_trie *s)
{
    size_t i;
    for (i = 0; i < s->by_tid.nkeys; i++) free(s->threads[i].frames);
    free(s->threads);
    free(s->nodes);
    free(s->edges);
    free(s->child_node);
    xray_keymap_free(&s->children);
    xray_keymap_free(&s->by_tid);
    xray_keymap_free(&s->roots);
}

int xray_stack(const char *path, cli_reader *in, out_buf *out, out_buf *err)
{
    xray_instrmap *map = NULL;
    xray_trace *t = NULL;
    xray_names names;
    const xray_trace_record *r;
    st_trie s;
    char why[256], msg[64 + 4096];
    const char *fail = NULL;
    int rc = 0;
    if (xray_opt.instr_map && xray_instrmap_open(xray_opt.instr_map, &map, why, sizeof why) != 0) {
        snprintf(msg, sizeof msg, "Cannot open instrumentation map: %s", xray_opt.instr_map);
        cli_diag(err, "error", -1, msg, why);
        return 1;
    }
    if (xray_opt.per_thread_stacks && xray_opt.aggregate_threads)
        fail = "Can't specify options for per thread reporting and reporting that aggregates threads.";
    else if (!xray_opt.all_stacks && xray_opt.stack_format != XRAY_STACK_HUMAN)
        fail = "Can't specify a non-human format without -all-stacks.";
    else if (xray_opt.all_stacks && xray_opt.stack_format == XRAY_STACK_HUMAN)
        fail = "You must specify a non-human format when reporting with -all-stacks.";
    if (fail) {
        xray_instrmap_free(map);
        return st_fail(err, fail);
    }
    memset(&names, 0, sizeof names);
    names.map = map;
    names.symbolize = 1;
    names.demangle = 1;
    memset(&s, 0, sizeof s);
    s.children.hash = xray_hash_pair;
    s.by_tid.hash = s.roots.hash = xray_hash_int;
    if ((rc = xray_trace_open(in, path, 0, &t, err)) != 0) goto done;
    while (!s.failed && (r = xray_trace_next(t)) != NULL) {
        if (st_account(&s, r)) continue;
        if (!xray_opt.keep_going) { /* the message ends in a newline, and llvm-xray adds one */
            out_lit(err, "tracedec: ");
            st_unmatched(err, &names, r);
            out_char(err, '\n');
            out_flush(err);
            rc = 1;
            goto done;
        }
        st_unmatched(err, &names, r);
    }
    out_flush(err);
    if (s.failed) {
        cli_diag(err, "error", -1, "out of memory", NULL);
        rc = 1;
        goto done;
    }
    if (s.roots.count == 0) {
        rc = st_fail(err, "No instrumented calls were accounted in the input file.");
        goto done;
    }
    if (!st_report(out, &s, &names)) {
        cli_diag(err, "error", -1, "out of memory", NULL);
        rc = 1;
        goto done;
    }
    rc = xray_trace_status(t);
done:
    xray_trace_close(t);
    st_free(&s);
    xray_instrmap_free(map);
    return rc;
}
