/* tdec_xray.h - LLVM XRay log decoder (FDR v1-v5, basic v1-v3) - tracedec 0.1
   MIT licensed, see the end of this file.

   USAGE
     Exactly one .c file of your program defines the implementation:
         #define TDEC_XRAY_IMPLEMENTATION      (or TRACEDEC_IMPLEMENTATION)
         #include "tdec_xray.h"
     Every other file includes the header without the define.

     The loop (the same for every tracedec format):
         tdec_xray_decoder d;  tdec_xray_item it;  tdec_status st;
         st = tdec_xray_init(&d, NULL);
         while (st >= 0) {
             st = tdec_xray_next(&d, &it);
             if (st == TDEC_OK) { use(&it); continue; }
             if (st != TDEC_NEED_INPUT) break;       END, or error: d.st.err_offset
             n = read_some(buf, sizeof buf);          buf may be reused now
             st = n ? tdec_xray_feed(&d, buf, n) : tdec_xray_finish(&d);
         }

     Items come in file order: first one TDEC_XRAY_REC_HEADER record, then one
     record per log record. Custom and typed events (and the unparsed tail of
     a v1 buffer) are followed by their payload as TDEC_ITEM_FRAGMENT items
     when payload_size > 0. Bytes the decoder had to step over come out as a
     TDEC_ITEM_GAP item with a reason code, never silently.

   CONTRACT
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
     - An XRay log leaves nothing for the end to decide, so finish() never
       returns TDEC_NEED_INPUT: TDEC_END on a record boundary,
       TDEC_E_TRUNCATED inside a record, a payload, or a buffer whose extents
       (or v1 buffer size) promise more bytes. A BufferExtents record comes
       out as soon as its size is in (its first 9 bytes, as llvm-xray reads
       it): a log cut in the record's unused rest gives that record, then
       TDEC_E_TRUNCATED at its offset. A second finish() returns the
       same; feed() after finish() is TDEC_E_SEQUENCE.
     - Errors are sticky: next(), feed() and finish() return the same error
       until reset() or resync(). d.st.err_offset is the stream offset of the
       record that failed and d.st.err_reason a TDEC_XRAY_R_* code
       (tdec_xray_reason_str()). TDEC_E_ARG and TDEC_E_SEQUENCE are returned
       without changing the decoder. After an error the window is not read
       again unless resync() is called (which goes on with the unread bytes).
     - reset() forgets the stream, errors included, and keeps the config:
       the decoder is as after init().
     - Any split of the input into chunks gives the same items (fragments
       aside, which reassemble to the same bytes).

   MEMORY
     No allocation. The decoder is one caller-owned struct that holds no
     pointer into itself and may be copied with memcpy. Its size and the
     item's, measured with sizeof on x86_64 and on arm-none-eabi-gcc
     -mcpu=cortex-m4:
       sizeof(tdec_xray_decoder) = 248 on LP64, 240 on ILP32 (Cortex-M)
       sizeof(tdec_xray_item) = 128 on LP64, 128 on ILP32 (Cortex-M)

   OPTIONS
     TDEC_XRAY_IMPLEMENTATION / TRACEDEC_IMPLEMENTATION  [impl TU] emit code
     TDEC_STATIC / TDEC_XRAY_STATIC                       [impl TU] internal linkage
     TDEC_XRAY_DEF                                        [impl TU] decoration override
     TDEC_NO_STRINGS                                      [any TU]  *_str() return ""

   SECURITY
     Every input byte is untrusted. The decoder never reads outside the
     current window or its carry, never writes outside *out and the decoder,
     does constant work per input byte, and never sizes anything from a
     declared length. See README.md, "Trust model".

   TIME
     Absolute TSCs are rebuilt per buffer: NewCPUId and TSCWrap set the base,
     function records, v5 custom events and typed events add their delta,
     v1-v4 custom events carry an absolute TSC and leave the base alone.
     Divide by hdr.cycle_frequency for seconds (0 is possible; guard it).

   WHAT IS TOLERATED (default) AND WHAT TDEC_XRAY_F_STRICT MAKES AN ERROR
     - A record running past its buffer (v2+ BufferExtents, v1 buffer size):
       the bytes from its start to the buffer end come out as a gap
       (TDEC_XRAY_R_OVERRUN) and decoding goes on with the next buffer. This
       is what the XRay runtime's typed-event bug produces. Negative event
       sizes are handled the same way.
     - Bytes where a v2+ BufferExtents record must start: skipped up to the
       next 0x0F byte as one gap (TDEC_XRAY_R_JUNK), as llvm-xray does.
     - Metadata kinds >= 10 come out as TDEC_XRAY_REC_UNKNOWN (16 bytes, raw
       copy); function actions 4-7 and basic kinds > 3 are passed through;
       EndOfBuffer in v2+ is passed through; a basic argument record that
       does not match its preceding record is passed through, flagged
       TDEC_XRAY_RF_NO_CALL.
     Under TDEC_XRAY_F_STRICT each of these is TDEC_E_CORRUPT instead.
     Zero-size custom events are valid. Unused payload bytes of metadata
     records (stack garbage in real logs) are never looked at.
*/
#ifndef TDEC_XRAY_H_INCLUDED
#define TDEC_XRAY_H_INCLUDED

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

#ifndef TDEC_XRAY_DEF
#if defined(TDEC_XRAY_STATIC) || defined(TDEC_STATIC)
#if defined(__GNUC__) || defined(__clang__)
/* A static build must not warn about the API functions a TU does not call. */
#define TDEC_XRAY_DEF static __attribute__((unused))
#else
#define TDEC_XRAY_DEF static
#endif
#else
#define TDEC_XRAY_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* File types (header field `type`). */
#define TDEC_XRAY_BASIC 0u /* "naive" mode: 32-byte records               */
#define TDEC_XRAY_FDR   1u /* flight data recorder: buffers of records    */

/* Header flag bits (only bits 0-1 are defined; the rest is masked off). */
#define TDEC_XRAY_TSC_CONSTANT 1u
#define TDEC_XRAY_TSC_NONSTOP  2u

/* The 32-byte file header. */
typedef struct tdec_xray_header {
    uint16_t version;         /* FDR 1..5, basic 1..3                        */
    uint16_t file_type;       /* TDEC_XRAY_BASIC or TDEC_XRAY_FDR            */
    uint32_t flags;           /* TDEC_XRAY_TSC_* bits                        */
    uint64_t cycle_frequency; /* TSC ticks per second (1e9: emulated TSC)    */
    uint64_t buffer_size;     /* FDR: ThreadBufferSize; basic: 0 (garbage)   */
} tdec_xray_header;

/* Record types (tdec_xray_record.type). */
enum tdec_xray_rec_type {
    TDEC_XRAY_REC_HEADER = 1,     /* the file header: see hdr                     */
    TDEC_XRAY_REC_FUNCTION,       /* FDR function record / basic normal record   */
    TDEC_XRAY_REC_CALL_ARG,       /* FDR CallArgument / basic argument record    */
    TDEC_XRAY_REC_NEW_BUFFER,     /* tid                                         */
    TDEC_XRAY_REC_END_OF_BUFFER,  /* v1                                          */
    TDEC_XRAY_REC_NEW_CPU,        /* cpu, tsc                                    */
    TDEC_XRAY_REC_TSC_WRAP,       /* tsc                                         */
    TDEC_XRAY_REC_WALLTIME,       /* wall_sec, wall_usec                         */
    TDEC_XRAY_REC_CUSTOM_EVENT,   /* payload_size bytes follow as fragments      */
    TDEC_XRAY_REC_BUFFER_EXTENTS, /* value = bytes of records in this buffer     */
    TDEC_XRAY_REC_TYPED_EVENT,    /* event_type; payload follows as fragments    */
    TDEC_XRAY_REC_PID,            /* pid                                         */
    TDEC_XRAY_REC_PADDING,        /* v1: buffer tail after EndOfBuffer, not      */
                                  /* parsed; payload_size bytes as fragments     */
    TDEC_XRAY_REC_UNKNOWN         /* lenient only: raw[0..raw_len) (kind in      */
                                  /* meta_kind; basic: record type)              */
};

/* Function actions (tdec_xray_record.action). 4..7 only in lenient mode. */
#define TDEC_XRAY_ENTER      0u
#define TDEC_XRAY_EXIT       1u
#define TDEC_XRAY_TAIL_EXIT  2u
#define TDEC_XRAY_ENTER_ARGS 3u /* FDR: followed by CallArgument record(s) */

/* Record flags (tdec_xray_record.flags). */
#define TDEC_XRAY_RF_NO_CALL 1u /* basic CALL_ARG without the function record it belongs */
                                /* to (the runtime dropped the call under max_stack_depth */
                                /* or func_duration_threshold_us but kept its argument):  */
                                /* tsc and cpu are unknown (0)                            */

/* One decoded record. Fields not listed for a type are zero (raw: not
   touched), except tid, pid and cpu, which every record carries: the current buffer's thread,
   process (0 when the version has none: FDR v1/v2, basic v1/v2) and CPU. */
typedef struct tdec_xray_record {
    uint32_t type;         /* TDEC_XRAY_REC_*                                        */
    uint32_t action;       /* FUNCTION: TDEC_XRAY_ENTER..                            */
    uint32_t fid;          /* FUNCTION; basic CALL_ARG                               */
    uint32_t tid;          /* as stored (FDR writes a signed 32-bit value)           */
    uint32_t pid;
    uint32_t cpu;          /* FDR: 16 bits stored; basic: 8 bits                      */
    int64_t  delta;        /* as stored: FUNCTION (unsigned 32-bit), v5 custom and   */
                           /* typed events (signed 32-bit)                           */
    uint64_t tsc;          /* absolute: FUNCTION, NEW_CPU, TSC_WRAP, events, basic   */
    uint64_t value;        /* CALL_ARG argument, BUFFER_EXTENTS size                 */
    int64_t  wall_sec;     /* WALLTIME                                               */
    uint32_t wall_usec;    /* WALLTIME (LLVM calls it "nanos"; it is microseconds)   */
    uint16_t event_type;   /* TYPED_EVENT                                            */
    uint8_t  meta_kind;    /* FDR metadata kind (byte 0 >> 1); basic record type     */
    uint8_t  raw_len;      /* UNKNOWN: bytes in raw                                  */
    uint64_t payload_size; /* CUSTOM_EVENT, TYPED_EVENT, PADDING                     */
    uint32_t flags;        /* TDEC_XRAY_RF_*                                         */
    uint8_t  raw[32];      /* UNKNOWN only (not cleared otherwise): the record bytes */
} tdec_xray_record;

typedef struct tdec_xray_item {
    uint32_t kind;   /* TDEC_ITEM_RECORD, TDEC_ITEM_FRAGMENT or TDEC_ITEM_GAP      */
    uint64_t offset; /* stream offset of the record, fragment data or gap start   */
    union {
        tdec_xray_record rec;
        tdec_frag        frag;
        tdec_gap         gap;
    } u;
} tdec_xray_item;

/* Config flags. */
#define TDEC_XRAY_F_STRICT        1u /* tolerated anomalies become TDEC_E_CORRUPT */
#define TDEC_XRAY_F_SKIP_PAYLOADS 2u /* count payloads down, emit no fragments    */

/* Zeroed (or NULL) config = defaults. Copied at init. */
typedef struct tdec_xray_config {
    uint32_t flags;        /* TDEC_XRAY_F_*                                            */
    uint32_t max_fragment; /* largest fragment to emit; 0 = as large as the window    */
    uint64_t max_payload;  /* event sizes above it: TDEC_E_LIMIT; 0 = 2^31-1          */
} tdec_xray_config;

/* Reason codes: d.st.err_reason after an error, gap.reason on gap items. */
enum tdec_xray_reason {
    TDEC_XRAY_R_NONE = 0,
    TDEC_XRAY_R_HEADER,          /* truncated inside the 32-byte header            */
    TDEC_XRAY_R_BIG_ENDIAN,      /* byte-swapped header: a big-endian log          */
    TDEC_XRAY_R_FILE_TYPE,       /* file type not 0 or 1 (not a binary XRay log)   */
    TDEC_XRAY_R_VERSION,         /* version outside FDR 1..5 / basic 1..3          */
    TDEC_XRAY_R_BUFFER_SIZE,     /* v1 log whose header gives no usable buffer size */
    TDEC_XRAY_R_RECORD,          /* truncated inside a record                      */
    TDEC_XRAY_R_PAYLOAD,         /* truncated inside an event payload              */
    TDEC_XRAY_R_BUFFER,          /* truncated inside a buffer (extents/v1 size)    */
    TDEC_XRAY_R_OVERRUN,         /* record runs past its buffer's end              */
    TDEC_XRAY_R_EVENT_SIZE,      /* negative event size                            */
    TDEC_XRAY_R_LIMIT,           /* event size above config max_payload            */
    TDEC_XRAY_R_JUNK,            /* no BufferExtents where a buffer must start     */
    TDEC_XRAY_R_META_KIND,       /* metadata kind >= 10                            */
    TDEC_XRAY_R_ACTION,          /* function action 4..7 / basic kind > 3          */
    TDEC_XRAY_R_END_OF_BUFFER,   /* EndOfBuffer in a v2+ log                       */
    TDEC_XRAY_R_BASIC_TYPE,      /* basic record type not 0 or 1                   */
    TDEC_XRAY_R_BASIC_ARG,       /* basic argument record not matching its record  */
    TDEC_XRAY_R_RESYNC           /* gap: bytes skipped by resync()                 */
};

/* The decoder. Read-only for callers: st.pos, st.err, st.err_offset,
   st.err_reason, hdr (valid once the HEADER item was returned). */
typedef struct tdec_xray_decoder {
    tdec_stream      st;
    tdec_xray_header hdr;
    /* private */
    tdec_xray_config cfg;
    tdec_payload     pay;
    uint64_t         buf_left;  /* bytes left in the current buffer frame         */
    uint64_t         base_tsc;  /* delta base of the current buffer               */
    uint64_t         gap_len;   /* bytes skipped so far by a junk scan            */
    uint64_t         prev_tsc;  /* basic: last normal record, for arg records     */
    uint32_t         tid, pid, cpu;
    uint32_t         prev_fid, prev_tid, prev_pid, prev_cpu;
    uint32_t         gap_reason;
    uint8_t          phase;
    uint8_t          in_buffer;
    uint8_t          prev_valid;
} tdec_xray_decoder;

/* Starts a decoder. cfg may be NULL (defaults). Returns TDEC_NEED_INPUT, or
   TDEC_E_ARG for a NULL decoder. */
TDEC_XRAY_DEF tdec_status tdec_xray_init(tdec_xray_decoder *d, const tdec_xray_config *cfg);

/* Installs the next chunk (borrowed until next() returns TDEC_NEED_INPUT).
   Returns TDEC_NEED_INPUT, TDEC_E_ARG (NULL d, or NULL data with len > 0),
   TDEC_E_SEQUENCE (window not used up, or after finish()), or the sticky
   error. len == 0 is allowed and does nothing. */
TDEC_XRAY_DEF tdec_status tdec_xray_feed(tdec_xray_decoder *d, const void *data, size_t len);

/* Produces the next item. Returns TDEC_OK (*out filled), TDEC_NEED_INPUT
   (window used up), TDEC_END (after a clean finish()), TDEC_E_ARG, or an
   error (sticky): E_FORMAT, E_VERSION, E_CORRUPT, E_LIMIT, E_TRUNCATED. */
TDEC_XRAY_DEF tdec_status tdec_xray_next(tdec_xray_decoder *d, tdec_xray_item *out);

/* Declares the end of input (see CONTRACT, Ending). Returns TDEC_END,
   TDEC_E_TRUNCATED (sticky; err_offset = where the input ran out: the start
   of a cut record, or the first missing payload/buffer byte; the start of
   trailing junk), TDEC_E_SEQUENCE if the window still holds bytes, or the
   sticky error; never TDEC_NEED_INPUT. After TDEC_END or an error, next()
   returns it again. */
TDEC_XRAY_DEF tdec_status tdec_xray_finish(tdec_xray_decoder *d);

/* Forgets the stream, keeps the config: the decoder is as after init(). */
TDEC_XRAY_DEF void tdec_xray_reset(tdec_xray_decoder *d);

/* Recovery for FDR v2+ logs: clears the sticky error, drops the current
   record and skips to the next BufferExtents tag; the skipped bytes come out
   as one gap item (TDEC_XRAY_R_RESYNC) before the next buffer. Returns
   TDEC_NEED_INPUT (continue with next()), TDEC_E_ARG, or TDEC_E_NOSYNC (the
   error stays) when the log has no extents to sync on: header not decoded,
   basic or v1 log, or after finish(). */
TDEC_XRAY_DEF tdec_status tdec_xray_resync(tdec_xray_decoder *d);

/* Parses a 32-byte header without a decoder. Returns TDEC_OK, TDEC_E_ARG,
   TDEC_E_TRUNCATED (len < 32), TDEC_E_FORMAT (file type; a byte-swapped
   header; a v1 log without buffer size), TDEC_E_VERSION. *reason (may be
   NULL) receives the TDEC_XRAY_R_* detail. */
TDEC_XRAY_DEF tdec_status tdec_xray_parse_header(const void *data, size_t len,
                                                  tdec_xray_header *out, uint32_t *reason);

/* Raw header field readers over at least 32 bytes (no validation). */
TDEC_XRAY_DEF uint16_t tdec_xray_header_version(const void *hdr32);
TDEC_XRAY_DEF uint16_t tdec_xray_header_file_type(const void *hdr32);
TDEC_XRAY_DEF uint32_t tdec_xray_header_tsc_flags(const void *hdr32);
TDEC_XRAY_DEF uint64_t tdec_xray_header_cycle_frequency(const void *hdr32);
TDEC_XRAY_DEF uint64_t tdec_xray_header_buffer_size(const void *hdr32);

/* Text for a TDEC_XRAY_R_* code ("" under TDEC_NO_STRINGS). */
TDEC_XRAY_DEF const char *tdec_xray_reason_str(uint32_t reason);

#ifdef __cplusplus
}
#endif
#endif /* TDEC_XRAY_H_INCLUDED */

/* ==== implementation ===================================================== */
#if defined(TDEC_XRAY_IMPLEMENTATION) || defined(TRACEDEC_IMPLEMENTATION)
#ifndef TDEC_XRAY_IMPL_INCLUDED
#define TDEC_XRAY_IMPL_INCLUDED

#define TDEC_XRAY__HDR_SIZE    32u
#define TDEC_XRAY__META_SIZE   16u
#define TDEC_XRAY__FUNC_SIZE   8u
#define TDEC_XRAY__BASIC_SIZE  32u
#define TDEC_XRAY__EXTENTS_TAG 0x0Fu
#define TDEC_XRAY__EXTENTS_READ 9u /* BufferExtents: tag and u64 size */
#define TDEC_XRAY__MAX_EVENT   0x7FFFFFFFu

TDEC_STATIC_ASSERT(xray_carry, TDEC_XRAY__HDR_SIZE <= TDEC_CARRY_CAP);

enum tdec_xray__phase {
    TDEC_XRAY__P_HEADER = 0,
    TDEC_XRAY__P_RECORDS, /* at a record boundary                            */
    TDEC_XRAY__P_EXTENTS, /* BufferExtents given out, its 16 bytes unread    */
    TDEC_XRAY__P_PADDING, /* v1: the PADDING record of the buffer tail next  */
    TDEC_XRAY__P_PAYLOAD, /* streaming an event or padding payload           */
    TDEC_XRAY__P_SKIP,    /* skipping the rest of a buffer after an overrun  */
    TDEC_XRAY__P_SCAN     /* looking for the next BufferExtents tag          */
};

/* Internal results of the step functions, beside tdec_status values. */
#define TDEC_XRAY__BAD_SIZE 101 /* event record with a negative size     */

/* FDR metadata kinds (byte 0 >> 1). */
enum tdec_xray__meta {
    TDEC_XRAY__M_NEW_BUFFER = 0,
    TDEC_XRAY__M_END_OF_BUFFER = 1,
    TDEC_XRAY__M_NEW_CPU = 2,
    TDEC_XRAY__M_TSC_WRAP = 3,
    TDEC_XRAY__M_WALLTIME = 4,
    TDEC_XRAY__M_CUSTOM = 5,
    TDEC_XRAY__M_CALL_ARG = 6,
    TDEC_XRAY__M_EXTENTS = 7,
    TDEC_XRAY__M_TYPED = 8,
    TDEC_XRAY__M_PID = 9
};

TDEC_XRAY_DEF uint16_t tdec_xray_header_version(const void *hdr32)
{
    return tdec__rd_u16le((const uint8_t *)hdr32);
}
TDEC_XRAY_DEF uint16_t tdec_xray_header_file_type(const void *hdr32)
{
    return tdec__rd_u16le((const uint8_t *)hdr32 + 2);
}
TDEC_XRAY_DEF uint32_t tdec_xray_header_tsc_flags(const void *hdr32)
{
    /* Only bits 0-1 mean anything; basic logs leave garbage in the rest. */
    return ((const uint8_t *)hdr32)[4] & (TDEC_XRAY_TSC_CONSTANT | TDEC_XRAY_TSC_NONSTOP);
}
TDEC_XRAY_DEF uint64_t tdec_xray_header_cycle_frequency(const void *hdr32)
{
    return tdec__rd_u64le((const uint8_t *)hdr32 + 8);
}
TDEC_XRAY_DEF uint64_t tdec_xray_header_buffer_size(const void *hdr32)
{
    return tdec__rd_u64le((const uint8_t *)hdr32 + 16);
}

static int tdec_xray__version_ok(uint32_t type, uint32_t version)
{
    if (type == TDEC_XRAY_FDR) return version >= 1 && version <= 5;
    return type == TDEC_XRAY_BASIC && version >= 1 && version <= 3;
}

TDEC_XRAY_DEF tdec_status tdec_xray_parse_header(const void *data, size_t len,
                                                  tdec_xray_header *out, uint32_t *reason)
{
    const uint8_t *p = (const uint8_t *)data;
    uint32_t why = TDEC_XRAY_R_NONE;
    tdec_status st = TDEC_OK;
    uint16_t version, type;
    if (data == NULL || out == NULL) return TDEC_E_ARG;
    if (len < TDEC_XRAY__HDR_SIZE) {
        st = TDEC_E_TRUNCATED;
        why = TDEC_XRAY_R_HEADER;
    } else {
        version = tdec_xray_header_version(p);
        type = tdec_xray_header_file_type(p);
        if (!tdec_xray__version_ok(type, version)) {
            /* A big-endian producer swaps both fields; say so rather than
               report a baffling version number (llvm/llvm-project#57657). */
            if (tdec_xray__version_ok(tdec__rd_u16be(p + 2), tdec__rd_u16be(p))) {
                st = TDEC_E_FORMAT;
                why = TDEC_XRAY_R_BIG_ENDIAN;
            } else if (type > TDEC_XRAY_FDR) {
                st = TDEC_E_FORMAT;
                why = TDEC_XRAY_R_FILE_TYPE;
            } else {
                st = TDEC_E_VERSION;
                why = TDEC_XRAY_R_VERSION;
            }
        } else {
            out->version = version;
            out->file_type = type;
            out->flags = tdec_xray_header_tsc_flags(p);
            out->cycle_frequency = tdec_xray_header_cycle_frequency(p);
            out->buffer_size = type == TDEC_XRAY_FDR ? tdec_xray_header_buffer_size(p) : 0;
            /* v1 buffers are framed by this size alone. */
            if (type == TDEC_XRAY_FDR && version == 1 && out->buffer_size < TDEC_XRAY__META_SIZE) {
                st = TDEC_E_FORMAT;
                why = TDEC_XRAY_R_BUFFER_SIZE;
            }
        }
    }
    if (reason) *reason = why;
    return st;
}

TDEC_XRAY_DEF void tdec_xray_reset(tdec_xray_decoder *d)
{
    if (d == NULL) return;
    tdec__stream_init(&d->st);
    d->hdr.version = 0;
    d->hdr.file_type = 0;
    d->hdr.flags = 0;
    d->hdr.cycle_frequency = 0;
    d->hdr.buffer_size = 0;
    tdec__payload_start(&d->pay, 0, 0);
    d->buf_left = 0;
    d->base_tsc = 0;
    d->gap_len = 0;
    d->prev_tsc = 0;
    d->tid = d->pid = d->cpu = 0;
    d->prev_fid = d->prev_tid = d->prev_pid = d->prev_cpu = 0;
    d->gap_reason = 0;
    d->phase = TDEC_XRAY__P_HEADER;
    d->in_buffer = 0;
    d->prev_valid = 0;
}

TDEC_XRAY_DEF tdec_status tdec_xray_init(tdec_xray_decoder *d, const tdec_xray_config *cfg)
{
    if (d == NULL) return TDEC_E_ARG;
    d->cfg.flags = 0;
    d->cfg.max_fragment = 0;
    d->cfg.max_payload = 0;
    if (cfg) d->cfg = *cfg;
    if (d->cfg.max_payload == 0 || d->cfg.max_payload > TDEC_XRAY__MAX_EVENT)
        d->cfg.max_payload = TDEC_XRAY__MAX_EVENT;
    tdec_xray_reset(d);
    return TDEC_NEED_INPUT;
}

TDEC_XRAY_DEF tdec_status tdec_xray_feed(tdec_xray_decoder *d, const void *data, size_t len)
{
    if (d == NULL) return TDEC_E_ARG;
    return tdec__stream_feed(&d->st, data, len);
}

TDEC_XRAY_DEF tdec_status tdec_xray_finish(tdec_xray_decoder *d)
{
    uint32_t why = TDEC_XRAY_R_BUFFER;
    int clean = 0;
    tdec_status st;
    if (d == NULL) return TDEC_E_ARG;
    /* Sticky: a repeated finish() must not move err_offset again below. */
    if (d->st.err < 0) return d->st.err;
    switch (d->phase) {
    case TDEC_XRAY__P_HEADER:  why = TDEC_XRAY_R_HEADER; break;
    case TDEC_XRAY__P_PAYLOAD: why = TDEC_XRAY_R_PAYLOAD; clean = d->pay.left == 0; break;
    case TDEC_XRAY__P_SCAN:    why = d->gap_reason; clean = d->gap_len == 0; break;
    case TDEC_XRAY__P_RECORDS: why = TDEC_XRAY_R_RECORD; clean = 1; break;
    case TDEC_XRAY__P_EXTENTS: why = TDEC_XRAY_R_RECORD; break;
    default:                   break; /* PADDING, SKIP: the buffer is cut */
    }
    if (clean && d->in_buffer && d->buf_left > 0 && d->st.carry_len == 0) {
        clean = 0;
        why = TDEC_XRAY_R_BUFFER;
    }
    st = tdec__stream_finish(&d->st, clean, why);
    if (st == TDEC_E_TRUNCATED && d->phase == TDEC_XRAY__P_SCAN && d->st.err_offset >= d->gap_len)
        d->st.err_offset -= d->gap_len; /* report where the trailing junk starts */
    return st;
}

static int tdec_xray__strict(const tdec_xray_decoder *d)
{
    return (d->cfg.flags & TDEC_XRAY_F_STRICT) != 0;
}

/* Fills *out as a record of `type` at the current position, every field
   zero except the buffer's tid/pid/cpu. */
static tdec_xray_record *tdec_xray__record(const tdec_xray_decoder *d, tdec_xray_item *out,
                                           uint32_t type)
{
    tdec_xray_record *r = &out->u.rec;
    /* Read before writing: *out may alias *d as far as the compiler knows. */
    uint64_t pos = d->st.pos;
    uint32_t tid = d->tid, pid = d->pid, cpu = d->cpu;
    out->kind = TDEC_ITEM_RECORD;
    out->offset = pos;
    r->type = type;
    r->action = 0;
    r->fid = 0;
    r->tid = tid;
    r->pid = pid;
    r->cpu = cpu;
    r->delta = 0;
    r->tsc = 0;
    r->value = 0;
    r->wall_sec = 0;
    r->wall_usec = 0;
    r->event_type = 0;
    r->meta_kind = 0;
    r->raw_len = 0;
    r->payload_size = 0;
    r->flags = 0;
    return r;
}

static void tdec_xray__unknown(const tdec_xray_decoder *d, tdec_xray_item *out,
                               const uint8_t *p, uint8_t len, uint8_t kind)
{
    tdec_xray_record *r = tdec_xray__record(d, out, TDEC_XRAY_REC_UNKNOWN);
    uint8_t i;
    r->meta_kind = kind;
    r->raw_len = len;
    for (i = 0; i < len; i++) r->raw[i] = p[i];
}

/* A new buffer frame: the block state starts afresh. */
static void tdec_xray__open_buffer(tdec_xray_decoder *d, uint64_t size)
{
    d->in_buffer = 1;
    d->buf_left = size;
    d->tid = d->pid = d->cpu = 0;
    d->base_tsc = 0;
}

/* The record at the current position does not fit its buffer: a gap to the
   buffer's end (then the next buffer), or under STRICT the error. */
static int tdec_xray__overrun(tdec_xray_decoder *d, tdec_xray_item *out, uint32_t reason)
{
    if (tdec_xray__strict(d)) return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, reason);
    out->kind = TDEC_ITEM_GAP;
    out->offset = d->st.pos;
    out->u.gap.len = d->buf_left;
    out->u.gap.reason = reason;
    d->phase = TDEC_XRAY__P_SKIP;
    return TDEC_OK;
}

/* Decodes a 16-byte FDR metadata record (not BufferExtents). Returns TDEC_OK,
   TDEC_E_CORRUPT (strict), or TDEC_XRAY__BAD_SIZE for a negative event size
   (the caller makes that an overrun). */
static int tdec_xray__meta(tdec_xray_decoder *d, const uint8_t *p, tdec_xray_item *out)
{
    uint32_t kind = (uint32_t)(p[0] >> 1);
    uint32_t version = d->hdr.version;
    tdec_xray_record *r;
    int32_t size = 0;

    switch (kind) {
    case TDEC_XRAY__M_NEW_BUFFER:
        d->tid = tdec__rd_u32le(p + 1);
        d->pid = d->cpu = 0;
        d->base_tsc = 0;
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_NEW_BUFFER);
        break;
    case TDEC_XRAY__M_END_OF_BUFFER:
        if (version >= 2 && tdec_xray__strict(d))
            return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XRAY_R_END_OF_BUFFER);
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_END_OF_BUFFER);
        break;
    case TDEC_XRAY__M_NEW_CPU:
        d->cpu = tdec__rd_u16le(p + 1);
        d->base_tsc = tdec__rd_u64le(p + 3);
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_NEW_CPU);
        r->tsc = d->base_tsc;
        break;
    case TDEC_XRAY__M_TSC_WRAP:
        d->base_tsc = tdec__rd_u64le(p + 1);
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_TSC_WRAP);
        r->tsc = d->base_tsc;
        break;
    case TDEC_XRAY__M_WALLTIME:
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_WALLTIME);
        r->wall_sec = (int64_t)tdec__rd_u64le(p + 1);
        r->wall_usec = tdec__rd_u32le(p + 9);
        break;
    case TDEC_XRAY__M_CUSTOM:
        size = (int32_t)tdec__rd_u32le(p + 1);
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_CUSTOM_EVENT);
        if (version >= 5) {
            r->delta = (int32_t)tdec__rd_u32le(p + 5);
            d->base_tsc += (uint64_t)r->delta;
            r->tsc = d->base_tsc;
        } else {
            /* v1-v4: absolute TSC; following deltas still count from the
               previous function record, so the base stays. */
            r->tsc = tdec__rd_u64le(p + 5);
            if (version == 4) r->cpu = tdec__rd_u16le(p + 13);
        }
        break;
    case TDEC_XRAY__M_CALL_ARG:
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_CALL_ARG);
        r->value = tdec__rd_u64le(p + 1);
        break;
    case TDEC_XRAY__M_TYPED:
        size = (int32_t)tdec__rd_u32le(p + 1);
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_TYPED_EVENT);
        r->delta = (int32_t)tdec__rd_u32le(p + 5);
        r->event_type = tdec__rd_u16le(p + 9);
        d->base_tsc += (uint64_t)r->delta;
        r->tsc = d->base_tsc;
        break;
    case TDEC_XRAY__M_PID:
        d->pid = tdec__rd_u32le(p + 1);
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_PID);
        break;
    default:
        if (tdec_xray__strict(d)) return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XRAY_R_META_KIND);
        tdec_xray__unknown(d, out, p, TDEC_XRAY__META_SIZE, (uint8_t)kind);
        return TDEC_OK;
    }
    r->meta_kind = (uint8_t)kind;
    if (size < 0) return TDEC_XRAY__BAD_SIZE;
    r->payload_size = (uint64_t)size;
    return TDEC_OK;
}

/* An 8-byte FDR function record at p (the window or the carry), known to
   lie within its buffer. */
static inline int tdec_xray__function(tdec_xray_decoder *d, const uint8_t *p, tdec_xray_item *out)
{
    uint32_t w = tdec__rd_u32le(p);
    uint32_t delta = tdec__rd_u32le(p + 4);
    uint64_t tsc = d->base_tsc + delta;
    tdec_xray_record *r;
    if (((w >> 1) & 7u) > TDEC_XRAY_ENTER_ARGS && tdec_xray__strict(d))
        return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XRAY_R_ACTION);
    r = tdec_xray__record(d, out, TDEC_XRAY_REC_FUNCTION);
    r->action = (w >> 1) & 7u;
    r->fid = w >> 4;
    r->delta = (int64_t)delta;
    r->tsc = tsc;
    d->base_tsc = tsc;
    tdec__stream_consume(&d->st, TDEC_XRAY__FUNC_SIZE);
    d->buf_left -= TDEC_XRAY__FUNC_SIZE;
    return TDEC_OK;
}

/* One FDR step at a record boundary. */
static int tdec_xray__step_fdr(tdec_xray_decoder *d, tdec_xray_item *out)
{
    const uint8_t *p = tdec__stream_peek(&d->st, 1);
    uint32_t need;
    tdec_xray_record *r;
    int st;

    if (p == NULL) return TDEC_NEED_INPUT;
    if (!d->in_buffer && d->hdr.version == 1) tdec_xray__open_buffer(d, d->hdr.buffer_size);

    if (!d->in_buffer) {
        /* v2+: a buffer starts with BufferExtents, anything else is junk. */
        if (p[0] != TDEC_XRAY__EXTENTS_TAG) {
            if (tdec_xray__strict(d)) return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XRAY_R_JUNK);
            d->phase = TDEC_XRAY__P_SCAN;
            d->gap_reason = TDEC_XRAY_R_JUNK;
            d->gap_len = 0;
            return TDEC__AGAIN;
        }
        /* Given out once its size is in, as llvm-xray reads it: a log cut
           in the unused rest of the record still shows its buffer size. */
        p = tdec__stream_peek(&d->st, TDEC_XRAY__EXTENTS_READ);
        if (p == NULL) return TDEC_NEED_INPUT;
        tdec_xray__open_buffer(d, tdec__rd_u64le(p + 1));
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_BUFFER_EXTENTS);
        r->meta_kind = TDEC_XRAY__M_EXTENTS;
        r->value = d->buf_left;
        d->phase = TDEC_XRAY__P_EXTENTS;
        return TDEC_OK;
    }

    need = (p[0] & 1u) ? TDEC_XRAY__META_SIZE : TDEC_XRAY__FUNC_SIZE;
    if (need == TDEC_XRAY__META_SIZE && (p[0] >> 1) == TDEC_XRAY__M_EXTENTS && d->hdr.version >= 2) {
        d->in_buffer = 0; /* extents inside a buffer: the next buffer starts */
        return TDEC__AGAIN;
    }
    if (d->buf_left < need) return tdec_xray__overrun(d, out, TDEC_XRAY_R_OVERRUN);
    p = tdec__stream_peek(&d->st, need);
    if (p == NULL) return TDEC_NEED_INPUT;

    if (need == TDEC_XRAY__FUNC_SIZE) return tdec_xray__function(d, p, out);

    st = tdec_xray__meta(d, p, out);
    if (st == TDEC_XRAY__BAD_SIZE) return tdec_xray__overrun(d, out, TDEC_XRAY_R_EVENT_SIZE);
    if (st < 0) return st;
    r = &out->u.rec;
    if (r->payload_size > d->cfg.max_payload)
        return tdec__stream_fail(&d->st, TDEC_E_LIMIT, TDEC_XRAY_R_LIMIT);
    if (r->payload_size > d->buf_left - need) return tdec_xray__overrun(d, out, TDEC_XRAY_R_OVERRUN);

    tdec__stream_consume(&d->st, need);
    d->buf_left -= need;
    if (r->type == TDEC_XRAY_REC_END_OF_BUFFER && d->hdr.version == 1) {
        /* v1: the rest of the buffer is stale memory, handed out unparsed. */
        if (d->buf_left > 0) d->phase = TDEC_XRAY__P_PADDING;
    } else if (r->payload_size > 0) {
        tdec__payload_start(&d->pay, r->payload_size, (d->cfg.flags & TDEC_XRAY_F_SKIP_PAYLOADS) != 0);
        d->buf_left -= r->payload_size;
        d->phase = TDEC_XRAY__P_PAYLOAD;
    }
    return TDEC_OK;
}

/* One basic-mode step: a 32-byte record. */
static int tdec_xray__step_basic(tdec_xray_decoder *d, tdec_xray_item *out)
{
    const uint8_t *p = tdec__stream_peek(&d->st, TDEC_XRAY__BASIC_SIZE);
    int has_pid = d->hdr.version >= 3;
    tdec_xray_record *r;
    uint16_t rtype;
    uint32_t fid, tid, pid;
    int match;

    if (p == NULL) return TDEC_NEED_INPUT;
    rtype = tdec__rd_u16le(p);
    if (rtype == 0) {
        if (p[3] > TDEC_XRAY_ENTER_ARGS && tdec_xray__strict(d))
            return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XRAY_R_ACTION);
        d->cpu = p[2];
        d->tid = tdec__rd_u32le(p + 16);
        d->pid = has_pid ? tdec__rd_u32le(p + 20) : 0;
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_FUNCTION);
        r->action = p[3];
        r->fid = tdec__rd_u32le(p + 4);
        r->tsc = tdec__rd_u64le(p + 8);
        d->prev_valid = 1;
        d->prev_fid = r->fid;
        d->prev_tid = d->tid;
        d->prev_pid = d->pid;
        d->prev_cpu = d->cpu;
        d->prev_tsc = r->tsc;
    } else if (rtype == 1) {
        fid = tdec__rd_u32le(p + 4);
        tid = tdec__rd_u32le(p + 8);
        pid = has_pid ? tdec__rd_u32le(p + 12) : 0;
        match = d->prev_valid && d->prev_fid == fid && d->prev_tid == tid && d->prev_pid == pid;
        if (!match && tdec_xray__strict(d))
            return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XRAY_R_BASIC_ARG);
        d->tid = tid;
        d->pid = pid;
        d->cpu = match ? d->prev_cpu : 0;
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_CALL_ARG);
        r->fid = fid;
        r->tsc = match ? d->prev_tsc : 0;
        r->flags = match ? 0u : TDEC_XRAY_RF_NO_CALL;
        r->value = tdec__rd_u64le(p + 16);
    } else {
        if (tdec_xray__strict(d)) return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XRAY_R_BASIC_TYPE);
        tdec_xray__unknown(d, out, p, TDEC_XRAY__BASIC_SIZE, (uint8_t)(rtype > 255 ? 255 : rtype));
    }
    tdec__stream_consume(&d->st, TDEC_XRAY__BASIC_SIZE);
    return TDEC_OK;
}

/* Skips junk up to the next BufferExtents tag; the gap item comes out when
   the tag is found. */
static int tdec_xray__step_scan(tdec_xray_decoder *d, tdec_xray_item *out)
{
    size_t i = 0;
    /* After resync() the rest of the dropped record may sit in the carry:
       scan it first, so a split of the input cannot change what is found. */
    while (d->st.carry_len > 0 && d->st.carry[0] != TDEC_XRAY__EXTENTS_TAG) {
        tdec__stream_consume(&d->st, 1);
        d->gap_len++;
    }
    if (d->st.carry_len == 0) {
        while (i < d->st.win_len && d->st.win[i] != TDEC_XRAY__EXTENTS_TAG) i++;
        tdec__stream_consume(&d->st, i);
        d->gap_len += i;
        if (d->st.win_len == 0) return TDEC_NEED_INPUT;
    }
    d->phase = TDEC_XRAY__P_RECORDS;
    d->in_buffer = 0;
    if (d->gap_len == 0) return TDEC__AGAIN;
    out->kind = TDEC_ITEM_GAP;
    out->offset = d->st.pos - d->gap_len;
    out->u.gap.len = d->gap_len;
    out->u.gap.reason = d->gap_reason;
    d->gap_len = 0;
    return TDEC_OK;
}

static int tdec_xray__step(tdec_xray_decoder *d, tdec_xray_item *out)
{
    const uint8_t *p;
    tdec_xray_record *r;
    uint32_t why;
    tdec_status st;

    switch (d->phase) {
    case TDEC_XRAY__P_HEADER:
        p = tdec__stream_peek(&d->st, TDEC_XRAY__HDR_SIZE);
        if (p == NULL) return TDEC_NEED_INPUT;
        st = tdec_xray_parse_header(p, TDEC_XRAY__HDR_SIZE, &d->hdr, &why);
        if (st != TDEC_OK) return tdec__stream_fail(&d->st, st, why);
        tdec_xray__record(d, out, TDEC_XRAY_REC_HEADER);
        tdec__stream_consume(&d->st, TDEC_XRAY__HDR_SIZE);
        d->phase = TDEC_XRAY__P_RECORDS;
        return TDEC_OK;
    case TDEC_XRAY__P_EXTENTS:
        if (tdec__stream_peek(&d->st, TDEC_XRAY__META_SIZE) == NULL) return TDEC_NEED_INPUT;
        tdec__stream_consume(&d->st, TDEC_XRAY__META_SIZE);
        d->phase = TDEC_XRAY__P_RECORDS;
        return TDEC__AGAIN;
    case TDEC_XRAY__P_PADDING:
        r = tdec_xray__record(d, out, TDEC_XRAY_REC_PADDING);
        r->payload_size = d->buf_left;
        tdec__payload_start(&d->pay, d->buf_left, (d->cfg.flags & TDEC_XRAY_F_SKIP_PAYLOADS) != 0);
        d->buf_left = 0;
        d->phase = TDEC_XRAY__P_PAYLOAD;
        return TDEC_OK;
    case TDEC_XRAY__P_PAYLOAD:
        if (tdec__payload_next(&d->st, &d->pay, d->cfg.max_fragment, &out->u.frag, &out->offset)) {
            out->kind = TDEC_ITEM_FRAGMENT;
            return TDEC_OK;
        }
        if (d->pay.left > 0) return TDEC_NEED_INPUT;
        d->phase = TDEC_XRAY__P_RECORDS;
        return TDEC__AGAIN;
    case TDEC_XRAY__P_SKIP:
        d->buf_left -= tdec__stream_skip(&d->st, d->buf_left);
        if (d->buf_left > 0) return TDEC_NEED_INPUT;
        d->phase = TDEC_XRAY__P_RECORDS;
        return TDEC__AGAIN;
    case TDEC_XRAY__P_SCAN:
        return tdec_xray__step_scan(d, out);
    default:
        break;
    }
    /* At a record boundary: close a used-up buffer first. */
    if (d->in_buffer && d->buf_left == 0) d->in_buffer = 0;
    if (d->hdr.file_type == TDEC_XRAY_BASIC) return tdec_xray__step_basic(d, out);
    return tdec_xray__step_fdr(d, out);
}

/* next() without its fast path; out of line, so that the fast path does
   not pay for the registers of the step functions. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int tdec_xray__next_slow(tdec_xray_decoder *d, tdec_xray_item *out)
{
    int st;
    if (d->st.err < 0) return d->st.err;
    if (d->st.finished) return TDEC_END;
    /* Each pass either returns or moves to another phase without consuming
       input twice, so this loop always ends. */
    do {
        st = tdec_xray__step(d, out);
    } while (st == TDEC__AGAIN);
    return st;
}

TDEC_XRAY_DEF tdec_status tdec_xray_next(tdec_xray_decoder *d, tdec_xray_item *out)
{
    if (d == NULL || out == NULL) return TDEC_E_ARG;
    /* Most of a trace is function records lying wholly in the window and in
       their buffer (only FDR logs open buffers): decode those directly. A
       finished decoder has an empty window; the sticky error is tested
       before the window is read, as the caller may have freed its buffer
       after the error. */
    if (d->phase == TDEC_XRAY__P_RECORDS && d->st.err == TDEC_OK && d->in_buffer &&
        d->buf_left >= TDEC_XRAY__FUNC_SIZE && d->st.carry_len == 0 && d->st.win_len >= TDEC_XRAY__FUNC_SIZE &&
        (d->st.win[0] & 1u) == 0)
        return (tdec_status)tdec_xray__function(d, d->st.win, out);
    return (tdec_status)tdec_xray__next_slow(d, out);
}

TDEC_XRAY_DEF tdec_status tdec_xray_resync(tdec_xray_decoder *d)
{
    if (d == NULL) return TDEC_E_ARG;
    if (d->phase == TDEC_XRAY__P_HEADER || d->hdr.file_type != TDEC_XRAY_FDR || d->hdr.version < 2 ||
        d->st.finished || d->st.err == TDEC_E_TRUNCATED /* only finish() gives it */)
        return TDEC_E_NOSYNC;
    /* Drop the failed record's first byte (the scan must not find that same
       tag again); the scan goes on from its second byte, carried or not. */
    d->st.err = TDEC_OK;
    d->st.err_reason = 0;
    d->gap_len = tdec__stream_skip(&d->st, 1);
    d->gap_reason = TDEC_XRAY_R_RESYNC;
    d->phase = TDEC_XRAY__P_SCAN;
    d->in_buffer = 0;
    tdec__payload_start(&d->pay, 0, 0);
    return TDEC_NEED_INPUT;
}

TDEC_XRAY_DEF const char *tdec_xray_reason_str(uint32_t reason)
{
#ifdef TDEC_NO_STRINGS
    (void)reason;
    return "";
#else
    switch (reason) {
    case TDEC_XRAY_R_NONE:          return "no error";
    case TDEC_XRAY_R_HEADER:        return "input ends inside the 32-byte file header";
    case TDEC_XRAY_R_BIG_ENDIAN:    return "byte-swapped header: a big-endian XRay log (only little-endian logs are supported)";
    case TDEC_XRAY_R_FILE_TYPE:     return "file type is neither 0 (basic) nor 1 (FDR): not a binary XRay log";
    case TDEC_XRAY_R_VERSION:       return "unsupported version (FDR 1-5, basic 1-3)";
    case TDEC_XRAY_R_BUFFER_SIZE:   return "FDR v1 log whose header gives no usable buffer size";
    case TDEC_XRAY_R_RECORD:        return "input ends inside a record";
    case TDEC_XRAY_R_PAYLOAD:       return "input ends inside an event payload";
    case TDEC_XRAY_R_BUFFER:        return "input ends before the end of the buffer its extents promise";
    case TDEC_XRAY_R_OVERRUN:       return "record runs past the end of its buffer";
    case TDEC_XRAY_R_EVENT_SIZE:    return "negative event size";
    case TDEC_XRAY_R_LIMIT:         return "event size above the configured limit";
    case TDEC_XRAY_R_JUNK:          return "bytes where a BufferExtents record must start";
    case TDEC_XRAY_R_META_KIND:     return "unknown metadata record kind";
    case TDEC_XRAY_R_ACTION:        return "unknown function record action";
    case TDEC_XRAY_R_END_OF_BUFFER: return "EndOfBuffer record in a version 2+ log";
    case TDEC_XRAY_R_BASIC_TYPE:    return "unknown basic-mode record type";
    case TDEC_XRAY_R_BASIC_ARG:     return "argument record does not follow a record of the same function and thread";
    case TDEC_XRAY_R_RESYNC:        return "bytes skipped by resync";
    }
    return "unknown reason";
#endif
}

#undef TDEC_XRAY__HDR_SIZE
#undef TDEC_XRAY__META_SIZE
#undef TDEC_XRAY__FUNC_SIZE
#undef TDEC_XRAY__BASIC_SIZE
#undef TDEC_XRAY__EXTENTS_TAG
#undef TDEC_XRAY__EXTENTS_READ
#undef TDEC_XRAY__MAX_EVENT
#undef TDEC_XRAY__BAD_SIZE

#endif /* TDEC_XRAY_IMPL_INCLUDED */
#endif /* TDEC_XRAY_IMPLEMENTATION */

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
