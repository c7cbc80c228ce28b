#!/usr/bin/env python3
"""Checks `tracedec dump --json DIR` (docs/ovni.md) against ovnidump's text
and -x outputs of the same trace: one "stream" object per stream first, in
path order, then one "event" object per line of ovnidump, in the same order,
with the same clock, MCV, stream, payload bytes and description (null where
ovnidump prints UNKNOWN); sizes add up per stream.

    check_ovni_json.py DUMP.json OVNIDUMP.txt OVNIDUMP-X.txt
"""
import json
import sys


def split_line(line):
    # "%10lld  MCV  path  rest": the MCV may hold any byte, so cut by position.
    clock_end = line.index("  ", len(line) - len(line.lstrip(" ")))
    clock = int(line[:clock_end])
    mcv = line[clock_end + 2:clock_end + 5]
    rest = line[clock_end + 7:]
    path, _, tail = rest.partition("  ")
    return clock, mcv, path, tail


def main():
    objs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
    text = open(sys.argv[2], encoding="latin-1").read().splitlines()
    hexl = open(sys.argv[3], encoding="latin-1").read().splitlines()
    streams = [o for o in objs if o["type"] == "stream"]
    events = [o for o in objs if o["type"] == "event"]
    if objs[:len(streams)] != streams:
        sys.exit("stream objects do not all come first")
    paths = [s["stream"] for s in streams]
    if paths != sorted(paths, key=lambda p: p.encode()):
        sys.exit("streams not in path order")
    if len(events) != len(text) or len(events) != len(hexl):
        sys.exit("%d events, ovnidump has %d lines, -x %d" % (len(events), len(text), len(hexl)))
    next_offset = {}
    for i, (e, t, x) in enumerate(zip(events, text, hexl)):
        clock, mcv, path, desc = split_line(t)
        xclock, xmcv, xpath, xbytes = split_line(x)
        want_payload = xbytes.replace(":", "")
        if (e["clock"], e["mcv"], e["stream"]) != (clock, mcv, path) or (xclock, xmcv, xpath) != (clock, mcv, path):
            sys.exit("event %d: %r vs line %r" % (i, e, t))
        if e["payload"] != want_payload:
            sys.exit("event %d: payload %s, ovnidump -x %s" % (i, e["payload"], want_payload))
        want_desc = None if desc == "UNKNOWN" else desc
        if e["desc"] != want_desc:
            sys.exit("event %d: desc %r, ovnidump %r" % (i, e["desc"], want_desc))
        # Events of a stream tile its file after the 8-byte header; an event
        # is its 12-byte header and its payload (jumbo: u32 length + blob).
        start = next_offset.get(path, 8)
        if e["offset"] != start or e["size"] != 12 + len(want_payload) // 2:
            sys.exit("event %d: offset %d size %d, expected offset %d" % (i, e["offset"], e["size"], start))
        next_offset[path] = start + e["size"]
    print("%d streams, %d events" % (len(streams), len(events)))


if __name__ == "__main__":
    main()
