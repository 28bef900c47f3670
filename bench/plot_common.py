"""plot_common.py: what the plots of the distributed SpMM and SpGEMM suites
(plot_spmm.py, plot_spgemm.py) share: gnuplot runs, data tables, the
GFLOP/s histogram and the roofline scatter."""
import os, subprocess


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def table(path, header, lines):
    with open(path, "w") as f:
        f.write(header + "\n")
        for l in lines:
            f.write(l + "\n")


def gflops_histogram(png, title, dat, configs, settings="", ylabel="GFLOP/s"):
    """clustered histogram of the columns 2.. of dat (a case per row, a
    configuration per column); settings: more gnuplot lines"""
    gnuplot(f"""set terminal pngcairo size 1400,600 font ',10'
set output '{png}'
set title "{title}" noenhanced
set style data histograms
set style histogram clustered gap 2
set style fill solid 0.8 border -1
set key outside right noenhanced
set grid ytics
{settings}set ylabel '{ylabel}'
plot for [i=2:{len(configs) + 1}] '{dat}' using i:xtic(1) title columnheader(i)
""")


def roofline(png, title, xlabel, pts, dat):
    """measured against bound (pts: (bound ms, measured ms, label)), log-log,
    with the diagonal where they meet"""
    table(dat, "# bound measured case", ['%g %g "%s"' % p for p in pts])
    if not pts:
        return
    top = max(max(p[0], p[1]) for p in pts) * 2
    gnuplot(f"""set terminal pngcairo size 800,700 font ',10'
set output '{png}'
set title "{title}" noenhanced
set logscale xy
set xlabel '{xlabel}'
set ylabel 'measured (ms)'
set key top left
plot [:{top}][:{top}] x title 'measured = bound' lw 2, '{dat}' using 1:2 with points pt 7 ps 1.5 title 'runs', \\
     '' using 1:2:3 with labels offset 0,1 noenhanced notitle
""")


def wrote(paths):
    print("wrote", ", ".join(p for p in paths if os.path.exists(p)))
