/* json.c - `tracedec dump --json DIR` for uftrace data directories.

   One JSON object per line: a header object, then one object per record of
   every <tid>.dat (taskinfo order) and every non-empty perf-cpuN.dat, the
   files in the order of the text dump (dump.c). Argument / return
   values and event data are folded into their record. Records come from
   the shared readers of read.h; the schema is in docs/uftrace.md. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/cli.h"
#include "tools/cli/uftrace/dir.h"
#include "tools/cli/uftrace/read.h"
#include "tools/cli/uftrace/uftrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct uj_printer {
    uft_dir        *dir;
    const uft_task *task;
    int32_t         tid;
    char            file[64]; /* "2702.dat", "perf-cpu0.dat" */
    out_buf        *out;
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
        uint32_t bits = (uint32_t)cli_get_uint(b, 4, uj_big(p));
        float f;
        memcpy(&f, &bits, sizeof f);
        out_json_key(o, "value");
        uj_number(o, (double)f, 1);
        out_json_hex(o, "bits", bits);
    } else if (val->arg.size == 8) {
        uint64_t bits = cli_get_uint(b, 8, uj_big(p));
        double d;
        memcpy(&d, &bits, sizeof d);
        out_json_key(o, "value");
        uj_number(o, d, 0);
        out_json_hex(o, "bits", bits);
    } else if (val->arg.size < 4) {
        /* "f8", "f16": no float format; uftrace dump prints the bits */
        uint64_t bits = cli_get_uint(b, val->arg.size, uj_big(p));
        out_json_key(o, "value");
        out_lit(o, "null");
        out_json_hex(o, "bits", bits);
    } else {
        /* x87 80-bit extended (little-endian): 64-bit mantissa with an
           explicit integer bit, then sign and 15-bit exponent */
        uint64_t mant = cli_get_uint(b, 8, 0);
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
        uint8_t c = (uint8_t)v; /* "c16" and wider: replay shows the first byte */
        snprintf(type, sizeof type, "c%u", bits);
        uj_str(o, "type", type);
        out_json_u64(o, "value", v);
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
            char text[1024];
            uj_str(o, "type", "enum");
            out_json_i64(o, "value", (int32_t)sv);
            uft_val_type_name(rec, val, tname, sizeof tname);
            uj_str(o, "enum", tname);
            if (uft_func_enum_text(p->dir, p->task, rec->rec.time, rec->rec.addr, tname, (int32_t)sv, text,
                                   sizeof text))
                uj_str(o, "text", text);
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
        out_json_i64(o, "cpu", (int32_t)(uint32_t)cli_get_uint(data, 4, big));
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
                uint64_t v = cli_get_uint(data + i * 8, 8, big);
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

static void uj_record(void *ctx, const uft_rec *rec)
{
    uj_printer *p = (uj_printer *)ctx;
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
            if (r->type == TDEC_UFTRACE_REC_EXIT && rec->nvals > 0) {
                out_json_key(o, "retval");
                uj_value(p, rec, &rec->vals[0]);
            }
            /* every value: an exit's only when it has several ("arg0"
               items of index 0 beside "retval") */
            if (r->type == TDEC_UFTRACE_REC_ENTRY || rec->nvals > 1) {
                out_json_key(o, r->type == TDEC_UFTRACE_REC_ENTRY ? "args" : "retvals");
                out_char(o, '[');
                for (k = 0; k < rec->nvals; k++) {
                    if (k > 0) out_char(o, ',');
                    uj_value(p, rec, &rec->vals[k]);
                }
                out_char(o, ']');
                o->json_first = 0;
            }
        }
    }
    if (rec->incomplete) out_json_bool(o, "incomplete", 1);
    out_json_close(o);
}

/* A <tid>.dat file begins. */
static void uj_task(void *ctx, int32_t tid)
{
    uj_printer *p = (uj_printer *)ctx;
    p->tid = tid;
    p->task = uft_find_task(p->dir, tid);
    snprintf(p->file, sizeof p->file, "%d.dat", tid);
}

/* A perf-cpuN.dat file begins: the records of traced tasks follow, as in
   the text dump. */
static void uj_perf(void *ctx, size_t index, const char *name)
{
    uj_printer *p = (uj_printer *)ctx;
    (void)index;
    p->task = NULL;
    snprintf(p->file, sizeof p->file, "%s", name);
}

static void uj_perf_record(void *ctx, const tdec_uftrace_perf_record *r, uint64_t offset)
{
    uj_printer *p = (uj_printer *)ctx;
    uint32_t id = uft_perf_event_id(r);
    int32_t tid = (int32_t)r->tid;
    char name[128];
    out_buf *o = p->out;
    uj_common(p, offset, "event", tid, r->time);
    out_json_u64(o, "id", id);
    uj_str(o, "name", uft_event_name(p->dir, id, name, sizeof name));
    if (r->type == TDEC_UFTRACE_PERF_COMM) {
        out_json_key(o, "data");
        out_json_open(o);
        out_json_u64(o, "pid", r->pid);
        uj_str(o, "comm", r->comm);
        out_char(o, '}');
        o->json_first = 0;
    } else if (r->type == TDEC_UFTRACE_PERF_FORK || r->type == TDEC_UFTRACE_PERF_EXIT) {
        out_json_key(o, "data");
        out_json_open(o);
        out_json_u64(o, "pid", r->pid);
        out_json_u64(o, "ppid", r->ppid);
        out_json_u64(o, "ptid", r->ptid);
        out_char(o, '}');
        o->json_first = 0;
    }
    out_json_close(o);
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

/* The directory is open: the header object. */
static void uj_start(void *ctx, uft_dir *dir, out_buf *out)
{
    uj_printer *p = (uj_printer *)ctx;
    memset(p, 0, sizeof *p);
    p->dir = dir;
    p->out = out;
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

int uft_dump_json(const char *path, out_buf *out, out_buf *err)
{
    static uj_printer p;
    static const uft_dump_printer printer = {&p, uj_start, uj_task, uj_record, uj_perf, uj_perf_record};
    return uft_dump_dir(path, &printer, out, err);
}
