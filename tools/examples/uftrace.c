/* uftrace.c - decode one <tid>.dat file of a uftrace data directory in
   small chunks and print its records as `uftrace dump` words them (time,
   type, address, depth), with the canonical tracedec loop.
     make build/examples/uftrace &&
     build/examples/uftrace tests/data/uftrace/plain/uftrace.data/2702.dat
   Names need the directory's symbol files and argument values the specs of
   its info file: tools/cli/uftrace/ shows both. */
#define TDEC_UFTRACE_IMPLEMENTATION
#include "single/tdec_uftrace.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    static const char *const type[] = {"entry", "exit", "lost", "event"};
    unsigned char buf[512]; /* any size: a record cut by a chunk is carried over */
    unsigned long long records = 0;
    tdec_uftrace_decoder d;
    tdec_uftrace_item it;
    tdec_status st;
    size_t n;
    FILE *f;

    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: %s DIR/TID.dat (a readable uftrace data file)\n", argv[0]);
        return 2;
    }
    st = tdec_uftrace_init(&d, NULL); /* NULL: little-endian data, the usual */
    while (st >= 0) {
        st = tdec_uftrace_next(&d, &it);
        if (st == TDEC_OK) {
            const tdec_uftrace_record *r = &it.u.rec;
            if (tdec_uftrace_needs_spec(&d)) /* values follow, in a layout the info file gives */
                st = tdec_uftrace_set_spec(&d, NULL); /* none at hand: an error, with its offset */
            if (it.kind != TDEC_ITEM_RECORD || r->type > TDEC_UFTRACE_REC_EVENT) continue; /* values, data */
            records++;
            printf("%llu.%09llu %s %llx depth %u\n", (unsigned long long)(r->time / 1000000000u),
                   (unsigned long long)(r->time % 1000000000u), type[r->type], (unsigned long long)r->addr, r->depth);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break; /* TDEC_END, or an error */
        n = fread(buf, 1, sizeof buf, f); /* everything fed is used: buf is free again */
        if (n == 0 && ferror(f)) break;
        st = n ? tdec_uftrace_feed(&d, buf, n) : tdec_uftrace_finish(&d); /* then next() drains */
    }
    if (ferror(f)) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    if (st != TDEC_END) {
        fprintf(stderr, "%s: offset %llu: %s (%s)\n", argv[1], (unsigned long long)d.st.err_offset,
                tdec_status_str(st), tdec_uftrace_reason_str(d.st.err_reason));
        return 1;
    }
    printf("%llu records\n", records);
    return 0;
}
