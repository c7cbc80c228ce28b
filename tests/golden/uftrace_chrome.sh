#!/bin/sh
# Golden tests of `tracedec dump --chrome`, `--flame-graph` and `--graphviz`
# on the uftrace recordings: stdout byte-identical to uftrace 0.13's
# (ref/dump-chrome.json, ref/dump-flame-graph.txt, ref/dump-graphviz.dot of
# every sample of tests/data/uftrace and of the peer corpus, packed in
# tests/data/peers/uftrace/dump-views.tar.xz); the Chrome JSON parsed back
# and checked field by field against the records of `tracedec dump --json`
# (tests/golden/uftrace_chrome.py); JSON that stays valid where uftrace's is
# not (a LOST record) and on broken data (truncated files, no data).
#
# The JSON's "recorded_time" is the local time of the info file's mtime,
# which a checkout does not keep: each recording is read through a copy
# (links to its files, info copied) whose info mtime is the reference's
# recorded_time, with TZ=UTC as the references were made.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-uftrace-chrome
D=tests/data/uftrace
P=tests/data/peers/uftrace
TZ=UTC
export TZ
PY=$(command -v python3)

# stage DATA COPY CHROME_REF: COPY, the recording DATA as links to its
# files, info copied with its mtime set to CHROME_REF's recorded_time.
stage() {
    abs=$(cd "$1" && pwd) || return 1
    mkdir -p "$2" || return 1
    for f in "$abs"/*; do ln -s "$f" "$2/" || return 1; done
    rm "$2/info" && cp "$abs/info" "$2/info" && chmod u+w "$2/info" || return 1
    when=$(sed -n 's/^"recorded_time":"\(.*\)",$/\1/p' "$3")
    [ -z "$when" ] || touch -d "$when" "$2/info"
}

# views NAME DATA REFDIR: the three views of DATA == REFDIR's references;
# the Chrome JSON and dump --json kept for the field check.
checks=""
views() {
    if ! stage "$2" "$T/$1.data" "$3/dump-chrome.json"; then
        fail "uftrace dump views $1 (cannot copy $2)"
        return
    fi
    differ=""
    for v in chrome:json flame-graph:txt graphviz:dot; do
        "$X" dump --"${v%:*}" "$T/$1.data" > "$T/$1.${v%:*}" 2> "$T/$1.${v%:*}.err"
        rc=$?
        [ $rc -eq 0 ] && cmp -s "$T/$1.${v%:*}" "$3/dump-${v%:*}.${v#*:}" || differ="$differ --${v%:*} (exit $rc; diff $T/$1.${v%:*} $3/dump-${v%:*}.${v#*:})"
    done
    if [ -z "$differ" ]; then
        pass "uftrace dump views $1: --chrome, --flame-graph, --graphviz == uftrace dump"
    else
        fail "uftrace dump views $1: differ from uftrace dump:$differ"
    fi
    "$X" dump --json "$2" > "$T/$1.dump.json" 2>/dev/null
    checks="$checks $1 $T/$1.chrome $T/$1.dump.json"
}

for dir in "$D"/*/; do
    n=$(basename "$dir")
    [ -f "$dir/ref/dump-chrome.json" ] && views "$n" "$dir/uftrace.data" "$dir/ref"
done
# uftrace's -d DIR / --data=DIR name the directory too.
if "$X" dump --graphviz -d "$D/plain/uftrace.data" 2>&1 | cmp -s - "$D/plain/ref/dump-graphviz.dot" &&
    "$X" dump --flame-graph --data="$D/plain/uftrace.data" 2>&1 | cmp -s - "$D/plain/ref/dump-flame-graph.txt"; then
    pass "uftrace dump --graphviz -d DIR, --flame-graph --data=DIR == uftrace dump"
else
    fail "uftrace dump --graphviz -d DIR, --flame-graph --data=DIR == uftrace dump"
fi
if ! have xz; then
    skip "uftrace dump views of the peer recordings (xz not found)"
elif mkdir -p "$T/peers" && xz -dc "$P/dump-views.tar.xz" | tar -xf - -C "$T/peers"; then
    for dir in "$T"/peers/*/; do
        n=$(basename "$dir")
        views "$n" "$P/$n/uftrace.data" "$dir/ref"
    done
else
    fail "uftrace dump views of the peer recordings (cannot unpack $P/dump-views.tar.xz)"
fi
if [ -z "$PY" ]; then
    skip "uftrace dump --chrome: JSON parsed back (python3 not found)"
else
    # shellcheck disable=SC2086 # NAME CHROME DUMP triples, no spaces
    "$PY" tests/golden/uftrace_chrome.py $checks || status=1
fi

# json_ok FILE: FILE is one JSON document (after uftrace's Usage lines).
json_ok() {
    "$PY" -c 'import json, sys
raw = open(sys.argv[1], "rb").read()
json.loads(raw[raw.find(b"{\"traceEvents\":["):].decode("utf-8", "surrogateescape"))' "$1" 2>/dev/null
}

# A LOST record (the plain recording with one inserted after its 9th
# record: 7 records lost at depth 3): uftrace 0.13 writes an empty element
# for it (a line with a lone comma: not JSON) and warns; ours is the same
# without that line, and JSON. The reference was made by uftrace 0.13 on
# exactly that directory.
M=$T/lost
if [ -z "$PY" ]; then
    skip "uftrace dump --chrome: a LOST record (python3 not found)"
elif cp -rL "$D/plain/uftrace.data" "$M" && chmod -R u+w "$M" && "$PY" -c 'import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[9 * 16:9 * 16] = struct.pack("<QQ", 567952372400, 2 | 5 << 3 | 3 << 6 | 7 << 16)
open(p, "wb").write(b)' "$M/2702.dat" && touch -d "$(sed -n 's/^"recorded_time":"\(.*\)",$/\1/p' "$D/plain/ref/dump-chrome-lost.json")" "$M/info"; then
    "$X" dump --chrome "$M" > "$T/lost.json" 2> "$T/lost.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -v '^,$' "$D/plain/ref/dump-chrome-lost.json" | cmp -s - "$T/lost.json" &&
        json_ok "$T/lost.json" && grep -q "records are lost" "$T/lost.err"; then
        pass "uftrace dump --chrome: a LOST record: uftrace's output without its empty element, JSON, a warning"
    else
        fail "uftrace dump --chrome: a LOST record: uftrace's output without its empty element, JSON, a warning (exit $rc; diff $T/lost.json $D/plain/ref/dump-chrome-lost.json)" "$T/lost.err"
    fi
else
    fail "uftrace dump --chrome: a LOST record (cannot make the copy $M)"
fi

if [ -z "$PY" ]; then
    skip "uftrace dump --chrome of edited and broken data (python3 not found)"
    exit $status
fi
# Text uftrace prints raw inside JSON strings: a command line with a '"',
# a '\' and a tab (plain with its info edited; uftrace's JSON is then
# broken) is escaped; the rest is plain's reference.
M=$T/quote
if cp -rL "$D/plain/uftrace.data" "$M" && chmod -R u+w "$M" &&
    printf 's|^cmdline:.*|cmdline:uftrace record ./p"r\\\\og\t|\n' > "$T/quote.sed" && sed -i -f "$T/quote.sed" "$M/info" &&
    touch -d "$(sed -n 's/^"recorded_time":"\(.*\)",$/\1/p' "$D/plain/ref/dump-chrome.json")" "$M/info"; then
    "$X" dump --chrome "$M" > "$T/quote.json" 2> "$T/quote.err"
    rc=$?
    grep -v '^"command_line":' "$D/plain/ref/dump-chrome.json" > "$T/plain-nocmd.json"
    if [ $rc -eq 0 ] && grep -v '^"command_line":' "$T/quote.json" | cmp -s - "$T/plain-nocmd.json" &&
        "$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(d["metadata"]["command_line"] != "uftrace record ./p\"r\\og\t")' "$T/quote.json"; then
        pass "uftrace dump --chrome: a command line with '\"', '\\' and a tab stays JSON (escaped), the rest as uftrace"
    else
        fail "uftrace dump --chrome: a command line with '\"', '\\' and a tab stays JSON (exit $rc; $T/quote.json)" "$T/quote.err"
    fi
else
    fail "uftrace dump --chrome: a command line with '\"' (cannot make the copy $M)"
fi

# Broken data: a <tid>.dat cut inside a record (plain: its only task;
# forkexec: each of its two, arguments in them), or no data at all (plain's
# only <tid>.dat empty). uftrace 0.13 takes a cut file's end as the task's
# end and prints no error, and prints nothing without data; tracedec
# reports both on stderr (exit status 1) and still closes the JSON.
for cut in plain:2702:500 plain:2702:8 plain:2702:0 forkexec:3010:300 forkexec:3012:100; do
    s=${cut%%:*}
    rest=${cut#*:}
    tid=${rest%:*}
    size=${rest#*:}
    M=$T/cut-$s-$size
    cp -rL "$D/$s/uftrace.data" "$M" && chmod -R u+w "$M" && truncate -s "$size" "$M/$tid.dat"
    for v in chrome flame-graph graphviz; do
        "$X" dump --$v "$M" > "$T/cut-$s-$size.$v" 2> "$T/cut-$s-$size.$v.err"
        rc=$?
        if [ $rc -eq 1 ] && grep -q "tracedec: error: " "$T/cut-$s-$size.$v.err" &&
            { [ $v != chrome ] || json_ok "$T/cut-$s-$size.$v"; }; then
            pass "uftrace dump --$v: $s with $tid.dat cut to $size bytes: an error on stderr, JSON closed"
        else
            fail "uftrace dump --$v: $s with $tid.dat cut to $size bytes: an error on stderr, JSON closed (exit $rc)" "$T/cut-$s-$size.$v.err"
        fi
    done
done
exit $status
