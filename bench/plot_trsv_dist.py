#!/usr/bin/env python3
"""plot_trsv_dist.py CSV PNG: the multi-GPU configurations of a trsv-dist CSV
as speed-up over the unified-memory baseline (the paper's Figure 7), one
cluster per problem, log scale; drawn with gnuplot."""
import csv, os, subprocess, sys, tempfile

src, png = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(src)) if r["status"] == "ok"]
problems = list(dict.fromkeys(r["problem"] for r in rows))
configs = list(dict.fromkeys(r["config"] for r in rows))
val = {(r["problem"], r["config"]): float(r["x_um"]) for r in rows}
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
set title "trsv-dist on {gpus} GPUs: speed-up over the unified-memory baseline (um = 1), answers checked\\n{os.path.basename(src)}"
set style data histograms
set style histogram clustered gap 2
set style fill solid 0.8 border -1
set logscale y
set grid ytics
set ylabel 'x over um (same GPUs)'
set key outside right
set xtics noenhanced
set key noenhanced
plot for [i=2:{cols + 1}] '{dat}' using i:xtic(1) title columnheader(i)
"""
subprocess.run(["gnuplot"], input=gp, text=True, check=True)
os.unlink(dat)
