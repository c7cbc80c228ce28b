#!/bin/sh
# Differential test of the Intel PT query decoder (single/tdec_ipt.h, layer 2:
# tdec_ipt_qry_*) against the system libipt's (Debian's libipt-dev 2.0.5):
# builds tests/diff_ipt_qry.c with gcc (and clang, when installed) into
# build/diff-qry/ and runs it. Streams come from a trace grammar on libipt's
# encoder; see tests/diff_ipt_qry.c for the drain, what is compared and the
# documented 2.0.5-vs-master differences it filters. One line per check:
# "PASS name", "FAIL name: why" or "SKIP name (why)", and "# ipt-qry diff:"
# summary lines; a failing stream is saved as build/diff-qry/fail-S-I.pt.
#
#   sh tests/diff_ipt_qry.sh [diff_ipt_qry options]     e.g. -s 7 -m 10
# Environment: IPT_QRY_DIFF_ARGS (options when none are given; default: seeds
# 1,2 and 3,4 side by side (two cores), 5 MiB each, ~10 M answers, ~5 s on
# an idle 2-core VM, plus a shorter clang run).
#
# libipt 2.2 or later behaves as master (which tdec_ipt follows): the program
# is then built with -DDIFF_VS_MASTER and compares without any filter.
# libipt 2.1.x is neither: skipped. The extra grammar (-x) makes the streams
# on which libipt master itself differs from 2.0.5 beyond the documented
# differences; it fails by design against 2.0.5.
cd "$(dirname "$0")/.." || exit 2
O=build/diff-qry
mkdir -p "$O"
rm -f "$O"/fail-*.pt
WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"

have() { command -v "$1" >/dev/null 2>&1; }
skip() {
    echo "SKIP ipt-qry diff: tdec_ipt queries == libipt 2.0.5 query decoder ($1)"
    exit 0
}

have gcc || skip "gcc not found"
[ -f /usr/include/intel-pt.h ] || skip "no /usr/include/intel-pt.h: apt-get install libipt-dev"
printf '#include <stdio.h>\n#include <intel-pt.h>\nint main(void) { struct pt_version v = pt_library_version(); printf("%%d.%%d.%%d\\n", v.major, v.minor, v.patch); return 0; }\n' > $O/probe.c
gcc $O/probe.c -lipt -o $O/probe > $O/probe.log 2>&1 || skip "cannot link -lipt: apt-get install libipt-dev"
ver=$($O/probe)
case "$ver" in
2.0.*) MODE="" ;;
2.1.*) skip "libipt $ver: neither 2.0.x (filtered) nor 2.2+ (master behaviour)" ;;
*) MODE="-DDIFF_VS_MASTER=1" ;;
esac
echo "libipt $ver (query decoder and encoder)${MODE:+, compared as master: no filters}"

# Both compilers at once (two cores).
gcc -std=c99 $WARN -O2 -g $MODE -I. tests/diff_ipt_qry.c -lipt -o $O/diff_ipt_qry > $O/build-gcc.log 2>&1 &
gcc_pid=$!
clang_ok=0
if have clang; then
    clang -std=c99 $WARN -O2 -g $MODE -I. tests/diff_ipt_qry.c -lipt -o $O/diff_ipt_qry-clang > $O/build-clang.log 2>&1 &
    clang_pid=$!
    wait $clang_pid && clang_ok=1
fi
if ! wait $gcc_pid; then
    echo "FAIL ipt-qry diff: tests/diff_ipt_qry.c builds with gcc"
    sed -n '1,20p' $O/build-gcc.log | sed 's/^/    /'
    exit 1
fi

status=0
[ $# -gt 0 ] || set -- ${IPT_QRY_DIFF_ARGS:-}
if [ $# -gt 0 ]; then
    $O/diff_ipt_qry -o $O "$@" || status=1
else
    $O/diff_ipt_qry -o $O -s 1,2 -m 5 > $O/run-a.out 2>&1 &
    a=$!
    $O/diff_ipt_qry -o $O -s 3,4 -m 5 > $O/run-b.out 2>&1 &
    b=$!
    wait $a || status=1
    wait $b || status=1
    cat $O/run-a.out $O/run-b.out
fi

# clang: a shorter run (one seed) of the same program.
if have clang; then
    if [ $clang_ok = 1 ]; then
        $O/diff_ipt_qry-clang -o $O -s 11 -m 2 > $O/clang.out 2>&1 || status=1
        sed 's/^\(PASS\|FAIL\) ipt-qry /\1 ipt-qry (clang) /' $O/clang.out
    else
        echo "FAIL ipt-qry diff: tests/diff_ipt_qry.c builds with clang"
        sed -n '1,20p' $O/build-clang.log | sed 's/^/    /'
        status=1
    fi
fi
exit $status
