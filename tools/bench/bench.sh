#!/bin/sh
# Benchmarks (`make bench`): numbers, not pass/fail.
#
#   1. build/bench/xray (tools/bench/xray.c): builds a ~100 MB FDR v5 log
#      from the real sample blocks (build/bench/out/big.xray) and times the
#      library on it (one chunk and 64 KiB chunks) beside a plain memory scan.
#   2. The CLI against the reference tool on that file: checks that
#      `build/tracedec dump` and `llvm-xray fdr-dump` print the same bytes,
#      then times both (hyperfine if installed, else best of N with date)
#      and measures the CLI's peak RSS (GNU time, package `time`).
#   2b. The XRay commands (tools/bench/xray_cmds.sh): extract, and the
#      commands that take --instr_map, against llvm-xray on a log built from
#      one program's blocks (its map names the ids): identical output, time,
#      CPU time and peak RSS per pair.
#   3. uftrace (tools/bench/uftrace.sh): records a hot loop with uftrace
#      (>= MB megabytes of <tid>.dat), times the library on it
#      (tools/bench/uftrace.c) and `tracedec dump`/`replay` against
#      `uftrace dump`/`replay` after checking they print the same bytes.
#   4. ovni (tools/bench/ovni.sh): a multi-stream trace of >= 200 MB made of
#      real sample events repeated with rising clocks; the library on it
#      (tools/bench/ovni.c) beside a memory scan, then `tracedec dump`,
#      `dump --hex` and `top` in MB/s (and ovni's tools, if OVNIDUMP and
#      OVNITOP point to a local build of them).
#   5. xtrace (tools/bench/xtrace.sh): an instruction stream of >= 200 MB
#      generated with tests/gen/xtrace_encoder.h (no public sample exists; a
#      realistic token mix); the library on it (tools/bench/xtrace.c) beside
#      a memory scan, then `tracedec info`, `dump`, `dump --json` in MB/s.
#   6. Intel PT (tools/bench/ipt.sh): the anchor report's synthetic packet
#      stream of >= 256 MiB written with libipt's encoder; tdec_ipt beside
#      libipt's own packet decoder (Debian's 2.0.5) and a memory scan in one
#      process, then `tracedec dump` on it in MB/s (skipped without
#      libipt-dev).
#   7. The x86 length decoder (tools/bench/ipt_ild.c): instructions/s of
#      tdec_ipt_insn_decode and of Zydis's decoder (minimal and default
#      mode) walking the code of the host's ELF files, 64 MiB per mode
#      (skipped without libzydis-dev).
#
#   make bench                        builds the programs, then runs this
#   sh tools/bench/bench.sh [MB]      default 100
# Environment: RUNS (library runs, default 7).
cd "$(dirname "$0")/../.." || exit 2
O=build/bench/out
mkdir -p "$O"
MB=${1:-100}
RUNS=${RUNS:-7}
BIG=$O/big.xray

. tools/bench/lib.sh
need build/bench/xray "bench xray" && need build/tracedec "bench xray" || exit 1

echo "== library: build/bench/xray"
build/bench/xray -o "$BIG" -m "$MB" -n "$RUNS" || exit 1
size=$(wc -c < "$BIG")

echo
echo "== CLI: build/tracedec dump vs llvm-xray fdr-dump on $BIG ($size bytes)"
XRAY=""
for x in /usr/lib/llvm-14/bin/llvm-xray llvm-xray llvm-xray-14; do
    if [ -x "$x" ] || have "$x"; then XRAY=$x; break; fi
done

# Identical output first: both streams into cmp through FIFOs (the text is
# several hundred MB; nothing is stored).
same=unknown
if [ -n "$XRAY" ]; then
    same=$(same_output xray "build/tracedec dump $BIG" "$XRAY fdr-dump $BIG")
    echo "output identical to llvm-xray fdr-dump: $same"
else
    echo "llvm-xray not found (apt-get install llvm-14): timing tracedec alone"
fi

TD="build/tracedec dump $BIG"
LX="$XRAY fdr-dump $BIG"
timing_note
CLI_RUNS=10
td=$(timing tracedec "$TD") || td=""
lx=""
CLI_RUNS=3
[ -n "$XRAY" ] && { lx=$(timing llvm-xray "$LX") || lx=""; }
rate_header
[ -n "$td" ] && rate_row "tracedec dump" "$td" "$size"
[ -n "$lx" ] && rate_row "llvm-xray fdr-dump" "$lx" "$size"
if [ -n "$td" ] && [ -n "$lx" ]; then
    echo "$td $lx" | awk '{ printf "tracedec dump is %.1fx faster than llvm-xray fdr-dump (means; %.1fx on best runs)\n", $3 / $1, $4 / $2 }'
fi

echo "tracedec dump peak RSS: $(peak_rss "$TD") KiB"
[ -n "$XRAY" ] && echo "llvm-xray fdr-dump peak RSS: $(peak_rss "$LX") KiB"

echo
# 2b. The XRay commands against llvm-xray.
sh tools/bench/xray_cmds.sh "$MB" || xcstatus=1

echo
# 3. uftrace: a live recording of >= MB megabytes, library and CLI.
ustatus=0
sh tools/bench/uftrace.sh "$MB" || ustatus=1

echo
# 4. ovni: a trace of real sample events, library and CLI.
ostatus=0
sh tools/bench/ovni.sh "$(awk -v m="$MB" 'BEGIN { print (m < 200 ? 200 : m) }')" || ostatus=1

echo
# 5. xtrace: a generated instruction stream, library and CLI.
xstatus=0
sh tools/bench/xtrace.sh "$(awk -v m="$MB" 'BEGIN { print (m < 200 ? 200 : m) }')" || xstatus=1

echo
# 6. Intel PT: a generated packet stream, library against libipt, and CLI.
istatus=0
sh tools/bench/ipt.sh "$(awk -v m="$MB" 'BEGIN { print (m < 256 ? 256 : m) }')" || istatus=1

echo
# 7. The x86 length decoder against Zydis on the host's machine code.
echo "== x86 length decoder: build/bench/ipt_ild (tdec_ipt_insn_decode vs Zydis)"
if [ -x build/bench/ipt_ild ]; then
    build/bench/ipt_ild -n "$RUNS" || istatus=1
else
    echo "SKIP bench ipt_ild (no /usr/include/Zydis/Zydis.h: apt-get install libzydis-dev)"
fi
[ "$same" = no ] && { echo "tracedec dump and llvm-xray fdr-dump outputs DIFFER"; exit 1; }
[ $ostatus = 0 ] && [ $xstatus = 0 ] && [ $istatus = 0 ] && [ "${xcstatus:-0}" = 0 ] || exit 1
exit $ustatus
