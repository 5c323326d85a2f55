#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that every C++ file in the repository is formatted as .clang-format says (Debian 12's
# clang-format 14), without changing any: prints each file and place that differs and exits 1.
# To fix them: git ls-files '*.cpp' '*.h' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-deps.sh --format >/dev/null
git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format --dry-run -Werror
echo "check-format: $(git ls-files '*.cpp' '*.h' | wc -l) files formatted as .clang-format says"
