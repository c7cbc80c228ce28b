#!/bin/sh
# Golden tests of `tracedec dump DIR` and `tracedec replay DIR` on the uftrace
# recordings: stdout must be byte-identical to uftrace 0.13's own
# `uftrace dump` (ref/dump.txt) and `uftrace replay` (ref/replay.txt).
cd "$(dirname "$0")/.." || exit 2
T=build/golden-uftrace
D=tests/data/uftrace
rm -rf "$T"
mkdir -p "$T"
for dir in "$D"/*/; do
    n=$(basename "$dir")
    [ -f "$dir/ref/dump.txt" ] || continue
    build/tracedec dump "$dir/uftrace.data" > "$T/$n.dump" 2> "$T/$n.err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$T/$n.dump" "$dir/ref/dump.txt"; then
        echo "PASS uftrace dump $n == uftrace dump"
    else
        echo "FAIL uftrace dump $n != uftrace dump (exit $rc; diff $T/$n.dump $dir/ref/dump.txt; $(head -c 200 "$T/$n.err"))"
    fi
done
for dir in "$D"/*/; do
    n=$(basename "$dir")
    [ -f "$dir/ref/replay.txt" ] || continue
    build/tracedec replay "$dir/uftrace.data" > "$T/$n.replay" 2> "$T/$n.replay.err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$T/$n.replay" "$dir/ref/replay.txt"; then
        echo "PASS uftrace replay $n == uftrace replay"
    else
        echo "FAIL uftrace replay $n != uftrace replay (exit $rc; diff $T/$n.replay $dir/ref/replay.txt; $(head -c 200 "$T/$n.replay.err"))"
    fi
done
exit 0
