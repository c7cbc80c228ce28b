#!/bin/sh
# Every cut of every FDR log (the samples and the peer corpus) agrees with
# llvm-xray fdr-dump on the same prefix: tests/golden/xray_prefixes.py says
# which cuts and what "agrees" means. Needs llvm-xray (CI installs llvm-14).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-xray-prefixes
if ! have llvm-xray || ! have python3; then
    skip "xray prefixes against llvm-xray fdr-dump (needs llvm-xray and python3)"
    exit 0
fi
python3 tests/golden/xray_prefixes.py "$X" "$T" tests/data/xray/*/*.xray \
    $(find tests/data/peers/xray -name '*.xray' 2>/dev/null | sort)
