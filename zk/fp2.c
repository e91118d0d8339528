/* SPDX-License-Identifier: Apache-2.0 */
#include "fp2.h"

#include <assert.h>

/* 1/2 in Fp, Montgomery form: (p + 1)/2 * 2^384 mod p. */
static const fp_t FP_HALF = {{0x1804000000015554ULL, 0x855000053ab00001ULL, 0x633cb57c253c276fULL,
                              0x6e22d1ec31ebb502ULL, 0xd3916126f2d14ca2ULL, 0x17fbb8571a006596ULL}};

void fp2_set_zero(fp2_t *r) {
        fp_set_zero(&r->c0);
        fp_set_zero(&r->c1);
}

void fp2_set_one(fp2_t *r) {
        fp_set_one(&r->c0);
        fp_set_zero(&r->c1);
}

bool fp2_is_zero(const fp2_t *a) {
        return fp_is_zero(&a->c0) && fp_is_zero(&a->c1);
}

bool fp2_is_one(const fp2_t *a) {
        return fp_is_one(&a->c0) && fp_is_zero(&a->c1);
}

bool fp2_equal(const fp2_t *a, const fp2_t *b) {
        return fp_equal(&a->c0, &b->c0) && fp_equal(&a->c1, &b->c1);
}

void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b) {
        fp_add(&r->c0, &a->c0, &b->c0);
        fp_add(&r->c1, &a->c1, &b->c1);
}

void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b) {
        fp_sub(&r->c0, &a->c0, &b->c0);
        fp_sub(&r->c1, &a->c1, &b->c1);
}

void fp2_neg(fp2_t *r, const fp2_t *a) {
        fp_neg(&r->c0, &a->c0);
        fp_neg(&r->c1, &a->c1);
}

void fp2_dbl(fp2_t *r, const fp2_t *a) {
        fp_dbl(&r->c0, &a->c0);
        fp_dbl(&r->c1, &a->c1);
}

/* Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0b0 - a1b1 + ((a0+a1)(b0+b1) - a0b0 - a1b1) u */
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b) {
        fp_t t0, t1, s0, s1;

        fp_mul(&t0, &a->c0, &b->c0);
        fp_mul(&t1, &a->c1, &b->c1);
        fp_add(&s0, &a->c0, &a->c1);
        fp_add(&s1, &b->c0, &b->c1);
        fp_mul(&s0, &s0, &s1);
        fp_sub(&s0, &s0, &t0);
        fp_sub(&r->c1, &s0, &t1);
        fp_sub(&r->c0, &t0, &t1);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
void fp2_sqr(fp2_t *r, const fp2_t *a) {
        fp_t s, d, m;

        fp_add(&s, &a->c0, &a->c1);
        fp_sub(&d, &a->c0, &a->c1);
        fp_mul(&m, &a->c0, &a->c1);
        fp_mul(&r->c0, &s, &d);
        fp_dbl(&r->c1, &m);
}

void fp2_mul_by_fp(fp2_t *r, const fp2_t *a, const fp_t *b) {
        fp_mul(&r->c0, &a->c0, b);
        fp_mul(&r->c1, &a->c1, b);
}

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a) {
        fp_t t0, t1;

        fp_sub(&t0, &a->c0, &a->c1);
        fp_add(&t1, &a->c0, &a->c1);
        r->c0 = t0;
        r->c1 = t1;
}

void fp2_conjugate(fp2_t *r, const fp2_t *a) {
        r->c0 = a->c0;
        fp_neg(&r->c1, &a->c1);
}

/* 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2) */
void fp2_inv(fp2_t *r, const fp2_t *a) {
        fp_t n, t;

        fp_sqr(&n, &a->c0);
        fp_sqr(&t, &a->c1);
        fp_add(&n, &n, &t);
        fp_inv(&n, &n);
        fp_mul(&r->c0, &a->c0, &n);
        fp_mul(&t, &a->c1, &n);
        fp_neg(&r->c1, &t);
}

#define POW_NAME fp2_pow
#define POW_T fp2_t
#define POW_SET_ONE fp2_set_one
#define POW_MUL fp2_mul
#define POW_SQR fp2_sqr
#include "pow_impl.h"

/* (p - 3) / 4: y = x^((p-3)/4) gives x y = x^((p+1)/4) and x y^2 = x^((p-1)/2) = +-1. */
static const uint64_t P_MINUS_3_DIV_4[FP_LIMBS] = {0xee7fbfffffffeaaaULL, 0x07aaffffac54ffffULL,
                                                   0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                                   0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};

/* a in Fp (a1 = 0): s = a0^((p+1)/4) squares to a0 when a0 is a square and
 * to -a0 otherwise, and then (s u)^2 = a0 since u^2 = -1. */
static void sqrt_of_fp_element(fp2_t *x, const fp_t *a0) {
        fp_t y, s, s2;

        fp_pow(&y, a0, P_MINUS_3_DIV_4, FP_LIMBS);
        fp_mul(&s, a0, &y);
        fp_sqr(&s2, &s);
        if (fp_equal(&s2, a0)) {
                x->c0 = s;
                fp_set_zero(&x->c1);
        } else {
                fp_set_zero(&x->c0);
                x->c1 = s;
        }
}

/*
 * Square root through the norm, for p = 3 mod 4. If a = x^2 then
 * N = a0^2 + a1^2 is a square in Fp, non-zero for a != 0 because -1 is not
 * a square. With n = sqrt(N), alpha = (a0 + n)/2 and y = alpha^((p-3)/4):
 *   alpha a square:  y^2 = 1/alpha, x = alpha y + (a1 y / 2) u;
 *   otherwise:       y^2 = -1/alpha, and the other candidate
 *                    (a0 - n)/2 = -a1^2 / (4 alpha) is the square:
 *                    x = a1 y / 2 - alpha y u.
 * (Check: x0^2 - x1^2 = a0 and 2 x0 x1 = a1 in both cases.) Two
 * exponentiations in Fp and no inversion; the result is verified anyway.
 */
bool fp2_sqrt(fp2_t *r, const fp2_t *a) {
        fp_t norm, n, t, alpha, y, alpha_y, half_a1_y, sign;
        fp2_t x, check;

        assert(r && a);

        if (fp2_is_zero(a)) {
                fp2_set_zero(r);
                return true;
        }
        if (fp_is_zero(&a->c1)) {
                sqrt_of_fp_element(&x, &a->c0);
        } else {
                fp_sqr(&norm, &a->c0);
                fp_sqr(&t, &a->c1);
                fp_add(&norm, &norm, &t);
                if (!fp_sqrt(&n, &norm))
                        return false;

                fp_add(&alpha, &a->c0, &n);
                fp_mul(&alpha, &alpha, &FP_HALF);
                fp_pow(&y, &alpha, P_MINUS_3_DIV_4, FP_LIMBS);
                fp_mul(&alpha_y, &alpha, &y);
                fp_mul(&sign, &alpha_y, &y);
                fp_mul(&half_a1_y, &a->c1, &y);
                fp_mul(&half_a1_y, &half_a1_y, &FP_HALF);
                if (fp_is_one(&sign)) {
                        x.c0 = alpha_y;
                        x.c1 = half_a1_y;
                } else {
                        x.c0 = half_a1_y;
                        fp_neg(&x.c1, &alpha_y);
                }
        }
        fp2_sqr(&check, &x);
        if (!fp2_equal(&check, a))
                return false;
        *r = x;
        return true;
}

bool fp2_is_lexicographically_largest(const fp2_t *a) {
        if (!fp_is_zero(&a->c1))
                return fp_is_lexicographically_largest(&a->c1);
        return fp_is_lexicographically_largest(&a->c0);
}
