#!/bin/sh
# Intel PT benchmarks (called by tools/bench/bench.sh, `make bench`): numbers, not
# pass/fail, except that the generated stream must decode to the same
# packets in every case.
#
#   1. The library: build/bench/ipt (tools/bench/ipt.c) generates the
#      anchor report's synthetic stream (>= MiB mebibytes, default 256)
#      with libipt's encoder (tests/gen/ipt_gen.h, IPT_GEN_MIX_BENCH), writes it to build/bench/out/ipt/stream.pt, and
#      times in one process on that buffer: tdec_ipt_next, tdec_ipt_next_n,
#      tdec_ipt_next in 64 KiB chunks, libipt's pt_pkt_next and a memory
#      scan; medians of RUNS rounds.
#   2. Layer 2: build/bench/ipt_evq (tools/bench/ipt_evq.c) generates the
#      same mix as a trace valid for events and queries (IPT_GEN_MIX_FLOW)
#      and times our event decoder, our query drain and libipt's query drain
#      on it.
#   3. The CLI on that file, when build/tracedec has the PT front end:
#      `tracedec dump` and `dump --no-pad` in MB/s, and the peak RSS; beside
#      ptdump when PTDUMP names one you built (or LIBIPT_DIR has bin/ptdump:
#      no ptdump ships with Debian; libipt master's measured 4.1-5.3 MB/s
#      on the same mix, docs/ipt.md "Speed"), after checking that both print the same bytes.
#
#   4. Layer 3: build/bench/ipt_flow
#      (tools/bench/ipt_flow.c) on each real run's trace `make bench-traces`
#      wrote into build/bench/traces/, cut to its first FLOW_MB MiB (default
#      16): our block and instruction decoders beside libipt's, and
#      `tracedec flow` (its lines to /dev/null).
#
# Both programs link the system's libipt (Debian's 2.0.5), or with
# `make LIBIPT_DIR=dir bench` a libipt cmake build directory of your own
# (e.g. of master, for figures side by side with that version; step 2 then
# also times its pt_evt_next). Without libipt the Makefile builds neither
# and this script says so.
#
#   sh tools/bench/ipt.sh [MiB]
# Environment: RUNS (library rounds, default 5), CLI_RUNS (timed runs per
# command, default 3), PTDUMP, LIBIPT_DIR, FLOW_MB.
cd "$(dirname "$0")/../.." || exit 2
O=build/bench/out/ipt
MB=${1:-256}
RUNS=${RUNS:-5}
CLI_RUNS=${CLI_RUNS:-3}
F=$O/stream.pt
. tools/bench/lib.sh

rm -rf "$O"
mkdir -p "$O"
echo "== Intel PT library: build/bench/ipt against libipt's packet decoder"
if [ ! -x build/bench/ipt ] || [ ! -x build/bench/ipt_evq ]; then
    echo "build/bench/ipt and ipt_evq not built: they need libipt (apt-get install libipt-dev, or make LIBIPT_DIR=dir bench); skipped"
    exit 0
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc 2>/dev/null || echo '?') CPUs"
build/bench/ipt -m "$MB" -n "$RUNS" -o "$F" | tee $O/lib.out || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
size=$(wc -c < "$F")

echo
echo "== Intel PT layer 2: build/bench/ipt_evq: events and queries against libipt's query decoder"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
build/bench/ipt_evq -m "$MB" -n "$RUNS" | tee $O/evq.out || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "== Intel PT CLI: build/tracedec on $F ($size bytes)"
need build/tracedec "bench ipt" || exit 1
if ! build/tracedec dump --format=ipt "$F" 2>/dev/null | head -c 4096 | grep -q psb; then
    echo "build/tracedec dump --format=ipt $F printed no psb"
    exit 1
fi
timing_note
rate_header
for mode in dump dump--no-pad; do
    args=$(echo "$mode" | sed 's/--/ --/')
    td=$(timing "ipt-$mode" "build/tracedec $args --format=ipt $F") && rate_row "tracedec $args" "$td" "$size"
done
echo "tracedec dump peak RSS: $(peak_rss "build/tracedec dump --format=ipt $F") KiB"
PTDUMP=${PTDUMP:-${LIBIPT_DIR:+$LIBIPT_DIR/bin/ptdump}}
if [ -n "$PTDUMP" ] && [ -x "$PTDUMP" ]; then
    echo
    echo "== the same beside $PTDUMP (the output must be the same bytes)"
    for mode in dump dump--no-pad; do
        args=$(echo "$mode" | sed 's/--/ --/')
        popt=$(echo "$args" | sed 's/^dump//')
        echo "tracedec $args == ptdump$popt: $(same_output "ipt-$mode" "build/tracedec $args --format=ipt $F" "$PTDUMP$popt $F")"
        tp=$(timing "ptdump-$mode" "$PTDUMP$popt $F") && rate_row "ptdump$popt" "$tp" "$size"
    done
    echo "ptdump peak RSS: $(peak_rss "$PTDUMP $F") KiB"
else
    echo "no ptdump (PTDUMP or LIBIPT_DIR/bin/ptdump): libipt master's ptdump measured 4.1-5.3 MB/s on this mix (docs/ipt.md)"
fi

# 4. Layer 3 on real runs' traces (`make bench-traces` writes them).
echo
echo "== Intel PT layer 3: build/bench/ipt_flow on build/bench/traces (real runs under qemu)"
TR=build/bench/traces
if ! ls $TR/*-ret.pt >/dev/null 2>&1; then
    echo "no traces in $TR: make bench-traces first; skipped"
    exit 0
fi
FLOW_MB=${FLOW_MB:-16}
echo "each trace cut at its first PSB after $FLOW_MB MiB (FLOW_MB)"
for full in $TR/*-ret.pt $TR/*-noret.pt; do
    prog=$(basename "$full" .pt)
    t=$O/$prog-cut.pt
    python3 -c 'import sys
d = open(sys.argv[1], "rb").read(int(sys.argv[3]) + 65536)
at = d.find(bytes([2, 0x82]) * 8, int(sys.argv[3]))
open(sys.argv[2], "wb").write(d if at < 0 else d[:at])' "$full" "$t" $((FLOW_MB * 1048576)) || exit 1
    prog=${prog%-*}
    # shellcheck disable=SC2046
    build/bench/ipt_flow -n "$RUNS" --pt "$t" $(sed "s|^|--raw $TR/$prog.img:|" "$TR/$prog.img.sections") |
        tee "$O/flow-$(basename "$t" .pt).out" || exit 1
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
    args="--pt $t $(sed "s|^|--raw $TR/$prog.img:|" "$TR/$prog.img.sections")"
    # shellcheck disable=SC2086
    tf=$(timing "flow-$prog" "build/tracedec flow $args") && echo "tracedec flow $(basename "$t"): $tf s"
done
exit 0
