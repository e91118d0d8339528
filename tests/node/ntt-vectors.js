// SPDX-License-Identifier: Apache-2.0
// Reference values for test-ntt-ffjs: ffjavascript's BLS12-381 Fr FFT (the
// wasm engine snarkjs proves with) and its roots of unity.
// Usage: node ntt-vectors.js <seed> <log sizes, comma separated>
// Prints one JSON object per line, every number a "0x" hex string:
//   {"kind":"root","log":k,"w":x,"wi":x,"w_f1":x}
//       curve.Fr.w[k] (wasm), its inverse and F1Field(r).w[k] (BigInt).
//   {"kind":"fft","log":k,"in":[...],"out":[...]}     out = Fr.fft(in)
//   {"kind":"ifft","log":k,"in":[...],"out":[...]}    out = Fr.ifft(in)
//   {"kind":"snarkjs_h","log":k,"in":[...],"out":[...]}
//       groth16_prove.js's coset step on evaluations `in`:
//       Fr.fft(Fr.batchApplyKey(Fr.ifft(in), 1, Fr.w[k+1])).
const { buildBls12381, F1Field } = require("ffjavascript");

const seedArg = BigInt(process.argv[2]);
const logs = process.argv[3].split(",").map((s) => parseInt(s, 10));
const hex = (v) => "0x" + BigInt(v).toString(16);

// splitmix64, as the other reference scripts.
let state = seedArg;
function next64() {
        state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
        let z = state;
        z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
        z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
        return z ^ (z >> 31n);
}

async function main() {
        const curve = await buildBls12381(true);
        const Fr = curve.Fr;
        const r = BigInt(curve.r);
        const F1 = new F1Field(r);

        function randomVector(n) {
                const v = new Array(n);
                for (let i = 0; i < n; i++) {
                        let x = 0n;
                        for (let j = 0; j < 4; j++)
                                x = (x << 64n) | next64();
                        v[i] = Fr.e(x % r);
                }
                return v;
        }
        const toHex = (arr) => arr.map((x) => hex(Fr.toObject(x)));
        const print = (o) => process.stdout.write(JSON.stringify(o) + "\n");

        for (let k = 0; k <= 32; k++)
                print({ kind: "root", log: k, w: hex(Fr.toObject(Fr.w[k])),
                        wi: hex(Fr.toObject(Fr.inv(Fr.w[k]))), w_f1: hex(F1.w[k]) });

        for (const k of logs) {
                const n = 1 << k;
                let v = randomVector(n);
                print({ kind: "fft", log: k, in: toHex(v), out: toHex(await Fr.fft(v)) });

                v = randomVector(n);
                print({ kind: "ifft", log: k, in: toHex(v), out: toHex(await Fr.ifft(v)) });

                v = randomVector(n);
                const coefficients = await Fr.ifft(v);
                const buff = new Uint8Array(n * Fr.n8);
                coefficients.forEach((x, i) => buff.set(x, i * Fr.n8));
                const shifted = await Fr.batchApplyKey(buff, Fr.e(1), Fr.w[k + 1]);
                const evals = await Fr.fft(shifted);
                const out = [];
                for (let i = 0; i < n; i++)
                        out.push(hex(Fr.toObject(evals.slice(i * Fr.n8, (i + 1) * Fr.n8))));
                print({ kind: "snarkjs_h", log: k, in: toHex(v), out });
        }
        await curve.terminate();
}

main().catch((e) => {
        console.error(e);
        process.exit(1);
});
