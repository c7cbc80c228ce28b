#!/bin/sh
# The compile matrix (DESIGN.md, "What proves it works"), for each of the
# five headers: alone and with tracedec.h as C99/C11 (gcc, clang) and C++17
# (g++, clang++), an implementation TU linked with a declaration TU and run;
# TDEC_STATIC in two TUs; TDEC_FMT_STATIC and TDEC_FMT_DEF; the header with
# tracedec.h in one TU; the TDEC_NO_* / TDEC_ONLY_* subsets; TDEC_NO_STRINGS;
# a C++ caller of the implementation built as C; -m32; freestanding
# Cortex-M4 (.text and sizeof reported); the sizes the header documents,
# checked on x86_64 and Cortex-M4; big-endian s390x under qemu-user (the
# unit tests, and the hash lines of the fuzz replay, as in the native run);
# the library's includes.
#
# Every cell is a Makefile target (tests/matrix/matrix.mk says how each is
# built). This script lists the cells, asks make for all of them at once
# (make -k: a cell that does not build is a FAIL naming it, followed by the
# first lines of its build log), then runs them and checks their output.
# One line per check: "PASS name", "FAIL name" or "SKIP name (why)". Run
# outputs and logs go to build/matrix/run/.
#
#   sh tests/matrix/matrix.sh          (make matrix, make check)
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
MX=build/matrix
DEVLIB=build/device/lib # the implementations alone, -Os (tests/device/device.mk)
R=$MX/run
rm -rf "$R"
mkdir -p "$R"
FORMATS="xray uftrace ovni xtrace ipt"
CC=${CC:-gcc}
# Under make, MAKE is its own command (with its jobserver); alone, as many
# jobs as CPUs.
MAKE=${MAKE:-make -j$(nproc 2>/dev/null || echo 2)}
QEMU=qemu-s390x
have $QEMU || QEMU=qemu-s390x-static
TIMEOUT=""
have timeout && TIMEOUT="timeout 480"

# id TARGET: a file name for TARGET's logs.
id() { echo "${1#"$MX"/}" | tr / _; }

# ---- the list of cells -----------------------------------------------------
CELLS=$R/cells
: > "$CELLS"

# cell KIND ARG NAME [TARGET...]: after make, `check_KIND ARG NAME TARGET...`
# checks the cell.
cell() {
    c_kind=$1 c_arg=$2 c_name=$3
    shift 3
    printf '%s\t%s\t%s\t%s\n' "$c_kind" "$c_arg" "$c_name" "$*" >> "$CELLS"
}

# pair FMT VARIANT COMPILER-STD NAME: the pair pair/FMT/VARIANT/COMPILER-STD.
pair() { cell pair - "$4" "$MX/pair/$1/$2/$3"; }

# corpus FMT: the inputs of the cross-host replay.
corpus() {
    ls fuzz/corpus/"$1"/* fuzz/regressions/"$1"/* 2>/dev/null | grep -v README
}

upper() { echo "$1" | tr a-z A-Z; }

# The other format that the subset cells name (tests/matrix/matrix.mk, mx_other).
other() { if [ "$1" = xray ]; then echo UFTRACE; else echo XRAY; fi; }

M32=""
if $MAKE -s $MX/m32-probe > "$R/m32-probe.log" 2>&1 && $MX/m32-probe; then
    M32=yes
fi
ARM=""
have arm-none-eabi-gcc && have arm-none-eabi-nm && have arm-none-eabi-size && ARM=yes
S390X=""
have s390x-linux-gnu-gcc && have $QEMU && S390X=yes
BENM=nm
have s390x-linux-gnu-nm && BENM=s390x-linux-gnu-nm

for f in $FORMATS; do
    S=single/tdec_$f.h U=$(upper "$f") O=$(other "$f")
    for cs in gcc-c99 gcc-c11 clang-c99 clang-c11 g++-c++17 clang++-c++17; do
        cc=${cs%%-*} std=${cs#*-}
        if ! have "$cc"; then
            cell skip - "$S $cc -std=$std ($cc not found)"
            continue
        fi
        pair "$f" single "$cs" "$S $cc -std=$std (impl TU + decl TU)"
        pair "$f" amal "$cs" "tracedec.h $cc -std=$std, $f API (impl TU + decl TU)"
    done
    for cc in gcc clang; do
        if ! have $cc; then
            cell skip - "TDEC_STATIC in two linked TUs ($S, $cc) ($cc not found)"
            continue
        fi
        cell static - "TDEC_STATIC in two linked TUs ($S, $cc)" "$MX/pair/$f/static/$cc-c99"
        [ "$f" = xray ] && # the amalgamation's implementation, once
            cell static - "TDEC_STATIC in two linked TUs (tracedec.h, $cc)" "$MX/pair/$f/amal-static/$cc-c99"
    done
    for cs in gcc-c99 clang-c99 g++-c++17 clang++-c++17; do
        cc=${cs%%-*}
        name="TDEC_STATIC, partial API use, no unused warnings ($S, $cc)"
        if have "$cc"; then pair "$f" partial "$cs" "$name"; else cell skip - "$name ($cc not found)"; fi
    done
    if have gcc; then
        pair "$f" fmt-static gcc-c99 "TDEC_${U}_STATIC (gcc c99)"
        pair "$f" def gcc-c99 "TDEC_${U}_DEF override (gcc c99)"
        pair "$f" amal-then-single gcc-c99 "tracedec.h then $S in one TU (gcc c99)"
        pair "$f" single-then-amal gcc-c99 "$S then tracedec.h in one TU (gcc c99)"
        pair "$f" twice gcc-c99 "$S included twice (gcc c99)"
        pair "$f" amal-impl gcc-c99 "tracedec.h implementation TU + $S declaration TU, linked (gcc c99)"
        pair "$f" only gcc-c99 "tracedec.h TDEC_ONLY_$U (gcc c99)"
        pair "$f" only-two gcc-c99 "tracedec.h TDEC_ONLY_$U + TDEC_ONLY_$O (gcc c99)"
        pair "$f" no-other gcc-c99 "tracedec.h TDEC_NO_$O, $f kept (gcc c99)"
        pair "$f" rest-out gcc-c99 "tracedec.h every other format left out, $f kept (gcc c99)"
        pair "$f" no gcc-c99 "tracedec.h TDEC_NO_$U declares no $f API (gcc c99)"
        pair "$f" only-other gcc-c99 "tracedec.h TDEC_ONLY_$O declares no $f API (gcc c99)"
        pair "$f" nostrings gcc-c99 "$S TDEC_NO_STRINGS (gcc c99)"
        pair "$f" amal-nostrings gcc-c99 "tracedec.h TDEC_NO_STRINGS, $f API (gcc c99)"
        [ "$f" = ipt ] && pair ipt no-flow gcc-c99 "$S TDEC_IPT_NO_FLOW declares no length decoder (gcc c99)"
    else
        cell skip - "$S configuration macros (gcc not found)"
    fi
    have g++ && pair "$f" no g++-c++17 "tracedec.h TDEC_NO_$U as C++ (g++)"
    have gcc && have g++ && pair "$f" cxx-caller g++-c++17 "C-compiled implementation called from C++ ($S, gcc + g++)"

    # The same decoding on other hosts: the fuzz harness's hash lines, the unit test.
    cell replay "$f" "$f replay native" "$MX/replay/$f-native" "$MX/sizeof/$f-native.o"
    if [ -n "$M32" ]; then
        pair "$f" m32 cc-c99 "-m32 $CC $S (impl TU + decl TU)"
        [ "$f" = xray ] && # the amalgamation's implementation, once
            pair "$f" m32-amal cc-c99 "-m32 $CC tracedec.h (impl TU + decl TU)"
        cell m32 "$f" "-m32 $CC $S" "$MX/replay/$f-m32" "$MX/sizeof/$f-m32.o"
    else
        cell skip - "-m32 $S (no 32-bit multilib for $CC: apt-get install gcc-12-multilib; not gcc-multilib, which conflicts with gcc-s390x-linux-gnu)"
    fi
    if [ -n "$S390X" ]; then
        cell s390x "$f" "big-endian s390x (qemu-user): $S" "$MX/replay/$f-s390x" "$MX/sizeof/$f-s390x.o"
        cell s390x_unit "$f" "big-endian s390x (qemu-user): tests/unit/$f.c" "$MX/unit/$f-s390x" "build/unit/$f"
    else
        cell skip - "big-endian s390x (qemu-user): $S (s390x-linux-gnu-gcc or qemu-s390x not found)"
    fi

    # Freestanding Cortex-M4, and the sizes the header documents.
    if [ -n "$ARM" ]; then
        cell cm4 "$f" "cortex-m4 freestanding $S" \
            "$DEVLIB/$f-m4-Os.o" "$DEVLIB/$f-m4-Os-nostrings.o" "$MX/cm4/$f-tu.o" "$MX/sizeof/$f-cm4.o"
        cell sizedoc "$f" "sizeof lines of $S" "$MX/sizedoc/$f.h" "$MX/sizedoc/$f-lp64.o" "$MX/sizedoc/$f-cm4.o"
        [ "$f" = ipt ] && cell cm4_noflow - "cortex-m4 freestanding $S TDEC_IPT_NO_FLOW (no length decoder)" \
            "$MX/cm4/ipt-noflow.o" "$DEVLIB/ipt-m4-Os.o"
    else
        cell skip - "cortex-m4 freestanding $S (arm-none-eabi-gcc/nm/size not found)"
        cell sizedoc "$f" "sizeof lines of $S" "$MX/sizedoc/$f.h" "$MX/sizedoc/$f-lp64.o"
    fi
done
[ -n "$ARM" ] && cell cm4_amal - "cortex-m4 freestanding tracedec.h" "$DEVLIB/tracedec-m4-Os.o"
includes=""
for h in single/*.h tools/core/tdec_core.h tracedec.h; do includes="$includes $MX/includes/$h.i"; done
# shellcheck disable=SC2086
cell includes - "library includes only <stddef.h> and <stdint.h>" $includes

# ---- the checks ------------------------------------------------------------
# built NAME TARGET...: make built every TARGET; otherwise a FAIL naming the
# cell, followed by the first lines of its build log.
built() {
    b_name=$1
    shift
    for t in "$@"; do
        [ -e "$t" ] && continue
        $MAKE -s "$@" > "$R/$(id "$t").make.log" 2>&1
        fail "$b_name (does not build: make $*)" "$R/$(id "$t").make.log"
        return 1
    done
}

# sizes NM OBJECT: "sizeof decoder N B, item M B" (tu.c's MX_SIZEOF arrays).
sizes() {
    $1 -S -t d "$2" | awk '$4 == "mx_sizeof_decoder" { d = $2 + 0 } $4 == "mx_sizeof_item" { i = $2 + 0 }
        END { printf "sizeof decoder %d B, item %d B", d, i }'
}

check_skip() { skip "$2"; }

check_pair() {
    built "$2" "$3" || return
    log=$R/$(id "$3").log
    if "$3" > "$log" 2>&1; then pass "$2"; else fail "$2 (exit status $?)" "$log"; fi
}

# Both TUs carry their own static copy: no tdec_ symbol may be exported.
check_static() {
    built "$2" "$3" || return
    log=$R/$(id "$3").log
    if ! "$3" > "$log" 2>&1; then
        fail "$2" "$log"
    elif nm "$3.a.o" "$3.b.o" | grep ' [TDRB] tdec_' >> "$log"; then
        fail "$2 (tdec_ symbols with external linkage)" "$log"
    else
        pass "$2"
    fi
}

# run_replay FMT HOST BINARY [RUNNER]: the replay's lines, in $R/FMT-HOST.out.
run_replay() {
    # shellcheck disable=SC2046
    $4 "$3" $(corpus "$1") > "$R/$1-$2.out" 2> "$R/$1-$2.log"
}

check_replay() {
    built "$2" "$3" "$4" || return
    if run_replay "$1" native "$3"; then
        pass "$2: $(grep -c '^log ' "$R/$1-native.out") corpus inputs, every invariant holds, $(sizes nm "$4")"
    else
        rm -f "$R/$1-native.out"
        fail "$2" "$R/$1-native.log"
    fi
}

# same_as_native FMT HOST NAME: the HOST run printed the native run's lines.
same_as_native() {
    if cmp "$R/$1-native.out" "$R/$1-$2.out" >> "$R/$1-$2.log" 2>&1; then return 0; fi
    diff "$R/$1-native.out" "$R/$1-$2.out" | head -20 >> "$R/$1-$2.log"
    fail "$3" "$R/$1-$2.log"
    return 1
}

check_m32() {
    [ -f "$R/$1-native.out" ] || { fail "$2 (the native $1 replay failed first)"; return; }
    built "$2" "$3" "$4" || return
    run_replay "$1" m32 "$3" || { fail "$2" "$R/$1-m32.log"; return; }
    same_as_native "$1" m32 "$2" && pass "$2: corpus replays as natively, $(sizes nm "$4")"
}

check_s390x() {
    [ -f "$R/$1-native.out" ] || { fail "$2 (the native $1 replay failed first)"; return; }
    built "$2" "$3" "$4" || return
    run_replay "$1" s390x "$3" "$TIMEOUT $QEMU" || { fail "$2: corpus replay" "$R/$1-s390x.log"; return; }
    same_as_native "$1" s390x "$2: corpus replay" &&
        pass "$2: corpus replay on $(grep -c '^log ' "$R/$1-s390x.out") inputs identical to the native run, $(sizes $BENM "$4")"
}

# The unit test on both hosts; qemu-user is slower than native: both runs
# use the quick strides (same checks, fewer cuts) so the outputs compare.
check_s390x_unit() {
    built "$2" "$3" "$4" || return
    out=$R/unit-$1
    TDEC_TEST_QUICK=13 "$4" > "$out-native.out" 2>&1
    rn=$?
    TDEC_TEST_QUICK=13 $TIMEOUT $QEMU "$3" > "$out-s390x.out" 2>&1
    rb=$?
    if [ $rb -eq 0 ] && [ $rn -eq 0 ] && cmp -s "$out-native.out" "$out-s390x.out"; then
        pass "$2 ($(grep -c '^PASS' "$out-s390x.out") PASS lines, identical to the native run)"
    else
        { echo "exit status native $rn, s390x $rb"; diff "$out-native.out" "$out-s390x.out" | head -20; } > "$out.log"
        fail "$2" "$out.log"
    fi
}

# section_bytes REGEX OBJECT: bytes in OBJECT's sections whose name matches.
section_bytes() { arm-none-eabi-size -A "$2" | awk -v re="$1" '$1 ~ re { t += $2 } END { print t + 0 }'; }

# undefined OBJECT...: the undefined symbols besides memcpy and memset (64-bit
# division helpers, say: then it is not freestanding).
undefined() {
    arm-none-eabi-nm -u "$@" | awk 'NF >= 2 { print $NF }' | sort -u | grep -v -x -e memcpy -e memset |
        tr '\n' ' ' | sed 's/ $//'
}

check_cm4() {
    built "$2" "$3" "$4" "$5" "$6" || return
    und=$(undefined "$3" "$5")
    text=$(section_bytes '^\.text' "$3")
    if [ -n "$und" ]; then
        fail "$2 (undefined: $und)"
    elif [ "$text" -eq 0 ]; then
        fail "$2 (no .text in $3)"
    else
        pass "$2 (.text $text B, .rodata $(section_bytes '^\.rodata' "$3") B;" \
             "TDEC_NO_STRINGS .text $(section_bytes '^\.text' "$4") B, .rodata $(section_bytes '^\.rodata' "$4") B;" \
             "$(sizes arm-none-eabi-nm "$6"); undefined symbols: none besides memcpy/memset)"
    fi
}

# The implementation without its instruction layer: no length decoder
# symbol, its tables gone from .rodata.
check_cm4_noflow() {
    built "$2" "$3" "$4" || return
    und=$(undefined "$3")
    if [ -n "$und" ]; then
        fail "$2 (undefined: $und)"
    elif arm-none-eabi-nm "$3" | grep -q tdec_ipt_insn_decode; then
        fail "$2 (tdec_ipt_insn_decode is still there)"
    else
        pass "$2 (.text $(section_bytes '^\.text' "$3") B, .rodata $(section_bytes '^\.rodata' "$3") B;" \
             "with the length decoder .text $(section_bytes '^\.text' "$4") B, .rodata $(section_bytes '^\.rodata' "$4") B)"
    fi
}

check_cm4_amal() {
    built "$2" "$3" || return
    und=$(undefined "$3")
    if [ -n "$und" ]; then
        fail "$2 (undefined: $und)"
    else
        pass "$2 (.text $(section_bytes '^\.text' "$3") B; undefined symbols: none besides memcpy/memset)"
    fi
}

# The header's "sizeof(T) = N on LP64, M on ILP32 (Cortex-M)" lines hold
# (the objects build only then). Until some header has such lines, a SKIP.
check_sizedoc() {
    name=$2 list=$3
    shift 3
    built "$name" "$list" || return
    n=$(grep -c '^MX_DOC' "$list")
    if [ "$n" -eq 0 ]; then
        # shellcheck disable=SC2086
        if [ "$(cat $MX/sizedoc/*.h | grep -c '^MX_DOC')" -eq 0 ]; then
            skip "$name (no header documents 'sizeof(T) = N on LP64, M on ILP32 (Cortex-M)' in its MEMORY section yet)"
        else
            fail "$name: no sizeof lines"
        fi
        return
    fi
    where="LP64"
    [ $# -eq 2 ] && where="LP64 and on Cortex-M4 (ILP32)"
    built "$name" "$@" && pass "$name: $n documented sizes hold on $where"
}

check_includes() {
    name=$2
    shift 2
    built "$name" "$@" || return
    bad=""
    for i in "$@"; do
        h=${i#"$MX"/includes/}
        h=${h%.i}
        for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//p' "$i" | sort -u); do
            case "$inc" in
            '<stddef.h>' | '<stdint.h>') ;;
            # allowed only as the default branch of TDEC_MEMCPY / TDEC_MEMSET
            '<string.h>') grep -q 'TDEC_MEMCPY' "$i" || bad="$bad $h:$inc" ;;
            *) bad="$bad $h:$inc" ;;
            esac
        done
    done
    if [ -z "$bad" ]; then pass "$name"; else fail "$name (found:$bad)"; fi
}

# ---- build every cell, then check each ---------------------------------------
# shellcheck disable=SC2046
$MAKE -k $(cut -f4 "$CELLS") > "$R/make.log" 2>&1
while IFS='	' read -r kind arg name targets <&3; do
    # shellcheck disable=SC2086
    check_$kind "$arg" "$name" $targets
done 3< "$CELLS"
exit $status
