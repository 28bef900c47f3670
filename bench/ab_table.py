#!/usr/bin/env python3
"""ab_table.py CSV: one line a (problem, engine) of a `domino bench --csv`
file, cusparse left out: the solve time, its ratio to cusparse's in the same
file, the first solve, the analysis and the status (the A/B scripts'
tables: long23.sh, groups23.sh, groups24.sh)."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
cu = {r["problem"]: float(r["solve_ms"]) for r in rows if r["engine"] == "cusparse"}
for r in rows:
    if r["engine"] == "cusparse":
        continue
    s = float(r["solve_ms"])
    print("%-22s %-10s %-11s solve %9.4f ms %6.2fx  first %9.4f  analysis %.4f  %s"
          % (r["problem"], r["engine"], r["engine_used"], s, cu.get(r["problem"], 0) / s,
             float(r["first_solve_ms"]), float(r["analysis_ms"]), r["status"]))
