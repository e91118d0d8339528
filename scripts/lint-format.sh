#!/usr/bin/env bash
# Fails when a tracked C/CUDA source is not clang-formatted (.clang-format).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.cu' '*.cuh' | grep -v '^tests/node/')
[ ${#files[@]} -gt 0 ] || exit 0
clang-format --dry-run -Werror "${files[@]}"
echo "lint-format: ${#files[@]} files clean"
