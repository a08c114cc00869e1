# SPDX-License-Identifier: BSD-2-Clause
# glibc time / memlane time by size, from memlane-bench --plot-dir data
# (columns: size libc rep-stosb store-loop memlane-avx2 memlane-avx512
# memlane; TSC cycles).
# Above 1: memlane faster.  gnuplot memset-ratio.gp
set terminal pngcairo size 1000,520 font ",10"
set output "memset-vs-glibc.png"
set title "memset on AMD EPYC (Zen 4), glibc 2.36: glibc cycles / memlane cycles, fixed size, hot buffer"
set logscale x 2
set xlabel "size (bytes, log scale)"
set ylabel "speed-up over glibc (1 = same)"
set yrange [0.6:2.0]
set grid
set key top left
set datafile missing "-"
set xtics ("1" 1, "16" 16, "64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576, "4M" 4194304, "16M" 16777216, "64M" 67108864)
plot 1 with lines lc rgb "gray" dt 2 notitle, \
     "memset-cycles-2026-11-29.dat" using ($1 > 0 ? $1 : 1):($2/$6) with linespoints pt 7 ps 0.5 title "memlane-avx512 (variant)", \
     "" using ($1 > 0 ? $1 : 1):($2/$7) with linespoints pt 7 ps 0.5 title "memlane (dispatched)", \
     "" using ($1 > 0 ? $1 : 1):($2/$4) with points pt 6 ps 0.8 title "store-loop (bandwidth limit)"
