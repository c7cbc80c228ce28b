/* ipt.c - decode an Intel PT trace in small chunks and print its packets
   as the first two columns of libipt's ptdump (offset, packet), with the
   canonical tracedec loop.
     make build/examples/ipt && build/examples/ipt tests/data/ipt/loop-tnt/loop-tnt.pt
   ptdump goes on at the next PSB after an error (tdec_ipt_resync), prints
   payloads and tracks time: tools/cli/ipt/ipt.c. */
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    unsigned char buf[512]; /* any size: a packet cut by a chunk is carried over */
    unsigned long long packets = 0;
    tdec_ipt_decoder d;
    tdec_ipt_item it;
    tdec_status st;
    size_t n;
    FILE *f;

    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: %s FILE (a readable Intel PT trace)\n", argv[0]);
        return 2;
    }
    st = tdec_ipt_init(&d, NULL); /* NULL: from the first PSB, no errata */
    while (st >= 0) {
        st = tdec_ipt_next(&d, &it);
        if (st == TDEC_OK) {
            if (it.kind != TDEC_ITEM_RECORD) continue; /* bytes before the first PSB */
            packets++;
            printf("%016llx  %s\n", (unsigned long long)it.offset, tdec_ipt_kind_str(it.u.pkt.kind));
            continue;
        }
        if (st != TDEC_NEED_INPUT) break; /* TDEC_END, or an error */
        n = fread(buf, 1, sizeof buf, f); /* everything fed is used: buf is free again */
        if (n == 0 && ferror(f)) break;
        st = n ? tdec_ipt_feed(&d, buf, n) : tdec_ipt_finish(&d); /* then next() drains */
    }
    if (ferror(f)) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    if (st != TDEC_END) {
        fprintf(stderr, "%s: offset %llu: %s (reason %u, a TDEC_IPT_ERR_* code)\n", argv[1], (unsigned long long)d.st.err_offset,
                tdec_status_str(st), (unsigned)d.st.err_reason);
        return 1;
    }
    printf("%llu packets\n", packets);
    return 0;
}
