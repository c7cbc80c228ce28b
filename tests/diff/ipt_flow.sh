#!/bin/sh
# Differential test on the Intel PT real-execution corpus
# (tests/data/ipt/exec/): build/diff/ipt_flow (tests/diff/ipt_flow.c)
# decodes each recording's three traces with tracedec (whole and in 1-byte
# feeds), libipt's pt_insn_next and pt_blk_next, and compares each with the
# instructions that ran. One line per check.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
if ! [ -f /usr/include/intel-pt.h ]; then
    skip "ipt exec diff: tracedec and libipt == the executed instructions (no /usr/include/intel-pt.h: apt-get install libipt-dev)"
    exit 0
fi
if ! have xz; then
    skip "ipt exec diff: tracedec and libipt == the executed instructions (no xz to unpack the corpus: apt-get install xz-utils)"
    exit 0
fi
need build/diff/ipt_flow "ipt exec diff" || exit 1
T=build/diff-ipt_flow
rm -rf "$T"
# check REC DIR: the decoders on each of the recording's traces
check() {
    for v in $EXEC_TRACES; do
        build/diff/ipt_flow "ipt exec diff $1 ($v)" "$2/$v.pt" "$2/image" "$2/image.sections" \
            "$2/$(exec_expected $v)" || status=1
    done
}
exec_each "$T" "ipt exec diff" check
exit $status
