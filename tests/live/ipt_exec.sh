#!/bin/sh
# Live: a real run recorded at test time. The C++ exception program
# (tests/exec/exceptions.cpp; 64-bit, and 32-bit when g++ -m32 works) runs
# under qemu-user with the recording plugin (tests/exec/record.sh, the
# image with whole code pages); then `tracedec flow` ($TRACEDEC) and
# build/diff/ipt_flow (tracedec whole and 1-byte fed, libipt's instruction
# and block decoders) must each give exactly the instructions that ran.
# One line per check; a loud SKIP without qemu-user, libipt or xz.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir live-ipt_exec
what="ipt exec live: a run recorded under qemu decodes to the instructions that ran"
if ! have qemu-x86_64; then
    skip "$what (no qemu-x86_64: apt-get install qemu-user)"
    exit 0
fi
if ! [ -f /usr/include/intel-pt.h ]; then
    skip "$what (no /usr/include/intel-pt.h for the trace writer: apt-get install libipt-dev)"
    exit 0
fi
for b in "$X" build/exec/plugin.so build/exec/writer build/exec/exceptions64 build/diff/ipt_flow; do
    need "$b" "ipt exec live" || exit 1
done
modes=64
if [ -x build/exec/exceptions32 ]; then
    modes="64 32"
else
    skip "ipt exec live 32-bit (build/exec/exceptions32 not built: g++ -m32 needs g++-multilib)"
fi
for m in $modes; do
    d=$T/exceptions$m
    if ! sh tests/exec/record.sh "$d" "$m" "build/exec/exceptions$m" 2> "$T/record$m.err"; then
        fail "ipt exec live $m-bit (recording)" "$T/record$m.err"
        continue
    fi
    if [ "$(cat "$d/stdout")" = "sum 336, destroyed 21" ]; then
        pass "ipt exec live $m-bit: the program ran under qemu as it runs natively"
    else
        fail "ipt exec live $m-bit: the program ran under qemu as it runs natively" "$d/stdout"
    fi
    exec_flow_check "ipt exec live $m-bit: $(basename "$X")" "$X" "$d"
    [ -n "${TDEC_TAG:-}" ] && continue
    for v in $EXEC_TRACES; do
        build/diff/ipt_flow "ipt exec live $m-bit ($v)" "$d/$v.pt" "$d/image" "$d/image.sections" \
            "$d/$(exec_expected $v)" || status=1
    done
done
exit $status
