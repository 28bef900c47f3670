# plot_deep.gp: speedup over cusparseSpSV of each engine on the deep
# problems (a .dat from deep_dat.py: a header line "problem engine...", then
# label and speedups; cols = its number of columns, default 4)
# gnuplot -e "dat='results/h200-stepblock/final-deep.dat'; png='results/h200-stepblock/final-deep.png'; dev='H200'" plot_deep.gp
set terminal pngcairo size 1200,600 font ",10"
set output png
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 2
set yrange [0.005:256]
if (!exists("dev")) dev = "H200"
set ylabel sprintf("speedup over cusparseSpSV (same run, %s, double)", dev)
set xtics rotate by -30 left noenhanced
set grid ytics
set key top right
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "black" lw 2
if (!exists("cols")) cols = 4
set key autotitle columnhead
plot for [i=2:cols] dat using i:xtic(1) title columnhead(i)
