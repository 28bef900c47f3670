# plot_setup_ab.gp: analysis + first solve over cusparseSpSV per problem,
# base against new (columns: index, problem, x_base, x_new)
# gnuplot -e "dat='setup-ratio.dat'; png='setup-ratio.png'; dev='H100'" bench/plot_setup_ab.gp
set terminal pngcairo size 1400,600 font ",9"
set output png
set title sprintf("analysis + first solve, x cusparseSpSV (%s, same command)", dev)
set logscale y
set grid ytics
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -60 scale 0
set ylabel "x cusparseSpSV (log)"
set key top left
plot dat using 3:xtic(2) title "base cf3ee30", '' using 4 title "workspace pool, kept events (13d975a)"
