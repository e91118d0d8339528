// SPDX-License-Identifier: Apache-2.0
// Reference values for test-pairing-ffjs: ffjavascript's BLS12-381 pairing.
// Usage: node pairing-vectors.js <pairings> <products> <seed>
// Prints one JSON object per line, every number a "0x" hex string:
//   {"kind":"pairing","k1":s,"k2":s,"p":[x,y],"q":[[x0,x1],[y0,y1]],"e":[12 x Fp]}
//       P = k1*G1, Q = k2*G2 (affine; infinity is [0,0]; k2 != 0), e = e(P, Q) as the
//       Fp12 coefficients c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1.
//   {"kind":"product","p":[4 G1],"q":[4 G2],"is_one":bool}
//       whether prod e(p[i], q[i]) == 1 according to ffjavascript's pairingEq.
const { buildBls12381 } = require("ffjavascript");

const [pairings, products, seedArg] = process.argv.slice(2).map((s) => BigInt(s));
const hex = (v) => "0x" + BigInt(v).toString(16);
let curve, r;

// splitmix64, so that the C side can be rerun on the same vectors.
let state = seedArg;
function next64() {
        state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
        let z = state;
        z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
        z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
        return z ^ (z >> 31n);
}
function randomScalar() {
        let v = 0n;
        for (let i = 0; i < 4; i++)
                v = (v << 64n) | next64();
        return v % r;
}
function modPow(b, e, m) {
        let acc = 1n;
        b %= m;
        for (; e > 0n; e >>= 1n, b = (b * b) % m)
                if (e & 1n)
                        acc = (acc * b) % m;
        return acc;
}

function g1Affine(k) {
        const p = curve.G1.toAffine(curve.G1.timesScalar(curve.G1.g, k));
        if (curve.G1.isZero(p))
                return ["0x0", "0x0"];
        return curve.G1.toObject(p).slice(0, 2).map(hex);
}
function g2Affine(k) {
        const q = curve.G2.toAffine(curve.G2.timesScalar(curve.G2.g, k));
        if (curve.G2.isZero(q))
                return [["0x0", "0x0"], ["0x0", "0x0"]];
        return curve.G2.toObject(q).slice(0, 2).map((c) => c.map(hex));
}
function g1Point(k) {
        return curve.G1.timesScalar(curve.G1.g, k);
}
function g2Point(k) {
        return curve.G2.timesScalar(curve.G2.g, k);
}

async function main() {
        curve = await buildBls12381(true);
        r = curve.r;

        for (let i = 0n; i < pairings; i++) {
                // The first vectors cover the generators and P at infinity. Q at
                // infinity is left out: ffjavascript 0.3.1 gives e(P, O) = 0 there
                // (wasmcurves' millerLoop tests the prepared G2 point with the G1
                // isZero, which reads Q's y and sees 1), so its value is not a
                // reference; test-pairing checks that ours is 1.
                let k1 = randomScalar(), k2 = randomScalar();
                if (i === 0n)
                        [k1, k2] = [1n, 1n];
                else if (i === 1n)
                        k1 = 0n;
                const e = curve.pairing(g1Point(k1), g2Point(k2));
                const flat = curve.Gt.toObject(e).flat(2).map(hex);
                console.log(JSON.stringify({
                        kind: "pairing", k1: hex(k1), k2: hex(k2),
                        p: g1Affine(k1), q: g2Affine(k2), e: flat,
                }));
        }

        // Four-pairing products shaped like a Groth16 check: sum a_i b_i = 0 mod r
        // gives 1; every other product perturbs one scalar so that it does not.
        for (let i = 0n; i < products; i++) {
                const a = [randomScalar(), randomScalar(), randomScalar(), randomScalar()];
                const b = [randomScalar(), randomScalar(), randomScalar(), randomScalar()];
                let partial = 0n;
                for (let j = 0; j < 3; j++)
                        partial = (partial + a[j] * b[j]) % r;
                a[3] = ((r - partial) * modPow(b[3], r - 2n, r)) % r;
                if (i % 2n === 1n)
                        a[3] = (a[3] + 1n) % r;
                const args = [];
                for (let j = 0; j < 4; j++)
                        args.push(g1Point(a[j]), g2Point(b[j]));
                const isOne = await curve.pairingEq(...args);
                console.log(JSON.stringify({
                        kind: "product",
                        p: a.map(g1Affine), q: b.map(g2Affine), is_one: isOne,
                }));
        }

        await curve.terminate();
}

main().catch((err) => {
        console.error(err);
        process.exit(1);
});
