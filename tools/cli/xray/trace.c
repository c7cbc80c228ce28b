/* trace.c - an XRay log as llvm-xray 14 loads it; see trace.h. */
#define _DEFAULT_SOURCE /* madvise(MADV_DONTNEED) */
#include "tools/cli/xray/trace.h"

#include "tools/cli/xray/densemap.h"
#include "tools/cli/xray/notes.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* The log is mapped read-only and fed to the decoders in windows of the
   mapping, without copies: the first pass XT_WINDOW bytes at a time, a
   cursor XT_CHUNK bytes. Mapped pages count in the resident set: after
   XT_DROP bytes fed, every page of the mapping is let go (the page cache
   keeps them; a decoder still reading one faults it in again). */
#define XT_WINDOW (1u << 20)
#define XT_CHUNK  (16u * 1024u)
#define XT_DROP   (2u << 20)

/* One block: the records from a NewBuffer to the next one (LLVM's
   BlockIndexer), with what the second pass needs to decode it again. */
typedef struct xt_block {
    uint64_t frame;       /* where a decoder can start: its buffer's first byte */
    uint64_t start, end;  /* its records' offsets: [start, end)                 */
    uint64_t wall_sec;    /* its WallTime (the sort key), 0 when it has none    */
    uint32_t wall_usec;
    int32_t  pid, tid;    /* its group: the last Pid record's pid, NewBuffer's tid */
    uint32_t group;
    uint32_t run_lo, run_hi; /* its runs                                        */
    /* the expander state it leaves for the next block of its group (set_*:
       the block changes it), and the state it starts from (in_*) */
    int32_t  last_fid, in_fid;
    uint32_t last_pid, in_pid;
    uint16_t last_type, in_type;
    uint8_t  set_fid, set_pid, set_type;
} xt_block;

/* A stretch of a block whose records' TSCs do not decrease. */
typedef struct xt_run {
    uint64_t start; /* offset of its first record                            */
    uint64_t tsc;   /* that record's TSC                                     */
    uint32_t block;
    uint32_t seq;   /* its place in the unsorted record sequence             */
} xt_run;

typedef struct xt_group {
    int32_t  pid, tid;
    uint32_t count, first; /* its blocks: order[first .. first + count)     */
} xt_group;

/* Decodes a stretch of a block again from the file, as LLVM's
   TraceExpander turns its records into XRayRecords. */
typedef struct xt_cursor {
    tdec_xray_decoder d;
    tdec_xray_item    item;       /* the item being applied                 */
    int               have_saved; /* item read ahead, still to apply        */
    int               done;
    uint64_t          shift;      /* file offset = decoder offset + shift   */
    uint64_t          next_read;  /* file offset of the next window         */
    uint64_t          block_start, start, end;
    uint8_t           header_fed;
    /* the expander's state */
    int32_t           fid;
    uint32_t          pid, tid;
    uint16_t          type;
    int               ignoring;
    /* the record being built */
    int               building;
    uint64_t          rec_offset;
    xray_trace_record rec;
    uint64_t         *args;
    size_t            args_cap;
    uint8_t          *data;
    size_t            data_len, data_cap;
} xt_cursor;

/* A merge entry: a run, not started (c == NULL) or its cursor. */
typedef struct xt_heap_entry {
    uint64_t   tsc;
    uint32_t   seq, run;
    xt_cursor *c;
} xt_heap_entry;

struct xray_trace {
    const uint8_t   *file;        /* the log, mapped (NULL when empty)      */
    uint64_t         size;
    uint64_t         fed;         /* bytes fed since the pages were let go  */
    int              sort;
    int              status;
    tdec_xray_header hdr;
    xt_block        *blocks;
    size_t           nblocks, blocks_cap;
    xt_run          *runs;
    size_t           nruns, runs_cap;
    xt_group        *groups;
    size_t           ngroups, groups_cap;
    uint32_t        *order;       /* block indices: groups in map order, sorted */
    xray_keymap      map;         /* LLVM's DenseMap of the (pid, tid) groups */
    /* the second pass */
    size_t           next_block;  /* unsorted: position in order            */
    xt_cursor       *cur;         /* unsorted: the block being read;
                                     sorted: the cursor to advance first     */
    xt_heap_entry   *heap;
    size_t           nheap;
    xt_cursor       *spare;       /* a finished cursor, for reuse           */
};

/* ---- the groups: LLVM's DenseMap<std::pair<uint64_t, int32_t>, ...> ----- */

/* The group of (pid, tid), inserted as BlockIndexer's Indices.insert does
   (the pid is an int32 widened to uint64: its hash keeps the low 32 bits).
   UINT32_MAX: out of memory. */
static uint32_t xt_group_of(xray_trace *t, int32_t pid, int32_t tid)
{
    uint64_t key = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
    uint32_t g = xray_keymap_find(&t->map, key);
    if (g != UINT32_MAX) return g;
    if (!xray_grow((void **)&t->groups, t->ngroups, &t->groups_cap, sizeof *t->groups)) return UINT32_MAX;
    if ((g = xray_keymap_add(&t->map, key)) == UINT32_MAX) return g;
    t->ngroups++;
    t->groups[g].pid = pid;
    t->groups[g].tid = tid;
    t->groups[g].count = 0;
    t->groups[g].first = 0;
    return g;
}

/* ---- libstdc++'s std::sort, under LLVM's block comparator ----------------- */

/* LLVM sorts a thread's blocks with "seconds < seconds && micros < micros":
   not a strict weak order, so the result is whatever std::sort's steps
   make of it. These are libstdc++'s steps (introsort: median-of-three
   quicksort down to 16 elements, heapsort past 2*log2(n) levels, then an
   insertion sort). The bounds checks in the unguarded loops never fire
   where libstdc++'s own behaviour is defined. */
typedef struct xt_sorter {
    const xt_block *blocks;
    uint32_t       *a;
} xt_sorter;

static int xt_less(const xt_sorter *s, uint32_t x, uint32_t y)
{
    const xt_block *l = &s->blocks[x], *r = &s->blocks[y];
    return l->wall_sec < r->wall_sec && l->wall_usec < r->wall_usec;
}

static void xt_swap(uint32_t *a, size_t i, size_t j)
{
    uint32_t v = a[i];
    a[i] = a[j];
    a[j] = v;
}

static void xt_push_heap(xt_sorter *s, size_t first, size_t hole, size_t top, uint32_t value)
{
    size_t parent = (hole - 1) / 2;
    while (hole > top && xt_less(s, s->a[first + parent], value)) {
        s->a[first + hole] = s->a[first + parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    s->a[first + hole] = value;
}

static void xt_adjust_heap(xt_sorter *s, size_t first, size_t hole, size_t len, uint32_t value)
{
    size_t top = hole, child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (xt_less(s, s->a[first + child], s->a[first + child - 1])) child--;
        s->a[first + hole] = s->a[first + child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        s->a[first + hole] = s->a[first + child - 1];
        hole = child - 1;
    }
    xt_push_heap(s, first, hole, top, value);
}

static void xt_heap_sort(xt_sorter *s, size_t first, size_t last)
{
    size_t len = last - first, parent, end;
    uint32_t v;
    if (len < 2) return;
    for (parent = (len - 2) / 2;; parent--) {
        xt_adjust_heap(s, first, parent, len, s->a[first + parent]);
        if (parent == 0) break;
    }
    for (end = last; end - first > 1;) {
        end--;
        v = s->a[end];
        s->a[end] = s->a[first];
        xt_adjust_heap(s, first, 0, end - first, v);
    }
}

static void xt_median_to_first(xt_sorter *s, size_t result, size_t a, size_t b, size_t c)
{
    uint32_t *x = s->a;
    if (xt_less(s, x[a], x[b])) {
        if (xt_less(s, x[b], x[c])) xt_swap(x, result, b);
        else if (xt_less(s, x[a], x[c])) xt_swap(x, result, c);
        else xt_swap(x, result, a);
    } else if (xt_less(s, x[a], x[c])) {
        xt_swap(x, result, a);
    } else if (xt_less(s, x[b], x[c])) {
        xt_swap(x, result, c);
    } else {
        xt_swap(x, result, b);
    }
}

/* Partitions (first, last) around the pivot at `pivot`; returns the cut. */
static size_t xt_partition(xt_sorter *s, size_t first, size_t last, size_t pivot)
{
    uint32_t *x = s->a;
    for (;;) {
        while (first < last && xt_less(s, x[first], x[pivot])) first++;
        last--;
        while (last > pivot && xt_less(s, x[pivot], x[last])) last--;
        if (!(first < last)) return first;
        xt_swap(x, first, last);
        first++;
    }
}

static void xt_insertion_sort(xt_sorter *s, size_t first, size_t last, size_t guarded_to)
{
    uint32_t *x = s->a;
    size_t i, j;
    for (i = first + 1; i < last; i++) {
        uint32_t v = x[i];
        if (i < guarded_to && xt_less(s, v, x[first])) {
            memmove(x + first + 1, x + first, (i - first) * sizeof *x);
            x[first] = v;
            continue;
        }
        for (j = i; j > first && xt_less(s, v, x[j - 1]); j--) x[j] = x[j - 1];
        x[j] = v;
    }
}

static void xt_sort(const xt_block *blocks, uint32_t *a, size_t n)
{
    xt_sorter s;
    size_t first = 0, last = n, depth = 0, k, cut;
    size_t stack_lo[64], stack_hi[64], stack_depth[64], sp = 0;
    s.blocks = blocks;
    s.a = a;
    if (n < 2) return;
    for (k = n; k > 1; k >>= 1) depth += 2; /* 2 * floor(log2 n) */
    /* introsort: the right part of each cut is sorted first (libstdc++
       recurses on it and loops on the left part), here with a stack */
    for (;;) {
        while (last - first > 16) {
            if (depth == 0) {
                xt_heap_sort(&s, first, last);
                break;
            }
            depth--;
            xt_median_to_first(&s, first, first + 1, first + (last - first) / 2, last - 1);
            cut = xt_partition(&s, first + 1, last, first);
            stack_lo[sp] = first;
            stack_hi[sp] = cut;
            stack_depth[sp] = depth;
            sp++;
            first = cut;
        }
        if (sp == 0) break;
        sp--;
        first = stack_lo[sp];
        last = stack_hi[sp];
        depth = stack_depth[sp];
    }
    /* the final insertion sort: guarded over the first 16, unguarded after */
    xt_insertion_sort(&s, 0, n, n > 16 ? 16 : n);
}

/* ---- the first pass --------------------------------------------------------- */

typedef struct xt_indexer {
    xray_trace *t;
    int         open;         /* a block is being indexed                 */
    int         ignoring;     /* after an EndOfBuffer                     */
    uint64_t    frame;        /* start of the current buffer              */
    uint64_t    last_tsc;     /* of the block's last record               */
    int         has_record;   /* the block has a record (a run is open)   */
} xt_indexer;

static xt_block *xt_cur_block(xt_indexer *x)
{
    return &x->t->blocks[x->t->nblocks - 1];
}

static int xt_block_open(xt_indexer *x, uint64_t offset, int32_t tid)
{
    xray_trace *t = x->t;
    xt_block *b;
    if (!xray_grow((void **)&t->blocks, t->nblocks, &t->blocks_cap, sizeof *t->blocks)) return 0;
    b = &t->blocks[t->nblocks++];
    memset(b, 0, sizeof *b);
    b->frame = x->frame;
    b->start = offset;
    b->tid = tid;
    b->run_lo = b->run_hi = (uint32_t)t->nruns;
    if (t->hdr.file_type == TDEC_XRAY_FDR && t->hdr.version == 2) {
        b->set_pid = 1; /* the v2 expander takes the tid as pid */
        b->last_pid = (uint32_t)tid;
    }
    x->open = 1;
    x->ignoring = 0;
    x->has_record = 0;
    return 1;
}

/* BlockIndexer::flush: the block joins its (pid, tid) group. */
static int xt_block_close(xt_indexer *x, uint64_t end)
{
    xt_block *b;
    if (!x->open) return 1;
    b = xt_cur_block(x);
    b->end = end;
    b->group = xt_group_of(x->t, b->pid, b->tid);
    x->open = 0;
    return b->group != UINT32_MAX;
}

/* A record that becomes an XRayRecord: a new run when its TSC goes back. */
static int xt_index_record(xt_indexer *x, uint64_t offset, uint64_t tsc)
{
    xray_trace *t = x->t;
    xt_block *b = xt_cur_block(x);
    xt_run *r;
    if (x->has_record && tsc >= x->last_tsc) {
        x->last_tsc = tsc;
        return 1;
    }
    if (!xray_grow((void **)&t->runs, t->nruns, &t->runs_cap, sizeof *t->runs)) return 0;
    r = &t->runs[t->nruns++];
    r->start = offset;
    r->tsc = tsc;
    r->block = (uint32_t)(t->nblocks - 1);
    r->seq = 0;
    b->run_hi = (uint32_t)t->nruns;
    x->has_record = 1;
    x->last_tsc = tsc;
    return 1;
}

/* A function record that becomes an XRayRecord, its block open. */
static int xt_index_function(xt_indexer *x, uint64_t offset, uint32_t fid, uint64_t tsc)
{
    xt_block *b = xt_cur_block(x);
    b->set_fid = 1;
    b->last_fid = (int32_t)fid;
    return xt_index_record(x, offset, tsc);
}

/* One item of the first pass; 0 when out of memory. */
static int xt_index_item(xt_indexer *x, const tdec_xray_item *it)
{
    xray_trace *t = x->t;
    const tdec_xray_record *r = &it->u.rec;
    xt_block *b;
    if (it->kind != TDEC_ITEM_RECORD) return 1;
    switch (r->type) {
    case TDEC_XRAY_REC_BUFFER_EXTENTS:
        x->frame = it->offset;
        return 1;
    case TDEC_XRAY_REC_PADDING:
    case TDEC_XRAY_REC_UNKNOWN:
        return 1;
    case TDEC_XRAY_REC_NEW_BUFFER:
        if (t->hdr.version == 1) /* v1 buffers are framed by the header's size */
            x->frame = 32 + (it->offset - 32) / t->hdr.buffer_size * t->hdr.buffer_size;
        return xt_block_close(x, it->offset) && xt_block_open(x, it->offset, (int32_t)r->tid);
    default:
        break;
    }
    if (!x->open && !xt_block_open(x, it->offset, 0)) return 0;
    b = xt_cur_block(x);
    switch (r->type) {
    case TDEC_XRAY_REC_WALLTIME:
        b->wall_sec = (uint64_t)r->wall_sec;
        b->wall_usec = r->wall_usec;
        return 1;
    case TDEC_XRAY_REC_PID:
        b->pid = (int32_t)r->pid;
        b->set_pid = 1;
        b->last_pid = r->pid;
        return 1;
    case TDEC_XRAY_REC_END_OF_BUFFER:
        x->ignoring = 1;
        return 1;
    case TDEC_XRAY_REC_FUNCTION:
        if (x->ignoring || r->action > TDEC_XRAY_ENTER_ARGS) return 1;
        return xt_index_function(x, it->offset, r->fid, r->tsc);
    case TDEC_XRAY_REC_TYPED_EVENT:
        if (x->ignoring) return 1;
        b->set_type = 1;
        b->last_type = r->event_type;
        return xt_index_record(x, it->offset, r->tsc);
    case TDEC_XRAY_REC_CUSTOM_EVENT:
        if (x->ignoring) return 1;
        return xt_index_record(x, it->offset, r->tsc);
    default:
        return 1;
    }
}

/* Basic logs: one block of the whole file, in file order. */
static int xt_index_basic(xt_indexer *x, const tdec_xray_item *it)
{
    const tdec_xray_record *r = &it->u.rec;
    if (it->kind != TDEC_ITEM_RECORD || r->type != TDEC_XRAY_REC_FUNCTION || r->action > TDEC_XRAY_ENTER_ARGS)
        return 1;
    if (!x->open && !xt_block_open(x, it->offset, 0)) return 0;
    return xt_index_record(x, it->offset, r->tsc);
}

/* After the first pass: the groups' blocks in LLVM's order, each block's
   starting expander state, and each run's place in the sequence. */
static int xt_arrange(xray_trace *t)
{
    size_t i, k;
    uint32_t g, it, seq = 0, pos = 0;
    t->order = malloc((t->nblocks ? t->nblocks : 1) * sizeof *t->order);
    if (!t->order) return 0;
    if (t->hdr.file_type == TDEC_XRAY_BASIC) {
        for (i = 0; i < t->nblocks; i++) t->order[i] = (uint32_t)i;
    } else {
        for (i = 0; i < t->nblocks; i++) t->groups[t->blocks[i].group].count++;
        /* groups in the map's order */
        for (it = 0; (g = xray_keymap_next(&t->map, &it)) != UINT32_MAX;) {
            t->groups[g].first = pos;
            pos += t->groups[g].count;
            t->groups[g].count = 0;
        }
        for (i = 0; i < t->nblocks; i++) {
            xt_group *gr = &t->groups[t->blocks[i].group];
            t->order[gr->first + gr->count++] = (uint32_t)i;
        }
        for (g = 0; g < t->ngroups; g++) {
            const xt_group *gr = &t->groups[g];
            int32_t fid = 0;
            uint32_t pid = 0;
            uint16_t type = 0;
            xt_sort(t->blocks, t->order + gr->first, gr->count);
            for (k = 0; k < gr->count; k++) {
                xt_block *b = &t->blocks[t->order[gr->first + k]];
                b->in_fid = fid;
                b->in_pid = pid;
                b->in_type = type;
                if (b->set_fid) fid = b->last_fid;
                if (b->set_pid) pid = b->last_pid;
                if (b->set_type) type = b->last_type;
            }
        }
    }
    for (i = 0; i < t->nblocks; i++) {
        const xt_block *b = &t->blocks[t->order[i]];
        for (k = b->run_lo; k < b->run_hi; k++) t->runs[k].seq = seq++;
    }
    return 1;
}

/* ---- the second pass: cursors ------------------------------------------- */

static void xt_cursor_start(xray_trace *t, xt_cursor *c, const xt_block *b, uint64_t start, uint64_t end)
{
    tdec_xray_config cfg;
    memset(&cfg, 0, sizeof cfg);
    tdec_xray_init(&c->d, &cfg);
    c->have_saved = 0;
    c->done = 0;
    /* a basic log's records are independent: start at the run */
    c->next_read = t->hdr.file_type == TDEC_XRAY_BASIC ? start : b->frame;
    c->shift = c->next_read - 32;
    c->block_start = t->hdr.file_type == TDEC_XRAY_BASIC ? start : b->start;
    c->start = start;
    c->end = end;
    c->header_fed = 0;
    c->fid = b->in_fid;
    c->pid = b->in_pid;
    c->tid = (uint32_t)b->tid;
    c->type = b->in_type;
    c->ignoring = 0;
    c->building = 0;
    c->data_len = 0;
}

static xt_cursor *xt_cursor_new(xray_trace *t)
{
    xt_cursor *c = t->spare;
    if (c) {
        t->spare = NULL;
        return c;
    }
    c = calloc(1, sizeof *c);
    return c;
}

static void xt_cursor_free(xt_cursor *c)
{
    if (!c) return;
    free(c->args);
    free(c->data);
    free(c);
}

static void xt_cursor_release(xray_trace *t, xt_cursor *c)
{
    if (!t->spare) t->spare = c;
    else xt_cursor_free(c);
}

/* n more bytes of the mapping are about to be read. */
static void xt_touch(xray_trace *t, uint64_t n)
{
    t->fed += n;
    if (t->fed > XT_DROP) {
        madvise((void *)(uintptr_t)t->file, (size_t)t->size, MADV_DONTNEED);
        t->fed = n;
    }
}

/* The window of the mapping at offset, up to `max` bytes: its length. */
static size_t xt_window(xray_trace *t, uint64_t offset, size_t max)
{
    uint64_t left = offset < t->size ? t->size - offset : 0;
    size_t n = left < max ? (size_t)left : max;
    xt_touch(t, n);
    return n;
}

/* The next item of the cursor's decoder: 1, or 0 at its end (an error
   included: the first pass reported it). */
static int xt_cursor_item(xray_trace *t, xt_cursor *c, tdec_xray_item *it)
{
    tdec_status st;
    size_t n;
    for (;;) {
        st = tdec_xray_next(&c->d, it);
        if (st == TDEC_OK) {
            it->offset += c->shift;
            return 1;
        }
        if (st != TDEC_NEED_INPUT) return 0;
        if (!c->header_fed) {
            c->header_fed = 1;
            st = tdec_xray_feed(&c->d, t->file, 32);
        } else {
            n = xt_window(t, c->next_read, XT_CHUNK);
            st = n ? tdec_xray_feed(&c->d, t->file + c->next_read, n) : tdec_xray_finish(&c->d);
            c->next_read += n;
        }
        if (st < 0) return 0;
    }
}

static int xt_append(void *pp, size_t *cap, size_t len, const void *src, size_t n, size_t size)
{
    void **p = (void **)pp;
    size_t c = *cap;
    void *q;
    if (len + n > c) {
        while (len + n > c) c = c ? c * 2 : 64;
        q = realloc(*p, c * size);
        if (!q) return 0;
        *p = q;
        *cap = c;
    }
    memcpy((char *)*p + len * size, src, n * size);
    return 1;
}

/* Applies one item to the expander state. Returns 1 when it completed the
   record being built (the item is saved for the next call), else 0. */
static int xt_cursor_apply(xray_trace *t, xt_cursor *c, const tdec_xray_item *it)
{
    const tdec_xray_record *r = &it->u.rec;
    if (it->kind == TDEC_ITEM_FRAGMENT) {
        if (!c->building) return 0;
        if (xt_append(&c->data, &c->data_cap, c->data_len, it->u.frag.data, it->u.frag.len, 1))
            c->data_len += it->u.frag.len;
        else t->status = 1;
        return 0;
    }
    if (it->kind != TDEC_ITEM_RECORD) return 0;
    switch (r->type) {
    case TDEC_XRAY_REC_FUNCTION:
    case TDEC_XRAY_REC_CUSTOM_EVENT:
    case TDEC_XRAY_REC_TYPED_EVENT:
    case TDEC_XRAY_REC_END_OF_BUFFER:
        if (c->building) { /* resetCurrentRecord */
            c->building = 0;
            if (c->rec_offset >= c->start) {
                c->have_saved = 1; /* it is c->item */
                return 1;
            }
        }
        c->rec.nargs = 0;
        c->data_len = 0;
        break;
    case TDEC_XRAY_REC_CALL_ARG:
        if (t->hdr.file_type == TDEC_XRAY_BASIC && (r->flags & TDEC_XRAY_RF_NO_CALL)) return 0;
        if (!xt_append(&c->args, &c->args_cap, c->rec.nargs, &r->value, 1, sizeof r->value)) t->status = 1;
        else c->rec.nargs++;
        c->rec.kind = XRAY_ENTER_ARG;
        return 0;
    case TDEC_XRAY_REC_NEW_BUFFER:
        c->ignoring = 0;
        c->tid = r->tid;
        if (t->hdr.version == 2) c->pid = r->tid;
        return 0;
    case TDEC_XRAY_REC_PID:
        c->pid = r->pid;
        return 0;
    default:
        return 0;
    }
    if (r->type == TDEC_XRAY_REC_END_OF_BUFFER) {
        c->ignoring = 1;
        return 0;
    }
    if (c->ignoring || (r->type == TDEC_XRAY_REC_FUNCTION && r->action > TDEC_XRAY_ENTER_ARGS)) return 0;
    c->building = 1;
    c->rec_offset = it->offset;
    c->rec.tsc = r->tsc;
    c->rec.cpu = (uint16_t)r->cpu;
    if (t->hdr.file_type == TDEC_XRAY_BASIC) {
        c->rec.pid = r->pid;
        c->rec.tid = r->tid;
        c->rec.kind = (uint8_t)r->action;
        c->rec.fid = (int32_t)r->fid;
        c->rec.record_type = 0;
        return 0;
    }
    c->rec.pid = c->pid;
    c->rec.tid = c->tid;
    if (r->type == TDEC_XRAY_REC_FUNCTION) {
        c->rec.kind = (uint8_t)r->action;
        c->fid = (int32_t)r->fid;
    } else if (r->type == TDEC_XRAY_REC_CUSTOM_EVENT) {
        c->rec.kind = XRAY_CUSTOM_EVENT;
        if (t->hdr.version < 4) c->rec.cpu = 0; /* v1-v3 markers have no CPU */
    } else {
        c->rec.kind = XRAY_TYPED_EVENT;
        c->type = r->event_type;
    }
    c->rec.fid = c->fid;
    c->rec.record_type = c->type;
    return 0;
}

/* The record built, with its arguments and payload. */
static const xray_trace_record *xt_cursor_record(xt_cursor *c)
{
    c->rec.args = c->args;
    c->rec.data = c->data;
    c->rec.data_len = c->data_len;
    return &c->rec;
}

/* The cursor's next record (valid until the next call), or NULL at the end
   of its stretch. */
static const xray_trace_record *xt_cursor_next(xray_trace *t, xt_cursor *c)
{
    const tdec_xray_item *it = &c->item;
    for (;;) {
        if (c->have_saved) {
            c->have_saved = 0;
        } else if (c->done || !xt_cursor_item(t, c, &c->item)) {
            c->done = 1;
            break;
        }
        if (it->kind != TDEC_ITEM_FRAGMENT && it->offset < c->block_start) continue;
        if (it->kind != TDEC_ITEM_FRAGMENT && it->offset >= c->end) {
            c->done = 1;
            break;
        }
        if (xt_cursor_apply(t, c, it)) return xt_cursor_record(c);
    }
    if (c->building && c->rec_offset >= c->start) {
        c->building = 0;
        return xt_cursor_record(c);
    }
    return NULL;
}

/* ---- the first pass over a clean log: a scan by record sizes -------------- */

/* Most logs are FDR v2+ buffers of well-formed records. The scan indexes
   those from their bytes alone, without the decoder (which fills a whole
   item per record), and gives up at the first thing the decoder would
   report: a note (unknown action or metadata kind, EndOfBuffer, zero-size
   event), a gap (a record or event past its buffer's end, no BufferExtents
   where a buffer starts), a cut record or buffer. The decoder then indexes
   the log from the start, so both give the same index. The environment
   variable TRACEDEC_XRAY_INDEX=decoder turns the scan off (the tests
   compare the two). */
enum { XT_NEW_BUFFER, XT_END_OF_BUFFER, XT_NEW_CPU, XT_TSC_WRAP, XT_WALLTIME, XT_CUSTOM, XT_CALL_ARG,
       XT_EXTENTS, XT_TYPED, XT_PID }; /* FDR metadata kinds (byte 0 >> 1) */

static uint32_t xt_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t xt_u64(const uint8_t *p)
{
    return xt_u32(p) | (uint64_t)xt_u32(p + 4) << 32;
}

/* One 16-byte metadata record at p, `room` bytes before its buffer's end
   (16 or more), into *r and *tsc (the delta base), its event payload's size
   into *payload: 1, or 0 when the scan gives up on it. */
static int xt_scan_meta(const xray_trace *t, const uint8_t *p, uint64_t room, tdec_xray_record *r,
                        uint64_t *tsc, uint64_t *payload)
{
    int32_t size;
    *payload = 0;
    switch (p[0] >> 1) {
    case XT_NEW_BUFFER:
        r->type = TDEC_XRAY_REC_NEW_BUFFER;
        r->tid = xt_u32(p + 1);
        *tsc = 0;
        return 1;
    case XT_NEW_CPU:
        r->type = TDEC_XRAY_REC_NEW_CPU;
        *tsc = xt_u64(p + 3);
        return 1;
    case XT_TSC_WRAP:
        r->type = TDEC_XRAY_REC_TSC_WRAP;
        *tsc = xt_u64(p + 1);
        return 1;
    case XT_WALLTIME:
        r->type = TDEC_XRAY_REC_WALLTIME;
        r->wall_sec = (int64_t)xt_u64(p + 1);
        r->wall_usec = xt_u32(p + 9);
        return 1;
    case XT_CUSTOM: /* v5: a TSC delta; v2-v4: an absolute TSC, the base stays */
        r->type = TDEC_XRAY_REC_CUSTOM_EVENT;
        size = (int32_t)xt_u32(p + 1);
        if (t->hdr.version >= 5) r->tsc = *tsc += (uint64_t)(int64_t)(int32_t)xt_u32(p + 5);
        else r->tsc = xt_u64(p + 5);
        break;
    case XT_CALL_ARG:
        r->type = TDEC_XRAY_REC_CALL_ARG;
        return 1;
    case XT_TYPED:
        r->type = TDEC_XRAY_REC_TYPED_EVENT;
        size = (int32_t)xt_u32(p + 1);
        r->tsc = *tsc += (uint64_t)(int64_t)(int32_t)xt_u32(p + 5);
        r->event_type = (uint16_t)(p[9] | p[10] << 8);
        break;
    case XT_PID:
        r->type = TDEC_XRAY_REC_PID;
        r->pid = xt_u32(p + 1);
        return 1;
    default: /* EndOfBuffer, BufferExtents inside a buffer, unknown kinds */
        return 0;
    }
    /* an event: zero-size (a note) or past its buffer's end (a gap) */
    if (size <= 0 || (uint64_t)size > room - 16) return 0;
    *payload = (uint64_t)size;
    return 1;
}

/* Returns 1 when the log is indexed, 0 when the decoder must index it, -1
   when out of memory. */
static int xt_scan(xray_trace *t, xt_indexer *x)
{
    const uint8_t *f = t->file;
    uint64_t pos = 32, end, tsc, size = t->size, payload, touched = 0; /* xt_touch'ed up to */
    tdec_xray_item it;
    tdec_xray_record *r = &it.u.rec;
    const char *env = getenv("TRACEDEC_XRAY_INDEX");
    if (t->hdr.file_type != TDEC_XRAY_FDR || t->hdr.version < 2 || (env && strcmp(env, "decoder") == 0)) return 0;
    memset(&it, 0, sizeof it);
    it.kind = TDEC_ITEM_RECORD;
    while (pos < size) {
        if (pos + 16 > touched) {
            xt_touch(t, XT_CHUNK);
            touched = pos + XT_CHUNK;
        }
        if (size - pos < 16 || f[pos] != (XT_EXTENTS << 1 | 1) || xt_u64(f + pos + 1) > size - pos - 16) return 0;
        end = pos + 16 + xt_u64(f + pos + 1);
        r->type = TDEC_XRAY_REC_BUFFER_EXTENTS;
        it.offset = pos;
        if (!xt_index_item(x, &it)) return -1;
        pos += 16;
        tsc = 0;
        while (pos < end) {
            const uint8_t *p = f + pos;
            if (pos + 16 > touched) {
                xt_touch(t, XT_CHUNK);
                touched = pos + XT_CHUNK;
            }
            if ((p[0] & 1) == 0) { /* as xt_index_item takes it, without the item */
                uint32_t w = xt_u32(p);
                if (end - pos < 8 || ((w >> 1) & 7) > TDEC_XRAY_ENTER_ARGS) return 0;
                tsc += xt_u32(p + 4);
                if ((!x->open && !xt_block_open(x, pos, 0)) || !xt_index_function(x, pos, w >> 4, tsc)) return -1;
                pos += 8;
                continue;
            }
            it.offset = pos;
            if (end - pos < 16 || !xt_scan_meta(t, p, end - pos, r, &tsc, &payload)) return 0;
            pos += 16 + payload;
            if (!xt_index_item(x, &it)) return -1;
        }
    }
    return xt_block_close(x, size) ? 1 : -1;
}

/* Forgets what a scan that gave up indexed. */
static void xt_index_reset(xray_trace *t, xt_indexer *x)
{
    t->nblocks = t->nruns = t->ngroups = 0;
    xray_keymap_free(&t->map);
    memset(x, 0, sizeof *x);
    x->t = t;
    x->frame = 32;
}

/* ---- the first pass: reading and notes ----------------------------------- */

static int xt_index(xray_trace *t, out_buf *err)
{
    xt_indexer x;
    xray_notes notes;
    tdec_xray_decoder d;
    tdec_xray_item it;
    tdec_status st;
    uint64_t records = 0, pad_offset = 0, pad_size = 0, pad_seen = 0, pos = 0;
    int pad_nonzero = 0, in_pad = 0;
    size_t n, i;
    memset(&notes, 0, sizeof notes);
    xt_index_reset(t, &x);
    if (tdec_xray_parse_header(t->file, (size_t)t->size, &t->hdr, NULL) == TDEC_OK) {
        int scanned = xt_scan(t, &x);
        if (scanned < 0) goto oom;
        if (scanned) goto arrange;
        xt_index_reset(t, &x);
    }
    notes.err = err;
    st = tdec_xray_init(&d, NULL);
    while (st >= 0) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind == TDEC_ITEM_GAP) {
                xray_notes_gap(&notes, &it);
                continue;
            }
            if (it.kind == TDEC_ITEM_FRAGMENT) { /* a v1 buffer tail: what llvm-xray makes of it */
                if (!in_pad) continue;
                pad_seen += it.u.frag.len;
                for (i = 0; i < it.u.frag.len && !pad_nonzero; i++) pad_nonzero = it.u.frag.data[i] != 0;
                if (it.u.frag.flags & TDEC_FRAG_LAST) {
                    xray_notes_padding(&notes, pad_offset, pad_size, pad_seen, pad_nonzero);
                    in_pad = 0;
                }
                continue;
            }
            if (it.u.rec.type == TDEC_XRAY_REC_HEADER) {
                t->hdr = notes.hdr = d.hdr;
                continue;
            }
            records++;
            xray_notes_record(&notes, &it.u.rec, it.offset);
            if (it.u.rec.type == TDEC_XRAY_REC_PADDING && it.u.rec.payload_size > 0) {
                in_pad = 1;
                pad_offset = it.offset;
                pad_size = it.u.rec.payload_size;
                pad_seen = 0;
                pad_nonzero = 0;
            }
            if (!(t->hdr.file_type == TDEC_XRAY_BASIC ? xt_index_basic(&x, &it) : xt_index_item(&x, &it)))
                goto oom;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = xt_window(t, pos, XT_WINDOW);
        st = n ? tdec_xray_feed(&d, t->file + pos, n) : tdec_xray_finish(&d);
        pos += n;
    }
    if (st == TDEC_E_FORMAT || st == TDEC_E_VERSION || (st < 0 && d.st.err_offset < 32)) {
        cli_diag(err, "error", (int64_t)d.st.err_offset, tdec_status_str(st), tdec_xray_reason_str(d.st.err_reason));
        return 1;
    }
    if (in_pad) xray_notes_padding(&notes, pad_offset, pad_size, pad_seen, pad_nonzero);
    if (st == TDEC_END && t->hdr.file_type == TDEC_XRAY_BASIC && records == 0) xray_notes_basic_empty(&notes, d.st.pos);
    if (!xt_block_close(&x, st < 0 ? d.st.err_offset : d.st.pos)) goto oom;
    if (st < 0) {
        cli_diag(err, "error", (int64_t)d.st.err_offset, tdec_status_str(st), tdec_xray_reason_str(d.st.err_reason));
        t->status = 1;
    }
arrange:
    if (!xt_arrange(t)) goto oom;
    return 0;
oom:
    cli_diag(err, "error", -1, "out of memory", NULL);
    return 1;
}

/* ---- the merge: a heap of runs by (TSC, place in the sequence) ------------ */

static int xt_heap_before(const xt_heap_entry *a, const xt_heap_entry *b)
{
    return a->tsc < b->tsc || (a->tsc == b->tsc && a->seq < b->seq);
}

static void xt_heap_sift_down(xray_trace *t, size_t i)
{
    xt_heap_entry *h = t->heap, v = h[i];
    size_t n = t->nheap, c;
    while ((c = 2 * i + 1) < n) {
        if (c + 1 < n && xt_heap_before(&h[c + 1], &h[c])) c++;
        if (!xt_heap_before(&h[c], &v)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

static int xt_merge_start(xray_trace *t)
{
    size_t i;
    t->heap = malloc((t->nruns ? t->nruns : 1) * sizeof *t->heap);
    if (!t->heap) return 0;
    for (i = 0; i < t->nruns; i++) {
        t->heap[i].tsc = t->runs[i].tsc;
        t->heap[i].seq = t->runs[i].seq;
        t->heap[i].run = (uint32_t)i;
        t->heap[i].c = NULL;
    }
    t->nheap = t->nruns;
    for (i = t->nheap / 2; i-- > 0;) xt_heap_sift_down(t, i);
    return 1;
}

/* The stretch of run i: to the next run of its block, or the block's end. */
static void xt_run_start(xray_trace *t, xt_cursor *c, uint32_t i)
{
    const xt_run *r = &t->runs[i];
    const xt_block *b = &t->blocks[r->block];
    xt_cursor_start(t, c, b, r->start, i + 1 < b->run_hi ? t->runs[i + 1].start : b->end);
}

static const xray_trace_record *xt_merge_next(xray_trace *t)
{
    xt_heap_entry *top;
    /* the cursor of the last record moves on first: its record was valid
       until now */
    if (t->cur) {
        xt_cursor *c = t->cur;
        t->cur = NULL;
        if (xt_cursor_next(t, c)) {
            t->heap[0].tsc = c->rec.tsc;
            t->heap[0].c = c;
        } else {
            xt_cursor_release(t, c);
            t->heap[0] = t->heap[--t->nheap];
        }
        if (t->nheap > 0) xt_heap_sift_down(t, 0);
    }
    while (t->nheap > 0) {
        top = &t->heap[0];
        if (!top->c) {
            xt_cursor *c = xt_cursor_new(t);
            if (!c) {
                t->status = 1;
                return NULL;
            }
            xt_run_start(t, c, top->run);
            if (!xt_cursor_next(t, c)) { /* cannot happen on an unchanged file */
                xt_cursor_release(t, c);
                t->heap[0] = t->heap[--t->nheap];
                if (t->nheap > 0) xt_heap_sift_down(t, 0);
                continue;
            }
            top->c = c;
            if (c->rec.tsc != top->tsc) { /* likewise: keep the heap honest */
                top->tsc = c->rec.tsc;
                xt_heap_sift_down(t, 0);
                continue;
            }
        }
        t->cur = top->c;
        return &top->c->rec;
    }
    return NULL;
}

/* ---- the API --------------------------------------------------------------- */

int xray_trace_open(cli_reader *in, const char *path, int sort, xray_trace **tp, out_buf *err)
{
    xray_trace *t;
    struct stat sb;
    void *file = NULL;
    *tp = NULL;
    if (fstat(in->fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        cli_diag(err, "error", -1, "not a regular file (this command reads the log twice)", path);
        return 1;
    }
    t = calloc(1, sizeof *t);
    if (!t) {
        cli_diag(err, "error", -1, "out of memory", NULL);
        return 1;
    }
    t->map.hash = xray_hash_pair;
    t->sort = sort;
    if (sb.st_size > 0 && (file = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, in->fd, 0)) == MAP_FAILED) {
        cli_diag(err, "error", -1, "cannot map the file", path);
        free(t);
        return 1;
    }
    t->file = file;
    t->size = (uint64_t)sb.st_size;
    if (xt_index(t, err) != 0 || (sort && !xt_merge_start(t))) {
        xray_trace_close(t);
        return 1;
    }
    *tp = t;
    return 0;
}

const tdec_xray_header *xray_trace_header(const xray_trace *t)
{
    return &t->hdr;
}

const xray_trace_record *xray_trace_next(xray_trace *t)
{
    const xray_trace_record *r;
    if (t->sort) return xt_merge_next(t);
    for (;;) {
        if (t->cur && (r = xt_cursor_next(t, t->cur)) != NULL) return r;
        if (t->next_block >= t->nblocks) return NULL;
        if (!t->cur && !(t->cur = xt_cursor_new(t))) {
            t->status = 1;
            return NULL;
        }
        {
            const xt_block *b = &t->blocks[t->order[t->next_block++]];
            if (b->run_lo == b->run_hi) continue;
            xt_cursor_start(t, t->cur, b, t->runs[b->run_lo].start, b->end);
        }
    }
}

int xray_trace_status(const xray_trace *t)
{
    return t->status;
}

void xray_trace_close(xray_trace *t)
{
    size_t i;
    if (!t) return;
    for (i = 0; i < t->nheap; i++) xt_cursor_free(t->heap[i].c);
    if (!t->sort || !t->cur) xt_cursor_free(t->cur);
    xt_cursor_free(t->spare);
    free(t->heap);
    free(t->blocks);
    free(t->runs);
    free(t->groups);
    free(t->order);
    xray_keymap_free(&t->map);
    if (t->file) munmap((void *)(uintptr_t)t->file, (size_t)t->size);
    free(t);
}
