/* matrix_uftrace_tu.c - the uftrace translation unit of the compile matrix
   (tests/matrix/matrix.sh), compiled as C and C++ with these macros:
     MX_HEADER  "path" of the header (single/tdec_uftrace.h or tracedec.h)
     MX_NAME    suffix of this TU's exported function mx_uft_<NAME>()
     MX_MAIN    also define main(), calling mx_uft_a() and mx_uft_b()
   Nothing here uses libc: the same file is the freestanding Cortex-M object. */
#include MX_HEADER

#define MX_CAT2(a, b) a##b
#define MX_CAT(a, b) MX_CAT2(a, b)
#define MX_USE MX_CAT(mx_uft_, MX_NAME)

#ifdef __cplusplus
extern "C" {
#endif
int mx_uft_a(void);
int mx_uft_b(void);
#ifdef __cplusplus
}
#endif

/* Two records of a little-endian <tid>.dat: ENTRY depth 0 addr 0x1234 with
   a one-argument block (i32 7), then its EXIT. */
static const unsigned char mx_dat[] = {
    1, 0, 0, 0, 0, 0, 0, 0, 0x2C, 0, 0x34, 0x12, 0, 0, 0, 0, /* entry, more, magic 5 */
    7, 0, 0, 0, 0, 0, 0, 0,                                  /* arg1 i32 = 7, pad 8  */
    2, 0, 0, 0, 0, 0, 0, 0, 0x29, 0, 0x34, 0x12, 0, 0, 0, 0  /* exit, magic 5        */
};

int MX_USE(void)
{
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    tdec_uftrace_argspec spec;
    tdec_uftrace_spec_item item;
    tdec_uftrace_task_line task;
    tdec_status st;
    int items = 0, fed = 0;
    uint64_t value = 0;
    static const char line[] = "TASK timestamp=1.5 tid=7 pid=7";
    static const char arg[] = "arg1/i32";

    if (tdec_uftrace_parse_task_line(line, sizeof line - 1, &task) != TDEC_OK || task.time != 1500000000u) return -1;
    if (tdec_uftrace_parse_spec_item(arg, sizeof arg - 1, &item) != TDEC_OK) return -2;
    spec.count = 1;
    if (tdec_uftrace_spec_item_layout(&item, 8, 10, &spec.args[0]) != TDEC_OK) return -3;
    st = tdec_uftrace_init(&d, NULL);
    while (st >= 0) {
        st = tdec_uftrace_next(&d, &it);
        if (st == TDEC_OK) {
            items++;
            if (it.kind == TDEC_ITEM_RECORD && it.u.rec.type == TDEC_UFTRACE_REC_ARG) value = it.u.rec.value;
            if (tdec_uftrace_needs_spec(&d)) st = tdec_uftrace_set_spec(&d, &spec);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break;
        st = fed ? tdec_uftrace_finish(&d) : tdec_uftrace_feed(&d, mx_dat, sizeof mx_dat);
        fed = 1;
    }
    /* entry, arg, args-end, exit */
    return st == TDEC_END && items == 4 && value == 7 ? 0 : -10 - items;
}

#ifdef MX_MAIN
int main(void)
{
    return mx_uft_a() != 0 || mx_uft_b() != 0;
}
#endif
