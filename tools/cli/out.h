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
void out_hexw(out_buf *o, uint64_t v, unsigned width); /* zero-padded to width (<= 32) */
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
void out_json_null(out_buf *o, const char *key);
void out_json_hex(out_buf *o, const char *key, uint64_t v); /* "0x" and lowercase hex, as a string */

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

static const char fmt__hexpairs[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f"
    "303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f"
    "909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef"
    "f0f1f2f3f4f5f6f7f8f9fafbfcfdfefff";

/* Bits in v: 0 for 0. */
static inline unsigned fmt__bits(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0u;
#else
    unsigned n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
#endif
}

/* v right-aligned in at least width characters (width <= 24), written in
   place from its last digit, two digits per division */
static inline char *fmt_u64w(char *p, uint64_t v, unsigned width, char fill)
{
    static const uint64_t pow10[20] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
                                       100000000u, 1000000000u, 10000000000u, 100000000000u,
                                       1000000000000u, 10000000000000u, 100000000000000u,
                                       1000000000000000u, 10000000000000000u, 100000000000000000u,
                                       1000000000000000000u, 10000000000000000000u};
    unsigned n = fmt__bits(v) * 1233u >> 12, i; /* log10 from log2: n or n - 1 digits */
    uint32_t w;
    char *e;
    n += n < 20 && v >= pow10[n];
    n += n == 0;
    for (i = n; i < width; i++) *p++ = fill;
    e = p + n;
    while (v > UINT32_MAX) { /* 64-bit divisions only while they are needed */
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        memcpy(e, fmt__pairs + 2 * r, 2);
    }
    w = (uint32_t)v;
    while (w >= 100) {
        unsigned r = w % 100;
        w /= 100;
        e -= 2;
        memcpy(e, fmt__pairs + 2 * r, 2);
    }
    if (w >= 10) {
        memcpy(e - 2, fmt__pairs + 2 * w, 2);
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
    unsigned n = (fmt__bits(v) + 3) / 4;
    char *e;
    n += n == 0;
    e = p + n;
    while (v >= 16) { /* two digits per step */
        e -= 2;
        memcpy(e, fmt__hexpairs + 2 * (v & 0xFFu), 2);
        v >>= 8;
    }
    if (e > p) e[-1] = "0123456789abcdef"[v];
    return p + n;
}
/* v in lowercase hex, at least width digits (zero-padded); at most
   max(width, 16) bytes. */
static inline char *fmt_hexw(char *p, uint64_t v, unsigned width)
{
    unsigned n = (fmt__bits(v) + 3) / 4, k;
    n += n == 0;
    if (n < width) n = width;
    for (k = n; k-- > 0; v >>= 4) p[k] = "0123456789abcdef"[v & 15u];
    return p + n;
}
static inline char *fmt_i64(char *p, int64_t v) /* at most 20 bytes */
{
    if (v >= 0) return fmt_u64(p, (uint64_t)v);
    *p++ = '-';
    return fmt_u64(p, (uint64_t)0 - (uint64_t)v);
}
/* printf("%*lld", width, v) */
static inline char *fmt_i64w(char *p, int64_t v, unsigned width)
{
    char tmp[24];
    if (v >= 0) return fmt_u64w(p, (uint64_t)v, width, ' ');
    size_t n = (size_t)(fmt_i64(tmp, v) - tmp), k;
    for (k = n; k < width; k++) *p++ = ' ';
    return fmt_mem(p, tmp, n);
}

#endif
