/* matrix_ovni_tu.c - the ovni translation unit of the compile matrix
   (tests/matrix/matrix.sh), compiled as C and C++ with these macros:
     MX_HEADER   "path" of the header (single/tdec_ovni.h or tracedec.h)
     MX_HEADER2  optional second header, included after the first
     MX_NAME     suffix of this TU's exported function mx_ovni_<NAME>()
     MX_MAIN     also define main(), calling mx_ovni_a() and mx_ovni_b()
     MX_PARTIAL  call only init/feed/next/finish (a TDEC_STATIC user who
                 must not get "unused" warnings)
     MX_NO_OVNI  the header must declare no ovni API (TDEC_NO_OVNI)
   Nothing here uses libc: the same file is the freestanding Cortex-M object. */
#include MX_HEADER
#ifdef MX_HEADER2
#include MX_HEADER2
#endif

#define MX_CAT2(a, b) a##b
#define MX_CAT(a, b) MX_CAT2(a, b)
#define MX_USE MX_CAT(mx_ovni_, MX_NAME)

#ifdef __cplusplus
extern "C" {
#endif
int mx_ovni_a(void);
int mx_ovni_b(void);
#ifdef __cplusplus
}
#endif

#ifdef MX_NO_OVNI

#ifdef TDEC_OVNI_H_INCLUDED
#error "TDEC_NO_OVNI: the ovni declarations are still there"
#endif
/* Conflicts with the library's declaration if the header still made one. */
static int tdec_ovni_init(int x) { return x + 1; }

int MX_USE(void)
{
    return tdec_ovni_init(-1);
}

#else /* !MX_NO_OVNI */

/* A little-endian stream: header, OHx (cpu 2, tid -1, tag 0x10), a jumbo
   6Yc (type 1, "t1"), OHe. Five items: header, 3 events, 1 fragment. */
static const unsigned char mx_obs[] = {
    'o', 'v', 'n', 'i', 1, 0, 0, 0,
    0x0F, 'O', 'H', 'x', 1, 0, 0, 0, 0, 0, 0, 0,
    2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0, 0, 0, 0, 0, 0, 0,
    0x13, '6', 'Y', 'c', 2, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0,
    1, 0, 0, 0, 't', '1', 0,
    0x00, 'O', 'H', 'e', 3, 0, 0, 0, 0, 0, 0, 0
};

/* Decodes mx_obs; returns the item count, or -1; *ohx gets the OHx event. */
static int mx_decode(tdec_ovni_record *ohx)
{
    tdec_ovni_decoder d;
    tdec_ovni_item it;
    tdec_status st;
    int items = 0, fed = 0;
    st = tdec_ovni_init(&d, NULL);
    while (st >= 0) {
        st = tdec_ovni_next(&d, &it);
        if (st == TDEC_OK) {
            items++;
            if (it.kind == TDEC_ITEM_RECORD && it.u.rec.mcv[2] == 'x') *ohx = it.u.rec;
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        st = fed ? tdec_ovni_finish(&d) : tdec_ovni_feed(&d, mx_obs, sizeof mx_obs);
        fed = 1;
    }
    return st == TDEC_END ? items : -1;
}

#ifdef MX_PARTIAL
int MX_USE(void)
{
    tdec_ovni_record ohx;
    return mx_decode(&ohx) == 5 ? 0 : 1;
}
#else
/* JSON metadata and a description; returns 0 or a failing step. */
static int mx_extras(const tdec_ovni_record *ohx)
{
    static const char doc[] = "{\"version\": 3, // v3\n \"ovni\": {\"tid\": 7, \"loom\": \"node0\"}}";
    static const tdec_ovni_sig sig = {"OHx(i32 cpu, i32 tid, u64 tag)", "cpu %{cpu} tid %{tid} tag %#llx{tag}"};
    static const char want[] = "cpu 2 tid -1 tag 0x10";
    tdec_ovni_json_token tok[16];
    tdec_ovni_json j;
    tdec_ovni_meta m;
    char buf[64], loom[8];
    size_t n, k;
    if (tdec_ovni_json_parse(&j, doc, sizeof doc - 1, tok, 16) != TDEC_OK) return 1;
    if (tdec_ovni_meta_read(&j, &m) != TDEC_OK || m.version != 3 || m.tid != 7) return 2;
    if (tdec_ovni_json_string(&j, m.loom, loom, sizeof loom, &n) != TDEC_OK || n != 5 || loom[4] != '0') return 3;
    if (tdec_ovni_describe(&sig, ohx, NULL, 0, buf, sizeof buf, &n) != TDEC_OK || n != sizeof want - 1) return 4;
    for (k = 0; k < n; k++)
        if (buf[k] != want[k]) return 5;
    if (tdec_ovni_model_str('O') == NULL || tdec_ovni_parse_header(mx_obs, 8, NULL, NULL) != TDEC_OK) return 6;
    /* the signature table is empty without strings */
#ifdef TDEC_NO_STRINGS
    return tdec_ovni_sig_find(ohx->mcv) == NULL ? 0 : 7;
#else
    return tdec_ovni_sig_find(ohx->mcv) != NULL && tdec_ovni_reason_str(TDEC_OVNI_R_CLOCK)[0] ? 0 : 7;
#endif
}

int MX_USE(void)
{
    tdec_ovni_record ohx;
    int items = mx_decode(&ohx);
    if (items != 5) return -10 - items;
    return mx_extras(&ohx);
}
#endif /* MX_PARTIAL */

#endif /* MX_NO_OVNI */

#ifdef MX_MAIN
int main(void)
{
    return mx_ovni_a() != 0 || mx_ovni_b() != 0;
}
#endif
