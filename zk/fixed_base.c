/* SPDX-License-Identifier: Apache-2.0 */
/* Fixed-base multiplication (see fixed_base.h). */
#include "fixed_base.h"

#include <assert.h>
#include <errno.h>
#include <omp.h>
#include <stdbool.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "parallel.h"

#define FIXED_BASE_SCALAR_BITS 256
/* Scalars whose additions share one inversion; also the normalisation batch
 * of table building and progressions. Large enough that the inversion is a
 * few percent of a batch, small enough for a thread's buffers to stay in L2. */
#define FIXED_BASE_CHUNK ((size_t)1024)
/* Building one table point costs about two batch additions (a Jacobian
 * addition plus its share of the normalisation). */
#define FIXED_BASE_TABLE_POINT_COST 2

static unsigned fixed_base_windows(unsigned c) {
        return (FIXED_BASE_SCALAR_BITS + c - 1) / c;
}

unsigned fixed_base_window_bits(size_t n_scalars) {
        unsigned best_c = 2;
        double best = -1;

        for (unsigned c = 2; c <= FIXED_BASE_MAX_WINDOW_BITS; c++) {
                double multiples = (double)((size_t)1 << (c - 1));
                double cost = fixed_base_windows(c) *
                              ((double)n_scalars + FIXED_BASE_TABLE_POINT_COST * multiples);

                if (best < 0 || cost < best) {
                        best = cost;
                        best_c = c;
                }
        }
        return best_c;
}

/* The c bits of k from bit pos on (zero beyond bit 255); c <= 16. */
static inline uint32_t scalar_bits(const uint64_t k[FR_LIMBS], unsigned pos, unsigned c) {
        unsigned limb = pos / 64, shift = pos % 64;
        uint64_t v;

        if (limb >= FR_LIMBS)
                return 0;
        v = k[limb] >> shift;
        if (shift + c > 64 && limb + 1 < FR_LIMBS)
                v |= k[limb + 1] << (64 - shift);
        return (uint32_t)(v & ((UINT64_C(1) << c) - 1));
}

/*
 * Signed digits with sum d_w 2^(wc) = s and |d_w| <= 2^(c-1): a window
 * above 2^(c-1) becomes negative and carries one into the next. s < 2^255
 * and windows * c >= 256 leave the top window room for that carry.
 */
static void fixed_base_digits(int32_t *digits, const fr_t *s, unsigned c, unsigned windows) {
        const uint32_t half = UINT32_C(1) << (c - 1);
        uint64_t k[FR_LIMBS];
        uint32_t carry = 0;

        fr_to_canonical(k, s);
        for (unsigned w = 0; w < windows; w++) {
                uint32_t d = scalar_bits(k, w * c, c) + carry;

                carry = d > half;
                digits[w] = carry ? (int32_t)d - (int32_t)(UINT32_C(1) << c) : (int32_t)d;
        }
        assert(carry == 0);
}

/* start + i * step */
static void progression_term(fr_t *r, const fr_t *start, const fr_t *step, size_t i) {
        fr_t t;

        fr_from_u64(&t, (uint64_t)i);
        fr_mul(&t, &t, step);
        fr_add(r, start, &t);
}

#define FB_G(name) g1_##name
#define FB_AFFINE_T g1_affine_t
#define FB_JAC_T g1_jac_t
#define FB_FIELD_T fp_t
#define FB_TABLE_T struct g1_fixed_base
#include "fixed_base_impl.h"

#define FB_G(name) g2_##name
#define FB_AFFINE_T g2_affine_t
#define FB_JAC_T g2_jac_t
#define FB_FIELD_T fp2_t
#define FB_TABLE_T struct g2_fixed_base
#include "fixed_base_impl.h"
