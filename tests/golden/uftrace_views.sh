#!/bin/sh
# Golden tests of `tracedec info`, `report` and `graph` on every uftrace
# recording with references (tests/data/uftrace/*, the peer corpus
# tests/data/peers/uftrace/*): stdout byte-identical to uftrace 0.13's
#   ref/info.txt         uftrace info
#   ref/info-task.txt    uftrace info --task
#   ref/report.txt       uftrace report
#   ref/report-task.txt  uftrace report --task
#   ref/graph.txt        uftrace graph
#   ref/options.txt      the same commands with options: sections headed
#                        "### CMD ARGS" (e.g. "### report -s call", "### graph
#                        main"), each what `uftrace CMD ARGS -d DIR` printed
# (the READMEs beside the recordings say how they were made). One check
# per recording and command; options.txt is one check per recording. The
# sanitized CLI (make check's second run, TDEC_TAG set) runs options.txt
# of the samples only: thousands of sanitized runs would take minutes.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-uftrace-views
# run NAME DIR CMD [ARGS]: `tracedec CMD [ARGS] DIR` (graph: `graph DIR
# [FUNC]`) into $T/NAME, its stderr into $T/NAME.err; its exit status.
run() {
    run_out=$T/$1 run_dir=$2 run_cmd=$3
    shift 3
    if [ "$run_cmd" = graph ] && [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
        "$X" graph "$run_dir" "$@" > "$run_out" 2> "$run_out.err"
    else
        "$X" "$run_cmd" "$@" "$run_dir" > "$run_out" 2> "$run_out.err"
    fi
}
for dir in tests/data/uftrace/*/ tests/data/peers/uftrace/t*/; do
    [ -f "$dir/ref/info.txt" ] || continue
    n=$(basename "$dir")
    d=$dir/uftrace.data
    for ref in info info-task report report-task graph; do
        # shellcheck disable=SC2046 # "info-task" is `info --task`
        run "$n.$ref" "$d" $(echo "$ref" | sed 's/-task$/ --task/')
        rc=$?
        if [ $rc -eq 0 ] && cmp -s "$T/$n.$ref" "$dir/ref/$ref.txt"; then
            pass "uftrace $ref $n == uftrace $(echo "$ref" | sed 's/-task$/ --task/')"
        else
            fail "uftrace $ref $n != uftrace (exit $rc; diff $T/$n.$ref $dir/ref/$ref.txt)" "$T/$n.$ref.err"
        fi
    done
    [ -n "${TDEC_TAG:-}" ] && [ "${dir#tests/data/peers/}" != "$dir" ] && continue
    # options.txt: split into $T/$n.opt.K (the reference) and $T/$n.opt.K.args
    awk -v p="$T/$n.opt." '/^### /{k++; print substr($0, 5) > (p k ".args"); next} {print > (p k)}' "$dir/ref/options.txt"
    bad=
    k=1
    while [ -f "$T/$n.opt.$k.args" ]; do
        [ -f "$T/$n.opt.$k" ] || : > "$T/$n.opt.$k"
        # shellcheck disable=SC2046 # the words of the section's command
        run "$n.out.$k" "$d" $(cat "$T/$n.opt.$k.args")
        rc=$?
        if [ $rc -ne 0 ] || ! cmp -s "$T/$n.out.$k" "$T/$n.opt.$k"; then
            bad="$bad; $(cat "$T/$n.opt.$k.args") (exit $rc; diff $T/$n.out.$k $T/$n.opt.$k)"
        fi
        k=$((k + 1))
    done
    if [ -z "$bad" ]; then
        pass "uftrace $n: $((k - 1)) commands with options == uftrace (ref/options.txt)"
    else
        fail "uftrace $n: commands with options != uftrace:$bad"
    fi
done
# ref/usage.txt (a sample's): option errors, sections "### exit=N CMD ARGS"
# with what uftrace printed on stdout and its exit status N; ours prints
# the same and fails when uftrace fails (exit 2 for uftrace's "Usage:")
for dir in tests/data/uftrace/*/; do
    [ -f "$dir/ref/usage.txt" ] || continue
    n=$(basename "$dir")
    awk -v p="$T/$n.use." '/^### /{k++; print substr($0, 5) > (p k ".args"); next} {print > (p k)}' "$dir/ref/usage.txt"
    k=1
    while [ -f "$T/$n.use.$k.args" ]; do
        [ -f "$T/$n.use.$k" ] || : > "$T/$n.use.$k"
        # shellcheck disable=SC2046 # the words of the section's command
        set -- $(cat "$T/$n.use.$k.args")
        want=${1#exit=}
        shift
        run "$n.usage.$k" "$dir/uftrace.data" "$@"
        rc=$?
        if [ "$want" = 0 ]; then failed_too=$((rc != 0)); else failed_too=$((rc == 0)); fi
        if cmp -s "$T/$n.usage.$k" "$T/$n.use.$k" && [ $failed_too -eq 0 ]; then
            pass "uftrace $n: $* prints what uftrace prints (exit $rc, uftrace's $want)"
        else
            fail "uftrace $n: $* != uftrace (exit $rc, uftrace's $want; diff $T/$n.usage.$k $T/$n.use.$k)"
        fi
        k=$((k + 1))
    done
done
# The data directory given as uftrace takes it: -d DIR, -dDIR, --data=DIR, --data DIR.
P=tests/data/uftrace/plain
for form in "-d $P/uftrace.data" "-d$P/uftrace.data" "--data=$P/uftrace.data" "--data $P/uftrace.data"; do
    # shellcheck disable=SC2086 # the option and its value
    "$X" report $form > "$T/data-option.report" 2>&1 && "$X" graph $form main > "$T/data-option.graph" 2>&1 &&
        "$X" info --task $form > "$T/data-option.info" 2>&1
    if cmp -s "$T/data-option.report" "$P/ref/report.txt" && cmp -s "$T/data-option.info" "$P/ref/info-task.txt" &&
        sed -n '/^### graph main$/,/^### /p' "$P/ref/options.txt" | sed '1d;$d' | cmp -s - "$T/data-option.graph"; then
        pass "uftrace report, graph main, info --task with ${form%%tests/*}DIR == uftrace"
    else
        fail "uftrace report, graph main, info --task with $form != uftrace ($T/data-option.*)"
    fi
done
# A LOST record (what libmcount writes when it lost records: time 0, the
# number lost as its address): a copy of plain whose <tid>.dat has records
# 12..29 replaced by one (7 lost); plain/ref/lost-CMD.txt is what uftrace
# 0.13 printed for exactly that copy.
mkdir -p "$T/lost" && cp -rL "$P/uftrace.data/." "$T/lost/" && chmod -R u+w "$T/lost"
for dat in "$T"/lost/[0-9]*.dat; do
    { head -c 192 "$P/uftrace.data/$(basename "$dat")"
      printf '\000\000\000\000\000\000\000\000\053\000\007\000\000\000\000\000'
      tail -c +481 "$P/uftrace.data/$(basename "$dat")"; } > "$dat"
done
for ref in report report-task graph graph-main; do
    case $ref in
    report-task) "$X" report --task "$T/lost" > "$T/lost.$ref" 2>&1 ;;
    graph-main) "$X" graph "$T/lost" main > "$T/lost.$ref" 2>&1 ;;
    *) "$X" $ref "$T/lost" > "$T/lost.$ref" 2>&1 ;;
    esac
    if cmp -s "$T/lost.$ref" "$P/ref/lost-$ref.txt"; then
        pass "uftrace $ref with a LOST record == uftrace"
    else
        fail "uftrace $ref with a LOST record != uftrace (diff $T/lost.$ref $P/ref/lost-$ref.txt)"
    fi
done
# An info file with a section uftrace 0.13 cannot read (plain's, with
# "osinfo:lines=4": more lines than the 3 it knows): uftrace refuses the
# directory for every command ("cannot read uftrace header info!", nothing
# on stdout, exit status 1), and so do we.
cp -rL tests/data/uftrace/plain/uftrace.data "$T/badsection" && chmod -R u+w "$T/badsection" &&
    sed -i 's/^osinfo:lines=3$/osinfo:lines=4/' "$T/badsection/info"
for cmd in info "info --task" report graph replay dump; do
    # shellcheck disable=SC2086 # "info --task": two words
    "$X" $cmd "$T/badsection" > "$T/badsection.out" 2> "$T/badsection.err"
    rc=$?
    if [ $rc -eq 1 ] && [ ! -s "$T/badsection.out" ] && grep -q OSINFO "$T/badsection.err"; then
        pass "uftrace $cmd refuses an info file with a section uftrace cannot read, as uftrace does"
    else
        fail "uftrace $cmd on an info file with a section uftrace cannot read (exit $rc; $T/badsection.out)" "$T/badsection.err"
    fi
done
exit $status
