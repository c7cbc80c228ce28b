#!/bin/sh
# Builds and replays the fuzz harnesses, one per format (fuzz/fuzz_FMT.c).
#
#   sh fuzz/build.sh libfuzzer    clang -fsanitize=fuzzer,address,undefined -> build/fuzz/fuzz_FMT_libfuzzer
#   sh fuzz/build.sh afl          afl-clang-fast -fsanitize=fuzzer (AFL++ driver) -> build/fuzz/fuzz_FMT_afl
#   sh fuzz/build.sh all          both of the above
#   sh fuzz/build.sh replay       gcc -fsanitize=address,undefined + standalone_main.c -> build/fuzz/replay_FMT
#   sh fuzz/build.sh replay-run   replay, then run it over fuzz/corpus/FMT and fuzz/regressions/FMT
#   sh fuzz/build.sh differential ipt against libipt (-DTDEC_FUZZ_LIBIPT -lipt, gcc + ASan/UBSan) ->
#                                 build/fuzz/replay_ipt_libipt, run over the ipt corpus and regressions;
#                                 SKIP without libipt-dev
#
# Every step prints one line: "PASS ...", "FAIL ..." or "SKIP ... (why)".
# A missing clang or afl-clang-fast is a loud SKIP, not a failure.
#
# Fuzzing (AFL++, one core):
#   AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 afl-fuzz \
#     -i fuzz/corpus/xray -o build/afl-xray -x fuzz/xray.dict -- build/fuzz/fuzz_xray_afl
# libFuzzer:
#   build/fuzz/fuzz_xray_libfuzzer -dict=fuzz/xray.dict build/lf-xray fuzz/corpus/xray
# The same for uftrace (<tid>.dat and perf-cpuN.dat), ovni (stream.obs, its
# JSON metadata and event descriptions), xtrace (instruction streams,
# snapshot files, file names) and ipt (Intel PT packet streams, the sync
# helpers; libipt 2.0.5 as a second reference with `differential`): replace
# xray by uftrace, ovni, xtrace or ipt.
cd "$(dirname "$0")/.." || exit 2

formats="xray uftrace ovni xtrace ipt"
B=build/fuzz
WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
COMMON="-std=c99 -g -I. -DTDEC_FUZZING $WARN"
mkdir -p "$B"
status=0

have() { command -v "$1" >/dev/null 2>&1; }

build_libfuzzer() {
    for f in $formats; do
        if ! have clang; then
            echo "SKIP fuzz build $f libfuzzer (clang not found)"
            continue
        fi
        if clang $COMMON -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
            -o "$B/fuzz_${f}_libfuzzer" "fuzz/fuzz_$f.c"; then
            echo "PASS fuzz build $f libfuzzer ($B/fuzz_${f}_libfuzzer)"
        else
            echo "FAIL fuzz build $f libfuzzer"
            status=1
        fi
    done
}

build_afl() {
    for f in $formats; do
        if ! have afl-clang-fast; then
            echo "SKIP fuzz build $f afl (afl-clang-fast not found)"
            continue
        fi
        # AFL++'s libFuzzer-compatible driver (persistent mode, shared-memory
        # test cases). UBSan traps (SIGILL) without a runtime, so it stays cheap;
        # ASan coverage comes from the libFuzzer build and the replay driver.
        if AFL_QUIET=1 afl-clang-fast $COMMON -O2 -fsanitize=fuzzer \
            -fsanitize=undefined -fsanitize-trap=undefined \
            -o "$B/fuzz_${f}_afl" "fuzz/fuzz_$f.c"; then
            echo "PASS fuzz build $f afl ($B/fuzz_${f}_afl)"
        else
            echo "FAIL fuzz build $f afl"
            status=1
        fi
    done
}

build_replay() {
    for f in $formats; do
        if ! gcc $COMMON -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
            -o "$B/replay_$f" fuzz/standalone_main.c "fuzz/fuzz_$f.c"; then
            echo "FAIL fuzz replay $f (build)"
            status=1
        fi
    done
}

run_replay() {
    for f in $formats; do
        [ -x "$B/replay_$f" ] || continue
        dirs=""
        for d in "fuzz/corpus/$f" "fuzz/regressions/$f"; do
            [ -d "$d" ] && dirs="$dirs $d"
        done
        if [ -z "$dirs" ]; then
            echo "FAIL fuzz replay $f (no corpus)"
            status=1
            continue
        fi
        # shellcheck disable=SC2086
        if out=$(ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 "$B/replay_$f" $dirs 2>"$B/replay_$f.err"); then
            echo "PASS fuzz replay $f (${out% inputs} inputs)"
        else
            echo "FAIL fuzz replay $f (see $B/replay_$f.err)"
            tail -n 20 "$B/replay_$f.err"
            status=1
        fi
    done
}

# ipt against libipt's pt_pkt_next (fuzz/fuzz_ipt.c, TDEC_FUZZ_LIBIPT).
differential() {
    if ! [ -f /usr/include/intel-pt.h ] || ! echo 'int main(void){return 0;}' | gcc -x c - -lipt -o "$B/.lipt" 2>/dev/null; then
        echo "SKIP fuzz differential ipt (libipt-dev not found)"
        return
    fi
    rm -f "$B/.lipt"
    if ! gcc $COMMON -DTDEC_FUZZ_LIBIPT -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
        -fno-omit-frame-pointer -o "$B/replay_ipt_libipt" fuzz/standalone_main.c fuzz/fuzz_ipt.c -lipt; then
        echo "FAIL fuzz differential ipt (build)"
        status=1
        return
    fi
    if out=$(ASAN_OPTIONS=detect_leaks=1 "$B/replay_ipt_libipt" fuzz/corpus/ipt fuzz/regressions/ipt 2>"$B/replay_ipt_libipt.err"); then
        echo "PASS fuzz differential ipt against libipt (${out% inputs} inputs)"
    else
        echo "FAIL fuzz differential ipt (see $B/replay_ipt_libipt.err)"
        tail -n 20 "$B/replay_ipt_libipt.err"
        status=1
    fi
}

case "${1:-}" in
libfuzzer)  build_libfuzzer ;;
afl)        build_afl ;;
all)        build_libfuzzer; build_afl ;;
replay)     build_replay ;;
replay-run) build_replay; run_replay ;;
differential) differential ;;
*)
    echo "usage: sh fuzz/build.sh libfuzzer|afl|all|replay|replay-run|differential" >&2
    exit 2
    ;;
esac
exit $status
