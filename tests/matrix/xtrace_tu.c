/* matrix_xtrace_tu.c - the xtrace translation unit of the compile matrix
   (tests/matrix/matrix.sh), compiled as C and C++ with these macros:
     MX_HEADER    "path" of the header (single/tdec_xtrace.h or tracedec.h)
     MX_HEADER2   optional second header, included after the first
     MX_NAME      suffix of this TU's exported function mx_xtrace_<NAME>()
     MX_MAIN      also define main(), calling mx_xtrace_a() and mx_xtrace_b()
     MX_PARTIAL   call only init/feed/next/finish (a TDEC_STATIC user who
                  must not get "unused" warnings)
     MX_NO_XTRACE the header must declare no xtrace API (TDEC_NO_XTRACE)
   Nothing here uses libc: the same file is the freestanding Cortex-M object. */
#include MX_HEADER
#ifdef MX_HEADER2
#include MX_HEADER2
#endif

#define MX_CAT2(a, b) a##b
#define MX_CAT(a, b) MX_CAT2(a, b)
#define MX_USE MX_CAT(mx_xtrace_, MX_NAME)

#ifdef __cplusplus
extern "C" {
#endif
int mx_xtrace_a(void);
int mx_xtrace_b(void);
#ifdef __cplusplus
}
#endif

#ifdef MX_NO_XTRACE

#ifdef TDEC_XTRACE_H_INCLUDED
#error "TDEC_NO_XTRACE: the xtrace declarations are still there"
#endif
/* Conflicts with the library's declaration if the header still made one. */
static int tdec_xtrace_init(int x) { return x + 1; }

int MX_USE(void)
{
    return tdec_xtrace_init(-1);
}

#else /* !MX_NO_XTRACE */

/* A little-endian instruction stream: PCINST (pc 0x400000, NOP), INST,
   LOAD of 8 bytes, STORE of 16 bytes (one fragment), VAL SVCRET, TIME,
   SYSCALL_VEC with one entry. Nine items: 8 records, 1 fragment. */
static const unsigned char mx_insn[] = {
    0x09, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f, 0x20, 0x03, 0xd5,
    0x01, 0x20, 0x00, 0x40, 0xf9,
    0x32, 0x10, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
    0x4a, 0x20, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    0x1b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0x07, 42, 0, 0, 0, 0, 0, 0, 0,
    0x24, 1, 0, 0, 0, 0, 0, 0, 0,
    0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x05, 0, 0, 0, 0, 0, 0, 0
};

/* Decodes data with cfg; returns the item count, or -1. *last gets the
   last record. */
static tdec_xtrace_record mx_no_record; /* static: zeroed, no libc in this TU */

static int mx_decode(const tdec_xtrace_config *cfg, const void *data, size_t len, tdec_xtrace_record *last)
{
    tdec_xtrace_decoder d;
    tdec_xtrace_item it;
    tdec_status st;
    int items = 0, fed = 0;
    *last = mx_no_record;
    st = tdec_xtrace_init(&d, cfg);
    while (st >= 0) {
        st = tdec_xtrace_next(&d, &it);
        if (st == TDEC_OK) {
            items++;
            if (it.kind == TDEC_ITEM_RECORD) *last = it.u.rec;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        st = fed ? tdec_xtrace_finish(&d) : tdec_xtrace_feed(&d, data, len);
        fed = 1;
    }
    return st == TDEC_END ? items : -1;
}

/* The instruction stream: 9 items, the last an IOVEC of the instruction
   at index 1, PC 0x400004. */
static int mx_insn_stream(void)
{
    tdec_xtrace_record last;
    if (mx_decode(NULL, mx_insn, sizeof mx_insn, &last) != 9) return 1;
    return last.type == TDEC_XTRACE_REC_IOVEC && last.index == 1 && last.pc == 0x400004u && last.value == 5 ? 0 : 2;
}

#ifdef MX_PARTIAL
int MX_USE(void)
{
    return mx_insn_stream();
}
#else
#define MX_SNAP128 1424u

/* A VL 128 snapshot without header: counters 1..4, X i = i, zero vector
   registers, VL field 128 last. */
static unsigned char mx_snap[MX_SNAP128];

static void mx_make_snap(void)
{
    unsigned i;
    for (i = 0; i < MX_SNAP128; i++) mx_snap[i] = 0;
    for (i = 0; i < 4; i++) mx_snap[8 * i] = (unsigned char)(i + 1);
    for (i = 0; i < 32; i++) mx_snap[32 + 8 * i] = (unsigned char)i;
    mx_snap[MX_SNAP128 - 8] = 128;
}

/* The snapshot through the decoder, snap_view and snap_detect; file names.
   Returns 0 or a failing step. */
static int mx_extras(void)
{
    static const char name[] = "run/xtrace.1700000000.42.hint9.xinsndata.bin";
    tdec_xtrace_config cfg;
    tdec_xtrace_record last;
    static tdec_xtrace_snapshot s; /* static: zeroed, no libc in this TU */
    tdec_xtrace_name a, b;
    char pair[64];
    uint32_t vl = 0;
    int hh = -1;
    mx_make_snap();
    cfg.kind = TDEC_XTRACE_KIND_SNAPSHOT;
    cfg.flags = 0;
    cfg.max_fragment = 0;
    cfg.time_size = 0;
    cfg.max_iovecs = 0;
    cfg.max_iov_len = 0;
    cfg.token_size = NULL;
    cfg.vl = 128;
    cfg.snap_header = TDEC_XTRACE_HDR_AUTO;
    cfg.file_size = MX_SNAP128;
    /* 95 records and 50 fragments (Z0..Z31, P0..P15, FFR, ZA) */
    if (mx_decode(&cfg, mx_snap, sizeof mx_snap, &last) != 145) return 3;
    if (last.type != TDEC_XTRACE_REC_REG || last.reg != TDEC_XTRACE_REG_VL || last.value != 128) return 4;
    if (tdec_xtrace_snap_size(128) != MX_SNAP128 || tdec_xtrace_snap_size(256) != 2704u) return 5;
    if (tdec_xtrace_snap_view(mx_snap, sizeof mx_snap, 128, 0, &s) != TDEC_OK || s.total_insns != 4 || s.x[31] != 31 ||
        s.za != mx_snap + 288 + 32 * 16 + 17 * 16 || s.za_size != 256)
        return 6;
    if (tdec_xtrace_snap_detect(mx_snap, sizeof mx_snap, MX_SNAP128, TDEC_XTRACE_HDR_AUTO, 0, &vl, &hh) != TDEC_OK ||
        vl != 128 || hh != 0)
        return 7;
    if (tdec_xtrace_parse_name(name, sizeof name - 1, &a) != TDEC_OK || a.timestamp != 1700000000u || a.id != 42 ||
        a.hint != 9 || a.kind != TDEC_XTRACE_KIND_INSN)
        return 8;
    if (tdec_xtrace_pair_name(name, sizeof name - 1, pair, sizeof pair) != TDEC_OK ||
        tdec_xtrace_parse_name(pair, sizeof name - 1, &b) != TDEC_OK || !tdec_xtrace_is_pair(&a, &b) ||
        pair[sizeof name - 1] != 0)
        return 9;
    if (tdec_xtrace_reg_str(TDEC_XTRACE_REG_ZA) == NULL || tdec_xtrace_reg_str(50) != NULL) return 10;
#ifdef TDEC_NO_STRINGS
    return tdec_xtrace_type_str(TDEC_XTRACE_REC_INST)[0] == 0 && tdec_xtrace_reason_str(TDEC_XTRACE_R_VL)[0] == 0 ? 0 : 11;
#else
    return tdec_xtrace_type_str(TDEC_XTRACE_REC_INST)[0] == 'I' && tdec_xtrace_val_str(5)[0] == 'T' &&
                   tdec_xtrace_reason_str(TDEC_XTRACE_R_VL)[0]
               ? 0
               : 11;
#endif
}

int MX_USE(void)
{
    int r = mx_insn_stream();
    return r ? r : mx_extras();
}
#endif /* MX_PARTIAL */

#endif /* MX_NO_XTRACE */

#ifdef MX_MAIN
int main(void)
{
    return mx_xtrace_a() != 0 || mx_xtrace_b() != 0;
}
#endif
