#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
#
# Runs the CUDA self-test, then the benchmark, on a GPU machine, from the
# repository root, with a build directory made elsewhere (nothing is built
# here: the binaries link CUDA's runtime statically and need only the
# driver). Output is line-buffered; the logs are copied into "$OUT" when it
# is set. About 5 minutes on an H200.
#
#   cuda/device-run.sh [build-dir] [--quick | --partitions SIZES | --profile | --table]
#
# --quick runs the short self-test and a small benchmark (a first check).
# build-dir/tests/test-prover-backend and build-dir/tests/fixtures, when
# carried, give whole proofs first (the CUDA backend, verified).
# --partitions "24 26" runs the short self-test, then whole PoRep-shaped
# partitions through the split prover (bench-gpu-prove) at those sizes.
# --profile runs the MSM benchmark alone with --profile (each step's time,
# cuda/msm.cu), then, where Nsight Compute's ncu is found, level 0 of one
# 2^20 MSM through it (clocks as found).
# --table is issue 6's acceptance table in one run (~7 minutes, no
# self-test): bench-gpu-field's product forms (where built), bench-cuda's
# MSM 2^20..2^26 and NTT 2^20..2^27 rows, then bench-gpu-prove's whole
# partitions at 2^24, 2^26 and 2^27.
# Exit status: the self-test's (0 pass, 1 fail, 77 no device), or the
# benchmark's when the self-test passed.
set -u -o pipefail

build=${1:-build-cuda}
mode=${2:-}
logs=$(mktemp -d)

sizes=${3:-24 26}
for exe in cuda/cuda-selftest cuda/bench-cuda cuda/bench-gpu-prove; do
        [ "$exe" = cuda/bench-gpu-prove ] && [ "$mode" != --partitions ] && [ "$mode" != --table ] &&
                continue
        [ "$exe" = cuda/cuda-selftest ] && [ "$mode" = --profile ] && continue
        if [ ! -x "$build/$exe" ]; then
                echo "device-run: $build/$exe missing: build with meson here first" >&2
                exit 1
        fi
done

save_logs() {
        if [ -n "${OUT:-}" ]; then
                mkdir -p "$OUT"
                cp "$logs"/*.log "$OUT"/ 2>/dev/null
        fi
}
trap save_logs EXIT

if [ "$mode" = "--profile" ]; then
        echo "== msm profile"
        timeout 150 stdbuf -oL -eL "$build/cuda/bench-cuda" --profile 20 26 1 0 \
                >"$logs/profile.log" 2>&1
        status=$?
        # The last profile of each size (a timed device-resident run), then the table.
        awk '/^msm profile/ { if (block) last[size] = block; size = $3; block = "" }
             /^  / { block = block $0 "\n" }
             /^msm profile/ { block = $0 "\n" }
             END { last[size] = block; for (s in last) printf "%s", last[s] }' \
                "$logs/profile.log" | grep -E "^msm|ranges|accumulate|sort|digits"
        grep '^| G1' "$logs/profile.log"
        ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
        if [ -n "$ncu" ]; then
                echo "== ncu ($ncu): level 0 of a 2^20 MSM"
                timeout 100 "$ncu" --clock-control none \
                        --kernel-name-base demangled -k 'regex:msm_step_ranges' --launch-count 1 \
                        --section SpeedOfLight --section Occupancy --section WarpStateStats \
                        --section ComputeWorkloadAnalysis --section LaunchStats \
                        "$build/cuda/bench-cuda" 20 20 1 0 >"$logs/ncu.log" 2>&1
                grep -E "Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Executed Ipc A|Warp Cycles Per Issued|Active Threads Per|Local Speedup|highest-utilized" "$logs/ncu.log" | head -14
        fi
        exit $status
fi

# The card as found (read-only queries).
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit \
        --format=csv 2>&1 | tee "$logs/device.log"
nproc | sed 's/^/cpu cores: /' | tee -a "$logs/device.log"

if [ "$mode" = "--table" ]; then
        field=0
        if [ -x "$build/cuda/bench-gpu-field" ]; then
                echo "== products: bench-gpu-field 4096"
                timeout 60 stdbuf -oL -eL "$build/cuda/bench-gpu-field" 4096 2>&1 |
                        tee "$logs/field.log"
                field=$?
        fi
        echo "== primitives: bench-cuda 20 26 20 27"
        timeout 240 stdbuf -oL -eL "$build/cuda/bench-cuda" 20 26 20 27 2>&1 | tee "$logs/bench.log"
        status=$?
        echo "== partitions: bench-gpu-prove 24 26 27"
        timeout 330 stdbuf -oL -eL "$build/cuda/bench-gpu-prove" 24 26 27 2>&1 |
                tee "$logs/partitions.log"
        partitions=$?
        exit $((field ? field : status ? status : partitions))
fi

if [ "$mode" = "--quick" ] || [ "$mode" = "--partitions" ]; then
        selftest_args=(--quick)
        bench_args=(20 22 20 24)
else
        selftest_args=()
        bench_args=()
fi

# Whole proofs through the daemon's prover backend (CUDA here), both H
# conventions, verified; needs the fixtures beside it (carried).
if [ -x "$build/tests/test-prover-backend" ]; then
        echo "== whole proofs (test-prover-backend)"
        CUZK_FIXTURES_DIR=$build/tests/fixtures timeout 120 stdbuf -oL -eL \
                "$build/tests/test-prover-backend" 2>&1 | tee "$logs/proofs.log"
fi

echo "== self-test"
timeout 300 stdbuf -oL -eL "$build/cuda/cuda-selftest" "${selftest_args[@]}" 2>&1 |
        tee "$logs/selftest.log"
status=$?
grep -c '^PASS' "$logs/selftest.log" | sed 's/^/passed cases: /'
grep '^FAIL' "$logs/selftest.log" | head -20
if [ $status -ne 0 ]; then
        echo "device-run: self-test exit status $status; benchmark skipped"
        exit $status
fi

if [ "$mode" = "--partitions" ]; then
        echo "== partitions: $sizes"
        # shellcheck disable=SC2086 # the sizes are separate arguments
        timeout 500 stdbuf -oL -eL "$build/cuda/bench-gpu-prove" $sizes 2>&1 | tee "$logs/partitions.log"
        exit $?
fi

echo "== benchmark"
timeout 240 stdbuf -oL -eL "$build/cuda/bench-cuda" "${bench_args[@]}" 2>&1 |
        tee "$logs/bench.log"
exit $?
