#!/bin/sh
# Regenerates tests/data/uftrace/demangle.tsv, the table tests/test_demangle.c
# checks tools/demangle.c against: "mangled<TAB>demangled" per line, where
# "demangled" is what the real uftrace 0.13 prints for that name in its
# default ("simple") demangling mode.
#
#   sh tests/gen_demangle_tsv.sh                 regenerate the TSV
#   sh tests/gen_demangle_tsv.sh -o OUT FILE...  oracle for the names of FILEs
#
# Names: every symbol of tests/data/uftrace/*/uftrace.data/*.sym plus
# tests/data/uftrace/demangle-names.txt (names from libstdc++ and other C++
# libraries, from small g++/clang++ programs, and hand-made edge cases and
# malformed names). Needs uftrace 0.13 (Debian 12: apt-get install uftrace);
# the test itself only reads the TSV.
#
# How: uftrace demangles every name of a <module>.sym when it loads it and,
# with --debug-domain=symbol:4, prints each result ("[N] T addr + 0     name").
# So the names go into the prog.sym of a copy of the cxx sample recording,
# `uftrace replay` loads it, and the N-th printed name belongs to the N-th
# input line. A batch that makes uftrace crash or hang is split in two until
# the culprits are single names; those are reported on stderr and left out
# (uftrace has no output for them; tools/demangle.c returns them unchanged).
set -u
cd "$(dirname "$0")/.." || exit 2

out=tests/data/uftrace/demangle.tsv
if [ "${1:-}" = -o ]; then
    out=$2
    shift 2
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
if [ $# -eq 0 ]; then
    set -- tests/data/uftrace/demangle-names.txt
    for f in tests/data/uftrace/*/uftrace.data/*.sym; do
        grep -v '^#' "$f" | cut -d' ' -f3- > "$tmp/sym.$$" && cat "$tmp/sym.$$" >> "$tmp/fromsym"
    done
    set -- "$@" "$tmp/fromsym"
fi
LC_ALL=C cat "$@" | LC_ALL=C grep -v '[[:cntrl:]]' |
    LC_ALL=C grep -v -x -e '' -e '__sym_end' -e '__dynsym_end' -e '__func_end' |
    LC_ALL=C sort -u > "$tmp/names"

# oracle IN OUT: appends "name<TAB>result" lines for IN's names to OUT;
# fails if uftrace crashed, hung or printed a different number of names.
oracle() {
    n=$(wc -l < "$1")
    {
        printf '# symbols: %d\n# path name: /tmp/uft/cxx/prog\n' "$n"
        printf '# build-id: ffc9d7a8c58185734776cb2ec3aeecb6f3761d53\n'
        awk '{ printf "%016x T %s\n", 4096 + NR * 16, $0 }' "$1"
    } > "$rec/prog.sym"
    timeout -s KILL 10 uftrace replay -d "$rec" --debug-domain=symbol:4 \
        > /dev/null 2> "$tmp/err"
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
              for (j = 1; j <= k; j++) print res[j] }' "$tmp/err" > "$tmp/res" || return 1
    paste "$1" "$tmp/res" >> "$2"
}

# run IN DEPTH: oracle with bisection of failing batches
run() {
    if oracle "$1" "$tmp/tsv"; then
        return 0
    fi
    if [ "$(wc -l < "$1")" -le 1 ]; then
        echo "uftrace fails (crash/hang) on: $(cat "$1")" >&2
        return 0
    fi
    split -n l/2 "$1" "$1.$2."
    run "$1.$2.aa" $(($2 + 1))
    run "$1.$2.ab" $(($2 + 1))
}

: > "$tmp/tsv"
split -l 20000 "$tmp/names" "$tmp/batch."
for b in "$tmp"/batch.*; do
    run "$b" 0
done
LC_ALL=C sort -u "$tmp/tsv" > "$out"
echo "$(wc -l < "$out") pairs in $out (from $(wc -l < "$tmp/names") names)"
