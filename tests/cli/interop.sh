#!/usr/bin/env bash
# Interoperability of `cuzk prove` / `cuzk verify` with snarkjs on the
# circom fixtures: our proofs pass `snarkjs groth16 verify`, snarkjs's pass
# `cuzk verify`, and a tampered proof or public input is rejected by both.
# Usage: interop.sh CUZK FIXTURES_DIR SNARKJS_CLI
set -uo pipefail

# shellcheck source=tests/lib/snarkjs-lib.sh
. "$(dirname "$0")/../lib/snarkjs-lib.sh"

# tamper_json FILE OUT EXPR: rewrites a JSON file with a node expression on `j`.
tamper_json() {
        node -e '
const fs = require("fs");
const j = JSON.parse(fs.readFileSync(process.argv[1]));
'"$3"';
fs.writeFileSync(process.argv[2], JSON.stringify(j, null, 1));' "$1" "$2"
}

for c in bits pubinputs edge outputs; do
        vk=$fixtures/$c.vk.json
        "$cuzk" prove "$fixtures/$c.zkey" "$fixtures/$c.wtns" "$work/$c.proof.json" "$work/$c.public.json" ||
                { fail "$c: cuzk prove exited $?"; continue; }
        cmp -s "$work/$c.public.json" "$fixtures/$c.public.json" &&
                ok "$c: cuzk's public.json equals snarkjs's" || fail "$c: public.json differs from snarkjs's"
        snarkjs_accepts "$vk" "$work/$c.public.json" "$work/$c.proof.json" &&
                ok "$c: snarkjs verifies cuzk's proof" || fail "$c: snarkjs rejects cuzk's proof"
        "$cuzk" verify "$vk" "$work/$c.public.json" "$work/$c.proof.json" >/dev/null &&
                ok "$c: cuzk verifies its own proof" || fail "$c: cuzk rejects its own proof"
        "$cuzk" verify "$vk" "$fixtures/$c.public.json" "$fixtures/$c.proof.json" >/dev/null &&
                ok "$c: cuzk verifies snarkjs's proof" || fail "$c: cuzk rejects snarkjs's proof"

        for who in cuzk snarkjs; do
                if [ $who = cuzk ]; then proof=$work/$c.proof.json; else proof=$fixtures/$c.proof.json; fi
                # One byte of the proof changed: the last digit of pi_a's x.
                tamper_json "$proof" "$work/byte.json" \
                        'const x = j.pi_a[0]; j.pi_a[0] = x.slice(0, -1) + ((+x.slice(-1) + 1) % 10)'
                # A valid point, but the wrong one: pi_c replaced by pi_a.
                tamper_json "$proof" "$work/swap.json" 'j.pi_c = j.pi_a'
                # A public input changed (the first signal plus one).
                tamper_json "$fixtures/$c.public.json" "$work/public.json" \
                        'j[0] = (BigInt(j[0]) + 1n).toString()'
                for t in byte swap public; do
                        pub=$fixtures/$c.public.json p=$work/$t.json
                        [ $t = public ] && { pub=$work/public.json; p=$proof; }
                        "$cuzk" verify "$vk" "$pub" "$p" >/dev/null 2>&1
                        rc=$?
                        want=1
                        [ $t = byte ] && want="1 or 2"
                        case "$t:$rc" in
                        byte:1 | byte:2 | swap:1 | public:1) ok "$c: cuzk rejects $who's proof with $t tampering (exit $rc)" ;;
                        *) fail "$c: cuzk verify exited $rc on $who's proof with $t tampering, expected $want" ;;
                        esac
                        snarkjs_accepts "$vk" "$pub" "$p" &&
                                fail "$c: snarkjs accepts $who's proof with $t tampering" ||
                                ok "$c: snarkjs rejects $who's proof with $t tampering"
                done
        done
done

finish
