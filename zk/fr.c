/* SPDX-License-Identifier: Apache-2.0 */
#include "fr.h"

const uint64_t BLS12_381_R[FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                        0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
/* 2^256 mod r */
static const uint64_t FR_ONE_MONT[FR_LIMBS] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL,
                                               0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL};
/* 2^512 mod r */
static const uint64_t FR_R2[FR_LIMBS] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL,
                                         0x05d314967254398fULL, 0x0748d9d99f59ff11ULL};

#define PF(name) fr_##name
#define PF_T fr_t
#define PF_LIMBS FR_LIMBS
#define PF_MODULUS BLS12_381_R
#define PF_ONE FR_ONE_MONT
#define PF_R2 FR_R2
#define PF_N0 0xfffffffeffffffffULL
#include "prime_field_impl.h"
