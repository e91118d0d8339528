#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Packs what a GPU run needs from a CUDA build made here into one directory
# with the build's layout, to be carried to the device machine (whose image
# is not Debian and has none of our libraries): the programs, their shared
# libraries other than glibc's (in lib/, found through LD_LIBRARY_PATH there,
# which cuda/device-run.sh sets), and the snarkjs fixtures.
#
#   cuda/device-bundle.sh BUILD_DIR [BUNDLE_DIR]   (default build-device)
#
# BUILD_DIR is set up (or, when it exists, reconfigured) with CUDA, the
# reference tests and the test hooks (-Dtest_hooks=true), and the programs
# are built there: the runaway-worker checks of tests/cgroup-v2-governance.sh
# need CUZK_TEST_WORKER_FAULT in cuzkd, which a package build leaves out.
# The bundle is for the GPU host's tests only; it never becomes a package.
#
# The programs carry CUDA's runtime and kernels statically (~12 MB each), so
# the directory is also packed as BUNDLE_DIR-carry/bundle.tar.xz (~19 MB),
# which is what fits the device tool's 64 MiB carry limit; on the device:
#   mkdir -p build-device && tar -C build-device -xJf build-device-carry/bundle.tar.xz
set -euo pipefail

build=${1:?usage: $0 BUILD_DIR [BUNDLE_DIR]}
bundle=${2:-build-device}
programs=(cuda/cuda-selftest cuda/cuda-pce-eval-test cuda/bench-cuda cuda/bench-gpu-field cuda/bench-gpu-prove tests/test-prover-backend
        tests/test-executor tests/executor-helper
        daemon/cuzkd cli/cuzk cli/cuzkctl cli/cuzk-bench bench/bench-porep-circuit)

# The GPU code, test-prover-backend (a reference test) and the test hooks.
options=(-Dcuda=enabled -Dref_tests=enabled -Dtest_hooks=true)
if [ -f "$build/build.ninja" ]; then
        meson configure "$build" "${options[@]}"
else
        meson setup "$build" "${options[@]}"
fi
ninja -C "$build" "${programs[@]}"

rm -rf "$bundle"
mkdir -p "$bundle/lib"
for p in "${programs[@]}"; do
        if [ ! -x "$build/$p" ]; then
                echo "device-bundle: $build/$p was not built (is nvcc in PATH?)" >&2
                exit 1
        fi
        mkdir -p "$bundle/$(dirname "$p")"
        cp "$build/$p" "$bundle/$p"
        strip --strip-debug "$bundle/$p"
        # Every resolved library except the C library's own, which the
        # device image has (newer) and which must match its loader.
        ldd "$build/$p" | awk '$3 ~ /^\// { print $3 }' |
                grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
                while read -r lib; do cp -nL "$lib" "$bundle/lib/"; done
done
if [ -d "$build/tests/fixtures" ]; then
        mkdir -p "$bundle/tests"
        cp -r "$build/tests/fixtures" "$bundle/tests/"
        rm -rf "$bundle/tests/fixtures/"*.ptau "$bundle/tests/fixtures/"*/node_modules 2>/dev/null || true
fi
cp tests/cgroup-v2-governance.sh cuda/device-run.sh "$bundle/"
mkdir -p "$bundle-carry"
tar -C "$bundle" -cJf "$bundle-carry/bundle.tar.xz" .
du -sh "$bundle" "$bundle-carry/bundle.tar.xz"
