#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan+UBSan, coverage in every
# library so the fuzzer sees into the parsers) in build-fuzz/ and runs
# each for a bounded time, seeded with the test fixtures and, for the C1
# reader, a 2 KiB sector sealed by cuzk (its C1, its envelope) and a 2 KiB
# synthetic C1. Any crash, leak or sanitizer report fails.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]
# Environment: CUZK_FUZZ_TARGETS (default "snarkjs-bin snarkjs-json
# bellperson c1 api-wire"), CUZK_FUZZ_BUILD (default build-fuzz), CUZK_FIXTURES,
# CUZK (the cuzk that seals the C1 seeds; default build/cli/cuzk, else
# the fuzz build's own).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
seconds=${1:-${CUZK_FUZZ_SECONDS:-30}}
fixtures=${CUZK_FIXTURES:-build/tests/fixtures}
read -ra targets <<<"${CUZK_FUZZ_TARGETS:-snarkjs-bin snarkjs-json bellperson c1 api-wire}"
build=${CUZK_FUZZ_BUILD:-build-fuzz}

# clang 14's pointer-overflow check (part of UBSan) takes 15 minutes and
# 1.7 GB to compile filecoin/graph/feistel.c's vector lanes (4 s without it);
# ASan still catches any access out of bounds.
c_args="-fsanitize=fuzzer-no-link -fno-sanitize=pointer-overflow"
[ -f "$build/build.ninja" ] || CC=clang meson setup "$build" -Dfuzz=true -Dref_tests=disabled -Dcuda=disabled -Dc_args="$c_args" \
        -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
meson configure "$build" -Dc_args="$c_args" # a build set up before the flag
ninja -C "$build" "${targets[@]/#/fuzz/fuzz-}"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seeds: every fixture, behind the selector byte its harness reads first.
mkdir -p "$work/snarkjs-bin" "$work/snarkjs-json" "$work/bellperson" "$work/c1" "$work/api-wire"
if [ -d "$fixtures" ]; then
        i=0
        for f in "$fixtures"/*.zkey "$fixtures"/*.wtns "$fixtures"/*.r1cs; do
                [ -f "$f" ] || continue
                case "$f" in *.zkey) sel='\x00' ;; *.wtns) sel='\x01' ;; *) sel='\x02' ;; esac
                { printf "$sel"; cat "$f"; } >"$work/snarkjs-bin/seed$i"
                i=$((i + 1))
        done
        cp "$fixtures"/*.json "$work/snarkjs-json/" 2>/dev/null || true
fi

# C1 seeds: the lotus-bench 2 KiB sector's C1 output (~100 kB) and its
# envelope, and a synthetic 2 KiB C1 (the cuzk_synthetic_c1 field).
if [[ " ${targets[*]} " == *" c1 "* ]]; then
        cuzk=${CUZK:-build/cli/cuzk}
        if [ ! -x "$cuzk" ]; then
                ninja -C "$build" cli/cuzk
                cuzk=$build/cli/cuzk
        fi
        ASAN_OPTIONS=detect_leaks=0 "$cuzk" porep seal --registered-proof StackedDrg2KiBV1_1 --miner t01000 --sector 1 \
                --out "$work/c1/sealed-2k.json" --envelope "$work/c1/sealed-2k-envelope.json" >/dev/null
        ASAN_OPTIONS=detect_leaks=0 "$cuzk" porep synth-c1 --registered-proof StackedDrg2KiBV1_1 \
                --out "$work/c1/synthetic-2k.json" >/dev/null 2>&1
fi

status=0
for t in "${targets[@]}"; do
        echo "fuzz: $t for $seconds s"
        if ! UBSAN_OPTIONS=halt_on_error=1 "$build/fuzz/fuzz-$t" -max_total_time="$seconds" \
                -max_len=262144 -rss_limit_mb=4096 -print_final_stats=1 \
                -artifact_prefix="$work/crash-$t-" "$work/$t" >"$work/$t.log" 2>&1; then
                echo "fuzz: $t FAILED"
                tail -n 60 "$work/$t.log"
                mkdir -p "$build/artifacts" && cp "$work"/crash-"$t"-* "$build/artifacts/" 2>/dev/null || true
                status=1
        else
                grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$work/$t.log" | tail -n 2
        fi
done
[ $status = 0 ] && echo "fuzz: no findings" || echo "fuzz: findings saved in $build/artifacts"
exit $status
