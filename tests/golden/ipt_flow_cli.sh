#!/bin/sh
# `tracedec flow`'s own options on libipt's ptt vectors (docs/ipt.md,
# "tracedec flow"):
#  - --time: tests/data/ipt/flow-time/NAME.exp (ptxed's output with --time,
#    derived as tests/data/ipt/flow-time/README.md says), white space folded;
#  - --time --event:time --event:ip: tests/data/ipt/flow-events/NAME.block
#    and NAME.insn (ptxed's own output), byte for byte, both decoders;
#  - --json: on every vector with a -ptxed.exp whose options flow takes,
#    each object rendered back as text (tests/golden/ipt_flow_json.py)
#    equals the text run, with --time --event:ip --event:time --offset added; on broken traces (cut short, bytes
#    flipped) every line is a JSON object and the output ends cleanly;
#  - --elf: the vectors' code wrapped into 64- and 32-bit ELF executables
#    (objcopy and ld, binutils; gcc -pie) decodes as --raw does, at the
#    ELF's own address and moved with :BASE; hostile ELF files give an error naming
#    the byte offset, or a warning, never a crash;
#  - --help names every flow option.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-ipt-flow-cli
T=$PWD/$T
D=$PWD/tests/data/ipt
case $X in /*) ;; *) X=$PWD/$X ;; esac
TAB=$(printf '\t')

fold() { sed -E 's/[ 	]+/ /g; s/ $//' "$1"; }

# opts NAME: the vector's ptxed options and first CPU (as tests/golden/ipt_flow.sh)
opts() {
    grep "^$1$TAB" "$D/INDEX.tsv" | while IFS="$TAB" read -r _ _ _ _ cpus _ _ po _ _; do
        [ "$po" = "-" ] && po=""
        [ "$cpus" != "-" ] && po="$po --cpu ${cpus%%,*}"
        echo "$po"
    done
}
org() { grep "^$1$TAB" "$D/INDEX.tsv" | cut -f4; }

# flow NAME [OPTIONS...]: the vector's flow with its own options and these
flow() {
    v=$1
    shift
    # shellcheck disable=SC2046
    (cd "$D/$v" && "$X" flow --raw "$v.bin:$(org "$v")" $(opts "$v") "$@" --pt "$v.pt")
}

# ---- --time ----
n=0 bad=""
for e in "$D"/flow-time/*.exp; do
    v=$(basename "$e" .exp)
    n=$((n + 1))
    flow "$v" --time > "$T/$v.time" 2>&1
    fold "$T/$v.time" | cmp -s - "$(fold "$e" > "$T/$v.time-exp"; echo "$T/$v.time-exp")" || bad="$bad $v"
done
if [ -z "$bad" ] && [ "$n" -ge 6 ]; then
    pass "ipt-flow --time == ptxed --time on $n vectors (tests/data/ipt/flow-time)"
else
    fail "ipt-flow --time differs:$bad ($n vectors)"
fi

# ---- --time --event:time --event:ip: every vector, both decoders ----
n=0 bad=""
while IFS="$TAB" read -r v _; do
    for k in block insn; do
        e=$D/flow-events/$v.$k
        [ -f "$e" ] || continue
        n=$((n + 1))
        dec=""
        [ $k = insn ] && dec=--insn-decoder
        # shellcheck disable=SC2086
        flow "$v" $dec --time --event:time --event:ip > "$T/$v.$k.events" 2>&1
        cmp -s "$T/$v.$k.events" "$e" || bad="$bad $v.$k"
    done
done < "$D/INDEX.tsv"
if [ -z "$bad" ] && [ "$n" -eq 284 ]; then
    pass "ipt-flow --time --event:time --event:ip == ptxed's on all $n vector runs (both decoders, tests/data/ipt/flow-events)"
else
    fail "ipt-flow --time --event:time --event:ip ($n runs of 284) differ:$(echo "$bad" | cut -c1-300)"
fi

# ---- --json ----
if have python3; then
    n=0 bad=""
    for d in "$D"/*/; do
        v=$(basename "$d")
        [ -f "$d/$v-ptxed.exp" ] || continue
        n=$((n + 1))
        o="--time --event:ip --event:time --offset"
        # shellcheck disable=SC2086
        flow "$v" $o > "$T/$v.txt" 2>&1 || [ $? -lt 2 ] || { n=$((n - 1)); continue; } # an option not taken yet
        # shellcheck disable=SC2086
        flow "$v" $o --json > "$T/$v.json" 2>&1
        echo "$(echo "$(opts "$v") $o" | tr ' ' ',') $T/$v.json $T/$v.txt" >> "$T/json.args"
    done
    # shellcheck disable=SC2046
    python3 tests/golden/ipt_flow_json.py $(cat "$T/json.args") > "$T/json.log" 2>&1 || bad=$(grep '^FAIL' "$T/json.log" | cut -c1-200)
    if [ -z "$bad" ] && [ "$n" -ge 124 ]; then
        pass "ipt-flow --json == the text output, object by object, on $n vectors"
    else
        fail "ipt-flow --json ($n vectors):$(echo "$bad" | cut -c1-300)" "$T/json.log"
    fi
    # broken traces: every cut of three traces, and each byte flipped
    bad="" runs=0
    for v in loop-tnt tsx-abort mtc-ovf_keep-cyc; do
        mkdir -p "$T/broken-$v"
        python3 -c 'import sys
b = open(sys.argv[1], "rb").read()
for i in range(1, len(b)):
    open("%s/cut%d.pt" % (sys.argv[2], i), "wb").write(b[:i])
    f = bytearray(b)
    f[i] ^= 0xff
    open("%s/flip%d.pt" % (sys.argv[2], i), "wb").write(f)' "$D/$v/$v.pt" "$T/broken-$v"
        for p in "$T/broken-$v"/*.pt; do
            # shellcheck disable=SC2046
            (cd "$D/$v" && "$X" flow --raw "$v.bin:$(org "$v")" $(opts "$v") --json --pt "$p") > "${p%.pt}.json" 2> /dev/null
            rc=$?
            runs=$((runs + 1))
            [ $rc -lt 2 ] || bad="$bad $(basename "$p")(rc $rc)"
        done
    done
    python3 tests/golden/ipt_flow_json.py --parse-only "$T"/broken-*/*.json > "$T/broken.log" 2>&1 ||
        bad="$bad $(grep '^FAIL' "$T/broken.log" | head -3)"
    if [ -z "$bad" ]; then
        pass "ipt-flow --json: valid JSON lines, exit 0/1, on $runs broken traces (cut, byte flipped)"
    else
        fail "ipt-flow --json on broken traces:$(echo "$bad" | cut -c1-300)"
    fi
else
    skip "ipt-flow --json (python3 not found)"
fi

# ---- --elf ----
# wrap V BITS ADDR: the vector's code as the only PT_LOAD of an ELF
# executable at ADDR (ld -N: one segment, no page alignment)
wrap() {
    if [ "$2" = 64 ]; then f="-O elf64-x86-64 -B i386:x86-64" m=elf_x86_64; else f="-O elf32-i386 -B i386" m=elf_i386; fi
    # shellcheck disable=SC2086
    objcopy -I binary $f --rename-section .data=.text,contents,alloc,load,readonly,code "$D/$1/$1.bin" "$T/$1.o" &&
        ld -m "$m" -N -e "$3" -Ttext="$3" -o "$T/$1.elf$2" "$T/$1.o" 2> "$T/ld.log"
}
if have objcopy && have ld; then
    n=0 bad=""
    for v in call_direct-ret_compressed tsx-abort ptxed-tick loop-tnt fup-tip_pgd-tip_pge mode_exec-tip; do
        a=$(org "$v")
        flow "$v" > "$T/$v.raw" 2>&1
        for bits in 64 32; do
            n=$((n + 1))
            if ! wrap "$v" "$bits" "$a"; then
                bad="$bad $v/$bits(ld)"
                continue
            fi
            # at its own address; then linked elsewhere and moved back with :BASE
            # shellcheck disable=SC2046
            (cd "$D/$v" && "$X" flow --elf "$T/$v.elf$bits" $(opts "$v") --pt "$v.pt") > "$T/$v.elf$bits.out" 2>&1
            cmp -s "$T/$v.elf$bits.out" "$T/$v.raw" || bad="$bad $v/$bits"
            wrap "$v" "$bits" 0x2000000 || bad="$bad $v/$bits(ld)"
            # shellcheck disable=SC2046
            (cd "$D/$v" && "$X" flow --elf "$T/$v.elf$bits:$a" $(opts "$v") --pt "$v.pt") > "$T/$v.base.out" 2>&1
            cmp -s "$T/$v.base.out" "$T/$v.raw" || bad="$bad $v/$bits:base"
        done
    done
    if [ -z "$bad" ]; then
        pass "ipt-flow --elf FILE and FILE:BASE (64- and 32-bit ELF) == --raw on $n vector images"
    else
        fail "ipt-flow --elf differs from --raw:$bad"
    fi
else
    skip "ipt-flow --elf == --raw (objcopy/ld from binutils not found)"
fi

# gcc's position-independent executables (ET_DYN linked at 0, several
# PT_LOAD segments: headers, code, data) holding the vector's code at
# _start, moved with :BASE so that _start lands on the vector's address
if have gcc && have nm; then
    n=0 bad=""
    for v in call_direct-ret_compressed tsx-abort loop-tnt mode_exec-tip; do
        [ -f "$T/$v.raw" ] || flow "$v" > "$T/$v.raw" 2>&1
        printf '.text\n.globl _start\n_start:\n.incbin "%s"\n' "$D/$v/$v.bin" > "$T/$v.S"
        for bits in 64 32; do
            gcc -m$bits -nostdlib -pie -Wl,--build-id=none -o "$T/$v.pie$bits" "$T/$v.S" 2> "$T/gcc.log" || continue
            n=$((n + 1))
            start=$(nm "$T/$v.pie$bits" | awk '$3 == "_start" { print $1 }')
            base=$(printf '0x%x' $(($(org "$v") - 0x$start)))
            # shellcheck disable=SC2046
            (cd "$D/$v" && "$X" flow --elf "$T/$v.pie$bits:$base" $(opts "$v") --pt "$v.pt") > "$T/$v.pie.out" 2>&1
            cmp -s "$T/$v.pie.out" "$T/$v.raw" || bad="$bad $v/$bits"
        done
    done
    if [ -z "$bad" ] && [ "$n" -ge 4 ]; then
        pass "ipt-flow --elf FILE:BASE of gcc -pie executables == --raw on $n vector images"
    else
        fail "ipt-flow --elf of gcc -pie executables ($n built):$bad" "$T/gcc.log"
    fi
else
    skip "ipt-flow --elf of gcc -pie executables (gcc/nm not found)"
fi

# hostile ELF files: python3 writes them; "error@OFF" expects exit 1 and an
# error naming byte offset OFF, "warn" exit 0 and a warning.
if have python3; then
    python3 - "$T" <<'PY'
import struct, sys
t = sys.argv[1]
def elf64(phoff=64, phnum=1, phdrs=b"", tail=b"", data=1, cls=2):
    ident = b"\x7fELF" + bytes([cls, data, 1]) + bytes(9)
    hdr = ident + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0x1000, phoff, 0, 0, 64, 56, phnum, 64, 0, 0)
    return hdr + phdrs + tail
def ph64(off, vaddr, filesz, typ=1):
    return struct.pack("<IIQQQQQQ", typ, 5, off, vaddr, vaddr, filesz, filesz, 0x1000)
cases = {
    "empty": b"",
    "magic": b"\x7fELX" + bytes(60),
    "class": b"\x7fELF\x03\x01" + bytes(58),
    "bigendian": elf64(data=2),
    "short64": elf64()[:40],
    "short32": b"\x7fELF\x01\x01\x01" + bytes(30),
    "phoff-past-end": elf64(phoff=1 << 40, phnum=1),
    "phdrs-cut": elf64(phnum=3, phdrs=ph64(120, 0x1000, 4)),
    "phnum-huge": elf64(phnum=0xffff, phdrs=ph64(120, 0x1000, 4)),
    "seg-past-end": elf64(phdrs=ph64(1 << 62, 0x1000, 16)),
    "seg-wraps": elf64(phdrs=ph64(120, 0xfffffffffffffff0, 0x40), tail=bytes(64)),
    "seg-cut": elf64(phdrs=ph64(120, 0x100000, 1 << 63), tail=b"\xe9\xfb\x00\x00\x00"),
    "no-load": elf64(phdrs=ph64(120, 0x1000, 4, typ=4), tail=bytes(4)),
}
for name, data in cases.items():
    open("%s/%s.elf" % (t, name), "wb").write(data)
PY
    bad=""
    v=ptxed-resync-nomap-fup-tip
    for c in empty:error@0 magic:error@0 class:error@4 bigendian:error@5 short64:error@40 short32:error@37 \
             phoff-past-end:error@1099511627776 phdrs-cut:error@64 phnum-huge:error@64 seg-past-end:warn \
             seg-wraps:warn seg-cut:cut no-load:warn; do
        f=${c%%:*} want=${c#*:}
        (cd "$D/$v" && "$X" flow --elf "$T/$f.elf" --pt "$v.pt") > "$T/$f.out" 2> "$T/$f.err"
        rc=$?
        case $want in
        error@*) [ $rc -eq 1 ] && grep -q "error: offset ${want#error@}: " "$T/$f.err" || bad="$bad $f(rc $rc)" ;;
        warn) [ $rc -eq 0 ] && grep -q "warning: " "$T/$f.err" || bad="$bad $f(rc $rc)" ;;
        cut) [ $rc -eq 0 ] && [ "$(head -1 "$T/$f.out")" = 0000000000100000 ] || bad="$bad $f(rc $rc)" ;;
        esac
    done
    if [ -z "$bad" ]; then
        pass "ipt-flow --elf: 13 hostile ELF files give an error with the byte offset or a warning, no crash"
    else
        fail "ipt-flow --elf hostile files:$bad"
    fi
else
    skip "ipt-flow --elf hostile files (python3 not found)"
fi

# ---- --help ----
"$X" --help > "$T/help.txt" 2>&1
missing=""
for o in --pt --raw --elf --cpu --mtc-freq --nom-freq --cpuid-0x15.eax --cpuid-0x15.ebx --insn-decoder \
         --no-inst --check --quiet --stat --stat:insn --event:ip --event:iflags --event:time --event:tick \
         --time --offset --insn:keep-tcal-on-ovf --block:keep-tcal-on-ovf --filter:addrN_cfg --filter:addrN_a \
         --filter:addrN_b --json --strict; do
    grep -q -- "$o\\b" "$T/help.txt" || missing="$missing $o"
done
if [ -z "$missing" ]; then
    pass "ipt-flow: --help names every flow option"
else
    fail "ipt-flow: --help does not name:$missing"
fi
exit $status
