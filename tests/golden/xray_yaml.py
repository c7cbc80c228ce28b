#!/usr/bin/env python3
"""Compares `tracedec dump --json` of a basic-mode XRay log with
`llvm-xray convert --output-format=yaml --sort=false` of the same log.

usage: xray_yaml.py OURS.json REF.yaml

llvm-xray has no text dump of basic logs, so this compares what both say:
the header, then every function record in file order with its type, id,
cpu, thread, process, kind, tsc and the arguments of the argument records
that follow it. Exit 0 when equal, else 1 with the first difference.
"""
import json
import re
import sys

KINDS = {"enter": "function-enter", "exit": "function-exit", "tail-exit": "function-tail-exit",
         "enter-args": "function-enter-arg"}
FIELD = re.compile(r"([a-z-]+): (\[ [^\]]* \]|'[^']*'|[^,}]+)")


def ours(path):
    header, records = None, []
    for line in open(path, encoding="utf-8"):
        item = json.loads(line)
        if item["kind"] == "header":
            header = (item["version"], item["constant_tsc"], item["nonstop_tsc"], item["cycle_frequency"])
        elif item["kind"] == "function":
            records.append([item["fid"], item["cpu"], item["tid"], item["pid"], KINDS[item["action"]],
                            item["tsc"], []])
        elif item["kind"] == "call-arg":
            records[-1][6].append(item["arg"])
        else:
            raise SystemExit("unexpected record in a basic log: %s" % line)
    return header, [tuple(r[:6]) + (tuple(r[6]),) for r in records]


def reference(path):
    text = open(path, encoding="utf-8").read()
    head = dict(re.findall(r"^  ([a-z-]+): +(\S+)$", text, re.M))
    header = (int(head["version"]), head["constant-tsc"] == "true", head["nonstop-tsc"] == "true",
              int(head["cycle-frequency"]))
    records = []
    for line in re.findall(r"^  - \{ (.*) \}$", text, re.M):
        f = dict(FIELD.findall(line))
        args = tuple(int(a) for a in f.get("args", "[ ]")[1:-1].split(",") if a.strip())
        records.append((int(f["func-id"]), int(f["cpu"]), int(f["thread"]), int(f.get("process", 0)), f["kind"],
                        int(f["tsc"]), args))
    return header, records


def main():
    (oh, orec), (rh, rrec) = ours(sys.argv[1]), reference(sys.argv[2])
    if oh != rh:
        print("header differs: ours %s, llvm-xray %s" % (oh, rh))
        return 1
    for i, (a, b) in enumerate(zip(orec, rrec)):
        if a != b:
            print("record %d differs: ours %s, llvm-xray %s" % (i, a, b))
            return 1
    if len(orec) != len(rrec):
        print("%d records, llvm-xray %d" % (len(orec), len(rrec)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
