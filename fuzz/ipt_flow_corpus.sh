#!/bin/sh
# Writes fuzz/corpus/ipt_flow/: one input of fuzz/fuzz_ipt_flow.c per ptt
# vector of tests/data/ipt that has a code image (NAME.bin at INDEX.tsv's
# image_org, NAME.pt the trace): the control bytes (seeded random chunks,
# the image_read check and blocks on, walk_limit 256, seed 1, the errata of the
# vector's first errata set, one section, blocks ending on calls, no read
# cap), the section header
# (vaddr u64 LE, size u16 LE), the image, the trace.
#
#   sh fuzz/ipt_flow_corpus.sh     (rewrites the directory)
cd "$(dirname "$0")/.." || exit 2
out=fuzz/corpus/ipt_flow
mkdir -p "$out" || exit 2

# le N BYTES: N as BYTES little-endian bytes
le() {
    n=$1 i=0
    while [ "$i" -lt "$2" ]; do
        printf "\\$(printf '%03o' $((n & 255)))"
        n=$((n >> 8)) i=$((i + 1))
    done
}

errata_mask() {
    m=0
    for e in $(echo "${1%%|*}" | tr ',' ' '); do
        case $e in
        bdm70) m=$((m | 0x1)) ;; bdm64) m=$((m | 0x2)) ;; skd007) m=$((m | 0x4)) ;;
        skd022) m=$((m | 0x8)) ;; skd010) m=$((m | 0x10)) ;; skl014) m=$((m | 0x20)) ;;
        apl12) m=$((m | 0x40)) ;; apl11) m=$((m | 0x80)) ;; skl168) m=$((m | 0x100)) ;;
        skz84) m=$((m | 0x200)) ;;
        esac
    done
    echo $m
}

n=0
tail -n +2 tests/data/ipt/INDEX.tsv | while IFS='	' read -r name _ _ org _ errata _; do
    dir=tests/data/ipt/$name
    [ -f "$dir/$name.bin" ] && [ -f "$dir/$name.pt" ] || continue
    size=$(wc -c <"$dir/$name.bin")
    [ "$size" -le 65535 ] || continue
    {
        le 0x63 1                       # random chunks, image_read check, blocks
        le 255 1                        # walk_limit 256
        le 1 4                          # seed
        le "$(errata_mask "$errata")" 2
        le 4 1                          # one section, blocks end on calls, no read cap
        le "$((org))" 8
        le "$size" 2
        cat "$dir/$name.bin" "$dir/$name.pt"
    } >"$out/$name"
    n=$((n + 1))
done
