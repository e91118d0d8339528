#!/usr/bin/env bash
# `cuzk prove` against `snarkjs groth16 prove` on the same .zkey and .wtns,
# measured in one run on this machine, both proofs checked by
# `snarkjs groth16 verify`. The circuit is bench/circuits/bench-bits.circom
# (2^16+ constraints); its powers of tau (2^17) is cached outside the tree
# and takes over 20 minutes to make the first time.
# Usage: bench/compare-snarkjs.sh [BUILD_DIR] [RUNS]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
runs=${2:-3}
cuzk=$build/cli/cuzk
snarkjs_cli=$top/tests/node/node_modules/snarkjs/build/cli.cjs
out=$build/bench/snarkjs
circuit=bench-bits

[ -x "$cuzk" ] || { echo "compare-snarkjs: $cuzk missing: build first" >&2; exit 1; }
CUZK_PTAU_POWER=17 CUZK_CIRCUITS_DIR=$top/bench/circuits \
        "$top/tests/fixtures/make-fixtures.sh" "$out" "$circuit"

zkey=$out/$circuit.zkey wtns=$out/$circuit.wtns vk=$out/$circuit.vk.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# best_of N CMD...: the fastest wall time of N runs, in seconds.
best_of() {
        local n=$1 best="" t start
        shift
        for _ in $(seq "$n"); do
                start=$(date +%s.%N)
                "$@" >/dev/null 2>&1
                t=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.3f", a - b }')
                if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
        done
        echo "$best"
}

t_snarkjs=$(best_of "$runs" node "$snarkjs_cli" groth16 prove "$zkey" "$wtns" "$work/s.proof.json" "$work/s.public.json")
t_cuzk=$(best_of "$runs" "$cuzk" prove "$zkey" "$wtns" "$work/c.proof.json" "$work/c.public.json")

for who in s c; do
        node "$snarkjs_cli" groth16 verify "$vk" "$work/$who.public.json" "$work/$who.proof.json" | grep -q "OK!" ||
                { echo "compare-snarkjs: the $who proof does not verify" >&2; exit 1; }
done

constraints=$(node "$snarkjs_cli" r1cs info "$out/$circuit.r1cs" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')
printf '%s\n' "cuzk prove vs snarkjs groth16 prove: $circuit, $constraints constraints, best of $runs, $(nproc) CPUs, $(date -u +%Y-%m-%d)" ""
printf '| prover | seconds | speed-up |\n|---|---|---|\n'
printf '| snarkjs %s (node %s) | %.2f | 1.0x |\n' "$(node -p "require('$top/tests/node/node_modules/snarkjs/package.json').version")" "$(node --version)" "$t_snarkjs"
printf '| cuzk prove (%s) | %.2f | %.1fx |\n' "$(git -C "$top" rev-parse --short HEAD)" "$t_cuzk" "$(awk -v a="$t_snarkjs" -v b="$t_cuzk" 'BEGIN { print a / b }')"
echo
echo "both proofs verified by snarkjs groth16 verify"
