#!/usr/bin/env python3
"""plot_spgemm.py CSV PREFIX: the plots of a `--suite spgemm` CSV (only rows
whose product was checked, status ok):
  PREFIX-gflops.png     GFLOP/s of every configuration per problem (cuSPARSE
                        on one GPU beside the one-sided algorithms);
  PREFIX-breakdown.png  the one-sided algorithms' time, the slowest PE's,
                        split into local products, merging fetched tiles,
                        waiting for gets, claims, summing partial products,
                        imbalance, and the rest;
  PREFIX-roofline.png   stationary-C's measured time against the roofline
                        bound of its run (points on the diagonal meet it);
  PREFIX-scaling.png    strong scaling: each algorithm's time against the
                        GPU count, per problem and tile grid (when the CSVs
                        hold more than one GPU count), cuSPARSE on one GPU
                        as a dashed level.
Several CSVs (e.g. 1 and 2 GPUs) may be given, comma-separated: their rows
are told apart by their GPU count."""
import csv, math, os, sys, tempfile

from plot_common import gflops_histogram, gnuplot, roofline, table, wrote

srcs, prefix = sys.argv[1].split(","), sys.argv[2]
rows = [r for s in srcs for r in csv.DictReader(open(s)) if r["status"] == "ok"]
cases = list(dict.fromkeys(r["problem"] for r in rows))
label = lambda r: r["config"] if r["config"] == "cusparse-1gpu" else "%s %sgpu t%s" % (r["config"], r["gpus"], r["tiles"])
configs = list(dict.fromkeys(label(r) for r in rows))
val = {(r["problem"], label(r)): r for r in rows}


tmp = tempfile.mkdtemp()
d1 = os.path.join(tmp, "g.dat")
table(d1, "case " + " ".join('"%s"' % k for k in configs),
      ['"%s" ' % c + " ".join(val[(c, k)]["gflops"] if (c, k) in val else "nan" for k in configs) for c in cases])
gflops_histogram(prefix + "-gflops.png", "SpGEMM C = A A, GFLOP/s (answers checked)\\n%s"
                 % ", ".join(os.path.basename(s) for s in srcs), d1, configs, "set yrange [0:*]\n")
parts = ["compute_max_s", "merge_max_s", "fetch_max_s", "claim_max_s", "accumulate_max_s", "imbalance_max_s"]
lines = []
for c in cases:
    for k in configs:
        r = val.get((c, k))
        if not r or r["config"] == "cusparse-1gpu":
            continue
        ms = [float(r.get(p) or 0) * 1e3 if math.isfinite(float(r.get(p) or 0)) else 0.0 for p in parts]
        rest = max(float(r["seconds"]) * 1e3 - sum(ms), 0.0)
        lines.append('"%s %s" ' % (c, k.replace("stationary-", "st-")) + " ".join("%g" % v for v in ms + [rest]))
d2 = os.path.join(tmp, "b.dat")
table(d2, "# case compute merge fetch claim accumulate imbalance rest", lines)
if lines:
    gnuplot(f"""set terminal pngcairo size 1400,650 font ',10'
set output '{prefix}-breakdown.png'
set title "one-sided SpGEMM: where the slowest PE's time goes (ms; each part the largest over PEs)" noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set key outside right
set xtics noenhanced rotate by -30
set ylabel 'ms'
plot '{d2}' using 2:xtic(1) title 'local products', '' using 3 title 'merging tiles', '' using 4 title 'waiting for gets', \\
     '' using 5 title 'claims', '' using 6 title 'summing partials', '' using 7 title 'imbalance', '' using 8 title 'the rest'
""")
pts = [(float(r["model_bound_s"]) * 1e3, float(r["seconds"]) * 1e3, "%s %sgpu" % (r["problem"], r["gpus"]))
       for r in rows if r["config"] == "stationary-c" and math.isfinite(float(r["model_bound_s"]))]
roofline(prefix + "-roofline.png", "SpGEMM stationary-C: measured time against its roofline bound",
         "bound (ms): max(remote bytes / get bandwidth, flops / single-GPU cuSPARSE rate)", pts,
         os.path.join(tmp, "r.dat"))
# 4. strong scaling: one series per problem, configuration and tile grid, over the GPU counts
series = {}
for r in rows:
    if r["config"] == "cusparse-1gpu":
        continue
    series.setdefault((r["problem"], r["config"], r["tiles"]), []).append((int(r["gpus"]), float(r["seconds"]) * 1e3))
series = {k: sorted(v) for k, v in series.items() if len(set(g for g, _ in v)) > 1}
if series:
    plots = []
    for n, (key, pts) in enumerate(sorted(series.items())):
        d = os.path.join(tmp, "s%d.dat" % n)
        table(d, "# gpus ms", ["%d %g" % p for p in pts])
        plots.append("'%s' using 1:2 with linespoints lw 2 title '%s %s t%s'" % (d, key[0], key[1], key[2]))
    for n, c in enumerate(cases):
        r = val.get((c, "cusparse-1gpu"))
        if r:
            plots.append("%g with lines dt 2 title '%s cuSPARSE, 1 GPU'" % (float(r["seconds"]) * 1e3, c))
    gnuplot(f"""set terminal pngcairo size 1100,700 font ',10'
set output '{prefix}-scaling.png'
set title "SpGEMM strong scaling (answers checked)" noenhanced
set logscale y
set xlabel 'GPUs'
set ylabel 'ms (slowest PE, median)'
set xtics 1
set key outside right noenhanced
plot {', '.join(plots)}
""")
wrote([prefix + "-gflops.png", prefix + "-breakdown.png", prefix + "-roofline.png", prefix + "-scaling.png"])
