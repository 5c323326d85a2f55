#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The quick start: installs what is missing, builds memhist, records the bundled example program
# (resources/examples/wordfreq.c, compiled with debug information) with memhist's own Valgrind tool
# into an indexed history, every access with its instruction, function, source line and the bytes it
# moved, checks it, and opens the viewer on it. Without a compiler it imports the bundled Lackey log
# of `/bin/echo hello` instead. Without a display it says so and shows on the terminal what the
# viewer would: the history's summary and two queries. Each command is printed before it runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh

memhist=build/app/memhist/memhist
viewer=build/app/viewer/memhist-viewer
mkdir -p build/example

run() {
    echo
    echo "\$ $*"
    "$@"
}

if command -v gcc > /dev/null; then
    program=build/example/wordfreq
    db=build/example/wordfreq.memhist
    run gcc -g -O0 -o "$program" resources/examples/wordfreq.c
    # Runs it under Valgrind with memhist's tool: what it prints, then memhist's summary.
    run "$memhist" record -o "$db" -- "$program"
else
    echo "demo: no C compiler (gcc): importing the bundled Lackey log of /bin/echo hello instead (no values)."
    program=
    db=build/example/echo_hello.memhist
    run "$memhist" import resources/examples/echo_hello.lackey.gz -o "$db"
fi
# Prove the storage properties hold (and, for the recording, that every read reads what was written).
run "$memhist" check "$db"

if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
    echo
    echo "demo: opening the viewer on $db (close its window to end the demo)."
    echo "demo: click the plane for the accesses from then on, Ctrl+click for those before; wheel zooms."
    run "$viewer" "$db"
elif [[ -n $program ]]; then
    echo
    echo "demo: no display (\$DISPLAY and \$WAYLAND_DISPLAY are unset), so the viewer cannot open here."
    echo "demo: this is what it would show: the history's summary, and the queries of two clicks."
    run "$memhist" info "$db"
    # The first writes once count_letters runs: its stack frame, then letter_counts, each with the
    # instruction, function, source line, region, the bytes written and the bytes they replaced.
    start=$("$memhist" query "$db" --function count_letters --format csv --limit 1 | sed -n 2p | cut -d, -f1)
    run "$memhist" query "$db" --at "$start" --ops w --context --limit 8
    # Who wrote letter_counts['e'] last, and with what? Its address: the global's (nm) plus the load
    # bias `memhist info` lists for the program.
    bias=$("$memhist" info "$db" | awk -v path="$(realpath "$program")" '$1 == path { print $2; exit }')
    offset=$(nm "$program" | awk '$3 == "letter_counts" { print "0x" $1; exit }')
    address=$(printf '0x%x' $((bias + offset + 4 * 4)))
    run "$memhist" query "$db" --backward --from "$address" --to "$(printf '0x%x' $((address + 3)))" --ops w \
        --context --limit 3
    # And when did it first become 5? A value search, through the value index.
    run "$memhist" search "$db" --int 5 --size 4 --from "$address" --to "$(printf '0x%x' $((address + 3)))" --ops w \
        --context --limit 1
    echo
    echo "demo: on a desktop, open it with: $viewer $db"
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
