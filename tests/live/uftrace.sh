#!/bin/sh
# Live uftrace test: records fresh data with this machine's uftrace
# (build/live/uftrace_prog, made by `make test` from tests/live/uftrace_prog.c
# with gcc -pg: nested calls, recursion, a loop, libc calls, a thread, a
# fork, string/int/float arguments) and compares build/tracedec with
# uftrace itself on it.
# One line per check: "PASS name", "FAIL name" or "SKIP name (why)".
#
#   spec recording:  uftrace record -A ... -R ... (explicit argument specs)
#   auto recording:  uftrace record -a (auto-args: DWARF and libc prototypes)
#   for each:        tracedec dump   == uftrace dump -d DIR,   byte for byte
#                    tracedec replay == uftrace replay -d DIR, byte for byte
#   extern:          the spec recording with an extern.dat (external data,
#                    see extern_data below): replay, byte for byte
#   nodata-*:        the spec recording with its <tid>.dat files emptied or
#                    removed: both tools refuse it, same (empty) stdout
#   replace:         specs replacing earlier ones (same register, argN/f
#                    after fpargN, same stack offset): dump and replay
#
# Each comparison is made twice: with the program binary still in place
# (uftrace may read it) and after deleting it (as the references under
# tests/data/uftrace were made).
# Needs uftrace (Debian package uftrace; 0.13 is the version tracedec
# follows). TRACEDEC names the CLI to test (default build/tracedec). Outputs
# go to build/live/uftrace/ (build/live/uftrace-TAG/ with TDEC_TAG).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir live/uftrace
O=$T
P=build/live/uftrace_prog

if ! have uftrace; then
    for r in spec auto; do
        for c in dump replay; do
            skip "live uftrace $r: tracedec $c == uftrace $c (uftrace not found: apt-get install uftrace)"
        done
    done
    exit 0
fi
need "$X" "live uftrace" || exit 1
need $P "live uftrace" || exit 1
ver=$(uftrace --version 2>/dev/null | head -n 1)

# record NAME OPTIONS...: records the program into $O/NAME/uftrace.data.
record() {
    r=$1
    shift
    mkdir -p $O/$r
    cp $P $O/$r/prog
    (cd $O/$r && timeout 120 uftrace record -d uftrace.data "$@" ./prog) > $O/$r/record.log 2>&1
}

# compare NAME CMD WHEN: tracedec CMD vs uftrace CMD on $O/NAME/uftrace.data.
compare() {
    r=$1 c=$2 when=$3
    d=$O/$r/uftrace.data
    base=$O/$r/$c-$when
    name="live uftrace $r: tracedec $c == uftrace $c (binary $when)"
    log=$base.log
    : > "$log"
    uftrace $c -d "$d" > $base.ref 2>> "$log"
    rr=$?
    "$X" $c "$d" > $base.ours 2>> "$log"
    ro=$?
    if [ $rr -eq 0 ] && [ $ro -eq 0 ] && [ -s $base.ref ] && cmp -s $base.ref $base.ours; then
        pass "$name ($(wc -l < $base.ref) lines, $(ls "$d"/*.dat | grep -c '/[0-9]*\.dat$') tasks)"
    else
        echo "exit status uftrace $rr, tracedec $ro" >> "$log"
        diff $base.ref $base.ours | head -20 >> "$log"
        fail "$name" "$log"
    fi
}

# run NAME OPTIONS...: records, then compares with and without the binary.
run() {
    r=$1
    shift
    if ! record "$r" "$@"; then
        for c in dump replay; do
            fail "live uftrace $r: tracedec $c == uftrace $c (uftrace record failed; $ver)" $O/$r/record.log
        done
        return
    fi
    for c in dump replay; do compare "$r" $c present; done
    rm -f $O/$r/prog
    for c in dump replay; do compare "$r" $c absent; done
}

run spec -A 'greet@arg1/s,arg2' -R 'greet@retval/u' \
         -A 'fib@arg1/i32' -R 'fib@retval/i32' \
         -A 'scale@fparg1,fparg2' -R 'scale@retval/f64' \
         -R 'pick@retval/s' -A 'sum_loop@arg1' -R 'sum_loop@retval' \
         -A 'outer@arg1/x32' -R 'middle@retval/d32'

# extern_data: $O/extern/uftrace.data, the spec recording with an
# extern.dat made from its record times: a comment, blank lines, lines
# without a message, a tie with a record, a nanosecond after one, short and
# long fractions, a line longer than uftrace's read buffer (1087 bytes: the
# rest is read as a line of its own), a line out of order, lines before,
# among (on whichever task was read last) and after every record.
extern_data() {
    rm -rf $O/extern
    mkdir -p $O/extern
    cp -r $O/spec/uftrace.data $O/extern/ || return 1
    uftrace dump -d $O/extern/uftrace.data 2> /dev/null | awk '
        function ns(s,  a) { split(s, a, "."); return a[1] * 1000000000 + a[2] }
        function ts(v) { return sprintf("%d.%09d", int(v / 1000000000), v % 1000000000) }
        /^[0-9]+\.[0-9]+ +[0-9]+: \[(entry|exit )\]/ { t[++n] = $1 }
        END {
            if (n < 8) exit 1
            long = ""
            for (i = 0; i < 1100; i++) long = long "x"
            print "# TIMESTAMP MESSAGE"
            print ""
            print "   "
            print ts(ns(t[1]) - 1) " before every record"
            print t[3] "\ttie with a record"
            print "  " ts(ns(t[3]) + 1) "   a nanosecond later "
            print t[4]
            print t[4] " "
            split(t[5], a, ".")
            print a[1] "." substr(a[2], 1, 3) " a three-digit fraction"
            print t[6] "123 a twelve-digit fraction"
            print ts(ns(t[7]) + 1) " " long " the rest"
            print ts(ns(t[2]) + 1) " out of order"
            print t[8] " #not a comment"
            print ts(ns(t[int(n / 2)]) + 1) " halfway"
            print ts(ns(t[int(n * 3 / 4)]) + 1) " three quarters"
            print ts(ns(t[n]) + 1) " after every record"
        }' > $O/extern/uftrace.data/extern.dat
}
if extern_data; then
    compare extern replay absent
else
    fail "live uftrace extern: extern.dat from the spec recording's times"
fi
run auto -a
# no_task_data HOW: the spec recording with every <tid>.dat emptied or
# removed. uftrace 0.13 refuses such a directory ("cannot open record data:
# No data available", nothing on stdout); tracedec must refuse it too.
no_task_data() {
    r=nodata-$1
    d=$O/$r/uftrace.data
    rm -rf $O/$r && mkdir -p $O/$r && cp -r $O/spec/uftrace.data $d || return
    for f in $d/[0-9]*.dat; do
        if [ $1 = emptied ]; then : > $f; else rm -f $f; fi
    done
    for c in dump replay; do
        uftrace $c -d $d > $O/$r/$c.ref 2> /dev/null
        rr=$?
        "$X" $c $d > $O/$r/$c.ours 2> $O/$r/$c.err
        ro=$?
        if [ $rr -ne 0 ] && [ $ro -ne 0 ] && cmp -s $O/$r/$c.ref $O/$r/$c.ours && grep -q "no task data" $O/$r/$c.err; then
            pass "live uftrace $r: tracedec $c refuses the directory as uftrace $c does (exit $ro, uftrace $rr, same stdout)"
        else
            fail "live uftrace $r: tracedec $c refuses the directory as uftrace $c does (exit: tracedec $ro, uftrace $rr; $O/$r)" $O/$r/$c.err
        fi
    done
}
no_task_data emptied
no_task_data removed
# specs that replace earlier ones as uftrace's add_arg_spec() decides: the
# same register (any case, whatever the index), argN/f after fpargN, the
# same stack offset; the replaced item keeps its place.
run replace -A 'greet@arg1/s%rdi,arg2/x%RDI,arg2' -A 'scale@fparg1/32,arg1/f,fparg2' \
            -A 'fib@arg1/x%stack+1,arg2/i32%stack+1' -A 'middle@arg1/x32%RDI' -A 'middle@arg2/u%rdi'

exit $status
