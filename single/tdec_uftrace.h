/* tdec_uftrace.h - uftrace data decoder (<tid>.dat records with argument,
   return-value and event payloads; perf-cpuN.dat; the text files of a
   uftrace.data directory) - tracedec 0.1
   MIT licensed, see the end of this file.

   SECTIONS (search for a banner's text)
     tdec:core:begin                          the shared core: status, items
     ==== record decoder                      <tid>.dat
     ==== text and side files                 line parsers for the directory
       ---- info: the 40-byte header and its key:value lines
       ---- task.txt
       ---- sid-<SID>.map
       ---- <module>.sym
       ---- <module>.dbg
       ---- argument spec grammar
       ---- enum definitions
     ==== perf-cpuN.dat decoder
     ==== implementation                      TDEC_UFTRACE_IMPLEMENTATION only
     ==== record decoder: implementation
     ==== text and side files: implementation
     ==== perf-cpuN.dat decoder: implementation
     MIT License                              the licence text

   USAGE
     Exactly one .c file of your program defines the implementation:
         #define TDEC_UFTRACE_IMPLEMENTATION   (or TRACEDEC_IMPLEMENTATION)
         #include "tdec_uftrace.h"
     Every other file includes the header without the define.

     The loop over one <tid>.dat file is the same as for every tracedec
     format, with one addition: a record whose payload layout is not in the
     file (an ENTRY or EXIT with `more` set) must be followed by a call to
     tdec_uftrace_set_spec() with its resolved spec before the next next():
         tdec_uftrace_decoder d;  tdec_uftrace_item it;  tdec_status st;
         st = tdec_uftrace_init(&d, &cfg);            cfg: byte order of the data
         while (st >= 0) {
             st = tdec_uftrace_next(&d, &it);
             if (st == TDEC_OK) {
                 if (it.kind == TDEC_ITEM_RECORD && tdec_uftrace_needs_spec(&d))
                     st = tdec_uftrace_set_spec(&d, spec_for(&it.u.rec));  NULL: unknown
                 else use(&it);
                 continue;
             }
             if (st != TDEC_NEED_INPUT) break;       END, or error: d.st.err_offset
             n = read_some(buf, sizeof buf);          buf may be reused now
             st = n ? tdec_uftrace_feed(&d, buf, n) : tdec_uftrace_finish(&d);
         }

     Items: one RECORD item per 16-byte record (type ENTRY, EXIT, LOST or
     EVENT). An EVENT with data is followed by FRAGMENT items of its data.
     An ENTRY or EXIT with `more` set is followed, once its spec is given,
     by one ARG record per spec item in payload order (string, std::string
     and struct values followed by FRAGMENT items of their bytes), then one
     ARGS_END record whose block_len is the block's length before its final
     padding (what `uftrace dump` prints as "length = N"). Padding is never
     looked at.

     Beside the record decoder: parsers for the rest of a uftrace.data
     directory, one text line at a time, results pointing into the caller's
     line (the info header and its key:value lines, task.txt,
     sid-<SID>.map, <module>.sym, <module>.dbg, the argument spec grammar
     and enum definitions); and tdec_uftrace_perf_*, a decoder of the same
     shape for perf-cpuN.dat (scheduler, fork, exit and comm records).

   CONTRACT (the record and the perf decoder)
     - feed() is allowed only after next() returned TDEC_NEED_INPUT (or right
       after init or reset); otherwise TDEC_E_SEQUENCE. TDEC_NEED_INPUT means
       every byte fed so far was consumed or copied: the caller may reuse its
       buffer.
     - Fragment data points into the caller's window and is valid until the
       next call on this decoder.
     - Ending: finish() marks the end of input and never returns an item
       itself. It returns TDEC_END when the stream ended cleanly, an error
       (such as TDEC_E_TRUNCATED: the input ends inside a record) when the
       end decides that at once, or TDEC_NEED_INPUT when items that only the
       end can decide are still to come. In every case keep calling next()
       until it returns TDEC_END or an error, as the canonical loop does:
       next() gives those last items, then that TDEC_END or error again.
     - A uftrace stream leaves nothing for the end to decide, so finish()
       never returns TDEC_NEED_INPUT: TDEC_END on a record boundary,
       TDEC_E_TRUNCATED inside a record, a payload, or an argument block
       whose spec is still awaited. A second finish() returns the same;
       feed() after finish() is TDEC_E_SEQUENCE.
     - Errors are sticky: next(), feed() and finish() return the same error
       until reset(). d.st.err_offset is the stream offset of the record
       that failed and d.st.err_reason a TDEC_UFTRACE_R_* code
       (tdec_uftrace_reason_str()). TDEC_E_ARG and TDEC_E_SEQUENCE are
       returned without changing the decoder (next() while a spec is awaited
       is TDEC_E_SEQUENCE).
     - reset() forgets the stream, errors included, and keeps the config:
       the decoder is as after init().
     - Any split of the input into chunks gives the same items (fragments
       aside, which reassemble to the same bytes).

   MEMORY
     No allocation. The decoders are caller-owned structs that hold no
     pointer into themselves and may be copied with memcpy; the record
     decoder holds a copy of the current spec (at most TDEC_UFTRACE_MAX_ARGS
     items). Their sizes, their items' and that of the spec a caller
     passes, measured with sizeof on x86_64 and on arm-none-eabi-gcc
     -mcpu=cortex-m4:
       sizeof(tdec_uftrace_decoder) = 432 on LP64, 424 on ILP32 (Cortex-M)
       sizeof(tdec_uftrace_item) = 96 on LP64, 96 on ILP32 (Cortex-M)
       sizeof(tdec_uftrace_perf_decoder) = 152 on LP64, 144 on ILP32 (Cortex-M)
       sizeof(tdec_uftrace_perf_item) = 104 on LP64, 104 on ILP32 (Cortex-M)
       sizeof(tdec_uftrace_argspec) = 260 on LP64, 260 on ILP32 (Cortex-M)
     The line parsers keep no state: their results point into the line,
     and the largest result struct (tdec_uftrace_task_line) is 72 bytes.

   OPTIONS
     TDEC_UFTRACE_IMPLEMENTATION / TRACEDEC_IMPLEMENTATION  [impl TU] emit code
     TDEC_STATIC / TDEC_UFTRACE_STATIC                       [impl TU] internal linkage
     TDEC_UFTRACE_DEF                                        [impl TU] decoration override
     TDEC_NO_STRINGS                                         [any TU]  reason_str() returns ""
                                                                       (feat_str() and info_str()
                                                                       stay: dump output needs them)

   SECURITY
     Every input byte is untrusted. The decoders never read outside the
     current window or their carry, never write outside *out and the
     decoder, do constant work per input byte, and never size anything from
     a declared length: argument blocks are checked against their limit
     (1020 bytes), perf records against their type's layout. The line
     parsers never read outside the line. See README.md, "Trust model".
*/
#ifndef TDEC_UFTRACE_H_INCLUDED
#define TDEC_UFTRACE_H_INCLUDED

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

/* ==== record decoder ===================================================== */

/* Record types (tdec_uftrace_record.type). 0-3 are the file's own. */
#define TDEC_UFTRACE_REC_ENTRY    0u
#define TDEC_UFTRACE_REC_EXIT     1u
#define TDEC_UFTRACE_REC_LOST     2u /* addr = number of records lost         */
#define TDEC_UFTRACE_REC_EVENT    3u /* addr = event id; data follows if more */
#define TDEC_UFTRACE_REC_ARG      4u /* one value of an argument/return block */
#define TDEC_UFTRACE_REC_ARGS_END 5u /* end of that block: block_len          */

/* Value kinds of a resolved spec item: how its bytes are laid out. */
#define TDEC_UFTRACE_V_INT       1u /* 1, 2, 4 or 8 bytes (d i u x p e)       */
#define TDEC_UFTRACE_V_CHAR      2u /* 1, 2, 4 or 8 bytes (c, c16...)          */
#define TDEC_UFTRACE_V_FLOAT     3u /* 1, 2, 4, 8 or 10 bytes (f, fparg, f8..) */
#define TDEC_UFTRACE_V_STRING    4u /* u16 length + text (s)                   */
#define TDEC_UFTRACE_V_STDSTRING 5u /* same layout (S)                         */
#define TDEC_UFTRACE_V_STRUCT    6u /* size bytes (tN), 0..1020                */

/* Largest argument block the tracer writes (1024-byte buffer, 4 of them
   its own length): anything claiming more is corrupt. */
#define TDEC_UFTRACE_MAX_BLOCK 1020u
#define TDEC_UFTRACE_MAX_ARGS  64u

/* One item of a resolved spec, in payload order. `format` is the spec's
   format letter ('d','i','u','x','p','e','c','f','s','S','t'), carried
   through for printing; decoding uses kind and size only. */
typedef struct tdec_uftrace_arg {
    uint8_t  kind;   /* TDEC_UFTRACE_V_*                                   */
    uint8_t  format;
    uint16_t size;   /* bytes: INT, CHAR 1/2/4/8, FLOAT 1/2/4/8/10, STRUCT */
} tdec_uftrace_arg;

/* The layout of one argument or return-value block. */
typedef struct tdec_uftrace_argspec {
    uint32_t         count;
    tdec_uftrace_arg args[TDEC_UFTRACE_MAX_ARGS];
} tdec_uftrace_argspec;

typedef struct tdec_uftrace_record {
    uint32_t type;      /* TDEC_UFTRACE_REC_ENTRY ... REC_ARGS_END                */
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
    uint8_t          raw[12];    /* INT, CHAR, FLOAT: the bytes as stored, `size` */
                                 /* rounded up to 4 (the padding as written)      */
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
    TDEC_UFTRACE_R_LOST_MORE, /* LOST record claiming a payload                */
    TDEC_UFTRACE_R_PERF_SIZE  /* perf record size below 8 or unfit for its type */
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
    tdec_uftrace_argspec spec;
} tdec_uftrace_decoder;

/* Starts a decoder. cfg may be NULL (defaults). Returns TDEC_NEED_INPUT, or
   TDEC_E_ARG for a NULL decoder. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_init(tdec_uftrace_decoder *d, const tdec_uftrace_config *cfg);

/* Installs the next chunk (borrowed until next() returns TDEC_NEED_INPUT).
   Returns TDEC_NEED_INPUT, TDEC_E_ARG (NULL d, or NULL data with len > 0),
   TDEC_E_SEQUENCE (window not used up, or after finish()), or the sticky
   error. len == 0 is allowed and does nothing. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_feed(tdec_uftrace_decoder *d, const void *data, size_t len);

/* Produces the next item. Returns TDEC_OK (*out filled), TDEC_NEED_INPUT
   (window used up), TDEC_END (after a clean finish()), TDEC_E_ARG,
   TDEC_E_SEQUENCE (a spec is awaited: call set_spec() first), or an error
   (sticky): E_CORRUPT (bad magic, block over its limit, no spec), E_LIMIT
   (bad spec), E_TRUNCATED (after finish()). */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next(tdec_uftrace_decoder *d, tdec_uftrace_item *out);

/* 1 when the last item was an ENTRY/EXIT record with a payload and the
   decoder waits for its spec. */
TDEC_UFTRACE_DEF int tdec_uftrace_needs_spec(const tdec_uftrace_decoder *d);

/* Gives the layout of the awaited block (copied). spec == NULL means the
   caller cannot resolve it: sticky TDEC_E_CORRUPT with R_NO_SPEC, since
   the block's length is unknowable. An invalid spec (count above
   TDEC_UFTRACE_MAX_ARGS, unknown kind, bad size) is sticky TDEC_E_LIMIT /
   R_BAD_SPEC. Returns TDEC_NEED_INPUT (go on with next()),
   TDEC_E_SEQUENCE when no spec is awaited, TDEC_E_ARG for a NULL decoder. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_set_spec(tdec_uftrace_decoder *d, const tdec_uftrace_argspec *spec);

/* Declares the end of input (see CONTRACT, Ending). Returns TDEC_END on a
   record boundary, TDEC_E_TRUNCATED (sticky; err_offset = the start of the
   cut record, or the first missing payload byte), TDEC_E_SEQUENCE if the
   window still holds bytes, or the sticky error; never TDEC_NEED_INPUT.
   After TDEC_END or an error, next() returns it again. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_finish(tdec_uftrace_decoder *d);

/* Forgets the stream, keeps the config: the decoder is as after init(). */
TDEC_UFTRACE_DEF void tdec_uftrace_reset(tdec_uftrace_decoder *d);

/* Text for a TDEC_UFTRACE_R_* code ("" under TDEC_NO_STRINGS). */
TDEC_UFTRACE_DEF const char *tdec_uftrace_reason_str(uint32_t reason);

/* ==== text and side files ================================================ */

/* Parsers for the files around the <tid>.dat records: the `info` header
   and its text lines, task.txt, sid-<SID>.map, <module>.sym, <module>.dbg,
   the argument spec grammar (info argspec/retspec/argauto/retauto lines,
   .dbg A:/R: lines) and enum definitions (info enumauto, .dbg E:). Line
   parsers take one complete line WITHOUT its trailing newline as (line,
   len); NULL is allowed only with len 0. String results (tdec_uftrace_text)
   point into that line: valid as long as it is. No allocation, no libc;
   every byte is untrusted; numbers are range checked (overflow is
   TDEC_E_FORMAT, never a wrapped value). */

/* A piece of the caller's text: not NUL-terminated. */
typedef struct tdec_uftrace_text {
    const char *ptr;
    size_t      len;
} tdec_uftrace_text;

/* ---- info: the 40-byte header and its key:value lines ------------------- */

#define TDEC_UFTRACE_HEADER_SIZE 40u

typedef struct tdec_uftrace_header {
    uint32_t version;     /* 3..4                                             */
    uint16_t header_size; /* 40                                               */
    uint8_t  endian;      /* 1 little, 2 big: pass TDEC_UFTRACE_F_BIG_ENDIAN   */
                          /* to the decoders when 2                           */
    uint8_t  elf_class;   /* 1 = 32-bit, 2 = 64-bit (long size 4 / 8)         */
    uint64_t feat_mask;   /* TDEC_UFTRACE_FEAT_*                              */
    uint64_t info_mask;   /* TDEC_UFTRACE_INFO_*: the text sections that      */
                          /* follow at offset 40, in bit order                */
    uint16_t max_stack;   /* valid if TDEC_UFTRACE_FEAT_MAX_STACK              */
} tdec_uftrace_header;

/* Parses the first 40 bytes of `info`. Fields after the magic are read in
   the byte order named by `endian` (what uftrace does for version,
   feat_mask, info_mask and max_stack; header_size too).
   Returns TDEC_OK; TDEC_E_ARG (NULL); TDEC_E_TRUNCATED (len < 40);
   TDEC_E_FORMAT (magic is not "Ftrace!\0", endian not 1/2, class not 1/2);
   TDEC_E_VERSION (version not 3..4). *out is filled only on TDEC_OK. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_header(const void *data, size_t len, tdec_uftrace_header *out);

/* feat_mask bits */
#define TDEC_UFTRACE_FEAT_PLTHOOK         (1u << 0)
#define TDEC_UFTRACE_FEAT_TASK_SESSION    (1u << 1)
#define TDEC_UFTRACE_FEAT_KERNEL          (1u << 2)
#define TDEC_UFTRACE_FEAT_ARGUMENT        (1u << 3)
#define TDEC_UFTRACE_FEAT_RETVAL          (1u << 4)
#define TDEC_UFTRACE_FEAT_SYM_REL_ADDR    (1u << 5)
#define TDEC_UFTRACE_FEAT_MAX_STACK       (1u << 6)
#define TDEC_UFTRACE_FEAT_EVENT           (1u << 7)
#define TDEC_UFTRACE_FEAT_PERF_EVENT      (1u << 8)
#define TDEC_UFTRACE_FEAT_AUTO_ARGS       (1u << 9)
#define TDEC_UFTRACE_FEAT_DEBUG_INFO      (1u << 10)
#define TDEC_UFTRACE_FEAT_ESTIMATE_RETURN (1u << 11)
#define TDEC_UFTRACE_FEAT_SYM_SIZE        (1u << 12)
#define TDEC_UFTRACE_FEAT_CALLSITE        (1u << 13)

/* info_mask bits (text sections of `info`, written in this order) */
#define TDEC_UFTRACE_INFO_EXE_NAME     (1u << 0)
#define TDEC_UFTRACE_INFO_EXE_BUILD_ID (1u << 1)
#define TDEC_UFTRACE_INFO_EXIT_STATUS  (1u << 2)
#define TDEC_UFTRACE_INFO_CMDLINE      (1u << 3)
#define TDEC_UFTRACE_INFO_CPUINFO      (1u << 4)
#define TDEC_UFTRACE_INFO_MEMINFO      (1u << 5)
#define TDEC_UFTRACE_INFO_OSINFO       (1u << 6)
#define TDEC_UFTRACE_INFO_TASKINFO     (1u << 7)
#define TDEC_UFTRACE_INFO_USAGEINFO    (1u << 8)
#define TDEC_UFTRACE_INFO_LOADINFO     (1u << 9)
#define TDEC_UFTRACE_INFO_ARG_SPEC     (1u << 10)
#define TDEC_UFTRACE_INFO_RECORD_DATE  (1u << 11)
#define TDEC_UFTRACE_INFO_PATTERN_TYPE (1u << 12)
#define TDEC_UFTRACE_INFO_VERSION      (1u << 13)
#define TDEC_UFTRACE_INFO_UTC_OFFSET   (1u << 14)
#define TDEC_UFTRACE_INFO_SYSCTL       (1u << 15)

/* The names `uftrace dump` prints for a bit NUMBER (0 = PLTHOOK /
   EXE_NAME ...): "PLTHOOK", "TASK_SESSION", "EXE_NAME", "ARG_SPEC"... NULL
   for a bit with no known name. Available under TDEC_NO_STRINGS too. */
TDEC_UFTRACE_DEF const char *tdec_uftrace_feat_str(unsigned bit);
TDEC_UFTRACE_DEF const char *tdec_uftrace_info_str(unsigned bit);

/* An info text line "key:value": key = text before the first ':', value =
   the rest (multi-line sections repeat their key on every line). TDEC_OK,
   TDEC_E_FORMAT when there is no ':', TDEC_E_ARG for NULL pointers. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_info_line(const char *line, size_t len,
                                                          tdec_uftrace_text *key, tdec_uftrace_text *value);

/* ---- task.txt ----------------------------------------------------------- */

#define TDEC_UFTRACE_TASK_UNKNOWN 0u /* a line kind uftrace ignores            */
#define TDEC_UFTRACE_TASK_SESS    1u /* SESS timestamp= pid= sid= exename="…"  */
#define TDEC_UFTRACE_TASK_TASK    2u /* TASK timestamp= tid= pid=              */
#define TDEC_UFTRACE_TASK_FORK    3u /* FORK timestamp= pid= ppid=             */
#define TDEC_UFTRACE_TASK_DLOP    4u /* DLOP timestamp= tid= sid= base= libname="…" */

typedef struct tdec_uftrace_task_line {
    uint32_t          kind;           /* TDEC_UFTRACE_TASK_*                            */
    uint64_t          time;           /* timestamp=S.N in ns (N: 1..9 digits, "1.5" is  */
                                      /* 1.500000000 s; a missing fraction is .0)       */
    int32_t           pid, tid, ppid; /* those the line has, else 0; SESS takes tid= as */
                                      /* pid= when pid= is absent (old files)           */
    uint64_t          base;           /* DLOP: load address (hex, no 0x)                */
    tdec_uftrace_text sid;            /* SESS, DLOP: the session id                     */
    tdec_uftrace_text name;           /* SESS exename / DLOP libname: from after        */
                                      /* `exename="` (`libname="`) up to the LAST '"'   */
                                      /* of the line                                    */
} tdec_uftrace_task_line;

/* One task.txt line. TDEC_OK (an unknown first word gives kind UNKNOWN and
   nothing else), TDEC_E_FORMAT for a known kind with a field missing or
   malformed (numbers out of range included), TDEC_E_ARG. Fields are
   space-separated key=value words in any order; unknown keys are ignored. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_task_line(const char *line, size_t len,
                                                          tdec_uftrace_task_line *out);

/* ---- sid-<SID>.map ------------------------------------------------------ */

/* "<start>-<end> <perms> <offset> <maj>:<min> <inode> <path>[ build-id:<hex>]":
   the path is the text after the inode with leading spaces skipped, up to
   the last " build-id:" if there is one, trailing spaces trimmed (so it may
   contain spaces). Raw /proc/<pid>/maps lines are accepted too. */
typedef struct tdec_uftrace_map_line {
    uint64_t          start, end;
    char              perms[4]; /* e.g. "r-xp", not NUL-terminated           */
    tdec_uftrace_text path;     /* len 0 for anonymous lines; "[stack]" kept */
    tdec_uftrace_text build_id; /* hex text, len 0 if none                   */
} tdec_uftrace_map_line;

/* TDEC_OK, TDEC_E_FORMAT (malformed, or start > end), TDEC_E_ARG. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_map_line(const char *line, size_t len,
                                                         tdec_uftrace_map_line *out);

/* ---- <module>.sym ------------------------------------------------------- */

#define TDEC_UFTRACE_SYM_SYMBOL   1u /* addr, size, type, name                    */
#define TDEC_UFTRACE_SYM_PATH     2u /* "# path name: P": name = P                */
#define TDEC_UFTRACE_SYM_BUILD_ID 3u /* "# build-id: B": name = B                 */
#define TDEC_UFTRACE_SYM_COUNT    4u /* "# symbols: N": addr = N                  */
#define TDEC_UFTRACE_SYM_COMMENT  5u /* any other '#' line or an empty line:      */
                                     /* name = the whole line                     */

typedef struct tdec_uftrace_sym_line {
    uint32_t          kind;     /* TDEC_UFTRACE_SYM_*                                  */
    uint64_t          addr;     /* relative to the module base (FEAT_SYM_REL_ADDR)     */
    uint64_t          size;     /* 0 when the line has no size column                  */
    uint32_t          has_size; /* 1 for "<addr> <size> <type> <name>" (uftrace 0.14+) */
    char              type;     /* one of ?TtwPKDdvu for SYMBOL lines, else 0          */
    tdec_uftrace_text name;     /* mangled; a TAB and what follows are stripped        */
} tdec_uftrace_sym_line;

/* Both forms: "<hex addr> <type> <name>" (0.13) and "<hex addr> <hex size>
   <type> <name>" (0.14+), told apart by whether the character after the
   first space is a decimal digit, as uftrace does. Addresses and sizes
   are 1..16 hex digits. TDEC_OK, TDEC_E_FORMAT for a malformed symbol line
   or a type letter uftrace rejects (kallsyms' 'b', 'r'... included; the
   caller skips the line as uftrace does), TDEC_E_ARG. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_sym_line(const char *line, size_t len,
                                                         tdec_uftrace_sym_line *out);

/* ---- <module>.dbg ------------------------------------------------------- */

#define TDEC_UFTRACE_DBG_FUNC    1u /* "F: <hex offset> <name>": addr, text = name      */
#define TDEC_UFTRACE_DBG_LINE    2u /* "L: <line> <file>": addr = line, text = file      */
#define TDEC_UFTRACE_DBG_ARGS    3u /* "A: @<specs>": text = specs (after '@')          */
#define TDEC_UFTRACE_DBG_RETVAL  4u /* "R: @<spec>": text = spec (after '@')            */
#define TDEC_UFTRACE_DBG_ENUM    5u /* "E: enum NAME {...}": text = "enum NAME {...}"  */
#define TDEC_UFTRACE_DBG_COMMENT 6u /* '#' lines ("# path name:", "# build-id:"),      */
                                    /* empty lines: text = the whole line               */

typedef struct tdec_uftrace_dbg_line {
    uint32_t          kind; /* TDEC_UFTRACE_DBG_*             */
    uint64_t          addr; /* FUNC: offset; LINE: line number */
    tdec_uftrace_text text;
} tdec_uftrace_dbg_line;

/* A/R/E/F/L apply to the function of the last F: line (E: to the module).
   TDEC_OK; TDEC_E_FORMAT for a line that is not "X: ..." with a known X,
   or a malformed F:/L: number (uftrace stops reading the file there);
   TDEC_E_ARG. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_dbg_line(const char *line, size_t len,
                                                         tdec_uftrace_dbg_line *out);

/* ---- argument spec grammar ---------------------------------------------- */

/* A spec list "PAT@item,item;PAT2@item" (the values of info argspec:,
   retspec:, argauto:, retauto: lines; .dbg A:/R: texts after '@' are one
   item list without a pattern) is walked with a cursor:
       const char *p = value.ptr, *e = value.ptr + value.len;
       while (tdec_uftrace_next_spec_entry(&p, e, &ent) == TDEC_OK) {
           const char *q = ent.items.ptr, *qe = q + ent.items.len;
           while (tdec_uftrace_next_spec_item(&q, qe, &item) == TDEC_OK) ...
       } */
typedef struct tdec_uftrace_spec_entry {
    tdec_uftrace_text pattern; /* before the first '@' (the whole entry if none) */
    tdec_uftrace_text items;   /* after it; len 0 if none                        */
} tdec_uftrace_spec_entry;

/* Splits the next ';'-separated entry off [*pos, end): TDEC_OK with *out
   set and *pos past the entry and its ';'; TDEC_END when nothing is left
   (empty entries are skipped; *pos is then end); TDEC_E_ARG for NULL
   arguments or *pos > end. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_spec_entry(const char **pos, const char *end,
                                                          tdec_uftrace_spec_entry *out);

/* The same for the next ','-separated item. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_spec_item(const char **pos, const char *end, tdec_uftrace_text *out);

#define TDEC_UFTRACE_ITEM_ARG    1u /* argN (arg0: index 0, a return value)          */
#define TDEC_UFTRACE_ITEM_FPARG  2u /* fpargN                                        */
#define TDEC_UFTRACE_ITEM_RETVAL 3u /* retval                                        */
#define TDEC_UFTRACE_ITEM_OTHER  4u /* anything else: a module name, PLT, or a       */
                                    /* trigger action (depth=2, read=..., backtrace,  */
                                    /* trace_on...): not an argument                  */

/* One parsed item: argN|fpargN|retval [/FORMAT[SIZE]] [%REG | %stack[+]N],
   FORMAT one of d i u x s S c f p, e:NAME or tN[:NAME]. Numbers are read
   as uftrace 0.13's parse_argspec() reads them (strtol): N of argN, fpargN
   and tN in C syntax (decimal, 0x hex, 0 octal), SIZE in decimal. */
typedef struct tdec_uftrace_spec_item {
    uint32_t          kind;         /* TDEC_UFTRACE_ITEM_*                           */
    uint32_t          index;        /* N of argN/fpargN; 0 for retval (and arg0)     */
    char              format;       /* 0 if none given, else d i u x s S c f p e t  */
    uint32_t          size_bits;    /* "/i32" -> 32, "fparg1/80" -> 80; 0 if none    */
    uint32_t          struct_size;  /* tN: N bytes                                   */
    tdec_uftrace_text type_name;    /* e:NAME / tN:NAME (len 0 if none)              */
    tdec_uftrace_text reg;          /* %REG without the '%' ("RDI", or "RDI+RSI" for */
                                    /* a struct in registers); len 0 if none         */
    uint32_t          stack_offset; /* %stack+N, %stackN -> N as an int (has_stack)  */
    uint32_t          has_stack;
    uint32_t          bad;          /* after TDEC_E_FORMAT: TDEC_UFTRACE_BAD_*       */
} tdec_uftrace_spec_item;

/* Why an argument item was rejected, as uftrace 0.13 tells (it prints
   "Usage: " and the text to stdout, for the first bad item of an entry). */
#define TDEC_UFTRACE_BAD_QUIET    1u /* nothing: prefix not in lower case, junk   */
#define TDEC_UFTRACE_BAD_INDEX    2u /* "skipping invalid argument: ITEM"         */
#define TDEC_UFTRACE_BAD_TYPE     3u /* "unsupported argument type: ITEM"         */
#define TDEC_UFTRACE_BAD_SIZE     4u /* "unsupported argument size: ITEM"         */
#define TDEC_UFTRACE_BAD_ENUM     5u /* "invalid enum spec: e..." (the format on) */
#define TDEC_UFTRACE_BAD_REGISTER 6u /* "unknown register name: ITEM" (empty or   */
                                     /* not alphanumeric; a caller checks the     */
                                     /* names of the recorded architecture)       */

/* Parses one item (as split by tdec_uftrace_next_spec_item). Items are
   recognised as uftrace does, by a case-insensitive "arg", "fparg" or
   "retval" prefix; anything else is kind OTHER (TDEC_OK, other fields 0).
   Index 0 ("arg0", "fparg0") is accepted: uftrace 0.13 files such an item
   with the return values (index 0 is theirs). TDEC_E_FORMAT, with `kind`
   still set, for a malformed argument item: a prefix not in lower case
   ("ARG1", "Retval": the parser compares it exactly), no index ("arg"),
   an index over 2^32-1, an unknown format letter (0.13 has no "o"), a size
   other than 8/16/32/64 (80 for floats only: "/i7", "/x80"), "/e" without
   ":NAME", junk after the item or an empty or non-alphanumeric %REG; `bad`
   says which, as uftrace's message does. As in uftrace, what follows "%stack" is read as
   a number if it can be (else the offset is 0) and then ignored, and what
   follows a struct's "tN[:NAME]" is ignored unless it is "%stack+N" or a
   register list ("%RDI+RSI", set as reg). TDEC_E_ARG for NULL. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_spec_item(const char *s, size_t len, tdec_uftrace_spec_item *out);

/* The payload layout of an item for the decoder's spec, as uftrace's
   libmcount/record.c writes it (save_to_argbuf):
   `long_size` is 8 for 64-bit data (info elf_class 2), 4 for 32-bit;
   `f80_size` is 10 (x86) or 8 (32-bit ARM, where f80 means a double).
   No format -> INT long_size ('d'); fparg without format -> FLOAT 8 ('f');
   c -> CHAR 1, or size_bits/8 ("c16": 2 bytes); s -> STRING; S ->
   STDSTRING (a size is ignored); tN -> STRUCT N; e -> INT long_size;
   d i u x p -> INT size_bits/8 or long_size; f -> FLOAT 8, or size_bits/8
   ("f8": 1 byte, "f16": 2) or f80_size for /80. out->format is the
   effective letter. Returns TDEC_OK, TDEC_E_FORMAT (kind OTHER, a struct
   over 1020 bytes) or TDEC_E_ARG (NULL, long_size not 4/8, f80_size not
   8/10). */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_spec_item_layout(const tdec_uftrace_spec_item *item, unsigned long_size,
                                                           unsigned f80_size, tdec_uftrace_arg *out);

/* ---- enum definitions --------------------------------------------------- */

/* "enum NAME { A, B = 5, C = -1, D = 0x10, E = 010, }" as in info enumauto:
   lines (several definitions separated by ';') and .dbg E: lines (one).
   Values are C integer constants (decimal, 0x hex, 0 octal, signed) that
   fit int64_t; implicit values continue from the previous + 1, starting
   at 0; a trailing ',' before '}' is allowed. Walk:
       int64_t next;
       while ((st = tdec_uftrace_next_enum(&p, e, &name)) == TDEC_OK) {
           next = 0;
           while ((st = tdec_uftrace_next_enum_value(&p, e, &next, &v)) == TDEC_OK) use(name, v);
           if (st != TDEC_END) break;
       }
   st is then TDEC_END when the whole text was read, else the error (p is
   where it stopped). */
typedef struct tdec_uftrace_enum_value {
    tdec_uftrace_text name;
    int64_t           value;
} tdec_uftrace_enum_value;

/* The header "enum NAME {" of the next definition in [*pos, end), after any
   ';' and spaces: TDEC_OK with *name set and *pos just after '{';
   TDEC_END when nothing is left (*pos == end then); TDEC_E_FORMAT when the
   text is malformed (*pos left at the bad definition); TDEC_E_ARG for NULL
   arguments or *pos > end. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_enum(const char **pos, const char *end, tdec_uftrace_text *name);

/* The next "NAME[ = VALUE]" of the current definition: TDEC_OK with *out
   filled, *next = value + 1, *pos past the value and its ','; TDEC_END
   after the closing '}' (*pos advanced past it); TDEC_E_FORMAT for
   malformed text (*pos left unchanged), a value outside int64_t included,
   and an implicit value after INT64_MAX (*next holds INT64_MIN meaning
   "none", which no real successor value can be); TDEC_E_ARG for NULL
   arguments or *pos > end. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_enum_value(const char **pos, const char *end, int64_t *next,
                                                          tdec_uftrace_enum_value *out);

/* ==== perf-cpuN.dat decoder ============================================== */

/* Raw Linux perf ring-buffer records copied by `uftrace record`: each a
   perf_event_header {u32 type; u16 misc; u16 size} and size-8 bytes of
   body, in the recording host's byte order. With uftrace's settings
   (sample_id_all, TID|TIME) every body ends with {u32 pid, tid; u64 time}.
   The four types uftrace uses are decoded from their fixed part; any other
   type comes out as a record item with type, misc, size and payload_size
   only, followed by its body as FRAGMENT items (none under
   TDEC_UFTRACE_F_SKIP_PAYLOADS). Same loop, contract and config as the
   record decoder (TDEC_UFTRACE_F_BIG_ENDIAN, TDEC_UFTRACE_F_SKIP_PAYLOADS,
   max_fragment); no spec is ever needed.

   Which pid/tid/time to show follows uftrace (utils/perf.c), so that
   `uftrace dump` output can be reproduced:
     COMM   (task-name 200006): pid, tid from the body; time = sample time
     FORK   (task-new 200004), EXIT (task-exit 200005): pid, ppid, tid, ptid
            and time from the body (the sample trailer of a FORK names the
            parent thread and its time is a little earlier)
     SWITCH (sched-in 200001; with SWITCH_OUT: sched-out 200002, or with
            PREEMPT too sched-out (pre-empted) 200007): sample pid/tid/time
   The sample trailer itself is in sample_pid/sample_tid/sample_time for
   the four known types. */

#define TDEC_UFTRACE_PERF_COMM   3u
#define TDEC_UFTRACE_PERF_EXIT   4u
#define TDEC_UFTRACE_PERF_FORK   7u
#define TDEC_UFTRACE_PERF_SWITCH 14u
#define TDEC_UFTRACE_PERF_SWITCH_OUT 0x2000u /* misc bits of SWITCH (on COMM the */
#define TDEC_UFTRACE_PERF_PREEMPT    0x4000u /* 0x2000 bit means "exec")          */

/* Largest record of a known type accepted (kernel records are 24..48). */
#define TDEC_UFTRACE_PERF_MAX_KNOWN 64u

typedef struct tdec_uftrace_perf_record {
    uint32_t type;         /* perf_event_header.type (any value)                  */
    uint32_t misc;
    uint32_t size;         /* whole record including the 8-byte header            */
    uint32_t pid, tid;     /* see above; 0 for other types                        */
    uint32_t ppid, ptid;   /* FORK/EXIT                                           */
    uint64_t time;         /* see above; 0 for other types                        */
    char     comm[17];     /* COMM: the name, NUL-terminated (at most 16 chars)   */
    uint32_t sample_pid;   /* the sample_id trailer (last 16 bytes) of a known    */
    uint32_t sample_tid;   /* type; 0 for other types                             */
    uint64_t sample_time;
    uint64_t payload_size; /* other types: size - 8 body bytes that follow as     */
                           /* fragments; 0 for the known types                    */
} tdec_uftrace_perf_record;

typedef struct tdec_uftrace_perf_item {
    uint32_t kind;   /* TDEC_ITEM_RECORD or TDEC_ITEM_FRAGMENT          */
    uint64_t offset; /* stream offset of the record (or fragment data)  */
    union {
        tdec_uftrace_perf_record rec;
        tdec_frag                frag;
    } u;
} tdec_uftrace_perf_item;

/* The perf decoder. Read-only for callers: st.pos, st.err, st.err_offset,
   st.err_reason (TDEC_UFTRACE_R_*). memcpy-able. */
typedef struct tdec_uftrace_perf_decoder {
    tdec_stream         st;
    /* private */
    tdec_uftrace_config cfg;
    tdec_payload        pay;   /* body of a record of another type */
    uint32_t            phase;
} tdec_uftrace_perf_decoder;

/* As tdec_uftrace_init(). */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_init(tdec_uftrace_perf_decoder *d, const tdec_uftrace_config *cfg);

/* As tdec_uftrace_feed(). */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_feed(tdec_uftrace_perf_decoder *d, const void *data, size_t len);

/* Produces the next item. Returns TDEC_OK (*out filled), TDEC_NEED_INPUT
   (window used up), TDEC_END (after a clean finish()), TDEC_E_ARG, or an
   error (sticky): E_CORRUPT (R_PERF_SIZE: size below 8, or a
   COMM/EXIT/FORK/SWITCH record too small for its fields or over
   TDEC_UFTRACE_PERF_MAX_KNOWN), E_TRUNCATED (after finish()). */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_next(tdec_uftrace_perf_decoder *d, tdec_uftrace_perf_item *out);

/* As tdec_uftrace_finish(): never TDEC_NEED_INPUT. */
TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_finish(tdec_uftrace_perf_decoder *d);

/* As tdec_uftrace_reset(). */
TDEC_UFTRACE_DEF void tdec_uftrace_perf_reset(tdec_uftrace_perf_decoder *d);

#ifdef __cplusplus
}
#endif
#endif /* TDEC_UFTRACE_H_INCLUDED */

/* ==== implementation ===================================================== */
#if defined(TDEC_UFTRACE_IMPLEMENTATION) || defined(TRACEDEC_IMPLEMENTATION)
#ifndef TDEC_UFTRACE_IMPL_INCLUDED
#define TDEC_UFTRACE_IMPL_INCLUDED

/* ==== record decoder: implementation ===================================== */

#define TDEC_UFTRACE__REC_SIZE 16u
#define TDEC_UFTRACE__MAGIC    5u
/* keeps a rare path out of its caller, whose common path then needs no
   saved registers */
#if defined(__GNUC__)
#define TDEC_UFTRACE__RARE __attribute__((noinline))
#else
#define TDEC_UFTRACE__RARE
#endif

TDEC_STATIC_ASSERT(uftrace_carry, TDEC_UFTRACE__REC_SIZE + 2u <= TDEC_CARRY_CAP);

enum tdec_uftrace__phase {
    TDEC_UFTRACE__P_RECORD = 0, /* at a record boundary                       */
    TDEC_UFTRACE__P_NEED_SPEC,  /* an ENTRY/EXIT block awaits set_spec()      */
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

TDEC_UFTRACE_DEF int tdec_uftrace_needs_spec(const tdec_uftrace_decoder *d)
{
    return d != NULL && d->st.err == TDEC_OK && d->phase == TDEC_UFTRACE__P_NEED_SPEC;
}

static int tdec_uftrace__arg_valid(const tdec_uftrace_arg *a)
{
    switch (a->kind) {
    case TDEC_UFTRACE_V_INT:       return a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8;
    case TDEC_UFTRACE_V_CHAR:      return a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8;
    case TDEC_UFTRACE_V_FLOAT:
        return a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8 || a->size == 10;
    case TDEC_UFTRACE_V_STRING:
    case TDEC_UFTRACE_V_STDSTRING: return 1;
    case TDEC_UFTRACE_V_STRUCT:    return a->size <= TDEC_UFTRACE_MAX_BLOCK;
    default:                       return 0;
    }
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_set_spec(tdec_uftrace_decoder *d, const tdec_uftrace_argspec *spec)
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

/* The fields of a 16-byte record (time, then the word of type, more, magic,
   depth and address) into *out, which tdec_uftrace__record() started. */
static void tdec_uftrace__record_fields(tdec_uftrace_decoder *d, tdec_uftrace_record *r, uint64_t time, uint64_t word)
{
    r->more = (uint32_t)((word >> 2) & 1u);
    r->magic = (uint32_t)((word >> 3) & 7u);
    r->depth = (uint32_t)((word >> 6) & 0x3FFu);
    r->addr = word >> 16;
    r->time = time;
    d->rec_time = time;
}

/* A 16-byte record (18 bytes for an event with data: its u16 length). */
TDEC_UFTRACE__RARE static int tdec_uftrace__step_record_any(tdec_uftrace_decoder *d, tdec_uftrace_item *out)
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
    if (type == TDEC_UFTRACE_REC_LOST && more)
        return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_LOST_MORE);
    if (type == TDEC_UFTRACE_REC_EVENT && more) {
        /* event data is self-describing: u16 length, padded with it to 8 */
        p = tdec__stream_peek(&d->st, TDEC_UFTRACE__REC_SIZE + 2u);
        if (p == NULL) return TDEC_NEED_INPUT;
    }
    r = tdec_uftrace__record(d, out, type);
    tdec_uftrace__record_fields(d, r, time, word);
    if (type == TDEC_UFTRACE_REC_EVENT && more) {
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

/* A record: the common one (little-endian, in the window, no payload,
   magic right) on a path of its own, without calls. */
static int tdec_uftrace__step_record(tdec_uftrace_decoder *d, tdec_uftrace_item *out)
{
    uint64_t word;
    if (d->st.carry_len == 0 && d->st.win_len >= TDEC_UFTRACE__REC_SIZE &&
        !(d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN)) {
        word = tdec__rd_u64le(d->st.win + 8);
        if (((word >> 2) & 0xFu) == TDEC_UFTRACE__MAGIC << 1) { /* more 0, magic */
            tdec_uftrace__record_fields(d, tdec_uftrace__record(d, out, (uint32_t)(word & 3u)),
                                        tdec__rd_u64le(d->st.win), word);
            tdec__stream_consume(&d->st, TDEC_UFTRACE__REC_SIZE);
            return TDEC_OK;
        }
    }
    return tdec_uftrace__step_record_any(d, out);
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
        return TDEC__AGAIN;
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

    r = tdec_uftrace__record(d, out, TDEC_UFTRACE_REC_ARG);
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
    for (i = 0; i < fixed; i++) r->raw[i] = p[i];
    if (a->kind != TDEC_UFTRACE_V_FLOAT) r->value = tdec_uftrace__uint(d, p, a->size);
    tdec__stream_consume(&d->st, fixed);
    d->blk += fixed;
    d->arg_next++;
    return TDEC_OK;
}

/* tdec_uftrace_next() past a record: arguments, payloads, padding. */
TDEC_UFTRACE__RARE static tdec_status tdec_uftrace__next_inside(tdec_uftrace_decoder *d, tdec_uftrace_item *out)
{
    tdec_uftrace_record *r;
    int st;
    /* Each pass returns or changes phase; the loop always ends. */
    for (;;) {
        switch (d->phase) {
        case TDEC_UFTRACE__P_RECORD:
            return (tdec_status)tdec_uftrace__step_record(d, out);
        case TDEC_UFTRACE__P_NEED_SPEC:
            return TDEC_E_SEQUENCE;
        case TDEC_UFTRACE__P_ARG:
            st = tdec_uftrace__step_arg(d, out);
            if (st == TDEC__AGAIN) continue;
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
            r = tdec_uftrace__record(d, out, TDEC_UFTRACE_REC_ARGS_END);
            r->time = d->rec_time;
            r->block_len = d->blk;
            d->phase = TDEC_UFTRACE__P_RECORD;
            return TDEC_OK;
        }
    }
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next(tdec_uftrace_decoder *d, tdec_uftrace_item *out)
{
    if (d == NULL || out == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err;
    if (d->st.finished) return TDEC_END;
    /* records come one after another: their path first */
    if (d->phase == TDEC_UFTRACE__P_RECORD) return (tdec_status)tdec_uftrace__step_record(d, out);
    return tdec_uftrace__next_inside(d, out);
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
    case TDEC_UFTRACE_R_PERF_SIZE: return "perf record size is below 8, or does not fit its type's layout";
    }
    return "unknown reason";
#endif
}

/* ==== text and side files: implementation ================================ */

static int tdec_uftrace__digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Value of a hex digit, or -1. */
static int tdec_uftrace__xval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int tdec_uftrace__alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int tdec_uftrace__space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static char tdec_uftrace__lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* 1 if [p, e) starts with the NUL-terminated `lit` (case-insensitively
   when `nocase`). */
static int tdec_uftrace__prefix(const char *p, const char *e, const char *lit, int nocase)
{
    for (; *lit; lit++, p++) {
        if (p >= e) return 0;
        if (nocase ? tdec_uftrace__lower(*p) != *lit : *p != *lit) return 0;
    }
    return 1;
}

static size_t tdec_uftrace__cstrlen(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

/* 1 if [p, e) is exactly `lit`. */
static int tdec_uftrace__equal(const char *p, const char *e, const char *lit)
{
    return tdec_uftrace__prefix(p, e, lit, 0) && (size_t)(e - p) == tdec_uftrace__cstrlen(lit);
}

static tdec_uftrace_text tdec_uftrace__text(const char *p, const char *e)
{
    tdec_uftrace_text s;
    s.ptr = p;
    s.len = (size_t)(e - p);
    return s;
}

/* Decimal digits at *p (at least one) into a value <= max; advances *p.
   0 if there is no digit or the value is over max. */
static int tdec_uftrace__dec(const char **p, const char *e, uint64_t max, uint64_t *out)
{
    const char *q = *p;
    uint64_t v = 0;
    if (q >= e || !tdec_uftrace__digit(*q)) return 0;
    for (; q < e && tdec_uftrace__digit(*q); q++) {
        uint64_t dgt = (uint64_t)(*q - '0');
        /* no 64-bit division: freestanding 32-bit targets lack it */
        if (v > UINT64_MAX / 10u) return 0;
        v *= 10u;
        if (dgt > max || v > max - dgt) return 0;
        v += dgt;
    }
    *p = q;
    *out = v;
    return 1;
}

/* Hex digits at *p (at least one) whose value fits 64 bits; advances *p. */
static int tdec_uftrace__hex(const char **p, const char *e, uint64_t *out)
{
    const char *q = *p;
    uint64_t v = 0;
    int x;
    if (q >= e || tdec_uftrace__xval(*q) < 0) return 0;
    for (; q < e && (x = tdec_uftrace__xval(*q)) >= 0; q++) {
        if (v >> 60) return 0;
        v = (v << 4) | (uint64_t)x;
    }
    *p = q;
    *out = v;
    return 1;
}

/* The line as [*b, *e): a NULL line of length 0 becomes "". */
static int tdec_uftrace__line(const char *line, size_t len, const char **b, const char **e)
{
    static const char empty[1] = { 0 };
    if (line == NULL) {
        if (len > 0) return 0;
        line = empty;
    }
    *b = line;
    *e = line + len;
    return 1;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_header(const void *data, size_t len, tdec_uftrace_header *out)
{
    static const char magic[8] = { 'F', 't', 'r', 'a', 'c', 'e', '!', 0 };
    const uint8_t *p = (const uint8_t *)data;
    unsigned i;
    int be;
    uint32_t version;
    if (data == NULL || out == NULL) return TDEC_E_ARG;
    if (len < TDEC_UFTRACE_HEADER_SIZE) return TDEC_E_TRUNCATED;
    for (i = 0; i < 8; i++)
        if (p[i] != (uint8_t)magic[i]) return TDEC_E_FORMAT;
    if ((p[14] != 1 && p[14] != 2) || (p[15] != 1 && p[15] != 2)) return TDEC_E_FORMAT;
    be = p[14] == 2;
    version = be ? tdec__rd_u32be(p + 8) : tdec__rd_u32le(p + 8);
    if (version < 3 || version > 4) return TDEC_E_VERSION;
    out->version = version;
    out->header_size = be ? tdec__rd_u16be(p + 12) : tdec__rd_u16le(p + 12);
    out->endian = p[14];
    out->elf_class = p[15];
    out->feat_mask = be ? tdec__rd_u64be(p + 16) : tdec__rd_u64le(p + 16);
    out->info_mask = be ? tdec__rd_u64be(p + 24) : tdec__rd_u64le(p + 24);
    out->max_stack = be ? tdec__rd_u16be(p + 32) : tdec__rd_u16le(p + 32);
    return TDEC_OK;
}

TDEC_UFTRACE_DEF const char *tdec_uftrace_feat_str(unsigned bit)
{
    static const char *const names[] = {
        "PLTHOOK",   "TASK_SESSION", "KERNEL",     "ARGUMENT",        "RETVAL",
        "SYM_REL_ADDR", "MAX_STACK", "EVENT",      "PERF_EVENT",      "AUTO_ARGS",
        "DEBUG_INFO", "ESTIMATE_RETURN", "SYM_SIZE", "CALLSITE"
    };
    return bit < sizeof names / sizeof names[0] ? names[bit] : NULL;
}

TDEC_UFTRACE_DEF const char *tdec_uftrace_info_str(unsigned bit)
{
    static const char *const names[] = {
        "EXE_NAME", "EXE_BUILD_ID", "EXIT_STATUS", "CMDLINE",     "CPUINFO",      "MEMINFO",
        "OSINFO",   "TASKINFO",     "USAGEINFO",   "LOADINFO",    "ARG_SPEC",     "RECORD_DATE",
        "PATTERN_TYPE", "VERSION",  "UTC_OFFSET",  "SYSCTL"
    };
    return bit < sizeof names / sizeof names[0] ? names[bit] : NULL;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_info_line(const char *line, size_t len,
                                                          tdec_uftrace_text *key, tdec_uftrace_text *value)
{
    const char *b, *e, *p;
    if (key == NULL || value == NULL || !tdec_uftrace__line(line, len, &b, &e)) return TDEC_E_ARG;
    for (p = b; p < e; p++) {
        if (*p == ':') {
            *key = tdec_uftrace__text(b, p);
            *value = tdec_uftrace__text(p + 1, e);
            return TDEC_OK;
        }
    }
    return TDEC_E_FORMAT;
}

/* "S.N" seconds in ns: N is 1..9 digits, scaled ("1.5" = 1.5 s). */
static int tdec_uftrace__time(const char *p, const char *e, uint64_t *out)
{
    uint64_t sec, frac = 0, t;
    unsigned digits = 0;
    if (!tdec_uftrace__dec(&p, e, UINT64_MAX, &sec)) return 0;
    if (p < e && *p == '.') {
        p++;
        for (; p < e && tdec_uftrace__digit(*p); p++) {
            if (++digits > 9) return 0;
            frac = frac * 10u + (uint64_t)(*p - '0');
        }
        if (digits == 0) return 0;
        for (; digits < 9; digits++) frac *= 10u;
    }
    if (p != e) return 0;
    if (sec > UINT64_MAX / 1000000000u) return 0;
    t = sec * 1000000000u;
    if (!tdec__add_u64(t, frac, &t)) return 0;
    *out = t;
    return 1;
}

/* A whole [p, e) as a decimal int32 >= 0. */
static int tdec_uftrace__i32(const char *p, const char *e, int32_t *out)
{
    uint64_t v;
    if (!tdec_uftrace__dec(&p, e, 0x7FFFFFFFu, &v) || p != e) return 0;
    *out = (int32_t)v;
    return 1;
}

#define TDEC_UFTRACE__HAS_TIME 1u
#define TDEC_UFTRACE__HAS_PID  2u
#define TDEC_UFTRACE__HAS_TID  4u
#define TDEC_UFTRACE__HAS_PPID 8u
#define TDEC_UFTRACE__HAS_SID  16u
#define TDEC_UFTRACE__HAS_BASE 32u
#define TDEC_UFTRACE__HAS_NAME 64u

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_task_line(const char *line, size_t len,
                                                          tdec_uftrace_task_line *out)
{
    const char *b, *e, *p, *w, *we, *eq, *q;
    const char *name_key = NULL;
    uint32_t has = 0, need = 0;
    if (out == NULL || !tdec_uftrace__line(line, len, &b, &e)) return TDEC_E_ARG;
    out->kind = TDEC_UFTRACE_TASK_UNKNOWN;
    out->time = 0;
    out->pid = out->tid = out->ppid = 0;
    out->base = 0;
    out->sid = tdec_uftrace__text(b, b);
    out->name = tdec_uftrace__text(b, b);

    for (p = b; p < e && *p != ' '; p++) {}
    if (tdec_uftrace__equal(b, p, "SESS")) {
        out->kind = TDEC_UFTRACE_TASK_SESS;
        name_key = "exename=\"";
        need = TDEC_UFTRACE__HAS_TIME | TDEC_UFTRACE__HAS_PID | TDEC_UFTRACE__HAS_SID | TDEC_UFTRACE__HAS_NAME;
    } else if (tdec_uftrace__equal(b, p, "TASK")) {
        out->kind = TDEC_UFTRACE_TASK_TASK;
        need = TDEC_UFTRACE__HAS_TIME | TDEC_UFTRACE__HAS_TID | TDEC_UFTRACE__HAS_PID;
    } else if (tdec_uftrace__equal(b, p, "FORK")) {
        out->kind = TDEC_UFTRACE_TASK_FORK;
        need = TDEC_UFTRACE__HAS_TIME | TDEC_UFTRACE__HAS_PID | TDEC_UFTRACE__HAS_PPID;
    } else if (tdec_uftrace__equal(b, p, "DLOP")) {
        out->kind = TDEC_UFTRACE_TASK_DLOP;
        name_key = "libname=\"";
        need = TDEC_UFTRACE__HAS_TIME | TDEC_UFTRACE__HAS_TID | TDEC_UFTRACE__HAS_SID | TDEC_UFTRACE__HAS_BASE |
               TDEC_UFTRACE__HAS_NAME;
    } else {
        return TDEC_OK;
    }

    while (p < e) {
        if (*p == ' ') {
            p++;
            continue;
        }
        w = p;
        if (name_key != NULL && tdec_uftrace__prefix(w, e, name_key, 0)) {
            /* the name runs to the line's last '"', spaces and quotes included */
            w += 9;
            for (q = e; q > w && q[-1] != '"'; q--) {}
            if (q == w) return TDEC_E_FORMAT;
            out->name = tdec_uftrace__text(w, q - 1);
            has |= TDEC_UFTRACE__HAS_NAME;
            break;
        }
        for (we = w; we < e && *we != ' '; we++) {}
        p = we;
        for (eq = w; eq < we && *eq != '='; eq++) {}
        if (eq == we) continue; /* not key=value: ignored */
        q = eq + 1;
        if (tdec_uftrace__equal(w, eq, "timestamp")) {
            if (!tdec_uftrace__time(q, we, &out->time)) return TDEC_E_FORMAT;
            has |= TDEC_UFTRACE__HAS_TIME;
        } else if (tdec_uftrace__equal(w, eq, "pid")) {
            if (!tdec_uftrace__i32(q, we, &out->pid)) return TDEC_E_FORMAT;
            has |= TDEC_UFTRACE__HAS_PID;
        } else if (tdec_uftrace__equal(w, eq, "tid")) {
            if (!tdec_uftrace__i32(q, we, &out->tid)) return TDEC_E_FORMAT;
            has |= TDEC_UFTRACE__HAS_TID;
        } else if (tdec_uftrace__equal(w, eq, "ppid")) {
            if (!tdec_uftrace__i32(q, we, &out->ppid)) return TDEC_E_FORMAT;
            has |= TDEC_UFTRACE__HAS_PPID;
        } else if (tdec_uftrace__equal(w, eq, "sid")) {
            if (q == we) return TDEC_E_FORMAT;
            out->sid = tdec_uftrace__text(q, we);
            has |= TDEC_UFTRACE__HAS_SID;
        } else if (tdec_uftrace__equal(w, eq, "base")) {
            if (!tdec_uftrace__hex(&q, we, &out->base) || q != we) return TDEC_E_FORMAT;
            has |= TDEC_UFTRACE__HAS_BASE;
        }
    }
    if (out->kind == TDEC_UFTRACE_TASK_SESS && !(has & TDEC_UFTRACE__HAS_PID) && (has & TDEC_UFTRACE__HAS_TID)) {
        /* old files: SESS ... tid=N */
        out->pid = out->tid;
        out->tid = 0;
        has |= TDEC_UFTRACE__HAS_PID;
    }
    return (has & need) == need ? TDEC_OK : TDEC_E_FORMAT;
}

#undef TDEC_UFTRACE__HAS_TIME
#undef TDEC_UFTRACE__HAS_PID
#undef TDEC_UFTRACE__HAS_TID
#undef TDEC_UFTRACE__HAS_PPID
#undef TDEC_UFTRACE__HAS_SID
#undef TDEC_UFTRACE__HAS_BASE
#undef TDEC_UFTRACE__HAS_NAME

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_map_line(const char *line, size_t len,
                                                         tdec_uftrace_map_line *out)
{
    const char *b, *e, *p, *q, *r, *t;
    uint64_t v;
    unsigned i;
    if (out == NULL || !tdec_uftrace__line(line, len, &b, &e)) return TDEC_E_ARG;
    p = b;
    if (!tdec_uftrace__hex(&p, e, &out->start) || p >= e || *p++ != '-') return TDEC_E_FORMAT;
    if (!tdec_uftrace__hex(&p, e, &out->end) || p >= e || *p++ != ' ') return TDEC_E_FORMAT;
    if (out->start > out->end) return TDEC_E_FORMAT;
    for (i = 0; i < 4; i++) {
        if (p >= e || *p == ' ') return TDEC_E_FORMAT;
        out->perms[i] = *p++;
    }
    if (p >= e || *p++ != ' ') return TDEC_E_FORMAT;
    if (!tdec_uftrace__hex(&p, e, &v) || p >= e || *p++ != ' ') return TDEC_E_FORMAT;    /* offset  */
    if (!tdec_uftrace__hex(&p, e, &v) || p >= e || *p++ != ':') return TDEC_E_FORMAT;    /* major   */
    if (!tdec_uftrace__hex(&p, e, &v) || p >= e || *p++ != ' ') return TDEC_E_FORMAT;    /* minor   */
    if (!tdec_uftrace__dec(&p, e, UINT64_MAX, &v) || (p < e && *p != ' ')) return TDEC_E_FORMAT; /* inode */
    while (p < e && *p == ' ') p++;
    /* [p, e): path, then maybe " build-id:<hex>" (the last one counts) */
    out->build_id = tdec_uftrace__text(e, e);
    q = e;
    for (r = e; r - p >= 10; r--) {
        if (tdec_uftrace__prefix(r - 10, e, " build-id:", 0)) {
            q = r - 10;
            for (t = e; t > r && t[-1] == ' '; t--) {}
            out->build_id = tdec_uftrace__text(r, t);
            break;
        }
    }
    while (q > p && q[-1] == ' ') q--;
    out->path = tdec_uftrace__text(p, q);
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_sym_line(const char *line, size_t len,
                                                         tdec_uftrace_sym_line *out)
{
    static const char allowed[] = "?TtwPKDdvu";
    const char *b, *e, *p, *q;
    unsigned i;
    if (out == NULL || !tdec_uftrace__line(line, len, &b, &e)) return TDEC_E_ARG;
    out->kind = TDEC_UFTRACE_SYM_COMMENT;
    out->addr = 0;
    out->size = 0;
    out->has_size = 0;
    out->type = 0;
    out->name = tdec_uftrace__text(b, e);
    if (b == e) return TDEC_OK;
    if (*b == '#') {
        if (tdec_uftrace__prefix(b, e, "# symbols: ", 0)) {
            p = b + 11;
            if (!tdec_uftrace__dec(&p, e, UINT64_MAX, &out->addr)) return TDEC_E_FORMAT;
            while (p < e && *p == ' ') p++;
            if (p != e) return TDEC_E_FORMAT;
            out->kind = TDEC_UFTRACE_SYM_COUNT;
            out->name = tdec_uftrace__text(e, e);
        } else if (tdec_uftrace__prefix(b, e, "# path name: ", 0)) {
            out->kind = TDEC_UFTRACE_SYM_PATH;
            out->name = tdec_uftrace__text(b + 13, e);
        } else if (tdec_uftrace__prefix(b, e, "# build-id: ", 0)) {
            out->kind = TDEC_UFTRACE_SYM_BUILD_ID;
            out->name = tdec_uftrace__text(b + 12, e);
        }
        return TDEC_OK;
    }
    p = b;
    if (!tdec_uftrace__hex(&p, e, &out->addr) || p >= e || *p++ != ' ') return TDEC_E_FORMAT;
    if (p < e && tdec_uftrace__digit(*p)) {
        if (!tdec_uftrace__hex(&p, e, &out->size) || p >= e || *p++ != ' ') return TDEC_E_FORMAT;
        out->has_size = 1;
    }
    if (p >= e) return TDEC_E_FORMAT;
    out->type = *p++;
    if (p >= e || *p++ != ' ') return TDEC_E_FORMAT;
    for (i = 0; allowed[i] && allowed[i] != out->type; i++) {}
    if (!allowed[i]) return TDEC_E_FORMAT;
    for (q = p; q < e && *q != '\t'; q++) {}
    out->name = tdec_uftrace__text(p, q);
    out->kind = TDEC_UFTRACE_SYM_SYMBOL;
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_dbg_line(const char *line, size_t len,
                                                         tdec_uftrace_dbg_line *out)
{
    const char *b, *e, *p;
    if (out == NULL || !tdec_uftrace__line(line, len, &b, &e)) return TDEC_E_ARG;
    out->kind = TDEC_UFTRACE_DBG_COMMENT;
    out->addr = 0;
    out->text = tdec_uftrace__text(b, e);
    if (b == e || *b == '#') return TDEC_OK;
    if (e - b < 3 || b[1] != ':' || b[2] != ' ') return TDEC_E_FORMAT;
    p = b + 3;
    switch (*b) {
    case 'F':
        if (!tdec_uftrace__hex(&p, e, &out->addr)) return TDEC_E_FORMAT;
        if (p < e && *p++ != ' ') return TDEC_E_FORMAT;
        out->kind = TDEC_UFTRACE_DBG_FUNC;
        break;
    case 'L':
        if (!tdec_uftrace__dec(&p, e, UINT64_MAX, &out->addr)) return TDEC_E_FORMAT;
        if (p < e && *p++ != ' ') return TDEC_E_FORMAT;
        out->kind = TDEC_UFTRACE_DBG_LINE;
        break;
    case 'A':
    case 'R':
        if (p < e && *p == '@') p++;
        out->kind = *b == 'A' ? TDEC_UFTRACE_DBG_ARGS : TDEC_UFTRACE_DBG_RETVAL;
        break;
    case 'E':
        out->kind = TDEC_UFTRACE_DBG_ENUM;
        break;
    default:
        return TDEC_E_FORMAT;
    }
    out->text = tdec_uftrace__text(p, e);
    return TDEC_OK;
}

/* The next non-empty `sep`-separated piece of [*pos, end): TDEC_OK,
   TDEC_END or TDEC_E_ARG as tdec_uftrace_next_spec_entry(). */
static tdec_status tdec_uftrace__split(const char **pos, const char *end, char sep, const char **b,
                                       const char **e)
{
    const char *p;
    if (pos == NULL || *pos == NULL || end == NULL || *pos > end) return TDEC_E_ARG;
    p = *pos;
    while (p < end && *p == sep) p++;
    if (p == end) {
        *pos = end;
        return TDEC_END;
    }
    *b = p;
    while (p < end && *p != sep) p++;
    *e = p;
    *pos = p < end ? p + 1 : p;
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_spec_entry(const char **pos, const char *end,
                                                          tdec_uftrace_spec_entry *out)
{
    const char *b, *e, *at;
    tdec_status st;
    if (out == NULL) return TDEC_E_ARG;
    st = tdec_uftrace__split(pos, end, ';', &b, &e);
    if (st != TDEC_OK) return st;
    for (at = b; at < e && *at != '@'; at++) {}
    out->pattern = tdec_uftrace__text(b, at);
    out->items = at < e ? tdec_uftrace__text(at + 1, e) : tdec_uftrace__text(e, e);
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_spec_item(const char **pos, const char *end, tdec_uftrace_text *out)
{
    const char *b, *e;
    tdec_status st;
    if (out == NULL) return TDEC_E_ARG;
    st = tdec_uftrace__split(pos, end, ',', &b, &e);
    if (st != TDEC_OK) return st;
    *out = tdec_uftrace__text(b, e);
    return TDEC_OK;
}

static const char *tdec_uftrace__skip_space(const char *p, const char *e)
{
    while (p < e && tdec_uftrace__space(*p)) p++;
    return p;
}

/* A C integer constant (strtol base 0 syntax, optional sign) that fits
   int64_t, at *p; advances *p. */
static int tdec_uftrace__c_int(const char **p, const char *e, int64_t *out)
{
    const char *q = *p;
    uint64_t v = 0, lim;
    unsigned base = 10, n = 0;
    int neg = 0, x;
    if (q < e && (*q == '+' || *q == '-')) neg = *q++ == '-';
    if (q + 1 < e && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
        base = 16;
        q += 2;
    } else if (q < e && q[0] == '0') {
        base = 8;
    }
    lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    for (; q < e; q++, n++) {
        x = tdec_uftrace__xval(*q);
        if (x < 0 || (unsigned)x >= base) break;
        /* v * base + x <= lim, without a 64-bit division */
        if (v > (base == 16 ? UINT64_MAX >> 4 : base == 8 ? UINT64_MAX >> 3 : UINT64_MAX / 10u)) return 0;
        v *= base;
        if (v > lim - (uint64_t)x) return 0;
        v += (uint64_t)x;
    }
    if (n == 0) return 0;
    *p = q;
    if (neg)
        *out = v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return 1;
}

/* The end of a type name: the next '%' or e. */
static const char *tdec_uftrace__name_end(const char *p, const char *e)
{
    while (p < e && *p != '%') p++;
    return p;
}

/* Rejects an argument item for `why` (TDEC_UFTRACE_BAD_*). */
static tdec_status tdec_uftrace__bad_item(tdec_uftrace_spec_item *out, uint32_t why)
{
    out->bad = why;
    return TDEC_E_FORMAT;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_parse_spec_item(const char *s, size_t len, tdec_uftrace_spec_item *out)
{
    const char *p, *e, *q;
    uint64_t v;
    size_t n;
    int64_t sv;
    int sized = 0;
    if (out == NULL || !tdec_uftrace__line(s, len, &p, &e)) return TDEC_E_ARG;
    out->kind = TDEC_UFTRACE_ITEM_OTHER;
    out->index = 0;
    out->format = 0;
    out->size_bits = 0;
    out->struct_size = 0;
    out->type_name = tdec_uftrace__text(e, e);
    out->reg = tdec_uftrace__text(e, e);
    out->stack_offset = 0;
    out->has_stack = 0;
    out->bad = 0;

    /* uftrace matches the action names case-insensitively ("arg" first),
       then its argument parser compares them exactly */
    if (tdec_uftrace__prefix(p, e, "arg", 1)) {
        out->kind = TDEC_UFTRACE_ITEM_ARG;
        q = "arg";
    } else if (tdec_uftrace__prefix(p, e, "fparg", 1)) {
        out->kind = TDEC_UFTRACE_ITEM_FPARG;
        q = "fparg";
    } else if (tdec_uftrace__prefix(p, e, "retval", 1)) {
        out->kind = TDEC_UFTRACE_ITEM_RETVAL;
        q = "retval";
    } else {
        return TDEC_OK;
    }
    /* uftrace wants a digit after "arg" and "fparg" before it parses */
    n = tdec_uftrace__cstrlen(q);
    if (out->kind != TDEC_UFTRACE_ITEM_RETVAL && ((size_t)(e - p) <= n || !tdec_uftrace__digit(p[n])))
        return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_INDEX);
    if (!tdec_uftrace__prefix(p, e, q, 0)) return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_QUIET);
    p += n;
    if (out->kind != TDEC_UFTRACE_ITEM_RETVAL) {
        /* strtol(.., 0): "arg0x2" is arg2, "arg010" arg8 */
        if (!tdec_uftrace__c_int(&p, e, &sv) || sv > 0xFFFFFFFF)
            return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_QUIET);
        out->index = (uint32_t)sv;
    }
    if (p < e && *p == '/') {
        p++;
        if (p >= e) return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_TYPE);
        switch (*p) {
        case 'd': case 'i': case 'u': case 'x':
        case 's': case 'S': case 'c': case 'f': case 'p':
            out->format = *p++;
            sized = 1;
            break;
        case 'e':
            if (e - p < 3 || p[1] != ':' || !tdec_uftrace__alpha(p[2]))
                return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_ENUM);
            out->format = 'e';
            q = tdec_uftrace__name_end(p + 2, e);
            out->type_name = tdec_uftrace__text(p + 2, q);
            p = q;
            break;
        case 't':
            /* tSIZE[:NAME], SIZE as strtol(.., 0); uftrace ignores what
               follows unless it is %stack+N or a register list */
            out->format = 't';
            p++;
            if (p < e && tdec_uftrace__digit(*p)) {
                if (!tdec_uftrace__c_int(&p, e, &sv) || sv > 0xFFFFFFFF)
                    return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_QUIET);
                out->struct_size = (uint32_t)sv;
            }
            if (p < e && *p == ':') {
                q = tdec_uftrace__name_end(p + 1, e);
                out->type_name = tdec_uftrace__text(p + 1, q);
                p = q;
            }
            if (p == e || *p != '%') return TDEC_OK;
            if (!tdec_uftrace__prefix(p + 1, e, "stack+", 0)) {
                out->reg = tdec_uftrace__text(p + 1, e);
                return TDEC_OK;
            }
            break;
        default:
            /* "fparg1/32": a size without a format letter */
            if (out->kind != TDEC_UFTRACE_ITEM_FPARG || !tdec_uftrace__digit(*p))
                return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_TYPE);
            sized = 1;
            break;
        }
        if (sized && p < e && *p != '%') {
            /* strtol(.., 10): spaces and a '+' may come first */
            p = tdec_uftrace__skip_space(p, e);
            if (p < e && *p == '+') p++;
            if (!tdec_uftrace__dec(&p, e, 1000u, &v)) return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_SIZE);
            if (v == 80) {
                if (out->format != 'f' && !(out->format == 0 && out->kind == TDEC_UFTRACE_ITEM_FPARG))
                    return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_SIZE);
            } else if (v != 8 && v != 16 && v != 32 && v != 64) {
                return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_SIZE);
            }
            out->size_bits = (uint32_t)v;
        }
    }
    if (p == e) return TDEC_OK;
    if (*p++ != '%') return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_QUIET);
    if (tdec_uftrace__prefix(p, e, "stack", 0)) {
        /* "%stack+N", "%stackN", "%stack": the offset is strtol(.., 0) of
           what follows, kept as an int; the rest of the item is ignored */
        p = tdec_uftrace__skip_space(p + 5, e);
        out->stack_offset = tdec_uftrace__c_int(&p, e, &sv) ? (uint32_t)(uint64_t)sv : 0;
        out->has_stack = 1;
        return TDEC_OK;
    }
    /* a register name; a struct may sit in several: "RDI+RSI" */
    if (p == e) return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_REGISTER);
    for (q = p; q < e; q++) {
        if (!tdec_uftrace__alpha(*q) && !tdec_uftrace__digit(*q))
            return tdec_uftrace__bad_item(out, TDEC_UFTRACE_BAD_REGISTER);
    }
    out->reg = tdec_uftrace__text(p, e);
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_spec_item_layout(const tdec_uftrace_spec_item *item, unsigned long_size,
                                                           unsigned f80_size, tdec_uftrace_arg *out)
{
    char fmt;
    uint32_t bits;
    if (item == NULL || out == NULL || (long_size != 4 && long_size != 8) || (f80_size != 8 && f80_size != 10))
        return TDEC_E_ARG;
    if (item->kind != TDEC_UFTRACE_ITEM_ARG && item->kind != TDEC_UFTRACE_ITEM_FPARG &&
        item->kind != TDEC_UFTRACE_ITEM_RETVAL)
        return TDEC_E_FORMAT;
    fmt = item->format;
    if (fmt == 0) fmt = item->kind == TDEC_UFTRACE_ITEM_FPARG ? 'f' : 'd';
    bits = item->size_bits;
    out->format = (uint8_t)fmt;
    switch (fmt) {
    case 'd': case 'i': case 'u': case 'x': case 'p': case 'e':
        if (bits == 80) return TDEC_E_FORMAT;
        out->kind = TDEC_UFTRACE_V_INT;
        out->size = (uint16_t)(bits ? bits / 8u : long_size);
        break;
    case 'c':
        if (bits == 80) return TDEC_E_FORMAT;
        out->kind = TDEC_UFTRACE_V_CHAR;
        out->size = (uint16_t)(bits ? bits / 8u : 1u);
        break;
    case 'f':
        out->kind = TDEC_UFTRACE_V_FLOAT;
        out->size = (uint16_t)(bits == 80 ? f80_size : bits ? bits / 8u : 8u);
        break;
    case 's':
        out->kind = TDEC_UFTRACE_V_STRING;
        out->size = 0;
        break;
    case 'S':
        out->kind = TDEC_UFTRACE_V_STDSTRING;
        out->size = 0;
        break;
    case 't':
        if (item->struct_size > TDEC_UFTRACE_MAX_BLOCK) return TDEC_E_FORMAT;
        out->kind = TDEC_UFTRACE_V_STRUCT;
        out->size = (uint16_t)item->struct_size;
        break;
    default:
        return TDEC_E_FORMAT;
    }
    return TDEC_OK;
}

/* A name token as uftrace's enum scanner sees one: a letter or '_', then
   anything up to a space or one of "=,{};". */
static const char *tdec_uftrace__enum_token(const char *p, const char *e)
{
    if (p >= e || !tdec_uftrace__alpha(*p)) return p;
    while (p < e && !tdec_uftrace__space(*p) && *p != '=' && *p != ',' && *p != '{' && *p != '}' && *p != ';')
        p++;
    return p;
}


TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_enum(const char **pos, const char *end, tdec_uftrace_text *name)
{
    const char *p, *q;
    if (pos == NULL || *pos == NULL || end == NULL || name == NULL || *pos > end) return TDEC_E_ARG;
    p = *pos;
    while (p < end && (*p == ';' || tdec_uftrace__space(*p))) p++;
    *pos = p;
    if (p == end) return TDEC_END;
    q = tdec_uftrace__enum_token(p, end);
    if (!tdec_uftrace__equal(p, q, "enum")) return TDEC_E_FORMAT;
    p = tdec_uftrace__skip_space(q, end);
    q = tdec_uftrace__enum_token(p, end);
    if (q == p) return TDEC_E_FORMAT;
    *name = tdec_uftrace__text(p, q);
    p = tdec_uftrace__skip_space(q, end);
    if (p >= end || *p != '{') return TDEC_E_FORMAT;
    *pos = p + 1;
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_next_enum_value(const char **pos, const char *end, int64_t *next,
                                                          tdec_uftrace_enum_value *out)
{
    const char *p, *q;
    int64_t v;
    if (pos == NULL || *pos == NULL || end == NULL || next == NULL || out == NULL || *pos > end) return TDEC_E_ARG;
    p = tdec_uftrace__skip_space(*pos, end);
    if (p < end && *p == '}') {
        *pos = p + 1;
        return TDEC_END;
    }
    q = tdec_uftrace__enum_token(p, end);
    if (q == p) return TDEC_E_FORMAT;
    out->name = tdec_uftrace__text(p, q);
    p = tdec_uftrace__skip_space(q, end);
    if (p < end && *p == '=') {
        p = tdec_uftrace__skip_space(p + 1, end);
        if (!tdec_uftrace__c_int(&p, end, &v)) return TDEC_E_FORMAT;
        p = tdec_uftrace__skip_space(p, end);
    } else {
        if (*next == INT64_MIN) return TDEC_E_FORMAT; /* after INT64_MAX */
        v = *next;
    }
    if (p >= end || (*p != ',' && *p != '}')) return TDEC_E_FORMAT;
    if (*p == ',') p++; /* '}' is left for the next call */
    out->value = v;
    *next = v == INT64_MAX ? INT64_MIN : v + 1;
    *pos = p;
    return TDEC_OK;
}

/* ==== perf-cpuN.dat decoder: implementation ============================== */

#define TDEC_UFTRACE__PERF_HDR 8u

enum tdec_uftrace__perf_phase {
    TDEC_UFTRACE__PP_RECORD = 0, /* at a record boundary            */
    TDEC_UFTRACE__PP_BODY        /* streaming an unknown record body */
};

static uint32_t tdec_uftrace__perf_u32(const tdec_uftrace_perf_decoder *d, const uint8_t *p)
{
    return (d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) ? tdec__rd_u32be(p) : tdec__rd_u32le(p);
}

static uint64_t tdec_uftrace__perf_u64(const tdec_uftrace_perf_decoder *d, const uint8_t *p)
{
    return (d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) ? tdec__rd_u64be(p) : tdec__rd_u64le(p);
}

TDEC_UFTRACE_DEF void tdec_uftrace_perf_reset(tdec_uftrace_perf_decoder *d)
{
    if (d == NULL) return;
    tdec__stream_init(&d->st);
    tdec__payload_start(&d->pay, 0, 0);
    d->phase = TDEC_UFTRACE__PP_RECORD;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_init(tdec_uftrace_perf_decoder *d, const tdec_uftrace_config *cfg)
{
    if (d == NULL) return TDEC_E_ARG;
    d->cfg.flags = 0;
    d->cfg.max_fragment = 0;
    if (cfg) d->cfg = *cfg;
    tdec_uftrace_perf_reset(d);
    return TDEC_NEED_INPUT;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_feed(tdec_uftrace_perf_decoder *d, const void *data, size_t len)
{
    if (d == NULL) return TDEC_E_ARG;
    return tdec__stream_feed(&d->st, data, len);
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_finish(tdec_uftrace_perf_decoder *d)
{
    int clean;
    if (d == NULL) return TDEC_E_ARG;
    clean = d->phase == TDEC_UFTRACE__PP_RECORD;
    return tdec__stream_finish(&d->st, clean, clean ? TDEC_UFTRACE_R_RECORD : TDEC_UFTRACE_R_PAYLOAD);
}

/* One record header, and the whole record for the four known types. */
static tdec_status tdec_uftrace__perf_record(tdec_uftrace_perf_decoder *d, tdec_uftrace_perf_item *out)
{
    const uint8_t *p = tdec__stream_peek(&d->st, TDEC_UFTRACE__PERF_HDR);
    tdec_uftrace_perf_record *r = &out->u.rec;
    uint32_t type, misc, size, min, i;
    int be = (d->cfg.flags & TDEC_UFTRACE_F_BIG_ENDIAN) != 0;

    if (p == NULL) return TDEC_NEED_INPUT;
    type = tdec_uftrace__perf_u32(d, p);
    misc = be ? tdec__rd_u16be(p + 4) : tdec__rd_u16le(p + 4);
    size = be ? tdec__rd_u16be(p + 6) : tdec__rd_u16le(p + 6);
    if (size < TDEC_UFTRACE__PERF_HDR) return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_PERF_SIZE);
    switch (type) {
    case TDEC_UFTRACE_PERF_COMM:   min = 8u + 8u + 16u; break;  /* pid, tid, (name), sample   */
    case TDEC_UFTRACE_PERF_EXIT:
    case TDEC_UFTRACE_PERF_FORK:   min = 8u + 24u + 16u; break; /* pid, ppid, tid, ptid, time */
    case TDEC_UFTRACE_PERF_SWITCH: min = 8u + 16u; break;       /* sample only                */
    default:                       min = 0; break;
    }
    if (min > 0 && (size < min || size > TDEC_UFTRACE_PERF_MAX_KNOWN))
        return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_UFTRACE_R_PERF_SIZE);
    if (min > 0 && (p = tdec__stream_peek(&d->st, size)) == NULL) return TDEC_NEED_INPUT;

    out->kind = TDEC_ITEM_RECORD;
    out->offset = d->st.pos;
    r->type = type;
    r->misc = misc;
    r->size = size;
    r->pid = r->tid = r->ppid = r->ptid = 0;
    r->time = 0;
    for (i = 0; i < sizeof r->comm; i++) r->comm[i] = 0;
    r->sample_pid = r->sample_tid = 0;
    r->sample_time = 0;
    r->payload_size = 0;
    if (min == 0) {
        tdec__stream_consume(&d->st, TDEC_UFTRACE__PERF_HDR);
        r->payload_size = size - TDEC_UFTRACE__PERF_HDR;
        tdec__payload_start(&d->pay, r->payload_size, (d->cfg.flags & TDEC_UFTRACE_F_SKIP_PAYLOADS) != 0);
        if (r->payload_size > 0) d->phase = TDEC_UFTRACE__PP_BODY;
        return TDEC_OK;
    }
    r->sample_pid = tdec_uftrace__perf_u32(d, p + size - 16u);
    r->sample_tid = tdec_uftrace__perf_u32(d, p + size - 12u);
    r->sample_time = tdec_uftrace__perf_u64(d, p + size - 8u);
    switch (type) {
    case TDEC_UFTRACE_PERF_COMM:
        r->pid = tdec_uftrace__perf_u32(d, p + 8);
        r->tid = tdec_uftrace__perf_u32(d, p + 12);
        r->time = r->sample_time;
        /* the name is NUL-padded between the ids and the sample trailer */
        for (i = 0; i < 16u && 16u + i < size - 16u && p[16u + i] != 0; i++) r->comm[i] = (char)p[16u + i];
        break;
    case TDEC_UFTRACE_PERF_EXIT:
    case TDEC_UFTRACE_PERF_FORK:
        r->pid = tdec_uftrace__perf_u32(d, p + 8);
        r->ppid = tdec_uftrace__perf_u32(d, p + 12);
        r->tid = tdec_uftrace__perf_u32(d, p + 16);
        r->ptid = tdec_uftrace__perf_u32(d, p + 20);
        r->time = tdec_uftrace__perf_u64(d, p + 24);
        break;
    default: /* SWITCH */
        r->pid = r->sample_pid;
        r->tid = r->sample_tid;
        r->time = r->sample_time;
        break;
    }
    tdec__stream_consume(&d->st, size);
    return TDEC_OK;
}

TDEC_UFTRACE_DEF tdec_status tdec_uftrace_perf_next(tdec_uftrace_perf_decoder *d, tdec_uftrace_perf_item *out)
{
    if (d == NULL || out == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err;
    if (d->st.finished) return TDEC_END;
    if (d->phase == TDEC_UFTRACE__PP_BODY) {
        if (tdec__payload_next(&d->st, &d->pay, d->cfg.max_fragment, &out->u.frag, &out->offset)) {
            out->kind = TDEC_ITEM_FRAGMENT;
            if (d->pay.left == 0) d->phase = TDEC_UFTRACE__PP_RECORD;
            return TDEC_OK;
        }
        if (d->pay.left > 0) return TDEC_NEED_INPUT;
        d->phase = TDEC_UFTRACE__PP_RECORD;
    }
    return tdec_uftrace__perf_record(d, out);
}

#undef TDEC_UFTRACE__PERF_HDR
#undef TDEC_UFTRACE__REC_SIZE
#undef TDEC_UFTRACE__MAGIC
#undef TDEC_UFTRACE__RARE

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
