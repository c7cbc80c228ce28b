#!/usr/bin/env python3
"""Cuts of every FDR log through `tracedec dump` and `llvm-xray fdr-dump`.

usage: xray_prefixes.py TRACEDEC OUT_DIR FILE...

A log cut anywhere must print everything before the cut as llvm-xray does:
where llvm-xray exits 0 on a prefix, our stdout equals its stdout; where it
fails, our stdout starts with what it printed and we exit non-zero or say
why on stderr. One PASS/FAIL line per file.

Which prefixes: every one of a file up to SMALL bytes. In a larger file,
a "mark" is where a record other than a function record starts or ends
(buffer extents and ends, metadata records, events and their payloads, the
v1 buffer tail, gaps). Around a mark m the cuts are m + d for each d in
AROUND: the record before it cut short, the mark itself, its first byte,
the 8 and 9 bytes that make a function record or a BufferExtents size, a
metadata record one byte short and whole. All marks of a file are used
when it has at most MARKS of them, else the first MARKS / 2 and MARKS / 2
more drawn by a generator seeded with the file's size; the file's end is
always one. RANDOM lengths from that generator cut the function records
between the marks. (Every prefix within 16 bytes of every record boundary
of every large file would take several minutes: llvm-xray takes 20-50 ms
to start, and the cuts inside a record fall in these few classes.)

One documented exception: a whole log with an expected.fdr-dump.txt beside
it (a v1 buffer tail of odd length, which llvm-xray parses as records and
loses sync on) is compared with that file by xray.sh, not here.

llvm-xray's outputs are kept in OUT_DIR/../xray-prefix-cache by a hash of
the prefix, so the second run (the sanitized CLI) only runs tracedec.
"""
import concurrent.futures
import hashlib
import json
import os
import random
import subprocess
import sys

SMALL = 300
AROUND = (-1, 0, 1, 8, 9, 15, 16)
MARKS = 12
RANDOM = 12


def cut_lengths(tracedec, path, data):
    n = len(data)
    if n <= SMALL:
        return list(range(n + 1))
    out = subprocess.run([tracedec, "dump", "--json", path], capture_output=True).stdout
    marks = set()
    for line in out.decode().splitlines():
        item = json.loads(line)
        kind, start = item["kind"], item["off"]
        if kind == "function":
            continue
        marks.add(start)
        if kind in ("buffer-extents", "custom-event", "typed-event"):
            marks.add(start + 16 + item["size"])  # the end of its buffer or payload
        elif kind == "padding":
            marks.add(start + item["size"])
        elif kind == "gap":
            marks.add(start + item["len"])
    marks = sorted(marks)
    rng = random.Random(n)
    if len(marks) > MARKS:
        marks = marks[:MARKS // 2] + rng.sample(marks[MARKS // 2:], MARKS // 2)
    marks.append(n)
    lens = {m + d for m in marks for d in AROUND if 0 <= m + d <= n}
    lens.update(rng.randrange(n + 1) for _ in range(RANDOM))
    return sorted(lens)


def llvm_xray(cache, tmp, data):
    key = hashlib.sha1(data).hexdigest()
    hit = os.path.join(cache, key)
    if os.path.exists(hit):
        with open(hit, "rb") as f:
            rc = int(f.readline())
            return rc, f.read()
    with open(tmp, "wb") as f:
        f.write(data)
    r = subprocess.run(["llvm-xray", "fdr-dump", tmp], capture_output=True)
    os.remove(tmp)
    with open(hit + ".tmp", "wb") as f:
        f.write(b"%d\n" % r.returncode + r.stdout)
    os.replace(hit + ".tmp", hit)
    return r.returncode, r.stdout


def check(tracedec, cache, tmpdir, data, length):
    part = data[:length]
    tmp = os.path.join(tmpdir, "cut%d.xray" % length)
    ref_rc, ref_out = llvm_xray(cache, tmp + ".ref", part)
    with open(tmp, "wb") as f:
        f.write(part)
    r = subprocess.run([tracedec, "dump", tmp], capture_output=True)
    os.remove(tmp)
    if ref_rc == 0:
        return "equal" if r.stdout == ref_out else "stdout differs from llvm-xray's (exit 0)"
    if not r.stdout.startswith(ref_out):
        return "llvm-xray failed; what it printed is not our prefix"
    if r.returncode == 0 and not r.stderr:
        return "llvm-xray failed; we exit 0 with nothing on stderr"
    return "prefix"


def main():
    tracedec, out_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    cache = os.path.join(os.path.dirname(out_dir.rstrip("/")), "xray-prefix-cache")
    os.makedirs(cache, exist_ok=True)
    status = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for path in files:
            with open(path, "rb") as f:
                data = f.read()
            if len(data) < 4 or data[2:4] != b"\x01\x00":
                continue  # basic-mode logs: fdr-dump does not read them
            lens = cut_lengths(tracedec, path, data)
            if os.path.exists(os.path.join(os.path.dirname(path), "expected.fdr-dump.txt")):
                lens.remove(len(data))
            verdicts = list(pool.map(lambda n: check(tracedec, cache, out_dir, data, n), lens))
            bad = [(n, v) for n, v in zip(lens, verdicts) if v not in ("equal", "prefix")]
            name = os.path.relpath(path)
            if bad:
                status = 1
                shown = "; ".join("%d: %s" % b for b in bad[:3])
                print("FAIL xray prefixes of %s: %d of %d cuts disagree with llvm-xray fdr-dump (%s)"
                      % (name, len(bad), len(lens), shown))
            else:
                print("PASS xray prefixes of %s: %d cuts, %d equal to llvm-xray fdr-dump, %d where it fails"
                      % (name, len(lens), verdicts.count("equal"), verdicts.count("prefix")))
    return status


if __name__ == "__main__":
    sys.exit(main())
