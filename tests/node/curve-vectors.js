// SPDX-License-Identifier: Apache-2.0
// Reference values for test-curve-ffjs: ffjavascript's BLS12-381 G1 and G2.
// Usage: node curve-vectors.js <cases per group> <seed>
// Prints one JSON object per line, every number a "0x" hex string, every
// byte string plain hex:
//   {"kind":"generators","g1c":bytes,"g2c":bytes}
//       the generators' zcash compressed encodings
//   {"kind":"point","group":"g1"|"g2","k1":s,"k2":s,"k":s,
//    "p":P,"q":Q,"sum":P+Q,"dbl":2P,"kp":k*P,"c":bytes,"u":bytes,"lem":bytes}
//       P = k1*G, Q = k2*G; k is a full-width 256-bit integer (not reduced
//       mod r) in even cases and a small one (< 2^16) in odd cases. Points
//       are affine, [x, y] with Fp2 coordinates as [c0, c1]; infinity is all
//       zeros. c, u, lem encode P: zcash compressed, zcash uncompressed,
//       snarkjs little-endian Montgomery (x then y).
// The first cases of each group are the special ones: P == Q (sum is a
// doubling), Q == -P (sum is infinity), P at infinity.
const { buildBls12381 } = require("ffjavascript");

const [cases, seedArg] = process.argv.slice(2).map((s) => BigInt(s));
const hex = (v) => "0x" + BigInt(v).toString(16);
const bytesHex = (b) => Buffer.from(b).toString("hex");
let curve, r;

// splitmix64, so that the C side can rerun the same vectors from the seed.
let state = seedArg;
function next64() {
        state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
        let z = state;
        z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
        z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
        return z ^ (z >> 31n);
}
function random256() {
        let v = 0n;
        for (let i = 0; i < 4; i++)
                v = (v << 64n) | next64();
        return v;
}

// ffjavascript's compressed form is big-endian x with 0x80 meaning "y is the
// larger root" and 0x40 for infinity; zcash moves the sign to 0x20 and marks
// compression with 0x80. Both use the same sign rule (for Fp2: c1, or c0
// when c1 is 0) and the same Fp2 order (c1 first).
function zcashCompressed(G, p) {
        const b = new Uint8Array(G.F.n8);
        G.toRprCompressed(b, 0, p);
        if (G.isZero(p)) {
                b.fill(0);
                b[0] = 0xc0;
                return b;
        }
        const sign = b[0] & 0x80;
        b[0] = (b[0] & 0x1f) | 0x80 | (sign ? 0x20 : 0);
        return b;
}

function encodings(G, p) {
        const u = new Uint8Array(G.F.n8 * 2);
        const lem = new Uint8Array(G.F.n8 * 2);
        G.toRprUncompressed(u, 0, p);
        if (G.isZero(p)) {
                u.fill(0);
                u[0] = 0x40;
        }
        G.toRprLEM(lem, 0, p);
        return { c: bytesHex(zcashCompressed(G, p)), u: bytesHex(u), lem: bytesHex(lem) };
}

function affine(G, p, isG2) {
        if (G.isZero(p))
                return isG2 ? [["0x0", "0x0"], ["0x0", "0x0"]] : ["0x0", "0x0"];
        const o = G.toObject(G.toAffine(p)).slice(0, 2);
        return isG2 ? o.map((c) => c.map(hex)) : o.map(hex);
}

function emitGroup(name, G) {
        const isG2 = name === "g2";
        for (let i = 0n; i < cases; i++) {
                let k1 = random256() % r, k2 = random256() % r;
                if (i === 0n)
                        k2 = k1;
                else if (i === 1n)
                        k2 = (r - k1) % r;
                else if (i === 2n)
                        k1 = 0n;
                else if (i === 3n)
                        k1 = 1n;
                const k = i % 2n === 0n ? random256() : next64() & 0xffffn;
                const p = G.timesScalar(G.g, k1);
                const q = G.timesScalar(G.g, k2);
                console.log(JSON.stringify({
                        kind: "point", group: name, k1: hex(k1), k2: hex(k2), k: hex(k),
                        p: affine(G, p, isG2), q: affine(G, q, isG2),
                        sum: affine(G, G.add(p, q), isG2), dbl: affine(G, G.double(p), isG2),
                        kp: affine(G, G.timesScalar(p, k), isG2),
                        ...encodings(G, p),
                }));
        }
}

async function main() {
        curve = await buildBls12381(true);
        r = curve.r;
        console.log(JSON.stringify({
                kind: "generators",
                g1c: bytesHex(zcashCompressed(curve.G1, curve.G1.g)),
                g2c: bytesHex(zcashCompressed(curve.G2, curve.G2.g)),
        }));
        emitGroup("g1", curve.G1);
        emitGroup("g2", curve.G2);
}

main().then(() => process.exit(0), (e) => {
        console.error(e);
        process.exit(1);
});
