/* xtrace_check.h - the xtrace oracle: decodes a buffer through the public
   API of single/tdec_xtrace.h in a chosen chunk schedule, writes a
   canonical log of the items and checks the decoder's contract on the way
   against a small reference walk of the input; checks the snapshot helpers
   (snap_detect, snap_view) and the file-name helpers (parse_name,
   pair_name) on arbitrary bytes. Used by tests/unit/xtrace.c and
   fuzz/fuzz_xtrace.c; the parts every format shares (the canonical loop and
   its checks, chunk invariance, every prefix) are in
   tests/lib/check_common.h. Include-only; the includer defines
   TDEC_XTRACE_IMPLEMENTATION first (or links the implementation) and
   builds with -I<repo root>. Prefix xtc_ (xray_check.h owns xc_).

   The log has one line per item and does not depend on chunking:
     R off=.. t=.. tok=.. fl=.. el=.. k=.. vk=.. reg=.. sp=.. ss=.. stm=..
       i=.. pc=.. a=.. v=.. v2=.. v3=.. dl=.. insn=..     a record, every field
     P off=.. total=.. end                                a record's data, its
                                                          fragments checked
                                                          against the input
                                                          (" got=.. cut" if it
                                                          never ended)
     E st=.. off=.. reason=.. bad=.. pos=.. insns=.. snaps=..  the final status
   Long logs are cut at the caller's capacity; length and FNV-1a hash always
   cover the whole log, so two runs compare exactly.

   The reference walk (xtc_ref) reads the input as SPEC.md
   (../shared/formats/xtrace/SPEC.md) and the header's
   documentation say, independently of the decoder: token classes and their
   sizes, the owning instruction (index +1 per INST/PCINST, PC known after a
   PCINST, +4 per INST), ALLGPR's 32 REG records X0..X31, SYSCALL_VEC's N
   IOVEC records (with IOVEC_DATA each followed by its bytes), cfg.token_size
   for tokens of unknown size, the snapshot header decision (HDR_AUTO from
   cfg.file_size) and the 95 parts of a snapshot in order with the VL field
   last and equal to cfg.vl. It yields the record the decoder must produce
   next, or the final status, err_offset, err_reason and bad_token.

   Invariants checked by xtc_decode() besides check_common.h's (the first
   violation ends the run with a message): every record equals the
   reference's next record, field by field, at the same offset; item
   offsets never go back and lie within the input; fragments follow the
   record whose data_len announced them and tile [0,data_len);
   SKIP_PAYLOADS gives no fragments; reset() leaves no instruction or
   snapshot count or bad token behind; the final status, err_offset,
   err_reason, bad_token, insn_count and snap_count equal the reference's;
   END leaves no byte unaccounted.

   xtc_snap_check(): snap_detect() agrees with a plain walk over every VL
   and header choice (file sizes far above 4 GiB too: its modulo works in
   32-bit steps) and what it finds fits the size; snap_view() reads every
   field where docs/xtrace.md puts it, its views lie in the buffer, its status
   follows the VL field. xtc_name_check(): parse_name() agrees with a plain
   parser and does not read past len; pair_name() at caps 0, 1, 13, len,
   len + 1 and 600 never writes past cap, NUL-terminates, gives the
   partner's name (which parses as the pair and maps back). Both fold their
   results into a host-independent hash (tests/matrix/matrix.sh compares it across
   hosts). */
#ifndef XTRACE_CHECK_H
#define XTRACE_CHECK_H

#include "single/tdec_xtrace.h"
#include "tests/lib/check_common.h"

/* n bytes at p as an unsigned number in the given byte order. */
CC_FN uint64_t xtc__rd(const uint8_t *p, unsigned n, int be)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++) v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

/* ---- snapshot layout (docs/xtrace.md), computed here on its own --------- */

#define XTC_HDR   24u
#define XTC_PARTS 95u

CC_FN uint64_t xtc__pad16(uint64_t n)
{
    return (n + 15u) / 16u * 16u;
}

CC_FN uint64_t xtc_snap_bytes(uint32_t vl)
{
    uint64_t b = vl / 8u;
    return 32u + 256u + 32u * b + 17u * xtc__pad16(b / 8u) + xtc__pad16(b * b) + 88u + 8u;
}

/* Part p (0..94) of a snapshot: size, record type and register id. */
CC_FN uint64_t xtc__part(uint32_t vl, unsigned p, uint32_t *type, uint32_t *reg)
{
    uint64_t b = vl / 8u;
    *type = TDEC_XTRACE_REC_REG;
    *reg = 0;
    if (p == 0) *type = TDEC_XTRACE_REC_SNAPSHOT;
    else if (p <= 32) *reg = p - 1;                  /* X0..X31     */
    else if (p >= 83) *reg = 32u + (p - 83);         /* FPCR .. VL  */
    else *type = TDEC_XTRACE_REC_VREG;
    if (p == 0) return 32;
    if (*type == TDEC_XTRACE_REC_REG) return 8;
    if (p <= 64) *reg = 64u + (p - 33);              /* Z0..Z31     */
    else if (p <= 80) *reg = 96u + (p - 65);         /* P0..P15     */
    else *reg = p == 81 ? 112u : 113u;               /* FFR, ZA     */
    if (p <= 64) return b;
    return p <= 81 ? xtc__pad16(b / 8u) : xtc__pad16(b * b);
}

/* ---- the reference walk ------------------------------------------------ */

enum { XTC_TOKEN, XTC_REGS, XTC_IOVECS, XTC_HEADER, XTC_PART, XTC_DONE };

typedef struct xtc_ref {
    const uint8_t  *in;
    uint64_t        len;
    uint64_t        pos;          /* next byte the walk has not read         */
    uint64_t        pay, pay_at;  /* data bytes owed after the last record,  */
                                  /* where their token (or part) starts     */
    uint64_t        tok_at;       /* the current token's offset             */
    uint64_t        left;         /* REG or IOVEC records still owed         */
    uint64_t        insns, snaps;
    uint64_t        index, pc;    /* the owning instruction                  */
    unsigned        phase, part, flags, el;
    /* config, defaults applied */
    int             be, iovec_data;
    unsigned        time_size;
    uint32_t        vl;
    uint64_t        max_iovecs, max_iov_len;
    const uint32_t *token_size;
    /* the end, once phase == XTC_DONE */
    tdec_status     st;
    uint64_t        err_off;
    uint32_t        reason;
    uint8_t         bad;
} xtc_ref;

CC_FN int xtc__end(xtc_ref *r, tdec_status st, uint64_t off, uint32_t reason, uint8_t bad)
{
    r->phase = XTC_DONE;
    r->st = st;
    r->err_off = off;
    r->reason = reason;
    r->bad = bad;
    return 0;
}

CC_FN void xtc_ref_init(xtc_ref *r, const uint8_t *in, size_t len, const tdec_xtrace_config *cfg)
{
    uint64_t size = xtc_snap_bytes(cfg->vl), fs = cfg->file_size;
    memset(r, 0, sizeof *r);
    r->in = in;
    r->len = len;
    r->be = (cfg->flags & TDEC_XTRACE_F_BIG_ENDIAN) != 0;
    r->iovec_data = (cfg->flags & TDEC_XTRACE_F_IOVEC_DATA) != 0;
    r->time_size = cfg->time_size ? cfg->time_size : 8u;
    r->vl = cfg->vl;
    r->max_iovecs = cfg->max_iovecs ? cfg->max_iovecs : 1024u;
    r->max_iov_len = cfg->max_iov_len ? cfg->max_iov_len : 0x7FFFFFFFu;
    r->token_size = cfg->token_size;
    r->phase = XTC_TOKEN;
    if (cfg->kind != TDEC_XTRACE_KIND_SNAPSHOT) return;
    r->phase = cfg->snap_header == TDEC_XTRACE_HDR_PRESENT ? XTC_HEADER : XTC_PART;
    if (cfg->snap_header != TDEC_XTRACE_HDR_AUTO || fs % size == 0) return;
    if (fs >= XTC_HDR && (fs - XTC_HDR) % size == 0) r->phase = XTC_HEADER;
    else xtc__end(r, TDEC_E_FORMAT, 0, TDEC_XTRACE_R_SNAP_SIZE, 0);
}

/* *e as a record of `type` owned by the current instruction. */
CC_FN void xtc__owned(const xtc_ref *r, tdec_xtrace_record *e, uint32_t type, uint8_t token)
{
    memset(e, 0, sizeof *e);
    e->type = type;
    e->token = token;
    e->flags = (uint8_t)r->flags;
    e->el = (uint8_t)r->el;
    e->index = r->index;
    e->pc = (r->flags & TDEC_XTRACE_PC_KNOWN) ? r->pc : 0;
}

/* The record type and fixed size (token included) of token t per SPEC.md;
   type 0 for a token of unknown size. *data: bytes that follow as data. */
CC_FN uint32_t xtc__classify(const xtc_ref *r, unsigned t, uint64_t *need, uint64_t *data)
{
    unsigned sub = t >> 3, k = t >> 4;
    *data = 0;
    switch (t & 7u) {
    case 1:
        *need = (sub & 7u) == 1 ? 13u : 5u;
        return (sub & 7u) == 0 ? TDEC_XTRACE_REC_INST : (sub & 7u) == 1 ? TDEC_XTRACE_REC_PCINST : 0u;
    case 2:
        *need = 9u + (k <= 3 ? 1u << k : 0u);
        *data = k > 3 ? (uint64_t)1 << k : 0u;
        return (t & 8u) ? TDEC_XTRACE_REC_STORE : TDEC_XTRACE_REC_LOAD;
    case 3:
        *need = 9;
        return sub <= 5 ? TDEC_XTRACE_REC_VAL : 0u;
    case 4:
        *need = sub == 1 ? 1u : 9u;
        return sub == 1 ? TDEC_XTRACE_REC_ALLGPR : sub == 3 ? TDEC_XTRACE_REC_MISC_FLAGS
                                                 : sub == 4 ? TDEC_XTRACE_REC_SYSCALL_VEC : 0u;
    case 7:
        *need = 1u + r->time_size;
        return sub == 0 ? TDEC_XTRACE_REC_TIME : 0u;
    default:
        return 0;
    }
}

CC_FN int xtc__ref_token(xtc_ref *r, tdec_xtrace_record *e)
{
    const uint8_t *p = r->in + r->pos;
    uint64_t need = 1, data = 0, avail = r->len - r->pos;
    uint32_t type;
    unsigned t, k;
    if (avail == 0) return xtc__end(r, TDEC_END, 0, TDEC_XTRACE_R_NONE, 0);
    t = p[0];
    type = xtc__classify(r, t, &need, &data);
    if (type == 0) {
        if (r->token_size == NULL || r->token_size[t] == 0)
            return xtc__end(r, TDEC_E_CORRUPT, r->pos, TDEC_XTRACE_R_UNKNOWN, (uint8_t)t);
        type = TDEC_XTRACE_REC_UNKNOWN;
        need = 1;
        data = r->token_size[t];
    }
    if (avail < need) return xtc__end(r, TDEC_E_TRUNCATED, r->pos, TDEC_XTRACE_R_TOKEN, 0);
    if (type == TDEC_XTRACE_REC_SYSCALL_VEC && xtc__rd(p + 1, 8, r->be) > r->max_iovecs)
        return xtc__end(r, TDEC_E_LIMIT, r->pos, TDEC_XTRACE_R_IOVECS, 0);
    if (type == TDEC_XTRACE_REC_INST || type == TDEC_XTRACE_REC_PCINST) {
        r->index = r->insns++;
        r->el = t >> 6;
        r->flags |= TDEC_XTRACE_HAS_INSN;
        if (type == TDEC_XTRACE_REC_PCINST) r->flags |= TDEC_XTRACE_PC_KNOWN;
        r->pc = type == TDEC_XTRACE_REC_PCINST ? xtc__rd(p + 1, 8, r->be) : r->pc + 4u;
    }
    xtc__owned(r, e, type, (uint8_t)t);
    k = t >> 4;
    switch (type) {
    case TDEC_XTRACE_REC_INST:   e->insn = (uint32_t)xtc__rd(p + 1, 4, r->be); break;
    case TDEC_XTRACE_REC_PCINST: e->insn = (uint32_t)xtc__rd(p + 9, 4, r->be); break;
    case TDEC_XTRACE_REC_LOAD:
    case TDEC_XTRACE_REC_STORE:
        e->size_log2 = (uint8_t)k;
        e->addr = xtc__rd(p + 1, 8, r->be);
        if (k <= 3) e->value = xtc__rd(p + 9, 1u << k, r->be);
        break;
    case TDEC_XTRACE_REC_VAL:
        e->val_kind = (uint8_t)(t >> 3);
        e->value = xtc__rd(p + 1, 8, r->be);
        break;
    case TDEC_XTRACE_REC_ALLGPR:
        r->phase = XTC_REGS;
        r->left = 32;
        break;
    case TDEC_XTRACE_REC_SYSCALL_VEC:
        e->value = r->left = xtc__rd(p + 1, 8, r->be);
        r->phase = XTC_IOVECS;
        break;
    case TDEC_XTRACE_REC_MISC_FLAGS:
    case TDEC_XTRACE_REC_TIME:
        e->value = xtc__rd(p + 1, (unsigned)need - 1u, r->be);
        break;
    default:
        break;
    }
    e->data_len = r->pay = data;
    r->pay_at = r->tok_at = r->pos;
    r->pos += need;
    return 1;
}

/* One of ALLGPR's REG records or SYSCALL_VEC's IOVEC records. A cut entry,
   an iovec length over the limit and cut iovec data are errors of the
   token: err_offset is the ALLGPR or SYSCALL_VEC token's. */
CC_FN int xtc__ref_entry(xtc_ref *r, tdec_xtrace_record *e)
{
    const uint8_t *p = r->in + r->pos;
    int iovec = r->phase == XTC_IOVECS;
    uint64_t n = iovec ? 16u : 8u;
    if (r->left == 0) {
        r->phase = XTC_TOKEN;
        return xtc__ref_token(r, e);
    }
    if (r->len - r->pos < n) return xtc__end(r, TDEC_E_TRUNCATED, r->tok_at, TDEC_XTRACE_R_TOKEN, 0);
    if (iovec) {
        xtc__owned(r, e, TDEC_XTRACE_REC_IOVEC, 0);
        e->addr = xtc__rd(p, 8, r->be);
        e->value = xtc__rd(p + 8, 8, r->be);
        if (r->iovec_data && e->value > r->max_iov_len)
            return xtc__end(r, TDEC_E_LIMIT, r->tok_at, TDEC_XTRACE_R_IOV_LEN, 0);
        if (r->iovec_data) e->data_len = r->pay = e->value;
    } else {
        xtc__owned(r, e, TDEC_XTRACE_REC_REG, 0);
        e->reg = (uint8_t)(32u - r->left);
        e->value = xtc__rd(p, 8, r->be);
    }
    r->left--;
    r->pay_at = r->tok_at;
    r->pos += n;
    return 1;
}

CC_FN int xtc__ref_header(xtc_ref *r, tdec_xtrace_record *e)
{
    const uint8_t *p = r->in + r->pos;
    if (r->len - r->pos < XTC_HDR) return xtc__end(r, TDEC_E_TRUNCATED, r->pos, TDEC_XTRACE_R_SNAPSHOT, 0);
    xtc__owned(r, e, TDEC_XTRACE_REC_SNAP_HEADER, 0);
    e->addr = xtc__rd(p, 4, r->be);
    e->value2 = xtc__rd(p + 4, 4, r->be);
    e->value = xtc__rd(p + 8, 8, r->be);
    e->snap_split = p[16];
    e->snap_stream = p[17];
    e->snap_time = p[18];
    r->pos += XTC_HDR;
    r->phase = XTC_PART;
    return 1;
}

/* One part of a snapshot: the counters, a register, or a vector register
   (a record as soon as one of its bytes is there; the bytes follow). */
CC_FN int xtc__ref_part(xtc_ref *r, tdec_xtrace_record *e)
{
    const uint8_t *p = r->in + r->pos;
    uint64_t avail = r->len - r->pos, n;
    uint32_t type, reg;
    n = xtc__part(r->vl, r->part, &type, &reg);
    if (r->part == 0 && avail == 0) return xtc__end(r, TDEC_END, 0, TDEC_XTRACE_R_NONE, 0);
    if (type == TDEC_XTRACE_REC_VREG ? avail == 0 : avail < n)
        return xtc__end(r, TDEC_E_TRUNCATED, r->pos, TDEC_XTRACE_R_SNAPSHOT, 0);
    xtc__owned(r, e, type, 0);
    e->reg = (uint8_t)reg;
    r->pay_at = r->pos;
    if (type == TDEC_XTRACE_REC_SNAPSHOT) {
        e->index = r->snaps++;
        e->addr = xtc__rd(p, 8, r->be);
        e->value = xtc__rd(p + 8, 8, r->be);
        e->value2 = xtc__rd(p + 16, 8, r->be);
        e->value3 = xtc__rd(p + 24, 8, r->be);
    } else if (type == TDEC_XTRACE_REC_REG) {
        e->value = xtc__rd(p, 8, r->be);
        if (reg == TDEC_XTRACE_REG_VL && e->value != r->vl)
            return xtc__end(r, TDEC_E_CORRUPT, r->pos, TDEC_XTRACE_R_VL, 0);
    } else {
        e->data_len = r->pay = n;
        n = 0; /* all of it is data */
    }
    r->pos += n;
    r->part = (r->part + 1) % XTC_PARTS;
    return 1;
}

/* The record the decoder must give next: 1 with *e at offset *off, or 0
   at the end (r->st, err_off, reason, bad). */
CC_FN int xtc_ref_next(xtc_ref *r, tdec_xtrace_record *e, uint64_t *off)
{
    if (r->phase == XTC_DONE) return 0;
    if (r->pay > 0) {
        if (r->len - r->pos < r->pay) return xtc__end(r, TDEC_E_TRUNCATED, r->pay_at, TDEC_XTRACE_R_PAYLOAD, 0);
        r->pos += r->pay;
        r->pay = 0;
    }
    *off = r->pos;
    switch (r->phase) {
    case XTC_TOKEN:  return xtc__ref_token(r, e);
    case XTC_REGS:
    case XTC_IOVECS: return xtc__ref_entry(r, e);
    case XTC_HEADER: return xtc__ref_header(r, e);
    default:         return xtc__ref_part(r, e);
    }
}

/* ---- the log ------------------------------------------------------------ */

/* A record as one log line (every field) into buf (>= 512 bytes). */
CC_FN size_t xtc_rec_line(char *buf, const tdec_xtrace_record *e, uint64_t off)
{
    char *p = buf;
    p = cc_kv(p, "R off=", off, 0);
    p = cc_kv(p, " t=", e->type, 0);
    p = cc_kv(p, " tok=", e->token, 0);
    p = cc_kv(p, " fl=", e->flags, 0);
    p = cc_kv(p, " el=", e->el, 0);
    p = cc_kv(p, " k=", e->size_log2, 0);
    p = cc_kv(p, " vk=", e->val_kind, 0);
    p = cc_kv(p, " reg=", e->reg, 0);
    p = cc_kv(p, " sp=", e->snap_split, 0);
    p = cc_kv(p, " ss=", e->snap_stream, 0);
    p = cc_kv(p, " stm=", e->snap_time, 0);
    p = cc_kv(p, " i=", e->index, 0);
    p = cc_kv(p, " pc=", e->pc, 0);
    p = cc_kv(p, " a=", e->addr, 0);
    p = cc_kv(p, " v=", e->value, 0);
    p = cc_kv(p, " v2=", e->value2, 0);
    p = cc_kv(p, " v3=", e->value3, 0);
    p = cc_kv(p, " dl=", e->data_len, 0);
    p = cc_kv(p, " insn=", e->insn, 0);
    *p++ = '\n';
    *p = 0;
    return (size_t)(p - buf);
}

/* Compares two records field by field; returns the name of the first field
   that differs, or NULL. */
CC_FN const char *xtc_rec_diff(const tdec_xtrace_record *a, const tdec_xtrace_record *b)
{
    if (a->type != b->type) return "type";
    if (a->token != b->token) return "token";
    if (a->flags != b->flags) return "flags";
    if (a->el != b->el) return "el";
    if (a->index != b->index) return "index";
    if (a->pc != b->pc) return "pc";
    if (a->insn != b->insn) return "insn";
    if (a->addr != b->addr) return "addr";
    if (a->value != b->value) return "value";
    if (a->value2 != b->value2) return "value2";
    if (a->value3 != b->value3) return "value3";
    if (a->size_log2 != b->size_log2) return "size_log2";
    if (a->val_kind != b->val_kind) return "val_kind";
    if (a->reg != b->reg) return "reg";
    if (a->snap_split != b->snap_split) return "snap_split";
    if (a->snap_stream != b->snap_stream) return "snap_stream";
    if (a->snap_time != b->snap_time) return "snap_time";
    if (a->data_len != b->data_len) return "data_len";
    return NULL;
}

/* Fragment bytes are checked against the input as they come (cc_frag),
   so the log only says where a record's data starts and that it ended:
   hex dumps of 32 KiB values would dominate the run time. */
CC_FN void xtc__log_frag(cc_run *r, const tdec_frag *f, uint64_t off)
{
    if (r->log == NULL) return;
    if (f->flags & TDEC_FRAG_FIRST)
        cc_line(r, "P off=%llu total=%llu", (unsigned long long)off, (unsigned long long)f->total);
    r->pay_line = 1;
    if (f->flags & TDEC_FRAG_LAST) {
        cc_put(r, " end\n", 5);
        r->pay_line = 0;
    }
}

/* ---- the stream decoder ----------------------------------------------- */

/* What the oracle expects next. */
typedef struct xtc_lay {
    uint64_t last_off; /* offset of the previous item       */
    uint64_t pay_at;   /* where the record's data starts    */
    cc_pay   pay;      /* fragments of a record expected    */
} xtc_lay;

typedef struct xtc_run {
    cc_run             cc; /* schedule, log and outcome (check_common.h) */
    /* in */
    tdec_xtrace_config cfg;
    void (*on_item)(void *ctx, const tdec_xtrace_item *it, const tdec_xtrace_decoder *d);
    void              *ctx;
    /* out */
    uint8_t            bad_token; /* the decoder's, at the end */
    /* private */
    xtc_lay            lay;
    xtc_ref            ref;
} xtc_run;

/* Checks a record against the reference walk's next one; logs it. */
CC_FN const char *xtc__record(xtc_run *r, const tdec_xtrace_item *it)
{
    const tdec_xtrace_record *e = &it->u.rec;
    xtc_lay *l = &r->lay;
    tdec_xtrace_record want;
    char got_line[512], want_line[512];
    uint64_t off = 0;
    if (l->pay.open)
        return cc_fail(&r->cc, "record at %llu interrupts the data of the record before it",
                       (unsigned long long)it->offset);
    if (!xtc_ref_next(&r->ref, &want, &off))
        return cc_fail(&r->cc, "record (type %u) at %llu where the reference walk ends in %d at %llu reason %u",
                       (unsigned)e->type, (unsigned long long)it->offset, r->ref.st,
                       (unsigned long long)r->ref.err_off, (unsigned)r->ref.reason);
    if (xtc_rec_diff(e, &want) != NULL || it->offset != off) {
        xtc_rec_line(got_line, e, it->offset);
        xtc_rec_line(want_line, &want, off);
        return cc_fail(&r->cc, "record differs from the reference walk in %s:\n  decoder   %s  reference %s",
                       it->offset != off ? "offset" : xtc_rec_diff(e, &want), got_line, want_line);
    }
    if (tdec_xtrace_type_str(e->type)[0] == '?' ||
        ((e->type == TDEC_XTRACE_REC_REG || e->type == TDEC_XTRACE_REC_VREG) && tdec_xtrace_reg_str(e->reg) == NULL) ||
        (e->type == TDEC_XTRACE_REC_VAL && tdec_xtrace_val_str(e->val_kind)[0] == '?'))
        return cc_fail(&r->cc, "record at %llu: a name helper does not know its type/reg/val kind",
                       (unsigned long long)it->offset);
    if (e->data_len > 0 && !(r->cfg.flags & TDEC_XTRACE_F_SKIP_PAYLOADS)) {
        cc_pay_open(&l->pay, e->data_len);
        l->pay_at = r->ref.pos;
    }
    r->cc.records++;
    if (r->cc.log) {
        cc_close_pay(&r->cc);
        cc_put(&r->cc, got_line, xtc_rec_line(got_line, e, it->offset));
    }
    return NULL;
}

/* Checks one item against the layout and the reference walk; logs it. */
CC_FN const char *xtc__item(cc_run *c, void *dv, const void *iv, const cc_feed *f)
{
    xtc_run *r = (xtc_run *)c;
    xtc_lay *l = &r->lay;
    const tdec_xtrace_item *it = (const tdec_xtrace_item *)iv;
    const char *bad;
    if (it->offset > f->len || it->offset < l->last_off)
        return cc_fail(c, "item offset %llu after %llu (input %zu bytes)", (unsigned long long)it->offset,
                       (unsigned long long)l->last_off, f->len);
    l->last_off = it->offset;
    if (it->kind == TDEC_ITEM_RECORD) {
        if ((bad = xtc__record(r, it)) != NULL) return bad;
    } else if (it->kind != TDEC_ITEM_FRAGMENT) {
        return cc_fail(c, "item kind %u", (unsigned)it->kind);
    } else {
        if (l->pay.open && it->offset != l->pay_at + l->pay.got)
            return cc_fail(c, "fragment at %llu, expected %llu", (unsigned long long)it->offset,
                           (unsigned long long)(l->pay_at + l->pay.got));
        if ((bad = cc_frag(c, &l->pay, &it->u.frag, it->offset, r->cfg.max_fragment, f)) != NULL) return bad;
        xtc__log_frag(c, &it->u.frag, it->offset);
    }
    if (r->on_item) r->on_item(r->ctx, it, (const tdec_xtrace_decoder *)dv);
    return NULL;
}

/* Compares the end of a decode with the reference walk. */
CC_FN const char *xtc__check_end(xtc_run *r, const tdec_xtrace_decoder *d, size_t len)
{
    tdec_xtrace_record e;
    uint64_t off = 0;
    xtc_ref *ref = &r->ref;
    tdec_status st = r->cc.status;
    if (st == TDEC_END && r->lay.pay.open) return cc_fail(&r->cc, "END with a record's data unfinished");
    if (xtc_ref_next(ref, &e, &off))
        return cc_fail(&r->cc, "decoder ended in %d (err_offset %llu) but the reference walk has a record at %llu", st,
                       (unsigned long long)d->st.err_offset, (unsigned long long)off);
    if (st != ref->st || d->st.err_offset != ref->err_off || d->st.err_reason != ref->reason ||
        d->bad_token != ref->bad)
        return cc_fail(&r->cc,
                       "ended in %d at %llu reason %u bad %u; the reference walk in %d at %llu reason %u bad %u", st,
                       (unsigned long long)d->st.err_offset, (unsigned)d->st.err_reason, (unsigned)d->bad_token,
                       ref->st, (unsigned long long)ref->err_off, (unsigned)ref->reason, (unsigned)ref->bad);
    if (d->insn_count != ref->insns || d->snap_count != ref->snaps)
        return cc_fail(&r->cc, "insn_count %llu snap_count %llu; the reference walk %llu %llu",
                       (unsigned long long)d->insn_count, (unsigned long long)d->snap_count,
                       (unsigned long long)ref->insns, (unsigned long long)ref->snaps);
    if (st == TDEC_END && d->st.pos != len)
        return cc_fail(&r->cc, "END at pos %llu of %zu", (unsigned long long)d->st.pos, len);
    return NULL;
}

/* After reset(): no instruction or snapshot count, no bad token. */
CC_FN int xtc__fresh(const cc_run *r, const void *dv)
{
    const tdec_xtrace_decoder *d = (const tdec_xtrace_decoder *)dv;
    (void)r;
    return !d->insn_count && !d->snap_count && !d->bad_token;
}

CC_STREAM_CALLS(xtc__, tdec_xtrace_)

static const cc_format xtc__format = {sizeof(tdec_xtrace_decoder), sizeof(tdec_xtrace_item), 1, xtc__next, xtc__feed,
                                      xtc__finish, xtc__reset, xtc__stream, xtc__item, NULL, xtc__fresh};

/* Decodes in[0..len) with the config and schedule of the xtc_run that c
   starts; fills its outputs. Returns NULL, or a description of the first
   broken invariant. */
CC_FN const char *xtc_decode(const uint8_t *in, size_t len, cc_run *c)
{
    static tdec_xtrace_decoder slots[2];
    xtc_run *r = (xtc_run *)c;
    const tdec_xtrace_decoder *d;
    void *dv;
    const char *bad;

    memset(&r->lay, 0, sizeof r->lay);
    xtc_ref_init(&r->ref, in, len, &r->cfg);
    if ((bad = cc_loop(c, &xtc__format, tdec_xtrace_init(&slots[0], &r->cfg), slots, &dv, in, len)) != NULL)
        return bad;
    d = (const tdec_xtrace_decoder *)dv;
    r->bad_token = d->bad_token;
    if (c->pay_line) { /* the open data line says how much came, then " cut" */
        char got[40], *p = cc_kv(got, " got=", r->lay.pay.got, 0);
        cc_put(c, got, (size_t)(p - got));
    }
    cc_line(c, "E st=%d off=%llu reason=%u bad=%u pos=%llu insns=%llu snaps=%llu\n", c->status,
            (unsigned long long)d->st.err_offset, (unsigned)d->st.err_reason, (unsigned)d->bad_token,
            (unsigned long long)d->st.pos, (unsigned long long)d->insn_count, (unsigned long long)d->snap_count);
    if ((bad = xtc__check_end(r, d, len)) != NULL) return bad;
    return cc_final(c, &xtc__format, dv);
}

/* ---- snapshot helpers over a buffer ------------------------------------ */

/* snap_detect() on in[0..len) with a file of fs bytes, against a plain
   walk over every VL and header choice. */
CC_FN const char *xtc__detect1(const uint8_t *in, size_t len, uint64_t fs, uint32_t mode, int be, uint64_t *h)
{
    uint32_t v, vl = 0, found_vl = 0, matches = 0;
    uint64_t size, hdr;
    int hh = -1, k, found_h = 0;
    tdec_status st = tdec_xtrace_snap_detect(in, len, fs, mode, be, &vl, &hh), want;
    for (v = 128; v <= 2048; v += 128) {
        size = xtc_snap_bytes(v);
        for (k = 0; k <= 1; k++) {
            if ((k && mode == TDEC_XTRACE_HDR_ABSENT) || (!k && mode == TDEC_XTRACE_HDR_PRESENT)) continue;
            hdr = k ? XTC_HDR : 0u;
            if (fs < hdr + size || (fs - hdr) % size != 0 || len < hdr + size) continue;
            if (xtc__rd(in + hdr + size - 8, 8, be) != v) continue;
            matches++;
            found_vl = v;
            found_h = k;
        }
    }
    want = matches == 0 ? TDEC_E_FORMAT : matches > 1 ? TDEC_E_CORRUPT : TDEC_OK;
    cc_mix_u64(h, (uint64_t)(int64_t)st);
    if (st != want) return "snap_detect status differs from a plain walk over the VLs";
    if (st != TDEC_OK) return NULL;
    if (vl != found_vl || hh != found_h) return "snap_detect found another VL or header choice";
    size = xtc_snap_bytes(vl);
    hdr = hh ? XTC_HDR : 0u;
    if (tdec_xtrace_snap_size(vl) != size || fs < hdr + size || (fs - hdr) % size != 0 || len < hdr + size)
        return "snap_detect: the VL found does not fit the size";
    cc_mix_u64(h, vl);
    cc_mix_u64(h, (uint64_t)hh);
    return NULL;
}

/* snap_view() of the snapshot at in[at..len), every field and view checked
   against SPEC.md's layout. */
CC_FN const char *xtc__view1(const uint8_t *in, size_t len, size_t at, uint32_t vl, int be, uint64_t *h)
{
    tdec_xtrace_snapshot s;
    const uint8_t *base = in + at, *q;
    uint64_t size = xtc_snap_bytes(vl), n;
    uint32_t type, reg;
    unsigned part;
    tdec_status st;
    memset(&s, 0, sizeof s);
    st = tdec_xtrace_snap_view(base, len - at, vl, be, &s);
    cc_mix_u64(h, (uint64_t)(int64_t)st);
    if (len - at < size) return st == TDEC_E_TRUNCATED ? NULL : "snap_view: short buffer not E_TRUNCATED";
    if (st != (xtc__rd(base + size - 8, 8, be) == vl ? TDEC_OK : TDEC_E_CORRUPT)) return "snap_view status";
    if (s.file_no != xtc__rd(base, 8, be) || s.snap_index != xtc__rd(base + 8, 8, be) ||
        s.user_insns != xtc__rd(base + 16, 8, be) || s.total_insns != xtc__rd(base + 24, 8, be))
        return "snap_view counters";
    q = base;
    for (part = 0; part < XTC_PARTS; part++) {
        n = xtc__part(vl, part, &type, &reg);
        if (type == TDEC_XTRACE_REC_REG) {
            uint64_t v = xtc__rd(q, 8, be);
            if (reg < 32 ? s.x[reg] != v : reg < TDEC_XTRACE_REG_VL ? s.sysreg[reg - 32] != v : s.vl_field != v)
                return "snap_view register value";
        } else if (type == TDEC_XTRACE_REC_VREG) {
            const uint8_t *view = reg < 96 ? s.z[reg - 64] : reg < 112 ? s.p[reg - 96] : reg == 112 ? s.ffr : s.za;
            uint32_t vsize = reg < 96 ? s.zreg_size : reg < 113 ? s.preg_size : s.za_size;
            if (view != q || vsize != n || view < in || view + vsize > in + len) return "snap_view vector view";
        }
        q += n;
    }
    if ((uint64_t)(q - base) != size || tdec_xtrace_snap_size(vl) != size) return "snap_view: layout size";
    cc_mix_u64(h, s.file_no ^ s.x[0] ^ s.x[31] ^ s.sysreg[10] ^ s.vl_field);
    return NULL;
}

/* The snapshot helpers on arbitrary bytes: snap_detect() for files of
   len bytes and of len plus large multiples (its modulo works in 32-bit
   steps), snap_view() at offsets 0 and 24, the argument checks. Folds the
   results into *h. */
CC_FN const char *xtc_snap_check(const uint8_t *in, size_t len, uint32_t mode, int be, uint32_t vl, uint32_t seed,
                                  uint64_t *h)
{
    static const uint8_t one = 0;
    uint64_t fs[3];
    uint32_t v;
    int hh;
    tdec_xtrace_snapshot s;
    const char *bad;
    size_t k;
    fs[0] = len;
    fs[1] = len + (uint64_t)seed * xtc_snap_bytes(vl) * 4096u;
    fs[2] = len + ((uint64_t)seed << 24);
    for (k = 0; k < 3; k++)
        if ((bad = xtc__detect1(in ? in : &one, len, fs[k], mode, be, h)) != NULL) return bad;
    for (k = 0; k <= XTC_HDR; k += XTC_HDR)
        if (k <= len && (bad = xtc__view1(in, len, k, vl, be, h)) != NULL) return bad;
    if (tdec_xtrace_snap_detect(NULL, 0, 0, 0, 0, &v, &hh) != TDEC_E_ARG ||
        tdec_xtrace_snap_detect(&one, 1, 1, 3, 0, &v, &hh) != TDEC_E_ARG ||
        tdec_xtrace_snap_view(&one, 1, 100, 0, &s) != TDEC_E_ARG || tdec_xtrace_snap_view(NULL, 0, 128, 0, &s) != TDEC_E_ARG ||
        tdec_xtrace_snap_size(100) != 0 || tdec_xtrace_snap_size(2176) != 0)
        return "snapshot helpers accept bad arguments";
    return NULL;
}

/* ---- file names ---------------------------------------------------------- */

#define XTC_CANARY 16

/* Decimal digits at s[*i..n) ending in '.', fitting 64 bits. */
CC_FN int xtc__num(const char *s, size_t n, size_t *i, uint64_t *v)
{
    size_t k = *i;
    uint64_t x = 0;
    unsigned d;
    for (; k < n && s[k] >= '0' && s[k] <= '9'; k++) {
        d = (unsigned)(s[k] - '0');
        if (x > (UINT64_MAX - d) / 10u) return 0;
        x = x * 10u + d;
    }
    if (k == *i || k == n || s[k] != '.') return 0;
    *v = x;
    *i = k + 1;
    return 1;
}

/* s[*i..n) starts with the text w. */
CC_FN int xtc__lit(const char *s, size_t n, size_t *i, const char *w)
{
    size_t m = strlen(w);
    if (n - *i < m || memcmp(s + *i, w, m) != 0) return 0;
    *i += m;
    return 1;
}

/* xtrace.{ts}.{id}.hint{9|13}.{xinsndata|xsnapshot}.bin after the last '/'. */
CC_FN int xtc__ref_name(const char *s, size_t n, tdec_xtrace_name *o)
{
    const char *slash = NULL;
    size_t i = 0, k;
    uint64_t hint;
    for (k = 0; k < n; k++)
        if (s[k] == '/') slash = s + k;
    if (slash) {
        n -= (size_t)(slash + 1 - s);
        s = slash + 1;
    }
    if (!xtc__lit(s, n, &i, "xtrace.") || !xtc__num(s, n, &i, &o->timestamp) || !xtc__num(s, n, &i, &o->id) ||
        !xtc__lit(s, n, &i, "hint") || !xtc__num(s, n, &i, &hint) || (hint != 9 && hint != 13))
        return 0;
    o->hint = (uint32_t)hint;
    if (xtc__lit(s, n, &i, "xinsndata.bin")) o->kind = TDEC_XTRACE_KIND_INSN;
    else if (xtc__lit(s, n, &i, "xsnapshot.bin")) o->kind = TDEC_XTRACE_KIND_SNAPSHOT;
    else return 0;
    return i == n;
}

/* pair_name() of name[0..n) into a buffer of cap bytes and a canary. */
CC_FN const char *xtc__pair1(const char *name, size_t n, const tdec_xtrace_name *a, int ok, size_t cap, uint64_t *h)
{
    static char buf[600 + XTC_CANARY];
    static char back[600];
    tdec_xtrace_name b;
    tdec_status st, want = !ok ? TDEC_E_FORMAT : cap == 0 ? TDEC_E_ARG : cap < n + 1 ? TDEC_E_LIMIT : TDEC_OK;
    size_t k;
    memset(buf, 0x5A, sizeof buf);
    st = tdec_xtrace_pair_name(name, n, buf, cap);
    for (k = cap; k < cap + XTC_CANARY; k++)
        if ((uint8_t)buf[k] != 0x5A) return "pair_name wrote past cap";
    if (cap == 0) want = TDEC_E_ARG;
    if (st != want) return "pair_name status";
    if (cap > 0 && memchr(buf, 0, cap) == NULL) return "pair_name output not NUL-terminated within cap";
    cc_mix_u64(h, (uint64_t)(int64_t)st);
    if (st != TDEC_OK) return NULL;
    if (strlen(buf) != n || memcmp(buf, name, n - 13) != 0) return "pair_name changed more than the kind";
    if (tdec_xtrace_parse_name(buf, n, &b) != TDEC_OK || !tdec_xtrace_is_pair(a, &b) || !tdec_xtrace_is_pair(&b, a))
        return "pair_name output does not parse as the partner";
    if (tdec_xtrace_pair_name(buf, n, back, sizeof back) != TDEC_OK || memcmp(back, name, n) != 0 || back[n] != 0)
        return "pair_name of the partner is not the name";
    return NULL;
}

/* The file-name helpers on the input's first line (up to a NUL, '\n' or
   500 bytes): parse_name() on the input itself (not NUL-terminated) and on
   a NUL-terminated copy against a plain parser, is_pair(), pair_name() at
   several caps. Folds the results into *h. */
CC_FN const char *xtc_name_check(const uint8_t *in, size_t len, uint64_t *h)
{
    static char name[512];
    static const size_t caps[] = {0, 1, 13, 0, 0, 600};
    tdec_xtrace_name a, ra, c;
    size_t n = 0, k, cap;
    tdec_status st;
    const char *bad;
    int ok;
    while (n < len && n < 500 && in[n] != 0 && in[n] != '\n') n++;
    memcpy(name, in, n);
    name[n] = 0;
    memset(&a, 0, sizeof a);
    memset(&ra, 0, sizeof ra);
    st = tdec_xtrace_parse_name(name, n, &a);
    ok = xtc__ref_name(name, n, &ra);
    cc_mix_u64(h, (uint64_t)(int64_t)st);
    if (st != (ok ? TDEC_OK : TDEC_E_FORMAT)) return "parse_name status differs from a plain parser";
    if (ok && (a.timestamp != ra.timestamp || a.id != ra.id || a.hint != ra.hint || a.kind != ra.kind))
        return "parse_name fields differ from a plain parser";
    if (n > 0 && (tdec_xtrace_parse_name((const char *)in, n, &c) != st ||
                  (ok && (c.timestamp != a.timestamp || c.id != a.id || c.hint != a.hint || c.kind != a.kind))))
        return "parse_name depends on the byte after the name";
    if (tdec_xtrace_parse_name(NULL, 0, &c) != TDEC_E_ARG || tdec_xtrace_parse_name(name, n, NULL) != TDEC_E_ARG)
        return "parse_name accepts NULL";
    if (ok) {
        cc_mix_u64(h, a.timestamp);
        cc_mix_u64(h, a.id);
        cc_mix_u64(h, a.hint + 16u * a.kind);
        if (tdec_xtrace_is_pair(&a, &a) || tdec_xtrace_is_pair(&a, NULL)) return "is_pair of a name with itself";
    }
    for (k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        cap = k == 3 ? n : k == 4 ? n + 1 : caps[k];
        if ((bad = xtc__pair1(name, n, &a, ok, cap, h)) != NULL) return bad;
    }
    return NULL;
}

#endif /* XTRACE_CHECK_H */
