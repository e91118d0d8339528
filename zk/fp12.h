/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp12 = Fp6[w] / (w^2 - v): elements c0 + c1*w, the field the pairing
 * takes its values in. Seen over Fp2, w^6 = xi and the six coefficients
 * c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2 belong to w^0 ... w^5. This is
 * the element layout of ffjavascript's and zcash's Gt, so values compare
 * coefficient by coefficient. Outputs may alias inputs in every function.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "fp6.h"

typedef struct {
        fp6_t c0, c1;
} fp12_t;

void fp12_set_zero(fp12_t *r);
void fp12_set_one(fp12_t *r);
bool fp12_is_zero(const fp12_t *a);
bool fp12_is_one(const fp12_t *a);
bool fp12_equal(const fp12_t *a, const fp12_t *b);

void fp12_add(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sub(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sqr(fp12_t *r, const fp12_t *a);
/* r = 1/a; the inverse of zero is zero. */
void fp12_inv(fp12_t *r, const fp12_t *a);
/* r = c0 - c1 w = a^(p^6); the inverse of a when a is in the cyclotomic
 * subgroup (a^(p^6 + 1) = 1), as every pairing value is. */
void fp12_conjugate(fp12_t *r, const fp12_t *a);
/* r = a^(p^power), power in 0..3. */
void fp12_frobenius_map(fp12_t *r, const fp12_t *a, unsigned power);
/* r = a^e, e given as n little-endian 64-bit limbs. */
void fp12_pow(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t n);

/*
 * r = a * (l0 + l1 v + l4 v w): the shape of a line function evaluated at a
 * G1 point (coefficients of w^0, w^2, w^3; indices 0, 1, 4 when the six Fp2
 * coefficients are counted c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2).
 */
void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4);

/*
 * r = a^2 for a in the cyclotomic subgroup, a^(p^4 - p^2 + 1) = 1 (every
 * result of the easy part of the final exponentiation, f^((p^6 - 1)(p^2 + 1))),
 * at about two thirds of the cost of fp12_sqr. Wrong for other elements.
 */
void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a);
