/* tu.c - the translation unit of the compile matrix (tests/matrix/matrix.mk
   builds it, tests/matrix/matrix.sh runs it). One file for the five formats,
   compiled as C and as C++ with these macros:

     MX_FMT         the format: xray, uftrace, ovni, xtrace or ipt
     MX_HEADER      "path" of the header (single/tdec_FMT.h or tracedec.h)
     MX_HEADER2     optional second header, included after the first
     MX_HEADER_ONLY nothing but the headers (the implementation object)
     MX_NAME        suffix of this TU's exported function mx_use_<NAME>()
     MX_MAIN        also define main(), which calls mx_use_a() and mx_use_b()
                    (the other TU of the pair)
     MX_PARTIAL     call only the decoding loop (a TDEC_STATIC user who must
                    not get "unused" warnings)
     MX_NO_API      the header must declare no API of the format
                    (TDEC_NO_FMT, or TDEC_ONLY_ another format)
     MX_SIZEOF      only the sizes of the decoder and item types, as arrays
                    that nm -S reads back on any target
     MX_SIZEOF_DOC  "path" of a list of MX_DOC(type, lp64, ilp32) lines, the
                    sizes the header documents: each is checked at compile
                    time on LP64, or on ILP32 with MX_ILP32

   The implementation macros (TDEC_FMT_IMPLEMENTATION, TRACEDEC_IMPLEMENTATION,
   TDEC_STATIC, ...) come from the Makefile. Nothing here uses libc: the same
   file is the freestanding Cortex-M object. */
#include MX_HEADER
#ifdef MX_HEADER2
#include MX_HEADER2
#endif

#define MX_CAT2(a, b) a##b
#define MX_CAT(a, b) MX_CAT2(a, b)
/* MX_API(init) is tdec_<MX_FMT>_init */
#define MX_API(name) MX_CAT(MX_CAT(tdec_, MX_FMT), MX_CAT(_, name))
#define MX_xray 1
#define MX_uftrace 2
#define MX_ovni 3
#define MX_xtrace 4
#define MX_ipt 5
#define MX_IS(fmt) (MX_CAT(MX_, MX_FMT) == MX_##fmt)

#if defined MX_HEADER_ONLY

#elif defined MX_SIZEOF_DOC
#ifdef MX_ILP32
#define MX_DOC(type, lp64, ilp32) typedef char type##_is_##ilp32##_bytes_on_ILP32[sizeof(type) == ilp32 ? 1 : -1];
#else
#define MX_DOC(type, lp64, ilp32) typedef char type##_is_##lp64##_bytes_on_LP64[sizeof(type) == lp64 ? 1 : -1];
#endif
#include MX_SIZEOF_DOC

#elif defined MX_SIZEOF
char mx_sizeof_decoder[sizeof(MX_API(decoder))];
char mx_sizeof_item[sizeof(MX_API(item))];

#else /* the pair's TU */

#define MX_USE MX_CAT(mx_use_, MX_NAME)
#ifdef __cplusplus
extern "C" {
#endif
int mx_use_a(void);
int mx_use_b(void);
#ifdef __cplusplus
}
#endif

#ifdef MX_NO_API

#if MX_IS(xray) && defined TDEC_XRAY_H_INCLUDED || MX_IS(uftrace) && defined TDEC_UFTRACE_H_INCLUDED || \
    MX_IS(ovni) && defined TDEC_OVNI_H_INCLUDED || MX_IS(xtrace) && defined TDEC_XTRACE_H_INCLUDED ||   \
    MX_IS(ipt) && defined TDEC_IPT_H_INCLUDED
#error "the format's declarations are still there"
#endif
/* Conflicts with the library's declaration if the header still made one. */
static int MX_API(init)(int x) { return x + 1; }

int MX_USE(void)
{
    return MX_API(init)(-1) + (tdec_status_str(TDEC_E_CORRUPT) != NULL ? 0 : 1);
}

#else /* !MX_NO_API */

static tdec_status mx_on_item(MX_API(decoder) *d, const MX_API(item) *it);

/* The canonical loop over data fed in chunks of `chunk` bytes, on d just
   initialised (init returned st). Returns the item count, or -1 unless the
   stream ends with TDEC_END. Every item goes through mx_on_item. */
static int mx_decode(MX_API(decoder) *d, tdec_status st, const unsigned char *data, size_t len, size_t chunk)
{
    MX_API(item) it;
    size_t fed = 0, n;
    int items = 0;
    while (st >= 0) {
        st = MX_API(next)(d, &it);
        if (st == TDEC_OK) {
            items++;
            st = mx_on_item(d, &it);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = len - fed < chunk ? len - fed : chunk;
        st = n ? MX_API(feed)(d, data + fed, n) : MX_API(finish)(d);
        fed += n;
    }
    return st == TDEC_END ? items : -1;
}

/* Each format: mx_data (a small stream), mx_on_item, mx_check() (the
   decoding loop only: 0 or a failing step) and, unless MX_PARTIAL,
   mx_extras() (the rest of the API: 0 or a failing step). */

#if MX_IS(xray)

/* A hand-made FDR v5 log: header, one buffer (extents, NewBuffer, NewCPUId,
   enter, exit). Six items. */
static const unsigned char mx_data[] = {
    5, 0, 1, 0, 3, 0, 0, 0,                      /* version 5, FDR, flags   */
    0x00, 0xCA, 0x9A, 0x3B, 0, 0, 0, 0,          /* 1e9 ticks/s             */
    0, 0x10, 0, 0, 0, 0, 0, 0,                   /* buffer size 4096        */
    0, 0, 0, 0, 0, 0, 0, 0,
    0x0F, 48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* extents: 48 B */
    0x01, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* NewBuffer 7    */
    0x05, 1, 0, 0xE8, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* cpu 1 @1000  */
    0x10, 0, 0, 0, 5, 0, 0, 0,                   /* enter fid 1, +5         */
    0x12, 0, 0, 0, 9, 0, 0, 0                    /* exit fid 1, +9          */
};
static uint64_t mx_tsc; /* of the last function record */

static tdec_status mx_on_item(tdec_xray_decoder *d, const tdec_xray_item *it)
{
    (void)d;
    if (it->kind == TDEC_ITEM_RECORD && it->u.rec.type == TDEC_XRAY_REC_FUNCTION) mx_tsc = it->u.rec.tsc;
    return TDEC_OK;
}

/* Odd chunks: records straddle them. */
static int mx_run(tdec_xray_decoder *d, tdec_status st)
{
    return mx_decode(d, st, mx_data, sizeof mx_data, 13) == 6 && mx_tsc == 1014 ? 0 : 1;
}

static int mx_check(void)
{
    tdec_xray_decoder d;
    return mx_run(&d, tdec_xray_init(&d, NULL));
}

#ifndef MX_PARTIAL
/* The header getters, strict mode, resync and reset. */
static int mx_extras(void)
{
    tdec_xray_decoder d;
    tdec_xray_config cfg;
    tdec_xray_header h;
    tdec_status st;
    uint32_t why = 0;
    cfg.flags = TDEC_XRAY_F_STRICT;
    cfg.max_fragment = 0;
    cfg.max_payload = 0;
    if (tdec_xray_parse_header(mx_data, sizeof mx_data, &h, &why) != TDEC_OK) return 2;
    if (tdec_xray_header_version(mx_data) != 5 || tdec_xray_header_file_type(mx_data) != 1 ||
        tdec_xray_header_tsc_flags(mx_data) != 3 || tdec_xray_header_cycle_frequency(mx_data) != 1000000000u ||
        tdec_xray_header_buffer_size(mx_data) != 4096u)
        return 3;
    st = tdec_xray_init(&d, &cfg);
    if (tdec_xray_resync(&d) != TDEC_E_NOSYNC) return 4; /* no header yet */
    tdec_xray_reset(&d);
    if (tdec_status_str(st) == NULL || tdec_xray_reason_str(why) == NULL) return 5;
    return mx_run(&d, st) ? 6 : 0;
}
#endif

#elif MX_IS(uftrace)

/* Two records of a little-endian <tid>.dat: ENTRY depth 0 addr 0x1234 with
   a one-argument block (i32 7), then its EXIT. Four items: entry, arg,
   args-end, exit. */
static const unsigned char mx_data[] = {
    1, 0, 0, 0, 0, 0, 0, 0, 0x2C, 0, 0x34, 0x12, 0, 0, 0, 0, /* entry, more, magic 5 */
    7, 0, 0, 0, 0, 0, 0, 0,                                  /* arg1 i32 = 7, pad 8  */
    2, 0, 0, 0, 0, 0, 0, 0, 0x29, 0, 0x34, 0x12, 0, 0, 0, 0  /* exit, magic 5        */
};
static tdec_uftrace_argspec mx_spec; /* "arg1/i32" */
static uint64_t mx_value;            /* of the ARG record */

static tdec_status mx_on_item(tdec_uftrace_decoder *d, const tdec_uftrace_item *it)
{
    if (it->kind == TDEC_ITEM_RECORD && it->u.rec.type == TDEC_UFTRACE_REC_ARG) mx_value = it->u.rec.value;
    return tdec_uftrace_needs_spec(d) ? tdec_uftrace_set_spec(d, &mx_spec) : TDEC_OK;
}

static int mx_check(void)
{
    static const char arg[] = "arg1/i32";
    tdec_uftrace_decoder d;
    tdec_uftrace_spec_item item;
    if (tdec_uftrace_parse_spec_item(arg, sizeof arg - 1, &item) != TDEC_OK) return 1;
    mx_spec.count = 1;
    if (tdec_uftrace_spec_item_layout(&item, 8, 10, &mx_spec.args[0]) != TDEC_OK) return 2;
    return mx_decode(&d, tdec_uftrace_init(&d, NULL), mx_data, sizeof mx_data, sizeof mx_data) == 4 &&
                   mx_value == 7
               ? 0
               : 3;
}

#ifndef MX_PARTIAL
/* A task line of task.txt. */
static int mx_extras(void)
{
    static const char line[] = "TASK timestamp=1.5 tid=7 pid=7";
    tdec_uftrace_task_line task;
    return tdec_uftrace_parse_task_line(line, sizeof line - 1, &task) == TDEC_OK && task.time == 1500000000u ? 0 : 4;
}
#endif

#elif MX_IS(ovni)

/* A little-endian stream: header, OHx (cpu 2, tid -1, tag 0x10), a jumbo
   6Yc (type 1, "t1"), OHe. Five items: header, 3 events, 1 fragment. */
static const unsigned char mx_data[] = {
    'o', 'v', 'n', 'i', 1, 0, 0, 0,
    0x0F, 'O', 'H', 'x', 1, 0, 0, 0, 0, 0, 0, 0,
    2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0, 0, 0, 0, 0, 0, 0,
    0x13, '6', 'Y', 'c', 2, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0,
    1, 0, 0, 0, 't', '1', 0,
    0x00, 'O', 'H', 'e', 3, 0, 0, 0, 0, 0, 0, 0
};
static tdec_ovni_record mx_ohx; /* the OHx event */

static tdec_status mx_on_item(tdec_ovni_decoder *d, const tdec_ovni_item *it)
{
    (void)d;
    if (it->kind == TDEC_ITEM_RECORD && it->u.rec.mcv[2] == 'x') mx_ohx = it->u.rec;
    return TDEC_OK;
}

static int mx_check(void)
{
    tdec_ovni_decoder d;
    return mx_decode(&d, tdec_ovni_init(&d, NULL), mx_data, sizeof mx_data, sizeof mx_data) == 5 ? 0 : 1;
}

#ifndef MX_PARTIAL
/* JSON metadata, a description of the OHx event, the signature table. */
static int mx_extras(void)
{
    static const char doc[] = "{\"version\": 3, // v3\n \"ovni\": {\"tid\": 7, \"loom\": \"node0\"}}";
    static const tdec_ovni_sig sig = {"OHx(i32 cpu, i32 tid, u64 tag)", "cpu %{cpu} tid %{tid} tag %#llx{tag}"};
    static const char want[] = "cpu 2 tid -1 tag 0x10";
    tdec_ovni_json_token tok[16];
    tdec_ovni_json j;
    tdec_ovni_meta m;
    char buf[64], loom[8];
    size_t n, k;
    if (tdec_ovni_json_parse(&j, doc, sizeof doc - 1, tok, 16) != TDEC_OK) return 2;
    if (tdec_ovni_meta_read(&j, &m) != TDEC_OK || m.version != 3 || m.tid != 7) return 3;
    if (tdec_ovni_json_string(&j, m.loom, loom, sizeof loom, &n) != TDEC_OK || n != 5 || loom[4] != '0') return 4;
    if (tdec_ovni_describe(&sig, &mx_ohx, NULL, 0, buf, sizeof buf, &n) != TDEC_OK || n != sizeof want - 1) return 5;
    for (k = 0; k < n; k++)
        if (buf[k] != want[k]) return 6;
    if (tdec_ovni_model_str('O') == NULL || tdec_ovni_parse_header(mx_data, 8, NULL, NULL) != TDEC_OK) return 7;
    /* the signature table is empty without strings */
#ifdef TDEC_NO_STRINGS
    return tdec_ovni_sig_find(mx_ohx.mcv) == NULL ? 0 : 8;
#else
    return tdec_ovni_sig_find(mx_ohx.mcv) != NULL && tdec_ovni_reason_str(TDEC_OVNI_R_CLOCK)[0] ? 0 : 8;
#endif
}
#endif

#elif MX_IS(xtrace)

/* A little-endian instruction stream: PCINST (pc 0x400000, NOP), INST,
   LOAD of 8 bytes, STORE of 16 bytes (one fragment), VAL SVCRET, TIME,
   SYSCALL_VEC with one entry. Nine items: 8 records, 1 fragment. */
static const unsigned char mx_data[] = {
    0x09, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f, 0x20, 0x03, 0xd5,
    0x01, 0x20, 0x00, 0x40, 0xf9,
    0x32, 0x10, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
    0x4a, 0x20, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    0x1b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0x07, 42, 0, 0, 0, 0, 0, 0, 0,
    0x24, 1, 0, 0, 0, 0, 0, 0, 0,
    0x00, 0x10, 0, 0, 0, 0, 0, 0, 0x05, 0, 0, 0, 0, 0, 0, 0
};
static tdec_xtrace_record mx_last; /* the last record */

static tdec_status mx_on_item(tdec_xtrace_decoder *d, const tdec_xtrace_item *it)
{
    (void)d;
    if (it->kind == TDEC_ITEM_RECORD) mx_last = it->u.rec;
    return TDEC_OK;
}

/* The last item is an IOVEC of the instruction at index 1, PC 0x400004. */
static int mx_check(void)
{
    tdec_xtrace_decoder d;
    if (mx_decode(&d, tdec_xtrace_init(&d, NULL), mx_data, sizeof mx_data, sizeof mx_data) != 9) return 1;
    return mx_last.type == TDEC_XTRACE_REC_IOVEC && mx_last.index == 1 && mx_last.pc == 0x400004u &&
                   mx_last.value == 5
               ? 0
               : 2;
}

#ifndef MX_PARTIAL
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

/* The snapshot through the decoder, snap_view and snap_detect; file names. */
static int mx_extras(void)
{
    static const char name[] = "run/xtrace.1700000000.42.hint9.xinsndata.bin";
    static tdec_xtrace_snapshot s;  /* static: zeroed, no libc in this TU */
    static tdec_xtrace_config cfg; /* the same */
    tdec_xtrace_decoder d;
    tdec_xtrace_name a, b;
    char pair[64];
    uint32_t vl = 0;
    int hh = -1;
    mx_make_snap();
    cfg.kind = TDEC_XTRACE_KIND_SNAPSHOT;
    cfg.vl = 128;
    cfg.snap_header = TDEC_XTRACE_HDR_AUTO;
    cfg.file_size = MX_SNAP128;
    /* 95 records and 50 fragments (Z0..Z31, P0..P15, FFR, ZA) */
    if (mx_decode(&d, tdec_xtrace_init(&d, &cfg), mx_snap, sizeof mx_snap, sizeof mx_snap) != 145) return 3;
    if (mx_last.type != TDEC_XTRACE_REC_REG || mx_last.reg != TDEC_XTRACE_REG_VL || mx_last.value != 128) return 4;
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
#endif

#elif MX_IS(ipt)

/* Two garbage bytes, a PSB, FUP (sext-48 0x1000), MODE.Exec 64-bit, PSBEND,
   TNT-8 (3 bits), TIP update-16 0x2000, PAD, CYC 0x57, TSC: a gap and 9
   packets. */
static const unsigned char mx_data[] = {
    0x55, 0x55,
    0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
    0x7d, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00,
    0x99, 0x01,
    0x02, 0x23,
    0x1a,
    0x2d, 0x00, 0x20,
    0x00,
    0xbf, 0x04,
    0x19, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07
};
static uint64_t mx_tip; /* the TIP's reconstructed IP */

static tdec_status mx_on_item(tdec_ipt_decoder *d, const tdec_ipt_item *it)
{
    (void)d;
    if (it->kind == TDEC_ITEM_RECORD && it->u.pkt.kind == TDEC_IPT_TIP) mx_tip = it->u.pkt.payload;
    return TDEC_OK;
}

static int mx_check(void)
{
    tdec_ipt_decoder d;
    return mx_decode(&d, tdec_ipt_init(&d, NULL), mx_data, sizeof mx_data, sizeof mx_data) == 10 &&
                   mx_tip == 0x2000u
               ? 0
               : 1;
}

#ifndef MX_PARTIAL
/* The batch call, the last-IP, the buffer sync helpers and the strings. */
static int mx_packets(void)
{
    tdec_ipt_decoder d;
    tdec_ipt_item items[16];
    tdec_ipt_last_ip lip;
    size_t n = 0, list[2];
    uint64_t ip = 0;
    size_t psb = 0;
    tdec_status fup = TDEC_E_ARG;
    if (tdec_ipt_init(&d, NULL) != TDEC_NEED_INPUT || tdec_ipt_feed(&d, mx_data, sizeof mx_data) != TDEC_NEED_INPUT ||
        tdec_ipt_next_n(&d, items, 16, &n) != TDEC_NEED_INPUT || n != 10)
        return 2;
    if (items[0].kind != TDEC_ITEM_GAP || items[0].u.gap.len != 2 || items[1].u.pkt.kind != TDEC_IPT_PSB) return 3;
    tdec_ipt_last_ip_init(&lip);
    for (n = 1; n < 10; n++)
        if (items[n].u.pkt.kind == TDEC_IPT_FUP || items[n].u.pkt.kind == TDEC_IPT_TIP)
            fup = tdec_ipt_last_ip_update(&lip, &items[n].u.pkt, NULL);
    if (fup != TDEC_OK || tdec_ipt_last_ip_query(&lip, &ip, NULL) != TDEC_OK || ip != 0x2000u) return 4;
    if (tdec_ipt_sync_forward(mx_data, sizeof mx_data, 0, &psb) != TDEC_OK || psb != 2) return 5;
    if (tdec_ipt_sync_at(mx_data, sizeof mx_data, 2) != TDEC_OK) return 6;
    if (tdec_ipt_psb_list(mx_data, sizeof mx_data, list, 2, &n) != TDEC_OK || n != 1 || list[0] != 2) return 7;
#ifdef TDEC_NO_STRINGS
    return tdec_ipt_kind_str(TDEC_IPT_TIP)[0] == 0 && tdec_ipt_reason_str(TDEC_IPT_ERR_BAD_OPC)[0] == 0 ? 0 : 8;
#else
    return tdec_ipt_kind_str(TDEC_IPT_TIP)[0] == 't' && tdec_ipt_reason_str(TDEC_IPT_ERR_BAD_OPC)[0] == 'u' ? 0 : 8;
#endif
}

/* Layer 2 on the same trace: events SYNC, enabled and exec_mode (status),
   tnt, tip; queries: sync at 0x1000, two events, three branches, the TIP. */
static int mx_layer2(void)
{
    static tdec_ipt_evt_decoder e;
    static tdec_ipt_qry_decoder q;
    static const unsigned char want[] = {TDEC_IPT_EV_ENABLED, TDEC_IPT_EV_EXEC_MODE, TDEC_IPT_EV_TNT,
                                         TDEC_IPT_EV_TIP};
    tdec_ipt_evt_item it;
    tdec_ipt_event ev;
    tdec_status st;
    uint64_t ip = 0;
    uint32_t flags = 0;
    int n = 0, taken = 0, bits = 0, ended = 0;
    st = tdec_ipt_evt_init(&e, NULL);
    st = tdec_ipt_evt_feed(&e, mx_data, sizeof mx_data);
    while ((st = tdec_ipt_evt_next(&e, &it)) == TDEC_OK || st == TDEC_NEED_INPUT) {
        if (st == TDEC_NEED_INPUT) { /* finish(), then next() until TDEC_END */
            if (ended++ || tdec_ipt_evt_finish(&e) < 0) return 10;
            continue;
        }
        if (n == 0 ? it.kind != TDEC_IPT_ITEM_SYNC || it.offset != 2 : n > 4 || it.ev.type != want[n - 1]) return 11;
        n++;
    }
    if (st != TDEC_END || n != 5) return 12;
    tdec_ipt_qry_init(&q, NULL);
    tdec_ipt_qry_feed(&q, mx_data, sizeof mx_data);
    if (tdec_ipt_qry_sync(&q, &ip, &flags, NULL) != TDEC_OK || ip != 0x1000u || flags != TDEC_IPT_QF_EVENT_PENDING)
        return 14;
    for (n = 0; n < 2; n++)
        if (tdec_ipt_qry_event(&q, &ev, &flags) != TDEC_OK || ev.type != want[n]) return 15;
    for (n = 0; n < 3; n++) {
        if (tdec_ipt_qry_cond_branch(&q, &taken, &flags) != TDEC_OK) return 16;
        bits = bits << 1 | taken;
    }
    if (tdec_ipt_qry_cond_branch(&q, &taken, &flags) != TDEC_E_SEQUENCE) return 17;
    /* What follows the TIP is only known at the end. */
    if (tdec_ipt_qry_indirect_branch(&q, &ip, &flags) != TDEC_NEED_INPUT || tdec_ipt_qry_finish(&q) != TDEC_NEED_INPUT)
        return 13;
    if (tdec_ipt_qry_indirect_branch(&q, &ip, &flags) != TDEC_OK || ip != 0x2000u || flags != TDEC_IPT_QF_EOS)
        return 18;
    return bits == 5 && tdec_ipt_qry_event(&q, &ev, &flags) == TDEC_END ? 0 : 19;
}

#ifdef TDEC_IPT_NO_FLOW
/* Conflicts with the library's declaration if the header still made one. */
static int tdec_ipt_insn_decode(int x) { return x; }
static int mx_insns(void) { return tdec_ipt_insn_decode(0); }
#else
/* The length decoder: a call rel32 back to itself, and its next IP. */
static int mx_insns(void)
{
    static const uint8_t call[] = {0xE8, 0xFB, 0xFF, 0xFF, 0xFF};
    tdec_ipt_insn_info in;
    uint64_t next = 0;
    if (tdec_ipt_insn_decode(call, sizeof call, TDEC_IPT_MODE_64, &in, NULL) != TDEC_OK || in.size != 5 ||
        in.iclass != TDEC_IPT_IC_CALL || in.disp != -5)
        return 20;
    if (tdec_ipt_insn_decode(call, 4, TDEC_IPT_MODE_64, &in, NULL) != TDEC_NEED_INPUT) return 21;
    return tdec_ipt_insn_next_ip(&in, 0x1000u, &next, NULL) == TDEC_OK && next == 0x1000u ? 0 : 22;
}
#endif

static int mx_extras(void)
{
    int r = mx_packets();
    if (r == 0) r = mx_layer2();
    return r ? r : mx_insns();
}
#endif

#else
#error "MX_FMT: xray, uftrace, ovni, xtrace or ipt"
#endif

int MX_USE(void)
{
    int r = mx_check();
#ifndef MX_PARTIAL
    if (r == 0) r = mx_extras();
#endif
    return r;
}

#endif /* MX_NO_API */

#ifdef MX_MAIN
int main(void)
{
    return mx_use_a() != 0 || mx_use_b() != 0;
}
#endif

#endif /* the pair's TU */
