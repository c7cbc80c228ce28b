#!/bin/sh
# The CLI's own surface: `tracedec --help` (stdout, exit 0) lists, under each
# format's heading, every command that format runs; a usage error prints the
# same text on stderr with exit 2; `dump --chrome` on a format without spans
# is refused with exit 2.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-cli
"$X" --help > "$T/help.txt" 2> "$T/help.err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$T/help.err" ] && grep -q '^usage: tracedec' "$T/help.txt"; then
    pass "cli --help: usage on stdout, exit 0"
else
    fail "cli --help (exit $rc)"
fi
# FORMAT:COMMAND pairs: the format's section of the help names the command.
for pair in ipt:dump ipt:events ipt:queries ipt:flow xtrace:dump xtrace:info xray:dump xray:info xray:extract xray:convert xray:stack \
            xray:account uftrace:dump uftrace:info uftrace:replay uftrace:report uftrace:graph ovni:dump ovni:info ovni:top; do
    f=${pair%%:*} c=${pair#*:}
    if awk -v f="$f" -v c="$c" '
        /^[a-z]+ \(/ { in_f = ($1 == f) ; next }
        in_f && ($1 == c || $1 == c ",") { found = 1 }
        END { exit !found }' "$T/help.txt"; then
        pass "cli --help lists $f $c"
    else
        fail "cli --help does not list $c under $f"
    fi
done
"$X" > "$T/usage.out" 2> "$T/usage.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$T/usage.out" ] && cmp -s "$T/usage.err" "$T/help.txt"; then
    pass "cli without arguments: the help on stderr, exit 2"
else
    fail "cli without arguments (exit $rc)"
fi
"$X" dump --chrome tests/data/ipt/apl11/apl11.pt > "$T/chrome.out" 2> "$T/chrome.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$T/chrome.out" ] && grep -q -- '--chrome' "$T/chrome.err"; then
    pass "cli dump --chrome on Intel PT (no spans): refused, exit 2"
else
    fail "cli dump --chrome on Intel PT (exit $rc, $(head -c 200 "$T/chrome.err"))"
fi
exit $status
