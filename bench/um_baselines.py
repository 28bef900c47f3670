#!/usr/bin/env python3
"""um_baselines.py CSV OUT_CSV [CONFIG...]: a trsv-dist CSV with the column
x_um_plain added (um-plain's time over the row's time, same problem, same
command), then per configuration the geometric means of x_um and
x_um_plain over the problems that have both baselines.  CONFIG limits the
table to those configurations (default: all)."""
import csv, sys

from summarize_trsv_dist import geomean

src, dst = sys.argv[1], sys.argv[2]
keep = sys.argv[3:]
rows = list(csv.DictReader(open(src)))
plain = {r["problem"]: float(r["seconds"]) for r in rows
         if r["config"] == "um-plain" and r["status"] == "ok"}
for r in rows:
    t = float(r["seconds"])
    p = plain.get(r["problem"])
    r["x_um_plain"] = "%.4f" % (p / t) if p and r["status"] == "ok" and t > 0 else "nan"
with open(dst, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)

problems = list(dict.fromkeys(r["problem"] for r in rows if r["problem"] in plain))
configs = [c for c in dict.fromkeys(r["config"] for r in rows) if not keep or c in keep]
val = {(r["problem"], r["config"]): r for r in rows}
print("| problem | " + " | ".join(configs) + " |")
print("|---|" + "---:|" * len(configs))
for p in problems:
    cells = []
    for c in configs:
        r = val.get((p, c))
        cells.append("–" if not r or r["status"] != "ok" else "%.1f (%s / %s)" % (
            float(r["seconds"]) * 1e3, "%.2f" % float(r["x_um"]), "%.2f" % float(r["x_um_plain"])))
    print("| %s | %s |" % (p, " | ".join(cells)))
for col in ("x_um", "x_um_plain"):
    cells = []
    for c in configs:
        xs = [float(val[(p, c)][col]) for p in problems if (p, c) in val and val[(p, c)][col] != "nan"]
        cells.append("%.2f" % geomean(xs) if xs and len(xs) == len(problems) else "–")
    print("| geomean %s | %s |" % (col, " | ".join(cells)))
