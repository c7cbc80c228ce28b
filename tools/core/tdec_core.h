/* tdec:core:begin -- the tracedec shared core. Edit tools/core/tdec_core.h only:
   `make amalgamate` stamps it into every single/ header and tracedec.h. */
#if defined(TDEC_CORE_REV) && TDEC_CORE_REV != 1
#error "tracedec: headers from different tracedec releases mixed in one translation unit"
#endif
#ifndef TDEC_CORE_REV
#define TDEC_CORE_REV 1

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every call returns one of these. Negative: error, sticky until reset()
   (or resync() where the format has one). 0: one item in *out. Positive: no
   item, not an error. */
typedef enum tdec_status {
    TDEC_OK          =  0, /* *out holds one item                                  */
    TDEC_NEED_INPUT  =  1, /* every fed byte is consumed or carried: feed() more,  */
                           /* or finish(); the caller may reuse its buffer now     */
    TDEC_END         =  2, /* clean end of the input (streams: after finish())     */
    TDEC_E_ARG       = -1, /* NULL pointer or bad config value (caller bug)        */
    TDEC_E_SEQUENCE  = -2, /* call not allowed now, e.g. feed() before the window  */
                           /* is used up, feed() after finish() (caller bug)       */
    TDEC_E_TRUNCATED = -3, /* finish() inside a record, payload or promised buffer */
    TDEC_E_FORMAT    = -4, /* not this format (bad magic or header)                */
    TDEC_E_VERSION   = -5, /* this format, unsupported version                     */
    TDEC_E_CORRUPT   = -6, /* malformed record                                     */
    TDEC_E_LIMIT     = -7, /* declared size above the format or config limit       */
    TDEC_E_NOSYNC    = -8  /* no sync point found                                  */
} tdec_status;

/* Item kinds, shared by every format's item struct (`kind` field). */
enum tdec_item_kind {
    TDEC_ITEM_RECORD   = 1, /* a decoded record: the format's record struct     */
    TDEC_ITEM_FRAGMENT = 2, /* a piece of the payload of the preceding record   */
    TDEC_ITEM_GAP      = 3  /* bytes that were skipped, never silently          */
};

#define TDEC_FRAG_FIRST 1u /* fragment starts its payload (offset == 0)         */
#define TDEC_FRAG_LAST  2u /* fragment ends its payload (offset + len == total) */

/* A piece of a payload. `data` points into the caller's current window and
   is valid until the next call on the decoder. The fragments of one payload
   tile [0, total) in order; their sizes depend on how the input was split. */
typedef struct tdec_frag {
    const uint8_t *data;
    size_t         len;
    uint64_t       offset; /* of data[0] within the payload     */
    uint64_t       total;  /* whole payload size, as checked     */
    uint32_t       flags;  /* TDEC_FRAG_FIRST | TDEC_FRAG_LAST   */
} tdec_frag;

/* Bytes the decoder stepped over. The item's offset is where they start. */
typedef struct tdec_gap {
    uint64_t len;
    uint32_t reason; /* format-specific reason code, see tdec_FMT_reason_str() */
} tdec_gap;

/* Internal result of a decoder's step function, beside the tdec_status
   values: the phase changed without an item, so step again. */
#define TDEC__AGAIN 100

/* Largest fixed-size record part any format carries across chunks. */
#define TDEC_CARRY_CAP 64

#define TDEC_STATIC_ASSERT(name, cond) typedef char tdec__static_assert_##name[(cond) ? 1 : -1]

/* Input side shared by every decoder: the borrowed window, the carry buffer
   for a record that straddles two chunks, the stream offset and the sticky
   error. Public read-only fields: pos, err, err_offset, err_reason. */
typedef struct tdec_stream {
    const uint8_t *win;        /* unread part of the caller's window         */
    size_t         win_len;
    uint64_t       pos;        /* stream offset of the next undecoded byte   */
    uint64_t       err_offset; /* where the sticky error was detected        */
    tdec_status    err;        /* sticky error, TDEC_OK if none              */
    uint32_t       err_reason; /* format-specific detail of err              */
    uint32_t       carry_len;  /* bytes of the current record held in carry  */
    uint32_t       finished;   /* finish() returned TDEC_END                 */
    uint8_t        carry[TDEC_CARRY_CAP];
} tdec_stream;

static inline const char *tdec_status_str(tdec_status s)
{
#ifdef TDEC_NO_STRINGS
    (void)s;
    return "";
#else
    switch (s) {
    case TDEC_OK:          return "ok";
    case TDEC_NEED_INPUT:  return "need input";
    case TDEC_END:         return "end of stream";
    case TDEC_E_ARG:       return "invalid argument";
    case TDEC_E_SEQUENCE:  return "call out of sequence";
    case TDEC_E_TRUNCATED: return "truncated input";
    case TDEC_E_FORMAT:    return "not this format";
    case TDEC_E_VERSION:   return "unsupported version";
    case TDEC_E_CORRUPT:   return "corrupt record";
    case TDEC_E_LIMIT:     return "declared size over limit";
    case TDEC_E_NOSYNC:    return "no sync point";
    }
    return "unknown status";
#endif
}

/* ---- byte readers: explicit byte order, any alignment ------------------- */

static inline uint16_t tdec__rd_u16le(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t tdec__rd_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t tdec__rd_u64le(const uint8_t *p)
{
    return (uint64_t)tdec__rd_u32le(p) | ((uint64_t)tdec__rd_u32le(p + 4) << 32);
}
static inline uint16_t tdec__rd_u16be(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}
static inline uint32_t tdec__rd_u32be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}
static inline uint64_t tdec__rd_u64be(const uint8_t *p)
{
    return ((uint64_t)tdec__rd_u32be(p) << 32) | (uint64_t)tdec__rd_u32be(p + 4);
}

/* ---- checked arithmetic: return 0 on overflow, *r untouched ------------- */

static inline int tdec__add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    if (a > UINT64_MAX - b) return 0;
    *r = a + b;
    return 1;
}
static inline int tdec__mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    if (a != 0 && b > UINT64_MAX / a) return 0;
    *r = a * b;
    return 1;
}

/* ---- the stream: window, carry, sticky error ---------------------------- */

static inline void tdec__stream_init(tdec_stream *s)
{
    size_t i;
    s->win = NULL;
    s->win_len = 0;
    s->pos = 0;
    s->err_offset = 0;
    s->err = TDEC_OK;
    s->err_reason = 0;
    s->carry_len = 0;
    s->finished = 0;
    for (i = 0; i < TDEC_CARRY_CAP; i++) s->carry[i] = 0;
}

/* Records a sticky error at the current record start and returns it. */
static inline tdec_status tdec__stream_fail(tdec_stream *s, tdec_status st, uint32_t reason)
{
    s->err = st;
    s->err_offset = s->pos;
    s->err_reason = reason;
    return st;
}

/* feed(): installs a new window. Allowed only once the previous window is
   used up (next() returned TDEC_NEED_INPUT) and before finish(). */
static inline tdec_status tdec__stream_feed(tdec_stream *s, const void *data, size_t len)
{
    if (s->err < 0) return s->err;
    if (data == NULL && len > 0) return TDEC_E_ARG;
    if (s->win_len > 0 || s->finished) return TDEC_E_SEQUENCE;
    s->win = (const uint8_t *)data;
    s->win_len = len;
    return TDEC_NEED_INPUT;
}

/* finish(): `clean` is the format's verdict that the stream may end here.
   A carried partial record always makes it a truncation. Idempotent; the
   decoder's next() then returns TDEC_END (s->finished) or the sticky error. */
static inline tdec_status tdec__stream_finish(tdec_stream *s, int clean, uint32_t reason)
{
    if (s->err < 0) return s->err;
    if (s->finished) return TDEC_END;
    if (s->win_len > 0) return TDEC_E_SEQUENCE;
    if (!clean || s->carry_len > 0) return tdec__stream_fail(s, TDEC_E_TRUNCATED, reason);
    s->finished = 1;
    return TDEC_END;
}

/* Returns `need` contiguous bytes of the current record, or NULL when the
   window ran out first (the bytes seen so far are then held in the carry).
   Zero-copy when the record lies wholly in the window. need <= TDEC_CARRY_CAP;
   callers ask for the same record with a growing `need`. */
static inline const uint8_t *tdec__stream_peek(tdec_stream *s, size_t need)
{
    size_t take;
    if (s->carry_len == 0 && s->win_len >= need) return s->win;
    if (s->carry_len < need) {
        take = need - s->carry_len;
        if (take > s->win_len) take = s->win_len;
        if (take > 0) { /* win may be NULL: no arithmetic on it then */
            for (size_t i = 0; i < take; i++) s->carry[s->carry_len + i] = s->win[i];
            s->carry_len += (uint32_t)take;
            s->win += take;
            s->win_len -= take;
        }
    }
    return s->carry_len >= need ? s->carry : NULL;
}

/* Consumes the `n` bytes of the record last returned by peek(). */
static inline void tdec__stream_consume(tdec_stream *s, size_t n)
{
    if (s->carry_len > 0) {
        /* peek() copies no further than the record, so the carry empties;
           any excess from a longer earlier peek goes back to the front. */
        size_t rest = s->carry_len > n ? s->carry_len - n : 0;
        for (size_t i = 0; i < rest; i++) s->carry[i] = s->carry[n + i];
        s->carry_len = (uint32_t)rest;
    } else if (n > 0) { /* win may be NULL when n == 0 */
        s->win += n;
        s->win_len -= n;
    }
    s->pos += n;
}

/* Drops up to `n` bytes (carried ones first); returns how many. */
static inline uint64_t tdec__stream_skip(tdec_stream *s, uint64_t n)
{
    uint64_t done = 0;
    size_t k;
    if (s->carry_len > 0) {
        k = s->carry_len < n ? s->carry_len : (size_t)n;
        tdec__stream_consume(s, k);
        done = k;
    }
    if (s->carry_len == 0 && done < n) {
        k = s->win_len;
        if ((uint64_t)k > n - done) k = (size_t)(n - done);
        tdec__stream_consume(s, k);
        done += k;
    }
    return done;
}

/* A payload being streamed out as fragments (or skipped). */
typedef struct tdec_payload {
    uint64_t total; /* declared size, checked                      */
    uint64_t left;  /* bytes not yet handed out                    */
    uint32_t skip;  /* count down without emitting fragments       */
} tdec_payload;

static inline void tdec__payload_start(tdec_payload *p, uint64_t total, int skip)
{
    p->total = total;
    p->left = total;
    p->skip = skip ? 1u : 0u;
}

/* Hands out the payload bytes present in the window. Returns 1 with *f and
   *offset (stream offset of f->data[0]) filled, or 0 when nothing could be
   emitted (payload done, skipped to the window's end, or window empty).
   max_frag == 0 means no limit. Payload bytes are never carried. */
static inline int tdec__payload_next(tdec_stream *s, tdec_payload *p, uint32_t max_frag,
                                     tdec_frag *f, uint64_t *offset)
{
    size_t n;
    if (p->left == 0 || s->win_len == 0) return 0;
    n = s->win_len;
    if ((uint64_t)n > p->left) n = (size_t)p->left;
    if (p->skip) {
        tdec__stream_consume(s, n);
        p->left -= n;
        return 0;
    }
    if (max_frag != 0 && n > max_frag) n = max_frag;
    f->data = s->win;
    f->len = n;
    f->offset = p->total - p->left;
    f->total = p->total;
    f->flags = (f->offset == 0 ? TDEC_FRAG_FIRST : 0u) | (n == p->left ? TDEC_FRAG_LAST : 0u);
    *offset = s->pos;
    tdec__stream_consume(s, n);
    p->left -= n;
    return 1;
}

#ifdef __cplusplus
}
#endif
#endif /* TDEC_CORE_REV */
/* tdec:core:end */
