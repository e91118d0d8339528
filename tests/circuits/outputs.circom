pragma circom 2.0.0;

// Private inputs only: the outputs are the only public signals. A few rounds
// of x -> (x + k + c_i)^5 give dense, non-trivial witness values.

template Pow5Round(c) {
        signal input in;
        signal input key;
        signal output out;
        signal t2;
        signal t4;

        t2 <== (in + key + c) * (in + key + c);
        t4 <== t2 * t2;
        out <== t4 * (in + key + c);
}

template OutputsMain(nRounds) {
        signal input secret;
        signal input key;
        signal output digest;
        signal output lastRound;

        component rounds[nRounds];
        for (var i = 0; i < nRounds; i++) {
                rounds[i] = Pow5Round(i * i * 7 + 3);
                rounds[i].in <== i == 0 ? secret : rounds[i - 1].out;
                rounds[i].key <== key;
        }
        digest <== rounds[nRounds - 1].out;
        lastRound <== rounds[nRounds - 2].out * key;
}

component main = OutputsMain(16);
