#!/bin/sh
# Golden: the Intel PT real-execution corpus (tests/data/ipt/exec/, its
# README.md says how it was recorded). For each recording, `tracedec flow`
# on its traces (returns compressed, not compressed, an IP filter) prints
# exactly the instructions traced as they ran under qemu (plus its event
# lines), with the block decoder (reading the trace whole and, in the plain
# run, 1 byte at a time: build/cli/tracedec-chunk1) and the instruction
# decoder. One line per check.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-ipt_exec
if ! have xz; then
    skip "ipt exec: tracedec flow == the executed instructions (no xz to unpack the corpus: apt-get install xz-utils)"
    exit 0
fi
clis=$X
[ -z "${TDEC_TAG:-}" ] && clis="$X build/cli/tracedec-chunk1"
for cli in $clis; do
    need "$cli" "ipt exec" || exit 1
done
# check REC DIR: each CLI on the recording's traces (the block decoder),
# and the instruction decoder
check() {
    for cli in $clis; do
        exec_flow_check "ipt exec $1: $(basename "$cli")" "$cli" "$2"
    done
    exec_flow_check "ipt exec $1: $(basename "$X") --insn-decoder" "$X" "$2" --insn-decoder
}
exec_each "$T" "ipt exec" check
exit $status
