# SPDX-License-Identifier: BSD-2-Clause
# memlane-bench charts.  `make bench` copies this script next to the data
# (build/bench/) and runs it there; by hand: cd build/bench && gnuplot
# memlane-bench.gp.  Data: medians written by memlane-bench --plot-dir:
#   table1-<function>[-mismatch][-<tag>].dat  size, then TSC cycles per
#       call of each implementation (one column each, "-" = not measured)
#   table2-<function>[-mismatch].dat  row (Short, Mid, ...), then GiB/s
# Charts: cycles-<name>.png/.svg (cycles per call vs size, log-size axis)
# and throughput.png/.svg (table 2, GiB/s by implementation, per row).

set datafile missing "-"
file_exists(f) = int(system("[ -f '" . f . "' ] && echo 1 || echo 0"))
ncols(f) = int(system("head -1 '" . f . "' | wc -w"))

functions = "memset memcmp bcmp timingsafe_bcmp timingsafe_memcmp"
colour(i) = (i - 2) % 8 + 1
dash(i) = (i - 2) / 8 + 1
mark(i) = ((i - 2) / 8 == 0) ? 7 : 6
set style line 1 lw 2

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1280,720 noenhanced font ",10"
    } else {
        set terminal svg size 1280,720 noenhanced font ",10"
    }

    # Table 1: every table1-*.dat, cycles per call vs size.
    files = system("ls table1-*.dat 2>/dev/null")
    do for [f in files] {
        name = f[8:strlen(f) - 4]
        set output sprintf("cycles-%s.%s", name, fmt)
        set title sprintf("%s: TSC cycles per call by size (median; empty measurement subtracted)", name)
        set xlabel "size in bytes (Ki = 1024, Mi = 1024^2; log scale; size 0 not shown)"
        set ylabel "TSC cycles per call (log scale)"
        set logscale x 2
        set logscale y 10
        set format x "%.0b%B"
        set format y "%.0s%c"
        set grid xtics ytics
        set key outside right top
        set xrange [*:*]
        n = ncols(f)
        # Past the 8 default colours, lines are dashed and marked alike,
        # so that no two implementations look the same.
        plot for [i=2:n] f using ($1 > 0 ? $1 : NaN):i with linespoints lc colour(i) dt dash(i) pt mark(i) ps 0.6 title columnheader(i)
        unset logscale
        set format x "%g"
        set format y "%g"
    }

    # Table 2: GiB/s per implementation, one panel per function.
    count = 0
    do for [fn in functions] { if (file_exists(sprintf("table2-%s.dat", fn))) { count = count + 1 } }
    if (count > 0) {
        set output sprintf("throughput.%s", fmt)
        rows = int(ceil(count / 2.0))
        set terminal push
        if (fmt eq "png") {
            set terminal pngcairo size 1280, 360 * rows noenhanced font ",9"
        } else {
            set terminal svg size 1280, 360 * rows noenhanced font ",9"
        }
        set multiplot layout rows, 2 title "memlane-bench table 2: throughput (GiB/s, median; higher is better)"
        set style data histograms
        set style histogram clustered gap 1
        set style fill solid 0.8 border -1
        set boxwidth 0.9
        set grid ytics
        unset xlabel
        # Log scale: Long is 10-100x Short, which would flatten the rest.
        set ylabel "GiB/s (log scale)"
        set logscale y 10
        set key outside right top
        set yrange [0.1:*]
        do for [fn in functions] {
            f = sprintf("table2-%s.dat", fn)
            if (file_exists(f)) {
                set title fn
                n = ncols(f)
                plot for [i=2:n] f using i:xtic(1) title columnheader(i)
            }
        }
        unset multiplot
        unset logscale
        set yrange [*:*]
        set style data points
    }
}
