#!/usr/bin/env python3
"""table.py - README's size and stack table for the device programs, from
what the build and the runs left under build/device (tests/device/device.sh
calls it after the runs):

  lib/HDR-CPU-OPT[-nostrings].o   section sizes (arm-none-eabi-size -A)
  lib/HDR-CPU-OPT.ci              gcc's call graph with each function's frame
                                  (-fcallgraph-info=su): the deepest chain of
                                  frames from any public function
  sizeof/FMT-{m0,m4}.o            sizeof of the public structs (nm -S)
  run/HDR-CPU-OPT.out             the board's "# stack N" line: the deepest
                                  decode, measured by stack painting

  python3 tests/device/table.py build/device        prints the table (Markdown)
  python3 tests/device/table.py build/device --frames
      prints "FRAME BYTES FUNCTION OBJECT" for the largest frame of each object
      and "DEPTH BYTES FUNCTION OBJECT" for its deepest chain (device.sh checks
      the limits)"""
import os
import re
import subprocess
import sys

HDRS = ["xray", "uftrace", "ovni", "xtrace", "ipt", "tracedec"]
CPUS = [("m0", "Cortex-M0"), ("m4", "Cortex-M4")]
OPTS = ["Os", "O2"]
# The boards' names and RAM (tests/device/microbit.ld, an386.ld).
BOARDS = {"Cortex-M0": ("microbit", 16 * 1024), "Cortex-M4": ("mps2-an386", 256 * 1024)}
# Indirect calls: the only ones in the library are Intel PT's code reader
# (the device program and most users pass tdec_ipt_image_read) and its
# unknown-packet hook (unset here).
INDIRECT = "tdec_ipt_image_read"


def sections(obj):
    out = subprocess.run(["arm-none-eabi-size", "-A", obj], check=True, capture_output=True, text=True).stdout
    sizes = {"text": 0, "rodata": 0, "data": 0, "data_init": 0}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2 or not parts[1].isdigit():
            continue
        name, size = parts[0], int(parts[1])
        for key, prefixes in (("text", (".text", ".ARM.exidx")), ("rodata", (".rodata",)), ("data", (".data", ".bss")),
                              ("data_init", (".data",))):
            if name.startswith(prefixes):
                sizes[key] += size
    return sizes


def call_graph(ci):
    """(frames, edges) of a .ci file: frame bytes per node title, callees."""
    frames, edges = {}, {}
    node = re.compile(r'node: \{ title: "([^"]*)" label: "[^"\\]*(?:\\n[^"\\]*)?\\n(\d+) bytes')
    edge = re.compile(r'edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"')
    with open(ci) as f:
        for line in f:
            m = node.match(line)
            if m:
                frames[m.group(1)] = int(m.group(2))
                continue
            m = edge.match(line)
            if m:
                edges.setdefault(m.group(1), set()).add(m.group(2))
    return frames, edges


def deepest(ci):
    """(bytes, function): the deepest chain of frames from a public function.
    Functions without a frame of their own here (memcpy, libgcc's helpers)
    count 0; an indirect call counts as a call of INDIRECT."""
    frames, edges = call_graph(ci)
    memo = {}

    def depth(fn, seen):
        if fn == "__indirect_call":
            fn = INDIRECT
        if fn in memo:
            return memo[fn]
        if fn in seen:  # the library has no recursion: say so if it gets one
            raise SystemExit("table.py: recursion through %s in %s" % (fn, ci))
        below = max([depth(c, seen | {fn}) for c in edges.get(fn, ())] or [0])
        memo[fn] = frames.get(fn, 0) + below
        return memo[fn]

    public = [t for t in frames if ":" not in t]
    return max((depth(t, frozenset()), t) for t in public)


def largest_frame(ci):
    frames, _ = call_graph(ci)
    return max((b, t.split(":")[-1]) for t, b in frames.items())


def measured(run, name):
    """The last "# stack" line: the deepest of all the program's decodes."""
    found = None
    try:
        with open(os.path.join(run, name + ".out")) as f:
            for line in f:
                if line.startswith("# stack "):
                    found = int(line.split()[2], 16)
    except OSError:
        pass
    return found


def sizeofs(obj):
    out = subprocess.run(["arm-none-eabi-nm", "-S", obj], check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3].startswith("sizeof_"):
            found.append((parts[3][len("sizeof_"):], int(parts[1], 16)))
    return found


def cells(dev):
    for h in HDRS:
        for cpu, cpu_name in CPUS:
            for opt in OPTS:
                name = "%s-%s-%s" % (h, cpu, opt)
                if os.path.exists(os.path.join(dev, "lib", name + ".o")):
                    yield h, cpu_name, opt, name


def table(dev):
    run = os.path.join(dev, "run")
    lines = ["| header | CPU | | .text | .rodata | .rodata with TDEC_NO_STRINGS | .data+.bss "
             "| stack, deepest call (call graph) | stack, decode (measured) |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for h, cpu_name, opt, name in cells(dev):
        lib = os.path.join(dev, "lib", name)
        s = sections(lib + ".o")
        ns = sections(lib + "-nostrings.o")
        depth, fn = deepest(lib + ".ci")
        m = measured(run, name)
        header = "tracedec.h" if h == "tracedec" else "tdec_%s.h" % h
        lines.append("| %s | %s | -%s | %d | %d | %d | %d | %d (%s) | %s |" % (
            header, cpu_name, opt, s["text"], s["rodata"], ns["rodata"], s["data"], depth, fn,
            "-" if m is None else str(m)))
    lines.append("")
    lines.append("| device program | board | | flash: code and traces | RAM: .data+.bss | RAM left for the stack |")
    lines.append("| --- | --- | --- | ---: | ---: | ---: |")
    for h, cpu_name, opt, name in cells(dev):
        elf = os.path.join(dev, name + ".elf")
        if not os.path.exists(elf):
            continue
        s = sections(elf)
        board, ram = BOARDS[cpu_name]
        lines.append("| tests/device/%s.c | %s | -%s | %d | %d | %d |" % (
            h, board, opt, s["text"] + s["data_init"], s["data"], ram - s["data"]))
    lines.append("")
    lines.append("| header | sizeof on Cortex-M0 and M4, bytes |")
    lines.append("| --- | --- |")
    for h in HDRS[:-1]:
        m0, m4 = (os.path.join(dev, "sizeof", "%s-%s.o" % (h, cpu)) for cpu in ("m0", "m4"))
        if os.path.exists(m0) and os.path.exists(m4):
            sizes = [(name, str(a) if a == b else "%d (M4: %d)" % (a, b))
                     for (name, a), (_, b) in zip(sizeofs(m0), sizeofs(m4))]
            lines.append("| tdec_%s.h | %s |" % (h, ", ".join("%s %s" % p for p in sizes)))
    return "\n".join(lines) + "\n"


def main():
    dev = sys.argv[1]
    if sys.argv[2:] == ["--frames"]:
        for h, _, _, name in cells(dev):
            ci = os.path.join(dev, "lib", name + ".ci")
            b, fn = largest_frame(ci)
            print("FRAME %d %s %s" % (b, fn, name))
            b, fn = deepest(ci)
            print("DEPTH %d %s %s" % (b, fn, name))
        return
    sys.stdout.write(table(dev))


main()
