#!/bin/sh
# Regenerates tests/data/uftrace/demangle.tsv, the table tests/unit/demangle.c
# checks tools/cli/uftrace/demangle.c against: "mangled<TAB>demangled" per line, where
# "demangled" is what the real uftrace 0.13 prints for that name in its
# default ("simple") demangling mode.
#
#   sh tests/gen/demangle_tsv.sh                      regenerate the TSV
#   sh tests/gen/demangle_tsv.sh -o OUT FILE...       oracle for FILEs' names
#   sh tests/gen/demangle_tsv.sh -o OUT -1 FILE...    same, one uftrace run
#                                                     per name (hostile names)
#
# Names, batched: every symbol of tests/data/uftrace/*/uftrace.data/*.sym and
# tests/data/uftrace/demangle-names.txt (a selection of names from the C++
# libraries of a Debian 12 system, their libstdc++ with @@versions, and all
# symbols of tests/data/uftrace/demangle-prog.cpp built with g++ and clang++
# at -O0/-O2). One name per run: tests/data/uftrace/demangle-hostile.txt
# (hand-made edge cases, truncated and mutated real names, garbage), where
# uftrace itself may crash or hang; those names are written to
# tests/data/uftrace/demangle-uftrace-fails.txt instead of the TSV.
# Needs uftrace 0.13 (Debian 12: apt-get install uftrace); the test itself
# only reads the data files.
#
# How: uftrace demangles every name of a <module>.sym when it loads it and,
# with --debug-domain=symbol:4, prints each result ("[N] T addr + 0     name").
# So the names go into the prog.sym of a copy of the cxx sample recording,
# `uftrace replay` loads it, and the N-th printed name belongs to the N-th
# input line. A batch that makes uftrace crash or hang is split in two until
# the culprits are single names; those are reported on stderr and left out
# (uftrace has no output for them; tools/cli/uftrace/demangle.c returns them unchanged).
set -u
cd "$(dirname "$0")/../.." || exit 2

out=tests/data/uftrace/demangle.tsv
fails=tests/data/uftrace/demangle-uftrace-fails.txt
single=
if [ "${1:-}" = -o ]; then
    out=$2
    fails=$2.fails
    shift 2
fi
if [ "${1:-}" = -1 ]; then
    single=1
    shift
fi
command -v uftrace >/dev/null 2>&1 || { echo "uftrace not found" >&2; exit 2; }
case "$(uftrace --version 2>/dev/null)" in
"uftrace v0.13 "*) ;;
*) echo "need uftrace v0.13, found: $(uftrace --version 2>&1 | head -1)" >&2; exit 2 ;;
esac

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
tpl=tests/data/uftrace/cxx/uftrace.data
rec=$tmp/rec
cp -r "$tpl" "$rec" && chmod -R u+w "$rec" || exit 2
# only the executable in the session map: no library symbol loading
for m in "$rec"/sid-*.map; do
    grep -v '\.so' "$m" > "$m.new" && mv "$m.new" "$m"
done

# All input names, one per line. Left out: what cannot sit in a .sym line
# as is (control characters; uftrace cuts a name at a TAB), empty names and
# uftrace's own markers, which it skips.
clean() {
    LC_ALL=C cat "$@" | LC_ALL=C grep -v '[[:cntrl:]]' |
        LC_ALL=C grep -v -x -e '' -e '__sym_end' -e '__dynsym_end' -e '__func_end' |
        LC_ALL=C sort -u
}
all=
if [ $# -eq 0 ]; then
    all=1
    : > "$tmp/fromsym"
    for f in tests/data/uftrace/*/uftrace.data/*.sym; do
        grep -v '^#' "$f" | cut -d' ' -f3- >> "$tmp/fromsym"
    done
    clean tests/data/uftrace/demangle-names.txt "$tmp/fromsym" > "$tmp/names"
    clean tests/data/uftrace/demangle-hostile.txt > "$tmp/single"
elif [ -n "$single" ]; then
    : > "$tmp/names"
    clean "$@" > "$tmp/single"
else
    clean "$@" > "$tmp/names"
    : > "$tmp/single"
fi

# oracle IN OUT [REC]: appends "name<TAB>result" lines for IN's names to OUT;
# fails if uftrace crashed, hung or printed a different number of names.
oracle() {
    orec=${3:-$tmp/rec}
    n=$(wc -l < "$1")
    {
        printf '# symbols: %d\n# path name: /tmp/uft/cxx/prog\n' "$n"
        printf '# build-id: ffc9d7a8c58185734776cb2ec3aeecb6f3761d53\n'
        awk '{ printf "%016x T %s\n", 4096 + NR * 16, $0 }' "$1"
    } > "$orec/prog.sym"
    timeout -s KILL 10 uftrace replay -d "$orec" --debug-domain=symbol:4 \
        > /dev/null 2> "$1.err"
    rc=$?
    [ $rc -lt 124 ] || return 1
    # the prog.sym block of the debug output, "[N] T addr + 0     name"
    LC_ALL=C awk -v want="$n" '
        index($0, "symbol: loading symbols from ") == 1 {
            inside = ($0 ~ /\/prog\.sym: offset = /); next }
        inside && /^symbol: \[[0-9]+\] T [0-9a-f]+ \+ 0     / {
            i = substr($0, 10); i = substr(i, 1, index(i, "]") - 1) + 0
            if (i != ++k) bad = 1
            res[k] = substr($0, index($0, " + 0     ") + 9)
        }
        END { if (bad || k != want) exit 1
              for (j = 1; j <= k; j++) print res[j] }' "$1.err" > "$1.res" || return 1
    paste "$1" "$1.res" >> "$2"
}

# run IN DEPTH: oracle with bisection of failing batches
run() {
    if oracle "$1" "$tmp/tsv"; then
        return 0
    fi
    if [ "$(wc -l < "$1")" -le 1 ]; then
        echo "uftrace fails (crash/hang) on: $(cat "$1")" >&2
        cat "$1" >> "$tmp/fails"
        return 0
    fi
    split -n l/2 "$1" "$1.$2."
    run "$1.$2.aa" $(($2 + 1))
    run "$1.$2.ab" $(($2 + 1))
}

: > "$tmp/tsv"
: > "$tmp/fails"
if [ -s "$tmp/names" ]; then
    split -l 20000 "$tmp/names" "$tmp/batch."
    for b in "$tmp"/batch.*; do
        run "$b" 0
    done
fi

# One name per uftrace run, 8 at a time, each in its own recording copy.
if [ -s "$tmp/single" ]; then
    mkdir "$tmp/one"
    i=0
    while IFS= read -r name; do
        i=$((i + 1))
        printf '%s\n' "$name" > "$tmp/one/$i"
    done < "$tmp/single"
    for slot in 0 1 2 3 4 5 6 7; do
        cp -r "$rec" "$tmp/rec$slot"
        (
            j=$slot
            while [ $j -lt $i ]; do
                j=$((j + 1))
                [ $(((j - 1) % 8)) -eq $slot ] || continue
                if ! oracle "$tmp/one/$j" "$tmp/one/$j.tsv" "$tmp/rec$slot"; then
                    cat "$tmp/one/$j" >> "$tmp/one/$j.fail"
                fi
            done
        ) &
    done
    wait
    cat "$tmp"/one/*.tsv >> "$tmp/tsv" 2>/dev/null
    cat "$tmp"/one/*.fail >> "$tmp/fails" 2>/dev/null
fi

LC_ALL=C sort -u "$tmp/tsv" > "$out"
echo "$(wc -l < "$out") pairs in $out"
if [ -n "$all" ] || [ -s "$tmp/fails" ]; then
    LC_ALL=C sort -u "$tmp/fails" > "$fails"
    echo "$(wc -l < "$fails") names uftrace crashes or hangs on, in $fails"
fi
