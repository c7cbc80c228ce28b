#!/bin/sh
# Runs the fuzz harnesses the Makefile built (fuzz/fuzz_NAME.c: one per format, and
# ipt_flow for Intel PT's instruction flow).
#
#   sh fuzz/replay.sh run           build/fuzz/replay_FMT (ASan+UBSan, standalone_main.c)
#                                   over fuzz/corpus/FMT and fuzz/regressions/FMT
#   sh fuzz/replay.sh differential  build/fuzz/replay_ipt_libipt (ipt against libipt's
#                                   pt_pkt_next, TDEC_FUZZ_LIBIPT) over the ipt corpus;
#                                   SKIP without libipt-dev
#   sh fuzz/replay.sh built         the libFuzzer / AFL++ builds (`make fuzz-build`, `make check`)
#
# Every step prints one line: "PASS ...", "FAIL ..." or "SKIP ... (why)".
#
# Fuzzing (AFL++, one core), after `make fuzz-build`:
#   AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 afl-fuzz \
#     -i fuzz/corpus/xray -o build/afl-xray -x fuzz/xray.dict -- build/fuzz/fuzz_xray_afl
# libFuzzer:
#   build/fuzz/fuzz_xray_libfuzzer -dict=fuzz/xray.dict build/lf-xray fuzz/corpus/xray
# The same for uftrace (<tid>.dat and perf-cpuN.dat), ovni (stream.obs, its
# JSON metadata and event descriptions), xtrace (instruction streams,
# snapshot files, file names) and ipt (Intel PT packet streams, the sync
# helpers, the event and query decoders).
cd "$(dirname "$0")/.." || exit 2
. tests/run-lib.sh

harnesses="xray uftrace ovni xtrace ipt ipt_flow"
B=build/fuzz

# replay NAME BINARY DIRS...: one PASS/FAIL line for BINARY over DIRS.
replay() {
    name=$1 bin=$2
    shift 2
    need "$bin" "$name" || return
    if out=$(ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 "$bin" "$@" 2>"$bin.err"); then
        pass "$name (${out% inputs} inputs)"
    else
        fail "$name (see $bin.err)"
        tail -n 20 "$bin.err"
    fi
}

run_replay() {
    for f in $harnesses; do
        dirs=""
        for d in "fuzz/corpus/$f" "fuzz/regressions/$f"; do
            [ -d "$d" ] && dirs="$dirs $d"
        done
        if [ -z "$dirs" ]; then
            fail "fuzz replay $f (no corpus)"
            continue
        fi
        # shellcheck disable=SC2086
        replay "fuzz replay $f" "$B/replay_$f" $dirs
    done
}

differential() {
    if ! [ -f /usr/include/intel-pt.h ]; then
        skip "fuzz differential ipt (libipt-dev not found)"
        return
    fi
    replay "fuzz differential ipt against libipt" "$B/replay_ipt_libipt" fuzz/corpus/ipt fuzz/regressions/ipt
}

built() {
    for f in $harnesses; do
        for kind in libfuzzer:clang afl:afl-clang-fast; do
            k=${kind%%:*} tool=${kind#*:}
            if ! have "$tool"; then
                skip "fuzz build $f $k ($tool not found)"
            elif need "$B/fuzz_${f}_$k" "fuzz build $f $k"; then
                pass "fuzz build $f $k ($B/fuzz_${f}_$k)"
            fi
        done
    done
}

case "${1:-}" in
run) run_replay ;;
differential) differential ;;
built) built ;;
*)
    echo "usage: sh fuzz/replay.sh run|differential|built" >&2
    exit 2
    ;;
esac
exit $status
