/* ipt_ild.c - differential test of the x86 length and class decoder of
   single/tdec_ipt.h (tdec_ipt_insn_decode, libipt's pt_ild rules) against
   Zydis (Debian's libzydis-dev 4.0). Link with -lZydis; run by
   tests/diff/ipt_ild.sh. One line per check, "PASS ..." or "FAIL ...", and
   a "# ipt-ild diff:" summary line per corpus and mode.

   INPUTS
     random   seeded byte strings of 15 bytes, in 16-, 32- and 64-bit mode:
              half uniform, half built from 0..3 prefixes (legacy, REX in
              64-bit mode), an opcode escape (none, 0F, 0F 38, 0F 3A, VEX2,
              VEX3, EVEX, XOP) and random bytes.
     binaries every instruction of a linear sweep over the executable
              sections of the ELF files under /usr/bin, /usr/lib and
              /usr/lib32 (x86-64 files in 64-bit mode, i386 files in 32-bit
              mode), in sorted path order, at most -f instructions per file.
              The sweep steps by Zydis's length, or ours where Zydis
              rejects the bytes, or 1 byte where both do.

   CHECKS
     Lengths: where both decode, the lengths must be equal, except where
     libipt's rules deliberately differ from Zydis (each counted in the
     summary line under its name; every other mismatch FAILs):
       xop        AMD XOP (8F with map >= 8): libipt does not know XOP and
                  decodes POP r/m (FLOW.md §1.2: an Intel-only decoder).
       3dnow      AMD 3DNow! (0F 0F ModRM imm8): libipt decodes 0F 0F as a
                  2-byte undefined opcode without ModRM.
       knc-branch Knights Corner's (Xeon Phi) JKZD/JKNZD: VEX 0F 84/85
                  rel32, which libipt's VEX map 1 decodes without ModRM or
                  displacement, and VEX map 0 74/75 rel8, which libipt
                  rejects (VEX map 0 is invalid); Zydis decodes both.
     Counted, not compared (the other decoder has no length):
       zydis-rejects  Zydis validates the instruction and rejects it
                  (undefined opcodes and ModRM forms, LOCK where not
                  allowed, REX before VEX, invalid in the mode such as
                  9A/EA/CE in 64-bit mode, APX REX2/EVEX map 4 and VEX map 7
                  which Zydis 4.0 does not know): libipt is a length decoder,
                  not a validator, and gives every such encoding a length.
       zydis-short    at the end of a section: Zydis asks for bytes past
                  the end, ours ends within it (bytes at a section's end
                  that are padding or data, or one of the shorter libipt
                  lengths above).
       both-reject    both call it invalid (longer than 15 bytes, invalid
                  maps), or both need bytes past the end of the section.
     Any other instruction we reject and Zydis decodes FAILs.
     Truncation: where both decode, every shorter prefix of the bytes must
     give TDEC_NEED_INPUT (never a length or an error).
     Classes: where both decode and lengths agree, our coarse class must be
     the one Zydis's mnemonic and branch type name (Jcc, JrCXZ and LOOPcc:
     cond_jump; near CALL, RET, JMP: call, return, jump; far ones, INT n,
     INT1, INT3, INTO, SYSCALL, SYSENTER, VMCALL: far_call; IRET, SYSRET,
     SYSEXIT, VMLAUNCH, VMRESUME, UIRET, far RET: far_return; PTWRITE:
     ptwrite; anything else other), except (counted):
       ptwrite-66  66 F3 0F AE /4: Zydis decodes PTWRITE, libipt's rule
                  excludes 66 (FLOW.md §1.6).
     and for a direct branch our displacement must be Zydis's relative
     immediate.

   Options: -s SEED, -n RANDOM (strings per mode), -f MAX (instructions per
   file), -b MAX (binaries: no file of a mode is started once MAX of its
   instructions are checked; 0: no limit). */
#define _DEFAULT_SOURCE
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"

#include "tests/gen/elf_code.h"

#include <Zydis/Zydis.h>

/* ---- the differences, counted by name ---------------------------------- */

enum diff_kind {
    DK_AGREE,
    DK_XOP,
    DK_3DNOW,
    DK_KNC_BRANCH,
    DK_ZYDIS_REJECTS,
    DK_ZYDIS_SHORT,
    DK_BOTH_REJECT,
    DK_PTWRITE_66,
    DK_COUNT
};
static const char *const dk_name[DK_COUNT] = {"agree", "xop", "3dnow", "knc-branch", "zydis-rejects", "zydis-short",
                                              "both-reject", "ptwrite-66"};

typedef struct tally {
    unsigned long long n, kind[DK_COUNT], classes, directs, truncations, failed;
} tally;

static int verbose_failures = 20;

static void hex(char *s, size_t cap, const uint8_t *b, size_t n)
{
    size_t i;
    s[0] = 0;
    for (i = 0; i < n && 3 * i + 3 < cap; i++) sprintf(s + 3 * i, "%02x ", b[i]);
}

static void failure(tally *t, const char *what, const uint8_t *b, size_t n, uint32_t mode, const char *fmt,
                    long long a, long long c)
{
    char h[64];
    t->failed++;
    if (verbose_failures-- <= 0) return;
    hex(h, sizeof h, b, n);
    printf("# mismatch (%s) mode %u: %s: ", what, 8u << mode, h);
    printf(fmt, a, c);
    printf("\n");
}

/* ---- Zydis's view -------------------------------------------------------- */

static ZydisDecoder zyd[4];

static void zydis_init(void)
{
    ZydisDecoderInit(&zyd[TDEC_IPT_MODE_16], ZYDIS_MACHINE_MODE_LEGACY_16, ZYDIS_STACK_WIDTH_16);
    ZydisDecoderInit(&zyd[TDEC_IPT_MODE_32], ZYDIS_MACHINE_MODE_LEGACY_32, ZYDIS_STACK_WIDTH_32);
    ZydisDecoderInit(&zyd[TDEC_IPT_MODE_64], ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
}

/* The class libipt's rules give the instruction Zydis decoded. */
static unsigned zydis_class(const ZydisDecodedInstruction *z)
{
    int far = z->meta.branch_type == ZYDIS_BRANCH_TYPE_FAR;
    switch (z->mnemonic) {
    case ZYDIS_MNEMONIC_JB: case ZYDIS_MNEMONIC_JBE: case ZYDIS_MNEMONIC_JL: case ZYDIS_MNEMONIC_JLE:
    case ZYDIS_MNEMONIC_JNB: case ZYDIS_MNEMONIC_JNBE: case ZYDIS_MNEMONIC_JNL: case ZYDIS_MNEMONIC_JNLE:
    case ZYDIS_MNEMONIC_JNO: case ZYDIS_MNEMONIC_JNP: case ZYDIS_MNEMONIC_JNS: case ZYDIS_MNEMONIC_JNZ:
    case ZYDIS_MNEMONIC_JO: case ZYDIS_MNEMONIC_JP: case ZYDIS_MNEMONIC_JS: case ZYDIS_MNEMONIC_JZ:
    case ZYDIS_MNEMONIC_JCXZ: case ZYDIS_MNEMONIC_JECXZ: case ZYDIS_MNEMONIC_JRCXZ:
    case ZYDIS_MNEMONIC_LOOP: case ZYDIS_MNEMONIC_LOOPE: case ZYDIS_MNEMONIC_LOOPNE:
        return TDEC_IPT_IC_COND_JUMP;
    case ZYDIS_MNEMONIC_CALL: return far ? TDEC_IPT_IC_FAR_CALL : TDEC_IPT_IC_CALL;
    case ZYDIS_MNEMONIC_JMP: return far ? TDEC_IPT_IC_FAR_JUMP : TDEC_IPT_IC_JUMP;
    case ZYDIS_MNEMONIC_RET: return far ? TDEC_IPT_IC_FAR_RETURN : TDEC_IPT_IC_RETURN;
    case ZYDIS_MNEMONIC_INT: case ZYDIS_MNEMONIC_INT1: case ZYDIS_MNEMONIC_INT3: case ZYDIS_MNEMONIC_INTO:
    case ZYDIS_MNEMONIC_SYSCALL: case ZYDIS_MNEMONIC_SYSENTER: case ZYDIS_MNEMONIC_VMCALL:
        return TDEC_IPT_IC_FAR_CALL;
    case ZYDIS_MNEMONIC_IRET: case ZYDIS_MNEMONIC_IRETD: case ZYDIS_MNEMONIC_IRETQ:
    case ZYDIS_MNEMONIC_SYSRET: case ZYDIS_MNEMONIC_SYSEXIT: case ZYDIS_MNEMONIC_VMLAUNCH:
    case ZYDIS_MNEMONIC_VMRESUME: case ZYDIS_MNEMONIC_UIRET:
        return TDEC_IPT_IC_FAR_RETURN;
    case ZYDIS_MNEMONIC_PTWRITE: return TDEC_IPT_IC_PTWRITE;
    default: return TDEC_IPT_IC_OTHER;
    }
}

/* The position of the opcode after the legacy prefixes and REX. */
static size_t opcode_at(const uint8_t *b, size_t n, uint32_t mode)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = b[i];
        if (c == 0x66 || c == 0x67 || c == 0xF0 || c == 0xF2 || c == 0xF3 || c == 0x26 || c == 0x2E ||
            c == 0x36 || c == 0x3E || c == 0x64 || c == 0x65 || (mode == TDEC_IPT_MODE_64 && (c & 0xF0) == 0x40))
            i++;
        else
            break;
    }
    return i;
}

/* The documented reason two lengths differ, or DK_AGREE when none applies. */
static enum diff_kind length_reason(const ZydisDecodedInstruction *z, const uint8_t *b, size_t n, uint32_t mode)
{
    (void)b;
    (void)n;
    (void)mode;
    if (z->encoding == ZYDIS_INSTRUCTION_ENCODING_XOP) return DK_XOP;
    if (z->encoding == ZYDIS_INSTRUCTION_ENCODING_3DNOW) return DK_3DNOW;
    if (z->mnemonic == ZYDIS_MNEMONIC_JKZD || z->mnemonic == ZYDIS_MNEMONIC_JKNZD) return DK_KNC_BRANCH;
    return DK_AGREE;
}

/* One input: bytes[0, n) in mode. Returns the length to step by (0: none). */
static size_t check_one(tally *t, const uint8_t *b, size_t n, uint32_t mode)
{
    ZydisDecodedInstruction z;
    tdec_ipt_insn_info in;
    uint32_t reason;
    tdec_status st = tdec_ipt_insn_decode(b, n, mode, &in, &reason);
    ZyanStatus zs = ZydisDecoderDecodeInstruction(&zyd[mode], NULL, b, n, &z);
    size_t k;
    enum diff_kind dk;
    t->n++;
    if (!ZYAN_SUCCESS(zs)) {
        if (st == TDEC_OK) {
            t->kind[zs == ZYDIS_STATUS_NO_MORE_DATA ? DK_ZYDIS_SHORT : DK_ZYDIS_REJECTS]++;
            return in.size;
        }
        if (st == TDEC_NEED_INPUT && zs == ZYDIS_STATUS_NO_MORE_DATA) {
            t->kind[DK_BOTH_REJECT]++; /* the section ends inside it */
            return 0;
        }
        if (st == TDEC_E_CORRUPT) {
            t->kind[DK_BOTH_REJECT]++;
            return 0;
        }
        failure(t, "status", b, n, mode, "ours %lld, zydis status 0x%llx", st, (long long)zs);
        return 0;
    }
    if (st != TDEC_OK) {
        if (z.mnemonic == ZYDIS_MNEMONIC_JKZD || z.mnemonic == ZYDIS_MNEMONIC_JKNZD) {
            t->kind[DK_KNC_BRANCH]++;
            return z.length;
        }
        failure(t, "rejected", b, n, mode, "ours %lld, zydis length %lld", st, z.length);
        return z.length;
    }
    if (in.size != z.length) {
        dk = length_reason(&z, b, n, mode);
        if (dk == DK_AGREE)
            failure(t, "length", b, n, mode, "ours %lld, zydis %lld", in.size, z.length);
        else
            t->kind[dk]++;
        return z.length;
    }
    t->kind[DK_AGREE]++;
    for (k = 0; k < in.size; k++) {
        tdec_ipt_insn_info cut;
        if (tdec_ipt_insn_decode(b, k, mode, &cut, &reason) != TDEC_NEED_INPUT) {
            failure(t, "truncated", b, n, mode, "first %lld of %lld bytes not NEED_INPUT", (long long)k, in.size);
            break;
        }
    }
    t->truncations++;
    if (in.iclass != zydis_class(&z)) {
        if (z.mnemonic == ZYDIS_MNEMONIC_PTWRITE && memchr(b, 0x66, opcode_at(b, n, mode)) != NULL)
            t->kind[DK_PTWRITE_66]++;
        else
            failure(t, "class", b, n, mode, "ours %lld, zydis %lld", in.iclass, zydis_class(&z));
    } else {
        t->classes++;
    }
    if (in.flags & TDEC_IPT_INSNF_DIRECT) {
        if (!z.raw.imm[0].is_relative || z.raw.imm[0].value.s != in.disp)
            failure(t, "displacement", b, n, mode, "ours %lld, zydis %lld", in.disp, z.raw.imm[0].value.s);
        else
            t->directs++;
    }
    return z.length;
}

static int report(const char *corpus, uint32_t mode, const tally *t)
{
    int k;
    printf("# ipt-ild diff: %s %u-bit: %llu inputs", corpus, 8u << mode, t->n);
    for (k = 0; k < DK_COUNT; k++) printf(", %s %llu", dk_name[k], t->kind[k]);
    printf(", classes %llu, direct displacements %llu, truncations %llu, unexplained %llu\n", t->classes,
           t->directs, t->truncations, t->failed);
    printf("%s ipt-ild %s %u-bit: lengths, classes and truncation equal Zydis's but for the listed "
           "differences\n",
           t->failed || !t->kind[DK_AGREE] ? "FAIL" : "PASS", corpus, 8u << mode);
    return t->failed || !t->kind[DK_AGREE];
}

/* ---- random strings -------------------------------------------------------- */

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(rng_state >> 33);
}

static void random_insn(uint8_t *b, uint32_t mode)
{
    static const uint8_t legacy[] = {0x66, 0x67, 0xF0, 0xF2, 0xF3, 0x2E, 0x3E, 0x26, 0x64, 0x65, 0x36};
    size_t i = 0, k, np;
    for (k = 0; k < 15; k++) b[k] = (uint8_t)rnd();
    if (rnd() & 1) return; /* uniform */
    np = rnd() % 4;
    for (k = 0; k < np; k++)
        b[i++] = mode == TDEC_IPT_MODE_64 && rnd() % 4 == 0 ? (uint8_t)(0x40 | (rnd() & 15))
                                                           : legacy[rnd() % sizeof legacy];
    switch (rnd() % 8) {
    case 0: break;
    case 1: b[i] = 0x0F; break;
    case 2: b[i] = 0x0F; b[i + 1] = 0x38; break;
    case 3: b[i] = 0x0F; b[i + 1] = 0x3A; break;
    case 4: b[i] = 0xC5; break;
    case 5: b[i] = 0xC4; b[i + 1] = (uint8_t)((b[i + 1] & 0xE0) | (1 + rnd() % 3)); break;
    case 6: b[i] = 0x62; b[i + 1] = (uint8_t)((b[i + 1] & 0xF8) | (1 + rnd() % 6)); b[i + 2] |= 4; break;
    default: b[i] = 0x8F; b[i + 1] = (uint8_t)((b[i + 1] & 0xE0) | (8 + rnd() % 3)); break;
    }
    if (mode != TDEC_IPT_MODE_64 && (b[i] == 0xC4 || b[i] == 0xC5 || b[i] == 0x62) && rnd() % 4)
        b[i + 1] |= 0xC0;
}

static int run_random(unsigned long long count, uint32_t mode)
{
    tally t;
    uint8_t b[16];
    unsigned long long k;
    memset(&t, 0, sizeof t);
    for (k = 0; k < count; k++) {
        random_insn(b, mode);
        check_one(&t, b, 15, mode);
    }
    return report("random", mode, &t);
}

/* ---- real binaries ------------------------------------------------------- */

typedef struct sweep {
    tally              t[4]; /* by mode */
    unsigned long long per_file, done; /* instructions: the limit, this file's */
} sweep;

/* A linear sweep over one executable section. */
static void sweep_section(void *ctx, const uint8_t *code, size_t size, uint32_t mode)
{
    sweep *w = (sweep *)ctx;
    size_t pos = 0;
    for (; pos < size && w->done < w->per_file; w->done++) {
        size_t step = check_one(&w->t[mode], code + pos, size - pos < 15 ? size - pos : 15, mode);
        pos += step ? step : 1;
    }
}

static int run_binaries(unsigned long long per_file, unsigned long long per_mode)
{
    static const char *const roots[] = {"/usr/bin", "/usr/lib", "/usr/lib32"};
    ec_paths p = {NULL, 0, 0};
    sweep w;
    size_t k;
    int bad;
    memset(&w, 0, sizeof w);
    w.per_file = per_file;
    for (k = 0; k < sizeof roots / sizeof roots[0]; k++) ec_list(&p, roots[k]);
    ec_sort(&p);
    for (k = 0; k < p.n; k++) {
        size_t len;
        uint8_t *buf;
        /* a mode that has its count starts no new file */
        int want64 = !per_mode || w.t[TDEC_IPT_MODE_64].n < per_mode;
        int want32 = !per_mode || w.t[TDEC_IPT_MODE_32].n < per_mode;
        if (!want64 && !want32) break;
        if ((buf = ec_read(p.v[k], &len, want64 && want32 ? 0 : want64 ? 2 : 1)) == NULL) continue;
        w.done = 0;
        ec_sections(buf, len, sweep_section, &w);
        free(buf);
    }
    ec_free(&p);
    bad = report("binaries", TDEC_IPT_MODE_64, &w.t[TDEC_IPT_MODE_64]);
    if (w.t[TDEC_IPT_MODE_32].n)
        bad |= report("binaries", TDEC_IPT_MODE_32, &w.t[TDEC_IPT_MODE_32]);
    else
        printf("SKIP ipt-ild binaries 32-bit (no i386 ELF files under /usr/lib32: apt-get install gcc-12-multilib)\n");
    return bad;
}

int main(int argc, char **argv)
{
    unsigned long long seed = 1, count = 1000000, per_file = 200000, per_mode = 3000000;
    int i, bad = 0;
    uint32_t mode;
    for (i = 1; i + 1 < argc; i += 2) {
        unsigned long long v = strtoull(argv[i + 1], NULL, 0);
        if (strcmp(argv[i], "-s") == 0) seed = v;
        else if (strcmp(argv[i], "-n") == 0) count = v;
        else if (strcmp(argv[i], "-f") == 0) per_file = v;
        else if (strcmp(argv[i], "-b") == 0) per_mode = v;
        else {
            fprintf(stderr, "usage: %s [-s SEED] [-n RANDOM] [-f PER_FILE] [-b PER_MODE]\n", argv[0]);
            return 2;
        }
    }
    zydis_init();
    for (mode = TDEC_IPT_MODE_16; mode <= TDEC_IPT_MODE_64; mode++) {
        rng_state = seed * 0x9E3779B97F4A7C15u + mode;
        bad |= run_random(count, mode);
    }
    bad |= run_binaries(per_file, per_mode);
    return bad;
}
