#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures and builds memhist (Release) in build/ at the top of the repository.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
