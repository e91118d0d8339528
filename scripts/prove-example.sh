#!/usr/bin/env bash
# The main job: installs what is needed, builds cuzk, makes the bundled circom
# example (tests/circuits/bits.circom: 2,413 constraints, mostly booleans) with
# circom2 + snarkjs, proves it with `cuzk prove`, and verifies the proof with
# both `cuzk verify` and `snarkjs groth16 verify`.
# Usage: scripts/prove-example.sh [CIRCUIT]   (bits, pubinputs, edge, outputs)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
circuit=${1:-bits}

scripts/ensure-deps.sh
[ -f build/build.ninja ] || meson setup build
ninja -C build cli/cuzk

out=build/example
tests/fixtures/make-fixtures.sh "$out" "$circuit"

echo
build/cli/cuzk info "$out/$circuit.zkey"
echo
build/cli/cuzk --verbose prove "$out/$circuit.zkey" "$out/$circuit.wtns" \
        "$out/$circuit.cuzk-proof.json" "$out/$circuit.cuzk-public.json"
echo "cuzk verify:   $(build/cli/cuzk verify "$out/$circuit.vk.json" "$out/$circuit.cuzk-public.json" \
        "$out/$circuit.cuzk-proof.json")"
echo "snarkjs verify: $(node tests/node/node_modules/snarkjs/build/cli.cjs groth16 verify \
        "$out/$circuit.vk.json" "$out/$circuit.cuzk-public.json" "$out/$circuit.cuzk-proof.json" 2>&1 |
        sed 's/\x1b\[[0-9;]*m//g')"
echo "proof: $out/$circuit.cuzk-proof.json  public signals: $out/$circuit.cuzk-public.json"
