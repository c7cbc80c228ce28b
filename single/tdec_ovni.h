/* tdec_ovni.h - ovni trace decoder (binary streams, JSON metadata, event
   descriptions) - tracedec 0.1
   MIT licensed, see the end of this file.

   SECTIONS (search for a banner's text)
     tdec:core:begin                        the shared core: status, items
     ==== stream decoder                    stream.obs, thread.T.obs
     ==== JSON metadata                     metadata.json, thread.T.json,
                                            stream.json
     ==== event signatures and descriptions
     ==== implementation                    TDEC_OVNI_IMPLEMENTATION only
     ==== stream decoder: implementation
     ==== JSON metadata: implementation
     ==== event signatures and descriptions: implementation
     MIT License                            the licence text

   USAGE
     Exactly one .c file of your program defines the implementation:
         #define TDEC_OVNI_IMPLEMENTATION      (or TRACEDEC_IMPLEMENTATION)
         #include "tdec_ovni.h"
     Every other file includes the header without the define.

     One decoder reads one stream (`stream.obs`, or `thread.T.obs` in the
     older layouts). The loop (the same for every tracedec format):
         tdec_ovni_decoder d;  tdec_ovni_item it;  tdec_status st;
         st = tdec_ovni_init(&d, NULL);
         while (st >= 0) {
             st = tdec_ovni_next(&d, &it);
             if (st == TDEC_OK) { use(&it); continue; }
             if (st != TDEC_NEED_INPUT) break;       END, or error: d.st.err_offset
             n = read_some(buf, sizeof buf);          buf may be reused now
             st = n ? tdec_ovni_feed(&d, buf, n) : tdec_ovni_finish(&d);
         }

     Items come in file order: one TDEC_OVNI_REC_HEADER record, then one
     TDEC_OVNI_REC_EVENT record per event. A jumbo event is followed by its
     blob as TDEC_ITEM_FRAGMENT items when jumbo_len > 0. ovni streams have no
     sync points, so there is no resync() and no gap item.

     Beside the decoder:
     - tdec_ovni_json_*: a JSON reader for metadata.json, thread.T.json and
       stream.json, into caller-provided tokens, and tdec_ovni_meta_read()
       for the keys ovni's tools use.
     - tdec_ovni_sig_find() / tdec_ovni_describe(): the event signatures of
       ovni 1.14's models and the formatter that renders an event's
       description as ovnidump does, into a caller buffer;
       tdec_ovni_desc_prepare() / _render() do the same in two steps, the
       first once per signature (for printing many events).

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
     - An ovni stream leaves nothing for the end to decide, so finish()
       never returns TDEC_NEED_INPUT: TDEC_END after a whole event (or after
       the header of a stream with no events), TDEC_E_TRUNCATED inside the
       header, an event or a jumbo blob. A second finish() returns the same;
       feed() after finish() is TDEC_E_SEQUENCE.
     - Errors are sticky: next(), feed() and finish() return the same error
       until reset(). d.st.err_offset is the stream offset of the header or
       event that failed and d.st.err_reason a TDEC_OVNI_R_* code
       (tdec_ovni_reason_str()). TDEC_E_ARG and TDEC_E_SEQUENCE are returned
       without changing the decoder.
     - reset() forgets the stream, errors included, and keeps the config:
       the decoder is as after init().
     - Any split of the input into chunks gives the same items (fragments
       aside, which reassemble to the same bytes).

   MEMORY
     No allocation. The decoder and the JSON document are caller-owned
     structs that hold no pointer into themselves and may be copied with
     memcpy (the document borrows the caller's text and tokens). Their
     sizes, the item's and those of the JSON token and metadata, measured
     with sizeof on x86_64 and on arm-none-eabi-gcc -mcpu=cortex-m4:
       sizeof(tdec_ovni_decoder) = 176 on LP64, 168 on ILP32 (Cortex-M)
       sizeof(tdec_ovni_item) = 72 on LP64, 72 on ILP32 (Cortex-M)
       sizeof(tdec_ovni_json) = 40 on LP64, 24 on ILP32 (Cortex-M)
       sizeof(tdec_ovni_json_token) = 20 on LP64, 20 on ILP32 (Cortex-M)
       sizeof(tdec_ovni_meta) = 96 on LP64, 96 on ILP32 (Cortex-M)
       sizeof(tdec_ovni_desc) = 336 on LP64, 328 on ILP32 (Cortex-M)
     The signature table is static const data (about 13 KiB of strings;
     empty under TDEC_NO_STRINGS).

   OPTIONS
     TDEC_OVNI_IMPLEMENTATION / TRACEDEC_IMPLEMENTATION  [impl TU] emit code
     TDEC_STATIC / TDEC_OVNI_STATIC                       [impl TU] internal linkage
     TDEC_OVNI_DEF                                        [impl TU] decoration override
     TDEC_NO_STRINGS                                      [any TU]  *_str() return "", no signature table
     TDEC_MEMCPY(dst, src, n)                             [impl TU] memcpy (default: <string.h>'s)

   SECURITY
     Every input byte is untrusted. The decoder never reads outside the
     current window or its carry, never writes outside *out and the decoder,
     does constant work per input byte, and never sizes anything from a
     declared length. The JSON reader and the formatter never read outside
     the text or payload they are given and never write past the caller's
     capacity. See README.md, "Trust model".

   FORMAT NOTES
     - Byte order is the writer's; nothing records it but the header's
       version field (1). A version that reads 1 only byte-swapped is a
       big-endian stream: it is decoded (ovni's tools reject it) and every
       item says so in `big_endian`.
     - Flag bits 5-7 of an event's first byte are reserved and ignored (kept
       in `flags`); with the jumbo bit (0x10) set the size nibble is ignored.
     - Clocks: like ovni, each stream's previous clock starts at 0 and clocks
       are compared as signed 64-bit numbers. A clock below the previous one
       sets `clock_backwards` on the event (ovnidump's and ovnisort's
       tolerance); under TDEC_OVNI_F_STRICT_CLOCK it is TDEC_E_CORRUPT
       (ovniemu's rule). Equal clocks are fine.
*/
#ifndef TDEC_OVNI_H_INCLUDED
#define TDEC_OVNI_H_INCLUDED

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

#ifndef TDEC_OVNI_DEF
#if defined(TDEC_OVNI_STATIC) || defined(TDEC_STATIC)
#if defined(__GNUC__) || defined(__clang__)
/* A static build must not warn about the API functions a TU does not call. */
#define TDEC_OVNI_DEF static __attribute__((unused))
#else
#define TDEC_OVNI_DEF static
#endif
#else
#define TDEC_OVNI_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== stream decoder ===================================================== */

/* Record types (tdec_ovni_record.type). */
#define TDEC_OVNI_REC_HEADER 1u /* the 8-byte stream header; version, big_endian */
#define TDEC_OVNI_REC_EVENT  2u /* one event                                     */

/* Event flag bits (tdec_ovni_record.flags: the high nibble of byte 0). */
#define TDEC_OVNI_FLAG_JUMBO 0x10u

/* One decoded record. For the HEADER record only type, version and
   big_endian are set (the rest is zero). */
typedef struct tdec_ovni_record {
    uint32_t type;            /* TDEC_OVNI_REC_*                                     */
    uint32_t version;         /* stream version (1), in every record                 */
    uint64_t clock;           /* as stored: ns of CLOCK_MONOTONIC unless the writer  */
                              /* used its own clock; ovni reads it as int64_t         */
    uint64_t size;            /* bytes of the whole event: 12..28, or 16 + jumbo_len */
    uint32_t jumbo_len;       /* jumbo: blob bytes that follow as fragments          */
    uint8_t  mcv[3];          /* model, category, value bytes as stored              */
    uint8_t  flags;           /* byte 0 & 0xF0 as stored (reserved bits included)    */
    uint8_t  size_code;       /* byte 0 & 0x0F as stored (ignored for jumbo events)  */
    uint8_t  jumbo;           /* 1: jumbo event                                      */
    uint8_t  payload_len;     /* bytes in payload[]: 0 or 2..16; jumbo: 4            */
    uint8_t  clock_backwards; /* clock below the previous event's (tolerant mode)    */
    uint8_t  big_endian;      /* the stream was written big-endian                   */
    uint8_t  payload[16];     /* normal events: the payload. Jumbo: the u32 blob     */
                              /* length as stored, which ovni counts as payload. The  */
                              /* bytes past payload_len are zero.                     */
} tdec_ovni_record;

typedef struct tdec_ovni_item {
    uint32_t kind;   /* TDEC_ITEM_RECORD or TDEC_ITEM_FRAGMENT (jumbo blob) */
    uint64_t offset; /* stream offset of the record or the fragment data    */
    union {
        tdec_ovni_record rec;
        tdec_frag       frag;
    } u;
} tdec_ovni_item;

/* Config flags. */
#define TDEC_OVNI_F_STRICT_CLOCK  1u /* clock below the previous: TDEC_E_CORRUPT */
#define TDEC_OVNI_F_SKIP_PAYLOADS 2u /* count jumbo blobs down, no fragments     */

/* Zeroed (or NULL) config = defaults. Copied at init. */
typedef struct tdec_ovni_config {
    uint32_t flags;        /* TDEC_OVNI_F_*                                          */
    uint32_t max_fragment; /* largest fragment to emit; 0 = as large as the window  */
    uint32_t max_jumbo;    /* jumbo blobs above it: TDEC_E_LIMIT; 0 = 2^32-1 (the   */
                           /* format's limit; libovni writes at most 2 MiB - 17)    */
} tdec_ovni_config;

/* Reason codes: d.st.err_reason after an error. */
enum tdec_ovni_reason {
    TDEC_OVNI_R_NONE = 0,
    TDEC_OVNI_R_HEADER,  /* input ends inside the 8-byte stream header        */
    TDEC_OVNI_R_MAGIC,   /* the stream does not start with "ovni"             */
    TDEC_OVNI_R_VERSION, /* stream version is not 1 in either byte order      */
    TDEC_OVNI_R_EVENT,   /* input ends inside an event (header or payload)    */
    TDEC_OVNI_R_JUMBO,   /* input ends inside a jumbo blob                    */
    TDEC_OVNI_R_CLOCK,   /* strict: clock below the previous event's          */
    TDEC_OVNI_R_LIMIT    /* jumbo blob above the configured max_jumbo         */
};

/* The decoder. Read-only for callers: st.pos, st.err, st.err_offset,
   st.err_reason, big_endian (valid once the HEADER item was returned),
   last_clock. */
typedef struct tdec_ovni_decoder {
    tdec_stream      st;
    uint64_t         last_clock; /* clock of the last event (0 before the first) */
    uint64_t         ev_start;   /* stream offset of the current event           */
    /* private */
    tdec_ovni_config cfg;
    tdec_payload     pay;
    uint8_t          phase;
    uint8_t          big_endian;
} tdec_ovni_decoder;

/* Starts a decoder. cfg may be NULL (defaults). Returns TDEC_NEED_INPUT, or
   TDEC_E_ARG for a NULL decoder. */
TDEC_OVNI_DEF tdec_status tdec_ovni_init(tdec_ovni_decoder *d, const tdec_ovni_config *cfg);

/* Installs the next chunk (borrowed until next() returns TDEC_NEED_INPUT).
   Returns TDEC_NEED_INPUT, TDEC_E_ARG (NULL d, or NULL data with len > 0),
   TDEC_E_SEQUENCE (window not used up, or after finish()), or the sticky
   error. len == 0 is allowed and does nothing. */
TDEC_OVNI_DEF tdec_status tdec_ovni_feed(tdec_ovni_decoder *d, const void *data, size_t len);

/* Produces the next item. Returns TDEC_OK (*out filled), TDEC_NEED_INPUT
   (window used up), TDEC_END (after a clean finish()), TDEC_E_ARG, or an
   error (sticky): E_FORMAT (magic), E_VERSION, E_CORRUPT (strict clock),
   E_LIMIT (max_jumbo), E_TRUNCATED (after finish()). */
TDEC_OVNI_DEF tdec_status tdec_ovni_next(tdec_ovni_decoder *d, tdec_ovni_item *out);

/* Declares the end of input (see CONTRACT, Ending). Returns TDEC_END,
   TDEC_E_TRUNCATED (sticky; err_offset = start of the cut header or
   event), TDEC_E_SEQUENCE if the window still holds bytes, or the sticky
   error; never TDEC_NEED_INPUT. After TDEC_END or an error, next() returns
   it again. */
TDEC_OVNI_DEF tdec_status tdec_ovni_finish(tdec_ovni_decoder *d);

/* Forgets the stream, keeps the config: the decoder is as after init(). */
TDEC_OVNI_DEF void tdec_ovni_reset(tdec_ovni_decoder *d);

/* Parses an 8-byte stream header without a decoder. Returns TDEC_OK (and
   *big_endian, may be NULL), TDEC_E_ARG, TDEC_E_TRUNCATED (len < 8),
   TDEC_E_FORMAT (magic) or TDEC_E_VERSION. *reason (may be NULL) receives
   the TDEC_OVNI_R_* detail. */
TDEC_OVNI_DEF tdec_status tdec_ovni_parse_header(const void *data, size_t len, int *big_endian,
                                                 uint32_t *reason);

/* Text for a TDEC_OVNI_R_* code ("" under TDEC_NO_STRINGS). */
TDEC_OVNI_DEF const char *tdec_ovni_reason_str(uint32_t reason);

/* ==== JSON metadata ====================================================== */

/* Token types. */
#define TDEC_OVNI_JSON_OBJECT 1u
#define TDEC_OVNI_JSON_ARRAY  2u
#define TDEC_OVNI_JSON_STRING 3u
#define TDEC_OVNI_JSON_NUMBER 4u
#define TDEC_OVNI_JSON_TRUE   5u
#define TDEC_OVNI_JSON_FALSE  6u
#define TDEC_OVNI_JSON_NULL   7u

/* One JSON value. Tokens are in document order; an object's tokens are its
   members as key (a STRING token), value, key, value...; an array's are its
   elements. The descendants of token i are the tokens i+1 .. next-1. */
typedef struct tdec_ovni_json_token {
    uint32_t type;  /* TDEC_OVNI_JSON_*                                             */
    uint32_t start; /* text offset: strings after the opening quote, others at     */
    uint32_t len;   /* their first byte; len: strings without quotes (escapes kept  */
                    /* as written), containers up to and including the closing byte */
    uint32_t count; /* objects: members; arrays: elements; others: 0                */
    uint32_t next;  /* index of the first token after this value                    */
} tdec_ovni_json_token;

/* A parsed document: the caller's text and tokens, both borrowed. */
typedef struct tdec_ovni_json {
    const char           *text;
    size_t                len;
    tdec_ovni_json_token *tok;
    uint32_t              ntok;       /* tokens used; tok[0] is the root value    */
    uint32_t              cap;
    size_t                err_offset; /* text offset where parsing failed         */
} tdec_ovni_json;

/* Parses `text` (len bytes, need not be NUL-terminated) into tok[0..cap).
   Accepts RFC 8259 JSON plus what ovni's parser accepts: // and slash-star
   comments wherever white space may stand. Returns TDEC_OK, TDEC_E_ARG,
   TDEC_E_FORMAT (syntax error or text after the value: j->err_offset says
   where), TDEC_E_LIMIT (more than cap tokens, or len >= 4 GiB). Duplicate
   object keys are allowed; lookups find the first. Nesting depth costs no
   memory beyond the tokens. */
TDEC_OVNI_DEF tdec_status tdec_ovni_json_parse(tdec_ovni_json *j, const char *text, size_t len,
                                               tdec_ovni_json_token *tok, uint32_t cap);

/* The value at a dotted key path ("ovni.lib.version") below object token
   `obj`, as a token index, or -1 when a step is missing or not an object.
   Keys are compared with their text as written (no escapes resolved). */
TDEC_OVNI_DEF int32_t tdec_ovni_json_find(const tdec_ovni_json *j, uint32_t obj, const char *path);

/* Array element / object member value number `index` of token `tok`, or -1. */
TDEC_OVNI_DEF int32_t tdec_ovni_json_child(const tdec_ovni_json *j, uint32_t tok, uint32_t index);
/* Object member key token number `index` of object `tok`, or -1. */
TDEC_OVNI_DEF int32_t tdec_ovni_json_key(const tdec_ovni_json *j, uint32_t tok, uint32_t index);

/* A NUMBER token as an integer: TDEC_OK, TDEC_E_ARG (bad index), TDEC_E_FORMAT
   (not a number, a fraction other than zeros, or any exponent: 3.0 is 3,
   3.5 and 1e3 are errors), TDEC_E_LIMIT (outside int64_t). */
TDEC_OVNI_DEF tdec_status tdec_ovni_json_int(const tdec_ovni_json *j, int32_t tok, int64_t *out);

/* A STRING token unescaped into buf (UTF-8, NUL-terminated, cap >= 1). *len
   (may be NULL) receives the length without the NUL. Returns TDEC_OK,
   TDEC_E_ARG, TDEC_E_FORMAT (not a string, or a lone UTF-16 surrogate),
   TDEC_E_LIMIT (does not fit). Except for E_ARG, buf holds a NUL-terminated
   string (on errors the part before the problem) and *len is set. A \u0000
   escape is kept as a NUL byte inside the string. */
TDEC_OVNI_DEF tdec_status tdec_ovni_json_string(const tdec_ovni_json *j, int32_t tok, char *buf,
                                                size_t cap, size_t *len);

/* Presence bits of tdec_ovni_meta.present. */
#define TDEC_OVNI_META_VERSION       0x0001u
#define TDEC_OVNI_META_APP_ID        0x0002u
#define TDEC_OVNI_META_RANK          0x0004u
#define TDEC_OVNI_META_NRANKS        0x0008u
#define TDEC_OVNI_META_PID           0x0010u
#define TDEC_OVNI_META_TID           0x0020u
#define TDEC_OVNI_META_FINISHED      0x0040u
#define TDEC_OVNI_META_LOOM          0x0080u
#define TDEC_OVNI_META_PART          0x0100u
#define TDEC_OVNI_META_CPUS          0x0200u
#define TDEC_OVNI_META_REQUIRE       0x0400u
#define TDEC_OVNI_META_LIB_VERSION   0x0800u
#define TDEC_OVNI_META_LIB_COMMIT    0x1000u
#define TDEC_OVNI_META_MODEL_VERSION 0x2000u

/* The keys ovni's tools read, from any metadata version:
     v3 stream.json:       version, ovni.{app_id, rank, nranks, pid, tid, loom,
                           part, loom_cpus, require, finished, lib.version,
                           lib.commit}
     v2 thread.T.json:     version, ovni.{require, finished, lib.version,
                           lib.commit}
     v1/v2 metadata.json:  version, app_id, rank, nranks, cpus, model_version
   Strings and containers are token indexes (-1 when absent): read strings
   with tdec_ovni_json_string(), walk cpus ({index, phyid} objects) and
   require (model -> version string) with tdec_ovni_json_child()/_key().
   A key present with the wrong type counts as absent. */
typedef struct tdec_ovni_meta {
    uint32_t present; /* TDEC_OVNI_META_* bits                   */
    int64_t  version, app_id, rank, nranks, pid, tid, finished;
    int32_t  loom, part, cpus, require, lib_version, lib_commit, model_version;
} tdec_ovni_meta;

/* Fills *m from a parsed document whose root must be an object. Returns
   TDEC_OK, TDEC_E_ARG, or TDEC_E_FORMAT (root not an object). Whether the
   version is acceptable is the caller's call (3 for stream.json, 1 or 2 for
   the older files). */
TDEC_OVNI_DEF tdec_status tdec_ovni_meta_read(const tdec_ovni_json *j, tdec_ovni_meta *m);

/* ==== event signatures and descriptions ================================== */

/* An event signature as ovni's models declare it: "MCV" or "MCV(type name,
   ...)", with '+' after the MCV for jumbo events (their fields start after the
   4-byte blob length); types u8 u16 u32 u64 i8 i16 i32 i64 str (str: bytes up
   to a NUL or the end of the payload, last field only). The description is a
   template: %{name} prints a field in its type's default format, %FMT{name}
   with a printf-style FMT (flags # 0 -, a width, length modifiers ignored,
   conversion d i u x X s), %% a percent sign. */
typedef struct tdec_ovni_sig {
    const char *signature;
    const char *description;
} tdec_ovni_sig;

/* The signature of an event of ovni 1.14's models (ovni, nanos6, nosv,
   nodes, tampi, mpi, kernel, openmp: 365 events), or NULL when the MCV has
   none (ovnidump prints UNKNOWN for those). NULL under TDEC_NO_STRINGS. */
TDEC_OVNI_DEF const tdec_ovni_sig *tdec_ovni_sig_find(const uint8_t mcv[3]);

/* The model name for a model byte ("ovni", "nanos6", ...), or NULL when
   ovni 1.14 has no such model. "" under TDEC_NO_STRINGS. */
TDEC_OVNI_DEF const char *tdec_ovni_model_str(uint8_t model);

/* Renders ev's description from sig into buf as ovnidump does, with ovni's
   room rule: the text (plus its NUL) must fit in cap, and each field's text
   must also leave one spare byte (so an ovnidump buffer of 1024 bytes and
   cap = 1024 fail on the same events). The payload is ev->payload followed,
   for jumbo events, by blob[0..blob_len): the first bytes of the blob (the
   caller collects them from the fragments; sizes beyond cap + 16 bytes are
   never needed). Fields are read in ev->big_endian byte order and never
   beyond the payload: where ovnidump reads past an event (a short payload, a
   label without NUL) we do not.
   Returns TDEC_OK (*len = text length, may be NULL), TDEC_E_ARG (also for
   an event with payload_len above 16, or not 4 when jumbo), TDEC_E_CORRUPT (a field lies beyond the event's payload),
   TDEC_E_TRUNCATED (a field lies beyond blob_len but within the blob: pass
   more of it), TDEC_E_LIMIT (does not fit in cap; buf holds a prefix),
   TDEC_E_FORMAT (malformed signature or template). buf is NUL-terminated
   whenever cap >= 1. */
TDEC_OVNI_DEF tdec_status tdec_ovni_describe(const tdec_ovni_sig *sig, const tdec_ovni_record *ev,
                                             const uint8_t *blob, size_t blob_len, char *buf,
                                             size_t cap, size_t *len);

/* A description parsed once for many events of its signature: the same
   rendering as tdec_ovni_describe() (which is prepare then render) without
   reading the signature and template again. At most TDEC_OVNI_DESC_PARTS
   conversions and "%%" in a template (ovni's have at most 4). */
#define TDEC_OVNI_DESC_PARTS 16
typedef struct tdec_ovni_desc_conv { /* a conversion: %[#0-][width]conv{field} */
    uint32_t width;
    char     conv;            /* d i u x X s, or 0: the field type's default */
    uint8_t  alt, zero, left; /* flags # 0 -                                 */
} tdec_ovni_desc_conv;
typedef struct tdec_ovni_desc_part {
    uint32_t            lit_off, lit_len; /* the literal text before it, in the template */
    tdec_ovni_desc_conv conv;
    uint8_t             kind;   /* end, "%%", a field, or a malformed rest      */
    uint8_t             offset, size, type; /* the field: payload offset, bytes, type */
} tdec_ovni_desc_part;
typedef struct tdec_ovni_desc {
    const char         *text; /* the template                                  */
    uint32_t            nparts;
    tdec_ovni_desc_part part[TDEC_OVNI_DESC_PARTS];
} tdec_ovni_desc;

/* Parses sig into *d. TDEC_OK, TDEC_E_ARG (NULLs), TDEC_E_FORMAT (malformed
   signature, or a template with more parts than TDEC_OVNI_DESC_PARTS); a
   malformed template is found by render(), after the text before it, as
   describe() finds it. */
TDEC_OVNI_DEF tdec_status tdec_ovni_desc_prepare(tdec_ovni_desc *d, const tdec_ovni_sig *sig);

/* tdec_ovni_describe() with a prepared description: same arguments (but
   the description) and results. */
TDEC_OVNI_DEF tdec_status tdec_ovni_desc_render(const tdec_ovni_desc *d, const tdec_ovni_record *ev,
                                                const uint8_t *blob, size_t blob_len, char *buf,
                                                size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* TDEC_OVNI_H_INCLUDED */

/* ==== implementation ===================================================== */
#if defined(TDEC_OVNI_IMPLEMENTATION) || defined(TRACEDEC_IMPLEMENTATION)
#ifndef TDEC_OVNI_IMPL_INCLUDED
#define TDEC_OVNI_IMPL_INCLUDED

/* Copies of payload bytes and description text (a no-libc build defines
   TDEC_MEMCPY as its own memcpy). */
#ifndef TDEC_MEMCPY
#include <string.h>
#define TDEC_MEMCPY(dst, src, n) memcpy((dst), (src), (n))
#endif

/* ==== stream decoder: implementation ===================================== */

#define TDEC_OVNI__HDR_SIZE   8u  /* "ovni" + u32 version                   */
#define TDEC_OVNI__EV_SIZE    12u /* flags/size byte, M, C, V, u64 clock    */
#define TDEC_OVNI__JUMBO_SIZE 16u /* event header + u32 blob length         */
#define TDEC_OVNI__MAX_EVENT  28u /* event header + 16 payload bytes        */

TDEC_STATIC_ASSERT(ovni_carry, TDEC_OVNI__MAX_EVENT <= TDEC_CARRY_CAP);

enum tdec_ovni__phase {
    TDEC_OVNI__P_HEADER = 0,
    TDEC_OVNI__P_EVENTS, /* at an event boundary       */
    TDEC_OVNI__P_BLOB    /* streaming a jumbo blob     */
};

static uint32_t tdec_ovni__rd_u32(const uint8_t *p, int big_endian)
{
    return big_endian ? tdec__rd_u32be(p) : tdec__rd_u32le(p);
}

static uint64_t tdec_ovni__rd_u64(const uint8_t *p, int big_endian)
{
    return big_endian ? tdec__rd_u64be(p) : tdec__rd_u64le(p);
}

TDEC_OVNI_DEF tdec_status tdec_ovni_parse_header(const void *data, size_t len, int *big_endian,
                                                 uint32_t *reason)
{
    const uint8_t *p = (const uint8_t *)data;
    uint32_t why = TDEC_OVNI_R_NONE;
    tdec_status st = TDEC_OK;
    if (data == NULL) return TDEC_E_ARG;
    if (len < TDEC_OVNI__HDR_SIZE) {
        st = TDEC_E_TRUNCATED;
        why = TDEC_OVNI_R_HEADER;
    } else if (p[0] != 'o' || p[1] != 'v' || p[2] != 'n' || p[3] != 'i') {
        st = TDEC_E_FORMAT;
        why = TDEC_OVNI_R_MAGIC;
    } else if (tdec__rd_u32le(p + 4) != 1u && tdec__rd_u32be(p + 4) != 1u) {
        st = TDEC_E_VERSION;
        why = TDEC_OVNI_R_VERSION;
    } else if (big_endian) {
        *big_endian = tdec__rd_u32le(p + 4) != 1u;
    }
    if (reason) *reason = why;
    return st;
}

TDEC_OVNI_DEF void tdec_ovni_reset(tdec_ovni_decoder *d)
{
    if (d == NULL) return;
    tdec__stream_init(&d->st);
    d->last_clock = 0;
    d->ev_start = 0;
    tdec__payload_start(&d->pay, 0, 0);
    d->phase = TDEC_OVNI__P_HEADER;
    d->big_endian = 0;
}

TDEC_OVNI_DEF tdec_status tdec_ovni_init(tdec_ovni_decoder *d, const tdec_ovni_config *cfg)
{
    if (d == NULL) return TDEC_E_ARG;
    d->cfg.flags = 0;
    d->cfg.max_fragment = 0;
    d->cfg.max_jumbo = 0;
    if (cfg) d->cfg = *cfg;
    if (d->cfg.max_jumbo == 0) d->cfg.max_jumbo = UINT32_MAX;
    tdec_ovni_reset(d);
    return TDEC_NEED_INPUT;
}

TDEC_OVNI_DEF tdec_status tdec_ovni_feed(tdec_ovni_decoder *d, const void *data, size_t len)
{
    if (d == NULL) return TDEC_E_ARG;
    return tdec__stream_feed(&d->st, data, len);
}

TDEC_OVNI_DEF tdec_status tdec_ovni_finish(tdec_ovni_decoder *d)
{
    tdec_status st;
    if (d == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err; /* sticky: err_offset stays */
    switch (d->phase) {
    case TDEC_OVNI__P_HEADER:
        return tdec__stream_finish(&d->st, 0, TDEC_OVNI_R_HEADER);
    case TDEC_OVNI__P_BLOB:
        st = tdec__stream_finish(&d->st, d->pay.left == 0, TDEC_OVNI_R_JUMBO);
        if (st == TDEC_E_TRUNCATED) d->st.err_offset = d->ev_start; /* the cut event */
        return st;
    default:
        return tdec__stream_finish(&d->st, 1, TDEC_OVNI_R_EVENT);
    }
}

/* *out as a record of `type`, every event field zero. */
static tdec_ovni_record *tdec_ovni__record(const tdec_ovni_decoder *d, tdec_ovni_item *out, uint32_t type)
{
    tdec_ovni_record *e = &out->u.rec;
    /* Read before writing: *out may alias *d as far as the compiler knows. */
    uint64_t pos = d->st.pos;
    uint8_t be = d->big_endian;
    unsigned i;
    out->kind = TDEC_ITEM_RECORD;
    out->offset = pos;
    e->type = type;
    e->version = 1;
    e->clock = 0;
    e->size = 0;
    e->jumbo_len = 0;
    e->mcv[0] = e->mcv[1] = e->mcv[2] = 0;
    e->flags = 0;
    e->size_code = 0;
    e->jumbo = 0;
    e->payload_len = 0;
    e->clock_backwards = 0;
    e->big_endian = be;
    for (i = 0; i < sizeof e->payload; i++) e->payload[i] = 0;
    return e;
}

/* One event at an event boundary. */
static int tdec_ovni__step_event(tdec_ovni_decoder *d, tdec_ovni_item *out)
{
    const uint8_t *p = tdec__stream_peek(&d->st, TDEC_OVNI__EV_SIZE);
    tdec_ovni_record *e;
    uint32_t need, code, blob = 0;
    uint64_t clock;
    int jumbo, backwards;

    if (p == NULL) return TDEC_NEED_INPUT;
    jumbo = (p[0] & TDEC_OVNI_FLAG_JUMBO) != 0;
    code = p[0] & 0x0Fu;
    /* Size code v > 0 means v + 1 payload bytes: 1 byte cannot be said. */
    need = jumbo ? TDEC_OVNI__JUMBO_SIZE : TDEC_OVNI__EV_SIZE + (code ? code + 1u : 0u);
    p = tdec__stream_peek(&d->st, need);
    if (p == NULL) return TDEC_NEED_INPUT;

    clock = tdec_ovni__rd_u64(p + 4, d->big_endian);
    /* ovni compares clocks as int64_t, the first one against 0. */
    backwards = (int64_t)clock < (int64_t)d->last_clock;
    if (backwards && (d->cfg.flags & TDEC_OVNI_F_STRICT_CLOCK))
        return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_OVNI_R_CLOCK);
    if (jumbo) {
        blob = tdec_ovni__rd_u32(p + 12, d->big_endian);
        if (blob > d->cfg.max_jumbo) return tdec__stream_fail(&d->st, TDEC_E_LIMIT, TDEC_OVNI_R_LIMIT);
    }

    e = tdec_ovni__record(d, out, TDEC_OVNI_REC_EVENT);
    e->clock = clock;
    e->mcv[0] = p[1];
    e->mcv[1] = p[2];
    e->mcv[2] = p[3];
    e->flags = (uint8_t)(p[0] & 0xF0u);
    e->size_code = (uint8_t)code;
    e->jumbo = (uint8_t)jumbo;
    e->clock_backwards = (uint8_t)backwards;
    e->jumbo_len = blob;
    e->size = (uint64_t)need + blob;
    e->payload_len = (uint8_t)(need - TDEC_OVNI__EV_SIZE);
    if (e->payload_len > 0) TDEC_MEMCPY(e->payload, p + TDEC_OVNI__EV_SIZE, e->payload_len);

    d->ev_start = d->st.pos;
    d->last_clock = clock;
    tdec__stream_consume(&d->st, need);
    if (blob > 0) {
        tdec__payload_start(&d->pay, blob, (d->cfg.flags & TDEC_OVNI_F_SKIP_PAYLOADS) != 0);
        d->phase = TDEC_OVNI__P_BLOB;
    }
    return TDEC_OK;
}

static int tdec_ovni__step(tdec_ovni_decoder *d, tdec_ovni_item *out)
{
    const uint8_t *p;
    tdec_status st;
    uint32_t why;
    int be = 0;

    switch (d->phase) {
    case TDEC_OVNI__P_HEADER:
        p = tdec__stream_peek(&d->st, TDEC_OVNI__HDR_SIZE);
        if (p == NULL) return TDEC_NEED_INPUT;
        st = tdec_ovni_parse_header(p, TDEC_OVNI__HDR_SIZE, &be, &why);
        if (st != TDEC_OK) return tdec__stream_fail(&d->st, st, why);
        d->big_endian = (uint8_t)be;
        tdec_ovni__record(d, out, TDEC_OVNI_REC_HEADER);
        tdec__stream_consume(&d->st, TDEC_OVNI__HDR_SIZE);
        d->phase = TDEC_OVNI__P_EVENTS;
        return TDEC_OK;
    case TDEC_OVNI__P_BLOB:
        if (tdec__payload_next(&d->st, &d->pay, d->cfg.max_fragment, &out->u.frag, &out->offset)) {
            out->kind = TDEC_ITEM_FRAGMENT;
            return TDEC_OK;
        }
        if (d->pay.left > 0) return TDEC_NEED_INPUT;
        d->phase = TDEC_OVNI__P_EVENTS;
        return TDEC__AGAIN;
    default:
        return tdec_ovni__step_event(d, out);
    }
}

TDEC_OVNI_DEF tdec_status tdec_ovni_next(tdec_ovni_decoder *d, tdec_ovni_item *out)
{
    int st;
    if (d == NULL || out == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err;
    if (d->st.finished) return TDEC_END;
    /* A pass either returns or moves from BLOB to EVENTS: this ends. */
    do {
        st = tdec_ovni__step(d, out);
    } while (st == TDEC__AGAIN);
    return (tdec_status)st;
}

TDEC_OVNI_DEF const char *tdec_ovni_reason_str(uint32_t reason)
{
#ifdef TDEC_NO_STRINGS
    (void)reason;
    return "";
#else
    switch (reason) {
    case TDEC_OVNI_R_NONE:    return "no error";
    case TDEC_OVNI_R_HEADER:  return "input ends inside the 8-byte stream header";
    case TDEC_OVNI_R_MAGIC:   return "wrong stream magic (expected \"ovni\")";
    case TDEC_OVNI_R_VERSION: return "stream version is not 1 (in either byte order)";
    case TDEC_OVNI_R_EVENT:   return "input ends inside an event";
    case TDEC_OVNI_R_JUMBO:   return "input ends inside a jumbo event's blob";
    case TDEC_OVNI_R_CLOCK:   return "clock goes backwards";
    case TDEC_OVNI_R_LIMIT:   return "jumbo blob above the configured limit";
    }
    return "unknown reason";
#endif
}

/* ==== JSON metadata: implementation ====================================== */

#define TDEC_OVNI__NONE UINT32_MAX /* no open container */

enum tdec_ovni__json_state {
    TDEC_OVNI__J_VALUE,          /* a value must come                      */
    TDEC_OVNI__J_VALUE_OR_CLOSE, /* after '[': a value or ']'              */
    TDEC_OVNI__J_KEY,            /* after ',' in an object: a key          */
    TDEC_OVNI__J_KEY_OR_CLOSE,   /* after '{': a key or '}'                */
    TDEC_OVNI__J_COLON,          /* after a key                            */
    TDEC_OVNI__J_COMMA_OR_CLOSE, /* after a member or element              */
    TDEC_OVNI__J_DONE            /* the root value is complete             */
};

static int tdec_ovni__is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int tdec_ovni__hex(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Skips white space and comments from *i. Returns 0, or -1 for a comment
   that never ends (*i then points at it). */
static int tdec_ovni__json_skip(const char *s, size_t n, size_t *i)
{
    size_t k = *i, start;
    for (;;) {
        while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r')) k++;
        if (k + 1 >= n || s[k] != '/' || (s[k + 1] != '/' && s[k + 1] != '*')) break;
        start = k;
        if (s[k + 1] == '/') {
            while (k < n && s[k] != '\n') k++;
        } else {
            k += 2;
            while (k + 1 < n && !(s[k] == '*' && s[k + 1] == '/')) k++;
            if (k + 1 >= n) {
                *i = start;
                return -1;
            }
            k += 2;
        }
    }
    *i = k;
    return 0;
}

/* Scans the string whose opening quote is at s[*i]; *i ends after the
   closing quote. Returns 0, or -1 with *i at the offending byte. */
static int tdec_ovni__json_scan_string(const char *s, size_t n, size_t *i)
{
    size_t k = *i + 1;
    int h;
    while (k < n) {
        unsigned char c = (unsigned char)s[k];
        if (c == '"') {
            *i = k + 1;
            return 0;
        }
        if (c < 0x20) break;
        if (c != '\\') {
            k++;
            continue;
        }
        if (k + 1 >= n) break;
        c = (unsigned char)s[k + 1];
        if (c == 'u') {
            if (k + 5 >= n) break;
            for (h = 2; h < 6; h++)
                if (tdec_ovni__hex(s[k + (size_t)h]) < 0) break;
            if (h < 6) break;
            k += 6;
        } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' ||
                   c == 't') {
            k += 2;
        } else {
            break;
        }
    }
    *i = k;
    return -1;
}

/* Scans a number at s[*i] (RFC 8259 grammar). Returns 0 or -1. */
static int tdec_ovni__json_scan_number(const char *s, size_t n, size_t *i)
{
    size_t k = *i;
    if (k < n && s[k] == '-') k++;
    if (k >= n || !tdec_ovni__is_digit(s[k])) goto bad;
    if (s[k] == '0') k++;
    else while (k < n && tdec_ovni__is_digit(s[k])) k++;
    if (k < n && s[k] == '.') {
        k++;
        if (k >= n || !tdec_ovni__is_digit(s[k])) goto bad;
        while (k < n && tdec_ovni__is_digit(s[k])) k++;
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        k++;
        if (k < n && (s[k] == '+' || s[k] == '-')) k++;
        if (k >= n || !tdec_ovni__is_digit(s[k])) goto bad;
        while (k < n && tdec_ovni__is_digit(s[k])) k++;
    }
    *i = k;
    return 0;
bad:
    *i = k;
    return -1;
}

static int tdec_ovni__json_literal(const char *s, size_t n, size_t i, const char *word, size_t wlen)
{
    size_t k;
    if (n - i < wlen) return 0;
    for (k = 0; k < wlen; k++)
        if (s[i + k] != word[k]) return 0;
    return 1;
}

TDEC_OVNI_DEF tdec_status tdec_ovni_json_parse(tdec_ovni_json *j, const char *text, size_t len,
                                               tdec_ovni_json_token *tok, uint32_t cap)
{
    uint32_t open = TDEC_OVNI__NONE, t = 0, parent;
    int state = TDEC_OVNI__J_VALUE;
    size_t i = 0, start;
    char c;
    tdec_status fail = TDEC_E_FORMAT;

    if (j == NULL || (text == NULL && len > 0) || (tok == NULL && cap > 0)) return TDEC_E_ARG;
    j->text = text;
    j->len = len;
    j->tok = tok;
    j->ntok = 0;
    j->cap = cap;
    j->err_offset = 0;
    if (len >= UINT32_MAX) return TDEC_E_LIMIT;

    for (;;) {
        if (tdec_ovni__json_skip(text, len, &i) < 0) goto bad;
        if (i >= len) {
            if (state == TDEC_OVNI__J_DONE) return TDEC_OK;
            goto bad;
        }
        c = text[i];
        if (state == TDEC_OVNI__J_DONE) goto bad; /* text after the value */
        if (state == TDEC_OVNI__J_COLON) {
            if (c != ':') goto bad;
            i++;
            state = TDEC_OVNI__J_VALUE;
            continue;
        }
        if ((c == '}' && (state == TDEC_OVNI__J_KEY_OR_CLOSE || state == TDEC_OVNI__J_COMMA_OR_CLOSE) &&
             open != TDEC_OVNI__NONE && tok[open].type == TDEC_OVNI_JSON_OBJECT) ||
            (c == ']' && (state == TDEC_OVNI__J_VALUE_OR_CLOSE || state == TDEC_OVNI__J_COMMA_OR_CLOSE) &&
             open != TDEC_OVNI__NONE && tok[open].type == TDEC_OVNI_JSON_ARRAY)) {
            /* Close: the parent link kept in `next` while open is replaced
               by the index past the subtree. */
            i++;
            tok[open].len = (uint32_t)(i - tok[open].start);
            parent = tok[open].next;
            tok[open].next = j->ntok;
            open = parent;
            state = open == TDEC_OVNI__NONE ? TDEC_OVNI__J_DONE : TDEC_OVNI__J_COMMA_OR_CLOSE;
            continue;
        }
        if (state == TDEC_OVNI__J_COMMA_OR_CLOSE) {
            if (c != ',') goto bad;
            i++;
            state = tok[open].type == TDEC_OVNI_JSON_OBJECT ? TDEC_OVNI__J_KEY : TDEC_OVNI__J_VALUE;
            continue;
        }
        /* A key or a value: one token. */
        if (j->ntok >= cap) {
            fail = TDEC_E_LIMIT;
            goto bad;
        }
        t = j->ntok;
        start = i;
        tok[t].count = 0;
        tok[t].start = (uint32_t)i;
        if (state == TDEC_OVNI__J_KEY || state == TDEC_OVNI__J_KEY_OR_CLOSE) {
            if (c != '"' || tdec_ovni__json_scan_string(text, len, &i) < 0) goto bad;
            tok[t].type = TDEC_OVNI_JSON_STRING;
            tok[t].start = (uint32_t)(start + 1);
            tok[t].len = (uint32_t)(i - start - 2);
            tok[t].next = t + 1;
            tok[open].count++;
            j->ntok++;
            state = TDEC_OVNI__J_COLON;
            continue;
        }
        if (open != TDEC_OVNI__NONE && tok[open].type == TDEC_OVNI_JSON_ARRAY) tok[open].count++;
        j->ntok++;
        if (c == '{' || c == '[') {
            tok[t].type = c == '{' ? TDEC_OVNI_JSON_OBJECT : TDEC_OVNI_JSON_ARRAY;
            tok[t].len = 0;
            tok[t].next = open; /* parent link until closed */
            open = t;
            i++;
            state = c == '{' ? TDEC_OVNI__J_KEY_OR_CLOSE : TDEC_OVNI__J_VALUE_OR_CLOSE;
            continue;
        }
        if (c == '"') {
            if (tdec_ovni__json_scan_string(text, len, &i) < 0) goto bad;
            tok[t].type = TDEC_OVNI_JSON_STRING;
            tok[t].start = (uint32_t)(start + 1);
            tok[t].len = (uint32_t)(i - start - 2);
        } else if (c == '-' || tdec_ovni__is_digit(c)) {
            if (tdec_ovni__json_scan_number(text, len, &i) < 0) goto bad;
            tok[t].type = TDEC_OVNI_JSON_NUMBER;
            tok[t].len = (uint32_t)(i - start);
        } else if (tdec_ovni__json_literal(text, len, i, "true", 4)) {
            tok[t].type = TDEC_OVNI_JSON_TRUE;
            tok[t].len = 4;
            i += 4;
        } else if (tdec_ovni__json_literal(text, len, i, "false", 5)) {
            tok[t].type = TDEC_OVNI_JSON_FALSE;
            tok[t].len = 5;
            i += 5;
        } else if (tdec_ovni__json_literal(text, len, i, "null", 4)) {
            tok[t].type = TDEC_OVNI_JSON_NULL;
            tok[t].len = 4;
            i += 4;
        } else {
            goto bad;
        }
        tok[t].next = t + 1;
        state = open == TDEC_OVNI__NONE ? TDEC_OVNI__J_DONE : TDEC_OVNI__J_COMMA_OR_CLOSE;
    }
bad:
    j->err_offset = i;
    /* Open containers still hold parent links in `next`: no tokens. */
    j->ntok = 0;
    return fail;
}

static int tdec_ovni__json_valid(const tdec_ovni_json *j, int32_t tok)
{
    return j != NULL && tok >= 0 && (uint32_t)tok < j->ntok;
}

static int32_t tdec_ovni__json_member(const tdec_ovni_json *j, uint32_t obj, uint32_t index)
{
    uint32_t k = obj + 1, m;
    if (!tdec_ovni__json_valid(j, (int32_t)obj) || j->tok[obj].type != TDEC_OVNI_JSON_OBJECT ||
        index >= j->tok[obj].count)
        return -1;
    for (m = 0; m < index; m++) k = j->tok[k + 1].next;
    return (int32_t)k;
}

TDEC_OVNI_DEF int32_t tdec_ovni_json_key(const tdec_ovni_json *j, uint32_t tok, uint32_t index)
{
    return tdec_ovni__json_member(j, tok, index);
}

TDEC_OVNI_DEF int32_t tdec_ovni_json_child(const tdec_ovni_json *j, uint32_t tok, uint32_t index)
{
    uint32_t k = tok + 1, m;
    int32_t key;
    if (!tdec_ovni__json_valid(j, (int32_t)tok)) return -1;
    if (j->tok[tok].type == TDEC_OVNI_JSON_OBJECT) {
        key = tdec_ovni__json_member(j, tok, index);
        return key < 0 ? -1 : key + 1;
    }
    if (j->tok[tok].type != TDEC_OVNI_JSON_ARRAY || index >= j->tok[tok].count) return -1;
    for (m = 0; m < index; m++) k = j->tok[k].next;
    return (int32_t)k;
}

TDEC_OVNI_DEF int32_t tdec_ovni_json_find(const tdec_ovni_json *j, uint32_t obj, const char *path)
{
    uint32_t cur = obj, k, m, n;
    const char *seg = path, *end;
    if (path == NULL || !tdec_ovni__json_valid(j, (int32_t)obj)) return -1;
    for (;;) {
        end = seg;
        while (*end != '\0' && *end != '.') end++;
        n = (uint32_t)(end - seg);
        if (j->tok[cur].type != TDEC_OVNI_JSON_OBJECT) return -1;
        k = cur + 1;
        for (m = 0; m < j->tok[cur].count; m++) {
            const tdec_ovni_json_token *key = &j->tok[k];
            uint32_t b = 0;
            if (key->len == n)
                while (b < n && j->text[key->start + b] == seg[b]) b++;
            if (key->len == n && b == n) break;
            k = j->tok[k + 1].next;
        }
        if (m == j->tok[cur].count) return -1;
        cur = k + 1;
        if (*end == '\0') return (int32_t)cur;
        seg = end + 1;
    }
}

TDEC_OVNI_DEF tdec_status tdec_ovni_json_int(const tdec_ovni_json *j, int32_t tok, int64_t *out)
{
    const char *s;
    uint64_t mag = 0, d;
    uint32_t k = 0, n;
    int neg = 0;
    if (!tdec_ovni__json_valid(j, tok) || out == NULL) return TDEC_E_ARG;
    if (j->tok[tok].type != TDEC_OVNI_JSON_NUMBER) return TDEC_E_FORMAT;
    s = j->text + j->tok[tok].start;
    n = j->tok[tok].len;
    if (s[0] == '-') {
        neg = 1;
        k = 1;
    }
    for (; k < n && tdec_ovni__is_digit(s[k]); k++) {
        d = (uint64_t)(s[k] - '0');
        /* Only constant divisions: no libgcc helper on 32-bit targets. */
        if (mag > UINT64_MAX / 10u || mag * 10u > UINT64_MAX - d) return TDEC_E_LIMIT;
        mag = mag * 10u + d;
    }
    if (k < n && s[k] == '.') /* a whole number written with a fraction */
        for (k++; k < n && s[k] == '0'; k++) {}
    if (k < n) return TDEC_E_FORMAT;
    if (neg ? mag > (uint64_t)INT64_MAX + 1u : mag > (uint64_t)INT64_MAX) return TDEC_E_LIMIT;
    *out = neg ? (int64_t)(0u - mag) : (int64_t)mag;
    return TDEC_OK;
}

/* Appends code point cp as UTF-8 at buf[*o] if it fits before cap - 1. */
static int tdec_ovni__put_utf8(char *buf, size_t cap, size_t *o, uint32_t cp)
{
    uint8_t b[4];
    size_t n, k;
    if (cp < 0x80u) {
        b[0] = (uint8_t)cp;
        n = 1;
    } else if (cp < 0x800u) {
        b[0] = (uint8_t)(0xC0u | (cp >> 6));
        b[1] = (uint8_t)(0x80u | (cp & 0x3Fu));
        n = 2;
    } else if (cp < 0x10000u) {
        b[0] = (uint8_t)(0xE0u | (cp >> 12));
        b[1] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
        b[2] = (uint8_t)(0x80u | (cp & 0x3Fu));
        n = 3;
    } else {
        b[0] = (uint8_t)(0xF0u | (cp >> 18));
        b[1] = (uint8_t)(0x80u | ((cp >> 12) & 0x3Fu));
        b[2] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
        b[3] = (uint8_t)(0x80u | (cp & 0x3Fu));
        n = 4;
    }
    if (cap - 1 - *o < n) return 0;
    for (k = 0; k < n; k++) buf[*o + k] = (char)b[k];
    *o += n;
    return 1;
}

static uint32_t tdec_ovni__hex4(const char *s)
{
    return (uint32_t)((tdec_ovni__hex(s[0]) << 12) | (tdec_ovni__hex(s[1]) << 8) | (tdec_ovni__hex(s[2]) << 4) |
                      tdec_ovni__hex(s[3]));
}

TDEC_OVNI_DEF tdec_status tdec_ovni_json_string(const tdec_ovni_json *j, int32_t tok, char *buf,
                                                size_t cap, size_t *len)
{
    const char *s;
    uint32_t k = 0, n, cp, lo;
    size_t o = 0;
    tdec_status st = TDEC_OK;
    char c;
    if (!tdec_ovni__json_valid(j, tok) || buf == NULL || cap == 0) return TDEC_E_ARG;
    buf[0] = '\0';
    if (len) *len = 0;
    if (j->tok[tok].type != TDEC_OVNI_JSON_STRING) return TDEC_E_FORMAT;
    s = j->text + j->tok[tok].start;
    n = j->tok[tok].len; /* the parser checked every escape is complete */
    while (k < n && st == TDEC_OK) {
        c = s[k++];
        if (c == '\\' && s[k] == 'u') {
            cp = tdec_ovni__hex4(s + k + 1);
            k += 5;
            if (cp >= 0xD800u && cp < 0xDC00u) {
                /* A high surrogate needs its low half. */
                lo = k + 6 <= n && s[k] == '\\' && s[k + 1] == 'u' ? tdec_ovni__hex4(s + k + 2) : 0;
                if (lo < 0xDC00u || lo > 0xDFFFu) {
                    st = TDEC_E_FORMAT;
                    break;
                }
                cp = 0x10000u + ((cp - 0xD800u) << 10) + (lo - 0xDC00u);
                k += 6;
            } else if (cp >= 0xDC00u && cp <= 0xDFFFu) {
                st = TDEC_E_FORMAT;
                break;
            }
            if (!tdec_ovni__put_utf8(buf, cap, &o, cp)) st = TDEC_E_LIMIT;
            continue;
        }
        if (c == '\\') {
            c = s[k++];
            switch (c) {
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            default: break; /* " \ / stand for themselves */
            }
        }
        if (o + 1 >= cap) {
            st = TDEC_E_LIMIT;
            break;
        }
        buf[o++] = c;
    }
    buf[o] = '\0';
    if (len) *len = o;
    return st;
}

/* The integer at `path` into *v, setting `bit` in m->present. */
static void tdec_ovni__meta_int(const tdec_ovni_json *j, const char *path, const char *alt, int64_t *v,
                                uint32_t bit, tdec_ovni_meta *m)
{
    int32_t t = tdec_ovni_json_find(j, 0, path);
    if (t < 0 && alt) t = tdec_ovni_json_find(j, 0, alt);
    if (t >= 0 && tdec_ovni_json_int(j, t, v) == TDEC_OK) m->present |= bit;
}

/* The token at `path` if it has `type`, setting `bit`; else -1. */
static int32_t tdec_ovni__meta_tok(const tdec_ovni_json *j, const char *path, const char *alt, uint32_t type,
                                   uint32_t bit, tdec_ovni_meta *m)
{
    int32_t t = tdec_ovni_json_find(j, 0, path);
    if (t < 0 && alt) t = tdec_ovni_json_find(j, 0, alt);
    if (t < 0 || j->tok[t].type != type) return -1;
    m->present |= bit;
    return t;
}

TDEC_OVNI_DEF tdec_status tdec_ovni_meta_read(const tdec_ovni_json *j, tdec_ovni_meta *m)
{
    if (j == NULL || m == NULL) return TDEC_E_ARG;
    if (j->ntok == 0 || j->tok[0].type != TDEC_OVNI_JSON_OBJECT) return TDEC_E_FORMAT;
    m->present = 0;
    m->version = m->app_id = m->rank = m->nranks = m->pid = m->tid = m->finished = 0;
    tdec_ovni__meta_int(j, "version", NULL, &m->version, TDEC_OVNI_META_VERSION, m);
    tdec_ovni__meta_int(j, "ovni.app_id", "app_id", &m->app_id, TDEC_OVNI_META_APP_ID, m);
    tdec_ovni__meta_int(j, "ovni.rank", "rank", &m->rank, TDEC_OVNI_META_RANK, m);
    tdec_ovni__meta_int(j, "ovni.nranks", "nranks", &m->nranks, TDEC_OVNI_META_NRANKS, m);
    tdec_ovni__meta_int(j, "ovni.pid", NULL, &m->pid, TDEC_OVNI_META_PID, m);
    tdec_ovni__meta_int(j, "ovni.tid", NULL, &m->tid, TDEC_OVNI_META_TID, m);
    tdec_ovni__meta_int(j, "ovni.finished", NULL, &m->finished, TDEC_OVNI_META_FINISHED, m);
    m->loom = tdec_ovni__meta_tok(j, "ovni.loom", NULL, TDEC_OVNI_JSON_STRING, TDEC_OVNI_META_LOOM, m);
    m->part = tdec_ovni__meta_tok(j, "ovni.part", NULL, TDEC_OVNI_JSON_STRING, TDEC_OVNI_META_PART, m);
    m->cpus = tdec_ovni__meta_tok(j, "ovni.loom_cpus", "cpus", TDEC_OVNI_JSON_ARRAY, TDEC_OVNI_META_CPUS, m);
    m->require = tdec_ovni__meta_tok(j, "ovni.require", NULL, TDEC_OVNI_JSON_OBJECT, TDEC_OVNI_META_REQUIRE, m);
    m->lib_version = tdec_ovni__meta_tok(j, "ovni.lib.version", NULL, TDEC_OVNI_JSON_STRING,
                                         TDEC_OVNI_META_LIB_VERSION, m);
    m->lib_commit = tdec_ovni__meta_tok(j, "ovni.lib.commit", NULL, TDEC_OVNI_JSON_STRING,
                                        TDEC_OVNI_META_LIB_COMMIT, m);
    m->model_version = tdec_ovni__meta_tok(j, "model_version", NULL, TDEC_OVNI_JSON_STRING,
                                           TDEC_OVNI_META_MODEL_VERSION, m);
    return TDEC_OK;
}

/* ==== event signatures and descriptions: implementation ================== */

#ifndef TDEC_NO_STRINGS
/* ovni 1.14.0's event declarations (src/emu/<model>/setup.c), the pair
   macros expanded, sorted by MCV bytes for the binary search. */
static const tdec_ovni_sig tdec_ovni__sigs[] = {
    {"6BB", "ceases blocking the current task"},
    {"6BF", "leaves a wait for"},
    {"6BU", "ceases unblocking a task"},
    {"6BW", "leaves a task wait"},
    {"6Bb", "begins blocking the current task"},
    {"6Bf", "enters a wait for"},
    {"6Bu", "begins unblocking a task"},
    {"6Bw", "enters a task wait"},
    {"6C[", "begins creating a new task"},
    {"6C]", "ceases creating a new task"},
    {"6DR", "ceases registration of task dependencies"},
    {"6DU", "ceases unregistration of task dependencies"},
    {"6Dr", "begins registration of task dependencies"},
    {"6Du", "begins unregistration of task dependencies"},
    {"6F[", "begins spawning a function via spawnFunction()"},
    {"6F]", "ceases spawning a function via spawnFunction()"},
    {"6HE", "ceases execution as external thread"},
    {"6HL", "ceases execution as leader"},
    {"6HM", "ceases execution as main thread"},
    {"6HW", "ceases execution as worker"},
    {"6He", "begins execution as external thread"},
    {"6Hl", "begins execution as leader"},
    {"6Hm", "begins execution as main thread"},
    {"6Hw", "begins execution as worker"},
    {"6MA", "stops  allocating memory"},
    {"6MF", "stops  freeing memory"},
    {"6Ma", "starts allocating memory"},
    {"6Mf", "starts freeing memory"},
    {"6O[", "begins running the task body as taskfor collaborator"},
    {"6O]", "ceases running the task body as taskfor collaborator"},
    {"6Pa", "sets progress state to Absorbing"},
    {"6Pp", "sets progress state to Progressing"},
    {"6Pr", "sets progress state to Resting"},
    {"6S@", "self assigns itself a task"},
    {"6SA", "ceases submitting a ready task via addReadyTask()"},
    {"6SP", "ceases processing ready tasks via processReadyTasks()"},
    {"6S[", "begins scheduler serving mode"},
    {"6S]", "ceases scheduler serving mode"},
    {"6Sa", "begins submitting a ready task via addReadyTask()"},
    {"6Sp", "begins processing ready tasks via processReadyTasks()"},
    {"6Sr", "receives a task from another thread"},
    {"6Ss", "sends a task to another thread"},
    {"6Tc(u32 taskid, u32 typeid)", "creates task %{taskid} with type %{typeid}"},
    {"6Te(u32 taskid)", "ends the task %{taskid}"},
    {"6Tp(u32 taskid)", "pauses the task %{taskid}"},
    {"6Tr(u32 taskid)", "resumes the task %{taskid}"},
    {"6Tx(u32 taskid)", "executes the task %{taskid}"},
    {"6U[", "begins submitting a task via submitTask()"},
    {"6U]", "ceases submitting a task via submitTask()"},
    {"6W*", "signals another worker to wake up"},
    {"6WG", "leaves sponge mode (absorbing system noise)"},
    {"6WM", "ceases migrating the current worker to another CPU"},
    {"6WR", "ceases resuming another worker via resume()"},
    {"6WS", "ceases suspending the worker via suspend()"},
    {"6WT", "ceases handling a task via handleTask()"},
    {"6WW", "ceases switching to another worker via switchTo()"},
    {"6W[", "enters worker main loop, looking for tasks"},
    {"6W]", "leaves worker main loop, looking for tasks"},
    {"6Wg", "enters sponge mode (absorbing system noise)"},
    {"6Wm", "begins migrating the current worker to another CPU"},
    {"6Wr", "begins resuming another worker via resume()"},
    {"6Ws", "begins suspending the worker via suspend()"},
    {"6Wt", "begins handling a task via handleTask()"},
    {"6Ww", "begins switching to another worker via switchTo()"},
    {"6Yc+(u32 typeid, str label)", "creates task type %{typeid} with label \"%{label}\""},
    {"6t[", "enters the task body"},
    {"6t]", "leaves the task body"},
    {"DC[", "begins creating a task"},
    {"DC]", "ceases creating a task"},
    {"DI[", "begins the inline execution of an If0 task"},
    {"DI]", "ceases the inline execution of an If0 task"},
    {"DP[", "begins spawning a function"},
    {"DP]", "ceases spawning a function"},
    {"DR[", "begins registering task accesses"},
    {"DR]", "ceases registering task accesses"},
    {"DS[", "begins submitting a task"},
    {"DS]", "ceases submitting a task"},
    {"DT[", "enters a taskwait"},
    {"DT]", "leaves a taskwait"},
    {"DU[", "begins unregistering task accesses"},
    {"DU]", "ceases unregistering task accesses"},
    {"DW[", "enters a blocking condition (waiting for an If0 task)"},
    {"DW]", "leaves a blocking condition (waiting for an If0 task)"},
    {"KCI", "back to CPU"},
    {"KCO", "out of CPU"},
    {"MAA", "leaves MPI_Alltoall()"},
    {"MAG", "leaves MPI_Allgather()"},
    {"MAR", "leaves MPI_Allreduce()"},
    {"MAa", "enters MPI_Alltoall()"},
    {"MAg", "enters MPI_Allgather()"},
    {"MAr", "enters MPI_Allreduce()"},
    {"MCB", "leaves MPI_Barrier()"},
    {"MCE", "leaves MPI_Exscan()"},
    {"MCS", "leaves MPI_Scan()"},
    {"MCb", "enters MPI_Barrier()"},
    {"MCe", "enters MPI_Exscan()"},
    {"MCs", "enters MPI_Scan()"},
    {"MDB", "leaves MPI_Bcast()"},
    {"MDG", "leaves MPI_Gather()"},
    {"MDS", "leaves MPI_Scatter()"},
    {"MDb", "enters MPI_Bcast()"},
    {"MDg", "enters MPI_Gather()"},
    {"MDs", "enters MPI_Scatter()"},
    {"MEB", "leaves MPI_Reduce_scatter_block()"},
    {"MES", "leaves MPI_Reduce_scatter()"},
    {"ME[", "enters MPI_Reduce()"},
    {"ME]", "leaves MPI_Reduce()"},
    {"MEb", "enters MPI_Reduce_scatter_block()"},
    {"MEs", "enters MPI_Reduce_scatter()"},
    {"MRO", "leaves MPI_Sendrecv_replace()"},
    {"MRS", "leaves MPI_Sendrecv()"},
    {"MR[", "enters MPI_Recv()"},
    {"MR]", "leaves MPI_Recv()"},
    {"MRo", "enters MPI_Sendrecv_replace()"},
    {"MRs", "enters MPI_Sendrecv()"},
    {"MSB", "leaves MPI_Bsend()"},
    {"MSR", "leaves MPI_Rsend()"},
    {"MSS", "leaves MPI_Ssend()"},
    {"MS[", "enters MPI_Send()"},
    {"MS]", "leaves MPI_Send()"},
    {"MSb", "enters MPI_Bsend()"},
    {"MSr", "enters MPI_Rsend()"},
    {"MSs", "enters MPI_Ssend()"},
    {"MTA", "leaves MPI_Testall()"},
    {"MTS", "leaves MPI_Testsome()"},
    {"MTY", "leaves MPI_Testany()"},
    {"MT[", "enters MPI_Test()"},
    {"MT]", "leaves MPI_Test()"},
    {"MTa", "enters MPI_Testall()"},
    {"MTs", "enters MPI_Testsome()"},
    {"MTy", "enters MPI_Testany()"},
    {"MUF", "leaves MPI_Finalize()"},
    {"MUI", "leaves MPI_Init()"},
    {"MUT", "leaves MPI_Init_thread()"},
    {"MUf", "enters MPI_Finalize()"},
    {"MUi", "enters MPI_Init()"},
    {"MUt", "enters MPI_Init_thread()"},
    {"MWA", "leaves MPI_Waitall()"},
    {"MWS", "leaves MPI_Waitsome()"},
    {"MWY", "leaves MPI_Waitany()"},
    {"MW[", "enters MPI_Wait()"},
    {"MW]", "leaves MPI_Wait()"},
    {"MWa", "enters MPI_Waitall()"},
    {"MWs", "enters MPI_Waitsome()"},
    {"MWy", "enters MPI_Waitany()"},
    {"MaA", "leaves MPI_Ialltoall()"},
    {"MaG", "leaves MPI_Iallgather()"},
    {"MaR", "leaves MPI_Iallreduce()"},
    {"Maa", "enters MPI_Ialltoall()"},
    {"Mag", "enters MPI_Iallgather()"},
    {"Mar", "enters MPI_Iallreduce()"},
    {"McB", "leaves MPI_Ibarrier()"},
    {"McE", "leaves MPI_Iexscan()"},
    {"McS", "leaves MPI_Iscan()"},
    {"Mcb", "enters MPI_Ibarrier()"},
    {"Mce", "enters MPI_Iexscan()"},
    {"Mcs", "enters MPI_Iscan()"},
    {"MdB", "leaves MPI_Ibcast()"},
    {"MdG", "leaves MPI_Igather()"},
    {"MdS", "leaves MPI_Iscatter()"},
    {"Mdb", "enters MPI_Ibcast()"},
    {"Mdg", "enters MPI_Igather()"},
    {"Mds", "enters MPI_Iscatter()"},
    {"MeB", "leaves MPI_Ireduce_scatter_block()"},
    {"MeS", "leaves MPI_Ireduce_scatter()"},
    {"Me[", "enters MPI_Ireduce()"},
    {"Me]", "leaves MPI_Ireduce()"},
    {"Meb", "enters MPI_Ireduce_scatter_block()"},
    {"Mes", "enters MPI_Ireduce_scatter()"},
    {"MrO", "leaves MPI_Isendrecv_replace()"},
    {"MrS", "leaves MPI_Isendrecv()"},
    {"Mr[", "enters MPI_Irecv()"},
    {"Mr]", "leaves MPI_Irecv()"},
    {"Mro", "enters MPI_Isendrecv_replace()"},
    {"Mrs", "enters MPI_Isendrecv()"},
    {"MsB", "leaves MPI_Ibsend()"},
    {"MsR", "leaves MPI_Irsend()"},
    {"MsS", "leaves MPI_Issend()"},
    {"Ms[", "enters MPI_Isend()"},
    {"Ms]", "leaves MPI_Isend()"},
    {"Msb", "enters MPI_Ibsend()"},
    {"Msr", "enters MPI_Irsend()"},
    {"Mss", "enters MPI_Issend()"},
    {"OAr(i32 cpu, i32 tid)", "changes the affinity of thread %{tid} to CPU %{cpu}"},
    {"OAs(i32 cpu)", "switches it's own affinity to the CPU %{cpu}"},
    {"OB.", "emits a burst event to measure latency"},
    {"OCn(i32 cpu)", "informs there are %{cpu} CPUs"},
    {"OF[", "begins flushing events to disk"},
    {"OF]", "ceases flushing events to disk"},
    {"OHC(i32 cpu, u64 tag)", "creates a new thread on CPU %{cpu} with tag %#llx{tag}"},
    {"OHc", "enters the Cooling state (about to be paused)"},
    {"OHe", "ends the execution"},
    {"OHp", "pauses the execution"},
    {"OHr", "resumes the execution"},
    {"OHw", "enters the Warming state (about to be running)"},
    {"OHx(i32 cpu, i32 tid, u64 tag)", "begins the execution on CPU %{cpu} created from %{tid} with tag %#llx{tag}"},
    {"OM=(i64 value, i32 type)", "set mark with value %{value} from type %{type}"},
    {"OM[(i64 value, i32 type)", "push mark with value %{value} from type %{type}"},
    {"OM](i64 value, i32 type)", "pop mark with value %{value} from type %{type}"},
    {"OU[", "enters unordered event region"},
    {"OU]", "leaves unordered event region"},
    {"PA[", "enters the attached state"},
    {"PA]", "leaves the attached state"},
    {"PBB", "ceases plain barrier"},
    {"PBF", "ceases fork barrier"},
    {"PBJ", "ceases join barrier"},
    {"PBS", "ceases spin wait"},
    {"PBT", "ceases tasking barrier"},
    {"PBb", "begins plain barrier"},
    {"PBf", "begins fork barrier"},
    {"PBj", "begins join barrier"},
    {"PBs", "begins spin wait"},
    {"PBt", "begins tasking barrier"},
    {"PCF", "ceases fork call"},
    {"PCI", "ceases initialization"},
    {"PCf", "begins fork call"},
    {"PCi", "begins initialization"},
    {"PH[", "begins worker loop"},
    {"PH]", "ceases worker loop"},
    {"PIA", "ceases critical acquiring"},
    {"PIR", "ceases critical releasing"},
    {"PI[", "begins critical section"},
    {"PI]", "ceases critical section"},
    {"PIa", "begins critical acquiring"},
    {"PIr", "begins critical releasing"},
    {"PMI", "ceases microtask internal"},
    {"PMU", "ceases microtask user code"},
    {"PMi", "begins microtask internal"},
    {"PMu", "begins microtask user code"},
    {"POc+(u32 typeid, str label)", "creates a type %{typeid} with label \"%{label}\""},
    {"PPc(u32 taskid, u32 typeid)", "creates the task %{taskid} with type %{typeid}"},
    {"PPe(u32 taskid)", "ends the task %{taskid}"},
    {"PPx(u32 taskid)", "executes the task %{taskid}"},
    {"PQe(u32 typeid)", "ends worksharing with type %{typeid}"},
    {"PQx(u32 typeid)", "begins worksharing with type %{typeid}"},
    {"PTA", "ceases task allocation"},
    {"PTC", "ceases checking task dependencies"},
    {"PTD", "ceases duplicating a task"},
    {"PTG", "ceases a taskgroup"},
    {"PTI", "ceases running an if0 task"},
    {"PTR", "ceases releasing task dependencies"},
    {"PTS", "ceases scheduling a task"},
    {"PTT", "ceases a taskwait"},
    {"PTW", "ceases waiting for taskwait dependencies"},
    {"PTY", "ceases a taskyield"},
    {"PT[", "begins running a task"},
    {"PT]", "ceases running a task"},
    {"PTa", "begins task allocation"},
    {"PTc", "begins checking task dependencies"},
    {"PTd", "begins duplicating a task"},
    {"PTg", "begins a taskgroup"},
    {"PTi", "begins running an if0 task"},
    {"PTr", "begins releasing task dependencies"},
    {"PTs", "begins scheduling a task"},
    {"PTt", "begins a taskwait"},
    {"PTw", "begins waiting for taskwait dependencies"},
    {"PTy", "begins a taskyield"},
    {"PWC", "ceases dynamic for chunk"},
    {"PWD", "ceases distribute"},
    {"PWE", "ceases section"},
    {"PWI", "ceases single"},
    {"PWS", "ceases static for"},
    {"PWY", "ceases dynamic for init"},
    {"PWc", "begins dynamic for chunk"},
    {"PWd", "begins distribute"},
    {"PWe", "begins section"},
    {"PWi", "begins single"},
    {"PWs", "begins static for"},
    {"PWy", "begins dynamic for init"},
    {"TCI", "stops  issuing a non-blocking communication operation"},
    {"TCi", "starts issuing a non-blocking communication operation"},
    {"TGC", "stops  checking pending requests from the global array"},
    {"TGc", "starts checking pending requests from the global array"},
    {"TLI", "leaves the library code at an API function"},
    {"TLP", "leaves the library code at a polling function"},
    {"TLi", "enters the library code at an API function"},
    {"TLp", "enters the library code at a polling function"},
    {"TQA", "stops  adding a ticket/requests to a queue"},
    {"TQT", "stops  transferring tickets/requests from queues to global array"},
    {"TQa", "starts adding a ticket/requests to a queue"},
    {"TQt", "starts transferring tickets/requests from queues to global array"},
    {"TRA", "stops  testing several requests with MPI_Testall"},
    {"TRC", "stops  processsing a completed request"},
    {"TRS", "stops  testing several requests with MPI_Testsome"},
    {"TRT", "stops  testing a single request with MPI_Test"},
    {"TRa", "starts testing several requests with MPI_Testall"},
    {"TRc", "starts processsing a completed request"},
    {"TRs", "starts testing several requests with MPI_Testsome"},
    {"TRt", "starts testing a single request with MPI_Test"},
    {"TTC", "stops  creating a ticket linked to a set of requests and a task"},
    {"TTW", "stops  waiting for a ticket completion"},
    {"TTc", "starts creating a ticket linked to a set of requests and a task"},
    {"TTw", "starts waiting for a ticket completion"},
    {"VAA", "leaves nosv_attach()"},
    {"VAB", "leaves nosv_barrier_wait()"},
    {"VAC", "leaves nosv_schedpoint()"},
    {"VAD", "leaves nosv_destroy()"},
    {"VAE", "leaves nosv_detach()"},
    {"VAG", "leaves nosv_cond_signal()"},
    {"VAI", "leaves nosv_wait()"},
    {"VAJ", "leaves nosv_join()"},
    {"VAK", "leaves nosv_cond_broadcast()"},
    {"VAL", "leaves nosv_mutex_lock()"},
    {"VAM", "leaves nosv_join_all()"},
    {"VAN", "leaves nosv_wait_all()"},
    {"VAO", "leaves nosv_cond_wait()"},
    {"VAP", "leaves nosv_pause()"},
    {"VAR", "leaves nosv_create()"},
    {"VAS", "leaves nosv_submit()"},
    {"VAT", "leaves nosv_mutex_trylock()"},
    {"VAU", "leaves nosv_mutex_unlock()"},
    {"VAW", "leaves nosv_waitfor()"},
    {"VAY", "leaves nosv_yield()"},
    {"VAa", "enters nosv_attach()"},
    {"VAb", "enters nosv_barrier_wait()"},
    {"VAc", "enters nosv_schedpoint()"},
    {"VAd", "enters nosv_destroy()"},
    {"VAe", "enters nosv_detach()"},
    {"VAg", "enters nosv_cond_signal()"},
    {"VAi", "enters nosv_wait()"},
    {"VAj", "enters nosv_join()"},
    {"VAk", "enters nosv_cond_broadcast()"},
    {"VAl", "enters nosv_mutex_lock()"},
    {"VAm", "enters nosv_join_all()"},
    {"VAn", "enters nosv_wait_all()"},
    {"VAo", "enters nosv_cond_wait()"},
    {"VAp", "enters nosv_pause()"},
    {"VAr", "enters nosv_create()"},
    {"VAs", "enters nosv_submit()"},
    {"VAt", "enters nosv_mutex_trylock()"},
    {"VAu", "enters nosv_mutex_unlock()"},
    {"VAw", "enters nosv_waitfor()"},
    {"VAy", "enters nosv_yield()"},
    {"VHA", "leaves nosv_dettach()"},
    {"VHD", "ceases execution as delegate"},
    {"VHW", "ceases execution as worker"},
    {"VHa", "enters nosv_attach()"},
    {"VHd", "begins execution as delegate"},
    {"VHw", "begins execution as worker"},
    {"VMA", "stops  allocating memory"},
    {"VMF", "stops  freeing memory"},
    {"VMa", "starts allocating memory"},
    {"VMf", "starts freeing memory"},
    {"VPa", "sets progress state to Absorbing"},
    {"VPp", "sets progress state to Progressing"},
    {"VPr", "sets progress state to Resting"},
    {"VS@", "self assigns itself a task"},
    {"VSN", "enters scheduler server non-blocking mode"},
    {"VS[", "enters scheduler server blocking mode"},
    {"VS]", "leaves scheduler server blocking mode"},
    {"VSf", "is no longer hungry"},
    {"VSh", "enters the hungry state, waiting for work"},
    {"VSn", "leaves scheduler server non-blocking mode"},
    {"VSr", "receives a task from another thread"},
    {"VSs", "sends a task to another thread"},
    {"VTC(u32 taskid, u32 typeid)", "creates parallel task %{taskid} with type %{typeid}"},
    {"VTc(u32 taskid, u32 typeid)", "creates task %{taskid} with type %{typeid}"},
    {"VTe(u32 taskid, u32 bodyid)", "ends the task %{taskid} with bodyid %{bodyid}"},
    {"VTp(u32 taskid, u32 bodyid)", "pauses the task %{taskid} with bodyid %{bodyid}"},
    {"VTr(u32 taskid, u32 bodyid)", "resumes the task %{taskid} with bodyid %{bodyid}"},
    {"VTx(u32 taskid, u32 bodyid)", "executes the task %{taskid} with bodyid %{bodyid}"},
    {"VU[", "starts submitting a task"},
    {"VU]", "stops  submitting a task"},
    {"VWC+(i64 value)", "set hardware counters (first %{value})"},
    {"VYc+(u32 typeid, str label)", "creates task type %{typeid} with label \"%{label}\""},
};
#define TDEC_OVNI__NSIGS (sizeof tdec_ovni__sigs / sizeof tdec_ovni__sigs[0])
#endif

TDEC_OVNI_DEF const tdec_ovni_sig *tdec_ovni_sig_find(const uint8_t mcv[3])
{
#ifdef TDEC_NO_STRINGS
    (void)mcv;
    return NULL;
#else
    size_t lo = 0, hi = TDEC_OVNI__NSIGS, mid;
    int k, cmp;
    if (mcv == NULL) return NULL;
    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        cmp = 0;
        for (k = 0; k < 3 && cmp == 0; k++)
            cmp = (int)(uint8_t)tdec_ovni__sigs[mid].signature[k] - (int)mcv[k];
        if (cmp == 0) return &tdec_ovni__sigs[mid];
        if (cmp < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
#endif
}

TDEC_OVNI_DEF const char *tdec_ovni_model_str(uint8_t model)
{
#ifdef TDEC_NO_STRINGS
    return model == 'O' || model == '6' || model == 'V' || model == 'D' || model == 'T' || model == 'M' ||
                   model == 'K' || model == 'P' ? "" : NULL;
#else
    switch (model) {
    case 'O': return "ovni";
    case '6': return "nanos6";
    case 'V': return "nosv";
    case 'D': return "nodes";
    case 'T': return "tampi";
    case 'M': return "mpi";
    case 'K': return "kernel";
    case 'P': return "openmp";
    default:  return NULL;
    }
#endif
}

/* Field types of signatures. */
enum tdec_ovni__ftype { TDEC_OVNI__U, TDEC_OVNI__I, TDEC_OVNI__STR };

/* At most this many fields in a signature, as ovni's MAX_ARGS. */
#define TDEC_OVNI__MAX_FIELDS 16

/* A field of a signature. */
typedef struct tdec_ovni__field {
    const char *name;     /* in the signature text                              */
    uint16_t    name_len; /* small: describe() keeps 16 fields on the stack     */
    uint8_t     offset;   /* within ovni's payload (jumbo: after the u32 length) */
                          /* at most 4 + 16 * 8                                  */
    uint8_t     size;     /* 1, 2, 4, 8; 0 for str                               */
    uint8_t     type;     /* TDEC_OVNI__U, _I or _STR                            */
} tdec_ovni__field;

static int tdec_ovni__same(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t k;
    if (alen != blen) return 0;
    for (k = 0; k < alen; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* Parses signature `sig` into f[0..*n). Offsets add up the sizes of the
   fields before, as ovni computes them. Returns 0, or -1 when the signature
   is malformed or has more than TDEC_OVNI__MAX_FIELDS fields. */
static int tdec_ovni__parse_sig(const char *sig, tdec_ovni__field *f, uint32_t *n)
{
    static const struct { const char *name; size_t nlen; uint32_t size; int type; } types[] = {
        {"u8", 2, 1, TDEC_OVNI__U},  {"u16", 3, 2, TDEC_OVNI__U}, {"u32", 3, 4, TDEC_OVNI__U},
        {"u64", 3, 8, TDEC_OVNI__U}, {"i8", 2, 1, TDEC_OVNI__I},  {"i16", 3, 2, TDEC_OVNI__I},
        {"i32", 3, 4, TDEC_OVNI__I}, {"i64", 3, 8, TDEC_OVNI__I}, {"str", 3, 0, TDEC_OVNI__STR}};
    const char *p = sig, *word, *fname;
    size_t wlen, flen, t;
    uint32_t offset = 0;
    *n = 0;
    if (p[0] == '\0' || p[1] == '\0' || p[2] == '\0') return -1;
    p += 3;
    if (*p == '+') { /* jumbo: fields start after the u32 blob length */
        offset = 4;
        p++;
    }
    if (*p == '\0') return 0;
    if (*p++ != '(') return -1;
    for (;;) {
        while (*p == ' ') p++;
        for (word = p; *p != '\0' && *p != ' ' && *p != ',' && *p != ')'; p++) {}
        wlen = (size_t)(p - word);
        while (*p == ' ') p++;
        for (fname = p; *p != '\0' && *p != ' ' && *p != ',' && *p != ')'; p++) {}
        flen = (size_t)(p - fname);
        while (*p == ' ') p++;
        if (wlen == 0 || flen == 0 || flen > 0xFFFFu || (*p != ',' && *p != ')') || *n == TDEC_OVNI__MAX_FIELDS)
            return -1;
        for (t = 0; t < sizeof types / sizeof types[0]; t++)
            if (tdec_ovni__same(word, wlen, types[t].name, types[t].nlen)) break;
        if (t == sizeof types / sizeof types[0]) return -1;
        if (types[t].type == TDEC_OVNI__STR && *p != ')') return -1; /* str runs to the end */
        f[*n].name = fname;
        f[*n].name_len = (uint16_t)flen;
        f[*n].offset = (uint8_t)offset;
        f[*n].size = (uint8_t)types[t].size;
        f[*n].type = (uint8_t)types[t].type;
        (*n)++;
        offset += types[t].size;
        if (*p++ == ')') return *p == '\0' ? 0 : -1;
    }
}

/* The payload of one event as the formatter sees it: ev->payload, then for
   jumbo events the blob prefix the caller has. */
typedef struct tdec_ovni__view {
    const tdec_ovni_record *ev;
    const uint8_t         *blob;
    size_t                 blob_len;
    uint64_t               total; /* payload bytes the event has */
} tdec_ovni__view;

/* Byte `off` of the payload: TDEC_OK, TDEC_E_CORRUPT (beyond the event),
   TDEC_E_TRUNCATED (in the blob, beyond what the caller passed). */
static tdec_status tdec_ovni__byte(const tdec_ovni__view *v, uint64_t off, uint8_t *b)
{
    if (off >= v->total) return TDEC_E_CORRUPT;
    if (off < v->ev->payload_len) {
        *b = v->ev->payload[off];
        return TDEC_OK;
    }
    off -= v->ev->payload_len;
    if (off >= v->blob_len) return TDEC_E_TRUNCATED;
    *b = v->blob[off];
    return TDEC_OK;
}

/* A printf-style conversion: %[#0-]*[width][length]conv. */
typedef tdec_ovni_desc_conv tdec_ovni__conv;

/* Parses the conversion between '%' and '{' at *pp. Returns 0 or -1. */
static int tdec_ovni__parse_conv(const char **pp, tdec_ovni__conv *c)
{
    const char *p = *pp;
    c->width = 0;
    c->conv = 0;
    c->alt = c->zero = c->left = 0;
    if (*p == '{') return 0;
    for (;; p++) {
        if (*p == '#') c->alt = 1;
        else if (*p == '0') c->zero = 1;
        else if (*p == '-') c->left = 1;
        else break;
    }
    while (*p >= '0' && *p <= '9') {
        c->width = c->width * 10u + (uint32_t)(*p++ - '0');
        if (c->width > 4096u) return -1;
    }
    while (*p == 'h' || *p == 'l' || *p == 'j' || *p == 'z' || *p == 't' || *p == 'L' || *p == 'q') p++;
    if (*p != 'd' && *p != 'i' && *p != 'u' && *p != 'x' && *p != 'X' && *p != 's') return -1;
    c->conv = *p++;
    if (*p != '{') return -1;
    *pp = p;
    return 0;
}

/* Output with ovnidump's room rule: `room` is cap - 1 (the NUL's place is
   kept), a field must leave one byte of room. */
typedef struct tdec_ovni__out {
    char  *buf;
    size_t len, room;
} tdec_ovni__out;

static void tdec_ovni__put(tdec_ovni__out *o, char c)
{
    o->buf[o->len++] = c;
    o->room--;
}

/* *v /= 10, returning the remainder, with 32-bit divisions by a constant
   only: a freestanding 32-bit build has no 64-bit division helper. */
static uint32_t tdec_ovni__divmod10(uint64_t *v)
{
    uint32_t hi = (uint32_t)(*v >> 32), lo = (uint32_t)*v, mid, low;
    mid = ((hi % 10u) << 16) | (lo >> 16); /* < 10 * 2^16: no overflow */
    low = ((mid % 10u) << 16) | (lo & 0xFFFFu);
    *v = ((uint64_t)(hi / 10u) << 32) | ((uint64_t)(mid / 10u) << 16) | (low / 10u);
    return low % 10u;
}

/* Renders one integer field. */
static tdec_status tdec_ovni__put_int(tdec_ovni__out *o, const tdec_ovni__conv *c, const tdec_ovni__field *f,
                                      uint64_t raw)
{
    char digits[24], prefix[3];
    uint32_t nd = 0, np = 0, n, pad, k, w;
    uint64_t mag = raw;
    uint32_t bits = f->size * 8u;
    char conv = c->conv ? c->conv : (f->type == TDEC_OVNI__I ? 'd' : 'u');
    unsigned base = (conv == 'x' || conv == 'X') ? 16u : 10u;
    const char *hex = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";

    if (conv == 's') return TDEC_E_FORMAT;
    if (bits < 64) mag &= ((uint64_t)1 << bits) - 1u; /* the field's own width */
    if ((conv == 'd' || conv == 'i') && f->type == TDEC_OVNI__I && bits > 0 &&
        (mag >> (bits - 1)) != 0) {
        prefix[np++] = '-';
        mag = (bits < 64 ? ((uint64_t)1 << bits) : 0u) - mag; /* two's complement magnitude */
    } else if (base == 10 && c->width == 0 && mag <= UINT32_MAX) { /* the usual case: digits only */
        for (w = (uint32_t)mag; w >= 10u; w /= 10u) digits[nd++] = (char)('0' + w % 10u);
        digits[nd++] = (char)('0' + w);
        if (nd >= o->room) return TDEC_E_LIMIT;
        o->room -= nd;
        while (nd > 0) o->buf[o->len++] = digits[--nd];
        return TDEC_OK;
    }
    if (base == 16 && c->alt && mag != 0) {
        prefix[np++] = '0';
        prefix[np++] = conv;
    }
    if (base == 16) {
        do {
            digits[nd++] = hex[mag & 15u];
            mag >>= 4;
        } while (mag != 0);
    } else {
        while (mag > UINT32_MAX) digits[nd++] = (char)('0' + tdec_ovni__divmod10(&mag));
        for (w = (uint32_t)mag; w >= 10u; w /= 10u) digits[nd++] = (char)('0' + w % 10u);
        digits[nd++] = (char)('0' + w);
    }
    n = np + nd;
    pad = c->width > n ? c->width - n : 0;
    if ((uint64_t)n + pad >= o->room) return TDEC_E_LIMIT;
    if (!c->left && !c->zero)
        for (k = 0; k < pad; k++) tdec_ovni__put(o, ' ');
    for (k = 0; k < np; k++) tdec_ovni__put(o, prefix[k]);
    if (!c->left && c->zero)
        for (k = 0; k < pad; k++) tdec_ovni__put(o, '0');
    while (nd > 0) tdec_ovni__put(o, digits[--nd]);
    if (c->left)
        for (k = 0; k < pad; k++) tdec_ovni__put(o, ' ');
    return TDEC_OK;
}

/* Renders one str field: bytes from its offset to a NUL or the payload end. */
static tdec_status tdec_ovni__put_str(tdec_ovni__out *o, const tdec_ovni__conv *c, const tdec_ovni__view *v,
                                      uint64_t off)
{
    uint64_t n = 0, k, pad;
    uint8_t b = 0;
    tdec_status st;
    if (c->conv != 0 && c->conv != 's') return TDEC_E_FORMAT;
    if (off > v->total) return TDEC_E_CORRUPT;
    /* First the length, so that padding can go first. */
    for (;;) {
        st = tdec_ovni__byte(v, off + n, &b);
        if (st == TDEC_E_CORRUPT) break; /* the payload ends the string */
        if (st != TDEC_OK) return st;
        if (b == 0) break;
        if (++n >= o->room) return TDEC_E_LIMIT;
    }
    pad = c->width > n ? c->width - n : 0;
    if (n + pad >= o->room) return TDEC_E_LIMIT;
    if (!c->left)
        for (k = 0; k < pad; k++) tdec_ovni__put(o, ' ');
    for (k = 0; k < n; k++) {
        (void)tdec_ovni__byte(v, off + k, &b);
        tdec_ovni__put(o, (char)b);
    }
    if (c->left)
        for (k = 0; k < pad; k++) tdec_ovni__put(o, ' ');
    return TDEC_OK;
}

/* Part kinds. */
enum { TDEC_OVNI__PART_END, TDEC_OVNI__PART_PERCENT, TDEC_OVNI__PART_FIELD, TDEC_OVNI__PART_BAD };

TDEC_OVNI_DEF tdec_status tdec_ovni_desc_prepare(tdec_ovni_desc *d, const tdec_ovni_sig *sig)
{
    const char *t, *run, *name;
    tdec_ovni__field fields[TDEC_OVNI__MAX_FIELDS];
    tdec_ovni_desc_part *p;
    uint32_t nfields, i;
    size_t nlen;

    if (d == NULL || sig == NULL || sig->signature == NULL || sig->description == NULL) return TDEC_E_ARG;
    d->text = sig->description;
    d->nparts = 0;
    if (tdec_ovni__parse_sig(sig->signature, fields, &nfields) != 0) return TDEC_E_FORMAT;
    for (t = sig->description;;) {
        if (d->nparts == TDEC_OVNI_DESC_PARTS) return TDEC_E_FORMAT;
        p = &d->part[d->nparts++];
        for (run = t; *t != '\0' && *t != '%'; t++) {}
        p->lit_off = (uint32_t)(run - sig->description);
        p->lit_len = (uint32_t)(t - run);
        p->conv.width = 0;
        p->conv.conv = 0;
        p->conv.alt = p->conv.zero = p->conv.left = 0;
        p->offset = p->size = p->type = 0;
        if (*t == '\0') {
            p->kind = TDEC_OVNI__PART_END;
            return TDEC_OK;
        }
        t++;
        if (*t == '%') {
            p->kind = TDEC_OVNI__PART_PERCENT;
            t++;
            continue;
        }
        p->kind = TDEC_OVNI__PART_BAD; /* unless all of it parses */
        if (tdec_ovni__parse_conv(&t, &p->conv) < 0) return TDEC_OK;
        name = ++t; /* after '{' */
        while ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9')) t++;
        nlen = (size_t)(t - name);
        for (i = 0; i < nfields; i++)
            if (tdec_ovni__same(fields[i].name, fields[i].name_len, name, nlen)) break;
        if (nlen == 0 || *t++ != '}' || i == nfields) return TDEC_OK;
        p->kind = TDEC_OVNI__PART_FIELD;
        p->offset = fields[i].offset;
        p->size = fields[i].size;
        p->type = fields[i].type;
    }
}

TDEC_OVNI_DEF tdec_status tdec_ovni_desc_render(const tdec_ovni_desc *d, const tdec_ovni_record *ev,
                                                const uint8_t *blob, size_t blob_len, char *buf,
                                                size_t cap, size_t *len)
{
    const tdec_ovni_desc_part *p;
    tdec_ovni__out o;
    tdec_ovni__view v;
    tdec_ovni__field f;
    tdec_status st = TDEC_OK;
    uint64_t raw;
    uint8_t b = 0;
    uint32_t i, k, n;

    if (d == NULL || d->text == NULL || ev == NULL || buf == NULL || cap == 0 || (blob == NULL && blob_len > 0) ||
        ev->payload_len > sizeof ev->payload || (ev->jumbo && ev->payload_len != 4))
        return TDEC_E_ARG;
    o.buf = buf;
    o.len = 0;
    o.room = cap - 1;
    v.ev = ev;
    v.blob = blob;
    v.blob_len = blob_len;
    v.total = ev->payload_len + (ev->jumbo ? (uint64_t)ev->jumbo_len : 0u);

    for (i = 0; i < d->nparts && st == TDEC_OK; i++) {
        p = &d->part[i];
        if (p->lit_len > 0) { /* literal text, up to the room left */
            if (o.room == 0) {
                st = TDEC_E_LIMIT;
                break;
            }
            n = p->lit_len < o.room ? p->lit_len : (uint32_t)o.room;
            TDEC_MEMCPY(o.buf + o.len, d->text + p->lit_off, n);
            o.len += n;
            o.room -= n;
            if (n < p->lit_len) {
                st = TDEC_E_LIMIT;
                break;
            }
        }
        if (p->kind == TDEC_OVNI__PART_END) break;
        if (o.room == 0) {
            st = TDEC_E_LIMIT;
            break;
        }
        if (p->kind == TDEC_OVNI__PART_PERCENT) {
            tdec_ovni__put(&o, '%');
            continue;
        }
        if (p->kind == TDEC_OVNI__PART_BAD) {
            st = TDEC_E_FORMAT;
            break;
        }
        if (p->type == TDEC_OVNI__STR) {
            st = tdec_ovni__put_str(&o, &p->conv, &v, p->offset);
            continue;
        }
        f.size = p->size;
        f.type = p->type;
        raw = 0;
        if (!ev->big_endian && p->offset + p->size <= ev->payload_len) { /* the usual case */
            const uint8_t *at = ev->payload + p->offset;
            raw = p->size == 8 ? tdec__rd_u64le(at)
                : p->size == 4 ? tdec__rd_u32le(at)
                : p->size == 2 ? tdec__rd_u16le(at) : at[0];
            st = tdec_ovni__put_int(&o, &p->conv, &f, raw);
            continue;
        }
        for (k = 0; k < p->size && st == TDEC_OK; k++) {
            st = tdec_ovni__byte(&v, (uint64_t)p->offset + k, &b);
            /* Fields are in the writer's byte order. */
            if (ev->big_endian) raw = (raw << 8) | b;
            else raw |= (uint64_t)b << (8u * k);
        }
        if (st == TDEC_OK) st = tdec_ovni__put_int(&o, &p->conv, &f, raw);
    }
    buf[o.len] = '\0';
    if (len) *len = o.len;
    return st;
}

TDEC_OVNI_DEF tdec_status tdec_ovni_describe(const tdec_ovni_sig *sig, const tdec_ovni_record *ev,
                                             const uint8_t *blob, size_t blob_len, char *buf,
                                             size_t cap, size_t *len)
{
    tdec_ovni_desc d;
    tdec_status st;
    if (sig == NULL || sig->signature == NULL || sig->description == NULL || ev == NULL || buf == NULL ||
        cap == 0 || (blob == NULL && blob_len > 0) || ev->payload_len > sizeof ev->payload ||
        (ev->jumbo && ev->payload_len != 4))
        return TDEC_E_ARG;
    buf[0] = '\0';
    if (len) *len = 0;
    st = tdec_ovni_desc_prepare(&d, sig);
    if (st != TDEC_OK) return st;
    return tdec_ovni_desc_render(&d, ev, blob, blob_len, buf, cap, len);
}

#undef TDEC_OVNI__HDR_SIZE
#undef TDEC_OVNI__EV_SIZE
#undef TDEC_OVNI__JUMBO_SIZE
#undef TDEC_OVNI__MAX_EVENT
#undef TDEC_OVNI__NONE
#undef TDEC_OVNI__NSIGS
#undef TDEC_OVNI__MAX_FIELDS

#endif /* TDEC_OVNI_IMPL_INCLUDED */
#endif /* TDEC_OVNI_IMPLEMENTATION */
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
