#!/usr/bin/env bash
# The quick start: installs what is missing, builds memhist, then imports the bundled example
# trace (a Valgrind Lackey trace of /bin/true, converted to memhist's CSV format) and runs the
# main commands on it. Each command is printed before it runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh

memhist=build/app/memhist/memhist
trace=resources/examples/true.csv
db=build/example/true.memhist

run() {
    echo
    echo "\$ $*"
    "$@"
}

mkdir -p "$(dirname "$db")"

# Build the indexed database from the trace.
run "$memhist" import "$trace" -o "$db"
# Prove the storage properties hold.
run "$memhist" check "$db"
# Metadata and sizes.
run "$memhist" info "$db"
# The first 10 accesses (reads and writes) from the start, over the whole address space.
run "$memhist" query "$db" --at 0 --limit 10
# The last 10 writes, walking backward from the last transition.
run "$memhist" query "$db" --backward --ops w --limit 10

echo
echo "demo: done; the database is $db"
