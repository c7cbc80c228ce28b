#!/usr/bin/env python3
"""Checks `tracedec flow --json` (docs/ipt.md, "tracedec flow --json")
against the text output of the same run: every line is one JSON object;
rendered again in ptxed's text format by this script from its fields alone
(with the run's --offset/--time/--event:ip/--event:time), the objects give the text
lines one for one. With --parse-only, only that every line parses and the
last object is not cut.

    ipt_flow_json.py OPTIONS FLOW.json FLOW.txt [OPTIONS FLOW.json FLOW.txt]...
    ipt_flow_json.py --parse-only FLOW.json...

OPTIONS: the flow options of the run, comma-separated. Prints "ok
FLOW.json" or "FAIL FLOW.json: why" per run; exit status 1 on a failure.
"""
import json
import sys

MODES = {0: "<unknown>", 1: "16-bit", 2: "32-bit", 3: "64-bit"}
NO_IP = {"stop", "pwre", "pwrx", "cbr", "mnt", "sipi", "rsm", "async_branch", "paging", "vmcs"}
WORDS = {"overflow": "overflow", "stop": "stopped", "exstop": "exstop", "tick": "tick"}
INSN_FIELDS = {"kind", "time", "ip", "size", "iclass", "mode", "speculative", "raw"}
ICLASSES = {"unknown", "other", "call", "return", "jump", "cond_jump", "far_call", "far_return",
            "far_jump", "ptwrite", "indirect"}


def x16(v):
    return "%016x" % v


def event_text(o, opts):
    """ptxed's event line from the event object's fields."""
    name, ip = o["event"], o.get("ip")
    if name == "enabled":
        t = "resumed" if o["resumed"] else "enabled"
    elif name in ("disabled", "async_disabled"):
        t = "disabled" + (", at: " + x16(o["at"]) if name == "async_disabled" and "--event:ip" in opts else "")
    elif name == "async_branch":
        t = "interrupt"
        if "--event:ip" in opts:
            t += ", from: " + x16(o["from"]) + (", to: " + x16(o["to"]) if o["to"] is not None else "")
    elif name in ("paging", "async_paging"):
        t = "paging, cr3: " + x16(o["cr3"]) + (", nr" if o["nr"] else "")
    elif name == "exec_mode":
        t = "exec mode: " + MODES[o["mode"]]
    elif name == "tsx":
        t = "aborted" if o["abrt"] else "begin transaction" if o["spec"] else "committed"
    elif name in ("vmcs", "async_vmcs"):
        t = "vmcs, base: " + x16(o["base"])
    elif name == "mwait":
        t = "mwait %x %x" % (o["hints"], o["ext"])
    elif name == "pwre":
        t = "pwre c%x.%x" % ((o["state"] + 1) & 15, (o["sub"] + 1) & 15) + (" hw" if o["hw"] else "")
    elif name == "pwrx":
        t = "pwrx " + ("int: " if o["int"] else "st: " if o["store"] else "hw: ")
        t += "c%x (c%x)" % ((o["last"] + 1) & 15, (o["deepest"] + 1) & 15)
    elif name == "ptwrite":
        t = "ptwrite: %x" % o["payload"]
    elif name == "cbr":
        t = "cbr: %x" % o["ratio"]
    elif name == "mnt":
        t = "mnt: %x" % o["payload"]
    elif name == "iflags":
        t = "interrupts " + ("enabled" if o["if"] else "disabled")
    elif name == "interrupt":
        t = "interrupt %d" % o["vector"] + (", cr2: " + x16(o["cr2"]) if "cr2" in o else "")
    elif name == "sipi":
        t = "sipi: %x" % o["vector"]
    elif name == "vmexit":
        t = "vmexit" + (", intr: %d" % o["vector"] if "vector" in o else "")
        t += (", vmxr: " + x16(o["vmxr"]) if "vmxr" in o else "") + (", vmxq: " + x16(o["vmxq"]) if "vmxq" in o else "")
    elif name in ("uintr", "swintr"):
        t = "%s %d" % (name, o["vector"])
    elif name == "trig":
        t = "trig %02x" % o["trbv"] + (", mult" if o["mult"] else "")
    else:
        t = WORDS.get(name, name)
    if "--event:ip" in opts and name in ("async_paging", "async_vmcs"):
        t += ", ip: " + x16(ip or 0)  # ptxed prints theirs even when suppressed (0)
    elif "--event:ip" in opts and ip is not None and name not in NO_IP:
        t += ", ip: " + x16(ip)
    if "--event:time" in opts and "tsc" in o:
        t = x16(o["tsc"]) + "  " + t
    return "[" + offset(o, opts) + t + "]"


def offset(o, opts):
    """The --offset column of an instruction or event object."""
    return x16(o["offset"]) + "  " if "--offset" in opts else ""


def render(o, opts):
    """The text lines of one object."""
    k = o["kind"]
    if k == "stat":
        return (["insn: %d." % o["insn"]] if "insn" in o else []) + (["blocks:\t%d." % o["blocks"]] if "blocks" in o else [])
    return [render_line(o, opts)]


def render_line(o, opts):
    k = o["kind"]
    if k == "insn":
        fields = INSN_FIELDS | ({"offset"} if "--offset" in opts else set())
        if set(o) != fields or o["iclass"] not in ICLASSES or len(o["raw"]) != 2 * o["size"]:
            raise ValueError("bad instruction object %r" % o)
        return offset(o, opts) + (x16(o["time"]) + "  " if "--time" in opts else "") + ("? " if o["speculative"] else "") + x16(o["ip"])
    if k == "event":
        return event_text(o, opts)
    if k == "error":
        where = "" if o["where"] == "decode" else o["where"] + " "
        return "[%x, %x: %serror: %s]" % (o["offset"], o["ip"], where, o["error"])
    if k == "end":
        return "[end of trace]"
    if k == "block":
        return "[block %x]" % o["block"] if "block" in o else "[block]"
    if k == "resync" and not o["enabled"]:
        return "[disabled]"
    raise ValueError("unknown kind %r" % k)


def check(parse_only, opts, name, text_name):
    """One run: None, or why it failed."""
    try:
        data = open(name, encoding="utf-8").read()
        if data and not data.endswith("\n"):
            raise ValueError("the last line is cut")
        objs = [json.loads(line) for line in data.splitlines()]
        for o in objs:
            if not isinstance(o, dict) or "kind" not in o:
                raise ValueError("not an object with a kind: %r" % o)
        if not parse_only:
            text = open(text_name, encoding="utf-8").read().splitlines()
            got = [line for o in objs for line in render(o, opts)]
            for i, (g, t) in enumerate(zip(got, text)):
                if g != t:
                    raise ValueError("line %d: from JSON %r, text %r" % (i + 1, g, t))
            if len(got) != len(text):
                raise ValueError("%d objects, %d text lines" % (len(got), len(text)))
    except (ValueError, KeyError, TypeError, OSError) as e:
        return str(e)
    return None


def main(argv):
    parse_only = argv[1:2] == ["--parse-only"]
    args = argv[2:] if parse_only else argv[1:]
    step = 1 if parse_only else 3
    failed = 0
    for k in range(0, len(args), step):
        opts = set() if parse_only else set(args[k].split(","))
        name = args[k + step - 1] if parse_only else args[k + 1]
        why = check(parse_only, opts, name, None if parse_only else args[k + 2])
        if why:
            failed = 1
            print("FAIL %s: %s" % (name, why))
        else:
            print("ok %s" % name)
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv))
