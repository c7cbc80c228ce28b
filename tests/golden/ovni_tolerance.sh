#!/bin/sh
# Tolerance tests of the ovni front end: one block per row of the tolerance
# table below (plus a few cheap extra
# rows). Each block copies tests/data/ovni/s01-minimal/ovni under
# build/tolerance-ovni/ROW/, makes one change, runs tracedec and checks its
# exit status, its exact stdout (derived from s01's ovnidump.txt /
# ovnidump-x.txt / ovnitop.txt, adjusted for the change) and its exact stderr
# (stream file path and byte offset included).
#
# s01's stream.obs (72 bytes): header "ovni" + u32 1 (offset 0), OHx with a
# 16-byte payload (offset 8, 28 bytes), OB. (36), OB. (48), OHe (60).
#
# Tolerance table (ovni = what ovnidump/ovnitop 1.14.0 do, run on each case;
# tracedec = what this script pins down). "ok" = exit 0, every event printed.
#
# row                         | ovni 1.14                          | tracedec
# ----------------------------+------------------------------------+------------------------------------------
# .obs of 0 bytes             | reject, exit 1                     | reject, exit 1, nothing printed; "offset 0: FILE: input ends inside the 8-byte stream header"
# .obs of 4 bytes             | reject ("incomplete stream header")| same as 0 bytes
# magic "ovnx"                | reject ("wrong stream magic")      | reject, exit 1, offset 0, "wrong stream magic"
# header version 2            | reject ("version mismatch 2")      | reject, exit 1, offset 0, "stream version is not 1"
# big-endian stream           | reject (version reads 16777216)    | decoded as big-endian (clocks, payload fields, jumbo lengths) with a stderr note: same text as the little-endian trace; `info` says big_endian
# header only, no events      | ok, warning "zero events"          | ok, nothing printed, warning "FILE: stream has zero events"
# last event cut short        | complete events printed, exit 1    | same; "offset N: FILE: stream ends with an incomplete event" (N = start of the cut event)
# 1 or 5 garbage bytes at end | all events printed, exit 1         | same, offset 72
# jumbo length beyond EOF     | earlier events printed, exit 1     | same, offset of the jumbo event
# reserved flag bits 0xe0     | ok, ignored                        | ok, ignored
# jumbo flag, low nibble 0/f  | ok, nibble ignored                 | ok, nibble ignored
# size code 1 (2-byte payload)| ok                                 | ok (-x shows the 2 bytes)
# OHx with no payload         | ovnidump crashes (SIGSEGV); -x ok  | ok: UNKNOWN + warning "offset 8: FILE: OHx: payload too short ..."; --hex ok
# OHx with a 4-byte payload   | prints garbage from the next event | ok: UNKNOWN + the same warning; --hex prints the 4 bytes
# jumbo 6Yc label without NUL | reads past the blob to a NUL       | ok: the label ends at the blob end
# 6Yc as a normal event       | fields at payload offsets 4 and 8  | same offsets; the label ends at a NUL or at the payload end
# clock backwards in a stream | ok, "backwards jump in time"       | ok, warning "offset N: FILE: backwards jump in time A -> B in stream 'S'"; --strict: exit 1 "clock goes backwards" at N, events before printed
# equal clocks in a stream    | ok                                 | ok (also with --strict)
# clock with bit 63 set       | ok, negative clock printed         | ok, negative clock printed (dump and info); --strict: exit 1, "clock goes backwards" at offset 8 (as ovniemu)
# M/C/V bytes 00 01 7f        | ok, raw bytes, UNKNOWN             | ok, raw bytes, UNKNOWN, note counting UNKNOWN events
# unknown model / unknown MCV | ok, UNKNOWN + one error per event  | ok, UNKNOWN + one note with the count
# stream.json missing         | stream silently skipped            | stream skipped with a warning naming its stream.obs (exit 0)
# loom.L/proc.P, no streams   | ok ("loaded 0 streams")            | ok, nothing printed, warning "DIR: no stream, only loom.* directories ..."
# stream.obs missing          | reject                             | reject, exit 1, "FILE: No such file or directory"
# JSON version 2 or missing   | reject                             | reject, exit 1, "JSONFILE: metadata version ..."
# JSON syntax error           | reject                             | reject, exit 1, "offset N: JSONFILE: JSON syntax error" (N = text offset)
# JSON with // and /* */      | ok                                 | ok
# no ovni.finished            | ok                                 | ok
# no ovni.require             | ok                                 | ok
# no ovni.loom_cpus           | ok                                 | ok
# ovni.part not "thread"      | ok                                 | ok
# no ovni.tid                 | ok                                 | ok
# stream dir at any depth/name| ok, path printed as found          | ok, path printed as found (empty for a stream dir given directly)
# 2nd stream 2 h later        | ok                                 | ok, merged by clock
# .obs not writable           | reject ("Permission denied")       | ok (opened read-only)
# extra: top on a cut stream  | partial table, exit 1              | same
# extra: dump --json          | -                                  | one stream line + one line per event
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir tolerance-ovni
S01=tests/data/ovni/s01-minimal
REL=loom.node0/proc.4311/thread.4311

pass() { echo "PASS ovni tolerance $*"; }
fail() { echo "FAIL ovni tolerance $*"; }

if [ ! -x "$X" ]; then
    fail "setup ($X is not built: make build/tracedec)"
    exit 0
fi

# ---- bytes -------------------------------------------------------------------

# bytes HEX...: writes the bytes given as hex pairs (dash's printf has no \x).
bytes() {
    _f=
    for _h in "$@"; do
        _v=$((0x$_h))
        _f="$_f\\$((_v >> 6))$(((_v >> 3) & 7))$((_v & 7))"
    done
    printf "$_f"
}

_hexdigit() {
    case $1 in
    10) _d=a ;; 11) _d=b ;; 12) _d=c ;; 13) _d=d ;; 14) _d=e ;; 15) _d=f ;; *) _d=$1 ;;
    esac
}

# u N VALUE: VALUE as N bytes (hex pairs) in the byte order $ENDIAN (le / be).
u() {
    _i=0 _o=
    while [ "$_i" -lt "$1" ]; do
        if [ "$ENDIAN" = be ]; then _s=$((8 * ($1 - 1 - _i))); else _s=$((8 * _i)); fi
        _b=$((($2 >> _s) & 255))
        _hexdigit $((_b >> 4))
        _o="$_o $_d"
        _hexdigit $((_b & 15))
        _o="$_o$_d"
        _i=$((_i + 1))
    done
    echo $_o
}

# MCVs as hex pairs.
M_OHX="4f 48 78" M_OB="4f 42 2e" M_OHE="4f 48 65" M_6YC="36 59 63"
CLK1=592178451020 CLK2=592178453074 CLK3=592178453174 CLK4=592178453224

# ev BYTE0 MCV CLOCK [PAYLOAD HEX...]: one event as hex pairs.
ev() {
    _b0=$1 _m=$2 _c=$3
    shift 3
    echo "$_b0" "$_m" $(u 8 "$_c") "$@"
}
hdr() { echo 6f 76 6e 69 $(u 4 1); }
# s01's four events (in $ENDIAN order).
e_ohx() { ev 0f "$M_OHX" $CLK1 $(u 4 0) $(u 4 -1) $(u 8 0); }
e_ob1() { ev 00 "$M_OB" $CLK2; }
e_ob2() { ev 00 "$M_OB" $CLK3; }
e_ohe() { ev 00 "$M_OHE" $CLK4; }

# ---- traces ------------------------------------------------------------------

# make_trace ROW: a fresh copy of s01 in $T/ROW/ovni; sets ROW DIR SD OBS JSON.
make_trace() {
    ROW=$1
    rm -rf "$T/$ROW"
    mkdir -p "$T/$ROW"
    cp -R "$S01/ovni" "$T/$ROW/ovni"
    chmod -R u+w "$T/$ROW"
    DIR=$T/$ROW/ovni
    SD=$DIR/$REL
    OBS=$SD/stream.obs
    JSON=$SD/stream.json
    ENDIAN=le
    NRUN=0
}

# obs HEX...: the row's stream.obs becomes these bytes.
obs() { bytes "$@" > "$OBS"; }

# json_drop KEY: removes member "KEY" (with its object/array value) from the
# row's stream.json, and the comma left dangling before a closing bracket.
json_drop() {
    awk -v key="\"$1\":" '
        !skip && index($0, key) { depth = gsub(/[[{]/, "&") - gsub(/[]}]/, "&"); skip = depth > 0; next }
        skip { depth += gsub(/[[{]/, "&") - gsub(/[]}]/, "&"); if (depth <= 0) skip = 0; next }
        { print }' "$JSON" |
        awk 'NR > 1 { if ($0 ~ /^[ \t]*[]}]/) sub(/,[ \t]*$/, "", prev); print prev } { prev = $0 } END { print prev }' \
            > "$JSON.new"
    mv "$JSON.new" "$JSON"
    grep -q "\"$1\"" "$JSON" && problem "json_drop $1 left the key in $JSON"
}

# ---- runs and checks -----------------------------------------------------------

# run CMD [OPTS...]: tracedec CMD OPTS $DIR (or $RUNDIR); sets OUT ERR RC.
run() {
    NRUN=$((NRUN + 1))
    OUT=$T/$ROW/run$NRUN.out
    ERR=$T/$ROW/run$NRUN.err
    echo "$X $* ${RUNDIR:-$DIR}" > "$T/$ROW/run$NRUN.cmd"
    "$X" "$@" "${RUNDIR:-$DIR}" > "$OUT" 2> "$ERR"
    RC=$?
}

# problem TEXT: records a failed check. A file, not a variable: checks at
# the end of a pipeline run in a subshell.
problem() { echo "$*" >> "$T/$ROW/problems"; }
expect_rc() { [ "$RC" = "$1" ] || problem "run$NRUN exit $RC, expected $1"; }
# expect_stdout: stdout equals the text on stdin.
expect_stdout() {
    cat > "$OUT.expected"
    cmp -s "$OUT.expected" "$OUT" || problem "run$NRUN stdout: diff $OUT.expected $OUT"
}
expect_stdout_empty() { [ -s "$OUT" ] && problem "run$NRUN stdout not empty ($OUT)"; }
# expect_stderr [LINE...]: stderr is exactly these lines (none: empty).
expect_stderr() {
    if [ $# -eq 0 ]; then : > "$ERR.expected"; else printf '%s\n' "$@" > "$ERR.expected"; fi
    cmp -s "$ERR.expected" "$ERR" ||
        problem "run$NRUN stderr is '$(tr '\n' '|' < "$ERR")', expected '$(tr '\n' '|' < "$ERR.expected")'"
}
# expect_stderr_has LINE: this exact line is in stderr.
expect_stderr_has() {
    grep -qxF -- "$1" "$ERR" || problem "run$NRUN stderr lacks '$1' (has '$(tr '\n' '|' < "$ERR")')"
}
# verdict TEXT: one PASS/FAIL line for the checks since the last verdict.
verdict() {
    if [ ! -s "$T/$ROW/problems" ]; then
        pass "$ROW: $*"
    else
        fail "$ROW: $* ($(paste -s -d ';' "$T/$ROW/problems"))"
    fi
    rm -f "$T/$ROW/problems"
}

# Expected text. ref N... / refx N... / reftop: lines of s01's references.
ref() { for _n in "$@"; do sed -n "${_n}p" "$S01/ovnidump.txt"; done; }
refx() { for _n in "$@"; do sed -n "${_n}p" "$S01/ovnidump-x.txt"; done; }
# desc N: the description of reference line N.
desc() { ref "$1" | sed "s|^.*  $REL  ||"; }
# line CLOCK MCV TEXT: an ovnidump line of stream $P (default $REL); MCV is a
# printf format (so '\000\001\177' gives raw bytes); TEXT may be empty (-x).
line() { printf "%10s  $2  %s  %s\n" "$1" "${P:-$REL}" "$3"; }

e_err() { echo "tracedec: error: offset $1: $OBS: $2"; }
CUT="stream ends with an incomplete event (input ends inside an event)"
OHX_SHORT="OHx: payload too short for the signature OHx(i32 cpu, i32 tid, u64 tag) (printed UNKNOWN)"
note_unknown() { echo "tracedec: note: $DIR: $1 events printed as UNKNOWN (no definition in ovni 1.14's models, or see the warnings)"; }

# ---- 0: the builders reproduce s01 ------------------------------------------------

make_trace builders
obs $(hdr) $(e_ohx) $(e_ob1) $(e_ob2) $(e_ohe)
cmp -s "$OBS" "$S01/ovni/$REL/stream.obs" || problem "rebuilt stream.obs differs from s01's"
{ line $CLK1 OHx "$(desc 1)"; line $CLK2 OB. "$(desc 2)"; line $CLK3 OB. "$(desc 3)"; line $CLK4 OHe "$(desc 4)"; } |
    cmp -s - "$S01/ovnidump.txt" || problem "line/desc do not rebuild ovnidump.txt"
line $CLK4 OHe "" | cmp -s - "$(refx 4 > "$T/builders/x4"; echo "$T/builders/x4")" ||
    problem "line with no text differs from ovnidump-x.txt's line 4"
run dump
expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
run dump --hex
expect_rc 0; refx 1 2 3 4 | expect_stdout; expect_stderr
run top
expect_rc 0; expect_stdout < "$S01/ovnitop.txt"; expect_stderr
verdict "byte builders rebuild s01's stream.obs; dump, dump --hex, top == ovnidump, ovnidump -x, ovnitop"

# ---- 1-4: header errors reject the whole trace ------------------------------------

make_trace obs-0-bytes
: > "$OBS"
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "$(e_err 0 "input ends inside the 8-byte stream header")"
verdict "empty stream.obs: exit 1, nothing printed, offset 0 'inside the 8-byte stream header'"

make_trace obs-4-bytes
obs 6f 76 6e 69
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "$(e_err 0 "input ends inside the 8-byte stream header")"
run dump --hex
expect_rc 1; expect_stdout_empty; expect_stderr "$(e_err 0 "input ends inside the 8-byte stream header")"
verdict "4-byte stream.obs: exit 1, nothing printed, offset 0 'inside the 8-byte stream header'"

make_trace magic-ovnx
obs 6f 76 6e 78 $(u 4 1) $(e_ohx) $(e_ob1) $(e_ob2) $(e_ohe)
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "$(e_err 0 'wrong stream magic (expected "ovni")')"
verdict "magic 'ovnx': exit 1, nothing printed, offset 0 'wrong stream magic'"

make_trace version-2
obs 6f 76 6e 69 $(u 4 2) $(e_ohx) $(e_ob1) $(e_ob2) $(e_ohe)
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "$(e_err 0 "stream version is not 1 (in either byte order)")"
verdict "header version 2: exit 1, nothing printed, offset 0 'stream version is not 1'"

# ---- 5: big-endian stream (ovni rejects it; tracedec decodes it) -------------------

make_trace big-endian
ENDIAN=be
obs $(hdr) $(e_ohx) $(e_ob1) $(e_ob2) $(e_ohe)
[ "$(head -c 8 "$OBS" | od -An -tx1 | tr -d ' \n')" = 6f766e6900000001 ] || problem "header is not big-endian"
BE_NOTE="tracedec: note: $OBS: stream written big-endian (ovni's tools reject it): decoded in that byte order"
run dump
expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr "$BE_NOTE"
run dump --hex
expect_rc 0; refx 1 2 3 4 | expect_stdout; expect_stderr "$BE_NOTE"
run info
expect_rc 0
echo "$REL: layout=v3 events=4 jumbo=0 payload_bytes=16 first=$CLK1 last=$CLK4 backward_steps=0 big_endian" |
    expect_stdout
expect_stderr "$BE_NOTE"
verdict "s01 fully byte-swapped: dump and --hex == ovnidump's s01 output, info says big_endian"

# s01's OHx payload reads the same in both orders: this trace has asymmetric
# fields (cpu 3, tid 4311, tag 0xabc, a jumbo 6Yc) and is checked in both orders.
make_trace big-endian-fields
for ENDIAN in le be; do
    obs $(hdr) $(ev 0f "$M_OHX" $CLK1 $(u 4 3) $(u 4 4311) $(u 8 2748)) $(e_ob1) \
        $(ev 13 "$M_6YC" $CLK3 $(u 4 8) $(u 4 7) 61 62 63 00) $(e_ohe)
    run dump
    expect_rc 0
    {
        line $CLK1 OHx "begins the execution on CPU 3 created from 4311 with tag 0xabc"
        ref 2
        line $CLK3 6Yc 'creates task type 7 with label "abc"'
        ref 4
    } | expect_stdout
    if [ $ENDIAN = be ]; then
        expect_stderr "tracedec: note: $OBS: stream written big-endian (ovni's tools reject it): decoded in that byte order"
    else
        expect_stderr
    fi
done
verdict "asymmetric payload fields and a jumbo length: the big-endian stream prints as the little-endian one"

# ---- 6: header only ---------------------------------------------------------------

make_trace header-only
obs $(hdr)
run dump
expect_rc 0; expect_stdout_empty; expect_stderr "tracedec: warning: $OBS: stream has zero events"
run top
expect_rc 0; expect_stdout_empty; expect_stderr "tracedec: warning: $OBS: stream has zero events"
verdict "8-byte stream: exit 0, nothing printed (dump, top), warning 'stream has zero events' naming the file"

# ---- 7-9: streams that end inside an event ---------------------------------------

make_trace cut-last-event
head -c 68 "$S01/ovni/$REL/stream.obs" > "$OBS"
run dump
expect_rc 1; ref 1 2 3 | expect_stdout; expect_stderr "$(e_err 60 "$CUT")"
run dump --hex
expect_rc 1; refx 1 2 3 | expect_stdout; expect_stderr "$(e_err 60 "$CUT")"
verdict "OHe cut inside its clock (68 bytes): 3 events printed, exit 1, offset 60 'incomplete event'"

make_trace cut-event-header
head -c 64 "$S01/ovni/$REL/stream.obs" > "$OBS"
run dump
expect_rc 1; ref 1 2 3 | expect_stdout; expect_stderr "$(e_err 60 "$CUT")"
verdict "OHe cut after 4 header bytes (64 bytes): 3 events printed, exit 1, offset 60"

make_trace cut-first-payload
head -c 30 "$S01/ovni/$REL/stream.obs" > "$OBS"
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "$(e_err 8 "$CUT")"
verdict "OHx cut inside its payload (30 bytes): nothing printed, exit 1, offset 8"

make_trace garbage-1-byte
obs $(hdr) $(e_ohx) $(e_ob1) $(e_ob2) $(e_ohe) ff
run dump
expect_rc 1; ref 1 2 3 4 | expect_stdout; expect_stderr "$(e_err 72 "$CUT")"
verdict "1 garbage byte after the last event: 4 events printed, exit 1, offset 72"

make_trace garbage-5-bytes
obs $(hdr) $(e_ohx) $(e_ob1) $(e_ob2) $(e_ohe) de ad be ef 01
run dump
expect_rc 1; ref 1 2 3 4 | expect_stdout; expect_stderr "$(e_err 72 "$CUT")"
run dump --hex
expect_rc 1; refx 1 2 3 4 | expect_stdout; expect_stderr "$(e_err 72 "$CUT")"
verdict "5 garbage bytes after the last event: 4 events printed, exit 1, offset 72"

make_trace jumbo-past-eof
obs $(hdr) $(e_ohx) $(e_ob1) $(e_ob2) $(ev 13 "$M_6YC" $CLK4 $(u 4 100) $(u 4 7) 61 62 63 00)
CUT_BLOB="stream ends with an incomplete event (input ends inside a jumbo event's blob)"
run dump
expect_rc 1; ref 1 2 3 | expect_stdout; expect_stderr "$(e_err 60 "$CUT_BLOB")"
run dump --hex
expect_rc 1; refx 1 2 3 | expect_stdout; expect_stderr "$(e_err 60 "$CUT_BLOB")"
verdict "jumbo 6Yc declaring 100 blob bytes, 8 present: 3 events printed, exit 1, offset 60"

# ---- 10-12: flags and size codes ------------------------------------------------

make_trace reserved-flags-e0
obs $(hdr) $(e_ohx) $(ev e0 "$M_OB" $CLK2) $(e_ob2) $(e_ohe)
run dump
expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
run dump --hex
expect_rc 0; refx 1 2 3 4 | expect_stdout; expect_stderr
verdict "flags 0xe0 on OB.: read as the plain payload-less event"

for b0 in 13 10 1f; do
    make_trace jumbo-nibble-$b0
    obs $(hdr) $(e_ohx) $(e_ob1) $(ev $b0 "$M_6YC" $CLK3 $(u 4 8) $(u 4 7) 61 62 63 00) $(e_ohe)
    run dump
    expect_rc 0
    { ref 1 2; line $CLK3 6Yc 'creates task type 7 with label "abc"'; ref 4; } | expect_stdout
    expect_stderr
    run dump --hex
    expect_rc 0
    { refx 1 2; line $CLK3 6Yc ":08:00:00:00:07:00:00:00:61:62:63:00"; refx 4; } | expect_stdout
    expect_stderr
    case $b0 in
    13) verdict "jumbo 6Yc with byte 0 = 0x13 (as libovni writes it): typeid 7, label abc" ;;
    *) verdict "jumbo 6Yc with byte 0 = 0x$b0: size nibble ignored, same output as 0x13" ;;
    esac
done

make_trace size-code-1
obs $(hdr) $(e_ohx) $(ev 01 "$M_OB" $CLK2 ab cd) $(e_ob2) $(e_ohe)
run dump
expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
run dump --hex
expect_rc 0; { refx 1; line $CLK2 OB. ":ab:cd"; refx 3 4; } | expect_stdout; expect_stderr
verdict "OB. with size code 1: a 14-byte event with a 2-byte payload, next events in step"

# ---- 13-16: payloads shorter or longer than the signature -------------------------

make_trace ohx-no-payload
obs $(hdr) $(ev 00 "$M_OHX" $CLK1) $(e_ob1) $(e_ob2) $(e_ohe)
run dump
expect_rc 0; { line $CLK1 OHx UNKNOWN; ref 2 3 4; } | expect_stdout
expect_stderr "tracedec: warning: offset 8: $OBS: $OHX_SHORT" "$(note_unknown 1)"
run dump --hex
expect_rc 0; { line $CLK1 OHx ""; refx 2 3 4; } | expect_stdout; expect_stderr
verdict "OHx with no payload (ovnidump crashes): UNKNOWN + warning at offset 8; --hex prints no payload"

make_trace ohx-4-byte-payload
obs $(hdr) $(ev 03 "$M_OHX" $CLK1 $(u 4 0)) $(e_ob1) $(e_ob2) $(e_ohe)
run dump
expect_rc 0; { line $CLK1 OHx UNKNOWN; ref 2 3 4; } | expect_stdout
expect_stderr "tracedec: warning: offset 8: $OBS: $OHX_SHORT" "$(note_unknown 1)"
run dump --hex
expect_rc 0; { line $CLK1 OHx ":00:00:00:00"; refx 2 3 4; } | expect_stdout; expect_stderr
verdict "OHx with a 4-byte payload (ovnidump prints the next event's bytes): UNKNOWN + warning at offset 8"

make_trace 6yc-label-no-nul
obs $(hdr) $(e_ohx) $(e_ob1) $(e_ob2) $(ev 13 "$M_6YC" $CLK4 $(u 4 7) $(u 4 7) 61 62 63)
run dump
expect_rc 0; { ref 1 2 3; line $CLK4 6Yc 'creates task type 7 with label "abc"'; } | expect_stdout; expect_stderr
run dump --hex
expect_rc 0; { refx 1 2 3; line $CLK4 6Yc ":07:00:00:00:07:00:00:00:61:62:63"; } | expect_stdout; expect_stderr
# In the middle, followed by an event whose first byte is not NUL (0xe0).
obs $(hdr) $(e_ohx) $(e_ob1) $(ev 13 "$M_6YC" $CLK3 $(u 4 7) $(u 4 7) 61 62 63) $(ev e0 "$M_OHE" $CLK4)
run dump
expect_rc 0; { ref 1 2; line $CLK3 6Yc 'creates task type 7 with label "abc"'; ref 4; } | expect_stdout
expect_stderr
verdict "jumbo 6Yc whose label has no NUL (ovnidump reads past the blob): the label ends at the blob end"

make_trace 6yc-normal-event
obs $(hdr) $(e_ohx) $(e_ob1) $(ev 0f "$M_6YC" $CLK3 01 02 03 04 $(u 4 7) 78 79 7a 00 ee ee ee ee) $(e_ohe)
run dump
expect_rc 0; { ref 1 2; line $CLK3 6Yc 'creates task type 7 with label "xyz"'; ref 4; } | expect_stdout
expect_stderr
run dump --hex
expect_rc 0
{ refx 1 2; line $CLK3 6Yc ":01:02:03:04:07:00:00:00:78:79:7a:00:ee:ee:ee:ee"; refx 4; } | expect_stdout
expect_stderr
obs $(hdr) $(e_ohx) $(e_ob1) $(ev 0b "$M_6YC" $CLK3 01 02 03 04 $(u 4 7) 77 78 79 7a) $(e_ohe)
run dump
expect_rc 0; { ref 1 2; line $CLK3 6Yc 'creates task type 7 with label "wxyz"'; ref 4; } | expect_stdout
expect_stderr
verdict "6Yc as a normal event: typeid at payload offset 4, label from offset 8 to a NUL or the payload end"

# ---- 17-19: clocks -------------------------------------------------------------

make_trace clock-backwards
obs $(hdr) $(e_ohx) $(e_ob1) $(ev 00 "$M_OB" 592178453000) $(e_ohe)
run dump
expect_rc 0; { ref 1 2; line 592178453000 OB. "$(desc 3)"; ref 4; } | expect_stdout
expect_stderr "tracedec: warning: offset 48: $OBS: backwards jump in time $CLK2 -> 592178453000 in stream '$REL'"
run dump --json
expect_rc 0
[ "$(grep -c '"clock_backwards":true' "$OUT")" = 1 ] && grep -q '"offset":48,"size":12,"clock_backwards":true' "$OUT" ||
    problem "run$NRUN: not exactly the event at offset 48 marked clock_backwards in $OUT"
run info
expect_rc 0
echo "$REL: layout=v3 events=4 jumbo=0 payload_bytes=16 first=$CLK1 last=$CLK4 backward_steps=1" | expect_stdout
expect_stderr
verdict "clock 74 ns backwards at offset 48: all printed, exit 0, warning 'backwards jump in time' with offset; --json marks it, info counts 1 step"
run dump --strict
expect_rc 1; ref 1 2 | expect_stdout; expect_stderr "$(e_err 48 "clock goes backwards")"
verdict "clock backwards with --strict: 2 events printed, exit 1, offset 48 'clock goes backwards'"

make_trace clock-equal
obs $(hdr) $(e_ohx) $(e_ob1) $(ev 00 "$M_OB" $CLK2) $(e_ohe)
run dump
expect_rc 0; { ref 1 2; line $CLK2 OB. "$(desc 3)"; ref 4; } | expect_stdout; expect_stderr
run dump --strict
expect_rc 0; { ref 1 2; line $CLK2 OB. "$(desc 3)"; ref 4; } | expect_stdout; expect_stderr
verdict "two equal consecutive clocks: ok, also with --strict"

make_trace clock-bit-63
neg=$((CLK1 - 9223372036854775807 - 1)) # CLK1 with bit 63 set, as int64
obs $(hdr) $(ev 0f "$M_OHX" $neg $(u 4 0) $(u 4 -1) $(u 8 0)) $(e_ob1) $(e_ob2) $(e_ohe)
[ "$(head -c 20 "$OBS" | tail -c 1 | od -An -tx1 | tr -d ' \n')" = 80 ] || problem "bit 63 not set"
run dump
expect_rc 0; { line $neg OHx "$(desc 1)"; ref 2 3 4; } | expect_stdout; expect_stderr
verdict "first clock with bit 63 set: printed as $neg, exit 0"
run info
expect_rc 0
echo "$REL: layout=v3 events=4 jumbo=0 payload_bytes=16 first=$neg last=$CLK4 backward_steps=1" | expect_stdout
expect_stderr
verdict "first clock with bit 63 set: info prints first=$neg, signed as dump does, and counts it as a backward step (below the initial 0, as ovni)"
run dump --strict
expect_rc 1; expect_stdout_empty; expect_stderr "$(e_err 8 "clock goes backwards")"
verdict "first clock with bit 63 set, --strict: below the initial 0 (as ovniemu), exit 1 at offset 8"

# ---- 20-21: unknown events --------------------------------------------------------

make_trace mcv-00-01-7f
obs $(hdr) $(e_ohx) $(ev 00 "00 01 7f" $CLK2) $(e_ob2) $(e_ohe)
run dump
expect_rc 0; { ref 1; line $CLK2 '\000\001\177' UNKNOWN; ref 3 4; } | expect_stdout
expect_stderr "$(note_unknown 1)"
run dump --hex
expect_rc 0; { refx 1; line $CLK2 '\000\001\177' ""; refx 3 4; } | expect_stdout; expect_stderr
verdict "MCV bytes 00 01 7f: printed raw, UNKNOWN, note counting 1 UNKNOWN event"

make_trace unknown-model
obs $(hdr) $(e_ohx) $(ev 00 "5a 42 2e" $CLK2) $(e_ob2) $(e_ohe)
run dump
expect_rc 0; { ref 1; line $CLK2 ZB. UNKNOWN; ref 3 4; } | expect_stdout; expect_stderr "$(note_unknown 1)"
verdict "unknown model Z (ZB.): UNKNOWN, exit 0, note counting 1 UNKNOWN event"

make_trace unknown-mcv
obs $(hdr) $(e_ohx) $(ev 00 "4f 5a 7a" $CLK2) $(ev 00 "4f 5a 7a" $CLK3) $(e_ohe)
run dump
expect_rc 0; { ref 1; line $CLK2 OZz UNKNOWN; line $CLK3 OZz UNKNOWN; ref 4; } | expect_stdout
expect_stderr "$(note_unknown 2)"
verdict "unknown MCV OZz of the ovni model, twice: UNKNOWN, exit 0, one note counting 2 events"

# ---- 22-31: metadata -------------------------------------------------------------

make_trace json-missing
rm "$JSON"
ORPHAN="tracedec: warning: $OBS: 1 stream.obs file(s) without stream.json beside skipped, as ovni's tools do"
run dump
expect_rc 0; expect_stdout_empty; expect_stderr "$ORPHAN"
verdict "the only stream.json missing: the stream skipped as ovni does (nothing printed, exit 0), with a warning naming it"
# With a second, complete stream: the orphan stream.obs is skipped, the other printed.
mkdir "$DIR/loom.node0/proc.4311/thread.4312"
cp "$S01/ovni/$REL/stream.obs" "$S01/ovni/$REL/stream.json" "$DIR/loom.node0/proc.4311/thread.4312/"
run dump
expect_rc 0; ref 1 2 3 4 | sed "s|$REL|loom.node0/proc.4311/thread.4312|" | expect_stdout; expect_stderr "$ORPHAN"
verdict "stream.json missing beside another stream: that stream skipped with a warning, the other printed"

# libovni's ovni_proc_init makes loom.L/proc.P, ovni_thread_init the stream
# below it: a process that ends between the two leaves a trace of no stream.
make_trace proc-dir-only
rm -r "${SD:?}"
NOSTREAM="tracedec: warning: $DIR: no stream, only loom.* directories (a process ended before ovni_thread_init?): nothing to print, as ovni's tools load 0 streams"
for cmd in dump "dump --hex" top info; do
    run $cmd
    expect_rc 0; expect_stdout_empty; expect_stderr "$NOSTREAM"
done
verdict "loom.L/proc.P without streams: nothing printed, exit 0 (as ovnidump and ovnitop: loaded 0 streams), a warning"

make_trace obs-missing
rm "$OBS"
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "tracedec: error: $OBS: No such file or directory"
verdict "stream.obs missing: exit 1, nothing printed, error names the .obs path"

make_trace json-version-2
sed 's/"version": 3,/"version": 2,/' "$S01/ovni/$REL/stream.json" > "$JSON"
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "tracedec: error: $JSON: metadata version 2 (expected 3)"
verdict "stream.json version 2: exit 1, nothing printed, 'metadata version 2 (expected 3)'"

make_trace json-version-missing
json_drop version
run dump
expect_rc 1; expect_stdout_empty
expect_stderr "tracedec: error: $JSON: metadata has no numeric \"version\" (expected 3)"
verdict "stream.json without version: exit 1, nothing printed, 'no numeric version'"

make_trace json-syntax-error
# The comma after "version": 3 removed: the parser stops at the next key,
# '"ovni"', at text offset 2 + 17 + 4 = 23 ("{\n", '    "version": 3\n', 4 spaces).
sed 's/"version": 3,/"version": 3/' "$S01/ovni/$REL/stream.json" > "$JSON"
run dump
expect_rc 1; expect_stdout_empty; expect_stderr "tracedec: error: offset 23: $JSON: JSON syntax error"
verdict "stream.json missing a comma: exit 1, nothing printed, 'JSON syntax error' at text offset 23"

make_trace json-comments
{
    echo "// stream.json edited by hand"
    sed 's|"version": 3,|"version": /* v3 */ 3, // trace spec v3|' "$S01/ovni/$REL/stream.json"
    printf '\n/* end */\n'
} > "$JSON"
run dump
expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
verdict "stream.json with // and /* */ comments: ok"

for key in finished require loom_cpus tid; do
    make_trace json-no-$key
    json_drop $key
    run dump
    expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
    verdict "stream.json without ovni.$key: ok, same output"
done

make_trace json-part-process
sed 's/"part": "thread"/"part": "process"/' "$S01/ovni/$REL/stream.json" > "$JSON"
grep -q '"part": "process"' "$JSON" || problem "part not changed"
run dump
expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
verdict "ovni.part \"process\": ok, same output"

# ---- 32-34: layout, merge, permissions ----------------------------------------------

make_trace deep-stream-dir
P=loom.node0/proc.4311/weird/nest/x
mkdir -p "$DIR/$P"
mv "$SD/stream.obs" "$SD/stream.json" "$DIR/$P/"
rmdir "$SD"
OBS=$DIR/$P/stream.obs
run dump
expect_rc 0; ref 1 2 3 4 | sed "s|$REL|$P|" | expect_stdout; expect_stderr
verdict "stream moved to $P: ok, that relative directory printed"
RUNDIR=$DIR/$P
run dump
RUNDIR=
expect_rc 0; ref 1 2 3 4 | sed "s|  $REL  |    |" | expect_stdout; expect_stderr
verdict "the stream directory itself as the argument: ok, empty stream path (as ovnidump)"
P=

make_trace second-stream-2h
# thread.1000 sorts before thread.4311 but starts 2 hours later.
H2=7200000000000
P=loom.node0/proc.4311/thread.1000
mkdir "$DIR/$P"
sed 's/"tid": 4311,/"tid": 1000,/' "$JSON" > "$DIR/$P/stream.json"
bytes $(hdr) $(ev 0f "$M_OHX" $((CLK1 + H2)) $(u 4 0) $(u 4 -1) $(u 8 0)) $(ev 00 "$M_OB" $((CLK2 + H2))) \
    $(ev 00 "$M_OB" $((CLK3 + H2))) $(ev 00 "$M_OHE" $((CLK4 + H2))) > "$DIR/$P/stream.obs"
run dump
expect_rc 0
{
    ref 1 2 3 4
    line $((CLK1 + H2)) OHx "$(desc 1)"
    line $((CLK2 + H2)) OB. "$(desc 2)"
    line $((CLK3 + H2)) OB. "$(desc 3)"
    line $((CLK4 + H2)) OHe "$(desc 4)"
} | expect_stdout
expect_stderr
verdict "a second stream starting 2 h later (and sorting first by path): ok, printed after s01's events"
# The same stream 60 ns later: the merge interleaves the two streams by clock.
D=60
bytes $(hdr) $(ev 0f "$M_OHX" $((CLK1 + D)) $(u 4 0) $(u 4 -1) $(u 8 0)) $(ev 00 "$M_OB" $((CLK2 + D))) \
    $(ev 00 "$M_OB" $((CLK3 + D))) $(ev 00 "$M_OHE" $((CLK4 + D))) > "$DIR/$P/stream.obs"
run dump
expect_rc 0
{
    ref 1
    line $((CLK1 + D)) OHx "$(desc 1)"
    ref 2
    line $((CLK2 + D)) OB. "$(desc 2)"
    ref 3 4
    line $((CLK3 + D)) OB. "$(desc 3)"
    line $((CLK4 + D)) OHe "$(desc 4)"
} | expect_stdout
expect_stderr
verdict "a second stream 60 ns later: events of both streams interleaved by clock"
P=

make_trace obs-read-only
chmod 0444 "$OBS"
if command -v setpriv > /dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    # As an unprivileged user (root could write the file anyway), on a copy
    # that user can read.
    tmp=$(mktemp -d /tmp/tolerance-ovni.XXXXXX) || tmp=
    if [ -n "$tmp" ]; then
        cp -R "$DIR" "$tmp/ovni"
        cp "$X" "$tmp/tracedec"
        chmod 0444 "$tmp/ovni/$REL/stream.obs"
        chmod -R a+rX "$tmp"
        chmod 0755 "$tmp/tracedec"
        NRUN=$((NRUN + 1))
        OUT=$T/$ROW/run$NRUN.out
        ERR=$T/$ROW/run$NRUN.err
        setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'test -w "$1"' sh "$tmp/ovni/$REL/stream.obs" &&
            problem "uid 65534 can write the .obs"
        setpriv --reuid=65534 --regid=65534 --clear-groups "$tmp/tracedec" dump "$tmp/ovni" > "$OUT" 2> "$ERR"
        RC=$?
        expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
        rm -rf "$tmp"
        verdict "stream.obs mode 0444, run as uid 65534 via setpriv (cannot write it): ok, read-only open"
    else
        fail "$ROW: mktemp -d failed"
    fi
else
    run dump
    expect_rc 0; ref 1 2 3 4 | expect_stdout; expect_stderr
    verdict "stream.obs mode 0444, run as uid $(id -u) (no setpriv or not root): ok"
fi

# ---- extra rows ---------------------------------------------------------------------

make_trace top-cut
head -c 68 "$S01/ovni/$REL/stream.obs" > "$OBS"
run top
expect_rc 1; grep -v '^OHe ' "$S01/ovnitop.txt" | expect_stdout; expect_stderr "$(e_err 60 "$CUT")"
verdict "top on a stream cut inside OHe: partial table (OB. 2, OHx 1) printed, exit 1, offset 60"

make_trace json-s01
run dump --json
expect_rc 0
{
    printf '{"type":"stream","stream":"%s","file":"%s","layout":3,"loom":"node0","pid":4311,"tid":4311,"big_endian":false}\n' "$REL" "$OBS"
    printf '{"type":"event","clock":%s,"mcv":"OHx","stream":"%s","offset":8,"size":28,"desc":"%s","payload":"00000000ffffffff0000000000000000"}\n' $CLK1 "$REL" "$(desc 1)"
    printf '{"type":"event","clock":%s,"mcv":"OB.","stream":"%s","offset":36,"size":12,"desc":"%s","payload":""}\n' $CLK2 "$REL" "$(desc 2)"
    printf '{"type":"event","clock":%s,"mcv":"OB.","stream":"%s","offset":48,"size":12,"desc":"%s","payload":""}\n' $CLK3 "$REL" "$(desc 3)"
    printf '{"type":"event","clock":%s,"mcv":"OHe","stream":"%s","offset":60,"size":12,"desc":"%s","payload":""}\n' $CLK4 "$REL" "$(desc 4)"
} | expect_stdout
expect_stderr
[ "$(grep -c '"type":"event"' "$OUT")" = 4 ] || problem "not 4 event lines"
verdict "dump --json on s01: one stream line and 4 event lines"

exit 0
