# plot_stencil.gp: effective bandwidth per stencil problem, every structured variant and cuSPARSE
# gnuplot -e "dat='results/h100-stencil/stencil-bandwidth.dat'; png='results/h100-stencil/stencil-bandwidth.png'" plot_stencil.gp
# (dev='H200' names another GPU in the label; H100 when not given; ablation=0
# for a run of stencil, stencil-compact and cusparse alone)
set terminal pngcairo size 1700,700 font ",10"
set output png
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y 2
set yrange [16:4096]
if (!exists("dev")) dev = "H100"
set ylabel sprintf("effective GB/s = (CSR bytes of the triangle + 2 vectors) / solve time  (%s, double)", dev)
set xtics rotate by -60 left noenhanced
set grid ytics
set key top left
# ablation=0: a run without the paper's steps (their columns nan) plots
# cuSPARSE and the two input forms only
if (!exists("ablation")) ablation = 1
if (ablation) {
plot dat using 8:xtic(2) title "cusparseSpSV", '' using 5 title "partition (paper step 1)", \
     '' using 6 title "+ multistage", '' using 7 title "+ compressed state", \
     '' using 3 title "domino, CSR input", '' using 4 title "domino, compact input"
} else {
plot dat using 8:xtic(2) title "cusparseSpSV", \
     '' using 3 title "domino, CSR input", '' using 4 title "domino, compact input"
}
