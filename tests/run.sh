#!/bin/sh
# The test runner. Every check prints one line: "PASS name", "FAIL name" or
# "SKIP name (why)"; this script counts them and ends with
# "N passed, N failed". A SKIP means a tool is missing: it is loud, and with
# TDEC_REQUIRE_TOOLS=1 (set by .ci/run) it counts as a failure.
#
#   sh tests/run.sh test     unit, golden and live tests
#   sh tests/run.sh check    test + compile matrix + amalgamation + fuzz replay
#   sh tests/run.sh matrix   the compile matrix alone
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
    section "unit: xray" build/test_xray
    section "unit: uftrace" build/test_uftrace
    section "unit: ovni" build/test_ovni
    section "unit: xtrace" build/test_xtrace
    section "unit: ipt" build/test_ipt
    section "unit: ipt timing" build/test_ipt_time
    section "unit: ipt events, queries" build/test_ipt_evt
    section "unit: demangle" build/test_demangle
    section "golden: xray" sh tests/golden_xray.sh
    section "golden: uftrace" sh tests/golden_uftrace.sh
    section "golden: ovni" sh tests/golden_ovni.sh
    section "tolerance: ovni" sh tests/tolerance_ovni.sh
    section "cli: xtrace" sh tests/cli_xtrace.sh
    section "golden: ipt" sh tests/golden_ipt.sh
    section "golden: ipt events, queries" sh tests/golden_ipt_evq.sh
    section "diff: ipt" sh tests/diff_ipt.sh
    section "diff: ipt queries" sh tests/diff_ipt_qry.sh
    section "live: xray" sh tests/live_xray.sh
    section "live: uftrace" sh tests/live_uftrace.sh
    ;;
esac
case "$mode" in
check|matrix)
    section "compile matrix" sh tests/matrix.sh
    ;;
esac
case "$mode" in
check)
    section "amalgamation" sh -c 'sh tools/amalgamate.sh --check >/dev/null && echo "PASS amalgamation up to date" || echo "FAIL amalgamation drift (run make amalgamate)"'
    section "fuzz replay" sh fuzz/build.sh replay-run
    section "fuzz differential: ipt" sh fuzz/build.sh differential
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
