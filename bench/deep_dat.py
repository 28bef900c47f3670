#!/usr/bin/env python3
"""deep_dat.py CSV [ENGINES]: per problem of a gpu-run.sh CSV, the speedup
over cusparseSpSV of the engines named (comma-separated; default
auto,thread,stepblock), plot_deep.gp's input: a header line, then one line
a problem"""
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1])))
engines = (sys.argv[2] if len(sys.argv) > 2 else "auto,thread,stepblock").split(",")
order, cell = [], {}
for r in rows:
    if r["problem"] not in order:
        order.append(r["problem"])
    cell[(r["problem"], r["engine"])] = float(r["speedup"])
print("problem", *engines)
for p in order:
    print(p.replace(" ", "_"), *("%.4g" % cell.get((p, e), float("nan")) for e in engines))
