#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures `memhist record` with memhist's own Valgrind tool on `gzip -9 -c` of a generated 1 MiB
# text (issue 26's benchmark) and prints, each figure measured in this run:
# - the whole recording (program start to complete history), wall-clock, and its accesses/s;
# - the same program recorded with --backend lackey, time-boxed with --max-instructions, and its
#   accesses/s: the ratio tool / lackey;
# - the stream the recording kept (--keep-stream), replayed into the writer alone (memhist import):
#   the ratio recording / replay;
# - the peak resident memory of the recording, memhist and valgrind together (sampled every 50 ms);
# - what the values and before bytes cost: the pages of access_value_blocks (SQLite's dbstat) per
#   access;
# - the storage floor (memhist-storage-floor): the recording's slices, chunks, accesses and index
#   keys stored again with the writer's pragmas and statements, timing only the storing. No
#   recording into this storage model can be faster, so floor / lackey bounds the ratio above.
# Usage: scripts/record-bench.sh [--runs N] [--lackey-instructions M]   (after scripts/build.sh)
# MEMHIST=path and MEMHIST_STORAGE_FLOOR=path measure other binaries than the build's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs=3
lackeyInstructions=20000000
while [[ $# -gt 0 ]]; do
    case "$1" in
    --runs) runs=$2; shift 2 ;;
    --lackey-instructions) lackeyInstructions=$2; shift 2 ;;
    *) echo "usage: scripts/record-bench.sh [--runs N] [--lackey-instructions M]" >&2; exit 2 ;;
    esac
done

# MEMHIST and MEMHIST_STORAGE_FLOOR run other binaries (a copy kept apart from a build going on).
memhist=${MEMHIST:-build/app/memhist/memhist}
floor=${MEMHIST_STORAGE_FLOOR:-build/benchmarks/memhist-storage-floor}
[[ -x $memhist ]] || { echo "record-bench: build memhist first (scripts/build.sh)" >&2; exit 1; }
[[ -x $floor ]] || { echo "record-bench: build memhist-storage-floor first (ninja -C build memhist-storage-floor)" >&2; exit 1; }
work=$(mktemp -d)
# On a failure, what the failing step said (its stderr is kept in $work) before it goes.
trap 'status=$?; if ((status != 0)); then tail -n 5 "$work"/*.err >&2 2>/dev/null; fi; rm -rf "$work"' EXIT

# 1 MiB of text from a fixed vocabulary, the same every time (awk's seeded generator).
awk 'BEGIN {
    srand(26); split("memory history access transition address value write read slice chunk query " \
        "function source line region thread kernel stack heap module record stream writer index", words, " ");
    size = 0;
    while (size < 1048576) { w = words[int(rand() * 25) + 1]; printf "%s%s", w, (rand() < 0.1 ? "\n" : " "); size += length(w) + 1 }
}' > "$work/text.txt"

now() { date +%s.%N; }
# Arithmetic on decimals: awk, which every Debian has (bc is not always installed).
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }

# Runs "$@" in the background, samples the resident memory of it and its children (memhist and
# valgrind, which runs the program in its own process) every 50 ms, and sets peakKiB and seconds once
# it has ended.
runMeasured() {
    local start pid rss
    start=$(now)
    "$@" &
    pid=$!
    peakKiB=0
    while kill -0 "$pid" 2>/dev/null; do
        # ps fails when the process ends between the test and this sample: not an error here.
        rss=$({ ps -o rss= -p "$pid" --ppid "$pid" 2>/dev/null || true; } | awk '{ sum += $1 } END { print sum + 0 }')
        ((rss > peakKiB)) && peakKiB=$rss
        sleep 0.05
    done
    wait "$pid"
    seconds=$(calc "$(now) - $start" 3)
}

accessesOf() {
    "$memhist" info "$1" | awk '/^accesses:/ { gsub(",", "", $2); print $2; exit }'
}

echo "record-bench: gzip -9 -c of a 1 MiB text, $runs runs of each, $(nproc) processors, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %10s %9s %12s %9s %12s %9s %12s %8s %8s\n' run accesses "record s" "record /s" "replay s" "replay /s" \
    "lackey s" "lackey /s" "peak MiB" "value B"
for run in $(seq 1 "$runs"); do
    rm -f "$work"/*.memhist "$work/gz.mhstream"
    runMeasured "$memhist" record -o "$work/tool.memhist" --keep-stream "$work/gz.mhstream" -- \
        gzip -9 -c "$work/text.txt" > /dev/null 2> "$work/record.err"
    recordSeconds=$seconds
    peak=$peakKiB
    accesses=$(accessesOf "$work/tool.memhist")

    runMeasured "$memhist" import "$work/gz.mhstream" -o "$work/replay.memhist" > /dev/null 2> "$work/replay.err"
    replaySeconds=$seconds

    runMeasured "$memhist" record --backend lackey --max-instructions "$lackeyInstructions" -o "$work/lackey.memhist" -- \
        gzip -9 -c "$work/text.txt" > /dev/null 2> "$work/lackey.err"
    lackeySeconds=$seconds
    lackeyAccesses=$(accessesOf "$work/lackey.memhist")

    # The replay and its stream are done with: free their gigabytes before the floor's copy.
    rm -f "$work/replay.memhist" "$work/gz.mhstream"
    floorRate=$("$floor" "$work/tool.memhist" "$work/floor.memhist" | awk '/^storage floor:/ { print $3 }')
    rm -f "$work/floor.memhist"

    valueBytes=$(sqlite3 "$work/tool.memhist" "SELECT sum(pgsize) FROM dbstat WHERE name = 'access_value_blocks'")
    historyBytes=$(stat -c %s "$work/tool.memhist")
    printf '%-5s %10s %9s %12s %9s %12s %9s %12s %8s %8s\n' "$run" "$accesses" "$recordSeconds" \
        "$(calc "$accesses / $recordSeconds" 0)" "$replaySeconds" "$(calc "$accesses / $replaySeconds" 0)" \
        "$lackeySeconds" "$(calc "$lackeyAccesses / $lackeySeconds" 0)" "$(calc "$peak / 1024" 0)" \
        "$(calc "$valueBytes / $accesses")"
    echo "      tool / lackey accesses/s: $(calc "($accesses / $recordSeconds) / ($lackeyAccesses / $lackeySeconds)");" \
        "recording / replay accesses/s: $(calc "$replaySeconds / $recordSeconds");" \
        "history $historyBytes bytes, $(calc "$historyBytes / $accesses") per access"
    echo "      storage floor: $floorRate accesses/s; floor / lackey accesses/s: $(calc "$floorRate / ($lackeyAccesses / $lackeySeconds)")"
done
echo "record-bench: the last recording said:"
cat "$work/record.err"
