/* read.c - record files of a uftrace data directory; see read.h. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/uftrace.h"
#include "tools/cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint8_t *uft_chunk_alloc(void)
{
    uint8_t *p = (uint8_t *)malloc(CLI_CHUNK);
    if (p == NULL) {
        fputs("tracedec: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

static void uft_set_error(uft_error *e, uint64_t off, const char *what, const char *detail)
{
    e->offset = off;
    e->what = what;
    snprintf(e->detail, sizeof e->detail, "%s", detail ? detail : "");
}

/* One read(2) into buf: its length, 0 at the end, -1 on an error. */
static ssize_t uft_read_chunk(int fd, uint8_t *buf)
{
    ssize_t n;
    do {
        n = read(fd, buf, CLI_CHUNK);
    } while (n < 0 && errno == EINTR);
    return n;
}

int uft_fail(out_buf *out, out_buf *err, const char *file, uint64_t off, const char *what, const char *detail)
{
    out_flush(out);
    out_str(err, "tracedec: error: ");
    out_str(err, file);
    out_lit(err, ": offset ");
    out_u64(err, off);
    out_lit(err, ": ");
    out_str(err, what);
    if (detail && *detail) {
        out_lit(err, ": ");
        out_str(err, detail);
    }
    out_char(err, '\n');
    out_flush(err);
    return 1;
}

/* ---- <tid>.dat ------------------------------------------------------------------ */

int uft_task_open(uft_task_reader *r, uft_dir *dir, int32_t tid)
{
    memset(r, 0, sizeof *r);
    r->dir = dir;
    r->tid = tid;
    r->task = uft_find_task(dir, tid);
    r->fd = -1;
    snprintf(r->path, sizeof r->path, "%s/%d.dat", dir->path, tid);
    r->fd = open(r->path, O_RDONLY);
    if (r->fd < 0 && !uft_tid_recorded(dir, tid)) {
        r->state = 3; /* a listed task that wrote no file: no records (uft_tid_recorded) */
        return 0;
    }
    if (r->fd < 0) {
        uft_set_error(&r->err, 0, "cannot open", strerror(errno));
        r->state = 2;
        return -1;
    }
    r->buf = uft_chunk_alloc();
    tdec_uftrace_init(&r->d, &dir->cfg);
    return 0;
}

void uft_task_close(uft_task_reader *r)
{
    if (r->fd >= 0) close(r->fd);
    free(r->buf);
    r->fd = -1;
    r->buf = NULL;
}

/* The decoder's sticky error as a message. */
static void uft_task_decoder_error(uft_task_reader *r, tdec_status st)
{
    if (r->d.st.err_reason == TDEC_UFTRACE_R_NO_SPEC)
        uft_set_error(&r->err, r->d.st.err_offset, "record missing argument info",
                      "no argument spec of this recording applies to the function");
    else
        uft_set_error(&r->err, r->d.st.err_offset, tdec_status_str(st), tdec_uftrace_reason_str(r->d.st.err_reason));
}

int uft_task_next_slow(uft_task_reader *r, uft_rec *o, tdec_status st, tdec_uftrace_item *it)
{
    ssize_t n;
    int busy = 0;            /* a record is being completed */
    int into = 0;            /* fragments: 1 event data, 2 the value vals[nvals - 1] */

    if (r->state != 0) {
        if (r->state == 1) r->state = 2;
        return r->state == 3 ? 0 : -1;
    }

    for (;; st = tdec_uftrace_next(&r->d, it)) {
        if (st == TDEC_OK) {
            const tdec_uftrace_record *rec = &it->u.rec;
            if (it->kind == TDEC_ITEM_FRAGMENT) {
                const tdec_frag *f = &it->u.frag;
                if (into == 1) {
                    if (f->offset < UFT_EVENT_KEEP) {
                        size_t k = (size_t)(UFT_EVENT_KEEP - f->offset);
                        if (k > f->len) k = f->len;
                        memcpy(o->bytes + f->offset, f->data, k);
                        o->nbytes = (uint32_t)(f->offset + k);
                    }
                    if (f->flags & TDEC_FRAG_LAST) return 1;
                } else if (into == 2) {
                    uft_val *v = &o->vals[o->nvals - 1];
                    if (f->offset + f->len <= v->len) memcpy(o->bytes + v->off + f->offset, f->data, f->len);
                }
                continue;
            }
            switch (rec->type) {
            case TDEC_UFTRACE_REC_ENTRY:
            case TDEC_UFTRACE_REC_EXIT:
            case TDEC_UFTRACE_REC_LOST:
            case TDEC_UFTRACE_REC_EVENT:
                uft_rec_begin(o, rec, it->offset);
                into = 0;
                if (rec->more && tdec_uftrace_needs_spec(&r->d)) {
                    busy = 1;
                    if (!uft_resolve_spec(r->dir, r->task, rec->time, rec->addr, rec->type == TDEC_UFTRACE_REC_EXIT,
                                          &r->spec)) {
                        st = tdec_uftrace_set_spec(&r->d, NULL);
                        st = r->d.st.err;
                    } else {
                        st = tdec_uftrace_set_spec(&r->d, &r->spec.layout);
                    }
                    if (st < 0) break;
                    continue;
                }
                if (rec->type == TDEC_UFTRACE_REC_EVENT && rec->more && rec->payload_size > 0) {
                    busy = 1;
                    into = 1;
                    continue;
                }
                return 1;
            case TDEC_UFTRACE_REC_ARG: {
                uft_val *v;
                const char *tn;
                if (o->nvals >= TDEC_UFTRACE_MAX_ARGS) continue; /* the decoder's spec has at most as many */
                v = &o->vals[o->nvals++];
                memset(v, 0, sizeof *v);
                v->arg = rec->arg;
                v->value = rec->value;
                memcpy(v->raw, rec->raw, sizeof v->raw);
                tn = rec->arg_index < TDEC_UFTRACE_MAX_ARGS ? r->spec.type_name[rec->arg_index] : "";
                v->name_len = (uint16_t)strnlen(tn, sizeof r->spec.type_name[0]);
                if (v->name_len > 0) {
                    v->name_off = (uint16_t)o->nbytes;
                    memcpy(o->bytes + o->nbytes, tn, v->name_len);
                    o->nbytes += v->name_len;
                }
                into = 0;
                if (rec->arg.kind == TDEC_UFTRACE_V_STRING || rec->arg.kind == TDEC_UFTRACE_V_STDSTRING ||
                    rec->arg.kind == TDEC_UFTRACE_V_STRUCT) {
                    /* the decoder keeps a block within TDEC_UFTRACE_MAX_BLOCK */
                    v->off = (uint16_t)o->nbytes;
                    v->len = (uint16_t)rec->payload_size;
                    memset(o->bytes + v->off, 0, v->len);
                    o->nbytes += v->len;
                    into = 2;
                }
                continue;
            }
            default: /* ARGS_END */
                o->block_len = rec->block_len;
                return 1;
            }
        }
        if (st == TDEC_NEED_INPUT) {
            n = uft_read_chunk(r->fd, r->buf);
            if (n < 0) {
                uft_set_error(&r->err, r->d.st.pos, "read error", strerror(errno));
                break;
            }
            st = n > 0 ? tdec_uftrace_feed(&r->d, r->buf, (size_t)n) : tdec_uftrace_finish(&r->d);
            if (st >= 0) continue;
        }
        if (st == TDEC_END) {
            r->state = 3;
            return 0;
        }
        uft_task_decoder_error(r, st);
        break;
    }
    if (busy) {
        o->incomplete = 1;
        r->state = 1;
        return 1;
    }
    r->state = 2;
    return -1;
}

/* ---- perf-cpuN.dat ------------------------------------------------------------------ */

int uft_perf_open(uft_perf_reader *r, const uft_dir *dir, const char *path)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    r->fd = open(path, O_RDONLY);
    if (r->fd < 0) {
        uft_set_error(&r->err, 0, "cannot open", strerror(errno));
        r->state = 2;
        return -1;
    }
    r->buf = uft_chunk_alloc();
    tdec_uftrace_perf_init(&r->d, &dir->cfg);
    return 0;
}

void uft_perf_close(uft_perf_reader *r)
{
    if (r->fd >= 0) close(r->fd);
    free(r->buf);
    r->fd = -1;
    r->buf = NULL;
}

uint32_t uft_perf_event_id(const tdec_uftrace_perf_record *r)
{
    switch (r->type) {
    case TDEC_UFTRACE_PERF_FORK: return 200004;
    case TDEC_UFTRACE_PERF_EXIT: return 200005;
    case TDEC_UFTRACE_PERF_COMM: return 200006;
    case TDEC_UFTRACE_PERF_SWITCH:
        if (!(r->misc & TDEC_UFTRACE_PERF_SWITCH_OUT)) return 200001;
        return (r->misc & TDEC_UFTRACE_PERF_PREEMPT) ? 200007 : 200002;
    default: return 0;
    }
}

int uft_perf_next(uft_perf_reader *r, tdec_uftrace_perf_record *out)
{
    tdec_uftrace_perf_item it;
    tdec_status st;
    ssize_t n;
    if (r->state == 2) return -1;
    if (r->state == 3) return 0;
    for (;;) {
        st = tdec_uftrace_perf_next(&r->d, &it);
        if (st == TDEC_OK) {
            if (it.kind != TDEC_ITEM_RECORD || uft_perf_event_id(&it.u.rec) == 0) continue;
            *out = it.u.rec;
            r->offset = it.offset;
            return 1;
        }
        if (st == TDEC_NEED_INPUT) {
            n = uft_read_chunk(r->fd, r->buf);
            if (n < 0) {
                uft_set_error(&r->err, r->d.st.pos, "read error", strerror(errno));
                r->state = 2;
                return -1;
            }
            st = n > 0 ? tdec_uftrace_perf_feed(&r->d, r->buf, (size_t)n) : tdec_uftrace_perf_finish(&r->d);
            if (st >= 0) continue;
        }
        if (st == TDEC_END) {
            r->state = 3;
            return 0;
        }
        uft_set_error(&r->err, r->d.st.err_offset, tdec_status_str(st), tdec_uftrace_reason_str(r->d.st.err_reason));
        r->state = 2;
        return -1;
    }
}

/* ---- what a dump shows ------------------------------------------------------------------ */

int uft_dump_dir(const char *dir_path, const uft_dump_printer *p, out_buf *out, out_buf *err)
{
    static uft_dir d;
    static uft_rec rec; /* large: the values of a block */
    uft_dir *dir = &d;
    uft_task_reader task;
    uft_perf_reader perf;
    tdec_uftrace_perf_record r;
    char path[4096];
    struct stat sb;
    size_t i;
    int rc;
    if (uft_open_dir(dir, dir_path, err)) return 1;
    p->start(p->ctx, dir, out);
    for (i = 0; i < dir->ntids; i++) {
        p->task(p->ctx, dir->tids[i]);
        if (uft_task_open(&task, dir, dir->tids[i]) < 0)
            return uft_fail(out, err, task.path, task.err.offset, task.err.what, task.err.detail);
        while ((rc = uft_task_next(&task, &rec)) > 0) p->record(p->ctx, &rec);
        uft_task_close(&task);
        if (rc < 0) return uft_fail(out, err, task.path, task.err.offset, task.err.what, task.err.detail);
    }
    for (i = 0; i < dir->nperf_files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir->path, dir->perf_files[i]);
        if (stat(path, &sb) != 0 || sb.st_size == 0) continue;
        p->perf(p->ctx, i, dir->perf_files[i]);
        if (uft_perf_open(&perf, dir, path) < 0)
            return uft_fail(out, err, path, perf.err.offset, perf.err.what, perf.err.detail);
        while ((rc = uft_perf_next(&perf, &r)) > 0) {
            /* uftrace shows events of the recorded tasks only */
            if (uft_tid_recorded(dir, (int32_t)r.tid)) p->perf_record(p->ctx, &r, perf.offset);
        }
        uft_perf_close(&perf);
        if (rc < 0) return uft_fail(out, err, path, perf.err.offset, perf.err.what, perf.err.detail);
    }
    return 0;
}

/* ---- event data ---------------------------------------------------------------------- */

void uft_event_data_text(const uft_dir *d, uint64_t id, const uint8_t *data, size_t n, int verbose, char *buf,
                         size_t len)
{
    uint64_t v[3] = {0, 0, 0};
    size_t i;
    int big = (d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) != 0;
    /* diff:* events are marked in verbose text */
    int diff = id == 100003 || id == 100004 || id == 100006 || id == 100008 || id == 100010;
    const char *sign = verbose && diff ? "+" : "";
    unsigned long long a, b, c;
    for (i = 0; i < 3 && (i + 1) * 8 <= n; i++)
        v[i] = cli_get_uint(data + i * 8, 8, big);
    a = (unsigned long long)v[0];
    b = (unsigned long long)v[1];
    c = (unsigned long long)v[2];
    buf[0] = '\0';
    switch (id) {
    case 100001: case 100003:
        snprintf(buf, len, "vmsize=%s%lluKB vmrss=%s%lluKB shared=%s%lluKB", sign, a, sign, b, sign, c);
        break;
    case 100002: case 100004:
        snprintf(buf, len, "major=%s%llu minor=%s%llu", sign, a, sign, b);
        break;
    case 100005: case 100006:
        if (*sign)
            snprintf(buf, len, "cycles=+%llu instructions=+%llu IPC=%.2f", a, b, (double)((float)b / (float)a));
        else
            snprintf(buf, len, "cycles=%llu instructions=%llu", a, b);
        break;
    case 100007: case 100008:
        if (*sign)
            snprintf(buf, len, "refers=+%llu misses=+%llu hit=%.2f%%", a, b, 100.0 * (double)(a - b) / (double)a);
        else
            snprintf(buf, len, "refers=%llu misses=%llu", a, b);
        break;
    case 100009: case 100010:
        if (*sign)
            snprintf(buf, len, "branch=+%llu misses=+%llu predict=%.2f%%", a, b, 100.0 * (double)(a - b) / (double)a);
        else
            snprintf(buf, len, "branch=%llu misses=%llu", a, b);
        break;
    case 100011: {
        uint32_t cpu = n >= 4 ? (uint32_t)cli_get_uint(data, 4, big) : 0;
        snprintf(buf, len, "cpu=%d", (int32_t)cpu);
        break;
    }
    default:
        break;
    }
}

const char *uft_val_type_name(const uft_rec *rec, const uft_val *v, char *buf, size_t len)
{
    size_t n = v->name_len < len - 1 ? v->name_len : len - 1;
    memcpy(buf, rec->bytes + v->name_off, n);
    buf[n] = '\0';
    return buf;
}

int uft_open_dir(uft_dir *dir, const char *path, out_buf *err)
{
    char msg[512], file[4096];
    struct stat sb;
    if (uft_dir_open(dir, path, msg, sizeof msg) < 0) {
        cli_diag(err, "error", -1, msg, NULL);
        return 1;
    }
    if (uft_info_check(dir, err)) return 1; /* uftrace refuses such a directory */
    snprintf(file, sizeof file, "%s/kernel-cpu0.dat", path);
    if (stat(file, &sb) == 0 || (dir->hdr.feat_mask & TDEC_UFTRACE_FEAT_KERNEL))
        cli_diag(err, "warning", -1, "kernel trace data (kernel-cpuN.dat) is not supported",
                 "it is skipped; user-space records are read");
    return 0;
}
