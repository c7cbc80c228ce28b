#!/bin/sh
# Differential test of single/tdec_ipt.h against libipt's packet decoder
# (Debian's libipt-dev 2.0.5): runs build/diff/ipt (and build/diff/ipt-clang,
# when clang is installed: the same checks, another compiler's optimiser),
# both built by make, with outputs in build/ipt-diff/. Streams come from tests/gen/ipt_gen.h (libipt's
# encoder); see tests/diff/ipt.c for what is compared. One line per check:
# "PASS name", "FAIL name: why" or "SKIP name (why)"; a failing hostile or
# pattern stream is saved as build/ipt-diff/fail-*.pt.
#
#   sh tests/diff/ipt.sh [diff_ipt options]     e.g. -s 7,8 -p 3000000
# Environment: IPT_DIFF_ARGS (options when none are given; default: the
# program's defaults, ~50 M packets, ~10 s on an idle 2-core VM).
cd "$(dirname "$0")/../.." || exit 2
O=build/ipt-diff
mkdir -p "$O"
rm -f "$O"/fail-*.pt
. tests/run-lib.sh
if ! [ -f /usr/include/intel-pt.h ]; then
    skip "ipt diff: tdec_ipt == libipt 2.0.5 packet decoder (no /usr/include/intel-pt.h: apt-get install libipt-dev)"
    exit 0
fi
need build/diff/ipt "ipt diff" || exit 1
[ $# -gt 0 ] || set -- ${IPT_DIFF_ARGS:-}
build/diff/ipt -o $O "$@" || status=1

# clang: a shorter run (one seed) of the same program.
if have clang; then
    if [ -x build/diff/ipt-clang ]; then
        build/diff/ipt-clang -o $O -s 11 -p 500000 -h 500 -b 5000 > $O/clang.out 2>&1 || status=1
        sed 's/^\(PASS\|FAIL\) ipt /\1 ipt (clang) /' $O/clang.out
    else
        echo "FAIL ipt diff: build/diff/ipt-clang is not built"
        status=1
    fi
fi
exit $status
