#!/bin/sh
# Golden tests of `tracedec events` and `tracedec queries` on libipt's ptt
# vectors (tests/data/ipt/NAME/: the trace, and evt.txt / qry.txt, libipt
# master's event- and query-decoder transcripts of it; INDEX.tsv column 9
# has the decoder options, column 5 the CPUs the test is for):
#  - events == evt.txt, ignoring the offset column of the event lines (the
#    offset libipt's read-ahead reports is an implementation detail);
#  - queries == qry.txt, byte for byte;
#  - a CLI reading 1-byte and 5-byte chunks prints the same as the normal
#    one (every vector, both commands, text and --json);
#  - --json: every line is a JSON object and there is one per text line.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-ipt-evq
D=tests/data/ipt
TAB=$(printf '\t')

pass() { echo "PASS ipt-evq $*"; }
fail() { echo "FAIL ipt-evq $*"; }

# opts EVTQRY_OPTS CPUS: the decoder options ("-": none) and the first CPU
# (the expectations were made with its errata; every listed CPU gives the same).
opts() {
    o=$1
    [ "$o" = "-" ] && o=""
    [ "$2" != "-" ] && o="$o --cpu ${2%%,*}"
    echo "$o"
}

no_offset() { sed -E 's/^[0-9a-f]{8} //' "$1"; }

n=0 n_evt=0 n_qry=0
while IFS="$TAB" read -r name _ _ _ cpus _ _ _ eo _; do
    [ "$name" = name ] && continue
    f=$D/$name/$name.pt
    o=$(opts "$eo" "$cpus")
    n=$((n + 1))
    # shellcheck disable=SC2086
    $X events $o "$f" > "$T/$name.evt" 2> "$T/$name.evt.err"
    no_offset "$D/$name/evt.txt" > "$T/$name.evt.exp"
    if no_offset "$T/$name.evt" | cmp -s - "$T/$name.evt.exp"; then
        n_evt=$((n_evt + 1))
    else
        fail "events $name == evt.txt: $(no_offset "$T/$name.evt" | diff "$T/$name.evt.exp" - | head -4 | tr '\n' ' ')"
    fi
    # shellcheck disable=SC2086
    $X queries $o "$f" > "$T/$name.qry" 2> "$T/$name.qry.err"
    if cmp -s "$T/$name.qry" "$D/$name/qry.txt"; then
        n_qry=$((n_qry + 1))
    else
        fail "queries $name == qry.txt: $(diff "$D/$name/qry.txt" "$T/$name.qry" | head -4 | tr '\n' ' ')"
    fi
done < "$D/INDEX.tsv"
[ "$n_evt" -eq "$n" ] && pass "events == evt.txt on all $n vectors (offset column ignored)"
[ "$n_qry" -eq "$n" ] && pass "queries == qry.txt on all $n vectors"
[ "$n" -ge 170 ] || fail "only $n vectors in $D/INDEX.tsv"

# Chunk invariance: CLIs reading 1 and 5 bytes at a time.
for c in 1 5; do
    if [ ! -x "build/cli/tracedec-chunk$c" ]; then
        fail "build/cli/tracedec-chunk$c is not built (make it first)"
        continue
    fi
    bad=""
    while IFS="$TAB" read -r name _ _ _ cpus _ _ _ eo _; do
        [ "$name" = name ] && continue
        o=$(opts "$eo" "$cpus")
        for cmd in events queries; do
            for j in "" --json; do
                # shellcheck disable=SC2086
                "build/cli/tracedec-chunk$c" $cmd $j $o "$D/$name/$name.pt" > "$T/c.out" 2>&1
                # shellcheck disable=SC2086
                $X $cmd $j $o "$D/$name/$name.pt" > "$T/w.out" 2>&1
                cmp -s "$T/c.out" "$T/w.out" || bad="$bad $cmd$j:$name"
            done
        done
    done < "$D/INDEX.tsv"
    if [ -z "$bad" ]; then
        pass "a CLI reading $c-byte chunks prints what the 64 KiB one does (every vector, events and queries, text and --json)"
    else
        fail "$c-byte chunks differ:$(echo "$bad" | cut -c1-300)"
    fi
done

# --json: one object per line, as many as text lines.
bad=""
while IFS="$TAB" read -r name _ _ _ cpus _ _ _ eo _; do
    [ "$name" = name ] && continue
    o=$(opts "$eo" "$cpus")
    for cmd in events queries; do
        # shellcheck disable=SC2086
        $X $cmd --json $o "$D/$name/$name.pt" > "$T/j.out"
        # shellcheck disable=SC2086
        $X $cmd $o "$D/$name/$name.pt" > "$T/t.out"
        [ "$(wc -l < "$T/j.out")" -eq "$(wc -l < "$T/t.out")" ] || bad="$bad $cmd:$name(lines)"
        grep -qv '^{"kind":"[a-z]*".*}$' "$T/j.out" && bad="$bad $cmd:$name(shape)"
    done
done < "$D/INDEX.tsv"
if command -v python3 > /dev/null; then
    # shellcheck disable=SC2016
    if find "$D" -name '*.pt' | head -200 | while read -r f; do $X events --json "$f"; $X queries --json "$f"; done |
        python3 -c 'import json,sys
n=0
for l in sys.stdin:
    json.loads(l); n+=1
print(n)' > "$T/json.count" 2> "$T/json.err"; then
        pass "--json parses as JSON ($(cat "$T/json.count") objects)"
    else
        fail "--json does not parse: $(head -c 300 "$T/json.err")"
    fi
else
    echo "SKIP ipt-evq --json parse check: python3 not found"
    [ -n "$TDEC_REQUIRE_TOOLS" ] && fail "python3 required (TDEC_REQUIRE_TOOLS)"
fi
if [ -z "$bad" ]; then
    pass "--json: one object per text line, every vector and both commands"
else
    fail "--json:$(echo "$bad" | cut -c1-300)"
fi
