#!/bin/sh
# Intel PT benchmarks (called by tools/bench/bench.sh, `make bench`): numbers, not
# pass/fail, except that the generated stream must decode to the same
# packets in every case.
#
#   1. The library: tools/bench/ipt.c (gcc -O2, -lipt) generates the anchor
#      report's synthetic stream (../shared/formats/ipt/REPORT.md section 2,
#      >= MiB mebibytes, default 256) with libipt's encoder
#      (tests/gen/ipt_gen.h), writes it to build/bench/ipt/stream.pt, and times
#      in one process on that buffer: tdec_ipt_next, tdec_ipt_next_n,
#      tdec_ipt_next in 64 KiB chunks, libipt's pt_pkt_next (the system
#      library, Debian's 2.0.5) and a memory scan; medians of RUNS rounds.
#   2. Layer 2: tools/bench/ipt_evq.c generates the same mix as a trace
#      valid for events and queries (IPT_GEN_MIX_FLOW) and times our event
#      decoder, our query drain and libipt's query drain on it.
#   3. The CLI on that file, when build/tracedec has the PT front end:
#      `tracedec dump` and `dump --no-pad` in MB/s, and the peak RSS; beside
#      ptdump when PTDUMP names one you built (or LIBIPT_DIR has bin/ptdump:
#      no ptdump ships with Debian; REPORT.md measured it at 4.1-5.3 MB/s
#      on the same mix), after checking that both print the same bytes.
#
#   sh tools/bench/ipt.sh [MiB]
# Environment: CC (default gcc), RUNS (library rounds, default 5), CLI_RUNS
# (timed runs per command, default 3), LIBIPT_DIR (a libipt build directory
# you made yourself, e.g. of master: steps 1 and 2 link it instead of the
# system library, for figures side by side with that version; step 2 then
# also times its pt_evt_next).
cd "$(dirname "$0")/../.." || exit 2
O=build/bench/ipt
MB=${1:-256}
RUNS=${RUNS:-5}
CLI_RUNS=${CLI_RUNS:-3}
CC=${CC:-gcc}
WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
F=$O/stream.pt
. tools/bench/lib.sh

rm -rf "$O"
mkdir -p "$O"
echo "== Intel PT library: tools/bench/ipt.c ($CC -O2) against libipt's packet decoder"
LIBIPT="-lipt"
if [ -n "$LIBIPT_DIR" ]; then
    if [ ! -f "$LIBIPT_DIR/libipt/include/intel-pt.h" ]; then
        echo "LIBIPT_DIR=$LIBIPT_DIR has no libipt/include/intel-pt.h (a libipt cmake build directory is expected)"
        exit 1
    fi
    LIBIPT="-I$LIBIPT_DIR/libipt/include -L$LIBIPT_DIR/lib -Wl,-rpath,$LIBIPT_DIR/lib -lipt"
elif [ ! -f /usr/include/intel-pt.h ]; then
    echo "libipt not installed (apt-get install libipt-dev): the PT benchmark needs its encoder and decoder; skipped"
    exit 0
fi
$CC -std=c99 $WARN -O2 -I. tools/bench/ipt.c $LIBIPT -o $O/bench_ipt || exit 1
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc 2>/dev/null || echo '?') CPUs"
$O/bench_ipt -m "$MB" -n "$RUNS" -o "$F" | tee $O/lib.out || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
size=$(wc -c < "$F")

echo
echo "== Intel PT layer 2: tools/bench/ipt_evq.c ($CC -O2): events and queries against libipt's query decoder"
$CC -std=c99 $WARN -O2 -I. tools/bench/ipt_evq.c $LIBIPT -o $O/bench_ipt_evq || exit 1
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
$O/bench_ipt_evq -m "$MB" -n "$RUNS" | tee $O/evq.out || exit 1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "== Intel PT CLI: build/tracedec on $F ($size bytes)"
[ -x build/tracedec ] || make -s build/tracedec > $O/make.log 2>&1
if [ ! -x build/tracedec ] ||
   ! build/tracedec dump --format=ipt "$F" 2>/dev/null | head -c 4096 | grep -q psb; then
    echo "build/tracedec has no Intel PT front end (yet): CLI timing skipped"
    exit 0
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
    echo "no ptdump (PTDUMP or LIBIPT_DIR/bin/ptdump): REPORT.md measured libipt's at 4.1-5.3 MB/s on this mix"
fi
exit 0
