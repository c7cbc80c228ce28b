#!/bin/sh
# Runs each example (build/examples/NAME, made by `make examples`) on a
# bundled sample and checks it against two witnesses:
#  - its lines equal the reference tool's output for that file (llvm-xray
#    convert, uftrace dump, ovnidump, ptdump; xtrace has no reference tool:
#    the CLI's text of the capture build/gen/xtrace_gen writes, whose
#    instruction count the generator states);
#  - its count of records equals what `build/tracedec dump --json` reports;
#  - on the file cut after 101 bytes it exits 1 naming the byte offset the
#    CLI names for the same cut.
# One line per example: "PASS examples NAME" or "FAIL examples NAME: why".
cd "$(dirname "$0")/../.." || exit 2
T=build/examples-run
X=build/tracedec
E=build/examples
rm -rf "$T"
mkdir -p "$T"
status=0

# verdict NAME: PASS when nothing went wrong ($why empty).
verdict() {
    if [ -z "$why" ]; then
        echo "PASS examples $1"
    else
        echo "FAIL examples $1:$why"
        status=1
    fi
}

# run NAME FILE: the example's lines in $T/NAME.lines, the count on its last
# line in $count.
run() {
    why="" count=""
    if [ ! -x "$E/$1" ] || [ ! -x "$X" ]; then
        why=" $E/$1 or $X is not built (make examples build/tracedec)"
        return 1
    fi
    "$E/$1" "$2" > "$T/$1.out" 2> "$T/$1.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        why=" exit status $rc on $2: $(head -c 200 "$T/$1.err")"
        return 1
    fi
    count=$(tail -n 1 "$T/$1.out" | cut -d' ' -f1)
    sed '$d' "$T/$1.out" > "$T/$1.lines"
}

# same WHAT EXPECTED ACTUAL: the two files are equal, and not empty.
same() {
    if [ ! -s "$2" ]; then
        why="$why no $1 to compare;"
    elif ! cmp -s "$2" "$3"; then
        why="$why $1 differ ($(diff "$2" "$3" | sed -n 2p | cut -c1-120));"
    fi
}

# expect_count N: the example counted N records.
expect_count() {
    [ "$count" = "$1" ] || why="$why it counts $count, tracedec dump --json $1;"
}

# truncated NAME CUT: the example on CUT (a sample's first 101 bytes) exits
# 1 and names the offset the CLI named for it in $T/cli.cut.
truncated() {
    "$E/$1" "$2" > /dev/null 2> "$T/$1.cut.err"
    rc=$?
    got=$(sed -n -E 's/.*: offset ([0-9]+): .*/\1/p' "$T/$1.cut.err")
    want=$(sed -n -E 's/.*offset"?:? ?([0-9]+)[:,].*/\1/p' "$T/cli.cut" | head -n 1)
    if [ $rc -ne 1 ] || [ -z "$want" ] || [ "$got" != "$want" ]; then
        why="$why cut after 101 bytes: exit $rc, offset '$got', tracedec: '$want';"
    fi
}

# XRay: function records as llvm-xray convert lists them (one thread: the file's order).
D=tests/data/xray/fdr-calls
if run xray $D/fdr-calls.xray; then
    expect_count "$($X dump --json $D/fdr-calls.xray | grep -vc '"kind":"gap"')"
    sed -n -E 's/.*func-id: ([0-9]+),.* thread: ([0-9]+),.* kind: function-([a-z-]+), tsc: ([0-9]+),.*/tid \2 fid \1 \3 tsc \4/p' \
        $D/ref.yaml > "$T/xray.ref"
    same "function records and llvm-xray convert's" "$T/xray.ref" "$T/xray.lines"
    head -c 101 $D/fdr-calls.xray > "$T/cut.xray"
    $X dump "$T/cut.xray" > /dev/null 2> "$T/cli.cut"
    truncated xray "$T/cut.xray"
fi
verdict "xray (fdr-calls: every function record as llvm-xray convert lists it, record count, cut file)"

# uftrace: one <tid>.dat, every record as uftrace dump prints it.
D=tests/data/uftrace/plain
if run uftrace $D/uftrace.data/2702.dat; then
    expect_count "$($X dump --json $D/uftrace.data | grep -c '"file":"2702.dat"')"
    sed -n '/^reading 2702.dat$/,/^$/p' $D/ref/dump.txt | sed -n -E \
        's/^([0-9.]+) +[0-9]+: \[(entry|exit|lost|event) *\] [^(]*\(([0-9a-f]+)\) depth: ([0-9]+)$/\1 \2 \3 depth \4/p' \
        > "$T/uftrace.ref"
    same "records and uftrace dump's" "$T/uftrace.ref" "$T/uftrace.lines"
    cp -r $D/uftrace.data "$T/uftrace.data"
    head -c 101 $D/uftrace.data/2702.dat > "$T/uftrace.data/2702.dat"
    $X dump "$T/uftrace.data" > /dev/null 2> "$T/cli.cut"
    truncated uftrace "$T/uftrace.data/2702.dat"
fi
verdict "uftrace (plain/2702.dat: every record as uftrace dump prints it, record count, cut file)"

# ovni: a trace of one stream, so ovnidump's merge is the file's order.
D=tests/data/ovni/s02-payload-sizes
S=$(cd $D/ovni && find . -name stream.obs | sed "s,^\./,,")
if run ovni $D/ovni/$S; then
    expect_count "$($X dump --json $D/ovni 2> /dev/null | grep -c '"type":"event"')"
    sed -E 's/^ *(-?[0-9]+)  (...)  [^ ]+  /\1 \2 /' $D/ovnidump.txt > "$T/ovni.ref"
    same "events and ovnidump's" "$T/ovni.ref" "$T/ovni.lines"
    cp -r $D/ovni "$T/ovni"
    head -c 101 $D/ovni/$S > "$T/ovni/$S"
    $X dump "$T/ovni" > /dev/null 2> "$T/cli.cut"
    truncated ovni "$T/ovni/$S"
fi
verdict "ovni (s02-payload-sizes: every event as ovnidump prints it, event count, cut file)"

# xtrace: the generator's capture; instructions as the CLI prints them.
why=""
if ! build/gen/xtrace_gen "$T" > "$T/xtrace.info" 2>&1; then
    why=" build/gen/xtrace_gen did not write the capture"
elif F=$T/xtrace.1700000000.4242.hint9.xinsndata.bin && run xtrace $F; then
    expect_count "$($X dump --json $F | wc -l | tr -d ' ')"
    n=$(grep -c '^#' "$T/xtrace.lines")
    grep -q "^  instructions: $n " "$T/xtrace.info" || why="$why $n instructions, the generator wrote another number;"
    $X dump $F | grep '^#' | sed 's/ (PCINST)$//' > "$T/xtrace.ref"
    grep '^#' "$T/xtrace.lines" > "$T/xtrace.insn"
    same "instructions and tracedec dump's" "$T/xtrace.ref" "$T/xtrace.insn"
    head -c 101 $F > "$T/cut.bin"
    $X dump --format=xtrace "$T/cut.bin" > /dev/null 2> "$T/cli.cut"
    truncated xtrace "$T/cut.bin"
fi
verdict "xtrace (the generator's stream: instruction count, every instruction line, record count, cut file)"

# Intel PT: offset and packet as ptdump prints them.
D=tests/data/ipt/ptet
if run ipt $D/ptet.pt; then
    expect_count "$($X dump --json $D/ptet.pt | grep -vc '"kind":"gap"')"
    awk '{ print $1 "  " $2 }' $D/ptet-ptdump.exp > "$T/ipt.ref"
    same "packets and ptdump's" "$T/ipt.ref" "$T/ipt.lines"
    head -c 101 $D/ptet.pt > "$T/cut.pt"
    $X dump --json "$T/cut.pt" | grep '"kind":"error"' > "$T/cli.cut"
    truncated ipt "$T/cut.pt"
fi
verdict "ipt (ptet: every packet's offset and name as ptdump prints them, packet count, cut file)"

exit $status
