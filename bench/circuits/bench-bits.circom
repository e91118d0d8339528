pragma circom 2.0.0;

include "bits-lib.circom"; // found through make-fixtures.sh's -l tests/circuits

// The benchmark against snarkjs: the fixture circuit's shape at 2^16+
// constraints. 224 * 200 bit checks + 112 * 200 xors + 224 recompositions +
// 113 outputs: about 67,500 constraints, a 2^17 domain.
component main {public [in]} = BitsMain(224, 200);
