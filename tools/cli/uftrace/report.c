/* report.c - `tracedec report DIR`: the flat profile `uftrace report`
   (v0.13, cmds/report.c and utils/report.c) prints, a consumer of the
   record stream (stream.h).

   Per function name: the total time of its calls (into `rec` instead of
   `sum` when the function is already on the stack below: a recursive
   call, counted in min/max/avg but not in the total), their self time
   (total minus the time of the calls they made), min, max, average and
   the call count. Calls still open at the end count up to the task's last
   record. The rows are sorted by the -s keys, largest first, rows that
   tie in name order (uftrace sorts the name-ordered rows into a tree that
   keeps ties in arrival order).

   --task: per task (rows named by tid) the same sums over its function
   and scheduler exits; its total is the sum of their self times and its
   self time that minus the time it spent scheduled out.

   Memory: one row per function name (and per task), a small cache from
   symbols to rows; nothing grows with the number of records. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/columns.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/stream.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a row's time statistics (uftrace's report_time_stat) */
typedef struct rt_stat {
    uint64_t sum, rec, min, max, avg;
} rt_stat;

typedef struct rt_row {
    char    *name;
    char    *src; /* --srcline: "FILE:LINE" of its latest call, or NULL */
    rt_stat  total, self;
    uint64_t call, size;
} rt_row;

/* the columns (uftrace's field_table and field_task_table, in order) */
enum { RF_TOTAL, RF_TOTAL_AVG, RF_TOTAL_MIN, RF_TOTAL_MAX, RF_SELF, RF_SELF_AVG, RF_SELF_MIN, RF_SELF_MAX,
       RF_CALL, RF_SIZE };
static const uft_field rt_fields[] = {
    {"total", NULL, "Total time", 10},    {"total-avg", NULL, "Total avg", 10}, {"total-min", NULL, "Total min", 10},
    {"total-max", NULL, "Total max", 10}, {"self", NULL, "Self time", 10},      {"self-avg", NULL, "Self avg", 10},
    {"self-min", NULL, "Self min", 10},   {"self-max", NULL, "Self max", 10},   {"call", NULL, "Calls", 10},
    {"size", NULL, "Size", 10},
};
enum { RF_TASK_TOTAL, RF_TASK_SELF, RF_TASK_TID, RF_TASK_FUNCS };
static const uft_field rt_task_fields[] = {
    {"total", NULL, "Total time", 10},
    {"self", NULL, "Self time", 10},
    {"tid", NULL, "TID", 6},
    {"func", NULL, "Num funcs", 10},
};

/* the sort keys (uftrace's all_sort_keys and all_task_keys) */
enum { RK_TOTAL, RK_TOTAL_AVG, RK_TOTAL_MIN, RK_TOTAL_MAX, RK_SELF, RK_SELF_AVG, RK_SELF_MIN, RK_SELF_MAX,
       RK_CALL, RK_FUNC, RK_SIZE, RK_TID, RK_NAME };
static const char *const rt_key_names[] = {"total",    "total_avg", "total_min", "total_max", "self",
                                           "self_avg", "self_min",  "self_max",  "call",      "func",
                                           "size",     "tid",       "name"};

#define RT_MAX_KEYS 32
#define RT_CACHE    1024 /* symbols -> rows */

typedef struct rt {
    uft_stream s;
    int        task_mode;
    int        srcline;   /* --srcline: rows with their functions' "FILE:LINE" */
    rt_row    *rows;
    size_t     nrows, cap;
    size_t    *hash; /* row index + 1 by name, open addressing */
    size_t     hash_cap;
    struct {
        const void *key;
        size_t      row;
    } cache[RT_CACHE];
    uint64_t  *func_size; /* per stream task: its last symbol's size, UINT64_MAX: none */
    uint64_t  *last_time; /* per stream task: uftrace's timestamp_last               */
    uint64_t  *out_since; /* --task: per stream task, when it was scheduled out (0) */
    uint64_t  *idle;      /* --task: per stream task, time scheduled out          */
    char     (*comm)[16]; /* --task: per stream task, its name                    */
    int        keys[RT_MAX_KEYS];
    int        nkeys;
} rt;

static size_t rt_hash_name(const char *s)
{
    size_t h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return h;
}

static void rt_rehash(rt *e)
{
    size_t i, h;
    free(e->hash);
    e->hash_cap = e->hash_cap ? e->hash_cap * 2 : 256;
    e->hash = (size_t *)uft_zalloc(e->hash_cap * sizeof *e->hash);
    for (i = 0; i < e->nrows; i++) {
        for (h = rt_hash_name(e->rows[i].name) & (e->hash_cap - 1); e->hash[h]; h = (h + 1) & (e->hash_cap - 1)) {}
        e->hash[h] = i + 1;
    }
}

/* The row of name, made on first use. */
static size_t rt_row_of(rt *e, const char *name)
{
    size_t h, len;
    rt_row *r;
    if (e->nrows * 2 >= e->hash_cap) rt_rehash(e);
    for (h = rt_hash_name(name) & (e->hash_cap - 1); e->hash[h]; h = (h + 1) & (e->hash_cap - 1))
        if (strcmp(e->rows[e->hash[h] - 1].name, name) == 0) return e->hash[h] - 1;
    if (e->nrows == e->cap) {
        e->cap = e->cap * 2 + 64;
        e->rows = (rt_row *)uft_xrealloc(e->rows, e->cap * sizeof *e->rows);
    }
    r = &e->rows[e->nrows];
    memset(r, 0, sizeof *r);
    len = strlen(name);
    r->name = (char *)uft_zalloc(len + 1);
    memcpy(r->name, name, len);
    r->total.min = r->self.min = UINT64_MAX;
    e->hash[h] = ++e->nrows;
    return e->nrows - 1;
}

static void rt_stat_add(rt_stat *st, uint64_t ns, int recursive)
{
    if (recursive) st->rec += ns;
    else st->sum += ns;
    if (st->min > ns) st->min = ns;
    if (st->max < ns) st->max = ns;
}

/* uftrace's report_update_node(): the frame t->nstack (the one just left)
   counts in row. */
static void rt_count(rt *e, uft_stask *t, size_t row)
{
    rt_row *r = &e->rows[row];
    uft_frame *f = uft_stream_frame(&e->s, t, t->nstack), *below;
    uint64_t addr, total, child, size;
    long i;
    int recursive = 0;
    if (f == NULL) return;
    addr = f->addr;
    total = f->time;
    child = f->child;
    for (i = 0; i < t->nstack && !recursive; i++) {
        if ((below = uft_stream_frame(&e->s, t, i)) == NULL) break;
        recursive = below->addr == addr;
    }
    rt_stat_add(&r->total, total, recursive);
    rt_stat_add(&r->self, total - child, 0);
    r->call++;
    size = e->func_size[t->index];
    if (size != UINT64_MAX) r->size = size;
}

/* uftrace's find_insert_node(): the function at addr (run by t at time)
   names the row the frame just left counts in. */
static void rt_count_func(rt *e, uft_stask *t, uint64_t time, uint64_t addr)
{
    const uft_sym *sym = uft_find_sym(e->s.dir, t->t, time, addr);
    size_t slot = ((uintptr_t)sym >> 4) % RT_CACHE, row;
    uint64_t size = UINT64_MAX;
    char buf[32];
    /* a symbol always gets the same row (the scheduler pseudo names and
       "<addr>" are looked up by name) */
    if (sym != NULL) {
        if (e->cache[slot].key != sym) {
            e->cache[slot].key = sym;
            e->cache[slot].row = rt_row_of(e, sym->name);
        }
        row = e->cache[slot].row;
        size = sym->size;
    } else {
        row = rt_row_of(e, uft_col_name(&e->s, t, time, addr, buf, sizeof buf, &size));
    }
    e->func_size[t->index] = size;
    rt_count(e, t, row);
    if (e->srcline) { /* (uftrace's node->loc: the latest call's) */
        char src[4200];
        rt_row *r = &e->rows[row];
        int found = uft_srcline(e->s.dir, t->t, time, addr, src, sizeof src);
        if (r->src != NULL && (!found || strcmp(r->src, src) != 0)) {
            free(r->src);
            r->src = NULL;
        }
        if (found && r->src == NULL) r->src = strdup(src);
    }
}

/* Frames still open at the end count up to end (uftrace's
   add_remaining_fstack() and add_remaining_task_fstack()). */
static void rt_close_open(rt *e, uft_stask *t, uint64_t end)
{
    uft_frame *f, *parent;
    char name[16];
    while (--t->nstack >= 0) {
        if ((f = uft_stream_frame(&e->s, t, t->nstack)) == NULL) continue;
        if (e->task_mode && f->addr == 0) continue;
        if (f->time > end) continue;
        f->time = end - f->time;
        if (f->child > f->time) f->time = f->child;
        if (t->nstack > 0 && (parent = uft_stream_frame(&e->s, t, t->nstack - 1)) != NULL) parent->child += f->time;
        if (e->task_mode) {
            snprintf(name, sizeof name, "%d", t->tid);
            rt_count(e, t, rt_row_of(e, name));
        } else {
            rt_count_func(e, t, end, f->addr);
        }
    }
    t->nstack = 0;
}

/* build_function_tree(). */
static void rt_functions(rt *e, int no_libcall)
{
    uft_stask *t;
    uft_frame *f;
    size_t i;
    while ((t = uft_stream_next(&e->s, 1)) != NULL) {
        const uft_view *r = &t->cur;
        if (r->type != TDEC_UFTRACE_REC_LOST) e->last_time[t->index] = r->time;
        if (!uft_stream_check_opts(&e->s, t) || !uft_stream_check_filter(&e->s, t)) continue;
        if (r->type == TDEC_UFTRACE_REC_ENTRY) {
            uft_stream_filter_done(&e->s, t);
        } else if (r->type == TDEC_UFTRACE_REC_EXIT) {
            const uft_sym *sym = no_libcall ? uft_find_sym(e->s.dir, t->t, r->time, r->addr) : NULL;
            if (sym == NULL || sym->type != 'P') rt_count_func(e, t, r->time, r->addr); /* --no-libcall: not PLT */
            uft_stream_filter_done(&e->s, t);
        } else if (r->type == TDEC_UFTRACE_REC_EVENT && r->addr == UFT_EV_SCHED_IN) {
            if ((f = uft_stream_frame(&e->s, t, t->nstack)) == NULL) continue;
            if (f->addr == UFT_EV_SCHED_OUT) rt_count(e, t, rt_row_of(e, "linux:schedule"));
            else if (f->addr == UFT_EV_SCHED_OUT_PRE) rt_count(e, t, rt_row_of(e, "linux:schedule (pre-empted)"));
        }
    }
    if (e->s.failed) return;
    for (i = 0; i < e->s.ntasks; i++) {
        t = &e->s.tasks[i];
        if (t->nstack > 0) rt_close_open(e, t, uft_stream_end_time(&e->s, t));
    }
}

/* report_task(). */
static void rt_tasks(rt *e)
{
    uft_stask *t;
    char name[16];
    size_t i, k;
    while ((t = uft_stream_next(&e->s, 1)) != NULL) {
        const uft_view *r = &t->cur;
        k = t->index;
        if (r->type == TDEC_UFTRACE_REC_EVENT && r->addr == UFT_EV_TASK_NAME) memcpy(e->comm[k], r->comm, 15);
        if (r->type == TDEC_UFTRACE_REC_ENTRY || r->type == TDEC_UFTRACE_REC_LOST) continue;
        if (!uft_stream_check_opts(&e->s, t)) continue;
        /* (uftrace never calls fstack_check_filter_done() here: no entry
           was processed, so an exit only moves the display depth) */
        if (!uft_stream_check_filter(&e->s, t)) continue;
        e->last_time[k] = r->time;
        if (r->type == TDEC_UFTRACE_REC_EVENT) {
            if (r->addr == UFT_EV_SCHED_OUT) {
                e->out_since[k] = r->time;
                continue;
            }
            if (r->addr != UFT_EV_SCHED_IN) continue;
            if (e->out_since[k]) e->idle[k] += r->time - e->out_since[k];
            e->out_since[k] = 0;
        }
        snprintf(name, sizeof name, "%d", t->tid);
        rt_count(e, t, rt_row_of(e, name));
    }
    if (e->s.failed) return;
    for (i = 0; i < e->s.ntasks; i++) {
        t = &e->s.tasks[i];
        if (t->nstack > 0) rt_close_open(e, t, e->last_time[i]);
    }
}

/* The stream task of a --task row (its name is the tid). */
static size_t rt_task_of_row(const rt *e, const rt_row *r)
{
    int32_t tid = (int32_t)strtol(r->name, NULL, 10);
    size_t i;
    for (i = 0; i < e->s.ntasks && e->s.tasks[i].tid != tid; i++) continue;
    return i;
}

static int rt_cmp_u64(uint64_t a, uint64_t b)
{
    return a == b ? 0 : a > b ? 1 : -1;
}

static const rt *rt_sorting; /* qsort's context */

/* a after b (1), before it (-1) or tied (0) by the sort keys: larger first */
static int rt_cmp_rows(const void *pa, const void *pb)
{
    const rt_row *a = (const rt_row *)pa, *b = (const rt_row *)pb;
    const rt *e = rt_sorting;
    int i, c = 0;
    for (i = 0; i < e->nkeys && c == 0; i++) {
        switch (e->keys[i]) {
        case RK_TOTAL: c = rt_cmp_u64(a->total.sum, b->total.sum); break;
        case RK_TOTAL_AVG: c = rt_cmp_u64(a->total.avg, b->total.avg); break;
        case RK_TOTAL_MIN: c = rt_cmp_u64(a->total.min, b->total.min); break;
        case RK_TOTAL_MAX: c = rt_cmp_u64(a->total.max, b->total.max); break;
        case RK_SELF: c = rt_cmp_u64(a->self.sum, b->self.sum); break;
        case RK_SELF_AVG: c = rt_cmp_u64(a->self.avg, b->self.avg); break;
        case RK_SELF_MIN: c = rt_cmp_u64(a->self.min, b->self.min); break;
        case RK_SELF_MAX: c = rt_cmp_u64(a->self.max, b->self.max); break;
        case RK_CALL: c = rt_cmp_u64(a->call, b->call); break;
        case RK_SIZE: c = rt_cmp_u64(a->size, b->size); break;
        case RK_FUNC: case RK_TID: c = strcmp(b->name, a->name); break;
        case RK_NAME: {
            size_t ta = rt_task_of_row(e, a), tb = rt_task_of_row(e, b);
            if (ta == e->s.ntasks || tb == e->s.ntasks) c = ta == e->s.ntasks ? (tb == e->s.ntasks ? 0 : 1) : -1;
            else c = strcmp(e->comm[tb], e->comm[ta]);
            break;
        }
        default: break;
        }
    }
    return c != 0 ? -c : strcmp(a->name, b->name); /* ties: in name order */
}

/* The -s keys (report_setup_sort() / report_setup_task() of
   convert_sort_keys()' answer): 0, or -1 for an unknown key. */
static int rt_setup_keys(rt *e, const uft_opts *o, int avg_mode)
{
    static const char *const avg_default[] = {"total", "total_avg", "self_avg"};
    char keys[1024], *p, *end;
    const char *spec = o->sort;
    int first = e->task_mode ? RK_TOTAL : 0, last = e->task_mode ? RK_NAME : RK_SIZE, k;
    if (spec == NULL) spec = e->task_mode ? "total" : avg_default[avg_mode];
    snprintf(keys, sizeof keys, "%s", spec);
    e->nkeys = 0;
    for (p = keys;; p = end + 1) {
        const char *word = p;
        if ((end = strchr(p, ',')) != NULL) *end = '\0';
        if (!e->task_mode && o->sort != NULL && avg_mode == 0) { /* "total-avg" means total_avg */
            char *c;
            for (c = p; *c; c++) if (*c == '-') *c = '_';
        } else if (!e->task_mode && avg_mode != 0 && (!strcmp(p, "avg") || !strcmp(p, "min") || !strcmp(p, "max"))) {
            static const char *const expand[2][3] = {{"total_avg", "total_min", "total_max"},
                                                     {"self_avg", "self_min", "self_max"}};
            word = expand[avg_mode - 1][p[1] == 'v' ? 0 : p[1] == 'i' ? 1 : 2];
        }
        for (k = first; k <= last; k++) {
            if (e->task_mode && k != RK_TOTAL && k != RK_SELF && k != RK_TID && k != RK_NAME && k != RK_FUNC) continue;
            if (!e->task_mode && k > RK_SIZE) continue;
            if (strcmp(word, e->task_mode && k == RK_FUNC ? "func" : rt_key_names[k]) == 0) break;
        }
        if (k > last || e->nkeys == RT_MAX_KEYS) return -1;
        e->keys[e->nkeys++] = e->task_mode && k == RK_FUNC ? RK_CALL : k; /* --task: func is the count */
        if (end == NULL) break;
    }
    return 0;
}

/* uftrace's print_header_align() and print_line(): the two header lines. */
static void rt_header(out_buf *out, const uft_field *table, const int *shown, int n, const char *title, int srcline)
{
    static const char line[] = "=================================================";
    int i;
    if (n == 0) return;
    for (i = 0; i < n; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "  %*s", table[shown[i]].width, table[shown[i]].header);
        out_str(out, buf);
    }
    out_lit(out, "  ");
    out_str(out, title);
    if (srcline) out_lit(out, " [Source]");
    out_char(out, '\n');
    for (i = 0; i < n; i++) {
        out_lit(out, "  ");
        out_mem(out, line, (size_t)table[shown[i]].width);
    }
    out_lit(out, "  ");
    out_mem(out, line, 20);
    out_char(out, '\n');
}

static void rt_print_u64(out_buf *out, uint64_t v, int width)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%*llu", width, (unsigned long long)v);
    out_str(out, buf);
}

static void rt_print(rt *e, const int *shown, int n, out_buf *out)
{
    const uft_field *table = e->task_mode ? rt_task_fields : rt_fields;
    size_t i, k;
    int c;
    rt_header(out, table, shown, n, e->task_mode ? "Task name" : "Function", e->srcline);
    for (i = 0; i < e->nrows; i++) {
        const rt_row *r = &e->rows[i];
        for (c = 0; c < n; c++) {
            out_lit(out, "  ");
            if (e->task_mode) {
                switch (shown[c]) {
                case RF_TASK_TOTAL: uft_col_time(out, r->total.sum); break;
                case RF_TASK_SELF: uft_col_time(out, r->self.sum); break;
                case RF_TASK_TID: rt_print_u64(out, (uint64_t)strtol(r->name, NULL, 10), 6); break;
                default: rt_print_u64(out, r->call, 10); break;
                }
                continue;
            }
            switch (shown[c]) {
            case RF_TOTAL: uft_col_time(out, r->total.sum); break;
            case RF_TOTAL_AVG: uft_col_time(out, r->total.avg); break;
            case RF_TOTAL_MIN: uft_col_time(out, r->total.min); break;
            case RF_TOTAL_MAX: uft_col_time(out, r->total.max); break;
            case RF_SELF: uft_col_time(out, r->self.sum); break;
            case RF_SELF_AVG: uft_col_time(out, r->self.avg); break;
            case RF_SELF_MIN: uft_col_time(out, r->self.min); break;
            case RF_SELF_MAX: uft_col_time(out, r->self.max); break;
            case RF_CALL: rt_print_u64(out, r->call, 10); break;
            default: rt_print_u64(out, r->size, 10); break;
            }
        }
        out_lit(out, "  ");
        if (e->task_mode) {
            char buf[64];
            k = rt_task_of_row(e, r);
            snprintf(buf, sizeof buf, "%-16s\n", k < e->s.ntasks ? e->comm[k] : "");
            out_str(out, buf);
        } else {
            out_str(out, r->name);
            if (r->src != NULL) {
                out_lit(out, " [");
                out_str(out, r->src);
                out_char(out, ']');
            }
            out_char(out, '\n');
        }
    }
}

int uft_report(const char *path, const uft_opts *o, out_buf *out, out_buf *err)
{
    static uft_dir dir; /* reachable to the end (the CLI frees nothing of it) */
    static rt e;
    int shown[UFT_MAX_FIELDS], nshown, avg_mode = 0;
    size_t i;
    if (o->usage) out_str(out, o->usage);
    if (o->avg_total && o->avg_self) { /* (uftrace's message, on stdout) */
        out_lit(out, "Usage: --avg-total and --avg-self options should not be used together.\n");
        return 2;
    }
    if (o->fields && (o->avg_total || o->avg_self))
        cli_diag(err, "warning", -1, "--avg-total and --avg-self options are ignored when used with -f option", NULL);
    else avg_mode = o->avg_total ? 1 : o->avg_self ? 2 : 0;
    if (uft_open_dir(&dir, path, err)) return 1;
    dir.demangle = o->demangle;
    uft_spec_usage(&dir, out); /* (uftrace's fstack_setup_filters()) */
    if (uft_stream_open_opts(&e.s, &dir, o, out, err)) return 1;
    if (e.s.usage) out_str(out, e.s.usage);
    e.task_mode = o->task;
    e.srcline = o->srcline && !o->task;
    if (rt_setup_keys(&e, o, avg_mode) < 0) {
        out_lit(out, "Usage: invalid sort key: ");
        out_str(out, o->sort);
        out_char(out, '\n');
        return 2;
    }
    e.func_size = (uint64_t *)uft_zalloc(e.s.ntasks * sizeof *e.func_size);
    e.last_time = (uint64_t *)uft_zalloc(e.s.ntasks * sizeof *e.last_time);
    e.out_since = (uint64_t *)uft_zalloc(e.s.ntasks * sizeof *e.out_since);
    e.idle = (uint64_t *)uft_zalloc(e.s.ntasks * sizeof *e.idle);
    e.comm = (char(*)[16])uft_zalloc(e.s.ntasks * sizeof *e.comm);
    for (i = 0; i < e.s.ntasks; i++) {
        const uft_task *t = e.s.tasks[i].t;
        e.func_size[i] = UINT64_MAX;
        if (t != NULL) {
            memcpy(e.comm[i], t->comm, sizeof e.comm[i]);
            e.out_since[i] = t->time; /* uftrace's task time stamp starts as the task's start */
        }
    }
    if (e.task_mode) rt_tasks(&e);
    else rt_functions(&e, o->no_libcall);
    if (e.s.failed) return 1;
    for (i = 0; i < e.nrows; i++) {
        rt_row *r = &e.rows[i];
        if (e.task_mode) { /* total: the sum of its self times; self: that minus idle */
            size_t k = rt_task_of_row(&e, r);
            r->total = r->self;
            memset(&r->self, 0, sizeof r->self);
            r->self.sum = r->total.sum - (k < e.s.ntasks ? e.idle[k] : 0);
        }
        if (r->call) {
            r->total.avg = (r->total.sum + r->total.rec) / r->call;
            r->self.avg = (r->self.sum + r->self.rec) / r->call;
        }
    }
    rt_sorting = &e;
    if (e.nrows > 1) qsort(e.rows, e.nrows, sizeof *e.rows, rt_cmp_rows);
    if (e.task_mode) {
        static const int defaults[] = {RF_TASK_TOTAL, RF_TASK_SELF, RF_TASK_TID, RF_TASK_FUNCS, -1};
        nshown = uft_col_fields(o->fields, rt_task_fields, 4, defaults, shown, out);
    } else {
        static const int defaults[][4] = {{RF_TOTAL, RF_SELF, RF_CALL, -1},
                                          {RF_TOTAL_AVG, RF_TOTAL_MIN, RF_TOTAL_MAX, -1},
                                          {RF_SELF_AVG, RF_SELF_MIN, RF_SELF_MAX, -1}};
        nshown = uft_col_fields(o->fields, rt_fields, 10, defaults[avg_mode], shown, out);
    }
    if (nshown < 0) return 1;
    rt_print(&e, shown, nshown, out);
    uft_stream_close(&e.s);
    return 0;
}
