/* ipt_ild.c - benchmark of the x86 length decoder (tdec_ipt_insn_decode)
   against Zydis's decoder (Debian's libzydis-dev), `make bench`
   (tools/bench/ipt_ild.sh runs it).

   The code: the executable sections of the ELF files under /usr/bin and
   /usr/lib (x86-64, 64-bit mode) and /usr/lib32 (i386, 32-bit mode), in
   sorted path order, until MiB mebibytes of each mode are copied into one
   buffer per mode. Each decoder walks each buffer linearly, section by
   section (the next instruction at the previous one's end, one byte on from
   bytes it rejects), in one process; medians of RUNS rounds, in millions
   of instructions per second:
     tdec        tdec_ipt_insn_decode: length, class, displacement
     zydis-min   ZydisDecoderDecodeInstruction in ZYDIS_DECODER_MODE_MINIMAL
                 (length, mnemonic, raw fields: no operand details)
     zydis       ZydisDecoderDecodeInstruction, default mode
   Both walks must step through the same instruction count but for the
   counted places where the two decoders' lengths differ.

   usage: ipt_ild [-m MiB] [-n RUNS] */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/gen/elf_code.h"
#include "tools/bench/common.h"

#include <Zydis/Zydis.h>

/* The code of one mode: sections back to back, with their boundaries. */
typedef struct code {
    uint8_t *buf;
    size_t   len, cap, *ends, nends;
    uint32_t mode;
} code;

static void add_section(void *ctx, const uint8_t *bytes, size_t size, uint32_t mode)
{
    code *c = (code *)ctx + (mode == TDEC_IPT_MODE_64 ? 0 : 1);
    if (c->len + size > c->cap) size = c->cap - c->len;
    if (size == 0) return;
    memcpy(c->buf + c->len, bytes, size);
    c->len += size;
    c->ends = (size_t *)realloc(c->ends, (c->nends + 1) * sizeof *c->ends);
    if (!c->ends) exit(2);
    c->ends[c->nends++] = c->len;
}

typedef size_t (*decode_fn)(const void *dec, const uint8_t *p, size_t n, uint32_t mode);

static size_t step_tdec(const void *dec, const uint8_t *p, size_t n, uint32_t mode)
{
    tdec_ipt_insn_info in;
    (void)dec;
    return tdec_ipt_insn_decode(p, n, mode, &in, NULL) == TDEC_OK ? in.size : 0;
}

static size_t step_zydis(const void *dec, const uint8_t *p, size_t n, uint32_t mode)
{
    ZydisDecodedInstruction z;
    (void)mode;
    return ZYAN_SUCCESS(ZydisDecoderDecodeInstruction((const ZydisDecoder *)dec, NULL, p, n, &z)) ? z.length : 0;
}

/* One walk over every section; returns the instructions decoded. */
static unsigned long long walk(const code *c, decode_fn fn, const void *dec)
{
    unsigned long long insns = 0;
    size_t pos = 0, s;
    for (s = 0; s < c->nends; s++) {
        size_t end = c->ends[s];
        while (pos < end) {
            size_t left = end - pos, step = fn(dec, c->buf + pos, left < 15 ? left : 15, c->mode);
            insns += step != 0;
            pos += step ? step : 1;
        }
    }
    return insns;
}

int main(int argc, char **argv)
{
    static const char *const roots[] = {"/usr/bin", "/usr/lib", "/usr/lib32"};
    size_t mib = 64, k;
    int runs = 5, i, m;
    code c[2];
    ec_paths p = {NULL, 0, 0};
    ZydisDecoder zmin[2], zfull[2];
    for (i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-m") == 0) mib = (size_t)strtoul(argv[i + 1], NULL, 0);
        else if (strcmp(argv[i], "-n") == 0) runs = atoi(argv[i + 1]);
    }
    if (runs < 1 || runs > 99 || mib == 0) {
        fprintf(stderr, "usage: %s [-m MiB] [-n RUNS]\n", argv[0]);
        return 2;
    }
    memset(c, 0, sizeof c);
    for (m = 0; m < 2; m++) {
        c[m].cap = mib << 20;
        c[m].buf = (uint8_t *)malloc(c[m].cap);
        c[m].mode = m == 0 ? TDEC_IPT_MODE_64 : TDEC_IPT_MODE_32;
        if (!c[m].buf) return 2;
        ZydisDecoderInit(&zmin[m], m == 0 ? ZYDIS_MACHINE_MODE_LONG_64 : ZYDIS_MACHINE_MODE_LEGACY_32,
                         m == 0 ? ZYDIS_STACK_WIDTH_64 : ZYDIS_STACK_WIDTH_32);
        zfull[m] = zmin[m];
        ZydisDecoderEnableMode(&zmin[m], ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
    }
    for (k = 0; k < sizeof roots / sizeof roots[0]; k++) ec_list(&p, roots[k]);
    ec_sort(&p);
    for (k = 0; k < p.n && (c[0].len < c[0].cap || c[1].len < c[1].cap); k++) {
        size_t len;
        int want = c[0].len < c[0].cap && c[1].len < c[1].cap ? 0 : c[0].len < c[0].cap ? 2 : 1;
        uint8_t *buf = ec_read(p.v[k], &len, want);
        if (!buf) continue;
        ec_sections(buf, len, add_section, c);
        free(buf);
    }
    ec_free(&p);

    for (m = 0; m < 2; m++) {
        static const char *const names[3] = {"tdec", "zydis-min", "zydis"};
        const void *decs[3];
        decode_fn fns[3] = {step_tdec, step_zydis, step_zydis};
        double t[3][99];
        unsigned long long insns[3] = {0, 0, 0};
        int d, r;
        decs[0] = NULL;
        decs[1] = &zmin[m];
        decs[2] = &zfull[m];
        if (c[m].len == 0) {
            printf("%u-bit: no code found\n", m == 0 ? 64u : 32u);
            continue;
        }
        for (r = 0; r < runs; r++)
            for (d = 0; d < 3; d++) {
                double t0 = bench_now();
                insns[d] = walk(&c[m], fns[d], decs[d]);
                t[d][r] = bench_now() - t0;
            }
        printf("%u-bit: %.1f MiB of code in %zu sections\n", m == 0 ? 64u : 32u, (double)c[m].len / 1048576.0,
               c[m].nends);
        for (d = 0; d < 3; d++) {
            double s = bench_median(t[d], runs);
            printf("  %-10s %12llu instructions  %8.1f M insn/s  %7.1f MB/s\n", names[d], insns[d],
                   (double)insns[d] / s / 1e6, (double)c[m].len / s / 1e6);
        }
        free(c[m].buf);
        free(c[m].ends);
    }
    return 0;
}
