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

void fp2_pow(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t n) {
        fp2_t acc, base = *a;

        fp2_set_one(&acc);
        for (size_t i = n; i-- > 0;)
                for (int bit = 63; bit >= 0; bit--) {
                        fp2_sqr(&acc, &acc);
                        if ((e[i] >> bit) & 1)
                                fp2_mul(&acc, &acc, &base);
                }
        *r = acc;
}

/*
 * Square root through the norm: if a = x^2 then N(a) = a0^2 + a1^2 is a
 * square in Fp, and x0^2 = (a0 + sqrt(N(a))) / 2, x1 = a1 / (2 x0).
 */
bool fp2_sqrt(fp2_t *r, const fp2_t *a) {
        fp_t norm, t, alpha;
        fp2_t x, check;

        assert(r && a);

        if (fp2_is_zero(a)) {
                fp2_set_zero(r);
                return true;
        }
        fp_sqr(&norm, &a->c0);
        fp_sqr(&t, &a->c1);
        fp_add(&norm, &norm, &t);
        if (!fp_sqrt(&norm, &norm))
                return false;

        fp_add(&alpha, &a->c0, &norm);
        fp_mul(&alpha, &alpha, &FP_HALF);
        if (!fp_sqrt(&x.c0, &alpha)) {
                fp_sub(&alpha, &a->c0, &norm);
                fp_mul(&alpha, &alpha, &FP_HALF);
                if (!fp_sqrt(&x.c0, &alpha))
                        return false;
        }
        if (fp_is_zero(&x.c0)) {
                /* a = a0 with a0 a non-square in Fp: x = sqrt(-a0) u */
                fp_set_zero(&x.c0);
                fp_neg(&t, &a->c0);
                if (!fp_sqrt(&x.c1, &t))
                        return false;
        } else {
                fp_dbl(&t, &x.c0);
                fp_inv(&t, &t);
                fp_mul(&x.c1, &a->c1, &t);
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
