/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Exponentiation r = a^e, e given as n little-endian 64-bit limbs, written
 * once for Fp, Fr and Fp2. Included after defining:
 *   POW_NAME              the function's name
 *   POW_T                 the element type
 *   POW_SET_ONE(r)        r = 1
 *   POW_MUL(r, a, b)      r = a * b (r may alias)
 *   POW_SQR(r, a)         r = a^2
 * Left to right with a fixed 4-bit window: 14 products fill the table,
 * then each window costs four squarings and at most one product (about
 * half the products of square-and-multiply). Below 64 bits the table does
 * not pay for itself and plain square-and-multiply runs instead. Leading
 * zero bits cost nothing; a^0 = 1, including 0^0.
 */
#include <assert.h>
#include <stdbool.h>

void POW_NAME(POW_T *r, const POW_T *a, const uint64_t *e, size_t n) {
        POW_T table[16], acc;
        size_t bits = 0;
        bool started = false;

        assert(r && a && (e || n == 0));

        for (size_t i = n; i-- > 0;)
                if (e[i]) {
                        bits = 64 * i + 64 - (size_t)__builtin_clzll(e[i]);
                        break;
                }
        POW_SET_ONE(&acc);
        if (bits < 64) {
                for (size_t bit = bits; bit-- > 0;) {
                        if (started)
                                POW_SQR(&acc, &acc);
                        if ((e[0] >> bit) & 1) {
                                POW_MUL(&acc, &acc, a);
                                started = true;
                        }
                }
                *r = acc;
                return;
        }

        POW_SET_ONE(&table[0]);
        table[1] = *a;
        for (size_t k = 2; k < 16; k++)
                POW_MUL(&table[k], &table[k - 1], a);
        for (size_t i = n; i-- > 0;)
                for (int shift = 60; shift >= 0; shift -= 4) {
                        unsigned window = (unsigned)(e[i] >> shift) & 0xf;
                        if (started)
                                for (int s = 0; s < 4; s++)
                                        POW_SQR(&acc, &acc);
                        if (window) {
                                POW_MUL(&acc, &acc, &table[window]);
                                started = true;
                        }
                }
        *r = acc;
}

#undef POW_NAME
#undef POW_T
#undef POW_SET_ONE
#undef POW_MUL
#undef POW_SQR
