/* matrix_tu.c - one translation unit of the compile matrix (tests/matrix/matrix.sh).
   The script compiles it many times, as C and as C++, with these macros:

     MX_HEADER   "path" of the header to include (-I. is given)
     MX_HEADER2  optional second header, included after the first
     MX_NAME     suffix of this TU's exported function mx_use_<NAME>()
     MX_MAIN     also define main(), which calls mx_use_a() and, with
                 MX_CALL_B, mx_use_b() from another TU
     MX_PARTIAL  call only init/feed/next/finish (a typical user of a
                 TDEC_STATIC build, who must not get "unused" warnings)
     MX_NO_XRAY  the header must declare no xray API (TDEC_NO_XRAY)

   The implementation macros (TDEC_XRAY_IMPLEMENTATION, TRACEDEC_IMPLEMENTATION,
   TDEC_STATIC, ...) are passed by the script. Nothing here uses libc, so the
   same file is the freestanding Cortex-M object. */
#include MX_HEADER
#ifdef MX_HEADER2
#include MX_HEADER2
#endif

#define MX_CAT2(a, b) a##b
#define MX_CAT(a, b) MX_CAT2(a, b)
#define MX_USE MX_CAT(mx_use_, MX_NAME)

#ifdef __cplusplus
extern "C" {
#endif
int mx_use_a(void);
int mx_use_b(void);
#ifdef __cplusplus
}
#endif

#ifdef MX_NO_XRAY

#ifdef TDEC_XRAY_H_INCLUDED
#error "TDEC_NO_XRAY: the xray declarations are still there"
#endif
/* Conflicts with the library's declaration if the header still made one. */
static int tdec_xray_init(int x) { return x + 1; }

int MX_USE(void)
{
    const char *s = tdec_status_str(TDEC_E_CORRUPT);
    return tdec_xray_init(5) + (s != NULL ? 0 : 1);
}

#else /* !MX_NO_XRAY */

/* A hand-made FDR v5 log: header, one buffer (extents, NewBuffer, NewCPUId,
   enter, exit). Six items. */
static const unsigned char mx_trace[] = {
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

int MX_USE(void)
{
    tdec_xray_decoder d;
    tdec_xray_item it;
    tdec_status st;
    size_t fed = 0, n;
    int items = 0;
    uint64_t tsc = 0;

#ifndef MX_PARTIAL
    tdec_xray_config cfg;
    tdec_xray_header h;
    uint32_t why = 0;
    cfg.flags = TDEC_XRAY_F_STRICT;
    cfg.max_fragment = 0;
    cfg.max_payload = 0;
    if (tdec_xray_parse_header(mx_trace, sizeof mx_trace, &h, &why) != TDEC_OK) return -100;
    if (tdec_xray_header_version(mx_trace) != 5 || tdec_xray_header_file_type(mx_trace) != 1 ||
        tdec_xray_header_tsc_flags(mx_trace) != 3 ||
        tdec_xray_header_cycle_frequency(mx_trace) != 1000000000u ||
        tdec_xray_header_buffer_size(mx_trace) != 4096u)
        return -101;
    st = tdec_xray_init(&d, &cfg);
    if (tdec_xray_resync(&d) != TDEC_E_NOSYNC) return -102; /* no header yet */
    tdec_xray_reset(&d);
    if (tdec_status_str(st) == NULL || tdec_xray_reason_str(why) == NULL) return -103;
#else
    st = tdec_xray_init(&d, NULL);
#endif
    while (st >= 0) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            items++;
            if (it.kind == TDEC_ITEM_RECORD && it.u.rec.type == TDEC_XRAY_REC_FUNCTION) tsc = it.u.rec.tsc;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        n = sizeof mx_trace - fed;
        if (n > 13) n = 13; /* odd chunks: records straddle them */
        st = n ? tdec_xray_feed(&d, mx_trace + fed, n) : tdec_xray_finish(&d);
        fed += n;
    }
    if (st != TDEC_END) return (int)st - 200;
    return tsc == 1014 ? items : -300;
}

#endif /* MX_NO_XRAY */

#ifdef MX_MAIN
int main(void)
{
    int r = 0;
    if (mx_use_a() != 6) r = 1; /* six items; MX_NO_XRAY: 5 + 1 */
#ifdef MX_CALL_B
    if (mx_use_b() != 6) r |= 2;
#endif
    return r;
}
#endif
