/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp2 = Fp[u] / (u^2 + 1): elements c0 + c1*u. The quadratic non-residue
 * used to build Fp6 is xi = 1 + u. Outputs may alias inputs.
 */
#pragma once

#include "fp.h"

typedef struct {
        fp_t c0, c1;
} fp2_t;

void fp2_set_zero(fp2_t *r);
void fp2_set_one(fp2_t *r);
bool fp2_is_zero(const fp2_t *a);
bool fp2_is_one(const fp2_t *a);
bool fp2_equal(const fp2_t *a, const fp2_t *b);

void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_neg(fp2_t *r, const fp2_t *a);
void fp2_dbl(fp2_t *r, const fp2_t *a);
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sqr(fp2_t *r, const fp2_t *a);
void fp2_mul_by_fp(fp2_t *r, const fp2_t *a, const fp_t *b);
/* r = a * (1 + u) */
void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a);
/* r = c0 - c1*u, which is also the p-power Frobenius map. */
void fp2_conjugate(fp2_t *r, const fp2_t *a);
/* r = 1/a; the inverse of zero is zero. */
void fp2_inv(fp2_t *r, const fp2_t *a);
/* r = a^e, e given as n little-endian 64-bit limbs. */
void fp2_pow(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t n);
/* Returns false (r untouched) when a has no square root. */
bool fp2_sqrt(fp2_t *r, const fp2_t *a);
/* The zcash sign of an Fp2 element: c1 lexicographically largest, or c1 == 0
 * and c0 lexicographically largest. */
bool fp2_is_lexicographically_largest(const fp2_t *a);
