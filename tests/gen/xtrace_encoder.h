/* xtrace_encoder.h - a tiny xtrace writer for tests, benchmarks and fuzz
   corpora. Written from the format description in docs/xtrace.md alone, independently
   of single/tdec_xtrace.h (it does not include it), so the two cross-check
   each other against the spec.

   Instruction stream (xinsndata): one token byte (bits 0-2 class, bits 3-7
   sub-kind and parameters), then its data. Snapshot file (xsnapshot):
   optional 24-byte header, then snapshots laid out for a vector length VL.

   Every multi-byte field is written in the buffer's byte order (little by
   default, big when xe_init's big_endian is non-zero). Buffers are
   malloc'ed and grow; an allocation failure aborts (this is test code).

   Vector register contents written by xe_snapshot (documented rule):
   register ids r are Z0..Z31 = 64..95, P0..P15 = 96..111, FFR = 112,
   ZA = 113 (the numbering of tdec_xtrace_reg); byte i (0 <= i < the
   register's size: B for Z, B/8 for P and FFR, B*B for ZA, B = VL/8) is
   (uint8_t)(fill + 7*r + i); the padding bytes up to pad16(size) are 0.
   Use xe_vreg_byte() to compute the expected bytes. */
#ifndef XTRACE_ENCODER_H
#define XTRACE_ENCODER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define XE_UNUSED __attribute__((unused))
#else
#define XE_UNUSED
#endif

typedef struct xe_buf {
    uint8_t *p;
    size_t   len, cap;
    int      big_endian;
} xe_buf;

typedef struct xe_snap {
    uint64_t file_no, index, user_insns, total_insns;
    uint64_t x[32];
    uint64_t sysreg[11]; /* FPCR, FPSR, NZCV, TPIDR_EL0, TPIDRRO_EL0, TTBR0_EL1,
                            ELR_EL1, SPSR_EL1, ESR_EL1, TPIDR_EL1, DAIF */
    uint8_t  fill;       /* seed of the vector register bytes (see above) */
} xe_snap;

/* Register ids used by the fill rule. */
#define XE_REG_Z0  64u
#define XE_REG_P0  96u
#define XE_REG_FFR 112u
#define XE_REG_ZA  113u

static XE_UNUSED void xe_init(xe_buf *b, int big_endian)
{
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
    b->big_endian = big_endian;
}

static XE_UNUSED void xe_free(xe_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
}

/* Room for n more bytes. */
static XE_UNUSED uint8_t *xe__grow(xe_buf *b, size_t n)
{
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        uint8_t *p;
        while (cap - b->len < n) {
            if (cap > ((size_t)-1) / 2) {
                fprintf(stderr, "xtrace_encoder: buffer too large\n");
                abort();
            }
            cap *= 2;
        }
        p = (uint8_t *)realloc(b->p, cap);
        if (!p) {
            fprintf(stderr, "xtrace_encoder: out of memory\n");
            abort();
        }
        b->p = p;
        b->cap = cap;
    }
    return b->p + b->len;
}

static XE_UNUSED void xe_raw(xe_buf *b, const void *data, size_t n)
{
    uint8_t *d;
    if (n == 0) return;
    d = xe__grow(b, n);
    memcpy(d, data, n);
    b->len += n;
}

static XE_UNUSED void xe_byte(xe_buf *b, uint8_t v)
{
    *xe__grow(b, 1) = v;
    b->len += 1;
}

/* The low n bytes (1..8) of v, in the buffer's byte order. */
static XE_UNUSED void xe_put(xe_buf *b, uint64_t v, unsigned n)
{
    uint8_t *d = xe__grow(b, n);
    unsigned i;
    for (i = 0; i < n; i++) {
        unsigned sh = b->big_endian ? 8u * (n - 1u - i) : 8u * i;
        d[i] = (uint8_t)(v >> sh);
    }
    b->len += n;
}

static XE_UNUSED void xe_zeros(xe_buf *b, size_t n)
{
    uint8_t *d;
    if (n == 0) return;
    d = xe__grow(b, n);
    memset(d, 0, n);
    b->len += n;
}

/* Class 1, sub-kind 0 (bits 3-5), EL in bits 6-7: 4-byte instruction word. */
static XE_UNUSED void xe_inst(xe_buf *b, unsigned el, uint32_t insn)
{
    xe_byte(b, (uint8_t)(1u | (0u << 3) | ((el & 3u) << 6)));
    xe_put(b, insn, 4);
}

/* Class 1, sub-kind 1: 8-byte PC, then the 4-byte instruction word. */
static XE_UNUSED void xe_pcinst(xe_buf *b, unsigned el, uint64_t pc, uint32_t insn)
{
    xe_byte(b, (uint8_t)(1u | (1u << 3) | ((el & 3u) << 6)));
    xe_put(b, pc, 8);
    xe_put(b, insn, 4);
}

/* Class 2: bit 3 store, bits 4-7 k; 8-byte address, then 2^k value bytes
   copied as given (raw memory bytes: no byte swapping). */
static XE_UNUSED void xe_mem(xe_buf *b, int store, unsigned k, uint64_t addr, const uint8_t *value)
{
    size_t n = (size_t)1 << (k & 15u);
    xe_byte(b, (uint8_t)(2u | ((store ? 1u : 0u) << 3) | ((k & 15u) << 4)));
    xe_put(b, addr, 8);
    if (value)
        xe_raw(b, value, n);
    else
        xe_zeros(b, n);
}

/* Class 3, kind in bits 3-7 (0 STXR .. 5 TARGET_B): 8 bytes. */
static XE_UNUSED void xe_val(xe_buf *b, unsigned kind, uint64_t v)
{
    xe_byte(b, (uint8_t)(3u | ((kind & 31u) << 3)));
    xe_put(b, v, 8);
}

/* Class 4, sub-kind 1: X0..X31, 8 bytes each. */
static XE_UNUSED void xe_allgpr(xe_buf *b, const uint64_t x[32])
{
    unsigned i;
    xe_byte(b, (uint8_t)(4u | (1u << 3)));
    for (i = 0; i < 32; i++) xe_put(b, x[i], 8);
}

/* Class 4, sub-kind 3: 8 bytes of NZCV. */
static XE_UNUSED void xe_misc_flags(xe_buf *b, uint64_t nzcv)
{
    xe_byte(b, (uint8_t)(4u | (3u << 3)));
    xe_put(b, nzcv, 8);
}

/* Class 4, sub-kind 4: 8-byte count n, then n entries of base and length
   (8 bytes each); with data, entry i is followed by len[i] bytes data[i]
   (the IOVEC_DATA reading; a NULL data[i] writes zeros). */
static XE_UNUSED void xe_syscall_vec(xe_buf *b, uint64_t n, const uint64_t *base, const uint64_t *len,
                                     const uint8_t *const *data)
{
    uint64_t i;
    xe_byte(b, (uint8_t)(4u | (4u << 3)));
    xe_put(b, n, 8);
    for (i = 0; i < n; i++) {
        xe_put(b, base[i], 8);
        xe_put(b, len[i], 8);
        if (data) {
            if (data[i])
                xe_raw(b, data[i], (size_t)len[i]);
            else
                xe_zeros(b, (size_t)len[i]);
        }
    }
}

/* Class 7, sub-kind 0: `size` (1..8) data bytes, the low bytes of v. */
static XE_UNUSED void xe_time(xe_buf *b, unsigned size, uint64_t v)
{
    xe_byte(b, 7u);
    xe_put(b, v, size);
}

/* pad16(n): n rounded up to a multiple of 16. */
static XE_UNUSED size_t xe_pad16(size_t n) { return (n + 15u) & ~(size_t)15u; }

/* The snapshot size at vl bits (vl a multiple of 128, 128..2048). */
static XE_UNUSED size_t xe_snap_size(uint32_t vl)
{
    size_t B = vl / 8u;
    return 4u * 8u + 32u * 8u + 32u * xe_pad16(B) + 16u * xe_pad16(B / 8u) + xe_pad16(B / 8u) + xe_pad16(B * B) +
           11u * 8u + 8u;
}

/* Byte i of vector register r under the fill rule. */
static XE_UNUSED uint8_t xe_vreg_byte(uint8_t fill, unsigned r, size_t i)
{
    return (uint8_t)(fill + 7u * r + (unsigned)i);
}

/* 24 bytes: magic 4, point 4, version 8, split 1, stream 1, time 1, 5 zero. */
static XE_UNUSED void xe_snap_header(xe_buf *b, uint32_t magic, uint32_t point, uint64_t version, uint8_t split,
                                     uint8_t stream, uint8_t time)
{
    xe_put(b, magic, 4);
    xe_put(b, point, 4);
    xe_put(b, version, 8);
    xe_byte(b, split);
    xe_byte(b, stream);
    xe_byte(b, time);
    xe_zeros(b, 5);
}

static XE_UNUSED void xe__vreg(xe_buf *b, uint8_t fill, unsigned r, size_t size)
{
    uint8_t *d = xe__grow(b, xe_pad16(size));
    size_t i;
    for (i = 0; i < size; i++) d[i] = xe_vreg_byte(fill, r, i);
    for (; i < xe_pad16(size); i++) d[i] = 0;
    b->len += xe_pad16(size);
}

/* One snapshot in the snapshot layout of docs/xtrace.md at vl; vl_field is the trailing VL field. */
static XE_UNUSED void xe_snapshot(xe_buf *b, uint32_t vl, const xe_snap *s, uint64_t vl_field)
{
    size_t B = vl / 8u;
    unsigned i;
    xe_put(b, s->file_no, 8);
    xe_put(b, s->index, 8);
    xe_put(b, s->user_insns, 8);
    xe_put(b, s->total_insns, 8);
    for (i = 0; i < 32; i++) xe_put(b, s->x[i], 8);
    for (i = 0; i < 32; i++) xe__vreg(b, s->fill, XE_REG_Z0 + i, B);
    for (i = 0; i < 16; i++) xe__vreg(b, s->fill, XE_REG_P0 + i, B / 8u);
    xe__vreg(b, s->fill, XE_REG_FFR, B / 8u);
    xe__vreg(b, s->fill, XE_REG_ZA, B * B);
    for (i = 0; i < 11; i++) xe_put(b, s->sysreg[i], 8);
    xe_put(b, vl_field, 8);
}

#endif /* XTRACE_ENCODER_H */
