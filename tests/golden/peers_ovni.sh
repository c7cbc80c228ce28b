#!/bin/sh
# Golden tests of tracedec on the traces of ovni 1.14's own test suite
# (tests/data/peers/ovni; README.md there says how they were recorded).
# Per trace, unpacked into the output folder:
#  - `dump`, `dump --hex` and `top` == ovnidump, ovnidump -x and ovnitop,
#    byte for byte (a reference too big to keep is its SHA-256 and line
#    count), with the tool's exit status;
#  - the "backwards jump in time" lines ovnidump printed on stderr are the
#    ones `dump` prints, in the same order;
#  - where ovnidump rejects a trace, the reason is listed below and our
#    stderr gives the same one.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-peers-ovni
D=tests/data/peers/ovni

# rejected NAME: why ovni's tools reject the trace NAME (what our stderr
# must say), empty for the traces they read.
rejected() {
    case $1 in
    unit-stream.bad) echo 'bad/stream.obs: stream version is not 1' ;; # ovni: "stream version mismatch 1234"
    esac
}

# tool_stderr DIR CMD: what ovni's tool printed on stderr running CMD, from
# DIR/tools.stderr.txt (sections "== CMD", each ending with the exit status).
tool_stderr() {
    awk -v head="== $2" '$0 == head { on = 1; next } /^== / { on = 0 } on' "$1/tools.stderr.txt"
}

# same_as_ref GOT REF: GOT is REF.txt, REF.txt.gz, or has the digest and
# line count in REF.txt.sha256.
same_as_ref() {
    if [ -f "$2.txt.sha256" ]; then
        [ "$(sha256sum < "$1" | cut -d' ' -f1)  $(wc -l < "$1") lines" = "$(cat "$2.txt.sha256")" ]
    elif [ -f "$2.txt.gz" ]; then
        gzip -dc "$2.txt.gz" | cmp -s - "$1"
    else
        cmp -s "$2.txt" "$1"
    fi
}

# jumps FILE: the "backwards jump in time" messages of a stderr, without prefixes.
jumps() { sed -n 's/.*: \(backwards jump in time .*\)$/\1/p' "$1"; }

for dir in "$D"/*/; do
    dir=${dir%/}
    n=$(basename "$dir")
    w=$T/$n
    mkdir -p "$w"
    if [ -f "$dir/ovni.tar.gz" ]; then
        tar -xzf "$dir/ovni.tar.gz" -C "$w"
    elif have xz; then
        tar -xJf "$dir/ovni.tar.xz" -C "$w"
    else
        skip "ovni peer $n (xz not found to unpack ovni.tar.xz)"
        continue
    fi
    for c in "ovnidump|ovnidump ovni|dump" "ovnidump-x|ovnidump -x ovni|dump --hex" "ovnitop|ovnitop ovni|top"; do
        ref=${c%%|*}
        tool=${c#*|}
        tool=${tool%|*}
        cmd=${c##*|}
        name="ovni peer $n: $cmd == $tool"
        $X $cmd "$w/ovni" > "$w/$ref.out" 2> "$w/$ref.err"
        rc=$?
        want_rc=$(tool_stderr "$dir" "$tool" | sed -n 's/^exit status: //p')
        if [ "$rc" != "$want_rc" ]; then
            fail "$name (exit $rc, $tool $want_rc)" "$w/$ref.err"
        elif same_as_ref "$w/$ref.out" "$dir/$ref"; then
            pass "$name"
            rm -f "$w/$ref.out"
        else
            fail "$name (output differs: $w/$ref.out)"
        fi
    done
    tool_stderr "$dir" "ovnidump ovni" > "$w/ovnidump.tool-err"
    jumps "$w/ovnidump.tool-err" > "$w/jumps.want"
    jumps "$w/ovnidump.err" > "$w/jumps.got"
    if cmp -s "$w/jumps.want" "$w/jumps.got"; then
        pass "ovni peer $n: $(wc -l < "$w/jumps.want") backwards jumps reported as ovnidump"
    else
        fail "ovni peer $n: backwards jumps (diff $w/jumps.want $w/jumps.got)"
    fi
    reason=$(rejected "$n")
    if [ "$(tail -n 1 "$w/ovnidump.tool-err")" != "exit status: 0" ] || [ -n "$reason" ]; then
        if [ -n "$reason" ] && grep -qF "$reason" "$w/ovnidump.err"; then
            pass "ovni peer $n: rejected as ovnidump does ($reason)"
        else
            fail "ovni peer $n: ovnidump rejects it; our stderr lacks the reason listed in rejected() ('$reason')" "$w/ovnidump.err"
        fi
    fi
    rm -rf "$w/ovni"
done
exit $status
