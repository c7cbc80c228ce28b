#!/bin/sh
# Live XRay test: records a fresh trace with the XRay runtime of this
# machine's clang (build/live/xray_prog, made by `make test` from
# tests/live/xray_prog.c: threads, argument logging, custom events) and
# compares build/tracedec with llvm-xray on it.
# One line per check: "PASS name", "FAIL name" or "SKIP name (why)".
#
#   FDR mode:   tracedec dump  == llvm-xray fdr-dump, byte for byte
#               tracedec dump --json function records == llvm-xray convert -f yaml
#   basic mode: tracedec dump --json function records == llvm-xray convert -f yaml
#
# The JSON/YAML comparison takes (thread, function id, kind, tsc) of every
# function record from both, sorted: same records, same absolute TSCs.
# Needs llvm-xray (llvm-14); the Makefile builds the program when clang and
# its XRay runtime (libclang-rt-14-dev) are installed. TRACEDEC names the
# CLI to test (default build/tracedec). Outputs go to build/live/xray/
# (build/live/xray-TAG/ with TDEC_TAG).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir live/xray
O=$T
P=build/live/xray_prog

# ---- tools ---------------------------------------------------------------
XRAY=""
for x in /usr/lib/llvm-14/bin/llvm-xray llvm-xray llvm-xray-14; do
    if [ -x "$x" ] || have "$x"; then XRAY=$x; break; fi
done
why=""
[ -z "$XRAY" ] && why="llvm-xray not found: apt-get install llvm-14"
[ -z "$why" ] && [ ! -x $P ] &&
    why="$P not built: make builds it when clang and its XRay runtime are installed (apt-get install clang libclang-rt-14-dev)"
if [ -n "$why" ]; then
    skip "live xray FDR: tracedec dump vs llvm-xray fdr-dump ($why)"
    skip "live xray basic: tracedec dump --json vs llvm-xray convert ($why)"
    exit 0
fi
need "$X" "live xray" || exit 1

# yaml_fn FILE / json_fn FILE: "tid fid kind tsc" per function record, sorted.
yaml_fn() {
    sed -n 's/.*func-id: \([0-9]*\),.*thread: \([0-9]*\),.*kind: function-\([a-z-]*\), tsc: \([0-9]*\),.*/\2 \1 \3 \4/p' "$1" |
        sed 's/ enter-arg / enter-args /' | LC_ALL=C sort
}
json_fn() {
    grep '"kind":"function"' "$1" |
        sed -n 's/.*"tid":\([0-9]*\),.*"action":"\([a-z-]*\)","fid":\([0-9]*\),.*"tsc":\([0-9]*\).*/\1 \3 \2 \4/p' |
        LC_ALL=C sort
}

# record MODE: runs the program, prints the trace's path.
record() {
    mode=$1
    rm -f $O/xray-log-*
    XRAY_OPTIONS="patch_premain=true xray_mode=xray-$mode xray_logfile_base=$O/xray-log- verbosity=0" \
    XRAY_BASIC_OPTIONS="func_duration_threshold_us=0" \
        timeout 60 $P "$mode" > $O/run-$mode.log 2>&1 || return 1
    # Basic mode writes one file per process; take the only one.
    set -- $O/xray-log-*
    [ $# -eq 1 ] && [ -s "$1" ] || return 1
    mv "$1" $O/$mode.xray
    echo $O/$mode.xray
}

# compare_fn NAME TRACE: JSON function records vs convert -f yaml.
compare_fn() {
    name=$1 t=$2 log=$O/$(basename "$t" .xray)-fn.log
    : > "$log"
    if ! $XRAY convert -f yaml "$t" > "$t.yaml" 2>> "$log"; then
        fail "$name (llvm-xray convert failed)" "$log"
        return
    fi
    if ! "$X" dump --json "$t" > "$t.json" 2>> "$log"; then
        fail "$name (tracedec dump --json failed)" "$log"
        return
    fi
    yaml_fn "$t.yaml" > "$t.yaml.fn"
    json_fn "$t.json" > "$t.json.fn"
    ny=$(grep -c '^  - {' "$t.yaml")
    nyf=$(wc -l < "$t.yaml.fn")
    nye=$(grep -c 'kind: \(custom\|typed\)-event' "$t.yaml")
    nf=$(wc -l < "$t.json.fn")
    ne=$(grep -c '"kind":"\(custom\|typed\)-event"' "$t.json")
    na=$(grep -c '"kind":"call-arg"' "$t.json")
    nya=$(grep -c 'args: \[' "$t.yaml")
    # Every YAML record is a function record or an event; arguments are
    # folded into their function record there.
    if [ "$nf" -gt 0 ] && [ $((nyf + nye)) -eq "$ny" ] && cmp -s "$t.yaml.fn" "$t.json.fn" &&
       [ "$na" -eq "$nya" ] && [ "$ne" -eq "$nye" ]; then
        pass "$name ($ny records: $nf function records with the same tid/fid/kind/tsc, $na arguments, $ne events)"
    else
        echo "yaml: $ny records, $nyf function records, $nye events, $nya with args;" \
             "json: $nf function records, $ne events, $na call-arg" >> "$log"
        diff "$t.yaml.fn" "$t.json.fn" | head -20 >> "$log"
        fail "$name" "$log"
    fi
}

# ---- FDR ------------------------------------------------------------------
name="live xray FDR: tracedec dump == llvm-xray fdr-dump"
if t=$(record fdr); then
    log=$O/fdr-dump.log
    : > "$log"
    $XRAY fdr-dump "$t" > $O/fdr.ref.txt 2>> "$log"
    rr=$?
    "$X" dump "$t" > $O/fdr.ours.txt 2>> "$log"
    ro=$?
    if [ $rr -eq 0 ] && [ $ro -eq 0 ] && [ -s $O/fdr.ref.txt ] && cmp -s $O/fdr.ref.txt $O/fdr.ours.txt; then
        pass "$name ($(wc -c < "$t") B trace, $(wc -l < $O/fdr.ref.txt) lines," \
             "$(grep -c 'Custom Event' $O/fdr.ref.txt) custom events, $(grep -c 'Call Argument' $O/fdr.ref.txt) arguments," \
             "$(grep -c '^<Thread ID' $O/fdr.ref.txt) buffers)"
    else
        echo "exit status llvm-xray $rr, tracedec $ro" >> "$log"
        diff $O/fdr.ref.txt $O/fdr.ours.txt | head -20 >> "$log"
        fail "$name" "$log"
    fi
    compare_fn "live xray FDR: tracedec dump --json == llvm-xray convert -f yaml" "$t"
else
    fail "$name (the program wrote no FDR trace)" $O/run-fdr.log
fi

# ---- basic ----------------------------------------------------------------
if t=$(record basic); then
    compare_fn "live xray basic: tracedec dump --json == llvm-xray convert -f yaml" "$t"
else
    fail "live xray basic (the program wrote no basic-mode trace)" $O/run-basic.log
fi

exit $status
