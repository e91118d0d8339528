// SPDX-License-Identifier: Apache-2.0
// Dumps fixtures as snarkjs itself reads them, for tests/formats/test-formats.c.
// Usage: node fixture-dump.js r1cs|wtns|zkey <file>...
// (several files in one run share snarkjs's start-up and curve set-up)
// Prints JSON lines; numbers are "0x" hex strings of canonical values,
// points are ffjavascript's toObject() form ([x, y, 1], [0, 1, 0] for
// infinity; G2 coordinates as [c0, c1]). Per file, in order:
//   r1cs: {"n8", "prime", "nVars", "nOutputs", "nPubInputs", "nPrvInputs",
//          "nLabels", "nConstraints"}, then per constraint
//          {"A": {wire: value}, "B": {...}, "C": {...}}
//   wtns: {"values": [...]}
//   zkey: {header fields and vk points}, {"IC"}, {"ccoefs": [[matrix,
//          constraint, signal, value], ...]}, {"A"}, {"B1"}, {"B2"},
//          {"C"} (private wires only), {"hExps"}
const fs = require("fs");
const snarkjs = require("snarkjs");

// Decimal strings (snarkjs's stringifyBigInts) -> "0x" hex, recursively.
function hexify(v) {
    if (typeof v === "string" && /^[0-9]+$/.test(v)) return "0x" + BigInt(v).toString(16);
    if (typeof v === "bigint") return "0x" + v.toString(16);
    if (Array.isArray(v)) return v.map(hexify);
    if (v !== null && typeof v === "object") {
        const out = {};
        for (const k of Object.keys(v)) out[k] = hexify(v[k]);
        return out;
    }
    return v;
}

function print(obj) {
    process.stdout.write(JSON.stringify(obj) + "\n");
}

// Resolves once everything written to stdout is flushed, so that
// process.exit() does not cut a pipe's pending output.
function flushed() {
    return new Promise((resolve) => process.stdout.write("", resolve));
}

async function dumpR1cs(file) {
    const cir = await snarkjs.r1cs.exportJson(file);
    print(hexify({
        n8: cir.n8, prime: cir.prime, nVars: cir.nVars, nOutputs: cir.nOutputs,
        nPubInputs: cir.nPubInputs, nPrvInputs: cir.nPrvInputs, nLabels: cir.nLabels,
        nConstraints: cir.nConstraints,
    }));
    for (const [a, b, c] of cir.constraints) print(hexify({ A: a, B: b, C: c }));
}

async function dumpWtns(file) {
    print({ values: hexify(await snarkjs.wtns.exportJson(file)) });
}

async function dumpZkey(file) {
    const z = await snarkjs.zKey.exportJson(file);
    print(hexify({
        protocol: z.protocol, n8q: z.n8q, q: z.q, n8r: z.n8r, r: z.r, nVars: z.nVars,
        nPublic: z.nPublic, domainSize: z.domainSize, power: z.power,
        vk_alpha_1: z.vk_alpha_1, vk_beta_1: z.vk_beta_1, vk_beta_2: z.vk_beta_2,
        vk_gamma_2: z.vk_gamma_2, vk_delta_1: z.vk_delta_1, vk_delta_2: z.vk_delta_2,
    }));
    print({ IC: hexify(z.IC) });
    print({ ccoefs: z.ccoefs.map((c) => [c.matrix, c.constraint, c.signal, hexify(c.value)]) });
    print({ A: hexify(z.A) });
    print({ B1: hexify(z.B1) });
    print({ B2: hexify(z.B2) });
    // snarkjs indexes C by wire; the wires up to nPublic have none.
    print({ C: hexify(z.C.slice(z.nPublic + 1)) });
    print({ hExps: hexify(z.hExps) });
}

async function main() {
    const [kind, ...files] = process.argv.slice(2);
    const dump = { r1cs: dumpR1cs, wtns: dumpWtns, zkey: dumpZkey }[kind];
    if (!dump || files.length == 0) {
        console.error("usage: node fixture-dump.js r1cs|wtns|zkey <file>...");
        process.exit(2);
    }
    for (const file of files) await dump(file);
    await flushed();
}

// The curves snarkjs builds keep worker threads alive: exit explicitly.
main().then(() => process.exit(0), (e) => {
    console.error(e);
    process.exit(1);
});
