#!/usr/bin/env python3
"""deep_dat.py CSV: per problem of a gpu-run.sh CSV, the speedup over
cusparseSpSV of the auto, thread and stepblock engines (plot_deep.gp's input)"""
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1])))
order, cell = [], {}
for r in rows:
    if r["problem"] not in order:
        order.append(r["problem"])
    cell[(r["problem"], r["engine"])] = float(r["speedup"])
print("# problem auto thread stepblock (speedup over cusparseSpSV, same process)")
for p in order:
    print(p.replace(" ", "_"), *("%.4g" % cell.get((p, e), float("nan")) for e in ("auto", "thread", "stepblock")))
