/* xtrace.c - decode an xtrace instruction stream (Kunpeng AArch64,
   xtrace.*.xinsndata.bin) in small chunks and print its instructions and
   memory accesses, with the canonical tracedec loop.
     make build/examples/xtrace build/gen/xtrace_gen && build/gen/xtrace_gen /tmp &&
     build/examples/xtrace /tmp/xtrace.1700000000.4242.hint9.xinsndata.bin
   Snapshot files need cfg.kind and cfg.vl: tools/cli/xtrace.c. */
#define TDEC_XTRACE_IMPLEMENTATION
#include "single/tdec_xtrace.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    unsigned char buf[512]; /* any size: a token cut by a chunk is carried over */
    unsigned long long records = 0;
    tdec_xtrace_decoder d;
    tdec_xtrace_item it;
    tdec_status st;
    size_t n;
    FILE *f;

    if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: %s FILE (a readable xtrace instruction stream)\n", argv[0]);
        return 2;
    }
    st = tdec_xtrace_init(&d, NULL); /* NULL: an instruction stream, the spec's defaults */
    while (st >= 0) {
        st = tdec_xtrace_next(&d, &it);
        if (st == TDEC_OK) {
            const tdec_xtrace_record *r = &it.u.rec;
            if (it.kind != TDEC_ITEM_RECORD) continue; /* bytes of a long value */
            records++;
            if (r->type == TDEC_XTRACE_REC_INST || r->type == TDEC_XTRACE_REC_PCINST) {
                char pc[24] = "?"; /* until the first PCINST gives it */
                if (r->flags & TDEC_XTRACE_PC_KNOWN) snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)r->pc);
                printf("#%llu EL%u pc=%s insn=%08lx\n", (unsigned long long)r->index, r->el, pc,
                       (unsigned long)r->insn);
            } else if (r->type == TDEC_XTRACE_REC_LOAD || r->type == TDEC_XTRACE_REC_STORE)
                printf("    %s addr=0x%llx size=%u\n", r->type == TDEC_XTRACE_REC_LOAD ? "LOAD " : "STORE",
                       (unsigned long long)r->addr, 1u << r->size_log2);
            continue;
        }
        if (st != TDEC_NEED_INPUT) break; /* TDEC_END, or an error */
        n = fread(buf, 1, sizeof buf, f); /* everything fed is used: buf is free again */
        if (n == 0 && ferror(f)) break;
        st = n ? tdec_xtrace_feed(&d, buf, n) : tdec_xtrace_finish(&d); /* then next() drains */
    }
    if (ferror(f)) {
        perror(argv[1]);
        return 1;
    }
    fclose(f);
    if (st != TDEC_END) {
        fprintf(stderr, "%s: offset %llu: %s (%s)\n", argv[1], (unsigned long long)d.st.err_offset,
                tdec_status_str(st), tdec_xtrace_reason_str(d.st.err_reason));
        return 1;
    }
    printf("%llu records\n", records);
    return 0;
}
