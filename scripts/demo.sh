#!/usr/bin/env bash
# The quick start: installs what is missing, builds memhist, imports the bundled example (a real
# Valgrind Lackey log of `/bin/echo hello`) into an indexed history, checks it, and opens the
# viewer on it. Without a display it says so and shows on the terminal what the viewer would:
# the history's summary and two queries. Each command is printed before it runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh

memhist=build/app/memhist/memhist
viewer=build/app/viewer/memhist-viewer
trace=resources/examples/echo_hello.lackey.gz
db=build/example/echo_hello.memhist

run() {
    echo
    echo "\$ $*"
    "$@"
}

mkdir -p "$(dirname "$db")"

# Build the indexed history from the Lackey log, then prove the storage properties hold.
run "$memhist" import "$trace" -o "$db"
run "$memhist" check "$db"

if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
    echo
    echo "demo: opening the viewer on $db (close its window to end the demo)."
    echo "demo: click the plane for the accesses from then on, Ctrl+click for those before; wheel zooms."
    run "$viewer" "$db"
else
    echo
    echo "demo: no display (\$DISPLAY and \$WAYLAND_DISPLAY are unset), so the viewer cannot open here."
    echo "demo: this is what it would show: the history's summary, and the queries of two clicks."
    run "$memhist" info "$db"
    # A click on a hot libc variable at transition 200,000: its reads and writes from then on
    # (the viewer's default window of +-64 bytes around the point).
    run "$memhist" query "$db" --at 200000 --from 0x4a1b040 --to 0x4a1b0c0 --limit 10
    # A Ctrl+click on the stack at transition 135,420: who wrote those 8 bytes last?
    run "$memhist" query "$db" --backward --at 135420 --from 0x1fff0000a8 --to 0x1fff0000af --ops w --limit 5
    echo
    echo "demo: on a desktop, open it with: $viewer $db"
fi
echo
echo "demo: done; the history is $db"
