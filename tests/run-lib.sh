# run-lib.sh - the helpers of the test scripts (sourced, not run; the
# benchmark scripts use `have` too). A check prints one line, "PASS name",
# "FAIL name" or "SKIP name (why)", which tests/run.sh counts; `status`
# becomes 1 at the first FAIL, for the script's exit status.
status=0

# have CMD: CMD is on PATH.
have() { command -v "$1" >/dev/null 2>&1; }

pass() { echo "PASS $*"; }
skip() { echo "SKIP $*"; }

# fail NAME [LOG]: a FAIL line, then the first lines of LOG, indented.
fail() {
    echo "FAIL $1"
    status=1
    [ -n "${2:-}" ] && [ -s "$2" ] && sed -n '1,15p' "$2" | sed 's/^/    /'
    return 0
}

# begins_with FILE PREFIX: FILE starts with every byte of PREFIX (what a
# reference tool printed before it failed).
begins_with() {
    head -c "$(wc -c < "$2")" "$1" | cmp -s - "$2"
}

# out_dir NAME: T, the script's output folder build/NAME (build/NAME-TAG
# with TDEC_TAG), made empty; X, the CLI to test ($TRACEDEC, default
# build/tracedec: make check also names the sanitized one).
out_dir() {
    T=build/$1${TDEC_TAG:+-$TDEC_TAG}
    X=${TRACEDEC:-build/tracedec}
    rm -rf "$T"
    mkdir -p "$T"
}

# need BINARY NAME: fails NAME unless the Makefile built BINARY.
need() {
    [ -x "$1" ] && return 0
    fail "$2 ($1 is not built: make $1)"
    return 1
}

# The traces of a recording of the Intel PT real-execution corpus
# (tests/exec/record.sh), and exec_expected TRACE: its executed IPs' file.
EXEC_TRACES="ret noret filter"
exec_expected() {
    if [ "$1" = filter ]; then echo expected-filter; else echo expected; fi
}

# exec_each OUT NAME CHECK: every recording (tests/data/ipt/exec/REC,
# xz-compressed) unpacked into OUT/REC (the traces, image, image.sections,
# the expected files, command), then `CHECK REC OUT/REC`; a FAIL line
# "NAME REC" for one that cannot be unpacked. Needs xz.
exec_each() {
    for rec in tests/data/ipt/exec/*/; do
        r=$(basename "$rec")
        if mkdir -p "$1/$r" &&
            xz -dc "$rec/ret.pt.xz" > "$1/$r/ret.pt" && xz -dc "$rec/noret.pt.xz" > "$1/$r/noret.pt" &&
            xz -dc "$rec/filter.pt.xz" > "$1/$r/filter.pt" && xz -dc "$rec/image.xz" > "$1/$r/image" &&
            xz -dc "$rec/expected.xz" > "$1/$r/expected" &&
            xz -dc "$rec/expected-filter.xz" > "$1/$r/expected-filter" &&
            cp "$rec/image.sections" "$rec/command" "$1/$r/"; then
            "$3" "$r" "$1/$r"
        else
            fail "$2 $r (cannot unpack)"
        fi
    done
}

# exec_flow_check NAME CLI DIR [OPTION]: `CLI flow [OPTION]` on each of
# DIR's traces (an unpacked or live recording) prints the traced
# instructions (its expected file), and besides them only the event lines
# such tracing gives.
exec_flow_check() {
    for v in $EXEC_TRACES; do
        e=$3/$(exec_expected $v)
        # shellcheck disable=SC2046 # one --raw option a section
        "$2" flow ${4:-} --pt "$3/$v.pt" $(sed "s|^|--raw $3/image:|" "$3/image.sections") > "$3/$v.out" 2>&1
        if grep -v -E '^\[(disabled|enabled|resumed|exec mode: (32|64)-bit)\]$' "$3/$v.out" |
            cmp -s - "$e"; then
            pass "$1 ($v, $(wc -l < "$e") instructions)"
        else
            grep -v -E '^\[(disabled|enabled|resumed|exec mode: (32|64)-bit)\]$' "$3/$v.out" |
                diff "$e" - > "$3/$v.diff"
            fail "$1 ($v)" "$3/$v.diff"
        fi
    done
}

# xray_golden KIND: the start of the golden script of llvm-xray's command
# KIND: its output folder, $X made absolute (the commands run in the logs'
# folders), then xray_refs KIND. Returns 1 after a SKIP line when python3
# or xz is missing.
xray_golden() {
    out_dir golden-xray-"$1"
    case $X in /*) ;; *) X=$(pwd)/$X ;; esac
    if ! have python3 || ! have xz; then
        skip "xray $1 (python3 and xz are needed)"
        return 1
    fi
    xray_refs "$1"
}

# xray_refs KIND: every XRay log's llvm-xray references for command KIND
# (tests/data/xray/*/LOG.KIND.txt.xz and the peer corpus') replayed with
# $X by tests/golden/xray_refs.py, one PASS/FAIL line a log. Needs python3
# and xz.
xray_refs() {
    for ref in tests/data/xray/*/*."$1".txt.xz tests/data/peers/xray/*/*."$1".txt.xz; do
        name=${ref#tests/data/}
        name=${name%."$1".txt.xz}
        own=${ref%.txt.xz}.tracedec.txt.xz
        out=$T/$(echo "$name" | tr / _).$1.out
        r=$(python3 tests/golden/xray_refs.py "$X" "$ref" "$(dirname "$ref")" "$out" "$own")
        n=$(echo "$r" | cut -d' ' -f2)
        case $r in
        "ok $n 0") pass "xray $1 $name: $n commands == llvm-xray $1 (stdout, stderr, exit status)" ;;
        ok*) pass "xray $1 $name: $n commands == llvm-xray $1; $(echo "$r" | cut -d' ' -f3) where llvm-xray crashed: tracedec completes what it had printed" ;;
        own*) pass "xray $1 $name: llvm-xray cannot load it; $n commands == our reviewed $(basename "$own")" ;;
        *)
            if [ -f "$own" ]; then xz -dc "$own"; else xz -dc "$ref"; fi | diff - "$out" > "$out.diff"
            fail "xray $1 $name: differs from the references ($out)" "$out.diff"
            ;;
        esac
    done
}
