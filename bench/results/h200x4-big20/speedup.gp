# gnuplot speedup.gp -> speedup.png (from speedup.dat: big/ and verify/ CSVs)
set terminal pngcairo size 900,560 font ",11"
set output "speedup.png"
set title "Random DAGs on 1, 2 and 4 H200s: pull solver over domino's single GPU (same command)"
set xlabel "PEs (GPUs)"
set ylabel "speed-up over domino-1gpu"
set xtics (1, 2, 4)
set xrange [0.8:4.3]
set yrange [0:3.5]
set key top left font ",10"
set grid ytics
plot "speedup.dat" u 1:2 w lp lw 2 pt 7 t "10^8 rows, 1000 levels (parallelism 10^5), pull-auto", \
     "" u 1:3 w lp lw 2 pt 5 t "10^7 rows, 1000 levels, pull-auto (LINKED, new threshold)", \
     "" u 1:4 w lp lw 1 dt 2 pt 4 t "10^7 rows, 1000 levels, level-tied pool (old AUTO)", \
     "" u 1:5 w lp lw 2 pt 9 t "10^7 rows, 10^4 levels, pull-auto (LINKED)", \
     "" u 1:6 w lp lw 1 dt 2 pt 8 t "10^7 rows, 10^4 levels, level-tied pool", \
     2 w l lc rgb "red" lw 1.5 dt 4 t "issue 7 target at 4 GPUs: 2x"
