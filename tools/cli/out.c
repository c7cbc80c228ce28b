/* out.c - buffered output for the tracedec CLI; see out.h. */
#define _POSIX_C_SOURCE 200809L
#include "tools/cli/out.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

void out_init(out_buf *o, int fd)
{
    o->fd = fd;
    o->failed = 0;
    o->json_first = 1;
    o->len = 0;
}

void out_flush(out_buf *o)
{
    size_t done = 0;
    while (done < o->len && !o->failed) {
        ssize_t n = write(o->fd, o->buf + done, o->len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) o->failed = 1;
        else done += (size_t)n;
    }
    o->len = 0;
}

void out_mem(out_buf *o, const void *p, size_t n)
{
    const char *s = (const char *)p;
    if (n <= OUT_BUF_SIZE - o->len) { /* the common case: it fits */
        memcpy(o->buf + o->len, s, n);
        o->len += n;
        return;
    }
    while (n > 0) {
        size_t room = OUT_BUF_SIZE - o->len;
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
        if (o->len == OUT_BUF_SIZE) out_flush(o);
    }
}

void out_str(out_buf *o, const char *s)
{
    out_mem(o, s, strlen(s));
}

void out_char(out_buf *o, char c)
{
    if (o->len == OUT_BUF_SIZE) out_flush(o);
    o->buf[o->len++] = c;
}

void out_u64_padded(out_buf *o, uint64_t v, unsigned width, char fill)
{
    char tmp[24];
    char *end = tmp + sizeof tmp, *p = end;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while ((unsigned)(end - p) < width && p > tmp) *--p = fill;
    out_mem(o, p, (size_t)(end - p));
}

void out_u64(out_buf *o, uint64_t v)
{
    out_u64_padded(o, v, 0, '0');
}

void out_i64(out_buf *o, int64_t v)
{
    if (v < 0) {
        out_char(o, '-');
        out_u64(o, (uint64_t)0 - (uint64_t)v);
    } else {
        out_u64(o, (uint64_t)v);
    }
}

static const char out__digits[] = "0123456789abcdef";

void out_hex(out_buf *o, uint64_t v)
{
    char tmp[16];
    char *end = tmp + sizeof tmp, *p = end;
    do {
        *--p = out__digits[v & 15u];
        v >>= 4;
    } while (v != 0);
    out_mem(o, p, (size_t)(end - p));
}

void out_hexw(out_buf *o, uint64_t v, unsigned width)
{
    char tmp[32];
    if (width > sizeof tmp) width = sizeof tmp;
    out_mem(o, tmp, (size_t)(fmt_hexw(tmp, v, width) - tmp));
}

void out_hex_bytes(out_buf *o, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out_char(o, out__digits[p[i] >> 4]);
        out_char(o, out__digits[p[i] & 15u]);
    }
}

void out_json_chars(out_buf *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            out_char(o, '\\');
            out_char(o, (char)c);
        } else if (c < 0x20 || c == 0x7f) {
            out_str(o, "\\u00");
            out_char(o, out__digits[c >> 4]);
            out_char(o, out__digits[c & 15u]);
        } else {
            out_char(o, (char)c);
        }
    }
}

void out_json_open(out_buf *o)
{
    out_char(o, '{');
    o->json_first = 1;
}

void out_json_close(out_buf *o)
{
    out_str(o, "}\n");
}

void out_json_key(out_buf *o, const char *key)
{
    if (!o->json_first) out_char(o, ',');
    o->json_first = 0;
    out_char(o, '"');
    out_str(o, key);
    out_str(o, "\":");
}

void out_json_u64(out_buf *o, const char *key, uint64_t v)
{
    out_json_key(o, key);
    out_u64(o, v);
}

void out_json_i64(out_buf *o, const char *key, int64_t v)
{
    out_json_key(o, key);
    out_i64(o, v);
}

void out_json_str(out_buf *o, const char *key, const char *v)
{
    out_json_key(o, key);
    out_char(o, '"');
    out_json_chars(o, v, strlen(v));
    out_char(o, '"');
}

void out_json_bool(out_buf *o, const char *key, int v)
{
    out_json_key(o, key);
    out_str(o, v ? "true" : "false");
}

void out_json_null(out_buf *o, const char *key)
{
    out_json_key(o, key);
    out_lit(o, "null");
}

void out_json_hex(out_buf *o, const char *key, uint64_t v)
{
    out_json_key(o, key);
    out_str(o, "\"0x");
    out_hex(o, v);
    out_char(o, '"');
}
