#!/bin/sh
# Differential test of single/tdec_ipt.h against libipt's packet decoder
# (Debian's libipt-dev 2.0.5): builds tests/diff_ipt.c with gcc (and clang,
# when installed: the same checks, another compiler's optimiser) into
# build/ipt-diff/ and runs it. Streams come from tests/ipt_gen.h (libipt's
# encoder); see tests/diff_ipt.c for what is compared. One line per check:
# "PASS name", "FAIL name: why" or "SKIP name (why)"; a failing hostile or
# pattern stream is saved as build/ipt-diff/fail-*.pt.
#
#   sh tests/diff_ipt.sh [diff_ipt options]     e.g. -s 7,8 -p 3000000
# Environment: IPT_DIFF_ARGS (options when none are given; default: the
# program's defaults, ~50 M packets, ~10 s on an idle 2-core VM).
cd "$(dirname "$0")/.." || exit 2
O=build/ipt-diff
mkdir -p "$O"
rm -f "$O"/fail-*.pt
WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"

have() { command -v "$1" >/dev/null 2>&1; }
skip() {
    echo "SKIP ipt diff: tdec_ipt == libipt 2.0.5 packet decoder ($1)"
    exit 0
}

have gcc || skip "gcc not found"
[ -f /usr/include/intel-pt.h ] || skip "no /usr/include/intel-pt.h: apt-get install libipt-dev"
printf '#include <stdio.h>\n#include <intel-pt.h>\nint main(void) { struct pt_version v = pt_library_version(); printf("%%d.%%d.%%d\\n", v.major, v.minor, v.patch); return 0; }\n' > $O/probe.c
gcc $O/probe.c -lipt -o $O/probe > $O/probe.log 2>&1 || skip "cannot link -lipt: apt-get install libipt-dev"
ver=$($O/probe)
echo "libipt $ver (packet decoder and encoder)"

[ $# -gt 0 ] || set -- ${IPT_DIFF_ARGS:-}
status=0
if ! gcc -std=c99 $WARN -O2 -g -I. tests/diff_ipt.c -lipt -o $O/diff_ipt > $O/build-gcc.log 2>&1; then
    echo "FAIL ipt diff: tests/diff_ipt.c builds with gcc"
    sed -n '1,20p' $O/build-gcc.log | sed 's/^/    /'
    exit 1
fi
$O/diff_ipt -o $O "$@" || status=1

# clang: a shorter run (one seed) of the same program.
if have clang; then
    if clang -std=c99 $WARN -O2 -g -I. tests/diff_ipt.c -lipt -o $O/diff_ipt-clang > $O/build-clang.log 2>&1; then
        $O/diff_ipt-clang -o $O -s 11 -p 500000 -h 500 -b 5000 > $O/clang.out 2>&1 || status=1
        sed 's/^\(PASS\|FAIL\) ipt /\1 ipt (clang) /' $O/clang.out
    else
        echo "FAIL ipt diff: tests/diff_ipt.c builds with clang"
        sed -n '1,20p' $O/build-clang.log | sed 's/^/    /'
        status=1
    fi
fi
exit $status
