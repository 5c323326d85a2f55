#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures issue 10's figures at 10^7 and 10^8 accesses in one run and prints them side by side with
# their growth: the writer (time, throughput, file size, peak RSS), the half-axis queries, the
# viewer, and the Lackey import (the synthetic log and a real one, `gzip -9` recorded under
# Valgrind). Each benchmark's own output is kept in DIR; the summary goes to DIR/growth.md and to
# the terminal, and gnuplot (Debian's gnuplot-nox) draws it into DIR/growth.png. Needs about 16 GB
# free in DIR and 7-15 minutes on 2 cores; run it on a quiet machine, since the writer's figures
# move with the load.
#
#   scripts/growth-bench.sh [--runs N] [DIR]     (default: 3 writer and import runs, DIR growth-bench)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)

runs=3
dir=growth-bench
while [[ $# -gt 0 ]]; do
    case "$1" in
    --runs)
        runs=${2:?--runs needs a number}
        shift 2
        ;;
    -h | --help)
        sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    -*)
        echo "growth-bench: unknown option $1" >&2
        exit 2
        ;;
    *)
        dir=$1
        shift
        ;;
    esac
done
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "growth-bench: --runs takes a positive number, not '$runs'" >&2
    exit 2
fi

bash scripts/install-deps.sh --plot
bash scripts/build.sh
bench=$repo/build/benchmarks
memhist=$repo/build/app/memhist/memhist
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export QT_QPA_PLATFORM=offscreen

# The median of the numbers on stdin, one per line.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# min-max of the numbers on stdin.
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }
# The largest of the numbers on stdin.
largest() { sort -g | tail -1; }
# Field `column` of the lines matching the awk regex `pattern` in the files named.
field() {
    local pattern=$1 column=$2
    shift 2
    awk -v p="$pattern" -v c="$column" '$0 ~ p { print $c }' "$@"
}

echo "growth-bench: the writer, $runs runs at each size (the first one kept for the queries and the viewer)"
for size in 10000000 100000000; do
    for run in $(seq 1 "$runs"); do
        keep=()
        if [[ $run -eq 1 ]]; then
            rm -rf "$dir/history-$size"
            keep=(--keep --dir "$dir/history-$size")
        fi
        "$bench/memhist-bench" --accesses "$size" --queries 0 --no-references "${keep[@]}" \
            > "$dir/writer-$size-$run.txt" 2>&1
        echo "  $size accesses, run $run: $(field '^  throughput ' 2 "$dir/writer-$size-$run.txt") M accesses/s"
    done
done
small=$dir/history-10000000/bench.memhist
large=$dir/history-100000000/bench.memhist

echo "growth-bench: the queries"
"$bench/memhist-bench" --query-only "$small" --query-only "$large" --warm --queries 500 > "$dir/queries.txt" 2>&1
echo "growth-bench: the viewer"
"$bench/memhist-plane-bench" --with "$small" --with "$large" --rounds 3 > "$dir/viewer.txt" 2>&1

echo "growth-bench: the Lackey import (a real log: gzip -9 recorded under Valgrind, then the synthetic one)"
libc=$(ldconfig -p | awk '/libc\.so\.6 .*x86-64/ { print $NF; exit }')
head -c 300000 "${libc:-/bin/sh}" > "$dir/gzip-input"
rm -f "$dir/gzip.lackey" "$dir/gzip.memhist"
"$memhist" record --max-instructions 10700000 --keep-log "$dir/gzip.lackey" -o "$dir/gzip.memhist" \
    -- gzip -9 -c "$dir/gzip-input" > "$dir/record.txt" 2>&1
for run in $(seq 1 "$runs"); do
    "$bench/memhist-import-bench" --trace "$dir/gzip.lackey" > "$dir/import-real-$run.txt" 2>&1
    "$bench/memhist-import-bench" > "$dir/import-synthetic-$run.txt" 2>&1
done

# One figure of the writer's runs at one size: size, field pattern, column, then how to summarise
# the runs (median, range or largest).
writer_figure() { field "$2" "$3" "$dir"/writer-"$1"-*.txt | $4; }
# A table row (label, then writer_figure's arguments but the size) and the same figure as plot data.
writer_row() { printf '| %s | %s | %s |\n' "$1" "$(writer_figure 10000000 "${@:2}")" "$(writer_figure 100000000 "${@:2}")"; }
writer_data() { printf '"10^7" %s\n"10^8" %s\n' "$(writer_figure 10000000 "$@")" "$(writer_figure 100000000 "$@")"; }
end_to_end() { field '^  end to end :' 14 "$@"; }
synthetic_median=$(end_to_end "$dir"/import-synthetic-*.txt | median)
real_median=$(end_to_end "$dir"/import-real-*.txt | median)
commit=$(git -C "$repo" rev-parse --short HEAD)

{
    echo "# Growth from 10^7 to 10^8 accesses"
    echo
    echo "\`scripts/growth-bench.sh --runs $runs\`, $(date -u +%Y-%m-%dT%H:%MZ), $commit,"
    echo "$(nproc) processors ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)),"
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
    echo
    echo "## The writer (\`memhist-bench --accesses N --queries 0 --no-references\`, $runs runs)"
    echo
    echo "| | 10^7 | 10^8 |"
    echo "|---|---:|---:|"
    writer_row "throughput, M accesses/s (median)" '^  throughput ' 2 median
    writer_row "throughput, M accesses/s (all runs)" '^  throughput ' 2 range
    writer_row "time, s (all runs)" '^  time ' 2 range
    writer_row "of which finish(), s (all runs)" '^  of which finish ' 4 range
    writer_row "file, bytes per access" '^  file +[0-9]+ bytes' 4 median
    writer_row "peak RSS, MiB (all runs)" '^  peak RSS ' 3 range
    echo
    echo "## The queries (\`memhist-bench --query-only\` both, \`--warm --queries 500\`)"
    echo
    echo '```'
    sed -n '/^First page, CPU time/,$p' "$dir/queries.txt"
    echo '```'
    echo
    echo "## The viewer (\`memhist-plane-bench --with\` both, \`--rounds 3\`)"
    echo
    echo '```'
    sed -n '/^ *| with summary/,$p' "$dir/viewer.txt"
    echo '```'
    echo
    echo "## The Lackey import (\`memhist-import-bench\`, end to end, $runs runs)"
    echo
    echo "| log | accesses | end to end, M accesses/s (median) | all runs |"
    echo "|---|---:|---:|---:|"
    echo "| synthetic (the default) | $(field '^  end to end :' 5 "$dir/import-synthetic-1.txt") |" \
        "$synthetic_median | $(end_to_end "$dir"/import-synthetic-*.txt | range) |"
    echo "| \`gzip -9\` under \`memhist record --keep-log\` | $(field '^  end to end :' 5 "$dir/import-real-1.txt") |" \
        "$real_median | $(end_to_end "$dir"/import-real-*.txt | range) |"
} > "$dir/growth.md"
cat "$dir/growth.md"

# The plot: one panel per target, 10^7 and 10^8 side by side, the target as a line.
writer_data '^  throughput ' 2 median > "$dir/plot-writer.dat"
writer_data '^  file +[0-9]+ bytes' 4 median > "$dir/plot-file.dat"
writer_data '^  peak RSS ' 3 largest > "$dir/plot-rss.dat"
printf '"synthetic log" %s\n"gzip -9 log" %s\n' "$synthetic_median" "$real_median" > "$dir/plot-import.dat"
# The worse direction of each window and page: label, p99 at 10^7, p99 at 10^8 (summary, CPU).
awk '/^First page, CPU time/ { page = "first" } /^Next page, CPU time/ { page = "next" }
     /^Slices visited/ { page = "" }
     page != "" && $3 ~ /^(forward|backward)$/ {
         key = $1 " " $2 ", " page
         if (!(key in small)) order[++n] = key
         if ($6 > small[key]) small[key] = $6
         if ($9 > large[key]) large[key] = $9
     }
     END { for (i = 1; i <= n; ++i) printf "\"%s\" %s %s\n", order[i], small[order[i]], large[order[i]] }' \
    "$dir/queries.txt" > "$dir/plot-queries.dat"
awk -F'|' '/open -> first complete view|view kind .*: p99/ {
         label = $1; sub(/^ +/, "", label); sub(/ +$/, "", label); sub(/^view kind /, "", label)
         split($2, v, " "); printf "\"%s\" %s %s\n", label, v[1], v[2]
     }' "$dir/viewer.txt" > "$dir/plot-viewer.dat"
gnuplot <<GNUPLOT
set terminal pngcairo size 1800,1000 font "sans,10"
set output "$dir/growth.png"
set multiplot layout 2,3 margins 0.04, 0.99, 0.12, 0.91 spacing 0.05, 0.16 title "memhist at 10^7 and 10^8 accesses (scripts/growth-bench.sh, $commit)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key top left
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set title "Writer throughput (median of $runs runs), M accesses/s"
plot "$dir/plot-writer.dat" using 2:xtic(1) title "measured" lc rgb "#4477aa", 1.5 with lines lw 2 lc rgb "#cc3311" title "target >= 1.5"
set title "History file, bytes per access"
plot "$dir/plot-file.dat" using 2:xtic(1) title "measured" lc rgb "#4477aa", 65 with lines lw 2 lc rgb "#cc3311" title "target <= 65"
set title "Writer peak RSS (the largest of $runs runs), MiB"
plot "$dir/plot-rss.dat" using 2:xtic(1) title "measured" lc rgb "#4477aa", 256 with lines lw 2 lc rgb "#cc3311" title "target <= 256"
set title "Query p99 per page, ms of CPU (the worse direction; address summary)"
set xtics rotate by -35
plot "$dir/plot-queries.dat" using 2:xtic(1) title "10^7" lc rgb "#88ccee", "" using 3 title "10^8" lc rgb "#4477aa", 5 with lines lw 2 lc rgb "#cc3311" title "target <= 5 ms at 10^8"
set title "Viewer, ms from the change to the finished image (p99 per view kind)"
plot "$dir/plot-viewer.dat" using 2:xtic(1) title "10^7" lc rgb "#88ccee", "" using 3 title "10^8" lc rgb "#4477aa", 200 with lines lw 2 lc rgb "#cc3311" title "target <= 200 ms (first view <= 1000 ms)"
set title "Lackey import end to end (median of $runs runs), M accesses/s"
set xtics norotate
plot "$dir/plot-import.dat" using 2:xtic(1) title "measured" lc rgb "#4477aa", 1.2 with lines lw 2 lc rgb "#cc3311" title "target >= 1.2"
unset multiplot
GNUPLOT
echo "growth-bench: the summary is in $dir/growth.md, the plot in $dir/growth.png"
