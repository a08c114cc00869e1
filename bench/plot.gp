# SPDX-License-Identifier: BSD-2-Clause
# memlane-bench charts.  memlane-bench --plot-dir=DIR writes this script
# (built into the tool; installed as PREFIX/share/memlane/memlane-bench.gp)
# next to its data in DIR; then: cd DIR && gnuplot memlane-bench.gp.
# Data: medians written by memlane-bench --plot-dir:
#   table1-<function>[-mismatch][-<tag>].dat  size, then TSC cycles per
#       call of each implementation (one column each, "-" = not measured)
#   table2-<function>[-mismatch].dat  row (Short, Mid, ...), then GiB/s
# Charts, each as .png and .svg:
#   cycles-<name>   table 1, cycles per call by size: linear axes when the
#                   sizes end at 4 KiB or below (the default 0..1 KiB),
#                   log-log above
#   speedup-<name>  table 1 as speed-up over libc (libc's cycles divided by
#                   each implementation's; above 1 is faster than libc),
#                   where libc (or libc-memcmp, for timingsafe_*) was measured
#   throughput      table 2, GiB/s by implementation, a panel per function
# An implementation has the same colour in every chart and panel.

set datafile missing "-"
# The first line of a data file names the columns (the titles come from it).
set datafile columnheaders
file_exists(f) = int(system("[ -f '" . f . "' ] && echo 1 || echo 0"))
header(f) = system("head -1 '" . f . "'")

# Colours by implementation name: the known ones in a fixed order, then
# any other name found in the data, in order of appearance.
known = "libc memlane memlane-generic memlane-sse2 memlane-avx2 memlane-avx512 " . \
        "rep-stosb rep-stosq store-loop nt-store-loop bytewise-ct libc-memcmp openssl libsodium"
others = system("head -qn1 table*.dat 2>/dev/null | tr ' ' '\\n' | " . \
                "awk -v k='" . known . " size row' 'BEGIN { n = split(k, w, \" \"); " . \
                "for (i = 1; i <= n; i++) s[w[i]] = 1 } NF && !s[$0]++'")
names = known . " " . others
palette = "#d62728 #000000 #7f7f7f #2ca02c #1f77b4 #9467bd #ff7f0e #8c564b " . \
          "#17becf #bcbd22 #e377c2 #ff9896 #aec7e8 #98df8a #c5b0d5 #c49c94"
index_of(n, i) = i > words(names) ? words(names) + 1 : (word(names, i) eq n ? i : index_of(n, i + 1))
colour(n) = word(palette, (index_of(n, 1) - 1) % words(palette) + 1)
# Past the palette, the same colours again, dashed.
dash(n) = (index_of(n, 1) - 1) / words(palette) + 1
# The speed-up reference of a table 1 file: its libc column, else libc-memcmp.
column_of(h, n, i) = i > words(h) ? 0 : (word(h, i) eq n ? i : column_of(h, n, i + 1))
libc_column(h) = column_of(h, "libc", 2) ? column_of(h, "libc", 2) : column_of(h, "libc-memcmp", 2)

set style line 1 lw 2

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1280,720 noenhanced font ",10"
    } else {
        set terminal svg size 1280,720 noenhanced font ",10"
    }

    # Table 1: every table1-*.dat.
    files = system("ls table1-*.dat 2>/dev/null")
    do for [f in files] {
        name = f[8:strlen(f) - 4]
        h = header(f)
        n = words(h)
        stats f using 1 nooutput
        small = STATS_max <= 4096
        set grid xtics ytics
        set key outside right top
        set xrange [*:*]
        set yrange [*:*]
        if (small) {
            set xlabel "size in bytes"
            set format x "%g"
            unset logscale x
        } else {
            set xlabel "size in bytes (Ki = 1024, Mi = 1024^2; log scale; size 0 not shown)"
            set format x "%.0b%B"
            set logscale x 2
        }

        set output sprintf("cycles-%s.%s", name, fmt)
        set title sprintf("%s: TSC cycles per call by size (median; empty measurement subtracted; lower is better)", name)
        if (small) {
            set ylabel "TSC cycles per call"
            set format y "%g"
            unset logscale y
            set yrange [0:*]
            plot for [i=2:n] f using 1:i with linespoints lc rgb colour(word(h, i)) dt dash(word(h, i)) \
                pt 7 ps 0.5 title word(h, i)
        } else {
            set ylabel "TSC cycles per call (log scale)"
            set format y "%.0s%c"
            set logscale y 10
            plot for [i=2:n] f using ($1 > 0 ? $1 : NaN):i with linespoints lc rgb colour(word(h, i)) \
                dt dash(word(h, i)) pt 7 ps 0.5 title word(h, i)
        }

        b = libc_column(h)
        if (b > 0) {
            set output sprintf("speedup-%s.%s", name, fmt)
            set title sprintf("%s: speed-up over %s by size (%s's cycles / each one's; above 1 is faster)", \
                name, word(h, b), word(h, b))
            set ylabel sprintf("speed-up over %s", word(h, b))
            set format y "%g"
            unset logscale y
            set yrange [0:*]
            plot for [i=2:n] f using ((small || $1 > 0) && i != b && column(i) > 0 ? $1 : NaN):(column(b) / column(i)) \
                with linespoints lc rgb colour(word(h, i)) dt dash(word(h, i)) pt 7 ps 0.5 \
                title (i == b ? "" : word(h, i)), \
                1 with lines lc rgb "#404040" dt 2 notitle
        }
        unset logscale
        set format x "%g"
        set format y "%g"
        set yrange [*:*]
    }

    # Table 2: GiB/s per implementation, one panel per function.
    functions = "memset memcmp bcmp timingsafe_bcmp timingsafe_memcmp"
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
                h = header(f)
                n = words(h)
                plot for [i=2:n] f using i:xtic(1) lc rgb colour(word(h, i)) title word(h, i)
            }
        }
        unset multiplot
        unset logscale
        set yrange [*:*]
        set style data points
    }
}
