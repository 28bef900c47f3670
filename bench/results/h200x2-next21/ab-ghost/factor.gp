# gnuplot ab-ghost/factor.gp (from bench/results/h200x2-next21): factor.png
set terminal pngcairo size 900,480 font ",11"
set output "ab-ghost/factor.png"
set title "D3N27 ILU(0)/IC(0) factorization on one H200 (same command): AUTO, box path with masks, ghost layer"
set ylabel "ms (lower is better)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left
set grid ytics
set yrange [0:22]
set xtics rotate by -20
plot "ab-ghost/factor.dat" using 2:xtic(1) title "AUTO (as shipped)", \
     "" using 3 title "box path with masks, forced", \
     "" using 4 title "ghost layer (reverted), forced"
