// SPDX-License-Identifier: Apache-2.0
// Reference MSMs for tests/zk/test-msm-ffjs.c, computed by ffjavascript's
// G1.multiExpAffine / G2.multiExpAffine (the functions snarkjs proves with).
// Usage: node msm-vectors.js <seed> <size>...
// Prints, per group and size, one JSON line:
//   {"group": "G1", "n": N, "points": [[x, y], ...], "scalars": [k, ...],
//    "result": [x, y]}
// Coordinates are "0x" hex strings (G2: [c0, c1] pairs); the point at
// infinity is x = y = 0. Scalars are canonical integers below r, passed to
// ffjavascript as 32-byte little-endian words like a .wtns witness.
const { getCurveFromName, Scalar } = require("ffjavascript");

const R = Scalar.e("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
const MASK64 = (1n << 64n) - 1n;

// splitmix64: small, deterministic, independent of the C side's generator.
let rngState = 0n;
function rngU64() {
    rngState = (rngState + 0x9e3779b97f4a7c15n) & MASK64;
    let z = rngState;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
}

function rngBelowR() {
    let v = 0n;
    for (let i = 0; i < 4; i++) v = (v << 64n) | rngU64();
    return v % R;
}

// Mostly random full-width scalars, with the values an MSM treats
// specially (0, 1, r-1, small) mixed in.
function pickScalar() {
    switch (Number(rngU64() % 8n)) {
    case 0: return 0n;
    case 1: return 1n;
    case 2: return R - 1n;
    case 3: return rngU64() % 1000n;
    default: return rngBelowR();
    }
}

const hex = (v) => "0x" + v.toString(16);

function coordToJson(F, buf) {
    const o = F.toObject(buf);
    return Array.isArray(o) ? o.map(hex) : hex(o);
}

function affineToJson(G, p) {
    const F = G.F;
    if (G.isZero(p)) {
        const zero = coordToJson(F, F.zero);
        return [zero, zero];
    }
    const a = G.toAffine(p);
    return [coordToJson(F, a.slice(0, F.n8)), coordToJson(F, a.slice(F.n8, 2 * F.n8))];
}

async function emitCase(curve, groupName, n) {
    const G = curve[groupName];
    const sPoint = G.F.n8 * 2;
    const bases = new Uint8Array(n * sPoint);
    const scalars = new Uint8Array(n * 32);
    const pointsJson = [];
    const scalarsJson = [];

    for (let i = 0; i < n; i++) {
        // One point in 16 is the point at infinity, which MSMs must skip.
        const p = rngU64() % 16n === 0n ? G.zeroAffine : G.toAffine(G.timesScalar(G.g, rngBelowR()));
        bases.set(p, i * sPoint);
        pointsJson.push(affineToJson(G, p));
        const k = pickScalar();
        Scalar.toRprLE(scalars, i * 32, k, 32);
        scalarsJson.push(hex(k));
    }
    const result = await G.multiExpAffine(bases, scalars);
    console.log(JSON.stringify({
        group: groupName,
        n: n,
        points: pointsJson,
        scalars: scalarsJson,
        result: affineToJson(G, result),
    }));
}

async function main() {
    const args = process.argv.slice(2);
    if (args.length < 2) {
        console.error("usage: msm-vectors.js <seed> <size>...");
        process.exit(2);
    }
    rngState = BigInt(args[0]);
    const sizes = args.slice(1).map((s) => parseInt(s, 10));
    const curve = await getCurveFromName("bls12381", true);
    for (const groupName of ["G1", "G2"])
        for (const n of sizes)
            await emitCase(curve, groupName, n);
    await curve.terminate();
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
