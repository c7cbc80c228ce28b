/* matrix_ipt_tu.c - the Intel PT translation unit of the compile matrix
   (tests/matrix/matrix.sh), compiled as C and C++ with these macros:
     MX_HEADER    "path" of the header (single/tdec_ipt.h or tracedec.h)
     MX_HEADER2   optional second header, included after the first
     MX_NAME      suffix of this TU's exported function mx_ipt_<NAME>()
     MX_MAIN      also define main(), calling mx_ipt_a() and mx_ipt_b()
     MX_PARTIAL   call only init/feed/next/finish (a TDEC_STATIC user who
                  must not get "unused" warnings)
     MX_NO_IPT    the header must declare no ipt API (TDEC_NO_IPT)
   Nothing here uses libc: the same file is the freestanding Cortex-M object. */
#include MX_HEADER
#ifdef MX_HEADER2
#include MX_HEADER2
#endif

#define MX_CAT2(a, b) a##b
#define MX_CAT(a, b) MX_CAT2(a, b)
#define MX_USE MX_CAT(mx_ipt_, MX_NAME)

#ifdef __cplusplus
extern "C" {
#endif
int mx_ipt_a(void);
int mx_ipt_b(void);
#ifdef __cplusplus
}
#endif

#ifdef MX_NO_IPT

#ifdef TDEC_IPT_H_INCLUDED
#error "TDEC_NO_IPT: the ipt declarations are still there"
#endif
/* Conflicts with the library's declaration if the header still made one. */
static int tdec_ipt_init(int x) { return x + 1; }

int MX_USE(void)
{
    return tdec_ipt_init(-1);
}

#else /* !MX_NO_IPT */

/* Two garbage bytes, a PSB, FUP (sext-48 0x1000), MODE.Exec 64-bit, PSBEND,
   TNT-8 (3 bits), TIP update-16 0x2000, PAD, CYC 0x57, TSC: a gap and 9
   packets. */
static const unsigned char mx_trace[] = {
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

/* Decodes the trace; returns the item count, or -1. *tip gets the TIP's
   reconstructed IP. */
static int mx_decode(uint64_t *tip)
{
    tdec_ipt_decoder d;
    tdec_ipt_item it;
    tdec_status st;
    int items = 0, fed = 0;
    st = tdec_ipt_init(&d, NULL);
    *tip = 0;
    while (st >= 0) {
        st = tdec_ipt_next(&d, &it);
        if (st == TDEC_OK) {
            items++;
            if (it.kind == TDEC_ITEM_RECORD && it.u.pkt.kind == TDEC_IPT_TIP) *tip = it.u.pkt.payload;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        st = fed ? tdec_ipt_finish(&d) : tdec_ipt_feed(&d, mx_trace, sizeof mx_trace);
        fed = 1;
    }
    return st == TDEC_END ? items : -1;
}

#ifdef MX_PARTIAL
int MX_USE(void)
{
    uint64_t tip;
    return mx_decode(&tip) == 10 && tip == 0x2000u ? 0 : 1;
}
#else
/* The batch call, the last-IP, the buffer sync helpers and the strings. */
static int mx_extras(void)
{
    tdec_ipt_decoder d;
    tdec_ipt_item items[16];
    tdec_ipt_last_ip lip;
    size_t n = 0, psb = 0, list[2];
    uint64_t ip = 0;
    uint64_t tip;
    tdec_status fup = TDEC_E_ARG;
    if (mx_decode(&tip) != 10 || tip != 0x2000u) return 1;
    if (tdec_ipt_init(&d, NULL) != TDEC_NEED_INPUT || tdec_ipt_feed(&d, mx_trace, sizeof mx_trace) != TDEC_NEED_INPUT ||
        tdec_ipt_next_n(&d, items, 16, &n) != TDEC_NEED_INPUT || n != 10)
        return 2;
    if (items[0].kind != TDEC_ITEM_GAP || items[0].u.gap.len != 2 || items[1].u.pkt.kind != TDEC_IPT_PSB) return 3;
    tdec_ipt_last_ip_init(&lip);
    for (n = 1; n < 10; n++)
        if (items[n].u.pkt.kind == TDEC_IPT_FUP || items[n].u.pkt.kind == TDEC_IPT_TIP)
            fup = tdec_ipt_last_ip_update(&lip, &items[n].u.pkt, NULL);
    if (fup != TDEC_OK || tdec_ipt_last_ip_query(&lip, &ip, NULL) != TDEC_OK || ip != 0x2000u) return 4;
    if (tdec_ipt_sync_forward(mx_trace, sizeof mx_trace, 0, &psb) != TDEC_OK || psb != 2) return 5;
    if (tdec_ipt_sync_at(mx_trace, sizeof mx_trace, 2) != TDEC_OK) return 6;
    if (tdec_ipt_psb_list(mx_trace, sizeof mx_trace, list, 2, &n) != TDEC_OK || n != 1 || list[0] != 2) return 7;
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
    st = tdec_ipt_evt_feed(&e, mx_trace, sizeof mx_trace);
    while ((st = tdec_ipt_evt_next(&e, &it)) == TDEC_OK || st == TDEC_NEED_INPUT) {
        if (st == TDEC_NEED_INPUT) { /* finish(), then next() until TDEC_END */
            if (ended++ || tdec_ipt_evt_finish(&e) < 0) return 10;
            continue;
        }
        if (n == 0 ? it.kind != TDEC_IPT_ITEM_SYNC || it.offset != 2
                   : n > 4 || it.ev.type != want[n - 1])
            return 11;
        n++;
    }
    if (st != TDEC_END || n != 5) return 12;
    tdec_ipt_qry_init(&q, NULL);
    tdec_ipt_qry_feed(&q, mx_trace, sizeof mx_trace);
    if (tdec_ipt_qry_sync(&q, &ip, &flags, NULL) != TDEC_OK || ip != 0x1000u ||
        flags != TDEC_IPT_QF_EVENT_PENDING)
        return 14;
    for (n = 0; n < 2; n++)
        if (tdec_ipt_qry_event(&q, &ev, &flags) != TDEC_OK || ev.type != want[n]) return 15;
    for (n = 0; n < 3; n++) {
        if (tdec_ipt_qry_cond_branch(&q, &taken, &flags) != TDEC_OK) return 16;
        bits = bits << 1 | taken;
    }
    if (tdec_ipt_qry_cond_branch(&q, &taken, &flags) != TDEC_E_SEQUENCE) return 17;
    /* What follows the TIP is only known at the end. */
    if (tdec_ipt_qry_indirect_branch(&q, &ip, &flags) != TDEC_NEED_INPUT ||
        tdec_ipt_qry_finish(&q) != TDEC_NEED_INPUT)
        return 13;
    if (tdec_ipt_qry_indirect_branch(&q, &ip, &flags) != TDEC_OK || ip != 0x2000u ||
        flags != TDEC_IPT_QF_EOS)
        return 18;
    return bits == 5 && tdec_ipt_qry_event(&q, &ev, &flags) == TDEC_END ? 0 : 19;
}

int MX_USE(void)
{
    int r = mx_extras();
    return r ? r : mx_layer2();
}
#endif /* MX_PARTIAL */

#endif /* MX_NO_IPT */

#ifdef MX_MAIN
int main(void)
{
    return mx_ipt_a() != 0 || mx_ipt_b() != 0;
}
#endif
