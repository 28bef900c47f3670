#!/usr/bin/env python3
"""plot_trsv_dist.py CSV[,CSV...] PNG [COLUMN]: the configurations of
trsv-dist CSVs as speed-ups, one cluster per problem, log scale, drawn with
gnuplot.  COLUMN is the CSV's speed-up column: x_um (default: over the
unified-memory baseline, the paper's Figure 7), x_domino_1gpu or
x_cusparse_1gpu (over one GPU, same command)."""
import csv, os, subprocess, sys, tempfile

srcs, png = sys.argv[1].split(","), sys.argv[2]
col = sys.argv[3] if len(sys.argv) > 3 else "x_um"
label = {"x_um": "over the unified-memory baseline (um = 1)",
         "x_domino_1gpu": "over domino on one GPU (domino-1gpu = 1)",
         "x_cusparse_1gpu": "over cusparseSpSV on one GPU (cusparse-1gpu = 1)"}.get(col, col)
rows = [r for s in srcs for r in csv.DictReader(open(s)) if r["status"] == "ok" and r[col] != "nan"]
problems = list(dict.fromkeys(r["problem"] for r in rows))
configs = list(dict.fromkeys(r["config"] for r in rows))
val = {(r["problem"], r["config"]): float(r[col]) for r in rows}
with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
    f.write("problem " + " ".join(configs) + "\n")
    for p in problems:
        f.write(p.split("x")[0] if p.startswith("D3") else p)
        for c in configs:
            f.write(" %g" % val.get((p, c), float("nan")))
        f.write("\n")
    dat = f.name
cols = len(configs)
gpus = max(int(r["gpus"]) for r in rows)
gp = f"""
set terminal pngcairo size 1400,600 font ',10'
set output '{png}'
set title "trsv-dist on {gpus} GPUs: speed-up {label}, answers checked\\n{', '.join(os.path.basename(s) for s in srcs)}" noenhanced
set style data histograms
set style histogram clustered gap 2
set style fill solid 0.8 border -1
set logscale y
set grid ytics
set ylabel 'x {label}' noenhanced
set key outside right
set xtics noenhanced
set key noenhanced
plot for [i=2:{cols + 1}] '{dat}' using i:xtic(1) title columnheader(i)
"""
subprocess.run(["gnuplot"], input=gp, text=True, check=True)
os.unlink(dat)
