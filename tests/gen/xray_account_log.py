#!/usr/bin/env python3
"""Writes a synthetic XRay basic-mode log (version 3) for the account tests:
40 functions (more than the 16 rows std::sort handles by insertion alone)
whose statistics often tie, ids that collide in a 64-bucket hash table,
three interleaved threads, exits without enters, an exit of a function
below the top of its stack (for --deduce-sibling-calls) and records older
than the first one, negative ids and one next to the largest. Deterministic
(fixed seed). With --cycles the header's cycle frequency is 0: durations
print in cycles.

    python3 tests/gen/xray_account_log.py [--cycles] OUT.xray
"""
import random
import struct
import sys

ENTER, EXIT, TAIL = 0, 1, 2
FREQ = 1000  # cycles per second: durations print as multiples of 0.001


def main(path, freq):
    rnd = random.Random(17)
    fids = list(range(1, 33)) + [65, 129, 193, 257, 100001, 100065, 7, 71, -3, -64, 0x7ffffffe]
    fids = list(dict.fromkeys(fids))  # 7 is in range already: ids stay unique
    durations = [1, 2, 2, 3, 5, 8, 8]
    recs = []
    tsc = {101: 5000, 102: 5000, 103: 5000}

    def call(tid, depth):
        fid = rnd.choice(fids)
        recs.append((tid, ENTER if rnd.random() < 0.9 else 3, fid, tsc[tid]))
        tsc[tid] += rnd.choice(durations)
        if depth < 3 and rnd.random() < 0.5:
            for _ in range(rnd.randint(1, 2)):
                call(tid, depth + 1)
        recs.append((tid, EXIT if rnd.random() < 0.9 else TAIL, fid, tsc[tid]))
        tsc[tid] += rnd.choice(durations)

    order = []
    for tid in (101, 102, 103):
        start = len(recs)
        for _ in range(60):
            call(tid, 0)
        order.append(recs[start:])
        del recs[start:]
    # an exit without its enter, an exit of a frame below the top, and a
    # record older than the log's first one
    order[0].insert(0, (101, EXIT, 5, 4990))
    order[1][10:10] = [(102, ENTER, 3, order[1][9][3]), (102, ENTER, 4, order[1][9][3] + 1),
                       (102, EXIT, 3, order[1][9][3] + 2)]
    order[2].insert(5, (103, ENTER, 9, 10))
    out = [struct.pack("<HHIQ16x", 3, 0, 3, freq)]
    # threads interleave in runs of a few records
    pos = [0, 0, 0]
    while any(pos[k] < len(order[k]) for k in range(3)):
        for k in range(3):
            n = rnd.randint(1, 7)
            for tid, kind, fid, t in order[k][pos[k]:pos[k] + n]:
                out.append(struct.pack("<HBBiQII8x", 0, tid % 2, kind, fid, t, tid, 100))
            pos[k] += n
    with open(path, "wb") as f:
        f.write(b"".join(out))


if sys.argv[1] == "--cycles":
    main(sys.argv[2], 0)
else:
    main(sys.argv[1], FREQ)
