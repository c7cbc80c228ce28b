#!/bin/sh
# Golden tests of `tracedec convert` and `dump --chrome` against llvm-xray
# 14's convert. Each log's references are one file beside it,
# LOG.convert.txt.xz: per command a line "### llvm-xray convert ARGS (exit
# N)", its stdout, then "### stderr" and its stderr where that is not empty
# and differs from the first command's (yaml sorted and --sort=false,
# --symbolize with and without -m, trace_event likewise, --no-demangle; see
# tests/data/peers/xray/README.md). tests/golden/xray_refs.py replays them with
# tracedec in the log's folder: byte for byte the same file (stdout, stderr,
# exit status); where llvm-xray cannot load the log, our reviewed
# LOG.convert.tracedec.txt.xz in the same layout (UPDATE=1 rewrites it).
# Then every log's trace_event JSON is parsed back and checked event by
# event against `tracedec dump --json` (tests/golden/xray_trace_event.py),
# dump --chrome must print the same JSON, and cut logs must give valid
# JSON, the records before the cut and an error.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
xray_golden convert || exit 0

for log in tests/data/xray/*/*.xray tests/data/peers/xray/*/*.xray; do
    name=${log#tests/data/}
    name=${name%.xray}
    o=$T/$(echo "$name" | tr / _)
    "$X" convert --output-format=trace_event "$log" > "$o.json" 2> /dev/null
    "$X" dump --json "$log" > "$o.records" 2> /dev/null
    if python3 tests/golden/xray_trace_event.py "$o.json" "$o.records" > "$o.check" 2>&1; then
        pass "xray convert $name: trace_event parsed back, $(cat "$o.check")"
    else
        fail "xray convert $name: trace_event does not match dump --json" "$o.check"
    fi
    m=
    [ -f "$(dirname "$log")/instrmap.elf" ] && grep -aq -- '--instr_map=instrmap.elf' "${log%.xray}.convert.txt.xz" 2> /dev/null &&
        m=$(dirname "$log")/instrmap.elf
    "$X" convert -f trace_event ${m:+-y -m "$m"} "$log" > "$o.json" 2> /dev/null
    "$X" dump --chrome ${m:+-m "$m"} "$log" > "$o.chrome" 2> /dev/null
    if cmp -s "$o.json" "$o.chrome"; then
        pass "xray dump --chrome ${m:+-m }$name == convert --output-format=trace_event${m:+ --symbolize -m}"
    else
        fail "xray dump --chrome ${m:+-m }$name differs from convert -f trace_event"
    fi
done

# Cut logs: valid JSON (and YAML's end) with the records before the cut,
# the error on stderr, exit status 1.
for log in tests/data/xray/fdr-threads/fdr-threads.xray tests/data/xray/basic-mode/basic-mode.xray \
    tests/data/xray/fdr-custom-events/fdr-custom-events.xray; do
    size=$(wc -c < "$log")
    for cut in $((size / 3 + 3)) $((size * 2 / 3 + 5)) $((size - 1)); do
        c=$T/$(basename "$log" .xray)-$cut.xray
        head -c "$cut" "$log" > "$c"
        "$X" convert -f trace_event "$c" > "$c.json" 2> "$c.err"
        rc=$?
        "$X" dump --json "$c" > "$c.records" 2> /dev/null
        if [ $rc = 1 ] && grep -q "error: offset" "$c.err" &&
            python3 tests/golden/xray_trace_event.py "$c.json" "$c.records" > "$c.check" 2>&1; then
            pass "xray convert -f trace_event on $(basename "$c"): valid JSON, $(cat "$c.check"), error, exit 1"
        else
            fail "xray convert -f trace_event on $(basename "$c"): exit $rc" "$c.check"
        fi
        "$X" convert -f yaml "$c" > "$c.yaml" 2> "$c.err"
        rc=$?
        if [ $rc = 1 ] && grep -q "error: offset" "$c.err" && [ "$(tail -n 1 "$c.yaml")" = "..." ]; then
            pass "xray convert -f yaml on $(basename "$c"): complete document, error, exit 1"
        else
            fail "xray convert -f yaml on $(basename "$c"): exit $rc"
        fi
    done
done

# --output-format=raw (llvm-xray's default), written to a file with -o:
# LOG.raw / LOG.unsorted.raw (--sort=false) are llvm-xray's bytes.
for ref in tests/data/xray/*/*.raw tests/data/peers/xray/*/*.raw; do
    log=${ref%.raw} sort=
    case $log in *.unsorted) log=${log%.unsorted} sort=--sort=false ;; esac
    out=$T/$(basename "$ref")
    rm -f "$out"
    "$X" convert $sort --output-format=raw -o "$out" "$log.xray" > "$T/raw.stdout" 2> "$T/raw.err"
    rc=$?
    if [ $rc = 0 ] && [ ! -s "$T/raw.stdout" ] && cmp -s "$ref" "$out"; then
        pass "xray convert ${sort:+$sort }--output-format=raw -o FILE ${log#tests/data/}: == llvm-xray convert's file"
    else
        fail "xray convert ${sort:+$sort }--output-format=raw -o FILE ${log#tests/data/}: exit $rc" "$T/raw.err"
    fi
done
L=tests/data/xray/fdr-calls/fdr-calls.xray
if "$X" convert "$L" | cmp -s - tests/data/xray/fdr-calls/fdr-calls.raw; then
    pass "xray convert without --output-format: raw, as llvm-xray"
else
    fail "xray convert without --output-format: not llvm-xray's raw output"
fi
# -o (--output) for yaml and trace_event: the file holds what stdout would
for f in yaml trace_event; do
    "$X" convert -f $f "$L" > "$T/o.stdout" 2> /dev/null
    rm -f "$T/o.file"
    "$X" convert -f $f --output "$T/o.file" "$L" > "$T/o.empty" 2> /dev/null
    if [ -s "$T/o.stdout" ] && [ ! -s "$T/o.empty" ] && cmp -s "$T/o.stdout" "$T/o.file"; then
        pass "xray convert -f $f --output FILE: the file holds the output"
    else
        fail "xray convert -f $f --output FILE"
    fi
done

# Options: a bad value is a usage error (exit 2).
for bad in "--output-format=json" "--sort=maybe" "-f"; do
    "$X" convert "$bad" "$L" > "$T/bad.out" 2> "$T/bad.err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$T/bad.out" ]; then pass "xray convert $bad: usage, exit 2"; else fail "xray convert $bad: exit $rc"; fi
done
exit $status
