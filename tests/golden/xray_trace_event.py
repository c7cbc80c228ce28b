#!/usr/bin/env python3
"""Checks `tracedec convert --output-format=trace_event` (no symbols) of an
XRay log against that log's records as `tracedec dump --json` gives them.

usage: xray_trace_event.py TRACE.json RECORDS.jsonl

- the JSON parses: traceEvents (a list), displayTimeUnit "ns", stackFrames;
- every event has exactly name, ph (B or E), tid, pid, ts, sf, all strings;
  sf names a stack frame whose name is the event's;
- per thread the events nest: an E closes the innermost open B (same name
  and frame), a B's frame has the innermost open frame as parent;
- every B is one enter record: the multiset of (tid, pid, function id, ts)
  of the B events equals that of the enter records (ts = TSC * 1e6 /
  cycle frequency, "%.4f"; versions 1-2: "%.3f" and pid "1");
- every E falls on an exit record of its thread (same ts);
- ts never decreases (the default --sort).
Prints a summary ("N B, M E events") and exits 0, or prints what is wrong."""
import collections
import json
import sys


def main():
    with open(sys.argv[1], "rb") as f:
        doc = json.loads(f.read())
    records = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8") if line.strip()]
    header = next(r for r in records if r["kind"] == "header")
    freq, version = header["cycle_frequency"], header["version"]
    assert set(doc) == {"traceEvents", "displayTimeUnit", "stackFrames"}, sorted(doc)
    assert doc["displayTimeUnit"] == "ns"
    frames, events = doc["stackFrames"], doc["traceEvents"]

    def ts(tsc):
        if freq == 0:  # a double divided by zero: llvm::write_double's INF (nan for tsc 0)
            return "INF" if tsc else "nan"
        return ("%.4f" if version >= 3 else "%.3f") % (1000000.0 / freq * tsc)

    def fid(r):  # dump --json gives basic logs' int32 ids unsigned
        return str(r["fid"] - (1 << 32) if r["fid"] >= 1 << 31 else r["fid"])

    enters, exits = collections.Counter(), set()
    exit_count = 0
    for r in records:
        if r["kind"] != "function" or r.get("tsc") is None:
            continue
        pid = str(r["pid"]) if version >= 3 else "1"
        if r["action"] in ("enter", "enter-args"):
            enters[(str(r["tid"]), pid, fid(r), ts(r["tsc"]))] += 1
        elif r["action"] in ("exit", "tail-exit"):
            exits.add((str(r["tid"]), ts(r["tsc"])))
            exit_count += 1

    open_frames = collections.defaultdict(list)
    begins, ends, last = collections.Counter(), 0, None
    for e in events:
        assert set(e) == {"name", "ph", "tid", "pid", "ts", "sf"}, e
        assert all(isinstance(v, str) for v in e.values()), e
        frame = frames[e["sf"]]
        assert frame["name"] == e["name"], (e, frame)
        stack = open_frames[e["tid"]]
        t = float(e["ts"])
        assert last is None or t >= last, ("ts goes back", e)
        last = t
        if e["ph"] == "B":
            assert frame.get("parent") == (stack[-1][1] if stack else None), (e, frame, stack[-1:])
            stack.append((e["name"], e["sf"]))
            begins[(e["tid"], e["pid"], e["name"], e["ts"])] += 1
        else:
            assert e["ph"] == "E", e
            assert stack and stack[-1] == (e["name"], e["sf"]), (e, stack[-1:])
            stack.pop()
            assert (e["tid"], e["ts"]) in exits, ("E without an exit record", e)
            ends += 1
    assert begins == enters, ("B events != enter records", begins - enters, enters - begins)
    print("%d B, %d E events (%d enter, %d exit records)" % (sum(begins.values()), ends,
                                                              sum(enters.values()), exit_count))
    return 0


sys.exit(main())
