#!/bin/sh
# record.sh DIR 64|32 PROG [ARGS...]: one recording of the Intel PT
# real-execution corpus (tests/data/ipt/exec/README.md). Runs PROG under
# qemu-x86_64 (64) or qemu-i386 (32; a 32-bit sysroot through qemu's
# QEMU_LD_PREFIX) with build/exec/plugin.so, then build/exec/writer makes
# from the log, in DIR:
#   ret.pt, noret.pt   the trace with returns compressed, and without
#   filter.pt          returns compressed, an IP filter tracing only PROG's
#                      own code (its file's mappings)
#   image, image.sections, expected   the code image and the executed IPs
#   expected-filter    the IPs traced in filter.pt
#   command            the mode and the command line
# With CODE_ONLY=1 the image keeps only the bytes of the instructions that
# ran (writer -x). PROG's output goes to DIR/stdout. Exit status 1 when a
# step fails (its messages on stderr).
cd "$(dirname "$0")/../.." || exit 2
dir=$1 mode=$2
shift 2
case $mode in
64) qemu=qemu-x86_64 ;;
32) qemu=qemu-i386 ;;
*) echo "record.sh: mode 64 or 32" >&2; exit 2 ;;
esac
mkdir -p "$dir" || exit 1
printf "%s %s\n" "$mode" "$*" > "$dir/command"
$qemu -plugin build/exec/plugin.so,out="$dir/log" "$@" > "$dir/stdout" || exit 1
x=
[ "${CODE_ONLY:-0}" = 1 ] && x=-x
build/exec/writer -m "$mode" -r $x -t "$dir/ret.pt" -i "$dir/image" -e "$dir/expected" "$dir/log" || exit 1
build/exec/writer -m "$mode" -t "$dir/noret.pt" "$dir/log" 2> /dev/null || exit 1
build/exec/writer -m "$mode" -r -f "$(readlink -f "$1")" -t "$dir/filter.pt" -e "$dir/expected-filter" \
    "$dir/log" || exit 1
rm -f "$dir/log"
