#!/bin/sh
# Benchmarks (`make bench`): numbers, not pass/fail.
#
#   1. tools/bench_xray.c (-O2): builds a ~100 MB FDR v5 log from the real
#      sample blocks (build/bench/big.xray) and times the library on it
#      (one chunk and 64 KiB chunks) beside a plain memory scan.
#   2. The CLI against the reference tool on that file: checks that
#      `build/tracedec dump` and `llvm-xray fdr-dump` print the same bytes,
#      then times both (hyperfine if installed, else best of N with date)
#      and measures the CLI's peak RSS (GNU time, package `time`).
#   3. uftrace (tools/bench_uftrace.sh): records a hot loop with uftrace
#      (>= MB megabytes of <tid>.dat), times the library on it
#      (tools/bench_uftrace.c) and `tracedec dump`/`replay` against
#      `uftrace dump`/`replay` after checking they print the same bytes.
#
#   sh tools/bench.sh [MB]        default 100
# Environment: CC (default gcc), RUNS (library runs, default 7).
cd "$(dirname "$0")/.." || exit 2
O=build/bench
mkdir -p "$O"
MB=${1:-100}
RUNS=${RUNS:-7}
CC=${CC:-gcc}
WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
BIG=$O/big.xray

have() { command -v "$1" >/dev/null 2>&1; }

echo "== library: tools/bench_xray.c ($CC -O2)"
$CC -std=c99 $WARN -O2 -I. tools/bench_xray.c -o $O/bench_xray || exit 1
$O/bench_xray -o "$BIG" -m "$MB" -n "$RUNS" || exit 1
size=$(wc -c < "$BIG")

echo
echo "== CLI: build/tracedec dump vs llvm-xray fdr-dump on $BIG ($size bytes)"
[ -x build/tracedec ] || make -s build/tracedec || exit 1
XRAY=""
for x in /usr/lib/llvm-14/bin/llvm-xray llvm-xray llvm-xray-14; do
    if [ -x "$x" ] || have "$x"; then XRAY=$x; break; fi
done

# Identical output first: both streams into cmp through FIFOs (the text is
# several hundred MB; nothing is stored).
same=unknown
if [ -n "$XRAY" ]; then
    rm -f $O/a.fifo $O/b.fifo
    mkfifo $O/a.fifo $O/b.fifo
    build/tracedec dump "$BIG" > $O/a.fifo 2> $O/tracedec.err &
    $XRAY fdr-dump "$BIG" > $O/b.fifo 2> $O/llvm-xray.err &
    if cmp $O/a.fifo $O/b.fifo; then same=yes; else same=no; fi
    wait
    rm -f $O/a.fifo $O/b.fifo
    echo "output identical to llvm-xray fdr-dump: $same"
else
    echo "llvm-xray not found (apt-get install llvm-14): timing tracedec alone"
fi

# secs CMD: best wall time of RUNS_CLI runs, in seconds (no hyperfine).
secs() {
    best=""
    i=0
    while [ $i -lt "$RUNS_CLI" ]; do
        t0=$(date +%s.%N)
        sh -c "$1" > /dev/null 2>&1
        t1=$(date +%s.%N)
        best=$(echo "$t0 $t1 ${best:-1e30}" | awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
        i=$((i + 1))
    done
    echo "$best"
}

# hf NAME RUNS CMD: hyperfine mean and min, in seconds, as "mean min".
hf() {
    hyperfine -N --style none -w 1 -r "$2" --export-json "$O/hf-$1.json" "$3" > /dev/null 2>&1 ||
        hyperfine --style none -w 1 -r "$2" --export-json "$O/hf-$1.json" "$3" > /dev/null 2>&1 || return 1
    awk -F'[:,]' '/"mean"/ { m = $2 } /"min"/ { n = $2 } END { printf "%.4f %.4f\n", m, n }' "$O/hf-$1.json"
}

TD="build/tracedec dump $BIG"
LX="$XRAY fdr-dump $BIG"
if have hyperfine; then
    echo "timing with hyperfine (output to /dev/null; mean and best of the runs)"
    td=$(hf tracedec 10 "$TD") || td=""
    lx=""
    [ -n "$XRAY" ] && { lx=$(hf llvm-xray 3 "$LX") || lx=""; }
else
    echo "hyperfine not found: best of N runs timed with date"
    RUNS_CLI=5
    t=$(secs "$TD")
    td="$t $t"
    lx=""
    if [ -n "$XRAY" ]; then
        RUNS_CLI=3
        t=$(secs "$LX")
        lx="$t $t"
    fi
fi

row() { # NAME "mean min"
    echo "$2" | awk -v n="$1" -v b="$size" '{ printf "%-26s %9.3f %9.3f %10.1f\n", n, $1, $2, b / 1e6 / $1 }'
}
printf "%-26s %9s %9s %10s\n" "command" "mean s" "best s" "MB/s"
[ -n "$td" ] && row "tracedec dump" "$td"
[ -n "$lx" ] && row "llvm-xray fdr-dump" "$lx"
if [ -n "$td" ] && [ -n "$lx" ]; then
    echo "$td $lx" | awk '{ printf "tracedec dump is %.1fx faster than llvm-xray fdr-dump (means; %.1fx on best runs)\n", $3 / $1, $4 / $2 }'
fi

if [ -x /usr/bin/time ]; then
    rss=$(/usr/bin/time -v build/tracedec dump "$BIG" 2>&1 > /dev/null | awk -F': ' '/Maximum resident set size/ { print $2 }')
    echo "tracedec dump peak RSS: ${rss:-?} KiB"
    if [ -n "$XRAY" ]; then
        rss=$(/usr/bin/time -v $XRAY fdr-dump "$BIG" 2>&1 > /dev/null | awk -F': ' '/Maximum resident set size/ { print $2 }')
        echo "llvm-xray fdr-dump peak RSS: ${rss:-?} KiB"
    fi
else
    echo "peak RSS not measured: /usr/bin/time not found (apt-get install time)"
fi

echo
# 3. uftrace: a live recording of >= MB megabytes, library and CLI.
ustatus=0
sh tools/bench_uftrace.sh "$MB" || ustatus=1
[ "$same" = no ] && { echo "tracedec dump and llvm-xray fdr-dump outputs DIFFER"; exit 1; }
exit $ustatus
