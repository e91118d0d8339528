#!/usr/bin/env bash
# Installs every Debian and npm package that cuzk's build and tests need.
# Idempotent; run as root on a fresh Debian 12 machine.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

debian_packages=(
        build-essential meson ninja-build pkg-config
        clang libclang-rt-14-dev clang-format cppcheck
        libcmocka-dev libgmp-dev
        libsystemd-dev libnuma-dev libjansson-dev libinih-dev
        libnghttp2-dev libprotobuf-c-dev protobuf-c-compiler libssl-dev
        libbpf-dev bpftool
        debhelper lintian mandoc qemu-system-x86 debootstrap # packaging, man lint, VM tests (tests/vm)
        nodejs
)

missing=()
for p in "${debian_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
        echo "install-deps: installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Debian's nodejs does not ship npm; the nodesource build on our machines does.
command -v npm >/dev/null || apt-get install -y -q --no-install-recommends npm

# The independent reference implementations used by the tests (snarkjs,
# ffjavascript, circom2) live in tests/node, pinned by its package-lock.json.
if [ ! -d "$here/tests/node/node_modules/ffjavascript" ] ||
   [ "$here/tests/node/package-lock.json" -nt "$here/tests/node/node_modules/.package-lock.json" ]; then
        echo "install-deps: npm ci in tests/node"
        (cd "$here/tests/node" && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "install-deps: ok"
