pragma circom 2.0.0;

// Boolean-heavy circuit: each input is decomposed into bits (one booleanity
// constraint per bit), the bits of input pairs are xor-ed, and the xor bits
// are recombined into outputs. Most witness values are 0 or 1, the shape of
// the PoRep circuits whose 0/1 scalars the prover special-cases.

template ToBits(n) {
        signal input in;
        signal output bits[n];

        var sum = 0;
        var weight = 1;
        for (var i = 0; i < n; i++) {
                bits[i] <-- (in >> i) & 1;
                bits[i] * (bits[i] - 1) === 0;
                sum += bits[i] * weight;
                weight += weight;
        }
        sum === in;
}

template XorBits(n) {
        signal input a[n];
        signal input b[n];
        signal output out[n];

        for (var i = 0; i < n; i++)
                out[i] <== a[i] + b[i] - 2 * a[i] * b[i];
}

template FromBits(n) {
        signal input bits[n];
        signal output out;

        var sum = 0;
        var weight = 1;
        for (var i = 0; i < n; i++) {
                sum += bits[i] * weight;
                weight += weight;
        }
        out <== sum;
}

template BitsMain(nInputs, nBits) {
        signal input in[nInputs];
        signal output mixed[nInputs / 2];
        signal output popcount;

        component split[nInputs];
        for (var i = 0; i < nInputs; i++) {
                split[i] = ToBits(nBits);
                split[i].in <== in[i];
        }

        component xors[nInputs / 2];
        component join[nInputs / 2];
        var ones = 0;
        for (var j = 0; j < nInputs / 2; j++) {
                xors[j] = XorBits(nBits);
                join[j] = FromBits(nBits);
                for (var i = 0; i < nBits; i++) {
                        xors[j].a[i] <== split[2 * j].bits[i];
                        xors[j].b[i] <== split[2 * j + 1].bits[i];
                }
                // A component's outputs are readable once all its inputs are set.
                for (var i = 0; i < nBits; i++) {
                        join[j].bits[i] <== xors[j].out[i];
                        ones += xors[j].out[i];
                }
                mixed[j] <== join[j].out;
        }
        popcount <== ones;
}
