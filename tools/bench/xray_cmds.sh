#!/bin/sh
# The XRay commands, tracedec against llvm-xray 14, side by side: for each
# pair of COMMANDS below, identical stdout first (cmp through FIFOs, nothing
# stored), then the time of both (hyperfine, or best of N with date) and
# their peak RSS (GNU time). bench.sh runs it (`make bench`); alone:
#
#   sh tools/bench/xray_cmds.sh [MB]        default 100
#
# The inputs, made once in build/bench/out/ (delete them to remake):
#   one.xray   ~MB megabytes of FDR v5, built by build/bench/xray from the
#              blocks of ONE sample program (fdr-threads: 5 threads), so
#              that program's map names every function id ($MAP below);
#              big.xray (bench.sh step 1) mixes programs whose ids clash.
#   many.elf   a generated C program of 20000 functions compiled with clang
#              -O1 -fxray-instrument -fxray-instruction-threshold=1 (40000
#              sleds, 4 MB): the big binary for extract (needs clang and
#              the XRay runtime; its pairs are skipped otherwise).
#
# Wall times on a shared machine wait for the CPU: the CPU time (user +
# sys, best of 3, GNU time) is printed too, and the speedup on both. GNU
# time counts in 10 ms steps: extract's 20-40 ms are at its resolution
# (time 20 runs in a loop for a finer ratio). tracedec's RSS counts the
# mapped log's pages read since they were last let go (trace.c drops
# them every 2 MB read); account's adds one 8-byte duration per call.
#
# Where the time goes (tracedec, 100 MB): the loader's first pass (a scan
# by record sizes on these clean logs) ~0.07 s, its second pass (the
# decoder, in LLVM's order) ~0.2 s; the decoder alone decodes the log in
# 0.13 s (build/bench/xray). stack and account add ~0.05 s, convert
# its output (1.3 GB of YAML, or JSON) the rest.
#
#   calls.xray ~MB megabytes from fdr-calls' block alone ($CALLS, its map
#              $CALLS_MAP): account needs a log whose calls all match (in
#              one.xray every round repeats fdr-threads' exit without enter
#              and enter without exit, and llvm-xray account -k reports each
#              refused record with every thread's ever-growing stack).
#
# COMMANDS: one pair a line, "NAME | tracedec ARGS | llvm-xray ARGS", with
# $LOG (one.xray), $MAP (its instrmap.elf) and $ELF (many.elf) expanded.
COMMANDS='
extract --symbolize | extract --symbolize $ELF | extract --symbolize $ELF
extract | extract $ELF | extract $ELF
convert yaml -y | convert --output-format=yaml --symbolize -m $MAP $LOG | convert --output-format=yaml --symbolize -m $MAP $LOG
convert yaml unsorted | convert --output-format=yaml --sort=false $LOG | convert --output-format=yaml --sort=false $LOG
convert trace_event -y | convert --output-format=trace_event -y -m $MAP $LOG | convert --output-format=trace_event -y -m $MAP $LOG
stack | stack -k -m $MAP $LOG | stack -k -m $MAP $LOG
stack flame | stack -k --all-stacks --stack-format=flame -m $MAP $LOG | stack -k --all-stacks --stack-format=flame -m $MAP $LOG
account -k -m | account -k -m $CALLS_MAP $CALLS | account -k -m $CALLS_MAP $CALLS
account csv -s sum -r dsc | account -k -f csv -s sum -r dsc $CALLS | account -k -f csv -s sum -r dsc $CALLS
'
cd "$(dirname "$0")/../.." || exit 2
O=build/bench/out
mkdir -p "$O"
MB=${1:-100}
. tools/bench/lib.sh
need build/bench/xray "bench xray commands" && need build/tracedec "bench xray commands" || exit 1

XRAY=""
for x in /usr/lib/llvm-14/bin/llvm-xray llvm-xray-14 llvm-xray; do
    if [ -x "$x" ] || have "$x"; then XRAY=$x; break; fi
done
[ -n "$XRAY" ] || { echo "SKIP bench xray commands (llvm-xray not found: apt-get install llvm-14)"; exit 0; }

SAMPLE=tests/data/xray/fdr-threads
LOG=$O/one.xray
MAP=$SAMPLE/instrmap.elf
ELF=$O/many.elf
if [ ! -s "$LOG" ]; then
    build/bench/xray -o "$LOG" -m "$MB" -n 1 "$SAMPLE/fdr-threads.xray" > "$O/one.log" || exit 1
fi
CALLS=$O/calls.xray
CALLS_MAP=tests/data/xray/fdr-calls/instrmap.elf
if [ ! -s "$CALLS" ]; then
    build/bench/xray -o "$CALLS" -m "$MB" -n 1 tests/data/xray/fdr-calls/fdr-calls.xray > "$O/calls.log" || exit 1
fi
if [ ! -s "$ELF" ] && have clang; then
    awk -v n=20000 'BEGIN {
        for (i = 0; i < n; i++) printf "int f%d(int x) { return x * %d + %d; }\n", i, i % 7 + 1, i
        printf "typedef int (*fn)(int);\nstatic fn table[] = {"
        for (i = 0; i < n; i++) printf "f%d,", i
        print "};\nint main(int c, char **v) { int s = 0; (void)v;"
        print "    for (unsigned i = 0; i < sizeof table / sizeof *table; i++) s += table[i](c);"
        print "    return s & 1; }" }' > "$O/many.c"
    clang -O1 -fxray-instrument -fxray-instruction-threshold=1 "$O/many.c" -o "$ELF" 2> "$O/many.err" || rm -f "$ELF"
fi
# cpu CMD: "best-user+sys-seconds peak-RSS-KiB" of 3 runs (GNU time)
cpu() {
    best="" rss=""
    for i in 1 2 3; do
        /usr/bin/time -f "%U %S %M" -o "$O/time.txt" sh -c "exec $1" > /dev/null 2>&1
        set -- "$1" $(cat "$O/time.txt")
        best=$(echo "$2 $3 ${best:-1e30}" | awk '{ t = $1 + $2; print (t < $3 ? t : $3) }')
        rss=$4
    done
    echo "$best $rss"
}

echo "== XRay commands: tracedec vs $XRAY"
echo "log: $LOG ($(wc -c < "$LOG") bytes, the blocks of $SAMPLE), map: $MAP; binary: $ELF"
CLI_RUNS=5
timing_note
printf "%-22s %4s %7s %7s %7s %7s %7s %7s %9s %9s\n" "command" "same" "td s" "llvm s" "wall" "td cpu" "llvm" "cpu" "td KiB" "llvm KiB"
differ=0
echo "$COMMANDS" | while IFS='|' read -r name td lx; do
    [ -n "$name" ] || continue
    name=$(echo "$name" | sed 's/ *$//')
    td=$(eval echo "$td")
    lx=$(eval echo "$lx")
    case "$td $lx" in *many.elf*) [ -s "$ELF" ] || { echo "SKIP $name (no $ELF: clang with the XRay runtime needed)"; continue; } ;; esac
    same=$(same_output xc "build/tracedec $td" "$XRAY $lx")
    CLI_RUNS=5
    t1=$(timing td "build/tracedec $td") || t1="? ?"
    CLI_RUNS=3
    t2=$(timing lx "$XRAY $lx") || t2="? ?"
    c1=$(cpu "build/tracedec $td")
    c2=$(cpu "$XRAY $lx")
    echo "$name|$same|$t1|$t2|$c1|$c2" | awk -F'|' '{
        split($3, a, " "); split($4, b, " "); split($5, c, " "); split($6, d, " ")
        printf "%-22s %4s %7.3f %7.3f %6.1fx %7.3f %7.3f %6.1fx %9s %9s\n", $1, $2, a[1], b[1], b[1] / a[1],
               c[1], d[1], (c[1] > 0 ? d[1] / c[1] : 0), c[2], d[2] }'
    [ "$same" = yes ] || { echo "  outputs DIFFER: $(cat "$O/cmp-xc.txt")"; echo differ > "$O/xray_cmds.differ"; }
done
if [ -f "$O/xray_cmds.differ" ]; then
    rm -f "$O/xray_cmds.differ"
    exit 1
fi
exit 0
