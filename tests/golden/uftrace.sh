#!/bin/sh
# Golden tests of `tracedec dump DIR` and `tracedec replay DIR` on the uftrace
# recordings: stdout must be byte-identical to uftrace 0.13's own
# `uftrace dump` (ref/dump.txt) and `uftrace replay` (ref/replay.txt).
# `tracedec dump --json DIR` (docs/uftrace.md): valid JSON lines with the
# records of ref/dump.txt (kind, tid, time, name, order) and, for the args
# sample, its values (tests/golden/uftrace_json.py), and the reviewed
# args/ref/tracedec.dump.json byte for byte.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-uftrace
D=tests/data/uftrace
# cmd_vs_ref CMD: `tracedec CMD DIR` == ref/CMD.txt, on every sample that has it.
# Where uftrace aborts (ref/tracedec.CMD.txt exists; tests/data/uftrace/README.md
# says why), ref/CMD.txt is what it printed before: it must begin our output,
# which must be ref/tracedec.CMD.txt.
cmd_vs_ref() {
    for dir in "$D"/*/; do
        n=$(basename "$dir")
        [ -f "$dir/ref/$1.txt" ] || continue
        "$X" "$1" "$dir/uftrace.data" > "$T/$n.$1" 2> "$T/$n.$1.err"
        rc=$?
        if [ -f "$dir/ref/tracedec.$1.txt" ]; then
            if [ $rc -eq 0 ] && begins_with "$T/$n.$1" "$dir/ref/$1.txt" && cmp -s "$T/$n.$1" "$dir/ref/tracedec.$1.txt"; then
                echo "PASS uftrace $1 $n: what uftrace $1 prints before it aborts begins ours, ours == ref/tracedec.$1.txt"
            else
                echo "FAIL uftrace $1 $n: uftrace's output before its abort does not begin ours, or ours != ref/tracedec.$1.txt (exit $rc; $T/$n.$1)"
            fi
        elif [ $rc -eq 0 ] && cmp -s "$T/$n.$1" "$dir/ref/$1.txt"; then
            echo "PASS uftrace $1 $n == uftrace $1"
        else
            echo "FAIL uftrace $1 $n != uftrace $1 (exit $rc; diff $T/$n.$1 $dir/ref/$1.txt; $(head -c 200 "$T/$n.$1.err"))"
        fi
    done
}
# derive SAMPLE COPY: COPY, a writable copy of SAMPLE's uftrace.data
# (symlinked files copied), for a case made by editing a recording; each
# such case's references were made by uftrace 0.13 on exactly that copy.
derive() {
    cp -rL "$D/$1/uftrace.data" "$2" && chmod -R u+w "$2"
}
# same_as NAME CMD DIR REF: `tracedec CMD DIR` (stdout and stderr) == REF.
same_as() {
    if "$X" "$2" "$3" 2>&1 | cmp -s - "$4"; then
        pass "uftrace $2: $1"
    else
        fail "uftrace $2: $1 (differs from $4)"
    fi
}
cmd_vs_ref dump
cmd_vs_ref replay
PY=$(command -v python3)
for dir in "$D"/*/; do
    n=$(basename "$dir")
    [ -f "$dir/ref/dump.txt" ] || continue
    ref=$dir/ref/dump.txt
    [ -f "$dir/ref/tracedec.dump.txt" ] && ref=$dir/ref/tracedec.dump.txt # (uftrace aborts)
    "$X" dump --json "$dir/uftrace.data" > "$T/$n.json" 2> "$T/$n.json.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL uftrace dump --json $n (exit $rc; $(head -c 200 "$T/$n.json.err"))"
    elif [ -z "$PY" ]; then
        echo "SKIP uftrace dump --json $n == dump.txt records (python3 not found)"
    elif msg=$("$PY" tests/golden/uftrace_json.py "$T/$n.json" "$ref" "$n" 2>&1); then
        echo "PASS uftrace dump --json $n: JSON lines, records == dump.txt ($msg)"
    else
        echo "FAIL uftrace dump --json $n: $msg"
    fi
done
if cmp -s "$T/args.json" "$D/args/ref/tracedec.dump.json"; then
    echo "PASS uftrace dump --json args == ref/tracedec.dump.json"
else
    echo "FAIL uftrace dump --json args != ref/tracedec.dump.json (diff $T/args.json $D/args/ref/tracedec.dump.json)"
fi
# Twelve perf files: uftrace 0.13 opens them in glob order (0, 1, 10, 11,
# 2, ...) and dump labels each by its index. The directory is the forkexec
# recording with copies of its perf files (perf-cpu5.dat empty); the
# references were made by uftrace 0.13 on exactly that directory.
M=$T/twelve-cpus
derive forkexec "$M"
for i in 2 3 4 5 6 7 8 9 10 11; do cp "$M/perf-cpu$((i % 2)).dat" "$M/perf-cpu$i.dat"; done
: > "$M/perf-cpu5.dat"
for cmd in dump replay; do
    same_as "12 perf files (glob order), as uftrace" $cmd "$M" "$D/forkexec/ref/$cmd-12cpus.txt"
done
# Spec items uftrace 0.13 rejects: it drops the entry and prints a "Usage:"
# line on stdout, before anything else. The directory is the badreg
# recording with bad entries added to its argspec: line and a retspec: line
# (every message and the silent cases, argument items in retspec: ignored,
# argspec: read again for "retval"); the references were made by uftrace
# 0.13 on exactly that directory.
M=$T/usage
derive badreg "$M"
sed -i 's/^argspec:lines=4$/argspec:lines=5/
s/^\(argspec:ints@.*\)$/\1;main@argx;main@fpargy;main@arg1\/q;main@arg1\/;main@arg1\/i7;main@arg1\/ix;main@arg1\/x80;main@arg1\/e:1x;main@arg1\/e;main@ARG1%RAX;main@arg1x;main@arg1%;main@arg1%R-1;main@Retval\/i8;main@retval\/u7;main@arg1\/i32,arg2\/c80\nretspec:main@retval\/q;main@arg1\/q,retval%stack+1,retval\/e:_x%xmm9;pair_sum@retval/' "$M/info"
# The same on a copy of forkexec (two sessions): the lines come once per
# session.
M2=$T/usage2
derive forkexec "$M2"
sed -i 's/^argspec:helper_main@arg1\/s$/argspec:helper_main@arg1\/s;main@arg1%RAX;main@retval\/q/' "$M2/info"
for cmd in dump replay; do
    same_as "rejected spec items give uftrace's Usage lines, entries dropped" $cmd "$M" "$D/badreg/ref/$cmd-usage.txt"
    same_as "rejected spec items give uftrace's Usage lines once per session" $cmd "$M2" "$D/forkexec/ref/$cmd-usage.txt"
done
# Ties under a time filter: uftrace 0.13 then reads the perf records as
# per-task event lists and takes the earliest, a tie going to the first
# task in taskinfo order (without a filter, to the first perf file). The
# directory is the fork recording with `-t 1us` in default.opts and the
# parent's sched-in (perf-cpu0.dat offset 472, time at +16) moved to the
# time of the child's sched-out before it in the file; the reference was
# made by uftrace 0.13 on exactly that directory.
M=$T/ties
derive fork "$M"
echo "-t 1us" > "$M/default.opts"
printf '\040\373\236\211\204\000\000\000' | dd of="$M/perf-cpu0.dat" bs=1 seek=488 conv=notrunc 2>/dev/null
same_as "equal perf times under a time filter in taskinfo order, as uftrace" replay "$M" "$D/fork/ref/replay-ties.txt"
# The register names are those of the recorded architecture: the badreg
# copy with cpuinfo:desc saying ARM64 (X0..X7, S0..S7, D0..D7) and two more
# entries. uftrace 0.13 then drops flt's entry (%xmm1) and stops at its
# argument block ("record missing argument info", exit status 1): what it
# printed on stdout (ref/dump-arm64.txt, its Usage lines first) must begin
# our dump, which stops there with an error too.
M=$T/arm64
derive badreg "$M"
sed -i 's/^cpuinfo:desc=.*/cpuinfo:desc=ARM64 Cortex/
s/^\(argspec:ints@.*\)$/\1;main@arg1%X3;main@arg1%d7,arg2%RDI/' "$M/info"
"$X" dump "$M" > "$T/arm64.out" 2> "$T/arm64.err"
rc=$?
if [ $rc -eq 1 ] && begins_with "$T/arm64.out" "$D/badreg/ref/dump-arm64.txt" &&
    grep -q "record missing argument info" "$T/arm64.err"; then
    pass "uftrace dump: ARM64 register names; what uftrace printed before it stopped begins ours"
else
    fail "uftrace dump: ARM64 register names; what uftrace printed before it stopped begins ours" "$T/arm64.out"
fi
# default.opts: its options apply after the command line's, as uftrace's
# (ref/replay-default-opts.txt: `uftrace replay -d DIR` with this
# default.opts); one tracedec does not know gets a note on stderr.
M=$T/opts
derive timefilter "$M"
echo "-D 2 -t 50us --no-libcall --no-pager" > "$M/default.opts"
"$X" replay "$M" > "$T/opts.out" 2> "$T/opts.err"
if cmp -s "$T/opts.out" "$D/timefilter/ref/replay-default-opts.txt" &&
    grep -q "^tracedec: note: .*default.opts: options not applied .*: --no-pager\$" "$T/opts.err"; then
    pass "uftrace replay: default.opts -D, -t and --no-libcall applied, the option tracedec does not know noted on stderr"
else
    fail "uftrace replay: default.opts -D, -t and --no-libcall applied, the option tracedec does not know noted on stderr" "$T/opts.err"
fi
exit 0
