#!/bin/sh
# Golden tests of `tracedec replay OPTIONS DIR` on every recording with a
# ref/replay-opts.tsv (tests/data/uftrace/*, tests/data/peers/uftrace/*).
# Each line "NAME<TAB>EXPECTED<TAB>OPTIONS" is a run of
# `uftrace replay -d DIR OPTIONS` (uftrace 0.13, the recording's
# default.opts applied) whose output is EXPECTED: a file of
# ref/replay-opts.tar.xz (replay-NAME.txt, or the first identical one) or
# ref/replay.txt; tracedec prints it byte for byte. Where uftrace failed
# (ref/replay-NAME.rc, .stderr, .why), EXPECTED is what it printed first:
# ours must begin with it. The READMEs beside the recordings give the
# recipe. One PASS line per recording (its runs all identical). The
# sanitized CLI (make check's second round, TDEC_TAG set) runs the samples
# and every 12th peer recording: all ~3000 runs on the peers would take
# minutes under ASan.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-uftrace-replay-opts
if ! have xz; then
    skip "uftrace replay options (xz not found: the references are xz-compressed)"
    exit 0
fi
peers=tests/data/peers/uftrace/*/ref/replay-opts.tsv
if [ -n "${TDEC_TAG:-}" ]; then
    peers=$(ls $peers | awk 'NR % 12 == 1')
fi
for tsv in tests/data/uftrace/*/ref/replay-opts.tsv $peers; do
    [ -f "$tsv" ] || continue
    ref=$(dirname "$tsv")
    rec=$(dirname "$ref")
    r=$(basename "$rec")
    exp=$T/$r.ref
    mkdir -p "$exp"
    [ -f "$ref/replay-opts.tar.xz" ] && xz -dc "$ref/replay-opts.tar.xz" | tar -xf - -C "$exp"
    cp "$ref/replay.txt" "$exp/"
    runs=0
    bad=0
    while IFS='	' read -r name expect args; do
        eval "set -- $args"
        out=$T/$r.$name
        "$X" replay "$@" "$rec/uftrace.data" > "$out" 2> "$out.err"
        rc=$?
        runs=$((runs + 1))
        what="uftrace replay $* $r"
        if [ ! -f "$ref/replay-$name.rc" ]; then
            [ $rc -eq 0 ] && cmp -s "$out" "$exp/$expect" && continue
            fail "$what: not as uftrace 0.13 (exit $rc; diff $out $exp/$expect)" "$out.err"
        elif [ ! -s "$ref/replay-$name.why" ]; then
            fail "$what: uftrace failed (ref/replay-$name.rc) without a reason in ref/replay-$name.why"
        elif begins_with "$out" "$exp/$expect"; then
            pass "$what begins with all uftrace printed before it failed ($(cat "$ref/replay-$name.why"))"
            continue
        else
            fail "$what does not begin with what uftrace printed before it failed (exit $rc; $out vs $exp/$expect)" "$out.err"
        fi
        bad=$((bad + 1))
    done < "$tsv"
    [ $bad -eq 0 ] && pass "uftrace replay options $r: $runs runs as uftrace 0.13"
done
exit $status
