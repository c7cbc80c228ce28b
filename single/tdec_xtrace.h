/* tdec_xtrace.h - Kunpeng xtrace decoder (AArch64 instruction streams and
   register snapshots) - tracedec 0.1
   MIT licensed, see the end of this file.

   USAGE
     Exactly one .c file of your program defines the implementation:
         #define TDEC_XTRACE_IMPLEMENTATION    (or TRACEDEC_IMPLEMENTATION)
         #include "tdec_xtrace.h"
     Every other file includes the header without the define.

     One decoder reads one file: an instruction stream
     (xtrace.{ts}.{id}.hint{9|13}.xinsndata.bin, cfg.kind =
     TDEC_XTRACE_KIND_INSN, the default) or a snapshot file (...xsnapshot.bin,
     cfg.kind = TDEC_XTRACE_KIND_SNAPSHOT, with cfg.vl). The loop (the same
     for every tracedec format):
         tdec_xtrace_decoder d;  tdec_xtrace_item it;  tdec_status st;
         st = tdec_xtrace_init(&d, &cfg);
         while (st >= 0) {
             st = tdec_xtrace_next(&d, &it);
             if (st == TDEC_OK) { use(&it); continue; }
             if (st != TDEC_NEED_INPUT) break;       END, or error: d.st.err_offset
             n = read_some(buf, sizeof buf);          buf may be reused now
             st = n ? tdec_xtrace_feed(&d, buf, n) : tdec_xtrace_finish(&d);
         }

     Items come in file order: one record per token of an instruction
     stream, one record per part of a snapshot (see ITEMS below); memory
     values over 8 bytes, vector registers and data the config asks for
     follow their record as TDEC_ITEM_FRAGMENT items. xtrace files have no
     sync points, so there is no resync() and no gap item.

     Beside the decoder: tdec_xtrace_snap_view() decodes one snapshot held
     whole in a caller buffer, tdec_xtrace_snap_detect() finds a snapshot
     file's vector length, and tdec_xtrace_parse_name() / _is_pair() /
     _pair_name() read the file names.

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
     - An xtrace file leaves nothing for the end to decide, so finish()
       never returns TDEC_NEED_INPUT: TDEC_END at a token (or snapshot)
       boundary, TDEC_E_TRUNCATED elsewhere (err_offset = the start of the
       cut token, its ALLGPR registers, iovec entries and data included;
       snapshots: of the cut part). A second finish() returns the same;
       feed() after finish() is TDEC_E_SEQUENCE.
     - Errors are sticky: next(), feed() and finish() return the same error
       until reset(). d.st.err_offset is the stream offset of the token (or
       snapshot part) that failed and d.st.err_reason a TDEC_XTRACE_R_* code
       (tdec_xtrace_reason_str()); for an unknown token d.bad_token is its
       byte. TDEC_E_ARG and TDEC_E_SEQUENCE are returned without changing
       the decoder.
     - reset() forgets the stream, errors included, and keeps the config:
       the decoder is as after init().
     - Any split of the input into chunks gives the same items (fragments
       aside, which reassemble to the same bytes).

   MEMORY
     No allocation. The decoder is one caller-owned struct that holds no
     pointer into itself and may be copied with memcpy; cfg.token_size is
     the only pointer it keeps (the caller's table, which must outlive the
     decoder). Its size, the item's and that of the snapshot view a caller
     passes to tdec_xtrace_snap_view(), measured with sizeof on x86_64 and
     on arm-none-eabi-gcc -mcpu=cortex-m4:
       sizeof(tdec_xtrace_decoder) = 264 on LP64, 256 on ILP32 (Cortex-M)
       sizeof(tdec_xtrace_item) = 96 on LP64, 96 on ILP32 (Cortex-M)
       sizeof(tdec_xtrace_snapshot) = 800 on LP64, 600 on ILP32 (Cortex-M)

   OPTIONS
     TDEC_XTRACE_IMPLEMENTATION / TRACEDEC_IMPLEMENTATION  [impl TU] emit code
     TDEC_STATIC / TDEC_XTRACE_STATIC                       [impl TU] internal linkage
     TDEC_XTRACE_DEF                                        [impl TU] decoration override
     TDEC_NO_STRINGS                                        [any TU]  *_str() return ""

   SECURITY
     Every input byte is untrusted. The decoder never reads outside the
     current window or its carry, never writes outside *out and the decoder,
     does constant work per input byte, and never sizes anything from a
     declared length (SYSCALL_VEC counts and iovec lengths are checked
     against limits with checked arithmetic). See README.md, "Trust model".

   THE FORMAT
     No public reader or sample exists; the only description is a Chinese
     article whose figures are missing. Where its text allows more than one
     reading (byte order, the TIME token's size, iovec data, the snapshot
     header...), the reading is an option of the config, and
     docs/xtrace.md lists each one with its default.

   ITEMS: INSTRUCTION STREAM
     One RECORD per token, in file order (types TDEC_XTRACE_REC_*):
       INST, PCINST       an instruction: index (0, 1, ...), el, insn, pc
                          (PCINST sets it; INST adds 4; before the first
                          PCINST the PC is unknown: TDEC_XTRACE_PC_KNOWN
                          clear, pc 0)
       LOAD, STORE        addr, size_log2 (k: 2^k bytes); the value in
                          `value` when 2^k <= 8, else as data_len FRAGMENT
                          bytes (up to 32 KiB)
       VAL                val_kind (TDEC_XTRACE_VAL_*), value
       ALLGPR             followed by 32 REG records (X0..X31)
       MISC_FLAGS         value (NZCV)
       SYSCALL_VEC        value = N, followed by N IOVEC records (addr =
                          base, value = length; with
                          TDEC_XTRACE_F_IOVEC_DATA each followed by `length`
                          bytes as fragments)
       TIME               value (cfg.time_size bytes)
       UNKNOWN            a token of unknown size whose size the caller
                          gave in cfg.token_size: data_len bytes follow as
                          fragments
     Every record after the first instruction carries the index, pc, el and
     flags of the instruction it belongs to (the last one decoded);
     TDEC_XTRACE_HAS_INSN is clear before the first instruction.

   ITEMS: SNAPSHOT FILE
     SNAP_HEADER (when the file has the 24-byte header), then per snapshot:
     SNAPSHOT (file_no, snap_index, user_insns, total_insns in addr, value,
     ... see tdec_xtrace_record), REG records X0..X31, VREG records Z0..Z31,
     P0..P15, FFR, ZA (each followed by data_len bytes as fragments), REG
     records for the 11 system registers, and the REG record VL, which must
     equal cfg.vl (else TDEC_E_CORRUPT). tdec_xtrace_snap_view() decodes one
     snapshot held whole in a caller buffer instead, with views for Z/P/FFR/ZA.
*/
#ifndef TDEC_XTRACE_H_INCLUDED
#define TDEC_XTRACE_H_INCLUDED

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

#ifndef TDEC_XTRACE_DEF
#if defined(TDEC_XTRACE_STATIC) || defined(TDEC_STATIC)
#if defined(__GNUC__) || defined(__clang__)
/* A static build must not warn about the API functions a TU does not call. */
#define TDEC_XTRACE_DEF static __attribute__((unused))
#else
#define TDEC_XTRACE_DEF static
#endif
#else
#define TDEC_XTRACE_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== decoder ============================================================ */

/* File kinds (config kind; tdec_xtrace_name.kind). */
#define TDEC_XTRACE_KIND_INSN     0u /* xinsndata: the token stream   */
#define TDEC_XTRACE_KIND_SNAPSHOT 1u /* xsnapshot: register snapshots */

/* Record types (tdec_xtrace_record.type). */
enum tdec_xtrace_rec_type {
    TDEC_XTRACE_REC_INST = 1,    /* token class 1, sub-kind 0                           */
    TDEC_XTRACE_REC_PCINST,      /* token class 1, sub-kind 1                           */
    TDEC_XTRACE_REC_LOAD,        /* token class 2, bit 3 clear                          */
    TDEC_XTRACE_REC_STORE,       /* token class 2, bit 3 set                            */
    TDEC_XTRACE_REC_VAL,         /* token class 3, sub-kinds 0..5                       */
    TDEC_XTRACE_REC_ALLGPR,      /* token class 4, sub-kind 1; 32 REG records follow    */
    TDEC_XTRACE_REC_MISC_FLAGS,  /* token class 4, sub-kind 3                           */
    TDEC_XTRACE_REC_SYSCALL_VEC, /* token class 4, sub-kind 4; value IOVEC records      */
    TDEC_XTRACE_REC_IOVEC,       /* one entry of a SYSCALL_VEC                          */
    TDEC_XTRACE_REC_TIME,        /* token class 7, sub-kind 0                           */
    TDEC_XTRACE_REC_UNKNOWN,     /* a token sized by cfg.token_size                     */
    TDEC_XTRACE_REC_REG,         /* a 64-bit register: reg (TDEC_XTRACE_REG_*), value   */
    TDEC_XTRACE_REC_SNAP_HEADER, /* the snapshot file's 24-byte header                  */
    TDEC_XTRACE_REC_SNAPSHOT,    /* a snapshot starts: its counters                     */
    TDEC_XTRACE_REC_VREG         /* a vector/predicate register: data_len bytes follow  */
};

/* VAL kinds (bits 3-7 of a class-3 token). */
enum tdec_xtrace_val {
    TDEC_XTRACE_VAL_STXR = 0,   /* store-exclusive status                 */
    TDEC_XTRACE_VAL_MRS = 1,    /* the value moved by MRS/MSR              */
    TDEC_XTRACE_VAL_SVCARG = 2, /* a syscall argument (x8, then x0..x5)    */
    TDEC_XTRACE_VAL_SVCRET = 3, /* a syscall's return value                */
    TDEC_XTRACE_VAL_DC = 4,     /* the address register of DC ZVA / GZVA   */
    TDEC_XTRACE_VAL_TARGET_B = 5 /* the target register of BR/BLR/RET/ERET */
};

/* Register ids (REG and VREG records). */
enum tdec_xtrace_reg {
    TDEC_XTRACE_REG_X0 = 0,     /* X0..X31 = 0..31                         */
    TDEC_XTRACE_REG_FPCR = 32,  /* the 11 system registers of a snapshot,  */
    TDEC_XTRACE_REG_FPSR,       /* in file order                           */
    TDEC_XTRACE_REG_NZCV,
    TDEC_XTRACE_REG_TPIDR_EL0,
    TDEC_XTRACE_REG_TPIDRRO_EL0,
    TDEC_XTRACE_REG_TTBR0_EL1,
    TDEC_XTRACE_REG_ELR_EL1,
    TDEC_XTRACE_REG_SPSR_EL1,
    TDEC_XTRACE_REG_ESR_EL1,
    TDEC_XTRACE_REG_TPIDR_EL1,
    TDEC_XTRACE_REG_DAIF,       /* 42                                      */
    TDEC_XTRACE_REG_VL,         /* 43: the snapshot's VL field, in bits    */
    TDEC_XTRACE_REG_Z0 = 64,    /* Z0..Z31 = 64..95                        */
    TDEC_XTRACE_REG_P0 = 96,    /* P0..P15 = 96..111                       */
    TDEC_XTRACE_REG_FFR = 112,
    TDEC_XTRACE_REG_ZA = 113
};

/* Record flags. */
#define TDEC_XTRACE_HAS_INSN 1u /* index/pc/el name an instruction            */
#define TDEC_XTRACE_PC_KNOWN 2u /* pc is known (a PCINST came before)          */

/* One decoded record. Fields not listed for a type are zero. */
typedef struct tdec_xtrace_record {
    uint32_t type;      /* TDEC_XTRACE_REC_*                                        */
    uint32_t insn;      /* INST, PCINST: the instruction word                     */
    uint8_t  token;     /* the token byte (0 for snapshot records)                */
    uint8_t  flags;     /* TDEC_XTRACE_HAS_INSN | TDEC_XTRACE_PC_KNOWN             */
    uint8_t  el;        /* exception level of the (owning) instruction, 0..3      */
    uint8_t  size_log2; /* LOAD, STORE: k, the value has 2^k bytes                */
    uint8_t  val_kind;  /* VAL: TDEC_XTRACE_VAL_*                                 */
    uint8_t  reg;       /* REG, VREG: TDEC_XTRACE_REG_*                           */
    uint8_t  snap_split;  /* SNAP_HEADER: split kind byte                         */
    uint8_t  snap_stream; /* SNAP_HEADER: stream kind byte                        */
    uint8_t  snap_time;   /* SNAP_HEADER: memory-order timestamps byte            */
    uint64_t index;     /* instruction index (own or owning); SNAPSHOT: ordinal   */
    uint64_t pc;        /* PC of the (owning) instruction when PC_KNOWN           */
    uint64_t addr;      /* LOAD, STORE: address; IOVEC: base; SNAPSHOT: file no.;  */
                        /* SNAP_HEADER: magic (low 32 bits)                       */
    uint64_t value;     /* LOAD/STORE <= 8 bytes, VAL, MISC_FLAGS, TIME, REG;      */
                        /* SYSCALL_VEC: N; IOVEC: length; SNAPSHOT: index within  */
                        /* the file; SNAP_HEADER: version                         */
    uint64_t value2;    /* SNAPSHOT: user-mode instructions before it;            */
                        /* SNAP_HEADER: global snapshot point                     */
    uint64_t value3;    /* SNAPSHOT: all instructions before it                   */
    uint64_t data_len;  /* bytes that follow as FRAGMENT items                    */
} tdec_xtrace_record;

typedef struct tdec_xtrace_item {
    uint32_t kind;   /* TDEC_ITEM_RECORD or TDEC_ITEM_FRAGMENT                  */
    uint64_t offset; /* stream offset of the record (its token) or fragment     */
    union {
        tdec_xtrace_record rec;
        tdec_frag          frag;
    } u;
} tdec_xtrace_item;

/* Config flags. */
#define TDEC_XTRACE_F_BIG_ENDIAN    1u /* data in big-endian byte order (default little) */
#define TDEC_XTRACE_F_IOVEC_DATA    2u /* each iovec entry is followed by its bytes     */
#define TDEC_XTRACE_F_SKIP_PAYLOADS 4u /* count fragment bytes down, emit none           */

/* Snapshot header presence (config snap_header). */
#define TDEC_XTRACE_HDR_AUTO    0u /* from cfg.file_size (a multiple of the snapshot size, or 24 more) */
#define TDEC_XTRACE_HDR_PRESENT 1u
#define TDEC_XTRACE_HDR_ABSENT  2u

/* Zeroed (or NULL) config = defaults: an instruction stream, little-endian. */
typedef struct tdec_xtrace_config {
    uint32_t        kind;         /* TDEC_XTRACE_KIND_*                                   */
    uint32_t        flags;        /* TDEC_XTRACE_F_*                                      */
    uint32_t        max_fragment; /* largest fragment to emit; 0 = as large as the window */
    uint32_t        time_size;    /* TIME token data bytes, 1..8; 0 = 8                   */
    uint64_t        max_iovecs;   /* SYSCALL_VEC counts above it: E_LIMIT; 0 = 1024       */
    uint64_t        max_iov_len;  /* IOVEC_DATA lengths above it: E_LIMIT; 0 = 2^31-1     */
    const uint32_t *token_size;   /* NULL, or 256 data sizes by token byte for tokens the */
                                  /* format leaves unsized (0 = still unknown); borrowed  */
    uint32_t        vl;           /* snapshots: vector length in bits, 128..2048 by 128   */
    uint32_t        snap_header;  /* snapshots: TDEC_XTRACE_HDR_*                         */
    uint64_t        file_size;    /* snapshots, HDR_AUTO: the file's size in bytes        */
} tdec_xtrace_config;

/* Reason codes: d.st.err_reason after an error. */
enum tdec_xtrace_reason {
    TDEC_XTRACE_R_NONE = 0,
    TDEC_XTRACE_R_TOKEN,        /* input ends inside a token or its data            */
    TDEC_XTRACE_R_PAYLOAD,      /* input ends inside fragment data                  */
    TDEC_XTRACE_R_UNKNOWN,      /* token of unknown class or sub-kind (d.bad_token) */
    TDEC_XTRACE_R_IOVECS,       /* SYSCALL_VEC count above max_iovecs               */
    TDEC_XTRACE_R_IOV_LEN,      /* iovec length above max_iov_len                   */
    TDEC_XTRACE_R_SNAPSHOT,     /* input ends inside a snapshot or the header       */
    TDEC_XTRACE_R_VL,           /* snapshot VL field differs from cfg.vl            */
    TDEC_XTRACE_R_SNAP_SIZE     /* file size fits no header choice (HDR_AUTO)       */
};

/* The decoder. Read-only for callers: st.pos, st.err, st.err_offset,
   st.err_reason, bad_token; insn_count (instructions so far); snap_count. */
typedef struct tdec_xtrace_decoder {
    tdec_stream        st;
    uint64_t           insn_count; /* INST/PCINST tokens so far                 */
    uint64_t           snap_count; /* snapshots started so far                  */
    uint8_t            bad_token;  /* the token of an R_UNKNOWN error           */
    /* private */
    uint8_t            phase;
    uint8_t            resume;     /* phase after the current fragments      */
    uint8_t            owner_el, owner_flags;
    uint32_t           part;       /* snapshot: part of the current snapshot    */
    uint64_t           owner_index, owner_pc;
    uint64_t           left;       /* IOVEC records or REG records still to come */
    uint64_t           part_start; /* stream offset of the current snapshot part */
    uint64_t           token_start; /* start of the last token with entries or data */
    tdec_payload       pay;
    tdec_xtrace_config cfg;
} tdec_xtrace_decoder;

/* Starts a decoder. cfg may be NULL (defaults). Returns TDEC_NEED_INPUT, or
   TDEC_E_ARG for a NULL decoder or a bad config: time_size above 8, an
   unknown kind or snap_header, a snapshot kind without a valid vl. */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_init(tdec_xtrace_decoder *d, const tdec_xtrace_config *cfg);

/* Installs the next chunk (borrowed until next() returns TDEC_NEED_INPUT).
   Returns TDEC_NEED_INPUT, TDEC_E_ARG (NULL d, or NULL data with len > 0),
   TDEC_E_SEQUENCE (window not used up, or after finish()), or the sticky
   error. len == 0 is allowed and does nothing. */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_feed(tdec_xtrace_decoder *d, const void *data, size_t len);

/* Produces the next item. Returns TDEC_OK (*out filled), TDEC_NEED_INPUT
   (window used up), TDEC_END (after a clean finish()), TDEC_E_ARG, or an
   error (sticky): E_CORRUPT (unknown token, snapshot VL mismatch), E_LIMIT
   (SYSCALL_VEC count, iovec length), E_FORMAT (snapshot file size,
   HDR_AUTO), E_TRUNCATED (after finish()). */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_next(tdec_xtrace_decoder *d, tdec_xtrace_item *out);

/* Declares the end of input (see CONTRACT, Ending). Returns TDEC_END,
   TDEC_E_TRUNCATED (sticky; err_offset as CONTRACT says), TDEC_E_SEQUENCE
   if the window still holds bytes, or the sticky error; never
   TDEC_NEED_INPUT. After TDEC_END or an error, next() returns it again. */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_finish(tdec_xtrace_decoder *d);

/* Forgets the stream, keeps the config: the decoder is as after init(). */
TDEC_XTRACE_DEF void tdec_xtrace_reset(tdec_xtrace_decoder *d);

/* Text for a TDEC_XTRACE_R_* code ("" under TDEC_NO_STRINGS). */
TDEC_XTRACE_DEF const char *tdec_xtrace_reason_str(uint32_t reason);
/* Name of a register id ("X0", "FPCR", "Z31", "P15", "FFR", "ZA", "VL"), or
   NULL for an id that names none ("" under TDEC_NO_STRINGS). */
TDEC_XTRACE_DEF const char *tdec_xtrace_reg_str(uint32_t reg);
/* Name of a record type ("INST", ...) or of a VAL kind ("STXR", ...), "?"
   for a value that names none ("" under TDEC_NO_STRINGS). */
TDEC_XTRACE_DEF const char *tdec_xtrace_type_str(uint32_t type);
TDEC_XTRACE_DEF const char *tdec_xtrace_val_str(uint32_t val_kind);

/* ==== snapshots ========================================================== */

#define TDEC_XTRACE_SNAP_HEADER_SIZE 24u /* a C struct: 19 bytes of fields, 5 of padding */

/* Bytes of one snapshot at vector length vl (bits), or 0 when vl is not a
   multiple of 128 in 128..2048. 1424 at VL 128, 2704 at VL 256. */
TDEC_XTRACE_DEF uint64_t tdec_xtrace_snap_size(uint32_t vl);

/* Finds the vector length and header presence of a snapshot file from its
   first bytes (head[0..head_len), as many as the caller has: at least the
   header and one snapshot of the right VL must be there) and its size:
   every VL 128..2048 whose snapshot size divides the file (after the header,
   per `snap_header`: TDEC_XTRACE_HDR_*) and whose first snapshot's trailing
   VL field equals it. Returns TDEC_OK (*vl, *has_header set), TDEC_E_ARG,
   TDEC_E_FORMAT (no candidate fits, or the file holds no snapshot), or
   TDEC_E_CORRUPT (two candidates fit: give the VL). big_endian: the VL
   field's byte order. */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_snap_detect(const void *head, size_t head_len, uint64_t file_size,
                                                    uint32_t snap_header, int big_endian, uint32_t *vl,
                                                    int *has_header);

/* One snapshot decoded from a caller buffer: the 64-bit fields decoded,
   the vector registers as views into the buffer (valid while it is). */
typedef struct tdec_xtrace_snapshot {
    uint64_t       file_no, snap_index, user_insns, total_insns;
    uint64_t       x[32];
    uint64_t       sysreg[11];  /* FPCR .. DAIF, in TDEC_XTRACE_REG_* order */
    uint64_t       vl_field;    /* the trailing VL field as stored          */
    const uint8_t *z[32];       /* zreg_size bytes each                     */
    const uint8_t *p[16];       /* preg_size bytes each (P and FFR)         */
    const uint8_t *ffr;
    const uint8_t *za;          /* za_size bytes                            */
    uint32_t       zreg_size, preg_size, za_size;
} tdec_xtrace_snapshot;

/* Decodes the snapshot at snap[0..len) for vector length vl. Returns
   TDEC_OK, TDEC_E_ARG (NULL, bad vl), TDEC_E_TRUNCATED (len below
   tdec_xtrace_snap_size(vl)), TDEC_E_CORRUPT (VL field differs from vl;
   *out is filled all the same). On E_ARG (out given) and E_TRUNCATED,
   vl_field and the sizes are 0. */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_snap_view(const void *snap, size_t len, uint32_t vl, int big_endian,
                                                  tdec_xtrace_snapshot *out);

/* ==== file names ========================================================= */

/* xtrace.{timestamp}.{tid|cpuid}.hint{9|13}.{xinsndata|xsnapshot}.bin */
typedef struct tdec_xtrace_name {
    uint64_t timestamp;
    uint64_t id;   /* thread id (thread mode) or cpu id (core mode)          */
    uint32_t hint; /* 9 or 13: 13 means core mode, a core other than the main one */
    uint32_t kind; /* TDEC_XTRACE_KIND_*                                     */
} tdec_xtrace_name;

/* Parses a file name (a path: the part after the last '/'; len bytes, need
   not be NUL-terminated). Numbers are decimal digits read by value: leading
   zeros are accepted ("xtrace.0017.007.hint09..." is timestamp 17, id 7,
   hint 9), as no producer's number format is published. Returns TDEC_OK,
   TDEC_E_ARG, or TDEC_E_FORMAT (not an xtrace name; numbers must fit 64
   bits). */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_parse_name(const char *name, size_t len, tdec_xtrace_name *out);

/* 1 when a and b are the two files of one capture (same timestamp, id and
   hint values, one of each kind), else 0. */
TDEC_XTRACE_DEF int tdec_xtrace_is_pair(const tdec_xtrace_name *a, const tdec_xtrace_name *b);

/* Writes the partner's file name of `name` (the same directory, the other
   kind) into buf (NUL-terminated). Returns TDEC_OK, TDEC_E_ARG,
   TDEC_E_FORMAT (not an xtrace name), TDEC_E_LIMIT (cap too small). */
TDEC_XTRACE_DEF tdec_status tdec_xtrace_pair_name(const char *name, size_t len, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* TDEC_XTRACE_H_INCLUDED */

/* ==== implementation ===================================================== */
#if defined(TDEC_XTRACE_IMPLEMENTATION) || defined(TRACEDEC_IMPLEMENTATION)
#ifndef TDEC_XTRACE_IMPL_INCLUDED
#define TDEC_XTRACE_IMPL_INCLUDED

/* ==== decoder: implementation ============================================ */

#define TDEC_XTRACE__MAX_TOKEN  17u /* token + 8-byte address + 8-byte value     */
#define TDEC_XTRACE__IOVEC_SIZE 16u /* base, length                              */
#define TDEC_XTRACE__COUNTERS   32u /* the four counters that open a snapshot    */
#define TDEC_XTRACE__NSYSREGS   11u
/* Snapshot parts: counters, X0..X31, Z0..Z31, P0..P15, FFR, ZA, 11 system
   registers, VL. */
#define TDEC_XTRACE__PART_X      1u
#define TDEC_XTRACE__PART_Z      33u
#define TDEC_XTRACE__PART_P      65u
#define TDEC_XTRACE__PART_FFR    81u
#define TDEC_XTRACE__PART_ZA     82u
#define TDEC_XTRACE__PART_SYSREG 83u
#define TDEC_XTRACE__PART_VL     94u
#define TDEC_XTRACE__NPARTS      95u

TDEC_STATIC_ASSERT(xtrace_carry, TDEC_XTRACE__MAX_TOKEN <= TDEC_CARRY_CAP &&
                                     TDEC_XTRACE_SNAP_HEADER_SIZE <= TDEC_CARRY_CAP);

enum tdec_xtrace__phase {
    TDEC_XTRACE__P_TOKEN = 0, /* at a token boundary                          */
    TDEC_XTRACE__P_REGS,      /* ALLGPR: `left` REG records to come           */
    TDEC_XTRACE__P_IOVECS,    /* SYSCALL_VEC: `left` IOVEC records to come    */
    TDEC_XTRACE__P_PAYLOAD,   /* fragments; then back to `resume`             */
    TDEC_XTRACE__P_SNAP_START,/* snapshots: the header decision comes first   */
    TDEC_XTRACE__P_SNAP_HDR,  /* snapshots: the 24-byte header                */
    TDEC_XTRACE__P_SNAP_PART  /* snapshots: part `part` of a snapshot         */
};

static uint64_t tdec_xtrace__rd_any(const uint8_t *p, unsigned n, int big_endian)
{
    uint64_t v = 0;
    unsigned i;
    if (big_endian)
        for (i = 0; i < n; i++) v = (v << 8) | p[i];
    else
        for (i = n; i > 0; i--) v = (v << 8) | p[i - 1];
    return v;
}

/* A field of n bytes in the stream's byte order; whole words read directly. */
static inline uint64_t tdec_xtrace__rd(const tdec_xtrace_decoder *d, const uint8_t *p, unsigned n)
{
    int big_endian = (d->cfg.flags & TDEC_XTRACE_F_BIG_ENDIAN) != 0;
    if (n == 8) return big_endian ? tdec__rd_u64be(p) : tdec__rd_u64le(p);
    if (n == 4) return big_endian ? tdec__rd_u32be(p) : tdec__rd_u32le(p);
    return tdec_xtrace__rd_any(p, n, big_endian);
}

/* A field of n = 1..8 bytes at p whose size is known at run time only (a
   memory value, TIME), with `room` bytes readable there (in the window or
   the carry; never more). Memory access sizes change from one access to
   the next, and a branch on n mispredicts: with 8 bytes readable, one word
   is read and shifted to keep the field's n bytes (the first ones), for
   any n. */
static inline uint64_t tdec_xtrace__rd_var(const tdec_xtrace_decoder *d, const uint8_t *p, uint32_t n, size_t room)
{
    unsigned sh = 64u - 8u * n; /* the bits of the word past the field */
    if (room < 8) return tdec_xtrace__rd(d, p, n);
    if (d->cfg.flags & TDEC_XTRACE_F_BIG_ENDIAN) return tdec__rd_u64be(p) >> sh;
    return tdec__rd_u64le(p) << sh >> sh;
}

static uint32_t tdec_xtrace__pad16(uint32_t n)
{
    return (n + 15u) & ~15u;
}

static int tdec_xtrace__vl_ok(uint32_t vl)
{
    return vl >= 128u && vl <= 2048u && vl % 128u == 0;
}

/* Part p of a snapshot at vl: returns its size, sets its record type and
   register id. */
static uint32_t tdec_xtrace__part(uint32_t vl, uint32_t p, uint32_t *type, uint32_t *reg)
{
    uint32_t b = vl / 8u;
    *type = TDEC_XTRACE_REC_REG;
    *reg = 0;
    if (p == 0) {
        *type = TDEC_XTRACE_REC_SNAPSHOT;
        return TDEC_XTRACE__COUNTERS;
    }
    if (p < TDEC_XTRACE__PART_Z) {
        *reg = TDEC_XTRACE_REG_X0 + (p - TDEC_XTRACE__PART_X);
        return 8;
    }
    if (p >= TDEC_XTRACE__PART_SYSREG) {
        *reg = TDEC_XTRACE_REG_FPCR + (p - TDEC_XTRACE__PART_SYSREG);
        return 8;
    }
    *type = TDEC_XTRACE_REC_VREG;
    if (p < TDEC_XTRACE__PART_P) {
        *reg = TDEC_XTRACE_REG_Z0 + (p - TDEC_XTRACE__PART_Z);
        return b;
    }
    if (p < TDEC_XTRACE__PART_FFR) {
        *reg = TDEC_XTRACE_REG_P0 + (p - TDEC_XTRACE__PART_P);
        return tdec_xtrace__pad16(b / 8u);
    }
    if (p == TDEC_XTRACE__PART_FFR) {
        *reg = TDEC_XTRACE_REG_FFR;
        return tdec_xtrace__pad16(b / 8u);
    }
    *reg = TDEC_XTRACE_REG_ZA;
    return tdec_xtrace__pad16(b * b);
}

/* a % m for a snapshot size m (< 2^24), with 32-bit divisions only: a
   freestanding 32-bit build has no 64-bit division helper. */
static uint32_t tdec_xtrace__mod(uint64_t a, uint64_t m)
{
    uint32_t r = 0, mm = (uint32_t)m;
    int shift;
    for (shift = 56; shift >= 0; shift -= 8) r = ((r << 8) | (uint32_t)((a >> shift) & 0xFFu)) % mm;
    return r;
}

TDEC_XTRACE_DEF uint64_t tdec_xtrace_snap_size(uint32_t vl)
{
    uint64_t n = 0;
    uint32_t p, type, reg;
    if (!tdec_xtrace__vl_ok(vl)) return 0;
    for (p = 0; p < TDEC_XTRACE__NPARTS; p++) n += tdec_xtrace__part(vl, p, &type, &reg);
    return n;
}

TDEC_XTRACE_DEF void tdec_xtrace_reset(tdec_xtrace_decoder *d)
{
    if (d == NULL) return;
    tdec__stream_init(&d->st);
    d->insn_count = 0;
    d->snap_count = 0;
    d->bad_token = 0;
    d->phase = d->cfg.kind == TDEC_XTRACE_KIND_SNAPSHOT ? TDEC_XTRACE__P_SNAP_START : TDEC_XTRACE__P_TOKEN;
    d->resume = TDEC_XTRACE__P_TOKEN;
    d->owner_el = 0;
    d->owner_flags = 0;
    d->part = 0;
    d->owner_index = 0;
    d->owner_pc = 0;
    d->left = 0;
    d->part_start = 0;
    d->token_start = 0;
    tdec__payload_start(&d->pay, 0, 0);
}

TDEC_XTRACE_DEF tdec_status tdec_xtrace_init(tdec_xtrace_decoder *d, const tdec_xtrace_config *cfg)
{
    tdec_xtrace_config c;
    if (d == NULL) return TDEC_E_ARG;
    c.kind = TDEC_XTRACE_KIND_INSN;
    c.flags = 0;
    c.max_fragment = 0;
    c.time_size = 0;
    c.max_iovecs = 0;
    c.max_iov_len = 0;
    c.token_size = NULL;
    c.vl = 0;
    c.snap_header = TDEC_XTRACE_HDR_AUTO;
    c.file_size = 0;
    if (cfg) c = *cfg;
    if (c.time_size == 0) c.time_size = 8;
    if (c.max_iovecs == 0) c.max_iovecs = 1024;
    if (c.max_iov_len == 0) c.max_iov_len = 0x7FFFFFFFu;
    if (c.time_size > 8 || c.kind > TDEC_XTRACE_KIND_SNAPSHOT || c.snap_header > TDEC_XTRACE_HDR_ABSENT ||
        (c.kind == TDEC_XTRACE_KIND_SNAPSHOT && !tdec_xtrace__vl_ok(c.vl)))
        return TDEC_E_ARG;
    d->cfg = c;
    tdec_xtrace_reset(d);
    return TDEC_NEED_INPUT;
}

TDEC_XTRACE_DEF tdec_status tdec_xtrace_feed(tdec_xtrace_decoder *d, const void *data, size_t len)
{
    if (d == NULL) return TDEC_E_ARG;
    return tdec__stream_feed(&d->st, data, len);
}

/* Whether the input may end in `phase` (the current one, or the one a
   finished payload goes back to). */
static int tdec_xtrace__may_end(const tdec_xtrace_decoder *d, uint8_t phase)
{
    switch (phase) {
    case TDEC_XTRACE__P_TOKEN:
    case TDEC_XTRACE__P_SNAP_START: return 1;
    case TDEC_XTRACE__P_REGS:
    case TDEC_XTRACE__P_IOVECS:     return d->left == 0; /* the promised records are out */
    case TDEC_XTRACE__P_SNAP_PART:  return d->part == 0;
    default:                        return 0;
    }
}

TDEC_XTRACE_DEF tdec_status tdec_xtrace_finish(tdec_xtrace_decoder *d)
{
    tdec_status st;
    int clean, snapshots;
    uint32_t why;
    if (d == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err; /* sticky: err_offset stays */
    snapshots = d->cfg.kind == TDEC_XTRACE_KIND_SNAPSHOT;
    why = snapshots ? TDEC_XTRACE_R_SNAPSHOT : TDEC_XTRACE_R_TOKEN;
    if (d->phase == TDEC_XTRACE__P_PAYLOAD) {
        clean = d->pay.left == 0 && tdec_xtrace__may_end(d, d->resume);
        if (d->pay.left > 0) why = TDEC_XTRACE_R_PAYLOAD;
    } else {
        clean = tdec_xtrace__may_end(d, d->phase);
    }
    st = tdec__stream_finish(&d->st, clean, why);
    /* Point at the cut token (its entries and data included), or at the cut
       snapshot part; at a token boundary the position is that already. */
    if (st == TDEC_E_TRUNCATED && !snapshots &&
        (d->phase == TDEC_XTRACE__P_PAYLOAD || d->phase == TDEC_XTRACE__P_REGS || d->phase == TDEC_XTRACE__P_IOVECS))
        d->st.err_offset = d->token_start;
    else if (st == TDEC_E_TRUNCATED && d->phase == TDEC_XTRACE__P_PAYLOAD && d->pay.left > 0)
        d->st.err_offset = d->part_start; /* a vector register's bytes are cut */
    return st;
}

/* *out as a record of `type` at the current position, owned by the last
   instruction; every other field zero. */
static tdec_xtrace_record *tdec_xtrace__record(const tdec_xtrace_decoder *d, tdec_xtrace_item *out,
                                               uint32_t type, uint8_t token)
{
    tdec_xtrace_record *r = &out->u.rec;
    /* Read before writing: *out may alias *d as far as the compiler knows. */
    uint64_t pos = d->st.pos, index = d->owner_index, pc = d->owner_pc;
    uint8_t el = d->owner_el, flags = d->owner_flags;
    out->kind = TDEC_ITEM_RECORD;
    out->offset = pos;
    r->type = type;
    r->insn = 0;
    r->token = token;
    r->flags = flags;
    r->el = el;
    r->size_log2 = 0;
    r->val_kind = 0;
    r->reg = 0;
    r->snap_split = r->snap_stream = r->snap_time = 0;
    r->index = index;
    r->pc = (flags & TDEC_XTRACE_PC_KNOWN) ? pc : 0;
    r->addr = 0;
    r->value = 0;
    r->value2 = 0;
    r->value3 = 0;
    r->data_len = 0;
    return r;
}

/* Data bytes follow the record just made: fragments, then `resume`. */
static void tdec_xtrace__start_payload(tdec_xtrace_decoder *d, uint64_t len, uint8_t resume)
{
    d->resume = resume;
    if (len == 0) {
        d->phase = resume;
        return;
    }
    tdec__payload_start(&d->pay, len, (d->cfg.flags & TDEC_XTRACE_F_SKIP_PAYLOADS) != 0);
    d->phase = TDEC_XTRACE__P_PAYLOAD;
}

/* The token at p[0..avail), avail >= 1. When its fixed part is all there,
   decodes it: fills *out, consumes the fixed part, sets up what follows
   (REG or IOVEC records, fragments) and returns TDEC_OK, or an error. Else
   returns TDEC_NEED_INPUT with the size of the fixed part in *need, having
   changed nothing. The one decoder of tokens, for both paths of next(): a
   single switch on the class sizes and decodes the token (each case goes
   to `more` or `done`; a break means the format does not size it). */
static int tdec_xtrace__token(tdec_xtrace_decoder *d, tdec_xtrace_item *out, const uint8_t *p, size_t avail,
                              uint32_t *need)
{
    tdec_xtrace_record *r;
    uint64_t pos = d->st.pos, data = 0, bytes;
    uint32_t n, k, sub = (uint32_t)p[0] >> 3;
    uint8_t t = p[0];

    switch (t & 7u) {
    case 1: /* INST: bits 3-5 sub-kind, bits 6-7 exception level */
        if ((sub & 7u) > 1u) break;
        n = (sub & 7u) == 0 ? 1 + 4 : 1 + 8 + 4;
        if (avail < n) goto more;
        /* The instruction owns itself and every token up to the next one. */
        d->owner_index = d->insn_count++;
        d->owner_el = (uint8_t)(t >> 6);
        d->owner_flags |= TDEC_XTRACE_HAS_INSN;
        if ((sub & 7u) == 1) {
            d->owner_pc = tdec_xtrace__rd(d, p + 1, 8);
            d->owner_flags |= TDEC_XTRACE_PC_KNOWN;
        } else {
            d->owner_pc += 4; /* meaningless (and not reported) until a PCINST */
        }
        r = tdec_xtrace__record(d, out, (sub & 7u) == 1 ? TDEC_XTRACE_REC_PCINST : TDEC_XTRACE_REC_INST, t);
        r->insn = (uint32_t)tdec_xtrace__rd(d, p + n - 4, 4); /* the word ends the token */
        goto done;
    case 2: /* MEM: bit 3 store, bits 4-7 k; values up to 8 bytes inline */
        k = sub >> 1;
        n = 1 + 8 + (k <= 3u ? 1u << k : 0u);
        if (avail < n) goto more;
        r = tdec_xtrace__record(d, out, (sub & 1u) ? TDEC_XTRACE_REC_STORE : TDEC_XTRACE_REC_LOAD, t);
        r->size_log2 = (uint8_t)k;
        r->addr = tdec_xtrace__rd(d, p + 1, 8);
        if (k <= 3u) r->value = tdec_xtrace__rd_var(d, p + 9, 1u << k, avail - 9);
        else data = r->data_len = (uint64_t)1 << k;
        goto done;
    case 3: /* VAL: bits 3-7 the kind */
        if (sub > TDEC_XTRACE_VAL_TARGET_B) break;
        n = 1 + 8;
        if (avail < n) goto more;
        r = tdec_xtrace__record(d, out, TDEC_XTRACE_REC_VAL, t);
        r->val_kind = (uint8_t)sub;
        r->value = tdec_xtrace__rd(d, p + 1, 8);
        goto done;
    case 4: /* MISC: bits 3-7 1 ALLGPR, 3 MISC_FLAGS, 4 SYSCALL_VEC */
        if (sub == 1) {
            n = 1;
            r = tdec_xtrace__record(d, out, TDEC_XTRACE_REC_ALLGPR, t);
            d->left = 32;
            d->phase = TDEC_XTRACE__P_REGS;
            d->token_start = pos;
            goto done;
        }
        if (sub != 3 && sub != 4) break;
        n = 1 + 8;
        if (avail < n) goto more;
        r = tdec_xtrace__record(d, out, sub == 3 ? TDEC_XTRACE_REC_MISC_FLAGS : TDEC_XTRACE_REC_SYSCALL_VEC, t);
        r->value = tdec_xtrace__rd(d, p + 1, 8);
        if (sub == 4) {
            /* Declared counts are hostile: bounded, and their byte size checked. */
            if (r->value > d->cfg.max_iovecs || !tdec__mul_u64(r->value, TDEC_XTRACE__IOVEC_SIZE, &bytes))
                return tdec__stream_fail(&d->st, TDEC_E_LIMIT, TDEC_XTRACE_R_IOVECS);
            d->left = r->value;
            d->phase = TDEC_XTRACE__P_IOVECS;
            d->token_start = pos;
        }
        goto done;
    case 7: /* TIME: bits 3-7 zero */
        if (sub != 0) break;
        n = 1 + d->cfg.time_size;
        if (avail < n) goto more;
        r = tdec_xtrace__record(d, out, TDEC_XTRACE_REC_TIME, t);
        r->value = tdec_xtrace__rd_var(d, p + 1, n - 1, avail - 1);
        goto done;
    default: /* classes 0, 5, 6 */
        break;
    }
    /* The format does not size this token: UNKNOWN, if the caller does. */
    if (d->cfg.token_size == NULL || d->cfg.token_size[t] == 0) {
        d->bad_token = t;
        return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XTRACE_R_UNKNOWN);
    }
    n = 1;
    r = tdec_xtrace__record(d, out, TDEC_XTRACE_REC_UNKNOWN, t);
    data = r->data_len = d->cfg.token_size[t];
done:
    tdec__stream_consume(&d->st, n);
    if (data > 0) {
        d->token_start = pos;
        tdec_xtrace__start_payload(d, data, d->phase);
    }
    return TDEC_OK;
more:
    *need = n;
    return TDEC_NEED_INPUT;
}

/* One token at a token boundary, gathered through the carry when it
   straddles two chunks: its first byte, then its whole fixed part. */
static int tdec_xtrace__step_token(tdec_xtrace_decoder *d, tdec_xtrace_item *out)
{
    const uint8_t *p;
    uint32_t need = 1;
    int st;
    do {
        p = tdec__stream_peek(&d->st, need);
        if (p == NULL) return TDEC_NEED_INPUT;
        st = tdec_xtrace__token(d, out, p, need, &need);
    } while (st == TDEC_NEED_INPUT); /* twice at most: the second peek has the whole fixed part */
    return st;
}

/* One REG record of an ALLGPR, or one IOVEC of a SYSCALL_VEC. */
static int tdec_xtrace__step_entry(tdec_xtrace_decoder *d, tdec_xtrace_item *out)
{
    int iovec = d->phase == TDEC_XTRACE__P_IOVECS;
    const uint8_t *p;
    tdec_xtrace_record *r;
    uint64_t data = 0;
    if (d->left == 0) {
        d->phase = TDEC_XTRACE__P_TOKEN;
        return TDEC__AGAIN;
    }
    p = tdec__stream_peek(&d->st, iovec ? TDEC_XTRACE__IOVEC_SIZE : 8u);
    if (p == NULL) return TDEC_NEED_INPUT;
    if (iovec) {
        r = tdec_xtrace__record(d, out, TDEC_XTRACE_REC_IOVEC, 0);
        r->addr = tdec_xtrace__rd(d, p, 8);
        r->value = tdec_xtrace__rd(d, p + 8, 8);
        if (d->cfg.flags & TDEC_XTRACE_F_IOVEC_DATA) {
            if (r->value > d->cfg.max_iov_len) {
                tdec__stream_fail(&d->st, TDEC_E_LIMIT, TDEC_XTRACE_R_IOV_LEN);
                d->st.err_offset = d->token_start; /* the SYSCALL_VEC token */
                return TDEC_E_LIMIT;
            }
            data = r->data_len = r->value;
        }
        tdec__stream_consume(&d->st, TDEC_XTRACE__IOVEC_SIZE);
    } else {
        r = tdec_xtrace__record(d, out, TDEC_XTRACE_REC_REG, 0);
        r->reg = (uint8_t)(TDEC_XTRACE_REG_X0 + 32u - d->left);
        r->value = tdec_xtrace__rd(d, p, 8);
        tdec__stream_consume(&d->st, 8);
    }
    d->left--;
    tdec_xtrace__start_payload(d, data, d->phase);
    return TDEC_OK;
}

/* Snapshots: the header decision, the header, and one part at a time. */
static int tdec_xtrace__step_snapshot(tdec_xtrace_decoder *d, tdec_xtrace_item *out)
{
    const uint8_t *p;
    tdec_xtrace_record *r;
    uint64_t size, fs = d->cfg.file_size;
    uint32_t n, type, reg;

    if (d->phase == TDEC_XTRACE__P_SNAP_START) {
        size = tdec_xtrace_snap_size(d->cfg.vl);
        d->phase = TDEC_XTRACE__P_SNAP_PART;
        if (d->cfg.snap_header == TDEC_XTRACE_HDR_PRESENT) {
            d->phase = TDEC_XTRACE__P_SNAP_HDR;
        } else if (d->cfg.snap_header == TDEC_XTRACE_HDR_AUTO && tdec_xtrace__mod(fs, size) != 0) {
            /* A header makes the size 24 more than a multiple. */
            if (fs < TDEC_XTRACE_SNAP_HEADER_SIZE || tdec_xtrace__mod(fs - TDEC_XTRACE_SNAP_HEADER_SIZE, size) != 0)
                return tdec__stream_fail(&d->st, TDEC_E_FORMAT, TDEC_XTRACE_R_SNAP_SIZE);
            d->phase = TDEC_XTRACE__P_SNAP_HDR;
        }
        return TDEC__AGAIN;
    }
    if (d->phase == TDEC_XTRACE__P_SNAP_HDR) {
        p = tdec__stream_peek(&d->st, TDEC_XTRACE_SNAP_HEADER_SIZE);
        if (p == NULL) return TDEC_NEED_INPUT;
        r = tdec_xtrace__record(d, out, TDEC_XTRACE_REC_SNAP_HEADER, 0);
        r->addr = tdec_xtrace__rd(d, p, 4);
        r->value2 = tdec_xtrace__rd(d, p + 4, 4);
        r->value = tdec_xtrace__rd(d, p + 8, 8);
        r->snap_split = p[16];
        r->snap_stream = p[17];
        r->snap_time = p[18]; /* bytes 19..23: struct padding */
        tdec__stream_consume(&d->st, TDEC_XTRACE_SNAP_HEADER_SIZE);
        d->phase = TDEC_XTRACE__P_SNAP_PART;
        return TDEC_OK;
    }
    n = tdec_xtrace__part(d->cfg.vl, d->part, &type, &reg);
    p = tdec__stream_peek(&d->st, type == TDEC_XTRACE_REC_VREG ? 1u : n);
    if (p == NULL) return TDEC_NEED_INPUT;
    d->part_start = d->st.pos;
    r = tdec_xtrace__record(d, out, type, 0);
    r->reg = (uint8_t)reg;
    if (type == TDEC_XTRACE_REC_SNAPSHOT) {
        r->index = d->snap_count++;
        r->addr = tdec_xtrace__rd(d, p, 8);
        r->value = tdec_xtrace__rd(d, p + 8, 8);
        r->value2 = tdec_xtrace__rd(d, p + 16, 8);
        r->value3 = tdec_xtrace__rd(d, p + 24, 8);
    } else if (type == TDEC_XTRACE_REC_REG) {
        r->value = tdec_xtrace__rd(d, p, 8);
        /* The VL field ends the snapshot and must match the layout used. */
        if (d->part == TDEC_XTRACE__PART_VL) {
            r->reg = TDEC_XTRACE_REG_VL;
            if (r->value != d->cfg.vl) return tdec__stream_fail(&d->st, TDEC_E_CORRUPT, TDEC_XTRACE_R_VL);
        }
    } else {
        r->data_len = n;
    }
    if (type != TDEC_XTRACE_REC_VREG) tdec__stream_consume(&d->st, n);
    d->part = (d->part + 1) % TDEC_XTRACE__NPARTS;
    d->phase = TDEC_XTRACE__P_SNAP_PART;
    if (type == TDEC_XTRACE_REC_VREG) tdec_xtrace__start_payload(d, n, TDEC_XTRACE__P_SNAP_PART);
    return TDEC_OK;
}

static int tdec_xtrace__step(tdec_xtrace_decoder *d, tdec_xtrace_item *out)
{
    switch (d->phase) {
    case TDEC_XTRACE__P_TOKEN:
        return tdec_xtrace__step_token(d, out);
    case TDEC_XTRACE__P_REGS:
    case TDEC_XTRACE__P_IOVECS:
        return tdec_xtrace__step_entry(d, out);
    case TDEC_XTRACE__P_PAYLOAD:
        if (tdec__payload_next(&d->st, &d->pay, d->cfg.max_fragment, &out->u.frag, &out->offset)) {
            out->kind = TDEC_ITEM_FRAGMENT;
            return TDEC_OK;
        }
        if (d->pay.left > 0) return TDEC_NEED_INPUT;
        d->phase = d->resume;
        return TDEC__AGAIN;
    default:
        return tdec_xtrace__step_snapshot(d, out);
    }
}

/* next() without its fast path; out of line, so that the fast path does
   not pay for the registers of the step functions. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int tdec_xtrace__next_slow(tdec_xtrace_decoder *d, tdec_xtrace_item *out)
{
    int st;
    if (d->st.err < 0) return d->st.err;
    if (d->st.finished) return TDEC_END;
    /* Each pass returns or changes phase without consuming twice: it ends. */
    do {
        st = tdec_xtrace__step(d, out);
    } while (st == TDEC__AGAIN);
    return st;
}

TDEC_XTRACE_DEF tdec_status tdec_xtrace_next(tdec_xtrace_decoder *d, tdec_xtrace_item *out)
{
    uint32_t need;
    int st;
    if (d == NULL || out == NULL) return TDEC_E_ARG;
    /* Most of a stream is tokens lying whole in the window: decoded in place,
       without the peeks (a token cut by the window's end goes the slow way,
       through the carry). A finished decoder has an empty window; the sticky
       error is tested before the window is read. */
    if (d->phase == TDEC_XTRACE__P_TOKEN && d->st.err == TDEC_OK && d->st.carry_len == 0 && d->st.win_len > 0) {
        st = tdec_xtrace__token(d, out, d->st.win, d->st.win_len, &need);
        if (st != TDEC_NEED_INPUT) return (tdec_status)st;
    }
    return (tdec_status)tdec_xtrace__next_slow(d, out);
}

TDEC_XTRACE_DEF const char *tdec_xtrace_reason_str(uint32_t reason)
{
#ifdef TDEC_NO_STRINGS
    (void)reason;
    return "";
#else
    switch (reason) {
    case TDEC_XTRACE_R_NONE:      return "no error";
    case TDEC_XTRACE_R_TOKEN:     return "input ends inside a token";
    case TDEC_XTRACE_R_PAYLOAD:   return "input ends inside a token's data";
    case TDEC_XTRACE_R_UNKNOWN:   return "token of unknown class or sub-kind: its size is unknown";
    case TDEC_XTRACE_R_IOVECS:    return "SYSCALL_VEC count above the limit";
    case TDEC_XTRACE_R_IOV_LEN:   return "iovec length above the limit";
    case TDEC_XTRACE_R_SNAPSHOT:  return "input ends inside a snapshot or the snapshot header";
    case TDEC_XTRACE_R_VL:        return "snapshot VL field differs from the vector length used for the layout";
    case TDEC_XTRACE_R_SNAP_SIZE: return "file size is no whole number of snapshots, with or without the header";
    }
    return "unknown reason";
#endif
}

TDEC_XTRACE_DEF const char *tdec_xtrace_reg_str(uint32_t reg)
{
#ifdef TDEC_NO_STRINGS
    return reg < 44u || (reg >= 64u && reg <= 113u) ? "" : NULL;
#else
    static const char *const x[32] = {"X0",  "X1",  "X2",  "X3",  "X4",  "X5",  "X6",  "X7",
                                      "X8",  "X9",  "X10", "X11", "X12", "X13", "X14", "X15",
                                      "X16", "X17", "X18", "X19", "X20", "X21", "X22", "X23",
                                      "X24", "X25", "X26", "X27", "X28", "X29", "X30", "X31"};
    static const char *const z[32] = {"Z0",  "Z1",  "Z2",  "Z3",  "Z4",  "Z5",  "Z6",  "Z7",
                                      "Z8",  "Z9",  "Z10", "Z11", "Z12", "Z13", "Z14", "Z15",
                                      "Z16", "Z17", "Z18", "Z19", "Z20", "Z21", "Z22", "Z23",
                                      "Z24", "Z25", "Z26", "Z27", "Z28", "Z29", "Z30", "Z31"};
    static const char *const pr[16] = {"P0", "P1", "P2",  "P3",  "P4",  "P5",  "P6",  "P7",
                                       "P8", "P9", "P10", "P11", "P12", "P13", "P14", "P15"};
    static const char *const sys[12] = {"FPCR",     "FPSR",    "NZCV",    "TPIDR_EL0", "TPIDRRO_EL0", "TTBR0_EL1",
                                        "ELR_EL1",  "SPSR_EL1", "ESR_EL1", "TPIDR_EL1", "DAIF",        "VL"};
    if (reg < 32u) return x[reg];
    if (reg < 44u) return sys[reg - 32u];
    if (reg >= 64u && reg < 96u) return z[reg - 64u];
    if (reg >= 96u && reg < 112u) return pr[reg - 96u];
    if (reg == TDEC_XTRACE_REG_FFR) return "FFR";
    if (reg == TDEC_XTRACE_REG_ZA) return "ZA";
    return NULL;
#endif
}

TDEC_XTRACE_DEF const char *tdec_xtrace_type_str(uint32_t type)
{
#ifdef TDEC_NO_STRINGS
    (void)type;
    return "";
#else
    static const char *const names[] = {"?",          "INST",  "PCINST", "LOAD",    "STORE",
                                        "VAL",        "ALLGPR", "MISC_FLAGS", "SYSCALL_VEC", "IOVEC",
                                        "TIME",       "UNKNOWN", "REG",   "SNAP_HEADER", "SNAPSHOT",
                                        "VREG"};
    return type < sizeof names / sizeof names[0] ? names[type] : "?";
#endif
}

TDEC_XTRACE_DEF const char *tdec_xtrace_val_str(uint32_t val_kind)
{
#ifdef TDEC_NO_STRINGS
    (void)val_kind;
    return "";
#else
    static const char *const names[] = {"STXR", "MRS", "SVCARG", "SVCRET", "DC", "TARGET_B"};
    return val_kind < 6u ? names[val_kind] : "?";
#endif
}

/* ==== snapshots: implementation ========================================== */

TDEC_XTRACE_DEF tdec_status tdec_xtrace_snap_view(const void *snap, size_t len, uint32_t vl, int big_endian,
                                                  tdec_xtrace_snapshot *out)
{
    const uint8_t *p = (const uint8_t *)snap;
    uint64_t size = tdec_xtrace_snap_size(vl), at = 0, vl_field = 0;
    uint32_t part, n, type, reg;
    if (out == NULL) return TDEC_E_ARG;
    /* Set on every return, so that no reader of *out sees garbage. */
    out->vl_field = 0;
    out->zreg_size = out->preg_size = out->za_size = 0;
    if (snap == NULL || size == 0) return TDEC_E_ARG;
    if (len < size) return TDEC_E_TRUNCATED;
    for (part = 0; part < TDEC_XTRACE__NPARTS; part++) {
        const uint8_t *q = p + at;
        n = tdec_xtrace__part(vl, part, &type, &reg);
        if (type == TDEC_XTRACE_REC_SNAPSHOT) {
            out->file_no = tdec_xtrace__rd_any(q, 8, big_endian);
            out->snap_index = tdec_xtrace__rd_any(q + 8, 8, big_endian);
            out->user_insns = tdec_xtrace__rd_any(q + 16, 8, big_endian);
            out->total_insns = tdec_xtrace__rd_any(q + 24, 8, big_endian);
        } else if (part == TDEC_XTRACE__PART_VL) {
            vl_field = tdec_xtrace__rd_any(q, 8, big_endian);
        } else if (type == TDEC_XTRACE_REC_REG) {
            if (reg < 32u) out->x[reg] = tdec_xtrace__rd_any(q, 8, big_endian);
            else out->sysreg[reg - TDEC_XTRACE_REG_FPCR] = tdec_xtrace__rd_any(q, 8, big_endian);
        } else if (reg < TDEC_XTRACE_REG_P0) {
            out->z[reg - TDEC_XTRACE_REG_Z0] = q;
            out->zreg_size = n;
        } else if (reg < TDEC_XTRACE_REG_FFR) {
            out->p[reg - TDEC_XTRACE_REG_P0] = q;
            out->preg_size = n;
        } else if (reg == TDEC_XTRACE_REG_FFR) {
            out->ffr = q;
        } else {
            out->za = q;
            out->za_size = n;
        }
        at += n;
    }
    out->vl_field = vl_field;
    return vl_field == vl ? TDEC_OK : TDEC_E_CORRUPT;
}

TDEC_XTRACE_DEF tdec_status tdec_xtrace_snap_detect(const void *head, size_t head_len, uint64_t file_size,
                                                    uint32_t snap_header, int big_endian, uint32_t *vl,
                                                    int *has_header)
{
    const uint8_t *p = (const uint8_t *)head;
    uint32_t v, found_vl = 0, matches = 0;
    uint64_t size, hdr;
    int h, found_h = 0;
    if (head == NULL || vl == NULL || has_header == NULL || snap_header > TDEC_XTRACE_HDR_ABSENT)
        return TDEC_E_ARG;
    for (v = 128; v <= 2048; v += 128) {
        size = tdec_xtrace_snap_size(v);
        for (h = 0; h <= 1; h++) {
            if ((h && snap_header == TDEC_XTRACE_HDR_ABSENT) || (!h && snap_header == TDEC_XTRACE_HDR_PRESENT))
                continue;
            hdr = h ? TDEC_XTRACE_SNAP_HEADER_SIZE : 0u;
            /* One snapshot at least, a whole number of them, the first in head. */
            if (file_size < hdr + size || tdec_xtrace__mod(file_size - hdr, size) != 0 || head_len < hdr + size) continue;
            if (tdec_xtrace__rd_any(p + hdr + size - 8, 8, big_endian) != v) continue;
            matches++;
            found_vl = v;
            found_h = h;
        }
    }
    if (matches == 0) return TDEC_E_FORMAT;
    if (matches > 1) return TDEC_E_CORRUPT;
    *vl = found_vl;
    *has_header = found_h;
    return TDEC_OK;
}

/* ==== file names: implementation ========================================= */

/* Parses decimal digits at s[*i..n) up to a '.', into *v (checked). */
static int tdec_xtrace__number(const char *s, size_t n, size_t *i, uint64_t *v)
{
    size_t k = *i;
    uint64_t x = 0, dgt;
    while (k < n && s[k] >= '0' && s[k] <= '9') {
        dgt = (uint64_t)(s[k] - '0');
        if (x > UINT64_MAX / 10u || x * 10u > UINT64_MAX - dgt) return 0;
        x = x * 10u + dgt;
        k++;
    }
    if (k == *i || k >= n || s[k] != '.') return 0;
    *i = k + 1;
    *v = x;
    return 1;
}

static int tdec_xtrace__word(const char *s, size_t n, size_t *i, const char *w)
{
    size_t k = *i;
    while (*w != '\0') {
        if (k >= n || s[k] != *w) return 0;
        k++;
        w++;
    }
    *i = k;
    return 1;
}

TDEC_XTRACE_DEF tdec_status tdec_xtrace_parse_name(const char *name, size_t len, tdec_xtrace_name *out)
{
    size_t i = 0, base = 0;
    uint64_t hint;
    if (name == NULL || out == NULL) return TDEC_E_ARG;
    for (i = 0; i < len; i++)
        if (name[i] == '/') base = i + 1;
    name += base;
    len -= base;
    i = 0;
    if (!tdec_xtrace__word(name, len, &i, "xtrace.") || !tdec_xtrace__number(name, len, &i, &out->timestamp) ||
        !tdec_xtrace__number(name, len, &i, &out->id) || !tdec_xtrace__word(name, len, &i, "hint") ||
        !tdec_xtrace__number(name, len, &i, &hint) || (hint != 9 && hint != 13))
        return TDEC_E_FORMAT;
    out->hint = (uint32_t)hint;
    if (tdec_xtrace__word(name, len, &i, "xinsndata.bin")) out->kind = TDEC_XTRACE_KIND_INSN;
    else if (tdec_xtrace__word(name, len, &i, "xsnapshot.bin")) out->kind = TDEC_XTRACE_KIND_SNAPSHOT;
    else return TDEC_E_FORMAT;
    return i == len ? TDEC_OK : TDEC_E_FORMAT;
}

TDEC_XTRACE_DEF int tdec_xtrace_is_pair(const tdec_xtrace_name *a, const tdec_xtrace_name *b)
{
    return a != NULL && b != NULL && a->timestamp == b->timestamp && a->id == b->id && a->hint == b->hint &&
           a->kind != b->kind;
}

TDEC_XTRACE_DEF tdec_status tdec_xtrace_pair_name(const char *name, size_t len, char *buf, size_t cap)
{
    static const char insn[] = "xinsndata.bin", snap[] = "xsnapshot.bin";
    tdec_xtrace_name n;
    const char *other;
    size_t i, tail = sizeof insn - 1; /* both kinds' endings are 13 bytes */
    tdec_status st;
    if (buf == NULL || cap == 0) return TDEC_E_ARG;
    buf[0] = '\0';
    st = tdec_xtrace_parse_name(name, len, &n);
    if (st != TDEC_OK) return st;
    if (len + 1 > cap) return TDEC_E_LIMIT;
    other = n.kind == TDEC_XTRACE_KIND_INSN ? snap : insn;
    for (i = 0; i < len - tail; i++) buf[i] = name[i];
    for (i = 0; i < tail; i++) buf[len - tail + i] = other[i];
    buf[len] = '\0';
    return TDEC_OK;
}

#undef TDEC_XTRACE__MAX_TOKEN
#undef TDEC_XTRACE__IOVEC_SIZE
#undef TDEC_XTRACE__COUNTERS
#undef TDEC_XTRACE__NSYSREGS
#undef TDEC_XTRACE__PART_X
#undef TDEC_XTRACE__PART_Z
#undef TDEC_XTRACE__PART_P
#undef TDEC_XTRACE__PART_FFR
#undef TDEC_XTRACE__PART_ZA
#undef TDEC_XTRACE__PART_SYSREG
#undef TDEC_XTRACE__PART_VL
#undef TDEC_XTRACE__NPARTS

#endif /* TDEC_XTRACE_IMPL_INCLUDED */
#endif /* TDEC_XTRACE_IMPLEMENTATION */

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
