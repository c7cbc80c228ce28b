/* fe_uftrace_json.c - `tracedec dump --json DIR` for uftrace data directories.

   One JSON object per line: a header object, then one object per record of
   every <tid>.dat (taskinfo order) and every non-empty perf-cpuN.dat, the
   files in the order of the text dump (fe_uftrace.c). Argument / return
   values and event data are folded into their record. Records come from
   the shared readers of uft_read.h; the schema is in docs/uftrace.md. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct uj_printer {
    uft_dir        *dir;
    const uft_task *task;
    int32_t         tid;
    const char     *file; /* "2702.dat", "perf-cpu0.dat" */
    out_buf        *out, *err;
} uj_printer;

static const char uj_digits[] = "0123456789abcdef";

/* A JSON string body: '"' and '\\' escaped, control bytes and every byte
   >= 0x80 as \u00XX, so the code points of the string are the bytes of the
   trace (Latin-1: lossless, and valid JSON whatever the bytes are). */
static void uj_chars(out_buf *o, const uint8_t *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') {
            out_char(o, '\\');
            out_char(o, (char)c);
        } else if (c == '\n') {
            out_lit(o, "\\n");
        } else if (c == '\t') {
            out_lit(o, "\\t");
        } else if (c < 0x20 || c >= 0x7f) {
            out_lit(o, "\\u00");
            out_char(o, uj_digits[c >> 4]);
            out_char(o, uj_digits[c & 15u]);
        } else {
            out_char(o, (char)c);
        }
    }
}

static void uj_quoted(out_buf *o, const uint8_t *s, size_t n)
{
    out_char(o, '"');
    uj_chars(o, s, n);
    out_char(o, '"');
}

static void uj_str(out_buf *o, const char *key, const char *v)
{
    out_json_key(o, key);
    if (v == NULL) out_lit(o, "null");
    else uj_quoted(o, (const uint8_t *)v, strlen(v));
}

/* "0x" and the hex digits of v, as a JSON string. */
static void uj_hex_str(out_buf *o, const char *key, uint64_t v)
{
    out_json_key(o, key);
    out_lit(o, "\"0x");
    out_hex(o, v);
    out_char(o, '"');
}

static void uj_hex_bytes(out_buf *o, const char *key, const uint8_t *p, size_t n)
{
    out_json_key(o, key);
    out_char(o, '"');
    out_hex_bytes(o, p, n);
    out_char(o, '"');
}

/* A finite double as the shortest decimal that reads back as the same
   value (as_float: the same float); null when not finite. */
static void uj_number(out_buf *o, double d, int as_float)
{
    char buf[48];
    int prec;
    if (d != d || d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
        out_lit(o, "null");
        return;
    }
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (as_float ? (float)strtod(buf, NULL) == (float)d : strtod(buf, NULL) == d) break;
    }
    out_str(o, buf);
}

/* ---- values ----------------------------------------------------------------------- */

static int uj_big(const uj_printer *p)
{
    return (p->dir->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) != 0;
}

static void uj_float(uj_printer *p, const uft_val *val)
{
    out_buf *o = p->out;
    const uint8_t *b = val->raw;
    unsigned i;
    if (val->arg.size == 4) {
        uint32_t bits = uj_big(p) ? tdec__rd_u32be(b) : tdec__rd_u32le(b);
        float f;
        memcpy(&f, &bits, sizeof f);
        out_json_key(o, "value");
        uj_number(o, (double)f, 1);
        uj_hex_str(o, "bits", bits);
    } else if (val->arg.size == 8) {
        uint64_t bits = uj_big(p) ? tdec__rd_u64be(b) : tdec__rd_u64le(b);
        double d;
        memcpy(&d, &bits, sizeof d);
        out_json_key(o, "value");
        uj_number(o, d, 0);
        uj_hex_str(o, "bits", bits);
    } else {
        /* x87 80-bit extended (little-endian): 64-bit mantissa with an
           explicit integer bit, then sign and 15-bit exponent */
        uint64_t mant = tdec__rd_u64le(b);
        unsigned se = (unsigned)b[8] | (unsigned)b[9] << 8;
        int exp = (int)(se & 0x7fffu);
        double d = (double)mant;
        out_json_key(o, "value");
        if (exp == 0x7fff) {
            out_lit(o, "null");
        } else {
            exp = (exp == 0 ? 1 : exp) - 16383 - 63;
            for (; exp > 0 && d <= 1.7976931348623157e308; exp--) d *= 2.0;
            for (; exp < 0 && d != 0.0; exp++) d *= 0.5;
            if (se & 0x8000u) d = -d;
            uj_number(o, d, 0);
        }
        out_json_key(o, "bits");
        out_lit(o, "\"0x");
        for (i = 10; i > 0; i--) {
            out_char(o, uj_digits[b[i - 1] >> 4]);
            out_char(o, uj_digits[b[i - 1] & 15u]);
        }
        out_char(o, '"');
    }
}

/* One value of an argument / return block as a JSON object. */
static void uj_value(uj_printer *p, const uft_rec *rec, const uft_val *val)
{
    out_buf *o = p->out;
    const tdec_uftrace_arg *a = &val->arg;
    const uint8_t *bytes = rec->bytes + val->off;
    uint64_t v = val->value;
    unsigned bits = (unsigned)a->size * 8u;
    char tname[40], type[16];

    out_char(o, '{');
    o->json_first = 1;
    switch (a->kind) {
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING:
        uj_str(o, "type", a->kind == TDEC_UFTRACE_V_STDSTRING ? "std::string" : "str");
        out_json_key(o, "value");
        /* as uftrace: the text ends at a NUL; 0xffffffff is the NULL marker */
        if (val->len >= 4 && bytes[0] == 0xff && bytes[1] == 0xff && bytes[2] == 0xff && bytes[3] == 0xff)
            out_lit(o, "null");
        else
            uj_quoted(o, bytes, strnlen((const char *)bytes, val->len));
        break;
    case TDEC_UFTRACE_V_STRUCT:
        uj_str(o, "type", "struct");
        uj_str(o, "name", uft_val_type_name(rec, val, tname, sizeof tname));
        out_json_u64(o, "size", val->len);
        uj_hex_bytes(o, "value", bytes, val->len);
        break;
    case TDEC_UFTRACE_V_FLOAT:
        snprintf(type, sizeof type, "f%u", bits);
        uj_str(o, "type", type);
        uj_float(p, val);
        break;
    case TDEC_UFTRACE_V_CHAR: {
        uint8_t c = (uint8_t)v;
        uj_str(o, "type", "c8");
        out_json_u64(o, "value", c);
        out_json_key(o, "char");
        uj_quoted(o, &c, 1);
        break;
    }
    default: {
        /* sign-extended for d, i and e */
        int64_t sv = (int64_t)v;
        if (bits < 64 && (v >> (bits - 1)) & 1u) sv = (int64_t)(v | ~(((uint64_t)1 << bits) - 1u));
        if (a->format == 'p') {
            const uft_sym *sym = uft_find_sym(p->dir, p->task, rec->rec.time, v);
            uj_str(o, "type", "p");
            out_json_u64(o, "value", v);
            if (sym) uj_str(o, "symbol", sym->name);
        } else if (a->format == 'e') {
            const uft_map *map = NULL;
            char text[1024];
            uj_str(o, "type", "enum");
            out_json_i64(o, "value", (int32_t)sv);
            uft_val_type_name(rec, val, tname, sizeof tname);
            uj_str(o, "enum", tname);
            /* as replay: the module of the function holds the definitions */
            if (uft_task_session(p->dir, p->task, rec->rec.time) != NULL)
                uft_find_sym_map(p->dir, p->task, rec->rec.time, rec->rec.addr, &map);
            if (map != NULL) {
                uft_enum_text(p->dir, map->mod, tname, (int32_t)sv, text, sizeof text);
                uj_str(o, "text", text);
            }
        } else {
            snprintf(type, sizeof type, "%c%u", a->format, bits);
            uj_str(o, "type", type);
            if (a->format == 'd' || a->format == 'i') out_json_i64(o, "value", sv);
            else out_json_u64(o, "value", v);
        }
        break;
    }
    }
    out_char(o, '}');
    o->json_first = 0;
}

/* ---- event data ------------------------------------------------------------------- */

/* Builtin event data (ids 100001 ... 100011) as named fields; diff:* values
   are signed. Other data (or too short) as "data_hex". */
static void uj_event_data(uj_printer *p, uint64_t id, const uint8_t *data, size_t n)
{
    static const char *const fields[5][3] = {
        {"vmsize", "vmrss", "shared"}, {"major", "minor", NULL}, {"cycles", "instructions", NULL},
        {"refers", "misses", NULL},    {"branch", "misses", NULL},
    };
    out_buf *o = p->out;
    int big = uj_big(p);
    unsigned i, nf;
    if (id == 100011 && n >= 4) {
        out_json_key(o, "data");
        out_json_open(o);
        out_json_i64(o, "cpu", (int32_t)(big ? tdec__rd_u32be(data) : tdec__rd_u32le(data)));
        out_char(o, '}');
        o->json_first = 0;
        return;
    }
    if (id >= 100001 && id <= 100010) {
        unsigned k = id <= 100004 ? (unsigned)((id - 100001) % 2) : (unsigned)((id - 100005) / 2 + 2);
        int diff = id == 100003 || id == 100004 || id == 100006 || id == 100008 || id == 100010;
        nf = fields[k][2] ? 3u : 2u;
        if (n >= nf * 8u) {
            out_json_key(o, "data");
            out_json_open(o);
            for (i = 0; i < nf; i++) {
                uint64_t v = big ? tdec__rd_u64be(data + i * 8) : tdec__rd_u64le(data + i * 8);
                if (diff) out_json_i64(o, fields[k][i], (int64_t)v);
                else out_json_u64(o, fields[k][i], v);
            }
            out_char(o, '}');
            o->json_first = 0;
            return;
        }
    }
    if (n > 0) uj_hex_bytes(o, "data_hex", data, n);
}

/* ---- records ---------------------------------------------------------------------- */

static void uj_common(uj_printer *p, uint64_t off, const char *kind, int32_t tid, uint64_t time)
{
    out_buf *o = p->out;
    out_json_open(o);
    uj_str(o, "file", p->file);
    out_json_u64(o, "off", off);
    out_json_str(o, "kind", kind);
    out_json_i64(o, "tid", tid);
    out_json_u64(o, "time", time);
}

static void uj_record(uj_printer *p, const uft_rec *rec)
{
    static const char *const kinds[] = {"entry", "exit", "lost", "event"};
    const tdec_uftrace_record *r = &rec->rec;
    out_buf *o = p->out;
    char name[256];
    unsigned k;
    uj_common(p, rec->offset, r->type <= TDEC_UFTRACE_REC_EVENT ? kinds[r->type] : "unknown", p->tid, r->time);
    if (r->type == TDEC_UFTRACE_REC_LOST) {
        out_json_u64(o, "count", r->addr);
    } else if (r->type == TDEC_UFTRACE_REC_EVENT) {
        out_json_u64(o, "depth", r->depth);
        out_json_u64(o, "id", r->addr);
        uj_str(o, "name", uft_event_name(p->dir, r->addr, name, sizeof name));
        if (r->more) {
            out_json_u64(o, "size", r->payload_size);
            if (!rec->incomplete)
                uj_event_data(p, r->addr, rec->bytes,
                              rec->nbytes < r->payload_size ? rec->nbytes : (size_t)r->payload_size);
        }
    } else {
        const uft_sym *sym = uft_find_sym(p->dir, p->task, r->time, r->addr);
        out_json_u64(o, "depth", r->depth);
        out_json_u64(o, "addr", r->addr);
        uj_str(o, "name", sym ? sym->name : NULL);
        if (r->more && !rec->incomplete) {
            if (r->type == TDEC_UFTRACE_REC_ENTRY) {
                out_json_key(o, "args");
                out_char(o, '[');
                for (k = 0; k < rec->nvals; k++) {
                    if (k > 0) out_char(o, ',');
                    uj_value(p, rec, &rec->vals[k]);
                }
                out_char(o, ']');
                o->json_first = 0;
            } else if (rec->nvals > 0) {
                out_json_key(o, "retval");
                uj_value(p, rec, &rec->vals[0]);
            }
        }
    }
    if (rec->incomplete) out_json_bool(o, "incomplete", 1);
    out_json_close(o);
}

/* One <tid>.dat file. */
static int uj_task(uj_printer *p, uft_rec *rec)
{
    uft_task_reader rd;
    int rc;
    if (uft_task_open(&rd, p->dir, p->tid) < 0)
        return uft_fail(p->out, p->err, rd.path, rd.err.offset, rd.err.what, rd.err.detail);
    while ((rc = uft_task_next(&rd, rec)) > 0) uj_record(p, rec);
    uft_task_close(&rd);
    if (rc < 0) return uft_fail(p->out, p->err, rd.path, rd.err.offset, rd.err.what, rd.err.detail);
    return 0;
}

/* One perf-cpuN.dat file: the records of traced tasks, as the text dump. */
static int uj_perf(uj_printer *p, const char *path)
{
    uft_perf_reader rd;
    tdec_uftrace_perf_record r;
    char name[128];
    out_buf *o = p->out;
    size_t i;
    int rc;
    if (uft_perf_open(&rd, p->dir, path) < 0)
        return uft_fail(p->out, p->err, path, rd.err.offset, rd.err.what, rd.err.detail);
    while ((rc = uft_perf_next(&rd, &r)) > 0) {
        uint32_t id = uft_perf_event_id(&r);
        int32_t tid = (int32_t)r.tid;
        int traced = 0;
        for (i = 0; i < p->dir->ntids; i++) traced |= p->dir->tids[i] == tid;
        if (!traced) continue;
        uj_common(p, rd.offset, "event", tid, r.time);
        out_json_u64(o, "id", id);
        uj_str(o, "name", uft_event_name(p->dir, id, name, sizeof name));
        if (r.type == TDEC_UFTRACE_PERF_COMM) {
            out_json_key(o, "data");
            out_json_open(o);
            out_json_u64(o, "pid", r.pid);
            uj_str(o, "comm", r.comm);
            out_char(o, '}');
            o->json_first = 0;
        } else if (r.type == TDEC_UFTRACE_PERF_FORK || r.type == TDEC_UFTRACE_PERF_EXIT) {
            out_json_key(o, "data");
            out_json_open(o);
            out_json_u64(o, "pid", r.pid);
            out_json_u64(o, "ppid", r.ppid);
            out_json_u64(o, "ptid", r.ptid);
            out_char(o, '}');
            o->json_first = 0;
        }
        out_json_close(o);
    }
    uft_perf_close(&rd);
    if (rc < 0) return uft_fail(p->out, p->err, path, rd.err.offset, rd.err.what, rd.err.detail);
    return 0;
}

static void uj_mask(out_buf *o, const char *key, uint64_t mask, const char *(*name)(unsigned))
{
    unsigned bit;
    int first = 1;
    out_json_key(o, key);
    out_char(o, '[');
    for (bit = 0; bit < 64; bit++) {
        const char *s;
        if (!(mask & ((uint64_t)1 << bit)) || (s = name(bit)) == NULL) continue;
        if (!first) out_char(o, ',');
        uj_quoted(o, (const uint8_t *)s, strlen(s));
        first = 0;
    }
    out_char(o, ']');
    o->json_first = 0;
}

static void uj_header(uj_printer *p)
{
    const tdec_uftrace_header *h = &p->dir->hdr;
    out_buf *o = p->out;
    size_t i;
    out_json_open(o);
    uj_str(o, "file", "info");
    out_json_u64(o, "off", 0);
    out_json_str(o, "kind", "header");
    out_json_str(o, "format", "uftrace");
    out_json_u64(o, "version", h->version);
    out_json_str(o, "endian", h->endian == 1 ? "little" : "big");
    out_json_u64(o, "class", h->elf_class == 2 ? 64 : 32);
    out_json_u64(o, "feat_mask", h->feat_mask);
    uj_mask(o, "features", h->feat_mask, tdec_uftrace_feat_str);
    out_json_u64(o, "info_mask", h->info_mask);
    uj_mask(o, "info", h->info_mask, tdec_uftrace_info_str);
    uj_str(o, "exename", p->dir->exename);
    out_json_key(o, "tids");
    out_char(o, '[');
    for (i = 0; i < p->dir->ntids; i++) {
        if (i > 0) out_char(o, ',');
        out_i64(o, p->dir->tids[i]);
    }
    out_char(o, ']');
    o->json_first = 0;
    out_json_close(o);
}

int fe_uftrace_json(const cli_opts *opt, out_buf *out, out_buf *err)
{
    static uft_dir dir;
    static uj_printer p;
    static uft_rec rec;
    char path[4096], file[64];
    struct stat sb;
    size_t i;

    if (uft_open_dir(&dir, opt->path, err)) return 1;
    memset(&p, 0, sizeof p);
    p.dir = &dir;
    p.out = out;
    p.err = err;
    p.file = file;
    uj_header(&p);
    for (i = 0; i < dir.ntids; i++) {
        p.tid = dir.tids[i];
        p.task = uft_find_task(&dir, p.tid);
        snprintf(file, sizeof file, "%d.dat", p.tid);
        if (uj_task(&p, &rec)) return 1;
    }
    p.task = NULL;
    for (i = 0; i < dir.nperf_files; i++) {
        snprintf(path, sizeof path, "%s/%s", opt->path, dir.perf_files[i]);
        if (stat(path, &sb) != 0 || sb.st_size == 0) continue;
        snprintf(file, sizeof file, "%s", dir.perf_files[i]);
        if (uj_perf(&p, path)) return 1;
    }
    out_flush(out);
    return out->failed ? 1 : 0;
}
