# tracedec: every entry point. All build output goes under build/.
CC      ?= gcc
WARN    := -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror
CFLAGS  ?= -O2 -g
STD     := -std=c99
B       := build

HEADERS := $(wildcard single/*.h) tools/tdec_core.h
CLI_SRC := tools/tracedec.c tools/out.c tools/fe_xray.c tools/fe_uftrace.c tools/fe_uftrace_json.c tools/fe_uftrace_replay.c tools/fe_ovni.c tools/fe_xtrace.c tools/fe_ipt.c tools/fe_ipt_layer2.c tools/uft_dir.c tools/uft_read.c tools/demangle.c
CLI_HDR := tools/out.h tools/frontends.h tools/uft_dir.h tools/uft_read.h tools/demangle.h

.PHONY: all test check matrix amalgamate check-amalgamation fuzz-build fuzz-replay bench demo clean

all: $(B)/tracedec

$(B)/tracedec: $(CLI_SRC) $(CLI_HDR) $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ $(CLI_SRC)

$(B)/test_xray: tests/test_xray.c tests/testlib.h fuzz/xray_check.h fuzz/check_common.h $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_xray.c

$(B)/test_uftrace: tests/test_uftrace.c tests/testlib.h $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_uftrace.c

$(B)/test_ovni: tests/test_ovni.c tests/testlib.h $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_ovni.c

$(B)/test_xtrace: tests/test_xtrace.c tests/xtrace_encoder.h tests/testlib.h $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_xtrace.c

$(B)/test_ipt: tests/test_ipt.c tests/testlib.h fuzz/ipt_check.h fuzz/check_common.h $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_ipt.c

$(B)/test_ipt_time: tests/test_ipt_time.c tests/testlib.h $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_ipt_time.c

$(B)/test_ipt_evt: tests/test_ipt_evt.c tests/testlib.h $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_ipt_evt.c

$(B)/test_demangle: tests/test_demangle.c tools/demangle.c tools/demangle.h tests/testlib.h
	@mkdir -p $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -I. -o $@ tests/test_demangle.c tools/demangle.c

# The whole test suite; ends with "N passed, N failed".
test: $(B)/tracedec $(B)/test_xray $(B)/test_uftrace $(B)/test_ovni $(B)/test_xtrace $(B)/test_ipt $(B)/test_ipt_time $(B)/test_ipt_evt $(B)/test_demangle
	@sh tests/run.sh test

# What CI runs: tests, compile matrix, amalgamation drift, fuzz replay.
check: $(B)/tracedec $(B)/test_xray $(B)/test_uftrace $(B)/test_ovni $(B)/test_xtrace $(B)/test_ipt $(B)/test_ipt_time $(B)/test_ipt_evt $(B)/test_demangle
	@sh tests/run.sh check

matrix:
	@sh tests/run.sh matrix

amalgamate:
	@sh tools/amalgamate.sh

check-amalgamation:
	@sh tools/amalgamate.sh --check

# libFuzzer (clang) and AFL++ (afl-clang-fast) builds of every harness.
fuzz-build:
	@sh fuzz/build.sh all

# Replays fuzz/corpus/ and fuzz/regressions/ under ASan+UBSan (plain gcc).
fuzz-replay:
	@sh fuzz/build.sh replay-run

bench: $(B)/tracedec
	@sh tools/bench.sh

# The README's main job: build the CLI and dump a bundled sample trace.
demo: $(B)/tracedec
	$(B)/tracedec dump tests/data/xray/fdr-threads/fdr-threads.xray

clean:
	rm -rf $(B)
