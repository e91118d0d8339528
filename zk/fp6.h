/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp6 = Fp2[v] / (v^3 - xi), xi = 1 + u: elements c0 + c1*v + c2*v^2.
 * The middle layer of the Fp12 tower used by the pairing; the layout is the
 * one of ffjavascript/zcash (three Fp2 coefficients, lowest power first).
 * Outputs may alias inputs in every function.
 */
#pragma once

#include "fp2.h"

typedef struct {
        fp2_t c0, c1, c2;
} fp6_t;

void fp6_set_zero(fp6_t *r);
void fp6_set_one(fp6_t *r);
bool fp6_is_zero(const fp6_t *a);
bool fp6_is_one(const fp6_t *a);
bool fp6_equal(const fp6_t *a, const fp6_t *b);

void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_neg(fp6_t *r, const fp6_t *a);
void fp6_dbl(fp6_t *r, const fp6_t *a);
void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sqr(fp6_t *r, const fp6_t *a);
void fp6_mul_by_fp2(fp6_t *r, const fp6_t *a, const fp2_t *b);
/* r = a * v, the non-residue Fp12 is built with. */
void fp6_mul_by_nonresidue(fp6_t *r, const fp6_t *a);
/* Sparse products for line functions: r = a * (b0 + b1 v) and r = a * (b1 v). */
void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1);
void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1);
/* r = 1/a; the inverse of zero is zero. */
void fp6_inv(fp6_t *r, const fp6_t *a);
/* r = a^(p^power), power in 1..3 (0 copies). */
void fp6_frobenius_map(fp6_t *r, const fp6_t *a, unsigned power);
