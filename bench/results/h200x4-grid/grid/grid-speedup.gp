# gnuplot grid-speedup.gp (in this folder): grid-speedup.png from grid-speedup.dat
set terminal pngcairo size 1100,600 font ',10'
set output 'grid-speedup.png'
set title "Multi-GPU pull solver on 4 x H200: speed-up over domino's single GPU by persistent grid" noenhanced
set xlabel 'blocks of 128 threads per SM (16 = all that fit, the grid before; 12 = the new default)'
set ylabel "x domino single GPU (same command)"
set key outside right noenhanced
set grid
set xtics (4,6,8,12,16)
set logscale y
# a colour per problem: level-tied tasks solid, 8 tasks per PE dashed
plot for [k=0:4] 'grid-speedup.dat' using 1:(column(2+2*k)) with linespoints lw 2 lc k+1 dt 1 title columnheader(2+2*k), \
     for [k=0:4] 'grid-speedup.dat' using 1:(column(3+2*k)) with linespoints lw 2 lc k+1 dt 2 title columnheader(3+2*k)
