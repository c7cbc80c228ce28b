#!/bin/sh
# Differential test of the Intel PT query decoder (single/tdec_ipt.h, layer 2:
# tdec_ipt_qry_*) against the system libipt's (Debian's libipt-dev 2.0.5):
# runs build/diff/ipt_qry (and build/diff/ipt_qry-clang when clang is
# installed), both built by make, with outputs in build/diff-qry/. Streams come from a trace grammar on libipt's
# encoder; see tests/diff/ipt_qry.c for the drain, what is compared and the
# documented 2.0.5-vs-master differences it filters. One line per check:
# "PASS name", "FAIL name: why" or "SKIP name (why)", and "# ipt-qry diff:"
# summary lines; a failing stream is saved as build/diff-qry/fail-S-I.pt.
#
#   sh tests/diff/ipt_qry.sh [diff_ipt_qry options]     e.g. -s 7 -m 10
# Environment: IPT_QRY_DIFF_ARGS (options when none are given; default: seeds
# 1,2 and 3,4 side by side (two cores), 5 MiB each, ~10 M answers, ~5 s on
# an idle 2-core VM, plus a shorter clang run).
#
# libipt 2.2 or later behaves as master (which tdec_ipt follows): the program
# then compares without any filter (it reads the version at run time).
# libipt 2.1.x is neither: skipped. The extra grammar (-x) makes the streams
# on which libipt master itself differs from 2.0.5 beyond the documented
# differences; it fails by design against 2.0.5.
cd "$(dirname "$0")/../.." || exit 2
O=build/diff-qry
mkdir -p "$O"
rm -f "$O"/fail-*.pt
. tests/run-lib.sh
if ! [ -f /usr/include/intel-pt.h ]; then
    skip "ipt-qry diff: tdec_ipt queries == libipt 2.0.5 query decoder (no /usr/include/intel-pt.h: apt-get install libipt-dev)"
    exit 0
fi
# The libipt version decides the filters at run time.
need build/diff/ipt_qry "ipt-qry diff" || exit 1
[ $# -gt 0 ] || set -- ${IPT_QRY_DIFF_ARGS:-}
if [ $# -gt 0 ]; then
    build/diff/ipt_qry -o $O "$@" || status=1
else
    build/diff/ipt_qry -o $O -s 1,2 -m 5 > $O/run-a.out 2>&1 &
    a=$!
    build/diff/ipt_qry -o $O -s 3,4 -m 5 > $O/run-b.out 2>&1 &
    b=$!
    wait $a || status=1
    wait $b || status=1
    cat $O/run-a.out $O/run-b.out
fi

# clang: a shorter run (one seed) of the same program.
if have clang; then
    if [ -x build/diff/ipt_qry-clang ]; then
        build/diff/ipt_qry-clang -o $O -s 11 -m 2 > $O/clang.out 2>&1 || status=1
        sed 's/^\(PASS\|FAIL\) ipt-qry /\1 ipt-qry (clang) /' $O/clang.out
    else
        echo "FAIL ipt-qry diff: build/diff/ipt_qry-clang is not built"
        status=1
    fi
fi
exit $status
