/* check_common.h - what every oracle (tests/lib/FMT_check.h) shares, so each
   invariant, and the way a decode is driven and compared, exists once. The
   unit tests (tests/unit/FMT.c) and the fuzz harnesses (fuzz/fuzz_FMT.c)
   both reach it through an oracle.

     cc_sched, cc_chunk()     the one chunk scheduler: cuts, fixed steps or
                              seeded xorshift32 lengths; cc_sched_pick()
                              is the schedule a fuzz input chooses
     cc_feed                  the input side of a run: each chunk is its own
                              copy, scribbled over and freed at the next
                              NEED_INPUT (or one reused buffer, scribbled)
     cc_run                   what every oracle's run struct starts with:
                              schedule and options in; the canonical log
                              (text kept up to a capacity, length and
                              FNV-1a hash of all of it), the final status
                              and the violation found, out
     cc_line(), cc_kv(), ...  writing the log
     cc_format, cc_loop()     the canonical loop of DESIGN.md with the checks
                              every format shares; the oracle adds its own
                              per item (and per error) through cc_format
     cc_final()               the Ending rule and sticky errors after a loop
     cc_ending()              a decode in fixed chunks ends as it should
     cc_same_as(),            chunk invariance: a decode's log against the
     cc_schedules()           whole decode's, for one schedule or a plan
     cc_prefixes(),           every prefix ends in END or E_TRUNCATED, never
     cc_fuzz_prefixes()       in a wrong record

   The checks cc_loop() makes on every decode: items start no later than
   the input's end and are bounded by its length (next() never spins);
   NEED_INPUT leaves nothing unread (pos + carry == bytes fed, carry within
   TDEC_CARRY_CAP) and the next feed() is accepted; feed() while the window
   is not used up is E_SEQUENCE and changes nothing (tried after every item
   of a decode in one chunk, else after the first item of each chunk); the
   decoder survives a memcpy to another address at every NEED_INPUT (the
   old copy is scribbled over); finish() says END or an error, never an
   item nor NEED_INPUT, and next() then says the same; next() says neither
   END nor E_TRUNCATED before finish(); reset() after a partial decode
   leaves no state behind (run option); finish() right after the item that
   used up the input ends as after NEED_INPUT (run option). cc_final() then
   checks that END stays END (next, a second finish, feed of a byte or of
   none is E_SEQUENCE) and that an error is sticky in next/feed/finish,
   with err_offset and err_reason fixed either way.

   Include-only (static functions); needs the tracedec core (tdec_status,
   tdec_frag, tdec_stream) from whichever single/ header the includer uses. */
#ifndef CHECK_COMMON_H
#define CHECK_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define CC_FN     static __attribute__((unused))
#define CC_INLINE static inline __attribute__((unused, always_inline))
#else
#define CC_FN     static
#define CC_INLINE static inline
#endif

#define CC_FNV_BASIS 1469598103934665603ull
#define CC_FNV_PRIME 1099511628211ull
#define CC_MSG       1200

/* ---- chunk schedules -------------------------------------------------------- */

/* Chunks end at each cut (ascending stream offsets), then every `step`
   bytes (0: the rest of the input), or, with a non-zero seed, at random
   lengths (some 0, mostly 1..16 and 1..256, a few up to 8 KiB). All zero:
   the whole input in one chunk. */
typedef struct cc_sched {
    const size_t *cuts;
    size_t        ncuts;
    size_t        step;
    uint32_t      seed;
} cc_sched;

/* Length of the next chunk after `fed` of `len` bytes: it ends at the next
   cut beyond `fed`, else by step or by the generator (*rng starts at the
   seed, *cut_i at 0). */
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

/* The schedule a fuzz input chooses with 3 bits: 0 one byte at a time, 1 one
   2-way split at seed % (len + 1) (kept in *cut), 2 fixed steps of
   1 + seed % 97, 3-7 seeded random lengths. */
CC_FN cc_sched cc_sched_pick(unsigned sel, uint32_t seed, size_t len, size_t *cut)
{
    cc_sched s;
    memset(&s, 0, sizeof s);
    switch (sel & 7u) {
    case 0: s.step = 1; break;
    case 1:
        *cut = seed % (len + 1);
        s.cuts = cut;
        s.ncuts = 1;
        break;
    case 2: s.step = 1 + seed % 97u; break;
    default: s.seed = seed ? seed : 1u; break;
    }
    return s;
}

/* 4 bytes little-endian (a fuzz input's seed). */
CC_FN uint32_t cc_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* ---- the input side ------------------------------------------------------------ */

/* How a run's chunks reach feed(): each its own exact-size copy (ASan sees a
   read past it, or of it once freed), or copies into one buffer the size of
   the input that is reused (the canonical loop). Either is scribbled over at
   the next NEED_INPUT, when the caller may reuse it. */
enum { CC_FEED_FRESH = 0, CC_FEED_REUSED };

typedef struct cc_feed {
    const uint8_t *in;        /* the whole input                           */
    size_t         len;
    const uint8_t *chunk;     /* the chunk fed last (NULL before the first) */
    size_t         chunk_len;
    size_t         fed;       /* bytes fed so far                           */
    int            finishing; /* finish() was called                        */
    /* private */
    const cc_sched *sched;
    int            how;
    uint8_t       *buf;
    uint32_t       rng;
    size_t         cut_i;
} cc_feed;

CC_FN int cc_feed_init(cc_feed *f, const uint8_t *in, size_t len, const cc_sched *s, int how)
{
    memset(f, 0, sizeof *f);
    f->in = in;
    f->len = len;
    f->sched = s;
    f->how = how;
    f->rng = s->seed;
    if (how == CC_FEED_REUSED && (f->buf = (uint8_t *)malloc(len ? len : 1u)) == NULL) return 0;
    return 1;
}

/* The caller may reuse its buffer now: the last chunk is scribbled over
   (and freed unless reused). */
CC_FN void cc_feed_drop(cc_feed *f)
{
    if (f->buf) memset(f->buf, 0xA5, f->chunk_len);
    if (f->how == CC_FEED_FRESH) {
        free(f->buf);
        f->buf = NULL;
    }
    f->chunk = NULL;
}

/* The next chunk (the previous one dropped first), or NULL when all is fed.
   A chunk may be empty. */
CC_FN const uint8_t *cc_feed_next(cc_feed *f)
{
    size_t n;
    cc_feed_drop(f);
    if (f->fed >= f->len) return NULL;
    n = cc_chunk(f->sched, f->fed, f->len, &f->rng, &f->cut_i);
    if (f->how == CC_FEED_FRESH && (f->buf = (uint8_t *)malloc(n ? n : 1u)) == NULL) abort();
    memcpy(f->buf, f->in + f->fed, n);
    f->chunk = f->buf;
    f->chunk_len = n;
    f->fed += n;
    return f->chunk;
}

CC_FN void cc_feed_free(cc_feed *f)
{
    cc_feed_drop(f);
    free(f->buf);
    f->buf = NULL;
}

/* ---- the run and its log ---------------------------------------------------------- */

/* What finish() said after a prefix of the input (cc_run.verdicts). */
typedef struct cc_verdict {
    tdec_status st; /* END or the error (next() then said the same)   */
    uint64_t    err_offset;
    uint32_t    err_reason;
    size_t      records;    /* records out before finish()            */
    uint64_t    frag_bytes; /* payload bytes out before finish()      */
    int         seen;       /* the decode stopped at this length       */
} cc_verdict;

typedef struct cc_run {
    /* in */
    cc_sched    sched;        /* zero: the whole input in one chunk             */
    int         feed_how;     /* CC_FEED_*                                      */
    int         reset_first;  /* feed it all, take a few items, reset(), go on  */
    int         finish_early; /* finish() right after the item that used up     */
                              /* the input, before NEED_INPUT                   */
    char       *log;          /* NULL: no log (the items reach the caller       */
                              /* through the oracle's on_item)                  */
    size_t      log_cap;
    cc_verdict *verdicts;     /* may be NULL; else len + 1 entries: at each     */
                              /* NEED_INPUT a copy of the decoder is finished   */
    /* out */
    size_t      log_len;      /* the whole log, even past log_cap               */
    tdec_status status;       /* the final status                               */
    uint64_t    err_offset;   /* the decoder's, when status is an error         */
    uint32_t    err_reason;
    size_t      items, records;
    uint64_t    frag_bytes;   /* fragment bytes handed out                      */
    char        msg[CC_MSG];  /* the violation, if any                          */
    /* private */
    int         pay_line;     /* a payload line is open in the log              */
    uint64_t    hash;         /* FNV-1a of the log's first `hashed` bytes; the  */
    size_t      hashed;       /* rest is kept in log (cc_log_hash() folds it)   */
} cc_run;

/* Clears the outputs before a decode. */
CC_FN void cc_begin(cc_run *r)
{
    r->log_len = 0;
    r->hash = CC_FNV_BASIS;
    r->hashed = 0;
    r->status = TDEC_OK;
    r->err_offset = 0;
    r->err_reason = 0;
    r->items = r->records = 0;
    r->frag_bytes = 0;
    r->msg[0] = 0;
    r->pay_line = 0;
    if (r->log && r->log_cap) r->log[0] = 0;
}

CC_FN void cc__fnv(uint64_t *h, const char *s, size_t n)
{
    uint64_t v = *h;
    size_t i;
    for (i = 0; i < n; i++) v = (v ^ (uint8_t)s[i]) * CC_FNV_PRIME;
    *h = v;
}

/* Appends to the log. While the text fits, it is only kept (and hashed
   when asked); past log_cap it is hashed as it comes. */
CC_FN void cc_put(cc_run *r, const char *s, size_t n)
{
    size_t keep;
    if (r->log == NULL) return;
    if (r->log_len + n < r->log_cap) {
        memcpy(r->log + r->log_len, s, n);
        r->log_len += n;
        r->log[r->log_len] = 0;
        return;
    }
    cc__fnv(&r->hash, r->log + r->hashed, r->log_len - r->hashed);
    cc__fnv(&r->hash, s, n);
    if (r->log_len < r->log_cap) {
        keep = r->log_cap - r->log_len < n ? r->log_cap - r->log_len : n;
        memcpy(r->log + r->log_len, s, keep);
        r->log[r->log_cap - 1] = 0;
    }
    r->log_len += n;
    r->hashed = r->log_len;
}

/* The FNV-1a hash of the whole log. */
CC_FN uint64_t cc_log_hash(const cc_run *r)
{
    uint64_t h = r->hash;
    if (r->log) cc__fnv(&h, r->log + r->hashed, r->log_len - r->hashed);
    return h;
}

/* The log functions below and the oracles' own return at once without a
   log (formatting is most of an oracle's work). */

/* Closes an open payload line (" cut": it never ended). */
CC_FN void cc_close_pay(cc_run *r)
{
    if (r->pay_line) cc_put(r, " cut\n", 5);
    r->pay_line = 0;
}

/* A line of the log (an open payload line is closed first). */
CC_FN void cc_line(cc_run *r, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    int n;
    if (r->log == NULL) return;
    cc_close_pay(r);
    va_start(ap, fmt);
    n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0) cc_put(r, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Writes the bytes as lower-case hex at p; returns the end. */
CC_FN char *cc_hexs(char *p, const uint8_t *b, size_t n)
{
    static char pairs[512];
    static const char hex[] = "0123456789abcdef";
    size_t i;
    if (pairs[0] == 0)
        for (i = 0; i < 256; i++) {
            pairs[2 * i] = hex[i >> 4];
            pairs[2 * i + 1] = hex[i & 15];
        }
    for (i = 0; i < n; i++) memcpy(p + 2 * i, pairs + 2 * b[i], 2);
    return p + 2 * n;
}

/* Appends the bytes as lower-case hex. */
CC_FN void cc_hex(cc_run *r, const uint8_t *p, size_t n)
{
    char buf[512];
    size_t k;
    for (; r->log && n > 0; p += k, n -= k) {
        k = n < sizeof buf / 2 ? n : sizeof buf / 2;
        cc_put(r, buf, (size_t)(cc_hexs(buf, p, k) - buf));
    }
}

/* Writes key and a decimal number at p (negative: v is the two's
   complement); returns the end. Formatting by hand, two digits a step:
   vsnprintf would dominate the run time. */
CC_INLINE char *cc_kv(char *p, const char *key, unsigned long long v, int neg)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    static const unsigned long long pow10[19] = {10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
                                                  10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
                                                  100000000000ull, 1000000000000ull, 10000000000000ull,
                                                  100000000000000ull, 1000000000000000ull, 10000000000000000ull,
                                                  100000000000000000ull, 1000000000000000000ull,
                                                  10000000000000000000ull};
    size_t k = strlen(key), n = 1;
    uint32_t w;
    memcpy(p, key, k);
    p += k;
    if (neg) {
        *p++ = '-';
        v = 0 - v;
    }
    while (n < 20 && v >= pow10[n - 1]) n++;
    p += n;
    for (; v > 0xFFFFFFFFu; v /= 100) {
        p -= 2;
        memcpy(p, pairs + 2 * (v % 100), 2);
    }
    for (w = (uint32_t)v; w >= 100; w /= 100) {
        p -= 2;
        memcpy(p, pairs + 2 * (w % 100), 2);
    }
    if (w >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * w, 2);
    } else {
        *--p = (char)('0' + w);
    }
    return p + n;
}

CC_INLINE char *cc_str(char *p, const char *key, const char *v)
{
    size_t k = strlen(key), n = strlen(v);
    memcpy(p, key, k);
    memcpy(p + k, v, n);
    return p + k + n;
}

/* Records the violation in r->msg and returns it. */
CC_FN const char *cc_fail(cc_run *r, const char *fmt, ...)
{
    char tmp[CC_MSG];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap); /* fmt's arguments may be r->msg itself */
    va_end(ap);
    memcpy(r->msg, tmp, sizeof tmp);
    return r->msg;
}

/* An integer into an FNV-1a hash, least significant byte first (the same on
   every host: tests/matrix/matrix.sh compares such hashes). */
CC_FN void cc_mix_u64(uint64_t *h, uint64_t v)
{
    unsigned i;
    for (i = 0; i < 8; i++) *h = (*h ^ (uint8_t)(v >> (8 * i))) * CC_FNV_PRIME;
}

CC_FN void cc_mix(uint64_t *h, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i;
    for (i = 0; i < n; i++) *h = (*h ^ b[i]) * CC_FNV_PRIME;
}

/* ---- payloads ------------------------------------------------------------------------ */

/* A payload whose fragments are being handed out. */
typedef struct cc_pay {
    uint64_t total, got;
    int      open;
} cc_pay;

CC_FN void cc_pay_open(cc_pay *p, uint64_t total)
{
    p->open = 1;
    p->total = total;
    p->got = 0;
}

/* Fragment f (at stream offset off) must continue the open payload with
   the right FIRST/LAST flags, respect max_frag (0: none), point into the
   chunk just fed and hold the input's bytes. Advances the payload. */
CC_FN const char *cc_frag(cc_run *r, cc_pay *p, const tdec_frag *f, uint64_t off, uint32_t max_frag,
                          const cc_feed *fd)
{
    uint32_t flags = (f->offset == 0 ? TDEC_FRAG_FIRST : 0u) | (f->offset + f->len == f->total ? TDEC_FRAG_LAST : 0u);
    if (!p->open) return cc_fail(r, "fragment at %llu without a payload record", (unsigned long long)off);
    if (f->len == 0) return cc_fail(r, "empty fragment");
    if (f->total != p->total || f->offset != p->got || f->flags != flags)
        return cc_fail(r, "fragment off=%llu len=%zu total=%llu flags=%u does not tile (at %llu of %llu)",
                       (unsigned long long)f->offset, f->len, (unsigned long long)f->total, (unsigned)f->flags,
                       (unsigned long long)p->got, (unsigned long long)p->total);
    if (max_frag && f->len > max_frag) return cc_fail(r, "fragment longer than max_fragment");
    if (fd->chunk == NULL || f->data < fd->chunk || f->data + f->len > fd->chunk + fd->chunk_len)
        return cc_fail(r, "fragment data outside the current chunk");
    if (off + f->len > fd->len || memcmp(f->data, fd->in + off, f->len) != 0)
        return cc_fail(r, "fragment bytes at %llu differ from the input", (unsigned long long)off);
    p->got += f->len;
    if (f->flags & TDEC_FRAG_LAST) p->open = 0;
    r->frag_bytes += f->len;
    return NULL;
}

/* A payload line of the log: "P off=.. total=.. :HEX", the hex continued
   by every fragment, the line ended by the last. */
CC_FN void cc_log_frag(cc_run *r, const tdec_frag *f, uint64_t off)
{
    if (r->log == NULL) return;
    if (f->flags & TDEC_FRAG_FIRST)
        cc_line(r, "P off=%llu total=%llu :", (unsigned long long)off, (unsigned long long)f->total);
    cc_hex(r, f->data, f->len);
    r->pay_line = 1;
    if (f->flags & TDEC_FRAG_LAST) {
        cc_put(r, "\n", 1);
        r->pay_line = 0;
    }
}

/* ---- the canonical loop ------------------------------------------------------------------ */

/* A format's stream calls over an untyped decoder (its tdec_stream is `st`)
   and the oracle's own checks. */
typedef struct cc_format {
    size_t       size;           /* sizeof the decoder (it is memcpy-able)        */
    size_t       item_size;      /* sizeof its item                               */
    size_t       items_per_byte; /* next() gives at most this * len + 8 items     */
    tdec_status  (*next)(void *d, void *item);
    tdec_status  (*feed)(void *d, const void *data, size_t len);
    tdec_status  (*finish)(void *d);
    void         (*reset)(void *d);
    tdec_stream *(*stream)(void *d);
    /* checks and logs one item: NULL or the violation */
    const char *(*item)(cc_run *r, void *d, const void *item, const cc_feed *f);
    /* after an error from next() (may be NULL: the loop stops): resync() and
       set *again to go on, or leave it 0 to stop; NULL or the violation */
    const char *(*error)(cc_run *r, void *d, tdec_status st, const cc_feed *f, int *again);
    /* 1 if the format's own state is as after init() (may be NULL: the
       stream's is checked) */
    int (*fresh)(const cc_run *r, const void *d);
} cc_format;

/* The stream calls of a format whose functions are T##next ... T##reset over
   T##decoder and T##item, as P##next ... P##stream (for a cc_format). */
#define CC_STREAM_CALLS(P, T)                                                                                     \
    static tdec_status P##next(void *d, void *it) { return T##next((T##decoder *)d, (T##item *)it); }          \
    static tdec_status P##feed(void *d, const void *p, size_t n) { return T##feed((T##decoder *)d, p, n); }    \
    static tdec_status P##finish(void *d) { return T##finish((T##decoder *)d); }                              \
    static void P##reset(void *d) { T##reset((T##decoder *)d); }                                              \
    static tdec_stream *P##stream(void *d) { return &((T##decoder *)d)->st; }

/* What finish() said, when the loop called it: END or an error (*ended:
   the status next() must say again), never an item, nor NEED_INPUT (a
   format whose finish() may leave items to next() runs its own loop:
   tests/lib/ipt_check.h). */
CC_FN const char *cc__finished(cc_run *r, tdec_status st, tdec_status *ended)
{
    if (st == TDEC_OK || st == TDEC_NEED_INPUT) return cc_fail(r, "finish gave %d", st);
    *ended = st;
    return NULL;
}

/* Feeds the whole input (a copy), takes up to 3 items, resets: no state
   may stay behind, nor any read of the freed copy. */
CC_FN const char *cc__warm_reset(cc_run *r, const cc_format *F, void *d, void *item, const uint8_t *in, size_t len)
{
    uint8_t *tmp = (uint8_t *)malloc(len ? len : 1);
    tdec_stream *s = F->stream(d);
    int k;
    if (tmp == NULL) return cc_fail(r, "out of memory");
    memcpy(tmp, in, len);
    if (F->feed(d, tmp, len) != TDEC_NEED_INPUT) {
        free(tmp);
        return cc_fail(r, "first feed refused");
    }
    for (k = 0; k < 3; k++)
        if (F->next(d, item) != TDEC_OK) break;
    F->reset(d);
    memset(tmp, 0xA5, len);
    free(tmp);
    if (s->pos || s->err || s->err_offset || s->err_reason || s->win_len || s->carry_len || s->finished ||
        (F->fresh && !F->fresh(r, d)))
        return cc_fail(r, "reset() left state behind");
    return NULL;
}

/* At a NEED_INPUT after `fed` bytes: finishes a copy of the decoder (in
   spare); the verdict is what that said (next() and finish() again: the
   same). */
CC_FN const char *cc__verdict(cc_run *r, const cc_format *F, const void *d, void *spare, void *item, size_t fed)
{
    cc_verdict *v = &r->verdicts[fed];
    tdec_stream *s = F->stream(spare);
    tdec_status st, again;
    memcpy(spare, d, F->size);
    st = F->finish(spare);
    if (st == TDEC_OK || st == TDEC_NEED_INPUT) return cc_fail(r, "prefix %zu: finish gave %d", fed, st);
    if ((again = F->next(spare, item)) != st || (again = F->finish(spare)) != st)
        return cc_fail(r, "prefix %zu: finish() ended in %d, then %d", fed, st, again);
    v->st = st;
    v->err_offset = st < 0 ? s->err_offset : 0;
    v->err_reason = st < 0 ? s->err_reason : 0;
    v->records = r->records;
    v->frag_bytes = r->frag_bytes;
    v->seen = 1;
    return NULL;
}

/* NEED_INPUT must leave nothing unread: pos + carry == bytes fed. */
CC_FN const char *cc__need_input(cc_run *r, const tdec_stream *s, size_t fed)
{
    if (s->win_len == 0 && s->pos + s->carry_len == fed && s->carry_len <= TDEC_CARRY_CAP) return NULL;
    return cc_fail(r, "NEED_INPUT with bytes unaccounted (pos %llu carry %u fed %zu)", (unsigned long long)s->pos,
                   (unsigned)s->carry_len, fed);
}

/* feed() while the window is not used up is a caller bug: E_SEQUENCE, and
   the decoder (copied to spare first) does not change. */
CC_FN const char *cc__feed_refused(cc_run *r, const cc_format *F, void *d, void *spare)
{
    static const uint8_t dummy = 0x5A;
    tdec_status st;
    memcpy(spare, d, F->size);
    st = F->feed(d, &dummy, 1);
    if (st == TDEC_E_SEQUENCE && memcmp(spare, d, F->size) == 0) return NULL;
    return cc_fail(r, "feed with unread window gave %d or changed the decoder", st);
}

/* The decoder moves to the other of the two slots (an array of two
   decoders); the old copy is scribbled over. */
CC_FN void *cc__move(const cc_format *F, void *slots, void *d)
{
    unsigned char *to = (unsigned char *)slots;
    if (d == slots) to += F->size;
    memcpy(to, d, F->size);
    memset(d, 0xA5, F->size);
    return to;
}

/* Decodes in[0..len) with the canonical loop, in r's schedule, on a decoder
   the caller has just initialised in slots[0] (slots: an array of two
   decoders, the second room for the moves; init: what init() said). *dp
   is where the decoder ends up. Each item goes to F->item. Fills r's
   outputs. Returns NULL, or the first broken invariant. */
CC_FN const char *cc_loop(cc_run *r, const cc_format *F, tdec_status init, void *slots, void **dp, const uint8_t *in,
                          size_t len)
{
    void *d = slots, *spare, *item;
    tdec_stream *s;
    tdec_status st = TDEC_NEED_INPUT, ended = TDEC_OK;
    cc_feed f;
    const char *bad = NULL;
    int again, whole = !r->sched.ncuts && !r->sched.step && !r->sched.seed, tried = 0;

    cc_begin(r);
    *dp = d;
    if (init != TDEC_NEED_INPUT) return cc_fail(r, "init gave %d", init);
    spare = malloc(F->size);
    item = malloc(F->item_size);
    if (spare == NULL || item == NULL || !cc_feed_init(&f, in, len, &r->sched, r->feed_how)) {
        free(spare);
        free(item);
        return cc_fail(r, "out of memory");
    }
    if (r->reset_first) bad = cc__warm_reset(r, F, d, item, in, len);
    while (bad == NULL) {
        st = F->next(d, item);
        s = F->stream(d);
        if (ended != TDEC_OK) { /* finish() said END or an error: next() says it again */
            if (st != ended) bad = cc_fail(r, "finish gave %d, then next() %d", ended, st);
            break;
        }
        if (st == TDEC_OK) {
            if (++r->items > F->items_per_byte * len + 8) {
                bad = cc_fail(r, "more items than input bytes");
                break;
            }
            if ((bad = F->item(r, d, item, &f)) != NULL) break;
            if (s->err == TDEC_OK && s->win_len > 0 && (whole || !tried)) {
                tried = 1;
                bad = cc__feed_refused(r, F, d, spare);
            }
            if (bad == NULL && r->finish_early && !f.finishing && f.fed == len && s->win_len == 0 &&
                s->err == TDEC_OK) { /* allowed: the window is used up */
                f.finishing = 1;
                bad = cc__finished(r, F->finish(d), &ended);
            }
            continue;
        }
        if (st == TDEC_NEED_INPUT) {
            if (f.finishing) {
                bad = cc_fail(r, "NEED_INPUT after finish()");
                break;
            }
            if ((bad = cc__need_input(r, s, f.fed)) != NULL) break;
            if (r->verdicts && (bad = cc__verdict(r, F, d, spare, item, f.fed)) != NULL) break;
            d = cc__move(F, slots, d); /* memcpy-able: no pointer into itself */
            tried = 0;
            if (cc_feed_next(&f) != NULL) {
                if ((st = F->feed(d, f.chunk, f.chunk_len)) != TDEC_NEED_INPUT)
                    bad = cc_fail(r, "feed after NEED_INPUT gave %d", st);
                continue;
            }
            f.finishing = 1;
            bad = cc__finished(r, F->finish(d), &ended);
            continue;
        }
        /* finish() not called yet: END and E_TRUNCATED (finish() inside a
           record) belong after it */
        if (st == TDEC_END || st == TDEC_E_TRUNCATED) {
            bad = cc_fail(r, "next() gave %d before finish()", st);
            break;
        }
        again = 0;
        if (st < 0 && F->error && (bad = F->error(r, d, st, &f, &again)) == NULL && again) continue;
        break; /* an error */
    }
    cc_feed_free(&f);
    free(spare);
    free(item);
    s = F->stream(d);
    *dp = d;
    r->status = st;
    r->err_offset = st < 0 ? s->err_offset : 0;
    r->err_reason = st < 0 ? s->err_reason : 0;
    if (bad == NULL && st < 0 && s->err_offset > len) bad = cc_fail(r, "err_offset beyond the input");
    return bad;
}

/* After the loop: END stays END (next, a second finish; feed() of one byte
   or of none is E_SEQUENCE); an error is sticky in next/feed (one byte or
   none)/finish; either way err_offset and err_reason stay fixed. */
CC_FN const char *cc__final(cc_run *r, const cc_format *F, void *d, void *item)
{
    static const uint8_t one = 0;
    tdec_stream *ss = F->stream(d);
    tdec_status st = r->status, s;
    uint64_t eo = ss->err_offset;
    uint32_t why = ss->err_reason;
    if (st == TDEC_END) {
        if ((s = F->next(d, item)) != TDEC_END) return cc_fail(r, "next after END gave %d", s);
        if ((s = F->finish(d)) != TDEC_END) return cc_fail(r, "second finish gave %d", s);
        if ((s = F->feed(d, &one, 1)) != TDEC_E_SEQUENCE) return cc_fail(r, "feed after END gave %d", s);
        if ((s = F->feed(d, &one, 0)) != TDEC_E_SEQUENCE) return cc_fail(r, "empty feed after END gave %d", s);
        if ((s = F->next(d, item)) != TDEC_END) return cc_fail(r, "next after END (2) gave %d", s);
    } else {
        if (st == TDEC_E_ARG || st == TDEC_E_SEQUENCE || st >= 0) return cc_fail(r, "loop ended in status %d", st);
        if (ss->err != st) return cc_fail(r, "status %d but st.err %d", st, ss->err);
        if ((s = F->next(d, item)) != st) return cc_fail(r, "error %d not sticky in next: %d", st, s);
        if ((s = F->feed(d, &one, 1)) != st) return cc_fail(r, "error %d not sticky in feed: %d", st, s);
        if ((s = F->feed(d, &one, 0)) != st) return cc_fail(r, "error %d not sticky in an empty feed: %d", st, s);
        if ((s = F->finish(d)) != st) return cc_fail(r, "error %d not sticky in finish: %d", st, s);
        if ((s = F->next(d, item)) != st) return cc_fail(r, "error %d not sticky in next (2): %d", st, s);
    }
    if (ss->err_offset != eo || ss->err_reason != why)
        return cc_fail(r, "err_offset or err_reason moved after %s", st == TDEC_END ? "END" : "the error");
    return NULL;
}

CC_FN const char *cc_final(cc_run *r, const cc_format *F, void *d)
{
    void *item = malloc(F->item_size);
    const char *bad = item ? cc__final(r, F, d, item) : cc_fail(r, "out of memory");
    free(item);
    return bad;
}

/* ---- comparing decodes ---------------------------------------------------------------------- */

/* An oracle's decode: in[0..len) with r's config and schedule (r is the
   cc_run its run struct starts with). NULL, or the first broken invariant. */
typedef const char *(*cc_decode_fn)(const uint8_t *in, size_t len, cc_run *r);

/* 1 if two runs produced the same log (compared by length, then by the
   text where both kept all of it, else by hash and the text kept); 0
   without logs. */
CC_FN int cc_same_log(const cc_run *a, const cc_run *b)
{
    size_t n = a->log_len < a->log_cap ? a->log_len : a->log_cap;
    if (a->log == NULL || b->log == NULL || a->log_len != b->log_len) return 0;
    if (a->log_len < a->log_cap && b->log_len < b->log_cap) return memcmp(a->log, b->log, a->log_len) == 0;
    if (b->log_cap < n) n = b->log_cap;
    return cc_log_hash(a) == cc_log_hash(b) && memcmp(a->log, b->log, n) == 0;
}

/* Prints the first differing line of two logs to f (for failure reports). */
CC_FN void cc_print_diff(FILE *f, const cc_run *ra, const cc_run *rb)
{
    const char *a = ra->log, *b = rb->log, *p = a, *q = b, *e;
    size_t line = 1;
    if (p == NULL || q == NULL) {
        fprintf(f, "  (no log)\n");
        return;
    }
    if (strcmp(p, q) == 0) {
        fprintf(f, "  the logs differ beyond the %zu bytes kept (lengths %zu and %zu)\n", strlen(p), ra->log_len,
                rb->log_len);
        return;
    }
    while (*p && *p == *q) {
        if (*p == '\n') line++;
        p++;
        q++;
    }
    while (p > a && p[-1] != '\n') {
        p--;
        q--;
    }
    e = strchr(p, '\n');
    fprintf(f, "  line %zu:\n  < %.*s\n", line, e ? (int)(e - p) : (int)strlen(p), p);
    e = strchr(q, '\n');
    fprintf(f, "  > %.*s\n", e ? (int)(e - q) : (int)strlen(q), q);
}

/* Decodes in with r (its config and schedule): no violation, and the same
   log as ref's (decoded before; r's config may differ only in what must not
   change the log, such as max_fragment). The first differing line goes to
   diff_to (may be NULL). NULL, or what went wrong (in r->msg). */
CC_FN const char *cc_same_as(cc_decode_fn decode, const cc_run *ref, cc_run *r, const uint8_t *in, size_t len,
                             const char *what, FILE *diff_to)
{
    const char *bad = decode(in, len, r);
    if (bad) return cc_fail(r, "%s: %s", what, bad);
    if (cc_same_log(ref, r)) return NULL;
    if (diff_to) {
        fprintf(diff_to, "%s: the log differs from the whole decode's\n", what);
        cc_print_diff(diff_to, ref, r);
    }
    return cc_fail(r, "%s: the log differs from the whole decode's", what);
}

/* The Ending rule (cc_loop() and cc_final() check it on every decode) in
   one fixed schedule: in[0..len) (may be NULL when empty) decoded in
   `step`-byte chunks, no violation, ends in `want`. NULL, or what went
   wrong (in r->msg). r's schedule is left zero. */
CC_FN const char *cc_ending(cc_decode_fn decode, cc_run *r, const uint8_t *in, size_t len, size_t step,
                            tdec_status want)
{
    static const uint8_t none = 0;
    const char *bad;
    memset(&r->sched, 0, sizeof r->sched);
    r->sched.step = step;
    bad = decode(len ? in : &none, len, r);
    memset(&r->sched, 0, sizeof r->sched);
    if (bad) return cc_fail(r, "length %zu in %zu-byte chunks: %s", len, step, bad);
    if (r->status != want)
        return cc_fail(r, "length %zu in %zu-byte chunks: ended in %s, not %s", len, step, tdec_status_str(r->status),
                       tdec_status_str(want));
    return NULL;
}

/* The schedules of a chunk-invariance test. */
typedef struct cc_plan {
    int           bytewise;      /* one byte at a time                            */
    size_t        split_stride;  /* a 2-way split at 1, 1 + stride, ... (0: none)  */
    const size_t *splits;        /* and one at each of these offsets              */
    size_t        nsplits;
    size_t        triples_below; /* every 3-way split of inputs shorter than this  */
    size_t        nseeds;        /* random schedules, seeds i * 2654435761         */
    int           alternate;     /* the splits and seeds alternately in fresh and */
                                 /* in reused chunks (else as r->feed_how says)   */
} cc_plan;

/* How the schedule after `runs` others is fed: as `how`, or alternately. */
CC_FN int cc__feed_of(const cc_plan *p, int how, size_t runs)
{
    return p->alternate ? (runs & 1 ? CC_FEED_FRESH : CC_FEED_REUSED) : how;
}

/* Decodes in with r under every schedule of the plan (cc_same_as against
   ref, decoded whole before); counts them in *runs. NULL, or the first
   failure. r's schedule is left zero. */
CC_FN const char *cc_schedules(cc_decode_fn decode, const cc_run *ref, cc_run *r, const uint8_t *in, size_t len,
                               const cc_plan *p, FILE *diff_to, size_t *runs)
{
    char what[96];
    size_t cut[2], i, j;
    const char *bad = NULL;
    int how = r->feed_how;
    memset(&r->sched, 0, sizeof r->sched);
    if (p->bytewise) {
        r->sched.step = 1;
        bad = cc_same_as(decode, ref, r, in, len, "one byte at a time", diff_to);
        (*runs)++;
        r->sched.step = 0;
    }
    r->sched.cuts = cut;
    r->sched.ncuts = 1;
    for (i = 1; bad == NULL && p->split_stride && i < len; i += p->split_stride) {
        r->feed_how = cc__feed_of(p, how, *runs);
        cut[0] = i;
        snprintf(what, sizeof what, "split at %zu", i);
        bad = cc_same_as(decode, ref, r, in, len, what, diff_to);
        (*runs)++;
    }
    for (i = 0; bad == NULL && i < p->nsplits; i++) {
        r->feed_how = cc__feed_of(p, how, *runs);
        cut[0] = p->splits[i];
        snprintf(what, sizeof what, "split at %zu", cut[0]);
        bad = cc_same_as(decode, ref, r, in, len, what, diff_to);
        (*runs)++;
    }
    r->sched.ncuts = 2;
    for (i = 1; bad == NULL && len < p->triples_below && i < len; i++) {
        for (j = i + 1; bad == NULL && j < len; j++) {
            r->feed_how = cc__feed_of(p, how, *runs);
            cut[0] = i;
            cut[1] = j;
            snprintf(what, sizeof what, "splits at %zu,%zu", i, j);
            bad = cc_same_as(decode, ref, r, in, len, what, diff_to);
            (*runs)++;
        }
    }
    memset(&r->sched, 0, sizeof r->sched);
    for (i = 1; bad == NULL && i <= p->nseeds; i++) {
        r->feed_how = cc__feed_of(p, how, *runs);
        r->sched.seed = (uint32_t)(i * 2654435761u);
        snprintf(what, sizeof what, "random schedule seed %u", (unsigned)r->sched.seed);
        bad = cc_same_as(decode, ref, r, in, len, what, diff_to);
        (*runs)++;
    }
    memset(&r->sched, 0, sizeof r->sched);
    r->feed_how = how;
    return bad;
}

/* ---- every prefix ---------------------------------------------------------------------------- */

/* The length of a prefix decode's log that must equal the whole decode's
   log: without its last line (the final status) and without a payload
   line that was cut (" cut", maybe after " got=N"), whose text up to that
   marker is kept in *cut_len (0 if none). */
CC_FN size_t cc__log_body(const char *log, size_t len, size_t *cut_len)
{
    size_t n = len, line, k;
    *cut_len = 0;
    if (n > 0) n--; /* the final '\n' */
    while (n > 0 && log[n - 1] != '\n') n--;
    if (n < 5 || memcmp(log + n - 5, " cut\n", 5) != 0) return n;
    for (line = n - 1; line > 0 && log[line - 1] != '\n'; line--) continue;
    *cut_len = n - 5 - line;
    for (k = line; k + 5 <= n - 5; k++) /* " got=N": how much came, not in the whole log */
        if (memcmp(log + k, " got=", 5) == 0) {
            *cut_len = k - line;
            break;
        }
    return line;
}

/* Whether a prefix's verdict is right (a format's rule). NULL, or why not. */
typedef const char *(*cc_judge_fn)(const void *ctx, size_t l, const cc_verdict *v);

/* Every prefix of in[0..len), whose whole decode `full` (log kept whole)
   ended in END:
     byte by byte: one decode with r in 1-byte chunks (its log must be
       full's) finishes a copy of the decoder after each length l; that
       ends in END or in E_TRUNCATED at or before l, and judge (may be NULL)
       agrees;
     decoded whole, at lengths 0, stride, 2 * stride ... (counted in
       *direct): no violation, the same end and the same records and
       payload bytes out as byte by byte, and the log a prefix of full's (a
       cut payload's bytes a prefix of its bytes).
   NULL, or the first failure. r keeps its config; its schedule is left zero. */
CC_FN const char *cc_prefixes(cc_decode_fn decode, const cc_run *full, cc_run *r, const uint8_t *in, size_t len,
                              size_t stride, cc_judge_fn judge, const void *ctx, size_t *direct)
{
    cc_verdict *v = (cc_verdict *)calloc(len + 1, sizeof *v);
    const char *bad = NULL;
    size_t l, body, cut, fbody, fcut;
    int finish_early = r->finish_early;
    if (v == NULL) return cc_fail(r, "out of memory");
    if (full->status != TDEC_END || full->log == NULL || full->log_len >= full->log_cap) {
        free(v);
        return cc_fail(r, "the whole decode ended in %d or its log was not kept whole", full->status);
    }
    fbody = cc__log_body(full->log, full->log_len, &fcut);
    memset(&r->sched, 0, sizeof r->sched);
    r->sched.step = 1;
    r->verdicts = v;
    r->finish_early = 0; /* every length ends in a NEED_INPUT */
    bad = cc_same_as(decode, full, r, in, len, "byte by byte, finishing a copy at each length", NULL);
    r->finish_early = finish_early;
    r->verdicts = NULL;
    memset(&r->sched, 0, sizeof r->sched);
    for (l = 0; bad == NULL && l <= len; l++) {
        if (!v[l].seen) bad = cc_fail(r, "prefix %zu: no NEED_INPUT there", l);
        else if (v[l].st != TDEC_END && (v[l].st != TDEC_E_TRUNCATED || v[l].err_offset > l))
            bad = cc_fail(r, "prefix %zu: finish gave %d at %llu", l, v[l].st, (unsigned long long)v[l].err_offset);
        else if (judge && (bad = judge(ctx, l, &v[l])) != NULL)
            bad = cc_fail(r, "prefix %zu: %s", l, bad);
    }
    for (l = 0; bad == NULL && l <= len; l += stride) {
        if ((bad = decode(in, l, r)) != NULL) {
            bad = cc_fail(r, "prefix %zu decoded whole: %s", l, bad);
            break;
        }
        (*direct)++;
        if (r->status != v[l].st || r->err_offset != v[l].err_offset || r->err_reason != v[l].err_reason) {
            bad = cc_fail(r,
                          "prefix %zu decoded whole ends in %d at %llu reason %u, byte by byte in %d at %llu reason %u",
                          l, r->status, (unsigned long long)r->err_offset, (unsigned)r->err_reason, v[l].st,
                          (unsigned long long)v[l].err_offset, (unsigned)v[l].err_reason);
            break;
        }
        if (r->records != v[l].records || r->frag_bytes != v[l].frag_bytes) {
            bad = cc_fail(r,
                          "prefix %zu decoded whole gives %zu records and %llu payload bytes, byte by byte %zu and %llu",
                          l, r->records, (unsigned long long)r->frag_bytes, v[l].records,
                          (unsigned long long)v[l].frag_bytes);
            break;
        }
        if (r->log == NULL || r->log_len >= r->log_cap) {
            bad = cc_fail(r, "prefix %zu: log not kept whole", l);
            break;
        }
        body = cc__log_body(r->log, r->log_len, &cut);
        if (body + cut > fbody + fcut || memcmp(r->log, full->log, body + cut) != 0)
            bad = cc_fail(r, "prefix %zu: the items are not a prefix of the whole decode's", l);
    }
    free(v);
    return bad;
}

/* Every prefix, for a fuzz harness: cc_prefixes() with 17 prefixes decoded
   whole, on an input whose whole decode `full` ended in END with its log
   kept whole (else nothing to check); r is a run to use. NULL, or the first
   failure. */
CC_FN const char *cc_fuzz_prefixes(cc_decode_fn decode, const cc_run *full, cc_run *r, const uint8_t *in, size_t len)
{
    size_t direct = 0;
    if (full->status != TDEC_END || full->log == NULL || full->log_len >= full->log_cap) return NULL;
    return cc_prefixes(decode, full, r, in, len, 1 + len / 16, NULL, NULL, &direct);
}

/* A fuzz harness found a broken invariant: say which, then abort(). */
CC_FN void cc_abort(const char *harness, const char *what)
{
    fprintf(stderr, "%s: %s\n", harness, what);
    abort();
}

#endif /* CHECK_COMMON_H */
