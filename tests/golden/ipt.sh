#!/bin/sh
# Golden tests of tracedec on Intel PT: libipt's ptt vectors (tests/data/ipt,
# from libipt master 8978561f: each test's trace, pttc's expected ptdump
# output, and ptdump's own run with the test's options plus --raw --lastip
# --exec-mode; INDEX.tsv has the options and the CPUs each test is for):
#  - dump OPTIONS == NAME-ptdump.exp, compared as libipt's test.bash does
#    (diff -b: pttc writes the expectations with its own spacing; the PASS
#    line says whether they are also byte-identical);
#  - dump OPTIONS --raw --lastip --exec-mode == ptdump-raw.txt byte for
#    byte, once per CPU the test lists (the errata of each);
#  - the same without --raw == ptdump-raw.txt without its raw column;
#  - a CLI built with 7-byte read chunks prints the same as with 64 KiB;
#  - FILE:FROM[-TO] ranges, --no-pad/--no-timing/--no-cyc/--no-offset/
#    --quiet, detection, ptdump's error messages and exit statuses;
#  - dump --json (tests/golden/ipt_json.py, needs python3) and info.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-ipt
D=tests/data/ipt

pass() { echo "PASS ipt $*"; }
fail() { echo "FAIL ipt $*"; }
TAB=$(printf '\t')

# opts OPTIONS CPUS: the vector's ptdump options ("-": none) and its first CPU.
opts() {
    o=$1
    [ "$o" = "-" ] && o=""
    [ "$2" != "-" ] && o="$o --cpu ${2%%,*}"
    echo "$o"
}

# without_raw FILE NO_OFFSET: ptdump --raw output without its raw column
# (33 characters and a space, after the offset column unless --no-offset).
without_raw() {
    if [ "$2" = 1 ]; then
        awk '/^\[/ { print; next } { print substr($0, 35) }' "$1"
    else
        awk '/^\[/ { print; next } { print substr($0, 1, 18) substr($0, 53) }' "$1"
    fi
}

n_exp=0 n_byte=0
while IFS="$TAB" read -r name _ _ _ cpus _ popts _; do
    [ "$name" = name ] && continue
    f=$D/$name/$name.pt
    o=$(opts "$popts" "$cpus")
    # 1. pttc's expectation, as libipt's test compares it
    $X dump $o "$f" > "$T/$name.out" 2> "$T/$name.err"
    rc=$?
    n_exp=$((n_exp + 1))
    if [ $rc -ne 0 ]; then
        fail "dump $name (exit $rc: $(head -c 200 "$T/$name.err"))"
    elif cmp -s "$T/$name.out" "$D/$name/$name-ptdump.exp"; then
        n_byte=$((n_byte + 1))
        pass "dump $name == $name-ptdump.exp (byte-identical)"
    elif diff -b "$D/$name/$name-ptdump.exp" "$T/$name.out" > /dev/null; then
        pass "dump $name == $name-ptdump.exp (up to pttc's spacing, as libipt's diff -b)"
    else
        fail "dump $name (diff -b $D/$name/$name-ptdump.exp $T/$name.out)"
    fi
    # 2. ptdump's own output with --raw --lastip --exec-mode, for every CPU
    bad=""
    for cpu in $(echo "$cpus" | tr ',' ' '); do
        o2=$(opts "$popts" "$cpu")
        $X dump $o2 --raw --lastip --exec-mode "$f" > "$T/$name.raw" 2> /dev/null
        cmp -s "$T/$name.raw" "$D/$name/ptdump-raw.txt" || bad="$bad $cpu"
    done
    if [ -z "$bad" ]; then
        pass "dump --raw --lastip --exec-mode $name == ptdump-raw.txt (cpu: $cpus)"
    else
        fail "dump --raw --lastip --exec-mode $name (cpu:$bad; diff $D/$name/ptdump-raw.txt $T/$name.raw)"
    fi
    # 3. the columns without --raw
    case " $popts " in *" --no-offset "*) nooff=1 ;; *) nooff=0 ;; esac
    case " $popts " in
    *" --raw "*) pass "dump --lastip --exec-mode $name: --raw is in the test's options, covered above" ;;
    *)
        without_raw "$D/$name/ptdump-raw.txt" $nooff > "$T/$name.noraw.want"
        $X dump $o --lastip --exec-mode "$f" > "$T/$name.noraw" 2> /dev/null
        if cmp -s "$T/$name.noraw.want" "$T/$name.noraw"; then
            pass "dump --lastip --exec-mode $name == ptdump-raw.txt without the raw column"
        else
            fail "dump --lastip --exec-mode $name (diff $T/$name.noraw.want $T/$name.noraw)"
        fi
        ;;
    esac
done < "$D/INDEX.tsv"
echo "($n_byte of $n_exp .exp files byte-identical, the others differ from ptdump only in pttc's spacing)"

# 4. chunk invariance of the CLI: a build reading 7 bytes at a time
cat "$D"/*/*.pt "$D"/*/*.pt > "$T/all.pt" # every vector, errors and resyncs included
X7=build/cli/tracedec-chunk7 # make builds it
if [ -x "$X7" ]; then
    bad=""
    for f in "$T/all.pt" "$D"/*/*.pt; do
        for o in "" "--raw --lastip --exec-mode" "--json" "--no-sync --raw" \
            "--time --time-delta --mtc-freq 4 --cpuid-0x15.eax 1 --cpuid-0x15.ebx 4 --raw" "--cpu 6/78 --raw"; do
            $X dump $o "$f" > "$T/c64.out" 2>&1
            "$X7" dump $o "$f" > "$T/c7.out" 2>&1
            cmp -s "$T/c64.out" "$T/c7.out" || bad="$bad $(basename "$f")[$o]"
        done
    done
    if [ -z "$bad" ]; then
        pass "a CLI reading 7-byte chunks prints what the 64 KiB one does (every vector, 6 option sets)"
    else
        fail "7-byte chunks differ:$bad"
    fi
    # --raw bytes across chunk boundaries: each line's bytes are the file's
    "$X7" dump --raw "$T/all.pt" > "$T/all.raw"
    if od -An -v -tx1 "$T/all.pt" | tr -d ' \n' > "$T/all.hex" &&
        awk -v hex="$(cat "$T/all.hex")" '
            function h2d(s,  i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
            /^\[/ { next }
            { off = h2d(substr($0, 1, 16)); raw = $2; if (substr(hex, 2 * off + 1, length(raw)) != raw) bad++; n++ }
            END { exit !(n > 0 && bad == 0) }' "$T/all.raw"; then
        pass "--raw bytes are the trace's bytes at each offset ($(grep -vc '^\[' "$T/all.raw") packets, 7-byte chunks)"
    else
        fail "--raw bytes differ from the trace's ($T/all.raw)"
    fi
else
    fail "$X7 is not built (make it first)"
fi

# 5. FILE:FROM[-TO]: ptdump loads that range; offsets start at FROM.
all=$D/dump-all-packets/dump-all-packets.pt
r=$D/ptdump-bad_opc-resync/ptdump-bad_opc-resync.pt
# range NAME OPTIONS SPEC SKIP COUNT [FILE]: == the same dump of those bytes cut out.
range() {
    tail -c +$(($4 + 1)) "${6:-$all}" | head -c "$5" > "$T/cut.pt"
    $X dump $2 --raw "$T/cut.pt" > "$T/cut.want" 2>&1
    $X dump $2 --raw "${6:-$all}:$3" > "$T/cut.got" 2>&1
    if [ -s "$T/cut.want" ] && cmp -s "$T/cut.want" "$T/cut.got"; then
        pass "range $1: dump $2 FILE:$3 == dump of those bytes"
    else
        fail "range $1 (diff $T/cut.want $T/cut.got)"
    fi
}
range "from-to, hex" --no-sync 0x2-0x63 2 97
range "from-to, decimal" --no-sync 2-99 2 97
range "from only" --no-sync 0x13 19 1000
range "inside a PSB, synchronising" "" 0x9-0x31 9 40 "$r"
range "ending inside a packet" --no-sync 0x2-0x20 2 30
cp "$all" "$T/named:0x10"
$X dump --no-sync "$T/named:0x10" > "$T/named.out" 2>&1
$X dump --no-sync "$all" > "$T/full.out" 2>&1
if cmp -s "$T/named.out" "$T/full.out"; then
    pass "a file whose name looks like FILE:FROM is read whole"
else
    fail "FILE:FROM when that very file exists (diff $T/full.out $T/named.out)"
fi

# 6. the display switches, against the full dump
full=$T/full.out
filter() {
    $X dump --no-sync $2 "$all" > "$T/filter.got" 2>&1
    if cmp -s "$T/filter.want" "$T/filter.got"; then pass "$1"; else fail "$1 (diff $T/filter.want $T/filter.got)"; fi
}
grep -v '  pad$' "$full" > "$T/filter.want"
filter "--no-pad drops the pad lines" --no-pad
grep -v -E '  (tsc|cbr|tma|mtc|cyc) ' "$full" > "$T/filter.want"
filter "--no-timing drops tsc, cbr, tma, mtc and cyc" --no-timing
grep -v '  cyc ' "$full" > "$T/filter.want"
filter "--no-cyc drops cyc" --no-cyc
cut -c19- "$full" > "$T/filter.want"
filter "--no-offset drops the offset column" --no-offset
printf '[17: error decoding packet: unknown opcode]\n' > "$T/filter.want"
$X dump --quiet --raw --lastip "$r" > "$T/filter.got" 2>&1
if cmp -s "$T/filter.want" "$T/filter.got"; then pass "--quiet prints the diagnostics only"; else fail "--quiet (diff $T/filter.want $T/filter.got)"; fi

# 7. detection
cp "$r" "$T/no-psb-first.bin"
$X dump --raw --lastip --exec-mode "$T/no-psb-first.bin" > "$T/det.out" 2>&1
if cmp -s "$T/det.out" "$D/ptdump-bad_opc-resync/ptdump-raw.txt"; then
    pass "a trace with bytes before its first PSB is recognised (any name)"
else
    fail "detection of $T/no-psb-first.bin (diff $D/ptdump-bad_opc-resync/ptdump-raw.txt $T/det.out)"
fi
head -c 64 /dev/zero > "$T/zeros.bin"
$X dump "$T/zeros.bin" > "$T/det.out" 2> "$T/det.err"
rc1=$?
$X dump --format=ipt "$T/zeros.bin" > "$T/det2.out" 2> "$T/det2.err"
rc2=$?
if [ $rc1 = 2 ] && [ $rc2 = 0 ] && [ ! -s "$T/det2.out" ] && [ ! -s "$T/det2.err" ]; then
    pass "no PSB: not recognised; with --format=ipt nothing to print, exit 0 (as ptdump)"
else
    fail "no-PSB file: exit $rc1 / $rc2, $(cat "$T/det.err" "$T/det2.out" "$T/det2.err")"
fi

# a bad TMA (reserved bits) with 7 bytes left: libipt's erratum SKZ84 path
# makes it an 8-byte <invalid> anyway (outputs of ptdump from libipt master)
printf '\002\202\002\202\002\202\002\202\002\202\002\202\002\202\002\202\002\043\002\163\001\001\001\001\000' \
    > "$T/skz84-tail.pt"
skz() {
    printf '%s\n' "$@" > "$T/skz.want"
    $X dump $o "$T/skz84-tail.pt" > "$T/skz.got" 2>&1
    if cmp -s "$T/skz.want" "$T/skz.got"; then pass "bad TMA at the end, $o: as ptdump"; else fail "bad TMA at the end, $o (diff $T/skz.want $T/skz.got)"; fi
}
o="--cpu 6/85"
skz "0000000000000000  psb" "0000000000000010  psbend" "0000000000000012  <invalid>"
o="--cpu 6/85 --raw"
skz "0000000000000000  02820282028202820282028202820282  psb" \
    "0000000000000010  0223                              psbend" "[12: bad packet size: unknown packet]"
o="--cpu none"
skz "0000000000000000  psb" "0000000000000010  psbend" "[12: error decoding packet: unknown packet]"

# 8. ptdump's messages and exit statuses (ptdump.c: load_file, process_args)
# err NAME STATUS STDERR STDOUT CMD...
err() {
    name=$1 want_rc=$2 want_err=$3 want_out=$4
    shift 4
    "$@" > "$T/e.out" 2> "$T/e.err"
    rc=$?
    if [ $rc = "$want_rc" ] && [ "$(cat "$T/e.err")" = "$want_err" ] && [ "$(cat "$T/e.out")" = "$want_out" ]; then
        pass "error: $name"
    else
        fail "error: $name (exit $rc, stderr: $(cat "$T/e.err"), stdout: $(head -c 200 "$T/e.out"))"
    fi
}
: > "$T/empty.pt"
err "missing file" 1 "tracedec: failed to open $T/none.pt: 2." "" $X dump "$T/none.pt"
err "missing file, --format=ipt" 1 "tracedec: failed to open $T/none: 2." "" $X dump --format=ipt "$T/none"
err "unknown cpu, then a missing file" 1 "tracedec: failed to open $T/none.pt: 2." \
    "[0: failed to determine errata: unknown cpu]" $X dump --cpu 0/0 "$T/none.pt"
err "range end before its start" 2 "tracedec: bad file $all:0x30-0x10: invalid argument." "" $X dump "$all:0x30-0x10"
err "offset past the end" 1 "tracedec: bad offset 0x13a into $all." "" $X dump "$all:0x13a"
err "range past the end" 1 "tracedec: bad range 0x1000 in $all." "" $X dump "$all:0x10-0x1000"
err "empty trace" 1 "tracedec: bad offset 0x0 into $T/empty.pt." "" $X dump "$T/empty.pt"
err "--cpu f only" 1 "tracedec: cpu must be specified as f/m[/s]" "" $X dump --cpu 6 "$all"
err "--cpu without a value" 1 "tracedec: --cpu: missing argument." "" $X dump --cpu
err "--mtc-freq 256" 1 "tracedec: --mtc-freq: value too big: 256." "" $X dump --mtc-freq 256 "$all"
err "--nom-freq x" 1 "tracedec: --nom-freq: bad argument: x." "" $X dump --nom-freq x "$all"
err "--cpuid-0x15.eax followed by an option" 1 "tracedec: --cpuid-0x15.eax: missing argument." "" \
    $X dump --cpuid-0x15.eax --raw "$all"
err "--cpuid-0x15.ebx 2^32" 1 "tracedec: --cpuid-0x15.ebx: value too big: 4294967296." "" \
    $X dump --cpuid-0x15.ebx 4294967296 "$all"
err "--time with --tcal" 1 "tracedec: specify either --time or --tcal." "" $X dump --time --tcal "$all"
$X dump "$r" > "$T/strict.want" 2> /dev/null
$X dump --strict "$r" > "$T/strict.out" 2> "$T/strict.err"
rc=$?
if [ $rc = 1 ] && cmp -s "$T/strict.want" "$T/strict.out" && grep -q 'decoding errors' "$T/strict.err"; then
    pass "--strict: the same output, exit 1 after a decoding error (ptdump: 0)"
else
    fail "--strict (exit $rc: $(cat "$T/strict.err"))"
fi

# 9. info
printf '%s\n' "format:          intel pt" "bytes:           49" "psbs:            2" "packets:         4" \
    "  psb: 2" "  psbend: 1" "  fup: 1" "gaps:            2 (8 bytes)" "errors:          1" > "$T/info.want"
$X info "$r" > "$T/info.out" 2>&1
if cmp -s "$T/info.want" "$T/info.out"; then pass "info ptdump-bad_opc-resync"; else fail "info (diff $T/info.want $T/info.out)"; fi
$X info --no-sync "$all" | sed -n 's/^  \([^:]*\): \([0-9]*\)$/\1 \2/p' | sort > "$T/info.kinds"
awk '!/^\[/ { print $2 }' "$full" | sort | uniq -c | awk '{ print $2, $1 }' | sort > "$T/info.lines"
if [ -s "$T/info.kinds" ] && cmp -s "$T/info.kinds" "$T/info.lines"; then
    pass "info: packets by kind == lines by opcode of the dump (dump-all-packets)"
else
    fail "info counts (diff $T/info.lines $T/info.kinds)"
fi

# 10. --json, rendered back into ptdump's lines and compared with the text dump
if command -v python3 > /dev/null 2>&1; then
    mkdir -p "$T/json"
    set --
    while IFS="$TAB" read -r name _ _ _ cpus _ popts _; do
        [ "$name" = name ] && continue
        o=""
        case " $popts " in *" --no-sync "*) o="--no-sync" ;; esac
        [ "$cpus" != "-" ] && o="$o --cpu ${cpus%%,*}"
        f=$D/$name/$name.pt
        $X dump $o --json "$f" > "$T/json/$name.json" 2> /dev/null
        $X dump $o --raw --lastip --exec-mode "$f" > "$T/json/$name.txt" 2> /dev/null
        set -- "$@" "$T/json/$name.json" "$T/json/$name.txt" "$f"
    done < "$D/INDEX.tsv"
    $X dump --json "$T/all.pt" > "$T/json/all.json" 2> /dev/null
    $X dump --raw --lastip --exec-mode "$T/all.pt" > "$T/json/all.txt" 2> /dev/null
    set -- "$@" "$T/json/all.json" "$T/json/all.txt" "$T/all.pt"
    if python3 tests/golden/ipt_json.py "$@" > "$T/json.log" 2>&1; then
        pass "dump --json agrees with the text dump on all $(($# / 3 - 1)) vectors and their concatenation ($(tail -n 1 "$T/json.log" | sed 's/.*: //'), resyncs)"
    else
        fail "dump --json: $(grep -v '^ok ' "$T/json.log" | head -c 600)"
    fi
else
    echo "SKIP ipt dump --json checks (python3 not found)"
fi
exit 0
