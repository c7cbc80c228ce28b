# tracedec: every entry point. Every binary is a target here; the scripts
# under tests/, fuzz/ and tools/bench/ only run what this file builds.
# All build output goes under build/.
#
#   make CFLAGS='-O1 -g -fsanitize=address,undefined'   a sanitizer build of all
#   make CC=clang                                       another compiler
#
# CC and CFLAGS given on the command line reach every build, the compile
# matrix's cells included (tests/matrix/matrix.sh asks this file for them).
# These builds pin a compiler or flags on purpose:
#   - the compile matrix: each cell names its compiler (gcc, clang, g++,
#     clang++; cc is $(CC)); its -m32, s390x and Cortex-M4 cells use fixed
#     flags (tests/matrix/matrix.mk);
#   - the libFuzzer and AFL++ harnesses (clang, afl-clang-fast), and the
#     sanitizer flags and -O1 of the replay harnesses and the sanitized CLI;
#   - the differential tests' second build (clang);
#   - the programs that producers record (tests/live/*_prog.c, the uftrace
#     benchmark's hot loop): clang -fxray-instrument and gcc -pg at -O0, so
#     the recordings hold what the tests expect.

ifeq ($(origin CC),default)
CC := gcc
endif
CFLAGS ?= -O2 -g
WARN   := -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror
STD    := -std=c99
B      := build
export CC # tests/matrix/matrix.sh names it

ALL_CFLAGS = $(STD) $(WARN) $(CFLAGS) -I.
SAN        := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

FORMATS := xray uftrace ovni xtrace ipt
CORE    := tools/core/tdec_core.h
SINGLE  := $(patsubst %,single/tdec_%.h,$(FORMATS))
# Every build waits for tracedec.h too: its rule rewrites single/ as well,
# so no compiler reads a header while it is rewritten (make -j).
HEADERS := $(SINGLE) $(CORE) tracedec.h
TESTLIB := $(wildcard tests/lib/*.h)
GEN     := $(wildcard tests/gen/*.h)

CLI_SRC := $(wildcard tools/cli/*.c tools/cli/*/*.c)
CLI_HDR := $(wildcard tools/cli/*.h tools/cli/*/*.h)

UNIT     := xray uftrace ovni xtrace ipt ipt_time ipt_evt ipt_ild ipt_flow ipt_flow_image demangle demangle_full
EXAMPLES := $(patsubst tools/examples/%.c,%,$(wildcard tools/examples/*.c))
BENCH    := xray uftrace ovni xtrace

# Tools beyond gcc and make: their binaries join `check` when present, and
# the scripts print a loud SKIP when they are not.
have = $(shell command -v $(1) >/dev/null 2>&1 && echo yes)
HAVE_CLANG   := $(call have,clang)
HAVE_LIBIPT  := $(shell test -f /usr/include/intel-pt.h && echo yes)
HAVE_ZYDIS   := $(shell test -f /usr/include/Zydis/Zydis.h && echo yes)
HAVE_UFTRACE := $(call have,uftrace)
# XRay needs clang's runtime too (libclang-rt-*-dev).
HAVE_XRAY    := $(if $(HAVE_CLANG),$(wildcard $(shell clang -print-runtime-dir 2>/dev/null)/libclang_rt.xray*.a))

.PHONY: all test check matrix amalgamate check-amalgamation fuzz-build fuzz-replay \
        bench bench-traces demo examples clean FORCE
.DELETE_ON_ERROR:

all: $(B)/tracedec

# ---- the shared core, stamped into single/ and tracedec.h -----------------
# Edit tools/core/tdec_core.h (or a single/ header): the next make re-stamps,
# so `make test` always tests what will ship.
$(SINGLE) &: $(CORE)
	@sh tools/core/amalgamate.sh
tracedec.h: $(SINGLE) $(CORE) tools/core/amalgamate.sh
	@sh tools/core/amalgamate.sh

amalgamate:
	@sh tools/core/amalgamate.sh

check-amalgamation:
	@sh tools/core/amalgamate.sh --check

# ---- the CLI ---------------------------------------------------------------
$(B)/tracedec: $(CLI_SRC) $(CLI_HDR) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_SRC)

# The same CLI reading N bytes at a time (chunk invariance through the CLI).
$(B)/cli/tracedec-chunk%: $(CLI_SRC) $(CLI_HDR) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -DCLI_CHUNK=$*u -o $@ $(CLI_SRC)

# The CLI under ASan+UBSan: the golden and live CLI tests run it too.
$(B)/cli/tracedec-san: $(CLI_SRC) $(CLI_HDR) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O1 $(SAN) -o $@ $(CLI_SRC)

CLI_BINS := $(B)/tracedec $(B)/cli/tracedec-san $(B)/cli/tracedec-chunk1 \
            $(B)/cli/tracedec-chunk5 $(B)/cli/tracedec-chunk7

# ---- unit tests ------------------------------------------------------------
$(B)/unit/%: tests/unit/%.c $(TESTLIB) $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.c,$^)

$(B)/unit/demangle: tools/cli/uftrace/demangle.c tools/cli/uftrace/demangle.h
$(B)/unit/demangle_full: tools/cli/uftrace/demangle_full.c tools/cli/uftrace/demangle.h

# ---- generators --------------------------------------------------------------
$(B)/gen/%: tests/gen/%.c $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.c,$^)

# ---- examples: the first program a user copies -----------------------------
$(B)/examples/%: tools/examples/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $<

examples: $(patsubst %,$(B)/examples/%,$(EXAMPLES))

# ---- fuzz harnesses ----------------------------------------------------------
FUZZ_CFLAGS = $(STD) $(WARN) -g -I. -DTDEC_FUZZING

# The replay driver under ASan+UBSan: runs the corpus and regressions.
$(B)/fuzz/replay_%: fuzz/fuzz_%.c fuzz/standalone_main.c $(TESTLIB) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) $(CFLAGS) -O1 $(SAN) -o $@ fuzz/standalone_main.c $<

# ipt against libipt's packet decoder (TDEC_FUZZ_LIBIPT).
$(B)/fuzz/replay_ipt_libipt: fuzz/fuzz_ipt.c fuzz/standalone_main.c $(TESTLIB) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) $(CFLAGS) -DTDEC_FUZZ_LIBIPT -O1 $(SAN) -o $@ fuzz/standalone_main.c $< -lipt

$(B)/fuzz/fuzz_%_libfuzzer: fuzz/fuzz_%.c $(TESTLIB) $(HEADERS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -o $@ $<

# AFL++'s libFuzzer-compatible driver; UBSan traps, so it stays cheap.
$(B)/fuzz/fuzz_%_afl: fuzz/fuzz_%.c $(TESTLIB) $(HEADERS)
	@mkdir -p $(@D)
	AFL_QUIET=1 afl-clang-fast $(FUZZ_CFLAGS) -O2 -fsanitize=fuzzer -fsanitize=undefined \
	    -fsanitize-trap=undefined -o $@ $<

# One harness per format, and ipt_flow: Intel PT's instruction flow.
HARNESSES   := $(FORMATS) ipt_flow
REPLAY_BINS := $(patsubst %,$(B)/fuzz/replay_%,$(HARNESSES))
FUZZ_BINS   := $(if $(HAVE_CLANG),$(patsubst %,$(B)/fuzz/fuzz_%_libfuzzer,$(HARNESSES))) \
               $(if $(call have,afl-clang-fast),$(patsubst %,$(B)/fuzz/fuzz_%_afl,$(HARNESSES)))

fuzz-build: $(FUZZ_BINS)
	@sh fuzz/replay.sh built

fuzz-replay: $(REPLAY_BINS)
	@sh fuzz/replay.sh run

# ---- differential tests against libipt ---------------------------------------
$(B)/diff/ipt: tests/diff/ipt.c $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lipt
$(B)/diff/ipt-clang: tests/diff/ipt.c $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	clang $(STD) $(WARN) $(CFLAGS) -I. -o $@ $< -lipt
$(B)/diff/ipt_qry: tests/diff/ipt_qry.c $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lipt
$(B)/diff/ipt_qry-clang: tests/diff/ipt_qry.c $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	clang $(STD) $(WARN) $(CFLAGS) -I. -o $@ $< -lipt

# A real run's flow: tracedec against libipt's decoders (tests/exec/).
$(B)/diff/ipt_flow: tests/diff/ipt_flow.c tests/exec/digest.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lipt

# The x86 length decoder against Zydis (libzydis-dev).
$(B)/diff/ipt_ild: tests/diff/ipt_ild.c $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lZydis

DIFF_BINS := $(if $(HAVE_LIBIPT),$(B)/diff/ipt $(B)/diff/ipt_qry \
               $(if $(HAVE_CLANG),$(B)/diff/ipt-clang $(B)/diff/ipt_qry-clang)) \
             $(if $(HAVE_ZYDIS),$(B)/diff/ipt_ild)

# ---- the Intel PT real-execution corpus (tests/exec/, tests/data/ipt/exec/) ----
# A qemu-user TCG plugin that logs which code ran, and the writer that
# turns its log into an Intel PT trace, image and instruction sequence.
HAVE_QEMU := $(call have,qemu-x86_64)
$(B)/exec/plugin.so: tests/exec/plugin.c
	@mkdir -p $(@D)
	$(CC) $(STD) $(WARN) $(CFLAGS) -fPIC -shared -o $@ $<
$(B)/exec/writer: tests/exec/writer.c tests/exec/digest.h $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lipt

# The C++ program the live test records (64-bit; 32-bit with g++-12-multilib).
# Debian's gcc-multilib, which links /usr/include/asm, cannot be installed
# beside gcc-s390x-linux-gnu: the 32-bit build finds the x86 asm headers in
# the host's multiarch directory instead (-idirafter: only what is missing).
GXX32 := g++ -m32 -idirafter /usr/include/x86_64-linux-gnu
HAVE_GXX32 := $(shell printf '\043include <cerrno>\nint main(){}\n' | $(GXX32) -x c++ -o /dev/null - >/dev/null 2>&1 && echo yes)
$(B)/exec/exceptions64: tests/exec/exceptions.cpp
	@mkdir -p $(@D)
	g++ -std=c++11 -O1 -m64 -o $@ $<
$(B)/exec/exceptions32: tests/exec/exceptions.cpp
	@mkdir -p $(@D)
	$(GXX32) -std=c++11 -O1 -o $@ $<

EXEC_BINS := $(if $(HAVE_LIBIPT),$(B)/exec/writer $(B)/diff/ipt_flow \
               $(if $(HAVE_QEMU),$(B)/exec/plugin.so $(B)/exec/exceptions64 \
                 $(if $(HAVE_GXX32),$(B)/exec/exceptions32)))

# ---- live tests: the programs the real producers record ----------------------
$(B)/live/xray_prog: tests/live/xray_prog.c
	@mkdir -p $(@D)
	clang -O0 -g -fxray-instrument -fxray-instruction-threshold=1 -o $@ $< -lpthread
$(B)/live/uftrace_prog: tests/live/uftrace_prog.c
	@mkdir -p $(@D)
	gcc -std=c99 -D_POSIX_C_SOURCE=200809L -pg -O0 -g -o $@ $< -lpthread

LIVE_BINS := $(if $(HAVE_XRAY),$(B)/live/xray_prog) $(if $(HAVE_UFTRACE),$(B)/live/uftrace_prog)

# ---- benchmarks ----------------------------------------------------------------
# `make bench` (slow: minutes). The PT benchmarks link libipt: the system's
# (libipt-dev), or with `make LIBIPT_DIR=dir bench` a libipt cmake build
# directory of your own (e.g. of master, for figures beside that version).
$(B)/bench/%: tools/bench/%.c tools/bench/common.h $(GEN) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BENCH_LIBS)

# The hot loop the uftrace benchmark records.
$(B)/bench/uftrace_hot: tools/bench/uftrace_hot.c
	@mkdir -p $(@D)
	gcc $(STD) $(WARN) -pg -O0 -g -o $@ $<

ifneq ($(LIBIPT_DIR),)
ifeq ($(wildcard $(LIBIPT_DIR)/libipt/include/intel-pt.h),)
$(error LIBIPT_DIR=$(LIBIPT_DIR) has no libipt/include/intel-pt.h (a libipt cmake build directory is expected))
endif
LIBIPT_FLAGS := -I$(LIBIPT_DIR)/libipt/include -L$(LIBIPT_DIR)/lib -Wl,-rpath,$(LIBIPT_DIR)/lib -lipt
else
LIBIPT_FLAGS := -lipt
endif
IPT_BENCH    := $(if $(HAVE_LIBIPT)$(LIBIPT_DIR),$(B)/bench/ipt $(B)/bench/ipt_evq $(B)/bench/ipt_flow)
$(IPT_BENCH): BENCH_LIBS = $(LIBIPT_FLAGS)
# Relinks when LIBIPT_DIR changes.
$(IPT_BENCH): $(B)/bench/libipt-flags
$(B)/bench/libipt-flags: FORCE
	@mkdir -p $(@D)
	@echo '$(LIBIPT_FLAGS)' | cmp -s - $@ || echo '$(LIBIPT_FLAGS)' > $@

# The x86 length decoder against Zydis (libzydis-dev).
ILD_BENCH := $(if $(HAVE_ZYDIS),$(B)/bench/ipt_ild)
$(ILD_BENCH): BENCH_LIBS = -lZydis

BENCH_BINS := $(patsubst %,$(B)/bench/%,$(BENCH)) $(B)/bench/uftrace_hot $(IPT_BENCH) $(ILD_BENCH)

bench: $(B)/tracedec $(BENCH_BINS)
	@sh tools/bench/bench.sh

# Large Intel PT traces of real runs (xz, gzip under qemu-user) and their
# images, for the flow benchmark: build/bench/traces/ (KB=input size;
# CHECK=1: every decoder checked against the run's digest).
bench-traces: $(B)/exec/writer $(B)/exec/plugin.so $(B)/diff/ipt_flow
	@sh tools/bench/ipt_traces.sh $(KB)

# ---- the suites ------------------------------------------------------------------
TEST_BINS := $(CLI_BINS) $(patsubst %,$(B)/unit/%,$(UNIT)) $(B)/gen/xtrace_gen \
             $(DIFF_BINS) $(LIVE_BINS) $(EXEC_BINS)

# Unit, golden, live and differential tests; ends with "N passed, N failed".
test: $(TEST_BINS)
	@sh tests/run.sh test

# What CI runs: test + examples + compile matrix + amalgamation + fuzz
# replay and builds. The matrix asks $(MAKE) for its cells
# (tests/matrix/matrix.mk), in parallel under make -jN.
check: $(TEST_BINS) examples $(REPLAY_BINS) $(if $(HAVE_LIBIPT),$(B)/fuzz/replay_ipt_libipt) $(FUZZ_BINS)
	@MAKE='$(MAKE)' sh tests/run.sh check

matrix:
	@MAKE='$(MAKE)' sh tests/run.sh matrix

include tests/matrix/matrix.mk
include tests/device/device.mk

# The README's main job: build the CLI and dump a bundled sample trace.
demo: $(B)/tracedec
	$(B)/tracedec dump tests/data/xray/fdr-threads/fdr-threads.xray

clean:
	rm -rf $(B)
