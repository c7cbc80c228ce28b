"""Checks `tracedec dump --chrome DIR` against `tracedec dump --json DIR`.

    python3 ovni_chrome.py DOCS_OVNI_MD CHROME_JSON EVENTS_JSONL

The Chrome file must parse as JSON. From the JSON lines (the streams and the
events in merge order) and the span table of docs/ovni.md ("Chrome trace")
this script rebuilds every Chrome event the mapping documented there asks
for, independently of the C code, and compares them one by one, field by
field. It also checks, per thread, that B/E events nest (an E ends the
innermost open B of the same name and category) and that times never go
backwards. Prints nothing and exits 0 when all holds; otherwise one line
saying what differs, exit 1.
"""
import json
import re
import sys
from decimal import Decimal

MAX_DEPTH = 256  # docs/ovni.md: spans open at once in one thread
MODELS = {"O": "ovni", "6": "nanos6", "V": "nosv", "D": "nodes", "T": "tampi", "M": "mpi", "K": "kernel",
          "P": "openmp"}


def span_table(docs):
    """MCV -> (row, opens) from the docs table; rows are (name, cat)."""
    rows, by_mcv = [], {}
    for line in open(docs, encoding="utf-8"):
        m = re.match(r"^\| `(.{3})` \| `(.{3})` \| (.*?) \| (\w+) \|$", line.rstrip("\n"))
        if not m:
            continue
        rows.append((m.group(3), m.group(4)))
        by_mcv[m.group(1)] = (len(rows) - 1, True)
        by_mcv[m.group(2)] = (len(rows) - 1, False)
    if len(rows) < 100:
        sys.exit("the span table of docs/ovni.md was not found")
    return rows, by_mcv


def expected(rows, by_mcv, lines):
    """The Chrome events the documented mapping gives for these JSON lines."""
    streams, procs, out = {}, [], []
    for ln in lines:
        if ln["type"] != "stream":
            continue
        key = (ln.get("loom", ""), ln.get("pid"))
        if key not in procs:
            procs.append(key)
            name = (key[0] + " " if key[0] else "") + ("pid %d" % key[1] if key[1] is not None else "")
            out.append({"ph": "M", "name": "process_name", "pid": len(procs), "tid": 0, "args": {"name": name}})
        tid = len(streams) + 1
        name = ("tid %d " % ln["tid"] if "tid" in ln else "") + ln["stream"]
        out.append({"ph": "M", "name": "thread_name", "pid": procs.index(key) + 1, "tid": tid,
                    "args": {"name": name}})
        streams[ln["stream"]] = {"pid": procs.index(key) + 1, "tid": tid, "clock": None, "open": [], "dropped": 0}

    def event(ph, name, cat, s, args):
        return {"ph": ph, "name": name, "cat": cat, "ts": Decimal(s["clock"]) / 1000, "pid": s["pid"],
                "tid": s["tid"], "args": args}

    for ln in lines:
        if ln["type"] != "event":
            continue
        s = streams[ln["stream"]]
        s["clock"] = ln["clock"] if s["clock"] is None else max(s["clock"], ln["clock"])
        mcv = ln["mcv"]
        cat = MODELS.get(mcv[0], "unknown")
        args = {"mcv": mcv, "desc": ln["desc"]}
        row, opens = by_mcv.get(mcv, (None, None))
        if row is not None and opens and len(s["open"]) < MAX_DEPTH:
            s["open"].append(row)
            out.append(event("B", rows[row][0], rows[row][1], s, args))
        elif row is not None and not opens and row in s["open"] and s["dropped"] == 0:
            while s["open"][-1] != row:
                inner = s["open"].pop()
                out.append(event("E", rows[inner][0], rows[inner][1], s, {"closed_by": mcv}))
            s["open"].pop()
            out.append(event("E", rows[row][0], rows[row][1], s, args))
        else:
            if row is not None:
                args["unpaired"] = True
                if opens:
                    s["dropped"] += 1
                elif s["dropped"] > 0:
                    s["dropped"] -= 1
            e = event("i", mcv, cat, s, args)
            e["s"] = "t"
            out.append(e)
    for s in streams.values():
        while s["open"]:
            row = s["open"].pop()
            out.append(event("E", rows[row][0], rows[row][1], s, {"end_of_trace": True}))
    return out


def check_nesting(events):
    """Per thread: E closes the innermost B of the same name; ts ascends."""
    open_by_thread, last_ts = {}, {}
    for k, e in enumerate(events):
        if e["ph"] == "M":
            continue
        t = (e["pid"], e["tid"])
        if t in last_ts and e["ts"] < last_ts[t]:
            return "event %d: time goes backwards in thread %s" % (k, t)
        last_ts[t] = e["ts"]
        stack = open_by_thread.setdefault(t, [])
        if e["ph"] == "B":
            stack.append((e["name"], e["cat"]))
        elif e["ph"] == "E":
            if not stack or stack[-1] != (e["name"], e["cat"]):
                return "event %d: E %s does not end the innermost open span %s" % (k, e["name"], stack[-1:])
            stack.pop()
    left = [t for t, s in open_by_thread.items() if s]
    return "spans left open in threads %s" % left if left else None


def main():
    docs, chrome_path, lines_path = sys.argv[1:4]
    with open(chrome_path, encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    got = doc["traceEvents"]
    lines = [json.loads(ln) for ln in open(lines_path, encoding="utf-8") if ln.strip()]
    rows, by_mcv = span_table(docs)
    want = expected(rows, by_mcv, lines)
    if doc.get("displayTimeUnit") != "ns":
        sys.exit("displayTimeUnit is not \"ns\"")
    for k, (g, w) in enumerate(zip(got, want)):
        if g != w:
            keys = sorted(set(g) | set(w))
            diff = ["%s: %r != %r" % (key, g.get(key), w.get(key)) for key in keys if g.get(key) != w.get(key)]
            sys.exit("event %d differs (got != want): %s" % (k, "; ".join(diff)))
    if len(got) != len(want):
        sys.exit("%d Chrome events, %d expected" % (len(got), len(want)))
    problem = check_nesting(got)
    if problem:
        sys.exit(problem)


if __name__ == "__main__":
    main()
