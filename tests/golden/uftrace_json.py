#!/usr/bin/env python3
"""Checks `tracedec dump --json DIR` output against uftrace's own dump text.

usage: check_uftrace_json.py OUT.json REF/dump.txt SAMPLE

OUT.json must be JSON lines (ASCII: bytes >= 0x80 are \\u00XX escapes), a
header object first; its entry/exit/lost/event objects must be the
[entry]/[exit ]/[lost ]/[event] lines of dump.txt: same kind, tid, time (ns)
and name, in the same order. For the `args` sample, argument and return
values must be those dump.txt shows. Prints the record count; exits non-zero
with a message on the first difference. (tests/golden/uftrace.sh)
"""
import json
import re
import sys


def main():
    jpath, tpath, name = sys.argv[1:4]
    objs = []
    with open(jpath, encoding="ascii") as f:
        for i, line in enumerate(f, 1):
            try:
                objs.append(json.loads(line))
            except ValueError as e:
                sys.exit("line %d is not JSON: %s" % (i, e))
    if not objs or objs[0].get("kind") != "header" or objs[0].get("format") != "uftrace":
        sys.exit("no header object first")
    for o in objs:
        for k in ("file", "off", "kind"):
            if k not in o:
                sys.exit("object without %r: %s" % (k, o))

    line_re = re.compile(r"^(\d+)\.(\d{9})\s+(-?\d+): \[(entry|exit |lost |event)\] (.*)\(([0-9a-f]+)\)( depth: \d+)?$")
    want = []
    with open(tpath, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if m:
                t = int(m.group(1)) * 1000000000 + int(m.group(2))
                want.append((m.group(4).strip(), m.group(5), t, int(m.group(3))))
    got = [o for o in objs if o["kind"] in ("entry", "exit", "lost", "event")]
    if len(got) != len(want):
        sys.exit("%d records, dump.txt has %d" % (len(got), len(want)))
    for i, (o, (kind, nm, t, tid)) in enumerate(zip(got, want)):
        jn = o.get("name")
        if kind in ("entry", "exit") and jn is None:
            jn = "<%x>" % o["addr"]
        if jn is not None:
            # our escapes are Latin-1 code points = the bytes; dump.txt is raw bytes
            jn = jn.encode("latin-1").decode("utf-8", errors="surrogateescape")
        if o["kind"] != kind or o["time"] != t or o["tid"] != tid or (kind != "lost" and jn != nm):
            sys.exit("record %d: %s; dump.txt: %s %s %d %d" % (i, json.dumps(o), kind, nm, t, tid))

    if name == "args":
        by = {}
        for o in got:
            by.setdefault((o["kind"], o.get("name")), []).append(o)

        def vals(kind, fn, k=0):
            o = by[(kind, fn)][k]
            if kind == "entry":
                return [(v["type"], v["value"]) for v in o["args"]]
            return (o["retval"]["type"], o["retval"]["value"])

        checks = [
            (vals("entry", "mixed"), [("str", "xyz"), ("i32", 7), ("f64", 0.125), ("i64", -42)]),
            (vals("entry", "add_int"), [("i32", 3), ("i32", -7)]),
            (vals("exit", "add_int"), ("i32", -4)),
            (vals("entry", "neg_long"), [("d64", 0x11f71fb04cb)]),
            (vals("exit", "neg_long"), ("d64", -0x11f71fb04cb)),
            (vals("entry", "hexval"), [("x32", 0x1234)]),
            (vals("exit", "hexval"), ("x32", 0xdeadacdb)),
            (vals("entry", "next_char"), [("c8", 0x41)]),
            (vals("entry", "greet"), [("str", "uftrace"), ("d64", 2)]),
            (vals("exit", "greet"), ("str", "hi uftrace x2")),
            (vals("entry", "str_len"), [("str", "tab\there\nnewline")]),
            (vals("entry", "str_len", 1), [("str", "NULL")]),
            (vals("exit", "str_len", 2), ("u64", 0x76)),
            (vals("entry", "scale"), [("f64", 1.5), ("f64", -2.25)]),
            (vals("entry", "halve"), [("f32", 5.0)]),
            (vals("exit", "halve"), ("f32", 2.5)),
            (vals("entry", "small"), [("i16", -300), ("i8", -5)]),
            (vals("exit", "small"), ("u8", 0xcf)),
            (vals("exit", "self_ptr"), ("p", 0x5586798c63f9)),
        ]
        for g, w in checks:
            if g != w:
                sys.exit("value %r, dump.txt shows %r" % (g, w))
        if by[("exit", "mixed")][0]["retval"]["bits"] != "0x3ff8007a79780003":
            sys.exit("mixed retval bits differ from dump.txt")
        if by[("exit", "self_ptr")][0]["retval"].get("symbol") != "main":
            sys.exit("self_ptr retval: no symbol main")
        if "args" in by[("entry", "ldmul")][0] or "args" in by[("entry", "noargs")][0]:
            sys.exit("args where dump.txt shows no argument block")
    print("%d records" % len(got))


main()
