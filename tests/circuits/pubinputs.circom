pragma circom 2.0.0;

// Twelve public inputs and no outputs: the public signals are inputs only.
// Each public input is tied to a private key by a product chain, so every
// public wire has coefficients in all three matrices.

template PubInputsMain(n) {
        signal input x[n];
        signal input key;
        signal scaled[n];
        signal chain[n];

        for (var i = 0; i < n; i++)
                scaled[i] <== x[i] * key;
        chain[0] <== scaled[0] * x[n - 1];
        for (var i = 1; i < n; i++)
                chain[i] <== chain[i - 1] * scaled[i] + x[i];
}

component main {public [x]} = PubInputsMain(12);
