#!/bin/sh
# Golden: the Intel PT real-execution corpus (tests/data/ipt/exec/, its
# README.md says how it was recorded). For each recording, `tracedec flow`
# on its traces (returns compressed, not compressed, an IP filter) prints
# exactly the instructions traced as they ran under qemu (plus its event
# lines), reading the trace whole and, in the plain run, 1 byte at a time
# (build/cli/tracedec-chunk1). One line per check.
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
for rec in tests/data/ipt/exec/*/; do
    name=$(basename "$rec")
    if ! exec_unpack "$rec" "$T/$name"; then
        fail "ipt exec $name (cannot unpack)"
        continue
    fi
    for cli in $clis; do
        exec_flow_check "ipt exec $name: $(basename "$cli")" "$cli" "$T/$name"
    done
done
exit $status
