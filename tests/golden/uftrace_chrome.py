#!/usr/bin/env python3
"""Checks `tracedec dump --chrome DIR` against the records of `tracedec dump
--json DIR` (tests/golden/uftrace_chrome.sh).

usage: uftrace_chrome.py NAME CHROME.json DUMP.jsonl [NAME CHROME.json DUMP.jsonl ...]

For each recording prints "PASS uftrace dump --chrome NAME: ..." or "FAIL
...". CHROME.json must be one JSON document: {"traceEvents": [...],
"displayTimeUnit": "ns", "metadata": {...}} with uftrace's version and the
recording's command line. Its events, checked field by field:
  - "M" (metadata) events: ts 0, name process_name or thread_name, pid a
    task of the recording (taskinfo:tids), "tid" only for a thread's name;
  - "B"/"E" events: pid the task's process, "tid" the task when it is a
    thread (absent otherwise), ts in microseconds with 3 decimals;
    "linux:schedule" ones at the time of one of the task's perf sched-out
    ("B") / sched-in ("E") records; every other one, per task and in
    order, an entry ("B") / exit ("E") record of the task with that time
    and name, "args" exactly when the record has values; only the exits
    uftrace adds at the end for functions still open may match none: they
    come last for their task, all at one time, no earlier than its other
    events and no later than its last record.
"""
import decimal
import json
import sys

SCHED_OUT = (200002,)
SCHED_IN = (200001,)


def load_dump(path):
    header, per_tid, perf = None, {}, {}
    with open(path, encoding="ascii") as f:
        for line in f:
            o = json.loads(line)
            if o["kind"] == "header":
                header = o
            elif o["kind"] in ("entry", "exit"):
                per_tid.setdefault(o["tid"], []).append(o)
            elif o["kind"] == "event" and "id" in o:
                perf.setdefault(o["tid"], []).append(o)
    return header, per_tid, perf


def check(chrome_path, dump_path):
    with open(chrome_path, "rb") as f:
        raw = f.read()
    # uftrace's "Usage:" lines (rejected argument specs) come before the JSON
    start = raw.find(b'{"traceEvents":[')
    if start < 0:
        return "no {\"traceEvents\":[ in the output"
    try:
        doc = json.loads(raw[start:].decode("utf-8", "surrogateescape"), parse_float=decimal.Decimal)
    except ValueError as e:
        return "not JSON: %s" % e
    header, records, perf = load_dump(dump_path)
    tids = set(header["tids"])
    if doc.get("displayTimeUnit") != "ns":
        return "displayTimeUnit is not \"ns\""
    meta = doc.get("metadata", {})
    if not str(meta.get("version", "")).startswith("uftrace v0.13"):
        return "metadata.version is not uftrace v0.13's"
    if "CMDLINE" in header.get("info", []) and "command_line" not in meta:
        return "metadata without command_line"
    pos = {tid: 0 for tid in records}
    tails = {}  # tid -> [ts of unmatched exits]
    last_seen = {}
    n = 0
    for ev in doc["traceEvents"]:
        ph, pid = ev.get("ph"), ev.get("pid")
        tid = ev.get("tid", pid)
        if tid not in tids:
            return "event of a task not in the recording: %s" % ev
        if ph == "M":
            if ev.get("ts") != 0 or ev.get("name") not in ("process_name", "thread_name"):
                return "bad metadata event: %s" % ev
            if "tid" in ev and ev["name"] != "thread_name":
                return "a thread's process_name: %s" % ev
            continue
        if ph not in ("B", "E"):
            return "event of phase %r: %s" % (ph, ev)
        ts = ev["ts"]
        if not isinstance(ts, decimal.Decimal) or ts.as_tuple().exponent != -3:
            return "ts without 3 decimals: %s" % ev
        time = int(ts * 1000)
        recs = records.get(tid, [])
        if "tid" in ev and ev["tid"] == pid:
            return "\"tid\" equal to \"pid\" (a thread's events only have it): %s" % ev
        if ev["name"] == "linux:schedule":
            ids = SCHED_OUT if ph == "B" else SCHED_IN
            if not any(p["time"] == time and p["id"] in ids for p in perf.get(tid, [])):
                return "linux:schedule %s of task %d at %d: no such perf record" % (ph, tid, time)
            last_seen[tid] = time
            n += 1
            continue
        kind = "entry" if ph == "B" else "exit"
        i = pos.get(tid, 0)
        while i < len(recs) and not (recs[i]["kind"] == kind and recs[i]["time"] == time and recs[i]["name"] == ev["name"]):
            i += 1
        if i == len(recs):
            if ph != "E":
                return "B event matching no entry record of task %d: %s" % (tid, ev)
            tails.setdefault(tid, []).append(time)
            continue
        if tid in tails:
            return "event after the exits added at the end of task %d: %s" % (tid, ev)
        has_values = "args" in recs[i] or "retval" in recs[i]
        if ("args" in ev) != has_values:
            return "\"args\" %s but the record %s values: %s" % (
                "present" if "args" in ev else "absent", "has" if has_values else "has no", ev)
        pos[tid] = i + 1
        last_seen[tid] = time
        n += 1
    for tid, times in tails.items():
        last = max([r["time"] for r in records.get(tid, [])] + [p["time"] for p in perf.get(tid, [])])
        if len(set(times)) != 1 or times[0] < last_seen.get(tid, 0) or times[0] > last:
            return "task %d: exits matching no record at %s (its last record at %d)" % (tid, sorted(set(times)), last)
        n += len(times)
    return "%d events checked" % n


def main():
    args = sys.argv[1:]
    failed = 0
    for k in range(0, len(args) - 2, 3):
        name, chrome, dump = args[k:k + 3]
        try:
            msg = check(chrome, dump)
        except (OSError, ValueError, KeyError) as e:
            msg = "cannot check: %s" % e
        if msg.endswith("events checked"):
            print("PASS uftrace dump --chrome %s: JSON, events == dump --json records (%s)" % (name, msg))
        else:
            print("FAIL uftrace dump --chrome %s: %s" % (name, msg))
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
