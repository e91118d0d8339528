// SPDX-License-Identifier: Apache-2.0
// Verifies Groth16 proofs with snarkjs, for tests/formats/test-formats.c.
// Usage: node fixture-verify.js (<vk.json> <public.json> <proof.json>)...
// Prints one JSON line per proof: {"ok": true|false}.
const fs = require("fs");
const snarkjs = require("snarkjs");

async function main() {
    const args = process.argv.slice(2);
    if (args.length == 0 || args.length % 3 != 0) {
        console.error("usage: node fixture-verify.js (<vk.json> <public.json> <proof.json>)...");
        process.exit(2);
    }
    const read = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
    let out = "";
    for (let i = 0; i < args.length; i += 3) {
        const ok = await snarkjs.groth16.verify(read(args[i]), read(args[i + 1]), read(args[i + 2]));
        out += JSON.stringify({ ok }) + "\n";
    }
    process.stdout.write(out, () => process.exit(0));
}

// Exits from the write callback: snarkjs's curve keeps worker threads alive.
main().catch((e) => {
    console.error(e);
    process.exit(1);
});
