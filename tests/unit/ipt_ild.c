/* ipt_ild.c - unit tests of the x86 length and class decoder of
   single/tdec_ipt.h (tdec_ipt_insn_decode, tdec_ipt_insn_next_ip): hand-
   checked encodings for each rule of FLOW.md §1 (prefixes, REX, REX2, VEX,
   EVEX, the opcode maps, ModRM/SIB/displacement, immediates, operand and
   address sizes by mode, the classes, the 15-byte limit), each also cut
   short at every length: a cut instruction must say TDEC_NEED_INPUT, and
   the decoder reads its bytes from the end of a page followed by an
   unmapped one, so a read past `size` crashes the test. */
#define _DEFAULT_SOURCE
#define TDEC_IPT_IMPLEMENTATION
#include "single/tdec_ipt.h"
#include "tests/lib/testlib.h"

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>
#endif

enum { OK, NEED, BAD };
enum { M16 = TDEC_IPT_MODE_16, M32 = TDEC_IPT_MODE_32, M64 = TDEC_IPT_MODE_64, MUNK = TDEC_IPT_MODE_UNKNOWN };

/* One encoding: mode, bytes in hex, and what the decoder must say. The
   class and kind are checked for OK only; disp for direct branches. */
typedef struct vec {
    const char *what;
    uint32_t    mode;
    const char *hex;
    int         want;
    unsigned    size, iclass, kind;
    long long   disp;
} vec;

#define OTHER TDEC_IPT_IC_OTHER, TDEC_IPT_INSN_OTHER
#define C(ic, k) TDEC_IPT_IC_##ic, TDEC_IPT_INSN_##k

static const vec vecs[] = {
    /* 1.1: the 15-byte limit and what is invalid */
    {"14 x 66 + nop is 15 bytes", M64, "6666666666666666666666666666 90", OK, 15, OTHER, 0},
    {"15 x 66 is invalid", M64, "666666666666666666666666666666", BAD, 0, 0, 0, 0},
    {"13 x 66 + mov ax, imm16 would be 16 bytes", M64, "66666666666666666666666666 B8", BAD, 0, 0, 0, 0},
    {"14 x 66 + 0F: the opcode would be byte 16", M64, "6666666666666666666666666666 0F", BAD, 0, 0, 0, 0},
    {"0F 39 invalid map", M64, "0F39", BAD, 0, 0, 0, 0},
    {"0F 3B invalid map", M32, "0F3B", BAD, 0, 0, 0, 0},
    {"0F 3F invalid map", M16, "0F3F", BAD, 0, 0, 0, 0},
    {"VEX map 0 invalid", M64, "C4E079", BAD, 0, 0, 0, 0},
    {"VEX map 8 invalid", M64, "C4E879", BAD, 0, 0, 0, 0},
    {"EVEX map 0 invalid", M64, "62F07C", BAD, 0, 0, 0, 0},
    {"reserved encodings get a length (82 in 64-bit)", M64, "82C001", OK, 3, OTHER, 0},
    {"nothing yet", M64, "", NEED, 0, 0, 0, 0},
    /* 1.2: prefixes */
    {"66 nop", M64, "6690", OK, 2, OTHER, 0},
    {"67 mov eax, [eax]", M64, "678B00", OK, 3, OTHER, 0},
    {"lock add", M32, "F00100", OK, 3, OTHER, 0},
    {"F2 movsd", M64, "F20F1000", OK, 4, OTHER, 0},
    {"F3 movss", M64, "F30F1000", OK, 4, OTHER, 0},
    {"segment overrides skipped", M32, "2E3E2636646590", OK, 7, OTHER, 0},
    {"REX.W mov", M64, "4889C0", OK, 3, OTHER, 0},
    {"40..4F are INC/DEC in 32-bit mode", M32, "48", OK, 1, OTHER, 0},
    {"40..4F are INC/DEC in 16-bit mode", M16, "4F", OK, 1, OTHER, 0},
    {"REX.W then 66: 66 drops the REX", M64, "4866B81122", OK, 5, OTHER, 0},
    {"66 then REX.W: W wins", M64, "6648B81122334455667788", OK, 11, OTHER, 0},
    {"two REX: the second counts", M64, "4840B811223344", OK, 7, OTHER, 0},
    {"REX2 map 0 nop", M64, "D50090", OK, 3, OTHER, 0},
    {"REX2.W mov r64, imm64", M64, "D508B81122334455667788", OK, 11, OTHER, 0},
    {"REX2: 0F is an opcode, not an escape", M64, "D5000F", OK, 3, OTHER, 0},
    {"REX2 map 1 38 is no escape", M64, "D58038", OK, 3, OTHER, 0},
    {"REX2 map 1 syscall is still classified", M64, "D58005", OK, 3, C(FAR_CALL, SYSCALL), 0},
    {"REX2 jcc is not a branch", M64, "D5007405", OK, 4, OTHER, 0},
    {"REX2 call rel32 is not a branch", M64, "D500E800000000", OK, 7, OTHER, 0},
    {"REX2 ret is classified", M64, "D500C3", OK, 3, C(RETURN, RET_C3), 0},
    {"JMPABS", M64, "D500A11122334455667788", OK, 11, C(JUMP, JMPABS), (long long)0x8877665544332211ull},
    {"REX2.W A1 is mov rax, moffs64", M64, "D508A11122334455667788", OK, 11, OTHER, 0},
    {"66 REX2 A1 is no JMPABS", M64, "66D500A11122334455667788", OK, 12, OTHER, 0},
    {"D5 is AAD imm8 outside 64-bit mode", M32, "D50A", OK, 2, OTHER, 0},
    {"VEX2 vzeroupper", M64, "C5F877", OK, 3, OTHER, 0},
    {"VEX2 vmovdqa", M64, "C5F96FC1", OK, 4, OTHER, 0},
    {"VEX2 in 32-bit mode (11 in bits 7:6)", M32, "C5F877", OK, 3, OTHER, 0},
    {"C5 is LDS in 32-bit mode without 11", M32, "C500", OK, 2, OTHER, 0},
    {"VEX3 map 2", M64, "C4E2791800", OK, 5, OTHER, 0},
    {"VEX3 map 3 has imm8", M64, "C4E3790FC108", OK, 6, OTHER, 0},
    {"VEX3 map 4: no ModRM", M64, "C4E47910", OK, 4, OTHER, 0},
    {"VEX3 map 7: ModRM imm32", M64, "C4E77BF8C011223344", OK, 9, OTHER, 0},
    {"VEX.W mov from map 1 keeps no imm", M64, "C4E1F96EC0", OK, 5, OTHER, 0},
    {"VEX map 1 84 has no displacement", M64, "C4E17884", OK, 4, OTHER, 0},
    {"C4 is LES in 16-bit mode without 11", M16, "C400", OK, 2, OTHER, 0},
    {"EVEX map 1", M64, "62F17C481000", OK, 6, OTHER, 0},
    {"EVEX map 1 disp8", M64, "62F17C48104001", OK, 7, OTHER, 0},
    {"EVEX map 1: 77 has a ModRM", M64, "62F17C0877C0", OK, 6, OTHER, 0},
    {"EVEX map 1 imm8 (70)", M64, "62F17D0870C101", OK, 7, OTHER, 0},
    {"EVEX map 3 imm8", M64, "62F37D480FC108", OK, 7, OTHER, 0},
    {"EVEX map 4 add imm32", M64, "62F47C0881C011223344", OK, 10, OTHER, 0},
    {"EVEX map 4 W add imm32", M64, "62F4FC0881C011223344", OK, 10, OTHER, 0},
    {"EVEX map 4 pp=66 add imm16", M64, "62F47D0881C01122", OK, 8, OTHER, 0},
    {"EVEX map 4 test imm8 (F6 /0)", M64, "62F47C08F6C011", OK, 7, OTHER, 0},
    {"EVEX map 4 not (F6 /2)", M64, "62F47C08F6D0", OK, 6, OTHER, 0},
    {"EVEX map 4 imm8 (C1)", M64, "62F47C08C1E003", OK, 7, OTHER, 0},
    {"EVEX map 5", M64, "62F57C081000", OK, 6, OTHER, 0},
    {"EVEX map 7 imm32", M64, "62F77C08F8C011223344", OK, 10, OTHER, 0},
    {"62 is BOUND in 32-bit mode without 11", M32, "6200", OK, 2, OTHER, 0},
    {"EVEX in 32-bit mode", M32, "62F17C481000", OK, 6, OTHER, 0},
    {"XOP is POP r/m (not recognised)", M64, "8FE878C0000000", OK, 2, OTHER, 0},
    {"3DNow! 0F 0F is 2 bytes", M32, "0F0FC1B4", OK, 2, OTHER, 0},
    /* 1.3: maps and ModRM */
    {"0F 38 map 2", M64, "0F3800C1", OK, 4, OTHER, 0},
    {"0F 3A map 3 imm8", M64, "0F3A0FC108", OK, 5, OTHER, 0},
    {"0F 31 rdtsc, no ModRM", M64, "0F31", OK, 2, OTHER, 0},
    {"0F 77 emms", M64, "0F77", OK, 2, OTHER, 0},
    {"0F A2 cpuid", M64, "0FA2", OK, 2, OTHER, 0},
    {"0F C8 bswap", M64, "0FC8", OK, 2, OTHER, 0},
    {"0F 0B ud2 is other", M64, "0F0B", OK, 2, OTHER, 0},
    {"0F 24 undefined: no ModRM", M32, "0F24", OK, 2, OTHER, 0},
    {"0F 20 mod ignored", M64, "0F2000", OK, 3, OTHER, 0},
    {"0F 22 mod ignored (no disp32 for mod 00 rm 101)", M32, "0F2205", OK, 3, OTHER, 0},
    {"0F A6 mod ignored", M32, "0FA685", OK, 3, OTHER, 0},
    {"0F 70 imm8", M64, "0F70C108", OK, 4, OTHER, 0},
    {"0F BA imm8", M64, "0FBAE005", OK, 4, OTHER, 0},
    {"0F C2 imm8", M64, "0FC2C100", OK, 4, OTHER, 0},
    {"0F A4 shld imm8", M64, "0FA4C108", OK, 4, OTHER, 0},
    {"0F 78 vmread", M64, "0F78C1", OK, 3, OTHER, 0},
    {"66 0F 78 extrq imm8 imm8", M64, "660F78C00102", OK, 6, OTHER, 0},
    {"F2 0F 78 insertq imm8 imm8", M64, "F20F78C10102", OK, 6, OTHER, 0},
    {"F2 F3 0F 78: F3 last, no imm", M64, "F2F30F78C1", OK, 5, OTHER, 0},
    {"F3 F2 0F 78: F2 last, imm8 imm8", M64, "F3F20F78C10102", OK, 7, OTHER, 0},
    /* 1.4: ModRM, SIB, displacement */
    {"SIB", M64, "8B0424", OK, 3, OTHER, 0},
    {"SIB disp8", M64, "8B442408", OK, 4, OTHER, 0},
    {"SIB disp32", M32, "8B842411223344", OK, 7, OTHER, 0},
    {"SIB base 101 mod 00: disp32", M64, "8B042511223344", OK, 7, OTHER, 0},
    {"RIP-relative", M64, "8B0511223344", OK, 6, OTHER, 0},
    {"mod 01 rm 101: disp8", M64, "8B4500", OK, 3, OTHER, 0},
    {"mod 10: disp32", M64, "8B8511223344", OK, 6, OTHER, 0},
    {"mod 11: no disp", M64, "8BC0", OK, 2, OTHER, 0},
    {"call [abs32] via SIB", M64, "FF142511223344", OK, 7, C(CALL, CALL_FFR2), 0},
    {"call [rip+d32]", M64, "FF1511223344", OK, 6, C(CALL, CALL_FFR2), 0},
    {"16-bit: rm 110 mod 00: disp16", M16, "FF161122", OK, 4, C(CALL, CALL_FFR2), 0},
    {"16-bit: mod 01 disp8", M16, "8B4600", OK, 3, OTHER, 0},
    {"16-bit: mod 10 disp16", M16, "8B861122", OK, 4, OTHER, 0},
    {"16-bit: no SIB", M16, "8B04", OK, 2, OTHER, 0},
    {"16-bit + 67: 32-bit addressing", M16, "67FF5600", OK, 4, C(CALL, CALL_FFR2), 0},
    {"16-bit + 67: SIB", M16, "678B0424", OK, 4, OTHER, 0},
    {"32-bit + 67: 16-bit addressing", M32, "678B061122", OK, 5, OTHER, 0},
    {"64-bit + 67: still SIB", M64, "678B0424", OK, 4, OTHER, 0},
    {"unknown mode: no SIB, no disp", MUNK, "8B05", OK, 2, OTHER, 0},
    {"unknown mode: 16-bit operands", MUNK, "B81122", OK, 3, OTHER, 0},
    /* 1.5: operand sizes, immediates */
    {"mov r32, imm32", M32, "B811223344", OK, 5, OTHER, 0},
    {"mov r16, imm16 (16-bit)", M16, "B81122", OK, 3, OTHER, 0},
    {"66 mov r32, imm32 (16-bit)", M16, "66B811223344", OK, 6, OTHER, 0},
    {"66 mov r16, imm16 (32-bit)", M32, "66B81122", OK, 4, OTHER, 0},
    {"mov r32, imm32 (64-bit)", M64, "B811223344", OK, 5, OTHER, 0},
    {"REX.W mov r64, imm64", M64, "48B81122334455667788", OK, 10, OTHER, 0},
    {"66 mov r16, imm16 (64-bit)", M64, "66B81122", OK, 4, OTHER, 0},
    {"REX.W add rax, imm32 (z is never 8)", M64, "480511223344", OK, 6, OTHER, 0},
    {"66 add ax, imm16", M64, "66051122", OK, 4, OTHER, 0},
    {"push imm32", M64, "6811223344", OK, 5, OTHER, 0},
    {"66 push imm16", M64, "66681122", OK, 4, OTHER, 0},
    {"REX.W push imm32", M64, "486811223344", OK, 6, OTHER, 0},
    {"push imm16 (16-bit)", M16, "681122", OK, 3, OTHER, 0},
    {"push imm8", M32, "6A01", OK, 2, OTHER, 0},
    {"imul imm8", M32, "6BC001", OK, 3, OTHER, 0},
    {"imul imm32", M32, "69C011223344", OK, 6, OTHER, 0},
    {"80 /0 imm8", M32, "80C001", OK, 3, OTHER, 0},
    {"81 /0 imm32", M32, "81C011223344", OK, 6, OTHER, 0},
    {"83 /0 imm8", M32, "83C001", OK, 3, OTHER, 0},
    {"shl imm8", M32, "C0E001", OK, 3, OTHER, 0},
    {"mov m8, imm8", M32, "C60001", OK, 3, OTHER, 0},
    {"test al, imm8", M32, "A801", OK, 2, OTHER, 0},
    {"test eax, imm32", M32, "A911223344", OK, 5, OTHER, 0},
    {"mov al, imm8", M32, "B001", OK, 2, OTHER, 0},
    {"aam imm8", M32, "D40A", OK, 2, OTHER, 0},
    {"in al, imm8", M32, "E401", OK, 2, OTHER, 0},
    {"test F6 /0 imm8", M32, "F6C001", OK, 3, OTHER, 0},
    {"test F6 /1 imm8", M32, "F6C801", OK, 3, OTHER, 0},
    {"not F6 /2", M32, "F6D0", OK, 2, OTHER, 0},
    {"test F7 /0 imm32", M32, "F7C011223344", OK, 6, OTHER, 0},
    {"66 test F7 /0 imm16", M32, "66F7C01122", OK, 5, OTHER, 0},
    {"neg F7 /3", M32, "F7D8", OK, 2, OTHER, 0},
    {"mov C7 /0 imm32", M64, "C7C011223344", OK, 6, OTHER, 0},
    {"xbegin rel32", M64, "C7F811223344", OK, 6, OTHER, 0},
    {"66 xbegin rel16", M64, "66C7F81122", OK, 5, OTHER, 0},
    {"C7 /7 memory, no disp: rel z follows", M32, "C73811223344", OK, 6, OTHER, 0},
    {"C7 /7 memory, disp8: no rel", M32, "C77800", OK, 3, OTHER, 0},
    {"enter imm16, imm8", M32, "C8100001", OK, 4, OTHER, 0},
    {"mov eax, moffs64", M64, "A11122334455667788", OK, 9, OTHER, 0},
    {"67 mov eax, moffs32", M64, "67A111223344", OK, 6, OTHER, 0},
    {"mov eax, moffs32 (32-bit)", M32, "A111223344", OK, 5, OTHER, 0},
    {"67 mov eax, moffs16 (32-bit)", M32, "67A11122", OK, 4, OTHER, 0},
    {"mov ax, moffs16 (16-bit)", M16, "A11122", OK, 3, OTHER, 0},
    {"call far ptr16:32", M32, "9A112233445566", OK, 7, C(FAR_CALL, CALL_9A), 0},
    {"call far ptr16:16 (16-bit)", M16, "9A11223344", OK, 5, C(FAR_CALL, CALL_9A), 0},
    {"66 call far ptr16:16", M32, "669A11223344", OK, 6, C(FAR_CALL, CALL_9A), 0},
    {"9A in 64-bit: length, class other", M64, "9A112233445566", OK, 7, OTHER, 0},
    {"jmp far ptr16:32", M32, "EA112233445566", OK, 7, C(FAR_JUMP, JMP_EA), 0},
    {"EA in 64-bit: other", M64, "EA112233445566", OK, 7, OTHER, 0},
    /* branch displacements, 1.6 classes */
    {"call rel32", M64, "E8FBFFFFFF", OK, 5, C(CALL, CALL_E8), -5},
    {"66 call rel32 in 64-bit (66 ignored)", M64, "66E800000000", OK, 6, C(CALL, CALL_E8), 0},
    {"66 call rel16 (32-bit)", M32, "66E80080", OK, 4, C(CALL, CALL_E8), -32768},
    {"call rel16 (16-bit)", M16, "E81000", OK, 3, C(CALL, CALL_E8), 16},
    {"jmp rel32", M32, "E910000000", OK, 5, C(JUMP, JMP_E9), 16},
    {"jmp rel8", M64, "EBFE", OK, 2, C(JUMP, JMP_EB), -2},
    {"jz rel8", M64, "7405", OK, 2, C(COND_JUMP, JCC), 5},
    {"jg rel8", M32, "7F80", OK, 2, C(COND_JUMP, JCC), -128},
    {"jz rel32", M64, "0F8411223344", OK, 6, C(COND_JUMP, JCC), 0x44332211},
    {"66 jz rel32 in 64-bit", M64, "660F8411223344", OK, 7, C(COND_JUMP, JCC), 0x44332211},
    {"jz rel16 (16-bit)", M16, "0F841122", OK, 4, C(COND_JUMP, JCC), 0x2211},
    {"jrcxz", M64, "E300", OK, 2, C(COND_JUMP, JRCXZ), 0},
    {"loop", M64, "E2FE", OK, 2, C(COND_JUMP, LOOP), -2},
    {"loope", M32, "E101", OK, 2, C(COND_JUMP, LOOPE), 1},
    {"loopne", M16, "E002", OK, 2, C(COND_JUMP, LOOPNE), 2},
    {"ret", M64, "C3", OK, 1, C(RETURN, RET_C3), 0},
    {"ret imm16", M64, "C20800", OK, 3, C(RETURN, RET_C2), 0},
    {"retf", M64, "CB", OK, 1, C(FAR_RETURN, RET_CB), 0},
    {"retf imm16", M32, "CA0800", OK, 3, C(FAR_RETURN, RET_CA), 0},
    {"int3", M64, "CC", OK, 1, C(FAR_CALL, INT3), 0},
    {"int 0x80", M32, "CD80", OK, 2, C(FAR_CALL, INT), 0},
    {"int1", M64, "F1", OK, 1, C(FAR_CALL, INT1), 0},
    {"into (32-bit)", M32, "CE", OK, 1, C(FAR_CALL, INTO), 0},
    {"into is other in 64-bit", M64, "CE", OK, 1, OTHER, 0},
    {"iret", M32, "CF", OK, 1, C(FAR_RETURN, IRET), 0},
    {"iretq", M64, "48CF", OK, 2, C(FAR_RETURN, IRET), 0},
    {"call reg", M64, "FFD0", OK, 2, C(CALL, CALL_FFR2), 0},
    {"call far m16:32", M64, "FF18", OK, 2, C(FAR_CALL, CALL_FFR3), 0},
    {"jmp reg", M64, "FFE0", OK, 2, C(JUMP, JMP_FFR4), 0},
    {"jmp far m16:32", M64, "FF28", OK, 2, C(FAR_JUMP, JMP_FFR5), 0},
    {"push m (FF /6)", M64, "FF30", OK, 2, OTHER, 0},
    {"syscall", M64, "0F05", OK, 2, C(FAR_CALL, SYSCALL), 0},
    {"sysret", M64, "480F07", OK, 3, C(FAR_RETURN, SYSRET), 0},
    {"sysenter", M32, "0F34", OK, 2, C(FAR_CALL, SYSENTER), 0},
    {"sysexit", M32, "0F35", OK, 2, C(FAR_RETURN, SYSEXIT), 0},
    {"vmcall", M64, "0F01C1", OK, 3, C(FAR_CALL, VMCALL), 0},
    {"vmlaunch", M64, "0F01C2", OK, 3, C(FAR_RETURN, VMLAUNCH), 0},
    {"vmresume", M64, "0F01C3", OK, 3, C(FAR_RETURN, VMRESUME), 0},
    {"uiret", M64, "F30F01EC", OK, 4, C(FAR_RETURN, UIRET), 0},
    {"erets", M64, "F20F01CA", OK, 4, C(FAR_RETURN, ERETS), 0},
    {"eretu", M64, "F30F01CA", OK, 4, C(FAR_RETURN, ERETU), 0},
    {"F3 F2 0F 01 CA: F2 last is erets", M64, "F3F20F01CA", OK, 5, C(FAR_RETURN, ERETS), 0},
    {"0F 01 CA without F2/F3 is clac", M64, "0F01CA", OK, 3, OTHER, 0},
    {"ptwrite", M64, "F30FAEE0", OK, 4, C(PTWRITE, PTWRITE), 0},
    {"ptwrite with REX.W", M64, "F3480FAEE0", OK, 5, C(PTWRITE, PTWRITE), 0},
    {"66 F3 0F AE /4 is other", M64, "66F30FAEE0", OK, 5, OTHER, 0},
    {"mov cr3, rax", M64, "0F22D8", OK, 3, C(OTHER, MOV_CR3), 0},
    {"mov cr11 (REX.R) is plain other", M64, "440F22D8", OK, 4, OTHER, 0},
    {"vmptrld", M64, "0FC730", OK, 3, C(OTHER, VMPTRLD), 0},
    {"rdrand (0F C7 /6 register) is other", M64, "0FC7F0", OK, 3, OTHER, 0},
    {"VEX-encoded opcodes are never classified", M64, "C4E178C3C0", OK, 5, OTHER, 0},
    /* need more bytes */
    {"0F alone", M64, "0F", NEED, 0, 0, 0, 0},
    {"66 alone", M64, "66", NEED, 0, 0, 0, 0},
    {"C4 alone (64-bit)", M64, "C4", NEED, 0, 0, 0, 0},
    {"C4 alone (32-bit: VEX or LES?)", M32, "C4", NEED, 0, 0, 0, 0},
    {"VEX3 without its opcode", M64, "C4E279", NEED, 0, 0, 0, 0},
    {"SIB missing", M32, "8B04", NEED, 0, 0, 0, 0},
    {"disp32 missing", M64, "8B0511", NEED, 0, 0, 0, 0},
    {"imm missing", M64, "B8112233", NEED, 0, 0, 0, 0},
    {"REX2 payload missing", M64, "D5", NEED, 0, 0, 0, 0},
    {"14 x 66: the opcode may still come", M64, "6666666666666666666666666666", NEED, 0, 0, 0, 0},
};

/* Reads hex (spaces allowed) into b; returns the byte count. */
static size_t unhex(const char *s, uint8_t *b)
{
    size_t n = 0;
    while (*s) {
        unsigned v;
        if (*s == ' ') {
            s++;
            continue;
        }
        if (sscanf(s, "%2x", &v) != 1) break;
        b[n++] = (uint8_t)v;
        s += 2;
    }
    return n;
}

/* The bytes at the end of a readable page followed by an unmapped one, so
   that reading past them faults. */
static uint8_t *guard_end;

static void guard_init(void)
{
#if defined(__unix__)
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *p = (uint8_t *)mmap(NULL, (size_t)(2 * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED && mprotect(p + page, (size_t)page, PROT_NONE) == 0) {
        guard_end = p + page;
        return;
    }
#endif
    guard_end = (uint8_t *)malloc(64) + 64; /* ASan builds still see an over-read */
}

static tdec_status decode_at_guard(const uint8_t *b, size_t n, uint32_t mode, tdec_ipt_insn_info *in, uint32_t *reason)
{
    memcpy(guard_end - n, b, n);
    return tdec_ipt_insn_decode(guard_end - n, n, mode, in, reason);
}

static void test_vectors(void)
{
    size_t k, cut;
    for (k = 0; k < sizeof vecs / sizeof vecs[0]; k++) {
        const vec *v = &vecs[k];
        uint8_t b[32];
        size_t n = unhex(v->hex, b);
        tdec_ipt_insn_info in;
        uint32_t reason = 99;
        tdec_status st;
        tl_case c;
        tl_begin(&c, "ild %u-bit: %s (%s)", 8u << v->mode, v->what, v->hex);
        memset(&in, 0xAB, sizeof in);
        st = decode_at_guard(b, n, v->mode, &in, &reason);
        if (v->want == OK) {
            TL_TRUE(&c, st == TDEC_OK && reason == 0, "status %d reason %u", (int)st, reason);
            TL_TRUE(&c, in.size == v->size, "size %u, want %u", in.size, v->size);
            TL_TRUE(&c, in.iclass == v->iclass && in.kind == v->kind, "class %u kind %u, want %u %u", in.iclass,
                    in.kind, v->iclass, v->kind);
            TL_TRUE(&c, in.disp == v->disp, "disp %lld, want %lld", (long long)in.disp, v->disp);
            TL_TRUE(&c, in.reserved == 0 && in.reserved2 == 0, "reserved fields");
            /* every cut: NEED_INPUT, *out untouched */
            for (cut = 0; cut < in.size; cut++) {
                tdec_ipt_insn_info part;
                memset(&part, 0x5A, sizeof part);
                st = decode_at_guard(b, cut, v->mode, &part, &reason);
                TL_TRUE(&c, st == TDEC_NEED_INPUT && reason == 0 && part.size == 0x5A,
                        "first %zu bytes: status %d reason %u", cut, (int)st, reason);
            }
            /* more bytes than the instruction change nothing */
            {
                tdec_ipt_insn_info more;
                memset(b + n, 0x90, 16);
                st = decode_at_guard(b, n + 16, v->mode, &more, &reason);
                TL_TRUE(&c, st == TDEC_OK && memcmp(&more, &in, sizeof in) == 0, "with 16 more bytes: status %d", (int)st);
            }
        } else if (v->want == NEED) {
            TL_TRUE(&c, st == TDEC_NEED_INPUT && reason == 0, "status %d reason %u", (int)st, reason);
        } else {
            TL_TRUE(&c, st == TDEC_E_CORRUPT && reason == TDEC_IPT_ERR_BAD_INSN, "status %d reason %u", (int)st,
                    reason);
            memset(b + n, 0x90, 16);
            st = decode_at_guard(b, n + 16, v->mode, &in, &reason);
            TL_TRUE(&c, st == TDEC_E_CORRUPT, "with 16 more bytes: status %d", (int)st);
        }
        tl_end(&c);
    }
}

/* The predicates of every fine class (FLOW.md §1.6). */
static void test_predicates(void)
{
    static const struct {
        const char *hex;
        uint32_t    mode;
        unsigned    flags;
    } p[] = {
        {"CD80", M32, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_SWINT},
        {"CC", M64, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_SWINT},
        {"F1", M64, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_SWINT},
        {"CE", M32, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_SWINT},
        {"CF", M64, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_IRET},
        {"0F05", M64, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_SYSCALL},
        {"0F34", M32, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_SYSCALL},
        {"0F35", M32, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_IRET},
        {"0F07", M64, TDEC_IPT_INSNF_CPL | TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_IRET},
        {"0F01C2", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_VMENTRY},
        {"0F01C3", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_VMENTRY},
        {"0F01C1", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS},
        {"F30F01EC", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_UIRET},
        {"F20F01CA", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_IRET},
        {"F30F01CA", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS | TDEC_IPT_INSNF_IRET},
        {"CB", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS},
        {"FF18", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS},
        {"FF28", M64, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS},
        {"9A112233445566", M32, TDEC_IPT_INSNF_PIP | TDEC_IPT_INSNF_VMCS},
        {"0F22D8", M64, TDEC_IPT_INSNF_PIP},
        {"0FC730", M64, TDEC_IPT_INSNF_VMCS},
        {"E800000000", M64, TDEC_IPT_INSNF_DIRECT},
        {"7400", M64, TDEC_IPT_INSNF_DIRECT},
        {"D500A11122334455667788", M64, TDEC_IPT_INSNF_DIRECT},
        {"FFD0", M64, 0},
        {"C3", M64, 0},
        {"F30FAEE0", M64, 0},
        {"90", M64, 0},
    };
    size_t k;
    tl_case c;
    tl_begin(&c, "ild: the predicates of each class (libipt's pt_insn_* predicates)");
    for (k = 0; k < sizeof p / sizeof p[0]; k++) {
        uint8_t b[16];
        size_t n = unhex(p[k].hex, b);
        tdec_ipt_insn_info in;
        tdec_status st = decode_at_guard(b, n, p[k].mode, &in, NULL);
        TL_TRUE(&c, st == TDEC_OK && in.flags == p[k].flags, "%s: status %d flags 0x%x, want 0x%x", p[k].hex, (int)st,
                in.flags, p[k].flags);
    }
    tl_end(&c);
}

/* FLOW.md §1.7: the next IP without trace. */
static void test_next_ip(void)
{
    static const struct {
        const char *hex;
        uint32_t    mode;
        uint64_t    ip;
        int         want; /* OK: next; else the status */
        uint64_t    next;
    } p[] = {
        {"90", M64, 0x1000, OK, 0x1001},
        {"F30FAEE0", M64, 0x1000, OK, 0x1004},
        {"E8FBFFFFFF", M64, 0x1000, OK, 0x1000},
        {"E800000000", M64, 0x1000, OK, 0x1005},       /* call next: a plain call */
        {"EB80", M64, 0, OK, 0xFFFFFFFFFFFFFF82ull},   /* 64-bit wrap-around */
        {"E9FF7F", M16, 0xFFF0, OK, 0x17FF2},          /* no 16-bit truncation */
        {"E9FFFFFF7F", M32, 0xFFFFFFF0u, OK, 0x17FFFFFF4ull},
        {"7400", M64, 0x1000, TDEC_E_SEQUENCE, 0},
        {"E200", M64, 0x1000, TDEC_E_SEQUENCE, 0},
        {"C3", M64, 0x1000, TDEC_E_SEQUENCE, 0},
        {"FFD0", M64, 0x1000, TDEC_E_SEQUENCE, 0},
        {"FFE0", M64, 0x1000, TDEC_E_SEQUENCE, 0},
        {"CD80", M32, 0x1000, TDEC_E_SEQUENCE, 0},
        {"D500A11122334455667788", M64, 0x1000, TDEC_E_SEQUENCE, 0}, /* JMPABS: TIP */
        {"0F05", M64, 0x1000, TDEC_E_SEQUENCE, 0},
    };
    size_t k;
    tl_case c;
    tdec_ipt_insn_info in;
    uint64_t next;
    uint32_t reason;
    tl_begin(&c, "ild: next IP without trace (libipt's pt_insn_next_ip)");
    for (k = 0; k < sizeof p / sizeof p[0]; k++) {
        uint8_t b[16];
        size_t n = unhex(p[k].hex, b);
        tdec_status st = decode_at_guard(b, n, p[k].mode, &in, NULL);
        TL_TRUE(&c, st == TDEC_OK, "%s: decode %d", p[k].hex, (int)st);
        next = 0x77;
        st = tdec_ipt_insn_next_ip(&in, p[k].ip, &next, &reason);
        if (p[k].want == OK)
            TL_TRUE(&c, st == TDEC_OK && reason == 0 && next == p[k].next, "%s: status %d next 0x%llx, want 0x%llx",
                    p[k].hex, (int)st, (unsigned long long)next, (unsigned long long)p[k].next);
        else
            TL_TRUE(&c, st == p[k].want && reason == TDEC_IPT_ERR_BAD_QUERY && next == 0x77, "%s: status %d reason %u",
                    p[k].hex, (int)st, reason);
    }
    memset(&in, 0, sizeof in); /* class UNKNOWN */
    TL_TRUE(&c, tdec_ipt_insn_next_ip(&in, 0, &next, &reason) == TDEC_E_CORRUPT && reason == TDEC_IPT_ERR_BAD_INSN,
            "class unknown");
    TL_TRUE(&c, tdec_ipt_insn_next_ip(NULL, 0, &next, &reason) == TDEC_E_ARG && reason == TDEC_IPT_ERR_INTERNAL,
            "NULL insn");
    tl_end(&c);
}

static void test_arguments(void)
{
    static const uint8_t nop = 0x90;
    tdec_ipt_insn_info in;
    uint32_t reason;
    tl_case c;
    tl_begin(&c, "ild: argument errors");
    TL_TRUE(&c, tdec_ipt_insn_decode(NULL, 1, M64, &in, &reason) == TDEC_E_ARG && reason == TDEC_IPT_ERR_INTERNAL,
            "NULL bytes");
    TL_TRUE(&c, tdec_ipt_insn_decode(&nop, 1, M64, NULL, &reason) == TDEC_E_ARG && reason == TDEC_IPT_ERR_INTERNAL,
            "NULL out");
    TL_TRUE(&c, tdec_ipt_insn_decode(&nop, 1, 4, &in, &reason) == TDEC_E_ARG && reason == TDEC_IPT_ERR_INVALID,
            "mode 4");
    TL_EQI(&c, tdec_ipt_insn_decode(&nop, 1, M64, &in, NULL), TDEC_OK); /* reason may be NULL */
    TL_EQU(&c, in.size, 1);
    tl_end(&c);
}

/* Every one-byte opcode of map 0 and every 0F opcode of map 1, in every
   mode, with enough bytes after it: decodes (or is one of the invalid maps),
   within 15 bytes, and the same bytes cut anywhere need more input. */
static void test_all_opcodes(void)
{
    uint32_t mode;
    unsigned op, esc, bad = 0;
    tl_case c;
    tl_begin(&c, "ild: every opcode of maps 0..3 decodes in every mode, and cut short needs more bytes");
    for (mode = MUNK; mode <= M64; mode++)
        for (esc = 0; esc < 4; esc++)
            for (op = 0; op < 256; op++) {
                static const uint8_t escapes[4][2] = {{0, 0}, {0x0F, 0}, {0x0F, 0x38}, {0x0F, 0x3A}};
                uint8_t b[16];
                size_t at = esc == 0 ? 0 : esc == 1 ? 1 : 2, cut;
                tdec_ipt_insn_info in;
                tdec_status st;
                memset(b, 0x40, sizeof b); /* ModRM 40: mod 01, disp8 */
                memcpy(b, escapes[esc], at);
                b[at] = (uint8_t)op;
                st = decode_at_guard(b, 15, mode, &in, NULL);
                if (st != TDEC_OK) {
                    int invalid_map = esc == 1 && (op & 0xF8) == 0x38 && op != 0x38 && op != 0x3A;
                    /* 15 prefixes (40 is REX in 64-bit mode); VEX/EVEX map 0 (C4 40, 62 40) */
                    int prefix_run = esc == 0 && mode == M64 && st == TDEC_E_CORRUPT;
                    if (!invalid_map && !prefix_run && bad++ < 5)
                        TL_TRUE(&c, 0, "%u-bit, escape %u, opcode %02x: status %d", 8u << mode, esc, op, (int)st);
                    continue;
                }
                for (cut = 0; cut < in.size; cut++)
                    if (decode_at_guard(b, cut, mode, &in, NULL) != TDEC_NEED_INPUT && bad++ < 5)
                        TL_TRUE(&c, 0, "%u-bit, escape %u, opcode %02x cut at %zu", 8u << mode, esc, op, cut);
            }
    tl_end(&c);
}

static void test_size(void)
{
    tl_case c;
    tl_begin(&c, "sizeof(tdec_ipt_insn_info) = 16 (MEMORY)");
    TL_TRUE(&c, sizeof(tdec_ipt_insn_info) == 16, "%zu", sizeof(tdec_ipt_insn_info));
    tl_end(&c);
}

int main(void)
{
    guard_init();
    test_vectors();
    test_predicates();
    test_next_ip();
    test_arguments();
    test_all_opcodes();
    test_size();
    return tl_exit_code();
}
