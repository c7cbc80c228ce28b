/* values.c - the text of argument and return values, as uftrace 0.13's
   get_argspec_string() makes it for replay and (with JSON escapes) for
   dump --chrome (values.h). */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/uftrace/values.h"

#include "tools/cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void uft_text_put(uft_text *s, const char *p, size_t n)
{
    if (n > sizeof s->buf - 1 - s->len) n = sizeof s->buf - 1 - s->len;
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    s->buf[s->len] = '\0';
}

void uft_text_puts(uft_text *s, const char *p)
{
    uft_text_put(s, p, strlen(p));
}

void uft_text_printf(uft_text *s, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(s->buf + s->len, sizeof s->buf - s->len, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    s->len += (size_t)n < sizeof s->buf - s->len ? (size_t)n : sizeof s->buf - 1 - s->len;
}

/* The escapes replay uses for strings and chars. */
static void uv_put_escaped(uft_text *s, char c)
{
    if (c == '\0') uft_text_puts(s, "\\0");
    else if (c == '\b') uft_text_puts(s, "\\b");
    else if (c == '\n') uft_text_puts(s, "\\n");
    else uft_text_put(s, &c, 1);
}

void uft_json_escaped(uft_text *s, char c)
{
    if (c == '\n') uft_text_puts(s, "\\\\n");
    else if (c == '\t') uft_text_puts(s, "\\\\t");
    else if (c == '\\') uft_text_puts(s, "\\\\");
    else if (c == '"') uft_text_puts(s, "\\\"");
    else if (c >= 0x20 && c < 0x7f) uft_text_put(s, &c, 1);
    else uft_text_printf(s, "\\\\x%02x", (unsigned)(unsigned char)c);
}

const char *uft_ptr_name(uft_stream *st, uft_stask *t, uint64_t time, uint64_t v)
{
    const uft_sym *sym;
    if (uft_stream_session(st, t, time) == NULL) return NULL;
    sym = uft_find_sym(st->dir, t->t, time, v);
    if (sym) return sym->name;
    if (v == UFT_EV_SCHED_IN || v == UFT_EV_SCHED_OUT || v == UFT_EV_SCHEDULE) return "linux:schedule";
    if (v == UFT_EV_SCHED_OUT_PRE || v == UFT_EV_SCHEDULE_PRE) return "linux:schedule (pre-empted)";
    return NULL;
}

/* An integer as printf("%#<len><conv>") prints the value uftrace passes:
   `width` bits of it (8, 16, 32 or 64). */
static void uv_put_int(uft_text *s, uint64_t v, unsigned width, char conv)
{
    uint64_t mask = width >= 64 ? UINT64_MAX : (((uint64_t)1 << width) - 1);
    uint64_t u = v & mask;
    int64_t i = (int64_t)u;
    if (width < 64 && (u >> (width - 1)) & 1u) i = (int64_t)(u | ~mask);
    switch (conv) {
    case 'd': case 'i': uft_text_printf(s, "%lld", (long long)i); break;
    case 'u': uft_text_printf(s, "%llu", (unsigned long long)u); break;
    default:  uft_text_printf(s, u ? "%#llx" : "0", (unsigned long long)u); break;
    }
}

static unsigned uv_width_of(unsigned size)
{
    return size >= 8 ? 64u : size >= 4 ? 32u : size >= 2 ? 16u : 8u;
}

/* One value of a block, in replay's syntax (json: uftrace's JSON escapes). */
static void uv_value(uft_stream *st, uft_stask *t, const uft_view *r, const uft_val *v, int json, uft_text *s)
{
    const uft_rec *u = r->rec;
    const tdec_uftrace_arg *a = &v->arg;
    uint64_t x = v->value;
    char name[64];
    size_t i, n;

    switch (a->kind) {
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING: {
        const uint8_t *p = u->bytes + v->off;
        if (v->len == 4 && p[0] == 0xff && p[1] == 0xff && p[2] == 0xff && p[3] == 0xff) {
            uft_text_puts(s, "NULL");
        } else {
            /* text up to its first NUL; printed raw when a byte with the
               high bit set is followed by more text, else escaped */
            n = strnlen((const char *)p, v->len);
            if (json) {
                uft_text_puts(s, "\\\"");
                for (i = 0; i < n; i++) uft_json_escaped(s, (char)p[i]);
                uft_text_puts(s, "\\\"");
            } else {
                for (i = 0; i < n && !(p[i] & 0x80); i++) continue;
                uft_text_puts(s, "\"");
                if (i + 1 < n) uft_text_put(s, (const char *)p, n);
                else
                    for (i = 0; i < n; i++) uv_put_escaped(s, (char)p[i]);
                uft_text_puts(s, "\"");
            }
        }
        if (a->kind == TDEC_UFTRACE_V_STDSTRING) uft_text_puts(s, "s");
        return;
    }
    case TDEC_UFTRACE_V_CHAR:
        uft_text_puts(s, "'");
        if (json) uft_json_escaped(s, (char)(x & 0xff));
        else uv_put_escaped(s, (char)(x & 0xff));
        uft_text_puts(s, "'");
        return;
    case TDEC_UFTRACE_V_FLOAT:
        if (a->size == 4) {
            float f;
            memcpy(&f, v->raw, 4);
            uft_text_printf(s, "%#f", (double)f);
        } else if (a->size == 8) {
            double d;
            memcpy(&d, v->raw, 8);
            uft_text_printf(s, "%#f", d);
        } else if (a->size == 10) {
            /* x87 extended precision: what uftrace's host (x86) reads */
            long double ld = 0;
            memcpy(&ld, v->raw, sizeof ld < 10 ? sizeof ld : 10);
            uft_text_printf(s, "%#Lf", ld);
        }
        return;
    case TDEC_UFTRACE_V_STRUCT:
        uft_val_type_name(u, v, name, sizeof name);
        if (strcmp(name, "<lambda") != 0) uft_text_puts(s, name);
        uft_text_puts(s, a->size ? "{...}" : "{}");
        return;
    default:
        break;
    }
    if (a->format == 'p') {
        const char *sym = uft_ptr_name(st, t, r->time, x);
        if (sym) uft_text_printf(s, "&%s", sym);
        else if (x) uft_text_printf(s, "%#llx", (unsigned long long)x);
        else uft_text_puts(s, "0");
        return;
    }
    if (a->format == 'e') {
        char text[1024];
        uft_val_type_name(u, v, name, sizeof name);
        if (uft_func_enum_text(st->dir, t->t, r->time, r->addr, name, (int32_t)x, text, sizeof text)) uft_text_puts(s, text);
        else uft_text_printf(s, "<ENUM?> %x", (unsigned)(int32_t)x);
        return;
    }
    if (a->format == 'd') {
        /* automatic: decimal, hex beyond +-100000, but a 32-bit negative
           number stays decimal */
        int64_t sv = (int64_t)x;
        if (sv > 100000 || sv < -100000) {
            if (x > 0xffff0000u && x <= 0xffffffffu) uv_put_int(s, x, 32, 'd');
            else uv_put_int(s, x, uv_width_of(a->size), 'x');
            return;
        }
        uv_put_int(s, x, uv_width_of(a->size), 'd');
        return;
    }
    if (a->format == 'u' && x > 100000) {
        uv_put_int(s, x, uv_width_of(a->size), 'x');
        return;
    }
    uv_put_int(s, x, uv_width_of(a->size), (char)a->format);
}

static uint32_t uv_round4(uint32_t n)
{
    return (n + 3u) & ~3u;
}

/* uftrace 0.13's replay steps over a char value by 4 bytes whatever its
   size, so after a "c64" it reads the rest of an argument block 4 bytes
   early. The block's values as it reads them: the block rebuilt as stored
   (string padding, which is not kept, taken as zeros) and read with its
   steps. u itself when no c64 comes before another value. */
static const uft_rec *uv_as_uftrace_reads(const uft_stream *st, const uft_rec *u)
{
    static uft_rec w;
    const uint32_t room = TDEC_UFTRACE_MAX_BLOCK + 12u; /* the block at w.bytes, zeros after it */
    int big = st->dir->hdr.endian == 2;
    uint32_t k, off = 0, pos = 0, step, names = (uint32_t)room;
    uint8_t *img = w.bytes;
    for (k = 0; k + 1 < u->nvals; k++)
        if (u->vals[k].arg.kind == TDEC_UFTRACE_V_CHAR && u->vals[k].arg.size == 8) break;
    if (k + 1 >= u->nvals) return u;
    w = *u;
    memset(img, 0, room);
    for (k = 0; k < u->nvals; k++) {
        const uft_val *v = &u->vals[k];
        if (v->name_len > 0) { /* type names after the block */
            memcpy(w.bytes + names, u->bytes + v->name_off, v->name_len);
            w.vals[k].name_off = (uint16_t)names;
            names += v->name_len;
        }
        if (v->arg.kind == TDEC_UFTRACE_V_STRING || v->arg.kind == TDEC_UFTRACE_V_STDSTRING) {
            img[off + (big ? 1u : 0u)] = (uint8_t)v->len;
            img[off + (big ? 0u : 1u)] = (uint8_t)(v->len >> 8);
            memcpy(img + off + 2, u->bytes + v->off, v->len);
            off += uv_round4(2u + v->len);
        } else if (v->arg.kind == TDEC_UFTRACE_V_STRUCT) {
            memcpy(img + off, u->bytes + v->off, v->len);
            off += uv_round4(v->len);
        } else {
            memcpy(img + off, v->raw, uv_round4(v->arg.size));
            off += uv_round4(v->arg.size);
        }
    }
    for (k = 0; k < w.nvals; k++) {
        uft_val *v = &w.vals[k];
        switch (v->arg.kind) {
        case TDEC_UFTRACE_V_STRING:
        case TDEC_UFTRACE_V_STDSTRING:
            v->off = (uint16_t)(pos + 2);
            v->len = (uint16_t)cli_get_uint(img + pos, 2, big);
            if (v->len > room - pos - 2) v->len = (uint16_t)(room - pos - 2);
            step = 2u + v->len;
            break;
        case TDEC_UFTRACE_V_STRUCT:
            v->off = (uint16_t)pos;
            v->len = 0; /* (replay prints only the name) */
            step = v->arg.size;
            break;
        default:
            memcpy(v->raw, img + pos, sizeof v->raw);
            v->value = cli_get_uint(img + pos, v->arg.kind == TDEC_UFTRACE_V_FLOAT ? 0u : v->arg.size, big);
            step = v->arg.kind == TDEC_UFTRACE_V_CHAR ? 1u : v->arg.size;
            break;
        }
        pos += uv_round4(step);
        if (pos > TDEC_UFTRACE_MAX_BLOCK) pos = TDEC_UFTRACE_MAX_BLOCK;
    }
    return &w;
}

void uft_values_text(uft_stream *st, uft_stask *t, const uft_view *r, int is_exit, int json, uft_text *s)
{
    uint32_t k, n = r->rec ? r->rec->nvals : 0;
    uft_view shown = *r;
    if (!is_exit) uft_text_puts(s, "(");
    if (n > 0) shown.rec = uv_as_uftrace_reads(st, r->rec);
    for (k = 0; k < n; k++) {
        if (k > 0) uft_text_puts(s, ", ");
        uv_value(st, t, &shown, &shown.rec->vals[k], json, s);
        if (is_exit) break; /* only the first return value */
    }
    if (!is_exit) uft_text_puts(s, ")");
}
