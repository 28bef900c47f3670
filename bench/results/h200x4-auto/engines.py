#!/usr/bin/env python3
"""engines.py (run in this folder): suite-trsv.csv -> engines.dat and
engines.png, every engine's solve speed-up over cusparseSpSV per problem
(same process), log scale, gnuplot."""
import csv, subprocess
rows = [r for r in csv.DictReader(open("suite-trsv.csv")) if r["status"] == "ok"]
problems = list(dict.fromkeys(r["problem"] for r in rows))
engines = ["auto", "thread", "levelset", "csc", "warp"]
t = {(r["problem"], r["engine"]): float(r["solve_ms"]) for r in rows}
with open("engines.dat", "w") as f:
    f.write("problem " + " ".join(engines) + "\n")
    for p in problems:
        f.write(p.replace(".mtx", "") + "".join(" %g" % (t[(p, "cusparse")] / t[(p, e)]) for e in engines) + "\n")
plot = ", ".join("'engines.dat' using %d%s title '%s'" % (k + 2, ":xtic(1)" if k == 0 else "", e)
                 for k, e in enumerate(engines))
gp = """set terminal pngcairo size 1800,700 font ',10'
set output 'engines.png'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 10
set yrange [0.001:1000]
set ylabel 'solve speed-up over cusparseSpSV (same process, H200, double)'
set xtics rotate by -60 left noenhanced
set grid ytics
set key top left
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black' lw 2
set title 'issue 3 suite, every single-GPU engine (bench/results/h200x4-auto)'
plot """ + plot + "\n"
subprocess.run(["gnuplot"], input=gp, text=True, check=True)
