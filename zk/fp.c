/* SPDX-License-Identifier: Apache-2.0 */
#include "fp.h"

#include "mont_x86_64.h"

const uint64_t BLS12_381_P[FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                        0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                        0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
/* 2^384 mod p */
static const uint64_t FP_ONE_MONT[FP_LIMBS] = {0x760900000002fffdULL, 0xebf4000bc40c0002ULL,
                                               0x5f48985753c758baULL, 0x77ce585370525745ULL,
                                               0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL};
/* 2^768 mod p */
static const uint64_t FP_R2[FP_LIMBS] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL,
                                         0x8de5476c4c95b6d5ULL, 0x67eb88a9939d83c0ULL,
                                         0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};
/* 2^1152 mod p */
static const uint64_t FP_R3[FP_LIMBS] = {0xed48ac6bd94ca1e0ULL, 0x315f831e03a7adf8ULL,
                                         0x9a53352a615e29ddULL, 0x34c04e5e921e1761ULL,
                                         0x2512d43565724728ULL, 0x0aa6346091755d4dULL};
/* -p^-1 mod 2^64 */
#define FP_N0 0x89f3fffcfffcfffdULL

#define PF(name) fp_##name
#define PF_T fp_t
#define PF_LIMBS FP_LIMBS
#define PF_MODULUS BLS12_381_P
#define PF_ONE FP_ONE_MONT
#define PF_R2 FP_R2
#define PF_R3 FP_R3
#define PF_N0 FP_N0
#if ZK_HAVE_MONT_ADX
#define PF_MUL_FAST(r, a, b) mont_mul_6_adx(r, a, b, BLS12_381_P, FP_N0)
#define PF_SQR_FAST(r, a) mont_sqr_6_adx(r, a, BLS12_381_P, FP_N0)
#define PF_ADD_FAST(r, a, b) mont_add_6_x86(r, a, b, BLS12_381_P)
#define PF_SUB_FAST(r, a, b) mont_sub_6_x86(r, a, b, BLS12_381_P)
#endif
#include "prime_field_impl.h"

/* p = 3 mod 4, so a square root of a is a^((p+1)/4). */
bool fp_sqrt(fp_t *r, const fp_t *a) {
        uint64_t e[FP_LIMBS];
        static const uint64_t one[FP_LIMBS] = {1};
        fp_t s, check;

        mont_add_raw(e, BLS12_381_P, one, FP_LIMBS);
        for (size_t i = 0; i < FP_LIMBS; i++)
                e[i] = (e[i] >> 2) | (i + 1 < FP_LIMBS ? e[i + 1] << 62 : 0);
        fp_pow(&s, a, e, FP_LIMBS);
        fp_sqr(&check, &s);
        if (!fp_equal(&check, a))
                return false;
        *r = s;
        return true;
}
