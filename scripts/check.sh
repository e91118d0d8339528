#!/usr/bin/env bash
# Sets up and runs every test of cuzk: the release build's tests (unit tests,
# checks against GMP and snarkjs/ffjavascript, clang-format, cppcheck), then
# the same tests in an ASan+UBSan build at a reduced scale, then a bounded
# libFuzzer run of every parser (scripts/fuzz.sh).
# Usage: scripts/check.sh            (as root on a fresh machine: installs deps)
#        CUZK_SKIP_DEPS=1 scripts/check.sh   (skip the dependency step)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"

scripts/ensure-deps.sh

jobs=$(nproc)
status=0

step() { printf '\n==== %s ====\n' "$*"; }

step "release build (build/)"
# The test suite's builds have the fault hooks (CUZK_TEST_*); the package never does.
[ -f build/build.ninja ] || meson setup build -Dref_tests=enabled -Dtest_hooks=true
meson configure build -Dtest_hooks=true # a build/ set up before the option existed
ninja -C build -j "$jobs"
step "release tests"
meson test -C build --print-errorlogs --num-processes "$jobs" || status=1

step "sanitizer build (build-asan/, ASan+UBSan)"
[ -f build-asan/build.ninja ] || meson setup build-asan -Dref_tests=enabled -Dtest_hooks=true \
        -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
        -Dcuda=disabled # the GPU code is checked by the release build; nvcc takes minutes
meson configure build-asan -Dtest_hooks=true
ninja -C build-asan -j "$jobs"
step "sanitizer tests (reduced iteration counts)"
CUZK_TEST_SCALE=${CUZK_ASAN_TEST_SCALE:-0.05} \
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --print-errorlogs --num-processes "$jobs" \
        --no-suite lint --timeout-multiplier 4 || status=1

step "fuzzing every parser (${CUZK_FUZZ_SECONDS:-30} s per harness)"
CUZK_FIXTURES=build/tests/fixtures scripts/fuzz.sh "${CUZK_FUZZ_SECONDS:-30}" || status=1

step "summary"
if [ $status = 0 ]; then
        echo "check: all tests passed"
else
        echo "check: FAILED (see the logs above and build*/meson-logs/testlog.txt)"
fi
exit $status
