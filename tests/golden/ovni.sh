#!/bin/sh
# Golden tests of tracedec on the ovni samples (tests/data/ovni, recorded by
# libovni 1.14, 1.10 and 1.4.1, with the reference tools' own outputs):
#  - v3 samples: `dump` == ovnidump, `dump --hex` == ovnidump -x, `top` ==
#    ovnitop, byte for byte, with ovnidump's exit status;
#  - s07 after ovnisort; s09 (v2 layout) against ovni 1.10's tools; s10 (v1
#    layout) against ovni 1.4.1's ovnidump, whose line layout differs
#    (`path  clock  +delta  MCV :hex`): converted to today's, compared;
#  - `info` per stream == the MANIFEST.txt lines (events, jumbo, payload
#    bytes, first/last clock, backward steps);
#  - `dump --json`: every line checked against the text and hex dumps
#    (tests/golden/ovni_json.py; needs python3).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-ovni
D=tests/data/ovni


# ref FILE: a reference output, gunzipped when stored as FILE.gz.
ref() {
    if [ -f "$1" ]; then cat "$1"; else gzip -dc "$1.gz"; fi
}

# ref_rc STDERR_FILE: the exit status the harness appended.
ref_rc() { sed -n 's/^exit status: //p' "$1"; }

# check NAME REF_STDOUT REF_STDERR CMD...: stdout byte-identical, same exit status.
check() {
    name=$1 want=$2 want_err=$3
    shift 3
    ref "$want" > "$T/want"
    "$@" > "$T/got" 2> "$T/got.err"
    rc=$?
    want_rc=$(ref_rc "$want_err")
    if [ "$rc" != "$want_rc" ]; then
        fail "$name (exit $rc, reference $want_rc; stderr: $(head -c 300 "$T/got.err"))"
    elif cmp -s "$T/want" "$T/got"; then
        pass "$name"
    else
        cp "$T/got" "$T/$(echo "$name" | tr ' /' '__').out"
        fail "$name (diff $want $T/$(echo "$name" | tr ' /' '__').out)"
    fi
}

for dir in "$D"/s0[1-8]*; do
    n=$(basename "$dir")
    check "ovni dump $n == ovnidump" "$dir/ovnidump.txt" "$dir/ovnidump.stderr.txt" $X dump "$dir/ovni"
    check "ovni dump --hex $n == ovnidump -x" "$dir/ovnidump-x.txt" "$dir/ovnidump-x.stderr.txt" \
        $X dump --hex "$dir/ovni"
    check "ovni top $n == ovnitop" "$dir/ovnitop.txt" "$dir/ovnitop.stderr.txt" $X top "$dir/ovni"
done

s07=$D/s07-kernel-unsorted
check "ovni dump s07 sorted == ovnidump" "$s07/ovnidump-sorted.txt" "$s07/ovnidump-sorted.stderr.txt" \
    $X dump "$s07/ovni-sorted"
check "ovni dump --hex s07 sorted == ovnidump -x" "$s07/ovnidump-x-sorted.txt" \
    "$s07/ovnidump-x-sorted.stderr.txt" $X dump --hex "$s07/ovni-sorted"
if $X dump "$s07/ovni" 2>&1 >/dev/null | grep -q 'backwards jump in time 592475919489 -> 592474955161'; then
    pass "ovni s07 backwards jump reported on stderr"
else
    fail "ovni s07 backwards jump not reported"
fi
$X dump --strict "$s07/ovni" > "$T/strict.out" 2> "$T/strict.err"
rc=$?
if [ $rc = 1 ] && grep -q 'offset [0-9]*: .*stream.obs: clock goes backwards' "$T/strict.err"; then
    pass "ovni --strict: s07's in-stream backwards clock is an error with offset"
else
    fail "ovni --strict on s07 (exit $rc: $(cat "$T/strict.err"))"
fi

# v2 layout, references from ovni 1.10's tools (same line format).
s09=$D/s09-layout-v2-libovni-1.10
check "ovni dump s09 (v2 layout) == ovnidump 1.10" "$s09/ovnidump.txt" "$s09/ovnidump.stderr.txt" $X dump "$s09/ovni"
check "ovni dump --hex s09 (v2 layout) == ovnidump 1.10 -x" "$s09/ovnidump-x.txt" "$s09/ovnidump-x.stderr.txt" \
    $X dump --hex "$s09/ovni"
check "ovni top s09 (v2 layout) == ovnitop 1.10" "$s09/ovnitop.txt" "$s09/ovnitop.stderr.txt" $X top "$s09/ovni"

# v1 layout: ovnidump 1.4.1 printed `path  clock  +delta  MCV :hex...`.
s10=$D/s10-layout-v1-libovni-1.4
awk '{ hex = ""; for (i = 5; i <= NF; i++) hex = hex $i
       printf "%10s  %s  %s  %s\n", $2, $4, $1, hex }' "$s10/ovnidump.txt" > "$T/s10-converted.txt"
$X dump --hex "$s10/ovni" > "$T/s10.out" 2> "$T/s10.err"
if [ $? = 0 ] && cmp -s "$T/s10-converted.txt" "$T/s10.out"; then
    pass "ovni dump --hex s10 (v1 layout) == ovnidump 1.4.1 (line layout converted)"
else
    fail "ovni dump --hex s10 (v1 layout) (diff $T/s10-converted.txt $T/s10.out)"
fi
# ... and its deltas: each is the clock minus the previous clock of the stream.
awk '{ d = sprintf("+%.0f", $2 - prev[$1]); prev[$1] = $2; if (d != $3) bad++ } END { exit bad > 0 }' "$s10/ovnidump.txt" &&
    pass "ovni s10 reference deltas are per-stream clock differences" ||
    fail "ovni s10 reference deltas"
# libovni 1.0.0 named the stream files thread.T, without the .obs suffix.
rm -rf "$T/v100"
cp -r "$s10/ovni" "$T/v100"
for f in "$T"/v100/loom.*/proc.*/thread.*.obs; do mv "$f" "${f%.obs}"; done
sed 's/\(thread\.[0-9]*\)\.obs  /\1  /' "$T/s10.out" > "$T/v100.want"
$X dump --hex "$T/v100" > "$T/v100.out" 2> "$T/v100.err"
if [ $? = 0 ] && [ -s "$T/v100.want" ] && cmp -s "$T/v100.want" "$T/v100.out"; then
    pass "ovni dump --hex on the libovni 1.0.0 naming (thread.T, no .obs): same events"
else
    fail "ovni dump --hex on thread.T files (diff $T/v100.want $T/v100.out)"
fi
check "ovni top s10 (v1 layout) == ovnitop 1.4.1" "$s10/ovnitop.txt" "$s10/ovnitop.stderr.txt" $X top "$s10/ovni"

# s11 has equal clocks across streams: ovnidump orders them by its heap's
# shape, we by stream path. Compared modulo that order: the same sequence of
# clock values, and the same lines for each clock value.
same_modulo_ties() {
    awk '{ print $1 }' "$2" > "$T/clocks.want"
    awk '{ print $1 }' "$3" > "$T/clocks.got"
    LC_ALL=C sort "$2" > "$T/lines.want"
    LC_ALL=C sort "$3" > "$T/lines.got"
    if ! cmp -s "$T/clocks.want" "$T/clocks.got"; then
        fail "$1 (clock sequence differs: diff $T/clocks.want $T/clocks.got)"
    elif ! cmp -s "$T/lines.want" "$T/lines.got"; then
        fail "$1 (lines differ: diff $T/lines.want $T/lines.got)"
    else
        pass "$1"
    fi
}
s11=$D/s11-looms-ties-libovni-1.14
ties=$(ref "$s11/ovnidump.txt" | awk '{ print $1 }' | uniq -d | wc -l)
ref "$s11/ovnidump.txt" > "$T/s11.want"
ref "$s11/ovnidump-x.txt" > "$T/s11x.want"
$X dump "$s11/ovni" > "$T/s11.got" 2> /dev/null
same_modulo_ties "ovni dump s11 (2 looms, 12 streams, $ties tied clocks) == ovnidump modulo ties" "$T/s11.want" "$T/s11.got"
$X dump --hex "$s11/ovni" > "$T/s11x.got" 2> /dev/null
same_modulo_ties "ovni dump --hex s11 == ovnidump -x modulo ties" "$T/s11x.want" "$T/s11x.got"
check "ovni dump --ovnidump-ties s11 == ovnidump (ties too)" "$s11/ovnidump.txt" "$s11/ovnidump.stderr.txt" \
    $X dump --ovnidump-ties "$s11/ovni"
check "ovni dump --hex --ovnidump-ties s11 == ovnidump -x (ties too)" "$s11/ovnidump-x.txt" \
    "$s11/ovnidump-x.stderr.txt" $X dump --hex --ovnidump-ties "$s11/ovni"
check "ovni top s11 == ovnitop" "$s11/ovnitop.txt" "$s11/ovnitop.stderr.txt" $X top "$s11/ovni"
# Our tie rule itself: within a run of equal clocks, stream paths ascend.
if awk '($1 "") == c && $3 < p { bad++ } { c = $1 ""; p = $3 } END { exit bad > 0 }' "$T/s11.got"; then
    pass "ovni ties: equal clocks come out in stream path order"
else
    fail "ovni ties: equal clocks not in stream path order"
fi

# info == MANIFEST per stream (the manifest's paths start with "ovni/").
for dir in "$D"/s*; do
    [ -f "$dir/MANIFEST.txt" ] || continue
    n=$(basename "$dir")
    sed -n 's/^ovni\/\([^:]*\): \(events=.*\)$/\1: \2/p' "$dir/MANIFEST.txt" | sort > "$T/manifest"
    $X info "$dir/ovni" 2> /dev/null | sed 's/ layout=v[0-9]//' |
        awk -F': ' '{ p = $1; if (p !~ /\.obs$/) p = p "/stream.obs"; print p ": " $2 }' | sort > "$T/info"
    if [ -s "$T/manifest" ] && cmp -s "$T/manifest" "$T/info"; then
        pass "ovni info $n == MANIFEST.txt"
    else
        fail "ovni info $n (diff $T/manifest $T/info)"
    fi
done

# --json, checked line by line against the text and hex dumps.
if command -v python3 > /dev/null 2>&1; then
    for dir in "$D"/s0[1-8]* "$s09"; do
        n=$(basename "$dir")
        $X dump --json "$dir/ovni" > "$T/$n.json" 2> /dev/null
        ref "$dir/ovnidump.txt" > "$T/$n.txt"
        ref "$dir/ovnidump-x.txt" > "$T/$n.x"
        if msg=$(python3 tests/golden/ovni_json.py "$T/$n.json" "$T/$n.txt" "$T/$n.x" 2>&1); then
            pass "ovni dump --json $n agrees with ovnidump and ovnidump -x ($msg)"
        else
            fail "ovni dump --json $n: $msg"
        fi
    done
else
    echo "SKIP ovni dump --json checks (python3 not found)"
fi
exit 0
