/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The two fields' constants: the modulus and R mod m as 32-bit limbs,
 * -m^-1 mod 2^32 for the Montgomery reduction, and the product's form.
 *
 * KARATSUBA_LEVELS is how many levels of Karatsuba a b takes before its
 * 2n-limb reduction (limbs_mul.cuh); 0 is the paired form, n rounds of a
 * row and a reduction (field::paired_rounds). It applies to every product
 * and sum of products of the field (the NTT's and the PCE's Fr products,
 * the MSM's Fp ones), not to squares. A build may set it with
 * -DCUZK_FR_KARATSUBA_LEVELS=1 (or FP) to time the whole prover with the
 * other form; bench-gpu-field times each form on its own.
 */
#pragma once

#include <stdint.h>

#include "hd.cuh"

#ifndef CUZK_FR_KARATSUBA_LEVELS
#define CUZK_FR_KARATSUBA_LEVELS 0
#endif
#ifndef CUZK_FP_KARATSUBA_LEVELS
#define CUZK_FP_KARATSUBA_LEVELS 0
#endif

namespace cuzk {

/* Fr: r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 */
struct fr_params {
        static constexpr int LIMBS = 8;
        static constexpr uint32_t N0 = 0xffffffffu; /* -r^-1 mod 2^32 */
        static constexpr int KARATSUBA_LEVELS = CUZK_FR_KARATSUBA_LEVELS;
        CUZK_HD static constexpr uint32_t modulus(int i) {
                constexpr uint32_t m[LIMBS] = {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402,
                                               0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753};
                return m[i];
        }
        /* 2^256 mod r */
        CUZK_HD static constexpr uint32_t one(int i) {
                constexpr uint32_t m[LIMBS] = {0xfffffffe, 0x00000001, 0x00034802, 0x5884b7fa,
                                               0xecbc4ff5, 0x998c4fef, 0xacc5056f, 0x1824b159};
                return m[i];
        }
};

/* Fp: p = 0x1a0111ea...b153ffffb9feffffffffaaab */
struct fp_params {
        static constexpr int LIMBS = 12;
        static constexpr uint32_t N0 = 0xfffcfffdu; /* -p^-1 mod 2^32 */
        static constexpr int KARATSUBA_LEVELS = CUZK_FP_KARATSUBA_LEVELS;
        CUZK_HD static constexpr uint32_t modulus(int i) {
                constexpr uint32_t m[LIMBS] = {0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe,
                                               0xf6b0f624, 0x6730d2a0, 0xf38512bf, 0x64774b84,
                                               0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea};
                return m[i];
        }
        /* 2^384 mod p */
        CUZK_HD static constexpr uint32_t one(int i) {
                constexpr uint32_t m[LIMBS] = {0x0002fffd, 0x76090000, 0xc40c0002, 0xebf4000b,
                                               0x53c758ba, 0x5f489857, 0x70525745, 0x77ce5853,
                                               0xa256ec6d, 0x5c071a97, 0xfa80e493, 0x15f65ec3};
                return m[i];
        }
};

} // namespace cuzk
