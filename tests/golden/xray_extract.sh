#!/bin/sh
# `tracedec extract` against `llvm-xray extract` (LLVM 14), byte for byte:
#   - the binaries of tests/data/xray/instrmap (x86-64 and AArch64; C and
#     C++; PIE, non-PIE, a shared library, relocatable objects; README.md
#     there): extract, extract --symbolize, and for C++ --no-demangle;
#   - every sample's instrmap.elf (tests/data/xray/*/): --symbolize against
#     its instrmap.yaml, or, where llvm-xray could not read the map (typed
#     event sleds), exit 1 and nothing on stdout;
#   - crafted and hostile variants of a sample's map (xray_elf_craft.py
#     makes them; crafted.tsv holds llvm-xray's exit status and the SHA-1
#     of its stdout for each). Where llvm-xray crashes (exit >= 128: a
#     division by zero, or "LLVM ERROR" and abort on a broken relocation or
#     symbol section) it printed nothing: we must print nothing and exit 1.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-xray-extract
D=tests/data/xray/instrmap

# check NAME REF OPTIONS... FILE: exit 0 and stdout equal to REF.
check() {
    name=$1 ref=$2
    shift 2
    "$X" extract "$@" > "$T/out" 2> "$T/err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$T/out" "$ref"; then
        pass "xray extract $name"
    else
        diff "$ref" "$T/out" > "$T/diff" 2>&1
        cat "$T/err" >> "$T/diff"
        fail "xray extract $name (exit $rc)" "$T/diff"
    fi
}

for f in "$D"/*.elf "$D"/*.o; do
    n=$(basename "$f")
    n=${n%.*}
    check "$n" "$D/$n.extract.yaml" "$f"
    check "$n --symbolize" "$D/$n.extract-s.yaml" -s "$f"
    [ -f "$D/$n.extract-s-no-demangle.yaml" ] &&
        check "$n --symbolize --no-demangle" "$D/$n.extract-s-no-demangle.yaml" --symbolize --no-demangle "$f"
    # llvm-xray 14 looks at where --demangle and --no-demangle are, not at
    # their values: the later one wins
    if [ -f "$D/$n.extract-s-no-demangle.yaml" ]; then
        check "$n --symbolize --demangle=false" "$D/$n.extract-s.yaml" --symbolize --demangle=false "$f"
        check "$n --symbolize --no-demangle --demangle" "$D/$n.extract-s.yaml" -s --no-demangle --demangle "$f"
        check "$n --symbolize --no-demangle=false" "$D/$n.extract-s-no-demangle.yaml" -s --no-demangle=false "$f"
    fi
done
# LLVM's option spellings: the same outputs
n=x86_64-cxx-O2-nopie
check "$n -symbolize=true --demangle=false" "$D/$n.extract-s.yaml" -symbolize=true --demangle=false "$D/$n.elf"
check "$n --symbolize=0" "$D/$n.extract.yaml" --symbolize=0 "$D/$n.elf"
check "$n --output=-" "$D/$n.extract.yaml" --output=- "$D/$n.elf"
rm -f "$T/o.yaml"
"$X" extract -s -o "$T/o.yaml" "$D/$n.elf" > "$T/out" 2> "$T/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$T/out" ] && cmp -s "$T/o.yaml" "$D/$n.extract-s.yaml"; then
    pass "xray extract -o FILE: the output in FILE"
else
    fail "xray extract -o FILE (exit $rc)" "$T/err"
fi

for d in tests/data/xray/*/; do
    [ -f "$d/instrmap.elf" ] || continue
    s=$(basename "$d")
    if [ -f "$d/instrmap.yaml" ]; then
        check "sample $s --symbolize" "$d/instrmap.yaml" --symbolize "$d/instrmap.elf"
        continue
    fi
    "$X" extract -s "$d/instrmap.elf" > "$T/out" 2> "$T/err"
    rc=$?
    if [ $rc -eq 1 ] && [ ! -s "$T/out" ] && grep -q "Exec format error" "$T/err"; then
        pass "xray extract sample $s: refused as llvm-xray 14 refuses it (sled kind 5)"
    else
        fail "xray extract sample $s: want exit 1 and 'Exec format error' (exit $rc)" "$T/err"
    fi
done

# YAML maps (llvm-xray reads a file that is no object file as YAML: ids,
# no names): yaml/CASE.in.yaml, llvm-xray's outputs and exit statuses
tail -n +2 "$D/yaml/status.tsv" > "$T/yaml-cases"
while IFS="$(printf '\t')" read -r c r1 r2; do
    for mode in extract extract-s; do
        want=$r1 opt=""
        [ $mode = extract-s ] && want=$r2 opt=-s
        "$X" extract $opt "$D/yaml/$c.in.yaml" > "$T/out" 2> "$T/err"
        rc=$?
        if [ $rc -eq "$want" ] && cmp -s "$T/out" "$D/yaml/$c.$mode.yaml"; then
            pass "xray extract YAML map $c $opt"
        else
            diff "$D/yaml/$c.$mode.yaml" "$T/out" > "$T/diff" 2>&1
            cat "$T/err" >> "$T/diff"
            fail "xray extract YAML map $c $opt (exit $rc, llvm-xray $want)" "$T/diff"
        fi
    done
done < "$T/yaml-cases"
check "a YAML map: x86_64-cxx-O2-nopie.extract-s.yaml" "$D/x86_64-cxx-O2-nopie.extract.yaml" "$D/x86_64-cxx-O2-nopie.extract-s.yaml"

"$X" extract -m x "$D/x86_64-c-O1.o" > "$T/out" 2> "$T/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$T/out" ]; then
    pass "xray extract -m: not an extract option (usage, exit 2)"
else
    fail "xray extract -m: want usage, exit 2 (exit $rc)" "$T/err"
fi

if ! have python3; then
    skip "xray extract crafted and hostile maps (python3 missing)"
    exit $status
fi
if ! python3 tests/golden/xray_elf_craft.py tests/data/xray/fdr-calls/instrmap.elf "$T/crafted" > "$T/craft.log" 2>&1; then
    fail "xray extract: xray_elf_craft.py failed" "$T/craft.log"
    exit $status
fi
empty=$(printf '' | sha1sum | cut -c1-40)
total=0 bad=0
# run CASE OPTION STATUS SHA1: one mode of one case against llvm-xray's
run() {
    "$X" extract $2 "$T/crafted/$1.elf" > "$T/out" 2> "$T/err"
    rc=$? sum=$(sha1sum < "$T/out" | cut -c1-40) want_rc=$3 want_sum=$4
    if [ "$3" -ge 128 ]; then want_rc=1 want_sum=$empty; fi
    total=$((total + 1))
    if [ $rc -ne "$want_rc" ] || [ "$sum" != "$want_sum" ] || grep -q Sanitizer "$T/err"; then
        bad=$((bad + 1))
        fail "xray extract crafted $1 $2: exit $rc (llvm-xray $3), stdout $sum (llvm-xray $4)" "$T/err"
    fi
}
tail -n +2 "$D/crafted.tsv" > "$T/cases"
while IFS="$(printf '\t')" read -r c r1 s1 r2 s2; do
    [ -f "$T/crafted/$c.elf" ] || { fail "xray extract crafted $c: not made"; continue; }
    run "$c" "" "$r1" "$s1"
    run "$c" -s "$r2" "$s2"
done < "$T/cases"
n=$(wc -l < "$T/cases")
if [ "$(wc -l < "$T/crafted/cases.txt")" -ne "$n" ]; then
    fail "xray extract crafted: xray_elf_craft.py made $(wc -l < "$T/crafted/cases.txt") cases, crafted.tsv has $n"
elif [ $bad -eq 0 ]; then
    pass "xray extract crafted and hostile maps: $n files, $total runs as llvm-xray 14 (plain and --symbolize)"
fi
exit $status
