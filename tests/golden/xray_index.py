#!/usr/bin/env python3
"""The XRay loader's two first passes give the same results.

usage: xray_index.py TRACEDEC OUT_DIR FILE...

tools/cli/xray/trace.c indexes a clean FDR v2+ log with a scan by record
sizes and gives up, for the decoder, at anything the decoder would report.
For each FILE (an FDR v2+ log; others are skipped), `convert
--output-format=yaml` sorted and unsorted must print the same stdout,
stderr and exit status with the scan as with the decoder alone
(TRACEDEC_XRAY_INDEX=decoder); for damaged copies of it, sorted (the index
is the same for both orders; the sorted one uses all of it: blocks, runs,
the state each block starts from). The damage, at the second buffer (the first
when there is one): its BufferExtents size 8 and 16 bytes too large or
short, or past the file's end; a function record with action 5; a
metadata record made EndOfBuffer, BufferExtents or kind 12; an event of
size 0, -1 or larger than its buffer; junk before the buffer; the file cut
inside the BufferExtents record, on and off a record boundary inside the
buffer, and at its end. A log is cut to its first 64 KiB of buffers first
(the damage is near its start). One PASS/FAIL line per file.
"""
import os
import struct
import subprocess
import sys

KEEP = 64 * 1024


def buffers(data):
    """(offset, size) of each buffer from the BufferExtents chain."""
    out, pos = [], 32
    while pos + 16 <= len(data) and data[pos] == 0x0F:
        size = struct.unpack_from("<Q", data, pos + 1)[0]
        if pos + 16 + size > len(data):
            break
        out.append((pos, size))
        pos += 16 + size
    return out


def records(data, start, end):
    """(offset, first byte) of each record of a buffer."""
    pos = start
    while pos < end:
        b = data[pos]
        yield pos, b
        if b & 1 == 0:
            pos += 8
            continue
        kind = b >> 1
        size = 0
        if kind in (5, 8):
            size = max(0, struct.unpack_from("<i", data, pos + 1)[0])
        pos += 16 + size


def variants(data):
    bufs = buffers(data)
    if not bufs:
        return [("whole", data)]
    keep = [b for b in bufs if b[0] + 16 + b[1] <= KEEP] or bufs[:1]
    data = data[: keep[-1][0] + 16 + keep[-1][1]]
    pos, size = bufs[1] if len(keep) > 1 else bufs[0]
    out = [("whole", data)]

    def put(name, at, fmt, value):
        d = bytearray(data)
        struct.pack_into(fmt, d, at, value)
        out.append((name, bytes(d)))

    for delta in (-16, -8, 8, 16):
        if size + delta >= 0:
            put("extents%+d" % delta, pos + 1, "<Q", size + delta)
    put("extents-past-end", pos + 1, "<Q", len(data))
    out.append(("junk", data[:pos] + b"\0" * 8 + data[pos:]))
    for cut in (pos + 4, pos + 12, pos + 16 + 3, pos + 16 + 8, pos + 16 + size):
        if cut <= len(data):
            out.append(("cut%d" % cut, data[:cut]))
    seen = set()
    for at, b in records(data, pos + 16, pos + 16 + size):
        if b & 1 == 0 and "action" not in seen:
            seen.add("action")
            put("action5", at, "<B", (b & ~0x0E) | (5 << 1))
        elif b & 1 and "meta" not in seen:
            seen.add("meta")
            for kind in (1, 7, 12):
                put("meta-kind%d" % kind, at, "<B", kind << 1 | 1)
        if b & 1 and b >> 1 in (5, 8) and "event" not in seen:
            seen.add("event")
            for value in (0, -1, size):
                put("event-size%d" % value, at + 1, "<i", value)
    return out


def run(tracedec, path, sort, index):
    env = dict(os.environ)
    if index:
        env["TRACEDEC_XRAY_INDEX"] = index
    args = [tracedec, "convert", "--output-format=yaml", path]
    if not sort:
        args.insert(3, "--sort=false")
    p = subprocess.run(args, capture_output=True, env=env)
    return p.returncode, p.stdout, p.stderr


def main():
    tracedec, out_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    status = 0
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        name = os.path.relpath(path, "tests/data")
        version, file_type = struct.unpack_from("<HH", data, 0) if len(data) >= 4 else (0, 0)
        if file_type != 1 or version < 2:
            continue  # basic logs and FDR v1: the decoder alone reads them
        bad = []
        for vname, vdata in variants(data):
            vpath = os.path.join(out_dir, "index.xray")
            with open(vpath, "wb") as f:
                f.write(vdata)
            for sort in (True, False) if vname == "whole" else (True,):
                if run(tracedec, vpath, sort, None) != run(tracedec, vpath, sort, "decoder"):
                    bad.append("%s%s" % (vname, "" if sort else " unsorted"))
        if bad:
            status = 1
            print("FAIL xray index scan = decoder: %s (%s)" % (name, ", ".join(bad)))
        else:
            print("PASS xray index scan = decoder: %s" % name)
    return status


if __name__ == "__main__":
    sys.exit(main())
