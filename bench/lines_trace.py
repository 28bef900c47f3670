#!/usr/bin/env python3
"""lines_trace.py: where a chunk's time goes in the box path's IC(0) by grid
lines (factor_box_lines_kernel), from the CSV that DOMINO_FACTOR_LINES_TRACE
writes (src/cuda/factor_lines_trace.c).

usage: lines_trace.py TRACE.csv [...]

Prints, per file: the kernel's span; every chunk's mean segments, from SM clock
cycles turned into ns by the run's own clock (cycles / globaltimer over all
chunks); and the critical path, walked back from the last chunk to end, at
each chunk the predecessor that ended last (the line's previous chunk, or
the chunk of a line read that holds the last row needed): its hops, and per
hop the time from the predecessor's end to this chunk's poll succeeding
(visibility and poll), and from the poll to this chunk's end.

The segments, as the kernel marks them (factor_box_lines.cu, since f1e0d78):
"poll" from the chunk's start until box_line_wait saw the last rows the
lines one key behind owe it (the first phase, lines two and three keys
behind, copied and stepped, is inside it), "copy" the copies and checks of
the lines one key behind, "steps" their 6 steps, then the in-line "scan"
and the "stores".  The traces of bench/results/h200-lines26 sections 1-5
came from the one-phase kernel: "poll" the pivot polls (or box_line_wait),
"copy" the copies and checks, "steps" all 12 steps."""
import csv
import statistics
import sys


def load(path):
    meta = {}
    rows = []
    with open(path) as f:
        first = f.readline()
        for kv in first[1:].split():
            k, v = kv.split("=")
            meta[k] = int(v)
        for r in csv.DictReader(f):
            rows.append({k: int(v) for k, v in r.items()})
    return meta, rows


def analyse(path):
    meta, rows = load(path)
    nx, ny, nz = meta["nx"], meta["ny"], meta["nz"]
    by = {}
    for r in rows:
        by[(r["b"], r["y"], r["z"], r["chunk"])] = r
    span = max(r["g_end"] for r in rows) - min(r["g_start"] for r in rows)
    cyc = sum(r["c_end"] for r in rows) / max(1, sum(r["g_end"] - r["g_start"] for r in rows))
    print(f"{path}: {nx}x{ny}x{nz} batch {meta['batch']}, {meta['warps']} warps, {len(rows)} chunks, "
          f"span {span / 1e3:.1f} us, {cyc:.2f} cycles/ns")

    def mean(f):
        return statistics.mean(f(r) for r in rows) / cyc

    segs = [("poll", lambda r: r["c_polled"]), ("copy", lambda r: r["c_copied"] - r["c_polled"]),
            ("steps", lambda r: r["c_steps"] - r["c_copied"]), ("scan", lambda r: r["c_scan"] - r["c_steps"]),
            ("stores", lambda r: r["c_end"] - r["c_scan"]), ("chunk", lambda r: r["c_end"])]
    print("  every chunk, mean ns: " + ", ".join(f"{n} {mean(f):.0f}" for n, f in segs))
    print(f"  poll rounds mean {statistics.mean(r['rounds'] for r in rows):.2f}, "
          f"steps reloading mean {statistics.mean(r['late_steps'] for r in rows):.3f}, "
          f"walked {sum(r['walked'] for r in rows)}")

    def deps(r):
        b, y, z, c, x0 = r["b"], r["y"], r["z"], r["chunk"], r["x0"]
        out = []
        if c > 0:
            out.append(by[(b, y, z, c - 1)])
        xmax = min(x0 + 32, nx - 1)
        for dy, dz in ((-1, 0), (1, -1), (0, -1), (-1, -1)):
            yy, zz = y + dy, z + dz
            if 0 <= yy < ny and 0 <= zz < nz:
                cc = (xmax + ((yy + 2 * zz) & 31)) // 32
                d = by.get((b, yy, zz, cc))
                if d is not None:
                    out.append(d)
        return out

    r = max(rows, key=lambda q: q["g_end"])
    hops = []
    while True:
        ds = deps(r)
        if not ds:
            break
        d = max(ds, key=lambda q: q["g_end"])
        own = d["y"] == r["y"] and d["z"] == r["z"]
        hops.append((own, r["g_polled"] - d["g_end"], r["g_end"] - r["g_polled"], r["g_start"] - d["g_end"], r))
        r = d
    other = [h for h in hops if not h[0]]
    own = [h for h in hops if h[0]]
    print(f"  critical path: {len(hops)} hops ({len(other)} between lines, {len(own)} along a line), "
          f"first chunk starts {r['g_start'] - min(q['g_start'] for q in rows)} ns in")
    for name, hs in (("between lines", other), ("along a line", own)):
        if not hs:
            continue
        lag = statistics.mean(h[1] for h in hs)
        work = statistics.mean(h[2] for h in hs)
        start = statistics.mean(h[3] for h in hs)
        print(f"    {name}: predecessor's end to poll done {lag:.0f} ns (of which to chunk start "
              f"{start:.0f}), poll done to end {work:.0f} ns; hop {lag + work:.0f} ns")
    # the segments of the chunks on the path, by clock
    path = [h[4] for h in hops]
    print("  on the path, mean ns: " + ", ".join(
        f"{n} {statistics.mean(f(q) for q in path) / cyc:.0f}" for n, f in segs) +
        f"; poll rounds {statistics.mean(q['rounds'] for q in path):.2f}")


for p in sys.argv[1:]:
    analyse(p)
