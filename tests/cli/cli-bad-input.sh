#!/usr/bin/env bash
# `cuzk prove`, `cuzk verify` and `cuzk info` on bad input: each case must exit
# with status 2 and say why in exactly one line on stderr, naming the file.
# Usage: cli-bad-input.sh CUZK FIXTURES_DIR
set -uo pipefail

cuzk=$1 fx=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# expect_bad NAME FILE_TO_NAME CMD...: exit 2, one stderr line naming FILE_TO_NAME.
expect_bad() {
        local name=$1 file=$2 rc lines
        shift 2
        "$@" >"$work/out" 2>"$work/err"
        rc=$?
        lines=$(wc -l <"$work/err")
        if [ $rc = 2 ] && [ "$lines" = 1 ] && grep -qF "$file" "$work/err"; then
                echo "PASS: $name: $(cat "$work/err")"
                passed=$((passed + 1))
        else
                echo "FAIL: $name: exit $rc (expected 2), $lines stderr lines (expected 1 naming $file):"
                sed 's/^/    /' "$work/err"
                failed=$((failed + 1))
        fi
}

head -c 1000 "$fx/bits.zkey" >"$work/truncated.zkey"
head -c 200 "$fx/bits.wtns" >"$work/truncated.wtns"
head -c 300 "$fx/bits.r1cs" >"$work/truncated.r1cs"
head -c 4096 /dev/urandom >"$work/garbage.bin"
printf 'zkey\001\000\000\000garbage' >"$work/garbage.zkey"
printf '{"pi_a": [1, 2' >"$work/broken.json"
sed 's/"groth16"/"plonk"/' "$fx/bits.proof.json" >"$work/plonk.proof.json"
sed 's/"bls12381"/"bn128"/' "$fx/bits.vk.json" >"$work/bn128.vk.json"

expect_bad "prove: truncated zkey" truncated.zkey "$cuzk" prove "$work/truncated.zkey" "$fx/bits.wtns" "$work/p" "$work/q"
expect_bad "prove: truncated witness" truncated.wtns "$cuzk" prove "$fx/bits.zkey" "$work/truncated.wtns" "$work/p" "$work/q"
expect_bad "prove: garbage zkey" garbage.zkey "$cuzk" prove "$work/garbage.zkey" "$fx/bits.wtns" "$work/p" "$work/q"
expect_bad "prove: PLONK zkey (wrong protocol)" edge.plonk.zkey "$cuzk" prove "$fx/edge.plonk.zkey" "$fx/edge.wtns" "$work/p" "$work/q"
expect_bad "prove: BN254 witness (wrong curve)" edge-bn128.wtns "$cuzk" prove "$fx/edge.zkey" "$fx/edge-bn128.wtns" "$work/p" "$work/q"
expect_bad "prove: witness of another circuit (count)" edge.wtns "$cuzk" prove "$fx/bits.zkey" "$fx/edge.wtns" "$work/p" "$work/q"
expect_bad "prove: missing file" nonexistent.zkey "$cuzk" prove "$work/nonexistent.zkey" "$fx/bits.wtns" "$work/p" "$work/q"
expect_bad "verify: broken JSON proof" broken.json "$cuzk" verify "$fx/bits.vk.json" "$fx/bits.public.json" "$work/broken.json"
expect_bad "verify: PLONK proof (wrong protocol)" plonk.proof.json "$cuzk" verify "$fx/bits.vk.json" "$fx/bits.public.json" "$work/plonk.proof.json"
expect_bad "verify: BN254 key (wrong curve)" bn128.vk.json "$cuzk" verify "$work/bn128.vk.json" "$fx/bits.public.json" "$fx/bits.proof.json"
expect_bad "verify: public signals of another circuit (count)" edge.public.json "$cuzk" verify "$fx/bits.vk.json" "$fx/edge.public.json" "$fx/bits.proof.json"
expect_bad "info: garbage" garbage.bin "$cuzk" info "$work/garbage.bin"
expect_bad "info: truncated r1cs" truncated.r1cs "$cuzk" info "$work/truncated.r1cs"
expect_bad "info: BN254 r1cs (wrong curve)" edge-bn128.r1cs "$cuzk" info "$fx/edge-bn128.r1cs"
[ -e "$work/p" ] && { echo "FAIL: a failed prove left a proof file behind"; failed=$((failed + 1)); }

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
