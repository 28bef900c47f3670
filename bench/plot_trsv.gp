# plot_trsv.gp: speedup over cusparseSpSV per problem (solve, and analysis + first solve)
# gnuplot -e "dat='results/h100-final/trsv-speedup.dat'; png='results/h100-final/trsv-speedup.png'" plot_trsv.gp
# (dev='H200' names another device in the axis label)
set terminal pngcairo size 1600,700 font ",10"
set output png
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y 2
set yrange [0.01:1000]
if (!exists("dev")) dev = "H100"
set ylabel sprintf("speedup over cusparseSpSV (same run, %s, double)", dev)
set xtics rotate by -60 left noenhanced
set grid ytics
set key top left
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "black" lw 2
# ceiling=1: a third bar, cusparse's solve over cusparseSpMV of the same
# triangle (the speedup of a solve as fast as the dependency-free product)
if (exists("ceiling")) {
  set yrange [0.01:32768]
  plot dat using 4:xtic(2) title "solve (auto engine)", '' using 5 title "analysis + first solve", \
       '' using ($7 > 0 ? $7 : 1/0) title "cusparseSpMV of the same triangle (no dependencies)"
} else {
  plot dat using 4:xtic(2) title "solve (auto engine)", '' using 5 title "analysis + first solve"
}
