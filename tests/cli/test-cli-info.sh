#!/usr/bin/env bash
# `cuzk info` on every kind of file it knows (snarkjs .zkey/.wtns/.r1cs and
# JSON, PCE, bellperson .params and .vk, real and timing-only, 192-byte
# Filecoin proofs): exit 0 and the lines that say what the file is; on
# garbage, truncated and empty files: exit 2 and one stderr line naming it.
# Usage: test-cli-info.sh CUZK FIXTURES_DIR
set -uo pipefail

cuzk=$(realpath "$1") fx=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

pass() {
        echo "PASS: $1"
        passed=$((passed + 1))
}

fail() {
        echo "FAIL: $1"
        [ -s "$work/out" ] && sed 's/^/    out: /' "$work/out"
        [ -s "$work/err" ] && sed 's/^/    err: /' "$work/err"
        failed=$((failed + 1))
}

# expect_info FILE LINE...: exit 0, and every LINE is a whole line of stdout.
expect_info() {
        local file=$1 rc line
        shift
        "$cuzk" info "$file" >"$work/out" 2>"$work/err"
        rc=$?
        if [ $rc != 0 ]; then
                fail "info $(basename "$file"): exit $rc, expected 0"
                return
        fi
        for line in "file: $file" "size_bytes: $(stat -c %s "$file")" "$@"; do
                if ! grep -qxF -- "$line" "$work/out"; then
                        fail "info $(basename "$file"): no line '$line'"
                        return
                fi
        done
        pass "info $(basename "$file"): $(grep '^type: ' "$work/out")"
}

# expect_bad FILE PHRASE: exit 2, one stderr line naming FILE and saying PHRASE.
expect_bad() {
        local file=$1 phrase=$2 rc lines
        "$cuzk" info "$file" >"$work/out" 2>"$work/err"
        rc=$?
        lines=$(wc -l <"$work/err")
        if [ $rc = 2 ] && [ "$lines" = 1 ] && grep -qF "$file" "$work/err" &&
                grep -qF -- "$phrase" "$work/err"; then
                pass "info $(basename "$file") refused: $(cat "$work/err")"
        else
                fail "info $(basename "$file"): exit $rc (expected 2), $lines stderr lines (expected 1 naming the file and saying '$phrase')"
        fi
}

# A PCE, its keys (real and timing-only) and a proof, as the README shows.
cd "$work" || exit 1
if ! "$cuzk" pce synth --rows 300 --seed 1 --aux 500 --public 2 c.pce c.wtns ||
        ! "$cuzk" setup --pce c.pce --params c.params --vk c.vk --seed 01 2>/dev/null ||
        ! "$cuzk" setup --pce c.pce --params t.params --vk t.vk --timing-only 2>/dev/null ||
        ! "$cuzk" prove --pce c.pce --params c.params --witness c.wtns --proof c.proof \
                --public c.public.json; then
        echo "FAIL: could not make the files to describe"
        exit 1
fi
cat c.proof c.proof c.proof >three.proof

expect_info "$fx/bits.zkey" "type: snarkjs proving key (.zkey)" "curve: bls12381"
expect_info "$fx/bits.wtns" "type: snarkjs witness (.wtns)"
expect_info "$fx/bits.r1cs" "type: circom constraint system (.r1cs)"
expect_info "$fx/bits.proof.json" "type: snarkjs proof (proof.json)"
expect_info "$fx/bits.public.json" "type: snarkjs public signals (public.json)"
expect_info "$fx/bits.vk.json" "type: snarkjs verification key (vk.json)"
expect_info "$work/c.pce" "type: cuzk precompiled constraints (.pce)" "rows: 300" \
        "constraints: 297" "wires: 503" "public_inputs: 2" "domain_size: 512 (2^9)"
expect_info "$work/c.params" "type: bellperson Groth16 parameters (.params)" \
        "timing_only: no" "wires: 503" "public_inputs: 2" "private_wires: 500" \
        "domain_size: 512 (2^9)" "points: h 511, l 500, a 503, b_g1 503, b_g2 503, ic 3" \
        "points_per_wire: one (cuzk setup)" "expected_bytes: $(stat -c %s c.params)"
expect_info "$work/t.params" "type: bellperson Groth16 parameters (.params)" \
        "timing_only: yes (random points: no proof made with this key verifies)" \
        "domain_size: 512 (2^9)" "expected_bytes: $(stat -c %s t.params)"
expect_info "$work/c.vk" "type: bellperson verifying key (.vk)" "timing_only: no" \
        "public_inputs: 2" "ic_points: 3" "expected_bytes: $(stat -c %s c.vk)"
expect_info "$work/t.vk" "type: bellperson verifying key (.vk)" \
        "timing_only: yes (random points: no proof made with this key verifies)" \
        "expected_bytes: $(stat -c %s t.vk)"
expect_info "$work/c.proof" "type: Filecoin Groth16 proof (bellperson, 192 bytes a partition)" \
        "partitions: 1"
expect_info "$work/three.proof" "partitions: 3"

# `cuzk pce info` prints the same lines for a PCE file.
"$cuzk" info c.pce | grep -v '^file: ' >info.txt
"$cuzk" pce info c.pce | grep -v '^file: ' >pce-info.txt
if cmp -s info.txt pce-info.txt; then
        pass "info and pce info agree on c.pce"
else
        fail "info and pce info differ on c.pce: $(diff info.txt pce-info.txt | tr '\n' ' ')"
fi

head -c 4096 /dev/urandom >garbage.bin
: >empty.bin
head -c 5000 c.params >truncated.params
head -c 1000 c.pce >truncated.pce
head -c 191 c.proof >short.proof
# A proof whose A point is no point: flipped bits in its x coordinate.
{ head -c 20 c.proof; printf '\377\377\377\377'; tail -c +25 c.proof; } >bad.proof
expect_bad "$work/garbage.bin" "unknown file type"
expect_bad "$work/empty.bin" "unknown file type"
expect_bad "$work/short.proof" "unknown file type"
expect_bad "$work/truncated.params" "the file has 5000 bytes"
expect_bad "$work/truncated.pce" "truncated"
expect_bad "$work/bad.proof" "proof A"
expect_bad "$work/missing.vk" "cannot open"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
