/* xtrace_gen.c - writes the capture tests/golden/xtrace.sh runs the CLI on,
   with tests/gen/xtrace_encoder.h (written from the spec, not from the
   decoder), and prints what `tracedec info` must say about it, counted
   while writing.

     xtrace_gen DIR      writes DIR/xtrace.1700000000.4242.hint9.{xinsndata,xsnapshot}.bin

   The stream: one INST before any PCINST (unknown PC), then 1000
   instructions, a PCINST every 5th (a basic block start), loads of 1..8
   bytes on every 3rd, a 16-byte store on every 7th (each memory access
   followed by a TIME token), a syscall (SVCARG x 7, SVCRET) every 50th, a
   two-entry SYSCALL_VEC every 100th, ALLGPR every 200th, MISC_FLAGS every
   30th. The snapshots: header, three snapshots at VL 512. */
#include "tests/gen/xtrace_encoder.h"

#include <stdio.h>

static int save(const char *dir, const char *name, const xe_buf *b)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(b->p, 1, b->len, f) != b->len) return -1;
    return fclose(f);
}

int main(int argc, char **argv)
{
    xe_buf s, n;
    xe_snap snap;
    uint64_t loads[16] = {0}, stores[16] = {0}, x[32], base[2] = {0x7000, 0x8000}, len[2] = {5, 6};
    uint64_t tokens = 0, insns = 0, pcinsts = 0, svcarg = 0, svcret = 0, vecs = 0, allgpr = 0, times = 0, flags = 0;
    uint8_t value[16];
    unsigned i, k, j;

    if (argc != 2) {
        fprintf(stderr, "usage: xtrace_gen DIR\n");
        return 2;
    }
    for (i = 0; i < 16; i++) value[i] = (uint8_t)(0xa0 + i);
    for (i = 0; i < 32; i++) x[i] = 0x1000u + i;
    xe_init(&s, 0);
    xe_inst(&s, 0, 0xd503201fu);
    tokens++, insns++;
    for (i = 0; i < 1000; i++) {
        if (i % 5 == 0) {
            xe_pcinst(&s, i % 10 == 0 ? 1u : 0u, 0x400000u + 0x100u * i, 0x91000000u + i);
            pcinsts++;
        } else {
            xe_inst(&s, 0, 0x8b000000u + i);
        }
        tokens++, insns++;
        if (i % 3 == 0) {
            k = i % 4;
            xe_mem(&s, 0, k, 0x10000u + 8u * i, value);
            xe_time(&s, 8, i);
            loads[k]++, tokens += 2, times++;
        }
        if (i % 7 == 0) {
            xe_mem(&s, 1, 4, 0x20000u + 16u * i, value);
            xe_time(&s, 8, 100000u + i);
            stores[4]++, tokens += 2, times++;
        }
        if (i % 50 == 0) {
            for (j = 0; j < 7; j++) xe_val(&s, 2, j == 0 ? 64u : j);
            xe_val(&s, 3, 0);
            svcarg += 7, svcret++, tokens += 8;
        }
        if (i % 100 == 0) {
            xe_syscall_vec(&s, 2, base, len, NULL);
            vecs++, tokens++;
        }
        if (i % 200 == 0) {
            xe_allgpr(&s, x);
            allgpr++, tokens++;
        }
        if (i % 30 == 0) {
            xe_misc_flags(&s, 0x60000000u);
            flags++, tokens++;
        }
    }
    xe_init(&n, 0);
    xe_snap_header(&n, 0x58534e50u, 3, 1, 0, 0, 1);
    memset(&snap, 0, sizeof snap);
    for (i = 0; i < 3; i++) {
        snap.file_no = 1;
        snap.index = i;
        snap.user_insns = 1000000u * i;
        snap.total_insns = 1100000u * i;
        for (j = 0; j < 32; j++) snap.x[j] = 0x100u * i + j;
        for (j = 0; j < 11; j++) snap.sysreg[j] = 0x900u + j;
        snap.fill = (uint8_t)i;
        xe_snapshot(&n, 512, &snap, 512);
    }
    if (save(argv[1], "xtrace.1700000000.4242.hint9.xinsndata.bin", &s) != 0 ||
        save(argv[1], "xtrace.1700000000.4242.hint9.xsnapshot.bin", &n) != 0) {
        fprintf(stderr, "xtrace_gen: cannot write under %s\n", argv[1]);
        return 1;
    }
    /* What `tracedec info` prints for the stream, then for the snapshots. */
    printf("%s/xtrace.1700000000.4242.hint9.xinsndata.bin: %zu bytes\n", argv[1], s.len);
    printf("  tokens: %llu\n  instructions: %llu (PCINST %llu)\n  memory accesses by size:",
           (unsigned long long)tokens, (unsigned long long)insns, (unsigned long long)pcinsts);
    for (k = 0; k < 16; k++)
        if (loads[k] || stores[k])
            printf(" %lluB: %llu loads/%llu stores;", 1ull << k, (unsigned long long)loads[k],
                   (unsigned long long)stores[k]);
    printf("\n  syscalls: %llu returns (SVCRET), %llu arguments (SVCARG), %llu SYSCALL_VEC\n",
           (unsigned long long)svcret, (unsigned long long)svcarg, (unsigned long long)vecs);
    printf("  other: STXR 0, MRS 0, DC 0, TARGET_B 0, ALLGPR %llu, MISC_FLAGS %llu, TIME %llu, "
           "passed-through unknown tokens 0\n",
           (unsigned long long)allgpr, (unsigned long long)flags, (unsigned long long)times);
    printf("%s/xtrace.1700000000.4242.hint9.xsnapshot.bin: %zu bytes\n  snapshots: 3\n"
           "  vector length: 512 bits, with the 24-byte header\n",
           argv[1], n.len);
    xe_free(&s);
    xe_free(&n);
    return 0;
}
