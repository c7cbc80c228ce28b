#!/bin/sh
# Large Intel PT traces of real runs, with their code images, for the flow
# benchmark (`make bench-traces`; a few minutes, 2 GB of disk at most).
# Each program runs under qemu-user with the recording plugin
# (tests/exec/plugin.c); its log goes through a FIFO (never stored) to the
# trace writer (tests/exec/writer.c), twice at once: returns compressed
# (-r, what hardware writes) and not. The input is a text of KB kibibytes
# from a fixed pseudo-random generator, so the traces are the same on every
# run of this qemu and these programs.
#
#   sh tools/bench/ipt_traces.sh [KB]      or `make bench-traces KB=N`;
#                                          default 8000: xz -6 4.8 G
#                                          instructions, 99 MB of trace (184 MB
#                                          without return compression); gzip -6
#                                          3.2 G, 129 MB (168 MB); 6 minutes on
#                                          2 cores. Trace size grows with KB.
# Writes into build/bench/traces/, for each PROG (xz, gzip):
#   PROG-ret.pt, PROG-noret.pt   the traces (PSB+ every 4 KiB)
#   PROG.img, PROG.img.sections  the image: `tracedec flow --pt PROG-ret.pt
#                                $(sed "s|^|--raw PROG.img:|" PROG.img.sections)`
#                                (lines OFFSET-END:VADDR, 64-bit mode)
#   PROG-ret.digest, PROG-noret.digest   count and hash of the instructions
#                                (tests/exec/digest.h): build/diff/ipt_flow
#                                checks decoders against them
#   PROG.txt                     instructions, trace sizes, seconds
# With CHECK=1 build/diff/ipt_flow then decodes every trace with tracedec
# (whole, 1-byte feeds), libipt's pt_insn_next and pt_blk_next and compares
# each with the digest and the others' events (minutes more).
# Needs qemu-x86_64 (qemu-user), libipt-dev and xz-utils/gzip; the
# Makefile builds build/exec/plugin.so and build/exec/writer first.
cd "$(dirname "$0")/../.." || exit 2
KB=${1:-8000}
O=build/bench/traces
for t in build/exec/plugin.so build/exec/writer build/diff/ipt_flow; do
    [ -x "$t" ] || [ -f "$t" ] || { echo "ipt_traces: $t is not built (needs libipt-dev and qemu-user)"; exit 1; }
done
command -v qemu-x86_64 >/dev/null 2>&1 || { echo "ipt_traces: no qemu-x86_64 (apt-get install qemu-user)"; exit 1; }
mkdir -p "$O"
awk -v kb="$KB" 'BEGIN { s = 12345; n = 0
    while (n < kb * 1024) {
        s = (s * 1103515245 + 12345) % 2147483648
        w = sprintf("%s%d ", (s % 7 == 0 ? "\n" : "w"), s % 1000); printf "%s", w; n += length(w) } }' > "$O/input.txt"
for prog in xz gzip; do
    rm -f "$O/log.fifo" "$O/log2.fifo"
    mkfifo "$O/log.fifo" "$O/log2.fifo"
    t0=$(date +%s)
    qemu-x86_64 -plugin build/exec/plugin.so,out="$O/log.fifo" "/usr/bin/$prog" -6 -c "$O/input.txt" > /dev/null &
    build/exec/writer -t "$O/$prog-noret.pt" -d "$O/$prog-noret.digest" "$O/log2.fifo" 2> "$O/$prog-noret.err" &
    tee "$O/log2.fifo" < "$O/log.fifo" |
        build/exec/writer -r -t "$O/$prog-ret.pt" -d "$O/$prog-ret.digest" -i "$O/$prog.img" /dev/stdin \
            2> "$O/$prog-ret.err"
    rc=$?
    wait
    t1=$(date +%s)
    rm -f "$O/log.fifo" "$O/log2.fifo"
    { cat "$O/$prog-ret.err" "$O/$prog-noret.err"; echo "seconds: $((t1 - t0))"; } > "$O/$prog.txt"
    rm -f "$O/$prog-ret.err" "$O/$prog-noret.err"
    if [ $rc -ne 0 ] || ! [ -s "$O/$prog-noret.pt" ]; then
        echo "ipt_traces: $prog failed:"; cat "$O/$prog.txt"; exit 1
    fi
    echo "$O/$prog-ret.pt $O/$prog-noret.pt:"
    sed 's/^/  /' "$O/$prog.txt"
    [ "${CHECK:-0}" = 1 ] || continue
    for v in ret noret; do
        build/diff/ipt_flow "$prog-$v" "$O/$prog-$v.pt" "$O/$prog.img" "$O/$prog.img.sections" \
            "$O/$prog-$v.digest" || rc=1
    done
    [ $rc -eq 0 ] || exit 1
done
rm -f "$O/input.txt"
