// SPDX-License-Identifier: Apache-2.0
// Verifies a Groth16 proof with snarkjs, for tests/test-formats.c.
// Usage: node fixture-verify.js <vk.json> <public.json> <proof.json>
// Prints one JSON line: {"ok": true|false}.
const fs = require("fs");
const snarkjs = require("snarkjs");

async function main() {
    const [vkFile, publicFile, proofFile] = process.argv.slice(2);
    if (!proofFile) {
        console.error("usage: node fixture-verify.js <vk.json> <public.json> <proof.json>");
        process.exit(2);
    }
    const read = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
    const ok = await snarkjs.groth16.verify(read(vkFile), read(publicFile), read(proofFile));
    process.stdout.write(JSON.stringify({ ok }) + "\n", () => process.exit(0));
}

// Exits from the write callback: snarkjs's curve keeps worker threads alive.
main().catch((e) => {
    console.error(e);
    process.exit(1);
});
