# The compile matrix's cells (included by the Makefile). Each cell is a
# target under build/matrix/ whose name says how it is built;
# tests/matrix/matrix.sh lists the cells it wants, asks make for them
# (make -k: a cell that does not build is a FAIL of that cell) and runs them.
# Every recipe removes its target first, so a target that exists was built
# by this run.
#
#   build/matrix/pair/FMT/VARIANT/COMPILER-STD
#       a pair: tests/matrix/tu.c built twice (TU a with main, TU b: files
#       $@.a.o, $@.b.o) and linked. COMPILER is gcc, clang, g++, clang++ or
#       cc ($(CC)); STD is c99, c11 or c++17; VARIANT names the flags of
#       both TUs in the table below.
#   build/matrix/cm4/FMT-tu.o, cm4/ipt-noflow.o
#       freestanding Cortex-M4 objects (arm-none-eabi-gcc): the pair's TU a;
#       tdec_ipt.h's implementation with TDEC_IPT_NO_FLOW. The implementation
#       alone, with and without TDEC_NO_STRINGS, and the whole amalgamation
#       are the device tests' build/device/lib/HDR-m4-Os[-nostrings].o
#       (tests/device/device.mk)
#   build/matrix/sizeof/FMT-{native,m32,s390x,cm4}.o
#       sizeof of the decoder and item types, read back with nm -S
#   build/matrix/sizedoc/FMT.h, sizedoc/FMT-{lp64,cm4}.o
#       the header's "sizeof(T) = N on LP64, M on ILP32 (Cortex-M)" lines,
#       checked at compile time on x86_64 and on the Cortex-M4
#   build/matrix/replay/FMT-{native,m32,s390x}
#       the fuzz harness with its hash macro over the corpus: one line of
#       hashes per input, compared across hosts
#   build/matrix/unit/FMT-s390x   the unit test for the big-endian host
#   build/matrix/includes/PATH.i  a header without its comments
#   build/matrix/m32-probe        does $(CC) -m32 build and run programs?
#
# Compilers: a cell's compiler is its name's (gcc, clang, g++, clang++; cc is
# $(CC)); $(CFLAGS) reach every cell built for this machine. The -m32,
# s390x and Cortex-M4 cells use fixed flags (-O2, -Os): sanitizer and
# coverage runtimes seldom exist for those targets.

MX      := $(B)/matrix
MX_TU   := tests/matrix/tu.c
MX_DEPS := $(MX_TU) $(HEADERS) tests/matrix/matrix.mk
CM4     := arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding -std=c99
BECC    := s390x-linux-gnu-gcc -static -std=c99 -O2
M32CC    = $(CC) -m32 -std=c99 -O2
mx_fresh = @mkdir -p $(@D) && rm -f $@

upper = $(patsubst $(1):%,%,$(filter $(1):%,xray:XRAY uftrace:UFTRACE ovni:OVNI xtrace:XTRACE ipt:IPT))

# ---- pairs ---------------------------------------------------------------------
# The parts of the target's name (pair/FMT/VARIANT/COMPILER-STD), and the
# flags they give.
mx_parts    = $(subst /, ,$*)
mx_f        = $(word 1,$(mx_parts))
mx_U        = $(call upper,$(mx_f))
mx_v        = $(word 2,$(mx_parts))
mx_tool     = $(word 1,$(subst -, ,$(word 3,$(mx_parts))))
mx_std      = $(word 2,$(subst -, ,$(word 3,$(mx_parts))))
mx_compiler = $(if $(filter cc,$(mx_tool)),$(CC),$(mx_tool))
mx_lang     = -x $(if $(filter %++,$(mx_tool)),c++,c) -std=$(mx_std)

# The headers (MX_HEADER, then MX_HEADER2) and implementation macros.
mxS  = -DMX_HEADER='"single/tdec_$(mx_f).h"'
mxA  = -DMX_HEADER='"tracedec.h"'
mxS2 = -DMX_HEADER2='"single/tdec_$(mx_f).h"'
mxA2 = -DMX_HEADER2='"tracedec.h"'
mxIS = -DTDEC_$(mx_U)_IMPLEMENTATION
mxIA = -DTRACEDEC_IMPLEMENTATION
# Another format (xray; uftrace for xray), and every other format left out.
mx_other   = $(call upper,$(if $(filter xray,$(mx_f)),uftrace,xray))
mx_no_rest = $(foreach f,$(filter-out $(mx_f),$(FORMATS)),-DTDEC_NO_$(call upper,$(f)))

# VARIANT: mx.VARIANT goes to both TUs, mx.VARIANT.a to TU a (the one with
# main), mx.VARIANT.b to TU b; mx.VARIANT.cc compiles TU b instead of the
# cell's compiler, mx.VARIANT.cflags replaces $(CFLAGS).
mx.single                = $(mxS)
mx.single.a              = $(mxIS)
mx.amal                  = $(mxA)
mx.amal.a                = $(mxIA)
mx.static                = $(mxS) $(mxIS) -DTDEC_STATIC
mx.amal-static           = $(mxA) $(mxIA) -DTDEC_STATIC
mx.partial               = $(mxS) $(mxIS) -DTDEC_STATIC -DMX_PARTIAL
mx.fmt-static            = $(mxS) $(mxIS) -DTDEC_$(mx_U)_STATIC
mx.def                   = $(mxS) '-DTDEC_$(mx_U)_DEF=extern __attribute__((visibility("hidden")))'
mx.def.a                 = $(mxIS)
mx.amal-then-single      = $(mxA) $(mxS2)
mx.amal-then-single.a    = $(mxIA)
mx.single-then-amal      = $(mxS) $(mxA2)
mx.single-then-amal.a    = $(mxIS)
mx.twice                 = $(mxS) $(mxS2)
mx.twice.a               = $(mxIS)
mx.amal-impl.a           = $(mxA) $(mxIA)
mx.amal-impl.b           = $(mxS)
mx.only                  = $(mxA) -DTDEC_ONLY_$(mx_U)
mx.only.a                = $(mxIA)
mx.only-two              = $(mxA) -DTDEC_ONLY_$(mx_U) -DTDEC_ONLY_$(mx_other)
mx.only-two.a            = $(mxIA)
mx.rest-out              = $(mxA) $(mx_no_rest)
mx.rest-out.a            = $(mxIA)
mx.no                    = $(mxA) -DTDEC_NO_$(mx_U) -DMX_NO_API
mx.no.a                  = $(mxIA)
mx.only-other            = $(mxA) -DTDEC_ONLY_$(mx_other) -DMX_NO_API
mx.only-other.a          = $(mxIA)
mx.no-other              = $(mxA) -DTDEC_NO_$(mx_other)
mx.no-other.a            = $(mxIA)
mx.nostrings             = $(mxS) -DTDEC_NO_STRINGS
mx.nostrings.a           = $(mxIS)
mx.amal-nostrings        = $(mxA) -DTDEC_NO_STRINGS
mx.amal-nostrings.a      = $(mxIA)
# TU a in C++ (the cell's compiler) calls TU b, the implementation built as C.
mx.cxx-caller            = $(mxS)
mx.cxx-caller.b          = $(mxIS)
mx.cxx-caller.cc         = gcc -x c -std=c99
# Intel PT without its instruction layer.
mx.no-flow               = $(mxS) -DTDEC_IPT_NO_FLOW
mx.no-flow.a             = $(mxIS)
# 32-bit x86 (cell cc-c99: $(CC) -m32).
mx.m32                   = $(mxS)
mx.m32.a                 = $(mxIS)
mx.m32.cflags            = -m32 -O2
mx.m32-amal              = $(mxA)
mx.m32-amal.a            = $(mxIA)
mx.m32-amal.cflags       = -m32 -O2

mx_cflags = $(or $(mx.$(mx_v).cflags),$(CFLAGS))
mx_flags  = $(WARN) $(mx_cflags) -I. -DMX_FMT=$(mx_f) $(mx.$(mx_v))

$(MX)/pair/%: $(MX_DEPS)
	$(mx_fresh)
	$(mx_compiler) $(mx_lang) $(mx_flags) $(mx.$(mx_v).a) -DMX_NAME=a -DMX_MAIN -c $(MX_TU) -o $@.a.o
	$(or $(mx.$(mx_v).cc),$(mx_compiler) $(mx_lang)) $(mx_flags) $(mx.$(mx_v).b) -DMX_NAME=b -c $(MX_TU) -o $@.b.o
	$(mx_compiler) $(mx_cflags) -o $@ $@.a.o $@.b.o

# ---- freestanding Cortex-M4 --------------------------------------------------------
MX_IMPL = $(WARN) -I. -DMX_HEADER_ONLY -c $(MX_TU) -o $@
$(MX)/cm4/%-tu.o: $(MX_DEPS)
	$(mx_fresh)
	$(CM4) $(WARN) -I. -DMX_FMT=$* -DMX_HEADER='"single/tdec_$*.h"' -DTDEC_$(call upper,$*)_IMPLEMENTATION \
	    -DMX_NAME=a -c $(MX_TU) -o $@
$(MX)/cm4/ipt-noflow.o: $(MX_DEPS)
	$(mx_fresh)
	$(CM4) -DMX_HEADER='"single/tdec_ipt.h"' -DTDEC_IPT_IMPLEMENTATION -DTDEC_IPT_NO_FLOW $(MX_IMPL)

# ---- sizes -------------------------------------------------------------------------
MX_SIZEOF = $(WARN) -I. -DMX_FMT=$* -DMX_HEADER='"single/tdec_$*.h"' -DMX_SIZEOF -c $(MX_TU) -o $@
$(MX)/sizeof/%-native.o: $(MX_DEPS)
	$(mx_fresh)
	$(CC) -std=c99 $(CFLAGS) $(MX_SIZEOF)
$(MX)/sizeof/%-m32.o: $(MX_DEPS)
	$(mx_fresh)
	$(M32CC) $(MX_SIZEOF)
$(MX)/sizeof/%-s390x.o: $(MX_DEPS)
	$(mx_fresh)
	$(BECC) $(MX_SIZEOF)
$(MX)/sizeof/%-cm4.o: $(MX_DEPS)
	$(mx_fresh)
	$(CM4) $(MX_SIZEOF)

# The MEMORY section's lines "sizeof(T) = N on LP64, M on ILP32 (Cortex-M)",
# as MX_DOC(T, N, M) lines: tu.c turns each into an array whose size is
# negative unless the documented size holds.
.PRECIOUS: $(MX)/sizedoc/%.h
$(MX)/sizedoc/%.h: single/tdec_%.h tests/matrix/matrix.mk
	$(mx_fresh)
	sed -n 's/.*sizeof(\(tdec_[a-z0-9_]*\)) = \([0-9]*\) on LP64, \([0-9]*\) on ILP32 (Cortex-M).*/MX_DOC(\1, \2, \3)/p' $< > $@
MX_SIZEDOC = $(WARN) -I. -DMX_FMT=$* -DMX_HEADER='"single/tdec_$*.h"' -DMX_SIZEOF_DOC='"$<"' -c $(MX_TU) -o $@
$(MX)/sizedoc/%-lp64.o: $(MX)/sizedoc/%.h $(MX_DEPS)
	$(mx_fresh)
	$(CC) -std=c99 $(CFLAGS) $(MX_SIZEDOC)
$(MX)/sizedoc/%-cm4.o: $(MX)/sizedoc/%.h $(MX_DEPS)
	$(mx_fresh)
	$(CM4) -DMX_ILP32 $(MX_SIZEDOC)

# ---- the same decoding on other hosts ----------------------------------------------
# fuzz/fuzz_FMT.c with its hash macro prints one line of hashes per input.
mx_hash_xray   := XC_PRINT_HASH
mx_hash_uftrace := UC_PRINT_HASH
mx_hash_ovni   := OC_PRINT_HASH
mx_hash_xtrace := XTC_PRINT_HASH
mx_hash_ipt    := IPC_PRINT_HASH
mx_replay_src   = -D$(mx_hash_$*) fuzz/standalone_main.c fuzz/fuzz_$*.c
MX_REPLAY_DEPS := fuzz/standalone_main.c $(wildcard fuzz/fuzz_*.c) $(TESTLIB) $(HEADERS)

$(MX)/replay/%-native: $(MX_REPLAY_DEPS)
	$(mx_fresh)
	$(CC) -std=c99 $(WARN) $(CFLAGS) -I. $(mx_replay_src) -o $@
$(MX)/replay/%-m32: $(MX_REPLAY_DEPS)
	$(mx_fresh)
	$(M32CC) $(WARN) -I. $(mx_replay_src) -o $@
$(MX)/replay/%-s390x: $(MX_REPLAY_DEPS)
	$(mx_fresh)
	$(BECC) $(WARN) -I. $(mx_replay_src) -o $@

# The unit tests for the big-endian host (natively: build/unit/FMT).
$(MX)/unit/%-s390x: tests/unit/%.c $(TESTLIB) $(GEN) $(HEADERS)
	$(mx_fresh)
	$(BECC) $(WARN) -I. $< -o $@

# ---- the rest ------------------------------------------------------------------------
# gcc -fpreprocessed -dD -E removes the comments and expands nothing.
$(MX)/includes/%.i: %
	$(mx_fresh)
	gcc -fpreprocessed -dD -E -P -x c $< > $@

$(MX)/m32-probe: tests/matrix/matrix.mk
	$(mx_fresh)
	printf 'int main(void) { return 0; }\n' | $(M32CC) -x c - -o $@
