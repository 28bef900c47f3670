# gnuplot stage.gp (in bench/results/h200x2-next22): stage.png and first.png
set terminal pngcairo size 900,440 font ",11"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set key top left noenhanced
set grid ytics
set ylabel "ms (lower is better)"
set output "stage.png"
set yrange [0:4.8]
set title "Stencil compact copy of a 192^3 lower triangle, one H200: rows staged in shared memory or not"
plot "stage.dat" using 2:xtic(1) title "unstaged (DOMINO_STENCIL_STAGE=0)", "" using 3 title "staged (default from 8 entries a row; D3N7 stays unstaged)"
set output "first.png"
set yrange [0:2.8]
set title "D3N27 first solve of the trsv plan, one H200, same command"
plot "first.dat" using 2:xtic(1) title "0f93866 (tile order made by the first solve)", "" using 3 title "31ba59d (made during the analysis)", "" using 4 title "steady solve (31ba59d)"
