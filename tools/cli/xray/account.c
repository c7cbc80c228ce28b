/* account.c - `tracedec account`: llvm-xray account's per-function latency
   statistics (count, min, median, 90th and 99th percentile, max and sum of
   the call durations) in its text and CSV layouts.

   It follows llvm-xray 14 record by record: the records in LLVM's own
   (unsorted) order (trace.h), one call stack per thread, LLVM's rules for
   exits that match no enter and for records older than the first, and its
   hash maps' iteration order where that order shows (rows that sort equal,
   the thread dumps of its error reports). Exact percentiles need every
   duration: it keeps one 8-byte duration per call (docs/xray.md). */
#include "tools/cli/xray/convert.h"
#include "tools/cli/xray/densemap.h"
#include "tools/cli/xray/instrmap.h"
#include "tools/cli/xray/trace.h"
#include "tools/cli/xray/xray.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the accountant ----------------------------------------------------- */

typedef struct acct_frame {
    int32_t  fid;
    uint64_t tsc;
} acct_frame;

/* Entries keyed by a thread's or a function's 32-bit id (each entry starts
   with it), entry i being the map's key i. The map has llvm-xray's
   DenseMap layout: its order shows in the error reports (threads) and in
   the rows before sorting (functions). */
typedef struct acct_table {
    xray_keymap map;
    void       *entries;
    size_t      elem, cap;
} acct_table;

/* --recursive-calls-only: a function's frames on a thread's stack, and
   whether one of them was entered while another was there (LLVM's
   RecursionStatus: set at depth 2, cleared when the depth is back to 0) */
typedef struct acct_recursion {
    int32_t  fid;
    uint32_t depth;
    int      recursive;
} acct_recursion;

typedef struct acct_thread {
    uint32_t    tid;
    acct_frame *stack;
    size_t      depth, cap;
    acct_table  recursion; /* of acct_recursion */
} acct_thread;

typedef struct acct_func {
    int32_t   fid;
    uint64_t *durations; /* in the order the calls ended                     */
    size_t    n, cap;
    double    sum;       /* summed in that order, as llvm-xray sums them     */
} acct_func;

typedef struct acct {
    xray_names   names;
    out_buf     *err;
    uint64_t     first_tsc; /* LLVM's CurrentMaxTSC: the first non-zero TSC seen */
    acct_table   threads;   /* of acct_thread                                     */
    acct_table   funcs;     /* of acct_func                                       */
    /* lookups the tables need not repeat: the last record's thread (its
       entry moves only when a thread is added, which sets it again), and
       functions by the low bits of their ids (index + 1, 0: empty) */
    acct_thread *last_thread;
    int32_t      cached_fid[256];
    uint32_t     cached_func[256];
} acct;

static acct *acct_new(const xray_instrmap *map, out_buf *err)
{
    acct *acc = calloc(1, sizeof *acc);
    if (acc == NULL) return NULL;
    acc->threads.map.hash = xray_hash_int;
    acc->threads.elem = sizeof(acct_thread);
    acc->funcs.map.hash = xray_hash_int;
    acc->funcs.elem = sizeof(acct_func);
    acc->names.map = map;
    acc->names.symbolize = 1;
    acc->names.demangle = 1;
    acc->err = err;
    return acc;
}

static void acct_free(acct *acc)
{
    acct_thread *threads;
    acct_func *funcs;
    uint32_t k;
    if (acc == NULL) return;
    threads = acc->threads.entries;
    funcs = acc->funcs.entries;
    for (k = 0; k < acc->threads.map.nkeys; k++) {
        free(threads[k].stack);
        free(threads[k].recursion.entries);
        xray_keymap_free(&threads[k].recursion.map);
    }
    for (k = 0; k < acc->funcs.map.nkeys; k++) free(funcs[k].durations);
    free(threads);
    free(funcs);
    xray_keymap_free(&acc->threads.map);
    xray_keymap_free(&acc->funcs.map);
    free(acc);
}

static void acct_put_name(out_buf *o, acct *acc, int32_t fid)
{
    size_t len;
    const char *name = xray_names_get(&acc->names, fid, &len);
    out_mem(o, name, len);
}

/* Its "file:line:column" (llvm-symbolizer's: "<invalid>:0:0" without line
   information), or "(unknown)" for an id the map does not have. */
static void acct_put_debug(out_buf *o, const acct *acc, int32_t fid)
{
    uint64_t address;
    const char *where;
    if (!acc->names.map || !xray_instrmap_address(acc->names.map, fid, &address)) out_lit(o, "(unknown)");
    else if ((where = xray_instrmap_where(acc->names.map, fid)) != NULL) out_str(o, where);
    else out_lit(o, "<invalid>:0:0");
}

/* The index of key's entry; a new key gets a zeroed entry (but its key).
   UINT32_MAX when out of memory. */
static uint32_t acct_table_get(acct_table *t, uint32_t key)
{
    uint32_t k = xray_keymap_find(&t->map, key);
    char *e;
    if (k != UINT32_MAX) return k;
    if (!xray_grow(&t->entries, t->map.nkeys, &t->cap, t->elem)) return UINT32_MAX;
    if ((k = xray_keymap_add(&t->map, key)) == UINT32_MAX) return k;
    e = (char *)t->entries + (size_t)k * t->elem;
    memset(e, 0, t->elem);
    memcpy(e, &key, sizeof key);
    return k;
}

/* Function fid's entry in acc->funcs: its index, or UINT32_MAX when out of
   memory. */
static uint32_t acct_func_get(acct *acc, int32_t fid)
{
    uint32_t k, slot = (uint32_t)fid & 255u;
    if (acc->cached_func[slot] != 0 && acc->cached_fid[slot] == fid) return acc->cached_func[slot] - 1;
    if ((k = acct_table_get(&acc->funcs, (uint32_t)fid)) == UINT32_MAX) return k;
    acc->cached_fid[slot] = fid;
    acc->cached_func[slot] = k + 1;
    return k;
}

/* Thread tid's entry in acc->threads, NULL when out of memory. */
static acct_thread *acct_thread_get(acct *acc, uint32_t tid)
{
    uint32_t k;
    if (acc->last_thread != NULL && acc->last_thread->tid == tid) return acc->last_thread;
    if ((k = acct_table_get(&acc->threads, tid)) == UINT32_MAX) return NULL;
    acc->last_thread = (acct_thread *)acc->threads.entries + k;
    return acc->last_thread;
}

static inline int acct_record_latency(acct *acc, int32_t fid, uint64_t duration)
{
    acct_func *f;
    uint32_t k = acct_func_get(acc, fid);
    if (k == UINT32_MAX) return -1;
    f = (acct_func *)acc->funcs.entries + k;
    if (f->n == f->cap && !xray_grow((void **)&f->durations, f->n, &f->cap, sizeof *f->durations)) return -1;
    f->durations[f->n++] = duration;
    f->sum += (double)duration;
    return 0;
}

static uint64_t acct_diff(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

static const char *const acct_type_names[] = {"enter", "exit", "tail-exit", "enter-arg", "custom-event",
                                              "typed-event"};

/* llvm-xray's report of a record it could not account: the record, then
   every thread's stack, innermost first. */
static void acct_report(acct *acc, const xray_trace_record *r)
{
    out_buf *e = acc->err;
    uint32_t k, pos = 0;
    size_t level;
    out_lit_u64(e, "Error processing record: {type: ", r->record_type);
    out_lit_u64(e, "; cpu: ", r->cpu);
    out_lit(e, "; record-type: ");
    out_str(e, acct_type_names[r->kind]);
    out_lit(e, "; function-id: ");
    out_i64(e, r->fid);
    out_lit_u64(e, "; tsc: ", r->tsc);
    out_lit_u64(e, "; thread-id: ", r->tid);
    out_lit_u64(e, "; process-id: ", r->pid);
    out_lit(e, "}}\n");
    while ((k = xray_keymap_next(&acc->threads.map, &pos)) != UINT32_MAX) {
        const acct_thread *t = (const acct_thread *)acc->threads.entries + k;
        out_lit_u64(e, "Thread ID: ", t->tid);
        out_char(e, '\n');
        if (t->depth == 0) out_lit(e, "  (empty stack)\n");
        for (level = t->depth; level > 0; level--) {
            out_lit_u64(e, "  #", level);
            out_char(e, '\t');
            acct_put_name(e, acc, t->stack[level - 1].fid);
            out_char(e, '\n');
        }
    }
}

/* fid's recursion status on thread t, NULL when out of memory. */
static acct_recursion *acct_recursion_get(acct_thread *t, int32_t fid)
{
    uint32_t k;
    if (t->recursion.elem == 0) {
        t->recursion.map.hash = xray_hash_int;
        t->recursion.elem = sizeof(acct_recursion);
    }
    k = acct_table_get(&t->recursion, (uint32_t)fid);
    return k == UINT32_MAX ? NULL : (acct_recursion *)t->recursion.entries + k;
}

/* Whether a call of fid ending now on thread t is counted: always, or with
   --recursive-calls-only when fid is recursive there. -1 out of memory. */
static int acct_counted(acct_thread *t, int32_t fid)
{
    acct_recursion *rs;
    if (!xray_opt.recursive_calls_only) return 1;
    if ((rs = acct_recursion_get(t, fid)) == NULL) return -1;
    return rs->recursive;
}

/* A frame of fid leaves t's stack (--recursive-calls-only). */
static inline void acct_leave(acct_thread *t, int32_t fid)
{
    acct_recursion *rs;
    if (!xray_opt.recursive_calls_only || (rs = acct_recursion_get(t, fid)) == NULL) return;
    if (--rs->depth == 0) rs->recursive = 0;
}

/* LLVM's accountRecord: 1 accounted, 0 refused, -1 out of memory. */
static int acct_account(acct *acc, const xray_trace_record *r)
{
    acct_thread *t;
    size_t i, j;
    int counted;
    if (acc->first_tsc == 0) acc->first_tsc = r->tsc;
    if (r->tsc < acc->first_tsc) return 0;
    if ((t = acct_thread_get(acc, r->tid)) == NULL) return -1;
    switch (r->kind) {
    case XRAY_CUSTOM_EVENT:
    case XRAY_TYPED_EVENT:
        return 1;
    case XRAY_ENTER:
    case XRAY_ENTER_ARG:
        if (t->depth == t->cap && !xray_grow((void **)&t->stack, t->depth, &t->cap, sizeof *t->stack)) return -1;
        t->stack[t->depth].fid = r->fid;
        t->stack[t->depth].tsc = r->tsc;
        t->depth++;
        if (xray_opt.recursive_calls_only) {
            acct_recursion *rs = acct_recursion_get(t, r->fid);
            if (rs == NULL) return -1;
            if (++rs->depth == 2) rs->recursive = 1;
        }
        return 1;
    default: /* XRAY_EXIT, XRAY_TAIL_EXIT */
        break;
    }
    if (t->depth == 0) return 0;
    if (t->stack[t->depth - 1].fid == r->fid) {
        t->depth--;
        if ((counted = acct_counted(t, r->fid)) < 0) return -1;
        if (counted && acct_record_latency(acc, r->fid, acct_diff(t->stack[t->depth].tsc, r->tsc)) != 0) return -1;
        acct_leave(t, r->fid);
        return 1;
    }
    if (!xray_opt.deduce_sibling_calls) return 0;
    /* --deduce-sibling-calls: the innermost frame of this function ends,
       and every frame above it ends with it, each timed to this exit */
    for (i = t->depth; i > 0 && t->stack[i - 1].fid != r->fid; i--) continue;
    if (i == 0) return 0;
    for (j = i - 1; j < t->depth; j++) {
        if ((counted = acct_counted(t, t->stack[j].fid)) < 0) return -1;
        if (counted && acct_record_latency(acc, t->stack[j].fid, acct_diff(t->stack[j].tsc, r->tsc)) != 0)
            return -1;
    }
    while (t->depth > i - 1) acct_leave(t, t->stack[--t->depth].fid);
    return 1;
}

static int acct_add(acct *acc, const xray_trace_record *r)
{
    int rc = acct_account(acc, r);
    if (rc == 0) acct_report(acc, r);
    return rc;
}

/* ---- statistics --------------------------------------------------------- */

typedef struct acct_row {
    int32_t  fid;
    uint64_t count;
    double   stat[6]; /* min, median, 90p, 99p, max, sum */
} acct_row;

/* Puts the k-th smallest of a[lo..hi] at a[k], the smaller ones before it
   and the larger ones after (std::nth_element's contract: llvm-xray reads
   its percentiles so). Hoare partitions around a median of three. */
static void acct_select(uint64_t *a, size_t lo, size_t hi, size_t k)
{
    while (lo < hi) {
        uint64_t x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi], pivot, tmp;
        size_t i = lo, j = hi;
        pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        for (;;) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i >= j) break;
            tmp = a[i];
            a[i++] = a[j];
            a[j--] = tmp;
        }
        /* a[lo..j] <= pivot <= a[j+1..hi] */
        if (k <= j) hi = j;
        else lo = j + 1;
    }
}

/* The median first, then each higher percentile among the durations above
   the previous one (they all sit there once it is in place), then the
   minimum below the median and the maximum from the 99th up. */
static void acct_stats(acct_func *f, acct_row *row)
{
    uint64_t *d = f->durations, min, max;
    size_t n = f->n, i;
    size_t k50 = n / 2, k90 = (size_t)((double)n * 0.9), k99 = (size_t)((double)n * 0.99);
    acct_select(d, 0, n - 1, k50);
    if (k90 > k50) acct_select(d, k50 + 1, n - 1, k90);
    if (k99 > k90) acct_select(d, k90 + 1, n - 1, k99);
    for (min = d[0], i = 1; i < k50; i++)
        if (d[i] < min) min = d[i];
    for (max = d[k99], i = k99 + 1; i < n; i++)
        if (d[i] > max) max = d[i];
    row->fid = f->fid;
    row->count = n;
    row->stat[0] = (double)min;
    row->stat[1] = (double)d[k50];
    row->stat[2] = (double)d[k90];
    row->stat[3] = (double)d[k99];
    row->stat[4] = (double)max;
    row->stat[5] = f->sum;
}

/* ---- the order of the rows ---------------------------------------------- */

/* llvm-xray sorts the rows with std::sort (libstdc++), which is not stable:
   rows whose keys are equal come out in the order its introsort leaves
   them. The functions below repeat that algorithm step for step so that
   such ties match: median-of-three quicksort down to runs of 16, heapsort
   past a depth of 2 log2(n), then one insertion sort. */
typedef struct acct_sorter {
    int              key; /* XRAY_SORT_*, not FUNC */
    int              descending;
} acct_sorter;

static int acct_less(const acct_sorter *s, const acct_row *l, const acct_row *r)
{
    double a, b;
    switch (s->key) {
    case XRAY_SORT_FUNCID:
        return s->descending ? l->fid > r->fid : l->fid < r->fid;
    case XRAY_SORT_COUNT:
        return s->descending ? l->count > r->count : l->count < r->count;
    default:
        a = l->stat[s->key - XRAY_SORT_MIN];
        b = r->stat[s->key - XRAY_SORT_MIN];
        return s->descending ? a > b : a < b;
    }
}

static void acct_swap(acct_row *a, acct_row *b)
{
    acct_row t = *a;
    *a = *b;
    *b = t;
}

/* The hole at `hole` sifts down to a leaf, then value rises from there
   (libstdc++'s __adjust_heap and __push_heap). */
static void acct_adjust_heap(const acct_sorter *s, acct_row *a, size_t hole, size_t len, acct_row value)
{
    size_t top = hole, child = hole, parent;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (acct_less(s, &a[child], &a[child - 1])) child--;
        a[hole] = a[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        a[hole] = a[child - 1];
        hole = child - 1;
    }
    parent = (hole - 1) / 2;
    while (hole > top && acct_less(s, &a[parent], &value)) {
        a[hole] = a[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    a[hole] = value;
}

static void acct_heap_sort(const acct_sorter *s, acct_row *a, size_t n)
{
    size_t parent, last;
    acct_row value;
    if (n < 2) return;
    for (parent = (n - 2) / 2;; parent--) {
        acct_adjust_heap(s, a, parent, n, a[parent]);
        if (parent == 0) break;
    }
    for (last = n - 1; last > 0; last--) {
        value = a[last];
        a[last] = a[0];
        acct_adjust_heap(s, a, 0, last, value);
    }
}

/* The median of a[1], a[mid], a[n-1] goes to a[0], then a Hoare partition
   of a[1..n) around it; returns where the upper part starts. */
static size_t acct_partition(const acct_sorter *s, acct_row *a, size_t n)
{
    size_t x = 1, y = n / 2, z = n - 1, first = 1, last = n;
    if (acct_less(s, &a[x], &a[y])) {
        if (acct_less(s, &a[y], &a[z])) acct_swap(&a[0], &a[y]);
        else if (acct_less(s, &a[x], &a[z])) acct_swap(&a[0], &a[z]);
        else acct_swap(&a[0], &a[x]);
    } else if (acct_less(s, &a[x], &a[z])) {
        acct_swap(&a[0], &a[x]);
    } else if (acct_less(s, &a[y], &a[z])) {
        acct_swap(&a[0], &a[z]);
    } else {
        acct_swap(&a[0], &a[y]);
    }
    for (;;) {
        while (acct_less(s, &a[first], &a[0])) first++;
        last--;
        while (acct_less(s, &a[0], &a[last])) last--;
        if (first >= last) return first;
        acct_swap(&a[first], &a[last]);
        first++;
    }
}

static void acct_introsort(const acct_sorter *s, acct_row *a, size_t n, unsigned depth)
{
    size_t cut;
    while (n > 16) {
        if (depth == 0) {
            acct_heap_sort(s, a, n);
            return;
        }
        depth--;
        cut = acct_partition(s, a, n);
        acct_introsort(s, a + cut, n - cut, depth);
        n = cut;
    }
}

/* a[i] moves left past the rows it sorts before; unguarded: some row at
   or left of a[0]'s place stops it (a[0] itself when it sorts before a[i]
   is handled by the caller). */
static void acct_insert(const acct_sorter *s, acct_row *a, size_t i)
{
    acct_row value = a[i];
    while (acct_less(s, &value, &a[i - 1])) {
        a[i] = a[i - 1];
        i--;
    }
    a[i] = value;
}

static void acct_sort(const acct_sorter *s, acct_row *a, size_t n)
{
    size_t i, lg = 0;
    acct_row value;
    if (n < 2) return;
    while ((n >> (lg + 1)) != 0) lg++;
    acct_introsort(s, a, n, (unsigned)(2 * lg));
    for (i = 1; i < n; i++) {
        if (i < 16 && acct_less(s, &a[i], &a[0])) {
            value = a[i];
            memmove(a + 1, a, i * sizeof *a);
            a[0] = value;
        } else {
            acct_insert(s, a, i);
        }
    }
}

/* ---- the table ---------------------------------------------------------- */

static int acct_print(acct *acc, uint64_t cycle_frequency, out_buf *out)
{
    acct_sorter sorter;
    acct_row *rows;
    char line[512]; /* six numbers of at most 48 characters */
    uint32_t k, i, n = 0, pos = 0, shown;
    int len;
    rows = malloc((acc->funcs.map.nkeys ? acc->funcs.map.nkeys : 1) * sizeof *rows);
    if (rows == NULL) return -1;
    /* the map's order, which --sort=func keeps: llvm-xray 14 never sorts by
       name (llvm_unreachable("Not implemented") falls through in its build) */
    while ((k = xray_keymap_next(&acc->funcs.map, &pos)) != UINT32_MAX) {
        acct_stats((acct_func *)acc->funcs.entries + k, &rows[n]);
        if (cycle_frequency)
            for (i = 0; i < 6; i++) rows[n].stat[i] /= (double)cycle_frequency;
        n++;
    }
    sorter.key = xray_opt.account_sort;
    sorter.descending = xray_opt.sort_descending;
    if (sorter.key != XRAY_SORT_FUNC) acct_sort(&sorter, rows, n);
    shown = xray_opt.top > 0 && (uint32_t)xray_opt.top < n ? (uint32_t)xray_opt.top : n;
    if (xray_opt.csv) {
        out_lit(out, "funcid,count,min,median,90%ile,99%ile,max,sum,debug,function\n");
    } else {
        out_lit_u64(out, "Functions with latencies: ", n);
        out_lit(out, "\n   funcid      count [      min,       med,       90p,       99p,       max]       sum"
                     "  function    \n");
    }
    for (k = 0; k < shown; k++) {
        const acct_row *r = &rows[k];
        if (xray_opt.csv)
            len = snprintf(line, sizeof line, "%d,%llu,%e,%e,%e,%e,%e,%e,\"", (int)r->fid,
                           (unsigned long long)r->count, r->stat[0], r->stat[1], r->stat[2], r->stat[3],
                           r->stat[4], r->stat[5]);
        else
            len = snprintf(line, sizeof line, "%9d %10llu [%9.6f, %9.6f, %9.6f, %9.6f, %9.6f] %9.6f  ", (int)r->fid,
                           (unsigned long long)r->count, r->stat[0], r->stat[1], r->stat[2], r->stat[3],
                           r->stat[4], r->stat[5]);
        out_mem(out, line, len > 0 && (size_t)len < sizeof line ? (size_t)len : 0);
        acct_put_debug(out, acc, r->fid);
        out_str(out, xray_opt.csv ? "\",\"" : ": ");
        acct_put_name(out, acc, r->fid);
        out_str(out, xray_opt.csv ? "\"\n" : "\n");
    }
    free(rows);
    return 0;
}

/* ---- the command ---------------------------------------------------------- */

int xray_account(const char *path, cli_reader *in, out_buf *out, out_buf *err)
{
    xray_instrmap *map = NULL;
    xray_trace *t = NULL;
    const xray_trace_record *r;
    acct *acc = NULL;
    int rc, added = 1;
    if (xray_opt.instr_map && (rc = xray_instrmap_load(xray_opt.instr_map, &map, err)) != 0) return rc;
    if (map) xray_instrmap_read_lines(map, xray_opt.instr_map);
    if ((rc = xray_trace_open(in, path, 0, &t, err)) != 0) goto done;
    rc = 1;
    if ((acc = acct_new(map, err)) == NULL) goto out_of_memory;
    while ((r = xray_trace_next(t)) != NULL) {
        added = acct_add(acc, r);
        if (added < 0) goto out_of_memory;
        if (added == 0 && !xray_opt.keep_going) break;
    }
    out_flush(err);
    if (added == 0 && !xray_opt.keep_going) {
        out_lit(err, "tracedec: Failed accounting function calls in file '");
        out_str(err, path);
        out_lit(err, "'.\n");
        goto done;
    }
    if (acct_print(acc, xray_trace_header(t)->cycle_frequency, out) != 0) goto out_of_memory;
    rc = xray_trace_status(t);
    goto done;
out_of_memory:
    cli_diag(err, "error", -1, "out of memory", NULL);
done:
    out_flush(out);
    out_flush(err);
    acct_free(acc);
    if (t) xray_trace_close(t);
    xray_instrmap_free(map);
    return rc;
}
