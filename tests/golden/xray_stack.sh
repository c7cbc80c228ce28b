#!/bin/sh
# Golden tests of `tracedec stack` against llvm-xray 14's stack. Each log's
# references are one file beside it, LOG.stack.txt.xz (the layout of
# tests/golden/xray_convert.sh: default, --keep-going, --per-thread-stacks,
# --aggregate-threads, --all-stacks --stack-format=flame with both
# --aggregation-type values, -m where the log has its map), replayed by
# tests/golden/xray_refs.py: the same stdout, stderr ("Found record ..."
# lines, errors) and exit status, our reviewed LOG.stack.tracedec.txt.xz
# where llvm-xray cannot load the log. Where llvm-xray crashes (its
# --aggregate-threads merge erases through an iterator its own push_back
# invalidated), tracedec must complete what it printed.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
xray_golden stack || exit 0

# Options llvm-xray refuses, in its words; bad values are usage errors.
L=tests/data/xray/fdr-calls/fdr-calls.xray
check_refused() {
    "$X" stack "$@" "$L" > "$T/opt.out" 2> "$T/opt.err"
    rc=$?
    if [ $rc = 1 ] && [ ! -s "$T/opt.out" ] && grep -q "^tracedec: $msg" "$T/opt.err"; then
        pass "xray stack $*: refused as llvm-xray does"
    else
        fail "xray stack $*: exit $rc" "$T/opt.err"
    fi
}
msg="Can't specify options for per thread" check_refused --per-thread-stacks --aggregate-threads
msg="Can't specify a non-human format without -all-stacks" check_refused --stack-format=flame
msg="You must specify a non-human format" check_refused --all-stacks
for bad in "--stack-format=svg" "--aggregation-type=mean" "--all-stacks=2"; do
    "$X" stack "$bad" "$L" > "$T/bad.out" 2> "$T/bad.err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$T/bad.out" ]; then pass "xray stack $bad: usage, exit 2"; else fail "xray stack $bad: exit $rc"; fi
done
exit $status
