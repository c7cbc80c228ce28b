#!/bin/sh
# Golden tests on the uftrace peer corpus (tests/data/peers/uftrace, recorded
# from uftrace v0.13's own test programs; its README.md has the recipe). For
# every recording and command (dump, replay): `tracedec CMD DIR` exits 0 and
# prints byte for byte what `uftrace CMD -d DIR` printed (ref/CMD.txt).
# Where uftrace itself failed (ref/CMD.rc: its exit status, ref/CMD.why: the
# reason), ref/CMD.txt is what it printed before failing: ours must begin
# with it (and go on; tracedec exits 0).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-peers-uftrace
D=tests/data/peers/uftrace
for dir in "$D"/t*/; do
    n=$(basename "$dir")
    for cmd in dump replay; do
        ref=$dir/ref/$cmd.txt
        out=$T/$n.$cmd
        "$X" $cmd "$dir/uftrace.data" > "$out" 2> "$out.err"
        rc=$?
        if [ ! -f "$dir/ref/$cmd.rc" ]; then
            if [ $rc -eq 0 ] && cmp -s "$out" "$ref"; then
                pass "uftrace peer $cmd $n == uftrace $cmd"
            else
                fail "uftrace peer $cmd $n != uftrace $cmd (exit $rc; diff $out $ref)" "$out.err"
            fi
        elif [ ! -s "$dir/ref/$cmd.why" ]; then
            fail "uftrace peer $cmd $n: uftrace failed (ref/$cmd.rc) without a reason in ref/$cmd.why"
        elif [ $rc -eq 0 ] && begins_with "$out" "$ref"; then
            pass "uftrace peer $cmd $n begins with all uftrace $cmd printed before it failed ($(cat "$dir/ref/$cmd.why"))"
        else
            fail "uftrace peer $cmd $n does not begin with what uftrace $cmd printed before it failed (exit $rc; $out vs $ref)" "$out.err"
        fi
    done
done
exit $status
