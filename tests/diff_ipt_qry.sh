#!/bin/sh
# Differential test of the Intel PT query decoder (single/tdec_ipt.h, layer
# 2) against libipt's (Debian's libipt-dev 2.0.5): builds tests/diff_ipt_qry.c
# into build/ipt-diff/ and runs it; see that file for the streams, the drain
# and the documented 2.0.5-vs-master differences it filters. One line per
# check: "PASS ...", "FAIL ..." or "SKIP ... (why)".
#   sh tests/diff_ipt_qry.sh [-s SEEDS] [-m MiB]      default -s 3 -m 6
cd "$(dirname "$0")/.." || exit 2
O=build/ipt-diff
mkdir -p "$O"
WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
skip() {
    echo "SKIP ipt-qry diff: tdec_ipt queries == libipt 2.0.5 query decoder ($1)"
    exit 0
}
command -v gcc > /dev/null 2>&1 || skip "gcc not found"
[ -f /usr/include/intel-pt.h ] || skip "no /usr/include/intel-pt.h: apt-get install libipt-dev"
if ! gcc -std=c99 $WARN -O2 -g -I. tests/diff_ipt_qry.c -lipt -o $O/diff_ipt_qry > $O/build-qry.log 2>&1; then
    echo "FAIL ipt-qry diff: tests/diff_ipt_qry.c builds with gcc"
    sed -n '1,20p' $O/build-qry.log | sed 's/^/    /'
    exit 1
fi
[ $# -gt 0 ] || set -- -s 3 -m 6
$O/diff_ipt_qry "$@"
