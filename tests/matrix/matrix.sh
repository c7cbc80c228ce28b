#!/bin/sh
# The compile matrix (DESIGN.md, "What proves it works"). One line per check:
# "PASS name", "FAIL name" or "SKIP name (why)". Outputs and logs go to
# build/matrix/; a FAIL line is followed by the first lines of its log.
#
#   sh tests/matrix/matrix.sh
#
# Checks: every header alone as C99/C11 (gcc, clang) and C++17 (g++,
# clang++), implementation TU + declaration-only TU linked; TDEC_STATIC in
# two linked TUs; tracedec.h + single header together; TDEC_NO_STRINGS,
# TDEC_ONLY_XRAY, TDEC_NO_XRAY; -m32; freestanding Cortex-M4 (.text and
# sizeof reported); big-endian s390x under qemu-user; the includes of the
# library itself. uftrace gets its own pairs, TDEC_STATIC and subset checks
# and a Cortex-M4 build (tests/matrix/uftrace_tu.c); ovni, xtrace and ipt
# get all of these through format_checks (tests/matrix/FMT_tu.c), plus -m32
# and s390x runs of their fuzz corpus replay (hashes compared with the
# native run) and of their unit tests.
cd "$(dirname "$0")/../.." || exit 2
O=build/matrix
rm -rf "$O"
mkdir -p "$O"

WARN="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror"
TU=tests/matrix/xray_tu.c
SINGLE=single/tdec_xray.h
AMAL=tracedec.h
status=0

have() { command -v "$1" >/dev/null 2>&1; }

pass() { echo "PASS $*"; }
fail() {
    echo "FAIL $1"
    status=1
    [ -n "${2:-}" ] && [ -s "$2" ] && sed -n '1,15p' "$2" | sed 's/^/    /'
}
skip() { echo "SKIP $*"; }

# run LOG CMD...: runs CMD with its output appended to LOG; its exit status.
run() {
    log=$1
    shift
    echo "+ $*" >> "$log"
    "$@" >> "$log" 2>&1
}

# lang_flags COMPILER STD: "-x c -std=..." or "-x c++ -std=...".
lang_flags() {
    case "$1" in
    *++) echo "-x c++ -std=$2" ;;
    *) echo "-x c -std=$2" ;;
    esac
}

# ---- 1. each header alone: impl TU + declaration TU, linked and run --------
# pair NAME CC STD HEADER IMPLMACRO
pair() {
    name=$1 cc=$2 std=$3 hdr=$4 impl=$5
    id=$(echo "$name" | tr ' /+=' '___p' | tr -cd 'A-Za-z0-9_.-')
    log=$O/$id.log
    : > "$log"
    lf=$(lang_flags "$cc" "$std")
    # shellcheck disable=SC2086
    if run "$log" "$cc" $lf $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -DMX_NAME=a -D"$impl" -DMX_MAIN -DMX_CALL_B \
            -c $TU -o "$O/$id.impl.o" &&
       run "$log" "$cc" $lf $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -DMX_NAME=b -c $TU -o "$O/$id.decl.o" &&
       run "$log" "$cc" -o "$O/$id.exe" "$O/$id.impl.o" "$O/$id.decl.o" &&
       run "$log" "$O/$id.exe"; then
        pass "$name"
    else
        fail "$name" "$log"
    fi
}

for c in "gcc c99" "gcc c11" "clang c99" "clang c11" "g++ c++17" "clang++ c++17"; do
    set -- $c
    if ! have "$1"; then
        skip "$1 -std=$2 ($1 not found)"
        continue
    fi
    pair "$SINGLE $1 -std=$2 (impl TU + decl TU)" "$1" "$2" "$SINGLE" TDEC_XRAY_IMPLEMENTATION
    pair "$AMAL $1 -std=$2 (impl TU + decl TU)" "$1" "$2" "$AMAL" TRACEDEC_IMPLEMENTATION
done

# A C++ program calling the C-compiled implementation.
if have gcc && have g++; then
    log=$O/c-impl-cxx-caller.log
    : > "$log"
    if run "$log" gcc -x c -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$SINGLE\"" -DMX_NAME=b -DTDEC_XRAY_IMPLEMENTATION \
            -c $TU -o $O/cimpl.o &&
       run "$log" g++ -x c++ -std=c++17 $WARN -O2 -I. -DMX_HEADER="\"$SINGLE\"" -DMX_NAME=a -DMX_MAIN -DMX_CALL_B \
            -c $TU -o $O/cxxcall.o &&
       run "$log" g++ -o $O/c-impl-cxx-caller $O/cxxcall.o $O/cimpl.o && run "$log" $O/c-impl-cxx-caller; then
        pass "C-compiled implementation called from C++ (gcc + g++)"
    else
        fail "C-compiled implementation called from C++ (gcc + g++)" "$log"
    fi
fi

CC=gcc
have gcc || CC=clang

# one_tu NAME LOG CFLAGS...: compile the TU with $CC as C99, link, run.
# The TU is the main TU (MX_NAME=a, MX_MAIN).
one_tu() {
    name=$1 log=$2
    shift 2
    : > "$log"
    if run "$log" $CC -x c -std=c99 $WARN -O2 -I. -DMX_NAME=a -DMX_MAIN "$@" -c $TU -o "$log.o" &&
       run "$log" $CC -o "$log.exe" "$log.o" && run "$log" "$log.exe"; then
        pass "$name"
    else
        fail "$name" "$log"
    fi
}

# ---- 2. TDEC_STATIC in two TUs linked together ------------------------------
for cc in gcc clang; do
    have $cc || { skip "TDEC_STATIC two TUs $cc ($cc not found)"; continue; }
    for hdr in $SINGLE $AMAL; do
        impl=TDEC_XRAY_IMPLEMENTATION
        [ "$hdr" = "$AMAL" ] && impl=TRACEDEC_IMPLEMENTATION
        name="TDEC_STATIC in two linked TUs ($hdr, $cc)"
        log=$O/static2-$cc-$(basename $hdr .h).log
        : > "$log"
        if run "$log" $cc -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -D$impl -DTDEC_STATIC -DMX_NAME=a -DMX_MAIN \
                -DMX_CALL_B -c $TU -o "$log.a.o" &&
           run "$log" $cc -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -D$impl -DTDEC_STATIC -DMX_NAME=b \
                -c $TU -o "$log.b.o" &&
           run "$log" $cc -o "$log.exe" "$log.a.o" "$log.b.o" && run "$log" "$log.exe"; then
            if nm "$log.a.o" "$log.b.o" | grep -q ' [TDRB] tdec_'; then
                echo "tdec_ symbols with external linkage:" >> "$log"
                nm "$log.a.o" | grep ' [TDRB] tdec_' >> "$log"
                fail "$name" "$log"
            else
                pass "$name"
            fi
        else
            fail "$name" "$log"
        fi
    done
done

# A TDEC_STATIC user who calls only part of the API gets no "unused" warnings.
for cc in gcc clang g++ clang++; do
    have $cc || continue
    log=$O/static-partial-$cc.log
    : > "$log"
    lf=$(lang_flags $cc c99)
    case $cc in *++) lf=$(lang_flags $cc c++17) ;; esac
    if run "$log" $cc $lf $WARN -O2 -I. -DMX_HEADER="\"$SINGLE\"" -DTDEC_XRAY_IMPLEMENTATION -DTDEC_STATIC \
            -DMX_PARTIAL -DMX_NAME=a -DMX_MAIN -c $TU -o "$log.o" &&
       run "$log" $cc -o "$log.exe" "$log.o" && run "$log" "$log.exe"; then
        pass "TDEC_STATIC, partial API use, no unused warnings ($cc)"
    else
        fail "TDEC_STATIC, partial API use, no unused warnings ($cc)" "$log"
    fi
done

# TDEC_XRAY_STATIC (format-specific) and a TDEC_XRAY_DEF override.
one_tu "TDEC_XRAY_STATIC ($CC)" $O/xray-static.log -DMX_HEADER="\"$SINGLE\"" \
    -DTDEC_XRAY_IMPLEMENTATION -DTDEC_XRAY_STATIC
one_tu "TDEC_XRAY_DEF override ($CC)" $O/xray-def.log -DMX_HEADER="\"$SINGLE\"" \
    -DTDEC_XRAY_IMPLEMENTATION '-DTDEC_XRAY_DEF=extern __attribute__((visibility("hidden")))'

# ---- 3. tracedec.h and the single header together ---------------------------
one_tu "tracedec.h then $SINGLE in one TU, implementation ($CC)" $O/both-ab.log \
    -DMX_HEADER="\"$AMAL\"" -DMX_HEADER2="\"$SINGLE\"" -DTRACEDEC_IMPLEMENTATION
one_tu "$SINGLE then tracedec.h in one TU, implementation ($CC)" $O/both-ba.log \
    -DMX_HEADER="\"$SINGLE\"" -DMX_HEADER2="\"$AMAL\"" -DTDEC_XRAY_IMPLEMENTATION
one_tu "$SINGLE included twice, implementation ($CC)" $O/twice.log \
    -DMX_HEADER="\"$SINGLE\"" -DMX_HEADER2="\"$SINGLE\"" -DTDEC_XRAY_IMPLEMENTATION

name="tracedec.h implementation TU + $SINGLE declaration TU, linked ($CC)"
log=$O/amal-impl-single-decl.log
: > "$log"
if run "$log" $CC -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$AMAL\"" -DTRACEDEC_IMPLEMENTATION -DMX_NAME=a -DMX_MAIN \
        -DMX_CALL_B -c $TU -o "$log.a.o" &&
   run "$log" $CC -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$SINGLE\"" -DMX_NAME=b -c $TU -o "$log.b.o" &&
   run "$log" $CC -o "$log.exe" "$log.a.o" "$log.b.o" && run "$log" "$log.exe"; then
    pass "$name"
else
    fail "$name" "$log"
fi

# ---- 4. configuration macros ------------------------------------------------
one_tu "TDEC_NO_STRINGS $SINGLE ($CC)" $O/nostrings-single.log -DMX_HEADER="\"$SINGLE\"" \
    -DTDEC_XRAY_IMPLEMENTATION -DTDEC_NO_STRINGS
one_tu "TDEC_NO_STRINGS $AMAL ($CC)" $O/nostrings-amal.log -DMX_HEADER="\"$AMAL\"" \
    -DTRACEDEC_IMPLEMENTATION -DTDEC_NO_STRINGS
one_tu "TDEC_ONLY_XRAY $AMAL ($CC)" $O/only-xray.log -DMX_HEADER="\"$AMAL\"" \
    -DTRACEDEC_IMPLEMENTATION -DTDEC_ONLY_XRAY
one_tu "TDEC_NO_XRAY $AMAL declares no xray API ($CC)" $O/no-xray.log -DMX_HEADER="\"$AMAL\"" \
    -DTRACEDEC_IMPLEMENTATION -DTDEC_NO_XRAY -DMX_NO_XRAY
if have g++; then
    log=$O/no-xray-cxx.log
    : > "$log"
    if run "$log" g++ -x c++ -std=c++17 $WARN -O2 -I. -DMX_HEADER="\"$AMAL\"" -DTRACEDEC_IMPLEMENTATION \
            -DTDEC_NO_XRAY -DMX_NO_XRAY -DMX_NAME=a -c $TU -o "$log.o"; then
        pass "TDEC_NO_XRAY $AMAL as C++ (g++)"
    else
        fail "TDEC_NO_XRAY $AMAL as C++ (g++)" "$log"
    fi
fi

# ---- be_check: the same table on other hosts --------------------------------
# The samples, plus the fuzz corpus (damaged inputs: error paths too).
SAMPLES=$(ls tests/data/xray/*/*.xray fuzz/corpus/xray/* 2>/dev/null)
BC_SRC=tests/matrix/be_check.c
log=$O/be_check-native.log
: > "$log"
native_ok=0
if run "$log" $CC -std=c99 $WARN -O2 -I. $BC_SRC -o $O/be_check-native &&
   $O/be_check-native $SAMPLES > $O/be_check-native.out 2>> "$log"; then
    native_ok=1
    pass "be_check native: $(wc -l < $O/be_check-native.out) inputs decode chunk-invariantly, $($O/be_check-native --sizeof | sed 's/decoder \([0-9]*\) item \([0-9]*\)/sizeof decoder \1 B, item \2 B/')"
else
    cat $O/be_check-native.out >> "$log" 2>/dev/null
    fail "be_check native" "$log"
fi

# ---- 5. -m32 ----------------------------------------------------------------
log=$O/m32.log
: > "$log"
if ! echo 'int main(void){return 0;}' | $CC -m32 -x c - -o $O/m32-probe >> "$log" 2>&1 || ! $O/m32-probe; then
    skip "-m32 (no 32-bit multilib for $CC: apt-get install gcc-12-multilib; not gcc-multilib, which conflicts with gcc-s390x-linux-gnu)"
elif [ $native_ok = 0 ]; then
    fail "-m32 (native be_check failed first)"
else
    if run "$log" $CC -m32 -std=c99 $WARN -O2 -I. $BC_SRC -o $O/be_check-m32 &&
       $O/be_check-m32 $SAMPLES > $O/be_check-m32.out 2>> "$log" &&
       run "$log" cmp $O/be_check-native.out $O/be_check-m32.out &&
       run "$log" $CC -m32 -x c -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$AMAL\"" -DTRACEDEC_IMPLEMENTATION \
            -DMX_NAME=a -DMX_MAIN -c $TU -o $O/m32-tu.o &&
       run "$log" $CC -m32 -o $O/m32-tu $O/m32-tu.o && run "$log" $O/m32-tu; then
        pass "-m32 $CC: samples decode as natively, $($O/be_check-m32 --sizeof | sed 's/decoder \([0-9]*\) item \([0-9]*\)/sizeof decoder \1 B, item \2 B/')"
    else
        diff $O/be_check-native.out $O/be_check-m32.out >> "$log" 2>&1
        fail "-m32 $CC" "$log"
    fi
fi

# ---- 6. freestanding Cortex-M4 ----------------------------------------------
ARMCC=arm-none-eabi-gcc
name="cortex-m4 freestanding"
if ! have $ARMCC; then
    skip "$name ($ARMCC not found)"
elif ! have arm-none-eabi-nm || ! have arm-none-eabi-size; then
    skip "$name (arm-none-eabi-nm/size not found)"
else
    log=$O/cortex-m4.log
    : > "$log"
    AFL="-mcpu=cortex-m4 -mthumb -Os -ffreestanding -std=c99"
    # The implementation alone, and a separate object whose only content is
    # an array of sizeof(tdec_xray_decoder) bytes: nm -S reads its size.
    printf '%s\n' '#include "single/tdec_xray.h"' \
        'char tdec_matrix_sizeof_decoder[sizeof(tdec_xray_decoder)];' \
        'char tdec_matrix_sizeof_item[sizeof(tdec_xray_item)];' > $O/cm4-sizeof.c
    printf '%s\n' '#define TDEC_XRAY_IMPLEMENTATION' '#include "single/tdec_xray.h"' > $O/cm4-impl.c
    if run "$log" $ARMCC $AFL $WARN -I. -c $O/cm4-impl.c -o $O/cm4-impl.o &&
       run "$log" $ARMCC $AFL $WARN -I. -c $O/cm4-sizeof.c -o $O/cm4-sizeof.o &&
       run "$log" $ARMCC $AFL $WARN -I. -DMX_HEADER="\"$AMAL\"" -DTRACEDEC_IMPLEMENTATION -DMX_NAME=a \
            -c $TU -o $O/cm4-amal.o; then
        undef=$(arm-none-eabi-nm -u $O/cm4-impl.o $O/cm4-amal.o | awk 'NF >= 2 { print $NF }' | sort -u |
                grep -v -x -e memcpy -e memset | tr '\n' ' ')
        text=$(arm-none-eabi-size -A $O/cm4-impl.o | awk '$1 ~ /^\.text/ { t += $2 } END { print t + 0 }')
        szd=$(arm-none-eabi-nm -S -t d $O/cm4-sizeof.o | awk '$4 == "tdec_matrix_sizeof_decoder" { print $2 + 0 }')
        szi=$(arm-none-eabi-nm -S -t d $O/cm4-sizeof.o | awk '$4 == "tdec_matrix_sizeof_item" { print $2 + 0 }')
        arm-none-eabi-size -A $O/cm4-impl.o >> "$log"
        if [ -n "$undef" ]; then
            echo "undefined symbols other than memcpy/memset: $undef" >> "$log"
            fail "$name (undefined: $undef)" "$log"
        elif [ -z "$szd" ] || [ "$text" -eq 0 ]; then
            fail "$name (could not read .text size or sizeof)" "$log"
        else
            und=$(arm-none-eabi-nm -u $O/cm4-impl.o | awk '{ print $NF }' | tr '\n' ' ' | sed 's/ $//')
            pass "$name (.text $text B, sizeof decoder $szd B, item $szi B; undefined symbols: ${und:-none})"
        fi
    else
        fail "$name" "$log"
    fi
fi

# ---- uftrace: the same strict pairs, TDEC_STATIC, subsets, Cortex-M ---------
UTU=tests/matrix/uftrace_tu.c
USINGLE=single/tdec_uftrace.h
# upair NAME CC STD HEADER IMPLMACRO [EXTRA]: impl TU + second TU, linked, run.
upair() {
    name=$1 cc=$2 std=$3 hdr=$4 impl=$5 extra=${6:-}
    id=u_$(echo "$name" | tr ' /+=' '___p' | tr -cd 'A-Za-z0-9_.-')
    log=$O/$id.log
    : > "$log"
    lf=$(lang_flags "$cc" "$std")
    # shellcheck disable=SC2086
    if run "$log" "$cc" $lf $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -DMX_NAME=a -D"$impl" -DMX_MAIN $extra -c $UTU -o "$O/$id.a.o" &&
       run "$log" "$cc" $lf $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -DMX_NAME=b $extra -c $UTU -o "$O/$id.b.o" &&
       run "$log" "$cc" -o "$O/$id.exe" "$O/$id.a.o" "$O/$id.b.o" && run "$log" "$O/$id.exe"; then
        pass "$name"
    else
        fail "$name" "$log"
    fi
}
for c in "gcc c99" "gcc c11" "clang c99" "clang c11" "g++ c++17" "clang++ c++17"; do
    set -- $c
    have "$1" || { skip "$USINGLE $1 -std=$2 ($1 not found)"; continue; }
    upair "$USINGLE $1 -std=$2 (impl TU + decl TU)" "$1" "$2" "$USINGLE" TDEC_UFTRACE_IMPLEMENTATION
done
for cc in gcc clang; do
    have $cc || { skip "TDEC_STATIC two TUs uftrace $cc ($cc not found)"; continue; }
    # both TUs carry their own static copy: -DTDEC_STATIC and the impl macro in each
    name="TDEC_STATIC in two linked TUs ($USINGLE, $cc)"
    id=u_static2_$cc
    log=$O/$id.log
    : > "$log"
    if run "$log" $cc -x c -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$USINGLE\"" -DTDEC_STATIC -DTDEC_UFTRACE_IMPLEMENTATION -DMX_NAME=a -DMX_MAIN -c $UTU -o $O/$id.a.o &&
       run "$log" $cc -x c -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$USINGLE\"" -DTDEC_STATIC -DTDEC_UFTRACE_IMPLEMENTATION -DMX_NAME=b -c $UTU -o $O/$id.b.o &&
       run "$log" $cc -o $O/$id.exe $O/$id.a.o $O/$id.b.o && run "$log" $O/$id.exe &&
       ! nm $O/$id.a.o | grep -q ' T tdec_'; then
        pass "$name"
    else
        fail "$name" "$log"
    fi
done
have gcc && {
    upair "$AMAL TDEC_ONLY_UFTRACE (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_ONLY_UFTRACE
    upair "$AMAL TDEC_NO_XRAY, uftrace kept (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_NO_XRAY
    upair "$USINGLE TDEC_NO_STRINGS (gcc c99)" gcc c99 "$USINGLE" TDEC_UFTRACE_IMPLEMENTATION -DTDEC_NO_STRINGS
}
if have arm-none-eabi-gcc; then
    log=$O/u_cm4.log
    : > "$log"
    name="cortex-m4 freestanding $USINGLE"
    if run "$log" arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding -std=c99 $WARN -I. \
            -DMX_HEADER="\"$USINGLE\"" -DTDEC_UFTRACE_IMPLEMENTATION -DMX_NAME=a -c $UTU -o $O/u_cm4.o; then
        undef=$(arm-none-eabi-nm -u $O/u_cm4.o | awk '{print $2}' | grep -v '^memcpy$' | grep -v '^memset$' | tr '\n' ' ')
        text=$(arm-none-eabi-size -A $O/u_cm4.o | awk '$1 == ".text" {print $2}')
        if [ -z "$undef" ]; then
            pass "$name (.text $text B; undefined symbols: none besides memcpy/memset)"
        else
            echo "undefined: $undef" >> "$log"
            fail "$name (undefined symbols: $undef)" "$log"
        fi
    else
        fail "$name" "$log"
    fi
else
    skip "cortex-m4 freestanding $USINGLE (arm-none-eabi-gcc not found)"
fi

# ---- ovni, xtrace, ipt: the same checks for each ---------------------------
# Big-endian host, used here and in section 7.
BECC=s390x-linux-gnu-gcc
QEMU=qemu-s390x
TIMEOUT=""
have timeout && TIMEOUT="timeout 150"
have $QEMU || QEMU=qemu-s390x-static
CM4="arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -ffreestanding -std=c99"

# fpair NAME CC STD HEADER IMPLMACRO [EXTRA...]: the format's TU ($FTU) as
# impl TU (with main) + second TU, both with EXTRA, linked and run.
fpair() {
    name=$1 cc=$2 std=$3 hdr=$4 impl=$5
    shift 5
    id=${F}_$(echo "$name" | tr ' /+=' '___p' | tr -cd 'A-Za-z0-9_.-')
    log=$O/$id.log
    : > "$log"
    lf=$(lang_flags "$cc" "$std")
    # shellcheck disable=SC2086
    if run "$log" "$cc" $lf $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -DMX_NAME=a -D"$impl" -DMX_MAIN "$@" -c $FTU -o "$O/$id.a.o" &&
       run "$log" "$cc" $lf $WARN -O2 -I. -DMX_HEADER="\"$hdr\"" -DMX_NAME=b "$@" -c $FTU -o "$O/$id.b.o" &&
       run "$log" "$cc" -o "$O/$id.exe" "$O/$id.a.o" "$O/$id.b.o" && run "$log" "$O/$id.exe"; then
        pass "$name"
    else
        fail "$name" "$log"
    fi
}

# fsizeof NM CC FLAGS...: "sizeof decoder N B, item M B" of the format's
# types on CC's target (an object whose arrays have those sizes, read with NM -S).
fsizeof() {
    nmtool=$1
    shift
    printf '%s\n' "#include \"$FSINGLE\"" \
        "char tdec_matrix_sizeof_decoder[sizeof(tdec_${F}_decoder)];" \
        "char tdec_matrix_sizeof_item[sizeof(tdec_${F}_item)];" > $O/$F-sizeof.c
    "$@" -I. -c $O/$F-sizeof.c -o $O/$F-sizeof.o 2>/dev/null &&
        $nmtool -S -t d $O/$F-sizeof.o | awk '$4 == "tdec_matrix_sizeof_decoder" { d = $2 + 0 }
            $4 == "tdec_matrix_sizeof_item" { i = $2 + 0 }
            END { if (!d) exit 1; printf "sizeof decoder %d B, item %d B\n", d, i }'
}

# format_checks FMT HASHMACRO OTHER...: every check for single/tdec_FMT.h with
# tests/matrix/FMT_tu.c; the fuzz replay of fuzz/fuzz_FMT.c built with
# -DHASHMACRO prints one line of hashes per corpus input, and the -m32 and
# s390x runs must print the same lines. OTHER: the other formats (upper case).
format_checks() {
    F=$1 hashmacro=$2
    shift 2
    others=$*
    UP=$(echo "$F" | tr a-z A-Z)
    FTU=tests/matrix/${F}_tu.c
    FSINGLE=single/tdec_$F.h
    IMPL=TDEC_${UP}_IMPLEMENTATION
    for c in "gcc c99" "gcc c11" "clang c99" "clang c11" "g++ c++17" "clang++ c++17"; do
        set -- $c
        have "$1" || { skip "$FSINGLE $1 -std=$2 ($1 not found)"; continue; }
        fpair "$FSINGLE $1 -std=$2 (impl TU + decl TU)" "$1" "$2" "$FSINGLE" $IMPL
        fpair "$AMAL $1 -std=$2, $F API (impl TU + decl TU)" "$1" "$2" "$AMAL" TRACEDEC_IMPLEMENTATION
    done
    for cc in gcc clang; do
        have $cc || { skip "TDEC_STATIC two TUs $F $cc ($cc not found)"; continue; }
        # both TUs carry their own static copy: no tdec_ symbol may be exported
        name="TDEC_STATIC in two linked TUs ($FSINGLE, $cc)"
        id=${F}_static2_$cc
        log=$O/$id.log
        : > "$log"
        FS2="-x c -std=c99 $WARN -O2 -I. -DMX_HEADER=\"$FSINGLE\" -DTDEC_STATIC -D$IMPL"
        # shellcheck disable=SC2086
        if run "$log" $cc $FS2 -DMX_NAME=a -DMX_MAIN -c $FTU -o $O/$id.a.o &&
           run "$log" $cc $FS2 -DMX_NAME=b -c $FTU -o $O/$id.b.o &&
           run "$log" $cc -o $O/$id.exe $O/$id.a.o $O/$id.b.o && run "$log" $O/$id.exe &&
           ! nm $O/$id.a.o $O/$id.b.o | grep ' [TDRB] tdec_' >> "$log"; then
            pass "$name"
        else
            fail "$name" "$log"
        fi
    done
    for cc in gcc clang g++ clang++; do
        have $cc || continue
        std=c99
        case $cc in *++) std=c++17 ;; esac
        fpair "TDEC_STATIC, partial API use, no unused warnings ($FSINGLE, $cc)" $cc $std "$FSINGLE" \
            $IMPL -DTDEC_STATIC -D$IMPL -DMX_PARTIAL
    done
    nos=""
    for o in $others; do nos="$nos -DTDEC_NO_$o"; done
    have gcc && {
        fpair "TDEC_${UP}_STATIC (gcc c99)" gcc c99 "$FSINGLE" $IMPL -DTDEC_${UP}_STATIC -D$IMPL
        fpair "TDEC_${UP}_DEF override (gcc c99)" gcc c99 "$FSINGLE" $IMPL \
            "-DTDEC_${UP}_DEF=extern __attribute__((visibility(\"hidden\")))"
        fpair "tracedec.h then $FSINGLE in one TU (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DMX_HEADER2="\"$FSINGLE\""
        fpair "$FSINGLE then tracedec.h in one TU (gcc c99)" gcc c99 "$FSINGLE" $IMPL -DMX_HEADER2="\"$AMAL\""
        fpair "$FSINGLE included twice (gcc c99)" gcc c99 "$FSINGLE" $IMPL -DMX_HEADER2="\"$FSINGLE\""
        fpair "$AMAL TDEC_ONLY_$UP (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_ONLY_$UP
        fpair "$AMAL TDEC_ONLY_$UP + TDEC_ONLY_XRAY (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_ONLY_$UP -DTDEC_ONLY_XRAY
        # shellcheck disable=SC2086
        fpair "$AMAL every other format left out, $F kept (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION $nos
        fpair "$AMAL TDEC_NO_$UP declares no $F API (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_NO_$UP -DMX_NO_$UP
        fpair "$AMAL TDEC_ONLY_XRAY declares no $F API (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_ONLY_XRAY -DMX_NO_$UP
        fpair "$FSINGLE TDEC_NO_STRINGS (gcc c99)" gcc c99 "$FSINGLE" $IMPL -DTDEC_NO_STRINGS
        fpair "$AMAL TDEC_NO_STRINGS, $F API (gcc c99)" gcc c99 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_NO_STRINGS
    }
    have g++ && fpair "$AMAL TDEC_NO_$UP as C++ (g++)" g++ c++17 "$AMAL" TRACEDEC_IMPLEMENTATION -DTDEC_NO_$UP -DMX_NO_$UP

    # The fuzz replay driver (every invariant of the harness) over the corpus.
    FCORPUS=$(ls fuzz/corpus/$F/* fuzz/regressions/$F/* 2>/dev/null | grep -v README)
    FREPLAY="-std=c99 $WARN -O2 -I. -D$hashmacro fuzz/standalone_main.c fuzz/fuzz_$F.c"
    log=$O/${F}_replay-native.log
    : > "$log"
    freplay_ok=0
    # shellcheck disable=SC2086
    if run "$log" $CC $FREPLAY -o $O/${F}_replay-native &&
       $O/${F}_replay-native $FCORPUS > $O/${F}_replay-native.out 2>> "$log"; then
        freplay_ok=1
        pass "$F replay native: $(grep -c '^log ' $O/${F}_replay-native.out) corpus inputs, every invariant holds, $(fsizeof nm $CC -std=c99)"
    else
        fail "$F replay native" "$log"
    fi

    log=$O/${F}_m32.log
    : > "$log"
    if ! echo 'int main(void){return 0;}' | $CC -m32 -x c - -o $O/m32-probe >> "$log" 2>&1 || ! $O/m32-probe; then
        skip "-m32 $FSINGLE (no 32-bit multilib for $CC: apt-get install gcc-12-multilib)"
    elif [ $freplay_ok = 0 ]; then
        fail "-m32 $FSINGLE (native $F replay failed first)"
    else
        # shellcheck disable=SC2086
        if run "$log" $CC -m32 $FREPLAY -o $O/${F}_replay-m32 &&
           $O/${F}_replay-m32 $FCORPUS > $O/${F}_replay-m32.out 2>> "$log" &&
           run "$log" cmp $O/${F}_replay-native.out $O/${F}_replay-m32.out &&
           run "$log" $CC -m32 -x c -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$FSINGLE\"" -D$IMPL \
                -DMX_NAME=a -DMX_MAIN -c $FTU -o $O/${F}_m32-a.o &&
           run "$log" $CC -m32 -x c -std=c99 $WARN -O2 -I. -DMX_HEADER="\"$FSINGLE\"" -DMX_NAME=b -c $FTU -o $O/${F}_m32-b.o &&
           run "$log" $CC -m32 -o $O/${F}_m32 $O/${F}_m32-a.o $O/${F}_m32-b.o && run "$log" $O/${F}_m32; then
            pass "-m32 $CC $FSINGLE: corpus replays as natively, $(fsizeof nm $CC -m32 -std=c99)"
        else
            diff $O/${F}_replay-native.out $O/${F}_replay-m32.out >> "$log" 2>&1
            fail "-m32 $CC $FSINGLE" "$log"
        fi
    fi

    name="cortex-m4 freestanding $FSINGLE"
    if have arm-none-eabi-gcc && have arm-none-eabi-nm && have arm-none-eabi-size; then
        log=$O/${F}_cm4.log
        : > "$log"
        printf '%s\n' "#define $IMPL" "#include \"$FSINGLE\"" > $O/${F}_cm4-impl.c
        # shellcheck disable=SC2086
        if run "$log" $CM4 $WARN -I. -c $O/${F}_cm4-impl.c -o $O/${F}_cm4-impl.o &&
           run "$log" $CM4 $WARN -I. -DTDEC_NO_STRINGS -c $O/${F}_cm4-impl.c -o $O/${F}_cm4-nostr.o &&
           run "$log" $CM4 $WARN -I. -DMX_HEADER="\"$FSINGLE\"" -D$IMPL -DMX_NAME=a -c $FTU -o $O/${F}_cm4-tu.o; then
            # fsec SECTIONS OBJ: bytes in the sections matching the awk regex
            fsec() { arm-none-eabi-size -A "$2" | awk -v re="$1" '$1 ~ re { t += $2 } END { print t + 0 }'; }
            text=$(fsec '^\\.text' $O/${F}_cm4-impl.o)
            ro=$(fsec '^\\.rodata' $O/${F}_cm4-impl.o)
            text_ns=$(fsec '^\\.text' $O/${F}_cm4-nostr.o)
            ro_ns=$(fsec '^\\.rodata' $O/${F}_cm4-nostr.o)
            # shellcheck disable=SC2086
            sz=$(fsizeof arm-none-eabi-nm $CM4)
            arm-none-eabi-size -A $O/${F}_cm4-impl.o >> "$log"
            undef=$(arm-none-eabi-nm -u $O/${F}_cm4-impl.o $O/${F}_cm4-tu.o | awk 'NF >= 2 { print $NF }' | sort -u |
                    grep -v -x -e memcpy -e memset | tr '\n' ' ' | sed 's/ $//')
            if [ -n "$undef" ]; then
                echo "undefined symbols other than memcpy/memset (64-bit division helpers: not freestanding): $undef" >> "$log"
                fail "$name (.text $text B, ${sz:-sizeof ?}; undefined: $undef)" "$log"
            else
                pass "$name (.text $text B, .rodata $ro B; TDEC_NO_STRINGS .text $text_ns B, .rodata $ro_ns B; ${sz:-sizeof ?}; undefined symbols: none besides memcpy/memset)"
            fi
        else
            fail "$name" "$log"
        fi
    else
        skip "$name (arm-none-eabi-gcc/nm/size not found)"
    fi

    # The big-endian host: the corpus replay (its hashes as natively) and the
    # unit tests (same output as natively, quick strides in both runs).
    name="big-endian s390x (qemu-user): $FSINGLE"
    if ! have $BECC || ! have $QEMU; then
        skip "$name ($BECC or qemu-s390x not found)"
    elif [ $freplay_ok = 0 ]; then
        fail "$name (native $F replay failed first)"
    else
        log=$O/${F}_s390x.log
        : > "$log"
        BENM=nm
        have s390x-linux-gnu-nm && BENM=s390x-linux-gnu-nm
        # shellcheck disable=SC2086
        if run "$log" $BECC -static $FREPLAY -o $O/${F}_replay-s390x &&
           $TIMEOUT $QEMU $O/${F}_replay-s390x $FCORPUS > $O/${F}_replay-s390x.out 2>> "$log" &&
           run "$log" cmp $O/${F}_replay-native.out $O/${F}_replay-s390x.out; then
            pass "$name: corpus replay on $(grep -c '^log ' $O/${F}_replay-s390x.out) inputs identical to the native run, $(fsizeof $BENM $BECC -std=c99)"
        else
            diff $O/${F}_replay-native.out $O/${F}_replay-s390x.out >> "$log" 2>&1
            fail "$name: corpus replay" "$log"
        fi
        log=$O/${F}_s390x-unit.log
        : > "$log"
        name="big-endian s390x (qemu-user): tests/unit/$F.c"
        if run "$log" $CC -std=c99 $WARN -O2 -I. tests/unit/$F.c -o $O/test_$F-native &&
           run "$log" $BECC -static -std=c99 $WARN -O2 -I. tests/unit/$F.c -o $O/test_$F-s390x; then
            TDEC_TEST_QUICK=13 $O/test_$F-native > $O/test_$F-native.out 2>&1
            rn=$?
            TDEC_TEST_QUICK=13 ${TIMEOUT:+timeout 480} $QEMU $O/test_$F-s390x > $O/test_$F-s390x.out 2>&1
            rb=$?
            cat $O/test_$F-s390x.out >> "$log"
            if [ $rb -eq 0 ] && [ $rn -eq 0 ] && cmp -s $O/test_$F-native.out $O/test_$F-s390x.out; then
                pass "$name ($(grep -c '^PASS' $O/test_$F-s390x.out) PASS lines, identical to the native run)"
            else
                echo "exit native $rn, s390x $rb" >> "$log"
                diff $O/test_$F-native.out $O/test_$F-s390x.out >> "$log" 2>&1
                fail "$name" "$log"
            fi
        else
            fail "$name (build)" "$log"
        fi
    fi
}

format_checks ovni OC_PRINT_HASH XRAY UFTRACE XTRACE IPT
format_checks xtrace XTC_PRINT_HASH XRAY UFTRACE OVNI IPT
format_checks ipt IPC_PRINT_HASH XRAY UFTRACE OVNI XTRACE

# ---- 7. big-endian s390x under qemu-user -------------------------------------
name="big-endian s390x (qemu-user)"
if ! have $BECC; then
    skip "$name ($BECC not found)"
elif ! have $QEMU; then
    skip "$name (qemu-s390x not found)"
elif [ $native_ok = 0 ]; then
    fail "$name (native be_check failed first)"
else
    log=$O/s390x.log
    : > "$log"
    if run "$log" $BECC -static -std=c99 $WARN -O2 -I. $BC_SRC -o $O/be_check-s390x &&
       $TIMEOUT $QEMU $O/be_check-s390x $SAMPLES > $O/be_check-s390x.out 2>> "$log" &&
       run "$log" cmp $O/be_check-native.out $O/be_check-s390x.out; then
        pass "$name: be_check on $(wc -l < $O/be_check-s390x.out) inputs identical to the native run, $($QEMU $O/be_check-s390x --sizeof | sed 's/decoder \([0-9]*\) item \([0-9]*\)/sizeof decoder \1 B, item \2 B/')"
    else
        diff $O/be_check-native.out $O/be_check-s390x.out >> "$log" 2>&1
        fail "$name: be_check" "$log"
    fi
    # The unit tests themselves, when they exist: same output as natively.
    if [ -f tests/unit/xray.c ]; then
        log=$O/s390x-unit.log
        : > "$log"
        name="big-endian s390x (qemu-user): tests/unit/xray.c"
        if run "$log" $CC -std=c99 $WARN -O2 -I. tests/unit/xray.c -o $O/test_xray-native &&
           run "$log" $BECC -static -std=c99 $WARN -O2 -I. tests/unit/xray.c -o $O/test_xray-s390x; then
            # qemu-user is slower than native: both runs use the quick
            # strides (same checks, fewer cuts) so the outputs compare.
            TDEC_TEST_QUICK=13 $O/test_xray-native > $O/test_xray-native.out 2>&1
            rn=$?
            TDEC_TEST_QUICK=13 ${TIMEOUT:+timeout 480} $QEMU $O/test_xray-s390x > $O/test_xray-s390x.out 2>&1
            rb=$?
            cat $O/test_xray-s390x.out >> "$log"
            if [ $rb -eq 0 ] && [ $rn -eq 0 ] && cmp -s $O/test_xray-native.out $O/test_xray-s390x.out; then
                pass "$name ($(grep -c '^PASS' $O/test_xray-s390x.out) PASS lines, identical to the native run)"
            else
                echo "exit native $rn, s390x $rb" >> "$log"
                diff $O/test_xray-native.out $O/test_xray-s390x.out >> "$log" 2>&1
                fail "$name" "$log"
            fi
        else
            fail "$name (build)" "$log"
        fi
    fi
fi

# ---- 8. the library includes only <stddef.h> and <stdint.h> -----------------
name="library includes only <stddef.h> and <stdint.h>"
log=$O/includes.log
: > "$log"
bad=""
for h in single/*.h tools/core/tdec_core.h tracedec.h; do
    # gcc -fpreprocessed -dD -E removes the comments and expands nothing.
    if ! gcc -fpreprocessed -dD -E -P -x c "$h" > $O/nocomment.h 2>> "$log"; then
        bad="$bad $h(unreadable)"
        continue
    fi
    incs=$(grep -E '^[[:space:]]*#[[:space:]]*include' $O/nocomment.h |
           sed 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//' | sort -u)
    for i in $incs; do
        case "$i" in
        '<stddef.h>' | '<stdint.h>') ;;
        '<string.h>')
            # allowed only as the default branch of TDEC_MEMCPY / TDEC_MEMSET
            grep -q 'TDEC_MEMCPY' $O/nocomment.h || bad="$bad $h:$i" ;;
        *) bad="$bad $h:$i" ;;
        esac
    done
done
if [ -z "$bad" ]; then
    pass "$name"
else
    echo "offending includes:$bad" >> "$log"
    fail "$name (found:$bad)" "$log"
fi

exit $status
