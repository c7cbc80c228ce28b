#!/bin/sh
# xtrace benchmarks (called by tools/bench/bench.sh, `make bench`): numbers, not
# pass/fail, except that the generated stream must decode cleanly.
#
#   1. The library: build/bench/xtrace (tools/bench/xtrace.c) generates an
#      instruction stream of >= MB megabytes (default 200; no public sample
#      exists) with tests/gen/xtrace_encoder.h, writes it to
#      build/bench/out/xtrace/, and times the decoder on it beside a memory
#      scan.
#   2. The CLI on that file: `tracedec info` (its token count must be the
#      generator's), `dump`, `dump --json`, in MB of stream per second. No
#      reference tool exists to compare with.
#
#   sh tools/bench/xtrace.sh [MB]
# Environment: RUNS (library runs, default 5), CLI_RUNS (timed runs per
# command, default 3).
cd "$(dirname "$0")/../.." || exit 2
O=build/bench/out/xtrace
MB=${1:-200}
RUNS=${RUNS:-5}
CLI_RUNS=${CLI_RUNS:-3}
F=$O/xtrace.1700000000123.4242.hint9.xinsndata.bin
. tools/bench/lib.sh
need build/bench/xtrace "bench xtrace" && need build/tracedec "bench xtrace" || exit 1

rm -rf "$O"
mkdir -p "$O"
echo "== xtrace library: build/bench/xtrace"
build/bench/xtrace -m "$MB" -n "$RUNS" -o "$F" | tee $O/lib.out || exit 1
size=$(wc -c < "$F")

echo
echo "== xtrace CLI: build/tracedec on $F ($size bytes)"
want=$(awk '/ tokens \(/ { for (i = 1; i <= NF; i++) if ($i == "tokens") print $(i - 1) }' $O/lib.out)
got=$(build/tracedec info "$F" 2>/dev/null | awk '$1 == "tokens:" { print $2 }')
same=no
[ -n "$want" ] && [ "$want" = "$got" ] && same=yes
echo "tracedec info counts the generator's $want tokens: $same${got:+ ($got)}"
timing_note
rate_header
for mode in info dump dump--json; do
    args=$(echo "$mode" | sed 's/--/ --/')
    td=$(timing "xtrace-$mode" "build/tracedec $args $F") && rate_row "tracedec $args" "$td" "$size"
done
echo "tracedec dump peak RSS: $(peak_rss "build/tracedec dump $F") KiB"
[ $same = yes ]
