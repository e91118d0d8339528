/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 routines of mont_x86_64.S and the run-time switch that selects
 * them. Internal to zk/: fp.c and fr.c call these through the PF_*_FAST
 * hooks of prime_field_impl.h.
 *
 * Preconditions: a, b < m, m odd, m < 2^(64n - 1) (so the CIOS sum never
 * needs an extra carry limb and a + b never carries out); m_inv_neg =
 * -m^-1 mod 2^64. r may alias a or b. Results equal those of mont.h for
 * every valid input. The multiplications need BMI2 and ADX; additions and
 * subtractions only baseline x86-64, but follow the same switch so that the
 * portable code can be tested on this machine.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__ELF__)
#define ZK_HAVE_MONT_ADX 1

void mont_mul_4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4],
                    uint64_t m_inv_neg);
void mont_sqr_4_adx(uint64_t r[4], const uint64_t a[4], const uint64_t m[4], uint64_t m_inv_neg);
void mont_mul_6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t m[6],
                    uint64_t m_inv_neg);
void mont_sqr_6_adx(uint64_t r[6], const uint64_t a[6], const uint64_t m[6], uint64_t m_inv_neg);
void mont_add_4_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4]);
void mont_sub_4_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4]);
void mont_add_6_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t m[6]);
void mont_sub_6_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t m[6]);
#else
#define ZK_HAVE_MONT_ADX 0
#endif

/* Set by zk/cpu.c at start-up (and by zk_arith_force_portable()). Until then
 * it reads false, which is safe: both paths give the same results. Hidden,
 * so that position-independent code reads it directly, not via the GOT. */
extern atomic_bool mont_asm_enabled __attribute__((visibility("hidden")));

/* Read on every multiplication: a relaxed load is a plain mov on x86-64,
 * and the branch on it is always predicted right. */
static inline bool mont_use_asm(void) {
        return atomic_load_explicit(&mont_asm_enabled, memory_order_relaxed);
}
