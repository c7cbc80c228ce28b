#!/bin/sh
# CLI tests of the xtrace front end on a capture written by
# tests/gen/xtrace_gen.c (through tests/gen/xtrace_encoder.h, which follows the spec
# independently of the decoder). No producer of real xtrace files exists.
#  - info on either file of the pair == the counts the generator kept;
#  - dump: instruction lines (index, EL, PC or ?, word), tokens attached to
#    the right instruction, snapshot registers, VL detected;
#  - --json: one object per record, valid JSON (python3, if present);
#  - options: --vl (wrong: error), --format on a renamed file, unknown tokens
#    (error with offset and token; --token-size passes them), truncation.
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir cli-xtrace

pass() { echo "PASS xtrace cli $*"; }
fail() { echo "FAIL xtrace cli $*"; }
# check NAME: PASS when the last command's status is 0.
check() { if [ $? -eq 0 ]; then pass "$1"; else fail "$1"; fi; }

build/gen/xtrace_gen $T > $T/expect.info
check "generator (build/gen/xtrace_gen) writes the capture" || exit 0
INSN=$T/xtrace.1700000000.4242.hint9.xinsndata.bin
SNAP=$T/xtrace.1700000000.4242.hint9.xsnapshot.bin

$X info $INSN > $T/info.out 2>&1
cmp -s $T/info.out $T/expect.info
check "info on the stream == the generator's counts (stream, then its snapshot partner)"
$X info $SNAP > $T/info2.out 2>&1
{ sed -n '7,$p' $T/expect.info; sed -n '1,6p' $T/expect.info; } > $T/expect2.info
cmp -s $T/info2.out $T/expect2.info
check "info on the snapshot file == the same counts (partner found by name)"

$X dump $INSN > $T/dump.out 2> $T/dump.err
[ $? -eq 0 ] && [ ! -s $T/dump.err ]
check "dump exits 0, stderr empty"
head -n 1 $T/dump.out | grep -qx '#0 EL0 pc=? insn=d503201f'
check "the instruction before any PCINST has an unknown PC"
grep -qx '#1 EL1 pc=0x400000 insn=91000000 (PCINST)' $T/dump.out &&
    grep -qx '#2 EL0 pc=0x400004 insn=8b000001' $T/dump.out &&
    grep -qx '#6 EL0 pc=0x400500 insn=91000005 (PCINST)' $T/dump.out
check "PCINST sets the PC and EL, INST adds 4"
[ "$(grep -c '^#' $T/dump.out)" = 1001 ]
check "one line per instruction (1001)"
# Instruction #4 (i = 3): an 8-byte load of a0..a7 at 0x10018 (a
# little-endian number), then TIME 3.
awk '/^#4 / { on = 1; next } /^#/ { on = 0 } on' $T/dump.out > $T/insn4.txt
printf '    LOAD  addr=0x10018 size=8 value=0xa7a6a5a4a3a2a1a0\n    TIME 3\n' | cmp -s - $T/insn4.txt
check "tokens are listed under the instruction they belong to"
grep -qx '    STORE addr=0x20000 size=16 data=a0a1a2a3a4a5a6a7a8a9aaabacadaeaf' $T/dump.out
check "a 16-byte store prints its data"
grep -qx '      X28=000000000000101c X29=000000000000101d X30=000000000000101e X31=000000000000101f' $T/dump.out &&
    [ "$(grep -c '^    ALLGPR$' $T/dump.out)" = 5 ]
check "ALLGPR prints X0..X31"

$X dump $SNAP > $T/snap.out 2> $T/snap.err
[ $? -eq 0 ] && grep -qx 'snapshot #2 file_no=1 index=2 user_insns=2000000 total_insns=2200000' $T/snap.out &&
    [ "$(grep -c '^      VL=512$' $T/snap.out)" = 3 ] && [ "$(grep -c '^      Z31=' $T/snap.out)" = 3 ]
check "snapshots: VL 512 detected, counters and registers printed"
$X dump --vl=512 --snap-header=yes $SNAP | cmp -s - $T/snap.out
check "--vl=512 --snap-header=yes gives the same output"
$X dump --vl=384 $SNAP > /dev/null 2> $T/vl.err
[ $? -eq 1 ] && grep -q 'no whole number of snapshots' $T/vl.err
check "--vl=384 (a wrong layout) is an error"

cp $INSN $T/renamed.bin
$X dump --format=xtrace $T/renamed.bin | cmp -s - $T/dump.out
check "--format=xtrace reads a file whatever its name"

$X dump --json $INSN > $T/dump.json
[ "$(wc -l < $T/dump.json)" -gt 2164 ]
check "--json writes one object per record"
if command -v python3 > /dev/null 2>&1; then
    python3 -c 'import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
insn = [o for o in objs if o["type"] in ("INST", "PCINST")]
assert len(insn) == 1001 and insn[0]["pc"] is None and insn[1]["pc"] == "0x400000"
assert all(o["index"] == i for i, o in enumerate(insn))
store = [o for o in objs if o["type"] == "STORE"][0]
assert store["data"] == "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf" and store["data_len"] == 16
' $T/dump.json
    check "--json is valid JSON with indexes, PCs and data"
else
    echo "SKIP xtrace cli --json validation (python3 not found)"
fi

# A token of unknown size (class 5) after one instruction: an error with
# its offset and byte; with --token-size it passes through.
printf '\001\037\040\003\325\005\252\273' > $T/xtrace.1.2.hint9.xinsndata.bin
$X dump $T/xtrace.1.2.hint9.xinsndata.bin > $T/unk.out 2> $T/unk.err
[ $? -eq 1 ] && grep -q 'offset 5: .*token 0x05' $T/unk.err && grep -qx '#0 EL0 pc=? insn=d503201f' $T/unk.out
check "unknown token: exit 1, offset and token byte on stderr, earlier records printed"
$X dump --token-size=0x05:2 $T/xtrace.1.2.hint9.xinsndata.bin > $T/unk2.out 2>&1
[ $? -eq 0 ] && grep -qx '    UNKNOWN token=0x5 len=2 data=aabb' $T/unk2.out
check "--token-size passes the unknown token through with its data"

head -c 100 $INSN > $T/xtrace.1.3.hint9.xinsndata.bin
$X dump $T/xtrace.1.3.hint9.xinsndata.bin > /dev/null 2> $T/cut.err
[ $? -eq 1 ] && grep -q 'offset [0-9]*: .*truncated input' $T/cut.err
check "a cut stream: exit 1 with the offset of the cut token"
exit 0
