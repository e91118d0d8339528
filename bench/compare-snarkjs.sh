#!/usr/bin/env bash
# `cuzk prove` against `snarkjs groth16 prove` on the same .zkey and .wtns,
# measured in one run on this machine, both proofs checked by
# `snarkjs groth16 verify` with the verification key snarkjs exports from
# the .zkey. The circuit is bench/circuits/bench-bits.circom (2^16+
# constraints, a 2^17 domain), compiled by circom2; its .zkey comes from
# `cuzk setup --r1cs --zkey`: toxic waste from getrandom(2), NOT a ceremony
# (snarkjs's own powers of tau at 2^17 takes hours on a small machine), but
# the same file layout and content as `snarkjs zkey new` writes.
# Usage: bench/compare-snarkjs.sh [BUILD_DIR] [RUNS]
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
runs=${2:-3}
cuzk=$build/cli/cuzk
node_dir=$top/tests/node/node_modules
snarkjs_cli=$node_dir/snarkjs/build/cli.cjs
out=$build/bench/snarkjs
circuit=bench-bits
src=$top/bench/circuits/$circuit.circom input=$top/bench/circuits/$circuit.input.json

[ -x "$cuzk" ] || { echo "compare-snarkjs: $cuzk missing: build first" >&2; exit 1; }
if [ ! -f "$snarkjs_cli" ] || [ ! -f "$node_dir/circom2/cli.js" ]; then
        echo "compare-snarkjs: $node_dir lacks snarkjs or circom2: run scripts/install-deps.sh" >&2
        exit 1
fi
snarkjs() { node "$snarkjs_cli" "$@"; }
# circom2 runs in WASI with the parents of its working directory preopened:
# run it from the top of the tree so that the include (-l) resolves.
circom() { (cd "$top" && node "$node_dir/circom2/cli.js" "$@"); }
mkdir -p "$out/work"

# step WHAT CMD...: runs CMD with its output in a log, shown only on failure.
step() {
        local what=$1 start=$SECONDS
        shift
        if ! "$@" >"$out/work/log" 2>&1; then
                echo "compare-snarkjs: $what failed; its output:" >&2
                cat "$out/work/log" >&2
                exit 1
        fi
        echo "compare-snarkjs: $what ($((SECONDS - start)) s)" >&2
}

r1cs=$out/$circuit.r1cs wtns=$out/$circuit.wtns zkey=$out/$circuit.zkey vk=$out/$circuit.vk.json
if [ ! -s "$r1cs" ] || [ "$src" -nt "$r1cs" ]; then
        step "circom $circuit" circom "$src" --r1cs --wasm --prime bls12381 -l "$top/tests/circuits" -o "$out/work"
        mv "$out/work/$circuit.r1cs" "$r1cs"
fi
if [ ! -s "$wtns" ] || [ "$r1cs" -nt "$wtns" ] || [ "$input" -nt "$wtns" ]; then
        step "witness" snarkjs wtns calculate "$out/work/${circuit}_js/$circuit.wasm" "$input" "$out/work/$circuit.wtns"
        mv "$out/work/$circuit.wtns" "$wtns"
fi
# A fresh key every run: it takes seconds.
setup_start=$(date +%s.%N)
step "cuzk setup --r1cs --zkey" "$cuzk" setup --r1cs "$r1cs" --zkey "$zkey" --vk "$out/work/cuzk.vk.json"
t_setup=$(awk -v a="$(date +%s.%N)" -v b="$setup_start" 'BEGIN { printf "%.1f", a - b }')
step "snarkjs zkey export verificationkey" snarkjs zkey export verificationkey "$zkey" "$vk"

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

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
t_snarkjs=$(best_of "$runs" node "$snarkjs_cli" groth16 prove "$zkey" "$wtns" "$work/s.proof.json" "$work/s.public.json")
t_cuzk=$(best_of "$runs" "$cuzk" prove "$zkey" "$wtns" "$work/c.proof.json" "$work/c.public.json")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

for who in s c; do
        snarkjs groth16 verify "$vk" "$work/$who.public.json" "$work/$who.proof.json" | grep -q "OK!" ||
                { echo "compare-snarkjs: the $who proof does not verify" >&2; exit 1; }
done

constraints=$(snarkjs r1cs info "$r1cs" | sed -n 's/.*# of Constraints: *\([0-9]*\).*/\1/p')
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
printf '%s\n' "cuzk prove vs snarkjs groth16 prove: $circuit, $constraints constraints, best of $runs, $(date -u +%Y-%m-%d)"
printf '%s\n' "machine: $cpu, $(nproc) CPUs; load average before $load_before, after $load_after"
printf '%s\n' "zkey: cuzk setup --r1cs --zkey ($t_setup s; toxic waste from getrandom(2), not a ceremony)" ""
printf '| prover | seconds | speed-up |\n|---|---|---|\n'
printf '| snarkjs %s (node %s) | %.2f | 1.0x |\n' "$(node -p "require('$node_dir/snarkjs/package.json').version")" "$(node --version)" "$t_snarkjs"
printf '| cuzk prove (%s) | %.2f | %.1fx |\n' "$(git -C "$top" rev-parse --short HEAD)" "$t_cuzk" "$(awk -v a="$t_snarkjs" -v b="$t_cuzk" 'BEGIN { print a / b }')"
echo
echo "both proofs verified by snarkjs groth16 verify with the key snarkjs exported from the .zkey"
