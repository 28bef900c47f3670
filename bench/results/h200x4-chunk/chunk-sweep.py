#!/usr/bin/env python3
"""chunk-sweep.py: R-MAT 22 solve time against the CSC push's first chunk
(0 = the column in one round) from next12/ and chunk12/ CSVs -> chunk-sweep.csv,
chunk-sweep.png (gnuplot).  Run in this folder."""
import csv, subprocess
one = {0: "next12/chunk-1gpu-0-rmat22.csv", 32: "next12/chunk-1gpu-32-rmat22.csv"}
four = {0: "next12/chunk-4pe-0.csv", 32: "next12/chunk-4pe-32.csv"}
for c in (8, 16, 64, 128):
    one[c] = "chunk12/sweep-1gpu-%d.csv" % c
    four[c] = "chunk12/sweep-4pe-%d.csv" % c
cols = ["csc-1gpu", "um", "zerocopy-tasks8", "zerocopy-tied"]
out = []
for c in sorted(one):
    r = [x for x in csv.DictReader(open(one[c])) if x["engine"] == "csc"][0]
    t = {"csc-1gpu": float(r["solve_ms"])}
    for x in csv.DictReader(open(four[c])):
        if x["problem"].startswith("rmat:22") and x["config"] in cols:
            t[x["config"]] = float(x["seconds"]) * 1e3
    out.append([c] + [t[k] for k in cols])
with open("chunk-sweep.csv", "w") as f:
    f.write("first_chunk," + ",".join(c + "_ms" for c in cols) + "\n")
    for r in out:
        f.write(",".join(str(v) for v in r) + "\n")
gp = """set terminal pngcairo noenhanced size 900,500 font ',10'
set output 'chunk-sweep.png'
set datafile separator ','
set title "R-MAT 22, 4xH200: solve time against the CSC push's first chunk (0 = one round)"
set xlabel 'first chunk (entries; doubled each round)'
set ylabel 'ms (median)'
set logscale y
set yrange [20:200]
set key outside right
set xtics ('0 (one round)' 0, '8' 1, '16' 2, '32' 3, '64' 4, '128' 5)
plot for [k=2:5] 'chunk-sweep.csv' using 0:k with linespoints lw 2 title columnhead(k)
"""
subprocess.run(["gnuplot"], input=gp, text=True, check=True)
for r in out: print(r)
