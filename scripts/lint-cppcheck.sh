#!/usr/bin/env bash
# cppcheck over the C sources; any finding fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' | grep -v '^tests/node/')
[ ${#files[@]} -gt 0 ] || exit 0
cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
        --inline-suppr --suppress=missingIncludeSystem -D__x86_64__ -D_GNU_SOURCE -DCUZK_SOURCE_ROOT=\"\" \
        -I . "${files[@]}"
echo "lint-cppcheck: ${#files[@]} files clean"
