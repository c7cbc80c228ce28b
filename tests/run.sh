#!/bin/sh
# The test runner. Every check prints one line: "PASS name", "FAIL name" or
# "SKIP name (why)"; this script counts them and ends with
# "N passed, N failed". A SKIP means a tool is missing: it is loud, and with
# TDEC_REQUIRE_TOOLS=1 (set by .ci/run) it counts as a failure.
#
#   sh tests/run.sh test     unit, golden (every tests/golden/*.sh) and live tests
#   sh tests/run.sh check    test + the CLI tests under ASan+UBSan + compile matrix
#                            + device tests + examples + amalgamation + fuzz replay and builds
#   sh tests/run.sh matrix   the compile matrix alone
#   sh tests/run.sh device   the device tests alone (tests/device/device.sh)
#
# It runs binaries only: `make test` / `make check` build them first.
cd "$(dirname "$0")/.." || exit 2
mode=${1:-test}
log=build/test-log.txt
mkdir -p build
: > "$log"

# section NAME CMD...: runs CMD, keeps its lines; a non-zero exit without a
# FAIL line of its own (a crash, a missing file) is a failure too.
section() {
    name=$1
    shift
    echo "== $name" | tee -a "$log"
    "$@" > build/section.out 2>&1
    rc=$?
    tee -a "$log" < build/section.out
    if [ $rc -ne 0 ] && ! grep -q '^FAIL ' build/section.out; then
        echo "FAIL $name (exit status $rc)" | tee -a "$log"
    fi
}

case "$mode" in
test|check)
    for t in xray uftrace ovni xtrace ipt ipt_time ipt_evt ipt_ild ipt_flow ipt_flow_image demangle demangle_full; do
        section "unit: $t" build/unit/$t
    done
    for t in tests/golden/*.sh; do
        section "golden: $(basename "$t" .sh)" sh "$t"
    done
    section "diff: ipt" sh tests/diff/ipt.sh
    section "diff: ipt queries" sh tests/diff/ipt_qry.sh
    section "diff: ipt x86 length decoder" sh tests/diff/ipt_ild.sh
    section "diff: ipt flow of real runs" sh tests/diff/ipt_flow.sh
    section "live: xray" sh tests/live/xray.sh
    section "live: uftrace" sh tests/live/uftrace.sh
    section "live: ipt exec" sh tests/live/ipt_exec.sh
    ;;
esac
case "$mode" in
check)
    # The golden and live CLI tests again, against the CLI built with
    # ASan+UBSan (build/cli/tracedec-san): same outputs, no report.
    for t in tests/golden/*.sh; do
        section "golden (ASan+UBSan CLI): $(basename "$t" .sh)" env TRACEDEC=build/cli/tracedec-san TDEC_TAG=san sh "$t"
    done
    section "live (ASan+UBSan CLI): xray" env TRACEDEC=build/cli/tracedec-san TDEC_TAG=san sh tests/live/xray.sh
    section "live (ASan+UBSan CLI): uftrace" env TRACEDEC=build/cli/tracedec-san TDEC_TAG=san sh tests/live/uftrace.sh
    section "live (ASan+UBSan CLI): ipt exec" env TRACEDEC=build/cli/tracedec-san TDEC_TAG=san sh tests/live/ipt_exec.sh
    ;;
esac
case "$mode" in
check|matrix)
    section "compile matrix" sh tests/matrix/matrix.sh
    ;;
esac
case "$mode" in
check|device)
    section "device: Cortex-M0 and M4 under qemu-system-arm" sh tests/device/device.sh
    ;;
esac
case "$mode" in
check)
    section "examples" sh tools/examples/run.sh
    section "amalgamation" sh tools/core/amalgamate.sh --check
    section "fuzz replay" sh fuzz/replay.sh run
    section "fuzz differential: ipt" sh fuzz/replay.sh differential
    section "fuzz builds" sh fuzz/replay.sh built
    ;;
esac

pass=$(grep -c '^PASS ' "$log")
fail=$(grep -c '^FAIL ' "$log")
skip=$(grep -c '^SKIP ' "$log")
if [ "$skip" -gt 0 ]; then
    echo
    echo "SKIPPED (a tool is missing; see README 'Optional tools'):"
    grep '^SKIP ' "$log" | sed 's/^/  /'
    if [ "${TDEC_REQUIRE_TOOLS:-0}" = 1 ]; then
        echo "TDEC_REQUIRE_TOOLS=1: every skip counts as a failure"
        fail=$((fail + skip))
    fi
fi
grep '^FAIL ' "$log" | sed 's/^/  /'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
