#!/bin/sh
# The XRay loader indexes a clean FDR v2+ log with a scan by record sizes
# and falls back to the decoder at anything the decoder would report: both
# ways give the same convert output on every FDR v2+ log (the samples and
# the peer corpus) and on damaged copies (tests/golden/xray_index.py).
cd "$(dirname "$0")/../.." || exit 2
. tests/run-lib.sh
out_dir golden-xray-index
if ! have python3; then
    skip "xray index scan = decoder (needs python3)"
    exit 0
fi
python3 tests/golden/xray_index.py "$X" "$T" tests/data/xray/*/*.xray \
    $(find tests/data/peers/xray -name '*.xray' 2>/dev/null | sort) || status=1
exit $status
