/* tdec_uftrace.h - uftrace data decoder (<tid>.dat records with argument,
   return-value and event payloads) - tracedec 0.1
   MIT licensed, see the end of this file.

   USAGE
     Exactly one .c file of your program defines the implementation:
         #define TDEC_UFTRACE_IMPLEMENTATION   (or TRACEDEC_IMPLEMENTATION)
         #include "tdec_uftrace.h"

     The loop over one <tid>.dat file is the same as for every tracedec
     format, with one addition: a record whose payload layout is not in the
     file (an ENTRY or EXIT with `more` set) must be followed by a call to
     tdec_uftrace_set_args() with its resolved spec before the next next():
         st = tdec_uftrace_init(&d, &cfg);          cfg: byte order of the data
         while (st >= 0) {
             st = tdec_uftrace_next(&d, &it);
             if (st == TDEC_OK) {
                 if (it.kind == TDEC_ITEM_RECORD && tdec_uftrace_needs_args(&d))
                     st = tdec_uftrace_set_args(&d, spec_for(&it.u.rec));  NULL: unknown
                 else use(&it);
                 continue;
             }
             if (st != TDEC_NEED_INPUT) break;
             n = read_some(buf, sizeof buf);
             st = n ? tdec_uftrace_feed(&d, buf, n) : tdec_uftrace_finish(&d);
         }

   ITEMS
     One RECORD item per 16-byte record (type ENTRY, EXIT, LOST or EVENT).
     An EVENT with data is followed by FRAGMENT items of its data. An ENTRY
     or EXIT with `more` set is followed, once its spec is given, by one ARG
     record per spec item in payload order (string, std::string and struct
     values followed by FRAGMENT items of their bytes), then one ARGS_END
     record whose block_len is the block's length before its final padding
     (what `uftrace dump` prints as "length = N"). Padding is never looked at.

   CONTRACT
     As every tracedec decoder: feed() only after TDEC_NEED_INPUT; fragment
     data valid until the next call; finish() gives TDEC_END on a record
     boundary, TDEC_E_TRUNCATED inside a record or payload; errors are sticky
     until reset(); d.st.err_offset / d.st.err_reason (TDEC_UFTRACE_R_*,
     tdec_uftrace_reason_str) say where and why. next() while a spec is
     awaited returns TDEC_E_SEQUENCE (not sticky). Any chunking of the input
     gives the same items, fragments aside.

   MEMORY
     No allocation. The decoder holds a copy of the current spec (at most
     TDEC_UFTRACE_MAX_ARGS items) and nothing points into it: memcpy-able.
     sizeof(tdec_uftrace_decoder) is stated by TDEC_UFTRACE_DECODER_SIZE_LP64
     below and checked by tests/test_uftrace.c.

   OPTIONS
     TDEC_UFTRACE_IMPLEMENTATION / TRACEDEC_IMPLEMENTATION  [impl TU]
     TDEC_STATIC / TDEC_UFTRACE_STATIC, TDEC_UFTRACE_DEF    [impl TU]
     TDEC_NO_STRINGS                                         [any TU]

   SECURITY
     Every input byte is untrusted; declared lengths are checked against
     the argument block limit (1024 bytes) before use, never used to size
     anything. See README.md, "Trust model".
*/
#ifndef TDEC_UFTRACE_H_INCLUDED
#define TDEC_UFTRACE_H_INCLUDED

/* tdec:core:begin -- the tracedec shared core. Edit tools/tdec_core.h only:
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
    TDEC_END         =  2, /* finish() saw a clean end of stream                   */
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

/* ---- checked arithmetic: return 0 on overflow, *r untouched --------------- */

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

/* ---- the stream: window, carry, sticky error ----------------------------- */

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
   A carried partial record always makes it a truncation. Idempotent. */
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

#ifndef TDEC_UFTRACE_DEF
#if defined(TDEC_UFTRACE_STATIC) || defined(TDEC_STATIC)
#if defined(__GNUC__) || defined(__clang__)
#define TDEC_UFTRACE_DEF static __attribute__((unused))
#else
#define TDEC_UFTRACE_DEF static
#endif
#else
#define TDEC_UFTRACE_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Record types (tdec_uftrace_record.type). 0-3 are the file's own. */
#define TDEC_UFTRACE_ENTRY    0u
#define TDEC_UFTRACE_EXIT     1u
#define TDEC_UFTRACE_LOST     2u /* addr = number of records lost            */
#define TDEC_UFTRACE_EVENT    3u /* addr = event id; data follows if more    */
#define TDEC_UFTRACE_ARG      4u /* one value of an argument/return block    */
#define TDEC_UFTRACE_ARGS_END 5u /* end of that block: block_len             */

/* Value kinds of a resolved spec item: how its bytes are laid out. */
#define TDEC_UFTRACE_V_INT       1u /* 1, 2, 4 or 8 bytes (d i u x o p e)     */
#define TDEC_UFTRACE_V_CHAR      2u /* 1 byte (c)                              */
#define TDEC_UFTRACE_V_FLOAT     3u /* 4, 8 or 10 bytes (f, fparg)             */
#define TDEC_UFTRACE_V_STRING    4u /* u16 length + text (s)                   */
#define TDEC_UFTRACE_V_STDSTRING 5u /* same layout (S)                         */
#define TDEC_UFTRACE_V_STRUCT    6u /* size bytes (tN), 0..1020                */

/* Largest argument block the tracer writes (1024-byte buffer, 4 of them
   its own length): anything claiming more is corrupt. */
#define TDEC_UFTRACE_MAX_BLOCK 1020u
#define TDEC_UFTRACE_MAX_ARGS  64u

/* One item of a resolved spec, in payload order. `format` is the spec's
   format letter ('d','i','u','x','o','p','e','c','f','s','S','t'), carried
   through for printing; decoding uses kind and size only. */
typedef struct tdec_uftrace_arg {
    uint8_t  kind;   /* TDEC_UFTRACE_V_*                                   */
    uint8_t  format;
    uint16_t size;   /* bytes: INT 1/2/4/8, CHAR 1, FLOAT 4/8/10, STRUCT   */
} tdec_uftrace_arg;

/* The layout of one argument or return-value block. */
typedef struct tdec_uftrace_argspec {
    uint32_t         count;
    tdec_uftrace_arg args[TDEC_UFTRACE_MAX_ARGS];
} tdec_uftrace_argspec;

typedef struct tdec_uftrace_record {
    uint32_t type;      /* TDEC_UFTRACE_ENTRY ... ARGS_END                        */
    uint32_t more;      /* a payload follows (ENTRY/EXIT/EVENT)                   */
    uint32_t depth;     /* 10 bits                                               */
    uint32_t magic;     /* 3 bits, 5 in valid data                               */
    uint64_t time;      /* ns on the trace clock (the block's record for ARG)    */
    uint64_t addr;      /* 48 bits: address, lost count or event id              */
    /* ARG */
    uint32_t         arg_index;  /* position in the spec                          */
    tdec_uftrace_arg arg;        /* the spec item                                 */
    uint64_t         value;      /* INT/CHAR: the first `size` bytes as an        */
                                 /* unsigned number in the data's byte order      */
    uint8_t          raw[12];    /* FLOAT: the `size` bytes as stored             */
    /* ARG (STRING, STDSTRING, STRUCT), EVENT: bytes that follow as fragments */
    uint64_t payload_size;
    uint32_t block_len; /* ARGS_END: block length before its final padding      */
} tdec_uftrace_record;

typedef struct tdec_uftrace_item {
    uint32_t kind;   /* TDEC_ITEM_RECORD, TDEC_ITEM_FRAGMENT (no GAP here) */
    uint64_t offset; /* stream offset of the record, value or fragment     */
    union {
        tdec_uftrace_record rec;
        tdec_frag           frag;
    } u;
} tdec_uftrace_item;

#define TDEC_UFTRACE_F_BIG_ENDIAN    1u /* data from a big-endian host (info endian = 2) */
#define TDEC_UFTRACE_F_SKIP_PAYLOADS 2u /* no fragments for event data, strings, structs */

/* Zeroed (or NULL) config = defaults (little-endian data). Copied at init. */
typedef struct tdec_uftrace_config {
    uint32_t flags;        /* TDEC_UFTRACE_F_*                                   */
    uint32_t max_fragment; /* largest fragment to emit; 0 = as large as possible */
} tdec_uftrace_config;

enum tdec_uftrace_reason {
    TDEC_UFTRACE_R_NONE = 0,
    TDEC_UFTRACE_R_RECORD,    /* input ends inside a record                    */
    TDEC_UFTRACE_R_PAYLOAD,   /* input ends inside a payload                   */
    TDEC_UFTRACE_R_MAGIC,     /* record magic is not 5                         */
    TDEC_UFTRACE_R_NO_SPEC,   /* payload whose argument spec is unknown        */
    TDEC_UFTRACE_R_BAD_SPEC,  /* spec with too many items or an invalid item   */
    TDEC_UFTRACE_R_BLOCK,     /* argument block runs past 1020 bytes           */
    TDEC_UFTRACE_R_LOST_MORE  /* LOST record claiming a payload                */
};

/* The decoder. Read-only for callers: st.pos, st.err, st.err_offset,
   st.err_reason. */
typedef struct tdec_uftrace_decoder {
    tdec_stream          st;
    /* private */
    tdec_uftrace_config  cfg;
    tdec_payload         pay;       /* event data / string text / struct bytes  */
    uint64_t             rec_time;  /* of the record that owns the block        */
    uint64_t             skip;      /* padding bytes still to drop              */
    uint32_t             blk;       /* bytes of the argument block so far       */
    uint32_t             arg_next;  /* next spec item                           */
    uint8_t              phase;
    uint8_t              after_pay; /* phase after the payload                  */
    uint8_t              pad_to;    /* alignment of the padding after a payload */
    uint8_t              unused;
    tdec_uftrace_argspec spec;
} tdec_uftrace_decoder;

#define TDEC_UFTRACE_DECODER_SIZE_LP64 432

/* Starts a decoder (cfg may be NULL). Returns TDEC_NEED_INPUT or TDEC_E_ARG. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_init(tdec_uftrace_decoder *d, const tdec_uftrace_config *cfg);

/* As every tracedec feed(): TDEC_NEED_INPUT, TDEC_E_ARG, TDEC_E_SEQUENCE,
   or the sticky error. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_feed(tdec_uftrace_decoder *d, const void *data, size_t len);

/* Next item: TDEC_OK, TDEC_NEED_INPUT, TDEC_END, TDEC_E_ARG,
   TDEC_E_SEQUENCE (a spec is awaited: call set_args first), or a sticky
   error: TDEC_E_CORRUPT (bad magic, block over its limit), TDEC_E_TRUNCATED. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next(tdec_uftrace_decoder *d, tdec_uftrace_item *out);

/* 1 when the last item was an ENTRY/EXIT record with a payload and the
   decoder waits for its spec. */
TDEC_UFTRACE_DEF int tdec_uftrace_needs_args(const tdec_uftrace_decoder *d);

/* Gives the layout of the awaited block (copied). spec == NULL means the
   caller cannot resolve it: sticky TDEC_E_CORRUPT with R_NO_SPEC, since
   the block's length is unknowable. An invalid spec (count above
   TDEC_UFTRACE_MAX_ARGS, unknown kind, bad size) is sticky TDEC_E_LIMIT /
   R_BAD_SPEC. Returns TDEC_NEED_INPUT (go on with next()),
   TDEC_E_SEQUENCE when no spec is awaited, TDEC_E_ARG for a NULL decoder. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_set_args(tdec_uftrace_decoder *d, const tdec_uftrace_argspec *spec);

/* END on a record boundary, else TDEC_E_TRUNCATED (sticky). */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_finish(tdec_uftrace_decoder *d);

/* Forgets the stream, keeps the config. */
TDEC_UFTRACE_DEF void tdec_uftrace_reset(tdec_uftrace_decoder *d);

/* Text for a TDEC_UFTRACE_R_* code ("" under TDEC_NO_STRINGS). */
TDEC_UFTRACE_DEF const char *tdec_uftrace_reason_str(uint32_t reason);

#ifdef __cplusplus
}
#endif
#endif /* TDEC_UFTRACE_H_INCLUDED */

/* ======================================================================== */
#if defined(TDEC_UFTRACE_IMPLEMENTATION) || defined(TRACEDEC_IMPLEMENTATION)
#ifndef TDEC_UFTRACE_IMPL_INCLUDED
#define TDEC_UFTRACE_IMPL_INCLUDED

#define TDEC_UFTRACE__REC_SIZE 16u
#define TDEC_UFTRACE__MAGIC    5u
#define TDEC_UFTRACE__AGAIN    100 /* step result: phase changed, no item */

TDEC_STATIC_ASSERT(uftrace_carry, TDEC_UFTRACE__REC_SIZE + 2u <= TDEC_CARRY_CAP);

enum tdec_uftrace__phase {
    TDEC_UFTRACE__P_RECORD = 0, /* at a record boundary                       */
    TDEC_UFTRACE__P_NEED_SPEC,  /* an ENTRY/EXIT block awaits set_args()      */
    TDEC_UFTRACE__P_ARG,        /* at the next value of an argument block     */
    TDEC_UFTRACE__P_PAYLOAD,    /* streaming event data / text / struct bytes */
    TDEC_UFTRACE__P_PAD,        /* dropping padding                           */
    TDEC_UFTRACE__P_BLOCK_END   /* the ARGS_END item is next                  */
};

static uint64_t tdec_uftrace__u64(const tdec_uftrace_decoder *d, const uint8_t *p)
{
    return (d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) ? tdec__rd_u64be(p) : tdec__rd_u64le(p);
}

static uint16_t tdec_uftrace__u16(const tdec_uftrace_decoder *d, const uint8_t *p)
{
    return (d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) ? tdec__rd_u16be(p) : tdec__rd_u16le(p);
}

/* The first n (<= 8) bytes at p as an unsigned number in the data's order. */
static uint64_t tdec_uftrace__uint(const tdec_uftrace_decoder *d, const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    unsigned i;
    if (d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN)
        for (i = 0; i < n; i++) v = (v << 8) | p[i];
    else
        for (i = n; i > 0; i--) v = (v << 8) | p[i - 1];
    return v;
}

static uint32_t tdec_uftrace__round4(uint32_t n)
{
    return (n + 3u) & ~3u;
}

TDEC_UFTRACE_DEF void tdec_uftrace_reset(tdec_uftrace_decoder *d)
{
    if (d == NULL) return;
    tdec__stream_init(&d->st);
    tdec__payload_start(&d->pay, 0, 0);
    d->rec_time = 0;
    d->skip = 0;
    d->blk = 0;
    d->arg_next = 0;
    d->phase = TDEC_UFTRACE__P_RECORD;
    d->after_pay = TDEC_UFTRACE__P_RECORD;
    d->pad_to = 0;
    d->unused = 0;
    d->spec.count = 0;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_init(tdec_uftrace_decoder *d, const tdec_uftrace_config *cfg)
{
    if (d == NULL) return TDEC_E_ARG;
    d->cfg.flags = 0;
    d->cfg.max_fragment = 0;
    if (cfg) d->cfg = *cfg;
    tdec_uftrace_reset(d);
    return TDEC_NEED_INPUT;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_feed(tdec_uftrace_decoder *d, const void *data, size_t len)
{
    if (d == NULL) return TDEC_E_ARG;
    return tdec__stream_feed(&d->st, data, len);
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_finish(tdec_uftrace_decoder *d)
{
    int clean;
    if (d == NULL) return TDEC_E_ARG;
    clean = d->phase == TDEC_UFTRACE__P_RECORD;
    return tdec__stream_finish(&d->st, clean, clean ? TDEC_UFTRACE_R_RECORD : TDEC_UFTRACE_R_PAYLOAD);
}

TDEC_UFTRACE_DEF int tdec_uftrace_needs_args(const tdec_uftrace_decoder *d)
{
    return d != NULL && d->st.err == TDEC_OK && d->phase == TDEC_UFTRACE__P_NEED_SPEC;
}

static int tdec_uftrace__arg_valid(const tdec_uftrace_arg *a)
{
    switch (a->kind) {
    case TDEC_UFTRACE_V_INT:       return a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8;
    case TDEC_UFTRACE_V_CHAR:      return a->size == 1;
    case TDEC_UFTRACE_V_FLOAT:     return a->size == 4 || a->size == 8 || a->size == 10;
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING: return 1;
    case TDEC_UFTRACE_V_STRUCT:    return a->size <= TDEC_UFTRACE_MAX_BLOCK;
    default:                       return 0;
    }
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_set_args(tdec_uftrace_decoder *d, const tdec_uftrace_argspec *spec)
{
    uint32_t i;
    if (d == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err;
    if (d->phase != TDEC_UFTRACE__P_NEED_SPEC) return TDEC_E_SEQUENCE;
    /* the failure belongs to the record that owns the block */
    if (spec == NULL) {
        tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_NO_SPEC);
        d->st.err_offset -= TDEC_UFTRACE__REC_SIZE;
        return TDEC_E_CORRUPT;
    }
    if (spec->count > TDEC_UFTRACE_MAX_ARGS) {
        tdec__stream_fail(&d->st, TDEC_E_LIMIT, TDEC_UFTRACE_R_BAD_SPEC);
        d->st.err_offset -= TDEC_UFTRACE__REC_SIZE;
        return TDEC_E_LIMIT;
    }
    for (i = 0; i < spec->count; i++) {
        if (!tdec_uftrace__arg_valid(&spec->args[i])) {
            tdec__stream_fail(&d->st, TDEC_E_LIMIT, TDEC_UFTRACE_R_BAD_SPEC);
            d->st.err_offset -= TDEC_UFTRACE__REC_SIZE;
            return TDEC_E_LIMIT;
        }
        d->spec.args[i] = spec->args[i];
    }
    d->spec.count = spec->count;
    d->blk = 0;
    d->arg_next = 0;
    d->phase = TDEC_UFTRACE__P_ARG;
    return TDEC_NEED_INPUT;
}

/* Fills *out as a record item at the current position. */
static tdec_uftrace_record *tdec_uftrace__record(const tdec_uftrace_decoder *d, tdec_uftrace_item *out,
                                                 uint32_t type)
{
    tdec_uftrace_record *r = &out->u.rec;
    uint64_t pos = d->st.pos;
    out->kind = TDEC_ITEM_RECORD;
    out->offset = pos;
    r->type = type;
    r->more = 0;
    r->depth = 0;
    r->magic = 0;
    r->time = 0;
    r->addr = 0;
    r->arg_index = 0;
    r->arg.kind = 0;
    r->arg.format = 0;
    r->arg.size = 0;
    r->value = 0;
    r->payload_size = 0;
    r->block_len = 0;
    return r;
}

/* Payload bytes (fragments) then `pad` bytes of padding, then `next`. */
static void tdec_uftrace__payload(tdec_uftrace_decoder *d, uint64_t size, uint64_t pad, uint8_t next)
{
    tdec__payload_start(&d->pay, size, (d->cfg.flags & TDEC_UFTRACE_F_SKIP_PAYLOADS) != 0);
    d->skip = pad;
    d->after_pay = next;
    d->phase = size > 0 ? TDEC_UFTRACE__P_PAYLOAD : TDEC_UFTRACE__P_PAD;
}

/* A 16-byte record (18 bytes for an event with data: its u16 length). */
static int tdec_uftrace__step_record(tdec_uftrace_decoder *d, tdec_uftrace_item *out)
{
    const uint8_t *p = tdec__stream_peek(&d->st, TDEC_UFTRACE__REC_SIZE);
    tdec_uftrace_record *r;
    uint64_t word, time;
    uint32_t type, more, magic;
    uint16_t len;

    if (p == NULL) return TDEC_NEED_INPUT;
    time = tdec_uftrace__u64(d, p);
    word = tdec_uftrace__u64(d, p + 8);
    type = (uint32_t)(word & 3u);
    more = (uint32_t)((word >> 2) & 1u);
    magic = (uint32_t)((word >> 3) & 7u);
    if (magic != TDEC_UFTRACE__MAGIC) return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_MAGIC);
    if (type == TDEC_UFTRACE_LOST && more)
        return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_LOST_MORE);
    if (type == TDEC_UFTRACE_EVENT && more) {
        /* event data is self-describing: u16 length, padded with it to 8 */
        p = tdec__stream_peek(&d->st, TDEC_UFTRACE__REC_SIZE + 2u);
        if (p == NULL) return TDEC_NEED_INPUT;
    }
    r = tdec_uftrace__record(d, out, type);
    r->more = more;
    r->magic = magic;
    r->depth = (uint32_t)((word >> 6) & 0x3FFu);
    r->addr = word >> 16;
    r->time = time;
    d->rec_time = time;
    if (type == TDEC_UFTRACE_EVENT && more) {
        len = tdec_uftrace__u16(d, p + TDEC_UFTRACE__REC_SIZE);
        r->payload_size = len;
        tdec__stream_consume(&d->st, TDEC_UFTRACE__REC_SIZE + 2u);
        tdec_uftrace__payload(d, len, (8u - (2u + len) % 8u) % 8u, TDEC_UFTRACE__P_RECORD);
        return TDEC_OK;
    }
    tdec__stream_consume(&d->st, TDEC_UFTRACE__REC_SIZE);
    if (more) d->phase = TDEC_UFTRACE__P_NEED_SPEC;
    return TDEC_OK;
}

/* The next value of an argument block, or the block's end. */
static int tdec_uftrace__step_arg(tdec_uftrace_decoder *d, tdec_uftrace_item *out)
{
    const tdec_uftrace_arg *a;
    const uint8_t *p;
    tdec_uftrace_record *r;
    uint32_t fixed, len, i;

    if (d->arg_next == d->spec.count) {
        /* the block is padded to 8 bytes as a whole */
        d->skip = (8u - d->blk % 8u) % 8u;
        d->after_pay = TDEC_UFTRACE__P_BLOCK_END;
        d->phase = TDEC_UFTRACE__P_PAD;
        return TDEC_UFTRACE__AGAIN;
    }
    a = &d->spec.args[d->arg_next];
    switch (a->kind) {
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING: fixed = 2; break;
    case TDEC_UFTRACE_V_STRUCT:    fixed = 0; break;
    default:                       fixed = tdec_uftrace__round4(a->size); break;
    }
    if (fixed > TDEC_UFTRACE_MAX_BLOCK - d->blk)
        return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_BLOCK);
    p = NULL;
    if (fixed > 0 && (p = tdec__stream_peek(&d->st, fixed)) == NULL) return TDEC_NEED_INPUT;

    r = tdec_uftrace__record(d, out, TDEC_UFTRACE_ARG);
    r->time = d->rec_time;
    r->arg_index = d->arg_next;
    r->arg = *a;
    if (a->kind == TDEC_UFTRACE_V_STRING || a->kind == TDEC_UFTRACE_V_STDSTRING ||
        a->kind == TDEC_UFTRACE_V_STRUCT) {
        len = p == NULL ? a->size : tdec_uftrace__u16(d, p);
        /* the value with its length field, padded to 4 */
        if (len > TDEC_UFTRACE_MAX_BLOCK - d->blk - fixed)
            return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_BLOCK);
        r->payload_size = len;
        tdec__stream_consume(&d->st, fixed);
        i = tdec_uftrace__round4(fixed + len);
        d->blk += i;
        d->arg_next++;
        tdec_uftrace__payload(d, len, i - fixed - len, TDEC_UFTRACE__P_ARG);
        return TDEC_OK;
    }
    if (a->kind == TDEC_UFTRACE_V_FLOAT) {
        for (i = 0; i < a->size; i++) r->raw[i] = p[i];
    } else {
        r->value = tdec_uftrace__uint(d, p, a->size);
    }
    tdec__stream_consume(&d->st, fixed);
    d->blk += fixed;
    d->arg_next++;
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next(tdec_uftrace_decoder *d, tdec_uftrace_item *out)
{
    tdec_uftrace_record *r;
    int st;
    if (d == NULL || out == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err;
    if (d->st.finished) return TDEC_END;
    /* Each pass returns or changes phase; the loop always ends. */
    for (;;) {
        switch (d->phase) {
        case TDEC_UFTRACE__P_RECORD:
            return (tdec_status)tdec_uftrace__step_record(d, out);
        case TDEC_UFTRACE__P_NEED_SPEC:
            return TDEC_E_SEQUENCE;
        case TDEC_UFTRACE__P_ARG:
            st = tdec_uftrace__step_arg(d, out);
            if (st == TDEC_UFTRACE__AGAIN) continue;
            return (tdec_status)st;
        case TDEC_UFTRACE__P_PAYLOAD:
            if (tdec__payload_next(&d->st, &d->pay, d->cfg.max_fragment, &out->u.frag, &out->offset)) {
                out->kind = TDEC_ITEM_FRAGMENT;
                return TDEC_OK;
            }
            if (d->pay.left > 0) return TDEC_NEED_INPUT;
            d->phase = TDEC_UFTRACE__P_PAD;
            continue;
        case TDEC_UFTRACE__P_PAD:
            d->skip -= tdec__stream_skip(&d->st, d->skip);
            if (d->skip > 0) return TDEC_NEED_INPUT;
            d->phase = d->after_pay;
            continue;
        default: /* TDEC_UFTRACE__P_BLOCK_END */
            r = tdec_uftrace__record(d, out, TDEC_UFTRACE_ARGS_END);
            r->time = d->rec_time;
            r->block_len = d->blk;
            d->phase = TDEC_UFTRACE__P_RECORD;
            return TDEC_OK;
        }
    }
}

TDEC_UFTRACE_DEF const char *tdec_uftrace_reason_str(uint32_t reason)
{
#ifdef TDEC_NO_STRINGS
    (void)reason;
    return "";
#else
    switch (reason) {
    case TDEC_UFTRACE_R_NONE:      return "no error";
    case TDEC_UFTRACE_R_RECORD:    return "input ends inside a record";
    case TDEC_UFTRACE_R_PAYLOAD:   return "input ends inside a payload";
    case TDEC_UFTRACE_R_MAGIC:     return "record magic is not 5 (not uftrace data, or lost sync)";
    case TDEC_UFTRACE_R_NO_SPEC:   return "record has arguments or a return value but no known spec: the payload size is unknowable";
    case TDEC_UFTRACE_R_BAD_SPEC:  return "argument spec has too many items or an invalid item";
    case TDEC_UFTRACE_R_BLOCK:     return "argument block runs past its 1020-byte limit";
    case TDEC_UFTRACE_R_LOST_MORE: return "LOST record claims a payload";
    }
    return "unknown reason";
#endif
}

#undef TDEC_UFTRACE__REC_SIZE
#undef TDEC_UFTRACE__MAGIC
#undef TDEC_UFTRACE__AGAIN

#endif /* TDEC_UFTRACE_IMPL_INCLUDED */
#endif /* TDEC_UFTRACE_IMPLEMENTATION */

/*
MIT License

Copyright (c) 2026 the tracedec authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
*/
