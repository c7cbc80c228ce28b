#!/usr/bin/env python3
"""Replays a file of llvm-xray 14 references with tracedec and compares.

usage: xray_refs.py TRACEDEC REF LOGDIR OUT [OWN]

REF (plain or .xz) holds, per command, a line "### llvm-xray CMD ARGS
(exit N)", its stdout, then "### stderr" and its stderr where that is not
empty and differs from the first command's. Each command runs as
`TRACEDEC CMD ARGS` in LOGDIR; OUT gets the same layout, our stderr lines'
"tracedec: " prefix spelled "llvm-xray: ". Then:

- llvm-xray could not load the log (its first command says "Failed loading
  input file"): OUT must equal OWN, our reviewed output (UPDATE=1 in the
  environment writes it);
- otherwise OUT must equal REF, except for the commands where llvm-xray
  crashed (exit >= 128: undefined behaviour in its --aggregate-threads
  merge): there tracedec must succeed and print everything llvm-xray had
  printed first.

Prints one line: "ok N COMMANDS CRASHED" or "own N" (compared with OWN) or
"diff N" (see OUT), and exits 0 when it matched."""
import lzma
import os
import re
import subprocess
import sys

HEAD = re.compile(rb"^### llvm-xray (\S+) (.*) \(exit (\d+)\)$")


def parse(data):
    blocks = []
    for line in data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n"):
        m = HEAD.match(line)
        if m:
            blocks.append({"cmd": m.group(1), "args": m.group(2), "exit": int(m.group(3)),
                           "out": b"", "err": None})
        elif line == b"### stderr" and blocks[-1]["err"] is None:
            blocks[-1]["err"] = b""
        elif blocks[-1]["err"] is not None:
            blocks[-1]["err"] += line + b"\n"
        else:
            blocks[-1]["out"] += line + b"\n"
    return blocks


def render(blocks):
    text, first = b"", None
    for b in blocks:
        text += b"### llvm-xray %s %s (exit %d)\n" % (b["cmd"], b["args"], b["exit"]) + b["out"]
        if b["real_err"] and b["real_err"] != first:
            text += b"### stderr\n" + b["real_err"]
        if first is None:
            first = b["real_err"]
    return text


def main():
    tracedec, ref, logdir, out = sys.argv[1:5]
    own = sys.argv[5] if len(sys.argv) > 5 else None
    data = lzma.open(ref).read() if ref.endswith(".xz") else open(ref, "rb").read()
    blocks = parse(data)
    # the stderr each command really had: its section, else empty or the first's
    ref_first = blocks[0]["err"] or b""
    unloadable = b"Failed loading input file" in ref_first
    ours, crashed = [], 0
    for b in blocks:
        p = subprocess.run([tracedec, b["cmd"].decode()] + b["args"].decode().split(),
                           cwd=logdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = re.sub(rb"(?m)^tracedec: ", b"llvm-xray: ", p.stderr)
        mine = {"cmd": b["cmd"], "args": b["args"], "exit": p.returncode, "out": p.stdout, "real_err": err}
        if b["exit"] >= 128 and not unloadable:
            if p.returncode == 0 and p.stdout.startswith(b["out"]):
                crashed += 1
                mine = dict(b, real_err=b["err"] if b["err"] is not None else None)
        ours.append(mine)
    # the reference's own stderr rule, for the crashed blocks copied from it
    for i, m in enumerate(ours):
        if m["real_err"] is None:
            m["real_err"] = ours[0]["real_err"] if i > 0 else b""
    text = render(ours)
    with open(out, "wb") as f:
        f.write(text)
    if unloadable:
        if os.environ.get("UPDATE") == "1":
            with lzma.open(own, "wb", preset=9 | lzma.PRESET_EXTREME) as f:
                f.write(text)
        expected = lzma.open(own).read() if own and os.path.exists(own) else None
        print(("own %d" if text == expected else "diff %d") % len(blocks))
        return 0 if text == expected else 1
    print(("ok %d %d" % (len(blocks), crashed)) if text == data else "diff %d" % len(blocks))
    return 0 if text == data else 1


sys.exit(main())
