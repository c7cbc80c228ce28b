/* check_common.h - the format-independent parts of the fuzz/test checkers
   (tests/lib/xray_check.h, tests/lib/uftrace_check.h): the canonical log (text kept
   up to a capacity, length and FNV-1a hash over all of it), number
   formatting without printf, the chunk schedule (cuts, fixed steps or a
   seeded xorshift32), the fragment tiling check, and log comparison.
   Include-only (static functions); needs the tracedec core (tdec_frag,
   TDEC_FRAG_*) from whichever single/ header the includer uses. */
#ifndef CHECK_COMMON_H
#define CHECK_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define CC_FN static __attribute__((unused))
#else
#define CC_FN static
#endif

/* A log being written: the checker's run struct owns these fields and
   passes their addresses, so its public field names stay its own. */
typedef struct cc_log {
    char     *log;      /* may be NULL (hash only)            */
    size_t    cap;
    size_t   *len;      /* whole log, even past cap           */
    uint64_t *hash;
    int      *pay_line; /* a payload line is open in the log  */
} cc_log;

#define CC_FNV_BASIS 1469598103934665603ull

CC_FN void cc_put(const cc_log *l, const char *s, size_t n)
{
    uint64_t h = *l->hash;
    size_t i, keep;
    if (l->log && *l->len < l->cap) { /* one copy, one hash loop: cheap under trace-cmp */
        keep = l->cap - *l->len < n ? l->cap - *l->len : n;
        memcpy(l->log + *l->len, s, keep);
    }
    *l->len += n;
    for (i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
    *l->hash = h;
    if (l->log && l->cap > 0) l->log[*l->len < l->cap ? *l->len : l->cap - 1] = 0;
}

/* Closes an open payload line (" cut": it never ended). */
CC_FN void cc_close_pay(const cc_log *l)
{
    if (*l->pay_line) cc_put(l, " cut\n", 5);
    *l->pay_line = 0;
}

CC_FN void cc_vline(const cc_log *l, const char *fmt, va_list ap)
{
    char line[256];
    int n;
    cc_close_pay(l);
    n = vsnprintf(line, sizeof line, fmt, ap);
    if (n > 0) cc_put(l, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Appends the bytes as lower-case hex. */
CC_FN void cc_hex(const cc_log *l, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char h[2];
    size_t i;
    for (i = 0; i < n; i++) {
        h[0] = hex[p[i] >> 4];
        h[1] = hex[p[i] & 15];
        cc_put(l, h, 2);
    }
}

/* Appends key and a decimal number (negative: v is the two's complement). */
CC_FN char *cc_kv(char *p, const char *key, unsigned long long v, int neg)
{
    char tmp[24];
    int n = 0;
    while (*key) *p++ = *key++;
    if (neg) {
        *p++ = '-';
        v = 0 - v;
    }
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

CC_FN char *cc_str(char *p, const char *key, const char *v)
{
    while (*key) *p++ = *key++;
    while (*v) *p++ = *v++;
    return p;
}

/* Writes the message into msg (cap bytes) and returns msg. */
CC_FN const char *cc_vfail(char *msg, size_t cap, const char *fmt, va_list ap)
{
    vsnprintf(msg, cap, fmt, ap);
    return msg;
}

/* A chunk schedule. Chunks end at each cut (ascending stream offsets),
   then every `step` bytes (0: the rest of the input), or, with a non-zero
   seed, at random lengths (some of them 0). */
typedef struct cc_sched {
    const size_t *cuts;
    size_t        ncuts;
    size_t        step;
    uint32_t      seed;
} cc_sched;

/* Length of the next chunk: ends at the next cut beyond `fed`, else by step
   or by the seeded generator. */
CC_FN size_t cc_chunk(const cc_sched *s, size_t fed, size_t len, uint32_t *rng, size_t *cut_i)
{
    size_t n = len - fed;
    uint32_t v;
    while (*cut_i < s->ncuts && s->cuts[*cut_i] <= fed) (*cut_i)++;
    if (*cut_i < s->ncuts && s->cuts[*cut_i] < len) return s->cuts[*cut_i] - fed;
    if (s->seed != 0) {
        *rng ^= *rng << 13; /* xorshift32 */
        *rng ^= *rng >> 17;
        *rng ^= *rng << 5;
        v = *rng;
        switch (v & 15u) {
        case 0:  n = 0; break;
        case 1: case 2: case 3: case 4: case 5: case 6: case 7: n = 1 + (v >> 4) % 16u; break;
        case 15: n = 1 + (v >> 4) % 8192u; break;
        default: n = 1 + (v >> 4) % 256u; break;
        }
    } else if (s->step != 0) {
        n = s->step;
    }
    return n < len - fed ? n : len - fed;
}

/* The fragment tiling check: f (at stream offset `off`) must continue the
   open payload [0,pay_total) at pay_got with the right FIRST/LAST flags,
   respect max_frag (0: none), point into the chunk just fed and hold the
   input's bytes. Returns 0 if so, else 1 with the reason in msg. */
CC_FN int cc_frag_bad(char *msg, size_t cap, const tdec_frag *f, uint64_t off, int pay_open, uint64_t pay_total,
                       uint64_t pay_got, uint32_t max_frag, const uint8_t *chunk, size_t chunk_len,
                       const uint8_t *in, size_t len)
{
    uint32_t flags = (f->offset == 0 ? TDEC_FRAG_FIRST : 0u) | (f->offset + f->len == f->total ? TDEC_FRAG_LAST : 0u);
    if (!pay_open) snprintf(msg, cap, "fragment without a payload record");
    else if (f->len == 0) snprintf(msg, cap, "empty fragment");
    else if (f->total != pay_total || f->offset != pay_got || f->flags != flags)
        snprintf(msg, cap, "fragment off=%llu len=%zu total=%llu flags=%u does not tile",
                 (unsigned long long)f->offset, f->len, (unsigned long long)f->total, (unsigned)f->flags);
    else if (max_frag && f->len > max_frag)
        snprintf(msg, cap, "fragment longer than max_fragment");
    else if (chunk == NULL || f->data < chunk || f->data + f->len > chunk + chunk_len)
        snprintf(msg, cap, "fragment data outside the current chunk");
    else if (off + f->len > len || memcmp(f->data, in + off, f->len) != 0)
        snprintf(msg, cap, "fragment bytes differ from the input");
    else
        return 0;
    return 1;
}

/* 1 if two logs are the same (compared by length, hash and kept text). */
CC_FN int cc_same_log(const char *a, size_t alen, size_t acap, uint64_t ahash, const char *b, size_t blen,
                       size_t bcap, uint64_t bhash)
{
    size_t n = alen < acap ? alen : acap;
    if (alen != blen || ahash != bhash) return 0;
    if (bcap < n) n = bcap;
    return a == NULL || b == NULL || memcmp(a, b, n) == 0;
}

/* Prints the first differing line of two logs to f (for failure reports). */
CC_FN void cc_print_diff(FILE *f, const char *a, size_t alen, const char *b, size_t blen)
{
    const char *p = a, *q = b, *e;
    size_t line = 1;
    if (p == NULL || q == NULL) { fprintf(f, "  (no log text kept)\n"); return; }
    if (strcmp(p, q) == 0) {
        fprintf(f, "  the logs differ beyond the %zu bytes kept (lengths %zu and %zu)\n", strlen(p), alen, blen);
        return;
    }
    while (*p && *p == *q) {
        if (*p == '\n') line++;
        p++;
        q++;
    }
    while (p > a && p[-1] != '\n') { p--; q--; }
    e = strchr(p, '\n');
    fprintf(f, "  line %zu:\n  < %.*s\n", line, e ? (int)(e - p) : (int)strlen(p), p);
    e = strchr(q, '\n');
    fprintf(f, "  > %.*s\n", e ? (int)(e - q) : (int)strlen(q), q);
}

#endif /* CHECK_COMMON_H */
