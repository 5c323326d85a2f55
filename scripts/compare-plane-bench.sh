#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compares two builds' memhist-plane-bench on one history: runs each build's benchmark RUNS times,
# alternating (so that the shared machine's load falls on both alike), and prints each figure's
# median and minimum over the runs, side by side. Used to check that a change to the viewer leaves
# the plane's figures unchanged or better (docs/benchmarks.md, "Viewer rendering").
#
#   bash scripts/compare-plane-bench.sh OLD_BUILD_DIR NEW_BUILD_DIR HISTORY [RUNS] [-- BENCH OPTIONS]
#   bash scripts/compare-plane-bench.sh ../old/build build summary-1e7/bench.memhist 5
#
# With --detail among the bench options, the renderer's own times (best of 3 per run) are compared
# instead of the times from the change to the finished image.
set -euo pipefail

if (($# < 3)); then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
old=$1
new=$2
history=$3
runs=${4:-5}
shift $(($# < 4 ? 3 : 4))
[[ ${1:-} == -- ]] && shift
for build in "$old" "$new"; do
    if [[ ! -x $build/benchmarks/memhist-plane-bench ]]; then
        echo "compare-plane-bench: $build/benchmarks/memhist-plane-bench: no such program (build the benchmarks first)" >&2
        exit 1
    fi
done
if [[ ! -f $history ]]; then
    echo "compare-plane-bench: $history: no such history" >&2
    exit 1
fi
detail=false
for option in "$@"; do
    [[ $option == --detail ]] && detail=true
done

# One run of one build, as lines "figure|build|value".
run() {
    local label=$1 build=$2
    if $detail; then
        # The renderer's table (stderr): the figure's name in the first 48 columns, then wall ms.
        QT_QPA_PLATFORM=offscreen "$build/benchmarks/memhist-plane-bench" --with "$history" --rounds 1 "$@" \
            2>&1 >/dev/null | awk -v b="$label" '/^  [a-zA-Z0-9\/].*  [0-9]+  / {
                name = substr($0, 1, 48); gsub(/^ +| +$/, "", name); split(substr($0, 49), f, " ");
                print name "|" b "|" f[1] }'
    else
        QT_QPA_PLATFORM=offscreen "$build/benchmarks/memhist-plane-bench" --with "$history" "$@" 2>/dev/null \
            | awk -F'|' -v b="$label" 'NF == 2 && $2 ~ /^ *[0-9.]+ *$/ {
                name = $1; gsub(/^ +| +$/, "", name); value = $2; gsub(/ /, "", value); print name "|" b "|" value }'
    fi
}

results=$(for ((i = 0; i < runs; ++i)); do
    run old "$old" "$@"
    run new "$new" "$@"
done)

printf '%-45s | %17s | %17s\n' "$runs runs each, ms (RSS MiB)" "old median (min)" "new median (min)"
# Median and minimum of each figure and build, in the benchmark's order.
order=$(printf '%s\n' "$results" | awk -F'|' '!seen[$1]++ { print $1 }')
while IFS= read -r figure; do
    cells=()
    for label in old new; do
        values=$(printf '%s\n' "$results" | awk -F'|' -v f="$figure" -v b="$label" '$1 == f && $2 == b { print $3 }' | sort -g)
        count=$(printf '%s\n' "$values" | grep -c . || true)
        if ((count == 0)); then
            cells+=("-")
            continue
        fi
        median=$(printf '%s\n' "$values" | awk -v n="$count" 'NR == int((n + 1) / 2) { m = $1 } NR == int(n / 2) + 1 { m2 = $1 } END { print (n % 2 ? m : (m + m2) / 2) }')
        minimum=$(printf '%s\n' "$values" | head -1)
        cells+=("$(printf '%s (%s)' "$median" "$minimum")")
    done
    printf '%-45s | %17s | %17s\n' "$figure" "${cells[0]}" "${cells[1]}"
done <<<"$order"
