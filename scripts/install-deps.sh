#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages memhist needs to build, test, record and package; with --fuzz
# also what the fuzzers need (scripts/fuzz.sh: clang, libFuzzer and the sanitizer runtimes, and
# llvm-symbolizer for readable reports); with --format also clang-format (scripts/check-format.sh);
# with --plot also gnuplot (scripts/growth-bench.sh draws its figures with it).
# Run as root (or as a user with sudo). When every package is already installed it does not
# touch apt at all, so repeated runs are fast and work offline.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev libxkbcommon-dev libqt6sql6-sqlite
    libsqlite3-dev sqlite3
    zlib1g-dev libminizip-dev libsnappy-dev
    libdw-dev libcapstone-dev
    valgrind xvfb xauth
    strace
)
for option in "$@"; do
    case "$option" in
    --fuzz) packages+=(clang libclang-rt-14-dev llvm) ;;
    --format) packages+=(clang-format) ;;
    --plot) packages+=(gnuplot-nox) ;;
    *)
        echo "usage: scripts/install-deps.sh [--fuzz] [--format] [--plot]" >&2
        exit 2
        ;;
    esac
done

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null || true)
    if [[ "$status" != ii* ]]; then
        missing+=("$package")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "install-deps: all ${#packages[@]} packages already installed"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"

if [[ $(id -u) -eq 0 ]]; then
    run_as_root=()
elif command -v sudo >/dev/null 2>&1; then
    run_as_root=(sudo)
else
    echo "install-deps: missing packages (${missing[*]}) and not root; run as root or install sudo" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${run_as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${run_as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
