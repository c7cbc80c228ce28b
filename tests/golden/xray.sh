#!/bin/sh
# Golden tests of `tracedec dump` / `info` on the XRay samples.
#  - every FDR sample on which llvm-xray fdr-dump succeeded: stdout is
#    byte-identical to its ref.fdr-dump.txt, stderr empty, exit 0;
#  - where llvm-xray fails: what llvm-xray printed before failing is a prefix
#    of our stdout, and stdout+stderr match our reviewed golden files
#    (tracedec.dump.txt / tracedec.dump.err);
#  - multi-chunk inputs (> 64 KiB, records and payloads straddling reads);
#  - JSON and info output against golden files; error exit with offset.
# UPDATE=1 rewrites our own golden files (never the llvm-xray references).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-xray
D=tests/data/xray


# same NAME EXPECTED ACTUAL: exact comparison, or rewrite EXPECTED under UPDATE=1.
same() {
    if [ "${UPDATE:-0}" = 1 ] && [ "${4:-own}" = own ]; then cp "$3" "$2"; fi
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1 (diff $2 $3)"; fi
}

ref_rc() { awk -F'\t' -v f="$2" '$1 == f { print $2 }' "$1/refs.tsv"; }

for dir in "$D"/*/; do
    n=$(basename "$dir")
    [ -f "$dir/ref.fdr-dump.txt" ] || continue
    "$X" dump "$dir/$n.xray" > "$T/$n.out" 2> "$T/$n.err"
    rc=$?
    if [ "$(ref_rc "$dir" ref.fdr-dump.txt)" = 0 ]; then
        if [ $rc -eq 0 ] && [ ! -s "$T/$n.err" ] && cmp -s "$T/$n.out" "$dir/ref.fdr-dump.txt"; then
            pass "xray dump $n == llvm-xray fdr-dump"
        else
            fail "xray dump $n != llvm-xray fdr-dump (exit $rc; diff $T/$n.out $dir/ref.fdr-dump.txt)"
        fi
        continue
    fi
    # llvm-xray failed on this file: it printed a prefix of the right records.
    if [ -f "$dir/expected.fdr-dump.txt" ]; then
        same "xray dump $n == llvm-xray on the same records without the odd padding" \
            "$dir/expected.fdr-dump.txt" "$T/$n.out" ref
    elif begins_with "$T/$n.out" "$dir/ref.fdr-dump.txt"; then
        pass "xray dump $n: llvm-xray's output before its failure is our prefix"
    else
        fail "xray dump $n: llvm-xray's partial output is not our prefix"
    fi
    [ $rc -eq 0 ] && pass "xray dump $n exits 0" || fail "xray dump $n exits $rc"
    same "xray dump $n stdout golden" "$dir/tracedec.dump.txt" "$T/$n.out"
    same "xray dump $n stderr golden (offsets explained)" "$dir/tracedec.dump.err" "$T/$n.err"
done

# Strict mode turns the typed-event cut into an error with its offset.
"$X" dump --strict "$D/fdr-typed-events/fdr-typed-events.xray" > "$T/strict.out" 2> "$T/strict.err"
rc=$?
if [ $rc -eq 1 ] && grep -q "error: offset 230: corrupt record" "$T/strict.err" &&
    cmp -s "$T/strict.out" "$D/fdr-typed-events/ref.fdr-dump.txt"; then
    pass "xray dump --strict: typed-event cut is E_CORRUPT at offset 230, records before it printed"
else
    fail "xray dump --strict on fdr-typed-events (exit $rc: $(cat "$T/strict.err"))"
fi

# Inputs larger than one 64 KiB read: a sample's blocks repeated after its
# header; fdr-dump prints no header line, so the reference repeats too.
repeat_sample() { # NAME COUNT
    f="$D/$1/$1.xray"
    head -c 32 "$f" > "$T/rep-$1.xray"
    tail -c +33 "$f" > "$T/body"
    : > "$T/rep-$1.ref"
    i=0
    while [ $i -lt "$2" ]; do
        cat "$T/body" >> "$T/rep-$1.xray"
        cat "$D/$1/ref.fdr-dump.txt" >> "$T/rep-$1.ref"
        i=$((i + 1))
    done
    "$X" dump "$T/rep-$1.xray" > "$T/rep-$1.out" 2>&1
    size=$(wc -c < "$T/rep-$1.xray")
    if [ "$size" -gt 131072 ] && cmp -s "$T/rep-$1.out" "$T/rep-$1.ref"; then
        pass "xray dump of $size bytes ($1 x $2, several 64 KiB reads) == repeated reference"
    else
        fail "xray dump of $1 x $2 ($size bytes) differs from the repeated reference"
    fi
}
repeat_sample fdr-custom-events 300
repeat_sample fdr-many-blocks 8
repeat_sample fdr-typed-events-aligned 700

# JSON lines and the basic-mode text format: reviewed golden files.
for n in fdr-custom-events fdr-v1-synthetic-oddpad fdr-typed-events fdr-v4-synthetic basic-mode; do
    "$X" dump --json "$D/$n/$n.xray" > "$T/$n.json" 2>/dev/null
    same "xray dump --json $n golden" "$D/$n/tracedec.json" "$T/$n.json"
done
"$X" dump "$D/basic-mode/basic-mode.xray" > "$T/basic.txt" 2>&1
same "xray dump basic-mode text golden" "$D/basic-mode/tracedec.dump.txt" "$T/basic.txt"
if command -v python3 > /dev/null; then
    if python3 -c 'import json,sys
for f in sys.argv[1:]:
    for line in open(f, encoding="utf-8"): json.loads(line)' "$T"/*.json; then
        pass "xray dump --json output parses as JSON lines"
    else
        fail "xray dump --json output is not valid JSON lines"
    fi
fi
"$X" info "$D/fdr-flight-ring/fdr-flight-ring.xray" > "$T/info.txt" 2>&1
same "xray info fdr-flight-ring golden" "$D/fdr-flight-ring/tracedec.info.txt" "$T/info.txt"

# Errors: a file cut inside a record exits 1 with the offset, after
# printing every record before the cut.
head -c 300 "$D/fdr-calls/fdr-calls.xray" > "$T/cut.xray"
"$X" dump "$T/cut.xray" > "$T/cut.out" 2> "$T/cut.err"
rc=$?
lines=$(wc -l < "$T/cut.out")
if [ $rc -eq 1 ] && grep -q "error: offset 296: truncated input: input ends inside a record" "$T/cut.err" &&
    head -n "$lines" "$D/fdr-calls/ref.fdr-dump.txt" | cmp -s - "$T/cut.out" && [ "$lines" -eq 28 ]; then
    pass "xray dump of a cut file: exit 1, offset 296, the 28 records before it printed (5 preamble + 23 function records)"
else
    fail "xray dump of a cut file (exit $rc, $lines lines: $(cat "$T/cut.err"))"
fi
# Cuts where llvm-xray fdr-dump still prints the records it has (xray_prefixes.sh
# checks every kind of cut against llvm-xray itself): in the unused rest of a
# BufferExtents record, its Buffer line; in a v1 buffer's zero tail after
# EndOfBuffer (at 560), one "Function Enter: #0" line per complete 8 bytes.
head -c 41 "$D/fdr-args/fdr-args.xray" > "$T/cut-extents.xray"
"$X" dump "$T/cut-extents.xray" > "$T/cut-extents.out" 2> "$T/cut-extents.err"
rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$T/cut-extents.out")" = "<Buffer: size = 384 bytes>" ] &&
    grep -q "error: offset 32: truncated input: input ends inside a record" "$T/cut-extents.err"; then
    pass "xray dump of a log cut after the BufferExtents size: its Buffer line, then the error at 32"
else
    fail "xray dump of a log cut after the BufferExtents size (exit $rc: $(cat "$T/cut-extents.out" "$T/cut-extents.err"))"
fi
head -c 3003 "$D/fdr-v1-synthetic/fdr-v1-synthetic.xray" > "$T/cut-tail.xray"
"$X" dump "$T/cut-tail.xray" > "$T/cut-tail.out" 2> "$T/cut-tail.err"
rc=$?
lines=$(wc -l < "$T/cut-tail.out")
if [ $rc -eq 1 ] && [ "$lines" -eq $((62 + (3003 - 560) / 8)) ] &&
    head -n "$lines" "$D/fdr-v1-synthetic/ref.fdr-dump.txt" | cmp -s - "$T/cut-tail.out"; then
    pass "xray dump of a v1 log cut in its zero tail: 62 records and 305 zero-record lines, as fdr-dump"
else
    fail "xray dump of a v1 log cut in its zero tail (exit $rc, $lines lines)"
fi
printf '\0\5\0\1' > "$T/swapped.xray"
head -c 28 /dev/zero >> "$T/swapped.xray"
"$X" dump "$T/swapped.xray" > /dev/null 2> "$T/swapped.err"
rc=$?
if [ $rc -eq 1 ] && grep -q "offset 0: not this format: byte-swapped header" "$T/swapped.err"; then
    pass "xray dump of a big-endian header says so"
else
    fail "xray dump of a big-endian header: exit $rc: $(cat "$T/swapped.err")"
fi
"$X" dump "$D" > /dev/null 2>&1
[ $? -eq 2 ] && pass "tracedec on a directory exits 2" || fail "tracedec on a directory"
"$X" dump > /dev/null 2>&1
[ $? -eq 2 ] && pass "tracedec usage error exits 2" || fail "tracedec usage error"
exit 0
