/* ovni.c - decode one stream file of an ovni trace (stream.obs, or
   thread.T.obs in older layouts) in small chunks and print its events as
   ovnidump words them (clock, MCV, description), with the canonical
   tracedec loop.
     make build/examples/ovni && build/examples/ovni \
       tests/data/ovni/s01-minimal/ovni/loom.node0/proc.4311/thread.4311/stream.obs
   Merging all the streams of a trace by clock, as ovnidump does: tools/cli/ovni.c. */
#define TDEC_OVNI_IMPLEMENTATION
#include "single/tdec_ovni.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    unsigned char buf[512]; /* any size: an event cut by a chunk is carried over */
    unsigned long long events = 0;
    char desc[1024];
    tdec_ovni_decoder d;
    tdec_ovni_item it;
    tdec_status st;
    size_t n;
    FILE *f;

    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: %s STREAM.obs (a readable ovni stream)\n", argv[0]);
        return 2;
    }
    st = tdec_ovni_init(&d, NULL);
    while (st >= 0) {
        st = tdec_ovni_next(&d, &it);
        if (st == TDEC_OK) {
            const tdec_ovni_record *e = &it.u.rec;
            const tdec_ovni_sig *sig;
            if (it.kind != TDEC_ITEM_RECORD || e->type != TDEC_OVNI_REC_EVENT) continue; /* header, blobs */
            events++;
            sig = tdec_ovni_sig_find(e->mcv); /* a jumbo event's text also needs its blob */
            if (sig == NULL || e->jumbo || tdec_ovni_describe(sig, e, NULL, 0, desc, sizeof desc, NULL) != TDEC_OK)
                snprintf(desc, sizeof desc, "UNKNOWN");
            printf("%lld %.3s %s\n", (long long)e->clock, (const char *)e->mcv, desc);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break; /* TDEC_END, or an error */
        n = fread(buf, 1, sizeof buf, f); /* everything fed is used: buf is free again */
        if (n == 0 && ferror(f)) break;
        st = n ? tdec_ovni_feed(&d, buf, n) : tdec_ovni_finish(&d); /* then next() drains */
    }
    if (ferror(f)) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    if (st != TDEC_END) {
        fprintf(stderr, "%s: offset %llu: %s (%s)\n", argv[1], (unsigned long long)d.st.err_offset,
                tdec_status_str(st), tdec_ovni_reason_str(d.st.err_reason));
        return 1;
    }
    printf("%llu events\n", events);
    return 0;
}
