#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Takes the README's and docs/viewer.md's screenshots of the real memhist-viewer window under Xvfb, into
# docs/screenshots/: the window on a recording of resources/examples/wordfreq.c with full context,
# with a click-to-query and a selected row, a zoom down to single accesses, the Memory pane, the
# origin tree of a counter's write, the charts and the SQL console. Each run of the viewer sets up
# its scene from the command line (--click, --zoom-*, --panel, --sql, --origin), waits until the
# plane has rendered it and saves a picture of itself (--screenshot).
#
#   bash scripts/screenshots.sh            # builds in build/ first when needed
#   BUILD_DIR=build-x bash scripts/screenshots.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=${BUILD_DIR:-build}
memhist=$build/app/memhist/memhist
viewer=$build/app/viewer/memhist-viewer
if [[ ! -x $memhist || ! -x $viewer ]]; then
    bash scripts/install-deps.sh
    bash scripts/build.sh
fi
command -v xvfb-run >/dev/null || { echo "screenshots: xvfb-run is missing (apt-get install xvfb xauth)" >&2; exit 1; }

# A recording with full context (PCs, map, symbols, source lines, disassembly): the bundled
# resources/examples/wordfreq.c compiled with debug information and run under `memhist record`.
mkdir -p "$build/example" docs/screenshots
program=$build/example/wordfreq
db=$build/example/wordfreq.memhist
gcc -g -O0 -o "$program" resources/examples/wordfreq.c
rm -f "$db"
"$memhist" record -o "$db" -- "$program" >/dev/null
# Where the program counts letters: its first write to the global letter_counts, found with the
# command line so that the scenes follow the recording wherever valgrind placed it.
first=$("$memhist" query "$db" --ops w --context --format csv --limit 1000000 | grep -m1 ',letter_counts' || true)
[[ -n $first ]] || { echo "screenshots: no write to letter_counts in $db" >&2; exit 1; }
t=$(cut -d, -f2 <<<"$first")
a=$(cut -d, -f4 <<<"$first")
page=$(printf '0x%x' $((a & ~0xff)))
pageEnd=$(printf '0x%x' $(((a & ~0xff) + 0x13f)))

# A clean settings directory: the pictures show the defaults, not the last user's layout.
settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT

shoot() {
    local out=$1 size=$2
    shift 2
    # The viewer gives up by itself after 120 s; the timeout is for a window that stops answering.
    echo "screenshots: $out"
    XDG_CONFIG_HOME=$settings XDG_DATA_HOME=$settings QT_QPA_PLATFORMTHEME= \
        timeout --kill-after=10 300 xvfb-run -a -s "-screen 0 1600x1000x24" \
        "$viewer" --size "$size" --screenshot "$out" "$@" "$db"
}

# The whole history; a click on the global letter_counts where count_letters first writes it: the
# results with their instruction, function, source line and region, and the second row's detail.
shoot docs/screenshots/viewer.png 1280x800 --click "$t,$a" --select-row 2
# Zoomed in to 800 instructions on the program's .bss: the axis names its objects, the accesses
# are size bars, the position line marks the selected access; a Ctrl+click asks who wrote there
# before.
shoot docs/screenshots/zoomed.png 1280x800 --zoom-transitions "$((t - 130)),$((t + 670))" --zoom-addresses "$page,$pageEnd" \
    --click-back "$((t + 400)),$a" --select-row 1
# The Memory pane a little later in count_letters: who touched letter_counts last (a Ctrl+click),
# the newest write selected, letter_counts's counters shaded by how recently they were written.
shoot docs/screenshots/memory.png 1280x800 --click-back "$((t + 3000)),$a" --select-row 1 --panel memory
# Where did the counter count_letters writes a little later come from: the Origin tab's chain
# back through the increments of that counter, drawn on the plane as a path.
shoot docs/screenshots/origin.png 1280x800 --zoom-transitions "$((t - 130)),$((t + 3670))" --zoom-addresses "$page,$pageEnd" \
    --click-back "$((t + 3000)),$a" --select-row 1 --origin back
# The charts at the default window size (side by side when the panel is wide and short).
shoot docs/screenshots/charts.png 1280x800 --panel charts
# An ad-hoc question: the 4 KiB pages written most, with their first and last write.
shoot docs/screenshots/sql.png 1280x800 --panel sql \
    --sql "SELECT printf('0x%x', phy_first & ~4095) AS page, count(*) AS writes, min(transition) AS first, max(transition) AS last FROM accesses WHERE operation = 2 GROUP BY page ORDER BY writes DESC LIMIT 20"
echo "screenshots: done"
