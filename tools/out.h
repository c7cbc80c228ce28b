/* out.h - the CLI's shared output module: a buffered writer with fast
   number formatting, JSON escaping and hex dumps. Every front end prints
   through it. Not part of the library. */
#ifndef TDEC_TOOLS_OUT_H
#define TDEC_TOOLS_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUT_BUF_SIZE (1u << 16)

typedef struct out_buf {
    int    fd;
    int    failed;     /* a write(2) failed; further output is dropped */
    int    json_first; /* next JSON key is the object's first            */
    size_t len;
    char   buf[OUT_BUF_SIZE];
} out_buf;

void out_init(out_buf *o, int fd);
void out_flush(out_buf *o);
void out_mem(out_buf *o, const void *p, size_t n);
void out_str(out_buf *o, const char *s);
/* A string literal: its length is known at compile time. */
#define out_lit(o, lit) out_mem((o), "" lit, sizeof(lit) - 1)
/* A string literal, then a number. */
#define out_lit_u64(o, lit, v) (out_lit(o, lit), out_u64((o), (v)))
void out_char(out_buf *o, char c);
void out_u64(out_buf *o, uint64_t v);
void out_i64(out_buf *o, int64_t v);
void out_u64_padded(out_buf *o, uint64_t v, unsigned width, char fill);
void out_hex(out_buf *o, uint64_t v);                  /* lowercase, no prefix */
void out_hex_bytes(out_buf *o, const uint8_t *p, size_t n);
void out_json_chars(out_buf *o, const char *s, size_t n); /* escaped, no quotes */
/* JSON objects: open writes '{', each helper writes `"key":value` with a
   comma before all but the first, close writes "}\n". */
void out_json_open(out_buf *o);
void out_json_close(out_buf *o);
void out_json_key(out_buf *o, const char *key);
void out_json_u64(out_buf *o, const char *key, uint64_t v);
void out_json_i64(out_buf *o, const char *key, int64_t v);
void out_json_str(out_buf *o, const char *key, const char *v);
void out_json_bool(out_buf *o, const char *key, int v);

/* Formatting straight into the buffer, for hot lines: out_reserve()
   guarantees n bytes of room (n <= OUT_BUF_SIZE) and returns where to write;
   the fmt_* helpers append and return the new end; out_commit() takes the
   end. Nothing is checked in between, so n must bound the whole line. */
static inline char *out_reserve(out_buf *o, size_t n)
{
    if (OUT_BUF_SIZE - o->len < n) out_flush(o);
    return o->buf + o->len;
}
static inline void out_commit(out_buf *o, char *end)
{
    o->len = (size_t)(end - o->buf);
}
static inline char *fmt_mem(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}
#define fmt_lit(p, lit) fmt_mem((p), "" lit, sizeof(lit) - 1)
/* "00".."99": numbers are formatted two digits per division. */
static const char fmt__pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                 "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                 "8081828384858687888990919293949596979899";

/* v right-aligned in at least width characters (width <= 24), written in
   place from its last digit, two digits per division */
static inline char *fmt_u64w(char *p, uint64_t v, unsigned width, char fill)
{
    static const uint64_t pow10[20] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
                                       100000000u, 1000000000u, 10000000000u, 100000000000u,
                                       1000000000000u, 10000000000000u, 100000000000000u,
                                       1000000000000000u, 10000000000000000u, 100000000000000000u,
                                       1000000000000000000u, 10000000000000000000u};
    unsigned n = 1, i;
    uint32_t w;
    char *e;
    while (n < 20 && v >= pow10[n]) n++;
    for (i = n; i < width; i++) *p++ = fill;
    e = p + n;
    while (v > UINT32_MAX) { /* 64-bit divisions only while they are needed */
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        e[0] = fmt__pairs[2 * r];
        e[1] = fmt__pairs[2 * r + 1];
    }
    w = (uint32_t)v;
    while (w >= 100) {
        unsigned r = w % 100;
        w /= 100;
        e -= 2;
        e[0] = fmt__pairs[2 * r];
        e[1] = fmt__pairs[2 * r + 1];
    }
    if (w >= 10) {
        e[-2] = fmt__pairs[2 * w];
        e[-1] = fmt__pairs[2 * w + 1];
    } else {
        e[-1] = (char)('0' + w);
    }
    return p + n;
}
static inline char *fmt_u64(char *p, uint64_t v) /* at most 20 bytes */
{
    return fmt_u64w(p, v, 0, '0');
}
static inline char *fmt_hex(char *p, uint64_t v) /* lowercase, at most 16 bytes */
{
    unsigned n = 1;
    uint64_t t = v >> 4;
    char *e;
    while (t != 0) {
        n++;
        t >>= 4;
    }
    e = p + n;
    while (v >= 16) { /* two digits per step */
        unsigned b = (unsigned)(v & 0xFFu);
        e -= 2;
        e[0] = "0123456789abcdef"[b >> 4];
        e[1] = "0123456789abcdef"[b & 15u];
        v >>= 8;
    }
    if (e > p) e[-1] = "0123456789abcdef"[v];
    return p + n;
}
static inline char *fmt_i64(char *p, int64_t v) /* at most 20 bytes */
{
    if (v >= 0) return fmt_u64(p, (uint64_t)v);
    *p++ = '-';
    return fmt_u64(p, (uint64_t)0 - (uint64_t)v);
}

#endif
