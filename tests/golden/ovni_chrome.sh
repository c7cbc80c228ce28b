#!/bin/sh
# `tracedec dump --chrome` on ovni traces (docs/ovni.md, "Chrome trace"):
#  - every sample (tests/data/ovni) and peer trace (tests/data/peers/ovni):
#    the JSON parses, and tests/golden/ovni_chrome.py rebuilds it event by
#    event from `dump --json` and the span table of docs/ovni.md (names,
#    categories, times, pids, tids, args), with B/E nesting and times
#    checked per thread; the exit status is dump's;
#  - reviewed outputs, byte for byte: tests/data/ovni/chrome/*.json.gz;
#  - broken traces (a cut stream, bad metadata, a hand-made stream of
#    unpaired, crossed and too deeply nested spans, backward clocks): valid
#    JSON, the error on stderr.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-ovni-chrome
D=tests/data/ovni
if ! have python3; then
    skip "ovni dump --chrome (python3 not found)"
    exit 0
fi

# same NAME DIR [WANT_RC]: --chrome against --json on trace DIR.
same() {
    w=$T/$(echo "$1" | tr ' /' '__')
    $X dump --chrome "$2" > "$w.json" 2> "$w.err"
    rc=$?
    $X dump --json "$2" > "$w.jsonl" 2> /dev/null
    jrc=$?
    if [ "$rc" != "$jrc" ] || [ "$rc" != "${3:-$rc}" ]; then
        fail "ovni chrome $1 (exit $rc; dump --json $jrc, expected ${3:-$jrc})" "$w.err"
    elif python3 tests/golden/ovni_chrome.py docs/ovni.md "$w.json" "$w.jsonl" > "$w.check" 2>&1; then
        pass "ovni chrome $1: $(grep -c '"ph":"[BEi]"' "$w.json") events == dump --json through the span table"
    else
        fail "ovni chrome $1" "$w.check"
    fi
}

# broken NAME DIR RC: DIR gives valid JSON, exit status RC, an error on stderr
# unless RC is 0.
broken() {
    $X dump --chrome "$2" > "$T/broken.json" 2> "$T/broken.err"
    rc=$?
    if [ $rc != "$3" ]; then
        fail "ovni chrome broken: $1 (exit $rc, expected $3)" "$T/broken.err"
    elif ! python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/broken.json" 2> "$T/broken.py"; then
        fail "ovni chrome broken: $1 (invalid JSON)" "$T/broken.py"
    elif [ $rc != 0 ] && ! grep -q 'tracedec: error: ' "$T/broken.err"; then
        fail "ovni chrome broken: $1 (no error on stderr)"
    else
        pass "ovni chrome broken: $1 gives valid JSON (exit $rc)"
    fi
}
for dir in "$D"/s*/; do
    n=$(basename "$dir")
    same "$n" "$dir/ovni"
done
same "s07 sorted" "$D/s07-kernel-unsorted/ovni-sorted"

for dir in tests/data/peers/ovni/*/; do
    n=$(basename "$dir")
    mkdir -p "$T/peer"
    rm -rf "$T/peer/ovni"
    if [ -f "$dir/ovni.tar.gz" ]; then
        tar -xzf "$dir/ovni.tar.gz" -C "$T/peer"
    elif have xz; then
        tar -xJf "$dir/ovni.tar.xz" -C "$T/peer"
    else
        skip "ovni chrome peer $n (xz not found to unpack ovni.tar.xz)"
        continue
    fi
    if [ "$(du -sk "$T/peer/ovni" | cut -f1)" -gt 4096 ]; then # python would take a minute
        $X dump --chrome "$T/peer/ovni" 2> /dev/null | tail -n 2 > "$T/tail"
        if [ $? = 0 ] && grep -q '^\],"displayTimeUnit":"ns"}$' "$T/tail"; then
            pass "ovni chrome peer $n: whole (too big to rebuild here in seconds)"
        else
            fail "ovni chrome peer $n: not whole" "$T/tail"
        fi
    else
        same "peer $n" "$T/peer/ovni"
    fi
    case $n in emu-nosv-nested-tasks) cp -r "$T/peer/ovni" "$T/nested" ;; esac
done

# Reviewed outputs (tests/data/ovni/chrome/README.md says what each shows).
for c in s05-two-procs-one-loom:$D/s05-two-procs-one-loom/ovni s07-kernel-unsorted:$D/s07-kernel-unsorted/ovni \
    emu-nosv-nested-tasks:$T/nested; do
    n=${c%%:*}
    $X dump --chrome "${c#*:}" > "$T/$n.json" 2> /dev/null
    if gzip -dc "$D/chrome/$n.json.gz" | cmp -s - "$T/$n.json"; then
        pass "ovni chrome $n == the reviewed output"
    else
        fail "ovni chrome $n (diff <(gzip -dc $D/chrome/$n.json.gz) $T/$n.json)"
    fi
done

s04=$D/s04-multithread/ovni
for cut in 1000 1001 9 4; do
    rm -rf "$T/cut"
    cp -r "$s04" "$T/cut"
    f=$(find "$T/cut" -name stream.obs | sort | sed -n 2p)
    head -c "$cut" "$f" > "$T/cut.obs" && mv "$T/cut.obs" "$f"
    broken "a stream cut at byte $cut" "$T/cut" 1
    [ "$cut" -gt 100 ] && same "s04 cut at byte $cut" "$T/cut" 1
done
rm -rf "$T/badjson"
cp -r "$s04" "$T/badjson"
f=$(find "$T/badjson" -name stream.json | sort | sed -n 1p)
echo '{ "version": 3,' > "$f"
broken "a stream.json with a syntax error" "$T/badjson" 1
rm -rf "$T/noobs"
cp -r "$s04" "$T/noobs"
rm "$(find "$T/noobs" -name stream.obs | sort | sed -n 3p)"
broken "a stream.json without its stream.obs" "$T/noobs" 1

# A hand-made stream: an unmatched close, a span closed with another open
# inside, 300 nested opens (254 fit beside 2 open spans: 46 dropped, and the
# next close is unpaired too), an open when the stack is full at a backward
# clock, an unknown model, and spans left open at the end.
rm -rf "$T/made"
mkdir -p "$T/made/loom.x/proc.1/thread.1"
cp "$D/s01-minimal/ovni/loom.node0/proc.4311/thread.4311/stream.json" "$T/made/loom.x/proc.1/thread.1/"
python3 - "$T/made/loom.x/proc.1/thread.1/stream.obs" << 'EOF'
import struct, sys
events = [b"MS]", b"OHx", b"MS[", b"MR[", b"MS]", b"OU[", b"zz!"] + [b"MW["] * 300 + [b"MW]", b"KCO"]
clocks = [1000 + 10 * k for k in range(len(events))]
clocks[-1] = 5  # backwards: placed at the previous time
with open(sys.argv[1], "wb") as f:
    f.write(b"ovni" + struct.pack("<I", 1))
    for mcv, clock in zip(events, clocks):
        payload = struct.pack("<iiQ", 0, 1, 2) if mcv == b"OHx" else b""
        f.write(bytes([len(payload) - 1 if payload else 0]) + mcv + struct.pack("<Q", clock) + payload)
EOF
same "hand-made pairs" "$T/made" 0
w=$T/hand-made_pairs.json
if [ "$(grep -c '"unpaired":true' "$w")" = 49 ] && grep -q '"name":"MPI_Recv()".*"closed_by":"MS]"' "$w" &&
    [ "$(grep -c '"end_of_trace":true' "$w")" = 256 ] && grep -q '"name":"zz!","cat":"unknown"' "$w" &&
    grep -q '"name":"KCO","cat":"kernel","ts":4.070,.*"unpaired":true' "$w"; then
    pass "ovni chrome hand-made: unmatched, crossed, too deep, unknown and unclosed spans as documented"
else
    fail "ovni chrome hand-made pairs ($w)"
fi
exit $status
