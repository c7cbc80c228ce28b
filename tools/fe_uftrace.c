/* fe_uftrace.c - the CLI's uftrace front end.

   dump: what `uftrace dump` (0.13, raw mode) prints for a data directory:
   the info header, then every <tid>.dat in taskinfo order with symbol
   names, argument/return values and event data, then every perf-cpuN.dat.
   Each file is read in CLI_CHUNK pieces through the streaming decoders. */
#define _POSIX_C_SOURCE 200809L
#include "frontends.h"
#include "uft_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An argument/return block being collected: uftrace prints its length
   before its values, and the length is known only at its end. */
typedef struct uft_block {
    uft_spec  spec;
    int       is_exit;
    uint64_t  time;
    char     *text;   /* the value lines, built as items arrive */
    size_t    len, cap;
    uint8_t   bytes[TDEC_UFTRACE_MAX_BLOCK + 1]; /* the current string/struct value */
    size_t    nbytes;
    tdec_uftrace_record value; /* the ARG record those bytes belong to */
} uft_block;

typedef struct uft_printer {
    uft_dir        *dir;
    const uft_task *task;
    int32_t         tid;
    out_buf        *out, *err;
    uft_block       blk;
    uint64_t        prev_time;
    /* event data */
    uint8_t         evt[65536];
    size_t          nevt;
    tdec_uftrace_record evt_rec;
} uft_printer;

#if defined(__GNUC__) || defined(__clang__)
static void blk_printf(uft_block *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
static void blk_printf(uft_block *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->text ? b->text + b->len : NULL, b->text ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (b->text && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)n + 256;
        b->text = (char *)realloc(b->text, b->cap);
        if (b->text == NULL) {
            fputs("tracedec: out of memory\n", stderr);
            exit(2);
        }
    }
}

static void uft_pr_time(out_buf *o, uint64_t t)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%u.%09u  ", (unsigned)(t / 1000000000u), (unsigned)(t % 1000000000u));
    out_str(o, buf);
}

static const char *uft_type_name(uint32_t type)
{
    static const char *const names[] = {"entry", "exit ", "lost ", "event"};
    return type <= TDEC_UFTRACE_EVENT ? names[type] : "?????";
}

/* One value of a block, as uftrace dump's pr_args/pr_retval word it. */
static void uft_value_line(uft_printer *p, const tdec_uftrace_record *r)
{
    uft_block *b = &p->blk;
    char label[32];
    const tdec_uftrace_arg *a = &r->arg;
    uint64_t v = r->value;
    const uft_sym *sym;
    unsigned i;
    if (b->is_exit) snprintf(label, sizeof label, "  retval");
    else snprintf(label, sizeof label, "  args[%u]", r->arg_index);

    if (a->kind == TDEC_UFTRACE_V_STRING || a->kind == TDEC_UFTRACE_V_STDSTRING) {
        /* uftrace copies with strncpy: the text ends at a NUL; 0xffffffff
           is the pre-2017 NULL marker */
        size_t n = strnlen((const char *)b->bytes, b->nbytes);
        int null4 = b->nbytes >= 4 && b->bytes[0] == 0xff && b->bytes[1] == 0xff && b->bytes[2] == 0xff &&
                    b->bytes[3] == 0xff;
        blk_printf(b, "%s %s: %.*s\n", label, a->kind == TDEC_UFTRACE_V_STDSTRING ? "std::string" : "str",
                   null4 ? 4 : (int)n, null4 ? "NULL" : (const char *)b->bytes);
        return;
    }
    if (a->kind == TDEC_UFTRACE_V_STRUCT) {
        blk_printf(b, "%s struct %s:", label, p->blk.spec.type_name[r->arg_index]);
        for (i = 0; i < b->nbytes; i++) {
            if (i % 16 == 0) blk_printf(b, "\n\t");
            blk_printf(b, "%02x ", b->bytes[i]);
            if (i % 8 == 7) blk_printf(b, " ");
        }
        blk_printf(b, "\n");
        return;
    }
    if (a->kind == TDEC_UFTRACE_V_FLOAT) {
        /* printed as raw bits, like every other number */
        v = 0;
        for (i = a->size < 8 ? a->size : 8; i > 0; i--) v = (v << 8) | r->raw[i - 1];
    }
    if (a->format == 'p') {
        sym = uft_find_sym(p->dir, p->task, b->time, v);
        if (sym) blk_printf(b, "%s p: %llx (&%s)\n", label, (unsigned long long)v, sym->name);
        else if (v) blk_printf(b, "%s p: 0x%llx\n", label, (unsigned long long)v);
        else blk_printf(b, "%s p: %s\n", label, b->is_exit ? "(nil)" : "0");
        return;
    }
    blk_printf(b, "%s %c%u: 0x%0*llx\n", label, a->format == 'o' ? 'o' : a->format, (unsigned)a->size * 8u,
               (int)a->size * 2, (unsigned long long)v);
}

/* "read:proc/statm: vmsize=..." style text of builtin event data. */
static void uft_event_data(uft_printer *p, const char *name)
{
    uint64_t v[3] = {0, 0, 0};
    size_t i, n = p->nevt;
    int big = (p->dir->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) != 0;
    char line[256];
    uint64_t id = p->evt_rec.addr;
    for (i = 0; i < 3 && (i + 1) * 8 <= n; i++)
        v[i] = big ? tdec__rd_u64be(p->evt + i * 8) : tdec__rd_u64le(p->evt + i * 8);
    line[0] = '\0';
    switch (id) {
    case 100001: case 100003:
        snprintf(line, sizeof line, "vmsize=%lluKB vmrss=%lluKB shared=%lluKB", (unsigned long long)v[0],
                 (unsigned long long)v[1], (unsigned long long)v[2]);
        break;
    case 100002: case 100004:
        snprintf(line, sizeof line, "major=%llu minor=%llu", (unsigned long long)v[0], (unsigned long long)v[1]);
        break;
    case 100005: case 100006:
        snprintf(line, sizeof line, "cycles=%llu instructions=%llu", (unsigned long long)v[0],
                 (unsigned long long)v[1]);
        break;
    case 100007: case 100008:
        snprintf(line, sizeof line, "refers=%llu misses=%llu", (unsigned long long)v[0], (unsigned long long)v[1]);
        break;
    case 100009: case 100010:
        snprintf(line, sizeof line, "branch=%llu misses=%llu", (unsigned long long)v[0], (unsigned long long)v[1]);
        break;
    case 100011: {
        uint32_t cpu = n >= 4 ? (big ? tdec__rd_u32be(p->evt) : tdec__rd_u32le(p->evt)) : 0;
        snprintf(line, sizeof line, "cpu=%d", (int32_t)cpu);
        break;
    }
    default:
        break;
    }
    out_str(p->out, "  ");
    out_str(p->out, name);
    if (line[0]) {
        out_str(p->out, ": ");
        out_str(p->out, line);
    }
    out_char(p->out, '\n');
}

static void uft_record_line(uft_printer *p, const tdec_uftrace_record *r)
{
    char name[256], line[512];
    const char *nm;
    const uft_sym *sym = NULL;
    if (p->prev_time > r->time)
        out_str(p->out, "\n*************************************\n"
                        "* inverted time - data seems broken *\n"
                        "*************************************\n\n");
    p->prev_time = r->time;
    if (r->type == TDEC_UFTRACE_EVENT) {
        nm = uft_event_name(p->dir, r->addr, name, sizeof name);
    } else {
        sym = uft_find_sym(p->dir, p->task, r->time, r->addr);
        if (sym) nm = sym->name;
        else {
            snprintf(name, sizeof name, "<%llx>", (unsigned long long)r->addr);
            nm = name;
        }
    }
    uft_pr_time(p->out, r->time);
    snprintf(line, sizeof line, "%5d: [%s] ", p->tid, uft_type_name(r->type));
    out_str(p->out, line);
    out_str(p->out, nm);
    snprintf(line, sizeof line, "(%llx) depth: %u\n", (unsigned long long)r->addr, r->depth);
    out_str(p->out, line);
}

static int uft_fail(uft_printer *p, const char *file, uint64_t off, const char *what, const char *detail)
{
    out_flush(p->out);
    out_str(p->err, "tracedec: error: ");
    out_str(p->err, file);
    out_lit(p->err, ": offset ");
    out_u64(p->err, off);
    out_lit(p->err, ": ");
    out_str(p->err, what);
    if (detail && *detail) {
        out_lit(p->err, ": ");
        out_str(p->err, detail);
    }
    out_char(p->err, '\n');
    out_flush(p->err);
    return 1;
}

/* One <tid>.dat file. */
static int uft_dump_task(uft_printer *p, const char *path, uint8_t *chunk)
{
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    tdec_status st;
    char name[256];
    ssize_t n;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return uft_fail(p, path, 0, "cannot open", strerror(errno));
    st = tdec_uftrace_init(&d, &p->dir->cfg);
    p->prev_time = 0;
    while (st >= 0) {
        st = tdec_uftrace_next(&d, &it);
        if (st == TDEC_OK) {
            tdec_uftrace_record *r = &it.u.rec;
            if (it.kind == TDEC_ITEM_FRAGMENT) {
                /* string/struct bytes of a value, or event data */
                if (p->blk.value.type == TDEC_UFTRACE_ARG && it.u.frag.offset + it.u.frag.len <= sizeof p->blk.bytes) {
                    memcpy(p->blk.bytes + it.u.frag.offset, it.u.frag.data, it.u.frag.len);
                    p->blk.nbytes = (size_t)(it.u.frag.offset + it.u.frag.len);
                    if (it.u.frag.flags & TDEC_FRAG_LAST) {
                        uft_value_line(p, &p->blk.value);
                        p->blk.value.type = 0;
                    }
                } else if (p->evt_rec.type == TDEC_UFTRACE_EVENT && it.u.frag.offset + it.u.frag.len <= sizeof p->evt) {
                    memcpy(p->evt + it.u.frag.offset, it.u.frag.data, it.u.frag.len);
                    p->nevt = (size_t)(it.u.frag.offset + it.u.frag.len);
                    if (it.u.frag.flags & TDEC_FRAG_LAST) {
                        uft_event_data(p, uft_event_name(p->dir, p->evt_rec.addr, name, sizeof name));
                        p->evt_rec.type = 0;
                    }
                }
                continue;
            }
            switch (r->type) {
            case TDEC_UFTRACE_ENTRY:
            case TDEC_UFTRACE_EXIT:
            case TDEC_UFTRACE_LOST:
                uft_record_line(p, r);
                if (tdec_uftrace_needs_args(&d)) {
                    p->blk.is_exit = r->type == TDEC_UFTRACE_EXIT;
                    p->blk.time = r->time;
                    p->blk.len = 0;
                    if (!uft_resolve_spec(p->dir, p->task, r->time, r->addr, p->blk.is_exit, &p->blk.spec)) {
                        tdec_uftrace_set_args(&d, NULL);
                        st = d.st.err;
                        break;
                    }
                    st = tdec_uftrace_set_args(&d, &p->blk.spec.layout);
                }
                break;
            case TDEC_UFTRACE_EVENT:
                uft_record_line(p, r);
                if (r->more) {
                    uft_pr_time(p->out, r->time);
                    snprintf(name, sizeof name, "%5d: [data ] length = %llu\n", p->tid,
                             (unsigned long long)r->payload_size);
                    out_str(p->out, name);
                    p->evt_rec = *r;
                    p->nevt = 0;
                    if (r->payload_size == 0) {
                        uft_event_data(p, uft_event_name(p->dir, r->addr, name, sizeof name));
                        p->evt_rec.type = 0;
                    }
                }
                break;
            case TDEC_UFTRACE_ARG:
                if (r->payload_size > 0 || r->arg.kind == TDEC_UFTRACE_V_STRING ||
                    r->arg.kind == TDEC_UFTRACE_V_STDSTRING || r->arg.kind == TDEC_UFTRACE_V_STRUCT) {
                    p->blk.value = *r;
                    p->blk.nbytes = 0;
                    if (r->payload_size == 0) {
                        uft_value_line(p, r);
                        p->blk.value.type = 0;
                    }
                } else {
                    uft_value_line(p, r);
                }
                break;
            default: /* ARGS_END */
                uft_pr_time(p->out, p->blk.time);
                snprintf(name, sizeof name, "%5d: [%s] length = %u\n", p->tid, p->blk.is_exit ? "retval" : "args ",
                         r->block_len);
                out_str(p->out, name);
                out_mem(p->out, p->blk.text, p->blk.len);
                p->blk.len = 0;
                break;
            }
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        do {
            n = read(fd, chunk, CLI_CHUNK);
        } while (n < 0 && errno == EINTR);
        if (n < 0) {
            close(fd);
            return uft_fail(p, path, d.st.pos, "read error", strerror(errno));
        }
        st = n > 0 ? tdec_uftrace_feed(&d, chunk, (size_t)n) : tdec_uftrace_finish(&d);
    }
    close(fd);
    if (st < 0) {
        if (d.st.err_reason == TDEC_UFTRACE_R_NO_SPEC)
            return uft_fail(p, path, d.st.err_offset, "record missing argument info",
                            "no argument spec of this recording applies to the function");
        return uft_fail(p, path, d.st.err_offset, tdec_status_str(st), tdec_uftrace_reason_str(d.st.err_reason));
    }
    return 0;
}

/* One perf-cpuN.dat file: scheduler and task events of traced tasks. */
static int uft_dump_perf(uft_printer *p, const char *path, uint8_t *chunk)
{
    tdec_uftrace_perf_decoder d;
    tdec_uftrace_perf_item it;
    tdec_status st;
    char name[128], line[256];
    ssize_t n;
    size_t i;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return uft_fail(p, path, 0, "cannot open", strerror(errno));
    st = tdec_uftrace_perf_init(&d, &p->dir->cfg);
    while (st >= 0) {
        st = tdec_uftrace_perf_next(&d, &it);
        if (st == TDEC_OK) {
            const tdec_uftrace_perf_record *r = &it.u.rec;
            uint64_t id, time = r->time;
            int32_t tid = (int32_t)r->tid;
            int traced = 0;
            if (it.kind != TDEC_ITEM_RECORD) continue;
            switch (r->type) {
            case TDEC_UFTRACE_PERF_FORK: id = 200004; break;
            case TDEC_UFTRACE_PERF_EXIT: id = 200005; break;
            case TDEC_UFTRACE_PERF_COMM: id = 200006; break;
            case TDEC_UFTRACE_PERF_SWITCH:
                id = !(r->misc & TDEC_UFTRACE_PERF_SWITCH_OUT) ? 200001
                     : (r->misc & TDEC_UFTRACE_PERF_PREEMPT) ? 200007 : 200002;
                break;
            default: continue;
            }
            /* uftrace shows events of the traced tasks only */
            for (i = 0; i < p->dir->ntids; i++) traced |= p->dir->tids[i] == tid;
            if (!traced) continue;
            uft_pr_time(p->out, time);
            snprintf(line, sizeof line, "%5d: [event] %s(%llu)\n", tid, uft_event_name(p->dir, id, name, sizeof name),
                     (unsigned long long)id);
            out_str(p->out, line);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        do {
            n = read(fd, chunk, CLI_CHUNK);
        } while (n < 0 && errno == EINTR);
        if (n < 0) {
            close(fd);
            return uft_fail(p, path, d.st.pos, "read error", strerror(errno));
        }
        st = n > 0 ? tdec_uftrace_perf_feed(&d, chunk, (size_t)n) : tdec_uftrace_perf_finish(&d);
    }
    close(fd);
    if (st < 0) return uft_fail(p, path, d.st.err_offset, tdec_status_str(st), tdec_uftrace_reason_str(d.st.err_reason));
    return 0;
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

static void uft_dump_header(uft_printer *p)
{
    const tdec_uftrace_info_header *h = &p->dir->hdr;
    char line[128];
    out_buf *o = p->out;
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
    uft_header_mask(o, h->feat_mask, tdec_uftrace_feat_name);
    snprintf(line, sizeof line, ")\nuftrace file header: info          = %#llx (", (unsigned long long)h->info_mask);
    out_str(o, line);
    uft_header_mask(o, h->info_mask, tdec_uftrace_info_name);
    out_str(o, ")\n\n");
}

int fe_uftrace_detect_dir(const char *path)
{
    char file[4096];
    struct stat sb;
    snprintf(file, sizeof file, "%s/info", path);
    return stat(file, &sb) == 0 && S_ISREG(sb.st_mode);
}

int fe_uftrace_run(const cli_opts *opt, out_buf *out, out_buf *err)
{
    static uft_dir dir;
    static uft_printer p;
    static uint8_t chunk[CLI_CHUNK];
    char msg[512], path[4096];
    struct stat sb;
    size_t i;
    int cpu;

    if (uft_dir_open(&dir, opt->path, msg, sizeof msg) < 0) {
        cli_diag(err, "error", -1, msg, NULL);
        return 1;
    }
    snprintf(path, sizeof path, "%s/kernel-cpu0.dat", opt->path);
    if (stat(path, &sb) == 0 || (dir.hdr.feat_mask & TDEC_UFTRACE_FEAT_KERNEL))
        cli_diag(err, "warning", -1, "kernel trace data (kernel-cpuN.dat) is not supported",
                 "it is skipped; user-space records are decoded");
    memset(&p, 0, sizeof p);
    p.dir = &dir;
    p.out = out;
    p.err = err;
    uft_dump_header(&p);
    for (i = 0; i < dir.ntids; i++) {
        p.tid = dir.tids[i];
        p.task = uft_find_task(&dir, p.tid);
        snprintf(path, sizeof path, "%s/%d.dat", opt->path, p.tid);
        snprintf(msg, sizeof msg, "reading %d.dat\n", p.tid);
        out_str(out, msg);
        if (uft_dump_task(&p, path, chunk)) return 1;
    }
    for (cpu = 0;; cpu++) {
        snprintf(path, sizeof path, "%s/perf-cpu%d.dat", opt->path, cpu);
        if (stat(path, &sb) != 0) break;
        if (sb.st_size == 0) continue;
        if (cpu == 0) out_char(out, '\n');
        snprintf(msg, sizeof msg, "reading perf-cpu%d.dat\n", cpu);
        out_str(out, msg);
        if (uft_dump_perf(&p, path, chunk)) return 1;
    }
    out_flush(out);
    return 0;
}
