pragma circom 2.0.0;

include "bits-lib.circom";

// 8 * 200 bit checks + 8 recompositions + 4 * 200 xors + 5 outputs: 2413 constraints.
component main {public [in]} = BitsMain(8, 200);
