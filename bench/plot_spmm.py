#!/usr/bin/env python3
"""plot_spmm.py CSV PREFIX: the plots of a `--suite spmm` CSV (only rows whose
product was checked, status ok):
  PREFIX-gflops.png     GFLOP/s of every configuration per problem and width
                        (cuSPARSE on one GPU beside the multi-GPU ones);
  PREFIX-breakdown.png  the one-sided algorithms' time split into local
                        products (the busiest PE's), time lost to imbalance,
                        and the rest (communication and overheads);
  PREFIX-roofline.png   stationary-C's measured time (by tiles and by row
                        blocks) against the roofline bound of its run
                        (points on the diagonal meet it; the bound takes
                        cuSPARSE's single-GPU rate, so local products on a
                        faster kernel can fall below it)."""
import csv, math, os, sys, tempfile

from plot_common import gflops_histogram, gnuplot, roofline, table, wrote

src, prefix = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(src)) if r["status"] == "ok"]
cases = list(dict.fromkeys("%s w%s" % (r["problem"], r["width"]) for r in rows))
configs = list(dict.fromkeys(r["config"] for r in rows))
val = {("%s w%s" % (r["problem"], r["width"]), r["config"]): r for r in rows}


tmp = tempfile.mkdtemp()
# 1. GFLOP/s
d1 = os.path.join(tmp, "g.dat")
table(d1, "case " + " ".join(configs),
      ['"%s" ' % c + " ".join(val[(c, k)]["gflops"] if (c, k) in val else "nan" for k in configs) for c in cases])
gflops_histogram(prefix + "-gflops.png", "SpMM GFLOP/s (answers checked)\\n%s" % os.path.basename(src), d1, configs,
                 "set xtics noenhanced rotate by -20\n")
# 2. breakdown of the one-sided algorithms
one = [k for k in configs if k.startswith("stationary")]
lines = []
for c in cases:
    for k in one:
        r = val.get((c, k))
        if not r:
            continue
        total, comp, imb = float(r["seconds"]) * 1e3, float(r["compute_max_s"]) * 1e3, float(r["imbalance_max_s"]) * 1e3
        comp = comp if math.isfinite(comp) else 0.0
        rest = max(total - comp - imb, 0.0)
        lines.append('"%s %s" %g %g %g' % (c, k.replace("stationary-", "st-"), comp, imb, rest))
d2 = os.path.join(tmp, "b.dat")
table(d2, "case compute imbalance rest", lines)
if lines:
    gnuplot(f"""set terminal pngcairo size 1400,600 font ',10'
set output '{prefix}-breakdown.png'
set title "one-sided SpMM: where the slowest PE's time goes (ms)" noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set key outside right
set xtics noenhanced rotate by -30
set ylabel 'ms'
plot '{d2}' using 2:xtic(1) title 'local products', '' using 3 title 'imbalance', '' using 4 title 'communication and the rest'
""")
# 3. roofline: measured against the bound
pts = [(float(r["model_bound_s"]) * 1e3, float(r["seconds"]) * 1e3,
        "%s w%s%s" % (r["problem"], r["width"], " rows" if r["config"] != "stationary-c" else ""))
       for r in rows if r["config"] in ("stationary-c", "stationary-c-rows") and math.isfinite(float(r["model_bound_s"]))]
roofline(prefix + "-roofline.png", "stationary-C (tiles, row blocks): measured time against its roofline bound",
         "bound (ms): max(remote bytes / get bandwidth, flops / cuSPARSE rate)", pts, os.path.join(tmp, "r.dat"))
wrote([prefix + "-gflops.png", prefix + "-breakdown.png", prefix + "-roofline.png"])
