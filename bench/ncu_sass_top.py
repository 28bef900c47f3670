#!/usr/bin/env python3
"""ncu_sass_top.py SASS_CSV [N]: the N SASS instructions of an Nsight Compute
source page (ncu --page source --csv --print-source sass) with the most warp
stall samples, each with its largest stall reasons; then the totals of every
stall reason over the kernel."""
import csv, sys


def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return None


def main():
    path, top = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
    rows = list(csv.reader(open(path, newline="")))
    head = next((i for i, r in enumerate(rows) if "Source" in r), None)
    if head is None:
        print("no source table in", path)
        return
    hdr, body = rows[head], [r for r in rows[head + 1:] if len(r) == len(rows[head])]
    src = hdr.index("Source")
    addr = hdr.index("Address") if "Address" in hdr else None
    samples = next((i for i, h in enumerate(hdr) if h.startswith("Warp Stall Sampling (All")), None)
    if samples is None:
        print("no stall samples; columns:", hdr)
        return
    reasons = [i for i, h in enumerate(hdr) if h.startswith("stall_") or h.startswith("smsp__pcsamp")]
    total = sum(num(r[samples]) or 0 for r in body) or 1
    print(f"{len(body)} instructions, {total:.0f} stall samples; reasons: {len(reasons)} columns")
    sums = {hdr[i]: sum(num(r[i]) or 0 for r in body) for i in reasons}
    for k, v in sorted(sums.items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {k:40s} {v:10.0f} {100 * v / total:5.1f}%")
    order = sorted(body, key=lambda r: -(num(r[samples]) or 0))[:top]
    for r in order:
        why = sorted(((num(r[i]) or 0, hdr[i]) for i in reasons), reverse=True)[:3]
        why = " ".join(f"{h.replace('stall_', '')}={v:.0f}" for v, h in why if v > 0)
        a = r[addr] if addr is not None else ""
        print(f"{100 * (num(r[samples]) or 0) / total:5.1f}% {a:>6} {r[src][:60]:60s} {why}")


if __name__ == "__main__":
    main()
