#!/bin/sh
# Golden tests of `tracedec account` against llvm-xray 14's account.
# Each log's references are one file beside it, LOG.account.txt (the peer
# corpus: LOG.account.txt.xz, see its README.md): per command a line
# "### llvm-xray account ARGS (exit N)", its stdout, then "### stderr" and
# its stderr where that is not empty and differs from the first command's
# (--keep-going, strict, -d, csv, --top and every --sort key in both
# orders; the samples with -m instrmap.elf where llvm-xray loads it). The
# logs: the XRay samples, tests/data/xray/account-ties and account-cycles
# (written by tests/gen/xray_account_log.py: 42 functions, tied statistics,
# colliding and negative ids, refused records; the second with cycle
# frequency 0) and the peer corpus. The same commands run with
# tracedec in the log's folder must give the same file byte for byte:
# stdout, stderr (the error reports with their thread dumps; our last line
# names tracedec instead of llvm-xray) and exit status.
# Logs llvm-xray cannot load (zero-size events, the typed-event cut, v1
# padding of odd length, basic logs it rejects) have one failed command;
# tracedec reads them: its output is compared with our reviewed
# LOG.account.tracedec.txt in the same layout (UPDATE=1 rewrites it).
# The sanitized CLI (TDEC_TAG set) runs the first 3 commands of each peer
# log (--keep-going, strict, -d) and all of the others: the sort variants
# exercise the same code, and 1500 sanitized runs would take a minute.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-xray-account
case $X in /*) ;; *) X=$(pwd)/$X ;; esac # the commands run in the logs' folders
T=$(pwd)/$T

# replay DIR REF OUT: REF's commands run with tracedec in DIR, written to OUT
# in REF's layout.
replay() {
    : > "$3"
    rm -f "$T/first.err"
    grep -a '^### llvm-xray account ' "$2" | sed 's/^### llvm-xray account //; s/ (exit [0-9]*)$//' | (
        cd "$1" || exit 1
        set -f # ARGS are split on blanks, never globbed
        while IFS= read -r args; do
            # shellcheck disable=SC2086 # ARGS are the words of the command
            "$X" account $args > "$T/cmd.out" 2> "$T/cmd.err"
            rc=$?
            printf '### llvm-xray account %s (exit %s)\n' "$args" "$rc" >> "$3"
            cat "$T/cmd.out" >> "$3"
            if [ -s "$T/cmd.err" ] && ! cmp -s "$T/cmd.err" "$T/first.err"; then
                echo '### stderr' >> "$3"
                cat "$T/cmd.err" >> "$3"
            fi
            [ -f "$T/first.err" ] || mv "$T/cmd.err" "$T/first.err"
        done
    )
    sed -i 's/^tracedec: Failed accounting/llvm-xray: Failed accounting/' "$3"
}

# check NAME DIR REF (REF plain text)
check() {
    out=$T/$(echo "$1" | tr / _).out
    replay "$2" "$3" "$out"
    n=$(grep -ac '^### llvm-xray account ' "$3")
    if [ "$n" = 1 ] && ! grep -aq '^### llvm-xray account .*(exit 0)$' "$3"; then
        own=${4%.account.txt*}.account.tracedec.txt
        [ "${UPDATE:-0}" = 1 ] && cp "$out" "$own"
        if [ "$(sed -n '1s/.*(exit \([0-9]*\))$/\1/p' "$out")" = 0 ] && cmp -s "$out" "$own"; then
            pass "xray account $1: llvm-xray cannot load it; tracedec reads it (exit 0), output == $(basename "$own")"
        else
            diff "$own" "$out" > "$out.diff"
            fail "xray account $1: differs from $own or fails" "$out.diff"
        fi
        return
    fi
    if cmp -s "$out" "$3"; then
        pass "xray account $1: $n commands == llvm-xray account (stdout, stderr, exit status)"
    else
        diff "$3" "$out" > "$out.diff"
        fail "xray account $1: differs from llvm-xray (diff $3 $out)" "$out.diff"
    fi
}

for ref in tests/data/xray/*/*.account.txt; do
    check "$(basename "$(dirname "$ref")")" "$(dirname "$ref")" "$ref" "$ref"
done
# first_commands N: the reference on stdin cut after its first N commands.
first_commands() {
    awk -v n="$1" '/^### llvm-xray account / && ++k > n { exit } { print }'
}

limit=99
[ -n "${TDEC_TAG:-}" ] && limit=3
for ref in tests/data/peers/xray/*/*.account.txt.xz; do
    if ! have xz; then
        skip "xray account peers (xz is not installed)"
        break
    fi
    d=$(dirname "$ref")
    xz -dc "$ref" | first_commands $limit > "$T/ref.txt"
    check "peers/$(basename "$d")/$(basename "$ref" .account.txt.xz)" "$d" "$T/ref.txt" "$ref"
done

# Options: unknown values are usage errors (exit 2), as for every option.
L=tests/data/xray/fdr-calls/fdr-calls.xray
for bad in "--sort=name" "--sortorder=up" "--format=json" "--top=x" "-s"; do
    "$X" account "$bad" "$L" > "$T/bad.out" 2> "$T/bad.err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$T/bad.out" ]; then
        pass "xray account $bad: usage, exit 2"
    else
        fail "xray account $bad: exit $rc"
    fi
done
# -o FILE (--output): the table goes to the file, stdout stays empty
for o in "-o" "--output"; do
    rm -f "$T/o.file"
    "$X" account -f csv "$o" "$T/o.file" "$L" > "$T/o.stdout" 2> /dev/null
    "$X" account -f csv "$L" > "$T/o.table" 2> /dev/null
    if [ -s "$T/o.table" ] && [ ! -s "$T/o.stdout" ] && cmp -s "$T/o.table" "$T/o.file"; then
        pass "xray account $o FILE: the file holds the table"
    else
        fail "xray account $o FILE"
    fi
done
exit $status
