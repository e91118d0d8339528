#!/usr/bin/env bash
# Runs scripts/install-deps.sh (as root, through sudo when needed) unless
# CUZK_SKIP_DEPS=1: the first step of every top-level script.
set -euo pipefail
[ "${CUZK_SKIP_DEPS:-0}" = 1 ] && exit 0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "$(id -u)" = 0 ]; then
        exec "$here/install-deps.sh"
fi
exec sudo "$here/install-deps.sh"
