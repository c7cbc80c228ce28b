#!/bin/sh
# ovni benchmarks (called by tools/bench/bench.sh, `make bench`): numbers, not
# pass/fail, except that the generated trace must decode cleanly.
#
#   1. The library: build/bench/ovni (tools/bench/ovni.c) builds a
#      multi-stream trace of >= MB megabytes (default 200) by repeating the
#      real events of samples s03-s06 (12 streams) with rising clocks, writes
#      it under build/bench/out/ovni/trace, and times the decoder on it
#      beside a memory scan.
#   2. The CLI on that trace: `tracedec dump`, `dump --hex`, `top` (and
#      `dump --chrome`, which has no reference), in MB of
#      trace per second. ovni is not a Debian package: with OVNIDUMP=path to
#      an ovnidump built from ovni's sources (and OVNITOP likewise), the
#      outputs are checked identical (tracedec with --ovnidump-ties) and the
#      reference tools are timed too.
#
#   sh tools/bench/ovni.sh [MB]
# Environment: RUNS (library runs, default 5), CLI_RUNS (timed runs per
# command, default 3), OVNIDUMP, OVNITOP.
cd "$(dirname "$0")/../.." || exit 2
O=build/bench/out/ovni
MB=${1:-200}
RUNS=${RUNS:-5}
CLI_RUNS=${CLI_RUNS:-3}
S=tests/data/ovni
. tools/bench/lib.sh
need build/bench/ovni "bench ovni" && need build/tracedec "bench ovni" || exit 1

rm -rf "$O"
mkdir -p "$O"
echo "== ovni library: build/bench/ovni"
build/bench/ovni -m "$MB" -n "$RUNS" -o "$O/trace" \
    $S/s03-jumbo/ovni/loom.*/proc.*/thread.* $S/s04-multithread/ovni/loom.*/proc.*/thread.* \
    $S/s05-two-procs-one-loom/ovni/loom.*/proc.*/thread.* $S/s06-many-events/ovni/loom.*/proc.*/thread.* ||
    exit 1
size=$(find "$O/trace" -name stream.obs -exec cat {} + | wc -c)

echo
echo "== ovni CLI: build/tracedec on $O/trace ($size bytes of streams)"
timing_note
differ=0
rate_header
for mode in dump dump--hex top; do
    args=$(echo "$mode" | sed 's/--/ --/')
    td=$(timing "tracedec-$mode" "build/tracedec $args $O/trace") && rate_row "tracedec $args" "$td" "$size"
    [ -n "${OVNIDUMP:-}" ] || continue
    case $mode in
    dump) ref="$OVNIDUMP $O/trace" ;;
    dump--hex) ref="$OVNIDUMP -x $O/trace" ;;
    top) [ -n "${OVNITOP:-}" ] || continue; ref="$OVNITOP $O/trace" ;;
    esac
    s=$(same_output "$mode" "build/tracedec $args --ovnidump-ties $O/trace" "$ref")
    [ "$s" = yes ] || differ=1
    rt=$(timing "ref-$mode" "$ref") && rate_row "$(echo "$ref" | sed "s| $O/trace||; s|.*/||")" "$rt" "$size"
    echo "$td $rt $s" | awk '{ printf "  tracedec is %.1fx faster (means; %.1fx on best runs); identical output: %s\n", $3 / $1, $4 / $2, $5 }'
done
td=$(timing "tracedec-chrome" "build/tracedec dump --chrome $O/trace") && rate_row "tracedec dump --chrome" "$td" "$size"
echo "  (no reference tool: ovni has no Chrome output)"
echo "tracedec dump peak RSS: $(peak_rss "build/tracedec dump $O/trace") KiB"
echo "tracedec dump --chrome peak RSS: $(peak_rss "build/tracedec dump --chrome $O/trace") KiB"
[ -n "${OVNIDUMP:-}" ] && echo "ovnidump peak RSS: $(peak_rss "$OVNIDUMP $O/trace") KiB"
[ -n "${OVNIDUMP:-}" ] || echo "(set OVNIDUMP=/path/to/ovnidump, OVNITOP=... to compare with ovni's tools)"
exit $differ
