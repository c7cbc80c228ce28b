/* tdec_ipt.h - Intel Processor Trace decoder (packets, sync, last-IP,
   events, queries)
   - tracedec 0.1
   MIT licensed, see the end of this file.

   SECTIONS (search for a banner's text)
     tdec:core:begin                the shared core (status, items, stream)
     declarations
       ---- errors                  reason codes, tdec_ipt_reason_str
       ---- packets                 packet kinds and fields, the item
       ---- configuration           flags, errata, the unknown-packet hook
       ---- the packet decoder      init, feed, next, next_n, finish, reset, resync
       ---- sync over a caller buffer (random access)
       ---- last-IP
       ---- timing                  tdec_ipt_time, tdec_ipt_tcal
       ---- layer 2: events         tdec_ipt_evt_*
       ---- layer 2: queries        tdec_ipt_qry_*
       ---- x86 instructions: length and class   tdec_ipt_insn_decode, _next_ip
     ==== implementation
       ---- packet decoding         one packet from its bytes
       ---- the fast path           packets the first byte decodes
       ---- the packet decoder
       ---- sync over a caller buffer
       ---- last-IP
       ---- strings
       ---- timing (libipt/src/pt_time.c)
       ---- CPU errata
       ---- layer 2: events
       ---- the event queue
       ---- event fields
       ---- timing, applied when a packet is read
       ---- packets to events
       ---- look-ahead
       ---- the event decoder's API
       ---- layer 2: queries
       ---- x86 instructions: length and class (libipt's pt_ild)
     MIT License                    the licence text

   USAGE
     Exactly one .c file of your program defines the implementation:
         #define TDEC_IPT_IMPLEMENTATION       (or TRACEDEC_IMPLEMENTATION)
         #include "tdec_ipt.h"
     Every other file includes the header without the define.

     The header grows in layers, each usable without the next:
       1. packets: tdec_ipt_init/feed/next/finish/reset/resync, the sync
          helpers over a caller buffer, the last-IP value type, the timing
          value types and the CPU errata table;
       2. events and queries: tdec_ipt_evt_* (libipt's pt_evt_*) and
          tdec_ipt_qry_* (pt_qry_*), on top of layer 1 (see "layer 2");
       3. instruction flow: so far the x86 length and class decoder,
          tdec_ipt_insn_decode (libipt's pt_ild), usable alone; the rest later.

     The packet loop (the same for every tracedec format):
         tdec_ipt_decoder d;  tdec_ipt_item it;  tdec_status st;
         st = tdec_ipt_init(&d, NULL);
         while (st >= 0) {
             st = tdec_ipt_next(&d, &it);
             if (st == TDEC_OK) { use(&it); continue; }
             if (st == TDEC_E_CORRUPT) { st = tdec_ipt_resync(&d); continue; }
             if (st != TDEC_NEED_INPUT) break;       END, or error: d.st.err_offset
             n = read_some(buf, sizeof buf);          buf may be reused now
             st = n ? tdec_ipt_feed(&d, buf, n) : tdec_ipt_finish(&d);
         }

     Items: TDEC_ITEM_RECORD (it.u.pkt, one packet) and TDEC_ITEM_GAP (bytes
     stepped over while looking for a PSB: before the first one, or after
     resync()). The event decoder's items are TDEC_ITEM_RECORD (it.ev, one
     event) and TDEC_IPT_ITEM_SYNC (a sync point).

   CONTRACT
     - feed() is allowed only after next() returned TDEC_NEED_INPUT (or right
       after init/reset/resync); otherwise TDEC_E_SEQUENCE. TDEC_NEED_INPUT
       means every byte fed so far was consumed or copied: the caller may
       reuse its buffer.
     - Unless cfg.flags has TDEC_IPT_F_NO_SYNC, the decoder first looks for a
       PSB exactly as libipt's pt_pkt_sync_forward() does and reports the
       bytes before it as a gap. With TDEC_IPT_F_NO_SYNC it decodes from the
       first byte (ptdump --no-sync).
     - Packet errors are sticky: TDEC_E_CORRUPT with err_reason
       TDEC_IPT_ERR_BAD_OPC (unknown opcode, no hook) or
       TDEC_IPT_ERR_BAD_PACKET (reserved encoding), err_offset = the packet.
       resync() clears the error and searches for the next PSB from up to 15
       bytes before the failed packet, skipping the PSB the decoder last
       synchronised on when it failed right there - libipt's rule, so a PSB
       whose first bytes were swallowed by a mis-decoded packet is found. Such
       a PSB starts before err_offset, and its offset is then lower than the
       end of the previous packet; otherwise a gap item covers
       [err_offset, PSB). Items are otherwise in stream order.
     - Ending: finish() marks the end of input and never returns an item
       itself. It returns TDEC_END when the stream ended cleanly, an error
       (such as TDEC_E_TRUNCATED: the input ends inside a record) when the
       end decides that at once, or TDEC_NEED_INPUT when items that only the
       end can decide are still to come. In every case keep calling next()
       until it returns TDEC_END or an error, as the canonical loop does:
       next() gives those last items, then that TDEC_END or error again.
     - What the end decides here: a carried packet, SKD007's look-ahead, the
       unknown-packet hook's bytes and a PSB search; a packet the end cuts
       is TDEC_E_TRUNCATED (err_reason TDEC_IPT_ERR_EOS, libipt's -pte_eos;
       err_offset the cut packet). The event and query decoders follow the
       same rule (the end also decides their look-aheads); a stream that
       ends inside a packet ends them with TDEC_END, as -pte_eos ends
       libipt's.
     - Every public function returns tdec_status (or void, or a plain
       value): a finer code, libipt's error number, is the decoder's
       st.err_reason, or the *reason out-parameter of the last-IP, timing
       and instruction value functions (see "last-IP"); the queries' libipt status
       bits are their *flags out-parameter. tdec_ipt_reason_str() gives a
       reason's text.
     - Any split of the input into chunks gives the same items (fragments
       aside, which reassemble to the same bytes).
     - Offsets are stream offsets: 0 is the first byte fed after init/reset.

   MEMORY
     No allocation. Each decoder is one caller-owned struct of fixed size
     that holds no pointer into itself (only the borrowed window) and may be
     copied with memcpy. Their sizes, measured with sizeof on x86_64 and on
     arm-none-eabi-gcc -mcpu=cortex-m4 (tests/unit/ipt.c checks LP64):
       sizeof(tdec_ipt_decoder) = 256 on LP64, 232 on ILP32 (Cortex-M)
       sizeof(tdec_ipt_evt_decoder) = 2576 on LP64, 2552 on ILP32 (Cortex-M)
       sizeof(tdec_ipt_qry_decoder) = 4192 on LP64, 4168 on ILP32 (Cortex-M)
       sizeof(tdec_ipt_insn_info) = 16 on LP64, 16 on ILP32 (Cortex-M)
       sizeof(tdec_ipt_flow_decoder) = 3544 on LP64, 3512 on ILP32 (Cortex-M)
       sizeof(tdec_ipt_flow_item) = 104 on LP64, 104 on ILP32 (Cortex-M)
       sizeof(tdec_ipt_section) = 32 on LP64, 32 on ILP32 (Cortex-M)
     The timing value types are 48 (tdec_ipt_time) and 64 bytes
     (tdec_ipt_tcal) on every ABI.

   OPTIONS
     TDEC_IPT_IMPLEMENTATION / TRACEDEC_IMPLEMENTATION  [impl TU] emit code
     TDEC_STATIC / TDEC_IPT_STATIC                       [impl TU] internal linkage
     TDEC_IPT_DEF                                        [impl TU] decoration override
     TDEC_NO_STRINGS                                     [any TU]  *_str() return ""
     TDEC_IPT_NO_FLOW                                    [any TU]  no instruction layer: the
                                                                   length decoder and its tables

   SECURITY
     Every input byte is untrusted. The decoder never reads outside the
     current window or its carry, never writes outside *out and the decoder,
     and does constant work per input byte (a PSB search keeps a byte count,
     not the bytes). See README.md, "Trust model".

   PACKETS
     Every packet of libipt master, with its sizes and error rules: PAD, PSB,
     PSBEND, OVF, TNT-8, TNT-64, TIP, TIP.PGE, TIP.PGD, FUP, MODE.Exec,
     MODE.TSX, PIP, TSC, CBR, TMA, MTC, CYC, VMCS, MNT, EXSTOP, MWAIT, PWRE,
     PWRX, PTW, CFE, EVD, TRIG; and, with TDEC_IPT_F_PEBS, Linux perf's
     PEBS-via-PT packets BBP, BEP and BIP (a BIP is only recognised between a
     BBP and the next packet that ends the block, where its first byte would
     otherwise be a TNT-8). Unknown opcodes go to cfg.unknown when
     set (libipt's decode callback), else they are TDEC_E_CORRUPT.
     Errata at this layer: SKD007 (a 2-byte CYC whose payload byte looks like
     an extended opcode, followed by 0xF3, is dropped: the OVF is reported)
     and SKZ84 (a TMA with reserved bits set is a TDEC_IPT_INVALID packet of
     8 bytes).
*/
#ifndef TDEC_IPT_H_INCLUDED
#define TDEC_IPT_H_INCLUDED

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

#ifndef TDEC_IPT_DEF
#if defined(TDEC_IPT_STATIC) || defined(TDEC_STATIC)
#if defined(__GNUC__) || defined(__clang__)
/* A static build must not warn about the API functions a TU does not call. */
#define TDEC_IPT_DEF static __attribute__((unused))
#else
#define TDEC_IPT_DEF static
#endif
#else
#define TDEC_IPT_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors -------------------------------------------------------------- */

/* Reason codes: a decoder's st.err_reason after an error, the *reason of
   the value functions (last-IP, timing) and gap.reason on gap items. The
   TDEC_IPT_ERR_* numbers and texts are libipt's pt_error_code ones (the
   positive pte_* value); the gap reasons are tracedec's, above them. */
enum tdec_ipt_reason {
    TDEC_IPT_ERR_OK = 0,
    TDEC_IPT_ERR_INTERNAL,
    TDEC_IPT_ERR_INVALID,
    TDEC_IPT_ERR_NOSYNC,
    TDEC_IPT_ERR_BAD_OPC,
    TDEC_IPT_ERR_BAD_PACKET,
    TDEC_IPT_ERR_BAD_CONTEXT,
    TDEC_IPT_ERR_EOS,
    TDEC_IPT_ERR_BAD_QUERY,
    TDEC_IPT_ERR_NOMEM,
    TDEC_IPT_ERR_BAD_CONFIG,
    TDEC_IPT_ERR_NOIP,
    TDEC_IPT_ERR_IP_SUPPRESSED,
    TDEC_IPT_ERR_NOMAP,
    TDEC_IPT_ERR_BAD_INSN,
    TDEC_IPT_ERR_NO_TIME,
    TDEC_IPT_ERR_NO_CBR,
    TDEC_IPT_ERR_BAD_IMAGE,
    TDEC_IPT_ERR_BAD_LOCK,
    TDEC_IPT_ERR_NOT_SUPPORTED,
    TDEC_IPT_ERR_RETSTACK_EMPTY,
    TDEC_IPT_ERR_BAD_RETCOMP,
    TDEC_IPT_ERR_BAD_STATUS_UPDATE,
    TDEC_IPT_ERR_NO_ENABLE,
    TDEC_IPT_ERR_EVENT_IGNORED,
    TDEC_IPT_ERR_OVERFLOW,
    TDEC_IPT_ERR_BAD_FILE,
    TDEC_IPT_ERR_BAD_CPU,
    TDEC_IPT_GAP_SYNC = 0x80, /* gap: bytes before the first PSB               */
    TDEC_IPT_GAP_RESYNC,      /* gap: bytes skipped by resync() after an error */
    TDEC_IPT_ERR_WALK_LIMIT = 0x90 /* flow: walk_limit instructions without trace */
};

/* Text for a reason: libipt's pt_errstr() text for a TDEC_IPT_ERR_* code,
   a short one for a gap reason ("" under TDEC_NO_STRINGS). */
TDEC_IPT_DEF const char *tdec_ipt_reason_str(uint32_t reason);

/* ---- packets ------------------------------------------------------------- */

/* Packet kinds (tdec_ipt_packet.kind). */
enum tdec_ipt_kind {
    TDEC_IPT_PAD = 1,
    TDEC_IPT_PSB,
    TDEC_IPT_PSBEND,
    TDEC_IPT_OVF,
    TDEC_IPT_TNT_8,
    TDEC_IPT_TNT_64,
    TDEC_IPT_TIP,
    TDEC_IPT_TIP_PGE,
    TDEC_IPT_TIP_PGD,
    TDEC_IPT_FUP,
    TDEC_IPT_MODE_EXEC,
    TDEC_IPT_MODE_TSX,
    TDEC_IPT_PIP,
    TDEC_IPT_TSC,
    TDEC_IPT_CBR,
    TDEC_IPT_TMA,
    TDEC_IPT_MTC,
    TDEC_IPT_CYC,
    TDEC_IPT_VMCS,
    TDEC_IPT_MNT,
    TDEC_IPT_STOP,
    TDEC_IPT_EXSTOP,
    TDEC_IPT_MWAIT,
    TDEC_IPT_PWRE,
    TDEC_IPT_PWRX,
    TDEC_IPT_PTW,
    TDEC_IPT_CFE,
    TDEC_IPT_EVD,
    TDEC_IPT_TRIG,
    TDEC_IPT_BBP,     /* PEBS via PT (TDEC_IPT_F_PEBS)                        */
    TDEC_IPT_BEP,
    TDEC_IPT_BIP,
    TDEC_IPT_UNKNOWN, /* sized by cfg.unknown, which has seen its bytes       */
    TDEC_IPT_INVALID, /* erratum SKZ84: a bad TMA plus one byte (8 bytes)     */
    TDEC_IPT_KIND_COUNT
};

/* Packet flag bits (tdec_ipt_packet.flags). */
#define TDEC_IPT_PF_IP    0x01u /* EXSTOP, PTW, CFE, TRIG, BEP: a FUP follows   */
#define TDEC_IPT_PF_NR    0x02u /* PIP: VMX non-root                            */
#define TDEC_IPT_PF_HW    0x04u /* PWRE: hardware-initiated C-state request     */
#define TDEC_IPT_PF_ICNTV 0x08u /* TRIG: aux holds an instruction count         */
#define TDEC_IPT_PF_MULT  0x10u /* TRIG: more triggers fired than reported      */
#define TDEC_IPT_PF_SZ4   0x20u /* BBP: block items are 4 bytes (else 8)        */
#define TDEC_IPT_PF_SKD007 0x40u /* OVF: erratum SKD007 dropped the CYC byte at */
                                 /* offset - 1 (ptdump shows the OVF there)     */

/* MODE.Exec bits (sub), MODE.TSX bits (sub), PWRX wake reasons (sub). */
#define TDEC_IPT_EXEC_CSL      0x01u
#define TDEC_IPT_EXEC_CSD      0x02u
#define TDEC_IPT_EXEC_IF       0x04u
#define TDEC_IPT_TSX_INTX      0x01u
#define TDEC_IPT_TSX_ABRT      0x02u
#define TDEC_IPT_PWRX_INT      0x01u
#define TDEC_IPT_PWRX_STORE    0x04u
#define TDEC_IPT_PWRX_HW       0x08u

/* IP compression codes (sub of TIP, TIP.PGE, TIP.PGD, FUP). */
enum tdec_ipt_ipc {
    TDEC_IPT_IPC_SUPPRESSED = 0, /* no payload                       */
    TDEC_IPT_IPC_UPDATE_16  = 1, /* bits 15:0 replace last-IP's      */
    TDEC_IPT_IPC_UPDATE_32  = 2, /* bits 31:0                        */
    TDEC_IPT_IPC_SEXT_48    = 3, /* 48 bits, sign-extended           */
    TDEC_IPT_IPC_UPDATE_48  = 4, /* bits 47:0                        */
    TDEC_IPT_IPC_FULL       = 6  /* 64 bits                          */
};

/* One packet. Which field holds what, by kind (unlisted fields are 0):

     kind            payload                       aux          sub              flags
     TNT_8, TNT_64   branch bits, oldest at        -            bit count        -
                     bit (sub-1); 1 = taken
     TIP, TIP_PGE,   the IP bytes carried,         -            IP compression   -
     TIP_PGD, FUP    zero-extended                              (tdec_ipt_ipc)
     MODE_EXEC       -                             -            bits 4:0 of      -
                                                                byte 1 (EXEC_*)
     MODE_TSX        -                             -            same (TSX_*)     -
     PIP             CR3 (payload >> 1 << 5)       -            -                NR
     TSC             TSC[55:0]                     -            -                -
     CBR             core:bus ratio                -            -                -
     TMA             CTC[15:0]                     fast counter -                -
     MTC             CTC byte                      -            -                -
     CYC             cycle count                   -            -                -
     VMCS            VMCS base (payload << 12)     -            -                -
     MNT, EVD        the 64-bit payload            -            EVD: type        -
     EXSTOP          -                             -            -                IP
     MWAIT           hints (EAX)                   ext (ECX)    -                -
     PWRE            C-state field (raw, 0..15)    sub-C-state  -                HW
     PWRX            last core C-state (raw)       deepest      wake reasons     -
     PTW             the 4- or 8-byte payload      -            payload bytes    IP
                                                                code (0: 4, 1: 8)
     CFE             vector                        -            type             IP
     TRIG            trigger bit vector (TRBV)     ICNT         -                IP ICNTV MULT
     BBP             -                             -            block type       SZ4
     BEP             -                             -            -                IP
     BIP             the 4- or 8-byte value        -            ID               -
     UNKNOWN         -                             -            -                -
   PAD, PSB, PSBEND, OVF, STOP and INVALID carry nothing but kind and size. */
typedef struct tdec_ipt_packet {
    uint64_t payload;
    uint32_t aux;
    uint8_t  kind;  /* tdec_ipt_kind                                   */
    uint8_t  size;  /* bytes, opcode included (UNKNOWN: the hook's)    */
    uint8_t  sub;
    uint8_t  flags; /* TDEC_IPT_PF_*                                   */
} tdec_ipt_packet;

typedef struct tdec_ipt_item {
    uint32_t kind;   /* TDEC_ITEM_RECORD or TDEC_ITEM_GAP                     */
    uint64_t offset; /* stream offset of the packet, gap or fragment          */
    union {
        tdec_ipt_packet pkt;
        tdec_gap        gap;  /* reason: TDEC_IPT_GAP_SYNC or _RESYNC         */
    } u;
} tdec_ipt_item;

/* ---- configuration ------------------------------------------------------- */

/* Errata bits (cfg.errata), as libipt's struct pt_errata. Only SKD007 and
   SKZ84 change packet decoding; the others are kept for the layers above
   and for timing (SKL168). tdec_ipt_cpu_errata() fills them from a CPU. */
#define TDEC_IPT_ERRATUM_BDM70  0x0001u
#define TDEC_IPT_ERRATUM_BDM64  0x0002u
#define TDEC_IPT_ERRATUM_SKD007 0x0004u
#define TDEC_IPT_ERRATUM_SKD022 0x0008u
#define TDEC_IPT_ERRATUM_SKD010 0x0010u
#define TDEC_IPT_ERRATUM_SKL014 0x0020u
#define TDEC_IPT_ERRATUM_APL12  0x0040u
#define TDEC_IPT_ERRATUM_APL11  0x0080u
#define TDEC_IPT_ERRATUM_SKL168 0x0100u
#define TDEC_IPT_ERRATUM_SKZ84  0x0200u

/* Config flags. */
#define TDEC_IPT_F_NO_SYNC        1u /* decode from the first byte, no PSB search */
#define TDEC_IPT_F_PEBS           2u /* decode BBP/BEP/BIP (Linux perf)            */
#define TDEC_IPT_F_KEEP_TCAL_OVF  4u /* timing: keep calibration across OVF        */

/* The unknown-packet hook, like libipt's config decode callback: called with
   the bytes at an unknown opcode (at least min(16, bytes left in the stream)
   of them, `avail` says how many) and their stream offset. Returns the
   packet's size in bytes (1..255: the item then has kind UNKNOWN and that
   many bytes are stepped over, also across chunks), or 0 or a negative
   number to reject it (TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_OPC). */
typedef int (*tdec_ipt_unknown_fn)(void *ctx, const uint8_t *bytes, size_t avail, uint64_t offset);

/* Zeroed (or NULL) config = defaults: search for a PSB first, no errata, no
   hook. The packet decoder reads flags, errata (SKD007, SKZ84) and the hook;
   the CPU fields are informational; the frequencies are the timing
   functions'. */
typedef struct tdec_ipt_config {
    uint32_t            flags;          /* TDEC_IPT_F_*                          */
    uint32_t            errata;         /* TDEC_IPT_ERRATUM_*                    */
    tdec_ipt_unknown_fn unknown;        /* NULL: unknown opcodes are errors      */
    void               *unknown_ctx;
    uint8_t             cpu_family, cpu_model, cpu_stepping; /* informational    */
    uint8_t             mtc_freq;       /* IA32_RTIT_CTL.MTCFreq (bits 17:14)    */
    uint8_t             nom_freq;       /* MSR_PLATFORM_INFO[15:8]               */
    uint32_t            cpuid_0x15_eax; /* TSC : crystal clock ratio, denominator */
    uint32_t            cpuid_0x15_ebx; /* ... numerator                         */
} tdec_ipt_config;

/* The errata libipt enables for an Intel family/model (stepping unused, as
   in libipt). Returns TDEC_OK, or TDEC_E_ARG for a CPU libipt does not know
   (family 0, say); *errata is then 0. */
TDEC_IPT_DEF tdec_status tdec_ipt_cpu_errata(uint32_t family, uint32_t model, uint32_t stepping,
                                             uint32_t *errata);

/* ---- the packet decoder -------------------------------------------------- */

typedef struct tdec_ipt_decoder {
    tdec_stream     st;          /* public read-only: pos, err, err_offset, err_reason */
    uint64_t        sync_offset; /* public: offset of the last PSB decoded, or of the  */
                                 /* start under F_NO_SYNC; UINT64_MAX before either    */
    /* private */
    tdec_ipt_config cfg;
    const uint8_t  *chunk;       /* the caller's current chunk and where it starts     */
    size_t          chunk_len;
    uint64_t        chunk_pos;
    uint64_t        mark;        /* where the pending gap starts                        */
    uint64_t        found;       /* the PSB a search found                              */
    uint64_t        left;        /* bytes of an UNKNOWN packet still to step over       */
    uint32_t        run;         /* search: bytes of 02 82 pairs ending here (to 16)   */
    uint8_t         phase;
    uint8_t         pend02;      /* search: the previous byte was a 0x02                */
    uint8_t         gap_reason;
    uint8_t         ended;       /* finish() was called                                 */
    uint8_t         pebs_ctx;    /* 0, or 4/8: inside a PEBS block of that item size    */
    uint8_t         skip_sync;   /* search for a PSB once the UNKNOWN is stepped over   */
    uint8_t         hist_len;
    uint8_t         hist[32];    /* the stream bytes right before `chunk`              */
} tdec_ipt_decoder;

/* Starts a decoder. cfg may be NULL (defaults). Returns TDEC_NEED_INPUT, or
   TDEC_E_ARG for a NULL decoder. */
TDEC_IPT_DEF tdec_status tdec_ipt_init(tdec_ipt_decoder *d, const tdec_ipt_config *cfg);

/* Installs the next chunk (borrowed until next() returns TDEC_NEED_INPUT).
   Returns TDEC_NEED_INPUT, TDEC_E_ARG, TDEC_E_SEQUENCE (window not used up,
   or after finish()), or the sticky error. len == 0 does nothing. */
TDEC_IPT_DEF tdec_status tdec_ipt_feed(tdec_ipt_decoder *d, const void *data, size_t len);

/* Produces the next item. Returns TDEC_OK (*out filled), TDEC_NEED_INPUT,
   TDEC_END (after finish(), everything drained), TDEC_E_ARG, or a sticky
   error: E_CORRUPT (BAD_OPC, BAD_PACKET), E_TRUNCATED (EOS). */
TDEC_IPT_DEF tdec_status tdec_ipt_next(tdec_ipt_decoder *d, tdec_ipt_item *out);

/* Fills out[0..*count) with up to `cap` items, exactly as that many next()
   calls would, but faster (the window position stays in a register).
   Returns TDEC_OK when it produced `cap` items, else what the next() call
   that stopped it returned (TDEC_NEED_INPUT, TDEC_END, an error); the
   *count items before it are valid in every case. */
TDEC_IPT_DEF tdec_status tdec_ipt_next_n(tdec_ipt_decoder *d, tdec_ipt_item *out, size_t cap,
                                         size_t *count);

/* Marks the end of input (CONTRACT: Ending). Returns TDEC_END (nothing
   left), TDEC_NEED_INPUT when bytes are still to decode knowing the end
   (carried bytes, a PSB search or the gap it ends with: call next() until
   TDEC_END or an error such as TDEC_E_TRUNCATED), TDEC_E_TRUNCATED (inside
   an UNKNOWN packet: err_offset is the packet), TDEC_E_SEQUENCE (window not
   used up), or the sticky error. Idempotent. */
TDEC_IPT_DEF tdec_status tdec_ipt_finish(tdec_ipt_decoder *d);

/* Back to the state after init(), same config. */
TDEC_IPT_DEF void tdec_ipt_reset(tdec_ipt_decoder *d);

/* After TDEC_E_CORRUPT: clears the error and searches for the next PSB (see
   CONTRACT). Returns TDEC_NEED_INPUT (call next()), TDEC_E_ARG, or
   TDEC_E_SEQUENCE after any other status (nothing to resync after the end). */
TDEC_IPT_DEF tdec_status tdec_ipt_resync(tdec_ipt_decoder *d);

/* ---- sync over a caller buffer (random access) --------------------------- */

/* Offset of the first PSB that starts at or after `from` in buf[0, len),
   found as libipt's pt_sync_forward() finds it. TDEC_OK, TDEC_E_NOSYNC (none),
   TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_sync_forward(const uint8_t *buf, size_t len, size_t from,
                                               size_t *psb);

/* Offset of the last PSB found searching down from `from` (aligned down to
   8 bytes), as pt_sync_backward(). TDEC_OK, TDEC_E_NOSYNC, TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_sync_backward(const uint8_t *buf, size_t len, size_t from,
                                                size_t *psb);

/* TDEC_OK when a whole PSB starts at `at` (pt_sync_set()), TDEC_E_NOSYNC
   when not, TDEC_E_TRUNCATED when buf ends first, TDEC_E_ARG. Decode from
   there with a decoder under TDEC_IPT_F_NO_SYNC fed buf + at. */
TDEC_IPT_DEF tdec_status tdec_ipt_sync_at(const uint8_t *buf, size_t len, size_t at);

/* Lists the PSBs of buf in order (each as sync_forward() finds it from the
   end of the previous one), for splitting a trace between threads: up to
   `cap` offsets into out[]; *count gets how many exist (may exceed cap).
   TDEC_OK or TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_psb_list(const uint8_t *buf, size_t len, size_t *out, size_t cap,
                                           size_t *count);

/* ---- last-IP ------------------------------------------------------------- */

/* The IP the compressed IP packets refer to (libipt's pt_last_ip). Reset it
   at PSB and OVF; feed it every TIP, TIP.PGE, TIP.PGD and FUP. */
typedef struct tdec_ipt_last_ip {
    uint64_t ip;
    uint8_t  have_ip;    /* an IP was set since the reset   */
    uint8_t  suppressed; /* the last update was suppressed  */
} tdec_ipt_last_ip;

TDEC_IPT_DEF void tdec_ipt_last_ip_init(tdec_ipt_last_ip *l);

/* The last-IP and timing functions are value functions: each returns
   TDEC_OK or an error, and stores libipt's code for the same case in
   *reason (0 with TDEC_OK; reason may be NULL; tdec_ipt_reason_str gives
   its text). The error says whose it is:
     TDEC_E_ARG        the caller's: INTERNAL (a NULL argument), INVALID (a
                       packet of the wrong kind), BAD_CONFIG
     TDEC_E_CORRUPT    the trace's (or the code's): BAD_PACKET, BAD_CONTEXT,
                       BAD_INSN
     TDEC_E_SEQUENCE   a value the trace has not given: NO_TIME, NO_CBR,
                       NOIP, IP_SUPPRESSED, BAD_QUERY
   They are not sticky: the next call goes on. */

/* Applies an IP packet. Reasons: BAD_PACKET (a reserved compression code,
   never from the decoder), INVALID (a packet without an IP). */
TDEC_IPT_DEF tdec_status tdec_ipt_last_ip_update(tdec_ipt_last_ip *l, const tdec_ipt_packet *p,
                                                 uint32_t *reason);

/* The IP now in *ip (0 when there is none). Reasons: NOIP (none since the
   reset), IP_SUPPRESSED. */
TDEC_IPT_DEF tdec_status tdec_ipt_last_ip_query(const tdec_ipt_last_ip *l, uint64_t *ip,
                                                uint32_t *reason);

/* The IP of an IP packet on its own: sign-extended for SEXT_48, as carried
   otherwise (ptdump's payload column). */
TDEC_IPT_DEF uint64_t tdec_ipt_ip_payload(const tdec_ipt_packet *p);

/* Text for a packet kind ("" under TDEC_NO_STRINGS): "tnt.8", "tip.pge", ... */
TDEC_IPT_DEF const char *tdec_ipt_kind_str(uint32_t kind);

/* ---- timing -------------------------------------------------------------- */

/* Intel PT time as libipt's pt_time.c tracks it: an
   estimated TSC from TSC, TMA, MTC and CYC packets (tdec_ipt_time), and the
   calibration that turns CYC counts into TSC ticks (tdec_ipt_tcal, the
   fast-counter:cycles ratio "fcr"). Both are plain values of fixed size, no
   pointers, no allocation: copy them freely (sizes below are the same on
   every ABI; the implementation checks them).

   Feeding them, as ptdump --time/--tcal and libipt's decoders do, per packet:
     PSB      tdec_ipt_tcal_update_psb (erratum SKL168 check); PSB+ starts
     PSBEND   PSB+ ends
     OVF      tdec_ipt_tcal_update_ovf (resets or keeps calibration, see there)
     TSC      tcal: header_tsc inside PSB+, else update_tsc; then time_update_tsc
     CBR      tcal: header_cbr inside PSB+, else update_cbr; then time_update_cbr
     TMA      tcal_update_tma; then time_update_tma
     MTC      tcal_update_mtc; then time_update_mtc
     CYC      fcr = tcal_query_fcr() (0 when it fails); tcal_update_cyc;
              then time_update_cyc(.., fcr)
   and query with tdec_ipt_time_query_tsc / _cbr. The calls are independent
   value functions (see last-IP): an error from one is reported and the
   next call goes on; each function documents what it changed before
   failing, exactly as libipt, and lists its reasons (libipt's -pte_* code
   at the same place).

   Arithmetic is libipt's, bit for bit: unsigned wrap-around where libipt
   wraps, libipt's field widths (a CBR ratio and an MTC payload are used as
   8 bits, a TMA's CTC and FC as 16 bits), and 32-bit shifts by
   configuration-derived counts (cfg->mtc_freq + 8 and the like) take the
   count modulo 32, as the x86 hosts libipt runs on do (mtc_freq is 4 bits
   in hardware, so this only matters for out-of-range configurations).

   Packets are the decoder's tdec_ipt_packet: TSC payload = TSC[55:0], CBR
   payload = ratio, TMA payload = CTC[15:0] and aux = fast counter, MTC
   payload = the CTC byte, CYC payload = the cycle count. A packet of the
   wrong kind is a caller bug: INVALID, nothing changed (libipt has typed
   packets and cannot get this wrong). A NULL time, calibration, packet or
   config is INTERNAL where libipt checks it; where libipt ignores the
   config, cfg may be NULL.

   Configuration read (tdec_ipt_config): mtc_freq (TMA, MTC, CYC),
   cpuid_0x15_eax / cpuid_0x15_ebx (CTC to TSC: both must be non-zero when
   an MTC must be converted, else BAD_CONFIG), nom_freq (CBR
   calibration, 0 = off), errata & TDEC_IPT_ERRATUM_SKL168 (update_psb) and
   flags & TDEC_IPT_F_KEEP_TCAL_OVF (update_ovf). */

/* The fcr is fixed point with this many fraction bits: pass the value of
   tdec_ipt_tcal_query_fcr() to tdec_ipt_time_update_cyc() unchanged; give
   tdec_ipt_tcal_set_fcr() ratio << TDEC_IPT_TCAL_FCR_SHR. */
#define TDEC_IPT_TCAL_FCR_SHR 8

/* The time (libipt's struct pt_time). 48 bytes. Read it through the query
   functions; the fields are documented for debugging and for the layers
   above. */
typedef struct tdec_ipt_time {
    uint64_t tsc;      /* the estimated TSC                                     */
    uint64_t base;     /* TSC of the last TSC or MTC (minus a TMA's FC)         */
    uint64_t fc;       /* fast-counter ticks since base (from TMA and CYC)      */
    uint32_t ctc;      /* adjusted CTC of the last MTC or TMA                   */
    uint32_t ctc_cyc;  /* adjusted CTC when fc was last cleared                 */
    uint32_t lost_mtc; /* MTCs that could not be applied since the last TSC     */
    uint32_t lost_cyc; /* CYCs without calibration since the last TSC or MTC    */
    uint8_t  cbr;      /* the last core:bus ratio                               */
    uint8_t  have_tsc; /* a TSC was seen (the time is valid)                    */
    uint8_t  have_cbr; /* a CBR was seen                                        */
    uint8_t  have_tma; /* a TMA followed the last TSC                           */
    uint8_t  have_mtc; /* an MTC (or a TMA that counts as one) gave a CTC       */
    uint8_t  reserved[3];
} tdec_ipt_time;

/* The calibration (libipt's struct pt_time_cal). 64 bytes. */
typedef struct tdec_ipt_tcal {
    uint64_t fcr;          /* fast-counter:cycles ratio << TDEC_IPT_TCAL_FCR_SHR */
    uint64_t min_fcr;      /* smallest and largest fcr set since init(); the fcr */
    uint64_t max_fcr;      /* is valid iff min_fcr <= max_fcr                   */
    uint64_t tsc;          /* the last TSC (calibration at a TSC in PSB+)       */
    uint64_t cyc_tsc;      /* cycles (CYC) since that TSC                       */
    uint64_t cyc_mtc;      /* cycles (CYC) since the last MTC                   */
    uint32_t ctc;          /* adjusted CTC of the last MTC                      */
    uint32_t lost_mtc;     /* MTCs not used for calibration since the last one  */
    uint8_t  have_mtc;     /* an MTC was seen                                   */
    uint8_t  check_skl168; /* the next MTC is the first after a PSB (SKL168)    */
    uint8_t  reserved[6];
} tdec_ipt_tcal;

/* Resets the time: no TSC, no CBR, all zero. NULL is ignored. */
TDEC_IPT_DEF void tdec_ipt_time_init(tdec_ipt_time *t);

/* The estimated TSC in *tsc, and in *lost_mtc / *lost_cyc (each may be NULL)
   the MTC packets that could not be applied since the last TSC and the CYC
   packets that had no calibration since the last TSC or MTC. The outputs
   are written even without a TSC yet (reason NO_TIME: *tsc is then
   relative to the start, what ptdump --no-wall-clock prints). Reasons:
   NO_TIME, INTERNAL (t or tsc NULL). */
TDEC_IPT_DEF tdec_status tdec_ipt_time_query_tsc(const tdec_ipt_time *t, uint64_t *tsc,
                                                 uint32_t *lost_mtc, uint32_t *lost_cyc,
                                                 uint32_t *reason);

/* The last core:bus ratio. Reasons: NO_CBR (none yet, *cbr untouched),
   INTERNAL (NULL). */
TDEC_IPT_DEF tdec_status tdec_ipt_time_query_cbr(const tdec_ipt_time *t, uint32_t *cbr,
                                                 uint32_t *reason);

/* A TSC: time := TSC, forget TMA and MTC state, clear both loss counters.
   cfg is not used (may be NULL). Reasons: INTERNAL (t or p NULL), INVALID
   (not a TSC). */
TDEC_IPT_DEF tdec_status tdec_ipt_time_update_tsc(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A CBR: remembers the ratio. cfg is not used (may be NULL). Reasons:
   BAD_PACKET (ratio 0: nothing changed), INTERNAL, INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_time_update_cbr(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A TMA: moves the base back by the fast counter and keeps the CTC bits
   (masked to mtc_freq + 8 bits) for the next MTC; with mtc_freq <= 8 the TMA
   counts as an MTC. The time itself (query_tsc) does not change. Reasons:
   BAD_CONTEXT (no TSC yet, or a second TMA after the same TSC: nothing
   changed); INTERNAL (NULL, or an MTC state that only a caller can have
   made); INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_time_update_tma(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* An MTC: time := base + CTC delta converted to TSC ticks (delta *
   cpuid_0x15_ebx / cpuid_0x15_eax). Ignored (TDEC_OK, nothing changed)
   between a TSC and its TMA. The first MTC without a TMA only records its
   CTC; the first after a TMA rebuilds the CTC bits the TMA lacked. Before
   the checks below it already records the MTC (CTC, fc := 0, lost_cyc :=
   0). Reasons: BAD_PACKET (the CTC went back by more than one wrap:
   lost_mtc is incremented), BAD_CONFIG (a cpuid value is 0: the time is
   not advanced), INTERNAL (NULL, inconsistent state), INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_time_update_mtc(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A CYC with the calibration's fcr (tdec_ipt_tcal_query_fcr(), 0 if none):
   adds cycles * fcr >> 8 to fc, time := base + fc; with fcr 0 counts a lost
   CYC instead (TDEC_OK). The first CYC after an MTC drops the part of its
   cycles that the calibration attributes to earlier MTC periods. Reasons:
   BAD_PACKET or BAD_CONFIG from that adjustment (as for MTC; nothing
   changed), INTERNAL (NULL; cfg is required), INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_time_update_cyc(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint64_t fcr,
                                                  uint32_t *reason);

/* Resets the calibration: no fcr. NULL is ignored. */
TDEC_IPT_DEF void tdec_ipt_tcal_init(tdec_ipt_tcal *c);

/* The current fcr (fixed point, TDEC_IPT_TCAL_FCR_SHR fraction bits; may be
   0 after set_fcr(0)). Reasons: NO_TIME (never calibrated since init():
   *fcr untouched), INTERNAL (NULL). */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_query_fcr(const tdec_ipt_tcal *c, uint64_t *fcr,
                                                 uint32_t *reason);

/* Sets the fcr (e.g. an initial estimate until packets calibrate it) and
   widens [min_fcr, max_fcr]. Reasons: INTERNAL (NULL). */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_set_fcr(tdec_ipt_tcal *c, uint64_t fcr, uint32_t *reason);

/* A TSC outside PSB+: only remembered (tsc, cycles since := 0), never used
   to calibrate (time may have been lost). cfg unused (may be NULL).
   Reasons: INTERNAL, INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_tsc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A TSC inside PSB+: remembers it like update_tsc, and when a previous TSC
   (non-zero) and cycles since it exist and no MTC was ever seen, calibrates
   fcr = (tsc delta << 8) / cycles (one 56-bit wrap corrected). cfg unused.
   Reasons: BAD_PACKET (TSC went back more than a wrap) and INTERNAL (delta
   too big to shift, or NULL), both after remembering the TSC; INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_header_tsc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A CBR outside PSB+ (a frequency change): resets the calibration (even
   when cfg is NULL: then INTERNAL after the reset, as libipt), then
   calibrates as header_cbr. */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_cbr(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A CBR inside PSB+: with cfg->nom_freq set, fcr = (nom_freq << 8) / ratio
   (nom_freq 0: nothing to do, TDEC_OK even for ratio 0). Reasons:
   BAD_PACKET (ratio 0), INTERNAL (NULL, cfg required), INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_header_cbr(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A TMA: nothing to calibrate (libipt does not even check its arguments).
   Reasons: INVALID for a non-NULL packet that is not a TMA. */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_tma(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* An MTC: the first one (since init/ovf) only records its CTC; later ones,
   when CYCs counted cycles since the previous one, calibrate fcr =
   ((CTC delta * ebx / eax) << 8) / cycles (without cycles the MTC is skipped
   and its period merged with the next). After a PSB with erratum SKL168 the
   first MTC does not calibrate when MTCs or a wrap CYC look lost. Reasons:
   BAD_PACKET (CTC went back more than a wrap), BAD_CONFIG (cpuid value 0),
   INTERNAL (delta too big, or NULL) - all after recording the MTC; INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_mtc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A CYC: counts its cycles for the next calibration. cfg unused. Reasons:
   INTERNAL, INVALID. */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_cyc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason);

/* A PSB: with cfg->errata & TDEC_IPT_ERRATUM_SKL168, the next MTC is checked
   for the erratum. Reasons: INTERNAL (NULL). */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_psb(tdec_ipt_tcal *c, const tdec_ipt_config *cfg,
                                                  uint32_t *reason);

/* An OVF. Without TDEC_IPT_F_KEEP_TCAL_OVF in cfg->flags: the calibration
   is reset (tdec_ipt_tcal_init; libipt's decoders and ptdump's default).
   With it: the fcr is kept and only the partial state is dropped (last TSC,
   cycle counts, last MTC: libipt's pt_tcal_update_ovf, ptdump
   --keep-tcal-on-ovf). Reasons: INTERNAL (NULL, nothing changed). */
TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_ovf(tdec_ipt_tcal *c, const tdec_ipt_config *cfg,
                                                  uint32_t *reason);


/* ---- layer 2: events ----------------------------------------------------- */

/* The event decoder turns packets into libipt master's event stream
   (pt_evt_next): packets that need a later packet are queued until it comes
   (a FUP for TSX aborts, a TIP for an asynchronous branch, PSBEND for PSB+
   status, ...). It is fed like the packet decoder, in any chunks; where
   libipt reads ahead (OVF recovery, errata BDM70, SKD010, APL11, APL12) the
   decoder keeps the packets it cannot place yet and returns TDEC_NEED_INPUT
   until a later packet, or finish(), decides.

   The loop:
       tdec_ipt_evt_decoder e;  tdec_ipt_evt_item it;  tdec_status st;
       st = tdec_ipt_evt_init(&e, &cfg);
       while (st >= 0) {
           st = tdec_ipt_evt_next(&e, &it);
           if (st == TDEC_OK) { use(&it); continue; }   SYNC or EVENT
           if (st == TDEC_E_CORRUPT) { st = tdec_ipt_evt_resync(&e); continue; }
           if (st != TDEC_NEED_INPUT) break;              END, or error
           n = read_some(buf, sizeof buf);
           st = n ? tdec_ipt_evt_feed(&e, buf, n) : tdec_ipt_evt_finish(&e);
       }

   Errors: TDEC_E_CORRUPT with err_reason one of libipt's codes
   (TDEC_IPT_ERR_BAD_CONTEXT, _BAD_STATUS_UPDATE, _BAD_PACKET, _BAD_OPC,
   _NOMEM, _NOIP, ...) and err_offset where libipt's pt_evt_get_offset()
   points: the packet the failing pt_evt_next() call started at, or, while
   synchronising (e.in_sync), the packet that failed. resync() looks for the
   next PSB as pt_evt_sync_forward() does. A stream that ends inside a
   packet ends like libipt's: TDEC_END (libipt's -pte_eos). */

/* Event types (tdec_ipt_event.type): libipt's enum pt_event_type, same
   order. */
enum tdec_ipt_event_type {
    TDEC_IPT_EV_ENABLED = 0,
    TDEC_IPT_EV_DISABLED,
    TDEC_IPT_EV_ASYNC_DISABLED,
    TDEC_IPT_EV_ASYNC_BRANCH,
    TDEC_IPT_EV_PAGING,
    TDEC_IPT_EV_ASYNC_PAGING,
    TDEC_IPT_EV_OVERFLOW,
    TDEC_IPT_EV_EXEC_MODE,
    TDEC_IPT_EV_TSX,
    TDEC_IPT_EV_STOP,
    TDEC_IPT_EV_VMCS,
    TDEC_IPT_EV_ASYNC_VMCS,
    TDEC_IPT_EV_EXSTOP,
    TDEC_IPT_EV_MWAIT,
    TDEC_IPT_EV_PWRE,
    TDEC_IPT_EV_PWRX,
    TDEC_IPT_EV_PTWRITE,
    TDEC_IPT_EV_TICK,
    TDEC_IPT_EV_CBR,
    TDEC_IPT_EV_MNT,
    TDEC_IPT_EV_TIP,
    TDEC_IPT_EV_TNT,
    TDEC_IPT_EV_IFLAGS,
    TDEC_IPT_EV_INTERRUPT,
    TDEC_IPT_EV_IRET,
    TDEC_IPT_EV_SMI,
    TDEC_IPT_EV_RSM,
    TDEC_IPT_EV_SIPI,
    TDEC_IPT_EV_INIT,
    TDEC_IPT_EV_VMENTRY,
    TDEC_IPT_EV_VMEXIT,
    TDEC_IPT_EV_SHUTDOWN,
    TDEC_IPT_EV_UINTR,
    TDEC_IPT_EV_UIRET,
    TDEC_IPT_EV_TRIG,
    TDEC_IPT_EV_SWINTR,
    TDEC_IPT_EV_SYSCALL,
    TDEC_IPT_EV_COUNT
};

/* Event flags (tdec_ipt_event.flags). The first three are every event's. */
#define TDEC_IPT_EVF_IP_SUPPRESSED 0x0001u /* ip is not known                     */
#define TDEC_IPT_EVF_STATUS        0x0002u /* a PSB+ status update (libipt's      */
                                           /* status_update), not a change        */
#define TDEC_IPT_EVF_HAS_TSC       0x0004u /* tsc, lost_mtc, lost_cyc are valid   */
#define TDEC_IPT_EVF_RESUMED       0x0010u /* enabled: resumed (never set here)   */
#define TDEC_IPT_EVF_NR            0x0020u /* paging, async_paging: non-root      */
#define TDEC_IPT_EVF_SPECULATIVE   0x0040u /* tsx                                 */
#define TDEC_IPT_EVF_ABORTED       0x0080u /* tsx                                 */
#define TDEC_IPT_EVF_HW            0x0100u /* pwre: hardware request              */
#define TDEC_IPT_EVF_INTERRUPT     0x0200u /* pwrx wake reasons                   */
#define TDEC_IPT_EVF_STORE         0x0400u
#define TDEC_IPT_EVF_AUTONOMOUS    0x0800u
#define TDEC_IPT_EVF_IFLAG         0x1000u /* iflags: the new RFLAGS.IF           */
#define TDEC_IPT_EVF_HAS_CR2       0x2000u /* interrupt: arg holds CR2            */
#define TDEC_IPT_EVF_HAS_VECTOR    0x4000u /* vmexit: a holds the vector          */
#define TDEC_IPT_EVF_HAS_VMXR      0x8000u /* vmexit: arg2 holds VMXR             */
#define TDEC_IPT_EVF_HAS_VMXQ      0x10000u /* vmexit: arg holds VMXQ             */
#define TDEC_IPT_EVF_MULT          0x20000u /* trig: more triggers than reported  */

/* One event. Which field holds what (libipt's struct pt_event names):

     type             ip         arg          arg2   a          b        aux    flags
     ENABLED          ip         -            -      -          -        -      RESUMED
     DISABLED         ip         -
     ASYNC_DISABLED   ip         at
     ASYNC_BRANCH     to         from
     PAGING           -          cr3                                            NR
     ASYNC_PAGING     ip         cr3                                            NR
     OVERFLOW         ip
     EXEC_MODE        ip         -            -      mode (1: 16-bit, 2: 32-bit, 3: 64-bit)
     TSX              ip                                                        SPECULATIVE ABORTED
     STOP             -
     VMCS             -          base
     ASYNC_VMCS       ip         base
     EXSTOP           ip
     MWAIT            ip         hints        -      -          -        ext
     PWRE             -          -            -      state      sub_state       HW
     PWRX             -          -            -      last       deepest         INTERRUPT STORE AUTONOMOUS
     PTWRITE          ip         payload      -      size
     TICK             ip
     CBR              -          -            -      ratio
     MNT              -          payload
     TIP              ip
     TNT              -          bits         -      size (bit 0 = newest; bit size-1 = oldest; 1 = taken)
     IFLAGS           ip                                                        IFLAG
     INTERRUPT        ip         cr2          -      vector                     HAS_CR2
     IRET, SMI, RSM, INIT, VMENTRY, SHUTDOWN, UIRET, SYSCALL: ip
     SIPI             -          -            -      vector
     VMEXIT           ip         vmxq         vmxr   vector                     HAS_VECTOR HAS_VMXR HAS_VMXQ
     UINTR, SWINTR    ip         -            -      vector
     TRIG             ip         -            -      trbv       -        icnt   MULT

   ip is 0 when IP_SUPPRESSED is set. offset is the stream offset of the
   packet that completed the event (tracedec's; libipt has none). */
typedef struct tdec_ipt_event {
    uint64_t ip;
    uint64_t arg;
    uint64_t arg2;
    uint64_t tsc;      /* with HAS_TSC: the estimated TSC (libipt's pt_time)  */
    uint32_t lost_mtc; /* with HAS_TSC: MTCs and CYCs that could not be used  */
    uint32_t lost_cyc;
    uint32_t flags;    /* TDEC_IPT_EVF_*                                      */
    uint32_t aux;
    uint8_t  type;     /* tdec_ipt_event_type                                 */
    uint8_t  a;
    uint8_t  b;
    uint8_t  reserved;
} tdec_ipt_event;

/* Item kinds of the event decoder (tdec_ipt_evt_item.kind): an event is the
   core's TDEC_ITEM_RECORD (ev holds it); a sync point has a kind of its own,
   numbered clear of the core's TDEC_ITEM_* kinds. */
#define TDEC_IPT_ITEM_SYNC 0x100u /* synchronised on the PSB at offset: what  */
                                  /* follows is a new segment                 */
                                  /* (pt_evt_sync_forward); ev is all zero    */

typedef struct tdec_ipt_evt_item {
    uint32_t       kind;   /* TDEC_ITEM_RECORD or TDEC_IPT_ITEM_SYNC          */
    uint64_t       offset; /* RECORD: the packet that completed the event;    */
                           /* SYNC: the PSB                                   */
    tdec_ipt_event ev;
} tdec_ipt_evt_item;

/* Config flag for the event decoder (libipt's enable_iflags_events): report
   changes of RFLAGS.IF from MODE.Exec as IFLAGS events. */
#define TDEC_IPT_F_IFLAGS 8u

/* Config flag for the flow decoder (libipt's enable_tick_events): after an
   instruction whose branch used a TNT bit or a TIP, a TICK event at that
   instruction when the trace's time there differs from the last time
   reported (by a tick or by an event with a TSC). */
#define TDEC_IPT_F_TICKS 16u

/* Look-ahead capacity: packets that libipt reads ahead over and that the
   decoder must keep until it can place them (not counting PAD, TSC, TMA,
   MTC and CYC, which are applied as they come, nor the end of the input or
   a decode error). More than this in one look-ahead is TDEC_E_CORRUPT with
   TDEC_IPT_ERR_NOMEM. */
#define TDEC_IPT_EVT_HOLD 16

/* Pending events (libipt's event queue holds up to 14; one more is
   TDEC_IPT_ERR_NOMEM, as there). */
#define TDEC_IPT_EVT_QUEUE 14

/* The time at a packet, as events and queries report it. */
typedef struct tdec_ipt__stamp {
    uint64_t tsc;
    uint32_t lost_mtc, lost_cyc;
    uint8_t  has_tsc;
    uint8_t  has_cbr;
    uint8_t  cbr;
    uint8_t  reserved;
} tdec_ipt__stamp;

/* The error state of the event and query decoders, read-only: as the
   packet decoder's tdec_stream, whose input side they leave to the packet
   decoder inside them. */
typedef struct tdec_ipt_err_state {
    uint64_t    err_offset; /* where the sticky error was detected           */
    tdec_status err;        /* sticky error, TDEC_OK if none                 */
    uint32_t    err_reason; /* TDEC_IPT_ERR_*                                */
} tdec_ipt_err_state;

typedef struct tdec_ipt__held {
    tdec_ipt_packet pkt;
    uint64_t        offset;
    uint64_t        from;  /* the first packet read after the one before it   */
                           /* (libipt's offset there: time packets count)     */
    tdec_ipt__stamp stamp; /* the time right after the packet */
} tdec_ipt__held;

typedef struct tdec_ipt__queued {
    tdec_ipt_event ev;
    uint64_t       offset;
    uint32_t       binding;
} tdec_ipt__queued;

typedef struct tdec_ipt_evt_decoder {
    tdec_ipt_err_state st;        /* public read-only: err, err_offset, err_reason */
    uint8_t          in_sync;     /* public: reading the PSB+ of a sync point (an   */
                                  /* error now is a sync error)                     */
    /* private */
    uint8_t          phase;
    uint8_t          have_cur;    /* cur holds the packet being processed           */
    uint8_t          bound;       /* libipt's flag: cur already bound an event      */
    uint8_t          enabled;     /* tracing is on                                  */
    uint8_t          exec_valid;  /* exec holds the last MODE.Exec bits             */
    uint8_t          exec;
    uint8_t          in_psb;      /* reading between PSB and PSBEND/OVF (timing)    */
    uint8_t          start_set;   /* call_offset is set for this next() call        */
    uint8_t          look;        /* running look-ahead scans                       */
    uint8_t          look_done;   /* the scans that have decided                    */
    uint8_t          tsx_found;   /* SKD010 scan: a MODE.TSX (tsx_bits) was seen    */
    uint8_t          tsx_bits;
    uint8_t          nq;          /* queued events                                  */
    uint8_t          nheld;       /* held packets, the first at held_head           */
    uint8_t          held_head;
    uint8_t          scan;        /* held packets the scans have seen               */
    uint8_t          cur_live;    /* cur_stamp is not made yet: it is the time now  */
    uint8_t          skipped;     /* a look-ahead applied time packets after the    */
                                  /* last packet kept, the first at skipped_at      */
    uint8_t          look_how[3]; /* how a scan recovers, and at which held packet */
    uint8_t          look_at[3];
    int32_t          look_res[5]; /* the scans' results                             */
    int32_t          cur_err;     /* cur's error: decode, end, or its timing        */
    uint64_t         call_offset; /* cur when this next() call started              */
    uint64_t         cur_offset;
    uint64_t         sync_psb;    /* offset of the last PSB                         */
    uint64_t         skipped_at;
    tdec_ipt_packet  cur;
    tdec_ipt__stamp  cur_stamp;   /* the time right after cur                       */
    tdec_ipt_packet  look_fup;    /* the PSB+ FUP the SKD010 scan found             */
    tdec_ipt_last_ip ip;
    tdec_ipt_time    time;
    tdec_ipt_tcal    tcal;
    tdec_ipt_decoder pkt;         /* the packet layer                               */
    tdec_ipt__queued queue[TDEC_IPT_EVT_QUEUE];
    tdec_ipt__held   held[TDEC_IPT_EVT_HOLD + 1]; /* + the end or a decode error  */
    int32_t          held_err[TDEC_IPT_EVT_HOLD + 1];
} tdec_ipt_evt_decoder;

/* Starts an event decoder (cfg as for tdec_ipt_init, plus TDEC_IPT_F_IFLAGS
   and TDEC_IPT_F_KEEP_TCAL_OVF; TDEC_IPT_F_NO_SYNC is ignored: events start
   at a PSB). Returns TDEC_NEED_INPUT or TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_evt_init(tdec_ipt_evt_decoder *e, const tdec_ipt_config *cfg);
/* As tdec_ipt_feed. */
TDEC_IPT_DEF tdec_status tdec_ipt_evt_feed(tdec_ipt_evt_decoder *e, const void *data, size_t len);
/* As tdec_ipt_finish (CONTRACT: Ending): TDEC_END when nothing is held,
   read ahead or half processed, so that next() meets the end at once; else
   TDEC_NEED_INPUT (the end also decides pending look-aheads). Where the
   input ends is never an error here: see next(). */
TDEC_IPT_DEF tdec_status tdec_ipt_evt_finish(tdec_ipt_evt_decoder *e);
/* The next item, an event or a sync point: TDEC_OK, TDEC_NEED_INPUT,
   TDEC_END (after finish(), also when the input ends inside a packet:
   libipt's -pte_eos), or an error (sticky until resync/reset). */
TDEC_IPT_DEF tdec_status tdec_ipt_evt_next(tdec_ipt_evt_decoder *e, tdec_ipt_evt_item *out);
/* After TDEC_E_CORRUPT: forget the state and look for the next PSB, as
   pt_evt_sync_forward(). Returns TDEC_NEED_INPUT, or TDEC_E_SEQUENCE when
   there is no error to recover from. */
TDEC_IPT_DEF tdec_status tdec_ipt_evt_resync(tdec_ipt_evt_decoder *e);
/* Forgets the state and looks for the next PSB from where the decoder is,
   after an error or not (libipt's pt_evt_sync_forward): a layer above that
   failed on its own goes on at the next sync point. Returns TDEC_NEED_INPUT
   (next() then meets the PSB or the end), or TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_evt_sync_forward(tdec_ipt_evt_decoder *e);
/* libipt's pt_evt_get_offset: the packet the decoder is on, where its next
   next() starts reading. That is the packet an event came from while more
   may come from it (a TIP, a PSBEND's status events), else the packet after
   it, PADs skipped (read from the packet layer now); after an error the
   packet that failed, after the end where the trace ends. Item offsets are
   the packets that completed the events; this is what libipt's offsets in
   errors of the layers above are. TDEC_OK (*offset set), TDEC_NEED_INPUT
   (the next packet is not fed yet: feed() or finish(), ask again) or
   TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_evt_offset(tdec_ipt_evt_decoder *e, uint64_t *offset);
/* Back to the state after init() (same config). */
TDEC_IPT_DEF void tdec_ipt_evt_reset(tdec_ipt_evt_decoder *e);
/* Text for an event type: "enabled", "async_branch", ... ("" under
   TDEC_NO_STRINGS). */
TDEC_IPT_DEF const char *tdec_ipt_event_str(uint32_t type);


/* ---- layer 2: queries ---------------------------------------------------- */

/* The query decoder answers an instruction-flow decoder's questions as
   libipt master's pt_qry_* do, on top of the event decoder: conditional
   branches from TNT, indirect branch targets from TIP, and the events in
   between. It reads one event ahead to report TDEC_IPT_QF_EVENT_PENDING;
   a query that needs an event not yet decodable returns TDEC_NEED_INPUT
   and changes nothing, so it can simply be asked again after feed() or
   finish().

       st = tdec_ipt_qry_init(&q, &cfg);
       loop:
         st = tdec_ipt_qry_sync(&q, &ip, &flags, NULL);  once per segment
         st = tdec_ipt_qry_cond_branch(&q, &taken, &flags);
         st = tdec_ipt_qry_indirect_branch(&q, &ip, &flags);
         st = tdec_ipt_qry_event(&q, &ev, &flags);
         on TDEC_NEED_INPUT: feed() or finish(), then ask again;
         on TDEC_E_CORRUPT: resync(), then sync() again.

   Every query returns TDEC_OK with *flags = TDEC_IPT_QF_* bits (libipt's
   pt_status_flag bits, the status a pt_qry_* call returns);
   TDEC_NEED_INPUT; TDEC_END (the trace ended: libipt's -pte_eos, after an
   answer with TDEC_IPT_QF_EOS); TDEC_E_SEQUENCE when the next item is not
   what the query asks for (libipt's -pte_bad_query: nothing changed, not
   sticky; err_reason is not set); or TDEC_E_CORRUPT (sticky until
   resync(): err_reason a libipt code, err_offset the packet the event
   decoder failed at, as pt_qry_get_offset() reports it, or while in_sync
   the one pt_qry_sync_forward() reports). */

#define TDEC_IPT_QF_EVENT_PENDING 0x1u /* an event must be asked for first    */
#define TDEC_IPT_QF_IP_SUPPRESSED 0x2u /* no IP (sync, indirect branch)       */
#define TDEC_IPT_QF_EOS           0x4u /* the trace ends here                 */

/* Events the query decoder reads ahead: a sync point's status events and
   one more (libipt's event queue bounds the status events). */
#define TDEC_IPT_QRY_AHEAD 16

typedef struct tdec_ipt__ahead {
    tdec_ipt_event  ev;
    tdec_ipt__stamp now;    /* the event decoder's time when it made ev    */
    uint64_t        offset; /* error: where the event decoder failed       */
    int32_t         code;   /* 0: ev; < 0: libipt's error (-pte_eos: end)  */
    uint32_t        reserved;
} tdec_ipt__ahead;

typedef struct tdec_ipt_qry_decoder {
    tdec_ipt_err_state   st;        /* public read-only: err, err_offset, err_reason */
    uint8_t              in_sync;   /* public: an error now is a sync error          */
    /* private */
    uint8_t              phase;
    uint8_t              n;         /* events read ahead, the first at head          */
    uint8_t              head;
    uint64_t             tnt;       /* cached TNT bits; tnt_mask: the next one       */
    uint64_t             tnt_mask;
    uint64_t             look_offset; /* the sync point's PSBEND (errors while in_sync) */
    uint64_t             sync_offset;
    tdec_ipt__stamp      last_time; /* at the last TNT, TIP or event query           */
    tdec_ipt_evt_decoder evt;
    tdec_ipt__ahead      ahead[TDEC_IPT_QRY_AHEAD];
} tdec_ipt_qry_decoder;

/* As the event decoder's init/feed/finish/reset. finish() says TDEC_END
   only when every query would meet the end at once: no event read ahead,
   no TNT bit cached. */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_init(tdec_ipt_qry_decoder *q, const tdec_ipt_config *cfg);
TDEC_IPT_DEF tdec_status tdec_ipt_qry_feed(tdec_ipt_qry_decoder *q, const void *data, size_t len);
TDEC_IPT_DEF tdec_status tdec_ipt_qry_finish(tdec_ipt_qry_decoder *q);
TDEC_IPT_DEF void tdec_ipt_qry_reset(tdec_ipt_qry_decoder *q);
/* Synchronises on the next PSB (pt_qry_sync_forward): *ip gets the IP
   tracing starts at unless *flags has TDEC_IPT_QF_IP_SUPPRESSED;
   *sync_offset (may be NULL) the PSB. TDEC_END: no PSB before the end. */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_sync(tdec_ipt_qry_decoder *q, uint64_t *ip, uint32_t *flags,
                                           uint64_t *sync_offset);
/* The next conditional branch: *taken 1 or 0. */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_cond_branch(tdec_ipt_qry_decoder *q, int *taken, uint32_t *flags);
/* The next indirect branch's target (*ip unchanged when suppressed). */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_indirect_branch(tdec_ipt_qry_decoder *q, uint64_t *ip,
                                                      uint32_t *flags);
/* The pending event. */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_event(tdec_ipt_qry_decoder *q, tdec_ipt_event *ev,
                                            uint32_t *flags);
/* The time at the last query (pt_qry_time), as tdec_ipt_time_query_tsc
   reports it (a value function, see "last-IP"): outputs written even
   without a TSC yet. Reasons: NO_TIME, INVALID (q or tsc NULL). */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_time(const tdec_ipt_qry_decoder *q, uint64_t *tsc,
                                           uint32_t *lost_mtc, uint32_t *lost_cyc, uint32_t *reason);
/* The core:bus ratio at the last query (pt_qry_core_bus_ratio). Reasons:
   NO_CBR (*cbr untouched), INVALID (NULL). */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_cbr(const tdec_ipt_qry_decoder *q, uint32_t *cbr,
                                          uint32_t *reason);
/* After TDEC_E_CORRUPT: as tdec_ipt_evt_resync; then call sync(). */
TDEC_IPT_DEF tdec_status tdec_ipt_qry_resync(tdec_ipt_qry_decoder *q);


/* ---- x86 instructions: length and class ---------------------------------- */

/* Execution modes (libipt's enum pt_exec_mode): the mode an instruction is
   decoded in, and the `a` of a TDEC_IPT_EV_EXEC_MODE event. */
enum tdec_ipt_exec_mode {
    TDEC_IPT_MODE_UNKNOWN = 0,
    TDEC_IPT_MODE_16      = 1,
    TDEC_IPT_MODE_32      = 2,
    TDEC_IPT_MODE_64      = 3
};

#ifndef TDEC_IPT_NO_FLOW
/* The x86 length and class decoder, libipt's pt_ild, usable alone: the
   length of the instruction at some bytes, what kind of control flow it is,
   and for a direct branch its displacement (FLOW.md §1). It is a length
   decoder, not a validator: like libipt it gives reserved and undefined
   encodings a length, and only an invalid opcode map (0F 39, 0F 3B..3F,
   VEX/EVEX map 0, VEX map 8..31) or an instruction longer than 15 bytes is
   invalid. Prefixes, REX (64-bit mode), REX2 (APX, 64-bit mode), VEX and
   EVEX are decoded; AMD's XOP (8F) and 3DNow! (0F 0F) are not: libipt
   decodes them as POP r/m and as a 2-byte 0F 0F. Constant work, no state,
   no allocation; compiled out with TDEC_IPT_NO_FLOW (the packet and event
   layers do not need it). */

#define TDEC_IPT_INSN_MAX 15 /* the architectural limit: longest instruction */

/* The coarse class (libipt's enum pt_insn_class, same numbers). */
enum tdec_ipt_iclass {
    TDEC_IPT_IC_UNKNOWN = 0, /* not decoded (libipt's ptic_unknown/ptic_error) */
    TDEC_IPT_IC_OTHER,       /* not a branch                                   */
    TDEC_IPT_IC_CALL,        /* near call: E8 (direct), FF /2                  */
    TDEC_IPT_IC_RETURN,      /* near return: C3, C2                            */
    TDEC_IPT_IC_JUMP,        /* near jump: E9, EB (direct), FF /4, JMPABS      */
    TDEC_IPT_IC_COND_JUMP,   /* Jcc, JrCXZ, LOOP, LOOPE, LOOPNE: a TNT bit     */
    TDEC_IPT_IC_FAR_CALL,    /* call-like far transfer: far call, INT, SYSCALL */
    TDEC_IPT_IC_FAR_RETURN,  /* return-like: far RET, IRET, SYSRET, VMLAUNCH   */
    TDEC_IPT_IC_FAR_JUMP,    /* far jump: EA, FF /5                            */
    TDEC_IPT_IC_PTWRITE,     /* F3 0F AE /4                                    */
    TDEC_IPT_IC_INDIRECT     /* never from the decoder (libipt's block cache)  */
};

/* The fine class (libipt's PTI_INST_*, same order): which instruction of
   the list; TDEC_IPT_INSN_OTHER for any other. */
enum tdec_ipt_insn_kind {
    TDEC_IPT_INSN_OTHER = 0,
    TDEC_IPT_INSN_CALL_9A,   /* far call ptr16:z (not 64-bit)        */
    TDEC_IPT_INSN_CALL_FFR3, /* far call m16:z                       */
    TDEC_IPT_INSN_CALL_FFR2, /* near indirect call                   */
    TDEC_IPT_INSN_CALL_E8,   /* near direct call                     */
    TDEC_IPT_INSN_INT,       /* INT imm8 (CD)                        */
    TDEC_IPT_INSN_INT3,      /* CC                                   */
    TDEC_IPT_INSN_INT1,      /* F1                                   */
    TDEC_IPT_INSN_INTO,      /* CE (not 64-bit)                      */
    TDEC_IPT_INSN_IRET,      /* CF: IRET, IRETD, IRETQ               */
    TDEC_IPT_INSN_JMP_E9,
    TDEC_IPT_INSN_JMP_EB,
    TDEC_IPT_INSN_JMP_EA,    /* far jump ptr16:z (not 64-bit)        */
    TDEC_IPT_INSN_JMP_FFR5,  /* far jump m16:z                       */
    TDEC_IPT_INSN_JMP_FFR4,  /* near indirect jump                   */
    TDEC_IPT_INSN_JCC,       /* 70..7F, 0F 80..8F                    */
    TDEC_IPT_INSN_JRCXZ,     /* E3                                   */
    TDEC_IPT_INSN_LOOP,      /* E2                                   */
    TDEC_IPT_INSN_LOOPE,     /* E1                                   */
    TDEC_IPT_INSN_LOOPNE,    /* E0                                   */
    TDEC_IPT_INSN_MOV_CR3,   /* 0F 22 /3 without REX.R (class other) */
    TDEC_IPT_INSN_RET_C3,
    TDEC_IPT_INSN_RET_C2,
    TDEC_IPT_INSN_RET_CB,    /* far returns                          */
    TDEC_IPT_INSN_RET_CA,
    TDEC_IPT_INSN_SYSCALL,   /* 0F 05                                */
    TDEC_IPT_INSN_SYSENTER,  /* 0F 34                                */
    TDEC_IPT_INSN_SYSEXIT,   /* 0F 35                                */
    TDEC_IPT_INSN_SYSRET,    /* 0F 07                                */
    TDEC_IPT_INSN_VMLAUNCH,  /* 0F 01 C2                             */
    TDEC_IPT_INSN_VMRESUME,  /* 0F 01 C3                             */
    TDEC_IPT_INSN_VMCALL,    /* 0F 01 C1                             */
    TDEC_IPT_INSN_VMPTRLD,   /* 0F C7 /6, memory (class other)       */
    TDEC_IPT_INSN_PTWRITE,
    TDEC_IPT_INSN_UIRET,     /* 0F 01 EC                             */
    TDEC_IPT_INSN_ERETS,     /* F2 0F 01 CA                          */
    TDEC_IPT_INSN_ERETU,     /* F3 0F 01 CA                          */
    TDEC_IPT_INSN_JMPABS,    /* REX2 A1 abs64 (APX): direct, but     */
                             /* traced with a TIP                    */
    TDEC_IPT_INSN_KIND_COUNT
};

/* Predicates on the fine class (tdec_ipt_insn_info.flags), libipt's
   pt_insn_* predicates that bind events to instructions. */
#define TDEC_IPT_INSNF_DIRECT  0x001u /* disp holds the branch's displacement  */
                                      /* (JMPABS: its absolute target)         */
#define TDEC_IPT_INSNF_CPL     0x002u /* changes CPL: INT*, IRET, SYS*         */
#define TDEC_IPT_INSNF_PIP     0x004u /* binds a paging event: far branches,   */
                                      /* MOV CR3, VMLAUNCH, VMRESUME           */
#define TDEC_IPT_INSNF_VMCS    0x008u /* binds a VMCS event: far branches,     */
                                      /* VMPTRLD, VMLAUNCH, VMRESUME           */
#define TDEC_IPT_INSNF_IRET    0x010u /* IRET, SYSRET, SYSEXIT, ERETS, ERETU   */
#define TDEC_IPT_INSNF_VMENTRY 0x020u /* VMLAUNCH, VMRESUME                    */
#define TDEC_IPT_INSNF_SWINT   0x040u /* INT n, INT3, INT1, INTO               */
#define TDEC_IPT_INSNF_SYSCALL 0x080u /* SYSCALL, SYSENTER                     */
#define TDEC_IPT_INSNF_UIRET   0x100u /* UIRET                                 */

/* One decoded instruction. 16 bytes on every ABI. */
typedef struct tdec_ipt_insn_info {
    int64_t  disp;   /* with TDEC_IPT_INSNF_DIRECT: the displacement from the */
                     /* next instruction (JMPABS: the target); else 0         */
    uint8_t  size;   /* bytes, 1..15                                          */
    uint8_t  iclass; /* tdec_ipt_iclass                                       */
    uint8_t  kind;   /* tdec_ipt_insn_kind                                    */
    uint8_t  reserved;
    uint16_t flags;  /* TDEC_IPT_INSNF_*                                      */
    uint16_t reserved2;
} tdec_ipt_insn_info;

/* Decodes the instruction at bytes[0, size) in `mode` (tdec_ipt_exec_mode;
   TDEC_IPT_MODE_UNKNOWN decodes as libipt does without a mode: 16-bit
   operand sizes, a ModRM without SIB or displacement). Only the first 15
   bytes are read, never more than size. A value function (see "last-IP"):
     TDEC_OK          *out filled
     TDEC_NEED_INPUT  the bytes end before the instruction does, and it
                      could still end within 15 bytes: decode again with
                      more (*out untouched, *reason 0)
     TDEC_E_CORRUPT   invalid (reason BAD_INSN): an invalid opcode map, or
                      longer than 15 bytes
     TDEC_E_ARG       NULL bytes or out (INTERNAL), mode above 3 (INVALID)
   Whether an instruction is invalid or needs more bytes is decided from the
   bytes given: a shorter input never turns a valid or invalid instruction
   into the other answer. */
TDEC_IPT_DEF tdec_status tdec_ipt_insn_decode(const uint8_t *bytes, size_t size, uint32_t mode,
                                              tdec_ipt_insn_info *out, uint32_t *reason);

/* The next IP without trace (libipt's pt_insn_next_ip, FLOW.md §1.7): for
   class OTHER and PTWRITE ip + size; for a direct CALL or JUMP (not JMPABS)
   ip + size + disp, 64-bit wrap-around, no truncation in 16/32-bit mode.
   Everything else needs the trace: TDEC_E_SEQUENCE, reason BAD_QUERY
   (*next untouched). Class UNKNOWN: TDEC_E_CORRUPT, BAD_INSN; NULL:
   TDEC_E_ARG, INTERNAL. */
TDEC_IPT_DEF tdec_status tdec_ipt_insn_next_ip(const tdec_ipt_insn_info *insn, uint64_t ip,
                                               uint64_t *next, uint32_t *reason);
/* ---- layer 3: instruction flow ------------------------------------------- */

/* The instruction flow decoder: which instructions ran, in order, with the
   events in place, as libipt master's instruction and block decoders
   (pt_insn_*, pt_blk_*) give them, built like libipt's on the event decoder
   (FLOW.md §2). Code comes from the caller through a read callback;
   tdec_ipt_image_read reads an array of caller-owned sections. docs/ipt.md
   "Layer 3" says what is done and what differs.

       st = tdec_ipt_flow_init(&f, &cfg, tdec_ipt_image_read, &image, 0);
       tdec_ipt_flow_set_cache(&f, mem, sizeof mem);    (optional: blocks)
       loop:
         st = tdec_ipt_flow_next(&f, &item);   (or flow_next_block: blocks)
         TDEC_OK: item.kind says instruction (block) or event;
         TDEC_NEED_INPUT: feed() or finish(), then ask again (nothing changed);
         TDEC_END: the trace ended (f.enabled: tracing was on: "[end of trace]");
         TDEC_E_CORRUPT: st.err_reason/err_offset, err_ip; resync() (the next
           PSB) or resync_event() (the current event) and go on.

   Every call returns after one instruction, block (at most 65535
   instructions) or event; the silent steps on the way (PSB+ status events,
   a resolved branch) each use trace, so work is bounded by the input fed.
   Straight-line code needs
   no trace: more than walk_limit instructions in a row without using trace
   or an event is TDEC_E_CORRUPT with TDEC_IPT_ERR_WALK_LIMIT. */

/* Reads up to size bytes of code at addr in address space asid (CR3; 0 when
   none is known) into buf. Returns the bytes read, 0 when nothing is mapped
   there. */
typedef size_t (*tdec_ipt_read_fn)(void *ctx, uint64_t asid, uint64_t addr, uint8_t *buf, size_t size);

#define TDEC_IPT_ASID_ANY UINT64_MAX /* a section mapped in every address space */

/* A piece of code the caller owns: bytes[0, size) at vaddr. */
typedef struct tdec_ipt_section {
    uint64_t       vaddr;
    uint64_t       size;
    const uint8_t *bytes;
    uint64_t       asid;  /* CR3, or TDEC_IPT_ASID_ANY */
} tdec_ipt_section;

/* Sections, the later winning where they overlap (libipt cuts the older
   one: the newest mapping wins). */
typedef struct tdec_ipt_image {
    const tdec_ipt_section *sections;
    size_t                  count;
} tdec_ipt_image;

/* A tdec_ipt_read_fn over a tdec_ipt_image (ctx): the section of asid (or
   of every asid) holding addr, the last such one; reads stop at its end or
   where a later section of that asid begins. */
TDEC_IPT_DEF size_t tdec_ipt_image_read(void *image, uint64_t asid, uint64_t addr, uint8_t *buf,
                                        size_t size);

/* The IP filter the trace was recorded with (IA32_RTIT_CTL.ADDRn_CFG and
   IA32_RTIT_ADDRn_A/B; libipt's pt_conf_addr_filter). The flow decoder
   needs it for erratum SKL014 only. */
typedef struct tdec_ipt_addr_filter {
    uint32_t cfg;       /* 4 bits a range, range n at bit 4n: 0 unused,       */
    uint32_t reserved;  /* 1 filter (trace inside), 2 stop (no trace inside)  */
    uint64_t a[4], b[4]; /* range n: [a[n], b[n]], inclusive                  */
} tdec_ipt_addr_filter;

/* Does the filter let code at ip be traced (libipt's pt_filter_addr_check)?
   Inside a stop range: no; else inside a filter range, or no filter range
   configured: yes. */
TDEC_IPT_DEF int tdec_ipt_filter_check(const tdec_ipt_addr_filter *filter, uint64_t ip);

#define TDEC_IPT_FLOW_INSN  1u /* item: an instruction ran             */
#define TDEC_IPT_FLOW_EVENT 2u /* item: an event (never a PSB+ status) */
#define TDEC_IPT_FLOW_BLOCK 3u /* item: instructions that ran in a row */

#define TDEC_IPT_RETSTACK   64   /* return addresses kept for compressed returns */
#define TDEC_IPT_WALK_LIMIT 1048576u /* default walk_limit                        */

/* An instruction, a block or an event. A block is what libipt's pt_blk_next
   gives: instructions that ran one after the other from ip to end_ip
   (direct jumps and calls followed), ending at the first that needed trace,
   before an event's place or after the instruction an event binds to, and
   after a direct call or jump when asked to (TDEC_IPT_BLOCK_END_ON_*). Its
   instructions are read again from the image with tdec_ipt_block_walk. */
typedef struct tdec_ipt_flow_item {
    uint32_t       kind;        /* TDEC_IPT_FLOW_*                               */
    uint8_t        size;        /* INSN, BLOCK (its last instruction): bytes     */
    uint8_t        iclass;      /* INSN, BLOCK (last): tdec_ipt_iclass           */
    uint8_t        mode;        /* INSN, BLOCK: tdec_ipt_exec_mode               */
    uint8_t        speculative; /* INSN, BLOCK: inside a TSX transaction ("? ")  */
    uint64_t       ip;          /* INSN: its address; BLOCK: the first one's     */
    uint64_t       end_ip;      /* INSN: ip; BLOCK: the last instruction's       */
    uint32_t       ninsn;       /* INSN: 1; BLOCK: instructions, 1 to 65535      */
    uint32_t       reserved;
    tdec_ipt_event ev;          /* EVENT (RESUMED set on a resumed enable)       */
    uint8_t        raw[16];     /* INSN: its bytes                               */
} tdec_ipt_flow_item;

typedef struct tdec_ipt__flow_ev {
    tdec_ipt_event ev;
    uint64_t       offset;
} tdec_ipt__flow_ev;

/* The state the status events of the last PSB+ set, for a resync there. */
typedef struct tdec_ipt__flow_psb {
    uint64_t at;        /* the PSB+ (its status events' offset), or UINT64_MAX */
    uint64_t ip;
    uint64_t cr3;
    uint8_t  enabled;
    uint8_t  mode;
    uint8_t  speculative;
    uint8_t  reserved[5];
} tdec_ipt__flow_psb;
/* One entry of the cache, one cache line: what is remembered about the code
   at ip in address space asid and mode. A run (what TDEC_IPT__RUN): ninsn
   instructions that need no trace (direct jumps followed) up to the stop
   instruction `insn` at stop_ip. An instruction (TDEC_IPT__INSN): `insn`
   and its bytes raw. */
typedef struct tdec_ipt__cached {
    uint64_t           ip;
    uint64_t           asid;
    uint8_t            mode;
    uint8_t            what;   /* TDEC_IPT__RUN or TDEC_IPT__INSN; 0: empty  */
                               /* (zeroed memory, cache_invalidate)          */
    uint8_t            trace;  /* RUN: the stop instruction needs trace      */
    uint8_t            reserved;
    uint32_t           ninsn;  /* RUN */
    uint64_t           stop_ip; /* RUN */
    tdec_ipt_insn_info insn;
    uint8_t            raw[16]; /* INSN */
} tdec_ipt__cached;

#define TDEC_IPT_CACHE_ENTRY 64u /* bytes of cache one entry takes */

typedef struct tdec_ipt_flow_decoder {
    tdec_ipt_err_state st;      /* public read-only: err, err_offset, err_reason */
    uint64_t         err_ip;    /* public: the IP an error is reported at        */
    uint64_t         time;      /* public: the last event's TSC, PSB+ status too (0: none; ptxed --time) */
    uint8_t          enabled;   /* public: tracing is on                         */
    /* private */
    uint8_t          synced;
    uint8_t          at_sync;   /* only PSB+ events since the sync point         */
    uint8_t          mode;
    uint8_t          speculative;
    uint8_t          nla;       /* events read ahead (la[0] is the current one)  */
    uint8_t          post;      /* post_insn ran; its successor is still open    */
    uint8_t          ret_top;
    uint8_t          ret_n;
    uint8_t          tick;      /* a TICK is due (at tick_ip, time tick_tsc)     */
    uint8_t          after_branch; /* the last item was a branch instruction     */
    uint8_t          blk_iclass; /* the open block (blk_n > 0): its last        */
    uint8_t          blk_size;   /* instruction's class and size, its mode and  */
    uint8_t          blk_mode;   /* speculation                                 */
    uint8_t          blk_spec;
    uint8_t          reserved[3];
    uint32_t         blk_n;      /* instructions in the open block              */
    uint32_t         cur_n;      /* with a cache, flow_next gives out blocks:   */
    uint64_t         cur_ip;     /* cur_n instructions from cur_ip are left     */
    uint32_t         cache_mask; /* cache entries - 1 (a power of two), or none */
    uint64_t         blk_ip;     /* (not beside blk_end: a load of both at once */
    struct tdec_ipt__cached *cache; /* stalls on their two stores)              */
    uint64_t         blk_end;
    int32_t          end;       /* after la: 0, TDEC_END or an error status      */
    uint32_t         end_reason;
    uint32_t         walked;    /* instructions since trace or an event was used */
    uint32_t         walk_limit;
    uint32_t         icnt;      /* instructions since the last IP from the trace */
    uint32_t         reserved2; /* (TRIG counts from there)                      */
    uint64_t         ip;        /* the next instruction                          */
    uint64_t         resume_ip; /* where tracing is expected to resume           */
    uint64_t         cr3;
    uint64_t         post_ip;
    uint64_t         sync_pos;  /* the offset of the sync point's PSB+ events    */
    uint64_t         post_bound; /* event types bound to post_insn, 1 << type    */
    uint64_t         tick_tsc;  /* the last time reported (TICK or event)        */
    uint64_t         tick_ip;
    tdec_ipt_insn_info post_insn;
    tdec_ipt_read_fn read;
    void            *read_ctx;
    tdec_ipt_addr_filter filter;
    uint64_t         ret[TDEC_IPT_RETSTACK];
    tdec_ipt__flow_ev la[2];
    tdec_ipt__flow_psb psb;
    tdec_ipt_evt_decoder evt;
} tdec_ipt_flow_decoder;

/* Starts a flow decoder: cfg as for tdec_ipt_evt_init; code through read
   (with read_ctx); walk_limit 0 means TDEC_IPT_WALK_LIMIT. Returns
   TDEC_NEED_INPUT, or TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_init(tdec_ipt_flow_decoder *f, const tdec_ipt_config *cfg,
                                            tdec_ipt_read_fn read, void *read_ctx, uint32_t walk_limit);
/* The IP filter of the recording (after init, before the first feed; none
   by default). With erratum SKL014 in cfg.errata and a range configured, a
   disable with its IP suppressed binds to a direct call or jump whose
   target the filter leaves untraced. TDEC_OK or TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_set_filter(tdec_ipt_flow_decoder *f, const tdec_ipt_addr_filter *filter);
/* As the event decoder's feed and finish. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_feed(tdec_ipt_flow_decoder *f, const void *data, size_t len);
TDEC_IPT_DEF tdec_status tdec_ipt_flow_finish(tdec_ipt_flow_decoder *f);
/* The next instruction or event (see above). */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_next(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out);
/* libipt's pt_insn_get_offset / pt_blk_get_offset (what ptxed --offset
   prints before each instruction, block or event): where the event decoder
   is, libipt's being one event ahead of the decoder's state. Ask before
   the next flow_next / flow_next_block call (not again after its
   TDEC_NEED_INPUT: the open block's offset is the one from before).
   flow_next gives libipt's instruction decoder's offsets with a cache (it
   then reads blocks, as libipt's does). TDEC_OK (*offset set),
   TDEC_NEED_INPUT (feed() or finish(), ask again; nothing changed that the
   next call would not) or TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_offset(tdec_ipt_flow_decoder *f, uint64_t *offset);
/* After TDEC_E_CORRUPT: forget the flow state and synchronise on the next
   PSB (ptxed's default after an error). TDEC_NEED_INPUT, or TDEC_E_SEQUENCE
   without an error. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_resync(tdec_ipt_flow_decoder *f);
/* After TDEC_E_CORRUPT: go on at the current event instead (libipt's
   pt_insn_resync / pt_blk_resync, ptxed --resync-on-error). Events that
   cannot place the decoder (no IP: TNT, CBR, PAGING, ...) are skipped; a
   TIP or an async branch gives the IP, an event with tracing state (exec
   mode, TSX, ...) also whether tracing is on, a disable turns it off, an
   enable is taken as after a disable; inside a PSB+ decoding starts again
   from that PSB+ (with its state). Returns
     TDEC_OK, out->kind 0: decoding goes on (f->enabled 0: tracing is off
       there; ptxed prints "[disabled]");
     TDEC_OK, out->kind TDEC_IPT_FLOW_EVENT: an event it cannot skip but
       that has no IP (a PTWRITE without one: libipt's -pte_event_ignored),
       to report; then call it again;
     TDEC_NEED_INPUT: feed() or finish(), then call it again;
     TDEC_E_CORRUPT: there is no event to go on at (the event decoder
       failed, or the trace ended: TDEC_IPT_ERR_EOS): ptxed's "resync
       error", st and err_ip say it; tdec_ipt_flow_resync() then goes on at
       the next PSB;
     TDEC_E_SEQUENCE without an error, TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_resync_event(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out);

#define TDEC_IPT_BLOCK_END_ON_CALL 1u /* end a block after a direct near call */
#define TDEC_IPT_BLOCK_END_ON_JUMP 2u /* ... after a direct near jump         */

/* The next block or event (libipt's pt_blk_next and pt_blk_event in one):
   as tdec_ipt_flow_next, with blocks in place of instructions; ends is
   TDEC_IPT_BLOCK_END_ON_* bits. TDEC_NEED_INPUT keeps the open block: feed
   and ask again. An error after some instructions gives their block first
   and the error at the next call. Use one of flow_next and flow_next_block
   on a decoder (switching is allowed between blocks). */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_next_block(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out,
                                                  unsigned ends);
/* The instructions of a block, read again from the image (before the next
   flow call: the address space may change): start with *ip = block->ip;
   each call decodes the instruction at *ip into insn and raw and moves *ip
   to the next one of the block; call it ninsn times (a loop of direct
   jumps may pass end_ip before the block ends there). TDEC_OK, or
   TDEC_E_CORRUPT with *reason
   (NOMAP, BAD_INSN) when the image no longer holds it. */
TDEC_IPT_DEF tdec_status tdec_ipt_block_walk(const tdec_ipt_flow_decoder *f, const tdec_ipt_flow_item *block,
                                             uint64_t *ip, tdec_ipt_insn_info *insn, uint8_t raw[16],
                                             uint32_t *reason);
/* Memory (8-byte aligned, size of your choosing; NULL or 0: none) in which
   the block decoder remembers straight-line runs of code, so that a warm
   run costs one lookup per decision point instead of a decode per
   instruction. A cache never changes what is decoded, only how fast. The
   memory must be zeroed (or invalidated) the first time; what a decoder
   left in it stays good for the next decoder over the same image (of the
   same size). The decoder keeps a pointer; the memory is yours again after
   flow_init or a new set_cache. TDEC_OK or TDEC_E_ARG. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_set_cache(tdec_ipt_flow_decoder *f, void *mem, size_t size);
/* Forgets every remembered run: call it when code in the image changed. */
TDEC_IPT_DEF void tdec_ipt_flow_cache_invalidate(tdec_ipt_flow_decoder *f);

#endif /* TDEC_IPT_NO_FLOW */

#ifdef __cplusplus
}
#endif
#endif /* TDEC_IPT_H_INCLUDED */

/* ==== implementation ====================================================== */
#if defined(TDEC_IPT_IMPLEMENTATION) || defined(TRACEDEC_IMPLEMENTATION)
#ifndef TDEC_IPT_IMPL_INCLUDED
#define TDEC_IPT_IMPL_INCLUDED

#define TDEC_IPT__PSB_SIZE 16u /* 02 82 repeated 8 times                           */
#define TDEC_IPT__MAX_SIZE 16u /* longest packet (PSB); CYC looks at 10 at most    */
#define TDEC_IPT__HIST     32u /* resync looks back 15 bytes from a packet that    */
                               /* may have started 16 bytes before the chunk       */

/* Small functions on the hot paths, inlined where the compiler can be told. */
#if defined(__GNUC__) || defined(__clang__)
#define TDEC_IPT__HOT __attribute__((always_inline)) inline
#else
#define TDEC_IPT__HOT
#endif

/* resync() puts the looked-back bytes and the failed packet's into the carry. */
TDEC_STATIC_ASSERT(ipt_carry, TDEC_IPT__HIST + TDEC_IPT__MAX_SIZE <= TDEC_CARRY_CAP);

enum tdec_ipt__phase {
    TDEC_IPT__P_SEARCH = 0, /* looking for a PSB                               */
    TDEC_IPT__P_FOUND,      /* a PSB at `found`: its gap, then the PSB         */
    TDEC_IPT__P_PACKETS,
    TDEC_IPT__P_SKIP,       /* stepping over the rest of an UNKNOWN packet     */
    TDEC_IPT__P_TAIL,       /* no PSB before the end: the last gap, then END   */
    TDEC_IPT__P_DONE
};

/* Packets after which a PEBS block is over (Linux perf's rule). */
#define TDEC_IPT__ENDS_BLOCK(k)                                                          \
    ((k) == TDEC_IPT_TNT_8 || (k) == TDEC_IPT_TNT_64 || (k) == TDEC_IPT_TIP ||           \
     (k) == TDEC_IPT_TIP_PGE || (k) == TDEC_IPT_TIP_PGD || (k) == TDEC_IPT_MODE_EXEC ||  \
     (k) == TDEC_IPT_MODE_TSX || (k) == TDEC_IPT_PIP || (k) == TDEC_IPT_OVF ||           \
     (k) == TDEC_IPT_VMCS || (k) == TDEC_IPT_STOP || (k) == TDEC_IPT_PSB ||              \
     (k) == TDEC_IPT_PSBEND || (k) == TDEC_IPT_PTW || (k) == TDEC_IPT_MWAIT ||           \
     (k) == TDEC_IPT_BEP || (k) == TDEC_IPT_CFE || (k) == TDEC_IPT_EVD)

/* ---- packet decoding ----------------------------------------------------- */

static uint64_t tdec_ipt__rd_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n > 0) {
        n--;
        v = (v << 8) | p[n];
    }
    return v;
}

/* Index of the highest set bit of v (v != 0), with 32-bit operations only
   (no libgcc helper on small targets). */
static unsigned tdec_ipt__top_bit(uint64_t v)
{
    uint32_t hi = (uint32_t)(v >> 32), x = hi ? hi : (uint32_t)v;
    unsigned n = hi ? 32u : 0u;
#if defined(__GNUC__) || defined(__clang__)
    return n + 31u - (unsigned)__builtin_clz(x);
#else
    while (x >>= 1) n++;
    return n;
#endif
}

/* A TNT payload: the highest set bit is the stop bit, the bits below it the
   branches. Returns 0 when there is no branch bit (a bad packet). */
static int tdec_ipt__tnt(tdec_ipt_packet *pk, uint64_t v)
{
    unsigned n;
    if (v < 2) return 0;
    n = tdec_ipt__top_bit(v);
    pk->payload = v & ~((uint64_t)1 << n);
    pk->sub = (uint8_t)n;
    return 1;
}

static const int8_t tdec_ipt__ip_bytes[8] = {0, 2, 4, 6, 6, -1, 8, -1};

/* Decodes the packet at p, where `avail` bytes are readable and `at_end`
   says no byte follows them in the stream. Returns the bytes the packet
   takes (> 0) with *pk filled; 0 when more bytes are needed to decide
   (*need says how many in all); or -TDEC_IPT_ERR_* (EOS: the stream ends
   inside the packet). The checks run in libipt's order, so that a packet
   that is both cut and malformed gives libipt's error. */
static int tdec_ipt__decode(const tdec_ipt_decoder *d, const uint8_t *p, size_t avail, int at_end,
                            tdec_ipt_packet *pk, size_t *need)
{
#define TDEC_IPT__NEED(n)                                                                \
    do {                                                                                 \
        if (avail < (size_t)(n)) {                                                       \
            if (at_end) return -TDEC_IPT_ERR_EOS;                                        \
            *need = (size_t)(n);                                                         \
            return 0;                                                                    \
        }                                                                                \
    } while (0)
#define TDEC_IPT__SET(k, n)                                                              \
    do {                                                                                 \
        pk->kind = (uint8_t)(k);                                                         \
        pk->size = (uint8_t)(n);                                                         \
    } while (0)
    uint8_t b0 = p[0], b1;
    int n;

    pk->payload = 0;
    pk->aux = 0;
    pk->sub = 0;
    pk->flags = 0;

    /* Inside a PEBS block, xxxxx100 is a BIP (elsewhere a TNT-8 or CYC). */
    if (d->pebs_ctx != 0 && (b0 & 7u) == 4u) {
        n = 1 + d->pebs_ctx;
        TDEC_IPT__NEED(n);
        pk->payload = tdec_ipt__rd_le(p + 1, d->pebs_ctx);
        pk->sub = (uint8_t)(b0 >> 3);
        TDEC_IPT__SET(TDEC_IPT_BIP, n);
        return n;
    }

    switch (b0) {
    case 0x00:
        TDEC_IPT__SET(TDEC_IPT_PAD, 1);
        return 1;
    case 0x19:
        TDEC_IPT__NEED(8);
        pk->payload = tdec_ipt__rd_le(p + 1, 7);
        TDEC_IPT__SET(TDEC_IPT_TSC, 8);
        return 8;
    case 0x59:
        TDEC_IPT__NEED(2);
        pk->payload = p[1];
        TDEC_IPT__SET(TDEC_IPT_MTC, 2);
        return 2;
    case 0x99:
        TDEC_IPT__NEED(2);
        pk->sub = (uint8_t)(p[1] & 0x1fu);
        switch (p[1] & 0xe0u) {
        case 0x00: TDEC_IPT__SET(TDEC_IPT_MODE_EXEC, 2); return 2;
        case 0x20: TDEC_IPT__SET(TDEC_IPT_MODE_TSX, 2); return 2;
        default: return -TDEC_IPT_ERR_BAD_PACKET;
        }
    case 0xd9:
        TDEC_IPT__NEED(3);
        n = 3;
        if (p[1] & 0x40u) {
            TDEC_IPT__NEED(5);
            pk->aux = tdec__rd_u16le(p + 3);
            pk->flags |= TDEC_IPT_PF_ICNTV;
            n = 5;
        }
        if (p[1] & 0x80u) pk->flags |= TDEC_IPT_PF_IP;
        if (p[1] & 0x20u) pk->flags |= TDEC_IPT_PF_MULT;
        pk->payload = p[2];
        TDEC_IPT__SET(TDEC_IPT_TRIG, n);
        return n;
    case 0x02:
        break; /* extended opcodes, below */
    default:
        if ((b0 & 3u) == 3u) { /* CYC: 7 more bits per byte while bit 0 says so */
            uint64_t value = (uint64_t)(b0 >> 3);
            unsigned shl = 5;
            int ext = (b0 & 4u) != 0;
            n = 1;
            while (ext) {
                uint64_t bits;
                TDEC_IPT__NEED(n + 1);
                bits = p[n++];
                ext = (int)(bits & 1u);
                bits = (bits >> 1) << shl;
                shl += 7;
                if (shl > 64) return -TDEC_IPT_ERR_BAD_PACKET; /* a 9th byte */
                value |= bits;
            }
            /* Erratum SKD007: an OVF after the first byte of a CYC. */
            if ((d->cfg.errata & TDEC_IPT_ERRATUM_SKD007) && n == 2 && p[1] == 0x02) {
                if (avail < 3 && !at_end) {
                    *need = 3;
                    return 0;
                }
                if (avail >= 3 && p[2] == 0xf3) {
                    pk->flags = TDEC_IPT_PF_SKD007;
                    TDEC_IPT__SET(TDEC_IPT_OVF, 2);
                    return 3;
                }
            }
            pk->payload = value;
            TDEC_IPT__SET(TDEC_IPT_CYC, n);
            return n;
        }
        if ((b0 & 1u) == 0) {
            if (!tdec_ipt__tnt(pk, (uint64_t)(b0 >> 1))) return -TDEC_IPT_ERR_BAD_PACKET;
            TDEC_IPT__SET(TDEC_IPT_TNT_8, 1);
            return 1;
        }
        {
            uint8_t kind;
            int bytes;
            switch (b0 & 0x1fu) {
            case 0x1d: kind = TDEC_IPT_FUP; break;
            case 0x0d: kind = TDEC_IPT_TIP; break;
            case 0x11: kind = TDEC_IPT_TIP_PGE; break;
            case 0x01: kind = TDEC_IPT_TIP_PGD; break;
            default: goto unknown;
            }
            bytes = tdec_ipt__ip_bytes[b0 >> 5];
            if (bytes < 0) return -TDEC_IPT_ERR_BAD_PACKET;
            TDEC_IPT__NEED(1 + bytes);
            pk->payload = tdec_ipt__rd_le(p + 1, (unsigned)bytes);
            pk->sub = (uint8_t)(b0 >> 5);
            TDEC_IPT__SET(kind, 1 + bytes);
            return 1 + bytes;
        }
    }

    TDEC_IPT__NEED(2);
    b1 = p[1];
    switch (b1) {
    case 0x82:
        TDEC_IPT__NEED(TDEC_IPT__PSB_SIZE);
        for (n = 2; n < (int)TDEC_IPT__PSB_SIZE; n += 2)
            if (p[n] != 0x02 || p[n + 1] != 0x82) return -TDEC_IPT_ERR_BAD_PACKET;
        TDEC_IPT__SET(TDEC_IPT_PSB, TDEC_IPT__PSB_SIZE);
        return (int)TDEC_IPT__PSB_SIZE;
    case 0xf3: TDEC_IPT__SET(TDEC_IPT_OVF, 2); return 2;
    case 0x23: TDEC_IPT__SET(TDEC_IPT_PSBEND, 2); return 2;
    case 0x83: TDEC_IPT__SET(TDEC_IPT_STOP, 2); return 2;
    case 0x62:
    case 0xe2:
        if (b1 & 0x80u) pk->flags = TDEC_IPT_PF_IP;
        TDEC_IPT__SET(TDEC_IPT_EXSTOP, 2);
        return 2;
    case 0xa3:
        TDEC_IPT__NEED(8);
        if (!tdec_ipt__tnt(pk, tdec_ipt__rd_le(p + 2, 6))) return -TDEC_IPT_ERR_BAD_PACKET;
        TDEC_IPT__SET(TDEC_IPT_TNT_64, 8);
        return 8;
    case 0x43: {
        uint64_t v;
        TDEC_IPT__NEED(8);
        v = tdec_ipt__rd_le(p + 2, 6);
        if (v & 1u) pk->flags = TDEC_IPT_PF_NR;
        pk->payload = (v >> 1) << 5;
        TDEC_IPT__SET(TDEC_IPT_PIP, 8);
        return 8;
    }
    case 0x03:
        TDEC_IPT__NEED(4);
        pk->payload = p[2];
        TDEC_IPT__SET(TDEC_IPT_CBR, 4);
        return 4;
    case 0x73: {
        uint32_t fc;
        TDEC_IPT__NEED(7);
        fc = tdec__rd_u16le(p + 5);
        if ((fc & ~0x1ffu) != 0 || p[4] != 0) {
            /* Erratum SKZ84: a corrupted TMA and one bogus byte. */
            if (!(d->cfg.errata & TDEC_IPT_ERRATUM_SKZ84)) return -TDEC_IPT_ERR_BAD_PACKET;
            TDEC_IPT__NEED(8);
            TDEC_IPT__SET(TDEC_IPT_INVALID, 8);
            return 8;
        }
        pk->payload = tdec__rd_u16le(p + 2);
        pk->aux = fc;
        TDEC_IPT__SET(TDEC_IPT_TMA, 7);
        return 7;
    }
    case 0xc8:
        TDEC_IPT__NEED(7);
        pk->payload = tdec_ipt__rd_le(p + 2, 5) << 12;
        TDEC_IPT__SET(TDEC_IPT_VMCS, 7);
        return 7;
    case 0xc3:
        TDEC_IPT__NEED(3);
        if (p[2] != 0x88) goto unknown;
        TDEC_IPT__NEED(11);
        pk->payload = tdec__rd_u64le(p + 3);
        TDEC_IPT__SET(TDEC_IPT_MNT, 11);
        return 11;
    case 0xc2:
        TDEC_IPT__NEED(10);
        pk->payload = tdec__rd_u32le(p + 2);
        pk->aux = tdec__rd_u32le(p + 6);
        TDEC_IPT__SET(TDEC_IPT_MWAIT, 10);
        return 10;
    case 0x22: {
        uint32_t w;
        TDEC_IPT__NEED(4);
        w = tdec__rd_u16le(p + 2);
        pk->payload = (w >> 12) & 0xfu;
        pk->aux = (w >> 8) & 0xfu;
        if (w & 0x8u) pk->flags = TDEC_IPT_PF_HW; /* libipt's bit; the SDM says 7 */
        TDEC_IPT__SET(TDEC_IPT_PWRE, 4);
        return 4;
    }
    case 0xa2:
        TDEC_IPT__NEED(7);
        pk->payload = (uint64_t)(p[2] >> 4);
        pk->aux = p[2] & 0xfu;
        pk->sub = (uint8_t)(p[3] & (TDEC_IPT_PWRX_INT | TDEC_IPT_PWRX_STORE | TDEC_IPT_PWRX_HW));
        TDEC_IPT__SET(TDEC_IPT_PWRX, 7);
        return 7;
    case 0x13:
        TDEC_IPT__NEED(4);
        pk->sub = (uint8_t)(p[2] & 0x1fu);
        if (p[2] & 0x80u) pk->flags = TDEC_IPT_PF_IP;
        pk->payload = p[3];
        TDEC_IPT__SET(TDEC_IPT_CFE, 4);
        return 4;
    case 0x53:
        TDEC_IPT__NEED(11);
        pk->sub = (uint8_t)(p[2] & 0x1fu);
        pk->payload = tdec__rd_u64le(p + 3);
        TDEC_IPT__SET(TDEC_IPT_EVD, 11);
        return 11;
    case 0x63:
        if (!(d->cfg.flags & TDEC_IPT_F_PEBS)) goto unknown;
        TDEC_IPT__NEED(3);
        pk->sub = (uint8_t)(p[2] & 0x1fu);
        if (p[2] & 0x80u) pk->flags = TDEC_IPT_PF_SZ4;
        TDEC_IPT__SET(TDEC_IPT_BBP, 3);
        return 3;
    case 0x33:
    case 0xb3:
        if (!(d->cfg.flags & TDEC_IPT_F_PEBS)) goto unknown;
        if (b1 & 0x80u) pk->flags = TDEC_IPT_PF_IP;
        TDEC_IPT__SET(TDEC_IPT_BEP, 2);
        return 2;
    default:
        if ((b1 & 0x1fu) == 0x12u) { /* PTW: bits 6:5 give the payload size */
            unsigned plc = (b1 >> 5) & 3u, bytes = plc == 0 ? 4u : 8u;
            if (plc > 1) return -TDEC_IPT_ERR_BAD_PACKET;
            TDEC_IPT__NEED(2 + bytes);
            pk->payload = tdec_ipt__rd_le(p + 2, bytes);
            pk->sub = (uint8_t)plc;
            if (b1 & 0x80u) pk->flags = TDEC_IPT_PF_IP;
            TDEC_IPT__SET(TDEC_IPT_PTW, 2 + bytes);
            return (int)(2 + bytes);
        }
        break;
    }

unknown:
    return -TDEC_IPT_ERR_BAD_OPC; /* the only source of BAD_OPC: decode_hooked() asks the hook */
#undef TDEC_IPT__NEED
#undef TDEC_IPT__SET
}

/* decode(), and an unknown opcode passed to the config's hook. */
static int tdec_ipt__decode_hooked(const tdec_ipt_decoder *d, const uint8_t *p, size_t avail,
                                   int at_end, tdec_ipt_packet *pk, size_t *need)
{
    int n = tdec_ipt__decode(d, p, avail, at_end, pk, need);
    if (n != -TDEC_IPT_ERR_BAD_OPC || d->cfg.unknown == NULL) return n;
    if (avail < TDEC_IPT__MAX_SIZE && !at_end) {
        *need = TDEC_IPT__MAX_SIZE;
        return 0;
    }
    n = d->cfg.unknown(d->cfg.unknown_ctx, p, avail, d->st.pos);
    if (n <= 0) return -TDEC_IPT_ERR_BAD_OPC;
    if (n > 255) return -TDEC_IPT_ERR_INVALID;
    pk->kind = TDEC_IPT_UNKNOWN;
    pk->size = (uint8_t)n;
    return n;
}

/* ---- the fast path ------------------------------------------------------- */

/* Packets that the first byte alone decodes, in one table: kind, size, sub,
   payload bytes after the opcode, and the value the opcode itself carries
   (TNT-8 branch bits without the stop bit, a CYC's low 5 bits). size 0:
   decode() decides; size TDEC_IPT__CYC_EXT: a CYC with continuation bytes. */
typedef struct tdec_ipt__first {
    uint8_t kind, size, sub, nbytes, value;
} tdec_ipt__first;

#define TDEC_IPT__CYC_EXT 0xffu
#define TDEC_IPT__IPB(ipc) ((ipc) == 0 ? 0 : (ipc) == 1 ? 2 : (ipc) == 2 ? 4 : (ipc) == 6 ? 8 : 6)
#define TDEC_IPT__IP(k, ipc) {k, 1 + TDEC_IPT__IPB(ipc), ipc, TDEC_IPT__IPB(ipc), 0}
#define TDEC_IPT__SLOW {0, 0, 0, 0, 0}
#define TDEC_IPT__PAD_ {TDEC_IPT_PAD, 1, 0, 0, 0}
#define TDEC_IPT__TSC_ {TDEC_IPT_TSC, 8, 0, 7, 0}
#define TDEC_IPT__MTC_ {TDEC_IPT_MTC, 2, 0, 1, 0}
#define TDEC_IPT__T(n, v) {TDEC_IPT_TNT_8, 1, n, 0, v}
#define TDEC_IPT__C(v) {TDEC_IPT_CYC, 1, 0, 0, v}
#define TDEC_IPT__CX(v) {TDEC_IPT_CYC, TDEC_IPT__CYC_EXT, 0, 0, v}
#define TDEC_IPT__F(ipc) TDEC_IPT__IP(TDEC_IPT_FUP, ipc)
#define TDEC_IPT__I(ipc) TDEC_IPT__IP(TDEC_IPT_TIP, ipc)
#define TDEC_IPT__E(ipc) TDEC_IPT__IP(TDEC_IPT_TIP_PGE, ipc)
#define TDEC_IPT__D(ipc) TDEC_IPT__IP(TDEC_IPT_TIP_PGD, ipc)

static const tdec_ipt__first tdec_ipt__first_byte[256] = {
    /* 00 */ TDEC_IPT__PAD_, TDEC_IPT__D(0), TDEC_IPT__SLOW, TDEC_IPT__C(0),
    /* 04 */ TDEC_IPT__T(1, 0), TDEC_IPT__SLOW, TDEC_IPT__T(1, 1), TDEC_IPT__CX(0),
    /* 08 */ TDEC_IPT__T(2, 0), TDEC_IPT__SLOW, TDEC_IPT__T(2, 1), TDEC_IPT__C(1),
    /* 0c */ TDEC_IPT__T(2, 2), TDEC_IPT__I(0), TDEC_IPT__T(2, 3), TDEC_IPT__CX(1),
    /* 10 */ TDEC_IPT__T(3, 0), TDEC_IPT__E(0), TDEC_IPT__T(3, 1), TDEC_IPT__C(2),
    /* 14 */ TDEC_IPT__T(3, 2), TDEC_IPT__SLOW, TDEC_IPT__T(3, 3), TDEC_IPT__CX(2),
    /* 18 */ TDEC_IPT__T(3, 4), TDEC_IPT__TSC_, TDEC_IPT__T(3, 5), TDEC_IPT__C(3),
    /* 1c */ TDEC_IPT__T(3, 6), TDEC_IPT__F(0), TDEC_IPT__T(3, 7), TDEC_IPT__CX(3),
    /* 20 */ TDEC_IPT__T(4, 0), TDEC_IPT__D(1), TDEC_IPT__T(4, 1), TDEC_IPT__C(4),
    /* 24 */ TDEC_IPT__T(4, 2), TDEC_IPT__SLOW, TDEC_IPT__T(4, 3), TDEC_IPT__CX(4),
    /* 28 */ TDEC_IPT__T(4, 4), TDEC_IPT__SLOW, TDEC_IPT__T(4, 5), TDEC_IPT__C(5),
    /* 2c */ TDEC_IPT__T(4, 6), TDEC_IPT__I(1), TDEC_IPT__T(4, 7), TDEC_IPT__CX(5),
    /* 30 */ TDEC_IPT__T(4, 8), TDEC_IPT__E(1), TDEC_IPT__T(4, 9), TDEC_IPT__C(6),
    /* 34 */ TDEC_IPT__T(4, 10), TDEC_IPT__SLOW, TDEC_IPT__T(4, 11), TDEC_IPT__CX(6),
    /* 38 */ TDEC_IPT__T(4, 12), TDEC_IPT__SLOW, TDEC_IPT__T(4, 13), TDEC_IPT__C(7),
    /* 3c */ TDEC_IPT__T(4, 14), TDEC_IPT__F(1), TDEC_IPT__T(4, 15), TDEC_IPT__CX(7),
    /* 40 */ TDEC_IPT__T(5, 0), TDEC_IPT__D(2), TDEC_IPT__T(5, 1), TDEC_IPT__C(8),
    /* 44 */ TDEC_IPT__T(5, 2), TDEC_IPT__SLOW, TDEC_IPT__T(5, 3), TDEC_IPT__CX(8),
    /* 48 */ TDEC_IPT__T(5, 4), TDEC_IPT__SLOW, TDEC_IPT__T(5, 5), TDEC_IPT__C(9),
    /* 4c */ TDEC_IPT__T(5, 6), TDEC_IPT__I(2), TDEC_IPT__T(5, 7), TDEC_IPT__CX(9),
    /* 50 */ TDEC_IPT__T(5, 8), TDEC_IPT__E(2), TDEC_IPT__T(5, 9), TDEC_IPT__C(10),
    /* 54 */ TDEC_IPT__T(5, 10), TDEC_IPT__SLOW, TDEC_IPT__T(5, 11), TDEC_IPT__CX(10),
    /* 58 */ TDEC_IPT__T(5, 12), TDEC_IPT__MTC_, TDEC_IPT__T(5, 13), TDEC_IPT__C(11),
    /* 5c */ TDEC_IPT__T(5, 14), TDEC_IPT__F(2), TDEC_IPT__T(5, 15), TDEC_IPT__CX(11),
    /* 60 */ TDEC_IPT__T(5, 16), TDEC_IPT__D(3), TDEC_IPT__T(5, 17), TDEC_IPT__C(12),
    /* 64 */ TDEC_IPT__T(5, 18), TDEC_IPT__SLOW, TDEC_IPT__T(5, 19), TDEC_IPT__CX(12),
    /* 68 */ TDEC_IPT__T(5, 20), TDEC_IPT__SLOW, TDEC_IPT__T(5, 21), TDEC_IPT__C(13),
    /* 6c */ TDEC_IPT__T(5, 22), TDEC_IPT__I(3), TDEC_IPT__T(5, 23), TDEC_IPT__CX(13),
    /* 70 */ TDEC_IPT__T(5, 24), TDEC_IPT__E(3), TDEC_IPT__T(5, 25), TDEC_IPT__C(14),
    /* 74 */ TDEC_IPT__T(5, 26), TDEC_IPT__SLOW, TDEC_IPT__T(5, 27), TDEC_IPT__CX(14),
    /* 78 */ TDEC_IPT__T(5, 28), TDEC_IPT__SLOW, TDEC_IPT__T(5, 29), TDEC_IPT__C(15),
    /* 7c */ TDEC_IPT__T(5, 30), TDEC_IPT__F(3), TDEC_IPT__T(5, 31), TDEC_IPT__CX(15),
    /* 80 */ TDEC_IPT__T(6, 0), TDEC_IPT__D(4), TDEC_IPT__T(6, 1), TDEC_IPT__C(16),
    /* 84 */ TDEC_IPT__T(6, 2), TDEC_IPT__SLOW, TDEC_IPT__T(6, 3), TDEC_IPT__CX(16),
    /* 88 */ TDEC_IPT__T(6, 4), TDEC_IPT__SLOW, TDEC_IPT__T(6, 5), TDEC_IPT__C(17),
    /* 8c */ TDEC_IPT__T(6, 6), TDEC_IPT__I(4), TDEC_IPT__T(6, 7), TDEC_IPT__CX(17),
    /* 90 */ TDEC_IPT__T(6, 8), TDEC_IPT__E(4), TDEC_IPT__T(6, 9), TDEC_IPT__C(18),
    /* 94 */ TDEC_IPT__T(6, 10), TDEC_IPT__SLOW, TDEC_IPT__T(6, 11), TDEC_IPT__CX(18),
    /* 98 */ TDEC_IPT__T(6, 12), TDEC_IPT__SLOW, TDEC_IPT__T(6, 13), TDEC_IPT__C(19),
    /* 9c */ TDEC_IPT__T(6, 14), TDEC_IPT__F(4), TDEC_IPT__T(6, 15), TDEC_IPT__CX(19),
    /* a0 */ TDEC_IPT__T(6, 16), TDEC_IPT__SLOW, TDEC_IPT__T(6, 17), TDEC_IPT__C(20),
    /* a4 */ TDEC_IPT__T(6, 18), TDEC_IPT__SLOW, TDEC_IPT__T(6, 19), TDEC_IPT__CX(20),
    /* a8 */ TDEC_IPT__T(6, 20), TDEC_IPT__SLOW, TDEC_IPT__T(6, 21), TDEC_IPT__C(21),
    /* ac */ TDEC_IPT__T(6, 22), TDEC_IPT__SLOW, TDEC_IPT__T(6, 23), TDEC_IPT__CX(21),
    /* b0 */ TDEC_IPT__T(6, 24), TDEC_IPT__SLOW, TDEC_IPT__T(6, 25), TDEC_IPT__C(22),
    /* b4 */ TDEC_IPT__T(6, 26), TDEC_IPT__SLOW, TDEC_IPT__T(6, 27), TDEC_IPT__CX(22),
    /* b8 */ TDEC_IPT__T(6, 28), TDEC_IPT__SLOW, TDEC_IPT__T(6, 29), TDEC_IPT__C(23),
    /* bc */ TDEC_IPT__T(6, 30), TDEC_IPT__SLOW, TDEC_IPT__T(6, 31), TDEC_IPT__CX(23),
    /* c0 */ TDEC_IPT__T(6, 32), TDEC_IPT__D(6), TDEC_IPT__T(6, 33), TDEC_IPT__C(24),
    /* c4 */ TDEC_IPT__T(6, 34), TDEC_IPT__SLOW, TDEC_IPT__T(6, 35), TDEC_IPT__CX(24),
    /* c8 */ TDEC_IPT__T(6, 36), TDEC_IPT__SLOW, TDEC_IPT__T(6, 37), TDEC_IPT__C(25),
    /* cc */ TDEC_IPT__T(6, 38), TDEC_IPT__I(6), TDEC_IPT__T(6, 39), TDEC_IPT__CX(25),
    /* d0 */ TDEC_IPT__T(6, 40), TDEC_IPT__E(6), TDEC_IPT__T(6, 41), TDEC_IPT__C(26),
    /* d4 */ TDEC_IPT__T(6, 42), TDEC_IPT__SLOW, TDEC_IPT__T(6, 43), TDEC_IPT__CX(26),
    /* d8 */ TDEC_IPT__T(6, 44), TDEC_IPT__SLOW, TDEC_IPT__T(6, 45), TDEC_IPT__C(27),
    /* dc */ TDEC_IPT__T(6, 46), TDEC_IPT__F(6), TDEC_IPT__T(6, 47), TDEC_IPT__CX(27),
    /* e0 */ TDEC_IPT__T(6, 48), TDEC_IPT__SLOW, TDEC_IPT__T(6, 49), TDEC_IPT__C(28),
    /* e4 */ TDEC_IPT__T(6, 50), TDEC_IPT__SLOW, TDEC_IPT__T(6, 51), TDEC_IPT__CX(28),
    /* e8 */ TDEC_IPT__T(6, 52), TDEC_IPT__SLOW, TDEC_IPT__T(6, 53), TDEC_IPT__C(29),
    /* ec */ TDEC_IPT__T(6, 54), TDEC_IPT__SLOW, TDEC_IPT__T(6, 55), TDEC_IPT__CX(29),
    /* f0 */ TDEC_IPT__T(6, 56), TDEC_IPT__SLOW, TDEC_IPT__T(6, 57), TDEC_IPT__C(30),
    /* f4 */ TDEC_IPT__T(6, 58), TDEC_IPT__SLOW, TDEC_IPT__T(6, 59), TDEC_IPT__CX(30),
    /* f8 */ TDEC_IPT__T(6, 60), TDEC_IPT__SLOW, TDEC_IPT__T(6, 61), TDEC_IPT__C(31),
    /* fc */ TDEC_IPT__T(6, 62), TDEC_IPT__SLOW, TDEC_IPT__T(6, 63), TDEC_IPT__CX(31),
};

#undef TDEC_IPT__IPB
#undef TDEC_IPT__IP
#undef TDEC_IPT__SLOW
#undef TDEC_IPT__PAD_
#undef TDEC_IPT__TSC_
#undef TDEC_IPT__MTC_
#undef TDEC_IPT__T
#undef TDEC_IPT__C
#undef TDEC_IPT__CX
#undef TDEC_IPT__F
#undef TDEC_IPT__I
#undef TDEC_IPT__E
#undef TDEC_IPT__D

static const uint64_t tdec_ipt__byte_mask[9] = {
    0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull, 0xffffffffffffull,
    0xffffffffffffffull, 0xffffffffffffffffull};

/* Index of the lowest set bit of v (v != 0), with 32-bit operations only. */
static unsigned tdec_ipt__low_bit(uint64_t v)
{
    uint32_t lo = (uint32_t)v, x = lo ? lo : (uint32_t)(v >> 32);
    unsigned n = lo ? 0u : 32u;
#if defined(__GNUC__) || defined(__clang__)
    return n + (unsigned)__builtin_ctz(x);
#else
    while (!(x & 1u)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* Decodes the packet at p (at least TDEC_IPT__MAX_SIZE bytes readable) when
   its first byte says all; returns its size, or 0 to leave it to decode().
   Gives the same packets as decode(). */
TDEC_IPT__HOT static int tdec_ipt__decode_fast(const tdec_ipt_decoder *d, const uint8_t *p, tdec_ipt_packet *pk)
{
    const tdec_ipt__first *e = &tdec_ipt__first_byte[p[0]];
    uint64_t after = tdec__rd_u64le(p + 1);
    unsigned size = e->size;
    if (size == 0) {
        /* The general decoder, for packets that change no decoder state. */
        size_t need;
        int r = tdec_ipt__decode(d, p, TDEC_IPT__MAX_SIZE, 0, pk, &need);
        if (r <= 0 || pk->kind == TDEC_IPT_PSB || pk->kind == TDEC_IPT_BBP) return 0;
        return r;
    }
    if (size == TDEC_IPT__CYC_EXT) {
        /* Continuation bytes have bit 0 set; the first with it clear is the
           last. Gather their 7-bit groups above the opcode's 5 bits. */
        uint64_t stops = ~after & 0x0101010101010101ull, v, value = 0;
        unsigned n, i;
        if (stops == 0 || (d->cfg.errata & TDEC_IPT_ERRATUM_SKD007)) return 0;
        n = (tdec_ipt__low_bit(stops) >> 3) + 1;
        v = after & tdec_ipt__byte_mask[n];
        for (i = 0; i < 8; i++) value |= (v >> (i + 1)) & ((uint64_t)0x7f << (7 * i));
        pk->payload = (value << 5) | e->value;
        size = 1 + n;
    } else {
        pk->payload = (after & tdec_ipt__byte_mask[e->nbytes]) | e->value;
    }
    pk->aux = 0;
    pk->kind = e->kind;
    pk->size = (uint8_t)size;
    pk->sub = e->sub;
    pk->flags = 0;
    return (int)size;
}

/* ---- the packet decoder -------------------------------------------------- */

static void tdec_ipt__start_search(tdec_ipt_decoder *d, uint64_t gap_start, uint8_t reason)
{
    d->phase = TDEC_IPT__P_SEARCH;
    d->mark = gap_start;
    d->gap_reason = reason;
    d->run = 0;
    d->pend02 = 0;
}

TDEC_IPT_DEF tdec_status tdec_ipt_init(tdec_ipt_decoder *d, const tdec_ipt_config *cfg)
{
    if (d == NULL) return TDEC_E_ARG;
    if (cfg != NULL) {
        d->cfg = *cfg;
    } else { /* field by field: no memset() call in freestanding builds */
        d->cfg.flags = 0;
        d->cfg.errata = 0;
        d->cfg.unknown = NULL;
        d->cfg.unknown_ctx = NULL;
        d->cfg.cpu_family = 0;
        d->cfg.cpu_model = 0;
        d->cfg.cpu_stepping = 0;
        d->cfg.mtc_freq = 0;
        d->cfg.nom_freq = 0;
        d->cfg.cpuid_0x15_eax = 0;
        d->cfg.cpuid_0x15_ebx = 0;
    }
    tdec_ipt_reset(d);
    return TDEC_NEED_INPUT;
}

TDEC_IPT_DEF void tdec_ipt_reset(tdec_ipt_decoder *d)
{
    unsigned i;
    if (d == NULL) return;
    tdec__stream_init(&d->st);
    d->chunk = NULL;
    d->chunk_len = 0;
    d->chunk_pos = 0;
    d->found = 0;
    d->left = 0;
    d->ended = 0;
    d->pebs_ctx = 0;
    d->skip_sync = 0;
    d->hist_len = 0;
    for (i = 0; i < TDEC_IPT__HIST; i++) d->hist[i] = 0;
    if (d->cfg.flags & TDEC_IPT_F_NO_SYNC) {
        d->sync_offset = 0;
        d->phase = TDEC_IPT__P_PACKETS;
        d->mark = 0;
        d->gap_reason = 0;
        d->run = 0;
        d->pend02 = 0;
    } else {
        d->sync_offset = UINT64_MAX;
        tdec_ipt__start_search(d, 0, TDEC_IPT_GAP_SYNC);
    }
}

/* The stream byte at `pos`, which must lie in the history or the chunk. */
static uint8_t tdec_ipt__byte_at(const tdec_ipt_decoder *d, uint64_t pos)
{
    if (pos >= d->chunk_pos) return d->chunk[pos - d->chunk_pos];
    return d->hist[d->hist_len - (size_t)(d->chunk_pos - pos)];
}

/* The window is used up and the caller may now reuse its chunk: keep the
   chunk's last bytes for resync()'s look-back, and forget the chunk. */
static void tdec_ipt__retire_chunk(tdec_ipt_decoder *d)
{
    size_t keep, i;
    if (d->chunk_len >= TDEC_IPT__HIST) {
        for (i = 0; i < TDEC_IPT__HIST; i++) d->hist[i] = d->chunk[d->chunk_len - TDEC_IPT__HIST + i];
        d->hist_len = TDEC_IPT__HIST;
    } else if (d->chunk_len > 0) {
        keep = TDEC_IPT__HIST - d->chunk_len;
        if (keep > d->hist_len) keep = d->hist_len;
        for (i = 0; i < keep; i++) d->hist[i] = d->hist[d->hist_len - keep + i];
        for (i = 0; i < d->chunk_len; i++) d->hist[keep + i] = d->chunk[i];
        d->hist_len = (uint8_t)(keep + d->chunk_len);
    }
    d->chunk_pos += d->chunk_len;
    d->chunk = NULL;
    d->chunk_len = 0;
}

TDEC_IPT_DEF tdec_status tdec_ipt_feed(tdec_ipt_decoder *d, const void *data, size_t len)
{
    tdec_status st;
    if (d == NULL) return TDEC_E_ARG;
    if (d->ended && d->st.err >= 0) return TDEC_E_SEQUENCE;
    st = tdec__stream_feed(&d->st, data, len);
    if (st != TDEC_NEED_INPUT || len == 0) return st;
    d->chunk = (const uint8_t *)data;
    d->chunk_len = len;
    return TDEC_NEED_INPUT;
}

TDEC_IPT_DEF tdec_status tdec_ipt_finish(tdec_ipt_decoder *d)
{
    if (d == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err;
    if (d->st.win_len > 0) return TDEC_E_SEQUENCE;
    d->ended = 1;
    switch (d->phase) {
    case TDEC_IPT__P_PACKETS:
        if (d->st.carry_len > 0) return TDEC_NEED_INPUT; /* next() decodes the carry knowing the end */
        break;
    case TDEC_IPT__P_SKIP:
        tdec__stream_fail(&d->st, TDEC_E_TRUNCATED, TDEC_IPT_ERR_EOS);
        d->st.err_offset = d->mark;
        return TDEC_E_TRUNCATED;
    case TDEC_IPT__P_SEARCH:
    case TDEC_IPT__P_TAIL:
        /* Bytes still to search, the PSB a run of pairs ends in (search()
           at the end), or the last gap: next() gives them. */
        if (d->st.carry_len > 0 || (d->phase == TDEC_IPT__P_SEARCH && d->run >= TDEC_IPT__PSB_SIZE) ||
            d->st.pos > d->mark)
            return TDEC_NEED_INPUT;
        break;
    case TDEC_IPT__P_DONE:
        break;
    default: /* FOUND: the gap before the PSB, and the PSB */
        return TDEC_NEED_INPUT;
    }
    d->phase = TDEC_IPT__P_DONE;
    return TDEC_END;
}

/* The PSB finder ran into the end of a run of 02 82 pairs at `end` that is
   at least 16 bytes long: its last 16 bytes are the PSB (pt_find_psb()). The
   decoder goes back to `end`; a pending 0x02 is decoded again from there. */
static void tdec_ipt__found(tdec_ipt_decoder *d, uint64_t end, int pend02)
{
    tdec_stream *s = &d->st;
    if (pend02) { /* the 0x02 at `end` was consumed: carry it again */
        size_t i;
        for (i = s->carry_len; i > 0; i--) s->carry[i] = s->carry[i - 1];
        s->carry[0] = 0x02;
        s->carry_len++;
        s->pos--;
    }
    d->found = end - TDEC_IPT__PSB_SIZE;
    d->run = 0;
    d->pend02 = 0;
    d->phase = TDEC_IPT__P_FOUND;
}

/* Scans for a PSB: counts the bytes of 02 82 pairs ending at the current
   byte. Returns TDEC__AGAIN when the phase changed, or TDEC_NEED_INPUT. */
static int tdec_ipt__search(tdec_ipt_decoder *d)
{
    tdec_stream *s = &d->st;
    for (;;) {
        const uint8_t *p = s->carry_len > 0 ? s->carry : s->win;
        size_t n = s->carry_len > 0 ? s->carry_len : s->win_len, i;
        uint32_t run = d->run;
        int pend02 = d->pend02;
        if (n == 0) {
            if (!d->ended) return TDEC_NEED_INPUT;
            /* Only whole pairs count at the end of the stream. */
            if (run >= TDEC_IPT__PSB_SIZE) {
                tdec_ipt__found(d, s->pos - (pend02 ? 1u : 0u), pend02);
            } else {
                d->phase = TDEC_IPT__P_TAIL;
            }
            return TDEC__AGAIN;
        }
        for (i = 0; i < n; i++) {
            uint8_t b = p[i];
            if (pend02) {
                pend02 = 0;
                if (b == 0x82) {
                    if (run < TDEC_IPT__PSB_SIZE) run += 2;
                    continue;
                }
                if (run >= TDEC_IPT__PSB_SIZE) { /* the run ended before the 0x02 */
                    tdec__stream_consume(s, i);
                    tdec_ipt__found(d, s->pos - 1u, 1);
                    return TDEC__AGAIN;
                }
                run = 0;
            }
            if (b == 0x02) {
                pend02 = 1;
                continue;
            }
            if (run >= TDEC_IPT__PSB_SIZE) {
                tdec__stream_consume(s, i);
                tdec_ipt__found(d, s->pos, 0);
                return TDEC__AGAIN;
            }
            run = 0;
        }
        tdec__stream_consume(s, n);
        d->run = run;
        d->pend02 = (uint8_t)pend02;
    }
}

/* libipt's pt_pkt_sync_forward() from stream offset `failed` (no earlier
   than 15 bytes before the window's unread part): skip the PSB we are
   synchronised on, then start up to 15 bytes early. */
static void tdec_ipt__resync_from(tdec_ipt_decoder *d, uint64_t failed)
{
    tdec_stream *s = &d->st;
    uint64_t from, frontier, oldest, pos;
    from = failed;
    if (from == d->sync_offset) from += TDEC_IPT__PSB_SIZE;
    from -= from < TDEC_IPT__PSB_SIZE - 1 ? from : TDEC_IPT__PSB_SIZE - 1;
    frontier = d->chunk_pos + (d->chunk_len - s->win_len);
    oldest = d->chunk_pos - d->hist_len;
    if (from < oldest) from = oldest; /* not reached: the history covers it */
    if (from > frontier) from = frontier;
    /* Rescan [from, frontier) from the carry, then the rest of the window. */
    s->carry_len = 0;
    for (pos = from; pos < frontier; pos++) s->carry[s->carry_len++] = tdec_ipt__byte_at(d, pos);
    s->pos = from;
    s->err = TDEC_OK;
    s->err_reason = 0;
    d->left = 0;
    d->pebs_ctx = 0;
    d->skip_sync = 0;
    tdec_ipt__start_search(d, failed, TDEC_IPT_GAP_RESYNC);
}

TDEC_IPT_DEF tdec_status tdec_ipt_resync(tdec_ipt_decoder *d)
{
    if (d == NULL) return TDEC_E_ARG;
    if (d->st.err != TDEC_E_CORRUPT) return TDEC_E_SEQUENCE; /* nothing to resync after the end */
    tdec_ipt__resync_from(d, d->st.err_offset);
    return TDEC_NEED_INPUT;
}

/* One packet from the carry or the window. */
static tdec_status tdec_ipt__packet(tdec_ipt_decoder *d, tdec_ipt_item *out)
{
    tdec_stream *s = &d->st;
    tdec_ipt_packet *pk = &out->u.pkt;
    size_t need = 1;
    int r;

    if (s->carry_len == 0 && s->win_len >= TDEC_IPT__MAX_SIZE) {
        r = tdec_ipt__decode_hooked(d, s->win, s->win_len, d->ended, pk, &need);
    } else {
        for (;;) {
            const uint8_t *p = tdec__stream_peek(s, need);
            size_t avail;
            if (p == NULL) {
                if (!d->ended) return TDEC_NEED_INPUT;
                if (s->carry_len == 0) { /* not even one byte: the clean end */
                    d->phase = TDEC_IPT__P_DONE;
                    return TDEC_END;
                }
                return tdec__stream_fail(s, TDEC_E_TRUNCATED, TDEC_IPT_ERR_EOS);
            }
            avail = p == s->carry ? s->carry_len : s->win_len;
            r = tdec_ipt__decode_hooked(d, p, avail, d->ended && (p != s->carry || s->win_len == 0),
                                        pk, &need);
            if (r != 0) break;
        }
    }
    if (r < 0) {
        if (r == -TDEC_IPT_ERR_EOS) return tdec__stream_fail(s, TDEC_E_TRUNCATED, TDEC_IPT_ERR_EOS);
        return tdec__stream_fail(s, TDEC_E_CORRUPT, (uint32_t)-r);
    }

    out->kind = TDEC_ITEM_RECORD;
    out->offset = s->pos + ((pk->flags & TDEC_IPT_PF_SKD007) ? 1u : 0u);
    if (pk->kind == TDEC_IPT_PSB) d->sync_offset = s->pos;
    if (d->cfg.flags & TDEC_IPT_F_PEBS) {
        if (pk->kind == TDEC_IPT_BBP)
            d->pebs_ctx = (uint8_t)((pk->flags & TDEC_IPT_PF_SZ4) ? 4 : 8);
        else if (TDEC_IPT__ENDS_BLOCK(pk->kind))
            d->pebs_ctx = 0;
    }
    if (pk->kind == TDEC_IPT_UNKNOWN) {
        d->mark = s->pos;
        d->left = (uint64_t)r - tdec__stream_skip(s, (uint64_t)r);
        if (d->left > 0) d->phase = TDEC_IPT__P_SKIP;
    } else {
        tdec__stream_consume(s, (size_t)r);
    }
    return TDEC_OK;
}

static void tdec_ipt__gap(tdec_ipt_item *out, uint64_t offset, uint64_t len, uint32_t reason)
{
    out->kind = TDEC_ITEM_GAP;
    out->offset = offset;
    out->u.gap.len = len;
    out->u.gap.reason = reason;
}


/* next() for everything but the fast path. */
static tdec_status tdec_ipt__step(tdec_ipt_decoder *d, tdec_ipt_item *out)
{
    for (;;) {
        switch (d->phase) {
        case TDEC_IPT__P_PACKETS:
            return tdec_ipt__packet(d, out);
        case TDEC_IPT__P_SEARCH:
            if (tdec_ipt__search(d) != TDEC__AGAIN) return TDEC_NEED_INPUT;
            break;
        case TDEC_IPT__P_FOUND:
            if (d->found > d->mark) {
                tdec_ipt__gap(out, d->mark, d->found - d->mark, d->gap_reason);
                d->mark = d->found;
                return TDEC_OK;
            }
            out->kind = TDEC_ITEM_RECORD;
            out->offset = d->found;
            out->u.pkt.payload = 0;
            out->u.pkt.aux = 0;
            out->u.pkt.kind = TDEC_IPT_PSB;
            out->u.pkt.size = TDEC_IPT__PSB_SIZE;
            out->u.pkt.sub = 0;
            out->u.pkt.flags = 0;
            d->sync_offset = d->found;
            d->pebs_ctx = 0;
            d->phase = TDEC_IPT__P_PACKETS;
            return TDEC_OK;
        case TDEC_IPT__P_SKIP:
            d->left -= tdec__stream_skip(&d->st, d->left);
            if (d->left > 0) {
                if (!d->ended) return TDEC_NEED_INPUT;
                tdec__stream_fail(&d->st, TDEC_E_TRUNCATED, TDEC_IPT_ERR_EOS);
                d->st.err_offset = d->mark;
                return TDEC_E_TRUNCATED;
            }
            d->phase = TDEC_IPT__P_PACKETS;
            if (d->skip_sync) tdec_ipt__resync_from(d, d->st.pos); /* the layer above resynced */
            break;
        case TDEC_IPT__P_TAIL:
            d->phase = TDEC_IPT__P_DONE;
            if (d->st.pos > d->mark) {
                tdec_ipt__gap(out, d->mark, d->st.pos - d->mark, d->gap_reason);
                return TDEC_OK;
            }
            return TDEC_END;
        default:
            return TDEC_END;
        }
    }
}

/* Whether the next packet is wholly in the window with nothing carried,
   no error and no PEBS block: decode_fast() may read it there. */
static int tdec_ipt__fast_ready(const tdec_ipt_decoder *d)
{
    return d->phase == TDEC_IPT__P_PACKETS && d->st.err == TDEC_OK && d->st.carry_len == 0 &&
           d->pebs_ctx == 0 && d->st.win_len >= TDEC_IPT__MAX_SIZE;
}

/* next() without its fast path; out of line, so that the fast path does
   not pay for the registers of the step functions. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static tdec_status tdec_ipt__next_slow(tdec_ipt_decoder *d, tdec_ipt_item *out)
{
    tdec_status st = tdec_ipt__step(d, out);
    if (st == TDEC_NEED_INPUT) tdec_ipt__retire_chunk(d);
    return st;
}

TDEC_IPT_DEF tdec_status tdec_ipt_next(tdec_ipt_decoder *d, tdec_ipt_item *out)
{
    if (d == NULL || out == NULL) return TDEC_E_ARG;
    if (d->st.err < 0) return d->st.err;
    /* Most packets: whole in the window and decoded from their first byte. */
    if (tdec_ipt__fast_ready(d)) {
        int n = tdec_ipt__decode_fast(d, d->st.win, &out->u.pkt);
        if (n > 0) {
            out->kind = TDEC_ITEM_RECORD;
            out->offset = d->st.pos;
            d->st.win += n;
            d->st.win_len -= (size_t)n;
            d->st.pos += (uint64_t)n;
            return TDEC_OK;
        }
    }
    return tdec_ipt__next_slow(d, out);
}

TDEC_IPT_DEF tdec_status tdec_ipt_next_n(tdec_ipt_decoder *d, tdec_ipt_item *out, size_t cap,
                                         size_t *count)
{
    size_t n = 0;
    tdec_status st = TDEC_OK;
    if (d == NULL || out == NULL || count == NULL) return TDEC_E_ARG;
    while (n < cap) {
        if (tdec_ipt__fast_ready(d)) {
            const uint8_t *p = d->st.win, *last = p + (d->st.win_len - TDEC_IPT__MAX_SIZE);
            uint64_t pos = d->st.pos;
            while (n < cap && p <= last) {
                int size = tdec_ipt__decode_fast(d, p, &out[n].u.pkt);
                if (size == 0) break;
                out[n].kind = TDEC_ITEM_RECORD;
                out[n].offset = pos;
                p += size;
                pos += (uint64_t)size;
                n++;
            }
            d->st.win_len -= (size_t)(p - d->st.win);
            d->st.win = p;
            d->st.pos = pos;
            if (n == cap) break;
        }
        st = tdec_ipt_next(d, &out[n]);
        if (st != TDEC_OK) break;
        n++;
    }
    *count = n;
    return st;
}

/* ---- sync over a caller buffer ------------------------------------------- */

/* Whether the 8 bytes at p are PSB pattern in either phase. */
static int tdec_ipt__psb_window(const uint8_t *p)
{
    unsigned i;
    uint8_t a = p[0], b = p[1];
    if (!((a == 0x02 && b == 0x82) || (a == 0x82 && b == 0x02))) return 0;
    for (i = 2; i < 8; i += 2)
        if (p[i] != a || p[i + 1] != b) return 0;
    return 1;
}

/* pt_find_psb(): from a window of pattern, walk to the end of its run of
   02 82 pairs; the PSB is the run's last 16 bytes. Returns 1 and *psb, or 0
   when the run is shorter than a PSB. */
static int tdec_ipt__find_psb(const uint8_t *buf, size_t len, size_t w, size_t *psb)
{
    size_t p = buf[w] == 0x02 ? w : w + 1, i;
    while (p + 1 < len && buf[p] == 0x02 && buf[p + 1] == 0x82) p += 2;
    if (p < TDEC_IPT__PSB_SIZE) return 0;
    p -= TDEC_IPT__PSB_SIZE;
    for (i = 0; i < TDEC_IPT__PSB_SIZE; i += 2)
        if (buf[p + i] != 0x02 || buf[p + i + 1] != 0x82) return 0;
    *psb = p;
    return 1;
}

TDEC_IPT_DEF tdec_status tdec_ipt_sync_forward(const uint8_t *buf, size_t len, size_t from,
                                               size_t *psb)
{
    size_t w, found;
    if ((buf == NULL && len > 0) || psb == NULL || from > len) return TDEC_E_ARG;
    /* Aligned 8-byte windows, as libipt (on offsets, not addresses). */
    for (w = (from + 7u) & ~(size_t)7u; w <= len && len - w >= 8; w += 8) {
        if (!tdec_ipt__psb_window(buf + w)) continue;
        if (!tdec_ipt__find_psb(buf, len, w, &found) || found < from) continue;
        *psb = found;
        return TDEC_OK;
    }
    return TDEC_E_NOSYNC;
}

TDEC_IPT_DEF tdec_status tdec_ipt_sync_backward(const uint8_t *buf, size_t len, size_t from,
                                                size_t *psb)
{
    size_t w;
    if ((buf == NULL && len > 0) || psb == NULL || from > len) return TDEC_E_ARG;
    for (w = from & ~(size_t)7u; w >= 8;) {
        w -= 8;
        if (tdec_ipt__psb_window(buf + w) && tdec_ipt__find_psb(buf, len, w, psb)) return TDEC_OK;
    }
    return TDEC_E_NOSYNC;
}

TDEC_IPT_DEF tdec_status tdec_ipt_sync_at(const uint8_t *buf, size_t len, size_t at)
{
    size_t i;
    if ((buf == NULL && len > 0) || at > len) return TDEC_E_ARG;
    if (len - at < 2) return TDEC_E_TRUNCATED;
    if (buf[at] != 0x02 || buf[at + 1] != 0x82) return TDEC_E_NOSYNC;
    if (len - at < TDEC_IPT__PSB_SIZE) return TDEC_E_TRUNCATED;
    for (i = 2; i < TDEC_IPT__PSB_SIZE; i += 2)
        if (buf[at + i] != 0x02 || buf[at + i + 1] != 0x82) return TDEC_E_NOSYNC;
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_psb_list(const uint8_t *buf, size_t len, size_t *out, size_t cap,
                                           size_t *count)
{
    size_t n = 0, from = 0, psb;
    if ((buf == NULL && len > 0) || (out == NULL && cap > 0) || count == NULL) return TDEC_E_ARG;
    while (from <= len && tdec_ipt_sync_forward(buf, len, from, &psb) == TDEC_OK) {
        if (n < cap) out[n] = psb;
        n++;
        from = psb + 1;
    }
    *count = n;
    return TDEC_OK;
}

/* ---- last-IP ------------------------------------------------------------- */

/* The status of a value function's error: whose it is (see "last-IP" in
   the declarations). */
static tdec_status tdec_ipt__error_status(uint32_t code)
{
    switch (code) {
    case TDEC_IPT_ERR_BAD_PACKET:
    case TDEC_IPT_ERR_BAD_CONTEXT:
    case TDEC_IPT_ERR_BAD_INSN: return TDEC_E_CORRUPT;
    case TDEC_IPT_ERR_NO_TIME:
    case TDEC_IPT_ERR_NO_CBR:
    case TDEC_IPT_ERR_NOIP:
    case TDEC_IPT_ERR_IP_SUPPRESSED:
    case TDEC_IPT_ERR_BAD_QUERY: return TDEC_E_SEQUENCE;
    default: return TDEC_E_ARG; /* INTERNAL, INVALID, BAD_CONFIG */
    }
}

/* A value function's result: libipt's code (0: none) in *reason, and its
   status. */
TDEC_IPT__HOT static tdec_status tdec_ipt__result(uint32_t *reason, uint32_t code)
{
    if (reason != NULL) *reason = code;
    return code == TDEC_IPT_ERR_OK ? TDEC_OK : tdec_ipt__error_status(code);
}

TDEC_IPT_DEF void tdec_ipt_last_ip_init(tdec_ipt_last_ip *l)
{
    l->ip = 0;
    l->have_ip = 0;
    l->suppressed = 0;
}

TDEC_IPT_DEF tdec_status tdec_ipt_last_ip_update(tdec_ipt_last_ip *l, const tdec_ipt_packet *p,
                                                 uint32_t *reason)
{
    uint64_t ip = p->payload;
    if (p->kind != TDEC_IPT_TIP && p->kind != TDEC_IPT_TIP_PGE && p->kind != TDEC_IPT_TIP_PGD &&
        p->kind != TDEC_IPT_FUP)
        return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    switch (p->sub) {
    case TDEC_IPT_IPC_SUPPRESSED:
        l->suppressed = 1;
        return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
    case TDEC_IPT_IPC_UPDATE_16: ip = (l->ip & ~(uint64_t)0xffff) | (ip & 0xffff); break;
    case TDEC_IPT_IPC_UPDATE_32: ip = (l->ip & ~(uint64_t)0xffffffff) | (ip & 0xffffffff); break;
    case TDEC_IPT_IPC_SEXT_48: ip = tdec_ipt_ip_payload(p); break;
    case TDEC_IPT_IPC_UPDATE_48:
        ip = (l->ip & ~(uint64_t)0xffffffffffff) | (ip & 0xffffffffffff);
        break;
    case TDEC_IPT_IPC_FULL: break;
    default: return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_PACKET);
    }
    l->ip = ip;
    l->have_ip = 1;
    l->suppressed = 0;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_last_ip_query(const tdec_ipt_last_ip *l, uint64_t *ip,
                                                uint32_t *reason)
{
    if (!l->have_ip) {
        *ip = 0;
        return tdec_ipt__result(reason, TDEC_IPT_ERR_NOIP);
    }
    if (l->suppressed) {
        *ip = 0;
        return tdec_ipt__result(reason, TDEC_IPT_ERR_IP_SUPPRESSED);
    }
    *ip = l->ip;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF uint64_t tdec_ipt_ip_payload(const tdec_ipt_packet *p)
{
    uint64_t ip = p->payload;
    if (p->sub == TDEC_IPT_IPC_SEXT_48 && (ip & ((uint64_t)1 << 47))) ip |= ~(uint64_t)0xffffffffffff;
    return ip;
}

/* ---- strings ------------------------------------------------------------- */

TDEC_IPT_DEF const char *tdec_ipt_kind_str(uint32_t kind)
{
#ifdef TDEC_NO_STRINGS
    (void)kind;
    return "";
#else
    static const char *const names[TDEC_IPT_KIND_COUNT] = {
        "", "pad", "psb", "psbend", "ovf", "tnt.8", "tnt.64", "tip", "tip.pge", "tip.pgd",
        "fup", "mode.exec", "mode.tsx", "pip", "tsc", "cbr", "tma", "mtc", "cyc", "vmcs",
        "mnt", "stop", "exstop", "mwait", "pwre", "pwrx", "ptw", "cfe", "evd", "trig", "bbp",
        "bep", "bip", "<unknown>", "<invalid>"};
    return kind < TDEC_IPT_KIND_COUNT ? names[kind] : "";
#endif
}

TDEC_IPT_DEF const char *tdec_ipt_reason_str(uint32_t reason)
{
#ifdef TDEC_NO_STRINGS
    (void)reason;
    return "";
#else
    static const char *const texts[] = {
        "OK", "internal error", "invalid argument", "decoder out of sync", "unknown opcode",
        "unknown packet", "unexpected packet context", "reached end of trace stream",
        "trace stream does not match query", "out of memory", "bad configuration", "no ip",
        "ip has been suppressed", "no memory mapped at this address", "unknown instruction",
        "no timing information", "no core:bus ratio", "bad image", "locking error",
        "not supported", "compressed return without call", "bad compressed return",
        "bad status update", "expected tracing enabled event", "event ignored", "overflow",
        "bad file", "unknown cpu"};
    if (reason == TDEC_IPT_GAP_SYNC) return "bytes before the first PSB";
    if (reason == TDEC_IPT_GAP_RESYNC) return "bytes skipped by resync";
    if (reason == TDEC_IPT_ERR_WALK_LIMIT) return "too many instructions without trace";
    return reason < sizeof texts / sizeof texts[0] ? texts[reason] : "internal error.";
#endif
}

/* ---- timing (libipt/src/pt_time.c) --------------------------------------- */

TDEC_STATIC_ASSERT(ipt_time_size, sizeof(tdec_ipt_time) == 48);
TDEC_STATIC_ASSERT(ipt_tcal_size, sizeof(tdec_ipt_tcal) == 64);

/* A 32-bit shift by a configuration-derived count, taken modulo 32 as x86
   does (C leaves counts >= 32 undefined). */
#define TDEC_IPT__SHL32(v, n) ((uint32_t)(v) << ((unsigned)(n) & 31u))

/* Bits of CTC an MTC carries and a TMA carries (libipt's pt_pl_* sizes). */
#define TDEC_IPT__MTC_BITS 8u
#define TDEC_IPT__TMA_CTC_BITS 16u
#define TDEC_IPT__TMA_CTC_MASK 0xffffu

/* n / d for d != 0 (returns 0 for d == 0: no caller divides by zero), by
   shift and subtract: no libgcc helper (__aeabi_uldivmod, __udivdi3) on
   32-bit targets. At most 64 steps; one hardware 32-bit division when both
   fit in 32 bits. */
static uint64_t tdec_ipt__udiv64(uint64_t n, uint64_t d)
{
    uint64_t q = 0;
    unsigned s;
    if (d == 0 || n < d) return 0;
    if ((n >> 32) == 0) return (uint64_t)((uint32_t)n / (uint32_t)d);
    s = tdec_ipt__top_bit(n) - tdec_ipt__top_bit(d); /* d <= n: s >= 0 */
    d <<= s;
    for (;;) {
        if (n >= d) {
            n -= d;
            q |= 1u;
        }
        if (s == 0) break;
        s--;
        d >>= 1;
        q <<= 1;
    }
    return q;
}

static int tdec_ipt__time_kind(const tdec_ipt_packet *p, unsigned kind)
{
    return p->kind == kind;
}

/* The distance from last to ctc, correcting one wrap of the CTC bits MTC
   provides (mtc_freq + 8). */
static int tdec_ipt__ctc_delta(uint32_t *delta, uint32_t ctc, uint32_t last,
                               const tdec_ipt_config *cfg)
{
    if (ctc < last) {
        ctc += TDEC_IPT__SHL32(1u, cfg->mtc_freq + TDEC_IPT__MTC_BITS);
        if (ctc < last) return -TDEC_IPT_ERR_BAD_PACKET;
    }
    *delta = ctc - last;
    return 0;
}

/* CTC ticks to TSC (fast counter) ticks: ctc * ebx / eax (CPUID leaf 0x15). */
static int tdec_ipt__ctc_fc(uint64_t *fc, uint64_t ctc, const tdec_ipt_config *cfg)
{
    uint32_t eax = cfg->cpuid_0x15_eax, ebx = cfg->cpuid_0x15_ebx;
    if (eax == 0 || ebx == 0) return -TDEC_IPT_ERR_BAD_CONFIG;
    *fc = tdec_ipt__udiv64(ctc * ebx, eax);
    return 0;
}

TDEC_IPT_DEF void tdec_ipt_time_init(tdec_ipt_time *t)
{
    unsigned i;
    if (t == NULL) return;
    t->tsc = 0;
    t->base = 0;
    t->fc = 0;
    t->ctc = 0;
    t->ctc_cyc = 0;
    t->lost_mtc = 0;
    t->lost_cyc = 0;
    t->cbr = 0;
    t->have_tsc = 0;
    t->have_cbr = 0;
    t->have_tma = 0;
    t->have_mtc = 0;
    for (i = 0; i < sizeof t->reserved; i++) t->reserved[i] = 0;
}

TDEC_IPT_DEF tdec_status tdec_ipt_time_query_tsc(const tdec_ipt_time *t, uint64_t *tsc,
                                                 uint32_t *lost_mtc, uint32_t *lost_cyc,
                                                 uint32_t *reason)
{
    if (t == NULL || tsc == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    *tsc = t->tsc;
    if (lost_mtc != NULL) *lost_mtc = t->lost_mtc;
    if (lost_cyc != NULL) *lost_cyc = t->lost_cyc;
    return tdec_ipt__result(reason, t->have_tsc ? TDEC_IPT_ERR_OK : TDEC_IPT_ERR_NO_TIME);
}

TDEC_IPT_DEF tdec_status tdec_ipt_time_query_cbr(const tdec_ipt_time *t, uint32_t *cbr,
                                                 uint32_t *reason)
{
    if (t == NULL || cbr == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!t->have_cbr) return tdec_ipt__result(reason, TDEC_IPT_ERR_NO_CBR);
    *cbr = t->cbr;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_time_update_tsc(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    (void)cfg;
    if (t == NULL || p == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_TSC)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    t->have_tsc = 1;
    t->have_tma = 0;
    t->have_mtc = 0;
    t->tsc = t->base = p->payload;
    t->ctc = 0;
    t->fc = 0;
    t->lost_mtc = 0;
    t->lost_cyc = 0;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_time_update_cbr(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    uint8_t cbr;
    (void)cfg;
    if (t == NULL || p == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_CBR)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    cbr = (uint8_t)p->payload;
    if (cbr == 0) return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_PACKET);
    t->have_cbr = 1;
    t->cbr = cbr;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_time_update_tma(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    uint32_t ctc, mtc_hi, mask;
    uint64_t fc;
    if (t == NULL || p == NULL || cfg == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_TMA)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    if (!t->have_tsc || t->have_tma) return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_CONTEXT);
    /* MTCs are ignored before the TMA */
    if (t->have_mtc) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);

    ctc = (uint16_t)p->payload;
    fc = (uint16_t)p->aux;
    mtc_hi = cfg->mtc_freq + TDEC_IPT__MTC_BITS;
    mask = TDEC_IPT__SHL32(1u, mtc_hi) - 1u;

    t->have_tma = 1;
    t->base -= fc;
    t->fc += fc;
    /* With all CTC bits an MTC has, the TMA serves as the previous MTC;
       else the next MTC supplies the high bits (time_update_mtc). */
    if (mtc_hi <= TDEC_IPT__TMA_CTC_BITS) t->have_mtc = 1;
    t->ctc = t->ctc_cyc = ctc & mask;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_time_update_mtc(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    uint32_t last_ctc, ctc, delta;
    uint64_t tsc, base;
    int err, have_tma, have_mtc;

    if (t == NULL || p == NULL || cfg == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_MTC)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    have_tma = t->have_tma;
    have_mtc = t->have_mtc;
    /* Between a TSC and its TMA an MTC would look like a CTC overflow. */
    if (t->have_tsc && !have_tma) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);

    base = t->base;
    last_ctc = t->ctc;
    ctc = TDEC_IPT__SHL32((uint8_t)p->payload, cfg->mtc_freq);

    if (t->fc != 0 || t->lost_cyc != 0 || !have_mtc) t->ctc_cyc = ctc;
    t->have_mtc = 1;
    t->fc = 0;
    t->ctc = ctc;
    t->lost_cyc = 0;

    if (!have_mtc) {
        uint32_t lo, hi;
        /* The first MTC without a TMA only sets the reference. */
        if (!have_tma) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
        /* The TMA had fewer CTC bits than an MTC (else it counted as one):
           take the missing high bits from this MTC, one period back if the
           low bits wrapped since. */
        if (last_ctc & ~(uint32_t)TDEC_IPT__TMA_CTC_MASK)
            return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
        lo = ctc & TDEC_IPT__TMA_CTC_MASK;
        hi = ctc & ~(uint32_t)TDEC_IPT__TMA_CTC_MASK;
        if (lo < last_ctc) {
            hi -= (uint32_t)1u << TDEC_IPT__TMA_CTC_BITS;
            hi &= TDEC_IPT__SHL32(0xffu, cfg->mtc_freq);
        }
        last_ctc |= hi;
    }

    err = tdec_ipt__ctc_delta(&delta, ctc, last_ctc, cfg);
    if (err < 0) {
        t->lost_mtc += 1;
        return tdec_ipt__result(reason, (uint32_t)-err);
    }
    err = tdec_ipt__ctc_fc(&tsc, delta, cfg);
    if (err < 0) return tdec_ipt__result(reason, (uint32_t)-err);
    base += tsc;
    t->tsc = t->base = base;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

/* The first CYC after an MTC may span earlier MTC periods: subtract the
   cycles the calibration expects for them (fc << 8 / fcr), never below 0. */
static int tdec_ipt__adjust_cyc(uint64_t *cyc, const tdec_ipt_time *t, const tdec_ipt_config *cfg,
                                uint64_t fcr)
{
    uint32_t delta;
    uint64_t fc, old_cyc, total;
    int err;

    if (t->ctc == t->ctc_cyc) return 0;
    err = tdec_ipt__ctc_delta(&delta, t->ctc, t->ctc_cyc, cfg);
    if (err < 0) return err;
    err = tdec_ipt__ctc_fc(&fc, delta, cfg);
    if (err < 0) return err;
    old_cyc = tdec_ipt__udiv64(fc << TDEC_IPT_TCAL_FCR_SHR, fcr);
    total = *cyc;
    if (total < old_cyc) total = old_cyc;
    *cyc = total - old_cyc;
    return 0;
}

TDEC_IPT_DEF tdec_status tdec_ipt_time_update_cyc(tdec_ipt_time *t, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint64_t fcr,
                                                  uint32_t *reason)
{
    uint64_t cyc, fc;
    if (t == NULL || p == NULL || cfg == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_CYC)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    if (fcr == 0) {
        t->lost_cyc += 1;
        return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
    }
    cyc = p->payload;
    fc = t->fc;
    if (fc == 0) {
        int err = tdec_ipt__adjust_cyc(&cyc, t, cfg, fcr);
        if (err < 0) return tdec_ipt__result(reason, (uint32_t)-err);
    }
    fc += (cyc * fcr) >> TDEC_IPT_TCAL_FCR_SHR;
    t->fc = fc;
    t->tsc = t->base + fc;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF void tdec_ipt_tcal_init(tdec_ipt_tcal *c)
{
    unsigned i;
    if (c == NULL) return;
    c->fcr = 0;
    c->min_fcr = UINT64_MAX;
    c->max_fcr = 0;
    c->tsc = 0;
    c->cyc_tsc = 0;
    c->cyc_mtc = 0;
    c->ctc = 0;
    c->lost_mtc = 0;
    c->have_mtc = 0;
    c->check_skl168 = 0;
    for (i = 0; i < sizeof c->reserved; i++) c->reserved[i] = 0;
}

static int tdec_ipt__tcal_have_fcr(const tdec_ipt_tcal *c)
{
    return c->min_fcr <= c->max_fcr;
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_query_fcr(const tdec_ipt_tcal *c, uint64_t *fcr,
                                                 uint32_t *reason)
{
    if (c == NULL || fcr == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__tcal_have_fcr(c)) return tdec_ipt__result(reason, TDEC_IPT_ERR_NO_TIME);
    *fcr = c->fcr;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_set_fcr(tdec_ipt_tcal *c, uint64_t fcr, uint32_t *reason)
{
    if (c == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    c->fcr = fcr;
    if (fcr < c->min_fcr) c->min_fcr = fcr;
    if (fcr > c->max_fcr) c->max_fcr = fcr;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_psb(tdec_ipt_tcal *c, const tdec_ipt_config *cfg,
                                                  uint32_t *reason)
{
    if (c == NULL || cfg == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (cfg->errata & TDEC_IPT_ERRATUM_SKL168) c->check_skl168 = 1;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_tsc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    (void)cfg;
    if (c == NULL || p == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_TSC)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    c->tsc = p->payload;
    c->cyc_tsc = 0;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_header_tsc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    uint64_t tsc, last, cyc;
    (void)cfg;
    if (c == NULL || p == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_TSC)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    last = c->tsc;
    cyc = c->cyc_tsc;
    tsc = p->payload;
    c->tsc = tsc;
    c->cyc_tsc = 0;
    if (last == 0 || cyc == 0) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
    if (c->have_mtc) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK); /* MTCs calibrate better */
    if (tsc < last) { /* one wrap of the 56-bit TSC */
        tsc += (uint64_t)1 << 56;
        if (tsc < last) return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_PACKET);
    }
    tsc -= last;
    if (tsc & ~(UINT64_MAX >> TDEC_IPT_TCAL_FCR_SHR)) /* too big to shift */
        return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    return tdec_ipt_tcal_set_fcr(c, tdec_ipt__udiv64(tsc << TDEC_IPT_TCAL_FCR_SHR, cyc), reason);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_header_cbr(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    uint64_t p1, cbr;
    if (c == NULL || p == NULL || cfg == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_CBR)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    p1 = cfg->nom_freq;
    if (p1 == 0) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
    cbr = (uint8_t)p->payload;
    if (cbr == 0) return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_PACKET);
    return tdec_ipt_tcal_set_fcr(c, tdec_ipt__udiv64(p1 << TDEC_IPT_TCAL_FCR_SHR, cbr), reason);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_cbr(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    if (p != NULL && !tdec_ipt__time_kind(p, TDEC_IPT_CBR))
        return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    tdec_ipt_tcal_init(c); /* a frequency change: start over */
    return tdec_ipt_tcal_header_cbr(c, p, cfg, reason);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_tma(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    (void)c;
    (void)cfg;
    if (p != NULL && !tdec_ipt__time_kind(p, TDEC_IPT_TMA))
        return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_mtc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    uint32_t last_ctc, ctc, delta;
    uint64_t cyc, fc, fcr;
    int err, have_mtc, check_skl168;

    if (c == NULL || p == NULL || cfg == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_MTC)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    last_ctc = c->ctc;
    have_mtc = c->have_mtc;
    cyc = c->cyc_mtc;
    check_skl168 = c->check_skl168;
    c->check_skl168 = 0; /* only the first MTC after a PSB */

    ctc = TDEC_IPT__SHL32((uint8_t)p->payload, cfg->mtc_freq);
    if (!have_mtc) {
        c->cyc_mtc = 0;
        c->ctc = ctc;
        c->have_mtc = 1;
        return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
    }
    /* No cycles: try again over the combined period at the next MTC. */
    if (cyc == 0) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);

    c->cyc_mtc = 0;
    c->ctc = ctc;
    c->lost_mtc += 1; /* until the fcr is updated below */

    err = tdec_ipt__ctc_delta(&delta, ctc, last_ctc, cfg);
    if (err < 0) return tdec_ipt__result(reason, (uint32_t)-err);
    err = tdec_ipt__ctc_fc(&fc, delta, cfg);
    if (err < 0) return tdec_ipt__result(reason, (uint32_t)-err);
    if (fc & ~(UINT64_MAX >> TDEC_IPT_TCAL_FCR_SHR)) /* too big to shift */
        return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    fcr = tdec_ipt__udiv64(fc << TDEC_IPT_TCAL_FCR_SHR, cyc);

    /* Erratum SKL168: CYCs right before a PSB may be dropped. Skip the first
       MTC after a PSB if MTCs were lost, or if, with a high MTC frequency
       and a known fcr, a 4096-cycle wrap CYC looks dropped. */
    if (check_skl168) {
        if (TDEC_IPT__SHL32(1u, cfg->mtc_freq) < delta) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
        if (cfg->mtc_freq < 10 && tdec_ipt__tcal_have_fcr(c)) {
            uint64_t dfc = (c->fcr * (cyc + 0xf00u)) >> TDEC_IPT_TCAL_FCR_SHR;
            if (dfc < fc) return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
        }
    }
    tdec_ipt_tcal_set_fcr(c, fcr, NULL);
    c->lost_mtc = 0;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_cyc(tdec_ipt_tcal *c, const tdec_ipt_packet *p,
                                                  const tdec_ipt_config *cfg, uint32_t *reason)
{
    (void)cfg;
    if (c == NULL || p == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!tdec_ipt__time_kind(p, TDEC_IPT_CYC)) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    c->cyc_mtc += p->payload;
    c->cyc_tsc += p->payload;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_tcal_update_ovf(tdec_ipt_tcal *c, const tdec_ipt_config *cfg,
                                                  uint32_t *reason)
{
    if (c == NULL || cfg == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (!(cfg->flags & TDEC_IPT_F_KEEP_TCAL_OVF)) {
        tdec_ipt_tcal_init(c);
        return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
    }
    c->tsc = 0;
    c->cyc_tsc = 0;
    c->cyc_mtc = 0;
    c->ctc = 0;
    c->have_mtc = 0;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

/* ---- CPU errata (libipt/src/pt_config.c, pt_cpu_errata) ------------------ */

TDEC_IPT_DEF tdec_status tdec_ipt_cpu_errata(uint32_t family, uint32_t model, uint32_t stepping,
                                             uint32_t *errata)
{
    uint32_t e = 0;
    (void)stepping;
    if (errata == NULL) return TDEC_E_ARG;
    *errata = 0;
    /* libipt keeps the model in 8 bits and the family in 16; a value it
       cannot hold is no CPU it knows. */
    if (model > 0xffu) return TDEC_E_ARG;
    if (family == 0x6) {
        switch (model) {
        case 0x3d: case 0x47: case 0x4f: case 0x56:
            e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_BDM64;
            break;
        case 0x4e: case 0x5e: case 0x8e: case 0x9e: case 0xa5: case 0xa6:
            e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD007 | TDEC_IPT_ERRATUM_SKD022 |
                TDEC_IPT_ERRATUM_SKD010 | TDEC_IPT_ERRATUM_SKL014 | TDEC_IPT_ERRATUM_SKL168;
            break;
        case 0x55: case 0x6a: case 0x6c:
            e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKL014 | TDEC_IPT_ERRATUM_SKD022 |
                TDEC_IPT_ERRATUM_SKZ84;
            break;
        case 0x8f: case 0xcf: case 0xad: case 0xae:
            e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_SKZ84;
            break;
        case 0x66: case 0x7d: case 0x7e: case 0x8c: case 0x8d: case 0xa7: case 0xa8:
            e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKL014 | TDEC_IPT_ERRATUM_SKD022;
            break;
        case 0x97: case 0x9a: case 0xba: case 0xb7: case 0xbf: case 0xc5: case 0xc6:
        case 0xb5: case 0xaa: case 0xac: case 0xbd: case 0xcc: case 0xd5:
            e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_APL11;
            break;
        case 0x5c: case 0x5f:
            e = TDEC_IPT_ERRATUM_APL12 | TDEC_IPT_ERRATUM_APL11;
            break;
        case 0x7a: case 0x86: case 0x96: case 0x9c: case 0xb6: case 0xaf: case 0xdd:
            e = TDEC_IPT_ERRATUM_APL11;
            break;
        default:
            return TDEC_E_ARG;
        }
    } else if (family == 0x12 && (model == 0x01 || model == 0x03)) {
        e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_APL11;
    } else if (family == 0x13 && model == 0x01) {
        e = TDEC_IPT_ERRATUM_BDM70 | TDEC_IPT_ERRATUM_SKD022 | TDEC_IPT_ERRATUM_SKZ84;
    } else {
        return TDEC_E_ARG;
    }
    *errata = e;
    return TDEC_OK;
}

/* ---- layer 2: events ----------------------------------------------------- */

/* What a queued event waits for (libipt's enum pt_event_binding). */
#define TDEC_IPT__EVB_PSBEND    0x01u
#define TDEC_IPT__EVB_TIP       0x02u
#define TDEC_IPT__EVB_FUP       0x04u
#define TDEC_IPT__EVB_FUP_BOUND 0x08u
#define TDEC_IPT__EVB_EXSTOP    0x10u
#define TDEC_IPT__EVB_CFE       0x20u
#define TDEC_IPT__EVB_PWRX      0x40u
#define TDEC_IPT__EVB_ANY       0x7fu

/* An internal event type: a MODE.Exec that changed nothing still binds to
   the next TIP or FUP, and is dropped there. */
#define TDEC_IPT__EV_IGNORE 0xffu

/* Pseudo packet kinds for what the packet layer ends with. */
#define TDEC_IPT__K_ERROR 0xf0u /* decode error, code in aux */
#define TDEC_IPT__K_EOS   0xf1u /* end of stream             */

/* Step results (>= 0; errors are negative libipt codes). */
#define TDEC_IPT__EV_KEEP 0 /* an event is out; the packet is processed again */
#define TDEC_IPT__EV_DONE 1 /* an event is out; the packet is used up         */
#define TDEC_IPT__NEXT    2 /* no event; the packet is used up                */
#define TDEC_IPT__WAIT    3 /* a look-ahead needs more packets                */
#define TDEC_IPT__SYNCED  4 /* the sync point's PSB+ is read: a SYNC item     */
#define TDEC_IPT__REDO    5 /* process the same packet again (phase changed)  */

/* Event decoder phases. */
#define TDEC_IPT__E_SYNC   0 /* expecting the PSB of a sync point */
#define TDEC_IPT__E_HEADER 1 /* inside PSB+                        */
#define TDEC_IPT__E_RUN    2
#define TDEC_IPT__E_END    3

/* Look-ahead scans (e->look bits), each libipt's read-ahead loop. */
#define TDEC_IPT__L_OVF    0x01u /* pt_evt_find_ovf_fup           */
#define TDEC_IPT__L_SKD010 0x02u /* pt_evt_handle_skd010          */
#define TDEC_IPT__L_APL11  0x04u /* pt_evt_handle_apl11           */
#define TDEC_IPT__L_APL12  0x08u /* pt_evt_handle_apl12           */
#define TDEC_IPT__L_BDM70  0x10u /* pt_evt_check_bdm70            */
#define TDEC_IPT__L_HDR_SKD010 0x20u /* SKD010: inside a PSB+, looking for its FUP */
#define TDEC_IPT__L_HDR_APL12  0x40u /* APL12: the same                             */

/* How a look-ahead ended for the scans that can recover (look_how). */
#define TDEC_IPT__R_NONE     0
#define TDEC_IPT__R_AT_IP    1 /* overflow at the IP of held[look_at] (FUP or TIP) */
#define TDEC_IPT__R_AT_PSB   2 /* overflow at the PSB+ FUP (look_fup), held[look_at] */
                               /* is that PSB                                       */
#define TDEC_IPT__R_DISABLED 3 /* overflow without IP; held[look_at] (TIP.PGD) is   */
                               /* skipped                                           */
#define TDEC_IPT__R_AT_FUP   4 /* APL12: overflow without IP at the FUP             */

static const char *const tdec_ipt__event_names[TDEC_IPT_EV_COUNT] = {
    "enabled", "disabled", "async_disabled", "async_branch", "paging", "async_paging",
    "overflow", "exec_mode", "tsx", "stop", "vmcs", "async_vmcs", "exstop", "mwait", "pwre",
    "pwrx", "ptwrite", "tick", "cbr", "mnt", "tip", "tnt", "iflags", "interrupt", "iret", "smi",
    "rsm", "sipi", "init", "vmentry", "vmexit", "shutdown", "uintr", "uiret", "trig", "swintr",
    "syscall"};

TDEC_IPT_DEF const char *tdec_ipt_event_str(uint32_t type)
{
#ifdef TDEC_NO_STRINGS
    (void)type;
    return "";
#else
    return type < TDEC_IPT_EV_COUNT ? tdec_ipt__event_names[type] : "?";
#endif
}

/* ---- the event queue ----------------------------------------------------- */

static void tdec_ipt__ev_zero(tdec_ipt_event *ev)
{
    ev->ip = ev->arg = ev->arg2 = ev->tsc = 0;
    ev->lost_mtc = ev->lost_cyc = ev->flags = ev->aux = 0;
    ev->type = ev->a = ev->b = ev->reserved = 0;
}

/* Removes queue entry i, keeping the order of the others. */
static void tdec_ipt__q_remove(tdec_ipt_evt_decoder *e, int i)
{
    e->nq--;
    for (; i < e->nq; i++) e->queue[i] = e->queue[i + 1];
}

static tdec_ipt_event *tdec_ipt__q_add(tdec_ipt_evt_decoder *e, uint32_t binding)
{
    tdec_ipt__queued *q;
    if (e->nq >= TDEC_IPT_EVT_QUEUE) return NULL;
    q = &e->queue[e->nq++];
    tdec_ipt__ev_zero(&q->ev);
    q->binding = binding;
    return &q->ev;
}

/* The first queued event bound to one of `mask`, or -1. */
static int tdec_ipt__q_find(const tdec_ipt_evt_decoder *e, uint32_t mask, int type)
{
    int i;
    for (i = 0; i < e->nq; i++)
        if ((e->queue[i].binding & mask) && (type < 0 || e->queue[i].ev.type == type)) return i;
    return -1;
}

/* Takes the first event bound to one of `mask` out of the queue. */
static int tdec_ipt__q_take(tdec_ipt_evt_decoder *e, uint32_t mask, tdec_ipt_event *out)
{
    int i = tdec_ipt__q_find(e, mask, -1);
    if (i < 0) return 0;
    *out = e->queue[i].ev;
    tdec_ipt__q_remove(e, i);
    return 1;
}

static int tdec_ipt__q_put(tdec_ipt_evt_decoder *e, uint32_t binding, const tdec_ipt_event *ev)
{
    tdec_ipt_event *q = tdec_ipt__q_add(e, binding);
    if (q == NULL) return -TDEC_IPT_ERR_NOMEM;
    *q = *ev;
    return 0;
}

/* ---- event fields -------------------------------------------------------- */

static void tdec_ipt__stamp_now(const tdec_ipt_time *t, tdec_ipt__stamp *s)
{
    s->has_tsc = tdec_ipt_time_query_tsc(t, &s->tsc, &s->lost_mtc, &s->lost_cyc, NULL) == TDEC_OK;
    s->has_cbr = t->have_cbr;
    s->cbr = t->cbr;
    s->reserved = 0;
}

/* The time at the current packet: made from the running time the first
   time it is asked for, which is before any later packet is read. */
static const tdec_ipt__stamp *tdec_ipt__now(tdec_ipt_evt_decoder *e)
{
    if (e->cur_live) {
        tdec_ipt__stamp_now(&e->time, &e->cur_stamp);
        e->cur_live = 0;
    }
    return &e->cur_stamp;
}

static void tdec_ipt__ev_time(tdec_ipt_event *ev, const tdec_ipt__stamp *s)
{
    if (!s->has_tsc) return;
    ev->flags |= TDEC_IPT_EVF_HAS_TSC;
    ev->tsc = s->tsc;
    ev->lost_mtc = s->lost_mtc;
    ev->lost_cyc = s->lost_cyc;
}

static void tdec_ipt__ev_ip(tdec_ipt_evt_decoder *e, tdec_ipt_event *ev)
{
    if (tdec_ipt_last_ip_query(&e->ip, &ev->ip, NULL) != TDEC_OK) {
        ev->ip = 0;
        ev->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
    }
}

/* A standalone event in the caller's item, stamped with the packet's time.
   Every field is written once, as a scalar: reading back a field of a
   just-zeroed struct stalls on store forwarding. */
static tdec_ipt_event *tdec_ipt__ev_new(tdec_ipt_evt_decoder *e, tdec_ipt_event *out, uint8_t type)
{
    const tdec_ipt__stamp *s = tdec_ipt__now(e);
    out->ip = out->arg = out->arg2 = 0;
    out->tsc = s->has_tsc ? s->tsc : 0;
    out->lost_mtc = s->has_tsc ? s->lost_mtc : 0;
    out->lost_cyc = s->has_tsc ? s->lost_cyc : 0;
    out->flags = s->has_tsc ? TDEC_IPT_EVF_HAS_TSC : 0u;
    out->aux = 0;
    out->type = type;
    out->a = out->b = out->reserved = 0;
    return out;
}

static uint8_t tdec_ipt__exec_mode(uint8_t bits)
{
    /* libipt's pt_get_exec_mode: CS.L -> 64-bit (CS.D must be 0), CS.D -> 32. */
    if (bits & TDEC_IPT_EXEC_CSL) return (bits & TDEC_IPT_EXEC_CSD) ? 0 : 3;
    return (bits & TDEC_IPT_EXEC_CSD) ? 2 : 1;
}

/* ---- timing, applied when a packet is read ------------------------------- */

/* libipt's pt_evt_apply_*: configuration errors only make the time
   imprecise (counted as lost packets); other errors stop decoding. Returns
   0 or libipt's negative code. */
static int tdec_ipt__keep(tdec_status st, uint32_t why)
{
    return st == TDEC_OK || why == TDEC_IPT_ERR_BAD_CONFIG ? 0 : -(int)why;
}

static int tdec_ipt__apply_time(tdec_ipt_evt_decoder *e, const tdec_ipt_packet *p)
{
    const tdec_ipt_config *cfg = &e->pkt.cfg;
    tdec_ipt_tcal *c = &e->tcal;
    tdec_ipt_time *t = &e->time;
    uint64_t fcr;
    uint32_t why; /* written by every call below */
    tdec_status st;
    int r;
    switch (p->kind) {
    case TDEC_IPT_TSC:
        st = e->in_psb ? tdec_ipt_tcal_header_tsc(c, p, cfg, &why) : tdec_ipt_tcal_update_tsc(c, p, cfg, &why);
        if ((r = tdec_ipt__keep(st, why)) < 0) return r;
        st = tdec_ipt_time_update_tsc(t, p, cfg, &why);
        break;
    case TDEC_IPT_CBR:
        st = e->in_psb ? tdec_ipt_tcal_header_cbr(c, p, cfg, &why) : tdec_ipt_tcal_update_cbr(c, p, cfg, &why);
        if ((r = tdec_ipt__keep(st, why)) < 0) return r;
        st = tdec_ipt_time_update_cbr(t, p, cfg, &why);
        break;
    case TDEC_IPT_TMA:
        st = tdec_ipt_tcal_update_tma(c, p, cfg, &why);
        if ((r = tdec_ipt__keep(st, why)) < 0) return r;
        st = tdec_ipt_time_update_tma(t, p, cfg, &why);
        break;
    case TDEC_IPT_MTC:
        st = tdec_ipt_tcal_update_mtc(c, p, cfg, &why);
        if ((r = tdec_ipt__keep(st, why)) < 0) return r;
        st = tdec_ipt_time_update_mtc(t, p, cfg, &why);
        break;
    case TDEC_IPT_CYC:
        st = tdec_ipt_tcal_update_cyc(c, p, cfg, &why);
        if ((r = tdec_ipt__keep(st, why)) < 0) return r;
        if (tdec_ipt_tcal_query_fcr(c, &fcr, NULL) != TDEC_OK) fcr = 0;
        st = tdec_ipt_time_update_cyc(t, p, cfg, fcr, &why);
        break;
    case TDEC_IPT_OVF:
        /* The time survives an overflow; the calibration only when asked. */
        st = tdec_ipt_tcal_update_ovf(c, cfg, &why);
        break;
    default:
        return 0;
    }
    return tdec_ipt__keep(st, why);
}

/* pull() tells the timing packets by kind ranges. */
TDEC_STATIC_ASSERT(tdec_ipt_kind_ranges, TDEC_IPT_PSBEND == TDEC_IPT_PSB + 1 && TDEC_IPT_OVF == TDEC_IPT_PSB + 2 &&
                                             TDEC_IPT_CBR == TDEC_IPT_TSC + 1 && TDEC_IPT_CYC == TDEC_IPT_TSC + 4);

/* What reading a packet does before it is processed: the PSB+ bounds and
   the time. Returns 0 or the timing error. */
static int tdec_ipt__took(tdec_ipt_evt_decoder *e, const tdec_ipt_packet *pk)
{
    if (pk->kind >= TDEC_IPT_PSB && pk->kind <= TDEC_IPT_OVF) { /* PSB, PSBEND, OVF */
        e->in_psb = pk->kind == TDEC_IPT_PSB;
        if (pk->kind == TDEC_IPT_OVF) return tdec_ipt__apply_time(e, pk);
    } else if (pk->kind >= TDEC_IPT_TSC && pk->kind <= TDEC_IPT_CYC) { /* TSC, CBR, TMA, MTC, CYC */
        return tdec_ipt__apply_time(e, pk);
    }
    return 0;
}

/* Reads the next packet from the packet layer into *pk / *offset, skipping
   PAD and gaps, with its time applied (*err: 0, or the timing error).
   Returns TDEC_OK or TDEC_NEED_INPUT; the end and decode errors come as
   K_EOS / K_ERROR pseudo packets with the error in *err. */
static tdec_status tdec_ipt__pull(tdec_ipt_evt_decoder *e, tdec_ipt_packet *pk, uint64_t *offset,
                                  int32_t *err)
{
    tdec_ipt_decoder *d = &e->pkt;
    tdec_ipt_item it;
    tdec_status st;
    for (;;) {
        /* tdec_ipt_next()'s fast path, straight into *pk */
        if (tdec_ipt__fast_ready(d)) {
            int n = tdec_ipt__decode_fast(d, d->st.win, pk);
            if (n > 0) {
                *offset = d->st.pos;
                d->st.win += n;
                d->st.win_len -= (size_t)n;
                d->st.pos += (uint64_t)n;
                if (pk->kind == TDEC_IPT_PAD) continue;
                break;
            }
        }
        st = tdec_ipt_next(d, &it);
        if (st == TDEC_NEED_INPUT) return st;
        if (st != TDEC_OK) {
            pk->payload = 0;
            pk->aux = 0;
            pk->size = pk->sub = pk->flags = 0;
            if (st == TDEC_E_CORRUPT) {
                pk->kind = TDEC_IPT__K_ERROR;
                *offset = d->st.err_offset;
                *err = -(int32_t)d->st.err_reason;
            } else { /* the end: clean, or inside a packet (libipt's -pte_eos too) */
                pk->kind = TDEC_IPT__K_EOS;
                *offset = st == TDEC_END ? d->st.pos : d->st.err_offset;
                *err = -TDEC_IPT_ERR_EOS;
            }
            return TDEC_OK;
        }
        if (it.kind != TDEC_ITEM_RECORD || it.u.pkt.kind == TDEC_IPT_PAD) continue;
        *pk = it.u.pkt;
        *offset = it.offset;
        break;
    }
    *err = tdec_ipt__took(e, pk);
    return TDEC_OK;
}

/* Packets that only carry time (applied when read) need not be kept for a
   look-ahead. */
static int tdec_ipt__time_only(uint32_t kind)
{
    return kind == TDEC_IPT_TSC || kind == TDEC_IPT_TMA || kind == TDEC_IPT_MTC || kind == TDEC_IPT_CYC;
}

/* ---- packets to events (libipt's pt_evt_decode_*) ------------------------ */

/* Hands a dequeued event out with the current IP and time. */
static int tdec_ipt__publish(tdec_ipt_evt_decoder *e, tdec_ipt_event *out, const tdec_ipt_event *ev,
                             int with_ip)
{
    *out = *ev;
    if (with_ip) tdec_ipt__ev_ip(e, out);
    tdec_ipt__ev_time(out, tdec_ipt__now(e));
    return TDEC_IPT__EV_KEEP;
}

static int tdec_ipt__psbend(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    if (!tdec_ipt__q_take(e, TDEC_IPT__EVB_PSBEND, &ev)) return TDEC_IPT__NEXT;
    switch (ev.type) {
    case TDEC_IPT_EV_ENABLED:
    case TDEC_IPT_EV_EXEC_MODE:
    case TDEC_IPT_EV_IFLAGS:
    case TDEC_IPT_EV_TSX:
    case TDEC_IPT_EV_ASYNC_PAGING:
    case TDEC_IPT_EV_ASYNC_VMCS:
        return tdec_ipt__publish(e, out, &ev, 1);
    case TDEC_IPT_EV_DISABLED:
    case TDEC_IPT_EV_CBR:
    case TDEC_IPT_EV_MNT:
        return tdec_ipt__publish(e, out, &ev, 0);
    default:
        return -TDEC_IPT_ERR_BAD_CONTEXT;
    }
}

static int tdec_ipt__fup(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    uint64_t from;
    uint32_t why;
    if (tdec_ipt_last_ip_update(&e->ip, &e->cur, NULL) != TDEC_OK) return -TDEC_IPT_ERR_BAD_PACKET;
    for (;;) {
        if (tdec_ipt__q_find(e, TDEC_IPT__EVB_FUP_BOUND, -1) >= 0) e->bound = 1;
        if (!tdec_ipt__q_take(e, TDEC_IPT__EVB_FUP | TDEC_IPT__EVB_FUP_BOUND, &ev)) {
            tdec_ipt_event *q;
            if (e->bound) return TDEC_IPT__NEXT;
            /* An asynchronous branch needs a from IP. */
            if (tdec_ipt_last_ip_query(&e->ip, &from, &why) != TDEC_OK) return -(int)why;
            if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_TIP)) == NULL) return -TDEC_IPT_ERR_NOMEM;
            q->type = TDEC_IPT_EV_ASYNC_BRANCH;
            q->arg = from;
            return TDEC_IPT__NEXT;
        }
        switch (ev.type) {
        case TDEC_IPT__EV_IGNORE:
            continue;
        case TDEC_IPT_EV_OVERFLOW: /* keeps the time of the OVF */
            *out = ev;
            tdec_ipt__ev_ip(e, out);
            e->enabled = 1;
            return TDEC_IPT__EV_KEEP;
        case TDEC_IPT_EV_RSM:
        case TDEC_IPT_EV_SIPI: /* consume the FUP, keep no IP */
            return tdec_ipt__publish(e, out, &ev, 0);
        case TDEC_IPT_EV_TSX:
        case TDEC_IPT_EV_EXSTOP:
        case TDEC_IPT_EV_MWAIT:
        case TDEC_IPT_EV_PTWRITE:
        case TDEC_IPT_EV_EXEC_MODE:
        case TDEC_IPT_EV_IFLAGS:
        case TDEC_IPT_EV_INTERRUPT:
        case TDEC_IPT_EV_IRET:
        case TDEC_IPT_EV_SMI:
        case TDEC_IPT_EV_INIT:
        case TDEC_IPT_EV_VMENTRY:
        case TDEC_IPT_EV_VMEXIT:
        case TDEC_IPT_EV_SHUTDOWN:
        case TDEC_IPT_EV_UINTR:
        case TDEC_IPT_EV_UIRET:
        case TDEC_IPT_EV_TRIG:
        case TDEC_IPT_EV_SWINTR:
        case TDEC_IPT_EV_SYSCALL:
            return tdec_ipt__publish(e, out, &ev, 1);
        default:
            return -TDEC_IPT_ERR_BAD_CONTEXT;
        }
    }
}

static int tdec_ipt__tip(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    int i;
    if (!e->enabled) return -TDEC_IPT_ERR_BAD_CONTEXT;
    if (tdec_ipt_last_ip_update(&e->ip, &e->cur, NULL) != TDEC_OK) return -TDEC_IPT_ERR_BAD_PACKET;
    if (!e->bound) {
        e->bound = 1;
        i = tdec_ipt__q_find(e, TDEC_IPT__EVB_TIP, TDEC_IPT_EV_ASYNC_BRANCH);
        if (i >= 0) {
            /* The async branch goes first: it swaps places with the first
               event waiting for this TIP (libipt's order for the rest). */
            int first = tdec_ipt__q_find(e, TDEC_IPT__EVB_TIP, -1);
            ev = e->queue[i].ev;
            e->queue[i].ev = e->queue[first].ev;
            tdec_ipt__q_remove(e, first);
            *out = ev;
            tdec_ipt__ev_ip(e, out);
            tdec_ipt__ev_time(out, tdec_ipt__now(e));
            return TDEC_IPT__EV_KEEP;
        }
        tdec_ipt__ev_ip(e, tdec_ipt__ev_new(e, out, TDEC_IPT_EV_TIP));
        return TDEC_IPT__EV_KEEP;
    }
    for (;;) {
        if (!tdec_ipt__q_take(e, TDEC_IPT__EVB_TIP, &ev)) return TDEC_IPT__NEXT;
        switch (ev.type) {
        case TDEC_IPT__EV_IGNORE:
            continue;
        case TDEC_IPT_EV_EXEC_MODE:
        case TDEC_IPT_EV_ASYNC_PAGING:
        case TDEC_IPT_EV_ASYNC_VMCS:
        case TDEC_IPT_EV_IFLAGS:
            return tdec_ipt__publish(e, out, &ev, 1);
        case TDEC_IPT_EV_ASYNC_BRANCH:
            return -TDEC_IPT_ERR_INTERNAL;
        default:
            return -TDEC_IPT_ERR_BAD_CONTEXT;
        }
    }
}

static int tdec_ipt__tip_pge(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    if (tdec_ipt_last_ip_update(&e->ip, &e->cur, NULL) != TDEC_OK) return -TDEC_IPT_ERR_BAD_PACKET;
    if (!e->bound) {
        tdec_ipt__ev_ip(e, tdec_ipt__ev_new(e, out, TDEC_IPT_EV_ENABLED));
        e->enabled = 1;
        e->bound = 1;
        return TDEC_IPT__EV_KEEP;
    }
    for (;;) {
        if (!tdec_ipt__q_take(e, TDEC_IPT__EVB_TIP, &ev)) return TDEC_IPT__NEXT;
        switch (ev.type) {
        case TDEC_IPT__EV_IGNORE:
            continue;
        case TDEC_IPT_EV_EXEC_MODE:
        case TDEC_IPT_EV_IFLAGS:
            return tdec_ipt__publish(e, out, &ev, 1);
        default:
            return -TDEC_IPT_ERR_BAD_CONTEXT;
        }
    }
}

static int tdec_ipt__tip_pgd(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    if (tdec_ipt_last_ip_update(&e->ip, &e->cur, NULL) != TDEC_OK) return -TDEC_IPT_ERR_BAD_PACKET;
    if (!tdec_ipt__q_take(e, TDEC_IPT__EVB_TIP, &ev)) {
        if (e->bound) return TDEC_IPT__NEXT;
        tdec_ipt__ev_ip(e, tdec_ipt__ev_new(e, out, TDEC_IPT_EV_DISABLED));
        e->enabled = 0;
        return TDEC_IPT__EV_DONE;
    }
    *out = ev;
    switch (ev.type) {
    case TDEC_IPT_EV_ASYNC_BRANCH:
        out->type = TDEC_IPT_EV_ASYNC_DISABLED; /* at = the FUP's IP, already in arg */
        tdec_ipt__ev_ip(e, out);
        e->enabled = 0;
        e->bound = 1;
        break;
    case TDEC_IPT_EV_ASYNC_PAGING:
    case TDEC_IPT_EV_ASYNC_VMCS:
        if (!e->bound) return -TDEC_IPT_ERR_INTERNAL;
        out->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
        break;
    case TDEC_IPT_EV_EXEC_MODE:
        out->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
        break;
    default:
        return -TDEC_IPT_ERR_BAD_CONTEXT;
    }
    tdec_ipt__ev_time(out, tdec_ipt__now(e));
    return TDEC_IPT__EV_KEEP;
}

static int tdec_ipt__mode_exec(tdec_ipt_evt_decoder *e)
{
    uint8_t bits = e->cur.sub;
    int n = 0;
    tdec_ipt_event *q;
    const uint8_t cs = TDEC_IPT_EXEC_CSL | TDEC_IPT_EXEC_CSD;
    if (!e->exec_valid || (e->exec & cs) != (bits & cs)) {
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_TIP | TDEC_IPT__EVB_FUP_BOUND)) == NULL)
            return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT_EV_EXEC_MODE;
        q->a = tdec_ipt__exec_mode(bits);
        e->exec = (uint8_t)((e->exec & ~cs) | (bits & cs));
        n++;
    }
    if ((e->pkt.cfg.flags & TDEC_IPT_F_IFLAGS) &&
        (!e->exec_valid || ((e->exec ^ bits) & TDEC_IPT_EXEC_IF))) {
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_TIP | TDEC_IPT__EVB_FUP_BOUND)) == NULL)
            return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT_EV_IFLAGS;
        if (bits & TDEC_IPT_EXEC_IF) q->flags |= TDEC_IPT_EVF_IFLAG;
        e->exec = (uint8_t)((e->exec & ~TDEC_IPT_EXEC_IF) | (bits & TDEC_IPT_EXEC_IF));
        n++;
    }
    if (n == 0) {
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_TIP | TDEC_IPT__EVB_FUP_BOUND)) == NULL)
            return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT__EV_IGNORE;
    }
    e->exec_valid = 1;
    return TDEC_IPT__NEXT;
}

static uint32_t tdec_ipt__tsx_flags(uint8_t sub)
{
    return ((sub & TDEC_IPT_TSX_INTX) ? TDEC_IPT_EVF_SPECULATIVE : 0u) |
           ((sub & TDEC_IPT_TSX_ABRT) ? TDEC_IPT_EVF_ABORTED : 0u);
}

/* PIP or VMCS: part of an asynchronous branch's compound when a FUP waits
   for its TIP, else standalone. */
static int tdec_ipt__pip_vmcs(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    int vmcs = e->cur.kind == TDEC_IPT_VMCS;
    tdec_ipt_event *q;
    int paging = vmcs ? tdec_ipt__q_find(e, TDEC_IPT__EVB_TIP, TDEC_IPT_EV_ASYNC_PAGING) : -1;
    if (paging >= 0) {
        /* VMCS goes before a PIP of the same compound. */
        tdec_ipt_event pip = e->queue[paging].ev;
        if (tdec_ipt__q_put(e, TDEC_IPT__EVB_TIP, &pip) < 0) return -TDEC_IPT_ERR_NOMEM;
        tdec_ipt__ev_zero(&e->queue[paging].ev);
        e->queue[paging].ev.type = TDEC_IPT_EV_ASYNC_VMCS;
        e->queue[paging].ev.arg = e->cur.payload;
        return TDEC_IPT__NEXT;
    }
    if (tdec_ipt__q_find(e, TDEC_IPT__EVB_TIP, TDEC_IPT_EV_ASYNC_BRANCH) >= 0) {
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_TIP)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->type = vmcs ? TDEC_IPT_EV_ASYNC_VMCS : TDEC_IPT_EV_ASYNC_PAGING;
        q->arg = e->cur.payload;
        if (!vmcs && (e->cur.flags & TDEC_IPT_PF_NR)) q->flags |= TDEC_IPT_EVF_NR;
        return TDEC_IPT__NEXT;
    }
    q = tdec_ipt__ev_new(e, out, vmcs ? TDEC_IPT_EV_VMCS : TDEC_IPT_EV_PAGING);
    q->arg = e->cur.payload;
    if (!vmcs && (e->cur.flags & TDEC_IPT_PF_NR)) q->flags |= TDEC_IPT_EVF_NR;
    return TDEC_IPT__EV_DONE;
}

static int tdec_ipt__exstop(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    tdec_ipt_event *q;
    if (tdec_ipt__q_take(e, TDEC_IPT__EVB_EXSTOP, &ev)) {
        if (ev.type != TDEC_IPT_EV_MWAIT) return -TDEC_IPT_ERR_INTERNAL;
        if (e->cur.flags & TDEC_IPT_PF_IP) {
            /* MWAIT and EXSTOP bind to the same FUP, MWAIT first. */
            if (tdec_ipt__q_put(e, TDEC_IPT__EVB_FUP_BOUND, &ev) < 0) return -TDEC_IPT_ERR_NOMEM;
        } else {
            /* Both standalone: MWAIT now, EXSTOP on the next call. */
            *out = ev;
            out->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
            tdec_ipt__ev_time(out, tdec_ipt__now(e));
            return TDEC_IPT__EV_KEEP;
        }
    }
    if (e->cur.flags & TDEC_IPT_PF_IP) {
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_FUP_BOUND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT_EV_EXSTOP;
        return TDEC_IPT__NEXT;
    }
    tdec_ipt__ev_new(e, out, TDEC_IPT_EV_EXSTOP)->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
    return TDEC_IPT__EV_DONE;
}

static int tdec_ipt__pwrx(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    tdec_ipt_event *q;
    if (tdec_ipt__q_take(e, TDEC_IPT__EVB_PWRX, &ev)) {
        if (ev.type != TDEC_IPT_EV_PWRE) return -TDEC_IPT_ERR_INTERNAL;
        *out = ev; /* with the PWRE's time */
        return TDEC_IPT__EV_KEEP;
    }
    q = tdec_ipt__ev_new(e, out, TDEC_IPT_EV_PWRX);
    q->a = (uint8_t)e->cur.payload;
    q->b = (uint8_t)e->cur.aux;
    if (e->cur.sub & TDEC_IPT_PWRX_INT) q->flags |= TDEC_IPT_EVF_INTERRUPT;
    if (e->cur.sub & TDEC_IPT_PWRX_STORE) q->flags |= TDEC_IPT_EVF_STORE;
    if (e->cur.sub & TDEC_IPT_PWRX_HW) q->flags |= TDEC_IPT_EVF_AUTONOMOUS;
    return TDEC_IPT__EV_DONE;
}

/* Event types of the CFE types (0 = unknown), and how they bind. */
#define TDEC_IPT__CFE_FUP     0x100 /* without IP bit and tracing on: the next FUP */
#define TDEC_IPT__CFE_NOIP    0x200 /* the IP bit is a bad packet                  */
#define TDEC_IPT__CFE_EVD     0x400 /* completes an EVD-started event              */
#define TDEC_IPT__CFE_VECTOR  0x800 /* carries the vector                          */
static int tdec_ipt__cfe_kind(uint8_t type)
{
    switch (type) {
    case 1: return TDEC_IPT_EV_INTERRUPT | TDEC_IPT__CFE_FUP | TDEC_IPT__CFE_EVD | TDEC_IPT__CFE_VECTOR;
    case 2: return TDEC_IPT_EV_IRET;
    case 3: return TDEC_IPT_EV_SMI | TDEC_IPT__CFE_FUP;
    case 4: return TDEC_IPT_EV_RSM | TDEC_IPT__CFE_FUP | TDEC_IPT__CFE_NOIP;
    case 5: return TDEC_IPT_EV_SIPI | TDEC_IPT__CFE_FUP | TDEC_IPT__CFE_NOIP | TDEC_IPT__CFE_VECTOR;
    case 6: return TDEC_IPT_EV_INIT | TDEC_IPT__CFE_FUP;
    case 7: return TDEC_IPT_EV_VMENTRY;
    case 8: return TDEC_IPT_EV_VMEXIT | TDEC_IPT__CFE_FUP | TDEC_IPT__CFE_EVD;
    case 9: return TDEC_IPT_EV_VMEXIT | TDEC_IPT__CFE_FUP | TDEC_IPT__CFE_EVD | TDEC_IPT__CFE_VECTOR;
    case 10: return TDEC_IPT_EV_SHUTDOWN;
    case 12: return TDEC_IPT_EV_UINTR | TDEC_IPT__CFE_FUP | TDEC_IPT__CFE_VECTOR;
    case 13: return TDEC_IPT_EV_UIRET;
    case 14: return TDEC_IPT_EV_SWINTR | TDEC_IPT__CFE_FUP | TDEC_IPT__CFE_VECTOR;
    case 15: return TDEC_IPT_EV_SYSCALL;
    default: return 0;
    }
}

static int tdec_ipt__cfe(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    tdec_ipt_event ev;
    int kind = tdec_ipt__cfe_kind(e->cur.sub);
    int ip = (e->cur.flags & TDEC_IPT_PF_IP) != 0;
    int have = tdec_ipt__q_take(e, TDEC_IPT__EVB_CFE, &ev);
    tdec_ipt_event *q;
    if (kind == 0) { /* unknown: ignored, but it still binds its FUP */
        if (have) return -TDEC_IPT_ERR_INTERNAL;
        if (ip) {
            if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_FUP_BOUND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
            q->type = TDEC_IPT__EV_IGNORE;
        }
        return TDEC_IPT__NEXT;
    }
    if (have) {
        if (!(kind & TDEC_IPT__CFE_EVD) || ev.type != (kind & 0xff)) return -TDEC_IPT_ERR_BAD_CONTEXT;
    } else {
        tdec_ipt__ev_zero(&ev);
        ev.type = (uint8_t)(kind & 0xff);
    }
    if (kind & TDEC_IPT__CFE_VECTOR) {
        ev.a = (uint8_t)e->cur.payload;
        if (ev.type == TDEC_IPT_EV_VMEXIT) ev.flags |= TDEC_IPT_EVF_HAS_VECTOR;
    }
    if ((kind & TDEC_IPT__CFE_NOIP) && ip) return -TDEC_IPT_ERR_BAD_PACKET;
    if ((kind & TDEC_IPT__CFE_NOIP)) ev.flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
    if (ip) return tdec_ipt__q_put(e, TDEC_IPT__EVB_FUP_BOUND, &ev) < 0 ? -TDEC_IPT_ERR_NOMEM : TDEC_IPT__NEXT;
    if ((kind & TDEC_IPT__CFE_FUP) && e->enabled)
        return tdec_ipt__q_put(e, TDEC_IPT__EVB_FUP, &ev) < 0 ? -TDEC_IPT_ERR_NOMEM : TDEC_IPT__NEXT;
    *out = ev;
    out->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
    tdec_ipt__ev_time(out, tdec_ipt__now(e));
    return TDEC_IPT__EV_DONE;
}

static int tdec_ipt__evd(tdec_ipt_evt_decoder *e)
{
    int i = tdec_ipt__q_find(e, TDEC_IPT__EVB_CFE, -1);
    tdec_ipt_event *q = i >= 0 ? &e->queue[i].ev : NULL;
    uint8_t want;
    uint32_t has;
    switch (e->cur.sub) {
    case 0: /* CR2: an interrupt's */
        if (q != NULL) return -TDEC_IPT_ERR_BAD_CONTEXT;
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_CFE)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT_EV_INTERRUPT;
        q->flags |= TDEC_IPT_EVF_HAS_CR2;
        q->arg = e->cur.payload;
        return TDEC_IPT__NEXT;
    case 1: /* VMXQ */
    case 2: /* VMXR */
        want = TDEC_IPT_EV_VMEXIT;
        has = e->cur.sub == 1 ? TDEC_IPT_EVF_HAS_VMXQ : TDEC_IPT_EVF_HAS_VMXR;
        if (q == NULL) {
            if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_CFE)) == NULL) return -TDEC_IPT_ERR_NOMEM;
            q->type = want;
        }
        if (q->type != want || (q->flags & has)) return -TDEC_IPT_ERR_BAD_CONTEXT;
        q->flags |= has;
        if (e->cur.sub == 1) q->arg = e->cur.payload;
        else q->arg2 = e->cur.payload;
        return TDEC_IPT__NEXT;
    default:
        return TDEC_IPT__NEXT;
    }
}

static int tdec_ipt__trig(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    const tdec_ipt_packet *p = &e->cur;
    tdec_ipt_event *q;
    if (p->flags & TDEC_IPT_PF_IP) {
        if (!(p->flags & TDEC_IPT_PF_ICNTV) || p->aux != 0) return -TDEC_IPT_ERR_BAD_PACKET;
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_FUP_BOUND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
    } else {
        q = tdec_ipt__ev_new(e, out, TDEC_IPT_EV_TRIG);
        if (p->flags & TDEC_IPT_PF_ICNTV) {
            if (p->aux != 0 && !e->enabled) return -TDEC_IPT_ERR_BAD_PACKET;
            q->aux = p->aux;
        } else {
            q->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
        }
    }
    q->type = TDEC_IPT_EV_TRIG;
    q->a = (uint8_t)p->payload;
    if (p->flags & TDEC_IPT_PF_MULT) q->flags |= TDEC_IPT_EVF_MULT;
    return (p->flags & TDEC_IPT_PF_IP) ? TDEC_IPT__NEXT : TDEC_IPT__EV_DONE;
}

/* A packet inside PSB+ (libipt's pt_evt_header_*): state and status events
   bound to PSBEND. */
static int tdec_ipt__header(tdec_ipt_evt_decoder *e)
{
    const tdec_ipt_packet *p = &e->cur;
    tdec_ipt_event *q;
    uint32_t iflags = e->pkt.cfg.flags & TDEC_IPT_F_IFLAGS;
    switch (p->kind) {
    case TDEC_IPT_FUP: {
        int enabled = p->sub != TDEC_IPT_IPC_SUPPRESSED;
        if (e->pkt.cfg.errata & TDEC_IPT_ERRATUM_BDM70) {
            if (!(e->look_done & TDEC_IPT__L_BDM70)) {
                e->look = TDEC_IPT__L_BDM70;
                return TDEC_IPT__WAIT;
            }
            e->look_done = 0;
            if (e->look_res[4] < 0) return e->look_res[4];
            if (e->look_res[4] > 0) enabled = 0;
        }
        e->enabled = (uint8_t)enabled;
        if (enabled && tdec_ipt_last_ip_update(&e->ip, p, NULL) != TDEC_OK) return -TDEC_IPT_ERR_BAD_PACKET;
        return TDEC_IPT__NEXT;
    }
    case TDEC_IPT_MODE_EXEC:
        if (e->exec_valid) {
            if (iflags && ((e->exec ^ p->sub) & TDEC_IPT_EXEC_IF)) return -TDEC_IPT_ERR_BAD_STATUS_UPDATE;
            if ((e->exec ^ p->sub) & (TDEC_IPT_EXEC_CSL | TDEC_IPT_EXEC_CSD))
                return -TDEC_IPT_ERR_BAD_STATUS_UPDATE;
        } else {
            e->exec_valid = 1;
            e->exec = (uint8_t)(p->sub & (TDEC_IPT_EXEC_CSL | TDEC_IPT_EXEC_CSD | TDEC_IPT_EXEC_IF));
        }
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PSBEND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->flags = TDEC_IPT_EVF_STATUS;
        q->type = TDEC_IPT_EV_EXEC_MODE;
        q->a = tdec_ipt__exec_mode(p->sub);
        if (iflags) {
            if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PSBEND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
            q->flags = TDEC_IPT_EVF_STATUS | ((p->sub & TDEC_IPT_EXEC_IF) ? TDEC_IPT_EVF_IFLAG : 0u);
            q->type = TDEC_IPT_EV_IFLAGS;
        }
        return TDEC_IPT__NEXT;
    case TDEC_IPT_MODE_TSX:
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PSBEND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->flags = TDEC_IPT_EVF_STATUS | tdec_ipt__tsx_flags(p->sub);
        q->type = TDEC_IPT_EV_TSX;
        return TDEC_IPT__NEXT;
    case TDEC_IPT_PIP:
    case TDEC_IPT_VMCS:
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PSBEND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->flags = TDEC_IPT_EVF_STATUS;
        q->type = p->kind == TDEC_IPT_PIP ? TDEC_IPT_EV_ASYNC_PAGING : TDEC_IPT_EV_ASYNC_VMCS;
        q->arg = p->payload;
        if (p->kind == TDEC_IPT_PIP && (p->flags & TDEC_IPT_PF_NR)) q->flags |= TDEC_IPT_EVF_NR;
        return TDEC_IPT__NEXT;
    case TDEC_IPT_MNT: /* not a status update in libipt */
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PSBEND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT_EV_MNT;
        q->arg = p->payload;
        return TDEC_IPT__NEXT;
    case TDEC_IPT_CBR:
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PSBEND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->flags = TDEC_IPT_EVF_STATUS;
        q->type = TDEC_IPT_EV_CBR;
        q->a = (uint8_t)p->payload;
        return TDEC_IPT__NEXT;
    case TDEC_IPT_TSC:
    case TDEC_IPT_TMA:
    case TDEC_IPT_MTC:
    case TDEC_IPT_CYC:
    case TDEC_IPT_INVALID: /* SKZ84's bad TMA: libipt skips it here too */
        return TDEC_IPT__NEXT;
    case TDEC_IPT_PSBEND:
    case TDEC_IPT_OVF:
        /* The status event made at PSB is the first in the queue. */
        if (e->enabled) {
            e->queue[0].ev.type = TDEC_IPT_EV_ENABLED;
        } else if (p->kind == TDEC_IPT_PSBEND) {
            e->queue[0].ev.type = TDEC_IPT_EV_DISABLED;
            e->queue[0].ev.flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
        } else { /* OVF: tracing state unknown, no status event */
            tdec_ipt__q_remove(e, 0);
        }
        e->phase = TDEC_IPT__E_RUN;
        if (e->in_sync) {
            e->in_sync = 0;
            return TDEC_IPT__SYNCED;
        }
        return TDEC_IPT__REDO;
    default:
        return -TDEC_IPT_ERR_BAD_CONTEXT;
    }
}

static int tdec_ipt__psb(tdec_ipt_evt_decoder *e)
{
    tdec_ipt_event *q;
    if (e->nq > 0) return -TDEC_IPT_ERR_BAD_CONTEXT; /* no partial events across PSB */
    tdec_ipt_last_ip_init(&e->ip);
    e->enabled = 0;
    e->sync_psb = e->cur_offset;
    /* The enabled/disabled status event goes first; PSBEND fills it in. */
    if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PSBEND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
    q->flags = TDEC_IPT_EVF_STATUS;
    e->phase = TDEC_IPT__E_HEADER;
    return TDEC_IPT__NEXT;
}

/* ---- look-ahead (libipt's read-ahead loops, as states) ------------------- */

#define TDEC_IPT__GO 1000 /* a scan goes on */

/* The held packets: a look-ahead's, plus the end or a decode error. */
#define TDEC_IPT__HOLD_SLOTS (TDEC_IPT_EVT_HOLD + 1)

/* pt_evt_find_ovf_fup: how an overflow resolved. 1: at a FUP (tracing
   on), 0: tracing off, < 0: error. */
static int tdec_ipt__scan_ovf(uint32_t kind, int err)
{
    switch (kind) {
    case TDEC_IPT_FUP:
        return 1;
    case TDEC_IPT_PSB: case TDEC_IPT_TIP_PGE: case TDEC_IPT_MODE_EXEC: case TDEC_IPT_MODE_TSX:
    case TDEC_IPT_PIP: case TDEC_IPT_VMCS: case TDEC_IPT_STOP: case TDEC_IPT_OVF:
    case TDEC_IPT_EXSTOP: case TDEC_IPT_MWAIT: case TDEC_IPT_PWRE: case TDEC_IPT_PWRX:
    case TDEC_IPT_PTW: case TDEC_IPT_CFE: case TDEC_IPT_EVD: case TDEC_IPT_TRIG:
        return 0;
    case TDEC_IPT_PSBEND: case TDEC_IPT_TIP: case TDEC_IPT_TIP_PGD: case TDEC_IPT_TNT_8:
    case TDEC_IPT_TNT_64:
        return -TDEC_IPT_ERR_BAD_CONTEXT;
    case TDEC_IPT__K_ERROR: case TDEC_IPT__K_EOS:
        return err;
    default: /* MNT, CBR, timing, unknown, invalid */
        return TDEC_IPT__GO;
    }
}

/* pt_evt_find_header_fup, from after a PSB: 1 at its FUP, 0 when PSB+
   ends without one. */
static int tdec_ipt__scan_header(uint32_t kind, int err)
{
    switch (kind) {
    case TDEC_IPT_FUP:
        return 1;
    case TDEC_IPT_MODE_EXEC: case TDEC_IPT_MODE_TSX: case TDEC_IPT_PIP: case TDEC_IPT_VMCS:
    case TDEC_IPT_MNT: case TDEC_IPT_TSC: case TDEC_IPT_CBR: case TDEC_IPT_TMA: case TDEC_IPT_MTC:
    case TDEC_IPT_CYC: case TDEC_IPT_INVALID:
        return TDEC_IPT__GO;
    case TDEC_IPT_PSBEND: case TDEC_IPT_OVF:
        return 0;
    case TDEC_IPT__K_ERROR: case TDEC_IPT__K_EOS:
        return err;
    default:
        return -TDEC_IPT_ERR_BAD_CONTEXT;
    }
}

/* Whether a packet kind is one libipt's decoders do not know (PEBS). */
static int tdec_ipt__foreign(uint32_t kind)
{
    return kind == TDEC_IPT_UNKNOWN || kind == TDEC_IPT_INVALID || kind == TDEC_IPT_BBP ||
           kind == TDEC_IPT_BEP || kind == TDEC_IPT_BIP;
}

/* pt_evt_handle_skd010: 1 = the erratum does not apply; 0 = recover as
   look_how[1]/look_at[1] say; < 0 error. */
static int tdec_ipt__scan_skd010(tdec_ipt_evt_decoder *e, const tdec_ipt__held *h, int err, uint8_t idx)
{
    const tdec_ipt_packet *p = &h->pkt;
    if (e->look & TDEC_IPT__L_HDR_SKD010) {
        int r = tdec_ipt__scan_header(p->kind, err);
        if (r == 1) {
            e->look_how[1] = TDEC_IPT__R_AT_PSB;
            e->look_fup = *p;
            return 0;
        }
        if (r == 0 || r == -TDEC_IPT_ERR_EOS) return 1;
        return r;
    }
    switch (p->kind) {
    case TDEC_IPT_TIP_PGE: case TDEC_IPT_TNT_8: case TDEC_IPT_TNT_64: case TDEC_IPT_OVF:
    case TDEC_IPT_STOP: case TDEC_IPT_MWAIT:
        return 1;
    case TDEC_IPT_TIP_PGD:
        e->look_how[1] = TDEC_IPT__R_DISABLED;
        e->look_at[1] = idx;
        return 0;
    case TDEC_IPT_FUP:
    case TDEC_IPT_TIP:
        e->look_how[1] = TDEC_IPT__R_AT_IP;
        e->look_at[1] = idx;
        return 0;
    case TDEC_IPT_MODE_TSX:
        if (e->tsx_found) return 1;
        e->tsx_found = 1;
        e->tsx_bits = p->sub;
        return TDEC_IPT__GO;
    case TDEC_IPT_PSB:
        e->look |= TDEC_IPT__L_HDR_SKD010;
        e->look_at[1] = idx;
        return TDEC_IPT__GO;
    case TDEC_IPT_PSBEND:
        return -TDEC_IPT_ERR_BAD_CONTEXT;
    case TDEC_IPT_EXSTOP: case TDEC_IPT_PTW: case TDEC_IPT_CFE:
        return (p->flags & TDEC_IPT_PF_IP) ? 1 : TDEC_IPT__GO;
    case TDEC_IPT__K_EOS:
        return 1;
    case TDEC_IPT__K_ERROR:
        return err;
    default:
        if (tdec_ipt__foreign(p->kind)) return 1;
        return err < 0 ? err : TDEC_IPT__GO; /* timing (its errors count), PIP, VMCS, ... */
    }
}

/* pt_evt_handle_apl11: 1 = does not apply; 0 = recover after a TIP.PGD. */
static int tdec_ipt__scan_apl11(tdec_ipt_evt_decoder *e, const tdec_ipt__held *h, int err, uint8_t idx)
{
    switch (h->pkt.kind) {
    case TDEC_IPT_TIP_PGD:
        e->look_how[2] = TDEC_IPT__R_DISABLED;
        e->look_at[2] = idx;
        return 0;
    case TDEC_IPT_TSC: case TDEC_IPT_CBR: case TDEC_IPT_TMA: case TDEC_IPT_MTC: case TDEC_IPT_CYC:
        return err < 0 ? err : TDEC_IPT__GO;
    case TDEC_IPT_MNT: case TDEC_IPT_CFE: case TDEC_IPT_EVD: case TDEC_IPT_TRIG:
        return TDEC_IPT__GO;
    case TDEC_IPT__K_ERROR: case TDEC_IPT__K_EOS:
        return err;
    default:
        return 1;
    }
}

/* pt_evt_handle_apl12, from after the FUP the overflow scan found: 1 = does
   not apply; 0 = overflow without IP at that FUP. */
static int tdec_ipt__scan_apl12(tdec_ipt_evt_decoder *e, const tdec_ipt__held *h, int err)
{
    uint32_t kind = h->pkt.kind;
    if (e->look & TDEC_IPT__L_HDR_APL12) {
        int r = tdec_ipt__scan_header(kind, err);
        if (r == 0) return 0;
        return r == -TDEC_IPT_ERR_EOS ? 1 : r;
    }
    switch (kind) {
    case TDEC_IPT_TNT_8: case TDEC_IPT_TNT_64: case TDEC_IPT_TIP: case TDEC_IPT_TIP_PGD:
    case TDEC_IPT_PSBEND: case TDEC_IPT_OVF: case TDEC_IPT__K_EOS:
        return 1;
    case TDEC_IPT_PSB:
        e->look |= TDEC_IPT__L_HDR_APL12;
        return TDEC_IPT__GO;
    case TDEC_IPT_STOP: case TDEC_IPT_TIP_PGE:
        return 0;
    case TDEC_IPT__K_ERROR:
        return err;
    default:
        return tdec_ipt__foreign(kind) ? 1 : TDEC_IPT__GO;
    }
}

/* pt_evt_check_bdm70, from after a PSB+ FUP: 1 when a TIP.PGE follows
   (tracing was off), 0 when not. */
static int tdec_ipt__scan_bdm70(uint32_t kind, int err)
{
    switch (kind) {
    case TDEC_IPT_TIP_PGE:
        return 1;
    case TDEC_IPT_TSC: case TDEC_IPT_CBR: case TDEC_IPT_PSBEND: case TDEC_IPT_PIP:
    case TDEC_IPT_MODE_EXEC: case TDEC_IPT_MODE_TSX: case TDEC_IPT_VMCS: case TDEC_IPT_TMA:
    case TDEC_IPT_MTC: case TDEC_IPT_CYC: case TDEC_IPT_MNT:
        return TDEC_IPT__GO;
    case TDEC_IPT__K_ERROR:
        return err;
    default: /* other packets, and the end */
        return 0;
    }
}

/* Whether the running look-ahead has decided what libipt needs. */
static int tdec_ipt__look_ready(const tdec_ipt_evt_decoder *e)
{
    const uint32_t errata = e->pkt.cfg.errata;
    if (e->look & TDEC_IPT__L_BDM70) return (e->look_done & TDEC_IPT__L_BDM70) != 0;
    if (!(e->look_done & TDEC_IPT__L_OVF)) return 0;
    if (e->look_res[0] > 0)
        return !(errata & TDEC_IPT_ERRATUM_APL12) || (e->look_done & TDEC_IPT__L_APL12);
    if (errata & TDEC_IPT_ERRATUM_SKD010) {
        if (!(e->look_done & TDEC_IPT__L_SKD010)) return 0;
        if (e->look_res[1] <= 0) return 1;
    }
    if ((errata & TDEC_IPT_ERRATUM_APL11) && e->look_res[0] == -TDEC_IPT_ERR_BAD_CONTEXT)
        return (e->look_done & TDEC_IPT__L_APL11) != 0;
    return 1;
}

static void tdec_ipt__look_set(tdec_ipt_evt_decoder *e, uint8_t bit, int slot, int r)
{
    if (r == TDEC_IPT__GO) return;
    e->look_done = (uint8_t)(e->look_done | bit);
    e->look_res[slot] = r;
}

/* Feeds one packet (held[idx], or a timing packet not kept) to the scans. */
static void tdec_ipt__look_feed(tdec_ipt_evt_decoder *e, const tdec_ipt__held *h, int err, uint8_t idx)
{
    uint8_t todo = (uint8_t)(e->look & ~e->look_done);
    if (todo & TDEC_IPT__L_BDM70)
        tdec_ipt__look_set(e, TDEC_IPT__L_BDM70, 4, tdec_ipt__scan_bdm70(h->pkt.kind, err));
    if (todo & TDEC_IPT__L_APL12) /* before OVF: it starts after the FUP */
        tdec_ipt__look_set(e, TDEC_IPT__L_APL12, 3, tdec_ipt__scan_apl12(e, h, err));
    if (todo & TDEC_IPT__L_OVF) {
        int r = tdec_ipt__scan_ovf(h->pkt.kind, err);
        tdec_ipt__look_set(e, TDEC_IPT__L_OVF, 0, r);
        if (r == 1) {
            e->look_at[0] = idx;
            if (e->pkt.cfg.errata & TDEC_IPT_ERRATUM_APL12) e->look |= TDEC_IPT__L_APL12;
        }
    }
    if (todo & TDEC_IPT__L_SKD010)
        tdec_ipt__look_set(e, TDEC_IPT__L_SKD010, 1, tdec_ipt__scan_skd010(e, h, err, idx));
    if (todo & TDEC_IPT__L_APL11)
        tdec_ipt__look_set(e, TDEC_IPT__L_APL11, 2, tdec_ipt__scan_apl11(e, h, err, idx));
}

/* Runs the look-ahead over the held packets, then over new ones (kept in
   held[] unless they only carry time), until it is decided. */
static tdec_status tdec_ipt__look(tdec_ipt_evt_decoder *e)
{
    tdec_ipt__held h;
    int32_t err;
    tdec_status st;
    tdec_ipt__now(e); /* the packet that started the look-ahead keeps its time */
    while (!tdec_ipt__look_ready(e)) {
        if (e->scan < e->nheld) {
            const tdec_ipt__held *k = &e->held[(e->held_head + e->scan) % TDEC_IPT__HOLD_SLOTS];
            tdec_ipt__look_feed(e, k, e->held_err[(e->held_head + e->scan) % TDEC_IPT__HOLD_SLOTS], e->scan);
            e->scan++;
            continue;
        }
        st = tdec_ipt__pull(e, &h.pkt, &h.offset, &err);
        if (st != TDEC_OK) return st;
        h.stamp.has_tsc = h.stamp.has_cbr = 0;
        if (tdec_ipt__time_only(h.pkt.kind) && err == 0) {
            if (!e->skipped) e->skipped_at = h.offset;
            e->skipped = 1;
            tdec_ipt__look_feed(e, &h, 0, e->scan);
            continue;
        }
        h.from = e->skipped ? e->skipped_at : h.offset;
        e->skipped = 0;
        /* the end or a decode error always fits: it only decides */
        if (e->nheld >= TDEC_IPT_EVT_HOLD + (h.pkt.kind >= TDEC_IPT__K_ERROR ? 1 : 0)) return TDEC_E_LIMIT;
        if (h.pkt.kind < TDEC_IPT__K_ERROR) tdec_ipt__stamp_now(&e->time, &h.stamp);
        e->held[(e->held_head + e->nheld) % TDEC_IPT__HOLD_SLOTS] = h;
        e->held_err[(e->held_head + e->nheld) % TDEC_IPT__HOLD_SLOTS] = err;
        e->nheld++;
        tdec_ipt__look_feed(e, &h, err, e->scan);
        e->scan++;
    }
    e->look = 0;
    e->scan = 0;
    return TDEC_OK;
}

/* Drops the first n held packets. */
static void tdec_ipt__drop(tdec_ipt_evt_decoder *e, uint8_t n)
{
    e->held_head = (uint8_t)((e->held_head + n) % TDEC_IPT__HOLD_SLOTS);
    e->nheld = (uint8_t)(e->nheld - n);
}

static const tdec_ipt__held *tdec_ipt__held_at(const tdec_ipt_evt_decoder *e, uint8_t i)
{
    return &e->held[(e->held_head + i) % TDEC_IPT__HOLD_SLOTS];
}

/* The overflow event of a recovery: at the OVF's time, with the IP of an
   IP packet (NULL: suppressed). */
static int tdec_ipt__ovf_event(tdec_ipt_evt_decoder *e, tdec_ipt_event *out, const tdec_ipt_packet *ip)
{
    tdec_ipt__ev_new(e, out, TDEC_IPT_EV_OVERFLOW);
    if (ip == NULL) {
        out->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
        return TDEC_IPT__EV_DONE;
    }
    if (tdec_ipt_last_ip_update(&e->ip, ip, NULL) != TDEC_OK) return -TDEC_IPT_ERR_BAD_PACKET;
    tdec_ipt__ev_ip(e, out);
    e->enabled = 1;
    return TDEC_IPT__EV_DONE;
}

/* An erratum recovery decided by scan `slot` (SKD010: 1, APL11: 2). The
   overflow event has the OVF's time; the decoder's time then is that of
   the packet it resumes at (what the query layer reports). */
static int tdec_ipt__recover(tdec_ipt_evt_decoder *e, tdec_ipt_event *out, int slot)
{
    uint8_t at = e->look_at[slot];
    const tdec_ipt__held *h = tdec_ipt__held_at(e, at);
    tdec_ipt__stamp then = h->stamp;
    tdec_ipt_packet ip = h->pkt;
    int r;
    switch (e->look_how[slot]) {
    case TDEC_IPT__R_DISABLED: /* resume after the TIP.PGD */
        tdec_ipt__drop(e, (uint8_t)(at + 1));
        r = tdec_ipt__ovf_event(e, out, NULL);
        break;
    case TDEC_IPT__R_AT_PSB: /* resume at the PSB, with its FUP's IP */
        tdec_ipt__drop(e, at);
        r = tdec_ipt__ovf_event(e, out, &e->look_fup);
        break;
    default: /* R_AT_IP: resume at the FUP (processed next), or after the TIP */
        if (ip.kind == TDEC_IPT_FUP && e->tsx_found) {
            tdec_ipt_event *q = tdec_ipt__q_add(e, TDEC_IPT__EVB_FUP_BOUND);
            if (q == NULL) return -TDEC_IPT_ERR_NOMEM;
            q->type = TDEC_IPT_EV_TSX;
            q->flags = tdec_ipt__tsx_flags(e->tsx_bits);
        }
        tdec_ipt__drop(e, (uint8_t)(ip.kind == TDEC_IPT_FUP ? at : at + 1));
        r = tdec_ipt__ovf_event(e, out, &ip);
        break;
    }
    e->cur_stamp = then;
    e->cur_live = 0;
    return r;
}

static int tdec_ipt__ovf(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    const uint32_t errata = e->pkt.cfg.errata;
    tdec_ipt_event ev;
    tdec_ipt_event *q;
    int a, r;
    uint8_t i;
    if (!(e->look_done & TDEC_IPT__L_OVF)) {
        r = tdec_ipt__psbend(e, out);
        if (r != TDEC_IPT__NEXT) return r;
        /* Tracing off: events still waiting get no IP; tracing on: they
           are lost with the packets they waited for. */
        while (!e->enabled && tdec_ipt__q_take(e, TDEC_IPT__EVB_FUP_BOUND | TDEC_IPT__EVB_FUP |
                                                      TDEC_IPT__EVB_TIP | TDEC_IPT__EVB_EXSTOP |
                                                      TDEC_IPT__EVB_PWRX, &ev)) {
            switch (ev.type) {
            case TDEC_IPT_EV_PWRE:
            case TDEC_IPT_EV_RSM:
            case TDEC_IPT_EV_SIPI:
                *out = ev;
                return TDEC_IPT__EV_KEEP;
            case TDEC_IPT_EV_ASYNC_BRANCH:
            case TDEC_IPT_EV_ASYNC_PAGING:
            case TDEC_IPT_EV_ASYNC_VMCS:
            case TDEC_IPT__EV_IGNORE:
                continue;
            default:
                *out = ev;
                out->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
                return TDEC_IPT__EV_KEEP;
            }
        }
        tdec_ipt_last_ip_init(&e->ip);
        e->enabled = 0;
        e->bound = 0;
        e->exec_valid = 0;
        e->nq = 0;
        e->tsx_found = 0;
        e->look = TDEC_IPT__L_OVF;
        if (errata & TDEC_IPT_ERRATUM_SKD010) e->look |= TDEC_IPT__L_SKD010;
        if (errata & TDEC_IPT_ERRATUM_APL11) e->look |= TDEC_IPT__L_APL11;
        e->look_done = 0;
        return TDEC_IPT__WAIT;
    }
    e->look_done = 0;
    a = e->look_res[0];
    if (a <= 0) {
        if (errata & TDEC_IPT_ERRATUM_SKD010) {
            if (e->look_res[1] < 0) return e->look_res[1];
            if (e->look_res[1] == 0) return tdec_ipt__recover(e, out, 1);
        }
        if ((errata & TDEC_IPT_ERRATUM_APL11) && a == -TDEC_IPT_ERR_BAD_CONTEXT) {
            if (e->look_res[2] < 0) return e->look_res[2];
            if (e->look_res[2] == 0) return tdec_ipt__recover(e, out, 2);
        }
        if (a < 0 && a != -TDEC_IPT_ERR_EOS) return a;
        return tdec_ipt__ovf_event(e, out, NULL);
    }
    if (errata & TDEC_IPT_ERRATUM_APL12) {
        if (e->look_res[3] < 0) return e->look_res[3];
        if (e->look_res[3] == 0) {
            /* Overflow without IP at the FUP; what lies before it may only
               carry time. */
            uint8_t at = e->look_at[0];
            for (i = 0; i < at; i++) {
                const tdec_ipt__held *h = tdec_ipt__held_at(e, i);
                int herr = e->held_err[(e->held_head + i) % TDEC_IPT__HOLD_SLOTS];
                if (herr < 0) return herr;
                if (h->pkt.kind == TDEC_IPT_MODE_EXEC || h->pkt.kind == TDEC_IPT_MODE_TSX ||
                    h->pkt.kind == TDEC_IPT_PIP || h->pkt.kind == TDEC_IPT_VMCS ||
                    tdec_ipt__foreign(h->pkt.kind))
                    return -TDEC_IPT_ERR_INTERNAL;
            }
            e->cur_stamp = tdec_ipt__held_at(e, at)->stamp;
            e->cur_live = 0;
            tdec_ipt__drop(e, (uint8_t)(at + 1));
            return tdec_ipt__ovf_event(e, out, NULL);
        }
    }
    if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_FUP_BOUND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
    q->type = TDEC_IPT_EV_OVERFLOW;
    tdec_ipt__ev_time(q, tdec_ipt__now(e));
    return TDEC_IPT__NEXT;
}

/* One step on the current packet in the RUN phase (pt_evt_decode_packet). */
static int tdec_ipt__evt_step(tdec_ipt_evt_decoder *e, tdec_ipt_event *out)
{
    const tdec_ipt_packet *p = &e->cur;
    tdec_ipt_event *q;
    switch (p->kind) {
    case TDEC_IPT_TNT_8:
    case TDEC_IPT_TNT_64:
        if (!e->enabled) return -TDEC_IPT_ERR_BAD_CONTEXT;
        q = tdec_ipt__ev_new(e, out, TDEC_IPT_EV_TNT);
        q->arg = p->payload;
        q->a = p->sub;
        return TDEC_IPT__EV_DONE;
    case TDEC_IPT_CBR:
        tdec_ipt__ev_new(e, out, TDEC_IPT_EV_CBR)->a = (uint8_t)p->payload;
        return TDEC_IPT__EV_DONE;
    case TDEC_IPT_FUP:
        return tdec_ipt__fup(e, out);
    case TDEC_IPT_TIP:
        return tdec_ipt__tip(e, out);
    case TDEC_IPT_TIP_PGE:
        return tdec_ipt__tip_pge(e, out);
    case TDEC_IPT_TIP_PGD:
        return tdec_ipt__tip_pgd(e, out);
    case TDEC_IPT_MODE_EXEC:
        return tdec_ipt__mode_exec(e);
    case TDEC_IPT_MODE_TSX:
        if (e->enabled) {
            q = tdec_ipt__q_add(e, (p->sub & TDEC_IPT_TSX_ABRT) ? TDEC_IPT__EVB_FUP : TDEC_IPT__EVB_FUP_BOUND);
            if (q == NULL) return -TDEC_IPT_ERR_NOMEM;
            q->type = TDEC_IPT_EV_TSX;
            q->flags = tdec_ipt__tsx_flags(p->sub);
            return TDEC_IPT__NEXT;
        }
        q = tdec_ipt__ev_new(e, out, TDEC_IPT_EV_TSX);
        q->flags |= tdec_ipt__tsx_flags(p->sub) | TDEC_IPT_EVF_IP_SUPPRESSED;
        return TDEC_IPT__EV_DONE;
    case TDEC_IPT_PIP:
    case TDEC_IPT_VMCS:
        return tdec_ipt__pip_vmcs(e, out);
    case TDEC_IPT_PTW:
        if (p->flags & TDEC_IPT_PF_IP) {
            if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_FUP_BOUND)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        } else {
            q = tdec_ipt__ev_new(e, out, TDEC_IPT_EV_PTWRITE);
            q->flags |= TDEC_IPT_EVF_IP_SUPPRESSED;
        }
        q->type = TDEC_IPT_EV_PTWRITE;
        q->a = p->sub ? 8 : 4;
        q->arg = p->payload;
        return (p->flags & TDEC_IPT_PF_IP) ? TDEC_IPT__NEXT : TDEC_IPT__EV_DONE;
    case TDEC_IPT_PSB:
        return tdec_ipt__psb(e);
    case TDEC_IPT_PSBEND:
        return tdec_ipt__psbend(e, out);
    case TDEC_IPT_EXSTOP:
        return tdec_ipt__exstop(e, out);
    case TDEC_IPT_MWAIT:
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_EXSTOP)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT_EV_MWAIT;
        q->arg = p->payload;
        q->aux = p->aux;
        return TDEC_IPT__NEXT;
    case TDEC_IPT_PWRE:
        if ((q = tdec_ipt__q_add(e, TDEC_IPT__EVB_PWRX)) == NULL) return -TDEC_IPT_ERR_NOMEM;
        q->type = TDEC_IPT_EV_PWRE;
        q->a = (uint8_t)p->payload;
        q->b = (uint8_t)p->aux;
        if (p->flags & TDEC_IPT_PF_HW) q->flags |= TDEC_IPT_EVF_HW;
        tdec_ipt__ev_time(q, tdec_ipt__now(e));
        return TDEC_IPT__NEXT;
    case TDEC_IPT_PWRX:
        return tdec_ipt__pwrx(e, out);
    case TDEC_IPT_OVF:
        return tdec_ipt__ovf(e, out);
    case TDEC_IPT_STOP:
        tdec_ipt__ev_new(e, out, TDEC_IPT_EV_STOP);
        return TDEC_IPT__EV_DONE;
    case TDEC_IPT_MNT:
        tdec_ipt__ev_new(e, out, TDEC_IPT_EV_MNT)->arg = p->payload;
        return TDEC_IPT__EV_DONE;
    case TDEC_IPT_CFE:
        return tdec_ipt__cfe(e, out);
    case TDEC_IPT_EVD:
        return tdec_ipt__evd(e);
    case TDEC_IPT_TRIG:
        return tdec_ipt__trig(e, out);
    default: /* timing (applied when read), unknown, invalid, PEBS */
        return TDEC_IPT__NEXT;
    }
}

/* ---- the event decoder's API --------------------------------------------- */

static void tdec_ipt__err_clear(tdec_ipt_err_state *st)
{
    st->err_offset = 0;
    st->err = TDEC_OK;
    st->err_reason = 0;
}

static void tdec_ipt__evt_clear(tdec_ipt_evt_decoder *e)
{
    tdec_ipt__err_clear(&e->st);
    e->in_sync = 1;
    e->phase = TDEC_IPT__E_SYNC;
    e->have_cur = e->bound = e->enabled = e->exec_valid = e->exec = e->skipped = 0;
    e->in_psb = e->look = e->look_done = e->start_set = e->tsx_found = e->tsx_bits = 0;
    e->nq = e->nheld = e->held_head = e->scan = 0;
    e->cur_err = 0;
    e->cur_live = 0;
    e->call_offset = e->cur_offset = e->sync_psb = 0;
    tdec_ipt_last_ip_init(&e->ip);
    tdec_ipt_time_init(&e->time);
    tdec_ipt_tcal_init(&e->tcal);
}

TDEC_IPT_DEF tdec_status tdec_ipt_evt_init(tdec_ipt_evt_decoder *e, const tdec_ipt_config *cfg)
{
    if (e == NULL) return TDEC_E_ARG;
    tdec_ipt_init(&e->pkt, cfg);
    if (e->pkt.cfg.flags & TDEC_IPT_F_NO_SYNC) { /* events start at a PSB */
        e->pkt.cfg.flags &= ~TDEC_IPT_F_NO_SYNC;
        tdec_ipt_reset(&e->pkt);
    }
    tdec_ipt__evt_clear(e);
    return TDEC_NEED_INPUT;
}

TDEC_IPT_DEF void tdec_ipt_evt_reset(tdec_ipt_evt_decoder *e)
{
    if (e == NULL) return;
    tdec_ipt_reset(&e->pkt);
    tdec_ipt__evt_clear(e);
}

TDEC_IPT_DEF tdec_status tdec_ipt_evt_feed(tdec_ipt_evt_decoder *e, const void *data, size_t len)
{
    if (e == NULL) return TDEC_E_ARG;
    if (e->st.err < 0) return e->st.err;
    if (e->phase == TDEC_IPT__E_END) return TDEC_E_SEQUENCE; /* even when the packets ended cut */
    return tdec_ipt_feed(&e->pkt, data, len);
}

/* tip()'s second step with nothing queued (TDEC_IPT__NEXT), which next()
   takes without processing the TIP again. */
TDEC_IPT__HOT static int tdec_ipt__tip_done(const tdec_ipt_evt_decoder *e)
{
    return e->have_cur && e->bound && e->cur.kind == TDEC_IPT_TIP && e->nq == 0 && e->cur_err == 0 && !e->look &&
           e->phase == TDEC_IPT__E_RUN;
}

TDEC_IPT_DEF tdec_status tdec_ipt_evt_finish(tdec_ipt_evt_decoder *e)
{
    tdec_status st;
    if (e == NULL) return TDEC_E_ARG;
    if (e->st.err < 0) return e->st.err;
    if (e->phase == TDEC_IPT__E_END) return TDEC_END;
    st = tdec_ipt_finish(&e->pkt);
    if (st == TDEC_E_ARG || st == TDEC_E_SEQUENCE) return st;
    if ((st == TDEC_END || st == TDEC_E_TRUNCATED) && !e->look && e->nheld == 0 &&
        (!e->have_cur || tdec_ipt__tip_done(e))) {
        /* Nothing held or half processed: the next packet is the end, and
           next() meets it at once (libipt's -pte_eos), with no item. */
        tdec_ipt_evt_item none;
        return tdec_ipt_evt_next(e, &none);
    }
    return TDEC_NEED_INPUT; /* next() drains what is held and meets the end */
}

/* pt_evt_sync_forward(): forget everything and look for the next PSB from
   where the packet layer is (after a decode error: from the bad packet). */
static void tdec_ipt__evt_sync(tdec_ipt_evt_decoder *e)
{
    if (e->pkt.st.err == TDEC_E_CORRUPT) {
        tdec_ipt_resync(&e->pkt);
    } else if (e->pkt.phase == TDEC_IPT__P_SKIP) {
        e->pkt.skip_sync = 1; /* libipt searches from the end of that UNKNOWN packet */
    } else if (e->pkt.st.err == TDEC_OK && e->pkt.phase != TDEC_IPT__P_DONE) {
        tdec_ipt__resync_from(&e->pkt, e->pkt.st.pos);
    }
    tdec_ipt__evt_clear(e);
    if (e->pkt.st.err != TDEC_OK || e->pkt.phase == TDEC_IPT__P_DONE) e->phase = TDEC_IPT__E_END;
}

TDEC_IPT_DEF tdec_status tdec_ipt_evt_resync(tdec_ipt_evt_decoder *e)
{
    if (e == NULL) return TDEC_E_ARG;
    if (e->st.err != TDEC_E_CORRUPT) return TDEC_E_SEQUENCE;
    tdec_ipt__evt_sync(e);
    return TDEC_NEED_INPUT;
}

TDEC_IPT_DEF tdec_status tdec_ipt_evt_sync_forward(tdec_ipt_evt_decoder *e)
{
    if (e == NULL) return TDEC_E_ARG;
    tdec_ipt__evt_sync(e);
    return TDEC_NEED_INPUT;
}

/* Where the packet layer's next packet starts, PADs stepped over (as its
   next() steps over them): TDEC_OK, or TDEC_NEED_INPUT when no byte of it
   is fed yet. */
static tdec_status tdec_ipt__packet_at(tdec_ipt_decoder *d, uint64_t *offset)
{
    tdec_ipt_item pad;
    while (d->phase == TDEC_IPT__P_PACKETS && d->st.err == TDEC_OK && d->st.carry_len == 0 &&
           (d->st.win_len == 0 || d->st.win[0] == 0x00)) {
        if (d->st.win_len == 0 && d->ended) break;
        if (tdec_ipt_next(d, &pad) != TDEC_OK) return TDEC_NEED_INPUT; /* the window is used up */
    }
    *offset = d->st.pos;
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_evt_offset(tdec_ipt_evt_decoder *e, uint64_t *offset)
{
    if (e == NULL || offset == NULL) return TDEC_E_ARG;
    if (e->have_cur || e->st.err != TDEC_OK || e->phase == TDEC_IPT__E_END) {
        *offset = e->cur_offset;
        return TDEC_OK;
    }
    if (e->nheld > 0 || e->skipped) {
        *offset = e->nheld > 0 ? e->held[e->held_head].from : e->skipped_at;
        return TDEC_OK;
    }
    return tdec_ipt__packet_at(&e->pkt, offset);
}

static tdec_status tdec_ipt__evt_fail(tdec_ipt_evt_decoder *e, int code)
{
    if (code == -TDEC_IPT_ERR_EOS) {
        e->phase = TDEC_IPT__E_END;
        return TDEC_END;
    }
    e->st.err = TDEC_E_CORRUPT;
    e->st.err_reason = (uint32_t)-code;
    e->st.err_offset = e->in_sync ? e->cur_offset : e->call_offset;
    return TDEC_E_CORRUPT;
}

/* The first packet (PAD aside) a next() call processes is where its error
   is reported (libipt's pt_evt_next offset). */
static void tdec_ipt__call_start(tdec_ipt_evt_decoder *e, uint64_t offset)
{
    if (!e->start_set) {
        e->call_offset = offset;
        e->start_set = 1;
    }
}

/* The RUN phase's common packets, read straight from the packet layer's
   window with its position in a register: PAD, MTC and CYC (time only),
   TNT and a TIP that binds nothing make their events here, exactly as
   pull() and evt_step() would. Returns 1 with *out filled; 0 when the
   general loop must go on, with the packet that stopped this one as cur
   (or none: the window ends, or the packet needs tdec_ipt_next()). */
static int tdec_ipt__evt_run(tdec_ipt_evt_decoder *e, tdec_ipt_evt_item *out)
{
    tdec_ipt_decoder *d = &e->pkt;
    const uint8_t *p = d->st.win, *last = p + (d->st.win_len - TDEC_IPT__MAX_SIZE);
    uint64_t pos = d->st.pos, off = 0;
    tdec_ipt_packet pk;
    tdec_ipt_event *ev;
    int n, r = 0, err;
    while (p <= last) {
        n = tdec_ipt__decode_fast(d, p, &pk);
        if (n == 0) break;
        off = pos;
        p += n;
        pos += (uint64_t)n;
        if (pk.kind == TDEC_IPT_PAD) continue;
        tdec_ipt__call_start(e, off);
        if (pk.kind == TDEC_IPT_MTC || pk.kind == TDEC_IPT_CYC) {
            err = tdec_ipt__apply_time(e, &pk);
            if (err == 0) {
                e->bound = 0; /* evt_step()'s TDEC_IPT__NEXT */
                continue;
            }
        } else if ((pk.kind == TDEC_IPT_TNT_8 || pk.kind == TDEC_IPT_TNT_64) && e->enabled) {
            e->cur_offset = off;
            e->cur_live = 1;
            ev = tdec_ipt__ev_new(e, &out->ev, TDEC_IPT_EV_TNT);
            ev->arg = pk.payload;
            ev->a = pk.sub;
            r = 1;
            break;
        } else if (pk.kind == TDEC_IPT_TIP && e->enabled && !e->bound && e->nq == 0 &&
                   tdec_ipt_last_ip_update(&e->ip, &pk, NULL) == TDEC_OK) {
            err = 0;
            r = 1;
        } else {
            err = tdec_ipt__took(e, &pk);
        }
        /* cur, as pull() leaves it for the general loop */
        e->cur = pk;
        e->cur_offset = off;
        e->cur_err = err;
        e->cur_live = 1;
        e->have_cur = 1;
        if (r) { /* tip(): the event now; the TIP stays cur, bound, as there */
            e->bound = 1;
            tdec_ipt__ev_ip(e, tdec_ipt__ev_new(e, &out->ev, TDEC_IPT_EV_TIP));
        }
        break;
    }
    d->st.win_len -= (size_t)(p - d->st.win);
    if (p != d->st.win) e->skipped = 0;
    d->st.win = p;
    d->st.pos = pos;
    if (r) {
        out->kind = TDEC_ITEM_RECORD;
        out->offset = off;
        e->start_set = 0;
    }
    return r;
}

TDEC_IPT_DEF tdec_status tdec_ipt_evt_next(tdec_ipt_evt_decoder *e, tdec_ipt_evt_item *out)
{
    tdec_status st;
    int r;
    if (e == NULL || out == NULL) return TDEC_E_ARG;
    if (e->st.err < 0) return e->st.err;
    if (e->phase == TDEC_IPT__E_END) return TDEC_END;
    for (;;) {
        if (tdec_ipt__tip_done(e)) {
            tdec_ipt__call_start(e, e->cur_offset);
            e->bound = 0;
            e->have_cur = 0;
        }
        if (!e->have_cur && !e->look && e->nheld == 0 && e->phase == TDEC_IPT__E_RUN &&
            tdec_ipt__fast_ready(&e->pkt) && tdec_ipt__evt_run(e, out))
            return TDEC_OK;
        if (e->look) {
            st = tdec_ipt__look(e);
            if (st == TDEC_E_LIMIT) return tdec_ipt__evt_fail(e, -TDEC_IPT_ERR_NOMEM);
            if (st != TDEC_OK) return st;
        }
        if (!e->have_cur) {
            if (e->nheld > 0) {
                const tdec_ipt__held *h = &e->held[e->held_head];
                e->cur = h->pkt;
                e->cur_offset = h->offset;
                e->cur_stamp = h->stamp;
                e->cur_err = e->held_err[e->held_head];
                e->cur_live = 0;
                tdec_ipt__drop(e, 1);
            } else {
                st = tdec_ipt__pull(e, &e->cur, &e->cur_offset, &e->cur_err);
                if (st != TDEC_OK) return st;
                e->skipped = 0;
                e->cur_live = 1;
            }
            e->have_cur = 1;
        }
        tdec_ipt__call_start(e, e->cur_offset);
        if (e->cur_err < 0) {
            r = e->cur_err;
        } else if (e->phase == TDEC_IPT__E_SYNC) {
            r = e->cur.kind == TDEC_IPT_PSB ? tdec_ipt__psb(e) : -TDEC_IPT_ERR_NOSYNC;
        } else if (e->phase == TDEC_IPT__E_HEADER) {
            r = tdec_ipt__header(e);
        } else {
            r = tdec_ipt__evt_step(e, &out->ev);
        }
        switch (r) {
        case TDEC_IPT__EV_DONE:
            e->have_cur = 0;
            /* fall through */
        case TDEC_IPT__EV_KEEP:
            out->kind = TDEC_ITEM_RECORD;
            out->offset = e->cur_offset;
            e->start_set = 0;
            return TDEC_OK;
        case TDEC_IPT__SYNCED:
            tdec_ipt__ev_zero(&out->ev);
            out->kind = TDEC_IPT_ITEM_SYNC;
            out->offset = e->sync_psb;
            e->start_set = 0;
            return TDEC_OK;
        case TDEC_IPT__NEXT:
            e->bound = 0;
            e->have_cur = 0;
            break;
        case TDEC_IPT__WAIT:
        case TDEC_IPT__REDO:
            break;
        default:
            return tdec_ipt__evt_fail(e, r);
        }
    }
}

/* ---- layer 2: queries ---------------------------------------------------- */

#define TDEC_IPT__Q_SYNC  0 /* waiting for the event decoder's SYNC         */
#define TDEC_IPT__Q_LOOK  1 /* reading the sync point's status events        */
#define TDEC_IPT__Q_READY 2 /* synchronised: queries                         */
#define TDEC_IPT__Q_END   3

static void tdec_ipt__qry_clear(tdec_ipt_qry_decoder *q)
{
    tdec_ipt__err_clear(&q->st);
    q->in_sync = 1;
    q->phase = TDEC_IPT__Q_SYNC;
    q->n = q->head = 0;
    q->tnt = q->tnt_mask = 0;
    q->look_offset = q->sync_offset = 0;
    q->last_time.has_tsc = q->last_time.has_cbr = 0;
    q->last_time.tsc = 0;
    q->last_time.lost_mtc = q->last_time.lost_cyc = 0;
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_init(tdec_ipt_qry_decoder *q, const tdec_ipt_config *cfg)
{
    if (q == NULL) return TDEC_E_ARG;
    tdec_ipt_evt_init(&q->evt, cfg);
    tdec_ipt__qry_clear(q);
    return TDEC_NEED_INPUT;
}

TDEC_IPT_DEF void tdec_ipt_qry_reset(tdec_ipt_qry_decoder *q)
{
    if (q == NULL) return;
    tdec_ipt_evt_reset(&q->evt);
    tdec_ipt__qry_clear(q);
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_feed(tdec_ipt_qry_decoder *q, const void *data, size_t len)
{
    if (q == NULL) return TDEC_E_ARG;
    if (q->st.err < 0) return q->st.err;
    return tdec_ipt_evt_feed(&q->evt, data, len);
}

static tdec_ipt__ahead *tdec_ipt__ahead_at(tdec_ipt_qry_decoder *q, unsigned i)
{
    return &q->ahead[(q->head + i) % TDEC_IPT_QRY_AHEAD];
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_finish(tdec_ipt_qry_decoder *q)
{
    tdec_status st;
    if (q == NULL) return TDEC_E_ARG;
    if (q->st.err < 0) return q->st.err;
    st = tdec_ipt_evt_finish(&q->evt);
    if (st != TDEC_END) return st;
    /* The events are over: every query meets the end at once, unless
       events were read ahead, TNT bits are cached or a sync point's status
       events are being read (their answers come first). */
    if (q->phase == TDEC_IPT__Q_END ||
        (q->tnt_mask == 0 && q->phase != TDEC_IPT__Q_LOOK &&
         (q->n == 0 || tdec_ipt__ahead_at(q, 0)->code == -TDEC_IPT_ERR_EOS)))
        return TDEC_END;
    return TDEC_NEED_INPUT;
}

/* Reads events ahead until `depth` are there, or the last one read is the
   end or an error (nothing follows those). TDEC_OK or TDEC_NEED_INPUT. */
static tdec_status tdec_ipt__qry_fill(tdec_ipt_qry_decoder *q, unsigned depth)
{
    tdec_ipt_evt_item it;
    tdec_ipt__ahead *a;
    tdec_status st;
    while (q->n < depth) {
        if (q->n > 0 && tdec_ipt__ahead_at(q, q->n - 1u)->code < 0) return TDEC_OK;
        if (q->n >= TDEC_IPT_QRY_AHEAD) return TDEC_OK; /* not reached: the queue bounds it */
        st = tdec_ipt_evt_next(&q->evt, &it);
        if (st == TDEC_NEED_INPUT) return st;
        a = tdec_ipt__ahead_at(q, q->n);
        a->reserved = 0;
        if (st == TDEC_OK) {
            if (it.kind != TDEC_ITEM_RECORD) continue; /* not reached: SYNC follows resync */
            a->ev = it.ev;
            a->now = *tdec_ipt__now(&q->evt);
            a->offset = it.offset;
            a->code = 0;
        } else {
            tdec_ipt__ev_zero(&a->ev);
            a->now = *tdec_ipt__now(&q->evt);
            if (st == TDEC_END) {
                a->code = -TDEC_IPT_ERR_EOS;
                a->offset = q->evt.cur_offset;
            } else if (st == TDEC_E_CORRUPT) {
                a->code = -(int32_t)q->evt.st.err_reason;
                a->offset = q->evt.cur_offset; /* the packet that failed */
            } else {
                return st; /* not reached: the event decoder's own misuse */
            }
        }
        q->n++;
    }
    return TDEC_OK;
}

static void tdec_ipt__qry_pop(tdec_ipt_qry_decoder *q)
{
    if (tdec_ipt__ahead_at(q, 0)->code < 0) return; /* the end stays */
    q->head = (uint8_t)((q->head + 1u) % TDEC_IPT_QRY_AHEAD);
    q->n--;
}

/* libipt's pt_qry_status_flags: pending event or end, once no TNT bits are
   left. */
static uint32_t tdec_ipt__qry_flags(tdec_ipt_qry_decoder *q)
{
    const tdec_ipt__ahead *a;
    if (q->tnt_mask != 0 || q->n == 0) return 0;
    a = tdec_ipt__ahead_at(q, 0);
    if (a->code == -TDEC_IPT_ERR_EOS) return TDEC_IPT_QF_EOS;
    if (a->code < 0) return TDEC_IPT_QF_EVENT_PENDING;
    return a->ev.type == TDEC_IPT_EV_TNT || a->ev.type == TDEC_IPT_EV_TIP ? 0u : TDEC_IPT_QF_EVENT_PENDING;
}

static tdec_status tdec_ipt__qry_fail(tdec_ipt_qry_decoder *q, int32_t code, uint64_t offset)
{
    if (code == -TDEC_IPT_ERR_EOS) return TDEC_END; /* cached TNT bits stay answerable */
    q->st.err = TDEC_E_CORRUPT;
    q->st.err_reason = (uint32_t)-code;
    q->st.err_offset = offset;
    return TDEC_E_CORRUPT;
}

/* libipt's pt_tnt_cache_add: appends a TNT's bits behind the cached ones
   (the oldest is read first). 0 when they do not fit in 64 bits (libipt's
   -pte_overflow) or there are none. */
static int tdec_ipt__qry_cache(tdec_ipt_qry_decoder *q, uint64_t bits, uint8_t size)
{
    uint64_t mask;
    if (size == 0 || size > 63) return 0;
    mask = q->tnt_mask ? q->tnt_mask << size : (uint64_t)1 << (size - 1u);
    if (mask == 0) return 0;
    q->tnt_mask = mask;
    q->tnt = (q->tnt << size) | (bits & (((uint64_t)1 << size) - 1u));
    return 1;
}

/* The checks every query starts with. */
static tdec_status tdec_ipt__qry_ready(tdec_ipt_qry_decoder *q)
{
    if (q->st.err < 0) return q->st.err;
    if (q->phase == TDEC_IPT__Q_END) return TDEC_END;
    if (q->phase != TDEC_IPT__Q_READY) return TDEC_E_SEQUENCE;
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_sync(tdec_ipt_qry_decoder *q, uint64_t *ip, uint32_t *flags,
                                           uint64_t *sync_offset)
{
    tdec_ipt_evt_item it;
    tdec_status st;
    unsigned i;
    if (q == NULL || ip == NULL || flags == NULL) return TDEC_E_ARG;
    if (q->st.err < 0) return q->st.err;
    if (q->phase == TDEC_IPT__Q_END) return TDEC_END;
    if (q->phase == TDEC_IPT__Q_READY) { /* skip to the next PSB */
        tdec_ipt__evt_sync(&q->evt);
        tdec_ipt__qry_clear(q);
    }
    while (q->phase == TDEC_IPT__Q_SYNC) {
        st = tdec_ipt_evt_next(&q->evt, &it);
        if (st == TDEC_NEED_INPUT) return st;
        if (st == TDEC_END) {
            q->phase = TDEC_IPT__Q_END;
            return TDEC_END;
        }
        if (st != TDEC_OK)
            return tdec_ipt__qry_fail(q, -(int32_t)q->evt.st.err_reason, q->evt.st.err_offset);
        if (it.kind == TDEC_IPT_ITEM_SYNC) {
            q->sync_offset = it.offset;
            q->phase = TDEC_IPT__Q_LOOK;
            q->look_offset = q->evt.cur_offset; /* the PSBEND, for errors below */
        }
    }
    /* pt_qry_start: the status events tell where tracing starts; an error
       before the first other event fails the sync. */
    for (;;) {
        const tdec_ipt__ahead *a;
        if (q->n > 0) {
            a = tdec_ipt__ahead_at(q, q->n - 1u);
            if (a->code == -TDEC_IPT_ERR_EOS) break;
            if (a->code < 0) return tdec_ipt__qry_fail(q, a->code, q->look_offset);
            if (!(a->ev.flags & TDEC_IPT_EVF_STATUS) || a->ev.type == TDEC_IPT_EV_ENABLED) break;
            if (q->n == TDEC_IPT_QRY_AHEAD) break; /* not reached: the event queue holds 14 */
        }
        st = tdec_ipt__qry_fill(q, q->n + 1u);
        if (st != TDEC_OK) return st;
    }
    *flags = TDEC_IPT_QF_IP_SUPPRESSED;
    for (i = 0; i < q->n; i++) {
        const tdec_ipt__ahead *a = tdec_ipt__ahead_at(q, i);
        if (a->code == 0 && a->ev.type == TDEC_IPT_EV_ENABLED && (a->ev.flags & TDEC_IPT_EVF_STATUS)) {
            *flags = 0;
            *ip = a->ev.ip;
        }
    }
    q->phase = TDEC_IPT__Q_READY;
    q->in_sync = 0;
    *flags |= tdec_ipt__qry_flags(q);
    if (sync_offset != NULL) *sync_offset = q->sync_offset;
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_cond_branch(tdec_ipt_qry_decoder *q, int *taken, uint32_t *flags)
{
    tdec_ipt__ahead *a;
    tdec_status st;
    if (q == NULL || taken == NULL || flags == NULL) return TDEC_E_ARG;
    if ((st = tdec_ipt__qry_ready(q)) != TDEC_OK) return st;
    if (q->tnt_mask == 0) {
        if ((st = tdec_ipt__qry_fill(q, 1)) != TDEC_OK) return st;
        a = tdec_ipt__ahead_at(q, 0);
        if (a->code == 0 && a->ev.type == TDEC_IPT_EV_TNT) {
            if ((st = tdec_ipt__qry_fill(q, 2)) != TDEC_OK) return st;
        }
        q->last_time = a->now;
        if (a->code < 0) return tdec_ipt__qry_fail(q, a->code, a->offset);
        if (a->ev.type != TDEC_IPT_EV_TNT || !tdec_ipt__qry_cache(q, a->ev.arg, a->ev.a)) return TDEC_E_SEQUENCE;
        tdec_ipt__qry_pop(q);
    }
    *taken = (q->tnt & q->tnt_mask) != 0;
    q->tnt_mask >>= 1;
    *flags = tdec_ipt__qry_flags(q);
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_indirect_branch(tdec_ipt_qry_decoder *q, uint64_t *ip,
                                                      uint32_t *flags)
{
    tdec_ipt__ahead *a;
    tdec_status st;
    unsigned tip = 0; /* where the TIP is: libipt caches a TNT before it */
    if (q == NULL || ip == NULL || flags == NULL) return TDEC_E_ARG;
    if ((st = tdec_ipt__qry_ready(q)) != TDEC_OK) return st;
    if ((st = tdec_ipt__qry_fill(q, 1)) != TDEC_OK) return st;
    a = tdec_ipt__ahead_at(q, 0);
    if (a->code < 0) return tdec_ipt__qry_fail(q, a->code, a->offset);
    if (a->ev.type == TDEC_IPT_EV_TNT) {
        if ((st = tdec_ipt__qry_fill(q, 2)) != TDEC_OK) return st;
        tip = 1;
    }
    a = tdec_ipt__ahead_at(q, tip);
    if (a->code == 0 && a->ev.type == TDEC_IPT_EV_TIP) {
        if ((st = tdec_ipt__qry_fill(q, tip + 2u)) != TDEC_OK) return st;
    }
    if (tip) { /* cache the TNT, as libipt does, whatever follows it */
        const tdec_ipt__ahead *t = tdec_ipt__ahead_at(q, 0);
        if (!tdec_ipt__qry_cache(q, t->ev.arg, t->ev.a)) return tdec_ipt__qry_fail(q, -TDEC_IPT_ERR_OVERFLOW, t->offset);
        tdec_ipt__qry_pop(q);
    }
    a = tdec_ipt__ahead_at(q, 0);
    if (a->code < 0) return tdec_ipt__qry_fail(q, a->code, a->offset);
    if (a->ev.type != TDEC_IPT_EV_TIP) return TDEC_E_SEQUENCE;
    *flags = 0;
    if (a->ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED) *flags |= TDEC_IPT_QF_IP_SUPPRESSED;
    else *ip = a->ev.ip;
    q->last_time = a->now;
    tdec_ipt__qry_pop(q);
    *flags |= tdec_ipt__qry_flags(q);
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_event(tdec_ipt_qry_decoder *q, tdec_ipt_event *ev,
                                            uint32_t *flags)
{
    tdec_ipt__ahead *a;
    tdec_status st;
    if (q == NULL || ev == NULL || flags == NULL) return TDEC_E_ARG;
    if ((st = tdec_ipt__qry_ready(q)) != TDEC_OK) return st;
    if (q->tnt_mask != 0) return TDEC_E_SEQUENCE;
    if ((st = tdec_ipt__qry_fill(q, 1)) != TDEC_OK) return st;
    a = tdec_ipt__ahead_at(q, 0);
    if (a->code < 0) return tdec_ipt__qry_fail(q, a->code, a->offset);
    if (a->ev.type == TDEC_IPT_EV_TNT || a->ev.type == TDEC_IPT_EV_TIP) return TDEC_E_SEQUENCE;
    if ((st = tdec_ipt__qry_fill(q, 2)) != TDEC_OK) return st;
    *ev = a->ev;
    q->last_time = a->now;
    tdec_ipt__qry_pop(q);
    *flags = tdec_ipt__qry_flags(q);
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_time(const tdec_ipt_qry_decoder *q, uint64_t *tsc,
                                           uint32_t *lost_mtc, uint32_t *lost_cyc, uint32_t *reason)
{
    if (q == NULL || tsc == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    *tsc = q->last_time.tsc;
    if (lost_mtc != NULL) *lost_mtc = q->last_time.lost_mtc;
    if (lost_cyc != NULL) *lost_cyc = q->last_time.lost_cyc;
    return tdec_ipt__result(reason, q->last_time.has_tsc ? TDEC_IPT_ERR_OK : TDEC_IPT_ERR_NO_TIME);
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_cbr(const tdec_ipt_qry_decoder *q, uint32_t *cbr,
                                          uint32_t *reason)
{
    if (q == NULL || cbr == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);
    if (!q->last_time.has_cbr) return tdec_ipt__result(reason, TDEC_IPT_ERR_NO_CBR);
    *cbr = q->last_time.cbr;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_qry_resync(tdec_ipt_qry_decoder *q)
{
    tdec_status st;
    if (q == NULL) return TDEC_E_ARG;
    if (q->st.err != TDEC_E_CORRUPT) return TDEC_E_SEQUENCE;
    st = q->evt.st.err == TDEC_E_CORRUPT ? tdec_ipt_evt_resync(&q->evt) : TDEC_NEED_INPUT;
    tdec_ipt__qry_clear(q);
    return st;
}

#ifndef TDEC_IPT_NO_FLOW
/* ---- x86 instructions: length and class (libipt's pt_ild) ---------------- */

/* An opcode's rule: a ModRM kind (bits 1:0) and what follows the ModRM
   (bits 5:2). */
#define TDEC_IPT__ILD_MODRM     1u /* a ModRM byte (SIB and displacement by mod) */
#define TDEC_IPT__ILD_MODRM_REG 2u /* a ModRM whose mod is ignored (no SIB/disp) */
#define TDEC_IPT__ILD_MODRM_ANY 3u
#define TDEC_IPT__ILD_OP(r)     ((r) >> 2)
enum tdec_ipt__ild_operand {
    /* fixed sizes (tdec_ipt__ild_fixed) */
    TDEC_IPT__O_NONE = 0,
    TDEC_IPT__O_IMM8,
    TDEC_IPT__O_IMM16,
    TDEC_IPT__O_IMM32,
    TDEC_IPT__O_ENTER,  /* imm16, imm8                                     */
    TDEC_IPT__O_REL8,   /* a branch displacement                           */
    /* sizes by mode, prefixes or ModRM */
    TDEC_IPT__O_IMMZ,   /* 2 bytes at operand size 16, else 4              */
    TDEC_IPT__O_IMMV,   /* 2, 4 or 8 bytes: the operand size               */
    TDEC_IPT__O_RELZ,   /* z; always 4 bytes in 64-bit mode                */
    TDEC_IPT__O_FAR,    /* ptr16:z: z-byte offset, 2-byte selector         */
    TDEC_IPT__O_MOFFS,  /* an offset of the address size                   */
    TDEC_IPT__O_GRP_F6, /* imm8 when ModRM.reg < 2 (TEST)                  */
    TDEC_IPT__O_GRP_F7, /* imm z when ModRM.reg < 2 (TEST)                 */
    TDEC_IPT__O_GRP_C7, /* reg 0: imm z (MOV); reg 7 without a ModRM       */
                        /* displacement: rel z (XBEGIN)                    */
    TDEC_IPT__O_0F78    /* with 66, or F2 as the last F2/F3: imm8, imm8    */
                        /* (AMD EXTRQ/INSERTQ); else none (VMREAD)         */
};
#define TDEC_IPT__ILD_RULE(modrm, op) ((uint8_t)((modrm) | (TDEC_IPT__O_##op << 2)))
#define TDEC_IPT__ILD_INVALID 0xffu
static const uint8_t tdec_ipt__ild_fixed[TDEC_IPT__O_IMMZ] = {0, 1, 2, 4, 3, 1};

/* Per byte, as a prefix:  .  none: the opcode      o  66      a  67
     2  F2     3  F3       s  segment override or LOCK
     r  REX in 64-bit mode (else INC/DEC)
     v  C4, C5, 62: VEX, EVEX (outside 64-bit mode only if the next byte
        has 11 in bits 7:6, else LES, LDS, BOUND)
     x  D5: REX2 in 64-bit mode (else AAD) */
static const char tdec_ipt__ild_prefix[257] =
    "................" "................" "......s.......s." "......s.......s."  /* 0x..3x */
    "rrrrrrrrrrrrrrrr" "................" "..v.ssoa........" "................"  /* 4x..7x */
    "................" "................" "................" "................"  /* 8x..Bx */
    "....vv.........." ".....x.........." "................" "s.23............"; /* Cx..Fx */

/* The opcode tables below hold one letter per opcode, 16 to a row; this key
   (indexed by the letter's low 5 bits) turns a letter into its rule. */
static const uint8_t tdec_ipt__ild_key[32] = {
    0,
    0,
    TDEC_IPT__ILD_RULE(0, IMM8),                       /* b */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, GRP_C7),   /* c */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, IMM32),    /* d */
    TDEC_IPT__ILD_RULE(0, ENTER),                      /* e */
    TDEC_IPT__ILD_RULE(0, FAR),                        /* f */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, GRP_F6),   /* g */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, GRP_F7),   /* h */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, IMM8),     /* i */
    TDEC_IPT__ILD_RULE(0, REL8),                       /* j */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, IMMZ),     /* k */
    TDEC_IPT__ILD_RULE(0, RELZ),                       /* l */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, NONE),     /* m */
    TDEC_IPT__ILD_RULE(0, NONE),                       /* . and N */
    TDEC_IPT__ILD_RULE(0, MOFFS),                      /* o */
    0,
    0,
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM_REG, NONE), /* r */
    0,
    0,
    0,
    TDEC_IPT__ILD_RULE(0, IMMV),                       /* v */
    TDEC_IPT__ILD_RULE(0, IMM16),                      /* w */
    TDEC_IPT__ILD_RULE(TDEC_IPT__ILD_MODRM, 0F78),     /* x */
    0,
    TDEC_IPT__ILD_RULE(0, IMMZ),                       /* z */
    0,
    0,
    0,
    0,
    TDEC_IPT__ILD_INVALID                              /* _ (maps only) */
};

/* Per opcode:  .  nothing      m  ModRM        r  ModRM, mod ignored
                b  imm8         w  imm16        z  imm z        v  imm v
                i  ModRM imm8   k  ModRM imm z  d  ModRM imm32
                j  rel8         l  rel z (64-bit: rel32)
                f  ptr16:z      o  moffs        e  imm16 imm8 (ENTER)
                g, h, c, x: F6, F7, C7 and 0F 78 (see the operand kinds)
   Upper case (legacy maps 0 and 1 only): the same rule, and the opcode may
   have a class (tdec_ipt__ild_kind looks closer; N is '.' with a class).
   Legacy prefixes, 0F and 40..4F (REX in 64-bit mode) never reach map 0's
   table as prefixes; outside 64-bit mode 40..4F are INC/DEC, D5 is AAD
   imm8, 62/C4/C5 without 11 in bits 7:6 of the next byte BOUND/LES/LDS. */
enum { TDEC_IPT__T_MAP0, TDEC_IPT__T_MAP1, TDEC_IPT__T_VEX1, TDEC_IPT__T_EVEX4 };
static const char tdec_ipt__ild_op_rule[4][257] = {
    /* legacy map 0 (one-byte opcodes), also REX2 map 0 */
    "mmmmbz..mmmmbz.." "mmmmbz..mmmmbz.." "mmmmbz..mmmmbz.." "mmmmbz..mmmmbz.."  /* 0x..3x */
    "................" "................" "..mm....zkbi...." "JJJJJJJJJJJJJJJJ"  /* 4x..7x */
    "ikiimmmmmmmmmmmm" "..........F....." "oOoo....bz......" "bbbbbbbbvvvvvvvv"  /* 8x..Bx */
    "iiWNmmice.WNNBNN" "mmmmbb..mmmmmmmm" "JJJJbbbbLLFJ...." ".N....gh......mM", /* Cx..Fx */
    /* legacy map 1 (0F xx), also REX2 map 1 (where 38..3F are not escapes) */
    "mMmm.N.N.....m.." "mmmmmmmmmmmmmmmm" "rrRr....mmmmmmmm" "....NN.........."  /* 0x..3x */
    "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "iiiimmm.xm..mmmm"  /* 4x..7x */
    "LLLLLLLLLLLLLLLL" "mmmmmmmmmmmmmmmm" "...mimrr...mimMm" "mmmmmmmmmmimmmmm"  /* 8x..Bx */
    "mmimiiiM........" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm", /* Cx..Fx */
    /* VEX map 1; EVEX map 1 takes its immediates (every EVEX opcode has a ModRM) */
    "mmmm.........m.." "mmmmmmmmmmmmmmmm" "rrrr....mmmmmmmm" "................"  /* 0x..3x */
    "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "iiiimmm.mm..mmmm"  /* 4x..7x */
    "................" "mmmmmmmmmmmmmmmm" "...mmmrr...mmmmm" "mmmmmmmmmmmmmmmm"  /* 8x..Bx */
    "mmimiiim........" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm", /* Cx..Fx */
    /* EVEX map 4 (APX: promoted legacy instructions) */
    "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmimmmmmmmimmm" "mmmmmmmmmmmmmmmm"  /* 0x..3x */
    "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmkmimmmm" "mmmmmmmmmmmmmmmm"  /* 4x..7x */
    "ikmimmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmmmmmmmmmmm"  /* 8x..Bx */
    "iimmmmmmmmmmmmmm" "mmmmimmmmmmmmmmm" "mmmmmmmmmmmmmmmm" "mmmmmmghmmmmmmmm"  /* Cx..Fx */
};

/* Per encoding and map (0..7): the rule of every opcode of the map, or '*'
   for the table above; '_' is invalid. Legacy maps 4..7 do not exist; VEX
   and EVEX map 0 are invalid. */
enum { TDEC_IPT__ENC_LEGACY, TDEC_IPT__ENC_VEX, TDEC_IPT__ENC_EVEX };
static const char tdec_ipt__ild_map_rule[3][9] = {"**mi____", "_*mi...d", "_*mi*mmd"};

/* What each fine class is: its coarse class and predicates. */
typedef struct tdec_ipt__insn_props {
    uint8_t  iclass;
    uint16_t flags;
} tdec_ipt__insn_props;

#define TDEC_IPT__FAR_PIP_VMCS (TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS)
static const tdec_ipt__insn_props tdec_ipt__insn_kinds[TDEC_IPT_INSN_KIND_COUNT] = {
    {TDEC_IPT_IC_OTHER, 0},                                                    /* OTHER    */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS},                            /* CALL_9A  */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS},                            /* CALL_FFR3 */
    {TDEC_IPT_IC_CALL, 0},                                                     /* CALL_FFR2 */
    {TDEC_IPT_IC_CALL, TDEC_IPT_INSNF_DIRECT},                                 /* CALL_E8  */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_SWINT}, /* INT */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_SWINT}, /* INT3 */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_SWINT}, /* INT1 */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_SWINT}, /* INTO */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_IRET}, /* IRET */
    {TDEC_IPT_IC_JUMP, TDEC_IPT_INSNF_DIRECT},                                 /* JMP_E9   */
    {TDEC_IPT_IC_JUMP, TDEC_IPT_INSNF_DIRECT},                                 /* JMP_EB   */
    {TDEC_IPT_IC_FAR_JUMP, TDEC_IPT__FAR_PIP_VMCS},                            /* JMP_EA   */
    {TDEC_IPT_IC_FAR_JUMP, TDEC_IPT__FAR_PIP_VMCS},                            /* JMP_FFR5 */
    {TDEC_IPT_IC_JUMP, 0},                                                     /* JMP_FFR4 */
    {TDEC_IPT_IC_COND_JUMP, TDEC_IPT_INSNF_DIRECT},                            /* JCC      */
    {TDEC_IPT_IC_COND_JUMP, TDEC_IPT_INSNF_DIRECT},                            /* JRCXZ    */
    {TDEC_IPT_IC_COND_JUMP, TDEC_IPT_INSNF_DIRECT},                            /* LOOP     */
    {TDEC_IPT_IC_COND_JUMP, TDEC_IPT_INSNF_DIRECT},                            /* LOOPE    */
    {TDEC_IPT_IC_COND_JUMP, TDEC_IPT_INSNF_DIRECT},                            /* LOOPNE   */
    {TDEC_IPT_IC_OTHER, TDEC_IPT_INSNF_PIP},                                   /* MOV_CR3  */
    {TDEC_IPT_IC_RETURN, 0},                                                   /* RET_C3   */
    {TDEC_IPT_IC_RETURN, 0},                                                   /* RET_C2   */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS},                          /* RET_CB   */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS},                          /* RET_CA   */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_SYSCALL}, /* SYSCALL */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_SYSCALL}, /* SYSENTER */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_IRET}, /* SYSEXIT */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_IRET}, /* SYSRET */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_VMENTRY}, /* VMLAUNCH */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_VMENTRY}, /* VMRESUME */
    {TDEC_IPT_IC_FAR_CALL, TDEC_IPT__FAR_PIP_VMCS},                            /* VMCALL   */
    {TDEC_IPT_IC_OTHER, TDEC_IPT_INSNF_VMCS},                                  /* VMPTRLD  */
    {TDEC_IPT_IC_PTWRITE, 0},                                                  /* PTWRITE  */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_UIRET},   /* UIRET    */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_IRET},    /* ERETS    */
    {TDEC_IPT_IC_FAR_RETURN, TDEC_IPT__FAR_PIP_VMCS | TDEC_IPT_INSNF_IRET},    /* ERETU    */
    {TDEC_IPT_IC_JUMP, TDEC_IPT_INSNF_DIRECT}                                  /* JMPABS   */
};

/* What the prefixes said. */
typedef struct tdec_ipt__ild {
    uint8_t osz;       /* 66, or VEX/EVEX pp = 01                         */
    uint8_t asz;       /* 67                                              */
    uint8_t f3;        /* any F3 (or pp = 10)                             */
    uint8_t last_f2f3; /* 0, 2 (F2 last) or 3 (F3 last)                   */
    uint8_t rex_w;     /* REX.W, REX2.W, VEX.W, EVEX.W                    */
    uint8_t rex_r;     /* REX.R or REX2's R bits (legacy encodings only)  */
    uint8_t rex2;
    uint8_t enc;       /* TDEC_IPT__ENC_*                                 */
    uint8_t map;
} tdec_ipt__ild;

/* The answer when the instruction needs `need` bytes and fewer were read:
   more bytes may complete it unless it is past the 15-byte limit. */
static tdec_status tdec_ipt__ild_short(size_t need, size_t size, uint32_t *reason)
{
    if (need <= TDEC_IPT_INSN_MAX && size < need) {
        if (reason != NULL) *reason = TDEC_IPT_ERR_OK;
        return TDEC_NEED_INPUT;
    }
    return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_INSN);
}

/* The operand size in bytes (2, 4 or 8). */
static unsigned tdec_ipt__ild_osize(const tdec_ipt__ild *x, uint32_t mode)
{
    if (mode == TDEC_IPT_MODE_64) return x->rex_w ? 8u : x->osz ? 2u : 4u;
    if (mode == TDEC_IPT_MODE_32) return x->osz ? 2u : 4u;
    return x->osz ? 4u : 2u;
}

/* The address size in bytes. */
static unsigned tdec_ipt__ild_asize(const tdec_ipt__ild *x, uint32_t mode)
{
    if (mode == TDEC_IPT_MODE_64) return x->asz ? 4u : 8u;
    if (mode == TDEC_IPT_MODE_32) return x->asz ? 2u : 4u;
    return x->asz ? 4u : 2u;
}

/* The displacement bytes a ModRM (mod != 3) implies, and whether a SIB
   follows, by address size: 16-bit (mode 16 and 67 in mode 32), none for
   the unknown mode, 32/64-bit otherwise. */
static unsigned tdec_ipt__ild_modrm_disp(uint8_t modrm, const tdec_ipt__ild *x, uint32_t mode,
                                         int *sib)
{
    unsigned mod = (unsigned)modrm >> 6, rm = modrm & 7u;
    *sib = 0;
    if (mode == TDEC_IPT_MODE_UNKNOWN || mod == 3) return 0;
    if (mode != TDEC_IPT_MODE_64 && tdec_ipt__ild_asize(x, mode) == 2)
        return mod == 1 ? 1u : mod == 2 ? 2u : rm == 6 ? 2u : 0u;
    *sib = rm == 4;
    return mod == 1 ? 1u : mod == 2 ? 4u : rm == 5 ? 4u : 0u;
}

/* Scans the prefixes: *at is then the opcode's position (after VEX, EVEX or
   REX2, which set x->enc and x->map). TDEC_OK, or the short/invalid answer. */
static tdec_status tdec_ipt__ild_prefixes(const uint8_t *p, size_t n, size_t size, uint32_t mode,
                                          tdec_ipt__ild *x, size_t *at, uint32_t *reason)
{
    size_t i;
    uint8_t rex = 0; /* the REX byte, when it was the last prefix */
    for (i = 0;; i++) {
        uint8_t b, p1, p2;
        if (i >= n) return tdec_ipt__ild_short(i + 1, size, reason);
        b = p[i];
        if (tdec_ipt__ild_prefix[b] == '.') break; /* the opcode: the common case first */
        switch (tdec_ipt__ild_prefix[b]) {
        case 'r':
            if (mode != TDEC_IPT_MODE_64) break; /* INC/DEC */
            rex = b;
            continue;
        case 'o': x->osz = 1; rex = 0; continue;
        case 'a': x->asz = 1; rex = 0; continue;
        case '2': x->last_f2f3 = 2; rex = 0; continue;
        case '3': x->f3 = 1; x->last_f2f3 = 3; rex = 0; continue;
        case 's': rex = 0; continue;
        case 'v':
            if (i + 1 >= n) return tdec_ipt__ild_short(i + 2, size, reason);
            p1 = p[i + 1];
            if (mode != TDEC_IPT_MODE_64 && (p1 & 0xC0) != 0xC0) break; /* LES, LDS, BOUND */
            if (b == 0xC5) {
                x->enc = TDEC_IPT__ENC_VEX;
                x->map = 1;
                p2 = p1; /* pp */
                i += 2;
            } else {
                x->enc = b == 0xC4 ? TDEC_IPT__ENC_VEX : TDEC_IPT__ENC_EVEX;
                x->map = (uint8_t)(p1 & (b == 0xC4 ? 0x1F : 0x07));
                if (x->map >= 8 || tdec_ipt__ild_map_rule[x->enc][x->map] == '_')
                    return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_INSN);
                if (i + 2 >= n) return tdec_ipt__ild_short(i + 3, size, reason);
                p2 = p[i + 2];
                x->rex_w = (uint8_t)(p2 >> 7);
                i += b == 0xC4 ? 3u : 4u;
            }
            switch (p2 & 3) {
            case 1: x->osz = 1; break;
            case 2: x->f3 = 1; x->last_f2f3 = 3; break;
            case 3: x->last_f2f3 = 2; break;
            default: break;
            }
            *at = i;
            return TDEC_OK;
        case 'x':
            if (mode != TDEC_IPT_MODE_64) break; /* AAD */
            if (i + 1 >= n) return tdec_ipt__ild_short(i + 2, size, reason);
            p1 = p[i + 1];
            x->rex2 = 1;
            x->rex_w = (uint8_t)((p1 >> 3) & 1);
            x->rex_r = (uint8_t)(p1 & 0x44);
            x->map = (uint8_t)(p1 >> 7);
            *at = i + 2;
            return TDEC_OK;
        default: break;
        }
        break; /* an opcode */
    }
    x->rex_w = (uint8_t)((rex >> 3) & 1);
    x->rex_r = (uint8_t)(rex & 4);
    *at = i;
    return TDEC_OK;
}

/* The fine class of a legacy (or REX2) instruction of map 0 or 1. */
static uint8_t tdec_ipt__ild_kind(const tdec_ipt__ild *x, uint32_t mode, uint8_t op, uint8_t modrm)
{
    unsigned reg = (modrm >> 3) & 7u;
    int m64 = mode == TDEC_IPT_MODE_64;
    if (x->map == 1) {
        if ((op & 0xF0) == 0x80) return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_JCC;
        switch (op) {
        case 0x01:
            switch (modrm) {
            case 0xC1: return TDEC_IPT_INSN_VMCALL;
            case 0xC2: return TDEC_IPT_INSN_VMLAUNCH;
            case 0xC3: return TDEC_IPT_INSN_VMRESUME;
            case 0xEC: return TDEC_IPT_INSN_UIRET;
            case 0xCA:
                return x->last_f2f3 == 2 ? TDEC_IPT_INSN_ERETS
                       : x->last_f2f3 == 3 ? TDEC_IPT_INSN_ERETU : TDEC_IPT_INSN_OTHER;
            default: return TDEC_IPT_INSN_OTHER;
            }
        case 0x05: return TDEC_IPT_INSN_SYSCALL;
        case 0x07: return TDEC_IPT_INSN_SYSRET;
        case 0x22: return reg == 3 && !x->rex_r ? TDEC_IPT_INSN_MOV_CR3 : TDEC_IPT_INSN_OTHER;
        case 0x34: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_SYSENTER;
        case 0x35: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_SYSEXIT;
        case 0xAE: return x->f3 && !x->osz && reg == 4 ? TDEC_IPT_INSN_PTWRITE : TDEC_IPT_INSN_OTHER;
        case 0xC7: return modrm < 0xC0 && reg == 6 ? TDEC_IPT_INSN_VMPTRLD : TDEC_IPT_INSN_OTHER;
        default: return TDEC_IPT_INSN_OTHER;
        }
    }
    if ((op & 0xF0) == 0x70) return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_JCC;
    switch (op) {
    case 0xFF: {
        static const uint8_t group5[8] = {0, 0, TDEC_IPT_INSN_CALL_FFR2, TDEC_IPT_INSN_CALL_FFR3,
                                          TDEC_IPT_INSN_JMP_FFR4, TDEC_IPT_INSN_JMP_FFR5, 0, 0};
        return group5[reg];
    }
    case 0x9A: return m64 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_CALL_9A;
    case 0xA1:
        return m64 && x->rex2 && !x->rex_w && !x->asz && !x->osz ? TDEC_IPT_INSN_JMPABS : TDEC_IPT_INSN_OTHER;
    case 0xC2: return TDEC_IPT_INSN_RET_C2;
    case 0xC3: return TDEC_IPT_INSN_RET_C3;
    case 0xCA: return TDEC_IPT_INSN_RET_CA;
    case 0xCB: return TDEC_IPT_INSN_RET_CB;
    case 0xCC: return TDEC_IPT_INSN_INT3;
    case 0xCD: return TDEC_IPT_INSN_INT;
    case 0xCE: return m64 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_INTO;
    case 0xCF: return TDEC_IPT_INSN_IRET;
    case 0xF1: return TDEC_IPT_INSN_INT1;
    case 0xE0: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_LOOPNE;
    case 0xE1: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_LOOPE;
    case 0xE2: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_LOOP;
    case 0xE3: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_JRCXZ;
    case 0xE8: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_CALL_E8;
    case 0xE9: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_JMP_E9;
    case 0xEA: return m64 || x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_JMP_EA;
    case 0xEB: return x->rex2 ? TDEC_IPT_INSN_OTHER : TDEC_IPT_INSN_JMP_EB;
    default: return TDEC_IPT_INSN_OTHER;
    }
}

TDEC_IPT_DEF tdec_status tdec_ipt_insn_decode(const uint8_t *bytes, size_t size, uint32_t mode,
                                              tdec_ipt_insn_info *out, uint32_t *reason)
{
    tdec_ipt__ild x = {0, 0, 0, 0, 0, 0, 0, TDEC_IPT__ENC_LEGACY, 0};
    size_t n = size < TDEC_IPT_INSN_MAX ? size : TDEC_IPT_INSN_MAX;
    size_t i = 0, len;
    unsigned disp = 0, tail, op_kind, reg;
    uint8_t op, rule, modrm = 0, kind = TDEC_IPT_INSN_OTHER;
    char c;
    tdec_status st;
    if (bytes == NULL || out == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    if (mode > TDEC_IPT_MODE_64) return tdec_ipt__result(reason, TDEC_IPT_ERR_INVALID);

    st = tdec_ipt__ild_prefixes(bytes, n, size, mode, &x, &i, reason);
    if (st != TDEC_OK) return st;
    if (i >= n) return tdec_ipt__ild_short(i + 1, size, reason);
    op = bytes[i++];
    if (x.enc == TDEC_IPT__ENC_LEGACY && !x.rex2 && op == 0x0F) {
        if (i >= n) return tdec_ipt__ild_short(i + 1, size, reason);
        op = bytes[i++];
        x.map = 1;
        if (op == 0x38 || op == 0x3A) {
            x.map = op == 0x38 ? 2 : 3;
            if (i >= n) return tdec_ipt__ild_short(i + 1, size, reason);
            op = bytes[i++];
        } else if ((op & 0xF8) == 0x38) {
            return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_INSN); /* 0F 39, 0F 3B..3F */
        }
    }

    /* The rule: the map's, or the opcode's. */
    c = tdec_ipt__ild_map_rule[x.enc][x.map];
    if (c == '*') {
        static const uint8_t table[3][8] = {
            {TDEC_IPT__T_MAP0, TDEC_IPT__T_MAP1},
            {0, TDEC_IPT__T_VEX1},
            {0, TDEC_IPT__T_VEX1, 0, 0, TDEC_IPT__T_EVEX4}};
        c = tdec_ipt__ild_op_rule[table[x.enc][x.map]][op];
    }
    rule = tdec_ipt__ild_key[(unsigned char)c & 31u];
    if (rule == TDEC_IPT__ILD_INVALID) return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_INSN);
    if (x.enc == TDEC_IPT__ENC_EVEX) rule = (uint8_t)((rule & ~TDEC_IPT__ILD_MODRM_ANY) | TDEC_IPT__ILD_MODRM);

    /* ModRM, SIB, the ModRM's displacement. */
    if (rule & TDEC_IPT__ILD_MODRM_ANY) {
        if (i >= n) return tdec_ipt__ild_short(i + 1, size, reason);
        modrm = bytes[i++];
        if (rule & TDEC_IPT__ILD_MODRM) {
            int sib;
            disp = tdec_ipt__ild_modrm_disp(modrm, &x, mode, &sib);
            if (sib) {
                if (i >= n) return tdec_ipt__ild_short(i + 1, size, reason);
                if ((bytes[i] & 7) == 5 && modrm < 0x40) disp = 4;
                i++;
            }
        }
    }
    reg = (modrm >> 3) & 7u;

    /* What follows: immediates, or a branch's displacement or offset (the
       ModRM's displacement is in disp). */
    op_kind = TDEC_IPT__ILD_OP(rule);
    if (op_kind < TDEC_IPT__O_IMMZ) {
        tail = tdec_ipt__ild_fixed[op_kind];
    } else {
        unsigned z = tdec_ipt__ild_osize(&x, mode) == 2 ? 2u : 4u;
        switch (op_kind) {
        case TDEC_IPT__O_IMMZ: tail = z; break;
        case TDEC_IPT__O_IMMV: tail = tdec_ipt__ild_osize(&x, mode); break;
        case TDEC_IPT__O_RELZ: tail = mode == TDEC_IPT_MODE_64 ? 4u : z; break;
        case TDEC_IPT__O_FAR: tail = z + 2; break;
        case TDEC_IPT__O_MOFFS: tail = tdec_ipt__ild_asize(&x, mode); break;
        case TDEC_IPT__O_GRP_F6: tail = reg < 2 ? 1u : 0u; break;
        case TDEC_IPT__O_GRP_F7: tail = reg < 2 ? z : 0u; break;
        case TDEC_IPT__O_GRP_C7: tail = reg == 0 || (reg == 7 && disp == 0) ? z : 0u; break;
        default: tail = x.osz || x.last_f2f3 == 2 ? 2u : 0u; break; /* 0F 78 */
        }
    }
    len = i + disp + tail;
    if (len > n) return tdec_ipt__ild_short(len, size, reason);

    /* The class: only legacy maps 0 and 1 have any (upper case). */
    if ((c & 0xE0) == 0x40) kind = tdec_ipt__ild_kind(&x, mode, op, modrm);
    out->size = (uint8_t)len;
    out->iclass = tdec_ipt__insn_kinds[kind].iclass;
    out->kind = kind;
    out->flags = tdec_ipt__insn_kinds[kind].flags;
    out->reserved = 0;
    out->reserved2 = 0;
    out->disp = 0;
    if (out->flags & TDEC_IPT_INSNF_DIRECT) { /* no ModRM: the tail is the displacement */
        uint64_t v = tdec_ipt__rd_le(bytes + i, tail);
        unsigned bits = tail * 8;
        if (bits < 64 && (v >> (bits - 1)) & 1) v |= ~(uint64_t)0 << bits;
        out->disp = (int64_t)v;
    }
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

TDEC_IPT_DEF tdec_status tdec_ipt_insn_next_ip(const tdec_ipt_insn_info *insn, uint64_t ip,
                                               uint64_t *next, uint32_t *reason)
{
    if (insn == NULL || next == NULL) return tdec_ipt__result(reason, TDEC_IPT_ERR_INTERNAL);
    switch (insn->iclass) {
    case TDEC_IPT_IC_OTHER:
    case TDEC_IPT_IC_PTWRITE: break;
    case TDEC_IPT_IC_CALL:
    case TDEC_IPT_IC_JUMP:
        if (!(insn->flags & TDEC_IPT_INSNF_DIRECT) || insn->kind == TDEC_IPT_INSN_JMPABS)
            return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_QUERY);
        ip += (uint64_t)insn->disp;
        break;
    case TDEC_IPT_IC_UNKNOWN: return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_INSN);
    default: return tdec_ipt__result(reason, TDEC_IPT_ERR_BAD_QUERY);
    }
    *next = ip + insn->size;
    return tdec_ipt__result(reason, TDEC_IPT_ERR_OK);
}

#undef TDEC_IPT__ILD_MODRM
#undef TDEC_IPT__ILD_MODRM_REG
#undef TDEC_IPT__ILD_MODRM_ANY
#undef TDEC_IPT__ILD_OP
#undef TDEC_IPT__ILD_RULE
#undef TDEC_IPT__ILD_INVALID
#undef TDEC_IPT__FAR_PIP_VMCS

/* ---- layer 3: instruction flow ------------------------------------------- */

TDEC_IPT_DEF size_t tdec_ipt_image_read(void *image, uint64_t asid, uint64_t addr, uint8_t *buf,
                                        size_t size)
{
    const tdec_ipt_image *img = (const tdec_ipt_image *)image;
    size_t k, j, i, n;
    uint64_t at;
    if (!img || !buf) return 0;
    for (k = img->count; k > 0; k--) {
        const tdec_ipt_section *s = &img->sections[k - 1];
        if (s->asid != TDEC_IPT_ASID_ANY && s->asid != asid) continue;
        if (addr < s->vaddr || addr - s->vaddr >= s->size) continue;
        at = addr - s->vaddr;
        n = s->size - at < size ? (size_t)(s->size - at) : size;
        /* a later section starting inside the read hides the rest */
        for (j = k; j < img->count; j++) {
            const tdec_ipt_section *later = &img->sections[j];
            if (later->asid != TDEC_IPT_ASID_ANY && later->asid != asid) continue;
            if (later->size != 0 && later->vaddr > addr && later->vaddr - addr < n) n = (size_t)(later->vaddr - addr);
        }
        for (i = 0; i < n; i++) buf[i] = s->bytes[at + i];
        return n;
    }
    return 0;
}

/* Forgets the flow state of a segment (a new sync point). */
static void tdec_ipt__flow_forget(tdec_ipt_flow_decoder *f)
{
    f->enabled = 0;
    f->at_sync = 1;
    f->mode = TDEC_IPT_MODE_UNKNOWN;
    f->speculative = 0;
    f->post = 0;
    f->ret_top = 0;
    f->ret_n = 0;
    f->walked = 0;
    f->icnt = 0;
    f->ip = 0;
    f->resume_ip = 0;
    f->cr3 = 0;
    f->tick = 0;
    f->tick_tsc = 0;
    f->after_branch = 0;
    f->psb.at = UINT64_MAX;
}

/* An item with nothing set. */
static const tdec_ipt_event tdec_ipt__no_event = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

/* Starts out as an item of kind with every field 0 (field by field: a
   struct copy of the whole item costs a block decoder a fifth of its time). */
static void tdec_ipt__flow_item(tdec_ipt_flow_item *out, uint32_t kind)
{
    unsigned k;
    out->kind = kind;
    out->size = 0;
    out->iclass = 0;
    out->mode = 0;
    out->speculative = 0;
    out->ip = 0;
    out->end_ip = 0;
    out->ninsn = 0;
    out->reserved = 0;
    out->ev = tdec_ipt__no_event;
    for (k = 0; k < sizeof out->raw; k++) out->raw[k] = 0;
}

TDEC_IPT_DEF int tdec_ipt_filter_check(const tdec_ipt_addr_filter *filter, uint64_t ip)
{
    unsigned n, kind, filters = 0;
    int inside_filter = 0;
    for (n = 0; n < 4; n++) {
        kind = (filter->cfg >> (4u * n)) & 0xfu;
        if (kind != 1u && kind != 2u) continue;
        if (ip < filter->a[n] || ip > filter->b[n]) {
            filters += kind == 1u;
            continue;
        }
        if (kind == 2u) return 0;
        filters++;
        inside_filter = 1;
    }
    return filters == 0 || inside_filter;
}

static const tdec_ipt_addr_filter tdec_ipt__no_filter = {0, 0, {0, 0, 0, 0}, {0, 0, 0, 0}};

TDEC_IPT_DEF tdec_status tdec_ipt_flow_set_filter(tdec_ipt_flow_decoder *f, const tdec_ipt_addr_filter *filter)
{
    if (!f || !filter) return TDEC_E_ARG;
    f->filter = *filter;
    return TDEC_OK;
}

TDEC_IPT_DEF tdec_status tdec_ipt_flow_init(tdec_ipt_flow_decoder *f, const tdec_ipt_config *cfg,
                                            tdec_ipt_read_fn read, void *read_ctx, uint32_t walk_limit)
{
    tdec_status st;
    if (!f || !read) return TDEC_E_ARG;
    st = tdec_ipt_evt_init(&f->evt, cfg);
    if (st != TDEC_NEED_INPUT) return st;
    f->st.err = TDEC_OK;
    f->st.err_reason = 0;
    f->st.err_offset = 0;
    f->err_ip = 0;
    f->time = 0;
    f->synced = 0;
    f->nla = 0;
    f->end = 0;
    f->end_reason = 0;
    tdec_ipt__flow_forget(f);
    f->read = read;
    f->read_ctx = read_ctx;
    f->filter = tdec_ipt__no_filter;
    f->walk_limit = walk_limit ? walk_limit : TDEC_IPT_WALK_LIMIT;
    f->blk_n = 0;
    f->cur_n = 0;
    f->cache = NULL;
    f->cache_mask = 0;
    f->sync_pos = UINT64_MAX;
    return TDEC_NEED_INPUT;
}

TDEC_IPT_DEF tdec_status tdec_ipt_flow_feed(tdec_ipt_flow_decoder *f, const void *data, size_t len)
{
    if (!f) return TDEC_E_ARG;
    return tdec_ipt_evt_feed(&f->evt, data, len);
}

TDEC_IPT_DEF tdec_status tdec_ipt_flow_finish(tdec_ipt_flow_decoder *f)
{
    if (!f) return TDEC_E_ARG;
    return tdec_ipt_evt_finish(&f->evt);
}


TDEC_IPT_DEF tdec_status tdec_ipt_flow_resync(tdec_ipt_flow_decoder *f)
{
    if (!f) return TDEC_E_ARG;
    if (f->st.err == TDEC_OK) return TDEC_E_SEQUENCE;
    f->st.err = TDEC_OK;
    tdec_ipt__flow_forget(f);
    f->blk_n = 0;
    f->cur_n = 0;
    f->synced = 0;
    f->nla = 0;
    f->end = 0;
    return tdec_ipt_evt_sync_forward(&f->evt);
}

/* Reads events ahead until `want` are there (or the end): TDEC_OK or
   TDEC_NEED_INPUT. A sync point resets the segment state. */
static tdec_status tdec_ipt__flow_fetch(tdec_ipt_flow_decoder *f, unsigned want)
{
    tdec_ipt_evt_item item;
    tdec_status st;
    while (f->nla < want && f->end == 0) {
        st = tdec_ipt_evt_next(&f->evt, &item);
        if (st == TDEC_NEED_INPUT) return st;
        if (st != TDEC_OK) {
            f->end = st;
            f->end_reason = f->evt.st.err_reason;
            if (!f->synced) return TDEC_OK;
            continue;
        }
        if (item.kind == TDEC_IPT_ITEM_SYNC) {
            tdec_ipt__flow_forget(f);
            f->synced = 1;
            f->nla = 0;
            f->sync_pos = UINT64_MAX;
            continue;
        }
        if (f->sync_pos == UINT64_MAX) f->sync_pos = item.offset; /* the PSB+'s events share it */
        f->la[f->nla].ev = item.ev;
        f->la[f->nla].offset = item.offset;
        f->nla++;
    }
    return TDEC_OK;
}

static void tdec_ipt__flow_drop(tdec_ipt_flow_decoder *f)
{
    if (f->nla == 2) f->la[0] = f->la[1];
    f->nla--;
}

static tdec_status tdec_ipt__flow_fail_at(tdec_ipt_flow_decoder *f, tdec_status st, uint32_t reason,
                                          uint64_t offset, uint64_t ip)
{
    f->st.err = st;
    f->st.err_reason = reason;
    f->st.err_offset = offset;
    f->err_ip = ip;
    return st;
}

/* Fails at ip, at the offset libipt reports then (its pt_insn_get_offset:
   the event decoder's read position, tdec_ipt_evt_offset): the status st,
   or TDEC_NEED_INPUT (nothing changed) until that position is fed. */
static tdec_status tdec_ipt__flow_fail(tdec_ipt_flow_decoder *f, tdec_status st, uint32_t reason, uint64_t ip)
{
    uint64_t offset;
    if (tdec_ipt_evt_offset(&f->evt, &offset) != TDEC_OK) return TDEC_NEED_INPUT;
    return tdec_ipt__flow_fail_at(f, st, reason, offset, ip);
}

/* Decodes the instruction at ip (reading on into the next mapped piece when
   the first one ends inside it): TDEC_OK, or an error with its reason. */
static tdec_status tdec_ipt__flow_decode(const tdec_ipt_flow_decoder *f, uint64_t ip, uint8_t mode, uint8_t *raw,
                                         tdec_ipt_insn_info *insn, uint32_t *reason)
{
    size_t have = 0, got;
    tdec_status st;
    while (have < TDEC_IPT_INSN_MAX) {
        got = f->read(f->read_ctx, f->cr3, ip + have, raw + have, TDEC_IPT_INSN_MAX - have);
        if (got == 0 || got > TDEC_IPT_INSN_MAX - have) break;
        have += got;
        st = tdec_ipt_insn_decode(raw, have, mode, insn, reason);
        if (st != TDEC_NEED_INPUT) return st;
    }
    *reason = have == 0 ? TDEC_IPT_ERR_NOMAP : TDEC_IPT_ERR_BAD_INSN;
    return TDEC_E_CORRUPT;
}

static void tdec_ipt__flow_push(tdec_ipt_flow_decoder *f, uint64_t ret)
{
    f->ret[f->ret_top] = ret;
    f->ret_top = (uint8_t)((f->ret_top + 1u) % TDEC_IPT_RETSTACK);
    if (f->ret_n < TDEC_IPT_RETSTACK) f->ret_n++;
}

/* Where an event with an IP takes effect: 1 when it is placed at f->ip
   (tracing on, IP known), 0 when it is delivered at once. */
static int tdec_ipt__flow_at_ip(const tdec_ipt_flow_decoder *f, const tdec_ipt_event *ev)
{
    return f->enabled && !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED);
}

/* Where an event takes effect: 0 now; 1 when the next instruction is at
   *at; 2 after an instruction it binds to; 3 (TRIG) after aux instructions
   from the last IP the trace gave. */
static int tdec_ipt__flow_place(const tdec_ipt_flow_decoder *f, const tdec_ipt_event *ev, uint64_t *at)
{
    *at = ev->ip;
    switch (ev->type) {
    case TDEC_IPT_EV_ENABLED:
    case TDEC_IPT_EV_OVERFLOW:
    case TDEC_IPT_EV_STOP:
    case TDEC_IPT_EV_PWRE:
    case TDEC_IPT_EV_PWRX:
    case TDEC_IPT_EV_CBR:
    case TDEC_IPT_EV_MNT:
    case TDEC_IPT_EV_TICK:
    case TDEC_IPT_EV_RSM:
    case TDEC_IPT_EV_SIPI:
        return 0;
    case TDEC_IPT_EV_DISABLED: /* at its IP, or at the branch that left */
        if (!f->enabled || (ev->flags & TDEC_IPT_EVF_STATUS)) return 0;
        return !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) && ev->ip == f->ip ? 1 : 2;
    case TDEC_IPT_EV_ASYNC_DISABLED:
    case TDEC_IPT_EV_ASYNC_BRANCH:
        *at = ev->arg;
        return f->enabled ? 1 : 0;
    case TDEC_IPT_EV_PAGING:
    case TDEC_IPT_EV_VMCS:
        return f->enabled ? 2 : 0;
    case TDEC_IPT_EV_TRIG: /* at its FUP's IP, or icnt instructions after the */
                           /* last IP the trace gave (ip 0, not suppressed)  */
        if (!tdec_ipt__flow_at_ip(f, ev)) return 0;
        return ev->ip != 0 ? 1 : 3;
    case TDEC_IPT_EV_SWINTR: /* before the instruction at its IP */
    case TDEC_IPT_EV_SYSCALL:
        if (!f->enabled) return 0;
        return ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED ? 2 : 1;
    case TDEC_IPT_EV_PTWRITE:
    case TDEC_IPT_EV_IRET:
    case TDEC_IPT_EV_VMENTRY:
    case TDEC_IPT_EV_UIRET:
        return f->enabled ? 2 : 0;
    default:
        return tdec_ipt__flow_at_ip(f, ev) ? 1 : 0;
    }
}

/* Erratum SKL014: is insn at ip a direct call or jump whose target the
   recording's filter leaves untraced (so a suppressed disable binds to it)? */
static int tdec_ipt__flow_skl014(const tdec_ipt_flow_decoder *f, const tdec_ipt_insn_info *insn, uint64_t ip)
{
    if (!(f->evt.pkt.cfg.errata & TDEC_IPT_ERRATUM_SKL014) || f->filter.cfg == 0) return 0;
    if (insn->iclass != TDEC_IPT_IC_CALL && insn->iclass != TDEC_IPT_IC_JUMP) return 0;
    if (!(insn->flags & TDEC_IPT_INSNF_DIRECT)) return 0;
    return !tdec_ipt_filter_check(&f->filter, ip + insn->size + (uint64_t)insn->disp);
}

/* Does ev bind to insn at ip (reported after it)? */
static int tdec_ipt__flow_binds(const tdec_ipt_flow_decoder *f, const tdec_ipt_event *ev,
                                const tdec_ipt_insn_info *insn, uint64_t ip)
{
    int at = !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) && ev->ip == ip;
    switch (ev->type) {
    case TDEC_IPT_EV_DISABLED:
        return insn->kind == TDEC_IPT_INSN_MOV_CR3 ||
               ((ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) && tdec_ipt__flow_skl014(f, insn, ip)) ||
               (insn->iclass != TDEC_IPT_IC_OTHER && insn->iclass != TDEC_IPT_IC_PTWRITE &&
                tdec_ipt_insn_next_ip(insn, ip, &ip, NULL) != TDEC_OK) ||
               (insn->flags & TDEC_IPT_INSNF_CPL) != 0;
    case TDEC_IPT_EV_PAGING:
        return (insn->flags & TDEC_IPT_INSNF_PIP) != 0;
    case TDEC_IPT_EV_VMCS:
        return (insn->flags & TDEC_IPT_INSNF_VMCS) != 0;
    case TDEC_IPT_EV_PTWRITE:
        return (ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) ? insn->iclass == TDEC_IPT_IC_PTWRITE : at;
    case TDEC_IPT_EV_IRET:
        return at || (insn->flags & TDEC_IPT_INSNF_IRET);
    case TDEC_IPT_EV_VMENTRY:
        return at || (insn->flags & TDEC_IPT_INSNF_VMENTRY);
    case TDEC_IPT_EV_UIRET:
        return at || (insn->flags & TDEC_IPT_INSNF_UIRET);
    case TDEC_IPT_EV_SWINTR:
        return at || (insn->flags & TDEC_IPT_INSNF_SWINT);
    case TDEC_IPT_EV_SYSCALL:
        return at || (insn->flags & TDEC_IPT_INSNF_SYSCALL);
    default:
        return 0;
    }
}

/* Erratum SKD022: an async disable at a VMLAUNCH or VMRESUME may have a
   bogus FUP; libipt then takes it for a synchronous disable with the same
   IP (pt_blk_handle_erratum_skd022). Returns 1 when ev was turned into one. */
static int tdec_ipt__flow_skd022(tdec_ipt_flow_decoder *f, tdec_ipt_event *ev)
{
    tdec_ipt_insn_info insn;
    uint8_t raw[TDEC_IPT_INSN_MAX];
    uint32_t reason;
    if (ev->type != TDEC_IPT_EV_ASYNC_DISABLED || !(f->evt.pkt.cfg.errata & TDEC_IPT_ERRATUM_SKD022)) return 0;
    if (tdec_ipt__flow_decode(f, ev->arg, f->mode, raw, &insn, &reason) != TDEC_OK || !(insn.flags & TDEC_IPT_INSNF_VMENTRY))
        return 0;
    ev->type = TDEC_IPT_EV_DISABLED;
    return 1;
}

/* Delivers la[0] (its effect on the state) into out. */
static tdec_status tdec_ipt__flow_event(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out)
{
    tdec_ipt_event *ev = &f->la[0].ev;
    int known = !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED);
    switch (ev->type) {
    case TDEC_IPT_EV_ENABLED:
        if (f->enabled)
            return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_CONTEXT, f->ip);
        if (f->resume_ip == ev->ip && f->resume_ip != 0) ev->flags |= TDEC_IPT_EVF_RESUMED;
        f->enabled = 1;
        f->ip = ev->ip;
        f->icnt = 0;
        break;
    case TDEC_IPT_EV_DISABLED:
        /* Where tracing is expected to resume (libipt's
           pt_blk_set_disable_resume_ip): bound to a branch that needed
           trace, after it if it is a call, else unknown, whether the
           disable has an IP or not; reached at its IP, there. */
        f->resume_ip = known ? ev->ip : 0;
        if (f->post)
            f->resume_ip = f->post_insn.iclass == TDEC_IPT_IC_CALL || f->post_insn.iclass == TDEC_IPT_IC_FAR_CALL
                               ? f->post_ip + f->post_insn.size
                               : 0;
        f->enabled = 0;
        f->post = 0;
        break;
    case TDEC_IPT_EV_ASYNC_DISABLED:
        f->resume_ip = ev->arg;
        f->enabled = 0;
        break;
    case TDEC_IPT_EV_ASYNC_BRANCH:
        f->ip = ev->ip;
        f->icnt = 0;
        break;
    case TDEC_IPT_EV_PAGING:
    case TDEC_IPT_EV_ASYNC_PAGING:
        f->cr3 = ev->arg;
        break;
    case TDEC_IPT_EV_OVERFLOW:
        f->enabled = (uint8_t)known;
        f->ip = ev->ip;
        f->icnt = 0;
        f->speculative = 0;
        f->post = 0;
        break;
    case TDEC_IPT_EV_EXEC_MODE:
        f->mode = ev->a;
        break;
    case TDEC_IPT_EV_TSX:
        f->speculative = (uint8_t)((ev->flags & TDEC_IPT_EVF_SPECULATIVE) != 0);
        break;
    case TDEC_IPT_EV_SWINTR:
    case TDEC_IPT_EV_SYSCALL:
        /* the instruction stays: a TIP or an async branch moves on */
        if (f->post) f->ip = f->post_ip;
        f->post = 0;
        break;
    default:
        break;
    }
    if (ev->flags & TDEC_IPT_EVF_HAS_TSC) f->tick_tsc = ev->tsc;
    f->time = ev->tsc;
    f->after_branch = 0;
    tdec_ipt__flow_item(out, TDEC_IPT_FLOW_EVENT);
    out->ev = *ev;
    f->walked = 0;
    tdec_ipt__flow_drop(f);
    return TDEC_OK;
}

/* libipt's start (pt_blk_start): the first enabled of the sync point's
   PSB+ (la[0]) turns tracing on at its IP. */
static void tdec_ipt__flow_start(tdec_ipt_flow_decoder *f)
{
    const tdec_ipt_event *ev = &f->la[0].ev;
    if (!f->at_sync || f->enabled || ev->type != TDEC_IPT_EV_ENABLED || !(ev->flags & TDEC_IPT_EVF_STATUS)) return;
    f->enabled = 1;
    f->ip = ev->ip;
    f->icnt = 0;
}

/* A PSB+ status event, in its place (libipt places them as the events they
   stand for; nobody is told): the first enabled of the sync point's PSB+
   sets the state (tdec_ipt__flow_start), the rest are checks. The state
   they set is noted in f->psb for a resync there. */
static tdec_status tdec_ipt__flow_status(tdec_ipt_flow_decoder *f)
{
    const tdec_ipt_event *ev = &f->la[0].ev;
    int bad = 0;
    f->time = ev->tsc;
    tdec_ipt__flow_start(f);
    switch (ev->type) {
    case TDEC_IPT_EV_ENABLED: bad = !f->enabled; break;
    case TDEC_IPT_EV_DISABLED: bad = f->enabled; break;
    case TDEC_IPT_EV_EXEC_MODE: bad = f->enabled && f->mode != TDEC_IPT_MODE_UNKNOWN && f->mode != ev->a; break;
    default: break;
    }
    if (bad) return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_STATUS_UPDATE, f->ip);
    switch (ev->type) {
    case TDEC_IPT_EV_EXEC_MODE: f->mode = ev->a; break;
    case TDEC_IPT_EV_ASYNC_PAGING: f->cr3 = ev->arg; break;
    case TDEC_IPT_EV_TSX: f->speculative = (uint8_t)((ev->flags & TDEC_IPT_EVF_SPECULATIVE) != 0); break;
    default: break;
    }
    if (f->psb.at != f->la[0].offset) { /* the first of a PSB+ */
        f->psb.at = f->la[0].offset;
        f->psb.enabled = (uint8_t)(ev->type == TDEC_IPT_EV_ENABLED);
        f->psb.ip = f->psb.enabled ? ev->ip : 0;
        f->psb.mode = TDEC_IPT_MODE_UNKNOWN;
        f->psb.cr3 = 0;
        f->psb.speculative = 0;
    }
    if (ev->type == TDEC_IPT_EV_EXEC_MODE) f->psb.mode = f->mode;
    if (ev->type == TDEC_IPT_EV_ASYNC_PAGING) f->psb.cr3 = f->cr3;
    if (ev->type == TDEC_IPT_EV_TSX) f->psb.speculative = f->speculative;
    if (ev->flags & TDEC_IPT_EVF_HAS_TSC) f->tick_tsc = ev->tsc;
    f->after_branch = 0;
    f->walked = 0;
    tdec_ipt__flow_drop(f);
    return TDEC_OK;
}

/* Takes one TNT bit from la[0]: 1 taken, 0 not taken, -1 none there. */
static int tdec_ipt__flow_tnt(tdec_ipt_flow_decoder *f, int peek)
{
    tdec_ipt_event *ev = &f->la[0].ev;
    int taken;
    if (f->nla == 0 || ev->type != TDEC_IPT_EV_TNT || ev->a == 0) return -1;
    taken = (int)((ev->arg >> (ev->a - 1u)) & 1u);
    if (peek) return taken;
    ev->a--;
    if (ev->a == 0) tdec_ipt__flow_drop(f);
    return taken;
}

static int tdec_ipt__flow_is_branch(const tdec_ipt_insn_info *insn)
{
    return insn->iclass >= TDEC_IPT_IC_CALL && insn->iclass <= TDEC_IPT_IC_FAR_JUMP;
}

#define TDEC_IPT__BDM64_STEPS 256u /* libipt's bdm64_max_steps */

/* Does straight-line code (direct jumps and calls followed) lead from ip
   to end within TDEC_IPT__BDM64_STEPS instructions? */
static int tdec_ipt__flow_reaches(tdec_ipt_flow_decoder *f, uint64_t ip, uint64_t end)
{
    tdec_ipt_insn_info insn;
    uint8_t raw[TDEC_IPT_INSN_MAX];
    uint32_t reason, k;
    for (k = 0; k < TDEC_IPT__BDM64_STEPS; k++) {
        if (ip == end) return 1;
        if (tdec_ipt__flow_decode(f, ip, f->mode, raw, &insn, &reason) != TDEC_OK ||
            tdec_ipt_insn_next_ip(&insn, ip, &ip, NULL) != TDEC_OK)
            return 0;
    }
    return 0;
}

/* Erratum BDM64: a TSX abort right after a branch may have corrupted that
   branch's trace. When the abort's IP cannot be reached from f->ip, libipt
   assumes so and goes on at the abort's IP. Only for the event right after
   the branch instruction. */
static void tdec_ipt__flow_bdm64(tdec_ipt_flow_decoder *f, const tdec_ipt_event *ev)
{
    int check = f->after_branch && ev->type == TDEC_IPT_EV_TSX && (ev->flags & TDEC_IPT_EVF_ABORTED) &&
                !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED) && (f->evt.pkt.cfg.errata & TDEC_IPT_ERRATUM_BDM64);
    f->after_branch = 0;
    if (check && !tdec_ipt__flow_reaches(f, f->ip, ev->ip)) f->ip = ev->ip;
}

/* ev (a TNT or TIP) gave a branch: with ticks on, a TICK at ip is due when
   ev's time differs from the last reported (tdec_ipt__flow_ticks; libipt's
   IP: a TIP's branch, a TNT's successor). */
static int tdec_ipt__flow_ticks(const tdec_ipt_flow_decoder *f, const tdec_ipt_event *ev)
{
    return (f->evt.pkt.cfg.flags & TDEC_IPT_F_TICKS) && (ev->flags & TDEC_IPT_EVF_HAS_TSC) && ev->tsc != f->tick_tsc;
}

static void tdec_ipt__flow_note_tick(tdec_ipt_flow_decoder *f, const tdec_ipt_event *ev, uint64_t ip)
{
    if (!tdec_ipt__flow_ticks(f, ev)) return;
    f->tick = 1;
    f->tick_tsc = ev->tsc;
    f->tick_ip = ip;
}

/* The successor of insn at ip, an instruction that needs trace: TDEC_OK
   (*next set, trace used; *tip 1 when a TIP gave it), TDEC_NEED_INPUT
   (nothing changed) or an error, at insn for a query error, else at the
   instruction after it (ptxed's IPs: the error follows insn, which ran). */
static tdec_status tdec_ipt__flow_resolve_trace(tdec_ipt_flow_decoder *f, const tdec_ipt_insn_info *insn,
                                                uint64_t ip, uint64_t *next, int *tip)
{
    uint64_t after = ip + insn->size, before;
    unsigned tip_at;
    int taken, last;
    tdec_status st;
    *tip = 0;
    if (insn->iclass == TDEC_IPT_IC_COND_JUMP || (insn->iclass == TDEC_IPT_IC_RETURN && tdec_ipt__flow_tnt(f, 1) >= 0)) {
        taken = tdec_ipt__flow_tnt(f, 1);
        if (taken < 0)
            return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_QUERY, ip);
        if (insn->iclass == TDEC_IPT_IC_RETURN && !taken)
            return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_RETCOMP, after);
        if (insn->iclass == TDEC_IPT_IC_RETURN && f->ret_n == 0)
            return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_RETSTACK_EMPTY, after);
        /* with ticks on, libipt reads the event after a TNT's last bit at
           once unless that bit ticks (and ticks when it is a TNT with a
           new time) */
        last = f->la[0].ev.a == 1;
        if (last && (f->evt.pkt.cfg.flags & TDEC_IPT_F_TICKS) && !tdec_ipt__flow_ticks(f, &f->la[0].ev) &&
            (st = tdec_ipt__flow_fetch(f, 2)) != TDEC_OK)
            return st;
        if (insn->iclass == TDEC_IPT_IC_RETURN) {
            f->ret_top = (uint8_t)((f->ret_top + TDEC_IPT_RETSTACK - 1u) % TDEC_IPT_RETSTACK);
            f->ret_n--;
            *next = f->ret[f->ret_top];
        } else {
            *next = taken ? after + (uint64_t)insn->disp : after;
        }
        tdec_ipt__flow_note_tick(f, &f->la[0].ev, *next);
        (void)tdec_ipt__flow_tnt(f, 0);
        if (last && !f->tick && f->nla && f->la[0].ev.type == TDEC_IPT_EV_TNT)
            tdec_ipt__flow_note_tick(f, &f->la[0].ev, *next);
        return TDEC_OK;
    }
    /* a TIP: the current event, or one after a TNT with bits left (the
       deferred TIP: libipt reads one event on, and goes back when it is
       no TIP; an error is where the TNT left the event decoder) */
    tip_at = 0;
    if (f->nla && f->la[0].ev.type == TDEC_IPT_EV_TNT) {
        if (tdec_ipt_evt_offset(&f->evt, &before) != TDEC_OK) return TDEC_NEED_INPUT;
        st = tdec_ipt__flow_fetch(f, 2);
        if (st != TDEC_OK) return st;
        if (f->nla < 2 || f->la[1].ev.type != TDEC_IPT_EV_TIP)
            return tdec_ipt__flow_fail_at(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_QUERY, before, ip);
        if (f->la[1].ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED)
            return tdec_ipt__flow_fail_at(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_PACKET, before, after);
        tip_at = 1;
    } else if (f->nla == 0 || f->la[0].ev.type != TDEC_IPT_EV_TIP) {
        return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_QUERY, ip);
    } else if (f->la[0].ev.flags & TDEC_IPT_EVF_IP_SUPPRESSED) {
        return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_PACKET, after);
    }
    *next = f->la[tip_at].ev.ip;
    *tip = 1;
    if (!tip_at) tdec_ipt__flow_note_tick(f, &f->la[0].ev, ip); /* libipt: none for a deferred TIP */
    if (insn->iclass == TDEC_IPT_IC_CALL) tdec_ipt__flow_push(f, after);
    if (tip_at) f->nla = 1;
    else tdec_ipt__flow_drop(f);
    return TDEC_OK;
}

/* The successor of insn at ip, with trace where it needs it (a near call
   pushes its return address): as tdec_ipt__flow_resolve_trace. */
static tdec_status tdec_ipt__flow_resolve(tdec_ipt_flow_decoder *f, const tdec_ipt_insn_info *insn,
                                          uint64_t ip, uint64_t *next, int *tip)
{
    *tip = 0;
    if (tdec_ipt_insn_next_ip(insn, ip, next, NULL) == TDEC_OK) {
        if (insn->iclass == TDEC_IPT_IC_CALL && insn->disp != 0) tdec_ipt__flow_push(f, ip + insn->size);
        return TDEC_OK;
    }
    return tdec_ipt__flow_resolve_trace(f, insn, ip, next, tip);
}

static void tdec_ipt__flow_insn(const tdec_ipt_flow_decoder *f, const tdec_ipt_insn_info *insn,
                                const uint8_t *raw, uint64_t ip, tdec_ipt_flow_item *out)
{
    unsigned k;
    tdec_ipt__flow_item(out, TDEC_IPT_FLOW_INSN);
    out->ip = ip;
    out->end_ip = ip;
    out->ninsn = 1;
    out->size = insn->size;
    out->iclass = insn->iclass;
    out->mode = f->mode;
    out->speculative = f->speculative;
    for (k = 0; k < insn->size; k++) out->raw[k] = raw[k];
}

/* One step with tracing on and la[0] not an event due now: the instruction
   at f->ip. */
static tdec_status tdec_ipt__flow_step(tdec_ipt_flow_decoder *f, int where, tdec_ipt_flow_item *out)
{
    tdec_ipt_insn_info insn;
    uint8_t raw[TDEC_IPT_INSN_MAX];
    uint32_t reason = 0;
    uint64_t next;
    tdec_status st;
    int tip, trace = f->nla && (f->la[0].ev.type == TDEC_IPT_EV_TNT || f->la[0].ev.type == TDEC_IPT_EV_TIP);
    st = tdec_ipt__flow_decode(f, f->ip, f->mode, raw, &insn, &reason);
    if (st != TDEC_OK) {
        /* walking to an instruction an event binds to, libipt has read on
           past that event: the error is where the event after it left the
           event decoder */
        if (where == 2 && tdec_ipt__flow_fetch(f, 2) == TDEC_NEED_INPUT) return TDEC_NEED_INPUT;
        return tdec_ipt__flow_fail(f, st, reason, f->ip);
    }
    if (where == 2 && tdec_ipt__flow_binds(f, &f->la[0].ev, &insn, f->ip)) {
        f->post = 1;
        f->post_bound = 0;
        f->post_ip = f->ip;
        f->post_insn = insn;
        f->icnt++;
        tdec_ipt__flow_insn(f, &insn, raw, f->ip, out);
        return TDEC_OK;
    }
    if (tdec_ipt_insn_next_ip(&insn, f->ip, &next, NULL) == TDEC_OK) {
        if (f->walked >= f->walk_limit)
            return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_WALK_LIMIT, f->ip);
        f->walked++;
        st = tdec_ipt__flow_resolve(f, &insn, f->ip, &next, &tip); /* a call's push */
    } else {
        st = trace ? tdec_ipt__flow_resolve(f, &insn, f->ip, &next, &tip)
                   : tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_BAD_QUERY, f->ip);
        if (st == TDEC_NEED_INPUT) return st;
        f->walked = 0;
    }
    /* the instruction ran even when going on from it failed: libipt has
       added it to the block, the error comes at the next call */
    tdec_ipt__flow_insn(f, &insn, raw, f->ip, out);
    if (st != TDEC_OK) return TDEC_OK;
    f->icnt = tip ? 0 : f->icnt + 1; /* a TIP's target is the new anchor */
    f->ip = next;
    f->after_branch = (uint8_t)tdec_ipt__flow_is_branch(&insn);
    return TDEC_OK;
}

/* tdec_ipt__flow_advance's answer, with hold set, when an event is due now:
   nothing changed, the event is still to come. */
#define TDEC_IPT__EVENT_DUE ((tdec_status)3)

/* The instruction an event bound to (f->post), la[0] fetched:
   TDEC_IPT__EVENT_DUE when la[0] binds to it too, else its successor is
   taken (TDEC_OK), or TDEC_NEED_INPUT, or an error. */
static tdec_status tdec_ipt__flow_post(tdec_ipt_flow_decoder *f)
{
    const tdec_ipt_event *ev = &f->la[0].ev;
    uint64_t at, next;
    int tip;
    tdec_status st;
    if (tdec_ipt__flow_place(f, ev, &at) == 2 && !(f->post_bound >> ev->type & 1u) &&
        tdec_ipt__flow_binds(f, ev, &f->post_insn, f->post_ip))
        return TDEC_IPT__EVENT_DUE;
    st = tdec_ipt__flow_resolve(f, &f->post_insn, f->post_ip, &next, &tip);
    if (st != TDEC_OK) return st;
    if (tip) f->icnt = 0;
    f->post = 0;
    f->ip = next;
    f->after_branch = (uint8_t)tdec_ipt__flow_is_branch(&f->post_insn);
    return TDEC_OK;
}

/* The next instruction or event; with hold, an event that is due is left
   where it is (TDEC_IPT__EVENT_DUE): the block decoder ends its block. */
static tdec_status tdec_ipt__flow_advance(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out, int hold)
{
    const tdec_ipt_event *ev;
    uint64_t at;
    int where;
    tdec_status st;
    if (f->st.err != TDEC_OK) return f->st.err;
    if (f->tick) {
        if (hold) return TDEC_IPT__EVENT_DUE;
        f->tick = 0;
        tdec_ipt__flow_item(out, TDEC_IPT_FLOW_EVENT);
        out->ev.type = TDEC_IPT_EV_TICK;
        out->ev.ip = f->tick_ip;
        out->ev.tsc = f->time = f->tick_tsc;
        out->ev.flags = TDEC_IPT_EVF_HAS_TSC;
        return TDEC_OK;
    }
    for (;;) {
        st = tdec_ipt__flow_fetch(f, 1);
        if (st != TDEC_OK) return st;
        if (f->nla == 0) {
            if (f->end == TDEC_END) return TDEC_END;
            return tdec_ipt__flow_fail(f, (tdec_status)f->end, f->end_reason, f->at_sync ? 0 : f->ip);
        }
        ev = &f->la[0].ev;
        if (f->la[0].offset != f->sync_pos) f->at_sync = 0; /* past the sync point's PSB+ */
        if (f->post) {
            st = tdec_ipt__flow_post(f);
            if (st == TDEC_IPT__EVENT_DUE && !hold) {
                f->post_bound |= (uint64_t)1u << ev->type;
                return tdec_ipt__flow_event(f, out);
            }
            if (st != TDEC_OK) return st;
            continue;
        }
        if (ev->type == TDEC_IPT_EV_TNT || ev->type == TDEC_IPT_EV_TIP) {
            if (!f->enabled)
                return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_NO_ENABLE, f->ip);
            return tdec_ipt__flow_step(f, 0, out);
        }
        if (f->enabled && !(ev->flags & TDEC_IPT_EVF_STATUS)) tdec_ipt__flow_bdm64(f, ev);
        /* a status enabled or disabled is a check, in place at once */
        where = (ev->flags & TDEC_IPT_EVF_STATUS) && ev->type == TDEC_IPT_EV_DISABLED ? 0 : tdec_ipt__flow_place(f, ev, &at);
        if (where == 1 && at == f->ip && tdec_ipt__flow_skd022(f, &f->la[0].ev)) continue;
        if (hold && (where == 0 || (where == 1 && at == f->ip) || (where == 3 && f->icnt == ev->aux)))
            return TDEC_IPT__EVENT_DUE;
        if ((ev->flags & TDEC_IPT_EVF_STATUS) && (where == 0 || (where == 1 && at == f->ip))) {
            st = tdec_ipt__flow_status(f);
            if (st != TDEC_OK) return st;
            continue;
        }
        if (where == 0) return tdec_ipt__flow_event(f, out);
        if (where == 1 && at == f->ip) {
            f->icnt = 0; /* an event's IP is an anchor for TRIG too */
            return tdec_ipt__flow_event(f, out);
        }
        if (where == 3 && f->icnt == ev->aux) {
            f->la[0].ev.ip = f->ip; /* where the count ended */
            f->icnt = 0;
            return tdec_ipt__flow_event(f, out);
        }
        return tdec_ipt__flow_step(f, where, out);
    }
}

TDEC_IPT_DEF tdec_status tdec_ipt_flow_offset(tdec_ipt_flow_decoder *f, uint64_t *offset)
{
    const tdec_ipt_event *ev;
    uint64_t at;
    tdec_status st;
    int where;
    if (!f || !offset) return TDEC_E_ARG;
    /* libipt holds the next event, what is due before the next instruction
       done: PSB+ status events (a caller of libipt's drains them first),
       the successor of an instruction an event bound to. With a block
       open, a tick (libipt's rewritten TNT or TIP) or an error pending, the
       next call takes things as they are. */
    while (f->st.err == TDEC_OK && f->blk_n == 0 && !f->tick) {
        st = tdec_ipt__flow_fetch(f, 1);
        if (st != TDEC_OK) return st;
        if (f->nla == 0) break;
        ev = &f->la[0].ev;
        if (f->post) {
            st = tdec_ipt__flow_post(f);
            if (st == TDEC_NEED_INPUT) return st;
            if (st != TDEC_OK) break; /* an event due, or an error the next call reports */
            continue;
        }
        if (!(ev->flags & TDEC_IPT_EVF_STATUS)) break;
        where = ev->type == TDEC_IPT_EV_DISABLED ? 0 : tdec_ipt__flow_place(f, ev, &at);
        if (where != 0 && (where != 1 || at != f->ip)) break;
        if (f->la[0].offset != f->sync_pos) f->at_sync = 0;
        if (tdec_ipt__flow_status(f) != TDEC_OK) break; /* the next call reports it */
    }
    return tdec_ipt_evt_offset(&f->evt, offset);
}

/* Starts decoding again from the PSB+ whose status event la[0] is, with
   the state its status events before la[0] set (libipt's sync_set there). */
static void tdec_ipt__flow_resync_psb(tdec_ipt_flow_decoder *f)
{
    tdec_ipt__flow_psb psb = f->psb;
    tdec_ipt__flow_forget(f);
    f->sync_pos = f->la[0].offset;
    if (psb.at == f->la[0].offset) {
        f->psb = psb;
        f->enabled = psb.enabled;
        f->ip = psb.ip;
        f->mode = psb.mode;
        f->cr3 = psb.cr3;
        f->speculative = psb.speculative;
    }
    tdec_ipt__flow_start(f);
}

TDEC_IPT_DEF tdec_status tdec_ipt_flow_resync_event(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out)
{
    tdec_ipt_event *ev;
    tdec_status st;
    int known, here;
    if (!f || !out) return TDEC_E_ARG;
    if (f->st.err == TDEC_OK) return TDEC_E_SEQUENCE;
    tdec_ipt__flow_item(out, 0);
    f->post = 0;
    f->blk_n = 0;
    f->cur_n = 0;
    for (;;) {
        st = tdec_ipt__flow_fetch(f, 1);
        if (st != TDEC_OK) return st;
        if (f->nla == 0)
            return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, f->end == TDEC_END ? (uint32_t)TDEC_IPT_ERR_EOS : f->end_reason,
                                       f->err_ip);
        ev = &f->la[0].ev;
        known = !(ev->flags & TDEC_IPT_EVF_IP_SUPPRESSED);
        here = 1;
        if (ev->flags & TDEC_IPT_EVF_STATUS) {
            tdec_ipt__flow_resync_psb(f);
        } else {
            switch (ev->type) {
            case TDEC_IPT_EV_ENABLED:
                f->resume_ip = f->ip;
                f->enabled = 0;
                break;
            case TDEC_IPT_EV_DISABLED: /* used up */
                f->enabled = 0;
                f->ip = f->resume_ip = 0;
                f->icnt = 0;
                tdec_ipt__flow_drop(f);
                break;
            case TDEC_IPT_EV_ASYNC_DISABLED:
                if (tdec_ipt__flow_skd022(f, ev)) here = 0; /* libipt drops the disable it made */
                else f->ip = ev->arg;
                break;
            case TDEC_IPT_EV_ASYNC_BRANCH: f->ip = ev->arg; break;
            case TDEC_IPT_EV_OVERFLOW: break;
            case TDEC_IPT_EV_EXEC_MODE:
            case TDEC_IPT_EV_TSX:
            case TDEC_IPT_EV_IFLAGS:
            case TDEC_IPT_EV_INTERRUPT:
                f->enabled = (uint8_t)known;
                if (known) f->ip = ev->ip;
                break;
            case TDEC_IPT_EV_TIP: /* used up */
                f->ip = ev->ip;
                tdec_ipt__flow_drop(f);
                break;
            case TDEC_IPT_EV_PTWRITE:
                if (!known) return tdec_ipt__flow_event(f, out);
                f->ip = ev->ip;
                break;
            case TDEC_IPT_EV_ASYNC_PAGING:
            case TDEC_IPT_EV_PAGING:
                here = known && ev->type == TDEC_IPT_EV_ASYNC_PAGING;
                if (here) f->ip = ev->ip;
                else f->cr3 = ev->arg;
                break;
            case TDEC_IPT_EV_ASYNC_VMCS:
            case TDEC_IPT_EV_EXSTOP:
            case TDEC_IPT_EV_MWAIT:
            case TDEC_IPT_EV_TICK:
            case TDEC_IPT_EV_IRET:
            case TDEC_IPT_EV_SMI:
            case TDEC_IPT_EV_RSM:
            case TDEC_IPT_EV_INIT:
            case TDEC_IPT_EV_VMENTRY:
            case TDEC_IPT_EV_VMEXIT:
            case TDEC_IPT_EV_SHUTDOWN:
            case TDEC_IPT_EV_UINTR:
            case TDEC_IPT_EV_UIRET:
            case TDEC_IPT_EV_SWINTR:
            case TDEC_IPT_EV_SYSCALL:
                here = known;
                if (known) f->ip = ev->ip;
                break;
            default: /* no IP: STOP, VMCS, PWRE, PWRX, CBR, MNT, TNT, SIPI, TRIG */
                here = 0;
                break;
            }
        }
        if (here) break;
        tdec_ipt__flow_drop(f);
    }
    f->st.err = TDEC_OK;
    f->walked = 0;
    f->after_branch = 0;
    return TDEC_OK;
}

/* ---- layer 3: blocks and the cache of straight-line runs ------------------ */

#define TDEC_IPT__BLOCK_MAX 0xffffu /* instructions in a block (libipt: 16 bits) */
#define TDEC_IPT__RUN_MAX   1024u   /* instructions a cache entry walks at most  */
#define TDEC_IPT__BLOCK_SLOW ((tdec_status)4) /* block_run: take one step the slow way */
#define TDEC_IPT__RUN       1u      /* a cache entry remembers a run            */
#define TDEC_IPT__INSN      2u      /* ... a decoded instruction                */

TDEC_IPT_DEF tdec_status tdec_ipt_flow_set_cache(tdec_ipt_flow_decoder *f, void *mem, size_t size)
{
    size_t n = size / sizeof(tdec_ipt__cached), entries = 1;
    if (!f || (mem && ((uintptr_t)mem & 7u) != 0)) return TDEC_E_ARG;
    f->cache = NULL;
    f->cache_mask = 0;
    if (!mem || n == 0) return TDEC_OK;
    while (entries <= n / 2 && entries < ((size_t)1 << 30)) entries *= 2;
    f->cache = (tdec_ipt__cached *)mem;
    f->cache_mask = (uint32_t)(entries - 1);
    return TDEC_OK;
}

TDEC_IPT_DEF void tdec_ipt_flow_cache_invalidate(tdec_ipt_flow_decoder *f)
{
    uint32_t k;
    if (!f || !f->cache) return;
    for (k = 0; k <= f->cache_mask; k++) f->cache[k].what = 0;
}

/* Walks from f->ip without trace (direct jumps followed) to the first
   instruction that needs trace, is a near call (its return address is
   pushed) or is the max-th, and remembers the run in *r. 0 when the first
   instruction cannot be read (the slow way reports it); a run stops before
   any later one that cannot. */
static int tdec_ipt__run_fill(const tdec_ipt_flow_decoder *f, tdec_ipt__cached *r, uint32_t max)
{
    tdec_ipt_insn_info insn, prev;
    uint8_t raw[TDEC_IPT_INSN_MAX];
    uint64_t ip = f->ip, prev_ip = 0, next;
    uint32_t n, reason;
    for (n = 0;; n++) {
        if (tdec_ipt__flow_decode(f, ip, f->mode, raw, &insn, &reason) != TDEC_OK) {
            if (n == 0) return 0;
            r->trace = 0;
            r->insn = prev;
            r->stop_ip = prev_ip;
            r->ninsn = n - 1;
            break;
        }
        r->trace = tdec_ipt_insn_next_ip(&insn, ip, &next, NULL) != TDEC_OK;
        if (n + 1 == max || insn.iclass == TDEC_IPT_IC_CALL || r->trace) {
            r->insn = insn;
            r->stop_ip = ip;
            r->ninsn = n;
            break;
        }
        prev = insn;
        prev_ip = ip;
        ip = next;
    }
    r->ip = f->ip;
    r->asid = f->cr3;
    r->mode = f->mode;
    r->what = TDEC_IPT__RUN;
    return 1;
}

/* The cache entry for what (TDEC_IPT__RUN, _INSN) at ip in f's address
   space and mode; *hit: it holds that already. */
static tdec_ipt__cached *tdec_ipt__cache_slot(const tdec_ipt_flow_decoder *f, uint64_t ip, uint8_t mode,
                                              uint8_t what, int *hit)
{
    uint64_t h = (ip ^ (f->cr3 * 0x9e3779b97f4a7c15u) ^ ((uint64_t)what << 8 | mode)) * 0xff51afd7ed558ccdu;
    tdec_ipt__cached *c = &f->cache[(uint32_t)(h >> 32) & f->cache_mask];
    *hit = c->ip == ip && c->mode == mode && c->what == what && c->asid == f->cr3;
    return c;
}

/* The remembered run from f->ip, or NULL. One not there is filled now, with
   at most max instructions: no more than the block and walk limit can take,
   so that a fill is never thrown away instruction after instruction. */
static const tdec_ipt__cached *tdec_ipt__run_get(const tdec_ipt_flow_decoder *f, uint32_t max)
{
    int hit;
    tdec_ipt__cached *r = tdec_ipt__cache_slot(f, f->ip, f->mode, TDEC_IPT__RUN, &hit);
    if (hit) return r;
    return tdec_ipt__run_fill(f, r, max) ? r : NULL;
}

/* tdec_ipt__flow_decode through the cache, when there is one. */
static tdec_status tdec_ipt__flow_decode_cached(const tdec_ipt_flow_decoder *f, uint64_t ip, uint8_t mode,
                                                uint8_t *raw, tdec_ipt_insn_info *insn, uint32_t *reason)
{
    tdec_ipt__cached *c;
    tdec_status st;
    unsigned k;
    int hit;
    if (!f->cache || mode == TDEC_IPT_MODE_UNKNOWN) return tdec_ipt__flow_decode(f, ip, mode, raw, insn, reason);
    c = tdec_ipt__cache_slot(f, ip, mode, TDEC_IPT__INSN, &hit);
    if (hit) {
        *insn = c->insn;
        for (k = 0; k < TDEC_IPT_INSN_MAX; k++) raw[k] = c->raw[k];
        return TDEC_OK;
    }
    st = tdec_ipt__flow_decode(f, ip, mode, raw, insn, reason);
    if (st != TDEC_OK) return st;
    c->ip = ip;
    c->asid = f->cr3;
    c->mode = mode;
    c->what = TDEC_IPT__INSN;
    c->insn = *insn;
    for (k = 0; k < TDEC_IPT_INSN_MAX; k++) c->raw[k] = k < insn->size ? raw[k] : 0;
    return TDEC_OK;
}

/* Adds n instructions, the last at last_ip, to the open block. */
static void tdec_ipt__block_add(tdec_ipt_flow_decoder *f, uint64_t first_ip, uint32_t n, uint64_t last_ip,
                                uint8_t iclass, uint8_t size)
{
    if (f->blk_n == 0) {
        f->blk_ip = first_ip;
        f->blk_mode = f->mode;
        f->blk_spec = f->speculative;
    }
    f->blk_n += n;
    f->blk_end = last_ip;
    f->blk_iclass = iclass;
    f->blk_size = size;
}

/* Closes the open block into out. */
static tdec_status tdec_ipt__block_out(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out)
{
    tdec_ipt__flow_item(out, TDEC_IPT_FLOW_BLOCK);
    out->ip = f->blk_ip;
    out->end_ip = f->blk_end;
    out->ninsn = f->blk_n;
    out->size = f->blk_size;
    out->iclass = f->blk_iclass;
    out->mode = f->blk_mode;
    out->speculative = f->blk_spec;
    f->blk_n = 0;
    return TDEC_OK;
}

/* The fast way through code while the trace has only branches to give (the
   current event a TNT or TIP, nothing pending): one remembered run per
   step. TDEC_OK when the block is complete, TDEC_NEED_INPUT (nothing
   changed), or TDEC_IPT__BLOCK_SLOW: the next step needs the slow way. */
static tdec_status tdec_ipt__block_run(tdec_ipt_flow_decoder *f, unsigned ends)
{
    const tdec_ipt__cached *r;
    uint64_t start, next;
    uint32_t n, max;
    tdec_status st;
    int tip;
    if (!f->cache || (ends & TDEC_IPT_BLOCK_END_ON_JUMP) || f->st.err != TDEC_OK) return TDEC_IPT__BLOCK_SLOW;
    st = tdec_ipt__flow_fetch(f, 1);
    if (st != TDEC_OK) return st;
    for (;;) {
        if (!f->enabled || f->post || f->tick || f->nla == 0 || (f->la[0].ev.flags & TDEC_IPT_EVF_STATUS) ||
            (f->la[0].ev.type != TDEC_IPT_EV_TNT && f->la[0].ev.type != TDEC_IPT_EV_TIP))
            return TDEC_IPT__BLOCK_SLOW;
        max = TDEC_IPT__RUN_MAX;
        if (TDEC_IPT__BLOCK_MAX - f->blk_n < max) max = TDEC_IPT__BLOCK_MAX - f->blk_n;
        if (f->walk_limit - f->walked < max) max = f->walk_limit - f->walked;
        r = max ? tdec_ipt__run_get(f, max) : NULL;
        if (!r) return TDEC_IPT__BLOCK_SLOW;
        n = r->ninsn + 1;
        if (f->blk_n + n > TDEC_IPT__BLOCK_MAX || f->walked + n > f->walk_limit) return TDEC_IPT__BLOCK_SLOW;
        f->at_sync = 0;
        start = f->ip;
        if (!r->trace) {
            (void)tdec_ipt__flow_resolve(f, &r->insn, r->stop_ip, &next, &tip); /* a call's push */
            tdec_ipt__block_add(f, start, n, r->stop_ip, r->insn.iclass, r->insn.size);
            f->walked += n;
            f->icnt += n;
            f->ip = next;
            f->after_branch = (uint8_t)tdec_ipt__flow_is_branch(&r->insn);
            if (((ends & TDEC_IPT_BLOCK_END_ON_CALL) && r->insn.iclass == TDEC_IPT_IC_CALL) ||
                f->blk_n == TDEC_IPT__BLOCK_MAX)
                return TDEC_OK;
            continue;
        }
        st = tdec_ipt__flow_resolve_trace(f, &r->insn, r->stop_ip, &next, &tip);
        if (st == TDEC_NEED_INPUT) return st;
        tdec_ipt__block_add(f, start, n, r->stop_ip, r->insn.iclass, r->insn.size);
        if (st != TDEC_OK) { /* the error comes after the block */
            f->ip = r->stop_ip;
            return TDEC_OK;
        }
        f->walked = 0;
        f->icnt = tip ? 0 : f->icnt + n;
        f->ip = next;
        f->after_branch = (uint8_t)tdec_ipt__flow_is_branch(&r->insn);
        return TDEC_OK;
    }
}

TDEC_IPT_DEF tdec_status tdec_ipt_flow_next_block(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out,
                                                  unsigned ends)
{
    tdec_ipt_flow_item it;
    tdec_status st;
    if (!f || !out) return TDEC_E_ARG;
    for (;;) {
        st = tdec_ipt__block_run(f, ends);
        if (st == TDEC_OK) return tdec_ipt__block_out(f, out);
        if (st != TDEC_IPT__BLOCK_SLOW) return st;
        st = tdec_ipt__flow_advance(f, &it, f->blk_n != 0);
        if (st == TDEC_OK && it.kind == TDEC_IPT_FLOW_INSN) {
            tdec_ipt__block_add(f, it.ip, 1, it.ip, it.iclass, it.size);
            /* libipt ends a block where trace was used, at an instruction
               an event binds to, on an error after it, or as asked */
            if (f->walked == 0 || f->post || f->st.err != TDEC_OK || f->blk_n == TDEC_IPT__BLOCK_MAX ||
                ((ends & TDEC_IPT_BLOCK_END_ON_CALL) && it.iclass == TDEC_IPT_IC_CALL) ||
                ((ends & TDEC_IPT_BLOCK_END_ON_JUMP) && it.iclass == TDEC_IPT_IC_JUMP))
                return tdec_ipt__block_out(f, out);
            continue;
        }
        if (st == TDEC_NEED_INPUT) return st;
        if (f->blk_n != 0) return tdec_ipt__block_out(f, out); /* before the event, end or error */
        if (st == TDEC_OK) *out = it;
        return st;
    }
}

TDEC_IPT_DEF tdec_status tdec_ipt_block_walk(const tdec_ipt_flow_decoder *f, const tdec_ipt_flow_item *block,
                                             uint64_t *ip, tdec_ipt_insn_info *insn, uint8_t raw[16],
                                             uint32_t *reason)
{
    uint64_t next;
    tdec_status st;
    if (!f || !block || !ip || !insn || !raw || !reason) return TDEC_E_ARG;
    st = tdec_ipt__flow_decode_cached(f, *ip, block->mode, raw, insn, reason);
    if (st != TDEC_OK) return st;
    /* a block may pass end_ip before it ends there (a loop of direct jumps) */
    if (tdec_ipt_insn_next_ip(insn, *ip, &next, NULL) == TDEC_OK) {
        *ip = next;
    } else if (*ip != block->end_ip) {
        *reason = TDEC_IPT_ERR_NOSYNC; /* the image changed since */
        return TDEC_E_CORRUPT;
    }
    return TDEC_OK;
}

/* With a cache, instructions come from blocks read again (libipt master's
   instruction decoder is its block decoder so): the decoded instructions
   are in the cache too. */
TDEC_IPT_DEF tdec_status tdec_ipt_flow_next(tdec_ipt_flow_decoder *f, tdec_ipt_flow_item *out)
{
    tdec_ipt_insn_info insn;
    uint8_t raw[TDEC_IPT_INSN_MAX];
    uint32_t reason;
    uint64_t ip;
    tdec_status st;
    if (!f || !out) return TDEC_E_ARG;
    if (!f->cache) return tdec_ipt__flow_advance(f, out, 0);
    if (f->cur_n == 0) {
        st = tdec_ipt_flow_next_block(f, out, 0);
        if (st != TDEC_OK || out->kind != TDEC_IPT_FLOW_BLOCK) return st;
        f->cur_n = out->ninsn;
        f->cur_ip = out->ip;
    }
    ip = f->cur_ip;
    if (tdec_ipt__flow_decode_cached(f, ip, f->mode, raw, &insn, &reason) != TDEC_OK ||
        (f->cur_n > 1 && tdec_ipt_insn_next_ip(&insn, ip, &f->cur_ip, NULL) != TDEC_OK)) {
        f->cur_n = 0; /* the image changed under the block */
        return tdec_ipt__flow_fail(f, TDEC_E_CORRUPT, TDEC_IPT_ERR_NOSYNC, ip);
    }
    f->cur_n--;
    tdec_ipt__flow_insn(f, &insn, raw, ip, out);
    return TDEC_OK;
}
#endif /* TDEC_IPT_NO_FLOW */

#undef TDEC_IPT__PSB_SIZE
#undef TDEC_IPT__MAX_SIZE
#undef TDEC_IPT__HIST
#undef TDEC_IPT__HOT
#undef TDEC_IPT__BDM64_STEPS
#undef TDEC_IPT__EVENT_DUE
#undef TDEC_IPT__BLOCK_MAX
#undef TDEC_IPT__RUN_MAX
#undef TDEC_IPT__BLOCK_SLOW
#undef TDEC_IPT__RUN
#undef TDEC_IPT__INSN
#undef TDEC_IPT__ENDS_BLOCK
#undef TDEC_IPT__CYC_EXT
#undef TDEC_IPT__SHL32
#undef TDEC_IPT__MTC_BITS
#undef TDEC_IPT__TMA_CTC_BITS
#undef TDEC_IPT__TMA_CTC_MASK
#undef TDEC_IPT__EVB_PSBEND
#undef TDEC_IPT__EVB_TIP
#undef TDEC_IPT__EVB_FUP
#undef TDEC_IPT__EVB_FUP_BOUND
#undef TDEC_IPT__EVB_EXSTOP
#undef TDEC_IPT__EVB_CFE
#undef TDEC_IPT__EVB_PWRX
#undef TDEC_IPT__EVB_ANY
#undef TDEC_IPT__EV_IGNORE
#undef TDEC_IPT__K_ERROR
#undef TDEC_IPT__K_EOS
#undef TDEC_IPT__EV_KEEP
#undef TDEC_IPT__EV_DONE
#undef TDEC_IPT__NEXT
#undef TDEC_IPT__WAIT
#undef TDEC_IPT__SYNCED
#undef TDEC_IPT__REDO
#undef TDEC_IPT__E_SYNC
#undef TDEC_IPT__E_HEADER
#undef TDEC_IPT__E_RUN
#undef TDEC_IPT__E_END
#undef TDEC_IPT__L_OVF
#undef TDEC_IPT__L_SKD010
#undef TDEC_IPT__L_APL11
#undef TDEC_IPT__L_APL12
#undef TDEC_IPT__L_BDM70
#undef TDEC_IPT__L_HDR_SKD010
#undef TDEC_IPT__L_HDR_APL12
#undef TDEC_IPT__R_NONE
#undef TDEC_IPT__R_AT_IP
#undef TDEC_IPT__R_AT_PSB
#undef TDEC_IPT__R_DISABLED
#undef TDEC_IPT__R_AT_FUP
#undef TDEC_IPT__CFE_FUP
#undef TDEC_IPT__CFE_NOIP
#undef TDEC_IPT__CFE_EVD
#undef TDEC_IPT__CFE_VECTOR
#undef TDEC_IPT__GO
#undef TDEC_IPT__HOLD_SLOTS
#undef TDEC_IPT__Q_SYNC
#undef TDEC_IPT__Q_LOOK
#undef TDEC_IPT__Q_READY
#undef TDEC_IPT__Q_END

#endif /* TDEC_IPT_IMPL_INCLUDED */
#endif /* TDEC_IPT_IMPLEMENTATION */

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
