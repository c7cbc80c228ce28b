#!/bin/sh
# uftrace benchmarks (called by tools/bench/bench.sh, `make bench`): numbers, not
# pass/fail, except that tracedec's output must equal uftrace's.
#
#   1. Records a hot loop with `uftrace record --no-libcall`
#      (build/bench/uftrace_hot, tools/bench/uftrace_hot.c built with gcc -pg:
#      64 bytes of records per loop turn) until its <tid>.dat holds at least
#      MB megabytes: build/bench/out/uftrace/uftrace.data.
#   2. The library alone: build/bench/uftrace (tools/bench/uftrace.c) decodes
#      that <tid>.dat in 64 KiB chunks (and 13000-byte chunks), best of RUNS.
#   3. The CLI against uftrace: `build/tracedec CMD DIR` vs `uftrace CMD -d
#      DIR` for CMD dump, replay, report, graph, dump --chrome, dump
#      --flame-graph and dump --graphviz, each pair checked byte for byte
#      (cmp through FIFOs; nothing stored), then timed (hyperfine if
#      installed, else best of N with date), with the peak RSS of each.
#
#   sh tools/bench/uftrace.sh [MB]        default 100
# Environment: RUNS (library runs, default 3), CLI_RUNS (timed runs per
# command, default 3).
cd "$(dirname "$0")/../.." || exit 2
O=build/bench/out/uftrace
MB=${1:-100}
RUNS=${RUNS:-3}
CLI_RUNS=${CLI_RUNS:-3}
D=$O/uftrace.data

. tools/bench/lib.sh

echo "== uftrace: recording a hot loop (>= $MB MB of <tid>.dat)"
if ! have uftrace; then
    echo "uftrace not found (apt-get install uftrace): uftrace benchmarks skipped"
    exit 0
fi
for b in build/bench/uftrace_hot build/bench/uftrace build/tracedec; do need $b "bench uftrace" || exit 1; done
rm -rf "$O"
mkdir -p "$O"
cp build/bench/uftrace_hot $O/hot
# Two calls of 2 records of 16 bytes per turn.
iters=$(awk -v m="$MB" 'BEGIN { printf "%d", m * 1e6 / 64 + 1000 }')
(cd $O && uftrace record --no-libcall -d uftrace.data ./hot "$iters") > $O/record.log 2>&1 || {
    echo "uftrace record failed:"
    sed -n '1,10p' $O/record.log
    exit 1
}
rm -f $O/hot # as the golden references: symbols from the .sym files only
dat=""
for f in "$D"/*.dat; do
    case $(basename "$f") in [0-9]*.dat) dat=$f ;; esac
done
[ -n "$dat" ] || { echo "no <tid>.dat in $D"; exit 1; }
size=$(wc -c < "$dat")
total=$(cat "$D"/*.dat | wc -c)
echo "$dat: $size bytes ($total bytes of .dat in $D; $(uftrace --version 2>/dev/null | head -n 1))"

echo
echo "== uftrace library: build/bench/uftrace"
build/bench/uftrace -n "$RUNS" "$dat" || exit 1

echo
echo "== uftrace CLI: build/tracedec vs uftrace on $D"
timing_note
differ=0
for c in dump replay report graph "dump --chrome" "dump --flame-graph" "dump --graphviz"; do
    tag=$(echo "$c" | sed 's/ --*/-/g') # for file names
    s=$(same_output "$tag" "build/tracedec $c $D" "uftrace $c -d $D")
    echo "tracedec $c output identical to uftrace $c: $s"
    [ "$s" = yes ] || { differ=1; sed 's/^/    /' "$O/cmp-$tag.txt"; }
    td=$(timing "tracedec-$tag" "build/tracedec $c $D") || td=""
    ut=$(timing "uftrace-$tag" "uftrace $c -d $D") || ut=""
    rate_header
    [ -n "$td" ] && rate_row "tracedec $c" "$td" "$size"
    [ -n "$ut" ] && rate_row "uftrace $c" "$ut" "$size"
    if [ -n "$td" ] && [ -n "$ut" ]; then
        echo "$td $ut" | awk -v c="$c" '{ printf "tracedec %s is %.1fx faster than uftrace %s (means; %.1fx on best runs)\n", c, $3 / $1, c, $4 / $2 }'
    fi
    echo "peak RSS: tracedec $c $(peak_rss "build/tracedec $c $D") KiB, uftrace $c $(peak_rss "uftrace $c -d $D") KiB"
    echo
done
[ $differ -eq 1 ] && { echo "tracedec and uftrace outputs DIFFER"; exit 1; }
exit 0
