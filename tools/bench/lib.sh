# lib.sh - shell helpers shared by the benchmark scripts (tools/bench/*.sh):
# sourced, not run. The sourcing script sets O (its output directory, under
# build/bench/out/) and CLI_RUNS. The scripts run what `make bench` built:
# build/bench/NAME (tools/bench/NAME.c) and build/tracedec.
. tests/run-lib.sh

# same_output NAME CMD1 CMD2: "yes" when both commands print the same bytes
# (compared through FIFOs: nothing stored; cmp's verdict in $O/cmp-NAME.txt).
same_output() {
    rm -f "$O/a.fifo" "$O/b.fifo"
    mkfifo "$O/a.fifo" "$O/b.fifo"
    sh -c "$2" > "$O/a.fifo" 2> "$O/$1-a.err" &
    sh -c "$3" > "$O/b.fifo" 2> "$O/$1-b.err" &
    if cmp "$O/a.fifo" "$O/b.fifo" > "$O/cmp-$1.txt" 2>&1; then r=yes; else r=no; fi
    wait
    rm -f "$O/a.fifo" "$O/b.fifo"
    echo $r
}

# secs CMD: best wall time of CLI_RUNS runs, in seconds (without hyperfine).
secs() {
    best=""
    i=0
    while [ $i -lt "$CLI_RUNS" ]; do
        t0=$(date +%s.%N)
        sh -c "$1" > /dev/null 2>&1
        t1=$(date +%s.%N)
        best=$(echo "$t0 $t1 ${best:-1e30}" | awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
        i=$((i + 1))
    done
    echo "$best"
}

# timing NAME CMD: "mean best" wall seconds over CLI_RUNS runs (hyperfine
# after one warm-up run when installed, else best of N with date).
timing() {
    if have hyperfine; then
        { hyperfine -N --style none -w 1 -r "$CLI_RUNS" --export-json "$O/hf-$1.json" "$2" > /dev/null 2>&1 ||
          hyperfine --style none -w 1 -r "$CLI_RUNS" --export-json "$O/hf-$1.json" "$2" > /dev/null 2>&1; } || return 1
        awk -F'[:,]' '/"mean"/ { m = $2 } /"min"/ { n = $2 } END { printf "%.4f %.4f\n", m, n }' "$O/hf-$1.json"
    else
        t=$(secs "$2")
        echo "$t $t"
    fi
}

# timing_note: says how timing() measures.
timing_note() {
    if have hyperfine; then
        echo "timing with hyperfine, $CLI_RUNS runs after 1 warm-up (output to /dev/null; mean and best)"
    else
        echo "hyperfine not found: best of $CLI_RUNS runs timed with date"
    fi
}

# peak_rss CMD: the command's peak resident set size in KiB ("?" without GNU time).
peak_rss() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -v sh -c "exec $1" 2>&1 > /dev/null | awk -F': ' '/Maximum resident set size/ { print $2 }'
    else
        echo "?"
    fi
}

# rate_row NAME "mean best" BYTES: one table row with MB/s on the mean.
rate_row() {
    echo "$2" | awk -v n="$1" -v b="$3" '{ printf "%-26s %9.3f %9.3f %10.1f\n", n, $1, $2, b / 1e6 / $1 }'
}
rate_header() { printf "%-26s %9s %9s %10s\n" "command" "mean s" "best s" "MB/s"; }
