#!/usr/bin/env python3
"""profile_real.py NCU.csv: the kernels of an ncu --csv run with
gpu__time_duration.sum, summarized by name (count, median and total time),
then the last launches of our factorization kernel and of cuSPARSE's with
the kernels just before them (the factorization's fixed costs)."""
import csv
import statistics
import sys


def main(path):
    rows = []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        if r.get("Metric Name") != "gpu__time_duration.sum":
            continue
        v = float(r["Metric Value"].replace(",", ""))
        scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}[r["Metric Unit"]]
        rows.append((r["Kernel Name"][:60], v * scale))
    by = {}
    for n, d in rows:
        by.setdefault(n, []).append(d)
    print("%-60s %6s %10s %12s" % ("kernel", "count", "median_us", "total_us"))
    for n, ds in sorted(by.items(), key=lambda kv: -sum(kv[1])):
        print("%-60s %6d %10.2f %12.1f" % (n, len(ds), statistics.median(ds), sum(ds)))
    for tag in ("factor_kernel", "csric02", "csrilu02"):
        idx = [i for i, r in enumerate(rows) if tag in r[0]]
        if idx:
            print("\n-- the last %s (of %d) and the kernels before it" % (tag, len(idx)))
            for n, d in rows[max(0, idx[-1] - 4):idx[-1] + 1]:
                print("%10.2f us  %s" % (d, n))


if __name__ == "__main__":
    main(sys.argv[1])
