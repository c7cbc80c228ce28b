/* xray.c - decode an LLVM XRay log (FDR or basic mode) in small chunks and
   print its function records, with the canonical tracedec loop.
     make build/examples/xray && build/examples/xray tests/data/xray/fdr-calls/fdr-calls.xray */
#define TDEC_XRAY_IMPLEMENTATION
#include "single/tdec_xray.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    static const char *const action[] = {"enter", "exit", "tail-exit", "enter-arg"}; /* llvm-xray's words */
    unsigned char buf[512]; /* any size: a record cut by a chunk is carried over */
    unsigned long long records = 0;
    tdec_xray_decoder d;
    tdec_xray_item it;
    tdec_status st;
    size_t n;
    FILE *f;

    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: %s FILE (a readable XRay log)\n", argv[0]);
        return 2;
    }
    st = tdec_xray_init(&d, NULL);
    while (st >= 0) {
        st = tdec_xray_next(&d, &it);
        if (st == TDEC_OK) {
            const tdec_xray_record *r = &it.u.rec;
            if (it.kind != TDEC_ITEM_RECORD) continue; /* payload bytes, skipped bytes */
            records++;
            if (r->type == TDEC_XRAY_REC_FUNCTION && r->action <= TDEC_XRAY_ENTER_ARGS)
                printf("tid %d fid %u %s tsc %llu\n", (int)r->tid, r->fid, action[r->action],
                       (unsigned long long)r->tsc);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break; /* TDEC_END, or an error */
        n = fread(buf, 1, sizeof buf, f); /* everything fed is used: buf is free again */
        if (n == 0 && ferror(f)) break;
        st = n ? tdec_xray_feed(&d, buf, n) : tdec_xray_finish(&d); /* then next() drains */
    }
    if (ferror(f)) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    if (st != TDEC_END) {
        fprintf(stderr, "%s: offset %llu: %s (%s)\n", argv[1], (unsigned long long)d.st.err_offset,
                tdec_status_str(st), tdec_xray_reason_str(d.st.err_reason));
        return 1;
    }
    printf("%llu records\n", records);
    return 0;
}
