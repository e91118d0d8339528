#!/usr/bin/env bash
# `cuzk setup --r1cs --zkey --vk` against snarkjs on the circom fixtures:
# snarkjs proves with the key and its proof verifies with the verification
# key snarkjs exports from the key and with ours (equal as JSON); cuzk's
# proof verifies with snarkjs; a changed public input is refused by both;
# two setups draw different toxic waste. Then bad inputs: exit 2 and one line
# on stderr naming the file.
# Usage: test-zkey-write.sh CUZK FIXTURES_DIR SNARKJS_CLI
set -uo pipefail

# shellcheck source=tests/lib/snarkjs-lib.sh
. "$(dirname "$0")/../lib/snarkjs-lib.sh"

# expect WHAT CMD...: PASS when CMD succeeds; not CMD...: CMD fails.
expect() {
        local what=$1
        shift
        if "$@"; then ok "$what"; else fail "$what"; fi
}
not() { ! "$@"; }
# Equal as JSON values (key order aside).
json_equal() {
        node -e '
const fs = require("fs"), assert = require("assert");
const read = (f) => JSON.parse(fs.readFileSync(f));
try { assert.deepStrictEqual(read(process.argv[1]), read(process.argv[2])); } catch (e) { process.exit(1); }' "$1" "$2"
}

for c in bits pubinputs edge outputs; do
        zkey=$work/$c.zkey vk=$work/$c.vk.json
        if ! "$cuzk" setup --r1cs "$fixtures/$c.r1cs" --zkey "$zkey" --vk "$vk" 2>"$work/err"; then
                fail "$c: cuzk setup exited $?: $(cat "$work/err")"
                continue
        fi
        expect "$c: cuzk setup warns that the key is for tests only" \
                grep -q "WARNING: .*not a ceremony.*tests and benchmarks only" "$work/err"
        snarkjs zkey export verificationkey "$zkey" "$work/$c.snarkjs.vk.json" >/dev/null 2>&1 ||
                fail "$c: snarkjs zkey export verificationkey failed"
        expect "$c: our vk.json equals the one snarkjs exports" json_equal "$vk" "$work/$c.snarkjs.vk.json"

        # snarkjs proves with our key.
        snarkjs groth16 prove "$zkey" "$fixtures/$c.wtns" "$work/s.proof.json" "$work/s.public.json" \
                >/dev/null 2>&1 || fail "$c: snarkjs groth16 prove failed"
        expect "$c: snarkjs's proof verifies with snarkjs's vk" \
                snarkjs_accepts "$work/$c.snarkjs.vk.json" "$work/s.public.json" "$work/s.proof.json"
        expect "$c: snarkjs's proof verifies with our vk" \
                snarkjs_accepts "$vk" "$work/s.public.json" "$work/s.proof.json"

        # cuzk proves with our key.
        "$cuzk" prove "$zkey" "$fixtures/$c.wtns" "$work/c.proof.json" "$work/c.public.json" ||
                fail "$c: cuzk prove exited $?"
        expect "$c: snarkjs verifies cuzk's proof" \
                snarkjs_accepts "$work/$c.snarkjs.vk.json" "$work/c.public.json" "$work/c.proof.json"

        # A public input changed (the first signal plus one): refused by both.
        node -e '
const fs = require("fs");
const j = JSON.parse(fs.readFileSync(process.argv[1]));
j[0] = (BigInt(j[0]) + 1n).toString();
fs.writeFileSync(process.argv[2], JSON.stringify(j, null, 1));' "$work/c.public.json" "$work/bad.public.json"
        for who in s c; do
                expect "$c: snarkjs refuses the $who proof with a changed public input" \
                        not snarkjs_accepts "$vk" "$work/bad.public.json" "$work/$who.proof.json"
                "$cuzk" verify "$vk" "$work/bad.public.json" "$work/$who.proof.json" >/dev/null 2>&1
                rc=$?
                expect "$c: cuzk verify refuses the $who proof with a changed public input (exit $rc)" [ $rc = 1 ]
        done
done

# Fresh toxic waste each time: two keys for one circuit differ, and a proof
# made with one does not verify with the other's vk.
"$cuzk" setup --r1cs "$fixtures/edge.r1cs" --zkey "$work/again.zkey" --vk "$work/again.vk.json" 2>/dev/null
expect "two setups give different keys" not cmp -s "$work/edge.zkey" "$work/again.zkey"
expect "a proof does not verify with another setup's vk" \
        not snarkjs_accepts "$work/again.vk.json" "$work/c.public.json" "$work/c.proof.json"
expect "no temporary files left" [ "$(find "$work" -name '.*.tmp-*' | wc -l)" = 0 ]

# expect_bad NAME FILE_TO_NAME ARGS...: cuzk setup ARGS exits 2 with one
# stderr line naming FILE_TO_NAME and writes no key.
expect_bad() {
        local name=$1 file=$2 rc lines
        shift 2
        rm -f "$work/out.zkey"
        "$cuzk" setup "$@" >"$work/out" 2>"$work/err"
        rc=$?
        lines=$(wc -l <"$work/err")
        if [ $rc = 2 ] && [ "$lines" = 1 ] && grep -qF "$file" "$work/err" && [ ! -e "$work/out.zkey" ]; then
                ok "$name: $(cat "$work/err")"
        else
                fail "$name: exit $rc (expected 2), $lines stderr lines (expected 1 naming $file):"
                sed 's/^/    /' "$work/err"
        fi
}

head -c 300 "$fixtures/bits.r1cs" >"$work/truncated.r1cs"
head -c 4096 /dev/urandom >"$work/garbage.r1cs"
# A well-formed r1cs whose 2^28 public outputs need a 2^29 domain: header
# only (no constraints, no wire map), so it is a few bytes.
node -e '
const r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const h = Buffer.alloc(4 + 32 + 4 * 4 + 8 + 4);
h.writeUInt32LE(32, 0);
for (let i = 0; i < 32; i++) h[4 + i] = Number((r >> BigInt(8 * i)) & 0xffn);
h.writeUInt32LE(2 ** 28 + 1, 36); // nWires
h.writeUInt32LE(2 ** 28, 40);     // nPubOut
const head = Buffer.alloc(12), sec = (t, n) => { const b = Buffer.alloc(12); b.writeUInt32LE(t, 0); b.writeBigUInt64LE(BigInt(n), 4); return b; };
head.write("r1cs"); head.writeUInt32LE(1, 4); head.writeUInt32LE(2, 8);
require("fs").writeFileSync(process.argv[1], Buffer.concat([head, sec(1, h.length), h, sec(2, 0)]));' "$work/huge.r1cs"

r1cs=$fixtures/bits.r1cs
expect_bad "BN254 r1cs" edge-bn128.r1cs --r1cs "$fixtures/edge-bn128.r1cs" --zkey "$work/out.zkey"
expect_bad "truncated r1cs" truncated.r1cs --r1cs "$work/truncated.r1cs" --zkey "$work/out.zkey"
expect_bad "garbage r1cs" garbage.r1cs --r1cs "$work/garbage.r1cs" --zkey "$work/out.zkey"
expect_bad "missing r1cs" nonexistent.r1cs --r1cs "$work/nonexistent.r1cs" --zkey "$work/out.zkey"
expect_bad "domain over 2^28" huge.r1cs --r1cs "$work/huge.r1cs" --zkey "$work/out.zkey"
expect_bad "unwritable zkey" /nonexistent/dir/k.zkey --r1cs "$r1cs" --zkey /nonexistent/dir/k.zkey
expect_bad "unwritable vk" /nonexistent/dir/vk.json --r1cs "$r1cs" --zkey "$work/out.zkey" --vk /nonexistent/dir/vk.json
# Usage errors: exit 2, what is wrong on the first line (then the usage).
"$cuzk" setup --r1cs "$r1cs" --vk "$work/vk.json" >/dev/null 2>"$work/err"
rc=$?
expect "no --zkey: exit $rc, $(head -1 "$work/err")" [ $rc = 2 ]
expect "no --zkey: the message names it" grep -q -- "--zkey" "$work/err"
"$cuzk" setup --r1cs "$r1cs" --zkey "$work/out.zkey" extra >/dev/null 2>"$work/err"
rc=$?
expect "an extra argument: exit $rc, $(head -1 "$work/err")" [ $rc = 2 ]
"$cuzk" setup --r1cs --help >"$work/out"
expect "--help describes the r1cs form" grep -q "NOT a ceremony" "$work/out"

finish
