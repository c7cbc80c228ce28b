#!/bin/sh
# Golden tests over the XRay peer corpus (tests/data/peers/xray, README.md
# there says how it was recorded). Per log, against the llvm-xray 14 output
# committed beside it (refs.tsv gives each command and its exit status):
#  - FDR logs, `llvm-xray fdr-dump` exit 0: `tracedec dump` is byte-identical,
#    exits 0, stderr empty;
#  - basic logs, `llvm-xray convert --output-format=yaml --sort=false` exit 0:
#    `tracedec dump --json` has the same header and records (xray_yaml.py);
#  - where llvm-xray fails: the README names the log and the reason, what
#    llvm-xray printed is a prefix of our stdout, and our stdout and stderr
#    equal the reviewed LOG.tracedec.txt / LOG.tracedec.err (and, for a basic
#    log, its JSON LOG.tracedec.json).
# UPDATE=1 rewrites our own golden files (never llvm-xray's outputs).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-peers-xray
P=tests/data/peers/xray

# same NAME EXPECTED ACTUAL: exact comparison, or rewrite EXPECTED under UPDATE=1.
same() {
    [ "${UPDATE:-0}" = 1 ] && cp "$3" "$2"
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1 (diff $2 $3)"; fi
}

for log in "$P"/*/*.xray; do
    d=$(dirname "$log")
    b=$(basename "$log" .xray)
    name=$(basename "$d")/$b
    if [ -f "$d/$b.fdr-dump.txt" ]; then
        ref=$d/$b.fdr-dump.txt
        "$X" dump "$log" > "$T/$b.out" 2> "$T/$b.err"
    else
        ref=$d/$b.yaml
        "$X" dump --json "$log" > "$T/$b.json" 2> /dev/null
        "$X" dump "$log" > "$T/$b.out" 2> "$T/$b.err"
    fi
    rc=$?
    ref_rc=$(awk -F'\t' -v f="$(basename "$ref")" '$1 == f { print $2 }' "$d/refs.tsv")
    if [ "$ref_rc" = 0 ] && [ "$ref" = "$d/$b.yaml" ]; then
        if [ $rc -eq 0 ] && python3 tests/golden/xray_yaml.py "$T/$b.json" "$ref" > "$T/$b.yamldiff"; then
            pass "peers xray $name: dump --json == llvm-xray convert --output-format=yaml"
        else
            fail "peers xray $name: dump --json != llvm-xray's yaml (exit $rc)" "$T/$b.yamldiff"
        fi
        continue
    fi
    if [ "$ref_rc" = 0 ]; then
        if [ $rc -eq 0 ] && [ ! -s "$T/$b.err" ] && cmp -s "$T/$b.out" "$ref"; then
            pass "peers xray $name: dump == llvm-xray fdr-dump"
        else
            fail "peers xray $name: dump != llvm-xray fdr-dump (exit $rc; diff $T/$b.out $ref)" "$T/$b.err"
        fi
        continue
    fi
    # llvm-xray failed on this log: a documented reason, its output our prefix.
    if grep -q "\`$b.xray\`" "$P/README.md"; then
        pass "peers xray $name: README gives the reason llvm-xray fails"
    else
        fail "peers xray $name: llvm-xray fails (exit $ref_rc) and README.md does not say why"
    fi
    if begins_with "$T/$b.out" "$ref"; then
        pass "peers xray $name: llvm-xray's output before its failure is our prefix"
    else
        fail "peers xray $name: llvm-xray's partial output is not our prefix"
    fi
    same "peers xray $name: stdout golden" "$d/$b.tracedec.txt" "$T/$b.out"
    same "peers xray $name: stderr golden" "$d/$b.tracedec.err" "$T/$b.err"
    [ -f "$T/$b.json" ] && same "peers xray $name: dump --json golden" "$d/$b.tracedec.json" "$T/$b.json"
done
exit 0
