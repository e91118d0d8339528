#!/usr/bin/env bash
# The main job for now: installs what is needed, builds cuzk (release) and
# prints the benchmark table of the BLS12-381 core. Extra arguments go to
# bench-zk (try --help).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

if [ "${CUZK_SKIP_DEPS:-0}" != 1 ]; then
        if [ "$(id -u)" = 0 ]; then
                scripts/install-deps.sh
        else
                sudo scripts/install-deps.sh
        fi
fi
[ -f build/build.ninja ] || meson setup build
ninja -C build bench/bench-zk
exec build/bench/bench-zk "$@"
