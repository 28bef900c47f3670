# gnuplot speedup.gp -> speedup.png (from speedup.dat)
set terminal pngcairo size 900,500 font ',11'
set output 'speedup.png'
set title "Multi-GPU pull solver over domino's one GPU, 10^7-row DAGs (H200, same command)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel 'speed-up over one GPU'
set yrange [0:3.2]
set key top right
set arrow from graph 0, first 1.5 to graph 1, first 1.5 nohead dt 2 lc rgb '#aa0000'
set arrow from graph 0, first 2.0 to graph 1, first 2.0 nohead dt 2 lc rgb '#0000aa'
set label 'issue 5: 2 PEs 1.5x' at graph 0.01, first 1.56 tc rgb '#aa0000'
set label 'issue 7: 4 PEs 2x' at graph 0.01, first 2.06 tc rgb '#0000aa'
plot 'speedup.dat' using 2:xtic(1) title '2 PEs before', '' using 3 title '2 PEs now', \
     '' using 4 title '4 PEs before', '' using 5 title '4 PEs now'
