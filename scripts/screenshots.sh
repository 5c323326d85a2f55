#!/usr/bin/env bash
# Takes the README's and docs/viewer.md's screenshots of the real memhist-viewer window under Xvfb, into
# docs/screenshots/: the window on the example history with a click-to-query, a zoom down to single
# accesses, the charts and the SQL console. Each run of the viewer sets up its scene from the
# command line (--click, --zoom-*, --panel, --sql), waits until the plane has rendered it and saves
# a picture of itself (--screenshot).
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

db=$build/example/echo_hello.memhist
mkdir -p "$(dirname "$db")" docs/screenshots
"$memhist" import resources/examples/echo_hello.lackey.gz -o "$db"

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

# The whole history; a click on a hot libc variable at transition 200,000 (its accesses from then on).
shoot docs/screenshots/viewer.png 1280x800 --click 200000,0x4a1b080
# Zoomed in to 400 instructions on one stack page: single accesses, drawn as size bars; a Ctrl+click
# asks which accesses touched 0x1fff0000a8 before transition 135,420.
shoot docs/screenshots/zoomed.png 1280x800 --zoom-transitions 135200,135600 --zoom-addresses 0x1fff000000,0x1fff000140 \
    --click-back 135420,0x1fff0000a8
# The charts at the default window size (side by side when the panel is wide and short).
shoot docs/screenshots/charts.png 1280x800 --panel charts
# An ad-hoc question: the 4 KiB pages written most, with their first and last write.
shoot docs/screenshots/sql.png 1280x800 --panel sql \
    --sql "SELECT printf('0x%x', phy_first & ~4095) AS page, count(*) AS writes, min(transition) AS first, max(transition) AS last FROM accesses WHERE operation = 2 GROUP BY page ORDER BY writes DESC LIMIT 20"
echo "screenshots: done"
