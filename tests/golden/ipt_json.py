#!/usr/bin/env python3
"""Checks `tracedec dump --json FILE` on an Intel PT trace (docs/ipt.md)
against the text dump of the same trace with `--raw --lastip --exec-mode`
(ptdump's columns): every JSON line parses; each packet object, rendered
again in ptdump's format by this script from its JSON fields alone (and the
trace's bytes for the raw column), gives the text dump's line; error objects
give its "[offset: ...]" lines; "last_ip" is the IP rebuilt from the
packets' "ipc"/"ip" with a reset at PSB, OVF and after an error, while the
text's --lastip column is reset only after an error (ptdump's rule); gaps
and packets cover the trace in order.

    check_ipt_json.py DUMP.json DUMP-RAW.txt TRACE.pt [DUMP.json DUMP-RAW.txt TRACE.pt]...

prints "ok TRACE: N packets" or "FAIL TRACE: why" per trace; exit status 1
if any failed.
"""
import json
import sys

IP_KINDS = ("tip", "tip.pge", "tip.pgd", "fup")
CFE = {1: "intr", 2: "iret", 3: "smi", 4: "rsm", 5: "sipi", 6: "init", 7: "vmentry", 8: "vmexit",
       9: "vmexit_intr", 10: "shutdown", 12: "uintr", 13: "uiret", 14: "swintr", 15: "syscall"}
EVD = {0: "cr2", 1: "vmxq", 2: "vmxr"}
MASK = {1: 0xffff, 2: 0xffffffff, 4: 0xffffffffffff}


class LastIp:
    def __init__(self):
        self.ip, self.have, self.suppressed = 0, False, False

    def update(self, ipc, ip):
        if ipc == 0:
            self.suppressed = True
            return
        if ipc in MASK:
            ip = (self.ip & ~MASK[ipc] & (2**64 - 1)) | (ip & MASK[ipc])
        self.ip, self.have, self.suppressed = ip, True, False

    def query(self):
        if not self.have:
            return "noip"
        if self.suppressed:
            return "suppressed"
        return self.ip


def payload(o):
    """ptdump's payload column and tracking column (id, value) for a packet."""
    k = o["kind"]
    if k in IP_KINDS:
        ipc, ip = o["ipc"], int(o.get("ip", "0x0"), 16)
        return {0: "0: " + "?" * 16, 1: "1: %s%04x" % ("?" * 12, ip), 2: "2: %s%08x" % ("?" * 8, ip),
                4: "4: ????%012x" % ip}.get(ipc, "%x: %016x" % (ipc, ip)), None
    if k in ("tnt.8", "tnt.64"):
        return o["bits"], None
    if k == "mode.exec":
        bits = [n for n, f in (("cs.d", "csd"), ("cs.l", "csl"), ("if", "if")) if o[f]]
        return ", ".join(bits), ("em", o["mode"])
    if k == "mode.tsx":
        return ", ".join(n for n in ("intx", "abrt") if o[n]), None
    if k == "pip":
        cr3 = int(o["cr3"], 16)
        return "%x%s" % (cr3, ", nr" if o["nr"] else ""), ("cr3", "%016x" % cr3)
    if k == "vmcs":
        base = int(o["base"], 16)
        return "%x" % base, ("vmcs", "%016x" % base)
    if k in ("tsc", "cbr", "mtc", "cyc"):
        return "%x" % o[{"tsc": "tsc", "cbr": "ratio", "mtc": "ctc", "cyc": "cyc"}[k]], None
    if k == "tma":
        return "%x, %x" % (o["ctc"], o["fc"]), None
    if k == "mnt":
        return "%x" % int(o["payload"], 16), None
    if k == "exstop":
        return "ip" if o["ip_bit"] else "", None
    if k == "mwait":
        return "%08x, %08x" % (o["hints"], o["ext"]), None
    if k == "pwre":
        return "c%d.%d%s" % ((o["state"] + 1) & 15, (o["sub_state"] + 1) & 15, ", hw" if o["hw"] else ""), None
    if k == "pwrx":
        why = [w for w, f in (("int", "interrupt"), (" st", "store"), (" hw", "autonomous")) if o[f]]
        return "%s: c%d, c%d" % (why[0] if len(why) == 1 else "bad", (o["last"] + 1) & 15,
                                 (o["deepest"] + 1) & 15), None
    if k == "ptw":
        return "%x: %x%s" % (o["plc"], int(o["payload"], 16), ", ip" if o["ip_bit"] else ""), None
    if k == "cfe":
        t = o["type"]
        if CFE.get(t, "unknown") != o["type_name"]:
            raise ValueError("cfe type_name %r for type %d" % (o["type_name"], t))
        vec = {1: "%d", 9: "%d", 12: "%d", 14: "%d", 5: "%x"}.get(t)
        text = "%d" % t + (": " + vec % o["vector"] if vec else "")
        return text + (", ip" if o["ip_bit"] else ""), ("type", o["type_name"])
    if k == "evd":
        if EVD.get(o["type"], "unknown") != o["type_name"]:
            raise ValueError("evd type_name %r" % o["type_name"])
        return "%d: %x" % (o["type"], int(o["payload"], 16)), ("type", o["type_name"])
    if k == "trig":
        text = "%02x%s%s" % (o["trbv"], ", ip" if o["ip_bit"] else "", ", mult" if o["mult"] else "")
        return text + (", icnt: %d" % o["icnt"] if "icnt" in o else ""), None
    return "", None  # pad, psb, psbend, ovf, stop, <invalid>


class Mismatch(Exception):
    pass


def check(json_path, text_path, trace_path):
    """Returns the number of packets, or raises Mismatch."""
    objs = [json.loads(l) for l in open(json_path, encoding="utf-8")]
    text = open(text_path, encoding="utf-8").read().splitlines()
    trace = open(trace_path, "rb").read()
    want = []
    shown, rebuilt = LastIp(), LastIp()  # ptdump's column; the JSON's last_ip
    end = 0  # where the previous packet or gap ended
    packets = 0
    for i, o in enumerate(objs):
        k, off = o["kind"], o["offset"]
        if k == "error":
            if o["what"] == "truncated packet":
                # ptdump ends silently; with erratum SKZ84, a bad TMA with
                # its 8th byte missing is its "<invalid>" (--raw: "bad
                # packet size") - the CLI prints that too
                want.append(("[%x: bad packet size: unknown packet]" % off, "%016x  %s <invalid>" % (
                    off, trace[off:off + 8].hex().ljust(33))))
                continue
            want.append("[%x: %s%s]" % (off, o["what"], ": " + o["error"] if "error" in o else ""))
            if o["what"] == "error decoding packet":
                shown, rebuilt = LastIp(), LastIp()
            continue
        if k == "gap":
            if off != end or o["size"] <= 0 or o["reason"] not in ("sync", "resync"):
                raise Mismatch("object %d: gap %r does not follow at %d" % (i, o, end))
            end = off + o["size"]
            continue
        packets += 1
        # an SKD007 OVF starts after the CYC byte it replaces; a PSB found
        # by resync may start inside the packet that failed
        show = off - 1 if o.get("skd007") else off
        if show > end or (show < end and k != "psb"):
            raise Mismatch("object %d: %r does not follow at %d" % (i, o, end))
        end = off + o["size"]
        pay, trk = payload(o)
        if k in IP_KINDS:
            ip = int(o.get("ip", "0x0"), 16)
            shown.update(o["ipc"], ip)
            rebuilt.update(o["ipc"], ip)
            q = rebuilt.query()
            if o["last_ip"] != (None if isinstance(q, str) else "0x%x" % q):
                raise Mismatch("object %d: last_ip %r, rebuilt %r" % (i, o["last_ip"], q))
            q = shown.query()
            if q == "noip":
                want.append("[%x: error tracking last-ip: no ip]" % show)
            trk = ("ip", "<unavailable>" if q == "noip" else "<suppressed>" if q == "suppressed" else "%016x" % q)
        if k in ("psb", "ovf"):
            rebuilt = LastIp()
        line = "%016x  %-33s %s" % (show, trace[show:show + o["size"]].hex(), k.ljust(10) if pay else k)
        if trk:
            line += " %-25s %-5s%s" % (pay, trk[0], trk[1])
        elif pay:
            line += " " + pay
        want.append(line)
    if end != len(trace) and not (objs and objs[-1]["kind"] == "error"):
        raise Mismatch("the objects end at %d, the trace at %d" % (end, len(trace)))
    if want and isinstance(want[-1], tuple):  # the optional last line
        want[-1:] = [text[-1]] if len(text) == len(want) and text[-1] in want[-1] else []
    for n, (w, t) in enumerate(zip(want, text)):
        if w != t:
            raise Mismatch("line %d: rendered from JSON %r, text dump %r" % (n + 1, w, t))
    if len(want) != len(text):
        raise Mismatch("%d lines rendered from JSON, text dump has %d" % (len(want), len(text)))
    return packets


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit(__doc__)
    failed = 0
    for i in range(0, len(args), 3):
        try:
            print("ok %s: %d packets" % (args[i + 2], check(*args[i:i + 3])))
        except (Mismatch, ValueError, KeyError) as e:
            failed += 1
            print("FAIL %s: %s" % (args[i + 2], e))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
