#!/bin/sh
# Differential test of the x86 length and class decoder of single/tdec_ipt.h
# (tdec_ipt_insn_decode, libipt's pt_ild rules) against Zydis (Debian's
# libzydis-dev): runs build/diff/ipt_ild, built by make. Seeded random byte
# strings in 16-, 32- and 64-bit mode, and a linear sweep over the code of
# the ELF files under /usr/bin, /usr/lib and /usr/lib32; see
# tests/diff/ipt_ild.c for what is compared and the differences it counts.
# One line per check, "PASS name", "FAIL name" or "SKIP name (why)", and
# "# ipt-ild diff:" summary lines.
#
#   sh tests/diff/ipt_ild.sh [diff_ipt_ild options]     e.g. -s 7 -n 5000000
# Environment: IPT_ILD_DIFF_ARGS (options when none are given; default:
# 300000 random strings per mode and 1.5 M instructions of binaries per
# mode, ~2 s). A long run: IPT_ILD_DIFF_ARGS='-n 10000000 -b 0' (every
# instruction of every binary, minutes).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
if ! [ -f /usr/include/Zydis/Zydis.h ]; then
    skip "ipt-ild diff: tdec_ipt_insn_decode == Zydis lengths and classes (no /usr/include/Zydis/Zydis.h: apt-get install libzydis-dev)"
    exit 0
fi
need build/diff/ipt_ild "ipt-ild diff" || exit 1
[ $# -gt 0 ] || set -- ${IPT_ILD_DIFF_ARGS:--n 300000 -b 1500000}
build/diff/ipt_ild "$@" || status=1
exit $status
