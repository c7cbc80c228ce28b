/* dump.c - `tracedec dump DIR` for uftrace data directories.

   dump: what `uftrace dump` (0.13, raw mode) prints for a data directory:
   the info header, then every <tid>.dat in taskinfo order with symbol
   names, argument/return values and event data, then every perf-cpuN.dat.
   Each file is read in CLI_CHUNK pieces through the streaming decoders
   (read.h, shared with `tracedec replay`). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <string.h>

/* The end of a record line, "name(addr) depth: D\n", kept for reuse. */
typedef struct uft_tail {
    const uft_sym *sym;
    uint64_t       addr;
    uint32_t       depth, len;
    char           text[104];
} uft_tail;

typedef struct uft_printer {
    uft_dir        *dir;
    const uft_task *task;
    int32_t         tid;
    out_buf        *out;
    uint64_t        prev_time;
    char            tid_col[24]; /* "%5d: [" of tid */
    size_t          tid_col_len;
    uft_tail        tails[8];    /* by address */
    uint64_t        time_key;    /* time / 10000 of time_text, "S.NNNNN"  */
    char            time_text[24];
    size_t          time_len;
} uft_printer;

static void uft_pr_time(out_buf *o, uint64_t t)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%u.%09u  ", (unsigned)(t / 1000000000u), (unsigned)(t % 1000000000u));
    out_str(o, buf);
}

static const char *uft_type_name(uint32_t type)
{
    static const char *const names[] = {"entry", "exit ", "lost ", "event"};
    return type <= TDEC_UFTRACE_REC_EVENT ? names[type] : "?????";
}

/* One value of a block, as uftrace dump's pr_args/pr_retval word it. */
static void uft_value_line(uft_printer *p, const uft_rec *rec, unsigned k)
{
    const uft_val *val = &rec->vals[k];
    const tdec_uftrace_arg *a = &val->arg;
    const uint8_t *bytes = rec->bytes + val->off;
    int is_exit = rec->rec.type == TDEC_UFTRACE_REC_EXIT;
    char label[32], line[512], tname[40], text[1024];
    uint64_t v = val->value;
    const uft_sym *sym;
    unsigned i;
    if (is_exit) snprintf(label, sizeof label, "  retval");
    else snprintf(label, sizeof label, "  args[%u]", k);

    if (a->kind == TDEC_UFTRACE_V_STRING || a->kind == TDEC_UFTRACE_V_STDSTRING) {
        /* uftrace copies with strncpy: the text ends at a NUL; 0xffffffff
           is the pre-2017 NULL marker */
        size_t n = strnlen((const char *)bytes, val->len);
        int null4 = val->len >= 4 && bytes[0] == 0xff && bytes[1] == 0xff && bytes[2] == 0xff && bytes[3] == 0xff;
        out_str(p->out, label);
        out_str(p->out, a->kind == TDEC_UFTRACE_V_STDSTRING ? " std::string: " : " str: ");
        if (null4) out_lit(p->out, "NULL");
        else out_mem(p->out, bytes, n);
        out_char(p->out, '\n');
        return;
    }
    if (a->kind == TDEC_UFTRACE_V_STRUCT) {
        snprintf(line, sizeof line, "%s struct %s:", label, uft_val_type_name(rec, val, tname, sizeof tname));
        out_str(p->out, line);
        for (i = 0; i < val->len; i++) {
            if (i % 16 == 0) out_lit(p->out, "\n\t");
            snprintf(line, sizeof line, "%02x ", bytes[i]);
            out_str(p->out, line);
            if (i % 8 == 7) out_char(p->out, ' ');
        }
        out_char(p->out, '\n');
        return;
    }
    if (a->kind == TDEC_UFTRACE_V_FLOAT) {
        /* printed as raw bits, like every other number */
        v = 0;
        for (i = a->size < 8 ? a->size : 8; i > 0; i--) v = (v << 8) | val->raw[i - 1];
        if (a->size == 10) {
            /* x87 long double: uftrace 0.13 aborts here (it copies the 10
               bytes into an 8-byte integer); we print all 80 bits */
            snprintf(line, sizeof line, "%s f80: 0x%02x%02x%016llx\n", label, val->raw[9], val->raw[8],
                     (unsigned long long)v);
            out_str(p->out, line);
            return;
        }
    }
    if (a->format == 'p') {
        sym = uft_find_sym(p->dir, p->task, rec->rec.time, v);
        if (sym) snprintf(line, sizeof line, "%s p: %llx (&%s)\n", label, (unsigned long long)v, sym->name);
        else if (v) snprintf(line, sizeof line, "%s p: 0x%llx\n", label, (unsigned long long)v);
        else snprintf(line, sizeof line, "%s p: %s\n", label, is_exit ? "(nil)" : "0");
        out_str(p->out, line);
        return;
    }
    if (a->format == 'e' && !is_exit &&
        uft_func_enum_text(p->dir, p->task, rec->rec.time, rec->rec.addr, uft_val_type_name(rec, val, tname, sizeof tname),
                           (int32_t)v, text, sizeof text)) {
        /* return values are printed raw (pr_retval has no enum case) */
        snprintf(line, sizeof line, "%s enum %s: ", label, tname);
        out_str(p->out, line);
        out_str(p->out, text);
        snprintf(line, sizeof line, " (%lld)\n", (long long)v);
        out_str(p->out, line);
        return;
    }
    snprintf(line, sizeof line, "%s %c%u: 0x%0*llx\n", label, a->format,
             (unsigned)a->size * 8u, (int)a->size * 2, (unsigned long long)v);
    out_str(p->out, line);
}

/* "read:proc/statm: vmsize=..." style text of builtin event data. */
static void uft_event_data(uft_printer *p, const uft_rec *rec)
{
    char name[256], line[256];
    uft_event_data_text(p->dir, rec->rec.addr, rec->bytes, rec->nbytes, 0, line, sizeof line);
    out_str(p->out, "  ");
    out_str(p->out, uft_event_name(p->dir, rec->rec.addr, name, sizeof name));
    if (line[0]) {
        out_str(p->out, ": ");
        out_str(p->out, line);
    }
    out_char(p->out, '\n');
}

static void uft_record_line(uft_printer *p, const tdec_uftrace_record *r)
{
    char name[256];
    const char *nm;
    char *w, *start;
    size_t nmlen;
    const uft_sym *sym = NULL;
    uft_tail *tail;
    if (p->prev_time > r->time)
        out_str(p->out, "\n*************************************\n"
                        "* inverted time - data seems broken *\n"
                        "*************************************\n\n");
    p->prev_time = r->time;
    if (r->type == TDEC_UFTRACE_REC_EVENT) {
        nm = uft_event_name(p->dir, r->addr, name, sizeof name);
        nmlen = strlen(nm);
    } else {
        sym = uft_find_sym(p->dir, p->task, r->time, r->addr);
        if (sym) {
            nm = sym->name;
            nmlen = sym->name_len;
        } else {
            snprintf(name, sizeof name, "<%llx>", (unsigned long long)r->addr);
            nm = name;
            nmlen = strlen(nm);
        }
    }
    /* the hot line, formatted in place: "S.NNNNNNNNN    TID: [type] name(addr) depth: D" */
    if (nmlen > OUT_BUF_SIZE / 2) nmlen = OUT_BUF_SIZE / 2;
    w = out_reserve(p->out, nmlen + 96);
    if (r->time / 10000u != p->time_key || p->time_len == 0) { /* records close in time share it */
        char *t = fmt_u64(p->time_text, (uint32_t)(r->time / 1000000000u)); /* uftrace prints seconds as unsigned */
        *t++ = '.';
        t = fmt_u64w(t, r->time % 1000000000u / 10000u, 5, '0');
        p->time_key = r->time / 10000u;
        p->time_len = (size_t)(t - p->time_text);
    }
    w = fmt_mem(w, p->time_text, p->time_len);
    w = fmt_u64w(w, r->time % 10000u, 4, '0');
    w = fmt_lit(w, "  ");
    w = fmt_mem(w, p->tid_col, p->tid_col_len);
    w = fmt_mem(w, uft_type_name(r->type), 5);
    w = fmt_lit(w, "] ");
    tail = &p->tails[(r->addr ^ r->addr >> 4 ^ r->depth) % 8];
    if (sym != NULL && tail->sym == sym && tail->addr == r->addr && tail->depth == r->depth) {
        out_commit(p->out, fmt_mem(w, tail->text, tail->len));
        return;
    }
    start = w;
    w = fmt_mem(w, nm, nmlen);
    *w++ = '(';
    w = fmt_hex(w, r->addr);
    w = fmt_lit(w, ") depth: ");
    w = fmt_u64(w, r->depth);
    *w++ = '\n';
    out_commit(p->out, w);
    if (sym != NULL && (size_t)(w - start) <= sizeof tail->text) {
        tail->sym = sym;
        tail->addr = r->addr;
        tail->depth = r->depth;
        tail->len = (uint32_t)(w - start);
        memcpy(tail->text, start, tail->len);
    }
}

/* A <tid>.dat file begins. */
static void uft_dump_task(void *ctx, int32_t tid)
{
    uft_printer *p = (uft_printer *)ctx;
    char line[64];
    char *w;
    p->tid = tid;
    p->task = uft_find_task(p->dir, tid);
    snprintf(line, sizeof line, "reading %d.dat\n", tid);
    out_str(p->out, line);
    p->prev_time = 0;
    w = fmt_lit(fmt_i64w(p->tid_col, tid, 5), ": [");
    p->tid_col_len = (size_t)(w - p->tid_col);
}

/* A record of the <tid>.dat file, with its values or event data. */
static void uft_dump_record(void *ctx, const uft_rec *rec)
{
    uft_printer *p = (uft_printer *)ctx;
    const tdec_uftrace_record *r = &rec->rec;
    char line[128];
    unsigned k;
    uft_record_line(p, r);
    if (r->type == TDEC_UFTRACE_REC_EVENT && r->more) {
        uft_pr_time(p->out, r->time);
        snprintf(line, sizeof line, "%5d: [data ] length = %llu\n", p->tid, (unsigned long long)r->payload_size);
        out_str(p->out, line);
        if (!rec->incomplete) uft_event_data(p, rec);
    } else if (r->more && !rec->incomplete && r->type != TDEC_UFTRACE_REC_LOST) {
        uft_pr_time(p->out, r->time);
        snprintf(line, sizeof line, "%5d: [%s] length = %u\n", p->tid,
                 r->type == TDEC_UFTRACE_REC_EXIT ? "retval" : "args ", rec->block_len);
        out_str(p->out, line);
        for (k = 0; k < rec->nvals; k++) uft_value_line(p, rec, k);
    }
}

/* A perf-cpuN.dat file begins: scheduler and task events follow. */
static void uft_dump_perf(void *ctx, size_t index, const char *name)
{
    uft_printer *p = (uft_printer *)ctx;
    char line[64];
    (void)name;
    if (index == 0) out_char(p->out, '\n');
    snprintf(line, sizeof line, "reading perf-cpu%zu.dat\n", index);
    out_str(p->out, line);
}

static void uft_dump_perf_record(void *ctx, const tdec_uftrace_perf_record *r, uint64_t offset)
{
    uft_printer *p = (uft_printer *)ctx;
    uint32_t id = uft_perf_event_id(r);
    char name[128], line[256];
    (void)offset;
    uft_pr_time(p->out, r->time);
    snprintf(line, sizeof line, "%5d: [event] %s(%llu)\n", (int32_t)r->tid, uft_event_name(p->dir, id, name, sizeof name),
             (unsigned long long)id);
    out_str(p->out, line);
}

static void uft_header_mask(out_buf *o, uint64_t mask, const char *(*name)(unsigned))
{
    unsigned bit;
    int first = 1;
    for (bit = 0; bit < 64; bit++) {
        const char *s;
        if (!(mask & ((uint64_t)1 << bit)) || (s = name(bit)) == NULL) continue;
        if (!first) out_str(o, " | ");
        out_str(o, s);
        first = 0;
    }
}

/* The directory is open: the info header. */
static void uft_dump_start(void *ctx, uft_dir *dir, out_buf *out)
{
    uft_printer *p = (uft_printer *)ctx;
    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->out = out;
    const tdec_uftrace_header *h = &p->dir->hdr;
    char line[128];
    out_buf *o = p->out;
    uft_spec_usage(dir, o);
    out_str(o, "uftrace file header: magic         = 4674726163652100\n");
    snprintf(line, sizeof line, "uftrace file header: version       = %u\n", h->version);
    out_str(o, line);
    snprintf(line, sizeof line, "uftrace file header: header size   = %u\n", h->header_size);
    out_str(o, line);
    snprintf(line, sizeof line, "uftrace file header: endian        = %u (%s)\n", h->endian,
             h->endian == 1 ? "little" : "big");
    out_str(o, line);
    snprintf(line, sizeof line, "uftrace file header: class         = %u (%s bit)\n", h->elf_class,
             h->elf_class == 2 ? "64" : "32");
    out_str(o, line);
    snprintf(line, sizeof line, "uftrace file header: features      = %#llx (", (unsigned long long)h->feat_mask);
    out_str(o, line);
    uft_header_mask(o, h->feat_mask, tdec_uftrace_feat_str);
    snprintf(line, sizeof line, ")\nuftrace file header: info          = %#llx (", (unsigned long long)h->info_mask);
    out_str(o, line);
    uft_header_mask(o, h->info_mask, tdec_uftrace_info_str);
    out_str(o, ")\n\n");
}

int uft_dump(const char *path, out_buf *out, out_buf *err)
{
    static uft_printer p;
    static const uft_dump_printer printer = {
        &p, uft_dump_start, uft_dump_task, uft_dump_record, uft_dump_perf, uft_dump_perf_record,
    };
    return uft_dump_dir(path, &printer, out, err);
}
