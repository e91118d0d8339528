/* SPDX-License-Identifier: Apache-2.0 */
#include "fr.h"

#include "mont_x86_64.h"

const uint64_t BLS12_381_R[FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                        0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
/* 2^256 mod r */
static const uint64_t FR_ONE_MONT[FR_LIMBS] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL,
                                               0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL};
/* 2^512 mod r */
static const uint64_t FR_R2[FR_LIMBS] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL,
                                         0x05d314967254398fULL, 0x0748d9d99f59ff11ULL};
/* 2^768 mod r */
static const uint64_t FR_R3[FR_LIMBS] = {0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL,
                                         0x73d13c71c7b5f418ULL, 0x6e2a5bb9c8db33e9ULL};
/* -r^-1 mod 2^64 */
#define FR_N0 0xfffffffeffffffffULL

#define PF(name) fr_##name
#define PF_T fr_t
#define PF_LIMBS FR_LIMBS
#define PF_MODULUS BLS12_381_R
#define PF_ONE FR_ONE_MONT
#define PF_R2 FR_R2
#define PF_R3 FR_R3
#define PF_N0 FR_N0
#if ZK_HAVE_MONT_ADX
#define PF_MUL_FAST(r, a, b) mont_mul_4_adx(r, a, b, BLS12_381_R, FR_N0)
#define PF_SQR_FAST(r, a) mont_sqr_4_adx(r, a, BLS12_381_R, FR_N0)
#define PF_ADD_FAST(r, a, b) mont_add_4_x86(r, a, b, BLS12_381_R)
#define PF_SUB_FAST(r, a, b) mont_sub_4_x86(r, a, b, BLS12_381_R)
#endif
#include "prime_field_impl.h"

/* r - 1 = 2^32 t with t odd; this is (t - 1) / 2. */
static const uint64_t FR_T_MINUS_1_HALF[FR_LIMBS] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                                     0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
/* 7^t in Montgomery form: 7 generates the multiplicative group, so it is not
 * a square and 7^t has order exactly 2^32. */
static const fr_t FR_ROOT_OF_UNITY_2_32 = {{0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                            0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};

/*
 * Tonelli-Shanks. With w = a^((t-1)/2): x = a w = a^((t+1)/2) and
 * b = x w = a^t, so x^2 = a b. b lies in the group of 2^32-th roots of
 * unity; each round multiplies x by a power of z = 7^t that lowers the
 * order of b until b = 1 and x^2 = a. If b has order 2^32, a is not a
 * square.
 */
bool fr_sqrt(fr_t *r, const fr_t *a) {
        unsigned order_bound = FR_TWO_ADICITY;
        fr_t w, x, b, z = FR_ROOT_OF_UNITY_2_32;

        assert(r && a);
        if (fr_is_zero(a)) {
                fr_set_zero(r);
                return true;
        }
        fr_pow(&w, a, FR_T_MINUS_1_HALF, FR_LIMBS);
        fr_mul(&x, a, &w);
        fr_mul(&b, &x, &w);

        while (!fr_is_one(&b)) {
                /* b^(2^i) = 1 for the least such i: the order of b is 2^i */
                unsigned i = 0;
                fr_t t = b;
                do {
                        fr_sqr(&t, &t);
                        i++;
                } while (!fr_is_one(&t) && i < order_bound);
                if (i == order_bound)
                        return false;

                /* g = z^(2^(bound-i-1)) has order 2^(i+1); g^2 cancels b's order */
                for (unsigned k = 0; k + i + 1 < order_bound; k++)
                        fr_sqr(&z, &z);
                fr_mul(&x, &x, &z);
                fr_sqr(&z, &z);
                fr_mul(&b, &b, &z);
                order_bound = i;
        }
        *r = x;
        return true;
}
