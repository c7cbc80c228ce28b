#!/bin/sh
# The device tests (README.md, "On a microcontroller"): every program under
# tests/device/ built for the Cortex-M0 board (microbit) and the Cortex-M4
# board (mps2-an386) at -Os and -O2, run under qemu-system-arm with
# semihosting, its lines compared with the same program's on the host; the
# limits a firmware engineer relies on; README's size and stack table up to
# date. One line per check: "PASS name", "FAIL name" or "SKIP name (why)".
#
#   sh tests/device/device.sh            (make device-check, make check)
#   sh tests/device/device.sh --table    (make device-table) the same, then
#                                        rewrites README's table
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
D=build/device
R=$D/run
MAKE=${MAKE:-make -j$(nproc 2>/dev/null || echo 2)}
FRAME_MAX=512   # bytes: one function's frame
STACK_MAX=1536  # bytes: a whole decode

if ! have arm-none-eabi-gcc || ! have qemu-system-arm || ! have python3; then
    skip "device programs on Cortex-M0/M4 (arm-none-eabi-gcc, qemu-system-arm or python3 not found: apt-get install gcc-arm-none-eabi qemu-system-arm)"
    exit 0
fi
rm -rf "$R"
mkdir -p "$R"
# make -k: what builds is run; what does not is a FAIL with its log.
$MAKE -k device-images > "$R/build.log" 2>&1 || fail "device programs: build (make device-images)" "$R/build.log"

board() { [ "$1" = m0 ] && echo microbit || echo mps2-an386; }

# The programs on the boards, against the host.
for h in xray uftrace ovni xtrace ipt tracedec; do
    "$D/host/$h" > "$R/$h.host" 2> "$R/$h.host.err" || fail "device: $h on the host" "$R/$h.host.err"
    for c in m0 m4; do
        [ "$h" = tracedec ] && [ "$c" = m0 ] && continue
        for o in Os O2; do
            n=$h-$c-$o
            name="device: $h on $(board $c) (-$o)"
            [ -f "$D/$n.elf" ] || { fail "$name: $D/$n.elf not built"; continue; }
            timeout 120 qemu-system-arm -M "$(board $c)" -nographic -semihosting -kernel "$D/$n.elf" \
                < /dev/null > "$R/$n.qemu" 2> "$R/$n.out"
            rc=$?
            grep -v '^#' "$R/$n.out" > "$R/$n.lines"
            stack=$(sed -n 's/^# stack \([0-9a-f]*\)$/\1/p' "$R/$n.out" | tail -n 1)
            if [ $rc -ne 0 ]; then
                fail "$name: exit status $rc" "$R/$n.out"
            elif ! cmp -s "$R/$n.lines" "$R/$h.host"; then
                diff "$R/$h.host" "$R/$n.lines" > "$R/$n.diff"
                fail "$name: differs from the host ($R/$n.diff)" "$R/$n.diff"
            elif [ -z "$stack" ] || [ $((0x$stack)) -gt $STACK_MAX ]; then
                fail "$name: decode stack ${stack:+$((0x$stack)) B, }over $STACK_MAX B or not measured" "$R/$n.out"
            else
                pass "$name: $(grep -c '^T ' "$R/$n.lines") traces, $(grep -c '^I ' "$R/$n.lines") items as on the host, decode stack $((0x$stack)) B"
            fi
        done
    done
done

# Limits: frames and call-graph depth of every implementation object; no
# 64-bit division or floating-point helper in an image; no libc symbol but
# memcpy/memset referenced by the library.
python3 tests/device/table.py "$D" --frames > "$R/frames.txt" 2>&1 || fail "device: call graphs" "$R/frames.txt"
awk -v max=$FRAME_MAX '$1 == "FRAME" && $2 > max' "$R/frames.txt" > "$R/frames.over"
if [ -s "$R/frames.over" ]; then
    fail "device: a function's frame over $FRAME_MAX B" "$R/frames.over"
else
    pass "device: no frame over $FRAME_MAX B ($(awk '$1 == "FRAME"' "$R/frames.txt" | sort -k2n | tail -1 | cut -d' ' -f2-))"
fi
awk -v max=$STACK_MAX '$1 == "DEPTH" && $2 > max' "$R/frames.txt" > "$R/depth.over"
if [ -s "$R/depth.over" ]; then
    fail "device: a call chain deeper than $STACK_MAX B (call graph)" "$R/depth.over"
else
    pass "device: no call chain deeper than $STACK_MAX B ($(awk '$1 == "DEPTH"' "$R/frames.txt" | sort -k2n | tail -1 | cut -d' ' -f2-))"
fi
# What libgcc defines (the Cortex-M0's, a superset of what the M4 calls).
arm-none-eabi-nm --defined-only "$(arm-none-eabi-gcc -mthumb -mcpu=cortex-m0 -print-libgcc-file-name)" 2> /dev/null |
    awk 'NF == 3 { print $3 }' | sort -u > "$R/libgcc.txt"
: > "$R/helpers.txt"
: > "$R/libc.txt"
for elf in "$D"/*.elf; do
    arm-none-eabi-nm "$elf" | awk '{ print $NF }' |
        grep -E -x '__aeabi_uldivmod|__aeabi_ldivmod|__aeabi_d[a-z0-9]*|__aeabi_f[a-z0-9]*' >> "$R/helpers.txt"
    arm-none-eabi-nm -u "$D/lib/$(basename "$elf" .elf).o" | awk '{ print $NF }' | grep -v -x -e memcpy -e memset |
        grep -v -x -F -f "$R/libgcc.txt" >> "$R/libc.txt"
done
if [ -s "$R/helpers.txt" ]; then
    fail "device: 64-bit division or floating-point helpers linked" "$R/helpers.txt"
else
    pass "device: no 64-bit division or floating-point helper in $(ls "$D"/*.elf | wc -l) images"
fi
if [ -s "$R/libc.txt" ]; then
    fail "device: the library references libc symbols besides memcpy/memset" "$R/libc.txt"
else
    pass "device: the library references no libc symbol besides memcpy/memset (and libgcc's helpers)"
fi

# README's table, between its markers.
python3 tests/device/table.py "$D" > "$R/table.md" 2> "$R/table.err" || fail "device: table" "$R/table.err"
begin='<!-- device table: make device-table -->'
end='<!-- device table end -->'
if [ "${1:-}" = --table ]; then
    awk -v b="$begin" -v e="$end" -v t="$R/table.md" '
        $0 == e { skip = 0 }
        !skip { print }
        $0 == b { while ((getline l < t) > 0) print l; skip = 1 }' README.md > "$R/README.md"
    cp "$R/README.md" README.md
fi
awk -v b="$begin" -v e="$end" '$0 == e { on = 0 } on { print } $0 == b { on = 1 }' README.md > "$R/table.readme"
if cmp -s "$R/table.md" "$R/table.readme"; then
    pass "device: README's size and stack table is up to date"
else
    diff "$R/table.readme" "$R/table.md" > "$R/table.diff"
    fail "device: README's size and stack table is out of date (make device-table)" "$R/table.diff"
fi
exit $status
