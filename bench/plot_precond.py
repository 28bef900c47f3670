"""plot_precond.py: the plots of `domino bench --suite precond` from its CSV.

    python3 bench/plot_precond.py results/h100-precond10/precond.csv results/h100-precond10/precond

writes PREFIX-speedup.png (factorization and time to solution over the
cuSPARSE loop, per problem and factorization, log scale, with the issue's
3x and 2x targets drawn) and PREFIX-setup.png (time to solution split into
setup parts and iterations, ours beside the cuSPARSE loop's, both over the
cuSPARSE loop's total), and the .dat
tables they are drawn from."""
import csv, sys

from plot_common import gflops_histogram, gnuplot, table, wrote


def main():
    src, prefix = sys.argv[1], sys.argv[2]
    rows = [r for r in csv.DictReader(open(src)) if r["status"].strip('"') == "ok"]
    cases = ['"%s %s"' % (r["problem"].replace("^3", "³").replace(".mtx", ""), r["factor"]) for r in rows]
    speed = prefix + "-speedup.dat"
    table(speed, "case factorization time_to_solution",
          ["%s %s %g" % (c, r["factor_speedup"],
                         float(r["cusparse_time_to_solution_ms"]) / float(r["time_to_solution_ms"]))
           for c, r in zip(cases, rows)])
    gflops_histogram(prefix + "-speedup.png",
                     "precond suite: ours over the cuSPARSE loop (csrilu02/csric02 + SpSV), same run",
                     speed, ["factorization", "time_to_solution"], ylabel="speedup (targets: 3x, 2x on 3D)",
                     settings="""set logscale y 2
set yrange [0.5:16]
set xtics rotate by -50 left noenhanced
set arrow from graph 0, first 3 to graph 1, first 3 nohead dt 2 lc rgb '#1f77b4'
set arrow from graph 0, first 2 to graph 1, first 2 nohead dt 2 lc rgb '#ff7f0e'
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black' lw 2
""")
    setup = prefix + "-setup.dat"
    lines = []
    for c, r in zip(cases, rows):
        scale = float(r["cusparse_time_to_solution_ms"])
        for who, tag in (("", "ours"), ("cusparse_", "cuSPARSE")):
            parts = [float(r[who + k]) for k in ("factor_analysis_ms", "setup_factor_ms", "trsv_analysis_ms",
                                                 "solve_ms")]
            lines.append('"%s %s" %g %g %g %g' % ((c.strip('"'), tag) + tuple(p / scale for p in parts)))
    table(setup, "case factor_analysis factorization trsv_analyses iterations", lines)
    gnuplot(f"""set terminal pngcairo size 1700,700 font ',9'
set output '{prefix}-setup.png'
set title "time to solution over the cuSPARSE loop's, split into setup parts and iterations (each problem: ours, then cuSPARSE = 1)" noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.8
set yrange [0:1.1]
set ylabel "fraction of the cuSPARSE loop's time to solution"
set xtics rotate by -60 left noenhanced font ',8'
set grid ytics
set key outside top center horizontal noenhanced
plot for [i=2:5] '{setup}' using i:xtic(1) title columnheader(i)
""")
    wrote([prefix + "-speedup.png", prefix + "-setup.png"])


if __name__ == "__main__":
    main()
