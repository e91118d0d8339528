#!/usr/bin/env bash
# Filecoin PoRep on the CPU, as a markdown table for bench/RESULTS.md: the
# wall time and peak RSS of `cuzk porep seal` (8 MiB and 512 MiB sectors,
# zero data, the C1 output written), of `cuzk porep parents` (the parent
# cache, and whether parent_cache.json's digest matched), of `cuzk porep
# synth-c1` and `cuzk porep verify-c1` for a synthetic 32 GiB C1, and the
# C1 parse and verify times alone (build/bench/bench-c1: best of repeated
# runs in one process, the file in the page cache).
# Usage: bench/bench-porep.sh [BUILD_DIR] [SEAL_SIZES]
#        (defaults: build, "8MiB 512MiB"; the 512 MiB seal takes about 9
#        minutes and 3.2 GiB on 2 cores, the whole script about 10 minutes)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
read -ra sizes <<<"${2:-8MiB 512MiB}"
cuzk=$build/cli/cuzk bench_c1=$build/bench/bench-c1
for f in "$cuzk" "$bench_c1"; do
        [ -x "$f" ] || { echo "bench-porep: $f missing: ninja -C $build cli/cuzk bench/bench-c1" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-porep: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# row WHAT NOTE CMD...: runs CMD under /usr/bin/time and prints one table row:
# wall seconds, peak RSS, NOTE (out:REGEX: the first line of CMD's output matching it).
row() {
        local what=$1 note=$2 wall rss
        shift 2
        if ! /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
                echo "bench-porep: $what failed:" >&2
                cat "$work/out" "$work/err" >&2
                exit 1
        fi
        read -r wall rss <"$work/time"
        [[ $note != out:* ]] || note=$(grep -m1 -E "${note#out:}" "$work/out" || echo '?')
        printf '| %s | %s | %d | %s |\n' "$what" "$wall" "$((rss / 1024))" "$note"
}

echo "cuzk porep on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')),"
echo "$(date -u '+%Y-%m-%d %H:%M') UTC, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| step | wall s | peak RSS MiB | note |"
echo "|---|---|---|---|"
for size in "${sizes[@]}"; do
        row "seal $size" "zero data, C1 written" \
                "$cuzk" porep seal --registered-proof "StackedDrg${size}V1_1" --out "$work/c1-$size.json"
        row "verify-c1 $size" "out:^(OK|INVALID)" "$cuzk" porep verify-c1 "$work/c1-$size.json"
        row "parents $size" "out:^manifest" \
                "$cuzk" porep parents --sector-size "$size" --out "$work/parents"
        rm -rf "$work/parents" "$work/c1-$size.json"
done
row "synth-c1 32GiB" "synthetic C1 written" \
        "$cuzk" porep synth-c1 --registered-proof StackedDrg32GiBV1_1 --out "$work/c1-32g.json"
row "verify-c1 32GiB" "parse + verify, $(stat -c %s "$work/c1-32g.json") bytes" \
        "$cuzk" porep verify-c1 "$work/c1-32g.json"
echo
echo "C1 parse and vanilla verify alone (bench-c1, one process, file in the page cache):"
echo
"$bench_c1" "$work/c1-32g.json" | sed "s|$work/||"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
