#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds, and runs every test with ctest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
# ctest prints "N% tests passed, M tests failed out of K" and exits non-zero on any failure.
ctest --test-dir build --output-on-failure -j2
