#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan+UBSan, coverage in every
# library so the fuzzer sees into the parsers) in build-fuzz/ and runs
# each for a bounded time, seeded with the test fixtures. Any crash, leak or
# sanitizer report fails. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
seconds=${1:-${CUZK_FUZZ_SECONDS:-30}}
fixtures=${CUZK_FIXTURES:-build/tests/fixtures}

[ -f build-fuzz/build.ninja ] || CC=clang meson setup build-fuzz -Dfuzz=true -Dref_tests=disabled -Dcuda=disabled -Dc_args=-fsanitize=fuzzer-no-link \
        -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
ninja -C build-fuzz fuzz/fuzz-snarkjs-bin fuzz/fuzz-snarkjs-json fuzz/fuzz-bellperson

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seeds: every fixture, behind the selector byte its harness reads first.
mkdir -p "$work/snarkjs-bin" "$work/snarkjs-json" "$work/bellperson"
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

status=0
for t in snarkjs-bin snarkjs-json bellperson; do
        echo "fuzz: $t for $seconds s"
        if ! UBSAN_OPTIONS=halt_on_error=1 build-fuzz/fuzz/fuzz-$t -max_total_time="$seconds" \
                -max_len=262144 -rss_limit_mb=4096 -print_final_stats=1 \
                -artifact_prefix="$work/crash-$t-" "$work/$t" >"$work/$t.log" 2>&1; then
                echo "fuzz: $t FAILED"
                tail -n 60 "$work/$t.log"
                mkdir -p build-fuzz/artifacts && cp "$work"/crash-$t-* build-fuzz/artifacts/ 2>/dev/null || true
                status=1
        else
                grep -E "^stat::number_of_executed_units|^#[0-9]+.*DONE" "$work/$t.log" | tail -n 2
        fi
done
[ $status = 0 ] && echo "fuzz: no findings" || echo "fuzz: findings saved in build-fuzz/artifacts"
exit $status
