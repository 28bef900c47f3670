#!/usr/bin/env python3
"""plot_trsv_scaling.py CSV[,CSV...] PNG CONFIG: strong scaling of one
multi-GPU configuration of trsv-dist CSVs (the runs on 1, 2 and 4 GPUs of
the same problems), time against GPUs, one line per problem, with the
single-GPU domino-1gpu times of the same CSVs at 1 GPU as a second point
set; log-log, drawn with gnuplot."""
import csv, os, subprocess, sys, tempfile

srcs, png, config = sys.argv[1].split(","), sys.argv[2], sys.argv[3]
rows = [r for s in srcs for r in csv.DictReader(open(s)) if r["status"] == "ok"]
problems = list(dict.fromkeys(r["problem"] for r in rows if r["config"] == config))
series = []
for p in problems:
    pts = sorted((int(r["gpus"]), float(r["seconds"]) * 1e3) for r in rows
                 if r["problem"] == p and r["config"] == config)
    one = [float(r["seconds"]) * 1e3 for r in rows if r["problem"] == p and r["config"] == "domino-1gpu"]
    series.append((p, pts, min(one) if one else None))
with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
    for p, pts, one in series:
        f.write("# %s\n" % p)
        for g, ms in pts:
            f.write("%d %g\n" % (g, ms))
        f.write("\n\n")
    for p, pts, one in series:
        f.write("1 %g\n\n\n" % (one if one else float("nan")))
    dat = f.name
n = len(series)
plots = ", ".join(f"'{dat}' index {i} with linespoints lw 2 pt 7 title '{series[i][0]} {config}'" for i in range(n))
plots += ", " + ", ".join(f"'{dat}' index {n + i} with points pt 6 ps 2 lc {i + 1} title '{series[i][0]} domino-1gpu'"
                          for i in range(n))
gp = f"""
set terminal pngcairo size 1100,650 font ',10'
set output '{png}'
set title "trsv-dist strong scaling of {config} (median solve, slowest PE; answers checked)\\n{', '.join(os.path.basename(s) for s in srcs)}" noenhanced
set logscale xy
set xtics (1, 2, 4)
set xrange [0.8:5]
set xlabel 'GPUs'
set ylabel 'ms'
set grid
set key outside right noenhanced
plot {plots}
"""
subprocess.run(["gnuplot"], input=gp, text=True, check=True)
os.unlink(dat)
