#!/usr/bin/env bash
# Installs what is needed, builds cuzk (release) and prints the benchmark
# table of the BLS12-381 core. Extra arguments go to
# bench-zk (try --help).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

scripts/ensure-deps.sh
[ -f build/build.ninja ] || meson setup build
ninja -C build bench/bench-zk
exec build/bench/bench-zk "$@"
